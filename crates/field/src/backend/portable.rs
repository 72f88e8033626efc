//! The portable slice kernels: the definition every vector backend is
//! tested against (`tests/backends.rs`). The product itself is the
//! verifier's portable definition, re-exported.

pub use starling_verifier::field::portable::{clmul128, clmul64, mul, reduce};

/// `s * x^64`, the second half of a multiplier the vector backends prepare
/// once per twiddle (`s x^64 = s_lo x^64 + s_hi r`, `r = x^7 + x^2 + x + 1`
/// from `x^128 = r`; `s_hi r` has 71 bits, so the sum needs no further
/// reduction): a few shifts where a general product took five carry-less
/// multiplications, which the NTT's many short butterfly calls paid once
/// per call.
#[inline]
pub fn mul_x64(s: u128) -> u128 {
    let hi = s >> 64;
    (s << 64) ^ hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7)
}

// Slice kernels. These loops are the definition every fast backend is tested
// against (`tests/backends.rs`); all slices of one call have equal lengths.

/// `sum_i a[i] * b[i]`: the 256-bit carry-less products summed, then
/// reduced once (reduction is linear).
pub fn dot(a: &[u128], b: &[u128]) -> u128 {
    let (lo, hi) = a.iter().zip(b).fold((0, 0), |(lo, hi), (&x, &y)| {
        let (pl, ph) = clmul128(x, y);
        (lo ^ pl, hi ^ ph)
    });
    reduce(lo, hi)
}

/// `v[i] *= s`.
pub fn scale_slice(v: &mut [u128], s: u128) {
    for x in v.iter_mut() {
        *x = mul(*x, s);
    }
}

/// `dst[i] = s * src[i]`.
pub fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = mul(x, s);
    }
}

/// `dst[i] += s * src[i]`.
pub fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d ^= mul(x, s);
    }
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`: the multilinear fold of a table
/// whose halves (the two values of the variable bound) are `lo` and `hi`.
pub fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    for ((d, &l), &h) in dst.iter_mut().zip(lo).zip(hi) {
        *d = l ^ mul(l ^ h, r);
    }
}

/// [`fold`] of two tables at once, written interleaved: `dst[2j]` is `f`'s
/// fold at `j` (halves `f0`, `f1`), `dst[2j + 1]` `w`'s (`w0`, `w1`).
pub fn fold_interleaving(dst: &mut [u128], [f0, f1, w0, w1]: [&[u128]; 4], r: u128) {
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    for (pair, ((&a0, &a1), (&b0, &b1))) in dst.chunks_exact_mut(2).zip(halves) {
        pair[0] = a0 ^ mul(a0 ^ a1, r);
        pair[1] = b0 ^ mul(b0 ^ b1, r);
    }
}

/// A round of the sumcheck of `sum_x f(x) w(x)` on the halves `f0`, `f1`
/// of `f` and `w0`, `w1` of `w` (all of equal length): `[sum_j f0[j]
/// w0[j], sum_j (f0[j] + f1[j]) (w0[j] + w1[j])]`, the round polynomial at
/// 0 and its top coefficient. Each sum reduced once, as in [`dot`].
pub fn round_sums([f0, f1, w0, w1]: [&[u128]; 4]) -> [u128; 2] {
    let halves = f0.iter().zip(f1).zip(w0.iter().zip(w1));
    let [s0, s2] = halves.fold([(0, 0); 2], |[s0, s2], ((&a0, &a1), (&b0, &b1))| {
        [
            add_wide(s0, clmul128(a0, b0)),
            add_wide(s2, clmul128(a0 ^ a1, b0 ^ b1)),
        ]
    });
    [reduce(s0.0, s0.1), reduce(s2.0, s2.1)]
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones), halves `lo` and `hi` (of equal, even length).
pub fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    let pairs = lo.chunks_exact(2).zip(hi.chunks_exact(2));
    let [s0, s2] = pairs.fold([(0, 0); 2], |[s0, s2], (l, h)| {
        [
            add_wide(s0, clmul128(l[0], l[1])),
            add_wide(s2, clmul128(l[0] ^ h[0], l[1] ^ h[1])),
        ]
    });
    [reduce(s0.0, s0.1), reduce(s2.0, s2.1)]
}

fn add_wide(a: (u128, u128), b: (u128, u128)) -> (u128, u128) {
    (a.0 ^ b.0, a.1 ^ b.1)
}

/// The additive-NTT butterfly `lo[i] += t * hi[i]; hi[i] += lo[i]`.
pub fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        *l ^= mul(*h, t);
        *h ^= *l;
    }
}

/// Two rounds of butterflies on four quarters: [`butterfly`]`(q0|q1, q2|q3, t)`
/// and then `butterfly(q0, q1, t0)`, `butterfly(q2, q3, t1)`.
pub fn butterfly2(q: [&mut [u128]; 4], t: u128, t0: u128, t1: u128) {
    let [q0, q1, q2, q3] = q;
    butterfly(q0, q2, t);
    butterfly(q1, q3, t);
    butterfly(q0, q1, t0);
    butterfly(q2, q3, t1);
}

/// The last four rounds of the additive NTT on a block of sixteen
/// positions of `batch` elements each (`data`, position-major): round `j`
/// (from the top) pairs the positions `2^(3 - j)` apart in each of its
/// `2^j` groups, group `g` with the twiddle `twiddles[2^j - 1 + g]`.
pub fn butterfly_rounds4(data: &mut [u128], batch: usize, twiddles: &[u128; 15]) {
    for j in 0..4 {
        let group = batch << (4 - j);
        for (g, block) in data.chunks_mut(group).enumerate() {
            let (lo, hi) = block.split_at_mut(group / 2);
            butterfly(lo, hi, twiddles[(1 << j) - 1 + g]);
        }
    }
}

/// [`butterfly`] reading its inputs from `src_lo`, `src_hi` and writing the
/// results to `lo`, `hi` (a copy fused with the first round of a transform).
pub fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    for (((l, h), &sl), &sh) in lo.iter_mut().zip(hi.iter_mut()).zip(src_lo).zip(src_hi) {
        *l = sl ^ mul(sh, t);
        *h = sh ^ *l;
    }
}

/// The inverse butterfly `hi[i] += lo[i]; lo[i] += t * hi[i]`.
pub fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        *h ^= *l;
        *l ^= mul(*h, t);
    }
}
