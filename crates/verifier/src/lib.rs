#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` is allowed in one module, `field::clmul`: the carry-less multiply
// instruction of x86-64 and aarch64 behind a run-time check.
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod bundle;
pub mod circuit;
mod circuits;
pub mod codec;
mod error;
pub mod field;
pub mod format;
mod hashes;
pub mod host;
pub mod inputs;
pub mod kind;
pub mod layout;
pub mod merkle;
pub mod pcs;
pub mod piop;
pub mod poly;
pub mod pow;
mod proof_file;
pub mod protocol;
mod records;
mod statement;
#[cfg(test)]
mod test_rng;
mod transcript;
mod verify;
pub mod zk;

pub use circuits::{Builtin, StatementCircuit};
pub use error::{Check, Error, Mismatch, Rejection};
pub use field::Gf128;
pub use hashes::Hash;
pub use host::{Host, Portable};
pub use kind::Kind;
pub use pcs::{SecurityProfile as Profile, SecurityReport};
pub use proof_file::{inspect, security_bits, security_report, ProofFile, PROOF_SECTIONS};
pub use records::Records;
pub use statement::Statement;
pub use transcript::Transcript;
pub use verify::{
    check_kind, verify, verify_claimed, verify_claimed_bytes_with, verify_claimed_with, verify_with,
    Expected, Verified, DEFAULT_MIN_SECURITY_BITS,
};

/// A 32-byte digest (Merkle trees, transcript state).
pub type Digest = [u8; 32];
