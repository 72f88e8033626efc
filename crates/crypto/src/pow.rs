//! Proof-of-work grinding before a challenge ([`crate::Transcript::grind`]).
//!
//! The nonce is valid when `SHA-256("starling/pow" || state || nonce)` starts
//! with `bits` zero bits (read as a little-endian u64, its low bits), where
//! `state` is the transcript state just before the nonce is absorbed. One
//! SHA-256 block per attempt keeps the prover's search cheap.

use crate::Digest;
use rayon::prelude::*;
use sha2::{Digest as _, Sha256};

fn pow_value(state: &Digest, nonce: u64) -> u64 {
    let mut h = Sha256::new();
    h.update(b"starling/pow");
    h.update(state);
    h.update(nonce.to_le_bytes());
    let out: Digest = h.finalize().into();
    let mut word = [0u8; 8];
    word.copy_from_slice(&out[..8]);
    u64::from_le_bytes(word)
}

/// True when `nonce` meets the difficulty `bits` for `state`.
pub fn check(state: &Digest, nonce: u64, bits: u32) -> bool {
    bits == 0 || pow_value(state, nonce).trailing_zeros() >= bits
}

/// The smallest valid nonce (searched in parallel blocks).
pub fn grind(state: &Digest, bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    const BLOCK: u64 = 1 << 14;
    let mut start = 0u64;
    loop {
        if let Some(n) = (start..start + BLOCK)
            .into_par_iter()
            .find_first(|&n| check(state, n, bits))
        {
            return n;
        }
        start += BLOCK;
    }
}
