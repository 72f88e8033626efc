//! Small helpers for the soundness error terms of this layer.
//!
//! Each protocol module lists its own terms next to the protocol
//! (`zerocheck::soundness_terms`, `lincheck::soundness_terms`,
//! `wiring::soundness_terms`), with the theorem each one comes from; this
//! module only does the arithmetic. `|F| = 2^128`.

use libm::{exp2, log2, pow};

/// log2 of `numerator / (2^128 - den_offset)`: an error of the shape
/// "degree / field size" (`den_offset` = 1 when a challenge avoids zero).
pub fn log2_error(numerator: f64, den_offset: f64) -> f64 {
    // 2^128 - 1 and 2^128 are the same double; the offset is kept for the
    // record and costs nothing.
    log2(numerator) - log2(pow(2.0, 128.0) - den_offset)
}

/// log2 of the sum of errors given as log2 values.
pub fn log2_sum(terms: &[(&'static str, f64)]) -> f64 {
    log2(terms.iter().map(|(_, l)| exp2(*l)).sum::<f64>())
}
