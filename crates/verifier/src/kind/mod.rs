//! Statement kinds: everything that differs between a batch of
//! compressions, message digests, a hash chain and a Merkle root is declared
//! here, once per kind, through [`Kind`]; proving, verifying, the proof file,
//! `inspect` and verifying against an expectation are the same code for all.
//!
//! A kind has three parts, one trait each:
//! - its declaration, [`Kind`], all a verifier needs: its instance circuit
//!   (a compression function or permutation, lanes of them, or a Bristol
//!   circuit), its name and parameters; its public data, input records
//!   (rows, messages, a start and a step count, leaves, keys and messages)
//!   and output records (rows, digests, a root); how many circuit instances
//!   a statement needs; and its [`Relation`]s: which runs of interface wires
//!   of which instances equal public values, and which equal the wires of
//!   another instance (the wiring, proved by `crate::piop::wiring`). Wires
//!   no relation names are private.
//! - its text format, [`TextFormat`]: the lines of its records and the named
//!   fields of an input record.
//! - its prover's part, `starling::kind::KindProver`: every instance's input
//!   row (the private intermediate values computed natively, from each
//!   kind's `instance_rows` here), the outputs read back from the instances,
//!   a prover's lines with private fields.
//!
//! Every instance circuit puts its interface in the public block: wire 0 the
//! constant 1, then the input bits, then the output bits; bit `t` of byte `b`
//! of an input is input bit `8 b + t` ([`StatementCircuit::input_wires`]).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

pub(crate) mod batch;
pub(crate) mod chain;
pub(crate) mod digest;
pub(crate) mod membership;
pub(crate) mod merkle;
mod named;
pub(crate) mod preimage;
pub(crate) mod ring;
#[doc(hidden)]
pub mod signatures;
mod subtrees;

use alloc::sync::Arc;
use core::any::Any;
use core::fmt;
use core::ops::Range;

use crate::circuit::BristolCircuit;
use crate::codec::Reader;
pub use crate::piop::wiring::{Relation, RowFill, Values};

use crate::circuits::{Builtin, StatementCircuit};
use crate::format::MAX_CIRCUIT_TEXT_BYTES;
use crate::hashes::Hash;
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

pub use batch::Batch;
pub use chain::Chain;
pub use digest::Digest;
pub use membership::{Membership, Step as MembershipStep, DEFAULT_MAX_LEAF_LEN};
pub use merkle::{MerkleRoot, Scheme};
pub use named::{named, named_signatures, KindParams, KIND_NAMES};
pub use preimage::{Preimage, DEFAULT_MAX_LEN as DEFAULT_PREIMAGE_MAX_LEN};
pub use ring::{
    Ring, SignatureRows as RingSignatureRows, KEY_BYTES as RING_KEY_BYTES,
    MAX_CONTEXT_LEN as RING_MAX_CONTEXT_LEN, PK_DOMAIN as RING_PK_DOMAIN, TAG_DOMAIN as RING_TAG_DOMAIN,
};
pub use signatures::{
    Hss, Interface, LmsSet, Scheme as SignatureScheme, SignatureHash, Signatures, SlhDsa, SlhSet,
    MAX_MESSAGE_BYTES as MAX_SIGNED_MESSAGE_BYTES,
};

/// What a statement kind declares; see the module documentation.
pub trait Kind: TextFormat + Send + Sync + fmt::Debug + Any {
    /// The name users type and read, with its parameters (`sha256`,
    /// `chain --hash sha256`).
    fn name(&self) -> String;

    /// The kind's code in the file header.
    fn code(&self) -> u8;

    /// The kind's parameters as the file stores them (a hash, a scheme, a
    /// Bristol circuit's text); [`crate::format`] reads them back.
    fn params(&self) -> Vec<u8>;

    /// The instance circuit.
    fn circuit(&self) -> &Arc<StatementCircuit>;

    /// What one unit of the count is called (`compression`, `message`).
    fn noun(&self) -> &'static str;

    /// Bytes of every input record, when they all have the same size.
    fn input_size(&self) -> Option<usize>;

    /// Bytes of every output record, when they all have the same size.
    fn output_size(&self) -> Option<usize>;

    /// N, the count users give and see (compressions, messages, steps,
    /// leaves), and the output records the inputs call for. Errors when the
    /// inputs do not form a statement of this kind.
    fn shape(&self, inputs: &Records) -> Result<StatementShape, String>;

    /// What the public inputs must be for the statement to hold whatever
    /// the witness, beyond what [`Kind::shape`] reads: an LMS public key
    /// names its scheme's typecodes (RFC 8554 verification rejects any
    /// other). The verifier checks it; an expectation may hold any key, so
    /// that a proof under another scheme is a mismatch, not an unreadable
    /// input.
    fn check_public(&self, _inputs: &Records) -> Result<(), String> {
        Ok(())
    }

    /// Whether a statement with no input records is one: an empty RFC 6962
    /// tree has a root, the hash of the empty string (RFC 6962 §2.1); every
    /// other kind's N is at least 1.
    fn holds_without_inputs(&self) -> bool {
        false
    }

    /// Circuit instances (before padding) of the statement on these records,
    /// which [`Kind::shape`] has accepted. Most kinds' inputs fix them; a
    /// signature batch's chain lengths follow from its outputs (each
    /// signature's message representative).
    fn instances(&self, inputs: &Records, outputs: &Records) -> usize;

    /// Compression (permutation) calls the instances prove: one each,
    /// unless the instance circuit holds several lanes of calls (a
    /// signature batch's).
    fn calls(&self, inputs: &Records, outputs: &Records) -> usize {
        self.instances(inputs, outputs)
    }

    /// Whether a prover's input lines carry private fields (a signature
    /// batch's `PK MSG SIG`): the prover reads them
    /// (`starling::kind::KindProver::parse_prover_line`), the proof never carries them, and a
    /// verifier's expected lines leave them out ([`TextFormat::parse_input`]).
    fn has_private_inputs(&self) -> bool {
        false
    }

    /// Whether the kind's private records are secrets (a preimage, a
    /// member of a set, a secret key), not just values a verifier need not
    /// see: then a proof of it must be zero-knowledge, or its opened
    /// columns and sumcheck messages would give them away (DESIGN §2.2).
    /// The prover always proves it with zero knowledge, and a verifier
    /// rejects a proof of it made without ([`crate::Rejection::NotZeroKnowledge`]).
    fn requires_zero_knowledge(&self) -> bool {
        false
    }

    /// Private records a prover gives for a statement on these inputs, for
    /// a kind that [`Kind::has_private_inputs`]: one per input record
    /// (a signature, a message), unless the inputs count them otherwise (a
    /// membership statement's one public record says N, and its members
    /// are the private records). Called on inputs [`Kind::shape`] accepts.
    fn private_records(&self, inputs: &Records) -> usize {
        inputs.len()
    }

    /// What the wiring check proves, for a batch padded to `2^n` instances.
    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>>;

    /// The input and output records of the one statement that the shards'
    /// statements (of this kind, in order) prove together, or why they do
    /// not join: how a bundle links its shards (`crate::bundle`). Most
    /// kinds' records are independent, and their shards are consecutive
    /// slices of them ([`join_slices`]); a chain's are segments, a tree's
    /// subtrees, a membership statement's members of one tree.
    fn join(&self, shards: &[&Statement]) -> Result<(Records, Records), String> {
        Ok(join_slices(shards))
    }
}

/// The records of consecutive slices, back to back: the join of a kind
/// whose records are independent (a batch, digests, signatures, preimages).
pub fn join_slices(shards: &[&Statement]) -> (Records, Records) {
    let mut inputs = Records::new();
    let mut outputs = Records::new();
    for shard in shards {
        shard.inputs().iter().for_each(|r| inputs.push(r));
        shard.outputs().iter().for_each(|r| outputs.push(r));
    }
    (inputs, outputs)
}

/// A kind's text format: the lines of its records, as the command line and
/// the packages read and print them (`starling prove`'s inputs, `verify
/// --expect`, `--print-outputs`), and the named fields of an input record.
pub trait TextFormat {
    /// One input record from the whitespace-separated fields of a line.
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String>;

    /// An input record as its line.
    fn format_input(&self, record: &[u8]) -> String;

    /// An output record as its line.
    fn format_output(&self, record: &[u8]) -> String;

    /// The named fields of an input record, as byte ranges, in order.
    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)>;
}

/// Why a private field of a prover's line is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrivateInputError {
    /// It cannot be read (hex, length, a typecode, a value out of range).
    Unreadable(String),
    /// It is read, and makes the line's statement false.
    False(String),
}

/// How big a statement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatementShape {
    /// N, in the kind's unit.
    pub count: u64,
    /// Output records.
    pub outputs: usize,
}

/// A byte string as its text line: hex, or `-` when empty (what
/// `inputs::hex_bytes` reads back).
pub fn bytes_line(record: &[u8]) -> String {
    if record.is_empty() {
        "-".into()
    } else {
        hex::encode(record)
    }
}

/// The bits of `bytes` as row words (byte `b`, bit `t` is bit `8 b + t`).
pub fn row_of(bytes: &[u8]) -> Vec<u64> {
    let mut row = vec![0u64; bytes.len().div_ceil(8)];
    fill_row(&mut row, bytes);
    row
}

/// Writes the bits of `bytes` into `row` as [`row_of`] does, clearing the
/// words past them.
pub fn fill_row(row: &mut [u64], bytes: &[u8]) {
    assert!(
        bytes.len() <= 8 * row.len(),
        "{} bytes do not fit {} words",
        bytes.len(),
        row.len()
    );
    let (used, past) = row.split_at_mut(bytes.len().div_ceil(8));
    for (w, c) in used.iter_mut().zip(bytes.chunks(8)) {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        *w = u64::from_le_bytes(b);
    }
    past.fill(0);
}

/// Appends the first `len` bytes of a row to `out`.
pub fn extend_bytes_of(out: &mut Vec<u8>, row: &[u64], len: usize) {
    let start = out.len();
    out.resize(start + len, 0);
    fill_bytes_of(&mut out[start..], row);
}

/// Writes the first `out.len()` bytes of a row into `out`.
pub fn fill_bytes_of(out: &mut [u8], row: &[u64]) {
    assert!(
        out.len() <= 8 * row.len(),
        "{} bytes from {} words",
        out.len(),
        row.len()
    );
    for (chunk, w) in out.chunks_mut(8).zip(row) {
        chunk.copy_from_slice(&w.to_le_bytes()[..chunk.len()]);
    }
}

/// The kind a proof file names: its code, its parameters, and (for a
/// Bristol circuit) the bytes that follow, where the rows its declared
/// widths imply must be present before it is compiled. `known` is a
/// circuit the caller has compiled already; when the file's text is its
/// text it is used as is.
pub(crate) fn decode(
    code: u8,
    params: &[u8],
    following: &Reader<'_>,
    known: Option<&Arc<StatementCircuit>>,
) -> Result<Arc<dyn Kind>, Error> {
    let no_params = |kind: Arc<dyn Kind>| {
        if params.is_empty() {
            Ok(kind)
        } else {
            Err(Error::Malformed(format!(
                "the {} kind takes no parameters",
                kind.name()
            )))
        }
    };
    match code {
        1 => no_params(Arc::new(Batch::builtin(Builtin::Sha256))),
        2 => no_params(Arc::new(Batch::builtin(Builtin::Blake3))),
        3 => no_params(Arc::new(Batch::builtin(Builtin::KeccakF1600))),
        4 => Ok(Arc::new(Batch::of(bristol_circuit(params, following, known)?))),
        // 8 is reserved for the signatures kind.
        9 => no_params(Arc::new(Batch::builtin(Builtin::Sha512))),
        5 => Ok(Arc::new(Digest::new(one_hash(params)?))),
        6 => Ok(Arc::new(Chain::new(one_hash(params)?))),
        7 => match params {
            [h, s] => {
                let hash = one_hash(&[*h])?;
                let scheme = Scheme::from_code(*s)
                    .ok_or_else(|| Error::Malformed(format!("unknown Merkle scheme {s}")))?;
                let kind = MerkleRoot::new(hash, scheme).ok_or_else(|| {
                    Error::Malformed(format!(
                        "{} trees are not built with {}",
                        scheme.name(),
                        hash.name()
                    ))
                })?;
                Ok(Arc::new(kind))
            }
            _ => Err(Error::Malformed(
                "the kind's parameters are not a hash and a scheme".into(),
            )),
        },
        8 => Ok(Arc::new(Signatures::from_params(params)?)),
        10 => Ok(Arc::new(Preimage::from_params(params)?)),
        11 => Ok(Arc::new(Membership::from_params(params)?)),
        12 => Ok(Arc::new(Ring::from_params(params)?)),
        _ => Err(Error::Malformed(format!("unknown statement kind {code}"))),
    }
}

/// The parameters of a kind that takes one hash.
fn one_hash(params: &[u8]) -> Result<Hash, Error> {
    match params {
        [code] => Hash::from_code(*code).ok_or_else(|| Error::Malformed(format!("unknown hash {code}"))),
        _ => Err(Error::Malformed("the kind's parameters are not one hash".into())),
    }
}

/// The Bristol circuit of a `circuit` batch, read from untrusted bytes.
fn bristol_circuit(
    text: &[u8],
    following: &Reader<'_>,
    known: Option<&Arc<StatementCircuit>>,
) -> Result<Arc<StatementCircuit>, Error> {
    if text.len() > MAX_CIRCUIT_TEXT_BYTES {
        return Err(Error::Malformed(format!(
            "the circuit text has {} bytes, more than the {MAX_CIRCUIT_TEXT_BYTES} read",
            text.len()
        )));
    }
    let text =
        core::str::from_utf8(text).map_err(|_| Error::Malformed("the circuit is not UTF-8 text".into()))?;
    // The input rows the circuit's widths imply must follow (N, then N rows).
    let rows_present = |in_bits: usize| {
        let mut peek = following.clone();
        let count = peek.u64("the input records")?;
        if count.saturating_mul(in_bits.div_ceil(8) as u64) > peek.remaining() as u64 {
            return Err(Error::Malformed("the file ends inside the input records".into()));
        }
        Ok(())
    };
    if let Some(circuit) = known.filter(|c| c.bristol_text() == Some(text)) {
        rows_present(circuit.input_bits())?;
        return Ok(circuit.clone());
    }
    let parsed = BristolCircuit::parse(text).map_err(|e| Error::Malformed(format!("the circuit: {e}")))?;
    rows_present(parsed.input_sizes().iter().sum())?;
    StatementCircuit::from_parsed_bristol(text, &parsed)
        .map_err(|e| Error::Malformed(format!("the circuit: {e}")))
}

/// A batch of SHA-256 compressions.
pub fn sha256() -> Arc<dyn Kind> {
    Arc::new(Batch::builtin(Builtin::Sha256))
}

/// A batch of SHA-512 compressions.
pub fn sha512() -> Arc<dyn Kind> {
    Arc::new(Batch::builtin(Builtin::Sha512))
}

/// A batch of BLAKE3 compressions.
pub fn blake3() -> Arc<dyn Kind> {
    Arc::new(Batch::builtin(Builtin::Blake3))
}

/// A batch of Keccak-f\[1600\] permutations.
pub fn keccak_f1600() -> Arc<dyn Kind> {
    Arc::new(Batch::builtin(Builtin::KeccakF1600))
}

/// A batch of evaluations of a Bristol Fashion circuit (errors name the line).
pub fn circuit(bristol: &str) -> Result<Arc<dyn Kind>, String> {
    Ok(Arc::new(Batch::of(StatementCircuit::from_bristol(bristol)?)))
}

/// A hash chain.
pub fn chain(hash: Hash) -> Arc<dyn Kind> {
    Arc::new(Chain::new(hash))
}

/// Message digests.
pub fn digest(hash: Hash) -> Arc<dyn Kind> {
    Arc::new(Digest::new(hash))
}

/// Signatures under `scheme`, the signatures private.
pub fn signatures(scheme: SignatureScheme) -> Arc<dyn Kind> {
    Arc::new(Signatures::new(scheme))
}

/// Merkle roots; `None` when the scheme does not take the hash.
pub fn merkle_root(hash: Hash, scheme: Scheme) -> Option<Arc<dyn Kind>> {
    MerkleRoot::new(hash, scheme).map(|k| Arc::new(k) as Arc<dyn Kind>)
}

/// Preimages under `hash` of messages of at most `max_len` bytes, the
/// messages private; an error when the hash takes no such messages.
pub fn preimage(hash: Hash, max_len: usize) -> Result<Arc<dyn Kind>, String> {
    Ok(Arc::new(Preimage::new(hash, max_len)?))
}

/// Members of `scheme` trees under `hash`, the leaves, their indices and
/// their paths private (RFC 6962 leaves of at most
/// [`DEFAULT_MAX_LEAF_LEN`] bytes); an error when the scheme is not built
/// with the hash here.
pub fn membership(hash: Hash, scheme: Scheme) -> Result<Arc<dyn Kind>, String> {
    Ok(Arc::new(Membership::new(hash, scheme)?))
}

/// Linkable ring signatures over plain SHA-256 trees, the secret key, its
/// index and its path private ([`Ring`]).
pub fn ring() -> Arc<dyn Kind> {
    Arc::new(Ring::new())
}

/// Random bytes for tests from a seed (the prover's tests and benchmarks
/// draw theirs from ChaCha8, `starling::kind::SampleInputs`).
#[cfg(test)]
pub(crate) fn test_bytes(seed: u64) -> impl FnMut(&mut [u8]) {
    let mut next = crate::test_rng::xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    move |out: &mut [u8]| out.iter_mut().for_each(|b| *b = next() as u8)
}
