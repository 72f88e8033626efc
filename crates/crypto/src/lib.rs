#![doc = include_str!("../README.md")]
// `unsafe` is allowed only in the SIMD kernel modules (`blake3_multi`'s
// `x86_64` and `aarch64`), each use with a comment on why it is sound.
#![deny(unsafe_code)]

pub mod blake3_multi;
pub mod codec;
pub mod merkle;
pub mod pow;
mod transcript;

pub use transcript::Transcript;

/// A 32-byte digest (Merkle trees, transcript state).
pub type Digest = [u8; 32];
