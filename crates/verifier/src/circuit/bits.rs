//! Bits packed into little-endian 64-bit words (bit `j` is bit `j % 64` of
//! word `j / 64`): how rows of public values are held.

use alloc::vec;
use alloc::vec::Vec;

/// Words needed for `bits` bits.
pub fn words_for_bits(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// Packs bits into words.
pub fn pack_bits(bits: &[bool]) -> Vec<u64> {
    let mut out = vec![0u64; words_for_bits(bits.len())];
    for (j, &b) in bits.iter().enumerate() {
        out[j / 64] |= u64::from(b) << (j % 64);
    }
    out
}

/// Bit `j` of packed words.
#[inline]
pub fn get_bit(words: &[u64], j: usize) -> bool {
    (words[j / 64] >> (j % 64)) & 1 == 1
}
