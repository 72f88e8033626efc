#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bristol;
pub mod builder;
pub mod layout;
pub mod lin;
pub mod r1cs;
pub mod sha256;
pub mod witness;
pub mod word;

pub use bristol::{BristolCircuit, BristolError, BristolGate};
pub use builder::{BuildError, CircuitBuilder};
pub use lin::Lin;
pub use r1cs::{R1cs, RowKind, SparseRows};
pub use sha256::{sha256_compression, Sha256Compression};
pub use witness::{BatchWitness, WitnessError};
pub use word::Word;
