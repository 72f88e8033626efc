//! The prover's proof-of-work search before a challenge ([`Grind`]). What a
//! valid nonce is, and the check, are the verifier's
//! (`starling_verifier::pow`): keyed BLAKE3 of `state || nonce`, one block.
//! The search lays out runs of attempts side by side and hashes them many
//! at a time ([`blake3_multi::keyed_hash_many`]: sixteen with AVX-512). At
//! 16 bits a search makes 65,536 attempts on average, three times per
//! proof.

use rayon::prelude::*;
use starling_verifier::pow::{attempt, value_of, INPUT_LEN, POW_KEY};
use starling_verifier::Transcript;

use crate::blake3_multi;
use crate::Digest;

/// The prover's side of [`Transcript::check_grind`].
pub trait Grind {
    /// Proof of work before the next challenge: finds the smallest nonce
    /// meeting `bits` of difficulty for the current state, absorbs it and
    /// returns it for the proof. With `bits = 0` the nonce is 0 and costs
    /// nothing.
    fn grind(&mut self, label: &[u8], bits: u32) -> u64;
}

impl Grind for Transcript {
    fn grind(&mut self, label: &[u8], bits: u32) -> u64 {
        let nonce = grind(&self.state(), bits);
        self.absorb_u64(label, nonce);
        nonce
    }
}

/// The smallest valid nonce: blocks of nonces one after another, each
/// searched in parallel runs (the first run holding a valid nonce wins, so
/// the answer does not depend on the thread count). A run lays out its
/// attempts and hashes them together.
pub fn grind(state: &Digest, bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    const BLOCK: u64 = 1 << 14;
    const RUN: usize = 1 << 9;
    let mut start = 0u64;
    loop {
        let found = (0..BLOCK / RUN as u64).into_par_iter().find_map_first(|r| {
            let first = start + r * RUN as u64;
            let inputs: Vec<u8> = (first..first + RUN as u64)
                .flat_map(|nonce| attempt(state, nonce))
                .collect();
            let mut digests = vec![[0u8; 32]; RUN];
            blake3_multi::keyed_hash_many(&POW_KEY, &inputs, INPUT_LEN, &mut digests);
            (first..)
                .zip(&digests)
                .find(|(_, d)| value_of(d).trailing_zeros() >= bits)
                .map(|(n, _)| n)
        });
        if let Some(n) = found {
            return n;
        }
        start += BLOCK;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_verifier::pow::{check, value};

    #[test]
    fn grind_finds_the_smallest_valid_nonce() {
        let state = [7u8; 32];
        for bits in [1u32, 4, 10, 16] {
            let n = grind(&state, bits);
            assert!(check(&state, n, bits));
            assert!((0..n).all(|m| value(&state, m).trailing_zeros() < bits));
        }
    }

    #[test]
    fn a_ground_nonce_passes_the_verifiers_check() {
        let mut p = Transcript::new(b"t");
        let mut v = p.clone();
        let nonce = p.grind(b"pow", 8);
        assert!(v.check_grind(b"pow", 8, nonce));
        assert_eq!(p.state(), v.state());
    }
}
