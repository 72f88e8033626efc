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

/// Carry-less products summed unreduced in two lanes: the low, middle and
/// high quadword pairs of each lane's 256-bit sum.
#[derive(Clone, Copy)]
struct Wide {
    lo: __m256i,
    mid: __m256i,
    hi: __m256i,
}

impl Wide {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn zero() -> Self {
        let zero = _mm256_setzero_si256();
        Wide {
            lo: zero,
            mid: zero,
            hi: zero,
        }
    }

    /// Adds the products `x y`, lane by lane.
    #[inline]
    #[target_feature(enable = "avx2,vpclmulqdq")]
    fn mul_add(self, x: __m256i, y: __m256i) -> Self {
        let mid = _mm256_xor_si256(
            _mm256_clmulepi64_epi128::<0x01>(x, y),
            _mm256_clmulepi64_epi128::<0x10>(x, y),
        );
        Wide {
            lo: _mm256_xor_si256(self.lo, _mm256_clmulepi64_epi128::<0x00>(x, y)),
            mid: _mm256_xor_si256(self.mid, mid),
            hi: _mm256_xor_si256(self.hi, _mm256_clmulepi64_epi128::<0x11>(x, y)),
        }
    }

    /// The sum of both lanes, reduced.
    #[inline]
    #[target_feature(enable = "avx2,vpclmulqdq")]
    fn finish(self) -> u128 {
        // mid x^64: its low quadword into lo's high one, its high into hi's low.
        let lo = _mm256_xor_si256(self.lo, _mm256_bslli_epi128::<8>(self.mid));
        let hi = _mm256_xor_si256(self.hi, _mm256_bsrli_epi128::<8>(self.mid));
        let mut lanes = [0u128; 2];
        store(&mut lanes, reduce(lo, hi));
        lanes[0] ^ lanes[1]
    }
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
    let sum = a2
        .iter()
        .zip(b2)
        .fold(Wide::zero(), |sum, (x, y)| sum.mul_add(load(x), load(y)));
    // SAFETY: the caller guarantees the features of `clmul`.
    sum.finish() ^ unsafe { clmul::dot(a_tail, b_tail) }
}

/// Two lanes of a fold: `lo + r (lo + hi)`.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn fold_step(lo: __m256i, hi: __m256i, r: Scalar) -> __m256i {
    _mm256_xor_si256(lo, mul_by(_mm256_xor_si256(lo, hi), r))
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    let n = dst.len().min(lo.len()).min(hi.len());
    let rv = Scalar::new(r);
    let (d2, d_tail) = dst[..n].as_chunks_mut::<2>();
    let (l2, l_tail) = lo[..n].as_chunks::<2>();
    let (h2, h_tail) = hi[..n].as_chunks::<2>();
    for ((d, l), h) in d2.iter_mut().zip(l2).zip(h2) {
        store(d, fold_step(load(l), load(h), rv));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::fold(d_tail, l_tail, h_tail, r) };
}

/// `dst[2j] = f0[j] + r (f0[j] + f1[j])`, `dst[2j + 1]` the same of `w`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn fold_interleaving(dst: &mut [u128], [f0, f1, w0, w1]: [&[u128]; 4], r: u128) {
    let n = (dst.len() / 2)
        .min(f0.len())
        .min(f1.len())
        .min(w0.len())
        .min(w1.len());
    let rv = Scalar::new(r);
    let (d4, d_tail) = dst[..2 * n].as_chunks_mut::<4>();
    let (a0, a0_tail) = f0[..n].as_chunks::<2>();
    let (a1, a1_tail) = f1[..n].as_chunks::<2>();
    let (b0, b0_tail) = w0[..n].as_chunks::<2>();
    let (b1, b1_tail) = w1[..n].as_chunks::<2>();
    let halves = a0.iter().zip(a1).zip(b0.iter().zip(b1));
    for (d, ((a0, a1), (b0, b1))) in d4.iter_mut().zip(halves) {
        let f = fold_step(load(a0), load(a1), rv);
        let w = fold_step(load(b0), load(b1), rv);
        let [d0, d1] = d.as_chunks_mut::<2>().0 else {
            unreachable!("four entries are two vectors")
        };
        store(d0, _mm256_permute2x128_si256::<0x20>(f, w));
        store(d1, _mm256_permute2x128_si256::<0x31>(f, w));
    }
    // SAFETY: the caller guarantees the features of `clmul`.
    unsafe { clmul::fold_interleaving(d_tail, [a0_tail, a1_tail, b0_tail, b1_tail], r) };
}

/// `[sum_j f0[j] w0[j], sum_j (f0[j] + f1[j]) (w0[j] + w1[j])]`, both
/// summed unreduced and reduced once, two lanes at a time.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn round_sums([f0, f1, w0, w1]: [&[u128]; 4]) -> [u128; 2] {
    let n = f0.len().min(f1.len()).min(w0.len()).min(w1.len());
    let (a0, a0_tail) = f0[..n].as_chunks::<2>();
    let (a1, a1_tail) = f1[..n].as_chunks::<2>();
    let (b0, b0_tail) = w0[..n].as_chunks::<2>();
    let (b1, b1_tail) = w1[..n].as_chunks::<2>();
    let halves = a0.iter().zip(a1).zip(b0.iter().zip(b1));
    let (s0, s2) = halves.fold((Wide::zero(), Wide::zero()), |(s0, s2), ((a0, a1), (b0, b1))| {
        let (a0, b0) = (load(a0), load(b0));
        let (a, b) = (_mm256_xor_si256(a0, load(a1)), _mm256_xor_si256(b0, load(b1)));
        (s0.mul_add(a0, b0), s2.mul_add(a, b))
    });
    // SAFETY: the caller guarantees the features of `clmul`.
    let [t0, t2] = unsafe { clmul::round_sums([a0_tail, a1_tail, b0_tail, b1_tail]) };
    [s0.finish() ^ t0, s2.finish() ^ t2]
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones), halves `lo` and `hi`: four entries at a time, whose
/// lanes `permute2x128` splits into two of `f` and two of `w`.
///
/// # Safety
/// The CPU must support `avx2`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    let n = lo.len().min(hi.len()) & !1;
    let (l4, l_tail) = lo[..n].as_chunks::<4>();
    let (h4, h_tail) = hi[..n].as_chunks::<4>();
    let (s0, s2) = l4
        .iter()
        .zip(h4)
        .fold((Wide::zero(), Wide::zero()), |(s0, s2), (l, h)| {
            let ([l0, l1], [h0, h1]) = (l.as_chunks::<2>().0, h.as_chunks::<2>().0) else {
                unreachable!("four entries are two vectors")
            };
            let (l0, l1) = (load(l0), load(l1));
            let (m0, m1) = (_mm256_xor_si256(l0, load(h0)), _mm256_xor_si256(l1, load(h1)));
            (
                s0.mul_add(
                    _mm256_permute2x128_si256::<0x20>(l0, l1),
                    _mm256_permute2x128_si256::<0x31>(l0, l1),
                ),
                s2.mul_add(
                    _mm256_permute2x128_si256::<0x20>(m0, m1),
                    _mm256_permute2x128_si256::<0x31>(m0, m1),
                ),
            )
        });
    // SAFETY: the caller guarantees the features of `clmul`.
    let [t0, t2] = unsafe { clmul::round_sums_interleaved(l_tail, h_tail) };
    [s0.finish() ^ t0, s2.finish() ^ t2]
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
