//! The PIOP's verifiers (DESIGN §2.3 step 3 so far): the zerocheck with
//! its univariate skip, the claims it leaves, the batch's shape, the
//! soundness terms' arithmetic and the errors. The prover's side is `starling-piop`,
//! which re-exports these; the lincheck and wiring verifiers follow
//! them here.

pub mod claims;
mod error;
mod shape;
pub mod skip;
pub mod soundness;
pub mod zerocheck;

use alloc::vec::Vec;

pub use claims::{EvalClaim, InstanceWeights};
pub use error::PiopError;
pub use shape::{Shape, MAX_LOG_SIZE, SKIP_VARS};

use crate::{Gf128, Transcript};

/// `count` challenges, each redrawn until nonzero (the zerocheck divides by
/// the coordinates of `tau'`). A zero comes up with probability 2^-128.
pub fn challenge_nonzero_point(transcript: &mut Transcript, label: &[u8], count: usize) -> Vec<Gf128> {
    (0..count)
        .map(|_| loop {
            let c = transcript.challenge_field(label);
            if !c.is_zero() {
                break c;
            }
        })
        .collect()
}
