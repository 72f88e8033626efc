//! The full opening of bit claims: ring switching, then the Ligerito opening,
//! in one transcript flow. This is what the proof system calls at the end of
//! the PIOP. The proof type and the verifier are `starling-verifier`'s.

use starling_crypto::Transcript;
pub use starling_verifier::pcs::bits::{verify, verify_with, Proof};

use crate::commit::ProverData;
use crate::ring_switch::{self, PackedClaim};
use crate::{ligerito, PcsError, PcsParams};

/// Proves all `claims` about the bits of the committed table.
pub fn prove(
    params: &PcsParams,
    data: &ProverData,
    claims: &[PackedClaim],
    transcript: &mut Transcript,
) -> Result<Proof, PcsError> {
    let (bit_evaluations, red) = ring_switch::prove(
        data.table(),
        params.live_rows_len(),
        claims,
        params.level_log_msg(0),
        transcript,
    )?;
    let opening = ligerito::prove_with_first_round(
        params,
        data,
        red.weights,
        params.live_rows_len(),
        red.claim,
        red.first_round,
        transcript,
    )?;
    Ok(Proof {
        bit_evaluations,
        opening,
    })
}
