#![doc = include_str!("../README.md")]
#![no_std]
// `unsafe` is allowed in one module, `field::clmul`: the carry-less multiply
// instruction of x86-64 and aarch64 behind a run-time check.
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod circuit;
pub mod codec;
pub mod field;
pub mod merkle;
pub mod pcs;
pub mod piop;
pub mod poly;
pub mod pow;
mod transcript;

pub use field::Gf128;
pub use transcript::Transcript;

/// A 32-byte digest (Merkle trees, transcript state).
pub type Digest = [u8; 32];
