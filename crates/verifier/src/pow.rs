//! Proof of work before a challenge: what a valid nonce is.
//!
//! The nonce is valid when `BLAKE3-keyed(POW_KEY, state || nonce)` starts
//! with `bits` zero bits (read as a little-endian u64, its low bits), where
//! `state` is the transcript state just before the nonce is absorbed and
//! [`POW_KEY`] `= BLAKE3("starling/pow")`. The 40-byte input is one BLAKE3
//! block. The prover's search (`starling-crypto`'s `pow`) hashes many
//! attempts at a time and is tested against [`value`].

use crate::Digest;

/// The key of proof-of-work attempts: `BLAKE3("starling/pow")`.
pub const POW_KEY: [u8; 32] = [
    0xad, 0xbd, 0x37, 0x72, 0x58, 0xe6, 0xac, 0x9d, 0x85, 0xc8, 0x38, 0xc3, 0x77, 0x0b, 0x05, 0x8f, 0xf7,
    0xce, 0x13, 0xa9, 0x79, 0xdb, 0xc0, 0x64, 0xc7, 0xfa, 0x66, 0xee, 0xbc, 0xb1, 0x6c, 0x04,
];

/// The hashed input's length in bytes: the state, then the nonce.
pub const INPUT_LEN: usize = 32 + 8;

/// `state || nonce`, the hashed input.
pub fn attempt(state: &Digest, nonce: u64) -> [u8; INPUT_LEN] {
    let mut input = [0u8; INPUT_LEN];
    input[..32].copy_from_slice(state);
    input[32..].copy_from_slice(&nonce.to_le_bytes());
    input
}

/// A digest's first eight bytes as a little-endian u64: the value an
/// attempt is judged by.
pub fn value_of(digest: &Digest) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(word)
}

/// The value of the attempt `nonce` for `state`.
pub fn value(state: &Digest, nonce: u64) -> u64 {
    value_of(blake3::keyed_hash(&POW_KEY, &attempt(state, nonce)).as_bytes())
}

/// True when `nonce` meets the difficulty `bits` for `state`.
pub fn check(state: &Digest, nonce: u64, bits: u32) -> bool {
    bits == 0 || value(state, nonce).trailing_zeros() >= bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_hash_of_its_name() {
        assert_eq!(&POW_KEY, blake3::hash(b"starling/pow").as_bytes());
    }

    #[test]
    fn attempts_are_keyed_blake3_of_state_and_nonce() {
        let state = [3u8; 32];
        let mut input = state.to_vec();
        input.extend_from_slice(&5u64.to_le_bytes());
        let want = value_of(blake3::keyed_hash(&POW_KEY, &input).as_bytes());
        assert_eq!(value(&state, 5), want);
    }
}
