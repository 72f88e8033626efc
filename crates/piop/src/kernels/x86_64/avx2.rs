//! The AVX2 tier's zerocheck kernels: the skip chunk, GF(2^8) arithmetic on
//! 32 bytes at a time without GFNI, and, where the CPU has 256-bit
//! VPCLMULQDQ, the field loops two lanes wide ([`super::lanes`] on a
//! `__m256i`). See [`super`] for why the `unsafe` blocks are sound.
//!
//! Per word the chunk needs `c = a_hat * b_hat` on the 64 extra points (a
//! product of two variable bytes: shift-and-add over the bits of `b_hat`,
//! eight steps) and then, for each of the 16 coordinates `g_k` of the word's
//! weight, `g_k * c` (a product by a constant byte: split-nibble `vpshufb`
//! tables, `g x` for the low nibble and `g (x << 4)` for the high one) and
//! `g_k` on the bytes where `z`'s bit is set (a mask). The work is arranged
//! so the 64 accumulator vectors stay in registers: a first pass over a
//! block of words writes each word's nibbles and `z` mask to a buffer, then
//! one pass per pair of coordinates streams the buffer.

use core::arch::x86_64::*;
use std::sync::OnceLock;

use starling_field::cpu::Tier;

use super::super::portable::{gf8_mul_table, ByteRow, ExtTables, FieldMul, SkipAcc};
use super::lanes::{self, Lanes};
use super::Clmul;

/// Proof that the CPU supports AVX2.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, under the AVX2 tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx2 && tier.runs_here()).then_some(Avx2(()))
    }

    /// Same result as [`super::super::portable::skip_chunk`].
    pub(crate) fn skip_chunk(
        self,
        ext: &ExtTables,
        a: &[u64],
        b: &[u64],
        z: &[u64],
        coords: &[[u8; 16]],
        acc: &mut SkipAcc,
    ) {
        assert!(a.len() == b.len() && b.len() == z.len() && z.len() <= coords.len());
        // SAFETY: the token proves AVX2 is present; lengths were checked.
        unsafe { skip_chunk_avx2(ext, a, b, z, coords, acc) }
    }
}

/// Per GF(2^8) constant `g`: `g x` for `x < 16`, then `g (x << 4)`, then `g`
/// sixteen times (the three 16-byte rows a product by `g` needs).
fn constant_tables() -> &'static [[u8; 48]; 256] {
    static TABLES: OnceLock<Box<[[u8; 48]; 256]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mul = gf8_mul_table();
        let mut t = Box::new([[0u8; 48]; 256]);
        for (g, row) in t.iter_mut().enumerate() {
            for x in 0..16 {
                row[x] = mul[g][x];
                row[16 + x] = mul[g][x << 4];
                row[32 + x] = g as u8;
            }
        }
        t
    })
}

/// Words per block of the first pass: their nibbles and masks (192 bytes a
/// word) stay in L1 while the coordinate passes stream them.
const BLOCK: usize = 32;

/// One word's operands for the coordinate passes: the low and high nibbles
/// of `c` and the mask of `z`'s bits, each as two 32-byte halves.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct WordOperands {
    lo: [__m256i; 2],
    hi: [__m256i; 2],
    mask: [__m256i; 2],
}

#[inline(always)]
fn load_half(row: &ByteRow, h: usize) -> __m256i {
    // SAFETY: `row` is 64 readable bytes, 64-byte aligned, and `h < 2`;
    // the callers enable avx2.
    unsafe { _mm256_load_si256(row.0.as_ptr().add(32 * h).cast()) }
}

/// `f_hat` of `word` on the extra points, as two halves.
#[inline(always)]
fn extra_values(ext: &ExtTables, word: u64) -> [__m256i; 2] {
    // SAFETY: only reached from functions with avx2 enabled.
    unsafe {
        let first = &ext[0][(word & 0xff) as usize];
        let mut acc = [load_half(first, 0), load_half(first, 1)];
        for (j, tj) in ext.iter().enumerate().skip(1) {
            let row = &tj[((word >> (8 * j)) & 0xff) as usize];
            acc[0] = _mm256_xor_si256(acc[0], load_half(row, 0));
            acc[1] = _mm256_xor_si256(acc[1], load_half(row, 1));
        }
        acc
    }
}

/// Byte-wise GF(2^8) product (AES polynomial) of two vectors: Horner over
/// the bits of `y`, highest first (`r = x r`, then add `x` where the bit is
/// set, selected by the sign bit after a shift).
#[inline(always)]
fn gf8_mul(x: __m256i, y: __m256i) -> __m256i {
    // SAFETY: only reached from functions with avx2 enabled.
    unsafe {
        let zero = _mm256_setzero_si256();
        let poly = _mm256_set1_epi8(0x1b);
        // Bit 7 of y: selects x in the bytes where it is set.
        let mut r = _mm256_blendv_epi8(zero, x, y);
        macro_rules! step {
            ($shift:literal) => {
                let carry = _mm256_cmpgt_epi8(zero, r);
                r = _mm256_xor_si256(_mm256_add_epi8(r, r), _mm256_and_si256(carry, poly));
                // A 16-bit shift moves bit 7 - s of each byte to bit 7 (bits
                // from the byte below only reach bits below s).
                let sel = _mm256_slli_epi16::<$shift>(y);
                r = _mm256_xor_si256(r, _mm256_blendv_epi8(zero, x, sel));
            };
        }
        step!(1);
        step!(2);
        step!(3);
        step!(4);
        step!(5);
        step!(6);
        step!(7);
        r
    }
}

/// `idx[h][p] = (32 h + p) / 8`: with the word broadcast to every qword,
/// `vpshufb` puts the byte holding bit `32 h + p` at byte `p` of half `h`
/// (the index is below 8, inside each lane's first copy of the word).
const MASK_BYTES: [[u8; 32]; 2] = {
    let mut idx = [[0u8; 32]; 2];
    let mut h = 0;
    while h < 2 {
        let mut p = 0;
        while p < 32 {
            idx[h][p] = ((32 * h + p) / 8) as u8;
            p += 1;
        }
        h += 1;
    }
    idx
};

#[target_feature(enable = "avx2")]
fn skip_chunk_avx2(ext: &ExtTables, a: &[u64], b: &[u64], z: &[u64], coords: &[[u8; 16]], acc: &mut SkipAcc) {
    let tables = constant_tables();
    let nibble = _mm256_set1_epi8(0x0f);
    let bit_of_byte = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    // SAFETY: `MASK_BYTES[h]` is 32 readable bytes.
    let mask_idx: [__m256i; 2] =
        core::array::from_fn(|h| unsafe { _mm256_loadu_si256(MASK_BYTES[h].as_ptr().cast()) });
    let zero_ops = WordOperands {
        lo: [_mm256_setzero_si256(); 2],
        hi: [_mm256_setzero_si256(); 2],
        mask: [_mm256_setzero_si256(); 2],
    };
    let mut ops = [zero_ops; BLOCK];
    let mut start = 0;
    while start < z.len() {
        let n = BLOCK.min(z.len() - start);
        for (i, o) in ops[..n].iter_mut().enumerate() {
            let w = start + i;
            let (ah, bh) = (extra_values(ext, a[w]), extra_values(ext, b[w]));
            let zw = _mm256_set1_epi64x(z[w] as i64);
            for h in 0..2 {
                let c = gf8_mul(ah[h], bh[h]);
                o.lo[h] = _mm256_and_si256(c, nibble);
                o.hi[h] = _mm256_and_si256(_mm256_srli_epi16::<4>(c), nibble);
                let bits = _mm256_and_si256(_mm256_shuffle_epi8(zw, mask_idx[h]), bit_of_byte);
                o.mask[h] = _mm256_cmpeq_epi8(bits, bit_of_byte);
            }
        }
        let words = &coords[start..start + n];
        for k in (0..16).step_by(2) {
            coordinate_pair(tables, &ops[..n], words, k, acc);
        }
        start += n;
    }
}

/// Adds the block's terms for coordinates `k` and `k + 1` to `acc`.
#[inline(always)]
fn coordinate_pair(
    tables: &[[u8; 48]; 256],
    ops: &[WordOperands],
    coords: &[[u8; 16]],
    k: usize,
    acc: &mut SkipAcc,
) {
    // SAFETY: only reached from functions with avx2 enabled; every load is
    // of 16 in-bounds bytes of a 48-byte table row, or of an accumulator row.
    unsafe {
        let mut ab = [
            [load_half(&acc.ab[k], 0), load_half(&acc.ab[k], 1)],
            [load_half(&acc.ab[k + 1], 0), load_half(&acc.ab[k + 1], 1)],
        ];
        let mut zs = [
            [load_half(&acc.z[k], 0), load_half(&acc.z[k], 1)],
            [load_half(&acc.z[k + 1], 0), load_half(&acc.z[k + 1], 1)],
        ];
        for (o, g) in ops.iter().zip(coords) {
            for j in 0..2 {
                let row = tables[g[k + j] as usize].as_ptr();
                let lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(row.cast()));
                let hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(row.add(16).cast()));
                let gg = _mm256_broadcastsi128_si256(_mm_loadu_si128(row.add(32).cast()));
                for h in 0..2 {
                    let p =
                        _mm256_xor_si256(_mm256_shuffle_epi8(lo, o.lo[h]), _mm256_shuffle_epi8(hi, o.hi[h]));
                    ab[j][h] = _mm256_xor_si256(ab[j][h], p);
                    zs[j][h] = _mm256_xor_si256(zs[j][h], _mm256_and_si256(o.mask[h], gg));
                }
            }
        }
        for j in 0..2 {
            for h in 0..2 {
                _mm256_store_si256(acc.ab[k + j].0.as_mut_ptr().add(32 * h).cast(), ab[j][h]);
                _mm256_store_si256(acc.z[k + j].0.as_mut_ptr().add(32 * h).cast(), zs[j][h]);
            }
        }
    }
}

/// Proof that the CPU runs the AVX2 tier and has 256-bit VPCLMULQDQ (Zen 3,
/// Ice Lake and later), which the tier itself does not include.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vpclmul256(());

impl Vpclmul256 {
    /// The token, under the AVX2 tier on a CPU with 256-bit VPCLMULQDQ.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx2 && tier.runs_here() && starling_field::cpu::has_vpclmulqdq_256())
            .then_some(Vpclmul256(()))
    }

    /// Same result as [`super::super::portable::round_field`].
    pub(crate) fn round_field(self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        // SAFETY: the token proves the target features are present.
        unsafe { round_field_vpclmul256(Clmul(()), a, b, e_lo) }
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
        // SAFETY: as in `round_field`.
        unsafe { fold_field_round_vpclmul256(Clmul(()), a, b, r, out_a, out_b, e_lo) }
    }
}

/// Two elements in a `__m256i`, for [`lanes`].
#[derive(Clone, Copy)]
struct Ymm(());

impl Lanes for Ymm {
    type V = __m256i;
    const N: usize = 2;

    // SAFETY (every method): only reached from the `#[target_feature]`
    // wrappers below, which enable avx2 and vpclmulqdq; memory is touched
    // through slices whose lengths are checked first.
    #[inline(always)]
    fn load(self, x: &[u128]) -> __m256i {
        assert!(x.len() >= 2);
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, x: &mut [u128], v: __m256i) {
        assert!(x.len() >= 2);
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn splat(self, x: u128) -> __m256i {
        unsafe { _mm256_broadcastsi128_si256(Clmul(()).load(&x)) }
    }
    #[inline(always)]
    fn zero(self) -> __m256i {
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn mul_wide(self, x: __m256i, y: __m256i) -> (__m256i, __m256i, __m256i) {
        unsafe {
            let lo = _mm256_clmulepi64_epi128::<0x00>(x, y);
            let hi = _mm256_clmulepi64_epi128::<0x11>(x, y);
            let mid = _mm256_xor_si256(
                _mm256_clmulepi64_epi128::<0x01>(x, y),
                _mm256_clmulepi64_epi128::<0x10>(x, y),
            );
            (lo, mid, hi)
        }
    }
    #[inline(always)]
    fn reduce(self, (lo, mid, hi): (__m256i, __m256i, __m256i)) -> __m256i {
        unsafe {
            let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(mid));
            let hi = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(mid));
            let p = _mm256_set_epi64x(0, 0x87, 0, 0x87);
            let t = _mm256_clmulepi64_epi128::<0x01>(hi, p);
            let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(t));
            let h0 = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(t));
            _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(h0, p))
        }
    }
    #[inline(always)]
    fn split_pairs(self, u: __m256i, v: __m256i) -> (__m256i, __m256i) {
        unsafe {
            (
                _mm256_permute2x128_si256::<0x20>(u, v),
                _mm256_permute2x128_si256::<0x31>(u, v),
            )
        }
    }
    #[inline(always)]
    fn lane_sum(self, v: __m256i) -> u128 {
        unsafe {
            let x = _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            Clmul(()).store(x)
        }
    }
}

#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
fn round_field_vpclmul256(m: Clmul, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    lanes::round(Ymm(()), m, a, b, e_lo)
}

#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
#[allow(clippy::too_many_arguments)]
fn fold_field_round_vpclmul256(
    m: Clmul,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    lanes::fold_round(Ymm(()), m, a, b, r, out_a, out_b, e_lo)
}
