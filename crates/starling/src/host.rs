//! The native verifier's [`Host`]: the long passes of a verification on
//! the prover's vector kernels and rayon's threads, each computing exactly
//! what `starling-verifier` defines (the prover crates' tests hold them
//! against its definitions).

use starling_crypto::merkle::ManyAtOnce;
use starling_piop::wiring::{PublicRows, Weighed};
use starling_verifier::merkle::Hashes;
use starling_verifier::Host;

/// The opening's hashes sixteen at a time, the public values weighed by
/// the vector kernels on threads, the public records hashed on threads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Native;

impl Host for Native {
    fn hashes(&self) -> &dyn Hashes {
        &ManyAtOnce
    }

    fn public_rows(&self) -> &dyn PublicRows {
        &Weighed
    }

    fn hash_records(&self, hasher: &mut blake3::Hasher, bytes: &[u8]) {
        hasher.update_rayon(bytes);
    }
}
