//! Keccak-f\[1600\]: the circuit is `starling_verifier::circuit::keccak`'s,
//! re-exported here; this module adds its batch witness.

pub use starling_verifier::circuit::keccak::*;

use crate::layout::{slice_instances, unslice_instances};
use crate::r1cs::R1cs;
use crate::witness::{BatchWitness, R1csWitness, WitnessError};

/// The Keccak-f\[1600\] permutation circuit and its public layout.
#[derive(Clone, Debug)]
pub struct KeccakF1600 {
    r1cs: R1cs,
}

impl Default for KeccakF1600 {
    fn default() -> Self {
        Self::new()
    }
}

impl KeccakF1600 {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        KeccakF1600 { r1cs: keccak_f1600() }
    }

    /// The compiled constraint system.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// Consumes the gadget, returning its constraint system.
    pub fn into_r1cs(self) -> R1cs {
        self.r1cs
    }

    /// The bit-sliced public input matrix of a batch of `2^n` states.
    pub fn batch_public_inputs(n: u32, states: &[[u64; LANES]]) -> Vec<u64> {
        assert_eq!(states.len(), 1usize << n, "one state per instance");
        let rows: Vec<u64> = states.iter().flatten().copied().collect();
        slice_instances(states.len(), STATE_BITS, &rows)
    }

    /// Witness for a batch of `2^n` permutations (`n >= 7`).
    pub fn generate_witness(&self, n: u32, states: &[[u64; LANES]]) -> Result<BatchWitness, WitnessError> {
        if states.len() != 1usize << n.min(63) {
            return Err(WitnessError::InputLength {
                what: "state list",
                got: states.len(),
                expected: 1usize << n.min(63),
                bits: STATE_BITS,
            });
        }
        let inputs = Self::batch_public_inputs(n, states);
        self.r1cs.generate_witness(n, &inputs, &[])
    }

    /// The output state of every instance of a batch.
    pub fn outputs(&self, witness: &BatchWitness) -> Vec<[u64; LANES]> {
        let sliced = self.r1cs.public_outputs(witness);
        let rows = unslice_instances(witness.num_instances(), STATE_BITS, sliced);
        rows.chunks_exact(LANES)
            .map(|r| r.try_into().expect("25 lanes"))
            .collect()
    }
}
