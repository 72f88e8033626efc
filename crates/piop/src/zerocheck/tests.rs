use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::codec::DecodeError;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_field::Gf128Slices;
use starling_poly::multilinear::eq_table;

use super::*;
use crate::claims::evaluate_bits;
use crate::cover::Plain;
use crate::skip::domain_point;
use crate::{PiopError, Shape};
use starling_verifier::piop::zerocheck::replay;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn rand_field(r: &mut ChaCha8Rng) -> Gf128 {
    Gf128::new(r.gen())
}

fn valid_witness(shape: Shape, seed: u64) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let mut r = rng(seed);
    let a: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
    let b: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
    let c = a.iter().zip(&b).map(|(x, y)| x & y).collect();
    (a, b, c)
}

fn transcript() -> Transcript {
    let mut t = Transcript::new(b"starling-piop-test");
    t.absorb_bytes(b"statement", b"zerocheck test");
    t
}

const SHAPES: [(usize, usize); 5] = [(7, 1), (7, 3), (8, 2), (9, 5), (10, 4)];

#[test]
fn skip_messages_match_reference() {
    for (i, &(n, k)) in [(7, 1), (7, 3), (8, 2)].iter().enumerate() {
        let shape = Shape::new(n, k).unwrap();
        let mut r = rng(100 + i as u64);
        // Not a valid witness: the kernels must not rely on a & b == c.
        let words = |r: &mut ChaCha8Rng| (0..shape.num_words()).map(|_| r.gen()).collect::<Vec<u64>>();
        let (a, b, c) = (words(&mut r), words(&mut r), words(&mut r));
        let tau: Vec<Gf128> = (0..shape.word_vars()).map(|_| rand_field(&mut r)).collect();
        let fast = skip_messages(shape, &a, &b, &c, &tau);
        let slow = reference::skip_messages(shape, &a, &b, &c, &tau);
        assert_eq!(fast, slow, "shape ({n}, {k})");
    }
}

#[test]
fn skip_messages_match_reference_across_chunks() {
    // l - 6 = 14 > the chunk size 2^12: several chunks with different eq_hi.
    // The reference is too slow on every word, so compare v (cheap) and one
    // extra point through the fold reference on a sparse witness.
    let shape = Shape::new(10, 10).unwrap();
    let mut r = rng(7);
    let mut a = vec![0u64; shape.num_words()];
    let mut b = vec![0u64; shape.num_words()];
    for _ in 0..40 {
        let i = r.gen_range(0..shape.num_words());
        a[i] = r.gen();
        b[i] = r.gen();
    }
    let c: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x ^ y).collect();
    let tau: Vec<Gf128> = (0..shape.word_vars()).map(|_| rand_field(&mut r)).collect();
    let (v, p) = skip_messages(shape, &a, &b, &c, &tau);
    let eq = eq_table(&tau);
    for y in [0usize, 9, 63] {
        let want: Gf128 = (0..c.len())
            .filter(|&i| (c[i] >> y) & 1 == 1)
            .map(|i| eq[i])
            .sum();
        assert_eq!(v[y], want);
    }
    for idx in [0usize, 62] {
        let col = reference::lagrange_column(domain_point(64 + idx));
        let want: Gf128 = (0..a.len())
            .filter(|&i| a[i] != 0)
            .map(|i| eq[i] * reference::word_poly_with(a[i], &col) * reference::word_poly_with(b[i], &col))
            .sum();
        assert_eq!(p[idx], want);
    }
}

#[test]
fn skip_messages_agree_on_every_kernel_set() {
    // Several chunks (l - 6 = 13 > 11) and a tiny shape with a partial
    // group of eight words.
    for (i, &(n, k)) in [(7, 1), (8, 11)].iter().enumerate() {
        let shape = Shape::new(n, k).unwrap();
        let mut r = rng(200 + i as u64);
        let words = |r: &mut ChaCha8Rng| (0..shape.num_words()).map(|_| r.gen()).collect::<Vec<u64>>();
        let (a, b, c) = (words(&mut r), words(&mut r), words(&mut r));
        let tau: Vec<Gf128> = (0..shape.word_vars()).map(|_| rand_field(&mut r)).collect();
        let all = shape.num_words();
        let portable = skip_messages_with(
            crate::kernels::Kernels::portable(),
            shape,
            &a,
            &b,
            CWords::Stored(&c),
            all,
            &tau,
        );
        for kernels in crate::kernels::Kernels::every_tier() {
            let fast = skip_messages_with(kernels, shape, &a, &b, CWords::Stored(&c), all, &tau);
            assert_eq!(fast, portable, "{kernels:?}, shape ({n}, {k})");
        }
    }
}

/// Words two to an entry, as the sumcheck folds them in place.
fn paired(words: &[u64]) -> Vec<u128> {
    words
        .chunks(2)
        .map(|p| p[0] as u128 | (p[1] as u128) << 64)
        .collect()
}

/// The sumcheck the plain way: fold to full-length field vectors, then per
/// round `gruen_round` and `fold_lowest_in_place`.
fn plain_sumcheck(
    a: &[u64],
    b: &[u64],
    lagrange: &[Gf128; 64],
    tau: &[Gf128],
    t: &mut Transcript,
) -> (Vec<GruenRound>, Vec<Gf128>, (Gf128, Gf128)) {
    let (mut fa, mut fb) = (fold_words(a, lagrange), fold_words(b, lagrange));
    let (mut rounds, mut point) = (Vec::new(), Vec::new());
    for j in 0..tau.len() {
        let round = gruen_round(&fa, &fb, &tau[j + 1..]);
        t.absorb_fields(LABEL_ROUND, &[round.q0, round.q2]);
        let r = t.challenge_field(LABEL_R);
        rounds.push(round);
        point.push(r);
        starling_poly::multilinear::fold_lowest_in_place(&mut fa, r);
        starling_poly::multilinear::fold_lowest_in_place(&mut fb, r);
    }
    (rounds, point, (fa[0], fb[0]))
}

#[test]
fn sumcheck_matches_plain_rounds() {
    // m = l - 6 from 1 (a single round) up to 12.
    for (i, &(n, k)) in [(7, 0), (7, 1), (7, 2), (8, 3), (10, 4), (9, 9)]
        .iter()
        .enumerate()
    {
        let m = n + k - 6;
        let mut r = rng(300 + i as u64);
        let words: Vec<u64> = (0..2 << m).map(|_| r.gen()).collect();
        let (a, b) = words.split_at(1 << m);
        let tau: Vec<Gf128> = (0..m).map(|_| rand_field(&mut r)).collect();
        let lagrange = crate::skip::lagrange_weights(rand_field(&mut r));
        let want = plain_sumcheck(a, b, &lagrange, &tau, &mut transcript());
        for kernels in crate::kernels::Kernels::every_tier() {
            let (mut pa, mut pb) = (paired(a), paired(b));
            let got = sumcheck(
                kernels,
                &mut pa,
                &mut pb,
                a.len(),
                &lagrange,
                &tau,
                &mut transcript(),
                &mut Plain,
                None,
            );
            assert!(got.masked_last.is_none());
            assert_eq!((got.rounds, got.r_prime, got.evals), want, "m = {m}, {kernels:?}");
        }
    }
}

/// `words` with every word from `cut` on set to zero.
fn zero_tail(mut words: Vec<u64>, cut: usize) -> Vec<u64> {
    words[cut..].fill(0);
    words
}

#[test]
fn live_len_covers_every_nonzero_word() {
    let mut v = vec![0u64; 1000];
    assert_eq!(live_len(&[&v]), 0);
    v[3] = 1;
    assert_eq!(live_len(&[&v]), 256);
    v[999] = 1;
    assert_eq!(live_len(&[&v]), 1000);
    let w = vec![0u64; 1000];
    assert_eq!(live_len(&[&w, &v[..600]]), 256);
}

#[test]
fn live_len_is_the_same_across_strides_and_threads() {
    // Several strides of the backward scan (256 steps of 256 words per
    // thread) on one and three threads, against the plain definition.
    let len = 3 * 256 * 256 * 3 + 77;
    let plain = |v: &[u64]| {
        v.iter()
            .rposition(|&w| w != 0)
            .map_or(0, |i| ((i / 256 + 1) * 256).min(v.len()))
    };
    for at in [
        None,
        Some(0),
        Some(5_000),
        Some(300_000),
        Some(len - 80),
        Some(len - 1),
    ] {
        let mut v = vec![0u64; len];
        if let Some(i) = at {
            v[i] = 1 << 9;
        }
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            assert_eq!(
                pool.install(|| live_len(&[&v])),
                plain(&v),
                "{at:?}, {threads} threads"
            );
        }
    }
}

#[test]
fn sumcheck_stops_at_the_zero_tail() {
    // Zero tails cut inside a block, at a block edge, near the start and
    // nothing left at all: the rounds must equal the plain ones over the
    // whole vectors.
    let m = 12;
    let mut r = rng(320);
    let tau: Vec<Gf128> = (0..m).map(|_| rand_field(&mut r)).collect();
    let lagrange = crate::skip::lagrange_weights(rand_field(&mut r));
    for cut in [0usize, 1, 100, 257, 1024, 2900, 3000, 4095] {
        let a = zero_tail((0..1 << m).map(|_| r.gen()).collect(), cut);
        let b = zero_tail((0..1 << m).map(|_| r.gen()).collect(), cut);
        let want = plain_sumcheck(&a, &b, &lagrange, &tau, &mut transcript());
        // The scanned tail, the exact cut (a caller's layout) and no tail at all.
        for live in [live_len(&[&a, &b]), cut, 1 << m] {
            for kernels in crate::kernels::Kernels::every_tier() {
                let (mut pa, mut pb) = (paired(&a), paired(&b));
                let got = sumcheck(
                    kernels,
                    &mut pa,
                    &mut pb,
                    live,
                    &lagrange,
                    &tau,
                    &mut transcript(),
                    &mut Plain,
                    None,
                );
                assert_eq!(
                    (got.rounds, got.r_prime, got.evals),
                    want,
                    "cut {cut}, live {live}, {kernels:?}"
                );
            }
        }
    }
}

#[test]
fn skip_messages_stop_at_the_zero_tail() {
    // Several skip chunks (l - 6 = 14 > 11): a tail cut inside a chunk and
    // one cut at a chunk edge, against the pass over every word.
    let shape = Shape::new(10, 10).unwrap();
    let mut r = rng(330);
    let tau: Vec<Gf128> = (0..shape.word_vars()).map(|_| rand_field(&mut r)).collect();
    for cut in [5000usize, 6144] {
        let mut words = || zero_tail((0..shape.num_words()).map(|_| r.gen()).collect(), cut);
        let (a, b, c) = (words(), words(), words());
        let all = shape.num_words();
        for kernels in crate::kernels::Kernels::every_tier() {
            let stored = CWords::Stored(&c);
            let want = skip_messages_with(kernels, shape, &a, &b, stored, all, &tau);
            let got = skip_messages_with(kernels, shape, &a, &b, stored, live_len(&[&a, &b, &c]), &tau);
            assert_eq!(got, want, "cut {cut}, {kernels:?}");
            // `c` computed a chunk at a time, asked only for words below the live length.
            let fill = |start: usize, out: &mut [u64]| out.copy_from_slice(&c[start..start + out.len()]);
            let computed = CWords::Computed(&fill);
            let got = skip_messages_with(kernels, shape, &a, &b, computed, live_len(&[&a, &b, &c]), &tau);
            assert_eq!(got, want, "cut {cut}, {kernels:?}, computed c");
            // `c` as the AND of the forms, where it is that.
            let and: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
            let want = skip_messages_with(kernels, shape, &a, &b, CWords::Stored(&and), all, &tau);
            let got = skip_messages_with(
                kernels,
                shape,
                &a,
                &b,
                CWords::AndOfForms,
                live_len(&[&a, &b]),
                &tau,
            );
            assert_eq!(got, want, "cut {cut}, {kernels:?}, c = a AND b");
        }
    }
}

#[test]
fn in_place_fold_matches_out_of_place() {
    use super::prover::{fold_field, fold_field_in_place_copy};
    let mut r = rng(310);
    // Lengths below, at and well above the first in-place phase.
    for log_len in [2usize, 3, 5, 12, 13, 14, 15, 17] {
        let len = 1usize << log_len;
        let a: Vec<u128> = (0..len).map(|_| r.gen()).collect();
        let b: Vec<u128> = (0..len).map(|_| r.gen()).collect();
        let tau_next: Vec<Gf128> = (2..log_len).map(|_| rand_field(&mut r)).collect();
        let x = rand_field(&mut r);
        for kernels in crate::kernels::Kernels::every_tier() {
            let (mut oa, mut ob) = (vec![0u128; len / 2], vec![0u128; len / 2]);
            let want = fold_field(kernels, &a, &b, x, &tau_next, &mut oa, &mut ob);
            let got = fold_field_in_place_copy(kernels, &a, &b, x, &tau_next);
            assert_eq!(got, (oa, ob, want), "len 2^{log_len}, {kernels:?}");
        }
    }
}

#[test]
fn fold_matches_reference() {
    let mut r = rng(3);
    let words: Vec<u64> = (0..64).map(|_| r.gen()).collect();
    let r0 = rand_field(&mut r);
    let fast = fold_words(&words, &crate::skip::lagrange_weights(r0));
    assert_eq!(fast, reference::fold(&words, r0));
}

#[test]
fn gruen_round_matches_definition() {
    let mut r = rng(4);
    for m in [1usize, 2, 5, 6] {
        let fa: Vec<Gf128> = (0..1 << m).map(|_| rand_field(&mut r)).collect();
        let fb: Vec<Gf128> = (0..1 << m).map(|_| rand_field(&mut r)).collect();
        let tau: Vec<Gf128> = (0..m).map(|_| rand_field(&mut r)).collect();
        let round = gruen_round(&fa, &fb, &tau[1..]);
        // q(X) = sum_{x>0} eq(tau_{>0}, x) A(X, x) B(X, x), at X = 0, 1 and a third point.
        let eq = eq_table(&tau[1..]);
        let q_at = |x: Gf128| -> Gf128 {
            (0..1 << (m - 1))
                .map(|i| {
                    let a = fa[2 * i] + x * (fa[2 * i] + fa[2 * i + 1]);
                    let b = fb[2 * i] + x * (fb[2 * i] + fb[2 * i + 1]);
                    eq[i] * a * b
                })
                .sum()
        };
        let x = rand_field(&mut r);
        let (q0, q1, qx) = (q_at(Gf128::ZERO), q_at(Gf128::ONE), q_at(x));
        assert_eq!(round.q0, q0);
        let lin = q1 + q0 + round.q2;
        assert_eq!(qx, q0 + x * (lin + x * round.q2), "m = {m}");
    }
}

#[test]
fn honest_round_trips() {
    for (i, &(n, k)) in SHAPES.iter().enumerate() {
        let shape = Shape::new(n, k).unwrap();
        let (a, b, c) = valid_witness(shape, i as u64);
        let (proof, out) = prove(shape, &a, &b, &c, 0, &mut transcript());
        let checked = verify(shape, &proof, 0, &mut transcript()).expect("honest proof verifies");
        assert_eq!(out, checked);
        assert_eq!(proof.to_bytes().len(), Proof::num_bytes(shape));
        // The claims left for later steps are true statements about a, b, c.
        assert!(crate::claims::holds(&out.a_claim(), shape, &a));
        assert!(crate::claims::holds(&out.b_claim(), shape, &b));
        assert!(crate::claims::holds(&out.c_claim(), shape, &c));
        // The interpolated starting claim equals the brute-force one.
        if shape.num_words() <= 64 {
            let fa = reference::fold(&a, out.r0);
            let fb = reference::fold(&b, out.r0);
            let mut values = [Gf128::ZERO; 127];
            values[..64].copy_from_slice(&proof.v);
            values[64..].copy_from_slice(&proof.p_extra);
            assert_eq!(
                crate::skip::interpolate(&values, out.r0),
                reference::eq_weighted_product(&fa, &fb, &out.tau_prime)
            );
            // A valid witness: P_ab = P_c on S, and the c claim is P_c(r0).
            assert_eq!(
                reference::p_ab_at(&a, &b, &out.tau_prime, domain_point(9)),
                reference::p_c_at(&c, &out.tau_prime, domain_point(9))
            );
            assert_eq!(reference::p_c_at(&c, &out.tau_prime, out.r0), out.c_value);
        }
    }
}

#[test]
fn callers_live_length_gives_the_scanned_proof() {
    // `prove_in_place` takes the zero tail from its caller; any length that
    // covers the nonzero words (the exact cut, a longer one, none at all)
    // gives the proof `prove` makes after scanning for it.
    let shape = Shape::new(10, 8).unwrap();
    let (a, b, _) = valid_witness(shape, 21);
    let cut = 3000;
    let (a, b) = (zero_tail(a, cut), zero_tail(b, cut));
    let c: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
    let (want, _) = prove(shape, &a, &b, &c, 0, &mut transcript());
    let fill = |start: usize, out: &mut [u64]| out.copy_from_slice(&c[start..start + out.len()]);
    let as_fields = |words: &[u64]| Gf128::from_u128_slice(&paired(words)).to_vec();
    for live in [cut, 3584, shape.num_words()] {
        let (mut fa, mut fb) = (as_fields(&a), as_fields(&b));
        let (got, _) = prove_in_place(
            shape,
            &mut fa,
            &mut fb,
            CWords::Computed(&fill),
            live,
            0,
            &mut transcript(),
            &mut Plain,
        );
        assert_eq!(got, want, "live {live}");
    }
}

#[test]
fn transcripts_agree_after_the_protocol() {
    let shape = Shape::new(8, 3).unwrap();
    let (a, b, c) = valid_witness(shape, 11);
    let mut tp = transcript();
    let mut tv = transcript();
    let (proof, _) = prove(shape, &a, &b, &c, 0, &mut tp);
    verify(shape, &proof, 0, &mut tv).unwrap();
    assert_eq!(tp.state(), tv.state());
}

/// Every single-element change to a proof, as (description, mutation).
fn all_mutations(proof: &Proof) -> Vec<(String, Proof)> {
    let bump = |x: Gf128| x + Gf128::new(1 << 77);
    let mut out = Vec::new();
    for i in 0..proof.v.len() {
        let mut p = proof.clone();
        p.v[i] = bump(p.v[i]);
        out.push((format!("v[{i}]"), p));
    }
    for i in 0..proof.p_extra.len() {
        let mut p = proof.clone();
        p.p_extra[i] = bump(p.p_extra[i]);
        out.push((format!("p_extra[{i}]"), p));
    }
    for j in 0..proof.rounds.len() {
        let mut p = proof.clone();
        p.rounds[j].q0 = bump(p.rounds[j].q0);
        out.push((format!("round {j} q0"), p));
        let mut p = proof.clone();
        p.rounds[j].q2 = bump(p.rounds[j].q2);
        out.push((format!("round {j} q2"), p));
    }
    let mut p = proof.clone();
    p.a_eval = bump(p.a_eval);
    out.push(("a_eval".into(), p));
    let mut p = proof.clone();
    p.b_eval = bump(p.b_eval);
    out.push(("b_eval".into(), p));
    out
}

#[test]
fn every_altered_message_is_rejected() {
    let shape = Shape::new(7, 3).unwrap();
    let (a, b, c) = valid_witness(shape, 5);
    let (proof, _) = prove(shape, &a, &b, &c, 0, &mut transcript());
    for (what, bad) in all_mutations(&proof) {
        assert_eq!(
            verify(shape, &bad, 0, &mut transcript()),
            Err(PiopError::ZerocheckFinalCheck),
            "altered {what}"
        );
    }
}

#[test]
fn proof_of_work_is_checked() {
    let shape = Shape::new(7, 2).unwrap();
    let (a, b, c) = valid_witness(shape, 8);
    let (proof, _) = prove(shape, &a, &b, &c, 8, &mut transcript());
    verify(shape, &proof, 8, &mut transcript()).expect("honest proof with grinding verifies");
    // Other nonces before tau' and before r0: every one is rejected, and
    // most (each passes 8 bits with probability 1/256) by the work check.
    for (which, name) in [(0, "tau'"), (1, "r0")] {
        let mut by_work = 0;
        for k in 1..=16u64 {
            let mut bad = proof.clone();
            bad.pow_nonces[which] = proof.pow_nonces[which].wrapping_add(k);
            match verify(shape, &bad, 8, &mut transcript()) {
                Err(PiopError::ProofOfWork(what)) => {
                    assert_eq!(what, name);
                    by_work += 1;
                }
                Err(_) => {}
                Ok(_) => panic!("altered nonce {which} accepted"),
            }
        }
        assert!(by_work > 0, "no altered nonce {which} failed the work check");
    }
    // A verifier asking for more work than was done rejects.
    assert!(verify(shape, &proof, 24, &mut transcript()).is_err());
}

#[test]
fn every_flipped_proof_byte_is_rejected() {
    let shape = Shape::new(7, 1).unwrap();
    let (a, b, c) = valid_witness(shape, 6);
    let bytes = prove(shape, &a, &b, &c, 0, &mut transcript()).0.to_bytes();
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 1 << (i % 8);
        let proof =
            Proof::from_bytes(shape, false, &bad).expect("every byte string of the right length decodes");
        assert!(verify(shape, &proof, 0, &mut transcript()).is_err(), "byte {i}");
    }
}

#[test]
fn decoding_never_panics() {
    let shape = Shape::new(8, 2).unwrap();
    let (a, b, c) = valid_witness(shape, 8);
    let (proof, _) = prove(shape, &a, &b, &c, 0, &mut transcript());
    let bytes = proof.to_bytes();
    assert_eq!(Proof::from_bytes(shape, false, &bytes).unwrap(), proof);
    for len in [0, 1, 15, 16, bytes.len() - 1] {
        assert!(matches!(
            Proof::from_bytes(shape, false, &bytes[..len]),
            Err(PiopError::Decode(DecodeError::Truncated(_)))
        ));
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        Proof::from_bytes(shape, false, &long),
        Err(PiopError::Decode(DecodeError::TrailingBytes(1)))
    );
    // A proof read with a different shape is refused or fails to verify.
    let other = Shape::new(8, 3).unwrap();
    assert!(matches!(
        Proof::from_bytes(other, false, &bytes),
        Err(PiopError::Decode(DecodeError::Truncated(_)))
    ));
    let mut short = proof.clone();
    short.rounds.pop();
    assert!(matches!(
        verify(shape, &short, 0, &mut transcript()),
        Err(PiopError::WrongLength { .. })
    ));
}

#[test]
fn one_violated_row_is_rejected() {
    for (i, &(n, k)) in SHAPES.iter().enumerate() {
        let shape = Shape::new(n, k).unwrap();
        let (a, b, c) = valid_witness(shape, 50 + i as u64);
        let mut r = rng(60 + i as u64);
        for trial in 0..4 {
            let word = r.gen_range(0..shape.num_words());
            let bit = r.gen_range(0..64);
            let (mut a2, mut c2) = (a.clone(), c.clone());
            if trial % 2 == 0 {
                c2[word] ^= 1 << bit;
            } else {
                // Flip a bit of a where b is 1, so the row really breaks.
                let ones = b[word];
                assert_ne!(ones, 0);
                let bit = (0..64).cycle().skip(bit).find(|&i| (ones >> i) & 1 == 1).unwrap();
                a2[word] ^= 1 << bit;
            }
            let (proof, _) = prove(shape, &a2, &b, &c2, 0, &mut transcript());
            assert_eq!(
                verify(shape, &proof, 0, &mut transcript()),
                Err(PiopError::ZerocheckFinalCheck),
                "shape ({n}, {k}) trial {trial}"
            );
        }
    }
}

#[test]
fn lying_about_c_moves_the_error_into_the_c_claim() {
    // A prover with c != a & b that sends v from a & b passes the zerocheck,
    // but the claim on c it leaves behind is false for the committed c.
    let shape = Shape::new(8, 2).unwrap();
    let (a, b, c) = valid_witness(shape, 9);
    let mut committed = c.clone();
    committed[3] ^= 1 << 17;
    let (proof, out) = prove(shape, &a, &b, &c, 0, &mut transcript());
    let checked = verify(shape, &proof, 0, &mut transcript()).unwrap();
    assert!(crate::claims::holds(&checked.c_claim(), shape, &c));
    assert!(!crate::claims::holds(&checked.c_claim(), shape, &committed));
    assert_eq!(out, checked);
}

#[test]
fn each_message_changes_every_later_challenge() {
    let shape = Shape::new(7, 3).unwrap();
    let m = shape.word_vars();
    let (a, b, c) = valid_witness(shape, 12);
    let (proof, _) = prove(shape, &a, &b, &c, 0, &mut transcript());
    let run = |p: &Proof| {
        let mut t = transcript();
        let rep = replay(shape, p, 0, &mut t).unwrap();
        (rep.output, t.state())
    };
    let (base, base_state) = run(&proof);
    for (what, bad) in all_mutations(&proof) {
        let (out, state) = run(&bad);
        assert_eq!(out.tau_prime, base.tau_prime);
        assert_ne!(state, base_state, "{what}: final transcript state");
        // Index of the first challenge drawn after the altered message:
        // 0 = r0, 1 + j = round j's challenge, 1 + m = none.
        let first_later = if what.starts_with('v') || what.starts_with("p_extra") {
            0
        } else if let Some(rest) = what.strip_prefix("round ") {
            1 + rest.split(' ').next().unwrap().parse::<usize>().unwrap()
        } else {
            1 + m
        };
        let challenges: Vec<Gf128> = std::iter::once(out.r0)
            .chain(out.r_prime.iter().copied())
            .collect();
        let base_ch: Vec<Gf128> = std::iter::once(base.r0)
            .chain(base.r_prime.iter().copied())
            .collect();
        for ch in 0..challenges.len() {
            if ch < first_later {
                assert_eq!(
                    challenges[ch], base_ch[ch],
                    "{what}: challenge {ch} before the change"
                );
            } else {
                assert_ne!(
                    challenges[ch], base_ch[ch],
                    "{what}: challenge {ch} after the change"
                );
            }
        }
    }
}

#[test]
fn packed_claim_has_the_same_value() {
    let shape = Shape::new(8, 2).unwrap();
    let (a, b, c) = valid_witness(shape, 13);
    let (_, out) = prove(shape, &a, &b, &c, 0, &mut transcript());
    let claim = out.c_claim();
    let packed = claim.to_packed();
    assert_eq!(packed.lambda.len(), 128);
    assert_eq!(packed.point.len(), shape.l() - 7);
    // sum_u lambda(u) sum_rest eq(point, rest) c(u + 128 rest).
    let eq = eq_table(&packed.point);
    let bit = |idx: usize| (c[idx / 64] >> (idx % 64)) & 1 == 1;
    let mut total = Gf128::ZERO;
    for (rest, e) in eq.iter().enumerate() {
        for (u, l) in packed.lambda.iter().enumerate() {
            if bit(u + 128 * rest) {
                total += *e * *l;
            }
        }
    }
    assert_eq!(total, claim.value);
    // And instance weights agree with their definition.
    for inst in [0usize, 63, 64, 200, 255] {
        let hi: Vec<Gf128> = (0..shape.n() - 6)
            .map(|i| Gf128::from((inst >> (6 + i)) & 1 == 1))
            .collect();
        let want =
            out.lagrange()[inst % 64] * starling_poly::multilinear::eq_eval(&claim.weights.point_hi, &hi);
        assert_eq!(claim.weights.weight(inst), want);
    }
    assert_eq!(
        claim.value,
        evaluate_bits(shape, &c, &claim.weights, &claim.wire_point)
    );
}

#[test]
fn soundness_terms_match_hand_computation() {
    // n = 14, k = 15: l - 6 = 23. Errors 23/2^128 (tau), 126/2^128 (skip),
    // 69/2^128 (rounds); total 218/2^128. log2 values by hand:
    // log2 23 = 4.523561956, log2 126 = 6.977279923, log2 69 = 6.108524457,
    // log2 218 = 7.768184325.
    let shape = Shape::new(14, 15).unwrap();
    let t = soundness_terms(shape, 0);
    let want = [4.523561956 - 128.0, 6.977279923 - 128.0, 6.108524457 - 128.0];
    for ((_, got), w) in t.iter().zip(want) {
        assert!((got - w).abs() < 1e-6, "{got} vs {w}");
    }
    assert!((soundness_log2(shape, 0) - (7.768184325 - 128.0)).abs() < 1e-6);
}

/// `a` read out of `b` by Keccak-f's rule ([`AFromB`]) gives the proof and
/// output of `a` stored: random `b` words over the used wires (zero past
/// them), `a`'s stored rows random too, `c = a AND b`; batches whose
/// wires have 2 to 16 words (the fallback below 8, where `a` is written
/// out whole), the live length exact or rounded up to a whole row.
#[test]
fn a_read_out_of_b_gives_the_stored_proof() {
    use starling_verifier::circuit::a_from_b::{AFromB, ARow};
    let r1cs = starling_verifier::circuit::keccak::keccak_f1600();
    let rule = AFromB::of(&r1cs).expect("Keccak-f's A rows are its B rows");
    let used = r1cs.used_wires();
    for (n, seed) in [(7u32, 1u64), (8, 2), (9, 3), (10, 4)] {
        let shape = Shape::new(n as usize, r1cs.k() as usize).unwrap();
        let per_wire = shape.words_per_wire();
        let mut r = rng(seed);
        let live = used * per_wire;
        let mut b = vec![0u64; shape.num_words()];
        b[..live].iter_mut().for_each(|w| *w = r.gen());
        let mut stored = vec![0u64; rule.stored().len() * per_wire];
        stored.iter_mut().for_each(|w| *w = r.gen());
        let mut a = vec![0u64; shape.num_words()];
        for w in 0..r1cs.num_wires() {
            let row = &mut a[w * per_wire..][..per_wire];
            match rule.row(w) {
                ARow::Zero => {}
                ARow::Like(s) => row.copy_from_slice(&b[s as usize * per_wire..][..per_wire]),
                ARow::Complement(s) => {
                    for (x, &y) in row.iter_mut().zip(&b[s as usize * per_wire..]) {
                        *x = !y;
                    }
                }
                ARow::Stored(i) => row.copy_from_slice(&stored[i as usize * per_wire..][..per_wire]),
            }
        }
        let as_fields = |words: &[u64]| Gf128::from_u128_slice(&paired(words)).to_vec();
        let (mut fa, mut fb) = (as_fields(&a), as_fields(&b));
        let want = prove_in_place(
            shape,
            &mut fa,
            &mut fb,
            CWords::AndOfForms,
            live,
            0,
            &mut transcript(),
            &mut Plain,
        );
        let mut fb = as_fields(&b);
        let mut fs = as_fields(&stored);
        let got = prove_in_place_from_b(
            shape,
            &rule,
            &mut fs,
            &mut fb,
            CWords::AndOfForms,
            live,
            0,
            &mut transcript(),
            &mut Plain,
        );
        assert_eq!(got.0, want.0, "n = {n}");
        assert_eq!(got.1, want.1, "n = {n}");
    }
}
