#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

#[cfg(test)]
mod cheating_tests;
#[cfg(test)]
mod exact_zk_tests;
mod host;
pub mod inputs;
pub mod kind;
#[cfg(test)]
mod membership_tests;
#[cfg(test)]
mod preimage_tests;
#[cfg(test)]
mod privacy_tests;
mod protocol;
mod prove_options;
#[cfg(test)]
mod prove_options_tests;
mod randomness;
pub mod ring;
#[cfg(test)]
mod ring_tests;
#[cfg(test)]
mod signature_tests;
#[cfg(test)]
mod simulator_tests;
mod tamper;
mod timings;
mod verify;
mod worker;
#[cfg(test)]
mod zk_tests;

pub use host::Native;
pub use protocol::{keep_buffers_between_proofs, prove, prove_private, Proved};
pub use prove_options::ProveOptions;
pub use randomness::Randomness;
pub use starling_field::cpu;
pub use starling_verifier::Profile;
pub use starling_verifier::{
    bundle, check_kind, format, inspect, security_bits, security_report, Builtin, Check, Error, Expected,
    Hash, Kind, Mismatch, ProofFile, Records, Rejection, SecurityReport, Statement, StatementCircuit,
    Verified, DEFAULT_MIN_SECURITY_BITS,
};
pub use timings::{Phase, Timings, PROVER_PHASES};
pub use verify::{verify, verify_claimed, verify_claimed_bytes};
