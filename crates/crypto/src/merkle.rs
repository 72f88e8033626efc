//! A binary Merkle tree with domain-separated leaves and nodes, and compact
//! multi-openings.
//!
//! `leaf = BLAKE3-keyed(LEAF_KEY, data)`, `node = BLAKE3-keyed(NODE_KEY, left
//! || right)` with two different keys ([`leaf_key`], [`node_key`]), so a leaf
//! can never be taken for an inner node. A node is one BLAKE3 block, and a
//! leaf of up to 1 KiB (every column Starling commits) one chunk, which
//! `blake3_multi` hashes many at a time. A multi-opening lists only the
//! sibling hashes the verifier cannot compute from the opened leaves; the
//! verifier walks the levels with the exact positions it asked for, so a proof
//! for other positions, another depth, or with hashes left over is rejected.

use std::sync::OnceLock;

use rayon::prelude::*;
use starling_field::Gf128;

use crate::blake3_multi::{self, Key};
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

/// The key of leaf hashes: `BLAKE3("starling/merkle/leaf")`.
pub fn leaf_key() -> &'static Key {
    static KEY: OnceLock<Key> = OnceLock::new();
    KEY.get_or_init(|| *blake3::hash(b"starling/merkle/leaf").as_bytes())
}

/// The key of inner-node hashes: `BLAKE3("starling/merkle/node")`.
pub fn node_key() -> &'static Key {
    static KEY: OnceLock<Key> = OnceLock::new();
    KEY.get_or_init(|| *blake3::hash(b"starling/merkle/node").as_bytes())
}

/// Hash of a leaf holding `data`. Many leaves of one length hash to the same
/// digests with `blake3_multi` under [`leaf_key`], many at a time.
pub fn hash_leaf(data: &[u8]) -> Digest {
    *blake3::keyed_hash(leaf_key(), data).as_bytes()
}

/// Hash of a leaf holding field elements (their 16-byte encodings in order);
/// equal to `hash_leaf` of the concatenated bytes.
pub fn hash_leaf_fields(data: &[Gf128]) -> Digest {
    #[cfg(target_endian = "little")]
    return hash_leaf(Gf128::slice_as_bytes(data));
    #[cfg(not(target_endian = "little"))]
    {
        let mut h = blake3::Hasher::new_keyed(leaf_key());
        for v in data {
            h.update(&v.to_bytes());
        }
        *h.finalize().as_bytes()
    }
}

/// Hashes of consecutive leaves of `width` field elements each (`data` a
/// whole number of them), equal to [`hash_leaf_fields`] of each: the opened
/// columns of one commitment level, hashed by `blake3_multi` many at a time.
pub fn hash_leaves_fields(data: &[Gf128], width: usize) -> Vec<Digest> {
    assert!(
        width > 0 && data.len().is_multiple_of(width),
        "leaves of {width} elements cannot tile {}",
        data.len()
    );
    #[cfg(target_endian = "little")]
    {
        let mut out = vec![[0u8; 32]; data.len() / width];
        blake3_multi::keyed_hash_many(leaf_key(), Gf128::slice_as_bytes(data), width * 16, &mut out);
        out
    }
    #[cfg(not(target_endian = "little"))]
    data.chunks_exact(width).map(hash_leaf_fields).collect()
}

/// Hash of an inner node: keyed BLAKE3 of `left || right`, one block.
pub fn hash_node(left: &Digest, right: &Digest) -> Digest {
    let mut pair = [0u8; 64];
    pair[..32].copy_from_slice(left);
    pair[32..].copy_from_slice(right);
    *blake3::keyed_hash(node_key(), &pair).as_bytes()
}

/// Leaves of the subtree one rayon task builds, all its levels up to its
/// root. Built level by level, a tree forked once per level (seventeen times
/// for level 0 of 2^16 hashes), and its levels of a thousand nodes or fewer,
/// one task each, ran on one thread while the others waited: on two Zen 1
/// cores running sixteen threads, the three trees of a 2^16 BLAKE3 proof
/// held 3.5-4.9 ms of critical path against 1.2-1.4 ms of work per thread.
const SUBTREE_LEAVES: usize = 1 << 11;

/// Hashes pairs of `children` into `parents` (`children.len() == 2 *
/// parents.len()`), many nodes at a time.
fn hash_level(children: &[Digest], parents: &mut [Digest]) {
    blake3_multi::keyed_hash_many(node_key(), children.as_flattened(), 64, parents);
}

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
    /// Builds the tree; the number of leaves must be a power of two. Each
    /// subtree of 2,048 leaves (`SUBTREE_LEAVES`) is one rayon task; the few
    /// levels above their roots are hashed on the calling thread.
    pub fn from_leaf_hashes(leaves: Vec<Digest>) -> Self {
        assert!(
            leaves.len().is_power_of_two(),
            "leaf count must be a power of two"
        );
        let n = leaves.len();
        let depth = n.trailing_zeros() as usize;
        let sub_depth = depth.min(SUBTREE_LEAVES.trailing_zeros() as usize);
        let mut levels = vec![leaves];
        levels.extend((1..=depth).map(|l| starling_field::scratch::filled(n >> l, [0u8; 32])));
        let (leaf_level, upper) = levels.split_at_mut(1);
        let subtrees = n >> sub_depth;
        // Task `t`'s part of each of levels 1 to `sub_depth`.
        let mut parts: Vec<Vec<&mut [Digest]>> =
            (0..subtrees).map(|_| Vec::with_capacity(sub_depth)).collect();
        for level in upper[..sub_depth].iter_mut() {
            let len = level.len() / subtrees;
            for (part, chunk) in parts.iter_mut().zip(level.chunks_mut(len)) {
                part.push(chunk);
            }
        }
        parts
            .into_par_iter()
            .zip(leaf_level[0].par_chunks(1 << sub_depth))
            .for_each(|(part, leaves)| {
                let mut children = leaves;
                for parents in part {
                    hash_level(children, parents);
                    children = parents;
                }
            });
        // Level `l + 1` from level `l` (at least 1: a tree deeper than a
        // subtree has `sub_depth` of them).
        for l in sub_depth..depth {
            let (below, above) = upper.split_at_mut(l);
            hash_level(&below[l - 1], &mut above[0]);
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
    let mut indices = positions.to_vec();
    let mut hashes = leaves.to_vec();
    // Each level's parents (at most one per query) are hashed together by
    // `blake3_multi`, not one `hash_node` at a time.
    let mut pairs: Vec<[u8; 64]> = Vec::with_capacity(indices.len());
    for _ in 0..depth {
        pairs.clear();
        let mut next = Vec::with_capacity(indices.len());
        let mut i = 0;
        while i < indices.len() {
            let idx = indices[i];
            let (left, right) = if i + 1 < indices.len() && indices[i + 1] == idx ^ 1 {
                i += 2;
                (&hashes[i - 2], &hashes[i - 1])
            } else {
                let s = siblings.next().ok_or(MerkleError::MissingSiblings)?;
                i += 1;
                if idx & 1 == 0 {
                    (&hashes[i - 1], s)
                } else {
                    (s, &hashes[i - 1])
                }
            };
            let mut pair = [0u8; 64];
            pair[..32].copy_from_slice(left);
            pair[32..].copy_from_slice(right);
            pairs.push(pair);
            next.push(idx >> 1);
        }
        hashes.truncate(pairs.len());
        blake3_multi::keyed_hash_many(node_key(), pairs.as_flattened(), 64, &mut hashes);
        indices = next;
    }
    if siblings.next().is_some() {
        return Err(MerkleError::ExtraSiblings);
    }
    match (indices.as_slice(), hashes.as_slice()) {
        ([0], [h]) if h == root => Ok(()),
        _ => Err(MerkleError::RootMismatch),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_keyed_blake3_with_two_keys() {
        let (l, r) = ([7u8; 32], [9u8; 32]);
        let pair = [l, r].concat();
        assert_eq!(
            hash_node(&l, &r),
            *blake3::keyed_hash(node_key(), &pair).as_bytes()
        );
        assert_eq!(
            hash_leaf(&pair),
            *blake3::keyed_hash(leaf_key(), &pair).as_bytes()
        );
        // The two keys differ, so a node is never a leaf of the same bytes.
        assert_ne!(hash_node(&l, &r), hash_leaf(&pair));
        assert_eq!(leaf_key(), blake3::hash(b"starling/merkle/leaf").as_bytes());
        assert_eq!(node_key(), blake3::hash(b"starling/merkle/node").as_bytes());
    }

    #[test]
    fn tree_levels_match_hash_node() {
        // Within one subtree, exactly one, and several with levels above.
        for n in [1usize, 2, 64, SUBTREE_LEAVES, 8 * SUBTREE_LEAVES] {
            let leaves: Vec<Digest> = (0..n as u32).map(|i| hash_leaf(&i.to_le_bytes())).collect();
            let tree = MerkleTree::from_leaf_hashes(leaves.clone());
            let mut level = leaves;
            for built in &tree.levels {
                assert_eq!(*built, level, "{n} leaves, level of {}", level.len());
                level = level.chunks_exact(2).map(|c| hash_node(&c[0], &c[1])).collect();
            }
            assert_eq!(tree.levels.len(), tree.depth() + 1);
            assert_eq!(tree.root(), tree.levels[tree.depth()][0]);
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

    #[test]
    fn hash_leaves_fields_matches_hash_leaf_fields() {
        // Leaves of one to 100 elements: within one BLAKE3 chunk (64
        // elements) and past it, 1 to 37 of them (ragged against 16 lanes).
        let v: Vec<Gf128> = (0..3700u128)
            .map(|i| Gf128::new(i * 0x0101_0203_0508_0d15_2237_5990_e979_62db))
            .collect();
        for width in [1usize, 2, 37, 63, 64, 65, 100] {
            for count in [1usize, 15, 16, 17, 37] {
                let data = &v[..width * count];
                let want: Vec<Digest> = data.chunks_exact(width).map(hash_leaf_fields).collect();
                assert_eq!(
                    hash_leaves_fields(data, width),
                    want,
                    "width {width}, count {count}"
                );
            }
        }
    }
}
