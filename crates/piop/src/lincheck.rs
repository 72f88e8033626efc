//! Lincheck: reduces the zerocheck's claims on `a = A z` and `b = B z` to one
//! claim on `z`, for `A = I_N ⊗ A0`, `B = I_N ⊗ B0` (DESIGN §2.3 step 4).
//!
//! With instance weights `W` and wire point `r_w`,
//! `a_eval = sum_y A0~(r_w, y) zf(y)` where `zf(y) = sum_inst W(inst) z(inst, y)`
//! and `A0~(r_w, y) = sum_wire eq(r_w, wire) A0[wire][y]`. The verifier draws
//! `alpha`; the prover runs a degree-2 product sumcheck over the `k` wire
//! variables of `M(y) zf(y)` with `M = A0~(r_w, .) + alpha B0~(r_w, .)`, sends
//! `zf(r_y)`, and the verifier evaluates `M(r_y)` itself from the sparse rows
//! in O(nnz + 2^k) — independent of the number of instances. What is left is
//! the claim `zf(r_y)` on `z` at instance weights `W` and wire point `r_y`.

use starling_crypto::codec::{put_fields, Reader};
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_poly::multilinear::{eq_table, fold_lowest_in_place};
use starling_poly::sumcheck_round::{product_round, QuadraticRound};

use crate::claims::{fold_instances, EvalClaim, InstanceWeights};
use crate::soundness::log2_error;
use crate::{zerocheck, PiopError, Shape, SparseMatrix, SKIP_VARS};

const LABEL_ALPHA: &[u8] = b"lincheck/alpha";
const LABEL_ROUND: &[u8] = b"lincheck/round";
const LABEL_R: &[u8] = b"lincheck/r";
const LABEL_EVAL: &[u8] = b"lincheck/eval";

/// The two claims the lincheck consumes: at the same instance weights and
/// wire point, `a_eval` on `A z` and `b_eval` on `B z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LincheckClaim {
    /// Instance weights `W`.
    pub weights: InstanceWeights,
    /// Wire point `r_w` (`k` coordinates).
    pub wire_point: Vec<Gf128>,
    /// Claimed value of `A z`.
    pub a_eval: Gf128,
    /// Claimed value of `B z`.
    pub b_eval: Gf128,
}

impl From<&zerocheck::Output> for LincheckClaim {
    fn from(out: &zerocheck::Output) -> Self {
        let (weights, wire_point) = out.split_point(&out.r_prime);
        LincheckClaim {
            weights,
            wire_point,
            a_eval: out.a_eval,
            b_eval: out.b_eval,
        }
    }
}

impl LincheckClaim {
    fn check_shape(&self, shape: Shape) -> Result<(), PiopError> {
        if self.wire_point.len() != shape.k() {
            return Err(PiopError::BadShape("lincheck wire point must have k coordinates"));
        }
        if self.weights.point_hi.len() != shape.n() - SKIP_VARS {
            return Err(PiopError::BadShape(
                "lincheck instance point must have n - 6 coordinates",
            ));
        }
        Ok(())
    }
}

/// A lincheck proof: `2 k + 1` field elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// One degree-2 round message per wire variable, lowest first.
    pub rounds: Vec<QuadraticRound>,
    /// `zf(r_y)`.
    pub zf_eval: Gf128,
}

impl Proof {
    /// Size in bytes of a proof for `shape`.
    pub fn num_bytes(shape: Shape) -> usize {
        16 * (2 * shape.k() + 1)
    }

    /// Appends the proof to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        for r in &self.rounds {
            put_fields(out, &[r.c0, r.c2]);
        }
        put_fields(out, &[self.zf_eval]);
    }

    /// Reads a proof for `shape` from `reader`.
    pub fn read(shape: Shape, reader: &mut Reader<'_>) -> Result<Self, PiopError> {
        let rounds = (0..shape.k())
            .map(|_| {
                Ok(QuadraticRound {
                    c0: reader.field("a lincheck round")?,
                    c2: reader.field("a lincheck round")?,
                })
            })
            .collect::<Result<Vec<_>, PiopError>>()?;
        let zf_eval = reader.field("the lincheck evaluation")?;
        Ok(Proof { rounds, zf_eval })
    }

    /// The proof as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Decodes exactly one proof for `shape`; never panics.
    pub fn from_bytes(shape: Shape, bytes: &[u8]) -> Result<Self, PiopError> {
        let mut reader = Reader::new(bytes);
        let proof = Self::read(shape, &mut reader)?;
        reader.finish()?;
        Ok(proof)
    }
}

/// `M(y) = A0~(r_w, y) + alpha B0~(r_w, y)` for all `y` (prover side).
fn combined_columns(a0: &SparseMatrix, b0: &SparseMatrix, eq_rw: &[Gf128], alpha: Gf128) -> Vec<Gf128> {
    let mut ma = vec![Gf128::ZERO; eq_rw.len()];
    let mut mb = vec![Gf128::ZERO; eq_rw.len()];
    a0.add_transpose_weighted(eq_rw, &mut ma);
    b0.add_transpose_weighted(eq_rw, &mut mb);
    ma.iter().zip(&mb).map(|(x, y)| *x + alpha * *y).collect()
}

/// Proves the two claims of `claim` from the witness words `z`; returns the
/// proof and the remaining claim on `z`. `z` may hold only the witness's
/// first wires (whole wires): the rest are zero, and the fold over the
/// instances does not read them (a circuit's unused wires, 39% of
/// BLAKE3's). Panics on inputs that do not match `shape` (prover-side
/// programming errors).
pub fn prove(
    shape: Shape,
    a0: &SparseMatrix,
    b0: &SparseMatrix,
    z: &[u64],
    claim: &LincheckClaim,
    transcript: &mut Transcript,
) -> (Proof, EvalClaim) {
    claim.check_shape(shape).expect("lincheck claim shape");
    a0.check_square(shape.k()).expect("A0 shape");
    b0.check_square(shape.k()).expect("B0 shape");
    let alpha = transcript.challenge_field(LABEL_ALPHA);
    let mut zf = fold_instances(shape, z, &claim.weights);
    zf.resize(1 << shape.k(), Gf128::ZERO);
    let mut m = combined_columns(a0, b0, &eq_table(&claim.wire_point), alpha);
    let mut rounds = Vec::with_capacity(shape.k());
    let mut r_y = Vec::with_capacity(shape.k());
    for _ in 0..shape.k() {
        let round = product_round(&m, &zf);
        transcript.absorb_fields(LABEL_ROUND, &[round.c0, round.c2]);
        let r = transcript.challenge_field(LABEL_R);
        fold_lowest_in_place(&mut m, r);
        fold_lowest_in_place(&mut zf, r);
        rounds.push(round);
        r_y.push(r);
    }
    let zf_eval = zf[0];
    transcript.absorb_field(LABEL_EVAL, zf_eval);
    let out = EvalClaim {
        weights: claim.weights.clone(),
        wire_point: r_y,
        value: zf_eval,
    };
    (Proof { rounds, zf_eval }, out)
}

/// Everything the verifier derives before its check (tests watch the challenges).
pub(crate) struct Replay {
    pub(crate) alpha: Gf128,
    pub(crate) r_y: Vec<Gf128>,
    pub(crate) final_claim: Gf128,
}

pub(crate) fn replay(
    shape: Shape,
    claim: &LincheckClaim,
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<Replay, PiopError> {
    claim.check_shape(shape)?;
    if proof.rounds.len() != shape.k() {
        return Err(PiopError::WrongLength {
            what: "lincheck rounds",
            expected: shape.k(),
            got: proof.rounds.len(),
        });
    }
    let alpha = transcript.challenge_field(LABEL_ALPHA);
    let mut c = claim.a_eval + alpha * claim.b_eval;
    let mut r_y = Vec::with_capacity(shape.k());
    for round in &proof.rounds {
        transcript.absorb_fields(LABEL_ROUND, &[round.c0, round.c2]);
        let r = transcript.challenge_field(LABEL_R);
        c = round.next_claim(c, r);
        r_y.push(r);
    }
    transcript.absorb_field(LABEL_EVAL, proof.zf_eval);
    Ok(Replay {
        alpha,
        r_y,
        final_claim: c,
    })
}

/// Verifies a lincheck proof against the circuit's matrices; on success
/// returns the claim on `z` at `claim.weights` and wire point `r_y`.
pub fn verify(
    shape: Shape,
    a0: &SparseMatrix,
    b0: &SparseMatrix,
    claim: &LincheckClaim,
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<EvalClaim, PiopError> {
    a0.check_square(shape.k())?;
    b0.check_square(shape.k())?;
    let replay = replay(shape, claim, proof, transcript)?;
    let eq_rw = eq_table(&claim.wire_point);
    let eq_ry = eq_table(&replay.r_y);
    let m_at_r = a0.bilinear(&eq_rw, &eq_ry) + replay.alpha * b0.bilinear(&eq_rw, &eq_ry);
    if replay.final_claim != m_at_r * proof.zf_eval {
        return Err(PiopError::LincheckFinalCheck);
    }
    Ok(EvalClaim {
        weights: claim.weights.clone(),
        wire_point: replay.r_y,
        value: proof.zf_eval,
    })
}

/// The lincheck's soundness error terms, as `(what, log2 of the error)`.
///
/// * Batching `a` and `b` with `alpha`: a false pair makes
///   `a_eval + alpha b_eval - (true values)` a nonzero polynomial of degree 1
///   in `alpha`: `1 / |F|` (Schwartz–Zippel).
/// * Sumcheck over `k` variables of a product of two multilinears: degree 2
///   per round, `2 / |F|` per round (Lund–Fortnow–Karloff–Nisan; Thaler,
///   "Proofs, Arguments, and Zero-Knowledge", §4.1).
pub fn soundness_terms(shape: Shape) -> Vec<(&'static str, f64)> {
    vec![
        ("lincheck alpha batching", log2_error(1.0, 0.0)),
        (
            "lincheck sumcheck rounds",
            log2_error(2.0 * shape.k() as f64, 0.0),
        ),
    ]
}

/// log2 of the lincheck's total soundness error.
pub fn soundness_log2(shape: Shape) -> f64 {
    crate::soundness::log2_sum(&soundness_terms(shape))
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use starling_crypto::codec::DecodeError;
    use starling_poly::multilinear::eq_eval;

    use super::*;
    use crate::claims::evaluate_bits;

    fn rand_field(r: &mut ChaCha8Rng) -> Gf128 {
        Gf128::new(r.gen())
    }

    fn random_matrix(k: usize, r: &mut ChaCha8Rng) -> SparseMatrix {
        let size = 1u32 << k;
        let rows: Vec<Vec<u32>> = (0..size)
            .map(|_| {
                let len = r.gen_range(0..5);
                (0..len).map(|_| r.gen_range(0..size)).collect()
            })
            .collect();
        SparseMatrix::from_rows(&rows)
    }

    /// `(I_N ⊗ M) z` in the word layout.
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

    struct Setup {
        shape: Shape,
        a0: SparseMatrix,
        b0: SparseMatrix,
        z: Vec<u64>,
        claim: LincheckClaim,
    }

    fn setup(n: usize, k: usize, seed: u64) -> Setup {
        let shape = Shape::new(n, k).unwrap();
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let a0 = random_matrix(k, &mut r);
        let b0 = random_matrix(k, &mut r);
        let z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
        let mut low = [Gf128::ZERO; 64];
        low.iter_mut().for_each(|x| *x = rand_field(&mut r));
        let weights = InstanceWeights {
            low,
            point_hi: (0..n - SKIP_VARS).map(|_| rand_field(&mut r)).collect(),
        };
        let wire_point: Vec<Gf128> = (0..k).map(|_| rand_field(&mut r)).collect();
        let a_eval = evaluate_bits(shape, &apply(shape, &a0, &z), &weights, &wire_point);
        let b_eval = evaluate_bits(shape, &apply(shape, &b0, &z), &weights, &wire_point);
        let claim = LincheckClaim {
            weights,
            wire_point,
            a_eval,
            b_eval,
        };
        Setup {
            shape,
            a0,
            b0,
            z,
            claim,
        }
    }

    fn transcript() -> Transcript {
        Transcript::new(b"lincheck-test")
    }

    #[test]
    fn honest_round_trips() {
        for (i, &(n, k)) in [(7, 1), (7, 4), (8, 3), (9, 6)].iter().enumerate() {
            let s = setup(n, k, i as u64);
            let (proof, out) = prove(s.shape, &s.a0, &s.b0, &s.z, &s.claim, &mut transcript());
            let checked = verify(s.shape, &s.a0, &s.b0, &s.claim, &proof, &mut transcript()).unwrap();
            assert_eq!(out, checked);
            assert!(out.holds_for(s.shape, &s.z));
            let bytes = proof.to_bytes();
            assert_eq!(bytes.len(), Proof::num_bytes(s.shape));
            assert_eq!(Proof::from_bytes(s.shape, &bytes).unwrap(), proof);
        }
    }

    #[test]
    fn a_prefix_of_the_wires_proves_the_same() {
        // The top wires zero, as a circuit's unused wires are: the prover
        // given only the wires before them sends the same proof.
        let mut s = setup(7, 5, 21);
        let wpw = s.shape.words_per_wire();
        s.z[20 * wpw..].fill(0);
        s.claim.a_eval = evaluate_bits(
            s.shape,
            &apply(s.shape, &s.a0, &s.z),
            &s.claim.weights,
            &s.claim.wire_point,
        );
        s.claim.b_eval = evaluate_bits(
            s.shape,
            &apply(s.shape, &s.b0, &s.z),
            &s.claim.weights,
            &s.claim.wire_point,
        );
        let full = prove(s.shape, &s.a0, &s.b0, &s.z, &s.claim, &mut transcript());
        for wires in [20, 23, 32] {
            let part = prove(
                s.shape,
                &s.a0,
                &s.b0,
                &s.z[..wires * wpw],
                &s.claim,
                &mut transcript(),
            );
            assert_eq!(part, full, "{wires} wires");
        }
        let out = verify(s.shape, &s.a0, &s.b0, &s.claim, &full.0, &mut transcript()).unwrap();
        assert_eq!(out, full.1);
        assert!(out.holds_for(s.shape, &s.z));
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
        let mut p = proof.clone();
        p.zf_eval = bump(p.zf_eval);
        out.push((proof.rounds.len(), p));
        out
    }

    #[test]
    fn every_altered_message_is_rejected() {
        let s = setup(7, 4, 21);
        let (proof, _) = prove(s.shape, &s.a0, &s.b0, &s.z, &s.claim, &mut transcript());
        for (j, bad) in mutations(&proof) {
            assert_eq!(
                verify(s.shape, &s.a0, &s.b0, &s.claim, &bad, &mut transcript()),
                Err(PiopError::LincheckFinalCheck),
                "message before challenge {j}"
            );
        }
        let mut wrong = s.claim.clone();
        wrong.b_eval += Gf128::ONE;
        assert_eq!(
            verify(s.shape, &s.a0, &s.b0, &wrong, &proof, &mut transcript()),
            Err(PiopError::LincheckFinalCheck)
        );
    }

    #[test]
    fn flipped_witness_bit_is_rejected() {
        let s = setup(8, 5, 22);
        let mut r = ChaCha8Rng::seed_from_u64(23);
        for _ in 0..4 {
            let mut z = s.z.clone();
            let i = r.gen_range(0..z.len());
            z[i] ^= 1 << r.gen_range(0..64);
            // The claims come from the original z; the prover uses the flipped one.
            let (proof, _) = prove(s.shape, &s.a0, &s.b0, &z, &s.claim, &mut transcript());
            assert_eq!(
                verify(s.shape, &s.a0, &s.b0, &s.claim, &proof, &mut transcript()),
                Err(PiopError::LincheckFinalCheck)
            );
        }
    }

    #[test]
    fn each_message_changes_every_later_challenge() {
        let s = setup(7, 4, 24);
        let (proof, _) = prove(s.shape, &s.a0, &s.b0, &s.z, &s.claim, &mut transcript());
        let run = |p: &Proof| {
            let mut t = transcript();
            let rep = replay(s.shape, &s.claim, p, &mut t).unwrap();
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
        let s = setup(7, 2, 25);
        let (proof, _) = prove(s.shape, &s.a0, &s.b0, &s.z, &s.claim, &mut transcript());
        let out_of_range = SparseMatrix::from_rows(&[vec![0u32], vec![4], vec![], vec![]]);
        assert!(matches!(
            verify(s.shape, &out_of_range, &s.b0, &s.claim, &proof, &mut transcript()),
            Err(PiopError::BadMatrix(_))
        ));
        let too_few = SparseMatrix::from_rows(&[vec![0u32]]);
        assert!(matches!(
            verify(s.shape, &s.a0, &too_few, &s.claim, &proof, &mut transcript()),
            Err(PiopError::BadMatrix(_))
        ));
        assert!(SparseMatrix::from_csr(vec![0, 2, 1], vec![0, 0]).is_err());
        assert!(SparseMatrix::from_csr(vec![], vec![]).is_err());
        let mut short = proof.clone();
        short.rounds.pop();
        assert!(matches!(
            verify(s.shape, &s.a0, &s.b0, &s.claim, &short, &mut transcript()),
            Err(PiopError::WrongLength { .. })
        ));
        let bytes = proof.to_bytes();
        assert!(matches!(
            Proof::from_bytes(s.shape, &bytes[..bytes.len() - 3]),
            Err(PiopError::Decode(DecodeError::Truncated(_)))
        ));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x80;
            let p = Proof::from_bytes(s.shape, &bad).unwrap();
            assert!(verify(s.shape, &s.a0, &s.b0, &s.claim, &p, &mut transcript()).is_err());
        }
    }

    #[test]
    fn soundness_terms_match_hand_computation() {
        // k = 15: 1/2^128 and 30/2^128 (log2 30 = 4.906890596); total 31/2^128
        // (log2 31 = 4.954196310).
        let shape = Shape::new(14, 15).unwrap();
        let t = soundness_terms(shape);
        assert!((t[0].1 + 128.0).abs() < 1e-9);
        assert!((t[1].1 - (4.906890596 - 128.0)).abs() < 1e-6);
        assert!((soundness_log2(shape) - (4.954196310 - 128.0)).abs() < 1e-6);
    }
}
