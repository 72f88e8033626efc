//! Many Merkle leaf hashes at once: `SHA-256(0x00 || leaf)` for every
//! consecutive `leaf_len`-byte chunk of a buffer, the same digests as
//! [`crate::merkle::hash_leaf`] on each chunk.
//!
//! `portable` is the definition (one `sha2` call per leaf). `avx512` hashes
//! sixteen leaves at a time, one per 32-bit lane, and must agree with it on
//! every input; `tests/sha256_multi.rs` runs one shared harness over every
//! backend this CPU can use. [`Backend::for_tier`] maps the process's tier
//! ([`starling_field::cpu`]) to a backend: `avx512` under the AVX-512 tier,
//! `portable` (`sha2`, with SHA-NI or the ARMv8 SHA-256 instructions where
//! the CPU has them) under the others.

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx512;
mod portable;

use starling_field::cpu::{self, Tier};

use crate::Digest;

/// Which implementation of leaf hashing is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One `sha2` call per leaf (SHA-NI when the CPU has it), any CPU.
    Portable,
    /// x86_64 AVX-512F + AVX-512BW, sixteen leaves per pass.
    Avx512,
}

impl Backend {
    /// Every backend, fastest last.
    pub const ALL: [Backend; 2] = [Backend::Portable, Backend::Avx512];

    /// The backend `tier` uses.
    pub fn for_tier(tier: Tier) -> Backend {
        match tier {
            Tier::Avx512 => Backend::Avx512,
            _ => Backend::Portable,
        }
    }
}

/// `(data, leaf_len, out)`: hashes the `out.len()` leaves
/// `data[i * leaf_len..(i + 1) * leaf_len]` into `out[i]`; panics unless
/// `data.len() == out.len() * leaf_len`.
pub type ChunkedLeafHasher = fn(&[u8], usize, &mut [Digest]);

/// The leaf hasher of `backend`, or `None` when this CPU lacks its features.
/// Ignores the process's tier (tests use it to reach every backend).
pub fn hasher_for(backend: Backend) -> Option<ChunkedLeafHasher> {
    match backend {
        Backend::Portable => Some(portable::hash_leaves_chunked),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if avx512::available() => Some(avx512::hash_leaves_chunked),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The backend of the process's tier.
pub fn backend() -> Backend {
    Backend::for_tier(cpu::tier())
}

/// Hashes the leaves `data[i * leaf_len..(i + 1) * leaf_len]` into `out[i]`
/// (`out[i] = merkle::hash_leaf(leaf i)`). Panics unless
/// `data.len() == out.len() * leaf_len`; with `leaf_len == 0`, `out.len()`
/// empty leaves are hashed.
pub fn hash_leaves_chunked_into(data: &[u8], leaf_len: usize, out: &mut [Digest]) {
    let hasher = hasher_for(backend()).unwrap_or(portable::hash_leaves_chunked);
    hasher(data, leaf_len, out);
}

/// A node hasher: `out[i] = merkle::hash_node(left, right)` for the pairs
/// `children[64 i..64 i + 64] = left || right`.
pub type NodeHasher = fn(&[u8], &mut [Digest]);

/// The node hasher of `backend`, or `None` when this CPU lacks its features.
/// Ignores the process's tier (tests use it to reach every backend).
pub fn node_hasher_for(backend: Backend) -> Option<NodeHasher> {
    match backend {
        Backend::Portable => Some(portable::hash_nodes),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if avx512::available() => Some(avx512::hash_nodes),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// One level of a Merkle tree: `out[i] = merkle::hash_node(children[2 i],
/// children[2 i + 1])`, sixteen nodes at a time when the CPU allows. Panics
/// unless `children.len() == 2 * out.len()`.
pub fn hash_nodes_into(children: &[Digest], out: &mut [Digest]) {
    assert_eq!(children.len(), 2 * out.len(), "two children per node");
    let hasher = node_hasher_for(backend()).unwrap_or(portable::hash_nodes);
    hasher(children.as_flattened(), out);
}

/// The leaf hashes of the consecutive `leaf_len`-byte chunks of `data`.
/// Panics if `leaf_len` is zero or does not divide `data.len()`.
pub fn hash_leaves_chunked(data: &[u8], leaf_len: usize) -> Vec<Digest> {
    assert!(leaf_len > 0, "leaf length must be positive");
    assert_eq!(
        data.len() % leaf_len,
        0,
        "data length must be a multiple of the leaf length"
    );
    let mut out = vec![[0u8; 32]; data.len() / leaf_len];
    hash_leaves_chunked_into(data, leaf_len, &mut out);
    out
}
