//! The Fiat–Shamir transcript: a SHA-256 hash chain with typed, length-prefixed
//! messages.
//!
//! State update for a message: `s' = SHA-256("starling/absorb" || s || len(label)
//! || label || len(data) || data)`. A challenge: `out = SHA-256("starling/squeeze"
//! || s || len(label) || label)`, then `s' = SHA-256("starling/ratchet" || s || out)`.
//! Lengths are 8-byte little-endian. Because every challenge ratchets the
//! state, two challenges with the same label in a row differ, and a change to
//! any earlier message changes every later challenge.
//!
//! [`Transcript::challenge_tape`] is the interactive protocol with a fixed
//! verifier: it ignores every message, so its challenges depend only on the
//! protocol name and their order. Tests of zero knowledge use it to hold the
//! challenges still while the prover's randomness varies; a proof made with
//! it is not sound, and no verifier ever starts one.

use alloc::vec::Vec;

use sha2::{Digest as _, Sha256};

use crate::Gf128;

use crate::Digest;

/// The prover's and verifier's shared view of the conversation.
#[derive(Clone)]
pub struct Transcript {
    state: Digest,
    /// A challenge tape: messages are not absorbed.
    tape: bool,
}

impl Transcript {
    /// A fresh transcript for the protocol named `protocol`.
    pub fn new(protocol: &[u8]) -> Self {
        let mut t = Transcript {
            state: [0u8; 32],
            tape: false,
        };
        t.absorb_bytes(b"protocol", protocol);
        t
    }

    /// A challenge tape named `protocol`: the same challenges, in the same
    /// order, whatever the messages (module notes). For tests only.
    pub fn challenge_tape(protocol: &[u8]) -> Self {
        let mut t = Transcript::new(protocol);
        t.tape = true;
        t
    }

    /// The current state (for tests and for binding a proof to its transcript).
    pub fn state(&self) -> Digest {
        self.state
    }

    /// Absorbs a labelled byte string.
    pub fn absorb_bytes(&mut self, label: &[u8], data: &[u8]) {
        if self.tape {
            return;
        }
        let mut h = Sha256::new();
        h.update(b"starling/absorb");
        h.update(self.state);
        h.update((label.len() as u64).to_le_bytes());
        h.update(label);
        h.update((data.len() as u64).to_le_bytes());
        h.update(data);
        self.state = h.finalize().into();
    }

    /// Absorbs a labelled `u64`.
    pub fn absorb_u64(&mut self, label: &[u8], v: u64) {
        self.absorb_bytes(label, &v.to_le_bytes());
    }

    /// Absorbs one field element.
    pub fn absorb_field(&mut self, label: &[u8], v: Gf128) {
        self.absorb_bytes(label, &v.to_bytes());
    }

    /// Absorbs a slice of field elements as one message.
    pub fn absorb_fields(&mut self, label: &[u8], vs: &[Gf128]) {
        let mut bytes = Vec::with_capacity(16 * vs.len());
        for v in vs {
            bytes.extend_from_slice(&v.to_bytes());
        }
        self.absorb_bytes(label, &bytes);
    }

    /// Checks a proof of work before the next challenge ([`crate::pow`]):
    /// false when `nonce` does not meet `bits` of difficulty for the current
    /// state; otherwise absorbs it, as the prover's search did after
    /// finding it (`starling-crypto`'s `Grind`).
    pub fn check_grind(&mut self, label: &[u8], bits: u32, nonce: u64) -> bool {
        if !crate::pow::check(&self.state, nonce, bits) {
            return false;
        }
        self.absorb_u64(label, nonce);
        true
    }

    /// Squeezes 32 challenge bytes.
    pub fn challenge_bytes(&mut self, label: &[u8]) -> Digest {
        let mut h = Sha256::new();
        h.update(b"starling/squeeze");
        h.update(self.state);
        h.update((label.len() as u64).to_le_bytes());
        h.update(label);
        let out: Digest = h.finalize().into();
        let mut r = Sha256::new();
        r.update(b"starling/ratchet");
        r.update(self.state);
        r.update(out);
        self.state = r.finalize().into();
        out
    }

    /// A uniformly random field element.
    pub fn challenge_field(&mut self, label: &[u8]) -> Gf128 {
        let b = self.challenge_bytes(label);
        let mut arr = [0u8; 16];
        arr.copy_from_slice(&b[..16]);
        Gf128::from_bytes(arr)
    }

    /// `n` uniformly random field elements.
    pub fn challenge_fields(&mut self, label: &[u8], n: usize) -> Vec<Gf128> {
        (0..n).map(|_| self.challenge_field(label)).collect()
    }

    /// `count` indices uniform in `0..bound` (with repetition), by rejection
    /// sampling on 64-bit words, so there is no modulo bias.
    pub fn challenge_indices(&mut self, label: &[u8], bound: usize, count: usize) -> Vec<usize> {
        assert!(bound > 0, "challenge_indices needs a positive bound");
        let bound64 = bound as u64;
        // Largest multiple of bound that fits; values at or above it are rejected.
        let zone = u64::MAX - (u64::MAX % bound64 + 1) % bound64;
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let block = self.challenge_bytes(label);
            for chunk in block.chunks_exact(8) {
                let mut arr = [0u8; 8];
                arr.copy_from_slice(chunk);
                let v = u64::from_le_bytes(arr);
                if v <= zone && out.len() < count {
                    out.push((v % bound64) as usize);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_later_challenge_depends_on_each_message() {
        let run = |msgs: &[&[u8]]| {
            let mut t = Transcript::new(b"test");
            let mut outs = Vec::new();
            for m in msgs {
                t.absorb_bytes(b"m", m);
                outs.push(t.challenge_field(b"c"));
            }
            outs
        };
        let base = run(&[b"a", b"b", b"c"]);
        let changed = run(&[b"a", b"B", b"c"]);
        assert_eq!(base[0], changed[0]);
        assert_ne!(base[1], changed[1]);
        assert_ne!(base[2], changed[2]);
    }

    #[test]
    fn length_prefix_separates_messages() {
        let mut a = Transcript::new(b"t");
        a.absorb_bytes(b"x", b"ab");
        a.absorb_bytes(b"x", b"c");
        let mut b = Transcript::new(b"t");
        b.absorb_bytes(b"x", b"a");
        b.absorb_bytes(b"x", b"bc");
        assert_ne!(a.state(), b.state());
    }

    #[test]
    fn a_checked_nonce_is_absorbed_and_a_bad_one_is_not() {
        let fresh = Transcript::new(b"t");
        let nonce = (0..).find(|&n| crate::pow::check(&fresh.state(), n, 8)).unwrap();
        let mut v = fresh.clone();
        assert!(v.check_grind(b"pow", 8, nonce));
        let mut absorbed = fresh.clone();
        absorbed.absorb_u64(b"pow", nonce);
        assert_eq!(v.state(), absorbed.state());
        // Some nonce below 64 fails 8 bits of difficulty (each passes with 1/256).
        let bad = (0..64)
            .find(|&n| !crate::pow::check(&fresh.state(), n, 8))
            .unwrap();
        let mut w = fresh.clone();
        assert!(!w.check_grind(b"pow", 8, bad));
        assert_eq!(w.state(), fresh.state());
    }

    #[test]
    fn repeated_challenges_differ() {
        let mut t = Transcript::new(b"t");
        assert_ne!(t.challenge_field(b"r"), t.challenge_field(b"r"));
    }

    #[test]
    fn indices_in_range_and_spread() {
        let mut t = Transcript::new(b"t");
        let idx = t.challenge_indices(b"q", 7, 7000);
        assert!(idx.iter().all(|&i| i < 7));
        for v in 0..7 {
            let c = idx.iter().filter(|&&i| i == v).count();
            assert!((800..1200).contains(&c), "value {v} drawn {c} times");
        }
    }
}
