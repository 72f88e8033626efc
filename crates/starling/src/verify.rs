//! Verifying natively: `starling-verifier`'s [`verify`](starling_verifier::verify),
//! [`verify_claimed`](starling_verifier::verify_claimed) and
//! [`verify_claimed_bytes_with`](starling_verifier::verify_claimed_bytes_with) with the
//! [`Native`] host and the prover's slice kernels installed, on a worker of
//! the current rayon pool (`worker.rs`).

use crate::host::Native;
use crate::worker::on_worker;
use crate::{Error, Expected, ProofFile, Verified};

/// Verifies that `proof`, the bytes of a proof file, proves exactly the
/// `expected` statement at the security it requires: see
/// [`starling_verifier::verify`], which this runs natively. Called from
/// outside the rayon pool, its buffers (about 10 MB for 2^14 Keccak-f
/// permutations) come from a worker's allocator arena.
pub fn verify(expected: &Expected, proof: &[u8]) -> Result<Verified, Error> {
    starling_field::backend::install_in_verifier();
    on_worker(|| starling_verifier::verify_with(expected, proof, &Native))
}

/// Verifies that `file` proves the statement *it carries*, whatever that
/// is: see [`starling_verifier::verify_claimed`], which this runs natively.
pub fn verify_claimed(file: &ProofFile, min_security_bits: f64) -> Result<Verified, Error> {
    starling_field::backend::install_in_verifier();
    on_worker(|| starling_verifier::verify_claimed_with(file, min_security_bits, &Native))
}

/// Verifies that `bytes`, a proof file or a bundle of shard proofs
/// ([`crate::bundle`]), prove the statement they carry, whatever that is:
/// see [`starling_verifier::verify_claimed_bytes_with`], which this runs
/// natively.
pub fn verify_claimed_bytes(bytes: &[u8], min_security_bits: f64) -> Result<Verified, Error> {
    starling_field::backend::install_in_verifier();
    on_worker(|| starling_verifier::verify_claimed_bytes_with(bytes, min_security_bits, &Native))
}
