mod common;

use common::{dot, random_vec, rng};
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::{commit, ligerito, LevelParams, PcsError, PcsParams, SecurityProfile};
use starling_poly::multilinear::{eq_table, evaluate};

/// An opening of `f` at the point `r` (weight eq(r, .)): returns what the verifier needs.
struct Fixture {
    params: PcsParams,
    commitment: starling_pcs::Commitment,
    point: Vec<Gf128>,
    value: Gf128,
    proof: ligerito::Proof,
}

fn fixture(params: PcsParams, seed: u64) -> Fixture {
    let mut r = rng(seed);
    let l = params.num_vars();
    // Zero from the live length on, as the parameters promise.
    let mut table = random_vec(&mut r, 1 << l);
    table[params.live_len()..].fill(Gf128::ZERO);
    let point = random_vec(&mut r, l);
    let value = evaluate(&table, &point);
    let (commitment, data) = commit(&params, table).unwrap();
    let proof = ligerito::prove(
        &params,
        &data,
        eq_table(&point),
        value,
        &mut Transcript::new(b"t"),
    )
    .unwrap();
    Fixture {
        params,
        commitment,
        point,
        value,
        proof,
    }
}

fn check(fx: &Fixture, value: Gf128, proof: &ligerito::Proof) -> Result<(), PcsError> {
    let pt = fx.point.clone();
    let weight = move |p: &[Gf128]| starling_poly::multilinear::eq_eval(&pt, p);
    ligerito::verify(
        &fx.params,
        &fx.commitment,
        value,
        &weight,
        proof,
        &mut Transcript::new(b"t"),
    )
}

/// Two levels at L = 10 with few queries, so tests stay fast.
fn small_params() -> PcsParams {
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    PcsParams::with_levels(10, SecurityProfile::Default, vec![lv(3, 20), lv(3, 12)]).unwrap()
}

#[test]
fn round_trips_for_many_sizes_and_profiles() {
    for profile in [SecurityProfile::Default, SecurityProfile::Secure] {
        for l in [1, 2, 5, 7, 8, 11, 14] {
            let params = PcsParams::new(l, profile).unwrap();
            if profile == SecurityProfile::Secure && params.levels().iter().any(|lv| lv.grinding_bits > 12) {
                continue; // keep the test fast; grinding is covered below
            }
            let fx = fixture(params, l as u64);
            check(&fx, fx.value, &fx.proof).unwrap_or_else(|e| panic!("L = {l} {profile:?}: {e}"));
            let bytes = fx.proof.to_bytes();
            assert_eq!(ligerito::Proof::from_bytes(&fx.params, &bytes).unwrap(), fx.proof);
        }
    }
}

#[test]
fn tables_with_a_zero_tail_commit_only_their_live_rows() {
    // Level 0 has 2^3 rows of 2^7 entries at L = 10: live lengths inside the
    // first row, at a row edge, inside a row and the whole table.
    for live in [1usize, 128, 129, 700, 1 << 10] {
        let params = small_params().with_live_len(live).unwrap();
        let width = live.div_ceil(128);
        assert_eq!(params.level_width(0), width);
        let fx = fixture(params, live as u64);
        assert_eq!(fx.proof.levels[0].columns.len() % width, 0);
        check(&fx, fx.value, &fx.proof).unwrap_or_else(|e| panic!("live {live}: {e}"));
        let bytes = fx.proof.to_bytes();
        assert_eq!(ligerito::Proof::from_bytes(&fx.params, &bytes).unwrap(), fx.proof);
        assert!(
            check(&fx, fx.value + Gf128::ONE, &fx.proof).is_err(),
            "live {live}: wrong claim"
        );
        // The same opening under parameters that commit every row is refused.
        if width < 8 {
            let full = Fixture {
                params: small_params(),
                proof: fx.proof.clone(),
                point: fx.point.clone(),
                ..fx
            };
            let decoded = ligerito::Proof::from_bytes(&full.params, &bytes);
            assert!(
                decoded.map_or(true, |p| check(&full, full.value, &p).is_err()),
                "live {live}"
            );
        }
    }
    // The default parameters, as the proof system uses them.
    let params = PcsParams::new(14, SecurityProfile::Default)
        .unwrap()
        .with_live_len(10_000)
        .unwrap();
    let fx = fixture(params, 14);
    check(&fx, fx.value, &fx.proof).unwrap();
}

#[test]
fn a_table_nonzero_in_a_row_taken_as_zero_is_refused() {
    let params = small_params().with_live_len(300).unwrap();
    let mut r = rng(4);
    let mut table = random_vec(&mut r, 1 << 10);
    table[384..].fill(Gf128::ZERO);
    // Entries between the live length and the end of its row are committed.
    assert!(commit(&params, table.clone()).is_ok());
    table[700] = Gf128::ONE;
    assert!(matches!(
        commit(&params, table),
        Err(PcsError::NonzeroPastLive {
            index: 700,
            live: 300
        })
    ));
    for live in [0, (1 << 10) + 1] {
        assert!(small_params().with_live_len(live).is_err(), "live {live}");
    }
}

#[test]
fn round_trip_with_grinding() {
    let lv = |k, t, g, qg| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: g,
        query_grinding_bits: qg,
    };
    let levels = vec![lv(3, 10, 6, 0), lv(2, 8, 4, 7)];
    let params = PcsParams::with_levels(9, SecurityProfile::Secure, levels).unwrap();
    let fx = fixture(params, 9);
    check(&fx, fx.value, &fx.proof).unwrap();
    let mut bad = fx.proof.clone();
    bad.levels[0].pow_nonces[1] ^= 1;
    assert!(check(&fx, fx.value, &bad).is_err());
    // Grinding before level 1's queries: a nonce that misses the difficulty,
    // or none, is refused.
    let nonce = fx.proof.levels[1]
        .query_nonce
        .expect("level 1 grinds before its queries");
    assert_eq!(fx.proof.levels[0].query_nonce, None);
    let mut bad = fx.proof.clone();
    bad.levels[1].query_nonce = Some(nonce + 1);
    assert!(matches!(
        check(&fx, fx.value, &bad),
        Err(PcsError::ProofOfWork { level: 1 })
    ));
    bad.levels[1].query_nonce = None;
    assert!(matches!(check(&fx, fx.value, &bad), Err(PcsError::Malformed(_))));
    let bytes = fx.proof.to_bytes();
    assert_eq!(ligerito::Proof::from_bytes(&fx.params, &bytes).unwrap(), fx.proof);
}

#[test]
fn general_weight_function() {
    // w(x) = eq(a, x) + 3 eq(b, x): the verifier evaluates the same combination.
    let params = small_params();
    let mut r = rng(7);
    let table = random_vec(&mut r, 1 << 10);
    let (a, b) = (random_vec(&mut r, 10), random_vec(&mut r, 10));
    let three = Gf128::new(3);
    let w: Vec<Gf128> = eq_table(&a)
        .iter()
        .zip(eq_table(&b))
        .map(|(x, y)| *x + three * y)
        .collect();
    let value = dot(&table, &w);
    let (c, data) = commit(&params, table).unwrap();
    let proof = ligerito::prove(&params, &data, w, value, &mut Transcript::new(b"w")).unwrap();
    let eq = starling_poly::multilinear::eq_eval;
    let weight = |p: &[Gf128]| eq(&a, p) + three * eq(&b, p);
    ligerito::verify(&params, &c, value, &weight, &proof, &mut Transcript::new(b"w")).unwrap();
    // A different weight function is rejected.
    let wrong = |p: &[Gf128]| eq(&a, p) + Gf128::new(2) * eq(&b, p);
    assert!(ligerito::verify(&params, &c, value, &wrong, &proof, &mut Transcript::new(b"w")).is_err());
}

#[test]
fn every_verifier_check_fails_when_its_input_is_altered() {
    let fx = fixture(small_params(), 3);
    check(&fx, fx.value, &fx.proof).unwrap();
    let one = Gf128::ONE;

    assert!(check(&fx, fx.value + one, &fx.proof).is_err(), "wrong claim");

    let mut p = fx.proof.clone();
    p.levels[0].columns[5] += one;
    assert!(
        matches!(check(&fx, fx.value, &p), Err(PcsError::Merkle { level: 0, .. })),
        "altered leaf"
    );

    let mut p = fx.proof.clone();
    p.levels[1].merkle.siblings[0][0] ^= 1;
    assert!(
        matches!(check(&fx, fx.value, &p), Err(PcsError::Merkle { level: 1, .. })),
        "altered sibling"
    );

    let mut p = fx.proof.clone();
    p.levels[0].rounds[1].c2 += one;
    assert!(check(&fx, fx.value, &p).is_err(), "altered round message");

    let mut p = fx.proof.clone();
    p.final_rounds[0].c0 += one;
    assert!(check(&fx, fx.value, &p).is_err(), "altered final round");

    let mut p = fx.proof.clone();
    p.final_message[1] += one;
    assert!(check(&fx, fx.value, &p).is_err(), "altered final message");

    let mut p = fx.proof.clone();
    p.levels[0].next_root.as_mut().unwrap()[3] ^= 0x40;
    assert!(check(&fx, fx.value, &p).is_err(), "altered level root");

    let mut p = fx.proof.clone();
    let n = p.levels[0].columns.len();
    p.levels[0].columns.truncate(n - 8);
    assert!(check(&fx, fx.value, &p).is_err(), "missing column");

    let pt: Vec<Gf128> = fx.point.iter().map(|x| *x + one).collect();
    let weight = move |p: &[Gf128]| starling_poly::multilinear::eq_eval(&pt, p);
    let r = ligerito::verify(
        &fx.params,
        &fx.commitment,
        fx.value,
        &weight,
        &fx.proof,
        &mut Transcript::new(b"t"),
    );
    assert!(matches!(r, Err(PcsError::FinalCheck)), "wrong weight function");
}

#[test]
fn a_consistent_lie_about_the_table_is_rejected() {
    // The prover commits to f but proves the claim of f' (one entry changed)
    // with weights and folding of f'. The queries catch the mismatch.
    let params = small_params();
    let mut r = rng(11);
    let table = random_vec(&mut r, 1 << 10);
    let point = random_vec(&mut r, 10);
    let (c, data) = commit(&params, table.clone()).unwrap();
    let mut other = table;
    other[77] += Gf128::ONE;
    let (_, data_other) = commit(&params, other.clone()).unwrap();
    let value = evaluate(&other, &point);
    let _ = data;
    let proof = ligerito::prove(
        &params,
        &data_other,
        eq_table(&point),
        value,
        &mut Transcript::new(b"t"),
    )
    .unwrap();
    let weight = |p: &[Gf128]| starling_poly::multilinear::eq_eval(&point, p);
    assert!(ligerito::verify(&params, &c, value, &weight, &proof, &mut Transcript::new(b"t")).is_err());
}

#[test]
fn every_byte_flip_is_rejected() {
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    // Level 0 opens three of its four rows.
    let params = PcsParams::with_levels(6, SecurityProfile::Default, vec![lv(2, 6), lv(2, 4)])
        .unwrap()
        .with_live_len(40)
        .unwrap();
    let fx = fixture(params, 5);
    let bytes = fx.proof.to_bytes();
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 1 << (i % 8);
        let ok = match ligerito::Proof::from_bytes(&fx.params, &b) {
            Ok(p) => check(&fx, fx.value, &p).is_ok(),
            Err(_) => false,
        };
        assert!(!ok, "flip at byte {i} of {} accepted", bytes.len());
    }
    // Truncations and extensions are refused by the decoder.
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        assert!(ligerito::Proof::from_bytes(&fx.params, &bytes[..cut]).is_err());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(ligerito::Proof::from_bytes(&fx.params, &longer).is_err());
}

#[test]
fn garbage_never_panics() {
    let params = small_params();
    let mut r = rng(99);
    for len in [0usize, 3, 100, 1000, 5000, 20000] {
        let junk: Vec<u8> = (0..len).map(|_| rand::Rng::gen(&mut r)).collect();
        let _ = ligerito::Proof::from_bytes(&params, &junk);
    }
}
