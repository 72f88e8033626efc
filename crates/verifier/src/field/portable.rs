//! The portable definition of GF(2^128) multiplication: every faster
//! product (the one-instruction `clmul`, the prover's vector
//! kernels) is tested against it.
//!
//! Carry-less 64x64 products by 4-bit windows, Karatsuba for 128x128, then
//! reduction modulo x^128 + x^7 + x^2 + x + 1.

/// Carry-less product of two 64-bit polynomials.
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    let mut table = [0u128; 16];
    let a = a as u128;
    for (i, entry) in table.iter_mut().enumerate() {
        for bit in 0..4 {
            if (i >> bit) & 1 == 1 {
                *entry ^= a << bit;
            }
        }
    }
    let mut r = 0u128;
    for j in (0..16).rev() {
        r = (r << 4) ^ table[((b >> (4 * j)) & 15) as usize];
    }
    r
}

/// Carry-less 128x128 product as (low, high) halves of the 256-bit result.
#[inline]
pub fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// Reduces `hi * x^128 + lo` modulo x^128 + x^7 + x^2 + x + 1.
#[inline]
pub fn reduce(lo: u128, hi: u128) -> u128 {
    // x^128 = x^7 + x^2 + x + 1. Bits of hi shifted past 128 by the multiply
    // with (x^7 + x^2 + x + 1) form t, which is folded in once more.
    let t = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    let h = hi ^ t;
    lo ^ h ^ (h << 1) ^ (h << 2) ^ (h << 7)
}

/// Field product.
#[inline]
pub fn mul(a: u128, b: u128) -> u128 {
    let (lo, hi) = clmul128(a, b);
    reduce(lo, hi)
}
