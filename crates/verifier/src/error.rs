//! The errors of the prove/verify API, split the way a user acts on them:
//! unreadable input, a rejected proof (and why, in plain words first), or a
//! bug in Starling.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;

use core::fmt;

use crate::circuit::wording::counted;
use crate::codec::DecodeError;

/// Everything that can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The user's input could not be read (bad hex, wrong length, N = 0, a
    /// file too large, ...).
    #[error("{0}")]
    Input(String),
    /// The inputs are read, and their statement is false (a signature
    /// that does not verify): there is nothing to prove.
    #[error("{0}")]
    False(String),
    /// The proof file is not a well-formed Starling proof.
    #[error("unreadable proof: {0}")]
    Malformed(String),
    /// The proof is well formed but is not accepted.
    #[error("proof rejected: {0}")]
    Rejected(Rejection),
    /// Starling failed where it should not: a bug.
    #[error(
        "internal error: {0} (this is a bug in Starling; please report it with the command that caused it)"
    )]
    Internal(String),
}

#[cfg(feature = "std")]
impl Error {
    /// A panic as the bug it is ([`Error::Internal`]): its message on one
    /// line and where it happened, what a panic hook reports (the command
    /// line prints it, the npm package throws it).
    pub fn from_panic(info: &std::panic::PanicHookInfo<'_>) -> Self {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        Error::Internal(format!("{}{at}", payload.replace('\n', " ")))
    }
}

/// Why a well-formed proof is not accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    /// The proof is about another statement than the one expected.
    Mismatch(Mismatch),
    /// The proof's security is below what the verifier requires.
    TooWeak {
        /// Provable bits of the proof's profile at its size.
        bits: f64,
        /// The profile's name.
        profile: &'static str,
        /// The minimum the verifier asked for.
        required: f64,
    },
    /// The statement's private records are secrets
    /// ([`crate::Kind::requires_zero_knowledge`]) and the proof was made
    /// without zero knowledge, so it may give them away: whatever else it
    /// shows, it is not a proof of this kind.
    NotZeroKnowledge {
        /// The kind's name.
        kind: String,
    },
    /// A shard of a bundle is not accepted (`crate::bundle`).
    Shard {
        /// Which shard, from 1.
        shard: usize,
        /// The bundle's number of shards.
        shards: usize,
        /// Why.
        rejection: Box<Rejection>,
    },
    /// A check of the proof system fails: the proof does not prove the
    /// statement it carries.
    Invalid {
        /// The check that failed.
        check: Check,
        /// The technical detail.
        detail: String,
    },
}

/// The verifier's checks, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// What the statement's public values must be whatever the witness (a
    /// signature's public key names its scheme's typecodes).
    Statement,
    /// The zerocheck of (Az)∘(Bz) = Cz.
    Zerocheck,
    /// The lincheck of the claims on Az, Bz and Cz.
    Lincheck,
    /// The proof of work before the wiring check's challenges.
    ProofOfWork,
    /// The public values and the wiring between instances.
    Wiring,
    /// Ring switching and the opening of the commitment.
    Opening,
    /// A bundle's shards are the ones it lists, and they join into one
    /// statement (`crate::bundle`).
    Links,
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Check::Statement => "statement",
            Check::Zerocheck => "zerocheck",
            Check::Lincheck => "lincheck",
            Check::ProofOfWork => "proof of work",
            Check::Wiring => "public values and wiring",
            Check::Opening => "opening",
            Check::Links => "links between shards",
        })
    }
}

/// The first difference between the statement a proof carries and the one
/// expected, in the order they are compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Another statement kind (with its parameters).
    Kind {
        /// Expected kind, as `NAME NOUNs`.
        expected: String,
        /// The proof's kind.
        found: String,
    },
    /// Another circuit (compared by [`crate::StatementCircuit::digest`]).
    Circuit {
        /// Expected digest.
        expected: [u8; 32],
        /// The proof's digest.
        found: [u8; 32],
    },
    /// Another number of input records.
    Count {
        /// Expected number.
        expected: usize,
        /// The proof's number.
        found: usize,
        /// What one is called.
        noun: &'static str,
    },
    /// An input record differs.
    Input {
        /// The first record that differs (0-based, in line order).
        index: usize,
        /// The first field of that record that differs, as the inputs text
        /// names it (`block`, `counter`, `input value 2`, `message`, ...).
        field: String,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Mismatch(m) => write!(f, "{m}"),
            Rejection::TooWeak {
                bits,
                profile,
                required,
            } => write!(
                f,
                "the proof is weaker than required: {bits:.1} bits of provable security (profile {profile}), at least {required} required"
            ),
            Rejection::NotZeroKnowledge { kind } => write!(
                f,
                "a {kind} proof must be zero-knowledge (its private values are secrets), and this one was made without zero knowledge"
            ),
            Rejection::Shard {
                shard,
                shards,
                rejection,
            } => write!(f, "shard {shard} of {shards}: {rejection}"),
            Rejection::Invalid { check, detail } => write!(
                f,
                "the proof does not prove the statement it carries (failed check: {check}; {detail})"
            ),
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Kind { expected, found } => write!(
                f,
                "the proof was made for another kind of statement: it proves {found}, expected {expected}"
            ),
            Mismatch::Circuit { expected, found } => write!(
                f,
                "the proof was made for a different circuit: its digest is {}, expected {}",
                hex::encode(found),
                hex::encode(expected)
            ),
            Mismatch::Count { expected, found, noun } => write!(
                f,
                "the proof is about a different number of {noun}s: {}, expected {expected}",
                counted(*found as u64, noun)
            ),
            Mismatch::Input { index, field } => write!(
                f,
                "the proof is about different inputs: input {index} (0-based, in line order) differs first in its {field}"
            ),
        }
    }
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Error {
        Error::Malformed(match e {
            DecodeError::Truncated(what) => format!("the file ends inside {what}"),
            DecodeError::TrailingBytes(n) => {
                format!("{} after the proof", counted(n as u64, "unexpected byte"))
            }
        })
    }
}

impl Error {
    /// A failed verifier check.
    pub(crate) fn invalid(check: Check, detail: &dyn fmt::Display) -> Error {
        Error::Rejected(Rejection::Invalid {
            check,
            detail: detail.to_string(),
        })
    }

    /// A statement that differs from the expected one.
    pub(crate) fn mismatch(m: Mismatch) -> Error {
        Error::Rejected(Rejection::Mismatch(m))
    }
}
