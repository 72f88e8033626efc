//! The polynomial commitment's verifier (DESIGN §2.3 steps 5 and 6): ring
//! switching from claims on the bits of the committed table to one claim on
//! the table, and the Ligerito-style opening of that claim; their proof
//! types and byte encodings, the transcript labels both sides use, the
//! parameters and the security calculator that fixes them. The prover's
//! side is `starling-pcs`.

pub mod bits;
mod error;
pub mod ligerito;
pub mod params;
pub mod ring_switch;
pub mod security;

pub use error::PcsError;
pub use params::{LevelParams, PcsParams};
pub use ring_switch::PackedClaim;
pub use security::{SecurityProfile, SecurityReport};

use crate::Digest;

/// The commitment: the Merkle root of the level-0 codeword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// Root of the column tree.
    pub root: Digest,
}
