//! AVX2 kernel of [`super::apply_maps_sum`] for CPUs with GFNI (VEX-encoded,
//! 256 bits): the byte planes of [`super::avx2`]'s kernel, and a map's
//! output byte `o` as the XOR over the 16 input planes `j` of one
//! `gf2p8affineqb` by the 8x8 matrix taking byte `j` to its part of byte
//! `o` ([`super::SliceMap`] keeps these), where the split-nibble kernel
//! takes two shuffles per plane and output byte.

use core::arch::x86_64::*;

use super::avx2::{add_planes, element_rows, in_groups_of_32, transpose_lanes};
use super::{Avx2Gfni, SliceMap};

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
