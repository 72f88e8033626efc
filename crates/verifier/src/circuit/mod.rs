//! The circuits statements prove, as constraint systems: the batched R1CS
//! over GF(2) (DESIGN §2.2), the builder that compiles circuits into it,
//! the SHA-256, SHA-512 and BLAKE3 compression and Keccak-f\[1600\]
//! permutation gadgets, the path steps of hash-based signatures, a block
//! of a message of private length (`preimage`), a block of an RFC 6962
//! path (`rfc6962_step`), lanes of
//! several gadgets in one instance, and the Bristol Fashion parser and
//! compiler.
//!
//! Prover and verifier build the very same systems from these definitions
//! (a statement binds each system's digest); the prover's bit-sliced batch
//! witness generator is `starling-circuit`'s, which re-exports all of this.

pub mod a_from_b;
pub mod bits;
pub mod blake3;
pub mod bristol;
pub mod bristol_compile;
pub mod builder;
pub mod keccak;
pub mod keccak_path_step;
pub mod lanes;
pub mod lin;
pub mod path_step;
pub mod preimage;
pub mod r1cs;
pub mod rfc6962_step;
pub mod sha256;
pub mod sha256_path_step;
mod sha2_rounds;
pub mod sha512;
pub mod word;
pub mod wording;

pub use blake3::{blake3_compression, Blake3Input};
pub use bristol::{BristolCircuit, BristolError, BristolGate};
pub use bristol_compile::{compile_bristol, BristolR1cs};
pub use builder::{BuildError, CircuitBuilder};
pub use keccak::keccak_f1600;
pub use keccak_path_step::KeccakPathStep;
pub use lanes::{Gadget, Lanes};
pub use lin::Lin;
pub use r1cs::{ProverCache, R1cs, RowKind, SparseRows};
pub use sha256::sha256_compression;
pub use sha256_path_step::Sha256PathStep;
pub use sha512::sha512_compression;
pub use word::{Word, Word64};
