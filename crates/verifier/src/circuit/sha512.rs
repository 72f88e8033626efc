//! SHA-512 compression as a circuit (FIPS 180-4, §6.4.2), feed-forward
//! included: output = cv + F(cv, block), exactly `sha2::compress512`.
//!
//! Public inputs: the chaining value (64 bytes, its 8 words big-endian, as a
//! digest writes them) then the block (128 bytes); public output: the new
//! chaining value (64 bytes). Byte `b` of each, bit `t`, is public bit
//! `8 b + t`, as for SHA-256 and every other hash kind.
//!
//! The rounds are the SHA-2 gadget shared with SHA-256 (`sha2_rounds`) on
//! 64-bit words: 80 rounds and 64 scheduled words, every addition 63 AND
//! rows (fewer when adding a round constant with low zero bits), Ch and Maj
//! one AND per bit, and a, e and each scheduled word materialised by one
//! linear row (bit 0 of its sum).

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::r1cs::R1cs;
use crate::circuit::sha2_rounds::{self, Sha2Spec};
use crate::circuit::word::Word64;

/// SHA-512 round constants (FIPS 180-4 §4.2.3): the first 64 bits of the
/// fractional parts of the cube roots of the first 80 primes.
pub const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// The SHA-512 initial chaining value (FIPS 180-4 §5.3.5).
pub const SHA512_IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// SHA-512's rotations (FIPS 180-4 §4.1.3) and round constants.
static SPEC: Sha2Spec = Sha2Spec {
    round_constants: &K,
    big_sigma0: [28, 34, 39],
    big_sigma1: [14, 18, 41],
    small_sigma0: [1, 8, 7],
    small_sigma1: [19, 61, 6],
};

/// Bits of the chaining value.
pub const CV_BITS: usize = 512;
/// Bits of a message block.
pub const BLOCK_BITS: usize = 1024;
/// Public input bits: chaining value then block.
pub const PUBLIC_INPUT_BITS: usize = CV_BITS + BLOCK_BITS;
/// Public output bits: the new chaining value.
pub const OUTPUT_BITS: usize = 512;
/// Words per instance of the packed public input (1,536 bits).
pub const PUBLIC_INPUT_WORDS: usize = PUBLIC_INPUT_BITS / 64;

/// Builds the compression function into `b`, given the chaining value and
/// block words, and returns the 8 output words (feed-forward included).
pub fn compress_gadget(b: &mut CircuitBuilder, cv: &[Word64; 8], block: &[Word64; 16]) -> [Word64; 8] {
    sha2_rounds::compress(b, &SPEC, cv, block)
}

/// A chaining value as 64 bytes (words big-endian).
pub fn cv_to_bytes(cv: &[u64; 8]) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (chunk, word) in out.chunks_exact_mut(8).zip(cv) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The compiled SHA-512 compression constraint system.
pub fn sha512_compression() -> R1cs {
    let mut b = CircuitBuilder::new(PUBLIC_INPUT_BITS, OUTPUT_BITS);
    build(&mut b);
    b.compile().expect("every SHA-512 output is set")
}

/// Builds the compression into `b`, its public values at input bit 0 and
/// output bit 0 (of `b`'s lane), laid out as SHA-256's with 64-bit words.
pub fn build(b: &mut CircuitBuilder) {
    let cv: [Word64; 8] = core::array::from_fn(|j| b.public_input_word_be(64 * j));
    let block: [Word64; 16] = core::array::from_fn(|j| b.public_input_word_be(CV_BITS + 64 * j));
    let out = compress_gadget(b, &cv, &block);
    for (j, word) in out.iter().enumerate() {
        b.set_public_output_word_be(64 * j, word);
    }
}
