//! The AVX-512 tier's zerocheck kernels: the field loops four lanes wide on
//! VPCLMULQDQ ([`super::lanes`] on a `__m512i`), and the skip chunk and the weighing of words on GFNI. See
//! [`super`] for why the `unsafe` blocks are sound.

use core::arch::x86_64::*;

use starling_field::cpu::Tier;

use super::super::portable::{skip_z_bits, weigh_in_groups, ByteRow, ExtRows, ExtTables, FieldMul, SkipAcc};
use super::super::SkipWeights;
use super::lanes::{self, Lanes};
use super::Clmul;

/// Proof that the CPU supports AVX-512 (F, BW, VBMI) and GFNI.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gfni(());

impl Gfni {
    /// The token, under the AVX-512 tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx512 && tier.runs_here()).then_some(Gfni(()))
    }

    /// Same result as [`super::super::portable::weigh_words`]; `mats` are
    /// [`super::super::weigh_matrices`] of `tables` (used for whole groups of 64
    /// words, `tables` for the rest).
    pub(crate) fn weigh_words(
        self,
        tables: &[[u128; 256]; 8],
        mats: &[[u64; 8]; 16],
        words: &[u64],
        out: &mut [u128],
    ) {
        weigh_in_groups::<64>(tables, words, out, |wi, wo| {
            // The words stream from memory: hint the group after next (a
            // prefetch never faults, so any address is allowed).
            let ahead = wi.as_ptr().wrapping_add(2 * 64).cast::<i8>();
            for line in 0..8 {
                // SAFETY: SSE is baseline on x86_64; a prefetch reads nothing.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(64 * line)) };
            }
            // SAFETY: the token proves the target features are present.
            unsafe { weigh64_gfni(mats, wi, wo) }
        });
    }

    /// Same result as [`super::super::portable::skip_chunk`], from the GFNI
    /// forms of the weights in `w`.
    pub(crate) fn skip_chunk(
        self,
        ext: &ExtTables,
        a: &[u64],
        b: &[u64],
        z: &[u64],
        w: &SkipWeights,
        acc: &mut SkipAcc,
    ) {
        assert!(a.len() == b.len() && b.len() == z.len() && z.len() <= w.mats.len());
        let groups = z.len() / 8;
        assert!(groups <= w.group_mats.len());
        // SAFETY: the token proves avx512f, avx512bw, avx512vbmi and gfni
        // are present; the lengths were checked above.
        unsafe {
            skip_ab_gfni(&ext.aes, a, b, &w.mats, &mut acc.ab);
            skip_z_gfni(&z[..8 * groups], &w.group_mats, &mut acc.z);
        }
        skip_z_bits(&z[8 * groups..], &w.coords[8 * groups..], &mut acc.z);
    }
}

#[inline(always)]
fn load_row(row: &ByteRow) -> __m512i {
    // SAFETY: `row` is a valid, 64-byte aligned reference to 64 bytes; the
    // callers run with avx512f enabled.
    unsafe { _mm512_load_si512(row.0.as_ptr().cast()) }
}

#[inline(always)]
fn store_row(row: &mut ByteRow, v: __m512i) {
    // SAFETY: as in `load_row`, for a mutable reference.
    unsafe { _mm512_store_si512(row.0.as_mut_ptr().cast(), v) }
}

/// `f_hat` on the extra points: eight table rows XOR-ed.
#[inline(always)]
fn extra_values(ext: &ExtRows, word: u64) -> __m512i {
    // SAFETY: only reached from functions with avx512f enabled.
    unsafe {
        let mut acc = load_row(&ext[0][(word & 0xff) as usize]);
        for (j, tj) in ext.iter().enumerate().skip(1) {
            acc = _mm512_xor_si512(acc, load_row(&tj[((word >> (8 * j)) & 0xff) as usize]));
        }
        acc
    }
}

#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn skip_ab_gfni(ext: &ExtRows, a: &[u64], b: &[u64], mats: &[[u64; 16]], out: &mut [ByteRow; 16]) {
    let mut acc: [__m512i; 16] = core::array::from_fn(|k| load_row(&out[k]));
    for ((&wa, &wb), m) in a.iter().zip(b).zip(mats) {
        let c = _mm512_gf2p8mul_epi8(extra_values(ext, wa), extra_values(ext, wb));
        for (acc_k, &mk) in acc.iter_mut().zip(m) {
            let prod = _mm512_gf2p8affine_epi64_epi8::<0>(c, _mm512_set1_epi64(mk as i64));
            *acc_k = _mm512_xor_si512(*acc_k, prod);
        }
    }
    for (row, v) in out.iter_mut().zip(acc) {
        store_row(row, v);
    }
}

/// `idx[8 q + t] = 8 (7 - t) + q`: qword `q` gets byte `q` of the eight
/// words, last word first.
const BYTES_BY_WORD_REVERSED: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        idx[p] = (8 * (7 - p % 8) + p / 8) as u8;
        p += 1;
    }
    idx
};

/// Groups of eight words: one `vpermb` and one `gf2p8affineqb` (with the
/// data as the matrices) give byte `y` = bit `y` of each of the eight words,
/// then one affine product per coordinate adds the group's weights.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn skip_z_gfni(z: &[u64], group_mats: &[[u64; 16]], out: &mut [ByteRow; 16]) {
    let mut acc: [__m512i; 16] = core::array::from_fn(|k| load_row(&out[k]));
    let by_word = load_bytes(&BYTES_BY_WORD_REVERSED);
    // Byte j of every qword is 1 << j: the affine product with matrix Q
    // then has bit i of byte j equal to bit j of byte 7 - i of Q.
    let unit = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    for (group, m) in z.chunks_exact(8).zip(group_mats) {
        // SAFETY: `group` is 64 readable bytes.
        let words = unsafe { _mm512_loadu_si512(group.as_ptr().cast()) };
        let q = _mm512_permutexvar_epi8(by_word, words);
        let bits = _mm512_gf2p8affine_epi64_epi8::<0>(unit, q);
        for (acc_k, &mk) in acc.iter_mut().zip(m) {
            let prod = _mm512_gf2p8affine_epi64_epi8::<0>(bits, _mm512_set1_epi64(mk as i64));
            *acc_k = _mm512_xor_si512(*acc_k, prod);
        }
    }
    for (row, v) in out.iter_mut().zip(acc) {
        store_row(row, v);
    }
}

/// `idx[8 j + i] = 8 i + j`: gathers byte `j` of eight qwords into qword `j`.
const BYTES_BY_POSITION: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        idx[p] = ((p % 8) * 8 + p / 8) as u8;
        p += 1;
    }
    idx
};

/// `idx[16 t + q] = 4 q + t`.
const BYTES_BY_WORD: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        idx[p] = (4 * (p % 16) + p / 16) as u8;
        p += 1;
    }
    idx
};

/// Two-source permutation indices that swap bit `b` of the register index
/// with bit `b` of the element index (`n` elements per register): the
/// indices for the lower and the upper register of a pair.
const fn butterfly<const N: usize>(b: usize) -> ([u8; N], [u8; N]) {
    let mut lo = [0u8; N];
    let mut hi = [0u8; N];
    let mut p = 0;
    while p < N {
        if p & b == 0 {
            lo[p] = p as u8;
            hi[p] = (p ^ b) as u8;
        } else {
            lo[p] = (N + (p ^ b)) as u8;
            hi[p] = (N + p) as u8;
        }
        p += 1;
    }
    (lo, hi)
}

const QWORD_BUTTERFLIES: [([u8; 8], [u8; 8]); 3] = [butterfly(1), butterfly(2), butterfly(4)];
const BYTE_BUTTERFLIES: [([u8; 64], [u8; 64]); 4] = [butterfly(1), butterfly(2), butterfly(4), butterfly(8)];

#[inline(always)]
fn load_bytes(idx: &[u8; 64]) -> __m512i {
    // SAFETY: `idx` is 64 readable bytes; avx512f is enabled by the caller.
    unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) }
}

#[inline(always)]
fn load_qword_idx(idx: &[u8; 8]) -> __m512i {
    // SAFETY: SSE2 is baseline; avx512f is enabled by the caller.
    unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(idx.as_ptr().cast())) }
}

/// `out[i] = sum_y bit y of words[i] * weights[y]` for 64 words: transpose
/// to byte planes (plane `j` holds byte `j` of every word), one
/// `gf2p8affineqb` per (output byte, input byte), transpose back.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn weigh64_gfni(mats: &[[u64; 8]; 16], words: &[u64; 64], out: &mut [u128; 64]) {
    // SAFETY: all loads and stores are of in-bounds 64-byte pieces of
    // `words` and `out`; the features are enabled on this function.
    unsafe {
        let by_pos = load_bytes(&BYTES_BY_POSITION);
        let mut x: [__m512i; 8] = core::array::from_fn(|k| {
            let w = _mm512_loadu_si512(words[8 * k..].as_ptr().cast());
            _mm512_permutexvar_epi8(by_pos, w)
        });
        // Qword transpose: afterwards x[j] byte i = byte j of words[i].
        for (s, (lo, hi)) in QWORD_BUTTERFLIES.iter().enumerate() {
            let b = 1usize << s;
            let (lo, hi) = (load_qword_idx(lo), load_qword_idx(hi));
            for k in 0..8 {
                if k & b == 0 {
                    let (u, v) = (x[k], x[k | b]);
                    x[k] = _mm512_permutex2var_epi64(u, lo, v);
                    x[k | b] = _mm512_permutex2var_epi64(u, hi, v);
                }
            }
        }
        // y[o] byte i = byte o of the weight sum of words[i].
        let mut y: [__m512i; 16] = core::array::from_fn(|o| {
            let mut acc = _mm512_gf2p8affine_epi64_epi8::<0>(x[0], _mm512_set1_epi64(mats[o][0] as i64));
            for j in 1..8 {
                let t = _mm512_gf2p8affine_epi64_epi8::<0>(x[j], _mm512_set1_epi64(mats[o][j] as i64));
                acc = _mm512_xor_si512(acc, t);
            }
            acc
        });
        // Byte (4 q + t) -> (16 t + q), then swap the register index o with
        // the low four bits q: afterwards y[q] byte (16 t + o) = byte o of
        // the sum for words[4 q + t].
        let by_word = load_bytes(&BYTES_BY_WORD);
        for v in y.iter_mut() {
            *v = _mm512_permutexvar_epi8(by_word, *v);
        }
        for (s, (lo, hi)) in BYTE_BUTTERFLIES.iter().enumerate() {
            let b = 1usize << s;
            let (lo, hi) = (load_bytes(lo), load_bytes(hi));
            for k in 0..16 {
                if k & b == 0 {
                    let (u, v) = (y[k], y[k | b]);
                    y[k] = _mm512_permutex2var_epi8(u, lo, v);
                    y[k | b] = _mm512_permutex2var_epi8(u, hi, v);
                }
            }
        }
        for (q, v) in y.iter().enumerate() {
            _mm512_storeu_si512(out[4 * q..].as_mut_ptr().cast(), *v);
        }
    }
}

/// Proof that the CPU supports AVX-512 (F, BW), VPCLMULQDQ and PCLMULQDQ.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vpclmul(());

impl Vpclmul {
    /// The token, under the AVX-512 tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx512 && tier.runs_here()).then_some(Vpclmul(()))
    }

    fn clmul(self) -> Clmul {
        Clmul(())
    }

    /// Same result as [`super::super::portable::round_field`].
    pub(crate) fn round_field(self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        assert!(a.len() == 2 * e_lo.len() && b.len() == a.len());
        // SAFETY: the token proves the target features are present; the
        // lengths were checked above.
        unsafe { round_field_avx512(self.clmul(), a, b, e_lo) }
    }

    /// Same result as [`super::super::portable::fold_field_round`].
    pub(crate) fn fold_field_round(
        self,
        a: &[u128],
        b: &[u128],
        r: u128,
        out_a: &mut [u128],
        out_b: &mut [u128],
        e_lo: &[u128],
    ) -> (u128, u128) {
        assert!(out_a.len() == 2 * e_lo.len() && out_b.len() == out_a.len());
        assert!(a.len() == 2 * out_a.len() && b.len() == a.len());
        // SAFETY: as in `round_field`.
        unsafe { fold_field_round_avx512(self.clmul(), a, b, r, out_a, out_b, e_lo) }
    }
}

/// Four elements in a `__m512i`, for [`lanes`].
#[derive(Clone, Copy)]
struct Zmm(());

impl Lanes for Zmm {
    type V = __m512i;
    const N: usize = 4;

    // SAFETY (every method): only reached from the `#[target_feature]`
    // wrappers below, which enable avx512f, avx512bw and vpclmulqdq; memory
    // is touched through slices whose lengths are checked first.
    #[inline(always)]
    fn load(self, x: &[u128]) -> __m512i {
        assert!(x.len() >= 4);
        unsafe { _mm512_loadu_si512(x.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, x: &mut [u128], v: __m512i) {
        assert!(x.len() >= 4);
        unsafe { _mm512_storeu_si512(x.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn splat(self, x: u128) -> __m512i {
        unsafe { _mm512_broadcast_i32x4(Clmul(()).load(&x)) }
    }
    #[inline(always)]
    fn zero(self) -> __m512i {
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn mul_wide(self, x: __m512i, y: __m512i) -> (__m512i, __m512i, __m512i) {
        unsafe {
            let lo = _mm512_clmulepi64_epi128::<0x00>(x, y);
            let hi = _mm512_clmulepi64_epi128::<0x11>(x, y);
            let mid = _mm512_xor_si512(
                _mm512_clmulepi64_epi128::<0x01>(x, y),
                _mm512_clmulepi64_epi128::<0x10>(x, y),
            );
            (lo, mid, hi)
        }
    }
    #[inline(always)]
    fn reduce(self, (lo, mid, hi): (__m512i, __m512i, __m512i)) -> __m512i {
        unsafe {
            let lo = _mm512_xor_si512(lo, _mm512_bslli_epi128::<8>(mid));
            let hi = _mm512_xor_si512(hi, _mm512_bsrli_epi128::<8>(mid));
            let p = _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87);
            let t = _mm512_clmulepi64_epi128::<0x01>(hi, p);
            let lo = _mm512_xor_si512(lo, _mm512_bslli_epi128::<8>(t));
            let h0 = _mm512_xor_si512(hi, _mm512_bsrli_epi128::<8>(t));
            _mm512_xor_si512(lo, _mm512_clmulepi64_epi128::<0x00>(h0, p))
        }
    }
    #[inline(always)]
    fn split_pairs(self, u: __m512i, v: __m512i) -> (__m512i, __m512i) {
        unsafe {
            (
                _mm512_shuffle_i64x2::<0b10_00_10_00>(u, v),
                _mm512_shuffle_i64x2::<0b11_01_11_01>(u, v),
            )
        }
    }
    #[inline(always)]
    fn lane_sum(self, v: __m512i) -> u128 {
        unsafe {
            let x = _mm_xor_si128(
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<0>(v),
                    _mm512_extracti32x4_epi32::<1>(v),
                ),
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<2>(v),
                    _mm512_extracti32x4_epi32::<3>(v),
                ),
            );
            Clmul(()).store(x)
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq,pclmulqdq,sse2")]
fn round_field_avx512(m: Clmul, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    lanes::round(Zmm(()), m, a, b, e_lo)
}

#[target_feature(enable = "avx512f,avx512bw,vpclmulqdq,pclmulqdq,sse2")]
#[allow(clippy::too_many_arguments)]
fn fold_field_round_avx512(
    m: Clmul,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    lanes::fold_round(Zmm(()), m, a, b, r, out_a, out_b, e_lo)
}
