//! The lincheck's prover: claims on `M_j z` reduced to claims on `z` by one
//! degree-2 sumcheck over the wire variables. The protocol, its claim,
//! group and proof types, labels, soundness terms and verifier are
//! `starling_verifier::piop::lincheck`'s (its notes give the steps),
//! re-exported here.

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_poly::multilinear::eq_table;
use starling_poly::sumcheck_round::{fold_pairs, pairs_round, QuadraticRound};

use crate::claims::{fold_instances_many, EvalClaim, InstanceWeights};
use crate::cover::{Cover, Fold};
use crate::Shape;

pub use starling_verifier::piop::lincheck::*;

/// `M_g(y) = sum_{j in g} alpha^j M0_j~(r_g, y)` for every group and all `y`
/// (prover side), `j` numbering the matrices across the groups. The groups
/// are built side by side and each matrix's weights scaled on rayon. On one
/// thread this was all on the critical path of sixteen: sixteen threads on
/// two Zen 1 cores, 2^16 Keccak-f, 4.5 ms (14 in a process's first proof,
/// its buffers faulted in), now 0.8-1.2; SHA-256 2.4-2.6, now 0.5. The
/// transposed products stay on one thread per group (scattered additions).
fn combined_columns(shape: Shape, groups: &[Group<'_>], alpha: Gf128) -> Vec<Vec<Gf128>> {
    // alpha^j of each group's first matrix.
    let firsts: Vec<Gf128> = groups
        .iter()
        .scan(Gf128::ONE, |power, g| {
            let first = *power;
            for _ in g.matrices {
                *power *= alpha;
            }
            Some(first)
        })
        .collect();
    groups
        .par_iter()
        .zip(firsts)
        .map(|(g, mut power)| {
            let eq_rw = eq_table(&g.claim.wire_point);
            let mut m = starling_field::scratch::filled(1 << shape.k(), Gf128::ZERO);
            for matrix in g.matrices {
                let scaled: Vec<Gf128> = eq_rw.par_iter().map(|e| *e * power).collect();
                matrix.add_transpose_weighted(&scaled, &mut m);
                power *= alpha;
            }
            m
        })
        .collect()
}

/// Proves the claims of every group from the witness words `z`; returns the
/// proof and the remaining claims on `z`, one per group, at the group's
/// instance weights and the common wire point `r_y`. `z` may hold only the
/// witness's first wires (whole wires): the rest are zero, and the fold over
/// the instances does not read them (a circuit's unused wires, 39% of
/// BLAKE3's). One pass over `z` folds it for every group
/// ([`fold_instances_many`]). Panics on inputs that do not match `shape`
/// or on a malformed group (prover-side programming errors).
/// The messages go out through `cover` (padded, for zero knowledge); the
/// claims returned hold the true values.
pub fn prove(
    shape: Shape,
    groups: &[Group<'_>],
    z: &[u64],
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
) -> (Proof, Vec<EvalClaim>) {
    check_groups(shape, groups).expect("lincheck groups");
    let alpha = transcript.challenge_field(LABEL_ALPHA);
    let weights: Vec<&InstanceWeights> = groups.iter().map(|g| &g.claim.weights).collect();
    let mut zf = fold_instances_many(shape, z, &weights);
    for f in &mut zf {
        f.resize(1 << shape.k(), Gf128::ZERO);
    }
    // Per group, its combined columns and its fold of `z`.
    let mut tables: Vec<(Vec<Gf128>, Vec<Gf128>)> = combined_columns(shape, groups, alpha)
        .into_iter()
        .zip(zf)
        .collect();
    for (g, (weights, values)) in tables.iter_mut().enumerate() {
        cover.fold(Fold::Lincheck(g), weights, values);
    }
    let mut rounds = Vec::with_capacity(shape.k());
    let mut r_y = Vec::with_capacity(shape.k());
    for _ in 0..shape.k() {
        let round = pairs_round(&tables);
        let sent = QuadraticRound {
            c0: cover.cover(round.c0),
            c2: cover.cover(round.c2),
        };
        transcript.absorb_fields(LABEL_ROUND, &[sent.c0, sent.c2]);
        let r = transcript.challenge_field(LABEL_R);
        fold_pairs(&mut tables, r);
        rounds.push(sent);
        r_y.push(r);
    }
    let zf_evals: Vec<Gf128> = tables.iter().map(|(_, f)| f[0]).collect();
    let zf_sent: Vec<Gf128> = zf_evals.iter().map(|&x| cover.cover(x)).collect();
    transcript.absorb_fields(LABEL_EVAL, &zf_sent);
    let out = groups
        .iter()
        .zip(&zf_evals)
        .map(|(g, &value)| EvalClaim {
            weights: g.claim.weights.clone(),
            wire_point: r_y.clone(),
            value,
        })
        .collect();
    (
        Proof {
            rounds,
            zf_evals: zf_sent,
        },
        out,
    )
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use starling_crypto::codec::DecodeError;
    use starling_poly::multilinear::eq_eval;

    use super::*;
    use crate::claims::evaluate_bits;
    use crate::cover::Plain;
    use crate::{PiopError, SparseMatrix, SKIP_VARS};

    fn rand_field(r: &mut ChaCha8Rng) -> Gf128 {
        Gf128::new(r.gen())
    }

    fn random_rows(k: usize, r: &mut ChaCha8Rng) -> Vec<Vec<u32>> {
        let size = 1u32 << k;
        (0..size)
            .map(|_| {
                let len = r.gen_range(0..5);
                (0..len).map(|_| r.gen_range(0..size)).collect()
            })
            .collect()
    }

    fn random_matrix(k: usize, r: &mut ChaCha8Rng) -> SparseMatrix {
        SparseMatrix::from_rows(&random_rows(k, r))
    }

    /// `I ⊕ N` for a random sparse `N`, the shape of `C0`.
    fn identity_plus_random(k: usize, r: &mut ChaCha8Rng) -> SparseMatrix {
        let mut rows = random_rows(k, r);
        for (i, row) in rows.iter_mut().enumerate() {
            row.insert(0, i as u32);
        }
        SparseMatrix::from_rows(&rows)
    }

    /// `(I_N ⊗ M) z` in the word layout (`z` all `2^k` wires).
    fn apply(shape: Shape, m: &SparseMatrix, z: &[u64]) -> Vec<u64> {
        let wpw = shape.words_per_wire();
        let mut out = vec![0u64; z.len()];
        for wire in 0..m.num_rows() {
            for &c in m.row(wire) {
                for w in 0..wpw {
                    out[wire * wpw + w] ^= z[c as usize * wpw + w];
                }
            }
        }
        out
    }

    /// Groups of matrices with true claims on a random `z`.
    #[derive(Clone)]
    struct Setup {
        shape: Shape,
        /// The matrices of each group.
        matrices: Vec<Vec<SparseMatrix>>,
        z: Vec<u64>,
        claims: Vec<LincheckClaim>,
    }

    impl Setup {
        /// The matrix references [`Setup::groups`] borrows.
        fn refs(&self) -> Vec<Vec<&SparseMatrix>> {
            self.matrices.iter().map(|g| g.iter().collect()).collect()
        }

        fn groups<'a>(&'a self, refs: &'a [Vec<&'a SparseMatrix>]) -> Vec<Group<'a>> {
            refs.iter()
                .zip(&self.claims)
                .map(|(matrices, claim)| Group { matrices, claim })
                .collect()
        }

        /// Makes every claim true for the current `z`.
        fn recompute_claims(&mut self) {
            for (claim, matrices) in self.claims.iter_mut().zip(&self.matrices) {
                claim.evals = matrices
                    .iter()
                    .map(|m| {
                        evaluate_bits(
                            self.shape,
                            &apply(self.shape, m, &self.z),
                            &claim.weights,
                            &claim.wire_point,
                        )
                    })
                    .collect();
            }
        }

        fn prove(&self, z: &[u64]) -> (Proof, Vec<EvalClaim>) {
            let refs = self.refs();
            prove(self.shape, &self.groups(&refs), z, &mut transcript(), &mut Plain)
        }

        fn verify(&self, proof: &Proof) -> Result<Vec<EvalClaim>, PiopError> {
            let refs = self.refs();
            verify(self.shape, &self.groups(&refs), proof, &mut transcript())
        }
    }

    /// `sizes[g]` matrices in group `g`. Group 0's are random; later groups
    /// hold `I ⊕ N` matrices (as `C0` is) and share group 0's low instance
    /// weights at another point (as the zerocheck's `tau'` claim shares
    /// `L_y(r0)` with its `r'` claims).
    fn setup(n: usize, k: usize, sizes: &[usize], seed: u64) -> Setup {
        let shape = Shape::new(n, k).unwrap();
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let mut low = [Gf128::ZERO; 64];
        low.iter_mut().for_each(|x| *x = rand_field(&mut r));
        let mut matrices = Vec::new();
        let mut claims = Vec::new();
        for (g, &size) in sizes.iter().enumerate() {
            matrices.push(
                (0..size)
                    .map(|_| {
                        if g == 0 {
                            random_matrix(k, &mut r)
                        } else {
                            identity_plus_random(k, &mut r)
                        }
                    })
                    .collect(),
            );
            claims.push(LincheckClaim {
                weights: InstanceWeights {
                    low,
                    point_hi: (0..n - SKIP_VARS).map(|_| rand_field(&mut r)).collect(),
                },
                wire_point: (0..k).map(|_| rand_field(&mut r)).collect(),
                evals: Vec::new(),
            });
        }
        let z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
        let mut s = Setup {
            shape,
            matrices,
            z,
            claims,
        };
        s.recompute_claims();
        s
    }

    fn transcript() -> Transcript {
        Transcript::new(b"lincheck-test")
    }

    const LAYOUTS: [&[usize]; 4] = [&[2], &[2, 1], &[1], &[1, 3, 2]];

    #[test]
    fn honest_round_trips() {
        for (i, &(n, k)) in [(7, 1), (7, 4), (8, 3), (9, 6)].iter().enumerate() {
            for (j, sizes) in LAYOUTS.iter().enumerate() {
                let s = setup(n, k, sizes, (10 * i + j) as u64);
                let (proof, out) = s.prove(&s.z);
                let checked = s.verify(&proof).unwrap();
                assert_eq!(out, checked);
                assert_eq!(out.len(), sizes.len());
                for (claim, group) in out.iter().zip(&s.claims) {
                    assert!(crate::claims::holds(claim, s.shape, &s.z));
                    assert_eq!(claim.weights, group.weights);
                    assert_eq!(claim.wire_point, out[0].wire_point);
                }
                let bytes = proof.to_bytes();
                assert_eq!(bytes.len(), Proof::num_bytes(s.shape, sizes.len()));
                assert_eq!(Proof::from_bytes(s.shape, sizes.len(), &bytes).unwrap(), proof);
            }
        }
    }

    #[test]
    fn powers_of_alpha_run_across_groups() {
        // [A0, B0] in one group, or [A0] and [B0] in two groups at the same
        // point: the same batched polynomial, so the same rounds; only the
        // number of zf evaluations (equal here) differs.
        let s = setup(8, 4, &[2], 30);
        let (one, _) = s.prove(&s.z);
        let split = Setup {
            shape: s.shape,
            matrices: s.matrices[0].iter().map(|m| vec![m.clone()]).collect(),
            z: s.z.clone(),
            claims: s.claims[0]
                .evals
                .iter()
                .map(|&v| LincheckClaim {
                    evals: vec![v],
                    ..s.claims[0].clone()
                })
                .collect(),
        };
        let (two, out) = split.prove(&split.z);
        assert_eq!(two.rounds, one.rounds);
        assert_eq!(two.zf_evals, vec![one.zf_evals[0]; 2]);
        assert_eq!(split.verify(&two).unwrap(), out);
        // The order of the groups is the order of the powers.
        let mut swapped = split.claims.clone();
        swapped.swap(0, 1);
        let refs = split.refs();
        let groups = [
            Group {
                matrices: &refs[0],
                claim: &swapped[0],
            },
            Group {
                matrices: &refs[1],
                claim: &swapped[1],
            },
        ];
        assert_eq!(
            verify(s.shape, &groups, &two, &mut transcript()),
            Err(PiopError::LincheckFinalCheck)
        );
    }

    #[test]
    fn a_prefix_of_the_wires_proves_the_same() {
        // The top wires zero, as a circuit's unused wires are: the prover
        // given only the wires before them sends the same proof.
        let mut s = setup(7, 5, &[2, 1], 21);
        let wpw = s.shape.words_per_wire();
        s.z[20 * wpw..].fill(0);
        s.recompute_claims();
        let full = s.prove(&s.z);
        for wires in [20, 23, 32] {
            assert_eq!(s.prove(&s.z[..wires * wpw]), full, "{wires} wires");
        }
        let out = s.verify(&full.0).unwrap();
        assert_eq!(out, full.1);
        assert!(out.iter().all(|c| crate::claims::holds(c, s.shape, &s.z)));
    }

    #[test]
    fn verifier_matrix_evaluation_matches_dense() {
        let mut r = ChaCha8Rng::seed_from_u64(9);
        let k = 4;
        let m = random_matrix(k, &mut r);
        let rw: Vec<Gf128> = (0..k).map(|_| rand_field(&mut r)).collect();
        let ry: Vec<Gf128> = (0..k).map(|_| rand_field(&mut r)).collect();
        let bits = |v: usize| -> Vec<Gf128> { (0..k).map(|i| Gf128::from((v >> i) & 1 == 1)).collect() };
        let mut dense = Gf128::ZERO;
        for wire in 0..1 << k {
            for y in 0..1usize << k {
                // Entry = parity of occurrences of y in the row (XOR semantics).
                let count = m.row(wire).iter().filter(|&&c| c as usize == y).count();
                if count % 2 == 1 {
                    dense += eq_eval(&rw, &bits(wire)) * eq_eval(&ry, &bits(y));
                }
            }
        }
        assert_eq!(m.bilinear(&eq_table(&rw), &eq_table(&ry)), dense);
    }

    fn mutations(proof: &Proof) -> Vec<(usize, Proof)> {
        // (index of the first challenge after the message in the list
        // [r_0, .., r_{k-1}], mutated proof)
        let bump = |x: Gf128| x + Gf128::new(3 << 40);
        let mut out = Vec::new();
        for j in 0..proof.rounds.len() {
            let mut p = proof.clone();
            p.rounds[j].c0 = bump(p.rounds[j].c0);
            out.push((j, p));
            let mut p = proof.clone();
            p.rounds[j].c2 = bump(p.rounds[j].c2);
            out.push((j, p));
        }
        for g in 0..proof.zf_evals.len() {
            let mut p = proof.clone();
            p.zf_evals[g] = bump(p.zf_evals[g]);
            out.push((proof.rounds.len(), p));
        }
        out
    }

    #[test]
    fn every_altered_message_is_rejected() {
        for (i, sizes) in LAYOUTS.iter().enumerate() {
            let s = setup(7, 4, sizes, 21 + i as u64);
            let (proof, _) = s.prove(&s.z);
            let all = mutations(&proof);
            assert_eq!(all.len(), 2 * 4 + sizes.len());
            for (j, bad) in all {
                assert_eq!(
                    s.verify(&bad),
                    Err(PiopError::LincheckFinalCheck),
                    "{sizes:?}: message before challenge {j}"
                );
            }
        }
    }

    #[test]
    fn a_false_claim_in_any_group_is_rejected() {
        let s = setup(7, 4, &[2, 1], 26);
        let (proof, _) = s.prove(&s.z);
        for g in 0..s.claims.len() {
            for j in 0..s.claims[g].evals.len() {
                let mut wrong = s.clone();
                wrong.claims[g].evals[j] += Gf128::ONE;
                assert_eq!(
                    wrong.verify(&proof),
                    Err(PiopError::LincheckFinalCheck),
                    "group {g}, claim {j}"
                );
                // Nor can the prover, given the false claim, make it pass.
                let (forged, _) = wrong.prove(&wrong.z);
                assert_eq!(
                    wrong.verify(&forged),
                    Err(PiopError::LincheckFinalCheck),
                    "group {g}, claim {j}, proved"
                );
            }
        }
    }

    #[test]
    fn flipped_witness_bit_is_rejected() {
        let s = setup(8, 5, &[2, 1], 22);
        let mut r = ChaCha8Rng::seed_from_u64(23);
        for _ in 0..4 {
            let mut z = s.z.clone();
            let i = r.gen_range(0..z.len());
            z[i] ^= 1 << r.gen_range(0..64);
            // The claims come from the original z; the prover uses the flipped one.
            let (proof, _) = s.prove(&z);
            assert_eq!(s.verify(&proof), Err(PiopError::LincheckFinalCheck));
        }
    }

    #[test]
    fn each_message_changes_every_later_challenge() {
        let s = setup(7, 4, &[2, 1], 24);
        let (proof, _) = s.prove(&s.z);
        let refs = s.refs();
        let groups = s.groups(&refs);
        let run = |p: &Proof| {
            let mut t = transcript();
            let rep = replay(s.shape, &groups, p, &mut t).unwrap();
            (rep.alpha, rep.r_y, t.state())
        };
        let (alpha, base, state) = run(&proof);
        for (first, bad) in mutations(&proof) {
            let (a2, r2, st2) = run(&bad);
            assert_eq!(a2, alpha);
            assert_ne!(st2, state);
            for c in 0..base.len() {
                assert_eq!(
                    c < first,
                    r2[c] == base[c],
                    "challenge {c}, first changed {first}"
                );
            }
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let s = setup(7, 2, &[2, 1], 25);
        let (proof, _) = s.prove(&s.z);
        let refs = s.refs();
        let (a0, b0, c0) = (refs[0][0], refs[0][1], refs[1][0]);
        let (ab, c) = (&s.claims[0], &s.claims[1]);
        let check = |groups: &[Group<'_>], p: &Proof| verify(s.shape, groups, p, &mut transcript());
        let out_of_range = SparseMatrix::from_rows(&[vec![0u32], vec![4], vec![], vec![]]);
        let bad_a = [&out_of_range, b0];
        assert!(matches!(
            check(
                &[
                    Group {
                        matrices: &bad_a,
                        claim: ab
                    },
                    Group {
                        matrices: &[c0],
                        claim: c
                    }
                ],
                &proof
            ),
            Err(PiopError::BadMatrix(_))
        ));
        let too_few = SparseMatrix::from_rows(&[vec![0u32]]);
        assert!(matches!(
            check(
                &[
                    Group {
                        matrices: &[a0, b0],
                        claim: ab
                    },
                    Group {
                        matrices: &[&too_few],
                        claim: c
                    }
                ],
                &proof
            ),
            Err(PiopError::BadMatrix(_))
        ));
        // Matrices and claimed values differ in number, or a group is empty.
        for (first, second) in [
            (&[a0][..], &[c0][..]),
            (&[a0, b0][..], &[c0, c0][..]),
            (&[a0, b0, c0][..], &[c0][..]),
            (&[a0, b0][..], &[][..]),
        ] {
            assert!(matches!(
                check(
                    &[
                        Group {
                            matrices: first,
                            claim: ab
                        },
                        Group {
                            matrices: second,
                            claim: c
                        }
                    ],
                    &proof
                ),
                Err(PiopError::BadShape(_))
            ));
        }
        let empty = LincheckClaim {
            evals: Vec::new(),
            ..c.clone()
        };
        assert!(matches!(
            check(
                &[
                    Group {
                        matrices: &[a0, b0],
                        claim: ab
                    },
                    Group {
                        matrices: &[],
                        claim: &empty
                    }
                ],
                &proof
            ),
            Err(PiopError::BadShape(_))
        ));
        assert!(matches!(check(&[], &proof), Err(PiopError::BadShape(_))));
        let mut short_point = c.clone();
        short_point.wire_point.pop();
        assert!(matches!(
            check(
                &[
                    Group {
                        matrices: &[a0, b0],
                        claim: ab
                    },
                    Group {
                        matrices: &[c0],
                        claim: &short_point
                    }
                ],
                &proof
            ),
            Err(PiopError::BadShape(_))
        ));
        assert!(SparseMatrix::from_csr(vec![0, 2, 1], vec![0, 0]).is_err());
        assert!(SparseMatrix::from_csr(vec![], vec![]).is_err());
        let groups = s.groups(&refs);
        let mut short = proof.clone();
        short.rounds.pop();
        assert!(matches!(
            check(&groups, &short),
            Err(PiopError::WrongLength { .. })
        ));
        let mut one_eval = proof.clone();
        one_eval.zf_evals.pop();
        assert!(matches!(
            check(&groups, &one_eval),
            Err(PiopError::WrongLength { .. })
        ));
        // A proof for one group checked against two.
        assert!(matches!(
            check(&groups[..1], &proof),
            Err(PiopError::WrongLength { .. })
        ));
        let bytes = proof.to_bytes();
        assert!(matches!(
            Proof::from_bytes(s.shape, 2, &bytes[..bytes.len() - 3]),
            Err(PiopError::Decode(DecodeError::Truncated(_)))
        ));
        assert!(matches!(
            Proof::from_bytes(s.shape, 3, &bytes),
            Err(PiopError::Decode(DecodeError::Truncated(_)))
        ));
        assert!(matches!(
            Proof::from_bytes(s.shape, 1, &bytes),
            Err(PiopError::Decode(DecodeError::TrailingBytes(16)))
        ));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x80;
            let p = Proof::from_bytes(s.shape, 2, &bad).unwrap();
            assert!(check(&groups, &p).is_err());
        }
    }

    #[test]
    #[should_panic(expected = "lincheck groups")]
    fn the_prover_panics_on_a_malformed_group() {
        let s = setup(7, 2, &[2], 27);
        let refs = s.refs();
        let group = Group {
            matrices: &refs[0][..1],
            claim: &s.claims[0],
        };
        let _ = prove(s.shape, &[group], &s.z, &mut transcript(), &mut Plain);
    }

    #[test]
    fn soundness_terms_match_hand_computation() {
        let shape = Shape::new(14, 15).unwrap();
        // k = 15, three claims (a, b and c): batching 2/2^128, rounds
        // 30/2^128 (log2 30 = 4.906890596); total 32/2^128 = 2^-123.
        let t = soundness_terms(shape, 3);
        assert_eq!(t.len(), 2);
        assert!((t[0].1 - (1.0 - 128.0)).abs() < 1e-9);
        assert!((t[1].1 - (4.906890596 - 128.0)).abs() < 1e-6);
        assert!((soundness_log2(shape, 3) - (5.0 - 128.0)).abs() < 1e-9);
        // Two claims: 1/2^128 and 30/2^128; total 31/2^128 (log2 31 = 4.954196310).
        let t = soundness_terms(shape, 2);
        assert!((t[0].1 + 128.0).abs() < 1e-9);
        assert!((soundness_log2(shape, 2) - (4.954196310 - 128.0)).abs() < 1e-6);
        // One claim: nothing batched, the rounds alone.
        let t = soundness_terms(shape, 1);
        assert_eq!(t.len(), 1);
        assert!((soundness_log2(shape, 1) - (4.906890596 - 128.0)).abs() < 1e-6);
    }
}
