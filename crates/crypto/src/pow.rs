//! Proof-of-work grinding before a challenge ([`crate::Transcript::grind`]).
//!
//! The nonce is valid when `BLAKE3-keyed(POW_KEY, state || nonce)` starts
//! with `bits` zero bits (read as a little-endian u64, its low bits), where
//! `state` is the transcript state just before the nonce is absorbed and
//! `POW_KEY = BLAKE3("starling/pow")`. The 40-byte input is one BLAKE3
//! block, so a search lays out runs of attempts side by side and hashes
//! them many at a time ([`blake3_multi::keyed_hash_many`]: sixteen with
//! AVX-512). At 16 bits a search makes 65,536 attempts on average, three
//! times per proof.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::blake3_multi::{self, Key};
use crate::Digest;

/// The hashed input's length in bytes: the state, then the nonce.
const INPUT_LEN: usize = 32 + 8;

/// The key of proof-of-work attempts.
fn pow_key() -> &'static Key {
    static KEY: OnceLock<Key> = OnceLock::new();
    KEY.get_or_init(|| *blake3::hash(b"starling/pow").as_bytes())
}

/// `state || nonce`, the hashed input.
fn attempt(state: &Digest, nonce: u64) -> [u8; INPUT_LEN] {
    let mut input = [0u8; INPUT_LEN];
    input[..32].copy_from_slice(state);
    input[32..].copy_from_slice(&nonce.to_le_bytes());
    input
}

/// A digest's first eight bytes as a little-endian u64.
fn value_of(digest: &Digest) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(word)
}

/// The value an attempt is judged by.
fn pow_value(state: &Digest, nonce: u64) -> u64 {
    value_of(blake3::keyed_hash(pow_key(), &attempt(state, nonce)).as_bytes())
}

/// True when `nonce` meets the difficulty `bits` for `state`.
pub fn check(state: &Digest, nonce: u64, bits: u32) -> bool {
    bits == 0 || pow_value(state, nonce).trailing_zeros() >= bits
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
            blake3_multi::keyed_hash_many(pow_key(), &inputs, INPUT_LEN, &mut digests);
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

    #[test]
    fn attempts_are_keyed_blake3_of_state_and_nonce() {
        let state = [3u8; 32];
        let mut input = state.to_vec();
        input.extend_from_slice(&5u64.to_le_bytes());
        let key = blake3::hash(b"starling/pow");
        let want = value_of(blake3::keyed_hash(key.as_bytes(), &input).as_bytes());
        assert_eq!(pow_value(&state, 5), want);
    }

    #[test]
    fn grind_finds_the_smallest_valid_nonce() {
        let state = [7u8; 32];
        for bits in [1u32, 4, 10, 16] {
            let n = grind(&state, bits);
            assert!(check(&state, n, bits));
            assert!((0..n).all(|m| pow_value(&state, m).trailing_zeros() < bits));
        }
    }
}
