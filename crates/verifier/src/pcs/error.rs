//! The one error type of the PCS layer.

use alloc::string::String;

use crate::codec::DecodeError;
use crate::merkle::MerkleError;

/// Why a commitment, opening or proof was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PcsError {
    /// Parameters that the protocol cannot run with.
    #[error("invalid PCS parameters: {0}")]
    InvalidParams(String),
    /// The committed table has the wrong length for the parameters.
    #[error("table has {got} elements, the parameters need {want}")]
    TableSize {
        /// elements given
        got: usize,
        /// elements expected (2^num_vars)
        want: usize,
    },
    /// The table is nonzero in a row the parameters take as zero.
    #[error("table element {index} is nonzero, but the parameters take everything from {live} on as zero")]
    NonzeroPastLive {
        /// first nonzero element found in a dropped row
        index: usize,
        /// the parameters' live length
        live: usize,
    },
    /// A weight table or claim list has the wrong shape.
    #[error("bad opening input: {0}")]
    BadInput(&'static str),
    /// The proof bytes end early or continue after the proof.
    #[error("malformed proof: {0}")]
    Decode(#[from] DecodeError),
    /// The proof's parts do not fit the parameters.
    #[error("malformed proof: {0}")]
    Malformed(&'static str),
    /// A Merkle opening did not verify.
    #[error("Merkle opening of level {level} rejected: {source}")]
    Merkle {
        /// level of the commitment
        level: usize,
        /// the Merkle error
        source: MerkleError,
    },
    /// A proof-of-work nonce does not meet the required difficulty.
    #[error("proof of work at level {level} is invalid")]
    ProofOfWork {
        /// level of the fold round
        level: usize,
    },
    /// The number of opened columns differs from the queried positions.
    #[error("level {level} opens {got} columns for {want} queried positions")]
    QueryCount {
        /// level
        level: usize,
        /// columns given
        got: usize,
        /// distinct positions queried
        want: usize,
    },
    /// The final sumcheck claim does not match the evaluations.
    #[error("final sumcheck check failed")]
    FinalCheck,
    /// A ring-switching claim is not consistent with the sent bit evaluations.
    #[error("ring-switching claim {index} does not match its bit evaluations")]
    RingSwitchClaim {
        /// index of the claim
        index: usize,
    },
}
