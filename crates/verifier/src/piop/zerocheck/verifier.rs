//! The zerocheck verifier: scalar, O(l) field operations plus a fixed
//! 127-point interpolation.

use alloc::vec::Vec;

use super::{Output, Proof};
use super::{
    LABEL_EVALS, LABEL_P, LABEL_POW_R0, LABEL_POW_TAU, LABEL_R, LABEL_R0, LABEL_ROUND, LABEL_TAU, LABEL_V,
};
use crate::piop::skip::{batch_invert, interpolate, lagrange_weights, INTERPOLATION_POINTS, SKIP_SIZE};
use crate::piop::{challenge_nonzero_point, PiopError, Shape};
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
    let m = shape.word_vars();
    if !transcript.check_grind(LABEL_POW_TAU, grinding_bits, proof.pow_nonces[0]) {
        return Err(PiopError::ProofOfWork("tau'"));
    }
    let tau = challenge_nonzero_point(transcript, LABEL_TAU, m);
    transcript.absorb_fields(LABEL_V, &proof.v);
    transcript.absorb_fields(LABEL_P, &proof.p_extra);
    if !transcript.check_grind(LABEL_POW_R0, grinding_bits, proof.pow_nonces[1]) {
        return Err(PiopError::ProofOfWork("r0"));
    }
    let r0 = transcript.challenge_field(LABEL_R0);

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
