#![doc = include_str!("../README.md")]
// `unsafe` only in `streaming` (non-temporal stores), `xor_row` (calls of its
// `target_feature` copies) and `columns` (disjoint column ranges of one
// buffer), which allow it.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod blake3;
pub mod bristol_compile;
mod columns;
mod eval_plan;
pub mod keccak;
pub mod layout;
pub mod sha256;
pub mod sha512;
mod streaming;
pub mod witness;
mod xor_row;

pub use starling_verifier::circuit::{
    a_from_b, bristol, builder, keccak_path_step, lanes, lin, path_step, r1cs, sha256_path_step, word,
    wording,
};

pub use blake3::{blake3_compression, Blake3Compression, Blake3Input};
pub use bristol::{BristolCircuit, BristolError, BristolGate};
pub use bristol_compile::{compile_bristol, BristolR1cs, BristolWitness};
pub use builder::{BuildError, CircuitBuilder};
pub use keccak::{keccak_f1600, KeccakF1600};
pub use keccak_path_step::KeccakPathStep;
pub use lanes::{Gadget, Lanes};
pub use lin::Lin;
pub use r1cs::{R1cs, RowKind, SparseRows};
pub use sha256::{sha256_compression, Sha256Compression};
pub use sha256_path_step::Sha256PathStep;
pub use sha512::{sha512_compression, Sha512Compression};
pub use witness::{a_from_b, BatchWitness, Placement, R1csWitness, Tables, WitnessError};
pub use word::{Word, Word64};
