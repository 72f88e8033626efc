//! The field GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1).

use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Sub, SubAssign};

use crate::backend;

/// An element of GF(2^128). Bit j of the inner `u128` is the coefficient of x^j.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Gf128(u128);

impl Gf128 {
    /// The additive identity.
    pub const ZERO: Gf128 = Gf128(0);
    /// The multiplicative identity.
    pub const ONE: Gf128 = Gf128(1);
    /// The generator x of the polynomial basis.
    pub const X: Gf128 = Gf128(2);

    /// The element whose coefficient of x^j is bit j of `bits`.
    #[inline]
    pub const fn new(bits: u128) -> Self {
        Gf128(bits)
    }

    /// The coefficients as a `u128` (bit j = coefficient of x^j).
    #[inline]
    pub const fn to_bits(self) -> u128 {
        self.0
    }

    /// Little-endian byte encoding (16 bytes).
    #[inline]
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }

    /// Inverse of [`Gf128::to_bytes`]; every 16-byte string is an element.
    #[inline]
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        Gf128(u128::from_le_bytes(bytes))
    }

    /// The raw `u128`s of a slice of elements, without copying (for the
    /// slice kernels of [`crate::backend`]).
    #[inline]
    pub fn as_u128_slice(v: &[Gf128]) -> &[u128] {
        // SAFETY: `Gf128` is `#[repr(transparent)]` over `u128`, so `[Gf128]`
        // and `[u128]` of the same length have the same layout, and every
        // `u128` is a valid `Gf128` (and vice versa).
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u128>(), v.len()) }
    }

    /// Mutable version of [`Gf128::as_u128_slice`].
    #[inline]
    pub fn as_u128_slice_mut(v: &mut [Gf128]) -> &mut [u128] {
        // SAFETY: as in `as_u128_slice`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u128>(), v.len()) }
    }

    /// The elements whose bits are the given `u128`s, without copying.
    #[inline]
    pub fn from_u128_slice(v: &[u128]) -> &[Gf128] {
        // SAFETY: as in `as_u128_slice`.
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<Gf128>(), v.len()) }
    }

    /// Mutable version of [`Gf128::from_u128_slice`].
    #[inline]
    pub fn from_u128_slice_mut(v: &mut [u128]) -> &mut [Gf128] {
        // SAFETY: as in `as_u128_slice`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<Gf128>(), v.len()) }
    }

    /// The concatenated [`Gf128::to_bytes`] encodings of a slice, without
    /// copying. On a little-endian target the in-memory bytes of a `u128` are
    /// its little-endian encoding, so this is only offered there.
    #[cfg(target_endian = "little")]
    #[inline]
    pub fn slice_as_bytes(v: &[Gf128]) -> &[u8] {
        // SAFETY: a `u128` has no padding, so the `16 * v.len()` bytes behind
        // `v` are initialised; `u8` has alignment 1; the size cannot overflow
        // because `v` already occupies it; the result borrows `v`.
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u8>(), core::mem::size_of_val(v)) }
    }

    /// The elements as `u64` words, without copying: element `i` is words
    /// `2i` (bits 0..64) and `2i + 1` (bits 64..128). That is the in-memory
    /// order of a `u128` on a little-endian target, so this is only offered
    /// there. The prover writes its bit-packed witness through this view.
    #[cfg(target_endian = "little")]
    #[inline]
    pub fn as_u64_words(v: &[Gf128]) -> &[u64] {
        // SAFETY: a `u128` has no padding and its alignment is at least that
        // of `u64`; every bit pattern is a valid `u64`; the length `2 * len`
        // covers exactly the bytes of `v`, which the result borrows.
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u64>(), 2 * v.len()) }
    }

    /// Mutable version of [`Gf128::as_u64_words`]: every pair of `u64`s is a
    /// valid element, so any words may be written.
    #[cfg(target_endian = "little")]
    #[inline]
    pub fn as_u64_words_mut(v: &mut [Gf128]) -> &mut [u64] {
        // SAFETY: as in `as_u64_words`; every `u128` bit pattern is a valid
        // `Gf128`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u64>(), 2 * v.len()) }
    }

    /// True for the zero element.
    #[inline]
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// Coefficient of x^j, as a bit.
    #[inline]
    pub fn bit(self, j: usize) -> bool {
        (self.0 >> j) & 1 == 1
    }

    /// `self^2`.
    #[inline]
    pub fn square(self) -> Self {
        self * self
    }

    /// `self^e`.
    pub fn pow(self, mut e: u128) -> Self {
        let mut base = self;
        let mut acc = Gf128::ONE;
        while e != 0 {
            if e & 1 == 1 {
                acc *= base;
            }
            base = base.square();
            e >>= 1;
        }
        acc
    }

    /// The Frobenius map applied `j` times: `self^(2^j)`.
    pub fn frobenius(self, j: usize) -> Self {
        let mut r = self;
        for _ in 0..(j % 128) {
            r = r.square();
        }
        r
    }

    /// Multiplicative inverse, `None` for zero (Fermat: a^(2^128 - 2)).
    pub fn inverse(self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        Some(self.pow(u128::MAX - 1))
    }
}

impl fmt::Debug for Gf128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gf128({:#034x})", self.0)
    }
}

impl fmt::Display for Gf128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl Add for Gf128 {
    type Output = Gf128;
    #[inline]
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, rhs: Gf128) -> Gf128 {
        Gf128(self.0 ^ rhs.0)
    }
}

impl AddAssign for Gf128 {
    #[inline]
    #[allow(clippy::suspicious_op_assign_impl)]
    fn add_assign(&mut self, rhs: Gf128) {
        self.0 ^= rhs.0;
    }
}

impl Sub for Gf128 {
    type Output = Gf128;
    #[inline]
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, rhs: Gf128) -> Gf128 {
        Gf128(self.0 ^ rhs.0)
    }
}

impl SubAssign for Gf128 {
    #[inline]
    #[allow(clippy::suspicious_op_assign_impl)]
    fn sub_assign(&mut self, rhs: Gf128) {
        self.0 ^= rhs.0;
    }
}

impl Mul for Gf128 {
    type Output = Gf128;
    #[inline]
    fn mul(self, rhs: Gf128) -> Gf128 {
        Gf128(backend::mul(self.0, rhs.0))
    }
}

impl MulAssign for Gf128 {
    #[inline]
    fn mul_assign(&mut self, rhs: Gf128) {
        *self = *self * rhs;
    }
}

impl Sum for Gf128 {
    fn sum<I: Iterator<Item = Gf128>>(iter: I) -> Gf128 {
        iter.fold(Gf128::ZERO, |a, b| a + b)
    }
}

impl<'a> Sum<&'a Gf128> for Gf128 {
    fn sum<I: Iterator<Item = &'a Gf128>>(iter: I) -> Gf128 {
        iter.fold(Gf128::ZERO, |a, b| a + *b)
    }
}

impl Product for Gf128 {
    fn product<I: Iterator<Item = Gf128>>(iter: I) -> Gf128 {
        iter.fold(Gf128::ONE, |a, b| a * b)
    }
}

impl From<bool> for Gf128 {
    fn from(b: bool) -> Gf128 {
        Gf128(b as u128)
    }
}
