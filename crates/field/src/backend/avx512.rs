//! GF(2^128) slice kernels with AVX-512 and VPCLMULQDQ: four products at once.
//!
//! A `__m512i` holds four field elements, one per 128-bit lane, with the low
//! 64 coefficients in the lane's low quadword (the in-memory layout of `u128`
//! on x86_64, so slices load directly). Per lane the 256-bit carry-less product
//! is formed from four 64x64 products and reduced with two more by
//! r = x^7 + x^2 + x + 1 (x^128 = r in the field). The reduced product is unique,
//! so every kernel returns exactly what `portable` does (tested on random
//! inputs in `tests/backends.rs`). The one to three elements past the last
//! multiple of four take the same vector path through masked loads and
//! stores: the NTT's level-0 batches are a code's live rows (46 for BLAKE3),
//! so every butterfly call has such a tail, and a scalar tail cost more than
//! 3% of a proof.

use core::arch::x86_64::*;

/// `[q1, q0]` from `[q0, q1]` in every 128-bit lane.
const SWAP_QWORDS: _MM_PERM_ENUM = 0x4E;
/// Mask of the low quadword of every lane.
const LOW_QWORDS: __mmask8 = 0x55;
/// Mask of the high quadword of every lane.
const HIGH_QWORDS: __mmask8 = 0xAA;

#[inline]
#[target_feature(enable = "avx512f")]
fn load(v: &[u128; 4]) -> __m512i {
    // SAFETY: `v` is 64 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(v.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &mut [u128; 4], x: __m512i) {
    // SAFETY: `v` is 64 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm512_storeu_si512(v.as_mut_ptr().cast(), x) }
}

/// Mask of the quadwords of the first `min(n, 4)` elements of a vector.
#[inline]
fn part_mask(n: usize) -> __mmask8 {
    ((1u32 << (2 * n.min(4))) - 1) as __mmask8
}

/// The first elements of `v` (all of them when there are at most four),
/// zeros in the lanes past them.
#[inline]
#[target_feature(enable = "avx512f")]
fn load_part(v: &[u128]) -> __m512i {
    // SAFETY: the mask enables the quadwords of the first `min(len, 4)`
    // elements, all inside `v`; masked-off quadwords are neither read nor
    // able to fault.
    unsafe { _mm512_maskz_loadu_epi64(part_mask(v.len()), v.as_ptr().cast()) }
}

/// Stores the first `min(v.len(), 4)` lanes of `x` to `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store_part(v: &mut [u128], x: __m512i) {
    // SAFETY: the mask enables the quadwords of the first `min(len, 4)`
    // elements, all inside `v`; masked-off quadwords are not written.
    unsafe { _mm512_mask_storeu_epi64(v.as_mut_ptr().cast(), part_mask(v.len()), x) }
}

#[inline]
#[target_feature(enable = "avx512f")]
fn broadcast(s: u128) -> __m512i {
    let (l, h) = (s as u64 as i64, (s >> 64) as u64 as i64);
    _mm512_set_epi64(h, l, h, l, h, l, h, l)
}

/// Reduces the 256-bit products `hi * x^128 + lo`, lane by lane.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn reduce(lo: __m512i, hi: __m512i) -> __m512i {
    // Quadwords of the product: lo = [p0, p1], hi = [p2, p3].
    let r = _mm512_set1_epi64(0x87);
    // p3 x^192 = (p3 r) x^64: t = p3 r has 71 bits; t0 goes to p1, t1 to p2.
    let t = _mm512_clmulepi64_epi128::<0x01>(hi, r);
    let ts = _mm512_shuffle_epi32::<SWAP_QWORDS>(t);
    let p2 = _mm512_xor_si512(hi, ts);
    // (p2 + t1) x^128 = (p2 + t1) r, which fits in 128 bits.
    let u = _mm512_clmulepi64_epi128::<0x00>(p2, r);
    let lo = _mm512_mask_xor_epi64(lo, HIGH_QWORDS, lo, ts);
    _mm512_xor_si512(lo, u)
}

/// A multiplier used for many products: `s` and `s x^64` (reduced), each
/// broadcast to the four lanes.
#[derive(Clone, Copy)]
struct Scalar {
    s: __m512i,
    s_x64: __m512i,
}

impl Scalar {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(s: u128) -> Self {
        let s_x64 = super::portable::mul_x64(s);
        Scalar {
            s: broadcast(s),
            s_x64: broadcast(s_x64),
        }
    }
}

/// Four field products `a[k] * s`, for a multiplier prepared once.
///
/// `a s = a0 s + a1 (s x^64)`, where `s x^64` is taken reduced. The two
/// 64x128 products sum to a 192-bit value `X + Y x^64` (`X`, `Y` 128-bit), and
/// only its top quadword `Y1` needs reducing: `Y1 x^128 = Y1 r` fits in 71
/// bits. Five carry-less products instead of six.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn mul_by(a: __m512i, s: Scalar) -> __m512i {
    let x = _mm512_xor_si512(
        _mm512_clmulepi64_epi128::<0x00>(a, s.s),
        _mm512_clmulepi64_epi128::<0x01>(a, s.s_x64),
    );
    let y = _mm512_xor_si512(
        _mm512_clmulepi64_epi128::<0x10>(a, s.s),
        _mm512_clmulepi64_epi128::<0x11>(a, s.s_x64),
    );
    let r = _mm512_set1_epi64(0x87);
    let z = _mm512_xor_si512(x, _mm512_clmulepi64_epi128::<0x01>(y, r));
    // Y0 x^64: into the high quadword.
    let ys = _mm512_shuffle_epi32::<SWAP_QWORDS>(y);
    _mm512_mask_xor_epi64(z, HIGH_QWORDS, z, ys)
}

/// The unreduced product of four lanes added to `(lo, mid, hi)`.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn mul_add_wide(acc: [__m512i; 3], a: __m512i, b: __m512i) -> [__m512i; 3] {
    let mid = _mm512_xor_si512(
        _mm512_clmulepi64_epi128::<0x01>(a, b),
        _mm512_clmulepi64_epi128::<0x10>(a, b),
    );
    [
        _mm512_xor_si512(acc[0], _mm512_clmulepi64_epi128::<0x00>(a, b)),
        _mm512_xor_si512(acc[1], mid),
        _mm512_xor_si512(acc[2], _mm512_clmulepi64_epi128::<0x11>(a, b)),
    ]
}

/// `sum_i a[i] * b[i]`: the products summed unreduced, four lanes at a
/// time (the part past the last four in masked lanes), then reduced once.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn dot(a: &[u128], b: &[u128]) -> u128 {
    let n = a.len().min(b.len());
    let (a4, a_tail) = a[..n].as_chunks::<4>();
    let (b4, b_tail) = b[..n].as_chunks::<4>();
    let zero = _mm512_setzero_si512();
    let mut sum = [zero; 3];
    for (x, y) in a4.iter().zip(b4) {
        sum = mul_add_wide(sum, load(x), load(y));
    }
    if !a_tail.is_empty() {
        sum = mul_add_wide(sum, load_part(a_tail), load_part(b_tail));
    }
    finish_wide(sum)
}

/// The field sum of four lanes of unreduced products `(lo, mid, hi)`.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn finish_wide(sum: [__m512i; 3]) -> u128 {
    // mid x^64: its low quadword into lo's high one, its high into hi's low.
    let ms = _mm512_shuffle_epi32::<SWAP_QWORDS>(sum[1]);
    let lo = _mm512_mask_xor_epi64(sum[0], HIGH_QWORDS, sum[0], ms);
    let hi = _mm512_mask_xor_epi64(sum[2], LOW_QWORDS, sum[2], ms);
    let mut lanes = [0u128; 4];
    store(&mut lanes, reduce(lo, hi));
    lanes.iter().fold(0, |x, y| x ^ y)
}

/// Four lanes of a fold: `lo + r (lo + hi)`.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn fold_step(lo: __m512i, hi: __m512i, r: Scalar) -> __m512i {
    _mm512_xor_si512(lo, mul_by(_mm512_xor_si512(lo, hi), r))
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    let n = dst.len().min(lo.len()).min(hi.len());
    let rv = Scalar::new(r);
    let (d4, d_tail) = dst[..n].as_chunks_mut::<4>();
    let (l4, l_tail) = lo[..n].as_chunks::<4>();
    let (h4, h_tail) = hi[..n].as_chunks::<4>();
    for ((d, l), h) in d4.iter_mut().zip(l4).zip(h4) {
        store(d, fold_step(load(l), load(h), rv));
    }
    if !d_tail.is_empty() {
        store_part(d_tail, fold_step(load_part(l_tail), load_part(h_tail), rv));
    }
}

/// Quadword indices of `permutex2var` that interleave the first two lanes
/// of `a` with those of `b`: `[a0, b0, a1, b1]`.
const INTERLEAVE_LOW: [i64; 8] = [0, 1, 8, 9, 2, 3, 10, 11];
/// The same for the last two lanes: `[a2, b2, a3, b3]`.
const INTERLEAVE_HIGH: [i64; 8] = [4, 5, 12, 13, 6, 7, 14, 15];

/// `dst[2j] = f0[j] + r (f0[j] + f1[j])`, `dst[2j + 1]` the same of `w`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn fold_interleaving(dst: &mut [u128], [f0, f1, w0, w1]: [&[u128]; 4], r: u128) {
    let n = (dst.len() / 2)
        .min(f0.len())
        .min(f1.len())
        .min(w0.len())
        .min(w1.len());
    let rv = Scalar::new(r);
    // SAFETY: 64 readable bytes each.
    let (low, high) = unsafe {
        (
            _mm512_loadu_si512(INTERLEAVE_LOW.as_ptr().cast()),
            _mm512_loadu_si512(INTERLEAVE_HIGH.as_ptr().cast()),
        )
    };
    let (d8, d_tail) = dst[..2 * n].as_chunks_mut::<8>();
    let (a0, a0_tail) = f0[..n].as_chunks::<4>();
    let (a1, a1_tail) = f1[..n].as_chunks::<4>();
    let (b0, b0_tail) = w0[..n].as_chunks::<4>();
    let (b1, b1_tail) = w1[..n].as_chunks::<4>();
    let halves = a0.iter().zip(a1).zip(b0.iter().zip(b1));
    for (d, ((a0, a1), (b0, b1))) in d8.iter_mut().zip(halves) {
        let f = fold_step(load(a0), load(a1), rv);
        let w = fold_step(load(b0), load(b1), rv);
        let (d0, d1) = d.split_at_mut(4);
        store(d0.try_into().unwrap(), _mm512_permutex2var_epi64(f, low, w));
        store(d1.try_into().unwrap(), _mm512_permutex2var_epi64(f, high, w));
    }
    if !d_tail.is_empty() {
        let f = fold_step(load_part(a0_tail), load_part(a1_tail), rv);
        let w = fold_step(load_part(b0_tail), load_part(b1_tail), rv);
        let (d0, d1) = d_tail.split_at_mut(d_tail.len().min(4));
        store_part(d0, _mm512_permutex2var_epi64(f, low, w));
        if !d1.is_empty() {
            store_part(d1, _mm512_permutex2var_epi64(f, high, w));
        }
    }
}

/// `[sum_j f0[j] w0[j], sum_j (f0[j] + f1[j]) (w0[j] + w1[j])]`, both
/// summed unreduced and reduced once, four lanes at a time.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn round_sums([f0, f1, w0, w1]: [&[u128]; 4]) -> [u128; 2] {
    let n = f0.len().min(f1.len()).min(w0.len()).min(w1.len());
    let (a0, a0_tail) = f0[..n].as_chunks::<4>();
    let (a1, a1_tail) = f1[..n].as_chunks::<4>();
    let (b0, b0_tail) = w0[..n].as_chunks::<4>();
    let (b1, b1_tail) = w1[..n].as_chunks::<4>();
    let zero = _mm512_setzero_si512();
    let (mut s0, mut s2) = ([zero; 3], [zero; 3]);
    let mut add = |a0: __m512i, a1: __m512i, b0: __m512i, b1: __m512i| {
        s0 = mul_add_wide(s0, a0, b0);
        s2 = mul_add_wide(s2, _mm512_xor_si512(a0, a1), _mm512_xor_si512(b0, b1));
    };
    for ((a0, a1), (b0, b1)) in a0.iter().zip(a1).zip(b0.iter().zip(b1)) {
        add(load(a0), load(a1), load(b0), load(b1));
    }
    if !a0_tail.is_empty() {
        add(
            load_part(a0_tail),
            load_part(a1_tail),
            load_part(b0_tail),
            load_part(b1_tail),
        );
    }
    [finish_wide(s0), finish_wide(s2)]
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones), halves `lo` and `hi`: eight entries at a time, whose
/// lanes `shuffle_i64x2` splits into four of `f` and four of `w`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    let n = lo.len().min(hi.len()) & !1;
    let (l8, l_tail) = lo[..n].as_chunks::<8>();
    let (h8, h_tail) = hi[..n].as_chunks::<8>();
    let zero = _mm512_setzero_si512();
    let (mut s0, mut s2) = ([zero; 3], [zero; 3]);
    // Lanes 0 and 2 of each vector are `f`'s, 1 and 3 `w`'s.
    let mut add = |l0: __m512i, l1: __m512i, h0: __m512i, h1: __m512i| {
        let (m0, m1) = (_mm512_xor_si512(l0, h0), _mm512_xor_si512(l1, h1));
        s0 = mul_add_wide(
            s0,
            _mm512_shuffle_i64x2::<0x88>(l0, l1),
            _mm512_shuffle_i64x2::<0xDD>(l0, l1),
        );
        s2 = mul_add_wide(
            s2,
            _mm512_shuffle_i64x2::<0x88>(m0, m1),
            _mm512_shuffle_i64x2::<0xDD>(m0, m1),
        );
    };
    for (l, h) in l8.iter().zip(h8) {
        let ([l0, l1], [h0, h1]) = (l.as_chunks::<4>().0, h.as_chunks::<4>().0) else {
            unreachable!("eight entries are two vectors")
        };
        add(load(l0), load(l1), load(h0), load(h1));
    }
    if !l_tail.is_empty() {
        let (l0, l1) = l_tail.split_at(l_tail.len().min(4));
        let (h0, h1) = h_tail.split_at(h_tail.len().min(4));
        add(load_part(l0), load_part(l1), load_part(h0), load_part(h1));
    }
    [finish_wide(s0), finish_wide(s2)]
}

/// `v[i] *= s`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn scale_slice(v: &mut [u128], s: u128) {
    let sv = Scalar::new(s);
    let (v4, tail) = v.as_chunks_mut::<4>();
    for x in v4.iter_mut() {
        store(x, mul_by(load(x), sv));
    }
    if !tail.is_empty() {
        store_part(tail, mul_by(load_part(tail), sv));
    }
}

/// `dst[i] = s * src[i]`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    let n = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    let sv = Scalar::new(s);
    let (d4, d_tail) = dst.as_chunks_mut::<4>();
    let (s4, s_tail) = src.as_chunks::<4>();
    for (d, x) in d4.iter_mut().zip(s4) {
        store(d, mul_by(load(x), sv));
    }
    if !d_tail.is_empty() {
        store_part(d_tail, mul_by(load_part(s_tail), sv));
    }
}

/// `dst[i] += s * src[i]`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    let n = dst.len().min(src.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    let sv = Scalar::new(s);
    let (d4, d_tail) = dst.as_chunks_mut::<4>();
    let (s4, s_tail) = src.as_chunks::<4>();
    for (d, x) in d4.iter_mut().zip(s4) {
        store(d, _mm512_xor_si512(load(d), mul_by(load(x), sv)));
    }
    if !d_tail.is_empty() {
        store_part(
            d_tail,
            _mm512_xor_si512(load_part(d_tail), mul_by(load_part(s_tail), sv)),
        );
    }
}

/// One butterfly on four lanes: `(lo + t hi, hi + lo + t hi)`.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn butterfly_step(lo: __m512i, hi: __m512i, t: Scalar) -> (__m512i, __m512i) {
    let lo = _mm512_xor_si512(lo, mul_by(hi, t));
    (lo, _mm512_xor_si512(hi, lo))
}

/// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let n = lo.len().min(hi.len());
    let (lo, hi) = (&mut lo[..n], &mut hi[..n]);
    let tv = Scalar::new(t);
    let (lo4, lo_tail) = lo.as_chunks_mut::<4>();
    let (hi4, hi_tail) = hi.as_chunks_mut::<4>();
    for (l, h) in lo4.iter_mut().zip(hi4.iter_mut()) {
        let (lv, hv) = butterfly_step(load(l), load(h), tv);
        store(l, lv);
        store(h, hv);
    }
    if !lo_tail.is_empty() {
        let (lv, hv) = butterfly_step(load_part(lo_tail), load_part(hi_tail), tv);
        store_part(lo_tail, lv);
        store_part(hi_tail, hv);
    }
}

/// Both rounds of [`butterfly2`] on four lanes of each quarter.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn butterfly2_step(q: [__m512i; 4], t: Scalar, t0: Scalar, t1: Scalar) -> [__m512i; 4] {
    let (a, c) = butterfly_step(q[0], q[2], t);
    let (b, d) = butterfly_step(q[1], q[3], t);
    let (a, b) = butterfly_step(a, b, t0);
    let (c, d) = butterfly_step(c, d, t1);
    [a, b, c, d]
}

/// [`super::portable::butterfly2`]: both rounds on each group of four
/// elements while it is in registers.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly2(q: [&mut [u128]; 4], t: u128, t0: u128, t1: u128) {
    let n = q.iter().map(|x| x.len()).min().unwrap_or(0);
    let [q0, q1, q2, q3] = q;
    let (q0, q1, q2, q3) = (&mut q0[..n], &mut q1[..n], &mut q2[..n], &mut q3[..n]);
    let (tv, tv0, tv1) = (Scalar::new(t), Scalar::new(t0), Scalar::new(t1));
    let (a4, a_tail) = q0.as_chunks_mut::<4>();
    let (b4, b_tail) = q1.as_chunks_mut::<4>();
    let (c4, c_tail) = q2.as_chunks_mut::<4>();
    let (d4, d_tail) = q3.as_chunks_mut::<4>();
    for (((a, b), c), d) in a4
        .iter_mut()
        .zip(b4.iter_mut())
        .zip(c4.iter_mut())
        .zip(d4.iter_mut())
    {
        let [av, bv, cv, dv] = butterfly2_step([load(a), load(b), load(c), load(d)], tv, tv0, tv1);
        store(a, av);
        store(b, bv);
        store(c, cv);
        store(d, dv);
    }
    if !a_tail.is_empty() {
        let loaded = [
            load_part(a_tail),
            load_part(b_tail),
            load_part(c_tail),
            load_part(d_tail),
        ];
        let [av, bv, cv, dv] = butterfly2_step(loaded, tv, tv0, tv1);
        store_part(a_tail, av);
        store_part(b_tail, bv);
        store_part(c_tail, cv);
        store_part(d_tail, dv);
    }
}

/// [`super::portable::butterfly_rounds4`] for four elements per position:
/// the sixteen positions are sixteen registers, loaded and stored once for
/// the four rounds.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly_rounds4(block: &mut [[u128; 4]; 16], twiddles: &[u128; 15]) {
    let mut v: [__m512i; 16] = core::array::from_fn(|p| load(&block[p]));
    // One function per round, each with constant bounds, so that the
    // compiler unrolls them and keeps `v` in registers (a loop over the
    // round kept it on the stack).
    round_of_16::<8>(&mut v, &twiddles[..1]);
    round_of_16::<4>(&mut v, &twiddles[1..3]);
    round_of_16::<2>(&mut v, &twiddles[3..7]);
    round_of_16::<1>(&mut v, &twiddles[7..]);
    for (p, x) in block.iter_mut().zip(v) {
        store(p, x);
    }
}

/// One round of [`butterfly_rounds4`]: positions `HALF` apart, one
/// twiddle per group of `2 HALF`.
#[inline(always)]
fn round_of_16<const HALF: usize>(v: &mut [__m512i; 16], twiddles: &[u128]) {
    for (g, &t) in twiddles.iter().enumerate().take(8 / HALF) {
        // SAFETY: only inlined into `butterfly_rounds4`, which has the features.
        let t = unsafe { Scalar::new(t) };
        for a in 2 * HALF * g..2 * HALF * g + HALF {
            // SAFETY: as above.
            (v[a], v[a + HALF]) = unsafe { butterfly_step(v[a], v[a + HALF], t) };
        }
    }
}

/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    let n = lo.len().min(hi.len()).min(src_lo.len()).min(src_hi.len());
    let (lo, hi, src_lo, src_hi) = (&mut lo[..n], &mut hi[..n], &src_lo[..n], &src_hi[..n]);
    let tv = Scalar::new(t);
    let (lo4, lo_tail) = lo.as_chunks_mut::<4>();
    let (hi4, hi_tail) = hi.as_chunks_mut::<4>();
    let (sl4, sl_tail) = src_lo.as_chunks::<4>();
    let (sh4, sh_tail) = src_hi.as_chunks::<4>();
    for (((l, h), sl), sh) in lo4.iter_mut().zip(hi4.iter_mut()).zip(sl4).zip(sh4) {
        let (lv, hv) = butterfly_step(load(sl), load(sh), tv);
        store(l, lv);
        store(h, hv);
    }
    if !lo_tail.is_empty() {
        let (lv, hv) = butterfly_step(load_part(sl_tail), load_part(sh_tail), tv);
        store_part(lo_tail, lv);
        store_part(hi_tail, hv);
    }
}

/// One inverse butterfly on four lanes: `hi += lo; lo += t hi`.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn butterfly_inverse_step(lo: __m512i, hi: __m512i, t: Scalar) -> (__m512i, __m512i) {
    let hi = _mm512_xor_si512(hi, lo);
    (_mm512_xor_si512(lo, mul_by(hi, t)), hi)
}

/// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
///
/// # Safety
/// The CPU must support `avx512f`, `vpclmulqdq` and `pclmulqdq`.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub unsafe fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    let n = lo.len().min(hi.len());
    let (lo, hi) = (&mut lo[..n], &mut hi[..n]);
    let tv = Scalar::new(t);
    let (lo4, lo_tail) = lo.as_chunks_mut::<4>();
    let (hi4, hi_tail) = hi.as_chunks_mut::<4>();
    for (l, h) in lo4.iter_mut().zip(hi4.iter_mut()) {
        let (lv, hv) = butterfly_inverse_step(load(l), load(h), tv);
        store(l, lv);
        store(h, hv);
    }
    if !lo_tail.is_empty() {
        let (lv, hv) = butterfly_inverse_step(load_part(lo_tail), load_part(hi_tail), tv);
        store_part(lo_tail, lv);
        store_part(hi_tail, hv);
    }
}
