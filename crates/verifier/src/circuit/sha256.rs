//! SHA-256 compression as a circuit (FIPS 180-4, §6.2.2), feed-forward
//! included: output = cv + F(cv, block), exactly `sha2::compress256`.
//!
//! Public inputs: the chaining value (32 bytes, its 8 words big-endian, as a
//! digest writes them) then the block (64 bytes); public output: the new
//! chaining value (32 bytes). Byte `b` of each, bit `t`, is public bit
//! `8 b + t`: the order of every hash kind, so that a digest's bytes are a
//! run of consecutive wires wherever they are copied.
//!
//! The rounds are the SHA-2 gadget shared with SHA-512 (`sha2_rounds`).
//! Cost: every addition is 31 AND rows (30 when adding the round constant),
//! Ch and Maj one AND per bit. Adding a constant whose low bits are zero
//! needs no AND until its first set bit, which is why the AND count sits
//! slightly under 600·31 + 64·64.
//!
//! Materialisation: a, e and the scheduled `W_t` cost one linear row each
//! (bit 0 of a sum; the AND rows of a sum hold its other bits): 432 linear
//! rows, 23,774 committed wires with 188,299 nonzeros. Before the addends a, e and `W_t` were materialised by
//! 32 linear rows each and T1 left symbolic (29,230 wires, 461,973
//! nonzeros), and the proof of 2^14 compressions ran at 25.4k per second
//! against 29.3k now (one Zen 4 thread, alternating runs).

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::r1cs::R1cs;
use crate::circuit::sha2_rounds::{self, Sha2Spec};
use crate::circuit::word::Word;

/// SHA-256 round constants (FIPS 180-4 §4.2.2).
pub const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// The SHA-256 initial chaining value.
pub const SHA256_IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Bits of the chaining value.
pub const CV_BITS: usize = 256;
/// Bits of a message block.
pub const BLOCK_BITS: usize = 512;
/// Public input bits: chaining value then block.
pub const PUBLIC_INPUT_BITS: usize = CV_BITS + BLOCK_BITS;
/// Public output bits: the new chaining value.
pub const OUTPUT_BITS: usize = 256;
/// Words per instance of the packed public input (768 bits).
pub const PUBLIC_INPUT_WORDS: usize = PUBLIC_INPUT_BITS / 64;

/// SHA-256's rotations and round constants (FIPS 180-4 §4.1.2).
static SPEC: Sha2Spec = Sha2Spec {
    round_constants: &K_WIDE,
    big_sigma0: [2, 13, 22],
    big_sigma1: [6, 11, 25],
    small_sigma0: [7, 18, 3],
    small_sigma1: [17, 19, 10],
};

/// [`K`] as the 64-bit constants the shared SHA-2 gadget adds.
static K_WIDE: [u64; 64] = {
    let mut wide = [0u64; 64];
    let mut t = 0;
    while t < 64 {
        wide[t] = K[t] as u64;
        t += 1;
    }
    wide
};

/// Builds the compression function into `b`, given the chaining value and
/// block words, and returns the 8 output words (feed-forward included).
pub fn compress_gadget(b: &mut CircuitBuilder, cv: &[Word; 8], block: &[Word; 16]) -> [Word; 8] {
    sha2_rounds::compress(b, &SPEC, cv, block)
}

/// A chaining value as 32 bytes (words big-endian).
pub fn cv_to_bytes(cv: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(cv) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The compiled SHA-256 compression constraint system.
pub fn sha256_compression() -> R1cs {
    let mut b = CircuitBuilder::new(PUBLIC_INPUT_BITS, OUTPUT_BITS);
    build(&mut b);
    b.compile().expect("every SHA-256 output is set")
}

/// Builds the compression into `b`, its public values at input bit 0 and
/// output bit 0 (of `b`'s lane): the chaining value's bytes, then the
/// block's, in; the new chaining value's bytes out (words big-endian).
pub fn build(b: &mut CircuitBuilder) {
    let cv: [Word; 8] = core::array::from_fn(|j| b.public_input_word_be(32 * j));
    let block: [Word; 16] = core::array::from_fn(|j| b.public_input_word_be(CV_BITS + 32 * j));
    let out = compress_gadget(b, &cv, &block);
    for (j, word) in out.iter().enumerate() {
        b.set_public_output_word_be(32 * j, word);
    }
}
