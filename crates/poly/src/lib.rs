#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod multilinear;
pub mod sumcheck_round;
