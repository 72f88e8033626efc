//! Merkle trees: big trees match node-by-node hashing; honest multi-openings
//! verify; every tampering is rejected.

use starling_crypto::merkle::{self, hash_leaf, hash_node, MerkleError, MerkleTree};

fn tree(depth: usize) -> (MerkleTree, Vec<[u8; 32]>) {
    let leaves: Vec<[u8; 32]> = (0..1usize << depth)
        .map(|i| hash_leaf(&i.to_le_bytes()))
        .collect();
    (MerkleTree::from_leaf_hashes(leaves.clone()), leaves)
}

#[test]
fn honest_openings_verify() {
    for depth in 0..7 {
        let (t, leaves) = tree(depth);
        let n = 1usize << depth;
        let sets: Vec<Vec<usize>> = vec![
            vec![0],
            vec![n - 1],
            (0..n).collect(),
            (0..n).step_by(3).collect(),
        ];
        for pos in sets {
            let proof = t.open(&pos);
            let opened: Vec<_> = pos.iter().map(|&p| leaves[p]).collect();
            assert_eq!(merkle::verify(&t.root(), depth, &pos, &opened, &proof), Ok(()));
        }
    }
}

#[test]
fn tampering_is_rejected() {
    let depth = 6;
    let (t, leaves) = tree(depth);
    let pos = vec![1, 5, 6, 40, 63];
    let proof = t.open(&pos);
    let opened: Vec<_> = pos.iter().map(|&p| leaves[p]).collect();
    let root = t.root();
    // A wrong leaf.
    let mut bad = opened.clone();
    bad[2][0] ^= 1;
    assert!(merkle::verify(&root, depth, &pos, &bad, &proof).is_err());
    // Every sibling byte flipped in turn.
    for i in 0..proof.siblings.len() {
        let mut p = proof.clone();
        p.siblings[i][31] ^= 0x80;
        assert_eq!(
            merkle::verify(&root, depth, &pos, &opened, &p),
            Err(MerkleError::RootMismatch)
        );
    }
    // Other positions for the same leaves.
    let moved = vec![1, 5, 7, 40, 63];
    assert!(merkle::verify(&root, depth, &moved, &opened, &proof).is_err());
    // Wrong depth, unsorted or out-of-range positions, missing and extra hashes.
    assert!(merkle::verify(&root, depth + 1, &pos, &opened, &proof).is_err());
    assert_eq!(
        merkle::verify(&root, depth, &[5, 1, 6, 40, 63], &opened, &proof),
        Err(MerkleError::BadPositions)
    );
    assert_eq!(
        merkle::verify(&root, depth, &[1, 5, 6, 40, 64], &opened, &proof),
        Err(MerkleError::BadPositions)
    );
    let mut short = proof.clone();
    short.siblings.pop();
    assert_eq!(
        merkle::verify(&root, depth, &pos, &opened, &short),
        Err(MerkleError::MissingSiblings)
    );
    let mut long = proof.clone();
    long.siblings.push([0u8; 32]);
    assert_eq!(
        merkle::verify(&root, depth, &pos, &opened, &long),
        Err(MerkleError::ExtraSiblings)
    );
    // A leaf hash passed off as an inner node does not verify (domain separation).
    assert_ne!(
        merkle::hash_node(&leaves[0], &leaves[1]),
        hash_leaf(&[leaves[0], leaves[1]].concat())
    );
}

#[test]
fn big_trees_match_node_by_node_hashing() {
    // Level 0 of a 2^13-leaf tree is hashed in several runs on rayon's
    // threads; the root must be the plain level-by-level one.
    let (t, leaves) = tree(13);
    let mut level = leaves;
    while level.len() > 1 {
        level = level.chunks(2).map(|c| hash_node(&c[0], &c[1])).collect();
    }
    assert_eq!(t.root(), level[0]);
}
