//! The prover's tables of the wiring check's instance-axis weights; the
//! verifier's multilinear extensions of them at a point are
//! `starling_verifier::piop::wiring::WeightsAt`.

use starling_field::Gf128Slices;

use rayon::prelude::*;
use starling_field::{backend, Gf128};

use super::{Instances, Source};

/// Instances per rayon task when a range's own weights are added.
const TASK_INSTANCES: usize = 1 << 12;

/// The prover's table of a relation's own weights: `eq(rho, y) [y in set]`,
/// added into `out` (length `2^n`) times `scale`.
pub(crate) fn add_own_weights(set: &Instances, eq_rho: &[Gf128], scale: Gf128, out: &mut [Gf128]) {
    match set {
        // On rayon's threads, each task adding its part of `eq_rho` scaled
        // in a batch (`backend::axpy`): element by element on one thread
        // this took 2.3 ms of the 60 ms wiring phase (three ranges over
        // 2^16 BLAKE3 instances, Zen 1), none of it shared by more threads.
        Instances::Range { start, end } => out[*start..*end]
            .par_chunks_mut(TASK_INSTANCES)
            .zip(eq_rho[*start..*end].par_chunks(TASK_INSTANCES))
            .for_each(|(out, eq)| {
                backend::axpy(
                    Gf128::as_u128_slice_mut(out),
                    Gf128::as_u128_slice(eq),
                    scale.to_bits(),
                )
            }),
        Instances::Set(_) => {
            for y in set.members() {
                out[y] += scale * eq_rho[y];
            }
        }
    }
}

/// The prover's table of the pull-back weights: `out[src(y)] += scale eq(rho, y)`
/// for `y` in the set.
pub(crate) fn add_source_weights(
    set: &Instances,
    source: &Source,
    eq_rho: &[Gf128],
    scale: Gf128,
    out: &mut [Gf128],
) {
    for y in set.members() {
        if let Some(x) = source.of(y) {
            out[x] += scale * eq_rho[y];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wiring::{shifted_prefix_sum, WeightsAt};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use starling_poly::multilinear::{eq_eval, eq_table};

    fn point(r: &mut ChaCha8Rng, n: usize) -> Vec<Gf128> {
        (0..n).map(|_| Gf128::new(r.gen())).collect()
    }

    fn bits(v: usize, n: usize) -> Vec<Gf128> {
        (0..n).map(|i| Gf128::from((v >> i) & 1 == 1)).collect()
    }

    #[test]
    fn shifted_prefix_sums_match_brute_force() {
        let mut r = ChaCha8Rng::seed_from_u64(5);
        for n in [1usize, 2, 3, 5, 7] {
            let a = point(&mut r, n);
            let b = point(&mut r, n);
            for d in [0u64, 1, 2, 5] {
                for limit in [0u64, 1, 3, 7, 8, 13, 1 << n, (1 << n) + 3] {
                    let want: Gf128 = (0..1usize << n)
                        .filter(|&x| (x as u64) < limit && x as u64 + d < 1 << n)
                        .map(|x| eq_eval(&a, &bits(x, n)) * eq_eval(&b, &bits(x + d as usize, n)))
                        .sum();
                    assert_eq!(
                        shifted_prefix_sum(&a, Some(&b), d, limit),
                        want,
                        "n {n} d {d} limit {limit}"
                    );
                    let ones: Gf128 = (0..1usize << n)
                        .filter(|&x| (x as u64) < limit && x as u64 + d < 1 << n)
                        .map(|x| eq_eval(&a, &bits(x, n)))
                        .sum();
                    assert_eq!(
                        shifted_prefix_sum(&a, None, d, limit),
                        ones,
                        "n {n} d {d} limit {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn weights_at_a_point_match_their_tables() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        // Groups of 2^(n/2) instances: smaller than a word (7), whole words
        // (12, 13), where sets are summed by runs.
        for n in [7usize, 12, 13] {
            let size = 1usize << n;
            let rho = point(&mut rng, n);
            let r = point(&mut rng, n);
            let eq_rho = eq_table(&rho);
            let eq_r = eq_table(&r);
            let mut scattered = vec![0u64; size / 64];
            for y in [0usize, 5, 64, 100, size - 1] {
                scattered[y / 64] |= 1 << (y % 64);
            }
            // Runs of random lengths and gaps, across words and groups, with
            // a group's first instance in and out of the set.
            let mut runs = vec![0u64; size / 64];
            let mut y = 0;
            while y < size {
                let len = rng.gen_range(1..200).min(size - y);
                (y..y + len).for_each(|y| runs[y / 64] |= 1 << (y % 64));
                y += len + rng.gen_range(0..70);
            }
            let map: Vec<u32> = (0..size as u32).map(|y| (y * 37 + 11) % size as u32).collect();
            let sets = [
                Instances::Range { start: 0, end: size },
                Instances::Range { start: 1, end: 100 },
                Instances::Range { start: 0, end: 1 },
                Instances::single(size - 1),
                Instances::Range { start: 3, end: 3 },
                Instances::Set(scattered.into()),
                Instances::Set(runs.into()),
                Instances::Set(vec![!0u64; size / 64].into()),
            ];
            let mle = |table: &[Gf128]| -> Gf128 { table.iter().zip(&eq_r).map(|(a, b)| *a * *b).sum() };
            let (at_r, at_rho) = (WeightsAt::new(&rho, Some(&r)), WeightsAt::new(&rho, None));
            for set in &sets {
                let mut own = vec![Gf128::ZERO; size];
                add_own_weights(set, &eq_rho, Gf128::ONE, &mut own);
                assert_eq!(at_r.own(set), mle(&own), "n {n} {set:?}");
                let plain: Gf128 = set.members().map(|y| eq_rho[y]).sum();
                assert_eq!(at_rho.own(set), plain, "n {n} {set:?}");
                for source in [Source::Previous, Source::Map(map.clone().into())] {
                    let mut pulled = vec![Gf128::ZERO; size];
                    add_source_weights(set, &source, &eq_rho, Gf128::ONE, &mut pulled);
                    assert_eq!(
                        at_r.source(set, &source),
                        mle(&pulled),
                        "n {n} {set:?} {source:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_shared_set_is_weighed_once_per_source() {
        // One set read through the instance before and two maps, and its
        // own weight: each as a weighing of its own would give, in any order.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let n = 12;
        let (rho, r) = (point(&mut rng, n), point(&mut rng, n));
        let bits: Vec<u64> = (0..(1usize << n) / 64).map(|_| rng.gen()).collect();
        let set = Instances::Set(bits.into());
        let maps: Vec<Source> = (0..2u32)
            .map(|k| Source::Map((0..1u32 << n).map(|y| (y * (3 + 2 * k) + 1) % (1 << n)).collect()))
            .collect();
        let sources = [Source::Previous, maps[0].clone(), maps[1].clone()];
        let shared = WeightsAt::new(&rho, Some(&r));
        for _ in 0..2 {
            for source in sources.iter().rev() {
                let fresh = WeightsAt::new(&rho, Some(&r));
                assert_eq!(
                    shared.source(&set, source),
                    fresh.source(&set, source),
                    "{source:?}"
                );
                assert_eq!(shared.own(&set), fresh.own(&set));
            }
        }
    }

    #[test]
    fn a_long_range_adds_its_weights_in_parallel_tasks() {
        // Ranges over several tasks, starting and ending inside one, added
        // to a table that already holds weights.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let n = 14;
        let eq_rho = eq_table(&point(&mut rng, n));
        let scale = Gf128::new(rng.gen());
        let start_table: Vec<Gf128> = (0..1usize << n).map(|_| Gf128::new(rng.gen())).collect();
        for (start, end) in [
            (0, 1 << n),
            (1, (1 << n) - 1),
            (TASK_INSTANCES - 3, 3 * TASK_INSTANCES + 5),
        ] {
            let mut got = start_table.clone();
            add_own_weights(&Instances::Range { start, end }, &eq_rho, scale, &mut got);
            let want: Vec<Gf128> = (0..1usize << n)
                .map(|y| {
                    start_table[y]
                        + if (start..end).contains(&y) {
                            scale * eq_rho[y]
                        } else {
                            Gf128::ZERO
                        }
                })
                .collect();
            assert_eq!(got, want, "{start}..{end}");
        }
    }
}
