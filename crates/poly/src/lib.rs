#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod additive_ntt;
pub mod multilinear;
pub mod reed_solomon;
pub mod sumcheck_round;
