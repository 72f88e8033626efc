//! Bit-sliced layout of batch data and conversions to and from it.
//!
//! A batch of `N = 2^n` instances stores, for each bit position `j` (a wire,
//! or an input bit), the `N` instance bits as `N/64` consecutive `u64` words:
//! word `j * (N/64) + instance / 64`, bit `instance % 64`. Instances are the
//! low part of the index, so 64 instances share one word and every circuit
//! row becomes a handful of word XORs and one AND.
//!
//! Per-instance data ("rows") is the transposed view: instance `i` holds
//! `words_per_instance = ceil(bits / 64)` words, bit `j` at word `j / 64`,
//! bit `j % 64`. Conversion is done with 64×64 bit-matrix transposes.

pub use starling_verifier::circuit::bits::{get_bit, pack_bits, words_for_bits};

use crate::columns::{column_parts, part_words};
use rayon::prelude::*;

/// Transposes a 64×64 bit matrix in place: afterwards bit `c` of word `r`
/// is what bit `r` of word `c` was.
pub fn transpose64(m: &mut [u64; 64]) {
    // Swap the off-diagonal blocks of size 32, 16, ..., 1 (recursive block
    // transpose done breadth-first).
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut r = 0;
        while r < 64 {
            for i in r..r + width {
                let lo = m[i];
                let hi = m[i + width];
                let t = ((lo >> width) ^ hi) & mask;
                m[i] = lo ^ (t << width);
                m[i + width] = hi ^ t;
            }
            r += 2 * width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

/// Converts per-instance rows to the bit-sliced layout.
///
/// `rows` holds `num_instances * ceil(bits / 64)` words (instance after
/// instance); `num_instances` must be a multiple of 64. The result holds
/// `bits * num_instances / 64` words; bits beyond `bits` in the last word of
/// a row are ignored.
pub fn slice_instances(num_instances: usize, bits: usize, rows: &[u64]) -> Vec<u64> {
    let wpi = words_for_bits(bits);
    assert_eq!(rows.len(), num_instances * wpi, "row data has the wrong length");
    // Cleared on rayon (`scratch::filled`): 13 MiB for 2^16 Keccak-f inputs.
    let mut out = starling_field::scratch::filled(bits * (num_instances / 64), 0u64);
    slice_instances_into(num_instances, bits, |i| &rows[i * wpi..(i + 1) * wpi], &mut out);
    out
}

/// [`slice_instances`] with the rows given by a function (instance →
/// its `ceil(bits / 64)` words) and the result written into `out`, which
/// must hold exactly `bits * num_instances / 64` words. Runs on rayon, a
/// range of 64-instance groups per task.
pub fn slice_instances_into<'a>(
    num_instances: usize,
    bits: usize,
    row: impl Fn(usize) -> &'a [u64] + Sync,
    out: &mut [u64],
) {
    assert!(
        num_instances.is_multiple_of(64),
        "instance count must be a multiple of 64"
    );
    let groups = num_instances / 64;
    assert_eq!(out.len(), bits * groups, "output has the wrong length");
    if bits == 0 {
        return;
    }
    let part = part_words(groups, 1);
    column_parts(out, groups, part)
        .into_par_iter()
        .enumerate()
        .for_each(|(p, mut bit_rows)| {
            let mut block = [0u64; 64];
            for at in 0..bit_rows.len() {
                let g = p * part + at;
                for col in 0..words_for_bits(bits) {
                    for (r, slot) in block.iter_mut().enumerate() {
                        *slot = row(g * 64 + r)[col];
                    }
                    transpose64(&mut block);
                    let first_bit = col * 64;
                    let live = (bits - first_bit).min(64);
                    for (c, &word) in block[..live].iter().enumerate() {
                        bit_rows.row(first_bit + c)[at] = word;
                    }
                }
            }
        });
}

/// Inverse of [`slice_instances`]: per-instance rows (`ceil(bits / 64)` words
/// each, unused high bits zero) from bit-sliced data of `bits` positions.
/// Runs on rayon, a range of 64-instance groups per task.
pub fn unslice_instances(num_instances: usize, bits: usize, sliced: &[u64]) -> Vec<u64> {
    assert!(
        num_instances.is_multiple_of(64),
        "instance count must be a multiple of 64"
    );
    let groups = num_instances / 64;
    assert_eq!(sliced.len(), bits * groups, "sliced data has the wrong length");
    let wpi = words_for_bits(bits);
    // 13 MiB for 2^16 Keccak-f outputs: cleared on rayon (`scratch::filled`).
    let mut rows = starling_field::scratch::filled(num_instances * wpi, 0u64);
    if wpi == 0 {
        return rows;
    }
    let part = part_words(groups, 1);
    rows.par_chunks_mut(part * 64 * wpi)
        .enumerate()
        .for_each(|(p, part_rows)| {
            let mut block = [0u64; 64];
            for (at, group_rows) in part_rows.chunks_exact_mut(64 * wpi).enumerate() {
                let g = p * part + at;
                for col in 0..wpi {
                    let first_bit = col * 64;
                    let live = (bits - first_bit).min(64);
                    for (c, slot) in block.iter_mut().enumerate() {
                        *slot = if c < live {
                            sliced[(first_bit + c) * groups + g]
                        } else {
                            0
                        };
                    }
                    transpose64(&mut block);
                    for (r, &word) in block.iter().enumerate() {
                        group_rows[r * wpi + col] = word;
                    }
                }
            }
        });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_transpose(m: &[u64; 64]) -> [u64; 64] {
        std::array::from_fn(|r| (0..64).fold(0u64, |acc, c| acc | (((m[c] >> r) & 1) << c)))
    }

    #[test]
    fn transpose_matches_naive() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut m = [0u64; 64];
        for slot in m.iter_mut() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *slot = state ^ (state >> 29);
        }
        let expect = naive_transpose(&m);
        transpose64(&mut m);
        assert_eq!(m, expect);
    }

    /// Per-instance rows of `bits` bits (unused high bits zero).
    fn sample_rows(n: usize, bits: usize) -> Vec<u64> {
        let wpi = words_for_bits(bits);
        (0..n * wpi)
            .map(|i| {
                let v = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i as u64 >> 3);
                let used = bits - (i % wpi) * 64;
                if used < 64 {
                    v & ((1 << used) - 1)
                } else {
                    v
                }
            })
            .collect()
    }

    #[test]
    fn slice_roundtrip_and_layout() {
        // Group counts that the task split divides and ones it does not
        // (50 groups at 16 tasks: ranges of 3 and a last one of 2), on
        // several thread counts.
        for threads in [1, 3, 16] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for (n, bits) in [
                (64, 1),
                (128, 100),
                (64 * 50, 64),
                (64 * 50, 130),
                (64 * 37, 1600),
            ] {
                let rows = sample_rows(n, bits);
                let wpi = words_for_bits(bits);
                let sliced = pool.install(|| slice_instances(n, bits, &rows));
                for inst in 0..n {
                    for j in 0..bits {
                        let want = get_bit(&rows[inst * wpi..], j);
                        let got = (sliced[j * (n / 64) + inst / 64] >> (inst % 64)) & 1 == 1;
                        assert_eq!(
                            want, got,
                            "{threads} threads, n {n}, bits {bits}, instance {inst}, bit {j}"
                        );
                    }
                }
                assert_eq!(pool.install(|| unslice_instances(n, bits, &sliced)), rows);
            }
        }
    }
}
