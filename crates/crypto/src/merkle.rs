//! The prover's Merkle trees: built from many leaves at a time, and opened.
//! What a tree is (domain-separated keyed BLAKE3 leaves and nodes) and how
//! an opening is checked are the verifier's (`starling_verifier::merkle`,
//! re-exported here); this module builds the same hashes with
//! `blake3_multi`, many at a time, and is tested against them.

use rayon::prelude::*;
use starling_field::Gf128;
use starling_field::Gf128Slices;
pub use starling_verifier::merkle::{
    hash_leaf, hash_leaf_fields, hash_node, verify, verify_with, Hashes, MerkleError, MultiProof, OneByOne,
    LEAF_KEY, NODE_KEY,
};

use crate::blake3_multi;
use crate::Digest;

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
        blake3_multi::keyed_hash_many(&LEAF_KEY, Gf128::slice_as_bytes(data), width * 16, &mut out);
        out
    }
    #[cfg(not(target_endian = "little"))]
    data.chunks_exact(width).map(hash_leaf_fields).collect()
}

/// The verifier's [`Hashes`] many at a time with `blake3_multi` (sixteen
/// with AVX-512): what a native verifier hands to the opening's checks.
#[derive(Clone, Copy, Debug, Default)]
pub struct ManyAtOnce;

impl Hashes for ManyAtOnce {
    fn leaves(&self, data: &[Gf128], width: usize) -> Vec<Digest> {
        hash_leaves_fields(data, width)
    }

    fn nodes(&self, pairs: &[[u8; 64]]) -> Vec<Digest> {
        let mut out = vec![[0u8; 32]; pairs.len()];
        blake3_multi::keyed_hash_many(&NODE_KEY, pairs.as_flattened(), 64, &mut out);
        out
    }
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
    blake3_multi::keyed_hash_many(&NODE_KEY, children.as_flattened(), 64, parents);
}

/// A full tree over 2^depth leaves.
#[derive(Clone, Debug)]
pub struct MerkleTree {
    depth: usize,
    /// Level 0 are the leaf hashes, the last level is the root.
    levels: Vec<Vec<Digest>>,
}

impl MerkleTree {
    /// Builds the tree; the number of leaves must be a power of two. Each
    /// subtree of 2,048 leaves (`SUBTREE_LEAVES`) is one rayon task; the few
    /// levels above their roots are hashed on the calling thread.
    pub fn from_leaf_hashes(leaves: Vec<Digest>) -> Self {
        Self::from_level(0, leaves)
    }

    /// The tree from its level `d`'s nodes (a power of two of them;
    /// [`nodes_above`] makes them from the leaves), its levels above built
    /// as [`MerkleTree::from_leaf_hashes`] builds them, and none below: the
    /// leaves are half a whole tree's memory, and each level above them
    /// half of what is left. Such a tree opens with the leaves of the
    /// blocks it opens ([`MerkleTree::open_with_leaves`]).
    pub fn from_level(d: usize, nodes: Vec<Digest>) -> Self {
        assert!(nodes.len().is_power_of_two(), "node count must be a power of two");
        let n = nodes.len();
        let height = n.trailing_zeros() as usize;
        let depth = d + height;
        let sub_depth = height.min(SUBTREE_LEAVES.trailing_zeros() as usize);
        let mut levels: Vec<Vec<Digest>> = (0..d).map(|_| Vec::new()).collect();
        levels.push(nodes);
        levels.extend((1..=height).map(|l| starling_field::scratch::filled(n >> l, [0u8; 32])));
        let (leaf_level, upper) = levels[d..].split_at_mut(1);
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
        // Level `d + l + 1` from level `d + l` (`l` at least 1: a tree
        // taller than a subtree has `sub_depth` of them).
        for l in sub_depth..height {
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
        assert_eq!(self.kept_from(), 0, "a pruned tree opens with its blocks' leaves");
        self.open_by(positions, |level, i| self.levels[level][i])
    }

    /// The lowest level kept: 0 unless the tree was built from a higher
    /// one ([`MerkleTree::from_level`]).
    pub fn kept_from(&self) -> usize {
        self.levels
            .iter()
            .position(|l| !l.is_empty())
            .unwrap_or(self.depth)
    }

    /// [`MerkleTree::open`] for a tree pruned below level `d`: `leaves`
    /// holds, for every aligned block of `2^d` leaves that holds one of the
    /// `positions`, in increasing order, that block's leaf hashes. The
    /// blocks' lower levels are hashed again from them; the proof is the
    /// full tree's. None where a block's leaves do not hash to the tree
    /// (other leaves than it was built from).
    pub fn open_with_leaves(&self, positions: &[usize], leaves: &[Digest]) -> Option<MultiProof> {
        let d = self.kept_from();
        let blocks = opened_blocks(positions, d);
        assert_eq!(
            leaves.len(),
            blocks.len() << d,
            "the leaves of every opened block"
        );
        // Block `b`'s levels `0..=d`, lowest first.
        let lower: Vec<Vec<Vec<Digest>>> = leaves
            .par_chunks(1 << d)
            .map(|block| {
                let mut levels = vec![block.to_vec()];
                for l in 0..d {
                    let mut parents = vec![[0u8; 32]; block.len() >> (l + 1)];
                    hash_level(&levels[l], &mut parents);
                    levels.push(parents);
                }
                levels
            })
            .collect();
        if blocks
            .iter()
            .zip(&lower)
            .any(|(&b, levels)| levels[d][0] != self.levels[d][b])
        {
            return None;
        }
        let proof = self.open_by(positions, |level, i| {
            if level >= d {
                return self.levels[level][i];
            }
            let at = blocks
                .binary_search(&(i >> (d - level)))
                .expect("a sibling inside an opened block");
            lower[at][level][i & ((1 << (d - level)) - 1)]
        });
        Some(proof)
    }

    /// The siblings of `positions`' paths, level by level, each read by
    /// `node(level, index)`.
    fn open_by(&self, positions: &[usize], node: impl Fn(usize, usize) -> Digest) -> MultiProof {
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
                    siblings.push(node(level, idx ^ 1));
                    i += 1;
                }
                next.push(idx >> 1);
            }
            current = next;
        }
        MultiProof { siblings }
    }
}

/// The nodes `d` levels above `leaves` (a whole number of `2^d`-leaf
/// blocks, one node each), into `out`: the lower levels are hashed in
/// buffers of their own and dropped.
pub fn nodes_above(leaves: &[Digest], d: usize, out: &mut [Digest]) {
    assert_eq!(leaves.len(), out.len() << d, "2^{d} leaves per node");
    if d == 0 {
        out.copy_from_slice(leaves);
        return;
    }
    let mut level: Option<Vec<Digest>> = None;
    for l in 1..d {
        let mut parents = vec![[0u8; 32]; leaves.len() >> l];
        hash_level(level.as_deref().unwrap_or(leaves), &mut parents);
        level = Some(parents);
    }
    hash_level(level.as_deref().unwrap_or(leaves), out);
}

/// The aligned blocks of `2^d` leaves holding `positions`, increasing.
pub fn opened_blocks(positions: &[usize], d: usize) -> Vec<usize> {
    let mut blocks: Vec<usize> = positions.iter().map(|&p| p >> d).collect();
    blocks.dedup();
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The tree over `leaves` that keeps its levels from `d` up.
    fn built_from_level(leaves: &[Digest], d: usize) -> MerkleTree {
        let mut nodes = vec![[0u8; 32]; leaves.len() >> d];
        nodes_above(leaves, d, &mut nodes);
        MerkleTree::from_level(d, nodes)
    }

    #[test]
    fn trees_built_from_a_level_are_the_full_ones_pruned() {
        // Within one subtree and across several; from the leaves up to the
        // root.
        for log_n in [4usize, 12, 14] {
            let n = 1usize << log_n;
            let leaves: Vec<Digest> = (0..n as u32).map(|i| hash_leaf(&i.to_le_bytes())).collect();
            let full = MerkleTree::from_leaf_hashes(leaves.clone());
            for d in [0usize, 1, 4, log_n] {
                let built = built_from_level(&leaves, d);
                let mut kept = full.levels.clone();
                kept[..d].iter_mut().for_each(Vec::clear);
                assert_eq!(built.depth(), full.depth(), "2^{log_n} leaves, d = {d}");
                assert_eq!(built.levels, kept, "2^{log_n} leaves, d = {d}");
                assert_eq!(built.kept_from(), d.min(log_n));
            }
        }
    }

    #[test]
    fn pruned_trees_open_as_full_ones() {
        // Positions in one block, in blocks side by side, far apart, at
        // both ends; pruned below 1, 2 and 4 levels, and at the root.
        let n = 1usize << 12;
        let leaves: Vec<Digest> = (0..n as u32).map(|i| hash_leaf(&i.to_le_bytes())).collect();
        let full = MerkleTree::from_leaf_hashes(leaves.clone());
        let sets: [&[usize]; 4] = [
            &[5],
            &[0, 1, 2, 3, 17, 18],
            &[0, 100, 2047, 2048, 4095],
            &[31, 32, 33, 4000],
        ];
        for d in [1usize, 2, 4, 12] {
            let pruned = built_from_level(&leaves, d);
            assert_eq!(pruned.kept_from(), d);
            assert_eq!(pruned.root(), full.root());
            for positions in sets {
                let blocks = opened_blocks(positions, d);
                let block_leaves: Vec<Digest> = blocks
                    .iter()
                    .flat_map(|&b| leaves[b << d..(b + 1) << d].iter().copied())
                    .collect();
                assert_eq!(
                    pruned.open_with_leaves(positions, &block_leaves),
                    Some(full.open(positions)),
                    "d = {d}, {positions:?}"
                );
                let mut other = block_leaves.clone();
                other[block_leaves.len() / 2][0] ^= 1;
                assert_eq!(
                    pruned.open_with_leaves(positions, &other),
                    None,
                    "d = {d}, {positions:?}"
                );
            }
        }
    }

    #[test]
    fn many_at_once_gives_the_verifiers_hashes() {
        let v: Vec<Gf128> = (0..4000u128)
            .map(|i| Gf128::new(i * 0x0101_0203_0508_0d15_2237_5990_e979_62db))
            .collect();
        for width in [1usize, 7, 64, 100] {
            let data = &v[..width * (v.len() / width).min(37)];
            assert_eq!(
                ManyAtOnce.leaves(data, width),
                OneByOne.leaves(data, width),
                "width {width}"
            );
        }
        let pairs: Vec<[u8; 64]> = (0..37u8).map(|i| [i; 64]).collect();
        for n in [0usize, 1, 16, 37] {
            assert_eq!(
                ManyAtOnce.nodes(&pairs[..n]),
                OneByOne.nodes(&pairs[..n]),
                "{n} nodes"
            );
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
