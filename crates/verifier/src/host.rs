//! What a host may run faster than this crate's own definitions, without
//! changing what is computed: the opening's hashes, the pass over the
//! public values, the hash of the public records, and a bundle's shard
//! checks. [`Portable`] is the
//! definition (one at a time, on the calling thread), as in a browser; the
//! native verifier (`starling`) passes the prover's vector kernels and
//! threads, each tested against these.

use crate::error::Error;
use crate::merkle::{self, OneByOne};
use crate::piop::wiring::{PublicRows, RowByRow};

/// The long passes of a verification; see the module documentation.
pub trait Host: Sync {
    /// The leaf and node hashes of the opening.
    fn hashes(&self) -> &dyn merkle::Hashes {
        &OneByOne
    }

    /// The weighing of the public values in the wiring check.
    fn public_rows(&self) -> &dyn PublicRows {
        &RowByRow
    }

    /// Adds `bytes` to a BLAKE3 hash of the public records (megabytes for
    /// a large batch).
    fn hash_records(&self, hasher: &mut blake3::Hasher, bytes: &[u8]) {
        hasher.update(bytes);
    }

    /// Runs `check(0)` to `check(count - 1)`, a bundle's shard checks, and
    /// returns the error of the first (by index) that fails. The definition
    /// runs them in order and stops at the first error; a host may run
    /// them at once, as long as it reports that same error.
    fn each_shard(
        &self,
        count: usize,
        check: &(dyn Fn(usize) -> Result<(), Error> + Sync),
    ) -> Result<(), Error> {
        (0..count).try_for_each(check)
    }
}

/// Every pass by this crate's definitions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Host for Portable {}
