//! The ring's Merkle tree on the prover's side: its root and one member's
//! path from the public keys, in one pass that keeps no level.
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
//! which buffers and pads each message, took 36% longer. Only subtrees
//! that hold keys are hashed: one over padding alone is the root of an
//! all-zero subtree of its height, hashed once per height.

use std::ops::Range;

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

/// Levels hashed at a time in a buffer of their own: subtrees of 2^10
/// leaves, whose levels (32 KiB) stay in the cache.
const CHUNK_LEVELS: usize = 10;

/// The root of the tree over `leaves` padded with all-zero leaves to a
/// power of two, and the path of the leaf at `index`: its siblings from
/// the bottom up, one per level. A tree of one leaf is that leaf, with an
/// empty path. Panics when `leaves` is empty or `index` is past them.
///
/// A level at a time, so that consecutive hashes are independent and the
/// CPU overlaps them (a depth-first walk, each node right after its
/// children, took 67-72 ms for 2^20 keys against 53-57), but first within
/// subtrees of 2^[`CHUNK_LEVELS`] leaves, then over their roots: whole
/// levels of 2^20 keys (32 MB) cost the first signature of a process 10 ms
/// more in page faults.
pub(super) fn root_and_path(leaves: &[Node], index: usize) -> (Node, Vec<Node>) {
    assert!(index < leaves.len(), "leaf {index} of {}", leaves.len());
    let depth = leaves.len().next_power_of_two().trailing_zeros() as usize;
    // The roots of all-zero subtrees, by height.
    let mut zeros = vec![[0; 32]; depth + 1];
    for h in 1..=depth {
        zeros[h] = node(&zeros[h - 1], &zeros[h - 1]);
    }
    let mut path = vec![[0; 32]; depth];
    let low = depth.min(CHUNK_LEVELS);
    let mut chunk = vec![[0; 32]; 1 << low];
    let mut roots = Vec::with_capacity(leaves.len() >> low);
    for (c, keys) in leaves.chunks(1 << low).enumerate() {
        chunk[..keys.len()].copy_from_slice(keys);
        let at = (index >> low == c).then_some(index % (1 << low));
        hash_up(&mut chunk, keys.len(), 0..low, &zeros, at, &mut path);
        roots.push(chunk[0]);
    }
    let count = roots.len();
    hash_up(
        &mut roots,
        count,
        low..depth,
        &zeros,
        Some(index >> low),
        &mut path,
    );
    (roots[0], path)
}

/// Hashes the `count` first nodes of a subtree's level at the first of
/// `heights` (its other nodes are all-zero subtrees) up to the subtree's
/// root, in place: the root ends in `nodes[0]`. Where node `at` of the
/// level is the member's, writes its siblings to `path`.
fn hash_up(
    nodes: &mut [Node],
    mut count: usize,
    heights: Range<usize>,
    zeros: &[Node],
    mut at: Option<usize>,
    path: &mut [Node],
) {
    for h in heights {
        let node_at = |nodes: &[Node], i: usize| if i < count { nodes[i] } else { zeros[h] };
        if let Some(i) = at {
            path[h] = node_at(nodes, i ^ 1);
            at = Some(i / 2);
        }
        for j in 0..count.div_ceil(2) {
            nodes[j] = node(&nodes[2 * j], &node_at(nodes, 2 * j + 1));
        }
        count = count.div_ceil(2);
    }
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
        // Past 2^CHUNK_LEVELS leaves, subtrees and the levels over their
        // roots: a last subtree in part, subtrees missing.
        for count in [1, 2, 3, 5, 64, 1000, 1025, 3000] {
            let leaves = leaves(count);
            let mut indices = vec![0, 1023, 1024, count / 2, count - 1];
            indices.retain(|&i| i < count);
            indices.sort();
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
            assert_eq!(
                root_and_path(&leaves, index),
                reference(&leaves, index),
                "leaf {index}"
            );
        }
    }
}
