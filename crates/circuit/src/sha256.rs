//! SHA-256 compression (FIPS 180-4 §6.2.2) with feed-forward: the circuit
//! is `starling_verifier::circuit::sha256`'s, re-exported here; this module
//! adds its batch witness.

pub use starling_verifier::circuit::sha256::*;

use crate::layout::{slice_instances, unslice_instances};
use crate::r1cs::R1cs;
use crate::witness::{BatchWitness, R1csWitness, WitnessError};

/// The SHA-256 compression circuit and its public layout.
#[derive(Clone, Debug)]
pub struct Sha256Compression {
    r1cs: R1cs,
}

impl Default for Sha256Compression {
    fn default() -> Self {
        Self::new()
    }
}

impl Sha256Compression {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        Sha256Compression {
            r1cs: sha256_compression(),
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

    /// Packed public input bits of one instance (12 words of 64 bits, bit `j`
    /// = public input bit `j`): the chaining value's bytes then the block's.
    pub fn public_input_row(cv: &[u32; 8], block: &[u8; 64]) -> [u64; PUBLIC_INPUT_WORDS] {
        let mut bytes = [0u8; 96];
        bytes[..32].copy_from_slice(&cv_to_bytes(cv));
        bytes[32..].copy_from_slice(block);
        core::array::from_fn(|m| u64::from_le_bytes(bytes[8 * m..8 * m + 8].try_into().expect("8 bytes")))
    }

    /// The bit-sliced public input matrix of a batch of `2^n` instances.
    pub fn batch_public_inputs(n: u32, instances: &[([u32; 8], [u8; 64])]) -> Vec<u64> {
        assert_eq!(instances.len(), 1usize << n, "one (cv, block) per instance");
        let rows: Vec<u64> = instances
            .iter()
            .flat_map(|(cv, block)| Self::public_input_row(cv, block))
            .collect();
        slice_instances(instances.len(), PUBLIC_INPUT_BITS, &rows)
    }

    /// Witness for a batch of `2^n` compressions (`n >= 7`).
    pub fn generate_witness(
        &self,
        n: u32,
        instances: &[([u32; 8], [u8; 64])],
    ) -> Result<BatchWitness, WitnessError> {
        self.check_instance_count(n, instances)?;
        let inputs = Self::batch_public_inputs(n, instances);
        self.r1cs.generate_witness(n, &inputs, &[])
    }

    fn check_instance_count(&self, n: u32, instances: &[([u32; 8], [u8; 64])]) -> Result<(), WitnessError> {
        if instances.len() != 1usize << n.min(63) {
            return Err(WitnessError::InputLength {
                what: "instance list",
                got: instances.len(),
                expected: 1usize << n.min(63),
                bits: PUBLIC_INPUT_BITS,
            });
        }
        Ok(())
    }

    /// The output chaining values of every instance of a batch.
    pub fn outputs(&self, witness: &BatchWitness) -> Vec<[u32; 8]> {
        self.output_bytes(witness)
            .iter()
            .map(|b| {
                core::array::from_fn(|j| u32::from_be_bytes(b[4 * j..4 * j + 4].try_into().expect("4 bytes")))
            })
            .collect()
    }

    /// The outputs as 32 bytes each (words big-endian, as in a digest).
    pub fn output_bytes(&self, witness: &BatchWitness) -> Vec<[u8; 32]> {
        let sliced = self.r1cs.public_outputs(witness);
        let rows = unslice_instances(witness.num_instances(), OUTPUT_BITS, sliced);
        rows.chunks_exact(OUTPUT_BITS / 64)
            .map(|r| {
                let mut out = [0u8; 32];
                for (chunk, word) in out.chunks_exact_mut(8).zip(r) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
                out
            })
            .collect()
    }
}
