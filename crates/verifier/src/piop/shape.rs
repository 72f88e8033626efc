//! The shape of a batch: `N = 2^n` instances of a circuit with `K = 2^k` wires.

use super::PiopError;

/// Number of skip variables: the low 6 instance bits, one `u64` word.
pub const SKIP_VARS: usize = 6;

/// Largest `n + k` this layer accepts (a bound for decoders, far above use).
pub const MAX_LOG_SIZE: usize = 48;

/// `n` (log2 of the instance count) and `k` (log2 of the wires per instance).
///
/// Witness bit `instance + N * wire` is bit `instance % 64` of word
/// `instance / 64 + (N / 64) * wire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    n: usize,
    k: usize,
}

impl Shape {
    /// Checks `n >= 7` (one skip word plus the packing bit), `k >= 1` and
    /// `n + k <= MAX_LOG_SIZE`.
    pub fn new(n: usize, k: usize) -> Result<Self, PiopError> {
        if n < SKIP_VARS + 1 {
            return Err(PiopError::BadShape("n must be at least 7"));
        }
        if k < 1 {
            return Err(PiopError::BadShape("k must be at least 1"));
        }
        if n + k > MAX_LOG_SIZE {
            return Err(PiopError::BadShape("n + k is too large"));
        }
        Ok(Shape { n, k })
    }

    /// log2 of the number of instances.
    pub fn n(&self) -> usize {
        self.n
    }

    /// log2 of the number of wires per instance.
    pub fn k(&self) -> usize {
        self.k
    }

    /// `l = n + k`, the number of variables of the batch witness.
    pub fn l(&self) -> usize {
        self.n + self.k
    }

    /// Number of variables left after the skip: `l - 6` (word index bits).
    pub fn word_vars(&self) -> usize {
        self.l() - SKIP_VARS
    }

    /// Number of `u64` words in a batch witness vector: `2^(l - 6)`.
    pub fn num_words(&self) -> usize {
        1 << self.word_vars()
    }

    /// Number of words holding one wire across all instances: `N / 64`.
    pub fn words_per_wire(&self) -> usize {
        1 << (self.n - SKIP_VARS)
    }
}
