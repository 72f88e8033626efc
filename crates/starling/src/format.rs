//! The proof file: magic, version, statement (all public values), proof.
//!
//! ```text
//! magic    8 bytes  "STARLING"
//! version  u16 LE   2
//! kind     u8       1 = sha256, 2 = blake3, 3 = keccak-f1600, 4 = circuit
//! profile  u8       0 = default, 1 = secure
//! count    u64 LE   N, 1 <= N <= MAX_INSTANCES
//! circuit           kind 4 only: u32 LE length, the Bristol Fashion text
//! statement         N x (input bytes, output bytes) of each instance
//! sections          for each proof part in order: u32 LE length, bytes
//! ```
//!
//! The public values of an instance are its input and output bits. SHA-256
//! writes them as SHA-256 does: 32-bit words big-endian (cv 32 bytes, block
//! 64, output 32). The other kinds write bit `j` as bit `j mod 8` of byte
//! `j / 8`, which is BLAKE3's and Keccak's own little-endian byte order
//! (BLAKE3: cv 32, block 64, counter 8, block length 4, flags 4, output 64
//! bytes; Keccak: state 200, output 200 bytes); bits past the width in the
//! last byte must be zero.
//! Decoding never panics and never allocates more than the file's own size
//! justifies: every length is checked against the bytes that remain
//! (`starling_crypto::codec`).

use std::sync::Arc;

use starling_circuit::BristolCircuit;
use starling_crypto::codec::{put_section, DecodeError, Reader};

use crate::circuits::StatementCircuit;
use crate::statement::{Statement, StatementKind};
use crate::Error;

/// File magic.
pub const MAGIC: &[u8; 8] = b"STARLING";
/// Format version written and accepted.
pub const VERSION: u16 = 2;
/// Largest batch a proof file may claim (2^24 compressions).
pub const MAX_INSTANCES: u64 = 1 << 24;

/// Largest Bristol circuit text read, from a file or from a proof (the
/// parser's own limits, `starling_circuit::bristol::MAX_BRISTOL_WIRES` and
/// `MAX_BRISTOL_PUBLIC_BITS`, bound the circuit it describes).
pub const MAX_CIRCUIT_TEXT_BYTES: usize = 512 << 20;

/// Largest proof file read (4 GiB: the public values of 2^23 Keccak-f
/// states, more than any machine we know proves at once).
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// Bytes of the header: magic, version, kind, profile, count.
pub const HEADER_BYTES: usize = 8 + 2 + 1 + 1 + 8;

/// Bytes of `bits` public bits of one instance.
pub fn row_bytes(bits: usize) -> usize {
    bits.div_ceil(8)
}

/// Bytes of the statement of `count` instances of `circuit`.
pub fn statement_bytes(circuit: &StatementCircuit, count: usize) -> usize {
    count * (row_bytes(circuit.input_bits()) + row_bytes(circuit.output_bits()))
}

/// Appends the `row_bytes(bits)` bytes of a row in `kind`'s byte order:
/// little-endian, except SHA-256's big-endian 32-bit words.
fn extend_row_bytes(out: &mut Vec<u8>, kind: StatementKind, row: &[u64], bits: usize) {
    let len = row_bytes(bits);
    let start = out.len();
    for &word in row {
        match kind {
            StatementKind::Sha256 => {
                out.extend_from_slice(&(word as u32).to_be_bytes());
                out.extend_from_slice(&((word >> 32) as u32).to_be_bytes());
            }
            _ => out.extend_from_slice(&word.to_le_bytes()),
        }
    }
    out.truncate(start + len);
}

/// The `row_bytes(bits)` bytes of a row in `kind`'s byte order.
pub fn row_to_bytes(kind: StatementKind, row: &[u64], bits: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(row.len() * 8);
    extend_row_bytes(&mut out, kind, row, bits);
    out
}

/// Appends to `out` the row whose bytes in `kind`'s order are `bytes`.
pub fn append_row_from_bytes(kind: StatementKind, bytes: &[u8], out: &mut Vec<u64>) {
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        out.push(match kind {
            StatementKind::Sha256 => {
                let lo = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
                let hi = u32::from_be_bytes([word[4], word[5], word[6], word[7]]);
                u64::from(lo) | (u64::from(hi) << 32)
            }
            _ => u64::from_le_bytes(word),
        });
    }
}

/// SHA-256 of the statement's public values in file order, computed a row
/// at a time (the transcript binds this digest; at 2^14 Keccak states the
/// values are 6.5 MB, which it need not hold as bytes).
pub fn statement_digest(st: &Statement) -> [u8; 32] {
    use sha2::Digest;
    let circuit = st.circuit();
    let mut hasher = sha2::Sha256::new();
    let mut buf = Vec::with_capacity(8 * (circuit.input_words() + circuit.output_words()));
    for i in 0..st.len() {
        buf.clear();
        extend_row_bytes(&mut buf, st.kind(), st.input_row(i), circuit.input_bits());
        extend_row_bytes(&mut buf, st.kind(), st.output_row(i), circuit.output_bits());
        hasher.update(&buf);
    }
    hasher.finalize().into()
}

/// The public values of a statement in file order.
pub fn statement_bytes_of(st: &Statement) -> Vec<u8> {
    let circuit = st.circuit();
    let mut out = Vec::with_capacity(statement_bytes(circuit, st.len()) + 8);
    for i in 0..st.len() {
        extend_row_bytes(&mut out, st.kind(), st.input_row(i), circuit.input_bits());
        extend_row_bytes(&mut out, st.kind(), st.output_row(i), circuit.output_bits());
    }
    out
}

/// Writes the statement's public values.
pub fn write_statement(out: &mut Vec<u8>, st: &Statement) {
    out.extend_from_slice(&statement_bytes_of(st));
}

/// Reads `count` instances of public values of `circuit`.
pub fn read_statement(
    r: &mut Reader<'_>,
    circuit: Arc<StatementCircuit>,
    count: u64,
) -> Result<Statement, Error> {
    check_count(count)?;
    let count = count as usize;
    let (in_bytes, out_bytes) = (row_bytes(circuit.input_bits()), row_bytes(circuit.output_bits()));
    // Check the whole statement is present before allocating for it.
    let all = r.take(statement_bytes(&circuit, count), "the statement")?;
    let mut inputs = Vec::with_capacity(count * circuit.input_words());
    let mut outputs = Vec::with_capacity(count * circuit.output_words());
    let kind = circuit.kind();
    if in_bytes + out_bytes > 0 {
        for chunk in all.chunks_exact(in_bytes + out_bytes) {
            append_row_from_bytes(kind, &chunk[..in_bytes], &mut inputs);
            append_row_from_bytes(kind, &chunk[in_bytes..], &mut outputs);
        }
    }
    Statement::from_rows(circuit, count, inputs, outputs)
        .ok_or_else(|| Error::Malformed("the statement sets bits past a value's width".into()))
}

fn check_count(count: u64) -> Result<(), Error> {
    if count == 0 || count > MAX_INSTANCES {
        return Err(Error::Malformed(format!(
            "batch size {count} is outside 1..={MAX_INSTANCES}"
        )));
    }
    Ok(())
}

/// The parsed header.
pub struct Header {
    /// Statement kind.
    pub kind: StatementKind,
    /// Profile code.
    pub profile: u8,
    /// N.
    pub count: u64,
}

/// Reads and checks the header.
pub fn read_header(r: &mut Reader<'_>) -> Result<Header, Error> {
    let magic = r.take(8, "the magic")?;
    if magic != MAGIC {
        return Err(Error::Malformed("not a Starling proof file (bad magic)".into()));
    }
    let version = r.u16("the version")?;
    if version != VERSION {
        return Err(Error::Malformed(format!(
            "proof format version {version} is not supported (this build reads {VERSION})"
        )));
    }
    let code = r.u8("the statement kind")?;
    let kind = StatementKind::from_code(code)
        .ok_or_else(|| Error::Malformed(format!("unknown statement kind {code}")))?;
    let profile = r.u8("the profile")?;
    let count = r.u64("the batch size")?;
    check_count(count)?;
    Ok(Header { kind, profile, count })
}

/// Writes the header.
pub fn write_header(out: &mut Vec<u8>, kind: StatementKind, profile: u8, count: u64) {
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(kind.code());
    out.push(profile);
    out.extend_from_slice(&count.to_le_bytes());
}

/// Writes the circuit part: the Bristol text of a `circuit` statement,
/// nothing for the built-in kinds.
pub fn write_circuit(out: &mut Vec<u8>, circuit: &StatementCircuit) {
    if let Some(text) = circuit.bristol_text() {
        put_section(out, text.as_bytes());
    }
}

/// Reads the circuit part for `kind` and compiles it, for a statement of
/// `count` instances. `known` is a circuit the caller already has (the one a
/// verifier expects): when the file's text is its text, it is used as is.
///
/// A Bristol circuit is parsed (bounded by the parser's limits), then the
/// statement it implies, `count` rows of its input and output widths, must
/// be present in the bytes that follow before it is compiled.
pub fn read_circuit(
    r: &mut Reader<'_>,
    kind: StatementKind,
    count: u64,
    known: Option<&Arc<StatementCircuit>>,
) -> Result<Arc<StatementCircuit>, Error> {
    if let Some(circuit) = StatementCircuit::builtin(kind) {
        return Ok(circuit);
    }
    let bytes = r.section("the circuit")?;
    if bytes.len() > MAX_CIRCUIT_TEXT_BYTES {
        return Err(Error::Malformed(format!(
            "the circuit text has {} bytes, more than the {MAX_CIRCUIT_TEXT_BYTES} read",
            bytes.len()
        )));
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| Error::Malformed("the circuit is not UTF-8 text".into()))?;
    let statement_present = |in_bits: usize, out_bits: usize| {
        let row = (row_bytes(in_bits) + row_bytes(out_bits)) as u64;
        if row.saturating_mul(count) > r.remaining() as u64 {
            return Err(Error::from(DecodeError::Truncated("the statement")));
        }
        Ok(())
    };
    if let Some(circuit) = known.filter(|c| c.bristol_text() == Some(text)) {
        statement_present(circuit.input_bits(), circuit.output_bits())?;
        return Ok(circuit.clone());
    }
    let parsed = BristolCircuit::parse(text).map_err(|e| Error::Malformed(format!("the circuit: {e}")))?;
    statement_present(
        parsed.input_sizes().iter().sum(),
        parsed.output_sizes().iter().sum(),
    )?;
    StatementCircuit::from_parsed_bristol(text, &parsed)
        .map_err(|e| Error::Malformed(format!("the circuit: {e}")))
}

/// Bytes of the circuit part of a file.
pub fn circuit_bytes(circuit: &StatementCircuit) -> usize {
    circuit.bristol_text().map_or(0, |t| 4 + t.len())
}
