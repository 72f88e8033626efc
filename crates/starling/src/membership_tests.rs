//! Membership statements end to end (zero-knowledge, as the kind requires):
//! members of plain (SHA-256, Keccak-256) and RFC 6962 trees of several
//! sizes prove and verify against roots computed by reference code here;
//! members read with their paths are the members read with the tree; a
//! wrong root, members not in the tree, wrong paths and cheating provers
//! are refused or rejected.

use std::sync::Arc;

use sha2::Digest as _;

use crate::cheating_tests::{assert_rejected, prove_tampered_private, with_instances};
use crate::inputs::{parse_inputs, read_member_paths, read_members};
use crate::kind::{Membership, SampleMembers, Scheme, TextFormat};
use crate::protocol::Tamper;
use crate::{
    prove_private, verify, Error, Expected, Hash, Kind, Mismatch, Profile, Records, Rejection, Statement,
};
use starling_verifier::circuit::path_step::PathStepLayout;
use starling_verifier::circuit::rfc6962_step::Rfc6962StepLayout;

/// A node of a plain tree under `hash`, from the reference crates.
fn plain_node(hash: Hash, left: &[u8], right: &[u8]) -> Vec<u8> {
    let message = [left, right].concat();
    match hash {
        Hash::Sha256 => sha2::Sha256::digest(&message).to_vec(),
        Hash::Keccak256 => sha3::Keccak256::digest(&message).to_vec(),
        _ => unreachable!("plain membership takes SHA-256 and Keccak-256"),
    }
}

/// The root of a plain tree, by halves.
fn plain_root(hash: Hash, leaves: &[Vec<u8>]) -> Vec<u8> {
    match leaves {
        [leaf] => leaf.clone(),
        _ => {
            let (left, right) = leaves.split_at(leaves.len() / 2);
            plain_node(hash, &plain_root(hash, left), &plain_root(hash, right))
        }
    }
}

/// RFC 6962 §2.1's Merkle tree hash, split at the largest power of two
/// below the number of leaves.
fn rfc6962_root(leaves: &[Vec<u8>]) -> Vec<u8> {
    let h = |parts: &[&[u8]]| sha2::Sha256::digest(parts.concat()).to_vec();
    match leaves {
        [leaf] => h(&[&[0], leaf]),
        _ => {
            let k = 1 << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
            let (left, right) = leaves.split_at(k);
            h(&[&[1], &rfc6962_root(left), &rfc6962_root(right)])
        }
    }
}

/// `size` leaves: 32 bytes each for a plain tree, of lengths 0 to 64 for
/// an RFC 6962 one, different for each `salt`.
fn leaves(kind: &Membership, size: usize, salt: u8) -> Vec<Vec<u8>> {
    (0..size)
        .map(|i| {
            let len = match kind.scheme() {
                Scheme::Rfc6962 => [0, 1, 31, 55, 56, 64][i % 6],
                _ => 32,
            };
            (0..len).map(|b| (i * 7 + b * 13) as u8 ^ salt).collect()
        })
        .collect()
}

/// The tree's leaves as lines, and the members at `indices` as lines.
fn texts(leaves: &[Vec<u8>], indices: &[u64]) -> (String, String) {
    let line = |leaf: &[u8]| {
        if leaf.is_empty() {
            "-".to_owned()
        } else {
            hex::encode(leaf)
        }
    };
    let tree = leaves.iter().map(|l| line(l) + "\n").collect();
    let members = indices
        .iter()
        .map(|&i| format!("{} {i}\n", line(&leaves[i as usize])))
        .collect();
    (tree, members)
}

/// The reference root of the tree.
fn reference_root(kind: &Membership, leaves: &[Vec<u8>]) -> Vec<u8> {
    match kind.scheme() {
        Scheme::Rfc6962 => rfc6962_root(leaves),
        _ => plain_root(kind.hash(), leaves),
    }
}

/// Reads the members at `indices` of the tree of `leaves` as a prover does.
fn members(kind: &Membership, leaves: &[Vec<u8>], indices: &[u64]) -> (Records, Records) {
    let (tree, members) = texts(leaves, indices);
    let root = reference_root(kind, leaves);
    read_members(kind, &root, members.as_bytes(), tree.as_bytes()).expect("members of the tree")
}

/// Proves the members and verifies the proof against the expected line
/// `ROOT N SIZE`; returns the proof.
fn prove_and_verify(kind: &Membership, public: &Records, private: &Records) -> Vec<u8> {
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    let proved = prove_private(
        arc.clone(),
        public.clone(),
        private.clone(),
        Profile::Default,
        &mut |_| {},
    )
    .expect("members of the tree prove");
    assert!(proved.file.statement.outputs().is_empty());
    let bytes = proved.file.to_bytes();
    let line = kind.format_input(public.get(0)) + "\n";
    let expected = parse_inputs(kind, &line).unwrap();
    assert_eq!(&expected, public);
    let verified = verify(&Expected::new(arc, expected).unwrap(), &bytes).expect("the proof verifies");
    assert_eq!(verified.count(), private.len() as u64);
    bytes
}

/// The first, last and middle leaves, and the last twice.
fn some_indices(size: u64) -> Vec<u64> {
    vec![0, size - 1, size / 2, size - 1]
}

#[test]
fn plain_members_prove_and_verify() {
    for (hash, sizes) in [(Hash::Sha256, &[1, 2, 8][..]), (Hash::Keccak256, &[4][..])] {
        let kind = Membership::new(hash, Scheme::Plain).unwrap();
        for &size in sizes {
            let leaves = leaves(&kind, size, 1);
            let indices = some_indices(size as u64);
            let (public, private) = members(&kind, &leaves, &indices);
            assert_eq!(
                kind.format_input(public.get(0)),
                format!(
                    "{} {} {size}",
                    hex::encode(reference_root(&kind, &leaves)),
                    indices.len()
                )
            );
            prove_and_verify(&kind, &public, &private);
            // Other members, as many: the same public record, so the same
            // statement and relations whatever the indices.
            let others: Vec<u64> = indices.iter().map(|i| (i + 1) % size as u64).collect();
            assert_eq!(members(&kind, &leaves, &others).0, public);
        }
    }
}

#[test]
fn rfc6962_members_prove_and_verify() {
    let kind = Membership::rfc6962(64).unwrap();
    // One leaf; a power of two; sizes whose last leaves are promoted (leaf
    // 4 of 5 at levels 0 and 1; leaves 4 and 5 of 6 at level 1).
    for size in [1u64, 4, 5, 6] {
        let leaves = leaves(&kind, size as usize, 2);
        let mut indices = some_indices(size);
        if size == 6 {
            indices = vec![4, 5];
        }
        let (public, private) = members(&kind, &leaves, &indices);
        prove_and_verify(&kind, &public, &private);
    }
}

/// The members' lines with their paths (`LEAF INDEX SIBLING...`), as
/// [`Membership::path_line`] writes them.
fn path_lines(kind: &Membership, size: u64, private: &Records) -> String {
    private
        .iter()
        .map(|m| kind.path_line(size, m).unwrap() + "\n")
        .collect()
}

#[test]
fn members_read_with_their_paths_are_the_members_read_with_the_tree() {
    let cases = [
        (
            Membership::new(Hash::Sha256, Scheme::Plain).unwrap(),
            &[1u64, 2, 8][..],
        ),
        (Membership::new(Hash::Keccak256, Scheme::Plain).unwrap(), &[4][..]),
        // Promoted last leaves (4 of 5; 4 and 5 of 6), whose paths are shorter.
        (Membership::rfc6962(64).unwrap(), &[1, 4, 5, 6][..]),
    ];
    for (kind, sizes) in cases {
        for &size in sizes {
            let leaves = leaves(&kind, size as usize, 3);
            let mut indices = some_indices(size);
            indices.extend((4..size).take(2));
            let (public, private) = members(&kind, &leaves, &indices);
            let lines = path_lines(&kind, size, &private);
            let root = reference_root(&kind, &leaves);
            let read = read_member_paths(&kind, &root, size, lines.as_bytes()).expect("the members' paths");
            assert_eq!(read, (public, private), "{} of {size} leaves", kind.name());
        }
    }
}

#[test]
fn wrong_paths_are_refused() {
    let kind = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let leaves = leaves(&kind, 8, 5);
    let root = reference_root(&kind, &leaves);
    let (_, private) = members(&kind, &leaves, &[6]);
    let line = path_lines(&kind, 8, &private);
    let read = |text: &str, size: u64| read_member_paths(&kind, &root, size, text.as_bytes());
    // A sibling changed: a path to another root.
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut sibling = hex::decode(fields[3]).unwrap();
    sibling[31] ^= 1;
    let changed = format!(
        "# one member\n{} {} {} {} {}\n",
        fields[0],
        fields[1],
        fields[2],
        hex::encode(&sibling),
        fields[4]
    );
    let e = read(&changed, 8).expect_err("refused");
    assert!(matches!(e, Error::False(_)), "{e}");
    assert_eq!(e.to_string(), "line 2: its path does not lead to the root");
    // Another index: the same siblings put on the other sides.
    let moved = line.replacen(" 6 ", " 7 ", 1);
    assert!(matches!(read(&moved, 8), Err(Error::False(_))));
    // A sibling short, one too many, an index past the tree.
    let short = fields[..4].join(" ");
    assert_eq!(
        read(&short, 8).unwrap_err().to_string(),
        "line 1: index 6 of a tree of 8 leaves has a path of 3 siblings, not 2"
    );
    let long = format!("{} {}", line.trim(), fields[2]);
    assert!(matches!(read(&long, 8), Err(Error::Input(_))));
    let past = line.replacen(" 6 ", " 8 ", 1);
    assert_eq!(
        read(&past, 8).unwrap_err().to_string(),
        "line 1: index 8 is past the tree's 8 leaves"
    );
    // Sizes no plain tree has, and no members.
    assert_eq!(
        read(&line, 6).unwrap_err().to_string(),
        "the size: a plain Merkle tree needs a power of two of leaves, not 6"
    );
    assert!(matches!(read(&line, 0), Err(Error::Input(_))));
    assert_eq!(
        read("# none\n", 8).unwrap_err().to_string(),
        "no members: N must be at least 1"
    );
}

#[test]
fn sampled_members_prove_under_a_smaller_leaf_bound() {
    let kind = Membership::rfc6962(10).unwrap();
    let (public, private, leaves) = kind.random_batch(3, 3, 5);
    let all: Vec<Vec<u8>> = leaves.iter().map(<[u8]>::to_vec).collect();
    assert!(all.iter().all(|l| l.len() <= 10));
    assert_eq!(&public.get(0)[..32], rfc6962_root(&all).as_slice());
    prove_and_verify(&kind, &public, &private);
}

#[test]
fn a_wrong_root_is_rejected() {
    let kind = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let leaves = leaves(&kind, 4, 3);
    let (public, private) = members(&kind, &leaves, &[1, 2]);
    let proof = prove_and_verify(&kind, &public, &private);
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    // An expectation of another root, N or size is not what the proof proves.
    let root = &public.get(0)[..32];
    let mut other_root = root.to_vec();
    other_root[1] ^= 2;
    for (record, field) in [
        (Membership::public_record(&other_root, 2, 4), "root"),
        (Membership::public_record(root, 3, 4), "members"),
        (Membership::public_record(root, 2, 8), "size"),
    ] {
        let other: Records = [record.as_slice()].into_iter().collect();
        match verify(&Expected::new(arc.clone(), other).unwrap(), &proof) {
            Err(Error::Rejected(Rejection::Mismatch(Mismatch::Input { index: 0, field: f }))) => {
                assert_eq!(f, field)
            }
            other => panic!("expected a mismatch of the {field}, got {other:?}"),
        }
    }
    // A prover cannot start from another root.
    let mut other = public.clone();
    other.flip_bit(0, 1);
    let e = prove_private(arc.clone(), other, private.clone(), Profile::Default, &mut |_| {})
        .err()
        .expect("refused");
    assert!(
        matches!(&e, Error::False(m) if m == "member 0: its path does not lead to the root"),
        "{e}"
    );
    // A proof whose statement claims another root, its witness honest.
    let flip = |st: &mut Statement| st.inputs_mut().flip_bit(0, 100);
    let tamper = Tamper {
        statement: Some(&flip),
        ..Tamper::default()
    };
    assert_rejected(
        prove_tampered_private(&(arc, public), &private, tamper),
        "another root in the statement",
        &kind,
    );
}

#[test]
fn members_not_in_the_tree_are_refused() {
    let kind = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let leaves = leaves(&kind, 8, 4);
    let root = reference_root(&kind, &leaves);
    let (tree, _) = texts(&leaves, &[]);
    let refused = |members: &str, root: &[u8]| {
        read_members(&kind, root, members.as_bytes(), tree.as_bytes()).expect_err("refused")
    };
    // Line 3 (after a comment) holds leaf 2 at index 3.
    let text = format!(
        "# members\n{} 0\n{} 3\n",
        hex::encode(&leaves[0]),
        hex::encode(&leaves[2])
    );
    let e = refused(&text, &root);
    assert!(matches!(e, Error::False(_)), "{e}");
    assert_eq!(e.to_string(), "line 3: the leaf is not the tree's leaf 3");
    let text = format!("{} 8\n", hex::encode(&leaves[0]));
    assert_eq!(
        refused(&text, &root).to_string(),
        "line 1: index 8 is past the tree's 8 leaves"
    );
    let text = format!("{} 0\n", hex::encode(&leaves[0]));
    let mut other = root.clone();
    other[0] ^= 1;
    let e = refused(&text, &other);
    assert!(
        matches!(&e, Error::False(m) if m.starts_with("the tree's root is")),
        "{e}"
    );
    let e = refused("00 0\n", &root);
    assert!(matches!(e, Error::Input(_)), "{e}");
    assert_eq!(e.to_string(), "line 1: leaf has 2 hex digits, expected 64");
    // An RFC 6962 tree may hold leaves longer than the members' bound.
    let rfc = Membership::rfc6962(4).unwrap();
    let long = [vec![7u8; 100], vec![1, 2]];
    let (tree, members) = texts(&long, &[1]);
    let (public, private) =
        read_members(&rfc, &rfc6962_root(&long), members.as_bytes(), tree.as_bytes()).unwrap();
    prove_and_verify(&rfc, &public, &private);
    // An RFC 6962 member longer than the bound.
    let rfc = Membership::rfc6962(4).unwrap();
    let e = read_members(&rfc, &root, "0102030405 0\n".as_bytes(), "-\n".as_bytes()).expect_err("refused");
    assert_eq!(
        e.to_string(),
        "line 1: the leaf has 5 bytes, more than the --max-leaf-len of 4"
    );
}

/// Sets input bit `bit` of instance `y` among the instance rows to `value`.
fn set_input(rows: &mut [u64], words: usize, y: usize, bit: usize, value: bool) {
    let word = &mut rows[y * words + bit / 64];
    *word = (*word & !(1 << (bit % 64))) | (u64::from(value) << (bit % 64));
}

fn get_input(rows: &[u64], words: usize, y: usize, bit: usize) -> bool {
    (rows[y * words + bit / 64] >> (bit % 64)) & 1 == 1
}

/// Proves the honest statement from rows a cheating prover changed.
fn prove_edited(
    kind: &Membership,
    (public, private): &(Records, Records),
    edit: &dyn Fn(&mut [u64]),
) -> Result<(), Error> {
    let mut rows = kind.instance_rows(public, private).unwrap();
    edit(&mut rows);
    let replace = |r: &mut [u64]| r.copy_from_slice(&rows);
    prove_tampered_private(
        &(Arc::new(kind.clone()), public.clone()),
        private,
        with_instances(&replace),
    )
}

/// Proves the honest statement with member `m`'s rows computed from the
/// private record `record` instead: every instance a valid run and every
/// link between them kept, the top its path reaches is not the root.
fn prove_with_member(
    kind: &Membership,
    batch: &(Records, Records),
    size: u64,
    m: usize,
    record: &[u8],
) -> Result<(), Error> {
    let reached = kind.reached(size, record).unwrap();
    let public: Records = [Membership::public_record(&reached, 1, size).as_slice()]
        .into_iter()
        .collect();
    let rows = kind
        .instance_rows(&public, &[record].into_iter().collect())
        .unwrap();
    prove_edited(kind, batch, &|all: &mut [u64]| {
        all[m * rows.len()..(m + 1) * rows.len()].copy_from_slice(&rows)
    })
}

#[test]
fn cheating_plain_provers_are_rejected() {
    let kind = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let words = kind.circuit().input_words();
    let (size, indices) = (8, [3u64, 5]);
    let batch = members(&kind, &leaves(&kind, size, 5), &indices);
    // The control: member 1's own record, spliced in, verifies.
    prove_with_member(&kind, &batch, size as u64, 1, batch.1.get(1)).expect("an honest member verifies");
    // A wrong sibling (level 1's), the path above it recomputed.
    let mut record = batch.1.get(1).to_vec();
    record[8 + 32 + 5] ^= 0x10;
    assert_rejected(
        prove_with_member(&kind, &batch, size as u64, 1, &record),
        "a wrong sibling",
        &kind,
    );
    // Another tree's leaf at the same index, with its path there.
    let other = members(&kind, &leaves(&kind, size, 6), &[5]);
    assert_rejected(
        prove_with_member(&kind, &batch, size as u64, 1, other.1.get(0)),
        "another tree's leaf",
        &kind,
    );
    // A flipped direction bit: member 0 (leaf 3) is the right child at
    // level 1 (instance 2).
    let b = PathStepLayout::sha256(32).with_left_byte(0).bit_offset();
    assert!(get_input(
        &kind.instance_rows(&batch.0, &batch.1).unwrap(),
        words,
        2,
        b
    ));
    assert_rejected(
        prove_edited(&kind, &batch, &|rows: &mut [u64]| {
            set_input(rows, words, 2, b, false)
        }),
        "a flipped direction bit",
        &kind,
    );
    // A padding block without its 0x80 (instance 1: member 0's level 0).
    assert_rejected(
        prove_edited(&kind, &batch, &|rows: &mut [u64]| {
            set_input(rows, words, 1, 256 + 7, false)
        }),
        "another padding",
        &kind,
    );
}

#[test]
fn cheating_rfc6962_provers_are_rejected() {
    let kind = Membership::rfc6962(64).unwrap();
    let words = kind.circuit().input_words();
    let l = Rfc6962StepLayout;
    // Size 5: leaf 4 is promoted at levels 0 and 1 and hashed at level 2;
    // leaf 2 is hashed at every level. Members: 2 leaf blocks, 6 node blocks.
    let size = 5;
    let batch = members(&kind, &leaves(&kind, size, 7), &[4, 2]);
    prove_with_member(&kind, &batch, size as u64, 1, batch.1.get(1)).expect("an honest member verifies");
    let mut record = batch.1.get(1).to_vec();
    record[8 + 3] ^= 1;
    assert_rejected(
        prove_with_member(&kind, &batch, size as u64, 1, &record),
        "a wrong sibling",
        &kind,
    );
    let other = members(&kind, &leaves(&kind, size, 8), &[2]);
    assert_rejected(
        prove_with_member(&kind, &batch, size as u64, 1, other.1.get(0)),
        "another tree's leaf",
        &kind,
    );
    // Member 1 (instances 8..16): level 0's node blocks are 10 and 11.
    for (what, y, bit) in [
        ("a flipped direction bit", 10, l.dir_at()),
        ("a flipped direction bit in a node's second block", 11, l.dir_at()),
        ("a hashed level promoted", 11, l.promote_at()),
        ("a promoted level hashed", 3, l.promote_at()),
        ("a leaf hash promoted", 1, l.promote_at()),
        ("another node below in a node's second block", 11, l.node_at() + 3),
        ("a node without its 0x01", 10, l.block().message_at()),
        ("a node of 64 bytes", 11, l.block().continues_at()),
        ("a leaf hash without its 0x00", 8, l.block().message_at() + 2),
    ] {
        assert_rejected(
            prove_edited(&kind, &batch, &|rows: &mut [u64]| {
                let bit_now = get_input(rows, words, y, bit);
                set_input(rows, words, y, bit, !bit_now)
            }),
            what,
            &kind,
        );
    }
}
