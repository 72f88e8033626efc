//! The field GF(2^128) = GF(2)\[x\] / (x^128 + x^7 + x^2 + x + 1), one
//! element at a time: what a verifier computes with.
//!
//! A product is [`portable::mul`] or, where the CPU has it, one carry-less
//! multiply instruction per 64-bit half (`clmul`, chosen at run time);
//! both give the same element, so proofs never depend on the machine. The
//! prover's slice kernels (`starling-field`'s `backend`) build on the same
//! portable definition and are tested against it.

mod clmul;
mod gf8;
pub mod portable;
pub mod trace;
pub mod transpose;

pub use gf8::{omega_powers, Gf8, OMEGA};

use alloc::boxed::Box;
use core::fmt;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Sub, SubAssign};

use once_cell::race::OnceBox;

/// The field product of two elements' bits, with the fastest multiply this
/// CPU runs.
#[inline]
pub fn mul(a: u128, b: u128) -> u128 {
    match clmul::mul(a, b) {
        Some(p) => p,
        None => portable::mul(a, b),
    }
}

/// `sum_i a[i] * b[i]`: the carry-less products summed unreduced and
/// reduced once (reduction is linear), which saves a reduction per product.
pub fn dot(a: &[Gf128], b: &[Gf128]) -> Gf128 {
    assert_eq!(a.len(), b.len(), "dot needs slices of equal length");
    if let Some(k) = INSTALLED.get() {
        return k.dot(a, b);
    }
    dot_here(a, b)
}

/// [`dot`] with this crate's own product: the definition.
pub fn dot_here(a: &[Gf128], b: &[Gf128]) -> Gf128 {
    assert_eq!(a.len(), b.len(), "dot needs slices of equal length");
    let (lo, hi) = clmul::wide_dot(a, b).unwrap_or_else(|| {
        a.iter().zip(b).fold((0, 0), |(lo, hi), (x, y)| {
            let (pl, ph) = portable::clmul128(x.0, y.0);
            (lo ^ pl, hi ^ ph)
        })
    });
    Gf128(portable::reduce(lo, hi))
}

/// All 256 sums of subsets of 8 elements: entry `m` is the sum of `items[i]`
/// over the set bits i of `m`.
pub fn subset_sums(items: &[Gf128]) -> [Gf128; 256] {
    assert_eq!(items.len(), 8, "subset_sums takes exactly 8 items");
    let mut t = [Gf128::ZERO; 256];
    for (i, &item) in items.iter().enumerate() {
        let half = 1usize << i;
        for m in 0..half {
            t[half + m] = t[m] + item;
        }
    }
    t
}

/// Slice kernels a host may install for the verifier's long passes (the
/// `eq` tables and dot products of the lincheck and the opening): the
/// prover's vector backends (`starling-field`), which hold several products
/// per instruction where this crate does one. They must compute exactly
/// what [`scale_into`] and [`dot`] define (the prover's tests hold them
/// against these); without them the verifier runs its own, as in a
/// browser.
pub trait SliceKernels: Sync {
    /// `dst[i] = src[i] s`.
    fn scale_into(&self, dst: &mut [Gf128], src: &[Gf128], s: Gf128);
    /// `sum_i a[i] b[i]`.
    fn dot(&self, a: &[Gf128], b: &[Gf128]) -> Gf128;
}

static INSTALLED: OnceBox<&'static dyn SliceKernels> = OnceBox::new();

/// Installs the slice kernels for the rest of the process; the first call
/// wins (false for a later one).
pub fn install_slice_kernels(kernels: &'static dyn SliceKernels) -> bool {
    INSTALLED.set(Box::new(kernels)).is_ok()
}

/// `dst[i] = src[i] s` (the slices of equal length), with the installed
/// kernels if any.
pub fn scale_into(dst: &mut [Gf128], src: &[Gf128], s: Gf128) {
    assert_eq!(dst.len(), src.len(), "scale_into needs slices of equal length");
    if let Some(k) = INSTALLED.get() {
        return k.scale_into(dst, src, s);
    }
    scale_into_here(dst, src, s);
}

/// [`scale_into`] with this crate's own product: the definition.
pub fn scale_into_here(dst: &mut [Gf128], src: &[Gf128], s: Gf128) {
    assert_eq!(dst.len(), src.len(), "scale_into needs slices of equal length");
    if !clmul::scale_into(dst, src, s) {
        for (d, x) in dst.iter_mut().zip(src) {
            *d = Gf128(portable::mul(x.0, s.0));
        }
    }
}

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
        Gf128(mul(self.0, rhs.0))
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
