//! A binary Merkle tree with domain-separated leaves and nodes, and compact
//! multi-openings.
//!
//! `leaf = SHA-256(0x00 || data)`, `node = SHA-256(0x01 || left || right)`, so a
//! leaf can never be taken for an inner node. A multi-opening lists only the
//! sibling hashes the verifier cannot compute from the opened leaves; the
//! verifier walks the levels with the exact positions it asked for, so a proof
//! for other positions, another depth, or with hashes left over is rejected.

use rayon::prelude::*;
use sha2::{Digest as _, Sha256};
use starling_field::Gf128;

use crate::Digest;

/// Why a Merkle opening was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MerkleError {
    /// Positions must be strictly increasing and below 2^depth.
    #[error("Merkle opening positions are not strictly increasing within the tree")]
    BadPositions,
    /// The number of leaves does not match the number of positions.
    #[error("Merkle opening has {got} leaves for {want} positions")]
    LeafCount {
        /// leaves given
        got: usize,
        /// positions asked
        want: usize,
    },
    /// The proof ran out of sibling hashes.
    #[error("Merkle opening is missing sibling hashes")]
    MissingSiblings,
    /// The proof has sibling hashes that were not needed.
    #[error("Merkle opening has unused sibling hashes")]
    ExtraSiblings,
    /// The recomputed root differs from the committed one.
    #[error("Merkle opening does not lead to the committed root")]
    RootMismatch,
}

/// Hash of a leaf holding `data`. To hash many leaves of one length, see
/// [`crate::sha256_multi::hash_leaves_chunked`] (same digests, SIMD when the
/// CPU has it).
pub fn hash_leaf(data: &[u8]) -> Digest {
    let mut h = Sha256::new();
    h.update([0u8]);
    h.update(data);
    h.finalize().into()
}

/// Hash of a leaf holding field elements (their 16-byte encodings in order);
/// equal to `hash_leaf` of the concatenated bytes.
pub fn hash_leaf_fields(data: &[Gf128]) -> Digest {
    let mut h = Sha256::new();
    h.update([0u8]);
    // One `update` over the whole column: the hasher then runs its block
    // function on long runs instead of buffering 16 bytes at a time.
    #[cfg(target_endian = "little")]
    h.update(Gf128::slice_as_bytes(data));
    #[cfg(not(target_endian = "little"))]
    for v in data {
        h.update(v.to_bytes());
    }
    h.finalize().into()
}

/// SHA-256's initial state (FIPS 180-4, 5.3.3).
pub(crate) const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// Hash of an inner node: `SHA-256(0x01 || left || right)`.
///
/// The input always has 65 bytes, so its two padded blocks are laid out here
/// once and go straight to the block function (SHA-NI when available),
/// skipping the streaming hasher's buffering; `hash_node_streaming` in the
/// tests is the definition it is checked against.
pub fn hash_node(left: &Digest, right: &Digest) -> Digest {
    let mut blocks =
        [sha2::digest::generic_array::GenericArray::<u8, sha2::digest::consts::U64>::default(); 2];
    blocks[0][0] = 1;
    blocks[0][1..33].copy_from_slice(left);
    blocks[0][33..].copy_from_slice(&right[..31]);
    blocks[1][0] = right[31];
    blocks[1][1] = 0x80;
    blocks[1][56..].copy_from_slice(&(65u64 * 8).to_be_bytes());
    let mut state = SHA256_IV;
    sha2::compress256(&mut state, &blocks);
    let mut out = [0u8; 32];
    for (o, w) in out.chunks_exact_mut(4).zip(state) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// Nodes hashed per rayon task when a tree is built.
const NODE_RUN: usize = 1 << 10;

/// A full tree over 2^depth leaves.
#[derive(Clone, Debug)]
pub struct MerkleTree {
    depth: usize,
    /// Level 0 are the leaf hashes, the last level is the root.
    levels: Vec<Vec<Digest>>,
}

/// The sibling hashes of a multi-opening, in the order the verifier needs them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiProof {
    /// Sibling hashes, level by level from the leaves up, left to right.
    pub siblings: Vec<Digest>,
}

impl MerkleTree {
    /// Builds the tree; the number of leaves must be a power of two.
    pub fn from_leaf_hashes(leaves: Vec<Digest>) -> Self {
        assert!(
            leaves.len().is_power_of_two(),
            "leaf count must be a power of two"
        );
        let depth = leaves.len().trailing_zeros() as usize;
        let mut levels = vec![leaves];
        for _ in 0..depth {
            let prev = levels.last().expect("at least the leaf level");
            let mut next = vec![[0u8; 32]; prev.len() / 2];
            // Runs of NODE_RUN nodes on rayon's threads: a level-0 tree of a
            // 2^14 batch has 2^17 and more nodes, tens of milliseconds on one.
            next.par_chunks_mut(NODE_RUN)
                .zip(prev.par_chunks(2 * NODE_RUN))
                .for_each(|(out, children)| crate::sha256_multi::hash_nodes_into(children, out));
            levels.push(next);
        }
        MerkleTree { depth, levels }
    }

    /// log2 of the number of leaves.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The root hash.
    pub fn root(&self) -> Digest {
        self.levels[self.depth][0]
    }

    /// Opens the given positions (strictly increasing, each below 2^depth).
    pub fn open(&self, positions: &[usize]) -> MultiProof {
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "positions must be strictly increasing"
        );
        let mut siblings = Vec::new();
        let mut current: Vec<usize> = positions.to_vec();
        for level in 0..self.depth {
            let mut next = Vec::with_capacity(current.len());
            let mut i = 0;
            while i < current.len() {
                let idx = current[i];
                if i + 1 < current.len() && current[i + 1] == idx ^ 1 {
                    i += 2;
                } else {
                    siblings.push(self.levels[level][idx ^ 1]);
                    i += 1;
                }
                next.push(idx >> 1);
            }
            current = next;
        }
        MultiProof { siblings }
    }
}

/// Checks that `leaves[i]` is the leaf hash at `positions[i]` of the tree of
/// the given depth and root.
pub fn verify(
    root: &Digest,
    depth: usize,
    positions: &[usize],
    leaves: &[Digest],
    proof: &MultiProof,
) -> Result<(), MerkleError> {
    if leaves.len() != positions.len() {
        return Err(MerkleError::LeafCount {
            got: leaves.len(),
            want: positions.len(),
        });
    }
    if positions.is_empty()
        || depth >= usize::BITS as usize
        || !positions.windows(2).all(|w| w[0] < w[1])
        || positions.iter().any(|&p| p >> depth != 0)
    {
        return Err(MerkleError::BadPositions);
    }
    let mut siblings = proof.siblings.iter();
    let mut current: Vec<(usize, Digest)> = positions.iter().copied().zip(leaves.iter().copied()).collect();
    for _ in 0..depth {
        let mut next = Vec::with_capacity(current.len());
        let mut i = 0;
        while i < current.len() {
            let (idx, h) = current[i];
            let parent = if i + 1 < current.len() && current[i + 1].0 == idx ^ 1 {
                let pair = hash_node(&h, &current[i + 1].1);
                i += 2;
                pair
            } else {
                let s = siblings.next().ok_or(MerkleError::MissingSiblings)?;
                i += 1;
                if idx & 1 == 0 {
                    hash_node(&h, s)
                } else {
                    hash_node(s, &h)
                }
            };
            next.push((idx >> 1, parent));
        }
        current = next;
    }
    if siblings.next().is_some() {
        return Err(MerkleError::ExtraSiblings);
    }
    match current.as_slice() {
        [(0, h)] if h == root => Ok(()),
        _ => Err(MerkleError::RootMismatch),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition of [`hash_node`], with the streaming hasher.
    fn hash_node_streaming(left: &Digest, right: &Digest) -> Digest {
        let mut h = Sha256::new();
        h.update([1u8]);
        h.update(left);
        h.update(right);
        h.finalize().into()
    }

    #[test]
    fn hash_node_matches_streaming_sha256() {
        let mut l = [0u8; 32];
        let mut r = [0xffu8; 32];
        for i in 0..200u8 {
            l[(i % 32) as usize] ^= i.wrapping_mul(37);
            r[(i as usize * 7) % 32] = i;
            assert_eq!(hash_node(&l, &r), hash_node_streaming(&l, &r));
        }
    }

    #[test]
    fn hash_leaf_fields_matches_hash_leaf_of_bytes() {
        for n in [0usize, 1, 3, 64, 65] {
            let v: Vec<Gf128> = (0..n as u128)
                .map(|i| Gf128::new(i * 0x0101_0203_0508_0d15_2237_5990_e979_62db))
                .collect();
            let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_bytes()).collect();
            assert_eq!(hash_leaf_fields(&v), hash_leaf(&bytes));
        }
    }
}
