//! The AVX2 tier's field kernels: GF(2^128) multiplication with x86_64
//! PCLMULQDQ, one product at a time.
//!
//! Same result as `portable::mul` on every input; only the carry-less
//! products change. Reduction reuses the portable shift formula, which the
//! compiler keeps in registers.

use core::arch::x86_64::*;

use super::portable::reduce;

/// Carry-less 128x128 product, unreduced, as (low, high).
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
unsafe fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let av = _mm_set_epi64x((a >> 64) as i64, a as i64);
    let bv = _mm_set_epi64x((b >> 64) as i64, b as i64);
    let lo = _mm_clmulepi64_si128(av, bv, 0x00);
    let hi = _mm_clmulepi64_si128(av, bv, 0x11);
    let m1 = _mm_clmulepi64_si128(av, bv, 0x01);
    let m2 = _mm_clmulepi64_si128(av, bv, 0x10);
    let mid = _mm_xor_si128(m1, m2);
    let lo = to_u128(lo);
    let hi = to_u128(hi);
    let mid = to_u128(mid);
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

#[inline]
#[target_feature(enable = "sse2")]
fn to_u128(v: __m128i) -> u128 {
    let lo = _mm_cvtsi128_si64(v) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
    (lo as u128) | ((hi as u128) << 64)
}

/// Field product.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn mul(a: u128, b: u128) -> u128 {
    // SAFETY: same target features as the caller.
    let (lo, hi) = unsafe { clmul128(a, b) };
    reduce(lo, hi)
}

/// `sum_i a[i] * b[i]`, the products summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    let (mut lo, mut hi) = (0u128, 0u128);
    for (&x, &y) in a.iter().zip(b) {
        // SAFETY: same target features as the caller.
        let (pl, ph) = unsafe { clmul128(x, y) };
        lo ^= pl;
        hi ^= ph;
    }
    reduce(lo, hi)
}

/// `v[i] *= s`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn scale_slice(v: &mut [u128], s: u128) {
    for x in v.iter_mut() {
        // SAFETY: same target features as the caller.
        *x = unsafe { mul(*x, s) };
    }
}

/// `dst[i] += s * src[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    for (d, &x) in dst.iter_mut().zip(src) {
        // SAFETY: same target features as the caller.
        *d ^= unsafe { mul(x, s) };
    }
}

/// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        // SAFETY: same target features as the caller.
        *l ^= unsafe { mul(*h, t) };
        *h ^= *l;
    }
}

/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    for (((l, h), &sl), &sh) in lo.iter_mut().zip(hi.iter_mut()).zip(src_lo).zip(src_hi) {
        // SAFETY: same target features as the caller.
        *l = sl ^ unsafe { mul(sh, t) };
        *h = sh ^ *l;
    }
}

/// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        *h ^= *l;
        // SAFETY: same target features as the caller.
        *l ^= unsafe { mul(*h, t) };
    }
}
