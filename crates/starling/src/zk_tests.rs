//! Zero-knowledge batches, as far as they are built (`docs/zk.md`): the
//! circuit laid out around random wires and committed with a hiding
//! opening. Proofs of every kind verify, reproducibly from a test seed and
//! differently from another; the layout's parameters are pinned.

use std::sync::Arc;

use crate::kind::{Batch, SampleInputs, SampleMembers, SamplePreimages, SampleSignatures};
use crate::protocol::{prove_with, MessageCheat, Tamper};
use crate::Native;
use crate::{verify_claimed, Expected, Hash, Kind, Profile, ProofFile, Randomness, Records};
use starling_piop::cover::Fold;
use starling_verifier::kind::{self, Scheme};
use starling_verifier::poly::eq_at_index;
use starling_verifier::protocol::{batch_params_zk, check, check_through, opened_points, spare_positions};
use starling_verifier::zk::veiled::Veil;
use starling_verifier::zk::SPARE_ENTRIES;
use starling_verifier::Builtin;
use starling_verifier::Gf128;
use starling_verifier::DEFAULT_MIN_SECURITY_BITS;

/// A zero-knowledge proof of the statement from `seed`, as bytes.
fn prove_zk(kind: &Arc<dyn Kind>, inputs: &Records, private: &Records, seed: u8) -> Vec<u8> {
    prove_zk_under(Profile::Default, kind, inputs, private, seed)
}

/// [`prove_zk`] under `profile`.
fn prove_zk_under(
    profile: Profile,
    kind: &Arc<dyn Kind>,
    inputs: &Records,
    private: &Records,
    seed: u8,
) -> Vec<u8> {
    prove_with(
        kind.clone(),
        inputs.clone(),
        private.clone(),
        profile,
        Some(Randomness::TestSeed([seed; 32])),
        &mut |_| {},
        &Tamper::default(),
    )
    .expect("a true statement proves")
    .file
    .to_bytes()
}

/// Decodes and verifies, returning the file.
fn verified(bytes: &[u8]) -> ProofFile {
    let file = ProofFile::from_bytes(bytes).expect("decodes");
    assert!(file.zk);
    verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).expect("verifies");
    file
}

/// A zero-knowledge proof by a prover that departs from the protocol as
/// `tamper` says, decoded.
fn prove_cheating(
    (kind, inputs, private): &(Arc<dyn Kind>, Records, Records),
    tamper: &Tamper<'_>,
) -> ProofFile {
    let proved = prove_with(
        kind.clone(),
        inputs.clone(),
        private.clone(),
        Profile::Default,
        Some(Randomness::TestSeed([6; 32])),
        &mut |_| {},
        tamper,
    )
    .expect("the cheating prover makes a file");
    ProofFile::from_bytes(&proved.file.to_bytes()).unwrap()
}

/// Where each step's messages end, in the order messages take pads: the
/// zerocheck's masks, skip messages and rounds (two more in the last), the
/// lincheck's rounds and evaluations, the wiring check's rounds and
/// evaluation.
fn message_ends((kind, inputs, _): &(Arc<dyn Kind>, Records, Records)) -> [usize; 3] {
    let params = batch_params_zk(kind.circuit(), inputs.len(), Profile::Default).unwrap();
    let shape = params.shape;
    let zerocheck = 2 + 127 + 2 * shape.word_vars() + 2;
    let lincheck = zerocheck + 2 * shape.k() + 2;
    [zerocheck, lincheck, lincheck + 2 * (shape.n() + params.p) + 1]
}

fn statements() -> Vec<(Arc<dyn Kind>, Records, Records)> {
    let sha = Batch::builtin(Builtin::Sha256);
    let keccak = Batch::builtin(Builtin::KeccakF1600);
    let leaves: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 32]).collect();
    let messages: Vec<Vec<u8>> = (0..5usize).map(|i| vec![i as u8; 40 * i]).collect();
    let preimage = crate::kind::Preimage::new(Hash::Sha256, 64).unwrap();
    let (digests, secrets) = preimage.random_batch(3, 7);
    let membership = crate::kind::Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let (root, members, _tree) = membership.random_batch(16, 2, 8);
    let keys: Vec<([u8; 32], [u8; 32])> = (0..5u8).map(|i| crate::ring::keygen_from([i; 32])).collect();
    let pks: Vec<[u8; 32]> = keys.iter().map(|k| k.1).collect();
    let (ring_public, ring_private) =
        crate::ring::statement(&pks, &keys[3].0, b"round 7", b"a message").unwrap();
    let lms = crate::kind::Signatures::new(kind::signatures::Scheme::Lms(
        kind::signatures::LmsSet::new(32, 5, 4).unwrap(),
    ));
    let (lms_public, lms_private) = lms.random_batch(2, 20, 3);
    vec![
        (Arc::new(sha.clone()), sha.random_inputs(5, 1), Records::new()),
        (
            Arc::new(keccak.clone()),
            keccak.random_inputs(3, 2),
            Records::new(),
        ),
        (
            kind::merkle_root(Hash::Sha256, Scheme::Plain).unwrap(),
            leaves.iter().map(Vec::as_slice).collect(),
            Records::new(),
        ),
        (
            kind::digest(Hash::Blake3),
            messages.iter().map(Vec::as_slice).collect(),
            Records::new(),
        ),
        (Arc::new(preimage), digests, secrets),
        (Arc::new(membership), root, members),
        (kind::ring(), ring_public, ring_private),
        (Arc::new(lms), lms_public, lms_private),
    ]
}

#[test]
fn zero_knowledge_layouts_of_every_kind_verify() {
    for (kind, inputs, private) in statements() {
        let bytes = prove_zk(&kind, &inputs, &private, 1);
        let file = verified(&bytes);
        assert_eq!(file.statement.inputs(), &inputs, "{}", kind.name());
        // Another seed, another proof of the same statement.
        assert_ne!(bytes, prove_zk(&kind, &inputs, &private, 2), "{}", kind.name());
        // The same seed, the same proof.
        assert_eq!(bytes, prove_zk(&kind, &inputs, &private, 1), "{}", kind.name());
    }
}

#[test]
fn a_zero_knowledge_proof_read_as_a_plain_one_is_rejected() {
    let (kind, inputs, private) = statements().swap_remove(0);
    let mut bytes = prove_zk(&kind, &inputs, &private, 3);
    // The header's profile byte, its zero-knowledge bit cleared.
    let at = starling_verifier::format::HEADER_BYTES - 1;
    assert_eq!(bytes[at], starling_verifier::format::ZK_PROFILE_BIT);
    bytes[at] = 0;
    let rejected = ProofFile::from_bytes(&bytes)
        .map_or(true, |f| verify_claimed(&f, DEFAULT_MIN_SECURITY_BITS).is_err());
    assert!(rejected);
}

/// SHA-256 at 2^14 compressions: the layout the bar is measured on.
#[test]
fn the_sha256_layout_is_pinned() {
    let circuit = Batch::builtin(Builtin::Sha256).circuit().clone();
    let params = batch_params_zk(&circuit, 1 << 14, Profile::Default).unwrap();
    let holes = params.holes.unwrap();
    assert_eq!((params.shape.n(), params.shape.k(), params.p), (14, 15, 12));
    assert_eq!((holes.log_block, holes.count, holes.blocks), (9, 2, 47));
    assert_eq!(params.pcs.level0_data_rows(), 47);
    // Both profiles keep their totals with zero knowledge.
    for (profile, target) in [(Profile::Default, 100.0), (Profile::Secure, 120.0)] {
        for count in [5, 1 << 10, 1 << 14] {
            let params = batch_params_zk(&circuit, count, profile).unwrap();
            let bits = starling_verifier::protocol::security(&params).bits();
            assert!(bits >= target, "{profile:?}, {count}: {bits} bits");
        }
    }
}

/// Every kind's zero-knowledge proof, a bit flipped at 64 places through
/// every section (`tests/rejection.rs` flips every byte of plain proofs).
#[test]
fn a_zero_knowledge_proof_changed_anywhere_is_rejected() {
    for (kind, inputs, private) in statements() {
        let bytes = prove_zk(&kind, &inputs, &private, 4);
        let file = verified(&bytes);
        let start = bytes.len() - file.proof_len();
        // Every section, through its last byte: one bit flipped at a time.
        let step = (file.proof_len() / 64).max(1);
        for at in (start..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
            let mut bad = bytes.clone();
            bad[at] ^= 1 << (at % 8);
            let rejected = ProofFile::from_bytes(&bad)
                .map_or(true, |f| verify_claimed(&f, DEFAULT_MIN_SECURITY_BITS).is_err());
            assert!(rejected, "{}: byte {at} of {}", kind.name(), bytes.len());
        }
    }
}

#[test]
fn a_seeded_zero_knowledge_proof_is_the_same_on_one_thread_and_on_two() {
    let (kind, inputs, private) = statements().swap_remove(0);
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| prove_zk(&kind, &inputs, &private, 5))
    };
    assert_eq!(on(1), on(2));
}

/// A prover that changes a single padded message, of each step, and goes
/// on as if it had not (one added to it, or the message before's pad used
/// again): the verifier's check on the message's true value fails as a
/// constraint, the pads' claim is false, the opening rejects it.
#[test]
fn a_padded_message_changed_without_its_pad_is_rejected() {
    let statement = statements().swap_remove(0);
    let [zerocheck_end, lincheck_end, wiring_end] = message_ends(&statement);
    for at in [
        2,
        70,
        129,
        zerocheck_end - 1,
        zerocheck_end,
        lincheck_end - 1,
        lincheck_end,
        wiring_end - 1,
    ] {
        for how in [MessageCheat::Add(Gf128::ONE), MessageCheat::ReusePad] {
            let tamper = Tamper {
                message: Some((at, how)),
                ..Tamper::default()
            };
            let file = prove_cheating(&statement, &tamper);
            assert!(
                verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).is_err(),
                "message {at}: {how:?}"
            );
        }
    }
}

/// Every constraint is needed: a prover that cheats is rejected, and a
/// prover that also proves the claim of a verifier that leaves out the
/// constraints the cheat breaks is accepted by that verifier (and by no
/// verifier that keeps one of them). Constraints in order: the zerocheck's
/// final check, the lincheck's, the wiring check's, then ring switching's
/// check of the two lincheck claims and the wiring claim. A changed
/// message breaks a step's final check (and its claim's, for an
/// evaluation); a fold of the table changed orthogonally to its
/// sumcheck's weights breaks only ring switching's check of its claim, so
/// each constraint is shown needed on its own.
#[test]
fn each_constraint_is_needed() {
    let statement = statements().swap_remove(0);
    let [zerocheck_end, lincheck_end, wiring_end] = message_ends(&statement);
    let message = |at: usize| Cheat::Message(at);
    for (cheat, broken) in [
        // The last round's X^4 coefficient: only the zerocheck's check.
        (message(zerocheck_end - 1), vec![0]),
        // The lincheck's last round: its final check.
        (message(lincheck_end - 3), vec![1]),
        // The wiring check's last round: its final check.
        (message(wiring_end - 2), vec![2]),
        // A lincheck evaluation: its final check and its claim.
        (message(lincheck_end - 2), vec![1, 3]),
        (message(lincheck_end - 1), vec![1, 4]),
        // The wiring evaluation: its final check and its claim.
        (message(wiring_end - 1), vec![2, 5]),
        // A fold changed orthogonally to its weights: each claim alone.
        (Cheat::Fold(Fold::Lincheck(0)), vec![3]),
        (Cheat::Fold(Fold::Lincheck(1)), vec![4]),
        (Cheat::Fold(Fold::Wiring), vec![5]),
    ] {
        let prove = |leave_out: &[usize]| {
            let tamper = match cheat {
                Cheat::Message(at) => Tamper {
                    message: Some((at, MessageCheat::Add(Gf128::ONE))),
                    leave_out,
                    ..Tamper::default()
                },
                Cheat::Fold(fold) => Tamper {
                    fold: Some(fold),
                    leave_out,
                    ..Tamper::default()
                },
            };
            prove_cheating(&statement, &tamper)
        };
        let file = prove(&broken);
        assert!(check(&file, &Native).is_err(), "{cheat:?}: rejected");
        assert!(
            check_through(&file, &Native, &mut Veil::leaving_out(&broken)).is_ok(),
            "{cheat:?}: accepted without constraints {broken:?}"
        );
        // Leaving out fewer than the cheat breaks is not enough.
        for kept in &broken {
            let fewer: Vec<usize> = broken.iter().copied().filter(|c| c != kept).collect();
            let file = prove(&fewer);
            assert!(
                check_through(&file, &Native, &mut Veil::leaving_out(&fewer)).is_err(),
                "{cheat:?}: constraint {kept} alone rejects it"
            );
        }
    }
}

/// How [`each_constraint_is_needed`]'s provers cheat.
#[derive(Clone, Copy, Debug)]
enum Cheat {
    /// One padded message (by the order messages take pads) changed.
    Message(usize),
    /// A fold changed orthogonally to its weights ([`Tamper::fold`]).
    Fold(Fold),
}

/// The lincheck's final check is what catches a public product whose
/// factors are scaled (`cheating_tests::a_wrong_public_product_is_rejected`):
/// the zerocheck's final check holds, so a verifier that leaves out only
/// the lincheck's check (constraint 1) accepts the cheat, and the real
/// verifier rejects it.
#[test]
fn a_scaled_public_product_is_caught_by_the_lincheck_alone() {
    let statement = statements().swap_remove(0);
    let cheat = |leave_out: &[usize]| {
        let tamper = Tamper {
            evaluations: Some(&crate::cheating_tests::scaled_evaluations),
            leave_out,
            ..Tamper::default()
        };
        prove_cheating(&statement, &tamper)
    };
    assert!(check(&cheat(&[]), &Native).is_err(), "rejected");
    let file = cheat(&[1]);
    assert!(
        check_through(&file, &Native, &mut Veil::leaving_out(&[1])).is_ok(),
        "accepted without the lincheck's final check"
    );
    assert!(
        check_through(&cheat(&[0]), &Native, &mut Veil::leaving_out(&[0])).is_err(),
        "the zerocheck's final check holds"
    );
}

/// A zero-knowledge proof verifies against the statement a verifier
/// expects, and not against another (`verify --expect`).
#[test]
fn a_zero_knowledge_proof_meets_only_its_expectation() {
    for (kind, inputs, private) in statements() {
        let bytes = prove_zk(&kind, &inputs, &private, 8);
        let expected = Expected::new(kind.clone(), inputs.clone()).unwrap();
        crate::verify(&expected, &bytes).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        // The last input record with its first byte changed, or its last
        // (an LMS key's first is its typecode): each one that is a
        // statement of the kind is rejected, and one at least is.
        let last = inputs.len() - 1;
        let mut rejected = 0;
        for byte in [0, inputs.get(last).len() - 1] {
            let mut changed = inputs.get(last).to_vec();
            changed[byte] ^= 1;
            let mut other = Records::new();
            for r in inputs.iter().take(last) {
                other.push(r);
            }
            other.push(&changed);
            if let Ok(wrong) = Expected::new(kind.clone(), other) {
                assert!(crate::verify(&wrong, &bytes).is_err(), "{}", kind.name());
                rejected += 1;
            }
        }
        assert!(rejected > 0, "{}", kind.name());
    }
}

/// A plain proof whose header claims zero knowledge is an error, never a
/// panic: every kind, and a circuit too small for any zero-knowledge
/// layout.
#[test]
fn a_plain_proof_read_as_a_zero_knowledge_one_is_an_error() {
    let small = Batch::of(
        starling_verifier::StatementCircuit::from_bristol(crate::cheating_tests::SMALL_BRISTOL).unwrap(),
    );
    let mut all = statements();
    all.push((Arc::new(small.clone()), small.random_inputs(3, 4), Records::new()));
    for (kind, inputs, private) in all {
        // A plain proof even of a kind that requires zero knowledge.
        let plain = Tamper {
            plain: true,
            ..Tamper::default()
        };
        let proved = prove_with(
            kind.clone(),
            inputs,
            private,
            Profile::Default,
            None,
            &mut |_| {},
            &plain,
        )
        .unwrap();
        assert!(!proved.file.zk);
        let mut bytes = proved.file.to_bytes();
        bytes[starling_verifier::format::HEADER_BYTES - 1] |= starling_verifier::format::ZK_PROFILE_BIT;
        let rejected = ProofFile::from_bytes(&bytes)
            .map_or(true, |f| verify_claimed(&f, DEFAULT_MIN_SECURITY_BITS).is_err());
        assert!(rejected, "{}", kind.name());
    }
}

/// The rank over GF(2) of `rows`, vectors of `words` 128-bit words.
fn gf2_rank(rows: impl Iterator<Item = Vec<u128>>, words: usize) -> usize {
    // One basis vector per leading bit, reduced from the top bit down.
    let mut basis: Vec<Option<Vec<u128>>> = vec![None; 128 * words];
    let mut rank = 0;
    for mut v in rows {
        for bit in (0..128 * words).rev() {
            if v[bit / 128] >> (bit % 128) & 1 == 0 {
                continue;
            }
            match &basis[bit] {
                Some(b) => v.iter_mut().zip(b).for_each(|(x, y)| *x ^= y),
                None => {
                    basis[bit] = Some(v);
                    rank += 1;
                    break;
                }
            }
        }
    }
    rank
}

/// Ring switching sends its `s_u = sum_x eq(R, x) bit_u(f[x])` in the
/// clear, one set per opened point `R`. The pads and the mask runs are
/// spent on the other messages and on the opening, so the spare random
/// entries must make the `s_u` uniform: at the points real proofs open,
/// their weights `eq(R_i, x)` must span `GF(2^128)^points` over GF(2)
/// (`SPARE_ENTRIES`). The wiring check's point is zero above the public
/// block, so this fails unless spare entries lie there. Every kind under
/// both profiles, and larger SHA-256 batches, each with two seeds.
#[test]
fn the_spare_entries_hide_ring_switching_values() {
    let sha = Batch::builtin(Builtin::Sha256);
    let mut cases = statements();
    for count in [300, 1 << 10] {
        cases.push((Arc::new(sha.clone()), sha.random_inputs(count, 3), Records::new()));
    }
    for (kind, inputs, private) in cases {
        for (profile, seed) in [Profile::Default, Profile::Secure]
            .into_iter()
            .flat_map(|p| [(p, 1), (p, 2)])
        {
            let params = batch_params_zk(kind.circuit(), inputs.len(), profile).unwrap();
            let spare = spare_positions(&params);
            assert_eq!(spare.len(), SPARE_ENTRIES, "{}", kind.name());
            let file = verified(&prove_zk_under(profile, &kind, &inputs, &private, seed));
            let mut points = opened_points(&file, &Native).unwrap();
            // A point opened twice sends the same values twice.
            points.sort();
            points.dedup();
            let rank = |entries: &[usize]| {
                let weights = entries
                    .iter()
                    .map(|&x| points.iter().map(|r| eq_at_index(r, x).to_bits()).collect());
                gf2_rank(weights, points.len())
            };
            let full = 128 * points.len();
            assert_eq!(rank(&spare), full, "{}, {profile:?}, seed {seed}", kind.name());
            // The test has power: without the public block's spare entries
            // the wiring check's values would show.
            let public_entries = 1usize << (params.p + params.shape.n() - 7);
            let outside: Vec<usize> = spare.iter().copied().filter(|&x| x >= public_entries).collect();
            assert!(rank(&outside) < full, "{}, {profile:?}", kind.name());
        }
    }
}
