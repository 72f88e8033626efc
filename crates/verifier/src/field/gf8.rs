//! GF(2^8) in the AES representation and its embedding into GF(2^128).
//!
//! 8 divides 128, so GF(2^128) has a unique subfield of order 256, which
//! holds every root of the AES polynomial X^8 + X^4 + X^3 + X + 1. [`OMEGA`]
//! is the smallest root as an integer, and `sum b_i X^i -> sum b_i OMEGA^i` is
//! a field homomorphism. The constant was found once by search; the test
//! `omega_is_a_root` checks it.

use alloc::boxed::Box;
use core::ops::{Add, Mul};

use once_cell::race::OnceBox;

use super::Gf128;

/// A root in GF(2^128) of the AES polynomial X^8 + X^4 + X^3 + X + 1.
pub const OMEGA: Gf128 = Gf128::new(0x053d_8555_a997_9a1c_a13f_e8ac_5560_ce0d);

/// An element of GF(2^8) = GF(2)\[X\] / (X^8 + X^4 + X^3 + X + 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
#[repr(transparent)]
pub struct Gf8(pub u8);

impl Gf8 {
    /// Field product (portable shift-and-add; GFNI computes the same).
    #[inline]
    pub fn product(self, rhs: Gf8) -> Gf8 {
        let (mut a, mut b, mut r) = (self.0, rhs.0, 0u8);
        while b != 0 {
            if b & 1 == 1 {
                r ^= a;
            }
            let carry = a & 0x80;
            a <<= 1;
            if carry != 0 {
                a ^= 0x1b;
            }
            b >>= 1;
        }
        Gf8(r)
    }

    /// The image of this element in GF(2^128) under the fixed embedding.
    #[inline]
    pub fn embed(self) -> Gf128 {
        let powers = omega_powers();
        let mut acc = Gf128::ZERO;
        for (i, p) in powers.iter().enumerate() {
            if (self.0 >> i) & 1 == 1 {
                acc += *p;
            }
        }
        acc
    }
}

impl Add for Gf8 {
    type Output = Gf8;
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, rhs: Gf8) -> Gf8 {
        Gf8(self.0 ^ rhs.0)
    }
}

impl Mul for Gf8 {
    type Output = Gf8;
    fn mul(self, rhs: Gf8) -> Gf8 {
        self.product(rhs)
    }
}

/// `OMEGA^i` for i in 0..8: the images of the AES basis.
pub fn omega_powers() -> [Gf128; 8] {
    static POWERS: OnceBox<[Gf128; 8]> = OnceBox::new();
    *POWERS.get_or_init(|| {
        let mut p = Box::new([Gf128::ONE; 8]);
        for i in 1..8 {
            p[i] = p[i - 1] * OMEGA;
        }
        p
    })
}
