//! A zero-knowledge prover's randomness: the random wires, the opening's
//! mask and salt rows, every pad. It comes from a ChaCha20 generator seeded
//! by the operating system's generator; a test may fix the seed instead, so
//! that its proofs are byte-identical across CPU tiers and thread counts.
//! Nothing here is ever derived from the witness (a seed computed from
//! witness data would make the proof a function of the witness again).

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::Error;

/// Where a zero-knowledge proof's randomness comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
    /// A fresh seed from the operating system for every proof.
    Os,
    /// A fixed seed: reproducible proofs, for tests only (a proof's
    /// randomness must never be guessable).
    TestSeed([u8; 32]),
}

impl Randomness {
    /// The proof's generator.
    pub(crate) fn generator(self) -> Result<ChaCha20Rng, Error> {
        let seed = match self {
            Randomness::Os => {
                let mut seed = [0u8; 32];
                getrandom::fill(&mut seed)
                    .map_err(|e| Error::Internal(format!("the operating system's random generator: {e}")))?;
                seed
            }
            Randomness::TestSeed(seed) => seed,
        };
        Ok(ChaCha20Rng::from_seed(seed))
    }
}
