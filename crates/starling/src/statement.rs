//! What a proof is about: N evaluations of one circuit, every input and
//! output public.
//!
//! A statement holds the public values of each instance as *rows*: the
//! circuit's public input bits packed into little-endian `u64` words (bit `j`
//! of the row is public input bit `j`), and likewise the output bits. Which
//! bit means what is the circuit's business (see `starling-circuit`); how
//! rows are read from and written to text is in [`crate::inputs`].

use std::sync::Arc;

use starling_circuit::layout::words_for_bits;

use crate::circuits::StatementCircuit;

/// The statement kinds a proof file can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatementKind {
    /// SHA-256 compressions with feed-forward (`cv + F(cv, block)`).
    Sha256,
    /// BLAKE3 compressions, the full 16-word output state.
    Blake3,
    /// Keccak-f\[1600\] permutations.
    KeccakF1600,
    /// Evaluations of a Bristol Fashion circuit carried in the proof file.
    Circuit,
}

impl StatementKind {
    /// Every kind, in code order.
    pub const ALL: [StatementKind; 4] = [
        StatementKind::Sha256,
        StatementKind::Blake3,
        StatementKind::KeccakF1600,
        StatementKind::Circuit,
    ];

    /// The kind's code in the file header.
    pub fn code(self) -> u8 {
        match self {
            StatementKind::Sha256 => 1,
            StatementKind::Blake3 => 2,
            StatementKind::KeccakF1600 => 3,
            StatementKind::Circuit => 4,
        }
    }

    /// The kind with this header code.
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The name users type and see (`sha256`, `blake3`, `keccak-f1600`, `circuit`).
    pub fn name(self) -> &'static str {
        match self {
            StatementKind::Sha256 => "sha256",
            StatementKind::Blake3 => "blake3",
            StatementKind::KeccakF1600 => "keccak-f1600",
            StatementKind::Circuit => "circuit",
        }
    }

    /// What one instance is called in messages.
    pub fn instance_noun(self) -> &'static str {
        match self {
            StatementKind::Sha256 | StatementKind::Blake3 => "compression",
            StatementKind::KeccakF1600 => "permutation",
            StatementKind::Circuit => "evaluation",
        }
    }
}

/// The public part of a batch: the circuit and every input and output row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    circuit: Arc<StatementCircuit>,
    count: usize,
    inputs: Vec<u64>,
    outputs: Vec<u64>,
}

impl Statement {
    /// A statement of `count` instances from their input and output rows
    /// ([`StatementCircuit::input_words`] and `output_words` words each).
    /// Returns `None` when the lengths disagree or a row has a bit set past
    /// the circuit's width.
    pub fn from_rows(
        circuit: Arc<StatementCircuit>,
        count: usize,
        inputs: Vec<u64>,
        outputs: Vec<u64>,
    ) -> Option<Self> {
        let canonical = inputs.len() == count * circuit.input_words()
            && outputs.len() == count * circuit.output_words()
            && rows_are_canonical(&inputs, circuit.input_bits())
            && rows_are_canonical(&outputs, circuit.output_bits());
        canonical.then_some(Statement {
            circuit,
            count,
            inputs,
            outputs,
        })
    }

    /// The circuit every instance evaluates.
    pub fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    /// The statement kind.
    pub fn kind(&self) -> StatementKind {
        self.circuit.kind()
    }

    /// Number of instances N.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when there are no instances (never the case for a valid statement).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The public input row of instance `i`.
    pub fn input_row(&self, i: usize) -> &[u64] {
        let w = self.circuit.input_words();
        &self.inputs[i * w..(i + 1) * w]
    }

    /// The public output row of instance `i`.
    pub fn output_row(&self, i: usize) -> &[u64] {
        let w = self.circuit.output_words();
        &self.outputs[i * w..(i + 1) * w]
    }

    /// Every input row, instance after instance.
    pub fn input_rows(&self) -> &[u64] {
        &self.inputs
    }

    /// Every output row, instance after instance.
    pub fn output_rows(&self) -> &[u64] {
        &self.outputs
    }

    /// Mutable output rows, for tests that play a cheating prover.
    #[cfg(test)]
    pub(crate) fn output_rows_mut(&mut self) -> &mut [u64] {
        &mut self.outputs
    }

    /// Mutable input rows, for tests that play a cheating prover.
    #[cfg(test)]
    pub(crate) fn input_rows_mut(&mut self) -> &mut [u64] {
        &mut self.inputs
    }
}

/// True when no row of `bits`-bit rows has a bit set at or past `bits`.
pub(crate) fn rows_are_canonical(rows: &[u64], bits: usize) -> bool {
    let words = words_for_bits(bits);
    let spare = words * 64 - bits;
    if spare == 0 || words == 0 {
        return true;
    }
    let mask = !0u64 << (64 - spare);
    rows.chunks_exact(words).all(|row| row[words - 1] & mask == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_bits_past_the_width_are_refused() {
        // One 1-bit input, one 1-bit output: only bit 0 of each row may be set.
        let c = StatementCircuit::from_bristol("1 2\n1 1\n1 1\n\n1 1 0 1 INV\n").unwrap();
        assert!(Statement::from_rows(c.clone(), 1, vec![1], vec![0]).is_some());
        assert!(Statement::from_rows(c.clone(), 1, vec![2], vec![0]).is_none());
        assert!(Statement::from_rows(c.clone(), 1, vec![0], vec![1 << 63]).is_none());
        assert!(Statement::from_rows(c, 2, vec![0], vec![0]).is_none());
    }
}
