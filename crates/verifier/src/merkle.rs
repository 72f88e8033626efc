//! A binary Merkle tree with domain-separated leaves and nodes, and compact
//! multi-openings.
//!
//! `leaf = BLAKE3-keyed(LEAF_KEY, data)`, `node = BLAKE3-keyed(NODE_KEY, left
//! || right)` with two different keys ([`LEAF_KEY`], [`NODE_KEY`]), so a leaf
//! can never be taken for an inner node. A node is one BLAKE3 block, and a
//! leaf of up to 1 KiB (every column Starling commits) one chunk, which the
//! prover (`starling-crypto`) hashes many at a time. This module is what a
//! tree is and how an opening is checked. A multi-opening lists only the
//! sibling hashes the verifier cannot compute from the opened leaves; the
//! verifier walks the levels with the exact positions it asked for, so a proof
//! for other positions, another depth, or with hashes left over is rejected.

use alloc::vec::Vec;

use crate::{Digest, Gf128};

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

/// The key of leaf hashes: `BLAKE3("starling/merkle/leaf")`.
pub const LEAF_KEY: [u8; 32] = [
    0xb7, 0x86, 0x24, 0xee, 0x75, 0x0c, 0x41, 0xec, 0x56, 0xbe, 0x17, 0x1b, 0xed, 0x0d, 0x60, 0x54, 0x44,
    0x43, 0xac, 0x5f, 0xfc, 0xd2, 0x12, 0x27, 0x6e, 0x72, 0xff, 0xb7, 0xfe, 0xf8, 0x00, 0x94,
];

/// The key of inner-node hashes: `BLAKE3("starling/merkle/node")`.
pub const NODE_KEY: [u8; 32] = [
    0x9f, 0x82, 0x28, 0x84, 0x1b, 0xa7, 0xa5, 0x05, 0x1c, 0xc7, 0x62, 0xdc, 0x2e, 0xc9, 0x69, 0x5a, 0x30,
    0x51, 0x3b, 0x61, 0xfe, 0x15, 0xe5, 0x10, 0x73, 0xe5, 0xc6, 0x3e, 0xe7, 0xf3, 0x63, 0x41,
];

/// Hash of a leaf holding `data`.
pub fn hash_leaf(data: &[u8]) -> Digest {
    *blake3::keyed_hash(&LEAF_KEY, data).as_bytes()
}

/// Hash of a leaf holding field elements (their 16-byte encodings in order);
/// equal to `hash_leaf` of the concatenated bytes.
pub fn hash_leaf_fields(data: &[Gf128]) -> Digest {
    // Whole BLAKE3 chunks (64 elements) at a time: an update per element
    // costs more than the hashing.
    const CHUNK: usize = 64;
    let mut h = blake3::Hasher::new_keyed(&LEAF_KEY);
    let mut bytes = [0u8; 16 * CHUNK];
    for part in data.chunks(CHUNK) {
        for (b, v) in bytes.chunks_exact_mut(16).zip(part) {
            b.copy_from_slice(&v.to_bytes());
        }
        h.update(&bytes[..16 * part.len()]);
    }
    *h.finalize().as_bytes()
}

/// Hash of an inner node: keyed BLAKE3 of `left || right`, one block.
pub fn hash_node(left: &Digest, right: &Digest) -> Digest {
    let mut pair = [0u8; 64];
    pair[..32].copy_from_slice(left);
    pair[32..].copy_from_slice(right);
    *blake3::keyed_hash(&NODE_KEY, &pair).as_bytes()
}

/// How a verifier computes the leaf and node hashes of its openings.
/// [`OneByOne`] is the definition, one hash at a time; a native caller may
/// hand in an implementation that hashes many at once (`starling-crypto`'s
/// `ManyAtOnce`, tested against this one): the openings of a proof are a
/// few thousand BLAKE3 blocks, most of a small proof's verify time.
pub trait Hashes {
    /// The hashes of consecutive leaves of `width` elements each (`data` a
    /// whole number of them): [`hash_leaf_fields`] of each.
    fn leaves(&self, data: &[Gf128], width: usize) -> Vec<Digest>;
    /// The hash of each 64-byte `left || right` pair: [`hash_node`].
    fn nodes(&self, pairs: &[[u8; 64]]) -> Vec<Digest>;
}

/// [`Hashes`] one at a time.
#[derive(Clone, Copy, Debug, Default)]
pub struct OneByOne;

impl Hashes for OneByOne {
    fn leaves(&self, data: &[Gf128], width: usize) -> Vec<Digest> {
        data.chunks_exact(width).map(hash_leaf_fields).collect()
    }

    fn nodes(&self, pairs: &[[u8; 64]]) -> Vec<Digest> {
        pairs
            .iter()
            .map(|p| *blake3::keyed_hash(&NODE_KEY, p).as_bytes())
            .collect()
    }
}

/// The sibling hashes of a multi-opening, in the order the verifier needs them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiProof {
    /// Sibling hashes, level by level from the leaves up, left to right.
    pub siblings: Vec<Digest>,
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
    verify_with(&OneByOne, root, depth, positions, leaves, proof)
}

/// [`verify`], with the node hashes of each level computed by `hashes`.
pub fn verify_with(
    hashes: &dyn Hashes,
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
    let mut indices = positions.to_vec();
    let mut level = leaves.to_vec();
    // Each level's parents (at most one per query) are hashed in one call.
    for _ in 0..depth {
        let mut pairs: Vec<[u8; 64]> = Vec::with_capacity(indices.len());
        let mut next = Vec::with_capacity(indices.len());
        let mut i = 0;
        while i < indices.len() {
            let idx = indices[i];
            let (left, right) = if i + 1 < indices.len() && indices[i + 1] == idx ^ 1 {
                i += 2;
                (&level[i - 2], &level[i - 1])
            } else {
                let s = siblings.next().ok_or(MerkleError::MissingSiblings)?;
                i += 1;
                if idx & 1 == 0 {
                    (&level[i - 1], s)
                } else {
                    (s, &level[i - 1])
                }
            };
            let mut pair = [0u8; 64];
            pair[..32].copy_from_slice(left);
            pair[32..].copy_from_slice(right);
            pairs.push(pair);
            next.push(idx >> 1);
        }
        level = hashes.nodes(&pairs);
        indices = next;
    }
    if siblings.next().is_some() {
        return Err(MerkleError::ExtraSiblings);
    }
    match (indices.as_slice(), level.as_slice()) {
        ([0], [h]) if h == root => Ok(()),
        _ => Err(MerkleError::RootMismatch),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn hashes_are_keyed_blake3_with_two_keys() {
        let (l, r) = ([7u8; 32], [9u8; 32]);
        let pair = [l, r].concat();
        assert_eq!(
            hash_node(&l, &r),
            *blake3::keyed_hash(&NODE_KEY, &pair).as_bytes()
        );
        assert_eq!(hash_leaf(&pair), *blake3::keyed_hash(&LEAF_KEY, &pair).as_bytes());
        // The two keys differ, so a node is never a leaf of the same bytes.
        assert_ne!(hash_node(&l, &r), hash_leaf(&pair));
        assert_eq!(&LEAF_KEY, blake3::hash(b"starling/merkle/leaf").as_bytes());
        assert_eq!(&NODE_KEY, blake3::hash(b"starling/merkle/node").as_bytes());
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

    /// A tree of 8 leaves by hand; openings of one, two siblings and all.
    #[test]
    fn openings_verify_and_every_change_is_rejected() {
        let leaves: Vec<Digest> = (0u8..8).map(|i| hash_leaf(&[i])).collect();
        let level1: Vec<Digest> = leaves.chunks(2).map(|c| hash_node(&c[0], &c[1])).collect();
        let level2: Vec<Digest> = level1.chunks(2).map(|c| hash_node(&c[0], &c[1])).collect();
        let root = hash_node(&level2[0], &level2[1]);
        // Position 5: siblings 4, then node 3 of level 1, then node 0 of level 2.
        let proof = MultiProof {
            siblings: vec![leaves[4], level1[3], level2[0]],
        };
        assert_eq!(verify(&root, 3, &[5], &[leaves[5]], &proof), Ok(()));
        assert_eq!(
            verify(&root, 3, &[4], &[leaves[5]], &proof),
            Err(MerkleError::RootMismatch)
        );
        assert_eq!(
            verify(&root, 3, &[5], &[leaves[4]], &proof),
            Err(MerkleError::RootMismatch)
        );
        let short = MultiProof {
            siblings: proof.siblings[..2].to_vec(),
        };
        assert_eq!(
            verify(&root, 3, &[5], &[leaves[5]], &short),
            Err(MerkleError::MissingSiblings)
        );
        let mut long = proof.clone();
        long.siblings.push(root);
        assert_eq!(
            verify(&root, 3, &[5], &[leaves[5]], &long),
            Err(MerkleError::ExtraSiblings)
        );
        assert_eq!(
            verify(&root, 3, &[8], &[leaves[5]], &proof),
            Err(MerkleError::BadPositions)
        );
        // Positions 4 and 5 are siblings: only the two nodes above are sent.
        let pair = MultiProof {
            siblings: vec![level1[3], level2[0]],
        };
        assert_eq!(verify(&root, 3, &[4, 5], &[leaves[4], leaves[5]], &pair), Ok(()));
        assert_eq!(
            verify(&root, 3, &[5, 4], &[leaves[5], leaves[4]], &pair),
            Err(MerkleError::BadPositions)
        );
        assert_eq!(
            verify(&root, 3, &[4, 5], &[leaves[4]], &pair),
            Err(MerkleError::LeafCount { got: 1, want: 2 })
        );
        let all: Vec<usize> = (0..8).collect();
        assert_eq!(verify(&root, 3, &all, &leaves, &MultiProof::default()), Ok(()));
    }
}
