//! Lincheck: reduces claims on `M_j z`, for matrices `M_j = I_N ⊗ M0_j` of
//! one instance's `K x K` sparse `M0_j`, to claims on `z` (DESIGN §2.3 step
//! 4). The zerocheck leaves two groups of such claims: on `A z` and `B z` at
//! `(r0, r')`, and on `c = C z` at `(r0, tau')`.
//!
//! A group `g` holds claims at one point, instance weights `W_g` and wire
//! point `r_g`: its `j`-th claim says
//! `v_j = sum_y M0_j~(r_g, y) zf_g(y)` with `zf_g(y) = sum_inst W_g(inst) z(inst, y)`
//! and `M0_j~(r, y) = sum_wire eq(r, wire) M0_j[wire][y]`. The verifier draws
//! `alpha` and the claims, numbered across the groups in order, are batched
//! as `sum_j alpha^j v_j`. That is the sum over the `k` wire variables of
//! `sum_g M_g(y) zf_g(y)` with `M_g = sum_{j in g} alpha^j M0_j~(r_g, .)`,
//! which the prover proves with a degree-2 product sumcheck (Thaler,
//! "Proofs, Arguments, and Zero-Knowledge", §4.1; one sum of products, so
//! each round is still one [`QuadraticRound`]). It then sends `zf_g(r_y)`
//! for every group, and the verifier evaluates every `M_g(r_y)` itself from
//! the sparse rows in O(nnz + 2^k) per matrix, independent of the number of
//! instances. What is left is one claim per group: `zf_g(r_y)` on `z` at
//! instance weights `W_g` and wire point `r_y`.

use alloc::vec;
use alloc::vec::Vec;

use super::claims::{EvalClaim, InstanceWeights};
use super::soundness::log2_error;
use super::{zerocheck, PiopError, Shape, SparseMatrix, SKIP_VARS};
use crate::codec::{put_fields, Reader};
use crate::poly::{eq_table, next_claim, QuadraticRound};
use crate::zk::veiled::{Channel, Clear};
use crate::{Gf128, Transcript};

pub const LABEL_ALPHA: &[u8] = b"lincheck/alpha";
pub const LABEL_ROUND: &[u8] = b"lincheck/round";
pub const LABEL_R: &[u8] = b"lincheck/r";
pub const LABEL_EVAL: &[u8] = b"lincheck/eval";

/// Claims on the products of several matrices with `z`, all at the same
/// instance weights and wire point: `evals[j]` is the claimed value of
/// `M_j z`, `M_j = I_N ⊗ M0_j` the `j`-th matrix of its [`Group`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LincheckClaim<V = Gf128> {
    /// Instance weights `W`.
    pub weights: InstanceWeights,
    /// Wire point `r_w` (`k` coordinates).
    pub wire_point: Vec<Gf128>,
    /// Claimed values, one per matrix of the group.
    pub evals: Vec<V>,
}

impl<V> LincheckClaim<V> {
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

impl<V: Clone> LincheckClaim<V> {
    /// The zerocheck's claims on `A z` and `B z`: at `(r0, r')`, values
    /// `[a_eval, b_eval]` (matrices `[A0, B0]`).
    pub fn ab_from(out: &zerocheck::Output<V>) -> Self {
        let (weights, wire_point) = out.split_point(&out.r_prime);
        LincheckClaim {
            weights,
            wire_point,
            evals: vec![out.a_eval.clone(), out.b_eval.clone()],
        }
    }

    /// The zerocheck's claim on `c = C z`: at `(r0, tau')`, value
    /// `[c_value]` (matrix `[C0]`).
    pub fn c_from(out: &zerocheck::Output<V>) -> Self {
        let (weights, wire_point) = out.split_point(&out.tau_prime);
        LincheckClaim {
            weights,
            wire_point,
            evals: vec![out.c_value.clone()],
        }
    }
}

/// A `K x K` matrix as the lincheck's verifier reads it: its bilinear
/// form at two weight vectors. A circuit's [`SparseMatrix`], or one moved
/// around a zero-knowledge batch's holes without being built
/// (`crate::zk::PlacedMatrix`).
pub trait Matrix: Sync {
    /// Checks that the matrix is `2^k x 2^k`.
    fn check_square(&self, k: usize) -> Result<(), PiopError>;
    /// `sum_i row_weights[i] * sum_{y in row i} col_weights[y]`.
    fn bilinear(&self, row_weights: &[Gf128], col_weights: &[Gf128]) -> Gf128;
    /// The column weights as the matrix reads them, when it reads them
    /// moved (`crate::zk::PlacedMatrix`): gathered once for all the
    /// matrices of one lincheck, which share their layout. `None`: it
    /// reads them as they are.
    fn read_columns(&self, _col_weights: &[Gf128]) -> Option<Vec<Gf128>> {
        None
    }
    /// [`Matrix::bilinear`], given what [`Matrix::read_columns`] of a
    /// matrix of the same lincheck made of `col_weights`.
    fn bilinear_read(&self, row_weights: &[Gf128], col_weights: &[Gf128], _read: Option<&[Gf128]>) -> Gf128 {
        self.bilinear(row_weights, col_weights)
    }
}

impl Matrix for SparseMatrix {
    fn check_square(&self, k: usize) -> Result<(), PiopError> {
        SparseMatrix::check_square(self, k)
    }

    fn bilinear(&self, row_weights: &[Gf128], col_weights: &[Gf128]) -> Gf128 {
        SparseMatrix::bilinear(self, row_weights, col_weights)
    }
}

impl<M: Matrix + ?Sized> Matrix for &M {
    fn check_square(&self, k: usize) -> Result<(), PiopError> {
        (**self).check_square(k)
    }

    fn bilinear(&self, row_weights: &[Gf128], col_weights: &[Gf128]) -> Gf128 {
        (**self).bilinear(row_weights, col_weights)
    }

    fn read_columns(&self, col_weights: &[Gf128]) -> Option<Vec<Gf128>> {
        (**self).read_columns(col_weights)
    }

    fn bilinear_read(&self, row_weights: &[Gf128], col_weights: &[Gf128], read: Option<&[Gf128]>) -> Gf128 {
        (**self).bilinear_read(row_weights, col_weights, read)
    }
}

/// One group of the lincheck: the matrices `M0_j` of one instance and the
/// claims on `M_j z` at one point (`matrices.len() == claim.evals.len() >= 1`).
/// The prover's are [`SparseMatrix`]es; a verifier may read any [`Matrix`].
#[derive(Clone, Copy)]
pub struct Group<'a, V = Gf128, M: ?Sized = SparseMatrix> {
    /// The group's `K x K` matrices, in the order of `claim.evals`.
    pub matrices: &'a [&'a M],
    /// The claims, one per matrix, at the group's point.
    pub claim: &'a LincheckClaim<V>,
}

/// Checks that there is at least one group, that each has as many matrices
/// as claimed values (at least one), and that every point and matrix fits
/// `shape`.
pub fn check_groups<V, M: Matrix + ?Sized>(
    shape: Shape,
    groups: &[Group<'_, V, M>],
) -> Result<(), PiopError> {
    if groups.is_empty() {
        return Err(PiopError::BadShape("the lincheck needs at least one group"));
    }
    for g in groups {
        if g.matrices.is_empty() || g.matrices.len() != g.claim.evals.len() {
            return Err(PiopError::BadShape(
                "a lincheck group needs one claimed value per matrix, and at least one matrix",
            ));
        }
        g.claim.check_shape(shape)?;
        for m in g.matrices {
            m.check_square(shape.k())?;
        }
    }
    Ok(())
}

/// A lincheck proof: `2 k + groups` field elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// One degree-2 round message per wire variable, lowest first.
    pub rounds: Vec<QuadraticRound>,
    /// `zf_g(r_y)`, one per group, in order.
    pub zf_evals: Vec<Gf128>,
}

impl Proof {
    /// Size in bytes of a proof for `shape` and `groups` groups.
    pub fn num_bytes(shape: Shape, groups: usize) -> usize {
        16 * (2 * shape.k() + groups)
    }

    /// Appends the proof to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        for r in &self.rounds {
            put_fields(out, &[r.c0, r.c2]);
        }
        put_fields(out, &self.zf_evals);
    }

    /// Reads a proof for `shape` and `groups` groups from `reader`.
    pub fn read(shape: Shape, groups: usize, reader: &mut Reader<'_>) -> Result<Self, PiopError> {
        let rounds = (0..shape.k())
            .map(|_| {
                Ok(QuadraticRound {
                    c0: reader.field("a lincheck round")?,
                    c2: reader.field("a lincheck round")?,
                })
            })
            .collect::<Result<Vec<_>, PiopError>>()?;
        let zf_evals = reader.fields(groups, "the lincheck evaluations")?;
        Ok(Proof { rounds, zf_evals })
    }

    /// The proof as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 * (2 * self.rounds.len() + self.zf_evals.len()));
        self.write(&mut out);
        out
    }

    /// Decodes exactly one proof for `shape` and `groups` groups; never panics.
    pub fn from_bytes(shape: Shape, groups: usize, bytes: &[u8]) -> Result<Self, PiopError> {
        let mut reader = Reader::new(bytes);
        let proof = Self::read(shape, groups, &mut reader)?;
        reader.finish()?;
        Ok(proof)
    }
}

/// Everything the verifier derives before its check (tests watch the challenges).
pub struct Replay<V = Gf128> {
    /// The batching challenge.
    pub alpha: Gf128,
    /// The sumcheck point over the wire variables.
    pub r_y: Vec<Gf128>,
    /// The reduced claim after the last round.
    pub final_claim: V,
    /// `zf_g(r_y)` as the verifier holds them.
    pub zf_evals: Vec<V>,
}

/// The verifier's pass over the proof: the challenges and the reduced
/// claim, without the final check.
pub fn replay(
    shape: Shape,
    groups: &[Group<'_>],
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<Replay, PiopError> {
    replay_via(shape, groups, proof, transcript, &mut Clear)
}

/// [`replay`] with the messages reaching the verifier through `channel`
/// (padded, for zero knowledge).
pub fn replay_via<C: Channel, M: Matrix + ?Sized>(
    shape: Shape,
    groups: &[Group<'_, C::Value, M>],
    proof: &Proof,
    transcript: &mut Transcript,
    channel: &mut C,
) -> Result<Replay<C::Value>, PiopError> {
    check_groups(shape, groups)?;
    if proof.rounds.len() != shape.k() {
        return Err(PiopError::WrongLength {
            what: "lincheck rounds",
            expected: shape.k(),
            got: proof.rounds.len(),
        });
    }
    if proof.zf_evals.len() != groups.len() {
        return Err(PiopError::WrongLength {
            what: "lincheck evaluations",
            expected: groups.len(),
            got: proof.zf_evals.len(),
        });
    }
    let alpha = transcript.challenge_field(LABEL_ALPHA);
    let mut c = C::Value::from(Gf128::ZERO);
    let mut power = Gf128::ONE;
    for v in groups.iter().flat_map(|g| &g.claim.evals) {
        c += v.clone() * power;
        power *= alpha;
    }
    let mut r_y = Vec::with_capacity(shape.k());
    for round in &proof.rounds {
        transcript.absorb_fields(LABEL_ROUND, &[round.c0, round.c2]);
        let r = transcript.challenge_field(LABEL_R);
        c = next_claim(channel.receive(round.c0), channel.receive(round.c2), c, r);
        r_y.push(r);
    }
    transcript.absorb_fields(LABEL_EVAL, &proof.zf_evals);
    let zf_evals = proof.zf_evals.iter().map(|&x| channel.receive(x)).collect();
    Ok(Replay {
        alpha,
        r_y,
        final_claim: c,
        zf_evals,
    })
}

/// Verifies a lincheck proof against the circuit's matrices; on success
/// returns the claims on `z`, one per group: at the group's instance weights
/// and wire point `r_y`, value `zf_g(r_y)`.
pub fn verify(
    shape: Shape,
    groups: &[Group<'_>],
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<Vec<EvalClaim>, PiopError> {
    verify_via(shape, groups, proof, transcript, &mut Clear)
}

/// [`verify`] with the messages reaching the verifier through `channel`;
/// veiled, the final check is a constraint on the pads.
pub fn verify_via<C: Channel, M: Matrix + ?Sized>(
    shape: Shape,
    groups: &[Group<'_, C::Value, M>],
    proof: &Proof,
    transcript: &mut Transcript,
    channel: &mut C,
) -> Result<Vec<EvalClaim<C::Value>>, PiopError> {
    let replay = replay_via(shape, groups, proof, transcript, channel)?;
    let eq_ry = eq_table(&replay.r_y);
    let read = groups
        .first()
        .and_then(|g| g.matrices.first())
        .and_then(|m| m.read_columns(&eq_ry));
    // One eq table per distinct wire point.
    let mut eq_tables: Vec<(&[Gf128], Vec<Gf128>)> = Vec::new();
    let mut expected = C::Value::from(Gf128::ZERO);
    let mut power = Gf128::ONE;
    for (g, zf) in groups.iter().zip(&replay.zf_evals) {
        let point = g.claim.wire_point.as_slice();
        let at = match eq_tables.iter().position(|(p, _)| *p == point) {
            Some(i) => i,
            None => {
                eq_tables.push((point, eq_table(point)));
                eq_tables.len() - 1
            }
        };
        let eq_rw = &eq_tables[at].1;
        let mut m_at_r = Gf128::ZERO;
        for matrix in g.matrices {
            m_at_r += power * matrix.bilinear_read(eq_rw, &eq_ry, read.as_deref());
            power *= replay.alpha;
        }
        expected += zf.clone() * m_at_r;
    }
    if !channel.require(replay.final_claim, expected) {
        return Err(PiopError::LincheckFinalCheck);
    }
    Ok(groups
        .iter()
        .zip(replay.zf_evals)
        .map(|(g, value)| EvalClaim {
            weights: g.claim.weights.clone(),
            wire_point: replay.r_y.clone(),
            value,
        })
        .collect())
}

/// The lincheck's soundness error terms for `claims` claimed values in all
/// (over every group), as `(what, log2 of the error)`.
///
/// * Batching with powers of `alpha`: if some claimed `v_j` is false, the
///   batched claim minus the true batched value, `sum_j alpha^j (v_j - true_j)`,
///   is a nonzero polynomial of degree at most `claims - 1` in `alpha`:
///   `(claims - 1) / |F|` (Schwartz–Zippel). With one claim nothing is
///   batched and the term is left out.
/// * Sumcheck over `k` variables of a sum of products of two multilinears:
///   degree 2 per round, `2 / |F|` per round (Lund–Fortnow–Karloff–Nisan;
///   Thaler, "Proofs, Arguments, and Zero-Knowledge", §4.1).
pub fn soundness_terms(shape: Shape, claims: usize) -> Vec<(&'static str, f64)> {
    let mut terms = Vec::with_capacity(2);
    if claims > 1 {
        terms.push(("lincheck alpha batching", log2_error((claims - 1) as f64, 0.0)));
    }
    terms.push((
        "lincheck sumcheck rounds",
        log2_error(2.0 * shape.k() as f64, 0.0),
    ));
    terms
}

/// log2 of the lincheck's total soundness error for `claims` claimed values.
pub fn soundness_log2(shape: Shape, claims: usize) -> f64 {
    super::soundness::log2_sum(&soundness_terms(shape, claims))
}
