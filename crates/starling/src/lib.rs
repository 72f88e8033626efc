#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(test)]
mod cheating_tests;
mod circuits;
mod error;
pub mod format;
mod hashes;
pub mod inputs;
pub mod kind;
mod layout;
mod proof_file;
mod protocol;
mod records;
mod statement;
mod timings;
mod verify;
mod worker;

pub use circuits::{Builtin, StatementCircuit};
pub use error::{Check, Error, Mismatch, Rejection};
pub use hashes::Hash;
pub use kind::Kind;
pub use proof_file::{inspect, security_bits, security_report, ProofFile};
pub use protocol::{keep_buffers_between_proofs, prove, prove_private, Proved};
pub use records::Records;
pub use starling_field::cpu;
pub use starling_pcs::{SecurityProfile as Profile, SecurityReport};
pub use statement::Statement;
pub use timings::{Phase, Timings, PROVER_PHASES};
pub use verify::{check_kind, verify, verify_claimed, Expected, Verified, DEFAULT_MIN_SECURITY_BITS};
