//! Tests of the transform against its definitions.

use super::*;
use starling_field::Gf128Slices;

/// `W_i(y)` straight from the definition: the product over the subspace.
fn vanishing_by_product(i: usize, y: Gf128) -> Gf128 {
    (0..(1u128 << i)).map(|s| y + Gf128::new(s)).product()
}

/// Every twiddle is `What_i` of its point, in rows built by doubling
/// alone and in rows long enough to be written on rayon.
#[test]
fn twiddles_are_the_vanishing_values() {
    for log_len in [1, 5, TWIDDLE_CHUNK_LOG + 1, TWIDDLE_CHUNK_LOG + 3] {
        let ntt = AdditiveNtt::new(log_len);
        for (i, row) in ntt.twiddles.iter().enumerate() {
            assert_eq!(row.len(), 1 << (log_len - 1 - i));
            for (u, &t) in row.iter().enumerate() {
                assert_eq!(
                    t,
                    normalized_vanishing(i, (u as u64) << (i + 1)),
                    "log {log_len} round {i} entry {u}"
                );
            }
        }
    }
}

#[test]
fn table_matches_product_definition() {
    for i in 0..6 {
        let norm = vanishing_by_product(i, Gf128::new(1u128 << i));
        let inv = norm.inverse().unwrap();
        for q in [0u64, 1, 5, 37, 64, 1000, 12345, 1 << 20] {
            let want = vanishing_by_product(i, Gf128::new(q as u128)) * inv;
            assert_eq!(normalized_vanishing(i, q), want, "i = {i}, q = {q}");
        }
        let y = Gf128::new(0x1234_5678_9abc_def0_1357_9bdf_2468_ace0);
        assert_eq!(normalized_vanishing_at(i, y), vanishing_by_product(i, y) * inv);
    }
}

fn random_vec(seed: u64, n: usize) -> Vec<Gf128> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            // splitmix64, two draws per element
            let mut next = || {
                x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            };
            Gf128::new((next() as u128) | ((next() as u128) << 64))
        })
        .collect()
}

/// The plain depth-first schedule, one round at a time (the reference for
/// the cache-blocked, parallel, two-rounds-at-a-time one; the butterfly
/// kernels are checked against the portable one in starling-field).
fn forward_depth_first(ntt: &AdditiveNtt, data: &mut [Gf128], batch: usize, coset: u64) {
    fn rec(ntt: &AdditiveNtt, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        let (lo, hi) = data.split_at_mut(batch << i);
        let t = shift[i] + ntt.twiddles[i][u];
        backend::butterfly(
            Gf128::as_u128_slice_mut(lo),
            Gf128::as_u128_slice_mut(hi),
            t.to_bits(),
        );
        if i > 0 {
            rec(ntt, lo, batch, i - 1, 2 * u, shift);
            rec(ntt, hi, batch, i - 1, 2 * u + 1, shift);
        }
    }
    let shift = ntt.check(data, batch, coset);
    if ntt.log_len > 0 {
        rec(ntt, data, batch, ntt.log_len - 1, 0, &shift);
    }
}

/// True for transforms of more than 2^17 elements on the portable tier,
/// whose multiplication is too slow for them.
fn too_slow_on_this_tier(elems: usize) -> bool {
    starling_field::cpu::tier() == starling_field::cpu::Tier::Portable && elems > 1 << 17
}

/// The split transform, head then every tail (in reverse order, as any
/// order must do), equals the whole one: blocks of one position up to
/// the whole transform, those of the first pass, transforms larger than
/// the cache on one and two threads, odd batches. The head gathers its
/// input into a buffer of other values, so every element must be
/// gathered.
#[test]
fn head_then_tails_is_the_forward_transform() {
    for (log_len, batch) in [
        (0, 3),
        (1, 1),
        (5, 3),
        (9, 16),
        (12, 5),
        (15, 4),
        (17, 1),
        (14, 64),
    ] {
        if too_slow_on_this_tier(batch << log_len) {
            continue;
        }
        let ntt = AdditiveNtt::new(log_len);
        let msg = random_vec(log_len as u64 * 77 + batch as u64, batch << log_len);
        let first_pass = ntt.first_pass_log_block(batch);
        assert!(first_pass <= log_len);
        let mut log_blocks = vec![0, log_len / 2, log_len, first_pass];
        log_blocks.sort_unstable();
        log_blocks.dedup();
        for coset in [0u64, 5 << log_len] {
            let mut want = msg.clone();
            ntt.forward(&mut want, batch, coset);
            for &log_block in &log_blocks {
                for threads in [1, 2] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    let got = pool.install(|| {
                        let mut got = random_vec(9, msg.len());
                        let gather = |start: usize, out: &mut [Gf128]| {
                            out.copy_from_slice(&msg[start..start + out.len()]);
                        };
                        ntt.forward_head(&mut got, batch, coset, log_block, &gather);
                        for (index, block) in got.chunks_mut(batch << log_block).enumerate().rev() {
                            ntt.forward_tail(block, batch, coset, index);
                        }
                        got
                    });
                    assert!(
                        got == want,
                        "log_len {log_len}, batch {batch}, blocks of 2^{log_block}, {threads} threads"
                    );
                }
            }
        }
    }
}

#[test]
fn blocked_forward_matches_depth_first() {
    // Large enough that the multi-round passes run (more than LOCAL_ELEMS
    // elements), with several pass depths, odd batches and 1 or 2 threads.
    for (log_len, batch) in [
        (1, 3),
        (2, 5),
        (3, 64),
        (10, 64),
        (12, 16),
        (17, 1),
        (9, 67),
        (11, 33),
        (14, 64),
        (15, 40),
        (20, 1),
    ] {
        if too_slow_on_this_tier(batch << log_len) {
            continue;
        }
        let ntt = AdditiveNtt::new(log_len);
        let msg = random_vec(log_len as u64 * 1000 + batch as u64, batch << log_len);
        for coset in [0u64, 3] {
            let coset = coset << log_len;
            let mut want = msg.clone();
            forward_depth_first(&ntt, &mut want, batch, coset);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let (got, got_from) = pool.install(|| {
                    let mut got = msg.clone();
                    ntt.forward(&mut got, batch, coset);
                    let mut got_from = vec![Gf128::ZERO; msg.len()];
                    ntt.forward_from(&msg, &mut got_from, batch, coset);
                    (got, got_from)
                });
                assert!(
                    got == want,
                    "forward: log_len {log_len}, batch {batch}, {threads} threads"
                );
                assert!(
                    got_from == want,
                    "forward_from: log_len {log_len}, batch {batch}, {threads} threads"
                );
            }
            // A few points straight from the definition, for one row.
            if log_len > 12 {
                continue;
            }
            for q in [0usize, 1, (1 << log_len) - 1, 777 % (1 << log_len)] {
                let y = Gf128::new(coset as u128 + q as u128);
                let direct: Gf128 = (0..1usize << log_len)
                    .map(|j| msg[j * batch] * novel_basis_at(j as u64, y))
                    .sum();
                assert_eq!(want[q * batch], direct, "log_len {log_len}, q {q}");
            }
        }
    }
}

#[test]
fn forward_gathered_at_matches_forward_at_its_positions() {
    // Cache-sized and pass-sized blocks, a few positions or many, the
    // first and last positions, and an empty list.
    for (log_len, batch, count) in [
        (3, 2, 3),
        (10, 4, 1),
        (12, 3, 40),
        (15, 4, 106),
        (17, 2, 5),
        (13, 8, 8192),
    ] {
        let ntt = AdditiveNtt::new(log_len);
        let msg = random_vec(log_len as u64 * 77 + batch as u64, batch << log_len);
        let coset = 1u64 << log_len;
        let mut want = vec![Gf128::ZERO; msg.len()];
        ntt.forward_from(&msg, &mut want, batch, coset);
        let len = 1usize << log_len;
        let mut positions: Vec<usize> = (0..count).map(|k| (k * 2_654_435_761usize) % len).collect();
        positions.extend([0, len - 1]);
        positions.sort_unstable();
        positions.dedup();
        // The input gathered a piece at a time into a buffer of other
        // values.
        let gather = |start: usize, out: &mut [Gf128]| out.copy_from_slice(&msg[start..start + out.len()]);
        for wanted in [&positions[..], &[]] {
            let mut got = vec![Gf128::ONE; msg.len()];
            ntt.forward_gathered_at(&mut got, batch, coset, wanted, &gather);
            for &q in wanted {
                assert_eq!(
                    got[q * batch..(q + 1) * batch],
                    want[q * batch..(q + 1) * batch],
                    "log_len {log_len}, batch {batch}, position {q}"
                );
            }
        }
    }
}

/// `transposed` is the transpose of `forward`: `<F x, y> = <x, F^T y>`
/// for every coset, batch and size, also above [`PAR_MIN_ELEMS`] where it
/// runs on rayon (there on one thread and on four, with the same bits).
#[test]
fn transposed_is_the_transpose_of_forward() {
    let dot = |a: &[Gf128], b: &[Gf128]| a.iter().zip(b).map(|(x, y)| *x * *y).sum::<Gf128>();
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for (log_len, batch, coset) in [
        (1, 1, 0u64),
        (5, 1, 32),
        (6, 3, 128),
        (17, 1, 1 << 17),
        (15, 4, 0),
        // Passes of three and five rounds.
        (18, 1, 3 << 18),
        (19, 2, 1 << 19),
    ] {
        let ntt = AdditiveNtt::new(log_len);
        let n = batch << log_len;
        if too_slow_on_this_tier(n) {
            continue;
        }
        let x = random_vec(log_len as u64, n);
        let y = random_vec(1000 + log_len as u64, n);
        let mut fx = x.clone();
        ntt.forward(&mut fx, batch, coset);
        let mut ty = y.clone();
        four.install(|| ntt.transposed(&mut ty, batch, coset));
        let mut ty_one = y.clone();
        one.install(|| ntt.transposed(&mut ty_one, batch, coset));
        assert_eq!(ty, ty_one, "log_len {log_len}: threads change the result");
        // Per batch lane: lanes are independent transforms.
        for lane in 0..batch {
            let pick = |v: &[Gf128]| v.iter().skip(lane).step_by(batch).copied().collect::<Vec<_>>();
            assert_eq!(
                dot(&pick(&fx), &pick(&y)),
                dot(&pick(&x), &pick(&ty)),
                "log_len {log_len}, batch {batch}, lane {lane}"
            );
        }
    }
}

#[test]
fn transposed_sparse_matches_transposed() {
    // A few positions, the first and last, none, all; sizes in cache and
    // sizes whose top rounds are passes (three and five rounds).
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    for (log_len, batch, count) in [
        (1, 1, 1),
        (6, 3, 5),
        (12, 1, 106),
        (17, 1, 106),
        (9, 2, 512),
        (19, 2, 211),
    ] {
        if too_slow_on_this_tier(batch << log_len) {
            continue;
        }
        let ntt = AdditiveNtt::new(log_len);
        let len = 1usize << log_len;
        let coset = 3u64 << log_len;
        let mut support: Vec<usize> = (0..count).map(|k| (k * 2_654_435_761usize) % len).collect();
        support.extend([0, len - 1]);
        support.sort_unstable();
        support.dedup();
        let values = random_vec(log_len as u64 + 7, batch * support.len());
        for (support, threads) in [(&support[..], 1), (&support[..], 4), (&[][..], 1)] {
            let mut data = vec![Gf128::ZERO; batch << log_len];
            for (&p, v) in support.iter().zip(values.chunks(batch)) {
                data[p * batch..(p + 1) * batch].copy_from_slice(v);
            }
            let mut want = data.clone();
            ntt.transposed(&mut want, batch, coset);
            let mut got = data;
            if threads == 4 {
                four.install(|| ntt.transposed_sparse(&mut got, batch, coset, support));
            } else {
                ntt.transposed_sparse(&mut got, batch, coset, support);
            }
            assert!(
                got == want,
                "log_len {log_len}, {} positions, {threads} threads",
                support.len()
            );
        }
    }
}

#[test]
fn generator_row_agrees_with_novel_basis() {
    for q in [0u64, 3, 17, 255, 1029] {
        let row = generator_row(6, q);
        for (j, &v) in row.iter().enumerate() {
            assert_eq!(v, novel_basis_at(j as u64, Gf128::new(q as u128)));
        }
    }
}
