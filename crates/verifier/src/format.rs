//! The proof file: magic, version, kind, public data, proof.
//!
//! ```text
//! magic    8 bytes  "STARLING"
//! version  u16 LE   9 ([`VERSION`])
//! kind     u8       1 sha256, 2 blake3, 3 keccak-f1600, 4 circuit (batches),
//!                   5 digest, 6 chain, 7 merkle-root, 8 signatures,
//!                   9 sha512 (a batch), 10 preimage, 11 membership
//! profile  u8       0 default, 1 secure; top bit set: zero knowledge
//! params            u32 LE length, the kind's parameters (a Bristol
//!                   circuit's text; a hash; a hash and a scheme; a
//!                   signature scheme and its options; a hash and a u32 LE
//!                   longest message; a hash, a scheme and for rfc6962 a
//!                   u32 LE longest leaf)
//! inputs            u64 LE count, then the input records
//! outputs           u64 LE count, then the output records
//! sections          for each proof part in order: u32 LE length, bytes
//! ```
//!
//! Records are raw bytes when the kind gives them a fixed size, otherwise
//! each is a u32 LE length and its bytes. Decoding never panics and never
//! allocates more than the file's own size justifies: every length and count
//! is checked against the bytes that remain (`crate::codec`), and
//! a Bristol circuit is parsed, and the rows its declared widths imply are
//! checked to be present, before it is compiled.

use alloc::format;
use alloc::vec::Vec;

use alloc::sync::Arc;

use crate::codec::{put_section, Reader};

use crate::circuits::StatementCircuit;
use crate::host::Host;
use crate::kind::{self, Kind};
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

/// File magic.
pub const MAGIC: &[u8; 8] = b"STARLING";
/// Format version written and accepted.
pub const VERSION: u16 = 9;
/// Largest N a proof file may claim, and most records of one list.
pub const MAX_INSTANCES: u64 = 1 << 24;

/// Largest Bristol circuit text read, from a file or from a proof (the
/// parser's own limits, `crate::circuit::bristol::MAX_BRISTOL_WIRES` and
/// `MAX_BRISTOL_PUBLIC_BITS`, bound the circuit it describes).
pub const MAX_CIRCUIT_TEXT_BYTES: usize = 512 << 20;

/// Largest proof file read (4 GiB: the public values of 2^23 Keccak-f
/// states, more than any machine we know proves at once).
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// The top bit of the header's profile byte: the batch is laid out for zero
/// knowledge (`crate::protocol::batch_params_zk`).
pub const ZK_PROFILE_BIT: u8 = 0x80;

/// Bytes of the fixed header: magic, version, kind, profile.
pub const HEADER_BYTES: usize = 8 + 2 + 1 + 1;

/// The parsed header.
pub struct Header {
    /// Kind code.
    pub code: u8,
    /// Profile code.
    pub profile: u8,
}

/// Reads and checks the header.
pub fn read_header(r: &mut Reader<'_>) -> Result<Header, Error> {
    let magic = r.take(8, "the magic")?;
    if magic != MAGIC {
        return Err(Error::Malformed(
            "not a Starling proof file or bundle (bad magic)".into(),
        ));
    }
    let version = r.u16("the version")?;
    if version != VERSION {
        return Err(Error::Malformed(format!(
            "proof format version {version} is not supported (this build reads {VERSION})"
        )));
    }
    let code = r.u8("the statement kind")?;
    let profile = r.u8("the profile")?;
    Ok(Header { code, profile })
}

/// Writes the header and the kind's parameters.
pub fn write_header(out: &mut Vec<u8>, kind: &dyn Kind, profile: u8) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(kind.code());
    out.push(profile);
    put_section(out, &kind.params());
}

/// Reads the kind's parameters and the kind they describe. `known` is a
/// circuit the caller has compiled already (the one a verifier expects).
pub fn read_kind(
    r: &mut Reader<'_>,
    code: u8,
    known: Option<&Arc<StatementCircuit>>,
) -> Result<Arc<dyn Kind>, Error> {
    let params = r.section("the kind's parameters")?;
    kind::decode(code, params, r, known)
}

/// Appends one list of records.
fn write_records(out: &mut Vec<u8>, records: &Records, fixed: Option<usize>) {
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for record in records.iter() {
        if fixed.is_none() {
            out.extend_from_slice(&(record.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(record);
    }
}

/// Reads one list of records, each count and length checked against the
/// bytes present before anything is allocated for it.
fn read_records(r: &mut Reader<'_>, fixed: Option<usize>, what: &'static str) -> Result<Records, Error> {
    let count = r.u64(what)?;
    if count > MAX_INSTANCES {
        return Err(Error::Malformed(format!(
            "{count} {what} are more than the {MAX_INSTANCES} one proof holds"
        )));
    }
    let per_record = fixed.unwrap_or(4).max(1) as u64;
    if count.saturating_mul(per_record) > r.remaining() as u64 && fixed != Some(0) {
        return Err(Error::Malformed(format!("the file ends inside the {what}")));
    }
    match fixed {
        Some(size) => Ok(Records::from_fixed(
            r.take(size * count as usize, what)?.to_vec(),
            size,
        )),
        None => {
            let mut records = Records::new();
            for _ in 0..count {
                let len = r.u32(what)? as usize;
                records.push(r.take(len, what)?);
            }
            Ok(records)
        }
    }
}

/// Writes the public data.
pub fn write_statement(out: &mut Vec<u8>, st: &Statement) {
    write_records(out, st.inputs(), st.kind().input_size());
    write_records(out, st.outputs(), st.kind().output_size());
}

/// Reads the public data of a statement of `kind`.
pub fn read_statement(r: &mut Reader<'_>, kind: Arc<dyn Kind>) -> Result<Statement, Error> {
    let inputs = read_records(r, kind.input_size(), "input records")?;
    let outputs = read_records(r, kind.output_size(), "output records")?;
    Statement::new(kind, inputs, outputs).map_err(Error::Malformed)
}

/// Bytes of the public data in the file.
pub fn statement_bytes(st: &Statement) -> usize {
    [
        (st.inputs(), st.kind().input_size()),
        (st.outputs(), st.kind().output_size()),
    ]
    .iter()
    .map(|(records, fixed)| {
        let lengths = if fixed.is_none() { 4 * records.len() } else { 0 };
        8 + lengths + records.concatenated().len()
    })
    .sum()
}

/// BLAKE3 of the public data in file order (the transcript binds it, and
/// `verify` prints it; [`Statement::public_digest`] computes it once per
/// statement). BLAKE3 rather than SHA-256 because this is the one
/// hash over all the public data (megabytes: 2 MB of inputs and outputs for
/// 2^14 SHA-256 compressions), which both prover and verifier compute on one
/// thread, and BLAKE3's SIMD hashes it in under half SHA-256's time even with
/// the SHA extensions (2.2 MB: 0.57 against 1.24 ms on a Zen 4); it is as
/// collision resistant (128 bits), which is all the binding needs.
///
/// Fixed-size records are hashed by the host ([`Host::hash_records`]: the
/// native one on rayon's threads, the same digest, BLAKE3 being a tree).
/// Keccak-f's 26 MB at 2^16 permutations took 10 ms of the prover's commit
/// phase on one of two Zen 4 threads.
pub fn statement_digest(st: &Statement, host: &dyn Host) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new();
    for (records, fixed) in [
        (st.inputs(), st.kind().input_size()),
        (st.outputs(), st.kind().output_size()),
    ] {
        hasher.update(&(records.len() as u64).to_le_bytes());
        if fixed.is_some() {
            host.hash_records(&mut hasher, records.concatenated());
            continue;
        }
        for record in records.iter() {
            hasher.update(&(record.len() as u32).to_le_bytes());
            hasher.update(record);
        }
    }
    hasher.finalize().into()
}
