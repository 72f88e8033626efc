//! The PIOP's verifiers (DESIGN §2.3 steps 3 and 4 so far): the batch's
//! shape, the univariate skip's domain and interpolation, the soundness
//! terms' arithmetic and the errors. The prover's side is `starling-piop`,
//! which re-exports these; the zerocheck, lincheck and wiring verifiers
//! follow them here.

mod error;
mod shape;
pub mod skip;
pub mod soundness;

pub use error::PiopError;
pub use shape::{Shape, MAX_LOG_SIZE, SKIP_VARS};
