//! The AVX2 tier's field kernels on CPUs without 256-bit VPCLMULQDQ
//! (Haswell to Coffee Lake, Zen 1 and 2): GF(2^128) products with
//! PCLMULQDQ on 128-bit registers, one element per register.
//!
//! The slice kernels keep every element in an XMM register from load to
//! store: a multiplier used for many products is prepared once as `s` and
//! `s x^64` ([`super::portable::mul_x64`]), so that each product takes five
//! carry-less multiplications and a few XORs and no general-purpose
//! registers (`mul_by`). Independent elements follow each other in the
//! loops, so the out-of-order core overlaps their multiplications; the
//! slice kernels also take the element past the last pair in
//! `avx2_vpclmul`. One product at a time is the verifier's
//! (`starling_verifier::field::mul`). Every kernel returns exactly what `portable`
//! does (tested on random inputs in `tests/backends.rs`).

use core::arch::x86_64::*;

use super::portable::reduce;

#[inline]
#[target_feature(enable = "sse2")]
fn to_u128(v: __m128i) -> u128 {
    let lo = _mm_cvtsi128_si64(v) as u64;
    let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
    (lo as u128) | ((hi as u128) << 64)
}

#[inline]
#[target_feature(enable = "sse2")]
fn load(v: &u128) -> __m128i {
    // SAFETY: `v` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128((v as *const u128).cast()) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn store(v: &mut u128, x: __m128i) {
    // SAFETY: `v` is 16 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128((v as *mut u128).cast(), x) }
}

#[inline]
#[target_feature(enable = "sse2")]
fn to_register(s: u128) -> __m128i {
    _mm_set_epi64x((s >> 64) as u64 as i64, s as u64 as i64)
}

/// A multiplier used for many products: `s` and `s x^64` (reduced).
#[derive(Clone, Copy)]
struct Scalar {
    s: __m128i,
    s_x64: __m128i,
}

impl Scalar {
    #[inline]
    #[target_feature(enable = "sse2")]
    fn new(s: u128) -> Self {
        Scalar {
            s: to_register(s),
            s_x64: to_register(super::portable::mul_x64(s)),
        }
    }
}

/// The reduction constant `r = x^7 + x^2 + x + 1` (`x^128 = r`) in the low
/// quadword.
#[inline]
#[target_feature(enable = "sse2")]
fn r_constant() -> __m128i {
    _mm_set_epi64x(0, 0x87)
}

/// `a * s` with five carry-less products: `a s = a0 s + a1 (s x^64) = X +
/// Y x^64` where `X` and `Y` are 128-bit sums of two 64x64 products each;
/// `Y`'s low quadword moves up, its high one is `y1 x^128 = y1 r`, 71 bits.
#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn mul_by(a: __m128i, s: Scalar) -> __m128i {
    let x = _mm_xor_si128(
        _mm_clmulepi64_si128::<0x00>(a, s.s),
        _mm_clmulepi64_si128::<0x01>(a, s.s_x64),
    );
    let y = _mm_xor_si128(
        _mm_clmulepi64_si128::<0x10>(a, s.s),
        _mm_clmulepi64_si128::<0x11>(a, s.s_x64),
    );
    let z = _mm_xor_si128(x, _mm_clmulepi64_si128::<0x01>(y, r_constant()));
    _mm_xor_si128(z, _mm_slli_si128::<8>(y))
}

/// Carry-less products summed unreduced: the low, middle and high
/// quadword pairs of a 256-bit sum.
#[derive(Clone, Copy)]
struct Wide {
    lo: __m128i,
    mid: __m128i,
    hi: __m128i,
}

impl Wide {
    #[inline]
    #[target_feature(enable = "sse2")]
    fn zero() -> Self {
        let zero = _mm_setzero_si128();
        Wide {
            lo: zero,
            mid: zero,
            hi: zero,
        }
    }

    /// Adds the product `x y`.
    #[inline]
    #[target_feature(enable = "sse2,pclmulqdq")]
    fn mul_add(self, x: __m128i, y: __m128i) -> Self {
        let mid = _mm_xor_si128(
            _mm_clmulepi64_si128::<0x01>(x, y),
            _mm_clmulepi64_si128::<0x10>(x, y),
        );
        Wide {
            lo: _mm_xor_si128(self.lo, _mm_clmulepi64_si128::<0x00>(x, y)),
            mid: _mm_xor_si128(self.mid, mid),
            hi: _mm_xor_si128(self.hi, _mm_clmulepi64_si128::<0x11>(x, y)),
        }
    }

    /// The sum, reduced.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn finish(self) -> u128 {
        // mid x^64: its low quadword into lo's high one, its high into hi's low.
        let lo = _mm_xor_si128(self.lo, _mm_slli_si128::<8>(self.mid));
        let hi = _mm_xor_si128(self.hi, _mm_srli_si128::<8>(self.mid));
        reduce(to_u128(lo), to_u128(hi))
    }
}

/// `sum_i a[i] * b[i]`, the products summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    a.iter()
        .zip(b)
        .fold(Wide::zero(), |sum, (x, y)| sum.mul_add(load(x), load(y)))
        .finish()
}

/// `lo + r (lo + hi)`.
#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn fold_step(lo: &u128, hi: &u128, r: Scalar) -> __m128i {
    let lo = load(lo);
    _mm_xor_si128(lo, mul_by(_mm_xor_si128(lo, load(hi)), r))
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    let rv = Scalar::new(r);
    for ((d, l), h) in dst.iter_mut().zip(lo).zip(hi) {
        store(d, fold_step(l, h, rv));
    }
}

/// `dst[2j] = f0[j] + r (f0[j] + f1[j])`, `dst[2j + 1]` the same of `w`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn fold_interleaving(dst: &mut [u128], [f0, f1, w0, w1]: [&[u128]; 4], r: u128) {
    let rv = Scalar::new(r);
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    for (pair, ((a0, a1), (b0, b1))) in dst.chunks_exact_mut(2).zip(halves) {
        store(&mut pair[0], fold_step(a0, a1, rv));
        store(&mut pair[1], fold_step(b0, b1, rv));
    }
}

/// `[sum_j f0[j] w0[j], sum_j (f0[j] + f1[j]) (w0[j] + w1[j])]`, each
/// summed unreduced and reduced once.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn round_sums([f0, f1, w0, w1]: [&[u128]; 4]) -> [u128; 2] {
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    let (s0, s2) = halves.fold((Wide::zero(), Wide::zero()), |(s0, s2), ((a0, a1), (b0, b1))| {
        let (a0, b0) = (load(a0), load(b0));
        let (a, b) = (_mm_xor_si128(a0, load(a1)), _mm_xor_si128(b0, load(b1)));
        (s0.mul_add(a0, b0), s2.mul_add(a, b))
    });
    [s0.finish(), s2.finish()]
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones), halves `lo` and `hi`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    let pairs = lo.chunks_exact(2).zip(hi.chunks_exact(2));
    let (s0, s2) = pairs.fold((Wide::zero(), Wide::zero()), |(s0, s2), (l, h)| {
        let (f, w) = (load(&l[0]), load(&l[1]));
        let (fs, ws) = (_mm_xor_si128(f, load(&h[0])), _mm_xor_si128(w, load(&h[1])));
        (s0.mul_add(f, w), s2.mul_add(fs, ws))
    });
    [s0.finish(), s2.finish()]
}

/// `v[i] *= s`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn scale_slice(v: &mut [u128], s: u128) {
    let sv = Scalar::new(s);
    for x in v.iter_mut() {
        store(x, mul_by(load(x), sv));
    }
}

/// `dst[i] = s * src[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    let sv = Scalar::new(s);
    for (d, x) in dst.iter_mut().zip(src) {
        store(d, mul_by(load(x), sv));
    }
}

/// `dst[i] += s * src[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    let sv = Scalar::new(s);
    for (d, x) in dst.iter_mut().zip(src) {
        store(d, _mm_xor_si128(load(d), mul_by(load(x), sv)));
    }
}

/// One butterfly: `(lo + t hi, hi + lo + t hi)`.
#[inline]
#[target_feature(enable = "sse2,pclmulqdq")]
fn butterfly_step(lo: __m128i, hi: __m128i, t: Scalar) -> (__m128i, __m128i) {
    let lo = _mm_xor_si128(lo, mul_by(hi, t));
    (lo, _mm_xor_si128(hi, lo))
}

/// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let tv = Scalar::new(t);
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        let (lv, hv) = butterfly_step(load(l), load(h), tv);
        store(l, lv);
        store(h, hv);
    }
}

/// [`super::portable::butterfly2`]: both rounds on each element of the four
/// quarters while it is in registers (half the loads and stores of four
/// [`butterfly`] calls).
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly2(q: [&mut [u128]; 4], t: u128, t0: u128, t1: u128) {
    let (tv, tv0, tv1) = (Scalar::new(t), Scalar::new(t0), Scalar::new(t1));
    let [q0, q1, q2, q3] = q;
    for (((a, b), c), d) in q0
        .iter_mut()
        .zip(q1.iter_mut())
        .zip(q2.iter_mut())
        .zip(q3.iter_mut())
    {
        let (av, cv) = butterfly_step(load(a), load(c), tv);
        let (bv, dv) = butterfly_step(load(b), load(d), tv);
        let (av, bv) = butterfly_step(av, bv, tv0);
        let (cv, dv) = butterfly_step(cv, dv, tv1);
        store(a, av);
        store(b, bv);
        store(c, cv);
        store(d, dv);
    }
}

/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    let tv = Scalar::new(t);
    for (((l, h), sl), sh) in lo.iter_mut().zip(hi.iter_mut()).zip(src_lo).zip(src_hi) {
        let (lv, hv) = butterfly_step(load(sl), load(sh), tv);
        store(l, lv);
        store(h, hv);
    }
}

/// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
///
/// # Safety
/// The CPU must support `pclmulqdq`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub unsafe fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let tv = Scalar::new(t);
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        let lv = load(l);
        let hv = _mm_xor_si128(load(h), lv);
        store(h, hv);
        store(l, _mm_xor_si128(lv, mul_by(hv, tv)));
    }
}
