//! A second basis of GF(2^8) for the AVX2 tier, in which a product of two
//! variable bytes is cheap without GFNI.
//!
//! The tower `GF(16)[T] / (T^2 + T + lambda)` (GF(16) modulo `X^4 + X + 1`,
//! `lambda` the first constant that makes the quadratic irreducible) is a
//! field of 256 elements, so it is isomorphic to the AES field. A byte
//! `h << 4 | l` stands for `h T + l`, and
//! `(h1 T + l1)(h2 T + l2) = (m2 + m0) T + (m0 + lambda m1)` with
//! `m0 = l1 l2`, `m1 = h1 h2`, `m2 = (h1 + l1)(h2 + l2)`: three GF(16)
//! products, each two 16-entry logarithm lookups, an addition modulo 15 and
//! an exponential lookup, which are `vpshufb`s. The isomorphism sends the
//! AES generator `x` to a root `beta` of the AES polynomial in the tower
//! and is GF(2)-linear, so tables of GF(2)-linear maps absorb it: the
//! kernels read the extra-point values already in the tower basis and map
//! products back to the AES basis inside their constant-product tables.

use std::sync::OnceLock;

/// The tower basis and its GF(16) tables.
pub(crate) struct Tower {
    /// `lambda * n` for the 16 nibbles `n`.
    pub(crate) lambda_times: [u8; 16],
    /// `log[n]`: the discrete logarithm of `n != 0` to the base `X`
    /// (`0..15`); `log[0] = 0xf0`, so that a sum with a zero's logarithm,
    /// reduced modulo 15 as the kernel does, keeps its top bit set and
    /// `vpshufb` turns it into 0.
    pub(crate) log: [u8; 16],
    /// `exp[i] = X^i` for `i < 15`.
    pub(crate) exp: [u8; 16],
    to_tower: [u8; 256],
    from_tower: [u8; 256],
}

impl Tower {
    /// The tower-basis image of an AES-basis byte.
    pub(crate) fn tower_of(&self, x: u8) -> u8 {
        self.to_tower[x as usize]
    }

    /// The AES-basis byte of a tower-basis one.
    pub(crate) fn aes_of(&self, x: u8) -> u8 {
        self.from_tower[x as usize]
    }
}

/// GF(16) product modulo `X^4 + X + 1`.
fn gf16_mul(a: u8, b: u8) -> u8 {
    let mut r = (0..4)
        .filter(|i| (b >> i) & 1 == 1)
        .fold(0u8, |r, i| r ^ (a << i));
    for i in (4..7).rev() {
        if (r >> i) & 1 == 1 {
            r ^= 0b1_0011 << (i - 4);
        }
    }
    r
}

/// The tower product (the definition the kernel computes).
pub(crate) fn tower_mul(lambda: u8, x: u8, y: u8) -> u8 {
    let (h1, l1, h2, l2) = (x >> 4, x & 15, y >> 4, y & 15);
    let (m0, m1, m2) = (gf16_mul(l1, l2), gf16_mul(h1, h2), gf16_mul(h1 ^ l1, h2 ^ l2));
    ((m2 ^ m0) << 4) | (m0 ^ gf16_mul(lambda, m1))
}

/// The constant `lambda`: `T^2 + T + lambda` has no root in GF(16).
pub(crate) fn lambda() -> u8 {
    (1u8..16)
        .find(|&l| (0u8..16).all(|t| gf16_mul(t, t) ^ t != l))
        .expect("GF(16) has a constant making T^2 + T + lambda irreducible")
}

pub(crate) fn tower() -> &'static Tower {
    static TOWER: OnceLock<Tower> = OnceLock::new();
    TOWER.get_or_init(|| {
        let lambda = lambda();
        let pow = |b: u8, e: usize| (0..e).fold(1u8, |acc, _| tower_mul(lambda, acc, b));
        // A root of x^8 + x^4 + x^3 + x + 1, the AES polynomial.
        let beta = (2u8..=255)
            .find(|&b| pow(b, 8) ^ pow(b, 4) ^ pow(b, 3) ^ b ^ 1 == 0)
            .expect("the AES polynomial splits in every field of 256 elements");
        let mut to_tower = [0u8; 256];
        for (x, t) in to_tower.iter_mut().enumerate() {
            *t = (0..8)
                .filter(|i| (x >> i) & 1 == 1)
                .fold(0, |acc, i| acc ^ pow(beta, i));
        }
        let mut from_tower = [0u8; 256];
        for (x, &t) in to_tower.iter().enumerate() {
            from_tower[t as usize] = x as u8;
        }
        let (mut log, mut exp) = ([0u8; 16], [0u8; 16]);
        let mut v = 1u8;
        for (i, e) in exp.iter_mut().take(15).enumerate() {
            *e = v;
            log[v as usize] = i as u8;
            v = gf16_mul(v, 2);
        }
        log[0] = 0xf0;
        Tower {
            lambda_times: core::array::from_fn(|n| gf16_mul(lambda, n as u8)),
            log,
            exp,
            to_tower,
            from_tower,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_field::Gf8;

    #[test]
    fn the_tower_is_the_aes_field() {
        let (t, lambda) = (tower(), lambda());
        for x in 0..=255u8 {
            assert_eq!(t.aes_of(t.tower_of(x)), x);
            for y in 0..=255u8 {
                let want = t.tower_of((Gf8(x) * Gf8(y)).0);
                assert_eq!(tower_mul(lambda, t.tower_of(x), t.tower_of(y)), want, "{x} * {y}");
            }
        }
    }
}
