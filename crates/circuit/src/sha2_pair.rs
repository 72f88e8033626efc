//! A SHA-256 compression and a SHA-512 compression side by side, both with
//! feed-forward: the instance circuit of the SLH-DSA sets that hash with
//! both (FIPS 205 §11.2.2, security categories 3 and 5: `F` and `PRF` are
//! SHA-256, `H`, `T` and `H_msg` SHA-512).
//!
//! The two compressions share nothing but the instance: a statement lays
//! out its SHA-256 calls in one *lane* and its SHA-512 calls in the other,
//! each lane in its own order, and its relations wire them (a chain's last
//! `F` into the `T` that compresses it, a FORS leaf into the first `H` of
//! its path). A lane an instance does not use holds zeros and is bound to
//! nothing.
//!
//! Public inputs: the SHA-256 lane's chaining value (32 bytes, words
//! big-endian) and block (64 bytes), then the SHA-512 lane's chaining value
//! (64 bytes) and block (128 bytes); public outputs: the SHA-256 lane's new
//! chaining value (32 bytes), then the SHA-512 lane's (64 bytes). Byte `j`,
//! bit `t` of each is bit `8 j + t`, as for every hash circuit.

use crate::builder::CircuitBuilder;
use crate::r1cs::R1cs;
use crate::word::{Word, Word64};
use crate::{sha256, sha512};

/// Input bytes of the SHA-256 lane (chaining value and block).
pub const SHA256_INPUT_BYTES: usize = sha256::PUBLIC_INPUT_BITS / 8;
/// Output bytes of the SHA-256 lane.
pub const SHA256_OUTPUT_BYTES: usize = sha256::OUTPUT_BITS / 8;
/// Input bytes of the SHA-512 lane.
pub const SHA512_INPUT_BYTES: usize = sha512::PUBLIC_INPUT_BITS / 8;
/// Output bytes of the SHA-512 lane.
pub const SHA512_OUTPUT_BYTES: usize = sha512::OUTPUT_BITS / 8;

/// The circuit.
#[derive(Clone, Debug)]
pub struct Sha2Pair {
    r1cs: R1cs,
}

impl Default for Sha2Pair {
    fn default() -> Self {
        Self::new()
    }
}

impl Sha2Pair {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        let mut b = CircuitBuilder::new(
            8 * (SHA256_INPUT_BYTES + SHA512_INPUT_BYTES),
            8 * (SHA256_OUTPUT_BYTES + SHA512_OUTPUT_BYTES),
        );
        let cv: [Word; 8] = std::array::from_fn(|j| b.public_input_word_be(32 * j));
        let block: [Word; 16] = std::array::from_fn(|j| b.public_input_word_be(sha256::CV_BITS + 32 * j));
        let out = sha256::compress_gadget(&mut b, &cv, &block);
        for (j, word) in out.iter().enumerate() {
            b.set_public_output_word_be(32 * j, word);
        }
        let (input, output) = (8 * SHA256_INPUT_BYTES, 8 * SHA256_OUTPUT_BYTES);
        let cv: [Word64; 8] = std::array::from_fn(|j| b.public_input_word_be(input + 64 * j));
        let block: [Word64; 16] =
            std::array::from_fn(|j| b.public_input_word_be(input + sha512::CV_BITS + 64 * j));
        let out = sha512::compress_gadget(&mut b, &cv, &block);
        for (j, word) in out.iter().enumerate() {
            b.set_public_output_word_be(output + 64 * j, word);
        }
        let r1cs = b.compile().expect("every output is set");
        Sha2Pair { r1cs }
    }

    /// The compiled constraint system.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// Consumes the circuit, returning its constraint system.
    pub fn into_r1cs(self) -> R1cs {
        self.r1cs
    }
}
