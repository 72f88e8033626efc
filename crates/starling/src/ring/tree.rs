//! The ring's Merkle tree on the prover's side: its root and one member's
//! path from the public keys, in one pass over contiguous 32-byte nodes.
//!
//! The tree is the plain SHA-256 tree `docs/ring.md` defines (a node is
//! `SHA-256(left ‖ right)`, the keys padded with all-zero leaves to a power
//! of two), the one [`crate::kind::Membership::levels`] builds for any
//! scheme: that one keeps every level, a vector per node, and hashes each
//! node through the circuit's instance rows, 315-393 ms for 2^20 keys on
//! one Zen 5 thread, against 57 ms here. A node's message is exactly one
//! 64-byte block, so its digest is two compressions from the IV: the
//! block, then the padding block every 64-byte message shares.
//! `sha2::compress256` takes both in one call and picks, at run time, the
//! SHA extensions where the CPU has them (x86's SHA-NI, ARMv8's SHA-256
//! instructions) and its portable code elsewhere; the crate's digest API,
//! which buffers and pads each message, took 36% longer. Only the keys'
//! part of each level is hashed: a node over padding alone is the root of
//! an all-zero subtree of its height, hashed once per level.

use std::borrow::Cow;

use starling_verifier::circuit::sha256::SHA256_IV;

/// A node of the tree, or a leaf: 32 bytes.
pub(super) type Node = [u8; 32];

/// The second block of every node's message: SHA-256's padding of a
/// 64-byte message (`0x80`, zeros, the bit length 512 big-endian).
const PADDING_BLOCK: [u8; 64] = {
    let mut block = [0u8; 64];
    block[0] = 0x80;
    block[62] = 0x02;
    block
};

/// `SHA-256(left ‖ right)`.
fn node(left: &Node, right: &Node) -> Node {
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(left);
    block[32..].copy_from_slice(right);
    let mut state = SHA256_IV;
    sha2::compress256(&mut state, &[block.into(), PADDING_BLOCK.into()]);
    let mut digest = [0u8; 32];
    for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

/// The level above `level`: a node per pair, and for an odd last node
/// the node over it and `padding`, the all-zero subtree at its height.
fn level_above(level: &[Node], padding: &Node) -> Vec<Node> {
    level
        .chunks(2)
        .map(|pair| node(&pair[0], pair.get(1).unwrap_or(padding)))
        .collect()
}

/// The root of the tree over `leaves` padded with all-zero leaves to a
/// power of two, and the path of the leaf at `index`: its siblings from
/// the bottom up, one per level. A tree of one leaf is that leaf, with an
/// empty path. Panics when `leaves` is empty or `index` is past them.
pub(super) fn root_and_path(leaves: &[Node], index: usize) -> (Node, Vec<Node>) {
    assert!(index < leaves.len(), "leaf {index} of {}", leaves.len());
    let depth = leaves.len().next_power_of_two().trailing_zeros() as usize;
    let mut path = Vec::with_capacity(depth);
    let mut level = Cow::Borrowed(leaves);
    let mut zeros: Node = [0; 32];
    let mut at = index;
    for _ in 0..depth {
        path.push(*level.get(at ^ 1).unwrap_or(&zeros));
        level = Cow::Owned(level_above(&level, &zeros));
        zeros = node(&zeros, &zeros);
        at /= 2;
    }
    (level[0], path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{Membership, Scheme};
    use crate::{Hash, Records};

    /// Root and path by the general tree of the membership kind, from
    /// the leaves padded to a power of two.
    fn reference(leaves: &[Node], index: usize) -> (Node, Vec<Node>) {
        let mut padded = leaves.to_vec();
        padded.resize(leaves.len().next_power_of_two(), [0; 32]);
        let records: Records = padded.iter().map(|leaf| &leaf[..]).collect();
        let tree = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
        let levels = tree.levels(&records);
        let root = levels.last().unwrap()[0].as_slice().try_into().unwrap();
        let path = Membership::path(&levels, index as u64)
            .iter()
            .map(|node| node.as_slice().try_into().unwrap())
            .collect();
        (root, path)
    }

    /// Distinct leaves, none all-zero.
    fn leaves(count: usize) -> Vec<Node> {
        (0..count)
            .map(|i| core::array::from_fn(|b| (i * 131 + b * 17 + 1) as u8 ^ (i >> 8) as u8))
            .collect()
    }

    #[test]
    fn a_node_is_the_sha256_of_its_children() {
        use sha2::Digest as _;
        let [left, right] = [[3u8; 32], [250u8; 32]];
        let digest: Node = sha2::Sha256::digest([left, right].concat()).into();
        assert_eq!(node(&left, &right), digest);
    }

    #[test]
    fn roots_and_paths_match_the_membership_trees() {
        for count in [1, 2, 3, 5, 64, 1000] {
            let leaves = leaves(count);
            let mut indices = vec![0, count / 2, count - 1];
            indices.dedup();
            for index in indices {
                assert_eq!(
                    root_and_path(&leaves, index),
                    reference(&leaves, index),
                    "leaf {index} of {count}"
                );
            }
        }
    }

    #[test]
    fn every_path_of_a_padded_tree_matches() {
        let leaves = leaves(11);
        for index in 0..leaves.len() {
            assert_eq!(root_and_path(&leaves, index), reference(&leaves, index), "leaf {index}");
        }
    }
}
