//! The full opening of bit claims: ring switching, then the Ligerito opening,
//! in one transcript flow. This is what the proof system calls at the end of
//! the PIOP; the prover's side is `starling-pcs`'s `bits::prove`.

use alloc::vec::Vec;

use crate::codec::{put_fields, Reader};
use crate::merkle::{Hashes, OneByOne};
use crate::pcs::ring_switch::{self, BitEvaluations, PackedClaim};
use crate::pcs::{ligerito, Commitment, PcsError, PcsParams};
use crate::poly::eq_at_index;
use crate::zk::veiled::{Channel, Clear};
use crate::{Gf128, Transcript};

/// Ring-switching messages plus the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// `s_u = z(u, R_i)` for every claim `i`.
    pub bit_evaluations: Vec<BitEvaluations>,
    /// The opening of the batched claim.
    pub opening: ligerito::Proof,
}

impl Proof {
    /// Serialised proof.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for s in &self.bit_evaluations {
            put_fields(&mut out, s);
        }
        self.opening.write(&mut out);
        out
    }

    /// Decodes a proof of `num_claims` claims; never panics.
    pub fn from_bytes(params: &PcsParams, num_claims: usize, bytes: &[u8]) -> Result<Proof, PcsError> {
        if num_claims == 0 || num_claims > ring_switch::MAX_CLAIMS {
            return Err(PcsError::BadInput("between 1 and MAX_CLAIMS claims are needed"));
        }
        let mut r = Reader::new(bytes);
        let mut bit_evaluations = Vec::with_capacity(num_claims);
        for _ in 0..num_claims {
            let v = r.fields(128, "the ring-switching evaluations")?;
            let mut s = [Gf128::ZERO; 128];
            s.copy_from_slice(&v);
            bit_evaluations.push(s);
        }
        let opening = ligerito::Proof::read(params, &mut r)?;
        r.finish()?;
        Ok(Proof {
            bit_evaluations,
            opening,
        })
    }
}

/// Verifies a [`Proof`] for `claims` against the commitment.
pub fn verify(
    params: &PcsParams,
    commitment: &Commitment,
    claims: &[PackedClaim],
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<(), PcsError> {
    verify_with(&OneByOne, params, commitment, claims, proof, transcript)
}

/// [`verify`], with the opening's hashes computed by `hashes`.
pub fn verify_with(
    hashes: &dyn Hashes,
    params: &PcsParams,
    commitment: &Commitment,
    claims: &[PackedClaim],
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<(), PcsError> {
    verify_via(
        hashes,
        params,
        commitment,
        claims,
        proof,
        transcript,
        &mut Clear,
        &[],
    )
}

/// Transcript label of the coefficient of the pads' claim in the opening.
pub const LABEL_PAD_GAMMA: &[u8] = b"zk/pads-gamma";

/// [`verify_with`] for claims whose values the verifier holds through
/// `channel`. Veiled, their checks are constraints on the pads, batched
/// after ring switching into one claim on the table's entries at
/// `pad_positions` (pad `i` is entry `pad_positions[i]`), which joins the
/// opening's claim with a random coefficient.
#[allow(clippy::too_many_arguments)]
pub fn verify_via<C: Channel>(
    hashes: &dyn Hashes,
    params: &PcsParams,
    commitment: &Commitment,
    claims: &[PackedClaim<C::Value>],
    proof: &Proof,
    transcript: &mut Transcript,
    channel: &mut C,
    pad_positions: &[usize],
) -> Result<(), PcsError> {
    let red = ring_switch::verify_via(
        params.data_vars(),
        params.live_rows_len(),
        claims,
        &proof.bit_evaluations,
        transcript,
        channel,
    )?;
    let mut claim = red.claim;
    let pads = match channel.close(transcript) {
        None => None,
        Some((coefs, value)) => {
            if coefs.len() > pad_positions.len() {
                return Err(PcsError::Malformed("more pads than the layout holds"));
            }
            let gamma = transcript.challenge_field(LABEL_PAD_GAMMA);
            claim += gamma * value;
            Some((gamma, coefs))
        }
    };
    let weight = |p: &[Gf128]| {
        let mut w = red.weight_at(p);
        if let Some((gamma, coefs)) = &pads {
            let at: Gf128 = coefs
                .iter()
                .zip(pad_positions)
                .map(|(c, &x)| *c * eq_at_index(p, x))
                .sum();
            w += *gamma * at;
        }
        w
    };
    ligerito::verify_with(
        hashes,
        params,
        commitment,
        claim,
        &weight,
        &proof.opening,
        transcript,
    )
}
