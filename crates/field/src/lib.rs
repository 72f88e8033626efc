#![doc = include_str!("../README.md")]
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod backend;
pub mod bit_matrix;
pub mod cpu;
mod gf128;
mod linear_map;
pub mod prefetch;
pub mod scratch;

pub use gf128::{Gf128, Gf128Slices};
pub use linear_map::{subset_sums, ByteLinearMap};
/// The trace and the dual basis (ring switching) are the verifier's.
pub use starling_verifier::field::trace;
pub use starling_verifier::field::Gf8;
