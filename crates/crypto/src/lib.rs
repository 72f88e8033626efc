#![doc = include_str!("../README.md")]
// `unsafe` is allowed only in the SIMD kernel module (`sha256_multi::avx512`),
// each use with a comment on why it is sound.
#![deny(unsafe_code)]

pub mod codec;
pub mod merkle;
pub mod pow;
pub mod sha256_multi;
mod transcript;

pub use transcript::Transcript;

/// A 32-byte SHA-256 digest.
pub type Digest = [u8; 32];
