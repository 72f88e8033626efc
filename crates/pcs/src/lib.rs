#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod bits;
mod commit;
pub mod ligerito;
pub mod ring_switch;
mod sumcheck;

pub use commit::{commit, commit_hiding, random_element, ProverData, TableAside};
/// The parameters, the security calculator, the commitment and proof types
/// and the error are the verifier's: one definition for both sides.
pub use starling_verifier::pcs::{
    params, security, Commitment, LevelParams, PackedClaim, PcsError, PcsParams, SecurityProfile,
    SecurityReport,
};
