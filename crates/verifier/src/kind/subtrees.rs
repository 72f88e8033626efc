//! How the shards of a Merkle root join (`crate::bundle`): consecutive
//! subtrees, each an ordinary `merkle-root` statement over its leaves, every
//! one of the same `2^j` leaves but the last, which holds 1 to `2^j`. The
//! shards' roots are the tree's nodes at height `j`, and the verifier hashes
//! the top of the tree over them itself: it has them all (each shard's
//! root is public), and the top is one hash per shard, microseconds, where
//! a proof of it would cost milliseconds to check.
//!
//! The shapes follow each scheme's own rule, so the root is the one the
//! whole tree has:
//! - `plain`: a power of two of subtrees, all of `2^j` leaves; node
//!   `H(l ‖ r)`.
//! - `rfc6962`: RFC 6962 §2.1 splits `n` leaves at the largest power of two
//!   below `n`, a multiple of `2^j` when `n > 2^j`; so every subtree is one of
//!   the RFC's, and the top splits the subtrees' roots the same way, node
//!   `H(0x01 ‖ l ‖ r)` (the leaves' `0x00` hashing is inside the shards).
//! - `bitcoin`: a level of odd count pairs its last node with itself. A last
//!   subtree of fewer leaves has a lower root, which the whole tree lifts to
//!   height `j` by pairing it with itself at each level (its level's count
//!   is odd there, as the full subtrees before it add an even count); node
//!   `H(H(l ‖ r))`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::join_slices;
use super::merkle::Scheme;
use crate::hashes::Hash;
use crate::records::Records;
use crate::statement::Statement;

/// The leaves and root of the tree whose subtrees the shards prove.
pub(super) fn join(hash: Hash, scheme: Scheme, shards: &[&Statement]) -> Result<(Records, Records), String> {
    let (leaves, roots) = join_slices(shards);
    if shards.len() <= 1 {
        return Ok((leaves, roots));
    }
    let sizes: Vec<usize> = shards.iter().map(|s| s.inputs().len()).collect();
    let (full, last) = (sizes[0], sizes[sizes.len() - 1]);
    if !full.is_power_of_two() {
        return Err(format!(
            "shard 1 holds {full} leaves: a tree's shards are subtrees of a power of two of leaves"
        ));
    }
    if let Some(i) = sizes[..sizes.len() - 1].iter().position(|&n| n != full) {
        return Err(format!(
            "shard {} holds {} leaves, not the {full} of shard 1: every subtree but the last has the same size",
            i + 1,
            sizes[i]
        ));
    }
    if last == 0 || last > full {
        return Err(format!(
            "the last shard holds {last} leaves: the last subtree holds 1 to {full}"
        ));
    }
    if scheme == Scheme::Plain && (last != full || !shards.len().is_power_of_two()) {
        return Err(format!(
            "a plain tree splits into a power of two of subtrees of one size, not {} shards of {full} to {last} leaves",
            shards.len()
        ));
    }
    let mut level: Vec<Vec<u8>> = roots.iter().map(<[u8]>::to_vec).collect();
    let root = match scheme {
        Scheme::Plain => pairwise(level, |l, r| node(hash, &[l, r])),
        Scheme::Bitcoin => {
            let bitcoin = |l: &[u8], r: &[u8]| node(hash, &[&node(hash, &[l, r])]);
            let height = |leaves: usize| leaves.next_power_of_two().trailing_zeros();
            let top = level.last_mut().expect("two shards or more");
            for _ in height(last)..height(full) {
                *top = bitcoin(top, top);
            }
            pairwise(level, bitcoin)
        }
        Scheme::Rfc6962 => rfc6962(hash, &level),
    };
    Ok((leaves, [root.as_slice()].into_iter().collect()))
}

/// `H` of the parts back to back.
fn node(hash: Hash, parts: &[&[u8]]) -> Vec<u8> {
    hash.digest(&parts.concat())
}

/// Hashes a level pair by pair up to one node, pairing the last node of a
/// level of odd count with itself.
fn pairwise(mut level: Vec<Vec<u8>>, node: impl Fn(&[u8], &[u8]) -> Vec<u8>) -> Vec<u8> {
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| node(&pair[0], pair.get(1).unwrap_or(&pair[0])))
            .collect();
    }
    level.pop().expect("at least one node")
}

/// RFC 6962's node over `nodes` (at least one), split at the largest power
/// of two below their number.
fn rfc6962(hash: Hash, nodes: &[Vec<u8>]) -> Vec<u8> {
    if nodes.len() == 1 {
        return nodes[0].clone();
    }
    let k = 1 << (usize::BITS - 1 - (nodes.len() - 1).leading_zeros());
    let (left, right) = nodes.split_at(k);
    node(hash, &[&[0x01], &rfc6962(hash, left), &rfc6962(hash, right)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::{merkle::MerkleRoot, Kind};
    use alloc::sync::Arc;
    use alloc::vec;

    /// The statement of the tree over `leaves`, its root computed by the
    /// kind's own native rows.
    fn tree(kind: &MerkleRoot, leaves: &[Vec<u8>]) -> Statement {
        let inputs: Records = leaves.iter().map(Vec::as_slice).collect();
        let root = kind.native_root(&inputs);
        let kind: Arc<dyn Kind> = Arc::new(kind.clone());
        Statement::new(kind, inputs, [root.as_slice()].into_iter().collect()).unwrap()
    }

    /// Every scheme, every count up to 40 and every subtree size: the
    /// subtrees' statements join into the whole tree's.
    #[test]
    fn subtrees_join_into_the_whole_tree() {
        for scheme in Scheme::ALL {
            let kind = MerkleRoot::new(Hash::Sha256, scheme).unwrap();
            for n in 1..=40usize {
                if scheme == Scheme::Plain && !n.is_power_of_two() {
                    continue;
                }
                let leaves: Vec<Vec<u8>> = (0..n)
                    .map(|i| match scheme {
                        Scheme::Rfc6962 => vec![i as u8; i % 5],
                        _ => vec![i as u8; 32],
                    })
                    .collect();
                let whole = tree(&kind, &leaves);
                for j in 0..6 {
                    let size = 1 << j;
                    let shards: Vec<Statement> = leaves.chunks(size).map(|c| tree(&kind, c)).collect();
                    let refs: Vec<&Statement> = shards.iter().collect();
                    let joined = kind.join(&refs);
                    if scheme == Scheme::Plain && !shards.len().is_power_of_two() {
                        assert!(joined.is_err());
                        continue;
                    }
                    let (inputs, outputs) = joined.unwrap();
                    assert_eq!(&inputs, whole.inputs(), "{scheme:?} {n} leaves by {size}");
                    assert_eq!(&outputs, whole.outputs(), "{scheme:?} {n} leaves by {size}");
                }
            }
        }
    }

    #[test]
    fn subtrees_of_other_sizes_do_not_join() {
        let kind = MerkleRoot::new(Hash::Sha256, Scheme::Bitcoin).unwrap();
        let leaves: Vec<Vec<u8>> = (0..12u8).map(|i| vec![i; 32]).collect();
        for cuts in [[0, 3, 8, 12], [0, 4, 6, 12], [0, 4, 12, 12], [0, 2, 4, 12]] {
            let shards: Vec<Statement> = cuts
                .windows(2)
                .filter(|w| w[0] < w[1])
                .map(|w| tree(&kind, &leaves[w[0]..w[1]]))
                .collect();
            let refs: Vec<&Statement> = shards.iter().collect();
            assert!(kind.join(&refs).is_err(), "{cuts:?}");
        }
    }
}
