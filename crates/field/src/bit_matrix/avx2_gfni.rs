//! AVX2 kernels of [`super`] for CPUs with GFNI (VEX-encoded, 256 bits).
//!
//! [`apply_maps_sum`]: the byte planes of [`super::avx2`]'s kernel, and a
//! map's output byte `o` as the XOR over the 16 input planes `j` of one
//! `gf2p8affineqb` by the 8x8 matrix taking byte `j` to its part of byte
//! `o` ([`super::SliceMap`] keeps these), where the split-nibble kernel
//! takes two shuffles per plane and output byte.
//!
//! [`add_bit_sums`]: [`super::gfni`]'s method on 32 bytes. The data go to
//! column form (per group of eight elements, byte `u` has bit `m` equal to
//! bit `u` of element `m`) by the byte-plane transpose and one affine
//! product per plane, and each 32-byte quarter of the columns is multiplied
//! by the weights' 8x8 matrices.

use core::arch::x86_64::*;

use super::avx2::{add_planes, element_rows, in_groups_of_32, transpose_lanes, REVERSE_QWORD_BYTES};
use super::gfni::UNIT;
use super::{Avx2Gfni, BitSumWeights, SliceMap};

/// [`super::apply_maps_sum`] on the leading multiple of 32 elements;
/// returns how many elements it handled.
pub(super) fn apply_maps_sum(_: Avx2Gfni, maps: &[&SliceMap], inputs: &[&[u128]], out: &mut [u128]) -> usize {
    // SAFETY: the token proves AVX2 and GFNI are present.
    in_groups_of_32(out, |start, group| unsafe { apply32(maps, inputs, start, group) })
}

#[target_feature(enable = "avx2,gfni")]
fn apply32(maps: &[&SliceMap], inputs: &[&[u128]], start: usize, out: &mut [u128; 32]) {
    // planes[o] lane l byte q: byte o of the sum for element 16 l + q.
    let mut planes = [_mm256_setzero_si256(); 16];
    for (map, input) in maps.iter().zip(inputs) {
        // x[j] lane l byte q: byte j of element 16 l + q.
        let mut x = [_mm256_setzero_si256(); 16];
        // SAFETY: avx2 is enabled on this function.
        unsafe { transpose_lanes(element_rows(input, start), |j, b| x[j] = b) };
        for (p, row) in planes.iter_mut().zip(&map.mats) {
            for (&xj, &m) in x.iter().zip(row) {
                *p = _mm256_xor_si256(
                    *p,
                    _mm256_gf2p8affine_epi64_epi8::<0>(xj, _mm256_set1_epi64x(m as i64)),
                );
            }
        }
    }
    // SAFETY: avx2 is enabled on this function.
    unsafe { add_planes(planes, out) };
}

/// Groups of eight elements handled per pass over the accumulators.
const SUB_GROUPS: usize = 64;

/// [`super::add_bit_sums`] on the leading multiple of 32 elements; returns
/// how many elements it did.
pub(super) fn add_bit_sums(
    _: Avx2Gfni,
    f: &[u128],
    weights: &[&BitSumWeights],
    out: &mut [[u128; 128]],
) -> usize {
    let whole = f.len() / 32 * 32;
    for w in weights {
        assert!(w.cols.len() >= whole / 8, "weights prepared for the fast kernels");
    }
    // acc[k][i] byte u: byte i of the sum for bit u (as in `super::gfni`).
    let mut acc = vec![[[0u8; 128]; 16]; weights.len()];
    // cols[g][b] byte 8 j + t: bit m is bit t of byte 4 b + j of element 8 g + m.
    let mut cols = [[[0u8; 32]; 4]; SUB_GROUPS];
    for (s, fs) in f[..whole].chunks(8 * SUB_GROUPS).enumerate() {
        let n = fs.len() / 8;
        for (block, c) in fs.chunks_exact(32).zip(cols.chunks_exact_mut(4)) {
            // SAFETY: the token proves AVX2 and GFNI are present.
            unsafe { data_columns(block, c.try_into().expect("four groups")) };
        }
        for (w, a) in weights.iter().zip(acc.iter_mut()) {
            let wc = &w.cols[s * SUB_GROUPS..s * SUB_GROUPS + n];
            for half in 0..2 {
                for quarter in 0..4 {
                    // SAFETY: as above.
                    unsafe { accumulate(&cols[..n], wc, half, quarter, a) };
                }
            }
        }
    }
    super::add_byte_sums(&acc, out);
    whole
}

/// The column form ([`add_bit_sums`]'s `cols`) of the four groups of eight
/// elements in `block`.
#[target_feature(enable = "avx2,gfni")]
fn data_columns(block: &[u128], cols: &mut [[[u8; 32]; 4]; 4]) {
    // SAFETY: the loads and stores are of 32 in-bounds bytes; avx2 and gfni
    // are enabled on this function.
    unsafe {
        let reverse = _mm256_loadu_si256(REVERSE_QWORD_BYTES.as_ptr().cast());
        let unit = _mm256_set1_epi64x(UNIT as i64);
        // y[j] qword g byte t: bit m is bit t of byte j of element 8 g + m.
        // The plane's qword g holds byte j of elements 8 g .. 8 g + 8 in
        // order; reversed, it is the matrix whose row m is element m's byte,
        // and the affine product of the unit bytes reads its columns.
        let mut y = [_mm256_setzero_si256(); 16];
        transpose_lanes(element_rows(block, 0), |j, plane| {
            y[j] = _mm256_gf2p8affine_epi64_epi8::<0>(unit, _mm256_shuffle_epi8(plane, reverse));
        });
        // The 4x4 transpose of qwords: group g's quarter b gathers qword g
        // of y[4 b .. 4 b + 4].
        for (b, y4) in y.chunks_exact(4).enumerate() {
            let lo01 = _mm256_unpacklo_epi64(y4[0], y4[1]);
            let hi01 = _mm256_unpackhi_epi64(y4[0], y4[1]);
            let lo23 = _mm256_unpacklo_epi64(y4[2], y4[3]);
            let hi23 = _mm256_unpackhi_epi64(y4[2], y4[3]);
            let by_group = [
                _mm256_permute2x128_si256::<0x20>(lo01, lo23),
                _mm256_permute2x128_si256::<0x20>(hi01, hi23),
                _mm256_permute2x128_si256::<0x31>(lo01, lo23),
                _mm256_permute2x128_si256::<0x31>(hi01, hi23),
            ];
            for (c, v) in cols.iter_mut().zip(by_group) {
                _mm256_storeu_si256(c[b].as_mut_ptr().cast(), v);
            }
        }
    }
}

/// `acc[8 half + i][32 quarter ..][..32] ^= sum_g affine(cols[g][quarter],
/// wcols[g][8 half + i])` for `i < 8`.
#[target_feature(enable = "avx2,gfni")]
fn accumulate(
    cols: &[[[u8; 32]; 4]],
    wcols: &[[u64; 16]],
    half: usize,
    quarter: usize,
    acc: &mut [[u8; 128]; 16],
) {
    let rows = &mut acc[8 * half..8 * half + 8];
    // SAFETY: every load and store is of 32 in-bounds bytes.
    unsafe {
        let mut a = [_mm256_setzero_si256(); 8];
        for (ai, row) in a.iter_mut().zip(rows.iter()) {
            *ai = _mm256_loadu_si256(row[32 * quarter..].as_ptr().cast());
        }
        for (c, w) in cols.iter().zip(wcols) {
            let x = _mm256_loadu_si256(c[quarter].as_ptr().cast());
            for (ai, &m) in a.iter_mut().zip(&w[8 * half..8 * half + 8]) {
                *ai = _mm256_xor_si256(
                    *ai,
                    _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(m as i64)),
                );
            }
        }
        for (ai, row) in a.iter().zip(rows.iter_mut()) {
            _mm256_storeu_si256(row[32 * quarter..].as_mut_ptr().cast(), *ai);
        }
    }
}
