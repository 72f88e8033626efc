#![doc = include_str!("../README.md")]
// `unsafe` is allowed only in the SIMD kernel modules (`blake3_multi`'s
// `x86_64` and `aarch64`), each use with a comment on why it is sound.
#![deny(unsafe_code)]

pub mod blake3_multi;
pub mod merkle;
pub mod pow;

pub use pow::Grind;
/// The transcript, the proof bytes reader and the digest type are the
/// verifier's: one definition for both sides.
pub use starling_verifier::{codec, Digest, Transcript};
