//! What the signatures kind needs of a signature scheme's family: one
//! implementation each (LMS, SLH-DSA), so that parsing, proving, verifying
//! and the proof file are the same code for every scheme.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use core::ops::Range;

use crate::piop::wiring::Instances;

use super::hashing::{Lane, Trace};
use crate::circuits::StatementCircuit;
use crate::kind::{fill_row, row_of, Relation, Values};
use crate::records::Records;

/// A scheme family with its parameters; see the module documentation.
pub trait Family: core::fmt::Debug + Send + Sync {
    /// The name `--scheme` takes, with the flags that complete it.
    fn name(&self) -> String;

    /// The instance circuit's lanes ([`Lane`]): a group per hash the
    /// scheme calls.
    fn lanes(&self) -> Vec<Lane>;

    /// Bytes of a public key.
    fn public_key_bytes(&self) -> usize;

    /// Bytes of a signature's output record (its public values beside the
    /// key and message).
    fn output_bytes(&self) -> usize;

    /// Bytes the message hash reads of a message of `len` bytes (SLH-DSA's
    /// pure interface prefixes the context).
    fn hashed_message_bytes(&self, len: usize) -> usize;

    /// Compressions of the message hash of `len` hashed bytes.
    fn message_blocks(&self, len: usize) -> usize;

    /// Checks a public key's length and typecodes.
    fn check_public_key(&self, pk: &[u8]) -> Result<(), String>;

    /// Checks a signature's length, typecodes and indices.
    fn check_signature(&self, sig: &[u8]) -> Result<(), String>;

    /// Verifies a checked signature, keeping every compression's row and
    /// the output record; the error says what failed.
    fn trace(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<Trace, String>;

    /// Verifies a checked signature plainly, adding its compressions to
    /// `calls`.
    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8], calls: &mut u64) -> bool;

    /// A public key and a valid signature on `msg` under it, from random
    /// bytes `fill` writes.
    fn sample(&self, fill: &mut dyn FnMut(&mut [u8]), msg: &[u8]) -> (Vec<u8>, Vec<u8>);

    /// Calls of each group's hash in a batch (its virtual instances, see
    /// `placement`): records `PK ‖ MSG`, the hashed lengths of its
    /// messages, its output records.
    fn instances(&self, inputs: &Records, lens: &[usize], outputs: &Records) -> Vec<usize>;

    /// The output records, read back from the calls' outputs
    /// (`output(g, v)`: the first 64 output bytes, or all it has, of
    /// virtual instance `v` of group `g`).
    fn outputs(&self, lens: &[usize], output: &dyn Fn(usize, usize) -> [u8; 64]) -> Records;

    /// The relations of a batch padded to `2^n` instances, over the virtual
    /// instances of each group and the wires of its first lane.
    fn relations<'a>(
        &self,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        lens: &[usize],
        outputs: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>>;
}

/// The relation that binds block bytes `bytes` of each instance of
/// `instances` (the block starting at input byte `block_at`) to their
/// public values, which `template(y, bytes, out)` writes (one byte of `out`
/// per byte of the range): a family's layout knows what each instance's
/// block holds.
pub fn public_bytes<'a>(
    circuit: &StatementCircuit,
    block_at: usize,
    instances: Instances,
    bytes: Range<usize>,
    template: impl Fn(usize, Range<usize>, &mut [u8]) + Send + Sync + 'a,
) -> Relation<'a> {
    assert!(bytes.len() <= 200, "at most a Keccak state's bytes");
    Relation {
        instances,
        wires: circuit.input_wires(block_at + bytes.start..block_at + bytes.end),
        from: None,
        values: Values::PerInstance(Box::new(move |y, values| {
            let mut out = [0u8; 200];
            let out = &mut out[..bytes.len()];
            template(y, bytes.clone(), out);
            fill_row(values, out)
        })),
    }
}

/// [`public_bytes`] for bytes that are the same in every instance of the
/// set (a padding after values of one length): the values are the first
/// instance's, one row the verifier weighs once for the whole set instead
/// of once per instance. `None` for an empty set.
pub fn same_public_bytes<'a>(
    circuit: &StatementCircuit,
    block_at: usize,
    instances: Instances,
    bytes: Range<usize>,
    template: impl Fn(usize, Range<usize>, &mut [u8]),
) -> Option<Relation<'a>> {
    let first = match &instances {
        Instances::Range { start, end } => (start < end).then_some(*start),
        Instances::Set(bits) => bits
            .iter()
            .position(|&w| w != 0)
            .map(|w| 64 * w + bits[w].trailing_zeros() as usize),
    }?;
    let mut out = vec![0u8; bytes.len()];
    template(first, bytes.clone(), &mut out);
    Some(Relation {
        instances,
        wires: circuit.input_wires(block_at + bytes.start..block_at + bytes.end),
        from: None,
        values: Values::Constant(row_of(&out)),
    })
}

/// Checks that a public key (`what` is "public key") or signature has the
/// `wanted` bytes `scheme`'s have.
pub fn check_length(what: &str, bytes: &[u8], scheme: &str, wanted: usize) -> Result<(), String> {
    if bytes.len() == wanted {
        Ok(())
    } else {
        let plural = if what == "public key" {
            "keys"
        } else {
            "signatures"
        };
        Err(format!(
            "the {what} has {} bytes; {scheme} {plural} have {wanted}",
            bytes.len()
        ))
    }
}
