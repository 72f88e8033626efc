//! The PIOP's verifiers (DESIGN §2.3 steps 3 and 4): the zerocheck with
//! its univariate skip, the lincheck over the circuit's sparse matrices,
//! the claims they leave, the batch's shape, the
//! soundness terms' arithmetic and the errors. The prover's side is `starling-piop`,
//! which re-exports these; the wiring check's verifier follows them
//! here.

pub mod claims;
mod error;
pub mod lincheck;
mod shape;
pub mod skip;
pub mod soundness;
pub mod sparse;
pub mod wiring;
pub mod zerocheck;

use alloc::vec::Vec;

pub use claims::{EvalClaim, InstanceWeights};
pub use error::PiopError;
pub use shape::{Shape, MAX_LOG_SIZE, SKIP_VARS};
pub use sparse::SparseMatrix;

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
