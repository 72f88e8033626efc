//! The zerocheck's prover (`(A z) ∘ (B z) = C z` with a univariate skip over
//! the low 6 instance bits). The protocol, its proof and output types,
//! labels and the verifier are `starling_verifier::piop::zerocheck`'s (its
//! notes give the steps), re-exported here. Only the skip pass touches the
//! bits; no field vector is longer than `2^(l-6)`.

mod from_b;
mod prover;
pub mod reference;

pub use from_b::reads_a_from_b;
pub(crate) use prover::prepare_tables;
#[cfg(test)]
pub(crate) use prover::{fold_words, gruen_round, live_len, skip_messages, skip_messages_with, sumcheck};
pub use prover::{prove, prove_in_place, prove_in_place_from_b, CWords};
pub use starling_verifier::piop::zerocheck::*;

#[cfg(test)]
mod tests;
