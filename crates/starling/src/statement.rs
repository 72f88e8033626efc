//! What a proof is about: the statement kinds and their public values.

/// One SHA-256 compression call: chaining value and message block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sha256Input {
    /// Chaining value as eight big-endian words.
    pub cv: [u32; 8],
    /// The 64-byte message block.
    pub block: [u8; 64],
}

impl Sha256Input {
    /// `cv + F(cv, block)`, exactly what `sha2::compress256` computes.
    pub fn output(&self) -> [u32; 8] {
        let mut state = self.cv;
        sha2::compress256(&mut state, &[self.block.into()]);
        state
    }
}

/// The public part of a batch of SHA-256 compressions: every input and output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sha256Statement {
    /// The N inputs, in order.
    pub inputs: Vec<Sha256Input>,
    /// The N outputs, in the same order.
    pub outputs: Vec<[u32; 8]>,
}

impl Sha256Statement {
    /// The statement for these inputs with their true outputs.
    pub fn compute(inputs: Vec<Sha256Input>) -> Self {
        let outputs = inputs.iter().map(Sha256Input::output).collect();
        Sha256Statement { inputs, outputs }
    }

    /// Number of compressions N.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// True when there are no compressions (never the case for a valid statement).
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }
}
