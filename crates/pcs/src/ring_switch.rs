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

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::trace::dual_basis;
use starling_field::{ByteLinearMap, Gf128};
use starling_poly::multilinear::{eq_eval, eq_table};

use crate::PcsError;

/// Largest number of claims reduced at once.
pub const MAX_CLAIMS: usize = 256;

/// `sum_{u in {0,1}^7} lambda[u] * z(u, point) = value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedClaim {
    /// 128 weights on the bit index.
    pub lambda: Vec<Gf128>,
    /// The point `R` in F^L.
    pub point: Vec<Gf128>,
    /// The claimed value.
    pub value: Gf128,
}

/// The 128 bit evaluations `s_u = z(u, R)` the prover sends for one claim.
pub type BitEvaluations = [Gf128; 128];

/// What the prover carries into the opening.
#[derive(Clone, Debug)]
pub struct ProverReduction {
    /// The table of `w0` over `{0,1}^L`.
    pub weights: Vec<Gf128>,
    /// The opening claim `sum_x f(x) w0(x)`.
    pub claim: Gf128,
}

/// What the verifier carries into the opening.
#[derive(Clone, Debug)]
pub struct VerifierReduction {
    /// The opening claim.
    pub claim: Gf128,
    gammas: Vec<Gf128>,
    points: Vec<Vec<Gf128>>,
    /// `D_j = sum_v eq(r'', v) d_v^(2^j)`.
    frobenius_weights: Vec<Gf128>,
}

impl VerifierReduction {
    /// `w0(P)`, the multilinear extension of the opening weight at `P`.
    pub fn weight_at(&self, p: &[Gf128]) -> Gf128 {
        let mut acc = Gf128::ZERO;
        for (gamma, r) in self.gammas.iter().zip(&self.points) {
            let mut conj = r.clone();
            let mut sum = Gf128::ZERO;
            for d in &self.frobenius_weights {
                sum += *d * eq_eval(&conj, p);
                for c in conj.iter_mut() {
                    *c = c.square();
                }
            }
            acc += *gamma * sum;
        }
        acc
    }
}

const LABEL_COUNT: &[u8] = b"ring-switch/claims";
const LABEL_CLAIM: &[u8] = b"ring-switch/claim";
const LABEL_BITS: &[u8] = b"ring-switch/bit-evaluations";
const LABEL_R2: &[u8] = b"ring-switch/r2";
const LABEL_GAMMA: &[u8] = b"ring-switch/gamma";

fn check_claims(num_vars: usize, claims: &[PackedClaim]) -> Result<(), PcsError> {
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

fn absorb_claims(t: &mut Transcript, claims: &[PackedClaim]) {
    t.absorb_u64(LABEL_COUNT, claims.len() as u64);
    for c in claims {
        let mut all = c.point.clone();
        all.extend_from_slice(&c.lambda);
        all.push(c.value);
        t.absorb_fields(LABEL_CLAIM, &all);
    }
}

/// Eq splits `eq(R, x) = eq(R_lo, x_lo) eq(R_hi, x_hi)` with at most 2^12 low entries.
fn split_eq(point: &[Gf128]) -> (Vec<Gf128>, Vec<Gf128>) {
    let lo = point.len().min(12);
    (eq_table(&point[..lo]), eq_table(&point[lo..]))
}

/// `s_u = sum_x eq(R, x) bit_u(f[x])` for all 128 `u`, by byte buckets:
/// `bucket[p][b]` sums `eq(R, x)` over the `x` whose byte `p` is `b`.
pub fn bit_evaluations(table: &[Gf128], point: &[Gf128]) -> BitEvaluations {
    assert_eq!(
        table.len(),
        1 << point.len(),
        "table must have 2^len(point) entries"
    );
    let (eq_lo, eq_hi) = split_eq(point);
    let buckets = table
        .par_chunks(eq_lo.len())
        .zip(eq_hi.par_iter())
        .fold(
            || vec![[Gf128::ZERO; 256]; 16],
            |mut b, (chunk, &hi)| {
                for (f, &lo) in chunk.iter().zip(&eq_lo) {
                    let e = lo * hi;
                    for (bucket, &byte) in b.iter_mut().zip(f.to_bytes().iter()) {
                        bucket[byte as usize] += e;
                    }
                }
                b
            },
        )
        .reduce(
            || vec![[Gf128::ZERO; 256]; 16],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    for (p, q) in x.iter_mut().zip(y) {
                        *p += *q;
                    }
                }
                a
            },
        );
    let mut s = [Gf128::ZERO; 128];
    for (p, bucket) in buckets.iter().enumerate() {
        for (byte, &v) in bucket.iter().enumerate() {
            for i in 0..8 {
                if (byte >> i) & 1 == 1 {
                    s[8 * p + i] += v;
                }
            }
        }
    }
    s
}

/// The bit transpose: `t_v = sum_u bit_v(s_u) x^u`.
pub fn transpose_bits(s: &BitEvaluations) -> BitEvaluations {
    let mut t = [0u128; 128];
    for (u, su) in s.iter().enumerate() {
        let bits = su.to_bits();
        for (v, tv) in t.iter_mut().enumerate() {
            *tv |= ((bits >> v) & 1) << u;
        }
    }
    t.map(Gf128::new)
}

fn combined_claim(s: &[BitEvaluations], r2: &[Gf128], gammas: &[Gf128]) -> Gf128 {
    let eq = eq_table(r2);
    let mut acc = Gf128::ZERO;
    for (si, gamma) in s.iter().zip(gammas) {
        let t = transpose_bits(si);
        let inner: Gf128 = t.iter().zip(&eq).map(|(a, b)| *a * *b).sum();
        acc += *gamma * inner;
    }
    acc
}

fn lambda_check(claim: &PackedClaim, s: &BitEvaluations) -> bool {
    let sum: Gf128 = claim.lambda.iter().zip(s.iter()).map(|(a, b)| *a * *b).sum();
    sum == claim.value
}

/// Prover: the bit evaluations to send and the opening weight and claim.
pub fn prove(
    table: &[Gf128],
    claims: &[PackedClaim],
    transcript: &mut Transcript,
) -> Result<(Vec<BitEvaluations>, ProverReduction), PcsError> {
    if !table.len().is_power_of_two() {
        return Err(PcsError::BadInput("table length must be a power of two"));
    }
    let num_vars = table.len().trailing_zeros() as usize;
    check_claims(num_vars, claims)?;
    absorb_claims(transcript, claims);
    let s: Vec<BitEvaluations> = claims.iter().map(|c| bit_evaluations(table, &c.point)).collect();
    for si in &s {
        transcript.absorb_fields(LABEL_BITS, si);
    }
    let r2 = transcript.challenge_fields(LABEL_R2, 7);
    let gammas = transcript.challenge_fields(LABEL_GAMMA, claims.len());
    let eq_r2 = eq_table(&r2);
    let mut weights = vec![Gf128::ZERO; table.len()];
    for (c, &gamma) in claims.iter().zip(&gammas) {
        let mut images = [Gf128::ZERO; 128];
        for (img, &e) in images.iter_mut().zip(&eq_r2) {
            *img = gamma * e;
        }
        let map = ByteLinearMap::new(&images);
        let (eq_lo, eq_hi) = split_eq(&c.point);
        weights
            .par_chunks_mut(eq_lo.len())
            .zip(eq_hi.par_iter())
            .for_each(|(out, &hi)| {
                for (o, &lo) in out.iter_mut().zip(&eq_lo) {
                    *o += map.apply(lo * hi);
                }
            });
    }
    let claim = combined_claim(&s, &r2, &gammas);
    Ok((s, ProverReduction { weights, claim }))
}

/// Verifier: checks the bit evaluations against the claims and returns the
/// opening claim and weight.
pub fn verify(
    num_vars: usize,
    claims: &[PackedClaim],
    s: &[BitEvaluations],
    transcript: &mut Transcript,
) -> Result<VerifierReduction, PcsError> {
    check_claims(num_vars, claims)?;
    if s.len() != claims.len() {
        return Err(PcsError::Malformed(
            "one set of bit evaluations per claim is needed",
        ));
    }
    absorb_claims(transcript, claims);
    for si in s {
        transcript.absorb_fields(LABEL_BITS, si);
    }
    for (index, (c, si)) in claims.iter().zip(s).enumerate() {
        if !lambda_check(c, si) {
            return Err(PcsError::RingSwitchClaim { index });
        }
    }
    let r2 = transcript.challenge_fields(LABEL_R2, 7);
    let gammas = transcript.challenge_fields(LABEL_GAMMA, claims.len());
    let eq_r2 = eq_table(&r2);
    let mut frobenius_weights = vec![Gf128::ZERO; 128];
    for (d, &e) in dual_basis().iter().zip(&eq_r2) {
        let mut p = *d;
        for dj in frobenius_weights.iter_mut() {
            *dj += e * p;
            p = p.square();
        }
    }
    let claim = combined_claim(s, &r2, &gammas);
    Ok(VerifierReduction {
        claim,
        gammas,
        points: claims.iter().map(|c| c.point.clone()).collect(),
        frobenius_weights,
    })
}
