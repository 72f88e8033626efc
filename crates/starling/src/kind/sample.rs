//! Sample inputs drawn from a seed (ChaCha8), for demos, tests and
//! benchmarks: the kinds sample from any source of random bytes
//! (`random_inputs_from`, `random_batch_from`); the verifier has no
//! randomness of its own.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Batch, Membership, Preimage, Signatures};
use crate::Records;

/// A batch's input records from a seed.
pub trait SampleInputs {
    /// `count` input records of uniformly random bits from `seed`.
    fn random_inputs(&self, count: usize, seed: u64) -> Records;
}

/// A signature batch from a seed.
pub trait SampleSignatures {
    /// `count` valid signatures on random messages of `msg_len` bytes under
    /// fresh keys, from `seed`: the public records (`PK ‖ MSG`) and the
    /// private ones (the signatures).
    fn random_batch(&self, count: usize, msg_len: usize, seed: u64) -> (Records, Records);
}

/// A preimage batch from a seed.
pub trait SamplePreimages {
    /// `count` random messages of random lengths up to the kind's
    /// `max_len` from `seed`: the public records (the digests) and the
    /// private ones (the messages).
    fn random_batch(&self, count: usize, seed: u64) -> (Records, Records);
}

/// A membership batch from a seed.
pub trait SampleMembers {
    /// A random tree of `size` leaves and `count` members at random
    /// indices (repeats allowed) from `seed`: the public record, the
    /// members' private records and the tree's leaves.
    fn random_batch(&self, size: usize, count: usize, seed: u64) -> (Records, Records, Records);
}

impl SampleInputs for Batch {
    fn random_inputs(&self, count: usize, seed: u64) -> Records {
        self.random_inputs_from(count, &mut from_seed(seed))
    }
}

impl SampleSignatures for Signatures {
    fn random_batch(&self, count: usize, msg_len: usize, seed: u64) -> (Records, Records) {
        self.random_batch_from(count, msg_len, &mut from_seed(seed))
    }
}

impl SamplePreimages for Preimage {
    fn random_batch(&self, count: usize, seed: u64) -> (Records, Records) {
        self.random_batch_from(count, &mut from_seed(seed))
    }
}

impl SampleMembers for Membership {
    fn random_batch(&self, size: usize, count: usize, seed: u64) -> (Records, Records, Records) {
        self.random_batch_from(size, count, &mut from_seed(seed))
    }
}

/// The bytes of ChaCha8 from `seed`.
pub(crate) fn from_seed(seed: u64) -> impl FnMut(&mut [u8]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |out: &mut [u8]| rng.fill_bytes(out)
}
