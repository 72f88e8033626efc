//! The portable definition of GF(2^128) multiplication: every faster
//! product (the one-instruction `clmul`, the prover's vector
//! kernels) is tested against it.
//!
//! Carry-less 64x64 products by integer multiplication of bits spaced four
//! apart ([`clmul64`]; [`clmul64_by_windows`] is the plain reference it is
//! tested against), Karatsuba for 128x128, then reduction modulo
//! x^128 + x^7 + x^2 + x + 1. This is the product wherever the CPU has no
//! carry-less multiply instruction: in WebAssembly, every product.

/// The four classes of bit positions modulo 4.
const SPACED: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

/// The low 64 bits of the carry-less product of `a` and `b`. Each operand is
/// split into its four classes of bit positions modulo 4; an integer
/// product of two classes adds at most 16 one-bit terms at a position, so
/// its sum there fits the four bits before the next position of the class
/// (16 terms only at bit 60 of a product of the lowest classes, whose
/// carry leaves the 64 bits), and the position's lowest bit is the XOR of
/// the terms. Sixteen integer multiplications, no table and no branch.
#[inline]
fn clmul64_low(a: u64, b: u64) -> u64 {
    let x = SPACED.map(|m| a & m);
    let y = SPACED.map(|m| b & m);
    let mut z = 0;
    for (k, &mask) in SPACED.iter().enumerate() {
        // Class k of the product: classes i and j with i + j = k mod 4.
        let mut zk = 0u64;
        for (i, &xi) in x.iter().enumerate() {
            zk ^= xi.wrapping_mul(y[(k + 4 - i) % 4]);
        }
        z |= zk & mask;
    }
    z
}

/// Carry-less product of two 64-bit polynomials: the low half directly,
/// the high half as the low half of the bit-reversed operands' product,
/// reversed (bit `t` of that is bit `63 + t` of the product).
#[inline]
pub fn clmul64(a: u64, b: u64) -> u128 {
    let low = clmul64_low(a, b);
    let high = clmul64_low(a.reverse_bits(), b.reverse_bits()).reverse_bits() >> 1;
    (u128::from(high) << 64) | u128::from(low)
}

/// [`clmul64`] by 4-bit windows of `b` over a table of `a`'s multiples: the
/// plain reference.
pub fn clmul64_by_windows(a: u64, b: u64) -> u128 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The spaced-bits product against the windows, on edge operands
    /// (dense, sparse, single bits at the ends of each class) and a
    /// pseudo-random stream.
    #[test]
    fn spaced_products_match_the_windows() {
        let mut edge = alloc::vec![0u64, 1, u64::MAX, 1 << 63, 1 << 60, 0x8000_0000_0000_0001];
        edge.extend(SPACED);
        edge.extend(SPACED.map(|m| !m));
        for &a in &edge {
            for &b in &edge {
                assert_eq!(clmul64(a, b), clmul64_by_windows(a, b), "{a:#x} * {b:#x}");
            }
        }
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..100_000 {
            let (a, b) = (next(), next());
            assert_eq!(clmul64(a, b), clmul64_by_windows(a, b), "{a:#x} * {b:#x}");
        }
    }
}
