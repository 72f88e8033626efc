//! The prover's part of a statement kind: what only a prover computes
//! (every instance's input rows, the outputs read back from the instances,
//! a prover's lines with private fields), apart from the kind's declaration
//! ([`Kind`]: circuit, shape, relations, text format), which is all a
//! verifier needs. [`prover_of`] finds a kind's prover part.

use rayon::prelude::*;
use starling_field::scratch;

use super::{
    fill_bytes_of, fill_row, Batch, Chain, Digest, Kind, Membership, MerkleRoot, Preimage, PrivateInputError,
    Ring, Signatures,
};
use crate::Error;
use crate::Records;

/// What a prover computes for a statement of a kind.
pub trait KindProver: Kind {
    /// The public and the private record of a prover's line, for a kind
    /// that [`Kind::has_private_inputs`]. [`PrivateInputError::Unreadable`]
    /// for a malformed line, [`PrivateInputError::False`] when the line's
    /// statement is false (a signature that does not verify), which no
    /// proof can show.
    fn parse_prover_line(&self, _fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        Err(PrivateInputError::Unreadable(format!(
            "{} statements take no private inputs",
            self.name()
        )))
    }

    /// The prover's instance rows: the circuit input bits of every instance
    /// ([`Kind::instances`] rows of `input_words`), intermediate values
    /// included, from the public input records and the private ones (empty
    /// unless the kind [`Kind::has_private_inputs`], else one per input).
    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error>;

    /// The public outputs, from the output rows of every instance.
    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records;
}

/// The prover's part of `kind`, one of the kinds this crate declares (the
/// kinds a proof file can name).
pub fn prover_of(kind: &dyn Kind) -> &dyn KindProver {
    let any: &dyn std::any::Any = kind;
    if let Some(k) = any.downcast_ref::<Batch>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Chain>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Digest>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<MerkleRoot>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Signatures>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Preimage>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Membership>() {
        return k;
    }
    if let Some(k) = any.downcast_ref::<Ring>() {
        return k;
    }
    unreachable!("{} is not a kind this crate declares", kind.name())
}

impl KindProver for Batch {
    fn instance_inputs(&self, inputs: &Records, _private: &Records) -> Result<Vec<u64>, Error> {
        let circuit = self.circuit();
        // On rayon: one thread took 11 ms for 2^16 Keccak-f states (Zen 4),
        // a serial step in a witness phase that otherwise scales.
        let words = circuit.input_words();
        // Cleared on rayon too (`scratch::filled`): 13 MiB of Keccak-f states.
        let mut rows = scratch::filled(inputs.len() * words, 0u64);
        if words > 0 {
            rows.par_chunks_mut(words)
                .with_min_len(1024)
                .enumerate()
                .for_each(|(i, row)| fill_row(row, inputs.get(i)));
        }
        Ok(rows)
    }
    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        let circuit = self.circuit();
        // On rayon, like the inputs: the outputs phase (this and the
        // unslicing before it) took 34 ms of a 2^16 Keccak-f proof on
        // sixteen Xeon threads while both were serial, 8-10 ms with only
        // this one serial.
        let words = circuit.output_words();
        let size = circuit.output_bytes();
        assert!(
            instance_outputs.len() >= inputs.len() * words,
            "an output row per record"
        );
        let mut bytes = scratch::filled(inputs.len() * size, 0u8);
        if size > 0 {
            bytes
                .par_chunks_mut(size)
                .zip(instance_outputs.par_chunks_exact(words))
                .with_min_len(1024)
                .for_each(|(out, row)| fill_bytes_of(out, row));
        }
        Records::from_fixed(bytes, size)
    }
}

impl KindProver for Chain {
    fn instance_inputs(&self, inputs: &Records, _private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs)
    }

    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        self.outputs_of_rows(inputs, instance_outputs)
    }
}

impl KindProver for Digest {
    fn instance_inputs(&self, inputs: &Records, _private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs)
    }

    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        self.outputs_of_rows(inputs, instance_outputs)
    }
}

impl KindProver for MerkleRoot {
    fn instance_inputs(&self, inputs: &Records, _private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs)
    }

    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        self.outputs_of_rows(inputs, instance_outputs)
    }
}

impl KindProver for Signatures {
    fn parse_prover_line(&self, fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        self.parse_signed_line(fields)
    }

    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs, private)
    }

    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        self.outputs_of_rows(inputs, instance_outputs)
    }
}

impl KindProver for Preimage {
    fn parse_prover_line(&self, fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        self.parse_secret_line(fields)
    }

    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs, private)
    }

    fn outputs(&self, _inputs: &Records, _instance_outputs: &[u64]) -> Records {
        // The digests are inputs; the statement has no outputs.
        Records::new()
    }
}

impl KindProver for Membership {
    fn parse_prover_line(&self, _fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        // One public record for N members: a line is not a record of each.
        Err(PrivateInputError::Unreadable(
            "a membership statement's members are read with the tree's leaves (`inputs::read_members`)"
                .into(),
        ))
    }

    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs, private)
    }

    fn outputs(&self, _inputs: &Records, _instance_outputs: &[u64]) -> Records {
        // The root is an input; the statement has no outputs.
        Records::new()
    }
}

impl KindProver for Ring {
    fn parse_prover_line(&self, _fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        // The records come from the ring's keys, the secret key, the
        // context and the message (`starling::ring::statement`).
        Err(PrivateInputError::Unreadable(
            "a ring signature's records are built with `starling::ring::statement`".into(),
        ))
    }

    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        self.instance_rows(inputs, private)
    }

    fn outputs(&self, _inputs: &Records, _instance_outputs: &[u64]) -> Records {
        // K is an input; the statement has no outputs.
        Records::new()
    }
}
