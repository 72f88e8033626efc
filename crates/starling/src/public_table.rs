//! The public wires of every instance, as the verifier rebuilds them from the
//! statement: the constant wire, the inputs, the outputs, zeros up to 2^p.
//!
//! The batch is padded to `N = 2^n` instances (at least 128: one packed field
//! element per wire) with all-zero inputs, whose outputs both sides compute
//! from the circuit. The table uses the witness layout restricted to wires
//! `[0, 2^p)`: word `w + (N/64) * wire`, bit = instance mod 64.

use starling_circuit::layout::slice_instances_into;

use crate::statement::Statement;

/// Smallest log2 batch size: 128 instances fill one packed field element.
pub const MIN_LOG_INSTANCES: u32 = 7;

/// `n` with `2^n >= count`, at least [`MIN_LOG_INSTANCES`].
pub fn log_instances(count: usize) -> u32 {
    let n = count.next_power_of_two().trailing_zeros();
    n.max(MIN_LOG_INSTANCES)
}

/// The input rows of all `2^n` instances, the padding ones all zero.
pub fn padded_input_rows(statement: &Statement, n: u32) -> Vec<u64> {
    let mut rows = statement.input_rows().to_vec();
    rows.resize((1usize << n) * statement.circuit().input_words(), 0);
    rows
}

/// The public-wire table of a padded batch.
pub fn public_words(statement: &Statement, n: u32) -> Vec<u64> {
    let circuit = statement.circuit();
    let r1cs = circuit.r1cs();
    let count = 1usize << n;
    let groups = count / 64;
    let mut table = vec![0u64; groups << r1cs.p()];
    // Wire 0: the constant 1 in every instance.
    table[..groups].fill(u64::MAX);
    // Inputs, then outputs, sliced straight into their wires; the padding
    // instances have all-zero inputs and the circuit's outputs on them.
    let (in_bits, out_bits) = (circuit.input_bits(), circuit.output_bits());
    let zero_row = vec![0u64; circuit.input_words()];
    let first = r1cs.public_input_wire(0) * groups;
    slice_instances_into(
        count,
        in_bits,
        |i| {
            if i < statement.len() {
                statement.input_row(i)
            } else {
                &zero_row
            }
        },
        &mut table[first..first + in_bits * groups],
    );
    let first = r1cs.public_output_wire(0) * groups;
    slice_instances_into(
        count,
        out_bits,
        |i| {
            if i < statement.len() {
                statement.output_row(i)
            } else {
                circuit.padding_output()
            }
        },
        &mut table[first..first + out_bits * groups],
    );
    table
}
