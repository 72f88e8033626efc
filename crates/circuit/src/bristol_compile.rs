//! Bristol Fashion circuits compiled to R1CS: the compiler is
//! `starling_verifier::circuit::bristol_compile`'s, re-exported here; this
//! module adds the batch witness of a compiled circuit.

pub use starling_verifier::circuit::bristol_compile::*;

use crate::layout::{slice_instances, unslice_instances, words_for_bits};
use crate::witness::{BatchWitness, R1csWitness, WitnessError, MAX_LOG_INSTANCES, MIN_LOG_INSTANCES};

/// The batch witness of a compiled Bristol circuit, and its outputs read
/// back per instance.
pub trait BristolWitness {
    /// Witness for a batch of `2^n` evaluations (`n >= 7`); each instance is
    /// one `Vec<bool>` per circuit input.
    fn generate_witness(&self, n: u32, instances: &[Vec<Vec<bool>>]) -> Result<BatchWitness, WitnessError>;

    /// The outputs of every instance: one `Vec<bool>` per circuit output.
    fn outputs(&self, witness: &BatchWitness) -> Vec<Vec<Vec<bool>>>;
}

impl BristolWitness for BristolR1cs {
    fn generate_witness(&self, n: u32, instances: &[Vec<Vec<bool>>]) -> Result<BatchWitness, WitnessError> {
        let bits = self.r1cs().num_public_inputs();
        let bad_length = |got: usize| WitnessError::InputLength {
            what: "instance list",
            got,
            expected: 1usize << n.min(63),
            bits,
        };
        if !(MIN_LOG_INSTANCES..=MAX_LOG_INSTANCES).contains(&n) {
            return Err(WitnessError::BadLogInstances(n));
        }
        if instances.len() != 1usize << n {
            return Err(bad_length(instances.len()));
        }
        let mut rows = Vec::with_capacity(instances.len() * words_for_bits(bits));
        for inputs in instances {
            rows.extend(self.public_input_row(inputs).ok_or(bad_length(instances.len()))?);
        }
        let sliced = slice_instances(instances.len(), bits, &rows);
        self.r1cs().generate_witness(n, &sliced, &[])
    }

    fn outputs(&self, witness: &BatchWitness) -> Vec<Vec<Vec<bool>>> {
        let bits = self.r1cs().num_public_outputs();
        if bits == 0 {
            return vec![self.output_sizes().iter().map(|_| Vec::new()).collect(); witness.num_instances()];
        }
        let rows = unslice_instances(witness.num_instances(), bits, self.r1cs().public_outputs(witness));
        rows.chunks_exact(words_for_bits(bits))
            .map(|row| {
                let mut start = 0;
                self.output_sizes()
                    .iter()
                    .map(|&size| {
                        let bits = (start..start + size)
                            .map(|j| (row[j / 64] >> (j % 64)) & 1 == 1)
                            .collect();
                        start += size;
                        bits
                    })
                    .collect()
            })
            .collect()
    }
}
