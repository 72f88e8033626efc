//! Zerocheck for batched R1CS over GF(2), `(A z) ∘ (B z) = C z`, with a
//! univariate skip over the low 6 instance bits.
//!
//! The zerocheck sees three bit vectors of length `2^l`: `a = A z`,
//! `b = B z` and `c = C z` (`C = I ⊕ N`: an AND row's output wire, possibly
//! with a linear form XORed in), and proves `a & b == c`. One `u64` word
//! holds the 64 values of the skip variables (DESIGN §2.3 step 3). For each
//! word `x'` the 64 bits are the values on the skip domain `S` of a
//! polynomial of degree < 64 (`a_hat_{x'}`, see [`crate::piop::skip`]).
//! With `tau'` random in `F^(l-6)`:
//! `P_ab(Y) = sum_{x'} eq(tau', x') a_hat(Y) b_hat(Y)` (degree <= 126) and
//! `P_c(Y) = sum_{x'} eq(tau', x') c_hat(Y)` agree on `S` for a valid witness.
//!
//! Protocol (Gruen, "Some improvements for the PIOP for ZeroCheck", ePrint 2024/108: the univariate skip and the factoring out of `eq`):
//! 1. `P` sends `v_y = P_c(s_y)` (64 values) and `P_ab` on the 63 extra points.
//! 2. `V` draws `r0`; `claim_ab` = the degree-126 interpolant at `r0`,
//!    `claim_c = sum_y L_y(r0) v_y` (a claim on `c`, left to the lincheck).
//! 3. `P` folds `A(x') = a_hat_{x'}(r0)`, `B(x') = b_hat_{x'}(r0)`.
//! 4. Sumcheck over the `l - 6` word variables of `eq(tau', x') A B`, lowest
//!    variable first. Round `j`'s polynomial is `prefix * eq(tau'_j, X) * q_j(X)`
//!    with `q_j` quadratic; `P` sends `q_j(0)` and its `X^2` coefficient, `V`
//!    divides the claim by the known prefix and recovers `q_j(1)`.
//! 5. `P` sends `A(r')`, `B(r')`; `V` checks `claim == eq(tau', r') A(r') B(r')`.
//!
//! `tau'` is drawn with nonzero coordinates so that step 4 can divide by them.
//! Only the skip pass touches the bits; no field vector is longer than `2^(l-6)`.

mod verifier;

pub use verifier::{replay, verify, verify_masked, Replay};

use alloc::vec;
use alloc::vec::Vec;

use super::claims::{EvalClaim, InstanceWeights};
use super::skip::{lagrange_weights, EXTRA_POINTS, SKIP_SIZE};
use super::soundness::log2_error;
use super::{PiopError, Shape, SKIP_VARS};
use crate::codec::{put_fields, Reader};
use crate::poly::eq_eval;
use crate::Gf128;

pub const LABEL_TAU: &[u8] = b"zerocheck/tau";
pub const LABEL_V: &[u8] = b"zerocheck/v";
pub const LABEL_P: &[u8] = b"zerocheck/p";
pub const LABEL_R0: &[u8] = b"zerocheck/r0";
pub const LABEL_ROUND: &[u8] = b"zerocheck/round";
pub const LABEL_R: &[u8] = b"zerocheck/r";
pub const LABEL_EVALS: &[u8] = b"zerocheck/evals";
pub const LABEL_POW_TAU: &[u8] = b"zerocheck/pow-tau";
pub const LABEL_POW_R0: &[u8] = b"zerocheck/pow-r0";

/// One sumcheck round after Gruen's factoring: `q(0)` and the `X^2`
/// coefficient of the quadratic `q_j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GruenRound {
    /// `q_j(0)`.
    pub q0: Gf128,
    /// Coefficient of `X^2` in `q_j`.
    pub q2: Gf128,
}

impl GruenRound {
    /// Given the normalised claim `c = (1 + t) q(0) + t q(1)` (with `t =
    /// tau'_j`, nonzero, given as `t_inv`), returns `q(r)`, the next
    /// normalised claim.
    pub fn next_claim(&self, c: Gf128, t: Gf128, t_inv: Gf128, r: Gf128) -> Gf128 {
        let q1 = (c + (Gf128::ONE + t) * self.q0) * t_inv;
        let lin = q1 + self.q0 + self.q2;
        self.q0 + r * (lin + r * self.q2)
    }
}

/// A zerocheck proof: two proof-of-work nonces and
/// `(64 + 63 + 2 (l - 6) + 2)` field elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Proof-of-work nonces before `tau'` and before `r0` (0 without grinding).
    pub pow_nonces: [u64; 2],
    /// `v_y = P_c(s_y)` for `y < 64`.
    pub v: Vec<Gf128>,
    /// `P_ab(embed(e))` for `64 <= e < 127`.
    pub p_extra: Vec<Gf128>,
    /// One message per word variable, lowest first.
    pub rounds: Vec<GruenRound>,
    /// Zero knowledge ([`verify_masked`]): the `X^3` and `X^4`
    /// coefficients of the last round's `q`, whose `A` and `B` carry masks.
    pub masked_last: Option<[Gf128; 2]>,
    /// `A(r')` (masked: `A'`, sent in the clear).
    pub a_eval: Gf128,
    /// `B(r')` (masked: `B'`).
    pub b_eval: Gf128,
}

impl Proof {
    /// Number of field elements in a proof for `shape`.
    pub fn num_fields(shape: Shape) -> usize {
        SKIP_SIZE + EXTRA_POINTS + 2 * shape.word_vars() + 2
    }

    /// Size in bytes of a proof for `shape`.
    pub fn num_bytes(shape: Shape) -> usize {
        16 + 16 * Self::num_fields(shape)
    }

    /// Fails unless every part has the length `shape` gives it.
    pub fn check_lengths(&self, shape: Shape) -> Result<(), PiopError> {
        if shape.word_vars() == 0 {
            return Err(PiopError::BadShape("the zerocheck needs a word variable"));
        }
        let checks = [
            ("zerocheck v", SKIP_SIZE, self.v.len()),
            ("zerocheck extra points", EXTRA_POINTS, self.p_extra.len()),
            ("zerocheck rounds", shape.word_vars(), self.rounds.len()),
        ];
        for (what, expected, got) in checks {
            if expected != got {
                return Err(PiopError::WrongLength { what, expected, got });
            }
        }
        Ok(())
    }

    /// Appends the proof to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        for n in self.pow_nonces {
            out.extend_from_slice(&n.to_le_bytes());
        }
        put_fields(out, &self.v);
        put_fields(out, &self.p_extra);
        for r in &self.rounds {
            put_fields(out, &[r.q0, r.q2]);
        }
        if let Some(high) = &self.masked_last {
            put_fields(out, high);
        }
        put_fields(out, &[self.a_eval, self.b_eval]);
    }

    /// Reads a proof for `shape` from `reader` (`masked`: a zero-knowledge
    /// one's, [`verify_masked`]).
    pub fn read(shape: Shape, masked: bool, reader: &mut Reader<'_>) -> Result<Self, PiopError> {
        let pow_nonces = [reader.u64("a zerocheck nonce")?, reader.u64("a zerocheck nonce")?];
        let v = reader.fields(SKIP_SIZE, "the skip messages")?;
        let p_extra = reader.fields(EXTRA_POINTS, "the skip messages")?;
        let rounds = (0..shape.word_vars())
            .map(|_| {
                Ok(GruenRound {
                    q0: reader.field("a zerocheck round")?,
                    q2: reader.field("a zerocheck round")?,
                })
            })
            .collect::<Result<Vec<_>, PiopError>>()?;
        let masked_last = if masked {
            Some([
                reader.field("a zerocheck round")?,
                reader.field("a zerocheck round")?,
            ])
        } else {
            None
        };
        let a_eval = reader.field("the zerocheck evaluations")?;
        let b_eval = reader.field("the zerocheck evaluations")?;
        Ok(Proof {
            pow_nonces,
            v,
            p_extra,
            rounds,
            masked_last,
            a_eval,
            b_eval,
        })
    }

    /// The proof as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(16 + 16 * (self.v.len() + self.p_extra.len() + 2 * self.rounds.len() + 2));
        self.write(&mut out);
        out
    }

    /// Decodes exactly one proof for `shape` (`masked`: a zero-knowledge
    /// one's); never panics.
    pub fn from_bytes(shape: Shape, masked: bool, bytes: &[u8]) -> Result<Self, PiopError> {
        let mut reader = Reader::new(bytes);
        let proof = Self::read(shape, masked, &mut reader)?;
        reader.finish()?;
        Ok(proof)
    }
}

/// What the zerocheck leaves for the later steps, identical on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output<V = Gf128> {
    /// The batch shape.
    pub shape: Shape,
    /// The batching point `tau'` (`l - 6` coordinates, all nonzero).
    pub tau_prime: Vec<Gf128>,
    /// The skip challenge.
    pub r0: Gf128,
    /// The sumcheck point `r'` (`l - 6` coordinates).
    pub r_prime: Vec<Gf128>,
    /// `A(r') = sum_y L_y(r0) a(y, r')`.
    pub a_eval: V,
    /// `B(r') = sum_y L_y(r0) b(y, r')`.
    pub b_eval: V,
    /// `claim_c = sum_y L_y(r0) v_y`, claimed to equal `sum_y L_y(r0) c(y, tau')`.
    pub c_value: V,
}

impl<V> Output<V> {
    /// The Lagrange weights `L_y(r0)`.
    pub fn lagrange(&self) -> [Gf128; SKIP_SIZE] {
        lagrange_weights(self.r0)
    }

    /// Instance weights `L_{inst % 64}(r0) * eq(point[..n-6], inst >> 6)` for
    /// a word point, and the wire point `point[n-6..]`.
    pub fn split_point(&self, point: &[Gf128]) -> (InstanceWeights, Vec<Gf128>) {
        let hi = self.shape.n() - SKIP_VARS;
        (
            InstanceWeights {
                low: self.lagrange(),
                point_hi: point[..hi].to_vec(),
            },
            point[hi..].to_vec(),
        )
    }
}

impl Output {
    fn claim_at(&self, point: &[Gf128], value: Gf128) -> EvalClaim {
        let (weights, wire_point) = self.split_point(point);
        EvalClaim {
            weights,
            wire_point,
            value,
        }
    }

    /// The claim on `a = Az`: weights at `(r0, r')`, value `A(r')`.
    pub fn a_claim(&self) -> EvalClaim {
        self.claim_at(&self.r_prime, self.a_eval)
    }

    /// The claim on `b = Bz`: weights at `(r0, r')`, value `B(r')`.
    pub fn b_claim(&self) -> EvalClaim {
        self.claim_at(&self.r_prime, self.b_eval)
    }

    /// The claim on `c = C z`: weights at `(r0, tau')`, value `claim_c`.
    /// It is a claim on `C z`, not on `z`: the lincheck reduces it (matrix
    /// `C0`), and the prover's `claims::holds` checks it against the vector `c`.
    pub fn c_claim(&self) -> EvalClaim {
        self.claim_at(&self.tau_prime, self.c_value)
    }

    /// `eq(tau', r')`, the factor of the final check.
    pub fn eq_tau_r(&self) -> Gf128 {
        eq_eval(&self.tau_prime, &self.r_prime)
    }
}

/// The zerocheck's soundness error terms, as `(what, log2 of the error)`.
///
/// * Batching by `tau'`: for an invalid witness some `y` has
///   `g_y(x') = a_hat b_hat - c_hat` at `s_y` nonzero on the hypercube, and
///   `sum_{x'} eq(tau', x') g_y(x')` is a nonzero multilinear polynomial in
///   `tau'` of total degree <= `l - 6`; Schwartz–Zippel over the nonzero
///   elements gives `(l - 6) / (|F| - 1)`.
/// * Univariate skip: the interpolant of the sent values differs from the
///   true `P_ab` (degree <= 126) or the sent `v` differ from `P_c` on `S`
///   (degree <= 63); the difference vanishes at the random `r0` with
///   probability at most `126 / |F|` (Schwartz–Zippel; Gruen, ePrint 2024/108).
/// * Sumcheck: each round polynomial `eq(tau'_j, X) q_j(X)` has degree 3,
///   `3 / |F|` per round over `l - 6` rounds (Lund–Fortnow–Karloff–Nisan;
///   Thaler, "Proofs, Arguments, and Zero-Knowledge", §4.1). The
///   normalised check on `q_j` alone would give 2; we count 3.
/// * Grinding: `grinding_bits` of proof of work precede the draws of `tau'`
///   and of `r0`, so each attempt at a lucky challenge costs `2^grinding_bits`
///   hashes; the two terms are divided by that (the accounting of the
///   calculator in `starling-pcs`, as for the PCS folds).
pub fn soundness_terms(shape: Shape, grinding_bits: u32) -> Vec<(&'static str, f64)> {
    let m = shape.word_vars() as f64;
    let g = grinding_bits as f64;
    vec![
        ("zerocheck tau batching", log2_error(m, 1.0) - g),
        ("zerocheck univariate skip", log2_error(126.0, 0.0) - g),
        ("zerocheck sumcheck rounds", log2_error(3.0 * m, 0.0)),
    ]
}

/// log2 of the zerocheck's total soundness error (sum of [`soundness_terms`]).
pub fn soundness_log2(shape: Shape, grinding_bits: u32) -> f64 {
    super::soundness::log2_sum(&soundness_terms(shape, grinding_bits))
}
