//! The public wires of every instance, as the verifier rebuilds them from the
//! statement: the constant wire, the inputs, the outputs, zeros up to 2^p.
//!
//! The batch is padded to `N = 2^n` instances (at least 128: one packed field
//! element per wire) with all-zero inputs, whose outputs both sides compute
//! from the circuit. The table is produced 64 instances at a time, straight
//! from the statement's rows, as the public-value claim consumes it.

use starling_circuit::layout::transpose64;

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

/// Writes the public wires of instances `64 g .. 64 g + 63` of the padded
/// batch, in the layout of `starling_piop::wiring::GroupFill`: the constant
/// wire, the input bits, the output bits (the padding instances have
/// all-zero inputs and the circuit's outputs on them), zeros up to 2^p.
pub fn fill_group(statement: &Statement, g: usize, words: &mut [u64]) {
    let circuit = statement.circuit();
    let r1cs = circuit.r1cs();
    words[0] = u64::MAX;
    let input = |i: usize| {
        if i < statement.len() {
            statement.input_row(i)
        } else {
            circuit.zero_input()
        }
    };
    let output = |i: usize| {
        if i < statement.len() {
            statement.output_row(i)
        } else {
            circuit.padding_output()
        }
    };
    let (in_bits, out_bits) = (circuit.input_bits(), circuit.output_bits());
    let first = r1cs.public_input_wire(0);
    transpose_group(g, in_bits, input, &mut words[first..first + in_bits]);
    let first = r1cs.public_output_wire(0);
    transpose_group(g, out_bits, output, &mut words[first..first + out_bits]);
}

/// Bit `j` of the rows of instances `64 g ..` as one word per `j < bits`.
fn transpose_group<'a>(g: usize, bits: usize, row: impl Fn(usize) -> &'a [u64], out: &mut [u64]) {
    let mut block = [0u64; 64];
    for col in 0..bits.div_ceil(64) {
        for (r, slot) in block.iter_mut().enumerate() {
            *slot = row(64 * g + r)[col];
        }
        transpose64(&mut block);
        let live = (bits - 64 * col).min(64);
        out[64 * col..64 * col + live].copy_from_slice(&block[..live]);
    }
}
