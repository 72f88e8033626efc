//! The Neon tier's field kernels: GF(2^128) multiplication with aarch64
//! PMULL (`vmull_p64`, from the `aes` extension), one product at a time.
//!
//! Same result as `portable::mul` on every input. The 128x128 product is
//! Karatsuba on 64-bit halves (three PMULLs), and the reduction modulo
//! x^128 + x^7 + x^2 + x + 1 is two more PMULLs by `0x87` (the low terms
//! of the modulus), so an element never leaves the vector registers.

use core::arch::aarch64::*;

/// `x^128 mod (x^128 + x^7 + x^2 + x + 1)`.
const POLY: u64 = 0x87;

/// An element as a vector: lane 0 holds the coefficients of `x^0..x^63`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn load(x: u128) -> uint64x2_t {
    vreinterpretq_u64_p128(x)
}

/// The element in `v`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn store(v: uint64x2_t) -> u128 {
    vreinterpretq_p128_u64(v)
}

/// Carry-less 128x128 product, unreduced: `(lo, mid, hi)` with the value
/// `lo + x^64 mid + x^128 hi`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn clmul128(a: uint64x2_t, b: uint64x2_t) -> (uint64x2_t, uint64x2_t, uint64x2_t) {
    let lo = vmull_p64(vgetq_lane_u64::<0>(a), vgetq_lane_u64::<0>(b));
    let hi = vmull_p64(vgetq_lane_u64::<1>(a), vgetq_lane_u64::<1>(b));
    // Lane 0 of each: the sum of the two halves.
    let a_sum = veorq_u64(a, vextq_u64::<1>(a, a));
    let b_sum = veorq_u64(b, vextq_u64::<1>(b, b));
    let karatsuba = vmull_p64(vgetq_lane_u64::<0>(a_sum), vgetq_lane_u64::<0>(b_sum));
    let (lo, hi) = (load(lo), load(hi));
    let mid = veorq_u64(load(karatsuba), veorq_u64(lo, hi));
    (lo, mid, hi)
}

/// `lo + x^64 mid + x^128 hi` modulo `x^128 + x^7 + x^2 + x + 1`. After
/// folding `mid` in, write `hi = H0 + x^64 H1`; `x^192 H1 = x^64 P H1` with
/// `P H1 = L + x^64 U` (`U < 2^7`), so the value is
/// `lo + x^64 L + P (H0 + U)`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn reduce(lo: uint64x2_t, mid: uint64x2_t, hi: uint64x2_t) -> uint64x2_t {
    let zero = vdupq_n_u64(0);
    // x^64 mid: its low half moves to lane 1 of lo, its high half to lane 0 of hi.
    let lo = veorq_u64(lo, vextq_u64::<1>(zero, mid));
    let hi = veorq_u64(hi, vextq_u64::<1>(mid, zero));
    let t = load(vmull_p64(vgetq_lane_u64::<1>(hi), POLY));
    let lo = veorq_u64(lo, vextq_u64::<1>(zero, t));
    let h0 = veorq_u64(hi, vextq_u64::<1>(t, zero));
    veorq_u64(lo, load(vmull_p64(vgetq_lane_u64::<0>(h0), POLY)))
}

/// The field product of two vectors.
#[inline]
#[target_feature(enable = "neon,aes")]
fn mul_vec(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    let (lo, mid, hi) = clmul128(a, b);
    reduce(lo, mid, hi)
}

/// Field product.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[inline]
#[target_feature(enable = "neon,aes")]
pub unsafe fn mul(a: u128, b: u128) -> u128 {
    store(mul_vec(load(a), load(b)))
}

/// `sum_i a[i] * b[i]`, the products summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    let zero = vdupq_n_u64(0);
    let (mut lo, mut mid, mut hi) = (zero, zero, zero);
    for (&x, &y) in a.iter().zip(b) {
        let (pl, pm, ph) = clmul128(load(x), load(y));
        lo = veorq_u64(lo, pl);
        mid = veorq_u64(mid, pm);
        hi = veorq_u64(hi, ph);
    }
    store(reduce(lo, mid, hi))
}

/// `v[i] *= s`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn scale_slice(v: &mut [u128], s: u128) {
    let s = load(s);
    for x in v.iter_mut() {
        *x = store(mul_vec(load(*x), s));
    }
}

/// `dst[i] = s * src[i]`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    let s = load(s);
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = store(mul_vec(load(x), s));
    }
}

/// `dst[i] += s * src[i]`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    let s = load(s);
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = store(veorq_u64(load(*d), mul_vec(load(x), s)));
    }
}

/// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let t = load(t);
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        let hv = load(*h);
        let lv = veorq_u64(load(*l), mul_vec(hv, t));
        *l = store(lv);
        *h = store(veorq_u64(hv, lv));
    }
}

/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    let t = load(t);
    for (((l, h), &sl), &sh) in lo.iter_mut().zip(hi.iter_mut()).zip(src_lo).zip(src_hi) {
        let hv = load(sh);
        let lv = veorq_u64(load(sl), mul_vec(hv, t));
        *l = store(lv);
        *h = store(veorq_u64(hv, lv));
    }
}

/// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let t = load(t);
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        let lv = load(*l);
        let hv = veorq_u64(load(*h), lv);
        *h = store(hv);
        *l = store(veorq_u64(lv, mul_vec(hv, t)));
    }
}
