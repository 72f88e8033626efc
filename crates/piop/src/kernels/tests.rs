//! Every fast kernel against its portable definition on random inputs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::portable;
use super::*;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn random_tables(r: &mut ChaCha8Rng) -> Box<[[u128; 256]; 8]> {
    let mut t = Box::new([[0u128; 256]; 8]);
    for tj in t.iter_mut() {
        for x in tj.iter_mut() {
            *x = r.gen();
        }
    }
    t
}

fn random_ext(r: &mut ChaCha8Rng) -> ExtTables {
    let mut t = ExtTables::zero_rows();
    for row in t.iter_mut().flatten() {
        for x in row.0[..63].iter_mut() {
            *x = r.gen();
        }
    }
    ExtTables::new(t)
}

fn words(r: &mut ChaCha8Rng, n: usize) -> Vec<u64> {
    (0..n).map(|_| r.gen()).collect()
}

fn u128s(r: &mut ChaCha8Rng, n: usize) -> Vec<u128> {
    (0..n).map(|_| r.gen()).collect()
}

/// The kernels of every tier (and tier variant) this CPU runs other than
/// the portable one, by name.
fn fast_backends() -> Vec<(String, Kernels)> {
    let out: Vec<_> = Kernels::every_variant()
        .into_iter()
        .filter(|(name, _)| name != Tier::Portable.name())
        .collect();
    if out.is_empty() {
        eprintln!("skipped: this CPU runs only the portable tier");
    }
    out
}

#[test]
fn mul_matrix_multiplies() {
    let mul = portable::gf8_mul_table();
    // Apply the matrix the way gf2p8affineqb does: bit i = parity(row(7-i) & x).
    let apply = |m: u64, x: u8| -> u8 {
        (0..8)
            .map(|i| ((((m >> (8 * (7 - i))) as u8 & x).count_ones() as u8) & 1) << i)
            .fold(0, |a, b| a | b)
    };
    for g in [0u8, 1, 2, 0x53, 0xca, 0xff] {
        for x in 0..=255u8 {
            assert_eq!(apply(mul_matrix(g), x), mul[g as usize][x as usize]);
        }
    }
}

#[test]
fn group_matrix_sums_selected_bytes() {
    let h = [3u8, 0x80, 0x11, 0xfe, 7, 0, 0x42, 0x99];
    let apply = |m: u64, x: u8| -> u8 {
        (0..8)
            .map(|i| ((((m >> (8 * (7 - i))) as u8 & x).count_ones() as u8) & 1) << i)
            .fold(0, |a, b| a | b)
    };
    for x in 0..=255u8 {
        let want = (0..8)
            .filter(|t| (x >> t) & 1 == 1)
            .fold(0u8, |acc, t| acc ^ h[t]);
        assert_eq!(apply(group_matrix(h), x), want);
    }
}

#[test]
fn skip_chunk_matches_portable() {
    for (name, k) in fast_backends() {
        let mut r = rng(1);
        for len in [0usize, 1, 7, 8, 64, 300, 2048] {
            let ext = random_ext(&mut r);
            let (a, b, z) = (words(&mut r, len), words(&mut r, len), words(&mut r, len));
            let coords: Vec<[u8; 16]> = (0..len).map(|_| r.gen()).collect();
            let weights = SkipWeights::new(&k, coords.clone());
            // Start from nonzero accumulators: the kernels add to them.
            let mut want = SkipAcc::new();
            for row in want.ab.iter_mut().chain(want.z.iter_mut()) {
                row.0 = core::array::from_fn(|_| r.gen());
            }
            let mut got = want.clone();
            portable::skip_chunk(&ext, &a, &b, &z, &coords, &mut want);
            k.skip_chunk(&ext, &a, &b, &z, &weights, &mut got);
            assert_eq!(got, want, "{name}, {len} words");
        }
    }
}

#[test]
fn portable_skip_chunk_matches_definition() {
    // One word, coordinates zero except g_k = 1 at one k: row k is c (ab)
    // and the z bits (at z_position).
    let mut r = rng(2);
    let ext = random_ext(&mut r);
    let (wa, wb, wz) = (r.gen::<u64>(), r.gen::<u64>(), r.gen::<u64>());
    let mut g = [0u8; 16];
    g[5] = 1;
    let mut acc = SkipAcc::new();
    portable::skip_chunk(&ext, &[wa], &[wb], &[wz], &[g], &mut acc);
    let (ah, bh) = (
        portable::extra_values(&ext.aes, wa),
        portable::extra_values(&ext.aes, wb),
    );
    for e in 0..64 {
        let c = starling_field::Gf8(ah.0[e]) * starling_field::Gf8(bh.0[e]);
        assert_eq!(acc.ab[5].0[e], c.0);
    }
    for y in 0..64 {
        assert_eq!(acc.z[5].0[y], ((wz >> y) & 1) as u8);
    }
    assert!(acc.ab[4].0.iter().all(|&x| x == 0));
}

#[test]
#[allow(clippy::needless_range_loop)]
fn weigh_matrices_match_tables() {
    let mut r = rng(5);
    let tables = random_tables(&mut r);
    let mats = weigh_matrices(&tables);
    let apply = |m: u64, x: u8| -> u8 {
        (0..8)
            .map(|i| ((((m >> (8 * (7 - i))) as u8 & x).count_ones() as u8) & 1) << i)
            .fold(0, |a, b| a | b)
    };
    // Linear tables: entry m is the XOR of the entries of its bits.
    let mut lin = Box::new([[0u128; 256]; 8]);
    for j in 0..8 {
        for m in 0..256usize {
            lin[j][m] = (0..8)
                .filter(|t| (m >> t) & 1 == 1)
                .fold(0, |acc, t| acc ^ tables[j][1 << t]);
        }
    }
    for j in 0..8 {
        for x in [0u8, 1, 0x80, 0x5a, 0xff] {
            let bytes = lin[j][x as usize].to_le_bytes();
            for (o, &byte) in bytes.iter().enumerate() {
                assert_eq!(apply(mats[o][j], x), byte, "j {j} x {x} o {o}");
            }
        }
    }
}

/// Byte tables of 64 random weights (linear, as the prover builds them).
#[allow(clippy::needless_range_loop)]
fn random_weight_tables(r: &mut ChaCha8Rng) -> Box<[[u128; 256]; 8]> {
    let weights: Vec<u128> = u128s(r, 64);
    let mut t = Box::new([[0u128; 256]; 8]);
    for j in 0..8 {
        for m in 0..256usize {
            t[j][m] = (0..8)
                .filter(|b| (m >> b) & 1 == 1)
                .fold(0, |acc, b| acc ^ weights[8 * j + b]);
        }
    }
    t
}

#[test]
fn field_loops_match_portable() {
    for (name, k) in fast_backends() {
        let mut r = rng(3);
        for pairs in [1usize, 2, 3, 4, 5, 16, 33, 64] {
            let e_lo = u128s(&mut r, pairs);
            let rr: u128 = r.gen();
            let (a, b) = (u128s(&mut r, 2 * pairs), u128s(&mut r, 2 * pairs));
            assert_eq!(
                k.round_field(&a, &b, &e_lo),
                portable::round_field(&a, &b, &e_lo),
                "{name} round_field"
            );

            let (a, b) = (u128s(&mut r, 4 * pairs), u128s(&mut r, 4 * pairs));
            let mut want = (vec![0u128; 2 * pairs], vec![0u128; 2 * pairs]);
            let mut got = want.clone();
            let s1 = portable::fold_field_round(&a, &b, rr, &mut want.0, &mut want.1, &e_lo);
            let s2 = k.fold_field_round(&a, &b, rr, &mut got.0, &mut got.1, &e_lo);
            assert_eq!((s1, &want), (s2, &got), "{name} fold_field_round");
        }
        for len in [0usize, 5, 31, 32, 33, 64, 95, 128, 200] {
            let weights = WordWeights::from_tables(&k, random_weight_tables(&mut r));
            let words = words(&mut r, len);
            let (mut want, mut got) = (vec![0u128; len], vec![1u128; len]);
            portable::weigh_words(&weights.tables, &words, &mut want);
            k.weigh_words(&weights, &words, &mut got);
            assert_eq!(got, want, "{name} weigh_words, {len} words");
        }
    }
}

#[test]
#[allow(clippy::needless_range_loop)]
fn portable_field_loops_match_definition() {
    use starling_field::Gf128;
    let mut r = rng(4);
    let pairs = 5;
    let e_lo = u128s(&mut r, pairs);
    let (a, b) = (u128s(&mut r, 4 * pairs), u128s(&mut r, 4 * pairs));
    let rr: u128 = r.gen();
    let f = Gf128::new;
    let mut out = (vec![0u128; 2 * pairs], vec![0u128; 2 * pairs]);
    let (s0, s2) = portable::fold_field_round(&a, &b, rr, &mut out.0, &mut out.1, &e_lo);
    let fold = |v: &[u128], i: usize| f(v[2 * i]) + f(rr) * (f(v[2 * i]) + f(v[2 * i + 1]));
    let mut want = (Gf128::ZERO, Gf128::ZERO);
    for p in 0..pairs {
        let (a0, a1, b0, b1) = (
            fold(&a, 2 * p),
            fold(&a, 2 * p + 1),
            fold(&b, 2 * p),
            fold(&b, 2 * p + 1),
        );
        assert_eq!((f(out.0[2 * p]), f(out.1[2 * p + 1])), (a0, b1));
        want.0 += f(e_lo[p]) * a0 * b0;
        want.1 += f(e_lo[p]) * (a0 + a1) * (b0 + b1);
    }
    assert_eq!((f(s0), f(s2)), want);
    // Without the fold: the same sums on the inputs themselves.
    let (s0, s2) = portable::round_field(&a[..2 * pairs], &b[..2 * pairs], &e_lo);
    let mut want = (Gf128::ZERO, Gf128::ZERO);
    for p in 0..pairs {
        let (a0, a1, b0, b1) = (f(a[2 * p]), f(a[2 * p + 1]), f(b[2 * p]), f(b[2 * p + 1]));
        want.0 += f(e_lo[p]) * a0 * b0;
        want.1 += f(e_lo[p]) * (a0 + a1) * (b0 + b1);
    }
    assert_eq!((f(s0), f(s2)), want);
}
