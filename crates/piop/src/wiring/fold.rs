//! The prover's fold of a run of wires: `G(y) = sum_j e[j] z(y, base + j)`
//! for every instance `y`, one field element per instance.
//!
//! The witness holds each wire's instance bits in consecutive words, so
//! eight wires give eight words; byte `k` of each is an 8x8 bit matrix whose
//! transpose holds, for each of eight instances, its byte over the eight
//! wires, which indexes a table of the 256 subset sums of their weights.

use rayon::prelude::*;
use starling_field::bit_matrix::transpose8;
use starling_field::{scratch, subset_sums, Gf128};

use crate::Shape;

/// Instances per rayon task: sixty-four tasks per run at 2^16 instances.
/// With 2^12 the sixteen tasks of a batch's input run (hundreds of wires)
/// were each a sixteenth of that run's work, so on sixteen threads the
/// runs' folds ended on one of them: on two Zen 1 cores running sixteen
/// threads, the fold's critical path for 2^16 BLAKE3 compressions was
/// 2.6 ms against 2.2 ms of work per thread.
const TASK_INSTANCES: usize = 1 << 10;

/// `G(y) = sum_{j < weights.len()} weights[j] z(y, base + j)` for all
/// `y < 2^n`. The wires must lie in the witness.
pub fn fold_wires(shape: Shape, z: &[u64], base: usize, weights: &[Gf128]) -> Vec<Gf128> {
    check(shape, z, base, weights.len());
    let per_wire = shape.words_per_wire();
    // One table per eight wires; a short last group weighs its missing wires 0.
    let tables: Vec<[Gf128; 256]> = weights
        .chunks(8)
        .map(|w| {
            let mut eight = [Gf128::ZERO; 8];
            eight[..w.len()].copy_from_slice(w);
            subset_sums(&eight)
        })
        .collect();
    let mut out = scratch::filled(1 << shape.n(), Gf128::ZERO);
    out.par_chunks_mut(TASK_INSTANCES)
        .enumerate()
        .for_each(|(task, out)| {
            let first_word = task * TASK_INSTANCES / 64;
            for (g, table) in tables.iter().enumerate() {
                let wires = (8 * g..(8 * g + 8).min(weights.len())).map(|j| &z[(base + j) * per_wire..]);
                let rows: Vec<&[u64]> = wires.collect();
                for (b, out64) in out.chunks_mut(64).enumerate() {
                    let word = first_word + b;
                    for k in 0..8 {
                        let mut m = 0u64;
                        for (t, row) in rows.iter().enumerate() {
                            m |= ((row[word] >> (8 * k)) & 0xff) << (8 * t);
                        }
                        if m == 0 {
                            continue;
                        }
                        let bytes = transpose8(m).to_le_bytes();
                        for (o, &byte) in out64[8 * k..8 * k + 8].iter_mut().zip(&bytes) {
                            *o += table[byte as usize];
                        }
                    }
                }
            }
        });
    out
}

/// The definition of [`fold_wires`], bit by bit.
pub fn fold_wires_reference(shape: Shape, z: &[u64], base: usize, weights: &[Gf128]) -> Vec<Gf128> {
    check(shape, z, base, weights.len());
    let per_wire = shape.words_per_wire();
    (0..1usize << shape.n())
        .map(|y| {
            weights
                .iter()
                .enumerate()
                .filter(|(j, _)| (z[(base + j) * per_wire + y / 64] >> (y % 64)) & 1 == 1)
                .map(|(_, &w)| w)
                .sum()
        })
        .collect()
}

fn check(shape: Shape, z: &[u64], base: usize, len: usize) {
    assert_eq!(
        z.len(),
        shape.num_words(),
        "witness length does not match the shape"
    );
    assert!(base + len <= 1 << shape.k(), "the wires must lie in the witness");
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn fold_wires_matches_reference() {
        let mut r = ChaCha8Rng::seed_from_u64(8);
        for (n, k, base, len) in [
            (7usize, 4usize, 0usize, 16usize),
            (7, 5, 3, 13),
            (13, 6, 17, 40),
            (12, 3, 7, 1),
        ] {
            let shape = Shape::new(n, k).unwrap();
            let z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
            let weights: Vec<Gf128> = (0..len).map(|_| Gf128::new(r.gen())).collect();
            assert_eq!(
                fold_wires(shape, &z, base, &weights),
                fold_wires_reference(shape, &z, base, &weights),
                "n {n} k {k} base {base} len {len}"
            );
        }
    }
}
