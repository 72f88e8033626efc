mod common;

use common::{random_vec, rng};
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::ring_switch::{self, bit_evaluations};
use starling_pcs::{bits, commit, LevelParams, PackedClaim, PcsError, PcsParams, SecurityProfile};
use starling_poly::multilinear::evaluate;

fn bit_table(table: &[Gf128], u: usize) -> Vec<Gf128> {
    table.iter().map(|f| Gf128::from(f.bit(u))).collect()
}

fn claim_for(table: &[Gf128], point: Vec<Gf128>, lambda: Vec<Gf128>) -> PackedClaim {
    let s = bit_evaluations(table, &point);
    let value = lambda.iter().zip(s.iter()).map(|(a, b)| *a * *b).sum();
    PackedClaim { lambda, point, value }
}

#[test]
fn bit_evaluations_match_definition() {
    let mut r = rng(1);
    let table = random_vec(&mut r, 1 << 13);
    let point = random_vec(&mut r, 13);
    let s = bit_evaluations(&table, &point);
    for u in [0, 1, 7, 8, 63, 64, 127] {
        assert_eq!(s[u], evaluate(&bit_table(&table, u), &point), "u = {u}");
    }
}

#[test]
fn weight_mle_matches_brute_force() {
    // For small L, the verifier's trace formula for w0, restricted to the
    // live prefix, equals the MLE of the prover's weight table at a random
    // point: every live length of a 2^4 table (one to four set bits), and
    // a few of larger tables.
    let mut r = rng(2);
    let cases = (1..=16).map(|n| (4, n)).chain([
        (1, 1),
        (1, 2),
        (3, 8),
        (5, 32),
        (5, 21),
        (13, 5000),
        (13, 1 << 13),
    ]);
    for (l, live_len) in cases {
        let mut table = random_vec(&mut r, 1 << l);
        table[live_len..].fill(Gf128::ZERO);
        let claims: Vec<PackedClaim> = (0..2)
            .map(|_| claim_for(&table, random_vec(&mut r, l), random_vec(&mut r, 128)))
            .collect();
        let (s, red) =
            ring_switch::prove(&table, live_len, &claims, 0, &mut Transcript::new(b"rs"), false).unwrap();
        assert!(red.weights[live_len..].iter().all(|w| w.is_zero()));
        let vred = ring_switch::verify(l, live_len, &claims, &s, &mut Transcript::new(b"rs")).unwrap();
        assert_eq!(red.claim, vred.claim);
        let p = random_vec(&mut r, l);
        assert_eq!(
            vred.weight_at(&p),
            evaluate(&red.weights, &p),
            "L = {l}, live {live_len}"
        );
        // And the reduced claim is the true inner product.
        let ip: Gf128 = table.iter().zip(&red.weights).map(|(a, b)| *a * *b).sum();
        assert_eq!(ip, red.claim);
        // A verifier told another live length evaluates another weight.
        let other = if live_len == 1 << l {
            live_len - 1
        } else {
            live_len + 1
        };
        let wrong = ring_switch::verify(l, other, &claims, &s, &mut Transcript::new(b"rs")).unwrap();
        assert_ne!(
            wrong.weight_at(&p),
            vred.weight_at(&p),
            "L = {l}, live {live_len}"
        );
    }
    // Live lengths outside 1..=2^L are refused.
    let table = random_vec(&mut r, 1 << 3);
    let claims = vec![claim_for(&table, random_vec(&mut r, 3), random_vec(&mut r, 128))];
    for bad in [0, 9] {
        assert!(ring_switch::prove(&table, bad, &claims, 0, &mut Transcript::new(b"rs"), false).is_err());
    }
}

fn small_params(l: usize) -> PcsParams {
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    PcsParams::with_levels(l, SecurityProfile::Default, vec![lv(3, 16), lv(2, 10)]).unwrap()
}

#[test]
fn bits_round_trip_and_off_by_one_bit_rejections() {
    let l = 9;
    let params = small_params(l);
    let mut r = rng(3);
    let table = random_vec(&mut r, 1 << l);
    let mut claims = Vec::new();
    for _ in 0..3 {
        claims.push(claim_for(&table, random_vec(&mut r, l), random_vec(&mut r, 128)));
    }
    // A single-bit claim, as the PIOP's public-value claims look.
    let mut unit = vec![Gf128::ZERO; 128];
    unit[5] = Gf128::ONE;
    claims.push(claim_for(&table, random_vec(&mut r, l), unit));

    let (c, data) = commit(&params, table.clone()).unwrap();
    let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"b")).unwrap();
    let verify = |claims: &[PackedClaim], proof: &bits::Proof| {
        bits::verify(&params, &c, claims, proof, &mut Transcript::new(b"b"))
    };
    verify(&claims, &proof).unwrap();
    let bytes = proof.to_bytes();
    assert_eq!(
        bits::Proof::from_bytes(&params, claims.len(), &bytes).unwrap(),
        proof
    );

    // Wrong value (off by one bit of the field element).
    let mut bad = claims.clone();
    bad[3].value += Gf128::ONE;
    assert!(matches!(
        verify(&bad, &proof),
        Err(PcsError::RingSwitchClaim { index: 3 })
    ));

    // One wrong s_u, with the claim value adjusted so the lambda check passes.
    let mut bad_proof = proof.clone();
    bad_proof.bit_evaluations[0][17] += Gf128::ONE;
    let mut adjusted = claims.clone();
    let l17 = adjusted[0].lambda[17];
    adjusted[0].value += l17;
    assert!(verify(&adjusted, &bad_proof).is_err());

    // An honest proof for a z with one bit flipped: the claim is true for the
    // flipped table but the commitment is to the original one.
    let mut flipped = table;
    flipped[100] += Gf128::new(1 << 42);
    let flipped_claims: Vec<PackedClaim> = claims
        .iter()
        .map(|cl| claim_for(&flipped, cl.point.clone(), cl.lambda.clone()))
        .collect();
    assert_ne!(flipped_claims, claims);
    let (_, data_flipped) = commit(&params, flipped).unwrap();
    let lie = bits::prove(
        &params,
        &data_flipped,
        &flipped_claims,
        &mut Transcript::new(b"b"),
    )
    .unwrap();
    assert!(verify(&flipped_claims, &lie).is_err());
}

#[test]
fn bits_with_a_dead_tail_restrict_the_weight() {
    // Level 0 has 8 rows of 2^6 entries; 300 live entries are 5 rows.
    let l = 9;
    let params = small_params(l).with_live_len(300).unwrap();
    assert_eq!(params.live_rows_len(), 320);
    let mut r = rng(5);
    let mut table = random_vec(&mut r, 1 << l);
    table[300..].fill(Gf128::ZERO);
    let claims: Vec<PackedClaim> = (0..3)
        .map(|_| claim_for(&table, random_vec(&mut r, l), random_vec(&mut r, 128)))
        .collect();
    let (c, data) = commit(&params, table.clone()).unwrap();
    let verify = |proof: &bits::Proof| bits::verify(&params, &c, &claims, proof, &mut Transcript::new(b"d"));
    let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"d")).unwrap();
    verify(&proof).unwrap();

    // The same claims opened against the weight over the whole table: the
    // claimed sum is the same (the table is zero past the live rows), but
    // the verifier evaluates the restricted weight and rejects.
    let mut t = Transcript::new(b"d");
    let (bit_evaluations, red) = ring_switch::prove(&table, table.len(), &claims, 0, &mut t, false).unwrap();
    let opening = starling_pcs::ligerito::prove(&params, &data, red.weights, red.claim, &mut t).unwrap();
    let unrestricted = bits::Proof {
        bit_evaluations,
        opening,
    };
    assert_eq!(unrestricted.bit_evaluations, proof.bit_evaluations);
    assert!(verify(&unrestricted).is_err());
}

#[test]
fn bits_proof_byte_flips_are_rejected() {
    let l = 6;
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    let params = PcsParams::with_levels(l, SecurityProfile::Default, vec![lv(3, 5)]).unwrap();
    let mut r = rng(4);
    let table = random_vec(&mut r, 1 << l);
    let claims = vec![claim_for(&table, random_vec(&mut r, l), random_vec(&mut r, 128))];
    let (c, data) = commit(&params, table).unwrap();
    let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"b")).unwrap();
    let bytes = proof.to_bytes();
    // Every byte of the opening and a stride over the 2 KiB of bit evaluations.
    let positions = (0..2048).step_by(61).chain(2048..bytes.len());
    for i in positions {
        let mut b = bytes.clone();
        b[i] ^= 0x80 >> (i % 8);
        let ok = match bits::Proof::from_bytes(&params, 1, &b) {
            Ok(p) => bits::verify(&params, &c, &claims, &p, &mut Transcript::new(b"b")).is_ok(),
            Err(_) => false,
        };
        assert!(!ok, "flip at byte {i} accepted");
    }
}

/// The opening over the committed table's buffer, its weight computed where
/// the folds read it, is the opening with a stored weight, byte for byte,
/// and gives the table back as `rewrite` wrote it: tables live in full, and
/// zero past a live length inside a row and at a row's end. Written again
/// wrong, the table is refused.
#[test]
fn opening_over_the_table_is_the_stored_opening() {
    let mut r = rng(4);
    for (l, live) in [(9, 1 << 9), (9, 300), (12, 1 << 11), (12, 2500), (15, 20_000)] {
        let params = small_params(l).with_live_len(live).unwrap();
        let mut table = random_vec(&mut r, 1 << l);
        table[live..].fill(Gf128::ZERO);
        let claims: Vec<PackedClaim> = (0..3)
            .map(|_| claim_for(&table, random_vec(&mut r, l), random_vec(&mut r, 128)))
            .collect();
        let (c, data) = commit(&params, table.clone()).unwrap();
        let stored = bits::prove(&params, &data, &claims, &mut Transcript::new(b"o")).unwrap();
        let (buffer, aside) = data.set_table_aside();
        let rewrite = |out: &mut [Gf128]| out[..live].copy_from_slice(&table[..live]);
        let (over, data) = bits::prove_over(
            &params,
            buffer,
            aside,
            &claims,
            &mut Transcript::new(b"o"),
            &rewrite,
        )
        .unwrap();
        assert_eq!(over, stored, "L = {l}, live {live}");
        assert_eq!(data.table(), &table[..], "L = {l}, live {live}");
        bits::verify(&params, &c, &claims, &over, &mut Transcript::new(b"o")).unwrap();

        // The queries' columns come from the table written again, and the
        // nodes of level 0's tree they need from their neighbours' columns:
        // another table does not hash to the committed tree, and is refused.
        let (buffer, aside) = data.set_table_aside();
        let wrong = |out: &mut [Gf128]| {
            out[..live].copy_from_slice(&table[..live]);
            out[live / 2] += Gf128::ONE;
        };
        let opened = bits::prove_over(
            &params,
            buffer,
            aside,
            &claims,
            &mut Transcript::new(b"o"),
            &wrong,
        );
        assert!(
            matches!(opened, Err(PcsError::BadInput(_))),
            "L = {l}, live {live}"
        );
    }
}
