#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod merkle;
mod transcript;

pub use transcript::Transcript;

/// A 32-byte SHA-256 digest.
pub type Digest = [u8; 32];
