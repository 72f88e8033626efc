//! Many SHA-256 hashes at once: Merkle leaves (`SHA-256(0x00 || leaf)` for
//! every consecutive `leaf_len`-byte chunk of a buffer, the same digests as
//! [`crate::merkle::hash_leaf`] on each chunk), whole tree levels of inner
//! nodes, and single padded blocks (one compression each from the initial
//! state: the proof-of-work attempts of [`crate::pow`]).
//!
//! `portable` is the definition (one `sha2` call per leaf). `sha_ni` hashes
//! two leaves in lockstep with the SHA extensions, `avx512` sixteen at a
//! time, one per 32-bit lane; both must agree with it on every input;
//! `tests/sha256_multi.rs` runs one shared harness over every backend this
//! CPU can use. [`Backend::for_tier`] maps the process's tier
//! ([`starling_field::cpu`]) to a backend: `avx512` under the AVX-512 tier,
//! `sha_ni` under the AVX2 tier where the CPU has the SHA extensions, and
//! `portable` (`sha2`, with SHA-NI or the ARMv8 SHA-256 instructions where
//! the CPU has them) otherwise.

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx512;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod sha_ni;

use starling_field::cpu::{self, Tier};

use crate::Digest;

/// SHA-256 round constants (FIPS 180-4, 4.2.2), sixteen rounds per row, for
/// the x86_64 backends.
#[cfg(target_arch = "x86_64")]
pub(super) const K: [[u32; 16]; 4] = [
    [
        0x428a_2f98,
        0x7137_4491,
        0xb5c0_fbcf,
        0xe9b5_dba5,
        0x3956_c25b,
        0x59f1_11f1,
        0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98,
        0x1283_5b01,
        0x2431_85be,
        0x550c_7dc3,
        0x72be_5d74,
        0x80de_b1fe,
        0x9bdc_06a7,
        0xc19b_f174,
    ],
    [
        0xe49b_69c1,
        0xefbe_4786,
        0x0fc1_9dc6,
        0x240c_a1cc,
        0x2de9_2c6f,
        0x4a74_84aa,
        0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152,
        0xa831_c66d,
        0xb003_27c8,
        0xbf59_7fc7,
        0xc6e0_0bf3,
        0xd5a7_9147,
        0x06ca_6351,
        0x1429_2967,
    ],
    [
        0x27b7_0a85,
        0x2e1b_2138,
        0x4d2c_6dfc,
        0x5338_0d13,
        0x650a_7354,
        0x766a_0abb,
        0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1,
        0xa81a_664b,
        0xc24b_8b70,
        0xc76c_51a3,
        0xd192_e819,
        0xd699_0624,
        0xf40e_3585,
        0x106a_a070,
    ],
    [
        0x19a4_c116,
        0x1e37_6c08,
        0x2748_774c,
        0x34b0_bcb5,
        0x391c_0cb3,
        0x4ed8_aa4a,
        0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee,
        0x78a5_636f,
        0x84c8_7814,
        0x8cc7_0208,
        0x90be_fffa,
        0xa450_6ceb,
        0xbef9_a3f7,
        0xc671_78f2,
    ],
];

/// Which implementation of leaf hashing is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One `sha2` call per leaf (SHA-NI when the CPU has it), any CPU.
    Portable,
    /// x86_64 SHA extensions, two leaves in lockstep.
    ShaNi,
    /// x86_64 AVX-512F + AVX-512BW, sixteen leaves per pass.
    Avx512,
}

impl Backend {
    /// Every backend, fastest last.
    pub const ALL: [Backend; 3] = [Backend::Portable, Backend::ShaNi, Backend::Avx512];

    /// The backend `tier` uses: under the AVX2 tier the SHA extensions where
    /// the CPU has them (the tier does not include them).
    pub fn for_tier(tier: Tier) -> Backend {
        match tier {
            Tier::Avx512 => Backend::Avx512,
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 if sha_ni::available() => Backend::ShaNi,
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
        Backend::ShaNi if sha_ni::available() => Some(sha_ni::hash_leaves_chunked),
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
        Backend::ShaNi if sha_ni::available() => Some(sha_ni::hash_nodes),
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

/// A block compressor: `out[i]` is the state after one compression of the
/// padded block `blocks[i]` from SHA-256's initial state (for a one-block
/// message, its digest); panics unless the lengths match.
pub type BlockCompressor = fn(&[[u8; 64]], &mut [Digest]);

/// The block compressor of `backend`, or `None` when this CPU lacks its
/// features. Ignores the process's tier (tests use it to reach every
/// backend).
pub fn block_compressor_for(backend: Backend) -> Option<BlockCompressor> {
    match backend {
        Backend::Portable => Some(portable::compress_blocks),
        #[cfg(target_arch = "x86_64")]
        Backend::ShaNi if sha_ni::available() => Some(sha_ni::compress_blocks),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if avx512::available() => Some(avx512::compress_blocks),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// One compression of every padded block from the initial state, sixteen
/// at a time when the CPU allows (proof-of-work searches: one block per
/// attempt). Panics unless `blocks.len() == out.len()`.
pub fn compress_blocks_into(blocks: &[[u8; 64]], out: &mut [Digest]) {
    let compressor = block_compressor_for(backend()).unwrap_or(portable::compress_blocks);
    compressor(blocks, out);
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
