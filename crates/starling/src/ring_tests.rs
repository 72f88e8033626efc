//! Ring signatures end to end (zero-knowledge, as the kind requires): rings
//! of 5 (padded to 8) and of 1 prove and verify against roots computed by
//! reference code here; a non-member is refused, cheating provers and
//! changed public values are rejected; key images link one key in one
//! context; a ring file reads its keys.

use std::sync::Arc;

use sha2::Digest as _;

use crate::cheating_tests::{assert_rejected, prove_tampered_private, with_instances};
use crate::inputs::read_ring_keys;
use crate::kind::Ring;
use crate::protocol::Tamper;
use crate::ring::{key_image, keygen_from, message_digest, root, statement};
use crate::DEFAULT_MIN_SECURITY_BITS;
use crate::{
    prove_private, verify, verify_claimed, Error, Expected, Kind, Profile, ProofFile, Records, Statement,
};

type Key = [u8; 32];

fn sha256(parts: &[&[u8]]) -> Key {
    sha2::Sha256::digest(parts.concat()).into()
}

/// `count` key pairs, different for each `salt`.
fn keys(count: usize, salt: u8) -> Vec<(Key, Key)> {
    (0..count)
        .map(|i| keygen_from(core::array::from_fn(|b| (i * 31 + b * 7) as u8 ^ salt)))
        .collect()
}

/// The plain tree's root by halves, from the reference crate.
fn reference_root(leaves: &[Key]) -> Key {
    match leaves {
        [leaf] => *leaf,
        _ => {
            let (left, right) = leaves.split_at(leaves.len() / 2);
            sha256(&[&reference_root(left), &reference_root(right)])
        }
    }
}

fn pks(pairs: &[(Key, Key)]) -> Vec<Key> {
    pairs.iter().map(|p| p.1).collect()
}

fn kind() -> Arc<dyn Kind> {
    Arc::new(Ring::new())
}

/// Proves a signature and verifies it against its expected line; returns
/// the proof.
fn sign_and_verify(public: &Records, private: &Records) -> Vec<u8> {
    let kind = kind();
    let proved = prove_private(
        kind.clone(),
        public.clone(),
        private.clone(),
        Profile::Default,
        &mut |_| {},
    )
    .expect("a member signs");
    let bytes = proved.file.to_bytes();
    let line = kind.format_input(public.get(0)) + "\n";
    let expected = crate::inputs::parse_inputs(kind.as_ref(), &line).unwrap();
    assert_eq!(&expected, public);
    let verified = verify(&Expected::new(kind, expected).unwrap(), &bytes).expect("the signature verifies");
    assert_eq!(verified.count(), 1);
    bytes
}

#[test]
fn keys_roots_and_key_images_are_the_documented_hashes() {
    let (sk, pk) = keys(1, 9)[0];
    assert_eq!(pk, sha256(&[b"starling/ring/pk", &sk]));
    assert_eq!(
        key_image(&sk, b"ctx"),
        sha256(&[b"starling/ring/tag", &sk, b"ctx"])
    );
    let ring = pks(&keys(5, 1));
    let mut padded = ring.clone();
    padded.resize(8, [0; 32]);
    assert_eq!(root(&ring).unwrap(), reference_root(&padded));
    assert_eq!(root(&ring[..1]).unwrap(), ring[0]);
    assert!(matches!(root(&[]), Err(Error::Input(_))));
    // The same key in two contexts gives two key images; in one, one.
    assert_ne!(key_image(&sk, b"a"), key_image(&sk, b"b"));
    assert_eq!(key_image(&sk, b"a"), key_image(&sk, b"a"));
    let other = keys(1, 10)[0].0;
    assert_ne!(key_image(&sk, b"a"), key_image(&other, b"a"));
}

#[test]
fn rings_of_5_and_of_1_sign_and_verify() {
    let pairs = keys(5, 1);
    let ring = pks(&pairs);
    // Every member of the ring of 5; contexts of one block and of two.
    for (m, context) in [(0, &b""[..]), (4, &[7u8; 64][..]), (2, &b"vote 3"[..])] {
        let (public, private) = statement(&ring, &pairs[m].0, context, b"the message").unwrap();
        let record = public.get(0);
        let mut padded = ring.clone();
        padded.resize(8, [0; 32]);
        assert_eq!(&record[..32], reference_root(&padded));
        assert_eq!(u64::from_le_bytes(record[32..40].try_into().unwrap()), 8);
        assert_eq!(&record[40..72], message_digest(b"the message"));
        assert_eq!(&record[72..104], key_image(&pairs[m].0, context));
        sign_and_verify(&public, &private);
    }
    let (public, private) = statement(&ring[..1], &pairs[0].0, b"ctx", b"").unwrap();
    assert_eq!(&public.get(0)[..32], &ring[0]);
    sign_and_verify(&public, &private);
}

#[test]
fn same_key_links_in_one_context_only() {
    let pairs = keys(2, 3);
    let ring = pks(&pairs);
    let image = |context: &[u8], message: &[u8]| {
        let (public, _) = statement(&ring, &pairs[1].0, context, message).unwrap();
        public.get(0)[72..104].to_vec()
    };
    assert_eq!(image(b"poll", b"yes"), image(b"poll", b"no"));
    assert_ne!(image(b"poll", b"yes"), image(b"poll 2", b"yes"));
}

#[test]
fn a_non_member_is_refused() {
    let ring = pks(&keys(5, 1));
    let stranger = keys(1, 2)[0].0;
    let e = statement(&ring, &stranger, b"", b"m").expect_err("refused");
    assert!(matches!(e, Error::False(_)), "{e}");
    assert!(e.to_string().ends_with("is not in the ring"), "{e}");
    // Its records made up: the honest statement of a member, the stranger's
    // secret key with the member's index and path.
    let pairs = keys(5, 1);
    let (public, private) = statement(&ring, &pairs[3].0, b"", b"m").unwrap();
    let mut record = private.get(0).to_vec();
    record[..32].copy_from_slice(&stranger);
    let e = prove_private(
        kind(),
        public,
        [record.as_slice()].into_iter().collect(),
        Profile::Default,
        &mut |_| {},
    )
    .err()
    .expect("refused");
    assert!(matches!(e, Error::False(_)), "{e}");
    assert!(matches!(
        statement(&ring, &pairs[0].0, &[0; 65], b"m"),
        Err(Error::Input(_))
    ));
}

/// Proves the honest statement from rows a cheating prover changed.
fn prove_edited(public: &Records, private: &Records, edit: &dyn Fn(&mut [u64])) -> Result<(), Error> {
    let ring = Ring::new();
    let mut rows = ring.instance_rows(public, private).unwrap();
    edit(&mut rows);
    let replace = |r: &mut [u64]| r.copy_from_slice(&rows);
    prove_tampered_private(&(kind(), public.clone()), private, with_instances(&replace))
}

/// Proves the honest statement with the rows of another private record:
/// every instance a valid run of the circuit.
fn prove_with_record(public: &Records, private: &Records, record: &[u8]) -> Result<(), Error> {
    let rows = Ring::new().rows_of(8, b"ctx", record).unwrap().rows;
    prove_edited(public, private, &|all: &mut [u64]| all.copy_from_slice(&rows))
}

fn set_input(rows: &mut [u64], words: usize, y: usize, bit: usize, value: bool) {
    let word = &mut rows[y * words + bit / 64];
    *word = (*word & !(1 << (bit % 64))) | (u64::from(value) << (bit % 64));
}

#[test]
fn cheating_signers_are_rejected() {
    let pairs = keys(5, 4);
    let ring = pks(&pairs);
    let (public, private) = statement(&ring, &pairs[1].0, b"ctx", b"m").unwrap();
    let kind_ref = Ring::new();
    let words = kind_ref.circuit().input_words();
    prove_with_record(&public, &private, private.get(0)).expect("the honest rows verify");
    // A wrong path: a sibling changed (level 1), the path above recomputed.
    let mut record = private.get(0).to_vec();
    record[40 + 32 + 3] ^= 4;
    assert_rejected(
        prove_with_record(&public, &private, &record),
        "a wrong sibling",
        &kind_ref,
    );
    // Another index with the same path.
    let mut record = private.get(0).to_vec();
    record[32] ^= 1;
    assert_rejected(
        prove_with_record(&public, &private, &record),
        "another index",
        &kind_ref,
    );
    // A stranger's key with the member's path.
    let mut record = private.get(0).to_vec();
    record[..32].copy_from_slice(&keys(1, 5)[0].0);
    assert_rejected(
        prove_with_record(&public, &private, &record),
        "a stranger's key",
        &kind_ref,
    );
    // Two keys: the tag from the member's, the public key from another
    // member's, each block a valid run: the sk wires differ.
    let other_rows = kind_ref
        .rows_of(
            8,
            b"ctx",
            statement(&ring, &pairs[2].0, b"ctx", b"m").unwrap().1.get(0),
        )
        .unwrap()
        .rows;
    // One tag block (a 3-byte context): instances 1.. are the key and path.
    let honest = kind_ref.rows_of(8, b"ctx", private.get(0)).unwrap().rows;
    let spliced: Vec<u64> = honest[..words]
        .iter()
        .chain(&other_rows[words..])
        .copied()
        .collect();
    assert_rejected(
        prove_edited(&public, &private, &|rows: &mut [u64]| {
            rows.copy_from_slice(&spliced)
        }),
        "the tag's sk and the key's sk differ",
        &kind_ref,
    );
    // One sk bit of the key block flipped (instance 1, block byte 16).
    let bit = 256 + 8 * 16;
    assert_rejected(
        prove_edited(&public, &private, &|rows: &mut [u64]| {
            let now = (rows[words + bit / 64] >> (bit % 64)) & 1 == 1;
            set_input(rows, words, 1, bit, !now)
        }),
        "an sk bit of the key block",
        &kind_ref,
    );
}

#[test]
fn changed_public_values_are_rejected() {
    let pairs = keys(5, 6);
    let ring = pks(&pairs);
    let (public, private) = statement(&ring, &pairs[4].0, b"ctx", b"message").unwrap();
    let proof = sign_and_verify(&public, &private);
    let kind_ref = Ring::new();
    // The file's statement changed after proving (the digest, K, the
    // context, the root): the transcript's challenges are another's.
    for (what, byte) in [
        ("message digest", 45),
        ("key image", 80),
        ("context", 110),
        ("root", 3),
    ] {
        let mut file = ProofFile::from_bytes(&proof).unwrap();
        file.statement.inputs_mut().flip_bit(0, 8 * byte + 1);
        let file = ProofFile::from_bytes(&file.to_bytes()).unwrap();
        assert_rejected(
            verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).map(|_| ()),
            what,
            &kind_ref,
        );
        // An expectation of the changed record is a mismatch.
        let mut other = public.clone();
        other.flip_bit(0, 8 * byte + 1);
        assert!(
            verify(&Expected::new(kind(), other).unwrap(), &proof).is_err(),
            "{what}"
        );
    }
    // A prover that claims another K, root or context with the honest
    // witness is rejected (the message digest it may choose: it signs).
    for (what, byte) in [("key image", 80), ("context", 110), ("root", 3)] {
        let flip = move |st: &mut Statement| st.inputs_mut().flip_bit(0, 8 * byte + 2);
        let tamper = Tamper {
            statement: Some(&flip),
            ..Tamper::default()
        };
        assert_rejected(
            prove_tampered_private(&(kind(), public.clone()), &private, tamper),
            what,
            &kind_ref,
        );
    }
    // The message digest is the message's: another message signs another.
    let (other, _) = statement(&ring, &pairs[4].0, b"ctx", b"other message").unwrap();
    assert!(verify(&Expected::new(kind(), other).unwrap(), &proof).is_err());
}

#[test]
fn a_ring_file_reads_its_keys_in_order_and_names_a_bad_line() {
    let ring = pks(&keys(3, 4));
    let text = format!(
        "# the ring\n{}\n\n  {}  \r\n{}\n",
        hex::encode(ring[0]),
        hex::encode_upper(ring[1]),
        hex::encode(ring[2])
    );
    assert_eq!(read_ring_keys(text.as_bytes()).unwrap(), ring);
    let empty = read_ring_keys(&b"# no keys\n"[..]).expect_err("an empty ring");
    assert!(
        empty.to_string().contains("the ring has no public keys"),
        "{empty}"
    );
    let key = hex::encode(ring[0]);
    for (text, says) in [
        (
            format!("{key}\n{}\n", &key[1..]),
            "line 2: public key has 63 hex digits",
        ),
        (
            format!("{key}\n\n{key} {key}\n"),
            "line 3: expected 1 field (PK), found 2",
        ),
        (format!("{}g\n", &key[1..]), "line 1: public key: 'g'"),
    ] {
        let e = read_ring_keys(text.as_bytes()).expect_err(&text);
        assert!(matches!(e, Error::Input(_)), "{e}");
        assert!(e.to_string().contains(says), "{e}");
    }
}
