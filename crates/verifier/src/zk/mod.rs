//! Zero knowledge ("veiled Starling", `docs/zk.md`): what a zero-knowledge
//! batch changes in the layout of the witness, shared by prover and
//! verifier.
//!
//! The opening hides the table when every committed row of level 0 holds
//! uniformly random entries at one place ([`crate::pcs::params::MaskRun`]).
//! Level 0's rows are blocks of wires (the top bits of a packed entry's
//! index are the wire's), so a zero-knowledge batch reserves the top wires of
//! every live block, [`Holes`], as free wires the prover fills with random
//! bits, and lays the circuit's wires out around them.

mod layout;
mod placed;
pub mod veiled;

pub use layout::{zk_layout, Holes, ZkLayout, PUBLIC_SPARE_ENTRIES, SPARE_ENTRIES};
pub use placed::{OtherRows, PlacedMatrix};
