//! Merkle roots end to end: RFC 6962 against the shared vectors for every
//! tree size, the empty one included; plain and bitcoin trees against a few lines of reference code
//! over the crates, for 1, 2, 3, 5, 8 and 1000 leaves (plain: powers of two;
//! leaves of a digest's size, 64 bytes for SHA-512).

mod common;

use sha2::Digest;
use starling::kind::{merkle_root, Scheme};
use starling::{prove, verify, Expected, Hash, Profile, Records};

/// Proves the root of `leaves` and returns it as verified.
fn root(hash: Hash, scheme: Scheme, leaves: &[Vec<u8>]) -> String {
    let k = merkle_root(hash, scheme).unwrap();
    let records: Records = leaves.iter().map(Vec::as_slice).collect();
    let expected = Expected::new(k.clone(), records.clone()).unwrap();
    let proved = prove(k, records, Profile::Default, &mut |_| {}).unwrap();
    let verified = verify(&expected, &proved.file.to_bytes()).expect("the root verifies");
    assert_eq!(verified.count(), leaves.len() as u64);
    verified.output_lines().remove(0)
}

fn digest(hash: Hash, msg: &[u8]) -> Vec<u8> {
    match hash {
        Hash::Sha256 => sha2::Sha256::digest(msg).to_vec(),
        Hash::Sha512 => sha2::Sha512::digest(msg).to_vec(),
        Hash::Keccak256 => sha3::Keccak256::digest(msg).to_vec(),
        Hash::Blake3 => blake3::hash(msg).as_bytes().to_vec(),
        Hash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
    }
}

/// The reference root: pairs hashed level by level; bitcoin doubles the
/// hash and pairs an odd level's last node with itself.
fn reference(hash: Hash, scheme: Scheme, leaves: &[Vec<u8>]) -> String {
    let mut level: Vec<Vec<u8>> = leaves.to_vec();
    while level.len() > 1 {
        if level.len() % 2 == 1 {
            level.push(level.last().unwrap().clone());
        }
        level = level
            .chunks(2)
            .map(|p| {
                let h = digest(hash, &[p[0].as_slice(), &p[1]].concat());
                if scheme == Scheme::Bitcoin {
                    digest(hash, &h)
                } else {
                    h
                }
            })
            .collect();
    }
    hex::encode(&level[0])
}

fn leaves(count: usize, seed: u8) -> Vec<Vec<u8>> {
    sized_leaves(count, 32, seed)
}

fn sized_leaves(count: usize, size: usize, seed: u8) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            (0..size)
                .map(|j| (i as u8).wrapping_mul(13) ^ (j as u8) ^ seed)
                .collect()
        })
        .collect()
}

#[test]
fn plain_and_bitcoin_trees_match_the_reference() {
    for hash in [Hash::Sha256, Hash::Sha512, Hash::Keccak256, Hash::Blake3] {
        for count in [1usize, 2, 8, 1024] {
            let l = sized_leaves(count, hash.digest_bytes(), 1);
            assert_eq!(
                root(hash, Scheme::Plain, &l),
                reference(hash, Scheme::Plain, &l),
                "{} {count}",
                hash.name()
            );
        }
    }
    for count in [1usize, 2, 3, 5, 8, 1000] {
        let l = leaves(count, 2);
        assert_eq!(
            root(Hash::Sha256, Scheme::Bitcoin, &l),
            reference(Hash::Sha256, Scheme::Bitcoin, &l),
            "{count}"
        );
    }
}

#[test]
fn rfc6962_vectors_for_every_tree_size() {
    let Some(text) = common::read_vector("merkle/rfc6962_vectors.json") else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let inputs: Vec<Vec<u8>> = json["leaf_inputs_hex"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| hex::decode(v.as_str().unwrap()).unwrap())
        .collect();
    let roots = json["root_hashes_hex_by_tree_size_1_to_8"].as_array().unwrap();
    for (size, want) in (1..=8).zip(roots) {
        assert_eq!(
            root(Hash::Sha256, Scheme::Rfc6962, &inputs[..size]),
            want.as_str().unwrap(),
            "size {size}"
        );
    }
    // The empty tree (RFC 6962 §2.1: the hash of the empty string).
    assert_eq!(
        root(Hash::Sha256, Scheme::Rfc6962, &[]),
        json["empty_root"].as_str().unwrap()
    );
}

#[test]
fn schemes_take_only_their_hashes_and_plain_trees_powers_of_two() {
    assert!(merkle_root(Hash::Blake3, Scheme::Rfc6962).is_none());
    assert!(merkle_root(Hash::Keccak256, Scheme::Bitcoin).is_none());
    assert!(merkle_root(Hash::Sha512, Scheme::Bitcoin).is_none());
    let k = merkle_root(Hash::Sha256, Scheme::Plain).unwrap();
    let three: Records = leaves(3, 0).iter().map(Vec::as_slice).collect();
    assert!(Expected::new(k, three).is_err());
    // SHA-512 trees take 64-byte leaves, not SHA-256's 32.
    let k = merkle_root(Hash::Sha512, Scheme::Plain).unwrap();
    let short: Records = leaves(2, 0).iter().map(Vec::as_slice).collect();
    assert!(Expected::new(k, short).is_err());
}
