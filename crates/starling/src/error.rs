//! The errors of the prove/verify API.

use starling_crypto::codec::DecodeError;

/// Everything that can go wrong, split the way a user acts on it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user's input could not be read (bad hex, wrong length, N = 0, ...).
    #[error("{0}")]
    Input(String),
    /// The proof file is not a well-formed Starling proof.
    #[error("unreadable proof: {0}")]
    Malformed(String),
    /// The proof is well formed but does not verify.
    #[error("proof rejected: {0}")]
    Rejected(String),
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Error {
        Error::Malformed(match e {
            DecodeError::Truncated(what) => format!("the file ends inside {what}"),
            DecodeError::TrailingBytes(n) => format!("{n} unexpected bytes after the proof"),
        })
    }
}
