//! Preimage statements end to end (zero-knowledge, as the kind requires):
//! batches of messages of private lengths at every padding boundary prove
//! and verify against digests from the reference crates; a wrong digest, a
//! message longer than `max_len` and cheating witnesses are refused or
//! rejected.

use std::sync::Arc;

use sha2::Digest as _;

use crate::cheating_tests::{assert_rejected, prove_tampered_private, with_instances};
use crate::inputs::{parse_inputs, read_prover_inputs};
use crate::kind::{Preimage, SamplePreimages, TextFormat};
use crate::protocol::Tamper;
use crate::{
    prove_private, verify, Error, Expected, Hash, Kind, Mismatch, Profile, Records, Rejection, Statement,
};

/// The digest of `msg` under `hash` from the reference crates.
fn reference(hash: Hash, msg: &[u8]) -> Vec<u8> {
    match hash {
        Hash::Sha256 => sha2::Sha256::digest(msg).to_vec(),
        Hash::Sha512 => sha2::Sha512::digest(msg).to_vec(),
        Hash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        Hash::Keccak256 => sha3::Keccak256::digest(msg).to_vec(),
        Hash::Blake3 => blake3::hash(msg).as_bytes().to_vec(),
    }
}

/// A message of `len` bytes, different for each length.
fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + len * 7 + 5) as u8).collect()
}

/// The messages of these lengths and their reference digests.
fn batch(hash: Hash, lengths: &[usize]) -> (Records, Records) {
    let messages: Vec<Vec<u8>> = lengths.iter().map(|&l| message(l)).collect();
    let digests: Vec<Vec<u8>> = messages.iter().map(|m| reference(hash, m)).collect();
    (
        digests.iter().map(Vec::as_slice).collect(),
        messages.iter().map(Vec::as_slice).collect(),
    )
}

/// Proves the batch and verifies it against the expected digests.
fn prove_and_verify(kind: &Preimage, digests: &Records, messages: &Records) -> Vec<u8> {
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    let proved = prove_private(
        arc.clone(),
        digests.clone(),
        messages.clone(),
        Profile::Default,
        &mut |_| {},
    )
    .expect("a true batch proves");
    assert!(proved.file.statement.outputs().is_empty());
    let bytes = proved.file.to_bytes();
    let verified = verify(&Expected::new(arc, digests.clone()).unwrap(), &bytes).expect("the proof verifies");
    assert_eq!(verified.count(), digests.len() as u64);
    bytes
}

/// Every hash at lengths 0, 1, `max_len - 1`, `max_len` and its padding
/// boundaries, with the messages read from a prover's lines.
#[test]
fn every_hash_proves_and_verifies_boundary_lengths() {
    let cases: [(Hash, usize, &[usize]); 6] = [
        (Hash::Sha256, 64, &[0, 1, 55, 56, 63, 64]),
        (Hash::Sha512, 128, &[0, 1, 111, 112, 127, 128]),
        (Hash::Sha3_256, 136, &[0, 1, 135, 136]),
        (Hash::Keccak256, 136, &[0, 1, 135, 136]),
        (Hash::Blake3, 64, &[0, 1, 63, 64]),
        (Hash::Blake3, 130, &[0, 1, 63, 64, 65, 129, 130]),
    ];
    for (hash, max_len, lengths) in cases {
        let kind = Preimage::new(hash, max_len).unwrap();
        let (digests, messages) = batch(hash, lengths);
        let text = format!("# secrets\n\n{}", kind.prover_lines(&messages));
        let read = read_prover_inputs(&kind, text.as_bytes()).unwrap();
        assert_eq!(read, (digests.clone(), messages.clone()), "{}", kind.name());
        prove_and_verify(&kind, &digests, &messages);
    }
}

#[test]
fn sampled_batches_prove_and_their_expected_lines_are_the_digests() {
    let kind = Preimage::new(Hash::Sha256, 100).unwrap();
    let (digests, messages) = kind.random_batch(5, 11);
    for (d, m) in digests.iter().zip(messages.iter()) {
        assert!(m.len() <= 100);
        assert_eq!(d, reference(Hash::Sha256, m));
    }
    let expected: String = digests.iter().map(|d| kind.format_input(d) + "\n").collect();
    assert_eq!(parse_inputs(&kind, &expected).unwrap(), digests);
    prove_and_verify(&kind, &digests, &messages);
}

#[test]
fn a_wrong_digest_is_rejected() {
    let kind = Preimage::new(Hash::Sha256, 64).unwrap();
    let (digests, messages) = batch(Hash::Sha256, &[3, 60, 64]);
    let proof = prove_and_verify(&kind, &digests, &messages);
    // An expectation with another digest is not what the proof proves.
    let mut other = digests.clone();
    other.flip_bit(1, 77);
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    match verify(&Expected::new(arc.clone(), other).unwrap(), &proof) {
        Err(Error::Rejected(Rejection::Mismatch(Mismatch::Input { index: 1, field }))) => {
            assert_eq!(field, "digest")
        }
        other => panic!("expected a mismatch of digest 1, got {other:?}"),
    }
    // Nor is another max_len.
    let longer: Arc<dyn Kind> = Arc::new(Preimage::new(Hash::Sha256, 65).unwrap());
    assert!(matches!(
        verify(&Expected::new(longer, digests.clone()).unwrap(), &proof),
        Err(Error::Rejected(Rejection::Mismatch(Mismatch::Kind { .. })))
    ));
    // A prover cannot start from a digest its message does not have.
    let e = prove_private(
        arc.clone(),
        other_digests(&digests),
        messages.clone(),
        Profile::Default,
        &mut |_| {},
    )
    .err()
    .expect("refused");
    assert!(matches!(&e, Error::False(m) if m.contains("message 0")), "{e}");
    // A proof whose statement claims another digest, its witness honest.
    let flip = |st: &mut Statement| st.inputs_mut().flip_bit(2, 200);
    let tamper = Tamper {
        statement: Some(&flip),
        ..Tamper::default()
    };
    assert_rejected(
        prove_tampered_private(&(arc, digests), &messages, tamper),
        "another digest in the statement",
        &kind,
    );
}

/// `digests` with the first one changed.
fn other_digests(digests: &Records) -> Records {
    let mut other = digests.clone();
    other.flip_bit(0, 3);
    other
}

#[test]
fn messages_longer_than_max_len_are_refused() {
    let kind = Preimage::new(Hash::Sha256, 64).unwrap();
    let text = format!("{}\n{}\n", hex::encode([1u8; 64]), hex::encode([2u8; 65]));
    let e = read_prover_inputs(&kind, text.as_bytes()).unwrap_err();
    assert!(matches!(e, Error::Input(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "line 2: the message has 65 bytes, more than the --max-len of 64"
    );
    let (digests, messages) = batch(Hash::Sha256, &[65]);
    let e = prove_private(Arc::new(kind), digests, messages, Profile::Default, &mut |_| {})
        .err()
        .expect("refused");
    assert!(
        matches!(&e, Error::Input(m) if m == "message 0: the message has 65 bytes, more than the --max-len of 64"),
        "{e}"
    );
}

/// Sets input bit `bit` of instance `y` among the instance rows to `value`.
fn set_input(rows: &mut [u64], words: usize, y: usize, bit: usize, value: bool) {
    let word = &mut rows[y * words + bit / 64];
    *word = (*word & !(1 << (bit % 64))) | (u64::from(value) << (bit % 64));
}

/// The public outputs of instance `y` run on its row.
fn instance_outputs(kind: &Preimage, rows: &[u64], y: usize) -> Vec<bool> {
    let r1cs = kind.circuit().r1cs();
    let words = kind.circuit().input_words();
    let bits: Vec<bool> = (0..r1cs.num_public_inputs())
        .map(|i| (rows[y * words + i / 64] >> (i % 64)) & 1 == 1)
        .collect();
    let z = r1cs.evaluate_instance(&bits, &[]);
    (0..r1cs.num_public_outputs())
        .map(|j| z[r1cs.public_output_wire(j)])
        .collect()
}

/// Proves the batch from rows a cheating prover tampered with (`edit`, of
/// instance `edited`): the blocks after the edited one, up to its
/// message's last, take what the block before them outputs, and the
/// statement claims as that message's digest what its last block's digest
/// register holds. Every instance is a valid run and every link after the
/// edit holds: only what the edit itself breaks can catch it.
fn prove_edited(
    kind: &Preimage,
    lengths: &[usize],
    edited: usize,
    edit: &dyn Fn(&mut [u64]),
) -> Result<(), Error> {
    let (digests, messages) = batch(kind.hash(), lengths);
    let (l, words) = (kind.layout(), kind.circuit().input_words());
    let m = edited / kind.blocks();
    let last = (m + 1) * kind.blocks() - 1;
    let mut rows = kind.instance_rows(&digests, &messages).unwrap();
    edit(&mut rows);
    for y in edited + 1..=last {
        let out = instance_outputs(kind, &rows, y - 1);
        for (i, &bit) in out.iter().enumerate().take(l.carried_bits()) {
            set_input(&mut rows, words, y, i, bit);
        }
    }
    let out = instance_outputs(kind, &rows, last);
    let claimed: Vec<u8> = (0..kind.hash().digest_bytes())
        .map(|b| (0..8).fold(0u8, |v, t| v | (u8::from(out[l.digest_at() + 8 * b + t]) << t)))
        .collect();
    let claim = |st: &mut Statement| {
        let mut all: Vec<Vec<u8>> = st.inputs().iter().map(<[u8]>::to_vec).collect();
        all[m] = claimed.clone();
        *st.inputs_mut() = all.iter().map(Vec::as_slice).collect();
    };
    let replace = |r: &mut [u64]| r.copy_from_slice(&rows);
    let tamper = Tamper {
        statement: Some(&claim),
        ..with_instances(&replace)
    };
    prove_tampered_private(&(Arc::new(kind.clone()), digests), &messages, tamper)
}

#[test]
fn cheating_witnesses_are_rejected() {
    let kind = Preimage::new(Hash::Sha256, 64).unwrap();
    let (l, words) = (kind.layout(), kind.circuit().input_words());
    // Message 1 (20 bytes) ends in its first block (instance 2); its
    // second block (instance 3) is after the final one.
    let lengths = [64, 20, 5];
    // The control: a `continues` bit past the edge changes nothing.
    let after_edge = |rows: &mut [u64]| set_input(rows, words, 2, l.continues_at() + 30, true);
    prove_edited(&kind, &lengths, 2, &after_edge).expect("an equivalent witness verifies");
    // The padding of 20 bytes, and the digest of the block after it: the
    // second block claims to be the final one (its overflow bit set).
    let overflow = |rows: &mut [u64]| set_input(rows, words, 3, l.overflow_at(), true);
    assert_rejected(
        prove_edited(&kind, &lengths, 3, &overflow),
        "the digest of a block after the final one",
        &kind,
    );
    // ... with its digest register cleared too: the digest is that block's output.
    let only_that_block = |rows: &mut [u64]| {
        overflow(rows);
        for i in 0..8 * l.digest_bytes() {
            set_input(rows, words, 3, l.digest_at() + i, false);
        }
    };
    assert_rejected(
        prove_edited(&kind, &lengths, 3, &only_that_block),
        "the output of another block as the digest",
        &kind,
    );
    // The first block pads 20 bytes, and the second says the message goes on.
    let goes_on = |rows: &mut [u64]| {
        set_input(rows, words, 3, l.inside_at(), true);
        set_input(rows, words, 3, l.continues_at(), true);
    };
    assert_rejected(
        prove_edited(&kind, &lengths, 3, &goes_on),
        "a message that goes on after its padding",
        &kind,
    );
    // A thermometer that falls one byte earlier proves the digest of the
    // first 19 bytes: a true statement, which verifies.
    let shorter = |rows: &mut [u64]| set_input(rows, words, 2, l.continues_at() + 19, false);
    prove_edited(&kind, &lengths, 2, &shorter).expect("a true statement about 19 bytes verifies");
    // Another length in the length field: the accumulated length entering
    // the second block of message 0 (64 bytes, final in that block).
    let length = |rows: &mut [u64]| set_input(rows, words, 1, l.length_at() + 2, true);
    assert_rejected(
        prove_edited(&kind, &lengths, 1, &length),
        "another length in the length field",
        &kind,
    );
    // Message 2's first block computed as block 1: the length field says
    // 69 bytes, and the second block carries it on.
    let index = |rows: &mut [u64]| set_input(rows, words, 4, l.index_at(), true);
    assert_rejected(
        prove_edited(&kind, &lengths, 4, &index),
        "a block under another index",
        &kind,
    );
    // Message 0's first block starts from another chaining value.
    let iv = |rows: &mut [u64]| set_input(rows, words, 0, l.state_at() + 9, true);
    assert_rejected(
        prove_edited(&kind, &lengths, 0, &iv),
        "another initial value",
        &kind,
    );
}

#[test]
fn a_message_past_max_len_is_rejected_though_its_blocks_fit() {
    // 50 and 55 bytes both take one SHA-256 block: the same circuit and
    // layout, and a witness for 54 bytes is a valid run of it.
    let short = Preimage::new(Hash::Sha256, 50).unwrap();
    let long = Preimage::new(Hash::Sha256, 55).unwrap();
    assert_eq!((short.blocks(), long.blocks()), (1, 1));
    let (digests, messages) = batch(Hash::Sha256, &[54]);
    prove_and_verify(&long, &digests, &messages);
    let rows = long.instance_rows(&digests, &messages).unwrap();
    let (honest_digests, honest_messages) = batch(Hash::Sha256, &[50]);
    let swap_rows = |r: &mut [u64]| r.copy_from_slice(&rows);
    let claim = |st: &mut Statement| *st.inputs_mut() = digests.clone();
    let tamper = Tamper {
        statement: Some(&claim),
        ..with_instances(&swap_rows)
    };
    assert_rejected(
        prove_tampered_private(
            &(Arc::new(short.clone()), honest_digests),
            &honest_messages,
            tamper,
        ),
        "a 54-byte message under --max-len 50",
        &short,
    );
}

#[test]
fn the_empty_message_alone_under_max_len_zero() {
    for hash in [Hash::Blake3, Hash::Sha256, Hash::Keccak256] {
        let kind = Preimage::new(hash, 0).unwrap();
        let (digests, messages) = batch(hash, &[0, 0]);
        prove_and_verify(&kind, &digests, &messages);
    }
}

#[test]
fn blake3_and_sponge_cheats_are_rejected() {
    // BLAKE3: a 20-byte message's second block (after the final one)
    // claims to be a first block, so that it is final again (the empty
    // message's rule) and its output joins the digest register.
    let kind = Preimage::new(Hash::Blake3, 100).unwrap();
    let (l, words) = (kind.layout(), kind.circuit().input_words());
    let first_again = |rows: &mut [u64]| set_input(rows, words, 1, l.index_at(), true);
    assert_rejected(
        prove_edited(&kind, &[20], 1, &first_again),
        "a BLAKE3 block after the final one as a first block",
        &kind,
    );
    // A first block whose carry-in says the message has no byte: the
    // empty message's digest for a block of 20 bytes is a true statement
    // (the message is then empty), which verifies.
    let empty = |rows: &mut [u64]| set_input(rows, words, 0, l.inside_at(), false);
    prove_edited(&kind, &[20], 0, &empty).expect("the empty message's digest verifies");
    for hash in [Hash::Sha3_256, Hash::Keccak256] {
        // The sponge: the second block says the message goes on past its
        // padding, so that the second block is the final one.
        let kind = Preimage::new(hash, 200).unwrap();
        let (l, words) = (kind.layout(), kind.circuit().input_words());
        let goes_on = |rows: &mut [u64]| {
            set_input(rows, words, 1, l.inside_at(), true);
            set_input(rows, words, 1, l.continues_at(), true);
        };
        assert_rejected(
            prove_edited(&kind, &[20], 1, &goes_on),
            "a sponge message that goes on after its padding",
            &kind,
        );
        // The first block absorbed into a state other than zero.
        let state = |rows: &mut [u64]| set_input(rows, words, 0, l.state_at() + 8 * 150, true);
        assert_rejected(
            prove_edited(&kind, &[20], 0, &state),
            "a sponge that starts from another state",
            &kind,
        );
    }
}
