//! SHA-512 compression with feed-forward: the circuit is
//! `starling_verifier::circuit::sha512`'s, re-exported here; this module adds
//! its batch witness.

pub use starling_verifier::circuit::sha512::*;

use crate::layout::{slice_instances, unslice_instances};
use crate::r1cs::R1cs;
use crate::witness::{BatchWitness, R1csWitness, WitnessError};

/// The SHA-512 compression circuit and its public layout.
#[derive(Clone, Debug)]
pub struct Sha512Compression {
    r1cs: R1cs,
}

impl Default for Sha512Compression {
    fn default() -> Self {
        Self::new()
    }
}

impl Sha512Compression {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        Sha512Compression {
            r1cs: sha512_compression(),
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

    /// Packed public input bits of one instance (24 words of 64 bits, bit
    /// `j` = public input bit `j`): the chaining value's bytes then the
    /// block's.
    pub fn public_input_row(cv: &[u64; 8], block: &[u8; 128]) -> [u64; PUBLIC_INPUT_WORDS] {
        let mut bytes = [0u8; 192];
        bytes[..64].copy_from_slice(&cv_to_bytes(cv));
        bytes[64..].copy_from_slice(block);
        std::array::from_fn(|m| u64::from_le_bytes(bytes[8 * m..8 * m + 8].try_into().expect("8 bytes")))
    }

    /// Witness for a batch of `2^n` compressions (`n >= 7`).
    pub fn generate_witness(
        &self,
        n: u32,
        instances: &[([u64; 8], [u8; 128])],
    ) -> Result<BatchWitness, WitnessError> {
        let expected = 1usize << n.min(63);
        if instances.len() != expected {
            return Err(WitnessError::InputLength {
                what: "instance list",
                got: instances.len(),
                expected,
                bits: PUBLIC_INPUT_BITS,
            });
        }
        let rows: Vec<u64> = instances
            .iter()
            .flat_map(|(cv, block)| Self::public_input_row(cv, block))
            .collect();
        let inputs = slice_instances(instances.len(), PUBLIC_INPUT_BITS, &rows);
        self.r1cs.generate_witness(n, &inputs, &[])
    }

    /// The output chaining values of every instance of a batch.
    pub fn outputs(&self, witness: &BatchWitness) -> Vec<[u64; 8]> {
        self.output_bytes(witness)
            .iter()
            .map(|b| {
                std::array::from_fn(|j| u64::from_be_bytes(b[8 * j..8 * j + 8].try_into().expect("8 bytes")))
            })
            .collect()
    }

    /// The outputs as 64 bytes each (words big-endian, as in a digest).
    pub fn output_bytes(&self, witness: &BatchWitness) -> Vec<[u8; 64]> {
        let sliced = self.r1cs.public_outputs(witness);
        let rows = unslice_instances(witness.num_instances(), OUTPUT_BITS, sliced);
        rows.chunks_exact(OUTPUT_BITS / 64)
            .map(|r| {
                let mut out = [0u8; 64];
                for (chunk, word) in out.chunks_exact_mut(8).zip(r) {
                    chunk.copy_from_slice(&word.to_le_bytes());
                }
                out
            })
            .collect()
    }
}
