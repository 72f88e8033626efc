//! The zerocheck verifier: scalar, O(l) field operations plus a fixed
//! 127-point interpolation.

use alloc::vec::Vec;

use super::{Output, Proof};
use super::{
    LABEL_EVALS, LABEL_P, LABEL_POW_R0, LABEL_POW_TAU, LABEL_R, LABEL_R0, LABEL_ROUND, LABEL_TAU, LABEL_V,
};
use crate::piop::skip::{
    batch_invert, interpolate, interpolation_weights, lagrange_weights, INTERPOLATION_POINTS, SKIP_SIZE,
};
use crate::piop::{challenge_nonzero_point, PiopError, Shape};
use crate::zk::veiled::{Channel, Value};
use crate::{Gf128, Transcript};

/// Everything the verifier derives from the proof and transcript before its
/// one check; split out so tests can watch the challenges.
pub struct Replay {
    /// What the zerocheck leaves for the later steps.
    pub output: Output,
    /// The normalised claim after the last round: must equal `A(r') B(r')`.
    pub final_claim: Gf128,
}

/// The verifier's pass over the proof: every challenge and the reduced
/// claim, without the final check.
pub fn replay(
    shape: Shape,
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
) -> Result<Replay, PiopError> {
    proof.check_lengths(shape)?;
    if proof.masked_last.is_some() {
        return Err(PiopError::BadShape(
            "a masked zerocheck is verified by verify_masked",
        ));
    }
    let m = shape.word_vars();
    let (tau, r0) = skip_challenges(m, proof, grinding_bits, transcript)?;

    let mut values = [Gf128::ZERO; INTERPOLATION_POINTS];
    values[..SKIP_SIZE].copy_from_slice(&proof.v);
    values[SKIP_SIZE..].copy_from_slice(&proof.p_extra);
    let claim_ab = interpolate(&values, r0);
    let c_value: Gf128 = lagrange_weights(r0)
        .iter()
        .zip(&proof.v)
        .map(|(l, x)| *l * *x)
        .sum();

    let mut tau_inv = tau.clone();
    batch_invert(&mut tau_inv);
    // Normalised claim: the running sumcheck claim divided by the product
    // of eq(tau'_i, r_i) over the rounds already done.
    let mut c = claim_ab;
    let mut r_prime = Vec::with_capacity(m);
    for (j, round) in proof.rounds.iter().enumerate() {
        transcript.absorb_fields(LABEL_ROUND, &[round.q0, round.q2]);
        let r = transcript.challenge_field(LABEL_R);
        c = round.next_claim(c, tau[j], tau_inv[j], r);
        r_prime.push(r);
    }
    transcript.absorb_fields(LABEL_EVALS, &[proof.a_eval, proof.b_eval]);
    Ok(Replay {
        output: Output {
            shape,
            tau_prime: tau,
            r0,
            r_prime,
            a_eval: proof.a_eval,
            b_eval: proof.b_eval,
            c_value,
        },
        final_claim: c,
    })
}

/// Verifies a zerocheck proof that `a & b == c` for the committed witness's
/// `a = A z`, `b = B z`, `c = C z`; on success returns the claims on `a`,
/// `b` and `c` (as [`Output`]) that the later steps must discharge.
///
/// `grinding_bits` must be the prover's: the proof-of-work nonces before
/// `tau'` and `r0` are checked against it.
pub fn verify(
    shape: Shape,
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
) -> Result<Output, PiopError> {
    let replay = replay(shape, proof, grinding_bits, transcript)?;
    // claim == eq(tau', r') A(r') B(r'), with the eq product already divided out.
    if replay.final_claim != proof.a_eval * proof.b_eval {
        return Err(PiopError::ZerocheckFinalCheck);
    }
    Ok(replay.output)
}

/// The challenges around the skip messages: the nonce and `tau'`, the
/// messages absorbed, the nonce and `r0`.
fn skip_challenges(
    m: usize,
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
) -> Result<(Vec<Gf128>, Gf128), PiopError> {
    if !transcript.check_grind(LABEL_POW_TAU, grinding_bits, proof.pow_nonces[0]) {
        return Err(PiopError::ProofOfWork("tau'"));
    }
    let tau = challenge_nonzero_point(transcript, LABEL_TAU, m);
    transcript.absorb_fields(LABEL_V, &proof.v);
    transcript.absorb_fields(LABEL_P, &proof.p_extra);
    if !transcript.check_grind(LABEL_POW_R0, grinding_bits, proof.pow_nonces[1]) {
        return Err(PiopError::ProofOfWork("r0"));
    }
    Ok((tau, transcript.challenge_field(LABEL_R0)))
}

/// [`crate::piop::zerocheck::GruenRound::next_claim`] on the verifier's values.
fn gruen_next<V: Value>(c: V, q0: V, q2: V, t: Gf128, t_inv: Gf128, r: Gf128) -> V {
    let q1 = (c + q0.clone() * (Gf128::ONE + t)) * t_inv;
    let lin = q1 + q0.clone() + q2.clone();
    q0 + (lin + q2 * r) * r
}

/// The zero-knowledge zerocheck (`docs/zk.md`, section 3): every message
/// reaches the verifier through `channel` (padded), and the last word
/// variable's round runs on `A + X(1+X) rho_A` and `B + X(1+X) rho_B`, two
/// masks (`channel.mask()`, drawn before any message): its `q` has degree 4
/// (`q0`, the `X^2` coefficient in the round, the `X^3` and `X^4` ones in
/// `masked_last`), and `A'`, `B'` at `r'` are public and uniform. The final
/// check `claim == A' B'` is then a check on a veiled value against a
/// public one, and the claims on `A z`, `B z` are `A' + r(1+r) rho_A` and
/// `B' + r(1+r) rho_B` (`r` the last coordinate of `r'`).
pub fn verify_masked<C: Channel>(
    shape: Shape,
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
    channel: &mut C,
) -> Result<Output<C::Value>, PiopError> {
    proof.check_lengths(shape)?;
    let [c3, c4] = proof.masked_last.ok_or(PiopError::BadShape(
        "a masked zerocheck has its last round's high coefficients",
    ))?;
    let (Some(rho_a), Some(rho_b)) = (channel.mask(), channel.mask()) else {
        return Err(PiopError::BadShape("a masked zerocheck needs a padded channel"));
    };
    let m = shape.word_vars();
    let (tau, r0) = skip_challenges(m, proof, grinding_bits, transcript)?;
    let values: Vec<C::Value> = proof
        .v
        .iter()
        .chain(&proof.p_extra)
        .map(|&x| channel.receive(x))
        .collect();
    let zero = || C::Value::from(Gf128::ZERO);
    let mut claim_ab = zero();
    for (w, x) in interpolation_weights(r0).into_iter().zip(&values) {
        claim_ab += x.clone() * w;
    }
    let mut c_value = zero();
    for (l, x) in lagrange_weights(r0).into_iter().zip(&values[..SKIP_SIZE]) {
        c_value += x.clone() * l;
    }
    let mut tau_inv = tau.clone();
    batch_invert(&mut tau_inv);
    let mut c = claim_ab;
    let mut r_prime = Vec::with_capacity(m);
    for (j, round) in proof.rounds.iter().enumerate() {
        let last = j + 1 == m;
        if last {
            transcript.absorb_fields(LABEL_ROUND, &[round.q0, round.q2, c3, c4]);
        } else {
            transcript.absorb_fields(LABEL_ROUND, &[round.q0, round.q2]);
        }
        let r = transcript.challenge_field(LABEL_R);
        let (q0, q2) = (channel.receive(round.q0), channel.receive(round.q2));
        c = if last {
            let (c3, c4) = (channel.receive(c3), channel.receive(c4));
            // q(1) from the claim, then c1 = q(1) + q0 + c2 + c3 + c4.
            let q1 = (c + q0.clone() * (Gf128::ONE + tau[j])) * tau_inv[j];
            let c1 = q1 + q0.clone() + q2.clone() + c3.clone() + c4.clone();
            q0 + (c1 + (q2 + (c3 + c4 * r) * r) * r) * r
        } else {
            gruen_next(c, q0, q2, tau[j], tau_inv[j], r)
        };
        r_prime.push(r);
    }
    transcript.absorb_fields(LABEL_EVALS, &[proof.a_eval, proof.b_eval]);
    if !channel.require(c, C::Value::from(proof.a_eval * proof.b_eval)) {
        return Err(PiopError::ZerocheckFinalCheck);
    }
    let r = r_prime[m - 1];
    let s = r * (Gf128::ONE + r);
    Ok(Output {
        shape,
        tau_prime: tau,
        r0,
        r_prime,
        a_eval: C::Value::from(proof.a_eval) + rho_a * s,
        b_eval: C::Value::from(proof.b_eval) + rho_b * s,
        c_value,
    })
}
