//! The AVX2 tier's slice kernels on CPUs that also have 256-bit VPCLMULQDQ
//! (Zen 3, Ice Lake and later): two products at once.
//!
//! A `__m256i` holds two field elements, one per 128-bit lane, in the
//! in-memory layout of `u128`. The arithmetic is [`super::avx512`]'s on half
//! the lanes, with byte shifts inside each lane where that file uses masked
//! XORs (AVX2 has no masks). Elements past the last multiple of two go
//! through the scalar [`super::avx2`] kernels. Every kernel returns exactly
//! what `portable` does (tested on random inputs in `tests/backends.rs`).

use core::arch::x86_64::*;

use super::avx2 as clmul;

#[inline]
#[target_feature(enable = "avx2")]
fn load(v: &[u128; 2]) -> __m256i {
    // SAFETY: `v` is 32 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(v: &mut [u128; 2], x: __m256i) {
    // SAFETY: `v` is 32 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(v.as_mut_ptr().cast(), x) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(s: u128) -> __m256i {
    let (l, h) = (s as u64 as i64, (s >> 64) as u64 as i64);
    _mm256_set_epi64x(h, l, h, l)
}

/// Reduces the 256-bit products `hi * x^128 + lo`, lane by lane.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn reduce(lo: __m256i, hi: __m256i) -> __m256i {
    // Quadwords [p0, p1], [p2, p3]; x^128 = r = x^7 + x^2 + x + 1.
    let r = _mm256_set1_epi64x(0x87);
    // p3 x^192 = (p3 r) x^64: t0 goes to p1, t1 to p2.
    let t = _mm256_clmulepi64_epi128::<0x01>(hi, r);
    let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(t));
    let p2 = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(t));
    // (p2 + t1) x^128 = (p2 + t1) r fits in 128 bits.
    _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(p2, r))
}

/// A multiplier used for many products: `s` and `s x^64` (reduced), each
/// broadcast to both lanes.
#[derive(Clone, Copy)]
struct Scalar {
    s: __m256i,
    s_x64: __m256i,
}

impl Scalar {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(s: u128) -> Self {
        let s_x64 = super::portable::mul_x64(s);
        Scalar {
            s: broadcast(s),
            s_x64: broadcast(s_x64),
        }
    }
}

/// Two products `a[k] * s` with five carry-less products each, as
/// `avx512::mul_by`: `a s = a0 s + a1 (s x^64) = X + Y x^64`, and only `Y`'s
/// top quadword needs reducing.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul_by(a: __m256i, s: Scalar) -> __m256i {
    let x = _mm256_xor_si256(
        _mm256_clmulepi64_epi128::<0x00>(a, s.s),
        _mm256_clmulepi64_epi128::<0x01>(a, s.s_x64),
    );
    let y = _mm256_xor_si256(
        _mm256_clmulepi64_epi128::<0x10>(a, s.s),
        _mm256_clmulepi64_epi128::<0x11>(a, s.s_x64),
    );
    let r = _mm256_set1_epi64x(0x87);
    let z = _mm256_xor_si256(x, _mm256_clmulepi64_epi128::<0x01>(y, r));
    _mm256_xor_si256(z, _mm256_bslli_epi128::<8>(y))
}

/// `sum_i a[i] * b[i]`: the products summed unreduced, two lanes at a
/// time, then reduced once; an element past the last pair through the
/// scalar kernel.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    let n = a.len().min(b.len());
    let (a2, a_tail) = a[..n].as_chunks::<2>();
    let (b2, b_tail) = b[..n].as_chunks::<2>();
    let zero = _mm256_setzero_si256();
    let (mut lo, mut mid, mut hi) = (zero, zero, zero);
    for (x, y) in a2.iter().zip(b2) {
        let (xv, yv) = (load(x), load(y));
        lo = _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(xv, yv));
        hi = _mm256_xor_si256(hi, _mm256_clmulepi64_epi128::<0x11>(xv, yv));
        mid = _mm256_xor_si256(mid, _mm256_clmulepi64_epi128::<0x01>(xv, yv));
        mid = _mm256_xor_si256(mid, _mm256_clmulepi64_epi128::<0x10>(xv, yv));
    }
    // mid x^64: its low quadword into lo's high one, its high into hi's low.
    let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(mid));
    let hi = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(mid));
    let mut lanes = [0u128; 2];
    store(&mut lanes, reduce(lo, hi));
    // SAFETY: the caller guarantees the features of `clmul`.
    lanes[0] ^ lanes[1] ^ unsafe { clmul::dot(a_tail, b_tail) }
}

/// `v[i] *= s`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn scale_slice(v: &mut [u128], s: u128) {
    let sv = Scalar::new(s);
    let (v2, tail) = v.as_chunks_mut::<2>();
    for x in v2.iter_mut() {
        store(x, mul_by(load(x), sv));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::scale_slice(tail, s) };
}

/// `dst[i] = s * src[i]`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    let n = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    let sv = Scalar::new(s);
    let (d2, d_tail) = dst.as_chunks_mut::<2>();
    let (s2, s_tail) = src.as_chunks::<2>();
    for (d, x) in d2.iter_mut().zip(s2) {
        store(d, mul_by(load(x), sv));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::scale_into(d_tail, s_tail, s) };
}

/// `dst[i] += s * src[i]`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    let n = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    let sv = Scalar::new(s);
    let (d2, d_tail) = dst.as_chunks_mut::<2>();
    let (s2, s_tail) = src.as_chunks::<2>();
    for (d, x) in d2.iter_mut().zip(s2) {
        store(d, _mm256_xor_si256(load(d), mul_by(load(x), sv)));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::axpy(d_tail, s_tail, s) };
}

/// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let n = lo.len().min(hi.len());
    let (lo, hi) = (&mut lo[..n], &mut hi[..n]);
    let tv = Scalar::new(t);
    let (lo2, lo_tail) = lo.as_chunks_mut::<2>();
    let (hi2, hi_tail) = hi.as_chunks_mut::<2>();
    for (l, h) in lo2.iter_mut().zip(hi2.iter_mut()) {
        let hv = load(h);
        let lv = _mm256_xor_si256(load(l), mul_by(hv, tv));
        store(l, lv);
        store(h, _mm256_xor_si256(hv, lv));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::butterfly(lo_tail, hi_tail, t) };
}

/// One butterfly on two lanes: `(lo + t hi, hi + lo + t hi)`.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn butterfly_step(lo: __m256i, hi: __m256i, t: Scalar) -> (__m256i, __m256i) {
    let lo = _mm256_xor_si256(lo, mul_by(hi, t));
    (lo, _mm256_xor_si256(hi, lo))
}

/// [`super::portable::butterfly2`]: both rounds on each pair of elements of
/// the four quarters while they are in registers (half the loads and
/// stores of four [`butterfly`] calls). The element past the last pair
/// takes the scalar kernels.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly2(q: [&mut [u128]; 4], t: u128, t0: u128, t1: u128) {
    let n = q.iter().map(|x| x.len()).min().unwrap_or(0);
    let [q0, q1, q2, q3] = q;
    let (q0, q1, q2, q3) = (&mut q0[..n], &mut q1[..n], &mut q2[..n], &mut q3[..n]);
    let (tv, tv0, tv1) = (Scalar::new(t), Scalar::new(t0), Scalar::new(t1));
    let (a2, a_tail) = q0.as_chunks_mut::<2>();
    let (b2, b_tail) = q1.as_chunks_mut::<2>();
    let (c2, c_tail) = q2.as_chunks_mut::<2>();
    let (d2, d_tail) = q3.as_chunks_mut::<2>();
    for (((a, b), c), d) in a2
        .iter_mut()
        .zip(b2.iter_mut())
        .zip(c2.iter_mut())
        .zip(d2.iter_mut())
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
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe {
        clmul::butterfly(a_tail, c_tail, t);
        clmul::butterfly(b_tail, d_tail, t);
        clmul::butterfly(a_tail, b_tail, t0);
        clmul::butterfly(c_tail, d_tail, t1);
    }
}

/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    let n = lo.len().min(hi.len()).min(src_lo.len()).min(src_hi.len());
    let (lo, hi, src_lo, src_hi) = (&mut lo[..n], &mut hi[..n], &src_lo[..n], &src_hi[..n]);
    let tv = Scalar::new(t);
    let (lo2, lo_tail) = lo.as_chunks_mut::<2>();
    let (hi2, hi_tail) = hi.as_chunks_mut::<2>();
    let (sl2, sl_tail) = src_lo.as_chunks::<2>();
    let (sh2, sh_tail) = src_hi.as_chunks::<2>();
    for (((l, h), sl), sh) in lo2.iter_mut().zip(hi2.iter_mut()).zip(sl2).zip(sh2) {
        let hv = load(sh);
        let lv = _mm256_xor_si256(load(sl), mul_by(hv, tv));
        store(l, lv);
        store(h, _mm256_xor_si256(hv, lv));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::butterfly_from(lo_tail, hi_tail, sl_tail, sh_tail, t) };
}

/// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let n = lo.len().min(hi.len());
    let (lo, hi) = (&mut lo[..n], &mut hi[..n]);
    let tv = Scalar::new(t);
    let (lo2, lo_tail) = lo.as_chunks_mut::<2>();
    let (hi2, hi_tail) = hi.as_chunks_mut::<2>();
    for (l, h) in lo2.iter_mut().zip(hi2.iter_mut()) {
        let lv = load(l);
        let hv = _mm256_xor_si256(load(h), lv);
        store(h, hv);
        store(l, _mm256_xor_si256(lv, mul_by(hv, tv)));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::butterfly_inverse(lo_tail, hi_tail, t) };
}
