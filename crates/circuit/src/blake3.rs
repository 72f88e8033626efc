//! BLAKE3 compression: the circuit is `starling_verifier::circuit::blake3`'s,
//! re-exported here; this module adds its batch witness.

pub use starling_verifier::circuit::blake3::*;

use crate::layout::{slice_instances, unslice_instances};
use crate::r1cs::R1cs;
use crate::witness::{BatchWitness, R1csWitness, WitnessError};

/// The BLAKE3 compression circuit and its public layout.
#[derive(Clone, Debug)]
pub struct Blake3Compression {
    r1cs: R1cs,
}

impl Default for Blake3Compression {
    fn default() -> Self {
        Self::new()
    }
}

impl Blake3Compression {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        Blake3Compression {
            r1cs: blake3_compression(),
        }
    }

    /// The compiled constraint system.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// Consumes the gadget, returning its constraint system.
    pub fn into_r1cs(self) -> R1cs {
        self.r1cs
    }

    /// Packed public input bits of one instance (14 words of 64 bits, bit `j`
    /// = public input bit `j`): cv, block, t0, t1, block length, flags.
    pub fn public_input_row(input: &Blake3Input) -> [u64; PUBLIC_INPUT_WORDS] {
        let words = input.public_words();
        std::array::from_fn(|m| u64::from(words[2 * m]) | (u64::from(words[2 * m + 1]) << 32))
    }

    /// The bit-sliced public input matrix of a batch of `2^n` instances.
    pub fn batch_public_inputs(n: u32, instances: &[Blake3Input]) -> Vec<u64> {
        assert_eq!(instances.len(), 1usize << n, "one input per instance");
        let rows: Vec<u64> = instances.iter().flat_map(Self::public_input_row).collect();
        slice_instances(instances.len(), PUBLIC_INPUT_BITS, &rows)
    }

    /// Witness for a batch of `2^n` compressions (`n >= 7`).
    pub fn generate_witness(&self, n: u32, instances: &[Blake3Input]) -> Result<BatchWitness, WitnessError> {
        if instances.len() != 1usize << n.min(63) {
            return Err(WitnessError::InputLength {
                what: "instance list",
                got: instances.len(),
                expected: 1usize << n.min(63),
                bits: PUBLIC_INPUT_BITS,
            });
        }
        let inputs = Self::batch_public_inputs(n, instances);
        self.r1cs.generate_witness(n, &inputs, &[])
    }

    /// The 16-word output state of every instance of a batch.
    pub fn outputs(&self, witness: &BatchWitness) -> Vec<[u32; 16]> {
        let sliced = self.r1cs.public_outputs(witness);
        let rows = unslice_instances(witness.num_instances(), OUTPUT_BITS, sliced);
        rows.chunks_exact(OUTPUT_BITS / 64)
            .map(|r| std::array::from_fn(|j| (r[j / 2] >> (32 * (j % 2))) as u32))
            .collect()
    }

    /// The outputs as 64 bytes each (words little-endian, as BLAKE3 emits
    /// them).
    pub fn output_bytes(&self, witness: &BatchWitness) -> Vec<[u8; 64]> {
        self.outputs(witness).iter().map(state_to_bytes).collect()
    }
}
