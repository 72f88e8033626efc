//! The public wires of every instance, as the verifier rebuilds them from the
//! statement: the constant wire, the inputs, the outputs, zeros up to 2^p.
//!
//! The batch is padded to `N = 2^n` instances (at least 128: one packed field
//! element per wire) with all-zero compressions, whose public values both
//! sides know. The table uses the witness layout restricted to wires
//! `[0, 2^p)`: word `w + (N/64) * wire`, bit = instance mod 64.

use starling_circuit::layout::slice_instances;
use starling_circuit::sha256::{Sha256Compression, OUTPUT_BITS};
use starling_circuit::R1cs;

use crate::statement::{Sha256Input, Sha256Statement};

/// Smallest log2 batch size: 128 instances fill one packed field element.
pub const MIN_LOG_INSTANCES: u32 = 7;

/// `n` with `2^n >= count`, at least [`MIN_LOG_INSTANCES`].
pub fn log_instances(count: usize) -> u32 {
    let n = count.next_power_of_two().trailing_zeros();
    n.max(MIN_LOG_INSTANCES)
}

/// The padding compression: all-zero chaining value and block.
pub fn padding_input() -> Sha256Input {
    Sha256Input {
        cv: [0; 8],
        block: [0; 64],
    }
}

/// The inputs of all `2^n` instances as the gadget takes them.
pub fn padded_inputs(statement: &Sha256Statement, n: u32) -> Vec<([u32; 8], [u8; 64])> {
    let pad = padding_input();
    let mut all: Vec<([u32; 8], [u8; 64])> = statement.inputs.iter().map(|i| (i.cv, i.block)).collect();
    all.resize(1usize << n, (pad.cv, pad.block));
    all
}

/// The public-wire table of a padded SHA-256 batch.
pub fn sha256_public_words(r1cs: &R1cs, statement: &Sha256Statement, n: u32) -> Vec<u64> {
    let count = 1usize << n;
    let groups = count / 64;
    let p = r1cs.p() as usize;
    let mut table = vec![0u64; groups << p];
    // Wire 0: the constant 1 in every instance.
    table[..groups].fill(u64::MAX);
    // Inputs: wires 1.. in input-bit order.
    let inputs = Sha256Compression::batch_public_inputs(n, &padded_inputs(statement, n));
    let first_in = r1cs.public_input_wire(0);
    table[first_in * groups..first_in * groups + inputs.len()].copy_from_slice(&inputs);
    // Outputs: bit 32j + i is bit i of output word j.
    let pad_out = padding_input().output();
    let mut rows = Vec::with_capacity(count * OUTPUT_BITS / 64);
    for inst in 0..count {
        let out = statement.outputs.get(inst).unwrap_or(&pad_out);
        for pair in out.chunks_exact(2) {
            rows.push(pair[0] as u64 | ((pair[1] as u64) << 32));
        }
    }
    let outputs = slice_instances(count, OUTPUT_BITS, &rows);
    let first_out = r1cs.public_output_wire(0);
    table[first_out * groups..first_out * groups + outputs.len()].copy_from_slice(&outputs);
    table
}
