#![doc = include_str!("../README.md")]
// `unsafe` is allowed only in the SIMD kernel modules (`blake3_multi`'s
// `x86_64` and `aarch64`), each use with a comment on why it is sound.
#![deny(unsafe_code)]

pub mod blake3_multi;
pub mod codec;
pub mod merkle;
pub mod pow;
mod transcript;

pub use transcript::Transcript;

/// A 32-byte digest (Merkle trees, transcript state).
pub type Digest = [u8; 32];

/// `n` zero digests, written on rayon's threads: a buffer that hashes
/// overwrite (a level of a Merkle tree, a commitment's leaves). Blocks below
/// the allocator's mapping threshold come from its heap, where
/// `vec![[0u8; 32]; n]` clears them on the calling thread, every other
/// thread waiting: on two Zen 1 cores running sixteen threads, a 2^16
/// SHA-256 commitment's critical path held 2.0 ms of clearing its 16 MiB of
/// leaves and 1.6 ms of its tree's levels.
/// Short buffers are cleared in place, cheaper than a fork.
pub fn zero_digests(n: usize) -> Vec<Digest> {
    use rayon::prelude::*;
    if n < 1 << 14 {
        return vec![[0u8; 32]; n];
    }
    let mut out = Vec::with_capacity(n);
    out.par_extend(rayon::iter::repeat_n([0u8; 32], n));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn zero_digests_are_zero_on_both_sides_of_the_fork() {
        for n in [0, 1, (1 << 14) - 1, 1 << 14, (1 << 16) + 3] {
            let z = super::zero_digests(n);
            assert_eq!(z.len(), n);
            assert!(z.iter().all(|d| *d == [0u8; 32]), "{n}");
        }
    }
}
