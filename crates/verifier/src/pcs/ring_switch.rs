//! Ring switching (Diamond–Posen, "Polylogarithmic Proofs for Multilinears
//! over Binary Towers", 2024, Section 3), in the trace form.
//!
//! The PIOP ends with claims on the bit polynomial `z: {0,1}^(L+7) -> GF(2)`
//! whose packing is the committed `f` (bit `u` of `f[x]` is `z(u, x)`), each of
//! the form `sum_u lambda(u) z(u, R) = value`. The prover sends the 128 values
//! `s_u = z(u, R)`; the verifier checks them against `value`. Writing
//! `s_u = sum_v sigma[u][v] x^v` and transposing, `t_v = sum_u sigma[u][v] x^u`
//! equals `sum_x bit_v(eq(R, x)) f(x)`, a claim about `f` itself. A random
//! `r''` in F^7 and coefficients `gamma_i` batch all of them into one
//! opening claim `sum_x f(x) w0(x)` with
//! `w0(x) = sum_i gamma_i sum_v eq(r'', v) bit_v(eq(R_i, x))`.
//!
//! The verifier evaluates `w0` off the hypercube through the trace:
//! `bit_v(y) = Tr(d_v y) = sum_j (d_v y)^(2^j)` with `d_v` the dual basis, so
//! `w0(P) = sum_i gamma_i sum_j D_j eq(R_i^(2^j), P)` with
//! `D_j = sum_v eq(r'', v) d_v^(2^j)` (Frobenius applied coordinatewise).
//!
//! Live prefix. The table is zero past a live length `n` (a circuit's unused
//! wires, rounded up to whole rows of the opening's level 0), so
//! `sum_x f(x) w0(x)` does not change when `w0` is set to zero there: the
//! opening's weight is `w0(x) [x < n]`. The prover neither builds nor folds
//! the weight of that dead tail (39% of a BLAKE3 table). The verifier
//! evaluates the restricted weight by splitting `x < n` into one subcube per
//! set bit `j` of `n` (`x` agrees with `n` above bit `j` and has bit `j`
//! clear): `sum_j eq(P_{>=j}, n_{>j} 0) w0(P_{<j}, 0, n_{>j})`. The points
//! differ only in their coordinates from the lowest set bit up, so for each
//! claim and Frobenius power the verifier takes prefix products of the eq
//! terms once and suffix products once, not one product of `L` terms per set
//! bit (five set bits for SHA-256; verify time fell by 14% with this).
//!
//! The prover (`starling-pcs`'s `ring_switch`) works a chunk of `2^12` or `2^14` entries (one value of the
//! high variables) at a time. The `s_u` of up to four claims come from one pass:
//! the bytes of `f[x]` index byte buckets holding the low eq values of all
//! claims, and each chunk's buckets are reduced to 128 sums and scaled by the
//! high eq value, so no full eq table is ever built. `w0` is built by byte
//! tables, one claim and eight byte positions at a time so that the tables
//! stay in L1, and the opening's first sumcheck round is accumulated while
//! each chunk of `w0` is still in cache.

use alloc::vec;
use alloc::vec::Vec;

use crate::field::dot;
use crate::field::trace::dual_basis_conjugates;
use crate::field::transpose::transpose128;
use crate::pcs::PcsError;
use crate::poly::{eq_eval, eq_table};
use crate::zk::veiled::{Channel, Clear};
use crate::{Gf128, Transcript};

/// Largest number of claims reduced at once.
pub const MAX_CLAIMS: usize = 256;

/// `sum_{u in {0,1}^7} lambda[u] * z(u, point) = value`; the value in the
/// clear, or veiled (`crate::zk::veiled`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedClaim<V = Gf128> {
    /// 128 weights on the bit index.
    pub lambda: Vec<Gf128>,
    /// The point `R` in F^L.
    pub point: Vec<Gf128>,
    /// The claimed value.
    pub value: V,
}

/// The 128 bit evaluations `s_u = z(u, R)` the prover sends for one claim.
pub type BitEvaluations = [Gf128; 128];

/// What the verifier carries into the opening.
#[derive(Clone, Debug)]
pub struct VerifierReduction {
    /// The opening claim.
    pub claim: Gf128,
    /// The weight is zero from this entry on.
    live_len: usize,
    gammas: Vec<Gf128>,
    points: Vec<Vec<Gf128>>,
    /// `D_j = sum_v eq(r'', v) d_v^(2^j)`.
    frobenius_weights: Vec<Gf128>,
}

impl VerifierReduction {
    /// The multilinear extension of the opening weight `w0(x) [x < live_len]`
    /// at `P` (see the module notes): for each claim and Frobenius power,
    /// the eq values at every set bit's point come from one walk down and one
    /// up the coordinates.
    pub fn weight_at(&self, p: &[Gf128]) -> Gf128 {
        let live = LiveSubcubes::new(self.live_len, p);
        let mut prefix = Vec::with_capacity(p.len());
        let mut acc = Gf128::ZERO;
        for (gamma, r) in self.gammas.iter().zip(&self.points) {
            let mut conj = r.clone();
            let mut sum = Gf128::ZERO;
            for d in &self.frobenius_weights {
                sum += *d * live.eq_sum(&conj, p, &mut prefix);
                for c in conj.iter_mut() {
                    *c = c.square();
                }
            }
            acc += *gamma * sum;
        }
        acc
    }
}

/// The live prefix `x < n` of a table of `2^L` entries as subcubes, one per
/// set bit `j` of `n`: `x` agrees with `n` above bit `j` and has bit `j`
/// clear. With `P` fixed, `sum_{x < n} eq(x, P) g(x)` for a multilinear `g`
/// is `sum_j c_j g(q_j)`, `q_j = (P_{<j}, 0, n_{>j})` and `c_j = eq(P_{>=j},
/// (0, n_{>j}))`.
struct LiveSubcubes {
    /// The live length, below `2^L` (`None`: the whole table is live).
    n: Option<usize>,
    /// `c_j`, zero where bit `j` of `n` is clear.
    coefs: Vec<Gf128>,
}

impl LiveSubcubes {
    fn new(n: usize, p: &[Gf128]) -> Self {
        if n >> p.len() == 1 {
            return LiveSubcubes {
                n: None,
                coefs: Vec::new(),
            };
        }
        let mut coefs = vec![Gf128::ZERO; p.len()];
        // `above`: eq of P's coordinates past bit `j` with the live length's bits.
        let mut above = Gf128::ONE;
        for j in (0..p.len()).rev() {
            if (n >> j) & 1 == 1 {
                coefs[j] = above * (Gf128::ONE + p[j]);
                above *= p[j];
            } else {
                above *= Gf128::ONE + p[j];
            }
        }
        LiveSubcubes { n: Some(n), coefs }
    }

    /// `sum_j c_j eq(a, q_j)` (`eq(a, P)` when all is live). In
    /// characteristic 2 `eq(a, q_j)` is `prod_{i<j} (1 + a_i + P_i)` times
    /// `1 + a_j` times `prod_{i>j} (a_i if bit i of n else 1 + a_i)`: the
    /// prefix products up to the highest set bit, then the suffix products
    /// down to the lowest, instead of one product of `L` terms per set bit.
    /// `prefix` is the caller's buffer for the prefix products.
    fn eq_sum(&self, a: &[Gf128], p: &[Gf128], prefix: &mut Vec<Gf128>) -> Gf128 {
        let Some(n) = self.n else {
            return eq_eval(a, p);
        };
        let (lowest, highest) = (n.trailing_zeros() as usize, n.ilog2() as usize);
        prefix.clear();
        let mut product = Gf128::ONE;
        for (&ai, &pi) in a.iter().zip(p).take(highest + 1) {
            prefix.push(product);
            product *= Gf128::ONE + ai + pi;
        }
        let mut sum = Gf128::ZERO;
        let mut suffix = Gf128::ONE;
        for j in (lowest..a.len()).rev() {
            if (n >> j) & 1 == 1 {
                sum += self.coefs[j] * prefix[j] * (Gf128::ONE + a[j]) * suffix;
                suffix *= a[j];
            } else {
                suffix *= Gf128::ONE + a[j];
            }
        }
        sum
    }
}

pub const LABEL_COUNT: &[u8] = b"ring-switch/claims";
pub const LABEL_CLAIM: &[u8] = b"ring-switch/claim";
pub const LABEL_BITS: &[u8] = b"ring-switch/bit-evaluations";
pub const LABEL_R2: &[u8] = b"ring-switch/r2";
pub const LABEL_GAMMA: &[u8] = b"ring-switch/gamma";

/// The claims' shapes: 1 to [`MAX_CLAIMS`] claims, each of 128 weights and
/// a point of `num_vars` coordinates, and a live length within the table.
pub fn check_claims<V>(num_vars: usize, live_len: usize, claims: &[PackedClaim<V>]) -> Result<(), PcsError> {
    if live_len == 0 || live_len > 1 << num_vars {
        return Err(PcsError::BadInput(
            "the live length must be between 1 and the table length",
        ));
    }
    if claims.is_empty() || claims.len() > MAX_CLAIMS {
        return Err(PcsError::BadInput("between 1 and MAX_CLAIMS claims are needed"));
    }
    for c in claims {
        if c.lambda.len() != 128 || c.point.len() != num_vars {
            return Err(PcsError::BadInput(
                "a claim needs 128 lambda weights and a point of num_vars coordinates",
            ));
        }
    }
    Ok(())
}

/// Step one of both sides: the claims, before the bit evaluations. A
/// zero-knowledge proof's values are hidden (`values` is false): they are
/// not absorbed, and need not be, being fixed by the padded messages before
/// them and the committed pads.
pub fn absorb_claims<V: Clone + Into<Option<Gf128>>>(
    t: &mut Transcript,
    claims: &[PackedClaim<V>],
    values: bool,
) {
    t.absorb_u64(LABEL_COUNT, claims.len() as u64);
    for c in claims {
        let mut all = c.point.clone();
        all.extend_from_slice(&c.lambda);
        if values {
            all.extend(c.value.clone().into());
        }
        t.absorb_fields(LABEL_CLAIM, &all);
    }
}

/// The bit transpose: `t_v = sum_u bit_v(s_u) x^u`.
pub fn transpose_bits(s: &BitEvaluations) -> BitEvaluations {
    transpose128(&s.map(Gf128::to_bits)).map(Gf128::new)
}

/// The opening claim: the bit evaluations transposed, weighted by
/// `eq(r'', v)` and batched with the `gamma_i`.
pub fn combined_claim(s: &[BitEvaluations], r2: &[Gf128], gammas: &[Gf128]) -> Gf128 {
    let eq = eq_table(r2);
    let mut acc = Gf128::ZERO;
    for (si, gamma) in s.iter().zip(gammas) {
        let t = transpose_bits(si);
        let inner: Gf128 = t.iter().zip(&eq).map(|(a, b)| *a * *b).sum();
        acc += *gamma * inner;
    }
    acc
}

/// The value the bit evaluations give a claim with these weights:
/// `sum_u lambda(u) s_u`, which must equal the claim's value.
pub fn lambda_sum(lambda: &[Gf128], s: &BitEvaluations) -> Gf128 {
    lambda.iter().zip(s.iter()).map(|(a, b)| *a * *b).sum()
}

/// Verifier: checks the bit evaluations against the claims and returns the
/// opening claim and weight (zero from `live_len` on, as the prover was told).
pub fn verify(
    num_vars: usize,
    live_len: usize,
    claims: &[PackedClaim],
    s: &[BitEvaluations],
    transcript: &mut Transcript,
) -> Result<VerifierReduction, PcsError> {
    verify_via(num_vars, live_len, claims, s, transcript, &mut Clear)
}

/// [`verify`] for claims whose values the verifier holds through `channel`:
/// veiled, each claim's check is a constraint on the pads.
pub fn verify_via<C: Channel>(
    num_vars: usize,
    live_len: usize,
    claims: &[PackedClaim<C::Value>],
    s: &[BitEvaluations],
    transcript: &mut Transcript,
    channel: &mut C,
) -> Result<VerifierReduction, PcsError> {
    check_claims(num_vars, live_len, claims)?;
    if s.len() != claims.len() {
        return Err(PcsError::Malformed(
            "one set of bit evaluations per claim is needed",
        ));
    }
    absorb_claims(transcript, claims, C::PUBLIC);
    for si in s {
        transcript.absorb_fields(LABEL_BITS, si);
    }
    for (index, (c, si)) in claims.iter().zip(s).enumerate() {
        if !channel.require(C::Value::from(lambda_sum(&c.lambda, si)), c.value.clone()) {
            return Err(PcsError::RingSwitchClaim { index });
        }
    }
    let r2 = transcript.challenge_fields(LABEL_R2, 7);
    let gammas = transcript.challenge_fields(LABEL_GAMMA, claims.len());
    let eq_r2 = eq_table(&r2);
    let frobenius_weights = dual_basis_conjugates()
        .iter()
        .map(|row| dot(&eq_r2, row))
        .collect();
    let claim = combined_claim(s, &r2, &gammas);
    Ok(VerifierReduction {
        claim,
        live_len,
        gammas,
        points: claims.iter().map(|c| c.point.clone()).collect(),
        frobenius_weights,
    })
}
