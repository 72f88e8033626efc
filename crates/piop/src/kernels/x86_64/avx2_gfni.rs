//! The AVX2 tier's skip chunk and weighing of words where the CPU also has
//! GFNI (VEX-encoded, 256 bits: Intel Alder Lake and later client chips
//! have it without AVX-512; Zen 4 and later have both). See [`super`] for why the `unsafe`
//! blocks are sound.
//!
//! The same computation as [`super::avx512::Gfni::skip_chunk`], on 32-byte
//! halves of the 64 extra points: `c = a_hat * b_hat` by `gf2p8mulb` in the
//! AES basis, then `g_k * c` for each coordinate `g_k` of the word's weight
//! by one `gf2p8affineqb` with the matrix of a product by `g_k`. Sixteen
//! coordinates of two halves are 32 accumulators, twice the ymm registers,
//! so (as in [`super::avx2`]) a first pass writes a block of words' `c`,
//! and of bit-transposed `z` groups, to a buffer, and one pass per four
//! coordinates streams it with its eight accumulators in registers. Against
//! the split-nibble products of [`super::avx2`] this takes one affine
//! product where those take two shuffles, two masks and a shift, and the
//! GF(2^8) products need no tower-basis logarithm tables. The weighing of
//! words takes the byte planes of [`super::avx2`]'s and, per (output byte,
//! input byte), one affine product instead of two shuffles.

use core::arch::x86_64::*;

use starling_field::cpu::{self, Tier};

use super::super::portable::{skip_z_bits, weigh_in_groups, ByteRow, ExtRows, ExtTables, SkipAcc};
use super::super::SkipWeights;
use super::avx2::{bit_transpose8, byte_planes, extra_values, load_half, store_byte_planes};

/// Proof that the CPU runs the AVX2 tier and has GFNI (which the tier
/// itself does not include).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gfni256(());

impl Gfni256 {
    /// The token, under the AVX2 tier on a CPU with GFNI.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx2 && tier.runs_here() && cpu::has_gfni()).then_some(Gfni256(()))
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
        // SAFETY: the token proves avx2 and gfni are present; the lengths
        // were checked above.
        unsafe { skip_chunk_gfni256(&ext.aes, a, b, &z[..8 * groups], &w.mats, &w.group_mats, acc) };
        skip_z_bits(&z[8 * groups..], &w.coords[8 * groups..], &mut acc.z);
    }

    /// Same result as [`super::super::portable::weigh_words`]; `mats` are
    /// [`super::super::weigh_matrices`] of `tables` (used for whole groups
    /// of 32 words, `tables` for the rest).
    pub(crate) fn weigh_words(
        self,
        tables: &[[u128; 256]; 8],
        mats: &[[u64; 8]; 16],
        words: &[u64],
        out: &mut [u128],
    ) {
        weigh_in_groups::<32>(tables, words, out, |wi, wo| {
            // SAFETY: the token proves avx2 and gfni are present.
            unsafe { weigh32_gfni256(mats, wi, wo) }
        });
    }
}

/// `out[i] = sum_y bit y of words[i] * weights[y]` for 32 words: byte
/// planes, one `gf2p8affineqb` per (output byte, input byte), and back to
/// elements.
#[target_feature(enable = "avx2,gfni")]
fn weigh32_gfni256(mats: &[[u64; 8]; 16], words: &[u64; 32], out: &mut [u128; 32]) {
    let planes = byte_planes(words);
    let mut y = [_mm256_setzero_si256(); 16];
    for (y_o, m) in y.iter_mut().zip(mats) {
        for (&plane, &mj) in planes.iter().zip(m) {
            let prod = _mm256_gf2p8affine_epi64_epi8::<0>(plane, _mm256_set1_epi64x(mj as i64));
            *y_o = _mm256_xor_si256(*y_o, prod);
        }
    }
    store_byte_planes(y, out);
}

/// Words per block of the first pass: their products (64 bytes a word)
/// stay in L1 while the coordinate passes stream them.
const BLOCK: usize = 32;

/// `z` holds whole groups of eight words (`groups.len() * 8` of them, at
/// most `group_mats.len()` groups); `a`, `b` as many words as `mats` has
/// entries or fewer.
#[target_feature(enable = "avx2,gfni")]
fn skip_chunk_gfni256(
    ext: &ExtRows,
    a: &[u64],
    b: &[u64],
    z: &[u64],
    mats: &[[u64; 16]],
    group_mats: &[[u64; 16]],
    acc: &mut SkipAcc,
) {
    let zero = [_mm256_setzero_si256(); 2];
    let mut products = [zero; BLOCK];
    let mut bits = [zero; BLOCK / 8];
    let mut start = 0;
    while start < a.len() {
        let n = BLOCK.min(a.len() - start);
        for (i, o) in products[..n].iter_mut().enumerate() {
            let (ah, bh) = (extra_values(ext, a[start + i]), extra_values(ext, b[start + i]));
            *o = [
                _mm256_gf2p8mul_epi8(ah[0], bh[0]),
                _mm256_gf2p8mul_epi8(ah[1], bh[1]),
            ];
        }
        // The whole groups of `z` among this block's words.
        let whole = z.len().saturating_sub(start).min(n) / 8;
        for (g, o) in bits[..whole].iter_mut().enumerate() {
            *o = bit_transpose8(&z[start + 8 * g..]);
        }
        for k in (0..16).step_by(4) {
            // g_k(w) c_w: the matrix of a product by g_k(w).
            add_products(&products[..n], &mats[start..start + n], k, &mut acc.ab);
            // The group's g_k at every set bit of z: bytes of bits y.
            add_products(&bits[..whole], &group_mats[start / 8..], k, &mut acc.z);
        }
        start += n;
    }
}

/// Adds `sum_i M_i(k + j) x_i` to `rows[k + j]` for `j < 4`, where
/// `M_i(k + j) = mats[i][k + j]` is a `gf2p8affineqb` matrix applied to
/// every byte of `items[i]`.
#[inline(always)]
fn add_products(items: &[[__m256i; 2]], mats: &[[u64; 16]], k: usize, rows: &mut [ByteRow; 16]) {
    // SAFETY: only reached from functions with avx2 and gfni enabled; every
    // load and store is of an accumulator row's 32-byte aligned half.
    unsafe {
        let mut sums: [[__m256i; 2]; 4] =
            core::array::from_fn(|j| [load_half(&rows[k + j], 0), load_half(&rows[k + j], 1)]);
        for (x, m) in items.iter().zip(mats) {
            for (j, sum) in sums.iter_mut().enumerate() {
                let mat = _mm256_set1_epi64x(m[k + j] as i64);
                for (s, &xh) in sum.iter_mut().zip(x) {
                    *s = _mm256_xor_si256(*s, _mm256_gf2p8affine_epi64_epi8::<0>(xh, mat));
                }
            }
        }
        for (j, sum) in sums.iter().enumerate() {
            for (h, &v) in sum.iter().enumerate() {
                _mm256_store_si256(rows[k + j].0.as_mut_ptr().add(32 * h).cast(), v);
            }
        }
    }
}
