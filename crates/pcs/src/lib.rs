#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod bits;
mod commit;
mod error;
pub mod ligerito;
pub mod params;
pub mod ring_switch;
pub mod security;
mod sumcheck;

pub use commit::{commit, Commitment, ProverData};
pub use error::PcsError;
pub use params::{LevelParams, PcsParams};
pub use ring_switch::PackedClaim;
pub use security::{SecurityProfile, SecurityReport};
