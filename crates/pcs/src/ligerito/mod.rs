//! The prover of the Ligerito-style opening (Novakovic–Angeris, 2025). The
//! protocol, its proof types, labels and transcript order, and the verifier
//! are `starling_verifier::pcs::ligerito`'s (its module notes describe the
//! levels, the folds and the queries); [`prove`] follows them step by step.

mod prove;

pub(crate) use prove::add_sparse_weights;
pub use prove::prove;
pub(crate) use prove::{prove_with_first_round, Opening};
/// The proof types, the labels, the transcript steps both sides take and
/// the verifier are `starling-verifier`'s.
pub use starling_verifier::pcs::ligerito::*;
