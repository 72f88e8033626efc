#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod claims;
pub mod cover;
mod kernels;
pub mod lincheck;
pub mod skip;
pub mod wiring;
pub mod zerocheck;

pub use claims::{EvalClaim, InstanceWeights, PackedClaim};
/// The shape, the sparse matrices, the errors and the soundness
/// arithmetic are the verifier's.
pub use starling_verifier::piop::{
    challenge_nonzero_point, soundness, sparse, PiopError, Shape, SparseMatrix, MAX_LOG_SIZE, SKIP_VARS,
};

/// Builds the constant tables the prover keeps for the life of the process
/// (the skip's extra-point tables in every basis, the coordinate maps, the
/// selected kernels' product tables). They are built on first use anyway;
/// a prover calls this before it allocates a proof's large buffers, because
/// tables built in the middle of a proof sit between its large blocks and
/// keep the allocator from reusing them whole for the next proof (a `bench`
/// of three Keccak-f proofs peaked 94 MiB higher that way).
pub fn prepare_tables() {
    zerocheck::prepare_tables();
}
