//! The native verifier's [`Host`]: the long passes of a verification on
//! the prover's vector kernels and rayon's threads, each computing exactly
//! what `starling-verifier` defines (the prover crates' tests hold them
//! against its definitions), and a bundle's shards checked on threads.

use rayon::prelude::*;
use starling_crypto::merkle::ManyAtOnce;
use starling_piop::wiring::{PublicRows, Weighed};
use starling_verifier::merkle::Hashes;
use starling_verifier::{Error, Host};

/// The opening's hashes sixteen at a time, the public values weighed by
/// the vector kernels on threads, the public records hashed on threads,
/// shards checked on threads.
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

    /// All at once; the first failure by index is the one reported, as in
    /// the definition, whichever thread finds a failure first.
    fn each_shard(
        &self,
        count: usize,
        check: &(dyn Fn(usize) -> Result<(), Error> + Sync),
    ) -> Result<(), Error> {
        (0..count)
            .into_par_iter()
            .map(check)
            .find_first(Result::is_err)
            .unwrap_or(Ok(()))
    }
}
