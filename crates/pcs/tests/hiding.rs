//! The hiding opening (`starling_verifier::pcs::ligerito`'s module notes):
//! honest openings verify and every part the verifier reads is checked;
//! with the challenges held still, what the verifier sees of two tables with
//! the same claim differs only by what the prover's randomness can produce
//! (perfect zero knowledge for that challenge tape), and a plain opening
//! fails the same test.

mod common;

use common::{dot, random_vec, rng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::{commit, commit_hiding, ligerito, LevelParams, PcsError, PcsParams, SecurityProfile};
use starling_poly::multilinear::{eq_eval, eq_table};

/// A data table of `2^data_vars` entries, zero past the live length, with
/// every live row's mask run random.
fn table(params: &PcsParams, r: &mut ChaCha8Rng) -> Vec<Gf128> {
    let mut t = random_vec(r, 1 << params.data_vars());
    t[params.live_len()..].fill(Gf128::ZERO);
    t
}

struct Opening {
    params: PcsParams,
    commitment: starling_pcs::Commitment,
    point: Vec<Gf128>,
    value: Gf128,
    proof: ligerito::Proof,
}

/// A hiding opening of a random table at a random point.
fn open(params: PcsParams, seed: u64) -> Opening {
    let mut r = rng(seed);
    let t = table(&params, &mut r);
    let point = random_vec(&mut r, params.data_vars());
    let value = dot(&t, &eq_table(&point));
    let (commitment, data) = commit_hiding(&params, t, &mut r).unwrap();
    let proof = ligerito::prove(
        &params,
        &data,
        eq_table(&point),
        value,
        &mut Transcript::new(b"h"),
    )
    .unwrap();
    Opening {
        params,
        commitment,
        point,
        value,
        proof,
    }
}

fn check(o: &Opening, value: Gf128, proof: &ligerito::Proof) -> Result<(), PcsError> {
    let pt = o.point.clone();
    let weight = move |p: &[Gf128]| eq_eval(&pt, p);
    ligerito::verify(
        &o.params,
        &o.commitment,
        value,
        &weight,
        proof,
        &mut Transcript::new(b"h"),
    )
}

#[test]
fn hiding_openings_round_trip_for_many_sizes() {
    for profile in [SecurityProfile::Default, SecurityProfile::Secure] {
        for l in [9, 10, 12, 15] {
            let Ok(params) = PcsParams::new_hiding(l, 1 << l, profile) else {
                // A row must hold the mask run: 2^m >= t + 1.
                // (L = 10: 8 rows of 2^7 entries hold no run of 2^8.)
                assert!(l <= 10, "L = {l} {profile:?} refused");
                continue;
            };
            assert!(params.is_hiding());
            assert_eq!(params.num_vars(), l + 1);
            let run = params.mask_run().unwrap();
            assert_eq!(run.len, params.levels()[0].queries + 2);
            assert!(run.offset + (1 << run.log_block) <= 1 << params.level_log_msg(0));
            let bits = params.security_report_with_ring_switch(4).bits();
            assert!(bits >= profile.pcs_bits(), "L = {l} {profile:?}: {bits} bits");
            let o = open(params, l as u64);
            check(&o, o.value, &o.proof).unwrap_or_else(|e| panic!("L = {l} {profile:?}: {e}"));
            let bytes = o.proof.to_bytes();
            assert_eq!(ligerito::Proof::from_bytes(&o.params, &bytes).unwrap(), o.proof);
        }
    }
}

#[test]
fn hiding_openings_with_a_zero_tail_verify() {
    // At L = 16 a full table's 64 rows and two more would pass one leaf
    // chunk: level 0 then takes 32 rows, a table of 62 or fewer 64.
    let full = PcsParams::new_hiding(16, 1 << 16, SecurityProfile::Default).unwrap();
    assert_eq!(full.levels()[0].log_rows, 6);
    let base = PcsParams::new_hiding(16, 62 << 10, SecurityProfile::Default).unwrap();
    assert_eq!(base.levels()[0].log_rows, 7);
    let row = 1usize << base.level_log_msg(0);
    for live in [row + 1, 2 * row, 3 * row - 5, 62 << 10] {
        let params = base.clone().with_live_len(live).unwrap();
        assert_eq!(params.level_width(0), live.div_ceil(row) + 2);
        let o = open(params, live as u64);
        check(&o, o.value, &o.proof).unwrap_or_else(|e| panic!("live {live}: {e}"));
    }
}

#[test]
fn every_part_of_a_hiding_opening_is_checked() {
    let o = open(
        PcsParams::new_hiding(12, 1 << 12, SecurityProfile::Default).unwrap(),
        3,
    );
    let width = o.params.level_width(0);
    assert!(
        check(&o, o.value + Gf128::ONE, &o.proof).is_err(),
        "a wrong claim"
    );
    let mut bad = o.proof.clone();
    bad.mask_sum = bad.mask_sum.map(|g| g + Gf128::ONE);
    assert!(check(&o, o.value, &bad).is_err(), "a wrong row-mask sum");
    let mut bad = o.proof.clone();
    bad.mask_sum = None;
    assert!(check(&o, o.value, &bad).is_err(), "no row-mask sum");
    // The mask row's and the salt's entries of an opened column are hashed.
    for entry in [width - 2, width - 1, 0] {
        let mut bad = o.proof.clone();
        bad.levels[0].columns[entry] += Gf128::ONE;
        assert!(check(&o, o.value, &bad).is_err(), "column entry {entry}");
    }
    // The `T` round is a round like the others.
    let last = o.params.levels()[0].log_rows - 1;
    let mut bad = o.proof.clone();
    bad.levels[0].rounds[last].c2 += Gf128::ONE;
    assert!(check(&o, o.value, &bad).is_err(), "the T round");
    // The same proof is not a plain opening's.
    let plain = PcsParams::new(12, SecurityProfile::Default).unwrap();
    let bytes = o.proof.to_bytes();
    assert!(
        ligerito::Proof::from_bytes(&plain, &bytes).map_or(true, |p| check(
            &Opening {
                params: plain.clone(),
                proof: p.clone(),
                point: o.point.clone(),
                ..o
            },
            o.value,
            &p
        )
        .is_err())
    );
}

#[test]
fn a_plain_commitment_cannot_make_a_hiding_opening() {
    let params = PcsParams::new_hiding(12, 1 << 12, SecurityProfile::Default).unwrap();
    let mut r = rng(5);
    let t = table(&params, &mut r);
    assert!(commit(&params, t.clone()).is_err());
    let plain = PcsParams::new(12, SecurityProfile::Default).unwrap();
    assert!(commit_hiding(&plain, t, &mut r).is_err());
}

/// Tiny hiding parameters: 8 data rows (the fewest,
/// `MIN_HIDING_ROW_VARS`) of 16 entries, 3 queries per level, no grinding,
/// so the view is small enough to solve for.
fn tiny_hiding() -> PcsParams {
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    PcsParams::with_levels(8, SecurityProfile::Default, vec![lv(4, 3), lv(2, 3)])
        .unwrap()
        .hiding(1 << 7)
        .unwrap()
}

/// What the verifier reads of a proof, hashes left out (random oracles: the
/// salts make them independent of the table, ZK.md section d): the row-mask
/// sum, every round, every opened column, the final message.
fn view(proof: &ligerito::Proof) -> Vec<Gf128> {
    let mut v: Vec<Gf128> = proof.mask_sum.into_iter().collect();
    for l in &proof.levels {
        for r in &l.rounds {
            v.extend([r.c0, r.c2]);
        }
        v.extend(&l.columns);
    }
    v.extend(&proof.final_message);
    for r in &proof.final_rounds {
        v.extend([r.c0, r.c2]);
    }
    v
}

/// The view of an opening of `table` with the prover's randomness `rand`
/// (every mask run's entries, then the mask and salt rows), under the
/// challenge tape.
fn view_with(params: &PcsParams, data: &[Gf128], rand: &[Gf128], weight: &[Gf128]) -> Vec<Gf128> {
    let mut t = data.to_vec();
    let m = params.level_log_msg(0);
    let mut rest = rand;
    if let Some(run) = params.mask_run() {
        for r in 0..params.level0_data_rows() {
            let (mine, more) = rest.split_at(run.len);
            t[(r << m) + run.offset..][..run.len].copy_from_slice(mine);
            rest = more;
        }
    }
    let value = dot(&t, weight);
    let mut tape = Transcript::challenge_tape(b"zk");
    let data = if params.is_hiding() {
        let mut extra = FixedRows(rest.to_vec(), 0);
        commit_hiding(params, t, &mut extra).unwrap().1
    } else {
        commit(params, t).unwrap().1
    };
    view(&ligerito::prove(params, &data, weight.to_vec(), value, &mut tape).unwrap())
}

/// A "generator" that hands out fixed field elements: the test's choice of
/// the mask and salt rows.
struct FixedRows(Vec<Gf128>, usize);

impl rand::RngCore for FixedRows {
    fn next_u32(&mut self) -> u32 {
        unimplemented!("only fill_bytes is used")
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!("only fill_bytes is used")
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.copy_from_slice(&self.0[self.1].to_bytes());
        self.1 += 1;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}
impl rand::CryptoRng for FixedRows {}

/// Whether `target` is in the span of `rows` over GF(2^128) (Gaussian
/// elimination). The span over GF(2) of `{x^b v : b < 128, v in rows}` is
/// the same set, so this is the ZK.md test "over GF(2)".
fn in_span(rows: &[Vec<Gf128>], target: &[Gf128]) -> bool {
    let mut basis: Vec<(usize, Vec<Gf128>)> = Vec::new();
    let reduce = |basis: &[(usize, Vec<Gf128>)], v: &mut Vec<Gf128>| {
        for (p, b) in basis {
            let c = v[*p];
            if !c.is_zero() {
                for (x, y) in v.iter_mut().zip(b) {
                    *x += c * *y;
                }
            }
        }
    };
    for r in rows {
        let mut v = r.clone();
        reduce(&basis, &mut v);
        if let Some(p) = v.iter().position(|x| !x.is_zero()) {
            let inv = v[p].inverse().expect("nonzero");
            for x in v.iter_mut() {
                *x *= inv;
            }
            // Keep the basis reduced: clear `p` from the earlier vectors.
            for (_, b) in basis.iter_mut() {
                let c = b[p];
                if !c.is_zero() {
                    for (x, y) in b.iter_mut().zip(&v) {
                        *x += c * *y;
                    }
                }
            }
            basis.push((p, v));
        }
    }
    let mut t = target.to_vec();
    reduce(&basis, &mut t);
    t.iter().all(|x| x.is_zero())
}

/// Two tables with the same claim: `f` and `f + d`, `<d, w> = 0`, `d` zero
/// on every mask run (those entries are the prover's randomness).
fn same_claim_tables(params: &PcsParams, weight: &[Gf128], seed: u64) -> (Vec<Gf128>, Vec<Gf128>) {
    let mut r = rng(seed);
    let n = 1usize << params.data_vars();
    let m = params.level_log_msg(0);
    let in_run = |i: usize| {
        params
            .mask_run()
            .is_some_and(|run| (i & ((1 << m) - 1)).wrapping_sub(run.offset) < run.len)
    };
    let mut f = random_vec(&mut r, n);
    let mut d = random_vec(&mut r, n);
    for i in 0..n {
        if in_run(i) {
            f[i] = Gf128::ZERO;
            d[i] = Gf128::ZERO;
        }
    }
    // Fix one free entry of `d` so that `<d, w> = 0`.
    let j = (0..n).find(|&i| !in_run(i) && !weight[i].is_zero()).unwrap();
    d[j] = Gf128::ZERO;
    d[j] = dot(&d, weight) * weight[j].inverse().expect("nonzero");
    assert!(dot(&d, weight).is_zero());
    let g = f.iter().zip(&d).map(|(a, b)| *a + *b).collect();
    (f, g)
}

#[test]
fn with_the_challenges_fixed_a_hiding_view_is_the_same_for_two_tables() {
    let params = tiny_hiding();
    let run = params.mask_run().unwrap();
    assert_eq!((run.len, run.offset), (5, 8));
    let m = params.level_log_msg(0);
    let rand_len = params.level0_data_rows() * run.len + (2 << m);
    let mut r = rng(11);
    let weight = eq_table(&random_vec(&mut r, params.data_vars()));
    let zero_data = vec![Gf128::ZERO; 1 << params.data_vars()];
    // The view is F-linear in the table and the randomness together: its
    // linear part in the randomness, one vector per random element.
    let unit = |j: usize| {
        let mut u = vec![Gf128::ZERO; rand_len];
        u[j] = Gf128::ONE;
        u
    };
    let image: Vec<Vec<Gf128>> = (0..rand_len)
        .map(|j| view_with(&params, &zero_data, &unit(j), &weight))
        .collect();
    // Linear indeed: a random combination of the randomness gives the same
    // combination of views.
    let c = random_vec(&mut r, rand_len);
    let combined = view_with(&params, &zero_data, &c, &weight);
    let mut want = vec![Gf128::ZERO; combined.len()];
    for (cj, v) in c.iter().zip(&image) {
        for (w, x) in want.iter_mut().zip(v) {
            *w += *cj * *x;
        }
    }
    assert_eq!(combined, want, "the view is linear in the randomness");
    let none = vec![Gf128::ZERO; rand_len];
    for seed in 0..4 {
        let (f, g) = same_claim_tables(&params, &weight, seed);
        let (vf, vg) = (
            view_with(&params, &f, &none, &weight),
            view_with(&params, &g, &none, &weight),
        );
        assert_ne!(vf, vg);
        let diff: Vec<Gf128> = vf.iter().zip(&vg).map(|(a, b)| *a + *b).collect();
        assert!(
            in_span(&image, &diff),
            "seed {seed}: the randomness cannot explain the difference"
        );
    }
}

#[test]
fn with_the_challenges_fixed_a_plain_view_tells_two_tables_apart() {
    // The same parameters without hiding (3 row variables at level 0): no
    // randomness, and the views of two tables with one claim differ.
    let lv = |k, t| LevelParams {
        log_rows: k,
        log_inv_rate: 2,
        queries: t,
        grinding_bits: 0,
        query_grinding_bits: 0,
    };
    let params = PcsParams::with_levels(7, SecurityProfile::Default, vec![lv(3, 3), lv(2, 3)]).unwrap();
    let weight = eq_table(&random_vec(&mut rng(12), 7));
    for seed in 0..4 {
        let (f, g) = same_claim_tables(&params, &weight, seed);
        assert_ne!(
            view_with(&params, &f, &[], &weight),
            view_with(&params, &g, &[], &weight)
        );
    }
}
