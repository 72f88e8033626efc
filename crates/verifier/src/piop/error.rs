//! Why a verifier rejected, or why proof bytes could not be read.

use thiserror::Error;

use crate::codec::DecodeError;

/// Every way the PIOP verifiers (and the proof decoders) can refuse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PiopError {
    /// The shape (n, k, p) is outside what this layer supports.
    #[error("unsupported shape: {0}")]
    BadShape(&'static str),
    /// A proof has the wrong number of some kind of message for its shape.
    #[error("malformed proof: {what} has {got} entries, expected {expected}")]
    WrongLength {
        /// Which part of the proof.
        what: &'static str,
        /// How many the shape requires.
        expected: usize,
        /// How many were present.
        got: usize,
    },
    /// Proof bytes ended before the proof did, or continue after it.
    #[error("malformed proof: {0}")]
    Decode(#[from] DecodeError),
    /// A sparse matrix given to the lincheck does not fit the shape.
    #[error("bad constraint matrix: {0}")]
    BadMatrix(&'static str),
    /// The zerocheck's last sumcheck round does not match the claimed
    /// evaluations of A z and B z.
    #[error("zerocheck rejected: final sumcheck check failed (eq(tau', r') * A(r') * B(r') differs from the reduced claim)")]
    ZerocheckFinalCheck,
    /// A proof-of-work nonce does not meet the difficulty.
    #[error("zerocheck rejected: the proof of work before {0} is invalid")]
    ProofOfWork(&'static str),
    /// The lincheck's last sumcheck round does not match the sum over its
    /// groups of M_g(r_y) * zf_g(r_y).
    #[error(
        "lincheck rejected: final sumcheck check failed (sum_g M_g(r_y) * zf_g(r_y) differs from the reduced claim)"
    )]
    LincheckFinalCheck,
    /// The wiring check's last sumcheck round does not match M(s) * z(r, s).
    #[error("wiring rejected: final sumcheck check failed (M(s) * z(r, s) differs from the reduced claim)")]
    WiringFinalCheck,
}
