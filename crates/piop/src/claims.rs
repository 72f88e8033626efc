//! The prover's side of the evaluation claims on the bit witness `z`:
//! folding the instances by a claim's weights. The claims' types and
//! their regrouping for the PCS are the verifier's
//! (`starling_verifier::piop::claims`), re-exported.

use rayon::prelude::*;
use starling_field::{backend, Gf128};
use starling_poly::multilinear::eq_table;
pub use starling_verifier::piop::claims::*;

use crate::{Shape, SKIP_VARS};

/// Whether `claim` holds for the bit witness `z` (prover-side check and
/// test helper; a full pass over `z`).
pub fn holds(claim: &EvalClaim, shape: Shape, z: &[u64]) -> bool {
    evaluate_bits(shape, z, &claim.weights, &claim.wire_point) == claim.value
}

/// Words weighed at a time into a stack buffer.
const FOLD_SUB: usize = 256;

/// Wires per rayon leaf of [`fold_instances_many`]: left to itself rayon
/// cut the pass into leaves of hundreds of wires, and the last of them
/// held up the pass. 2^16 SHA-256 compressions, sixteen threads on two
/// Xeon cores, critical path in thread CPU time (scratch rayon): the pass
/// 1.5 -> 0.2 ms; with the buffer cleared and the sets gathered on rayon
/// too, the lincheck's 3.3-3.9 -> 1.4-1.9 ms (Keccak-f: 7.2-7.5 -> 3.1-3.7).
const FOLD_LEAF_WIRES: usize = 64;

/// `zf(wire) = sum_inst W(inst) z(inst, wire)` for every wire: one pass over
/// the words, weighing each by the low weights (GFNI, or byte tables) a
/// stack buffer at a time, then one product per word with the `eq` part,
/// summed unreduced and reduced once per buffer (`backend::dot`).
/// [`fold_instances_reference`] is the plain definition. `z` holds the
/// first wires of a witness (all `2^k` of them, or a prefix such as the
/// public block); returns one value per wire.
pub fn fold_instances(shape: Shape, z: &[u64], weights: &InstanceWeights) -> Vec<Gf128> {
    fold_instances_many(shape, z, &[weights])
        .pop()
        .expect("one fold per weight set")
}

/// [`fold_instances`] for several weight sets in one pass over `z`: entry
/// `i` of the result is `fold_instances(shape, z, weights[i])`. Each word is
/// read once while it is in cache; sets with the same low weights (the
/// zerocheck's `L_y(r0)`, shared by its claims at `r'` and at `tau'`) share
/// its weighing too, so each further such set costs only its products with
/// its own `eq` part. `z` holds the first wires of a witness, as for
/// [`fold_instances`].
pub fn fold_instances_many(shape: Shape, z: &[u64], weights: &[&InstanceWeights]) -> Vec<Vec<Gf128>> {
    for w in weights {
        check_fold(shape, z, w);
    }
    let sets = weights.len();
    if sets == 0 {
        return Vec::new();
    }
    let kernels = crate::kernels::Kernels::get();
    // The distinct low weights, and for each set the index of its own.
    let mut lows: Vec<&[Gf128; 64]> = Vec::new();
    let low_of: Vec<usize> = weights
        .iter()
        .map(|w| match lows.iter().position(|l| **l == w.low) {
            Some(i) => i,
            None => {
                lows.push(&w.low);
                lows.len() - 1
            }
        })
        .collect();
    let weighings: Vec<crate::kernels::WordWeights> = lows
        .iter()
        .map(|low| crate::kernels::WordWeights::new(&kernels, low))
        .collect();
    let eq_hi: Vec<Vec<u128>> = weights
        .iter()
        .map(|w| eq_table(&w.point_hi).iter().map(|e| e.to_bits()).collect())
        .collect();
    let wpw = shape.words_per_wire();
    // Wire-major: the `sets` values of wire 0, then of wire 1, ...
    let mut by_wire = starling_field::scratch::filled(z.len() / wpw * sets, Gf128::ZERO);
    by_wire
        .par_chunks_mut(sets)
        .zip(z.par_chunks(wpw))
        .with_max_len(FOLD_LEAF_WIRES)
        // Per-task buffers on the heap, not in rayon's frames (BENCHMARKS.md: "Threads").
        .for_each_init(
            || Box::new([0u128; FOLD_SUB]),
            |weighed, (out, wire_words)| {
                for (chunk, words) in wire_words.chunks(FOLD_SUB).enumerate() {
                    let n = words.len();
                    let start = chunk * FOLD_SUB;
                    for (li, weighing) in weighings.iter().enumerate() {
                        kernels.weigh_words(weighing, words, &mut weighed[..n]);
                        for (set, o) in out.iter_mut().enumerate().filter(|(set, _)| low_of[*set] == li) {
                            *o += Gf128::new(backend::dot(&weighed[..n], &eq_hi[set][start..start + n]));
                        }
                    }
                }
            },
        );
    // Each set's values gathered on rayon too (a pass over all of them).
    (0..sets)
        .map(|set| by_wire.par_iter().skip(set).step_by(sets).copied().collect())
        .collect()
}

fn check_fold(shape: Shape, z: &[u64], weights: &InstanceWeights) {
    assert!(
        z.len() <= shape.num_words() && z.len().is_multiple_of(shape.words_per_wire()),
        "the words must be whole wires of the shape's witness"
    );
    assert_eq!(
        weights.point_hi.len(),
        shape.n() - SKIP_VARS,
        "instance point length"
    );
}

/// The definition of [`fold_instances`]: byte tables for the low weights and
/// one field product per word.
pub fn fold_instances_reference(shape: Shape, z: &[u64], weights: &InstanceWeights) -> Vec<Gf128> {
    check_fold(shape, z, weights);
    let tables = weights.byte_tables();
    let eq_hi = eq_table(&weights.point_hi);
    z.par_chunks(shape.words_per_wire())
        .map(|wire_words| {
            wire_words
                .iter()
                .zip(&eq_hi)
                .map(|(&w, &e)| {
                    if w == 0 {
                        Gf128::ZERO
                    } else {
                        e * weigh_word(&tables, w)
                    }
                })
                .sum()
        })
        .collect()
}

/// `sum_{inst, wire} W(inst) eq(wire_point, wire) z(inst, wire)` (by the
/// plain [`fold_instances_reference`]; tests use it as the definition).
pub fn evaluate_bits(shape: Shape, z: &[u64], weights: &InstanceWeights, wire_point: &[Gf128]) -> Gf128 {
    let zf = fold_instances_reference(shape, z, weights);
    eq_table(wire_point).iter().zip(&zf).map(|(a, b)| *a * *b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn fold_instances_matches_reference() {
        let mut r = ChaCha8Rng::seed_from_u64(41);
        for (n, k) in [(7usize, 1usize), (7, 3), (8, 2), (12, 3), (15, 1), (17, 1)] {
            let shape = Shape::new(n, k).expect("shape");
            let mut z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
            // Some zero words, which the reference skips.
            for w in z.iter_mut().step_by(7) {
                *w = 0;
            }
            let point: Vec<Gf128> = (0..n).map(|_| Gf128::new(r.gen())).collect();
            let weights = InstanceWeights::from_point(&point);
            assert_eq!(
                fold_instances(shape, &z, &weights),
                fold_instances_reference(shape, &z, &weights),
                "n = {n}, k = {k}"
            );
        }
    }

    #[test]
    fn fold_instances_many_matches_reference() {
        let mut r = ChaCha8Rng::seed_from_u64(42);
        for (n, k) in [(7usize, 1usize), (7, 3), (8, 2), (12, 3), (15, 1)] {
            let shape = Shape::new(n, k).expect("shape");
            let z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
            let random_weights = |r: &mut ChaCha8Rng| {
                let point: Vec<Gf128> = (0..n).map(|_| Gf128::new(r.gen())).collect();
                InstanceWeights::from_point(&point)
            };
            let first = random_weights(&mut r);
            // Same low weights as the first, another high point (as the
            // zerocheck's two points are); then unrelated weights.
            let mut shared_low = random_weights(&mut r);
            shared_low.low = first.low;
            let other = random_weights(&mut r);
            let sets = [&first, &shared_low, &other, &first];
            let wpw = shape.words_per_wire();
            for wires in [0, 1, (1 << k) - 1, 1 << k] {
                let prefix = &z[..wires * wpw];
                let got = fold_instances_many(shape, prefix, &sets);
                assert_eq!(got.len(), sets.len());
                for (g, w) in got.iter().zip(sets) {
                    assert_eq!(
                        *g,
                        fold_instances_reference(shape, prefix, w),
                        "n = {n}, k = {k}, {wires} wires"
                    );
                }
            }
            assert!(fold_instances_many(shape, &z, &[]).is_empty());
        }
    }
}
