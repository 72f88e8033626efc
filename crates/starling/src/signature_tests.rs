//! Signature batches end to end on sampled signatures: they prove and
//! verify, their statement is exactly theirs, and what is not a valid
//! signature is refused before anything is proved.

use std::sync::Arc;

use starling_verifier::kind::signatures::*;
use starling_verifier::kind::signatures::{hashing, lms, lms_layout, slh_layout};

use starling_verifier::kind::signatures::hss::Stack;

use crate::cheating_tests::{
    assert_rejected, prove_tampered_in, prove_tampered_private, with_instances, Mode,
};
use crate::inputs::{parse_inputs, read_prover_inputs};
use crate::kind::sample::from_seed;
use crate::kind::{SampleSignatures, TextFormat};
use crate::protocol::Tamper;
use crate::{prove_private, verify, Expected, Kind, Profile};
use crate::{Error, Records};
use hashing::{RowHash, Trace};
use lms::PREFIX_BYTES;
use lms_layout::{Layout, Role};

fn lms(h: u32, w: u32) -> Signatures {
    Signatures::new(Scheme::Lms(LmsSet::new(32, h, w).unwrap()))
}

fn hss(levels: u32, h: u32, w: u32) -> Signatures {
    Signatures::new(Scheme::Hss(
        Hss::new(levels, LmsSet::new(32, h, w).unwrap()).unwrap(),
    ))
}

fn prove_and_verify(kind: &Signatures, public: &Records, private: &Records) -> Vec<u8> {
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    let proved = prove_private(
        arc.clone(),
        public.clone(),
        private.clone(),
        Profile::Default,
        &mut |_| {},
    )
    .expect("a valid batch proves");
    let bytes = proved.file.to_bytes();
    let expected = Expected::new(arc, public.clone()).unwrap();
    let verified = verify(&expected, &bytes).expect("the proof verifies");
    assert_eq!(verified.count(), public.len() as u64);
    bytes
}

#[test]
fn sampled_batches_prove_and_verify_at_every_width() {
    for w in [1, 2, 4, 8] {
        let kind = lms(5, w);
        let (public, private) = kind.random_batch(if w == 8 { 1 } else { 2 }, 3 + w as usize, w as u64);
        prove_and_verify(&kind, &public, &private);
    }
}

#[test]
fn sha256_192_batches_prove_and_verify_at_every_width_and_in_hss() {
    for w in [1, 2, 4, 8] {
        let kind = Signatures::new(Scheme::Lms(LmsSet::new(24, 5, w).unwrap()));
        let (public, private) = kind.random_batch(if w == 8 { 1 } else { 2 }, 3 * w as usize, w.into());
        prove_and_verify(&kind, &public, &private);
    }
    let kind = Signatures::new(Scheme::Hss(Hss::new(2, LmsSet::new(24, 5, 4).unwrap()).unwrap()));
    let (public, private) = kind.random_batch(2, 30, 3);
    prove_and_verify(&kind, &public, &private);
}

#[test]
fn shake256_batches_prove_and_verify_at_both_sizes_and_in_hss() {
    for (n, w) in [(32, 4), (24, 8), (32, 1)] {
        let kind = Signatures::new(Scheme::Lms(
            LmsSet::with_hash(RowHash::Shake256, n, 5, w).unwrap(),
        ));
        let (public, private) = kind.random_batch(2, 130 + n as usize, w.into());
        prove_and_verify(&kind, &public, &private);
    }
    let set = LmsSet::with_hash(RowHash::Shake256, 24, 5, 4).unwrap();
    let kind = Signatures::new(Scheme::Hss(Hss::new(3, set).unwrap()));
    let (public, private) = kind.random_batch(1, 0, 3);
    prove_and_verify(&kind, &public, &private);
}

#[test]
fn prover_lines_read_back_and_expected_lines_refuse_signatures() {
    let kind = lms(5, 4);
    let (public, private) = kind.random_batch(3, 0, 1);
    let text = kind.prover_lines(&public, &private);
    let (p, s) = read_prover_inputs(&kind, text.as_bytes()).unwrap();
    assert_eq!((p, s), (public.clone(), private));
    let e = parse_inputs(&kind, &text).unwrap_err().to_string();
    assert!(e.contains("line 1: verify takes no signatures"), "{e}");
    let expected: String = public.iter().map(|r| kind.format_input(r) + "\n").collect();
    assert_eq!(parse_inputs(&kind, &expected).unwrap(), public);
}

#[test]
fn an_invalid_signature_is_refused_naming_its_line() {
    let kind = lms(5, 4);
    let (public, private) = kind.random_batch(3, 8, 2);
    let mut sigs: Vec<Vec<u8>> = private.iter().map(<[u8]>::to_vec).collect();
    sigs[1][40] ^= 1;
    let mut bad = Records::new();
    for s in &sigs {
        bad.push(s);
    }
    let text = format!("# a comment\n\n{}", kind.prover_lines(&public, &bad));
    let e = read_prover_inputs(&kind, text.as_bytes()).unwrap_err();
    assert!(matches!(e, Error::False(_)), "{e}");
    assert!(
        e.to_string().starts_with("line 4: signature does not verify"),
        "{e}"
    );
}

/// A cheating prover's material: the kind with a batch of three
/// signatures, the signatures, where each instance's row is, and the modes
/// its cheats are proved in.
struct Cheat {
    case: (Arc<dyn Kind>, Records),
    kind: Signatures,
    private: Records,
    roles: Vec<(u32, Role)>,
    modes: &'static [Mode],
}

/// The modes a cheat is proved in: both on the sets sampled for zero
/// knowledge, plain on the others. The cheats are the same on every set
/// and zero knowledge changes the protocol, not the circuits, so a sample
/// (LMS with 32-byte SHA-256 and SHAKE256 values, SLH-DSA-SHA2-128f) keeps
/// the suites' time.
fn modes_for(sample: bool) -> &'static [Mode] {
    if sample {
        &Mode::BOTH
    } else {
        &[Mode::Plain]
    }
}

/// The lane bytes of virtual instance `v` of group `g` (see `placement`)
/// in instance rows `rows`.
fn lane_row(kind: &Signatures, rows: &[u64], g: usize, v: usize) -> Vec<u8> {
    let words = kind.circuit().input_words();
    let (y, bytes) = kind.lane_at(rows.len() / words, g, v);
    let mut row = vec![0u8; 8 * words];
    crate::kind::fill_bytes_of(&mut row, &rows[y * words..(y + 1) * words]);
    row[bytes].to_vec()
}

/// Writes the lane bytes of virtual instance `v` of group `g`.
fn put_lane_row(kind: &Signatures, rows: &mut [u64], g: usize, v: usize, lane: &[u8]) {
    let words = kind.circuit().input_words();
    let (y, bytes) = kind.lane_at(rows.len() / words, g, v);
    let mut row = vec![0u8; 8 * words];
    crate::kind::fill_bytes_of(&mut row, &rows[y * words..(y + 1) * words]);
    row[bytes].copy_from_slice(lane);
    crate::kind::fill_row(&mut rows[y * words..(y + 1) * words], &row);
}

/// The LMS hashes the cheating provers run on: SHA-256 and SHAKE256 with
/// 32- and 24-byte values. The 32-byte ones also prove with zero
/// knowledge ([`modes_for`]).
const LMS_HASHES: [(RowHash, u32); 4] = [
    (RowHash::Sha256, 32),
    (RowHash::Sha256, 24),
    (RowHash::Shake256, 32),
    (RowHash::Shake256, 24),
];

/// An LMS cheating prover's batch of three h5/w4 signatures with `n`-byte
/// values of `hash`.
fn cheat(hash: RowHash, n: u32) -> Cheat {
    let set = LmsSet::with_hash(hash, n, 5, 4).unwrap();
    let stack = Stack::lms(set);
    let kind = Signatures::new(Scheme::Lms(set));
    let (public, private) = kind.random_batch(3, 12, 9);
    let mut q_reps = Records::new();
    let key = set.public_key_bytes();
    for (p, s) in public.iter().zip(private.iter()) {
        q_reps.push(&stack.trace(&p[..key], &p[key..], s).unwrap().output);
    }
    let roles = Layout::new(stack, &public, &q_reps).roles().to_vec();
    Cheat {
        case: (Arc::new(kind.clone()), public),
        kind,
        private,
        roles,
        modes: modes_for(n == 32),
    }
}

impl Cheat {
    /// The first instance of signature `s` with a role `pick` accepts.
    fn find(&self, s: u32, pick: impl Fn(usize, Role) -> bool) -> usize {
        (0..self.roles.len())
            .find(|&y| self.roles[y].0 == s && pick(y, self.roles[y].1))
            .expect("such an instance")
    }

    /// The row of call `y` of the first group.
    fn row(&self, rows: &[u64], y: usize) -> Vec<u8> {
        lane_row(&self.kind, rows, 0, y)
    }

    fn put_row(&self, rows: &mut [u64], y: usize, bytes: &[u8]) {
        put_lane_row(&self.kind, rows, 0, y, bytes)
    }

    /// A change `f` to the row of call `y` of group `g`.
    fn edit<'a>(&'a self, g: usize, y: usize, f: impl Fn(&mut Vec<u8>) + 'a) -> impl Fn(&mut [u64]) + 'a {
        move |rows| {
            let mut r = lane_row(&self.kind, rows, g, y);
            f(&mut r);
            put_lane_row(&self.kind, rows, g, y, &r);
        }
    }

    fn assert_rejected(&self, tamper: Tamper<'_>, what: &str) {
        assert_rejected(self.prove(tamper), what, self.case.0.as_ref());
    }

    /// Proves the batch as a cheating prover does, in the cheat's modes.
    fn prove(&self, tamper: Tamper<'_>) -> Result<(), Error> {
        prove_tampered_in(self.modes, &self.case, &self.private, &tamper)
    }
}

/// The records with `change` applied to each (given its index).
fn changed(records: &Records, change: impl Fn(usize, &mut Vec<u8>)) -> Records {
    let mut out = Records::new();
    for (i, r) in records.iter().enumerate() {
        let mut r = r.to_vec();
        change(i, &mut r);
        out.push(&r);
    }
    out
}

/// The SHA-256 compression of a row's chaining value and block.
fn compress(row: &[u8]) -> Vec<u8> {
    crate::Hash::Sha256.compress(&row[..96])
}

#[test]
fn the_honest_cheater_is_accepted() {
    for (hash, n) in LMS_HASHES {
        let c = cheat(hash, n);
        c.prove(Tamper::default()).expect("honest");
    }
}

#[test]
fn chains_that_skip_a_step_or_start_elsewhere_are_rejected() {
    for (hash, n) in LMS_HASHES {
        chains_that_skip_a_step_or_start_elsewhere(hash, n as usize, &cheat(hash, n));
    }
}

fn chains_that_skip_a_step_or_start_elsewhere(hash: RowHash, n: usize, c: &Cheat) {
    // A row's block starts after the chained part.
    let st = hash.state_bytes();
    // A chain of at least two steps in the last signature: its last step
    // hashes the value the step before took, so the chain's end skipped a
    // step (each instance still a valid compression).
    let last = c.find(2, |y, r| {
        matches!(r, Role::Step { first: false, .. })
            && c.roles
                .get(y + 1)
                .is_none_or(|n| !matches!(n.1, Role::Step { first: false, .. }))
    });
    let skip = |rows: &mut [u64]| {
        let before = c.row(rows, last - 1);
        let mut r = c.row(rows, last);
        r[st + 23..st + 23 + n].copy_from_slice(&before[st + 23..st + 23 + n]);
        c.put_row(rows, last, &r);
    };
    c.assert_rejected(with_instances(&skip), "a chain end that skipped a step");
    // The first signature's first chain starts one step later than its digit
    // says (its first step claims the next j).
    let first = c.find(0, |_, r| matches!(r, Role::Step { first: true, .. }));
    let later = |rows: &mut [u64]| {
        let mut r = c.row(rows, first);
        r[st + 22] += 1;
        c.put_row(rows, first, &r);
    };
    c.assert_rejected(with_instances(&later), "a chain that starts at another step");
    // A step of the middle signature hashes another leaf index q.
    let step = c.find(1, |_, r| matches!(r, Role::Step { .. }));
    let other_q = |rows: &mut [u64]| {
        let mut r = c.row(rows, step);
        r[st + 19] ^= 1;
        c.put_row(rows, step, &r);
    };
    c.assert_rejected(with_instances(&other_q), "a step with another q");
    // Another I or q where a hash reads them from the instance before (a
    // later step; the key's first block after the last step) or from the
    // message hash (the leaf, a path level's I).
    let later_step = c.find(1, |_, r| matches!(r, Role::Step { first: false, .. }));
    let key = c.find(1, |_, r| r == Role::PublicKey(0));
    let leaf = c.find(1, |_, r| r == Role::Leaf);
    let node = c.find(1, |_, r| r == Role::Node { second: false });
    for (y, byte, what) in [
        (later_step, 0, "a later step with another I"),
        (later_step, 18, "a later step with another q"),
        (key, 9, "the key's hash with another I"),
        (key, 17, "the key's hash with another q"),
        (leaf, 15, "the leaf with another I"),
        (leaf, 16, "the leaf with another q"),
        (node, 4, "a path level with another I"),
    ] {
        let edit = c.edit(0, y, move |r| r[st + byte] ^= 0x20);
        c.assert_rejected(with_instances(&edit), what);
    }
    // A step hashed with another padding (its block's last byte: SHA-256's
    // bit length, SHAKE256's final bit), which a padding run binds for all
    // steps at once.
    let padding = |rows: &mut [u64]| {
        let mut r = c.row(rows, step);
        r[st + hash.block_bytes() - 1] ^= 1;
        c.put_row(rows, step, &r);
    };
    c.assert_rejected(with_instances(&padding), "a step with another padding");
}

#[test]
fn wrong_directions_and_path_nodes_are_rejected() {
    for (hash, n) in LMS_HASHES {
        wrong_directions_and_path_nodes(hash, n as usize, &cheat(hash, n));
    }
}

fn wrong_directions_and_path_nodes(hash: RowHash, n: usize, c: &Cheat) {
    // Node messages: the 22-byte prefix, left and right, in one block
    // (SHAKE256) or two (SHA-256); then P and the direction bit after the
    // chained part and the block.
    let (st, bb) = (hash.state_bytes(), hash.block_bytes());
    let (left, right, prev, bit) = (22..22 + n, 22 + n..22 + 2 * n, st + bb, st + bb + n);
    let blocks = hash.blocks(22 + 2 * n);
    let level = |s: u32| {
        c.find(s, |y, r| {
            r == Role::Node { second: false } && c.roles[y - 1].1 != Role::Leaf
        })
    };
    // The node below put on the other side, with the direction bit that
    // matches it: every circuit check holds, the direction is not q's.
    let y = level(0);
    let swap = |rows: &mut [u64]| {
        let mut a = c.row(rows, y);
        let mut message: Vec<u8> = a[st..st + bb].to_vec();
        if blocks == 2 {
            message.extend(&c.row(rows, y + 1)[st..st + right.end - bb]);
        }
        let (l, r) = (message[left.clone()].to_vec(), message[right.clone()].to_vec());
        message[left.clone()].copy_from_slice(&r);
        message[right.clone()].copy_from_slice(&l);
        a[st..st + bb].copy_from_slice(&message[..bb]);
        a[bit] ^= 1;
        if blocks == 2 {
            let mut b = c.row(rows, y + 1);
            b[st..st + right.end - bb].copy_from_slice(&message[bb..right.end]);
            b[..st].copy_from_slice(&compress(&a));
            b[bit] ^= 1;
            c.put_row(rows, y + 1, &b);
        }
        c.put_row(rows, y, &a);
    };
    c.assert_rejected(with_instances(&swap), "a path level on the wrong side");
    // Only the direction bit flipped.
    let y = level(2);
    let flip = |rows: &mut [u64]| {
        for z in y..y + blocks {
            let mut r = c.row(rows, z);
            r[bit] ^= 1;
            c.put_row(rows, z, &r);
        }
    };
    c.assert_rejected(with_instances(&flip), "a flipped direction bit");
    // P, the node below, is not what the level below computed.
    let y = level(1);
    let prev = |rows: &mut [u64]| {
        let mut r = c.row(rows, y);
        r[prev + 4] ^= 4;
        c.put_row(rows, y, &r);
    };
    c.assert_rejected(with_instances(&prev), "another node below");
}

#[test]
fn another_message_representative_or_key_is_rejected() {
    for (hash, n) in LMS_HASHES {
        another_message_representative_or_key(&cheat(hash, n));
    }
}

fn another_message_representative_or_key(c: &Cheat) {
    let q_rep = |st: &mut crate::Statement| {
        *st.outputs_mut() = changed(st.outputs(), |s, q| {
            if s == 1 {
                *q.last_mut().expect("a Q") ^= 1
            }
        })
    };
    c.assert_rejected(
        Tamper {
            statement: Some(&q_rep),
            ..Tamper::default()
        },
        "another Q (its digits and checksum)",
    );
    let root = |st: &mut crate::Statement| {
        *st.inputs_mut() = changed(st.inputs(), |s, r| {
            if s == 2 {
                r[40] ^= 0x10
            }
        })
    };
    c.assert_rejected(
        Tamper {
            statement: Some(&root),
            ..Tamper::default()
        },
        "another public key root",
    );
    // The statement names a key of another parameter set: the relations
    // hold (they do not read typecodes), RFC 8554 rejects it.
    let typecode = |st: &mut crate::Statement| *st.inputs_mut() = changed(st.inputs(), |_, r| r[3] += 1);
    let result = c.prove(Tamper {
        statement: Some(&typecode),
        ..Tamper::default()
    });
    match result {
        Err(crate::Error::Rejected(crate::Rejection::Invalid {
            check: crate::Check::Statement,
            ..
        })) => {}
        other => panic!("a key of another parameter set: {other:?}"),
    }
}

#[test]
fn expectations_that_differ_are_rejected_naming_the_difference() {
    let kind = lms(5, 4);
    let (public, private) = kind.random_batch(3, 5, 4);
    let bytes = prove_and_verify(&kind, &public, &private);
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    let rejects = |records: Vec<Vec<u8>>, kind: Arc<dyn Kind>, what: &str| {
        let records: Records = records.iter().map(Vec::as_slice).collect();
        let e = Expected::new(kind, records)
            .map_err(|e| e.to_string())
            .and_then(|x| verify(&x, &bytes).map(|_| ()).map_err(|e| e.to_string()));
        assert!(e.is_err(), "{what} verified");
        e.unwrap_err()
    };
    let all: Vec<Vec<u8>> = public.iter().map(<[u8]>::to_vec).collect();
    let mut pk_bit = all.clone();
    pk_bit[1][20] ^= 1;
    let e = rejects(pk_bit, arc.clone(), "a PK bit");
    assert!(e.contains("public key"), "{e}");
    let mut msg_bit = all.clone();
    msg_bit[2][57] ^= 0x80;
    let e = rejects(msg_bit, arc.clone(), "a MSG bit");
    assert!(e.contains("message"), "{e}");
    let mut swapped = all.clone();
    swapped.swap(0, 1);
    rejects(swapped, arc.clone(), "two lines swapped");
    rejects(all[..2].to_vec(), arc.clone(), "a line dropped");
    let mut added = all.clone();
    added.push(all[0].clone());
    rejects(added, arc.clone(), "a line added");
    let other: Arc<dyn Kind> = Arc::new(lms(10, 4));
    let mut retyped = all.clone();
    for r in &mut retyped {
        r[3] = LmsSet::new(32, 10, 4).unwrap().lms_type() as u8;
    }
    rejects(retyped, other, "another parameter set");
}

#[test]
fn the_same_key_on_many_lines_and_one_signature_prove() {
    let kind = lms(5, 2);
    let (public, private) = kind.random_batch(1, 0, 11);
    prove_and_verify(&kind, &public, &private);
    // One line five times (one key signing many messages at its leaves is
    // the lms-signature crate test's).
    let (pk, sig) = LmsSet::new(32, 5, 2)
        .unwrap()
        .sample(&mut from_seed(5), b"repeat");
    let mut record = pk.clone();
    record.extend(b"repeat");
    let public: Records = (0..5).map(|_| record.as_slice()).collect();
    let private: Records = (0..5).map(|_| sig.as_slice()).collect();
    prove_and_verify(&kind, &public, &private);
}

fn slh(set: SlhSet, interface: Interface) -> Signatures {
    Signatures::new(Scheme::SlhDsa(SlhDsa::new(set, interface).unwrap()))
}

#[test]
fn slh_dsa_sampled_signatures_prove_and_verify() {
    for (set, interface) in [
        (SlhSet::Sha2_128s, Interface::Pure(Vec::new())),
        (SlhSet::Sha2_128f, Interface::Pure(vec![1, 2, 3])),
        (SlhSet::Sha2_128s, Interface::Internal),
        (SlhSet::Shake128f, Interface::Pure(Vec::new())),
        (SlhSet::Shake192s, Interface::Internal),
        (SlhSet::Shake256f, Interface::Pure(vec![9])),
    ] {
        let kind = slh(set, interface);
        let (public, private) = kind.random_batch(1, 33, 5);
        let mut calls = 0;
        assert!(kind.verify_natively(public.get(0), private.get(0), &mut calls));
        prove_and_verify(&kind, &public, &private);
    }
}

/// An SLH-DSA cheating prover's batch of `set`: two signatures and their
/// rows' roles, lane by lane. SHA2-128f's cheats also prove with zero
/// knowledge ([`modes_for`]; a SHAKE-128f proof takes twice as long).
fn slh_cheat(set: SlhSet) -> (Cheat, Vec<Vec<slh_layout::Role>>) {
    let kind = slh(set, Interface::Pure(Vec::new()));
    let (public, private) = kind.random_batch(2, 9, 21);
    let mut outputs = Records::new();
    for (p, s) in public.iter().zip(private.iter()) {
        outputs.push(&kind.trace(p, s).unwrap().output);
    }
    let roles = slh_layout::roles(set, &public, &kind.hashed_lengths(&public), &outputs);
    let cheat = Cheat {
        case: (Arc::new(kind.clone()), public),
        kind,
        private,
        roles: Vec::new(),
        modes: modes_for(set == SlhSet::Sha2_128f),
    };
    (cheat, roles)
}

#[test]
fn slh_dsa_cheats_are_rejected() {
    // A forced lower tier (scripts/test-all) changes the kernels, not the
    // layouts: one set there.
    let forced =
        std::env::var_os("STARLING_CPU_TIER").is_some() || std::env::var_os("STARLING_CPU_WITHOUT").is_some();
    let sets: &[SlhSet] = if forced {
        &[SlhSet::Sha2_128f]
    } else {
        &[SlhSet::Sha2_128f, SlhSet::Shake128f, SlhSet::Sha2_192s]
    };
    for &set in sets {
        slh_dsa_cheats(set);
    }
}

fn slh_dsa_cheats(set: SlhSet) {
    use slh_layout::Role as R;
    let (c, roles) = slh_cheat(set);
    let lanes = slh_layout::lanes(set);
    // A row's block starts after its lane's bytes before it and the
    // chained part; a call's data after the address (and, for SHAKE, the
    // seed). `F` calls are in the first lane, the others in the last.
    let (at, n) = (set.data_at(), set.n());
    let (f, h) = (
        lanes[0].hash.state_bytes(),
        lanes.last().unwrap().hash.state_bytes(),
    );
    c.prove(Tamper::default()).expect("honest");
    let find = |lane: usize, pick: &dyn Fn(usize, R) -> bool| {
        let roles = &roles[lane];
        (0..roles.len()).rev().find(|&y| pick(y, roles[y])).unwrap()
    };
    let last = lanes.len() - 1;
    // A chain step hashes another value than the step before produced.
    let step = find(0, &|_, r| r == R::Step);
    let skip = c.edit(0, step, |r| r[f + at] ^= 1);
    c.assert_rejected(with_instances(&skip), "a chain step that skipped its input");
    // A node hashed with the node below on the other side.
    let node = find(last, &|_, r| r == R::Node { left: true });
    let (st, at) = (h, at);
    let swap = c.edit(last, node, |r| {
        let (left, right) = (
            r[st + at..st + at + n].to_vec(),
            r[st + at + n..st + at + 2 * n].to_vec(),
        );
        r[st + at..st + at + n].copy_from_slice(&right);
        r[st + at + n..st + at + 2 * n].copy_from_slice(&left);
    });
    c.assert_rejected(with_instances(&swap), "a node on the wrong side");
    // Another randomizer R in an MGF1 call than in the inner hash (SHA-2).
    if set.h_hash() != RowHash::Shake256 {
        let mgf = find(last, &|_, r| matches!(r, R::Mgf { block: 0, .. }));
        let other_r = c.edit(last, mgf, |r| r[h] ^= 0x40);
        c.assert_rejected(with_instances(&other_r), "another R in MGF1");
    }
    // Another address (or seed) in a tweakable hash.
    let start = find(0, &|_, r| r == R::Start);
    let adrs = c.edit(0, start, |r| r[f + at - 1] ^= 1);
    c.assert_rejected(with_instances(&adrs), "another address");
    let seed = c.edit(0, start, |r| r[f] ^= 1);
    c.assert_rejected(with_instances(&seed), "another first byte of a call");
    // Another padding of an `F` and of an `H` call (their blocks' last
    // bytes), which padding runs bind for a whole set at once.
    let f_end = f + lanes[0].hash.block_bytes() - 1;
    let f_padding = c.edit(0, start, move |r| r[f_end] ^= 1);
    c.assert_rejected(with_instances(&f_padding), "an F call with another padding");
    let h_end = h + lanes[last].hash.block_bytes() - 1;
    let h_padding = c.edit(last, node, move |r| r[h_end] ^= 1);
    c.assert_rejected(with_instances(&h_padding), "an H call with another padding");
    // Another key: its seed, or its root (which the last node of the top
    // layer must output).
    for (byte, what) in [(0, "another PK.seed"), (n, "another PK.root")] {
        let other =
            move |st: &mut crate::Statement| *st.inputs_mut() = changed(st.inputs(), |_, r| r[byte] ^= 0x01);
        c.assert_rejected(
            Tamper {
                statement: Some(&other),
                ..Tamper::default()
            },
            what,
        );
    }
    // Another digest or layer message in the statement.
    for byte in [0, 40] {
        let other = move |st: &mut crate::Statement| {
            *st.outputs_mut() = changed(st.outputs(), |_, o| o[byte] ^= 0x10)
        };
        c.assert_rejected(
            Tamper {
                statement: Some(&other),
                ..Tamper::default()
            },
            "another public digest or layer message",
        );
    }
}

/// Every part of a signature, the message and the key: one bit changed
/// makes the line false (a bit of `q` that stays below 2^h included).
#[test]
fn every_part_of_an_invalid_signature_fails_prove() {
    let check = |kind: &Signatures, parts: &[(&str, bool, usize)]| {
        let (public, private) = kind.random_batch(1, 10, 13);
        for &(what, in_signature, at) in parts {
            let (mut p, mut s) = (public.get(0).to_vec(), private.get(0).to_vec());
            if in_signature {
                s[at] ^= 1;
            } else {
                p[at] ^= 1;
            }
            let line = kind.prover_lines(
                &[p.as_slice()].into_iter().collect(),
                &[s.as_slice()].into_iter().collect(),
            );
            match read_prover_inputs(kind, line.as_bytes()) {
                Err(Error::False(e)) => {
                    assert!(e.starts_with("line 1: signature does not verify"), "{what}: {e}")
                }
                other => panic!("{} {what}: {other:?}", kind.name()),
            }
        }
    };
    let set = LmsSet::new(32, 5, 4).unwrap();
    let path = 40 + 32 * set.p() + 4;
    check(
        &lms(5, 4),
        &[
            ("a bit of q", true, 3),
            ("C", true, 8),
            ("a chain value", true, 40 + 32 * 20),
            ("the last chain value", true, 40 + 32 * 66 + 31),
            ("an authentication-path node", true, path + 32 * 3),
            ("the key's I", false, 8),
            ("the key's root", false, 40),
            ("the message", false, 56),
        ],
    );
    let slh_set = SlhSet::Sha2_128s;
    let fors = 16;
    let ht = 16 + 14 * 13 * 16;
    check(
        &slh(slh_set, Interface::Pure(Vec::new())),
        &[
            ("R", true, 0),
            ("a FORS secret", true, fors),
            ("a FORS path node", true, fors + 16 * 5),
            ("a chain value", true, ht + 16 * 3),
            ("a hypertree path node", true, ht + 16 * 36),
            ("the top layer", true, slh_set.signature_bytes() - 1),
            ("PK.seed", false, 0),
            ("PK.root", false, 16),
            ("the message", false, 32),
        ],
    );
}

#[test]
fn hss_batches_prove_and_verify_at_one_to_three_levels() {
    for levels in 1..=3 {
        let kind = hss(levels, 5, 4);
        let (public, private) = kind.random_batch(if levels == 2 { 2 } else { 1 }, 7, levels.into());
        prove_and_verify(&kind, &public, &private);
    }
}

#[test]
fn hss_faults_are_refused_naming_the_level() {
    let kind = hss(2, 5, 4);
    let set = LmsSet::new(32, 5, 4).unwrap();
    let (public, private) = kind.random_batch(1, 3, 8);
    let lms_sig = set.signature_bytes();
    let refused = |pk_change: &dyn Fn(&mut Vec<u8>), sig_change: &dyn Fn(&mut Vec<u8>)| {
        let mut pk = public.get(0)[..60].to_vec();
        pk_change(&mut pk);
        let mut sig = private.get(0).to_vec();
        sig_change(&mut sig);
        let line = format!(
            "{} {} {}",
            hex::encode(&pk),
            hex::encode(&public.get(0)[60..]),
            hex::encode(&sig)
        );
        read_prover_inputs(&kind, line.as_bytes()).unwrap_err()
    };
    type Change<'a> = &'a dyn Fn(&mut Vec<u8>);
    let cases: [(&str, Change, Change, bool, &str); 6] = [
        (
            "level 0's C",
            &|_| {},
            &|s| s[4 + 8] ^= 1,
            true,
            "level 0: the root it leads to is not the public key's",
        ),
        (
            "the signed key's root",
            &|_| {},
            &|s| s[4 + lms_sig + 40] ^= 1,
            true,
            "level 0: the root",
        ),
        (
            "level 1's chain value",
            &|_| {},
            &|s| s[4 + lms_sig + 56 + 100] ^= 1,
            true,
            "level 1: the root it leads to is not the key level above signs",
        ),
        (
            "the signed key's typecode",
            &|_| {},
            &|s| s[4 + lms_sig + 3] ^= 1,
            false,
            "level 1: the signed key: the public key's LMS typecode",
        ),
        (
            "the count of signed keys",
            &|_| {},
            &|s| s[3] = 2,
            false,
            "the signature has 2 signed public keys",
        ),
        (
            "the key's levels",
            &|p| p[3] = 3,
            &|_| {},
            false,
            "the public key has 3 levels",
        ),
    ];
    for (what, pk_change, sig_change, is_false, says) in cases {
        let e = refused(pk_change, sig_change);
        assert_eq!(matches!(e, Error::False(_)), is_false, "{what}: {e}");
        assert!(e.to_string().contains(says), "{what}: {e}");
    }
}

/// A forger's hasher: each message is changed by `edit` (given its part)
/// before it is hashed.
struct Forger<'a> {
    trace: &'a mut Trace,
    edit: &'a mut dyn FnMut(&mut [u8], hashing::Part),
}

impl hashing::Hasher for Forger<'_> {
    fn hash_long(
        &mut self,
        hash: RowHash,
        message: &[u8],
        part: hashing::Part,
        node: hashing::PathNode<'_>,
        len: usize,
    ) -> Vec<u8> {
        let mut message = message.to_vec();
        (self.edit)(&mut message, part);
        self.trace.hash_long(hash, &message, part, node, len)
    }

    fn hash_seeded(&mut self, hash: RowHash, state: &[u8], tail: &[u8]) -> Vec<u8> {
        self.trace.hash_seeded(hash, state, tail)
    }

    fn first_hash(&self) -> RowHash {
        self.trace.first_hash()
    }
}

/// A forged LMS h5/w4 signature with `hash`: the verification of a sampled
/// signature with every message changed by `edit`, its calls as the
/// instances, and as the statement's root the one they lead to. RFC 8554
/// hashes the messages unchanged, so the signature is invalid under that
/// key: `verify` must reject it.
fn assert_forgery_rejected(hash: RowHash, what: &str, edit: &mut dyn FnMut(&mut [u8], hashing::Part)) {
    let set = LmsSet::with_hash(hash, 32, 5, 4).unwrap();
    let kind = Signatures::new(Scheme::Lms(set));
    let (public, private) = kind.random_batch(1, 9, 13);
    let (pk, msg) = public.get(0).split_at(set.public_key_bytes());
    let mut trace = Trace::of(&set.lanes());
    let mut forger = Forger {
        trace: &mut trace,
        edit,
    };
    let (_, root) = set.candidate(&pk[8..24], msg, private.get(0), &mut forger);
    let rows = [&trace.rows[0].message_rows[..], &trace.rows[0].rows[..]].concat();
    let forge = |instances: &mut [u64]| {
        for (y, bytes) in rows.chunks_exact(set.row_bytes()).enumerate() {
            put_lane_row(&kind, instances, 0, y, bytes);
        }
    };
    let key_root = |st: &mut crate::Statement| {
        *st.inputs_mut() = changed(st.inputs(), |_, r| r[24..56].copy_from_slice(&root))
    };
    let case = (Arc::new(kind.clone()) as Arc<dyn Kind>, public.clone());
    assert_rejected(
        prove_tampered_private(
            &case,
            &private,
            Tamper {
                instances: Some(&forge),
                statement: Some(&key_root),
                ..Tamper::default()
            },
        ),
        what,
        &kind,
    );
}

#[test]
fn chains_a_key_and_a_path_under_another_identifier_are_rejected() {
    // The message hash names the key's `I` (public), every other hash
    // another: only the copies of `I` from the message hash tell.
    for hash in [RowHash::Sha256, RowHash::Shake256] {
        let mut other_id = |m: &mut [u8], part| {
            if part != hashing::Part::Message {
                m[..16].fill(0x5a)
            }
        };
        assert_forgery_rejected(hash, "chains, key hash and path under another I", &mut other_id);
    }
}

#[test]
fn a_chain_step_with_another_number_is_rejected() {
    // One later step of a chain (a step message, `I ‖ q ‖ i ‖ j ‖ tmp`,
    // of the chain the step before was of) hashed with `j + 1`, or with
    // another chain's number `i`: only the step before's successor `J`, or
    // its `i`, tells.
    for hash in [RowHash::Sha256, RowHash::Shake256] {
        for (byte, what) in [
            (PREFIX_BYTES, "another step number"),
            (21, "another chain number"),
        ] {
            let (mut chain, mut done) = (None, false);
            let mut other = |m: &mut [u8], part| {
                if part != hashing::Part::Rest || m.len() != PREFIX_BYTES + 1 + 32 {
                    return;
                }
                let this = [m[20], m[21]];
                if chain == Some(this) && !done {
                    m[byte] += 1;
                    done = true;
                }
                chain = Some(this);
            };
            assert_forgery_rejected(hash, &format!("a chain step with {what}"), &mut other);
        }
    }
}

#[test]
fn a_level_under_a_key_the_level_above_did_not_sign_is_rejected() {
    for hash in [RowHash::Sha256, RowHash::Shake256] {
        a_level_under_a_key_the_level_above_did_not_sign(LmsSet::with_hash(hash, 32, 5, 4).unwrap());
    }
}

fn a_level_under_a_key_the_level_above_did_not_sign(set: LmsSet) {
    let scheme = Hss::new(2, set).unwrap();
    let kind = Signatures::new(Scheme::Hss(scheme));
    let (public, private) = kind.random_batch(1, 9, 21);
    let (pk, msg) = public.get(0).split_at(60);
    let honest = scheme.stack().trace(pk, msg, private.get(0)).unwrap();
    // The forger's own tree, signing the message with as many chain steps
    // as the honest level 1 (so that the layout is the same): every
    // instance a valid step of a valid LMS verification, level 0 signing
    // another key than the one level 1 is under. Its identifier `I` is its
    // own, or the signed key's (only the root differs then).
    let steps = |q: &[u8]| set.digits(q).iter().map(|&a| set.max_digit() - a).sum::<u32>();
    let signed_id = &private.get(0)[4 + set.signature_bytes() + 8..][..16];
    let mut rng = from_seed(5);
    for own_id in [true, false] {
        let forged = loop {
            let (key, sig) = set.sample(&mut rng, msg);
            let id = if own_id { &key[8..24] } else { signed_id };
            let mut trace = Trace::of(&set.lanes());
            let (q_rep, _) = set.candidate(id, msg, &sig, &mut trace);
            if steps(&q_rep) == steps(&honest.output[32..]) {
                break trace;
            }
        };
        let upper = set.message_blocks(56) * set.row_bytes();
        let (honest, forged) = (&honest.rows[0], &forged.rows[0]);
        let kept = honest.rows.len() - forged.rows.len();
        let all = [
            &honest.message_rows[..upper],
            &forged.message_rows[..],
            &honest.rows[..kept],
            &forged.rows[..],
        ]
        .concat();
        let forge = |rows: &mut [u64]| {
            for (y, bytes) in all.chunks_exact(set.row_bytes()).enumerate() {
                put_lane_row(&kind, rows, 0, y, bytes);
            }
        };
        let case = (Arc::new(kind.clone()) as Arc<dyn Kind>, public.clone());
        assert_rejected(
            prove_tampered_private(&case, &private, with_instances(&forge)),
            &format!("level 1 under a key level 0 did not sign (its own I: {own_id})"),
            &kind,
        );
    }
}
