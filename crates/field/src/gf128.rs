//! The field GF(2^128) = GF(2)[x] / (x^128 + x^7 + x^2 + x + 1).
//!
//! The element type and its arithmetic are the verifier's
//! (`starling_verifier::Gf128`): one definition for prover and verifier.
//! The prover adds [`Gf128Slices`], views of slices of elements as the
//! machine words its kernels work on, without copying: `unsafe` code the
//! verifier does without.

pub use starling_verifier::Gf128;

/// Slices of elements seen as `u128`s, `u64` words or bytes, and back, in
/// place, called as `Gf128::as_u128_slice(v)` with the trait in scope.
/// Sound because `Gf128` is `#[repr(transparent)]` over `u128` (a
/// documented property of the verifier's type) and every `u128` is an
/// element. Implemented for [`Gf128`] alone.
pub trait Gf128Slices {
    /// The raw `u128`s of a slice of elements, without copying (for the
    /// slice kernels of [`crate::backend`]).
    #[inline]
    fn as_u128_slice(v: &[Gf128]) -> &[u128] {
        // SAFETY: `Gf128` is `#[repr(transparent)]` over `u128`, so `[Gf128]`
        // and `[u128]` of the same length have the same layout, and every
        // `u128` is a valid `Gf128` (and vice versa).
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u128>(), v.len()) }
    }

    /// Mutable version of [`Gf128Slices::as_u128_slice`].
    #[inline]
    fn as_u128_slice_mut(v: &mut [Gf128]) -> &mut [u128] {
        // SAFETY: as in `as_u128_slice`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u128>(), v.len()) }
    }

    /// The elements whose bits are the given `u128`s, without copying.
    #[inline]
    fn from_u128_slice(v: &[u128]) -> &[Gf128] {
        // SAFETY: as in `as_u128_slice`.
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<Gf128>(), v.len()) }
    }

    /// Mutable version of [`Gf128Slices::from_u128_slice`].
    #[inline]
    fn from_u128_slice_mut(v: &mut [u128]) -> &mut [Gf128] {
        // SAFETY: as in `as_u128_slice`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<Gf128>(), v.len()) }
    }

    /// The concatenated [`Gf128::to_bytes`] encodings of a slice, without
    /// copying. On a little-endian target the in-memory bytes of a `u128` are
    /// its little-endian encoding, so this is only offered there.
    #[cfg(target_endian = "little")]
    #[inline]
    fn slice_as_bytes(v: &[Gf128]) -> &[u8] {
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
    fn as_u64_words(v: &[Gf128]) -> &[u64] {
        // SAFETY: a `u128` has no padding and its alignment is at least that
        // of `u64`; every bit pattern is a valid `u64`; the length `2 * len`
        // covers exactly the bytes of `v`, which the result borrows.
        unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u64>(), 2 * v.len()) }
    }

    /// Mutable version of [`Gf128Slices::as_u64_words`]: every pair of `u64`s is a
    /// valid element, so any words may be written.
    #[cfg(target_endian = "little")]
    #[inline]
    fn as_u64_words_mut(v: &mut [Gf128]) -> &mut [u64] {
        // SAFETY: as in `as_u64_words`; every `u128` bit pattern is a valid
        // `Gf128`; the borrow of `v` is moved into the result.
        unsafe { core::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u64>(), 2 * v.len()) }
    }
}

impl Gf128Slices for Gf128 {}
