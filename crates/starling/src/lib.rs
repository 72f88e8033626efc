#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(test)]
mod cheating_tests;
mod error;
pub mod format;
pub mod inputs;
mod proof_file;
mod protocol;
mod public_table;
pub mod statement;
mod timings;

pub use error::Error;
pub use proof_file::{inspect, security_bits, security_report, ProofFile, Verified};
pub use protocol::{prove_sha256, verify, Proved};
pub use starling_pcs::SecurityProfile as Profile;
pub use timings::Timings;
