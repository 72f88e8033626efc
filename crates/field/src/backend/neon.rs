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

/// Carry-less products summed unreduced: `(lo, mid, hi)` as
/// [`clmul128`]'s.
#[derive(Clone, Copy)]
struct Wide(uint64x2_t, uint64x2_t, uint64x2_t);

impl Wide {
    #[inline]
    #[target_feature(enable = "neon,aes")]
    fn zero() -> Self {
        let zero = vdupq_n_u64(0);
        Wide(zero, zero, zero)
    }

    /// Adds the product `x y`.
    #[inline]
    #[target_feature(enable = "neon,aes")]
    fn mul_add(self, x: uint64x2_t, y: uint64x2_t) -> Self {
        let (pl, pm, ph) = clmul128(x, y);
        Wide(
            veorq_u64(self.0, pl),
            veorq_u64(self.1, pm),
            veorq_u64(self.2, ph),
        )
    }

    /// The sum, reduced.
    #[inline]
    #[target_feature(enable = "neon,aes")]
    fn finish(self) -> u128 {
        store(reduce(self.0, self.1, self.2))
    }
}

/// `sum_i a[i] * b[i]`, the products summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    a.iter()
        .zip(b)
        .fold(Wide::zero(), |sum, (&x, &y)| sum.mul_add(load(x), load(y)))
        .finish()
}

/// `lo + r (lo + hi)`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn fold_step(lo: u128, hi: u128, r: uint64x2_t) -> u128 {
    store(veorq_u64(load(lo), mul_vec(load(lo ^ hi), r)))
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    let r = load(r);
    for ((d, &l), &h) in dst.iter_mut().zip(lo).zip(hi) {
        *d = fold_step(l, h, r);
    }
}

/// `dst[2j] = f0[j] + r (f0[j] + f1[j])`, `dst[2j + 1]` the same of `w`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn fold_interleaving(dst: &mut [u128], [f0, f1, w0, w1]: [&[u128]; 4], r: u128) {
    let r = load(r);
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    for (pair, ((&a0, &a1), (&b0, &b1))) in dst.chunks_exact_mut(2).zip(halves) {
        pair[0] = fold_step(a0, a1, r);
        pair[1] = fold_step(b0, b1, r);
    }
}

/// `[sum_j f0[j] w0[j], sum_j (f0[j] + f1[j]) (w0[j] + w1[j])]`, each
/// summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn round_sums([f0, f1, w0, w1]: [&[u128]; 4]) -> [u128; 2] {
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    let (s0, s2) = halves.fold(
        (Wide::zero(), Wide::zero()),
        |(s0, s2), ((&a0, &a1), (&b0, &b1))| {
            (
                s0.mul_add(load(a0), load(b0)),
                s2.mul_add(load(a0 ^ a1), load(b0 ^ b1)),
            )
        },
    );
    [s0.finish(), s2.finish()]
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones), halves `lo` and `hi`.
///
/// # Safety
/// The CPU must support `neon` and `aes` (PMULL).
#[target_feature(enable = "neon,aes")]
pub unsafe fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    let pairs = lo.chunks_exact(2).zip(hi.chunks_exact(2));
    let (s0, s2) = pairs.fold((Wide::zero(), Wide::zero()), |(s0, s2), (l, h)| {
        (
            s0.mul_add(load(l[0]), load(l[1])),
            s2.mul_add(load(l[0] ^ h[0]), load(l[1] ^ h[1])),
        )
    });
    [s0.finish(), s2.finish()]
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
