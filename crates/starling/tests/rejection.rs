//! A verifier that accepts a wrong statement is the worst bug we can ship.
//! For every statement kind (signature batches included): every section of a proof file is altered byte by
//! byte (all of the small sections, a sample of the opening), every public
//! value is changed by one bit, and truncated or random files must give
//! errors. The same for zero-knowledge proofs: of every kind but the
//! signature batches (whose cheating provers `starling`'s own tests run
//! with zero knowledge), the kinds with secrets included.

mod common;

use std::sync::{Arc, OnceLock};

use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use starling::{
    format, prove, prove_private, verify_claimed, Error, Kind, Profile, ProofFile, ProveOptions, Records,
    Statement, Verified, DEFAULT_MIN_SECURITY_BITS,
};

const N: usize = 3;

/// The kinds under test with their input records: every batch kind (N
/// records), and the statements of the other kinds.
fn statements() -> Vec<(Arc<dyn Kind>, Records)> {
    let mut all: Vec<_> = common::every_batch()
        .iter()
        .map(|b| common::random_batch(b, N, 2024))
        .collect();
    all.extend(common::linked_statements());
    all
}

/// An honest proof of every kind, and its bytes: plain, then with zero
/// knowledge (every batch kind first, then the kinds with secrets, then
/// the linked kinds).
fn honest() -> &'static Vec<(ProofFile, Vec<u8>)> {
    static PROOFS: OnceLock<Vec<(ProofFile, Vec<u8>)>> = OnceLock::new();
    PROOFS.get_or_init(|| {
        let public_only = |statements: Vec<(Arc<dyn Kind>, Records)>| {
            statements
                .into_iter()
                .map(|(kind, inputs)| (kind, inputs, Records::new()))
        };
        let plain = public_only(statements())
            .chain(common::signature_statements())
            .map(|s| (s, ProveOptions::from(Profile::Default)));
        // With a lower tier forced, the first batch (SHA-256) and the kinds
        // with secrets: the zero-knowledge verifier is the same code over
        // that tier's arithmetic, which the plain proofs of every kind run.
        let zk = public_only(statements())
            .enumerate()
            .filter(|(i, _)| *i == 0 || !secondary_tier())
            .map(|(_, s)| s)
            .chain(common::secret_statements())
            .filter(|(kind, _, _)| has_zk_layout(kind.as_ref()))
            .map(|s| (s, common::zk_options(5)));
        plain
            .chain(zk)
            .map(|((kind, inputs, private), options)| {
                let proved = prove_private(kind, inputs, private, options, &mut |_| {}).unwrap();
                let bytes = proved.file.to_bytes();
                (proved.file, bytes)
            })
            .collect()
    })
}

/// Whether the kind's circuit is large enough for a zero-knowledge layout
/// (every kind's but the small Bristol circuit's, whose few wires leave no
/// room for the random ones).
fn has_zk_layout(kind: &dyn Kind) -> bool {
    kind.name() != "circuit"
}

/// Verifies the statement the file carries (the checks of the proof system).
fn verify_as_claimed(file: &ProofFile) -> Result<Verified, Error> {
    verify_claimed(file, DEFAULT_MIN_SECURITY_BITS)
}

/// Decoding then verifying; `Ok` means the bytes were accepted.
fn accepts(bytes: &[u8]) -> Result<(), Error> {
    let file = ProofFile::from_bytes(bytes)?;
    verify_as_claimed(&file).map(|_| ())
}

/// Byte ranges of the file: header, the kind's parameters, the public data,
/// and the six proof sections.
fn sections(file: &ProofFile, bytes: &[u8]) -> Vec<(&'static str, std::ops::Range<usize>)> {
    let header = format::HEADER_BYTES;
    let params_end = header + 4 + file.statement.kind().params().len();
    let statement_end = params_end + format::statement_bytes(&file.statement);
    let mut out = vec![
        ("header", 0..header),
        ("parameters", header..params_end),
        ("public data", params_end..statement_end),
    ];
    let mut at = statement_end;
    for name in [
        "commitment",
        "grinding",
        "zerocheck",
        "lincheck",
        "wiring",
        "opening",
    ] {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        out.push((name, at..at + 4 + len));
        at += 4 + len;
    }
    assert_eq!(at, bytes.len(), "sections cover the file");
    out
}

/// True in the passes of `scripts/test-all` that force a tier below the
/// best this CPU runs (the portable one is 10-30x slower).
fn secondary_tier() -> bool {
    starling::cpu::tier() != starling::cpu::Tier::best()
}

/// Every byte is flipped in the run with the best tier; a run with another
/// tier forced flips every seventh (every 29th under the portable tier),
/// which walks through every bit position and every section, and checks
/// the same verifier code over the other field arithmetic; the opening's
/// sample past its first 4 KB thins out by the same factor. That keeps the
/// pass short on slow CPUs: on a Zen 1 EPYC this test took 266 s of the
/// portable pass's 380 s with a stride of 7 and the best tier's sample,
/// 40 s now (72 s for every byte with the AVX2 tier).
fn flip_stride() -> usize {
    match starling::cpu::tier() {
        _ if !secondary_tier() => 1,
        starling::cpu::Tier::Portable => 29,
        _ => 7,
    }
}

#[test]
fn every_section_rejects_flipped_bytes() {
    let stride = flip_stride();
    for (i, (file, bytes)) in honest().iter().enumerate() {
        let kind = file.statement.kind();
        assert!(accepts(bytes).is_ok());
        // The opening is the same code for every kind: the first proof
        // samples it densely, the others more sparsely. The kinds that link
        // instances differ from the batches in their parameters and public
        // data (every byte) and run the same proof sections (a sample, and
        // none in the passes with another tier forced, whose batches run
        // those sections over that tier's arithmetic already).
        // With another tier forced, the sample is as much sparser as the
        // stride.
        // The first zero-knowledge proof (a SHA-256 batch's) is read as
        // densely as the first plain one: its padded messages and hiding
        // opening are the zero-knowledge verifier's own code; the others'
        // proof sections as sparsely as the linked kinds'.
        let first = i == 0 || (file.zk && !honest()[i - 1].0.zk);
        let step = if first { 61 } else { 509 } * stride;
        let batch = file.statement.kind().code() <= 4; // batches are codes 1 to 4
        let sparse = !batch || (file.zk && !first);
        for (name, range) in sections(file, bytes) {
            let own = matches!(name, "header" | "parameters" | "public data");
            if range.is_empty() || (sparse && !own && secondary_tier()) {
                continue;
            }
            let stride = if sparse && !own { 37 * stride } else { stride };
            // Small sections: every byte. The opening: its first 4 KB (length
            // and ring-switching messages) byte by byte, then a sample.
            let positions: Vec<usize> = if name == "opening" {
                let dense = range.start..(range.start + 4096).min(range.end);
                dense
                    .step_by(stride)
                    .chain((range.start + 4096..range.end).step_by(step))
                    .chain([range.end - 1])
                    .collect()
            } else {
                range.clone().step_by(stride).chain([range.end - 1]).collect()
            };
            // Each flip is verified on its own, on every core: this test
            // alone was six of CI's minutes on one core of two.
            positions.into_par_iter().for_each(|pos| {
                let mut bad = bytes.clone();
                bad[pos] ^= 1 << (pos % 8);
                assert!(
                    accepts(&bad).is_err(),
                    "{}: flipping byte {pos} in the {name} section was accepted",
                    kind.name()
                );
            });
        }
    }
}

/// `records` with bit `bit` of record `i` flipped.
fn flipped(records: &Records, i: usize, bit: usize) -> Records {
    let mut out = Records::new();
    for (j, r) in records.iter().enumerate() {
        let mut r = r.to_vec();
        if j == i {
            r[bit / 8] ^= 1 << (bit % 8);
        }
        out.push(&r);
    }
    out
}

/// The file with another statement of the same kind, if the kind admits it.
fn with(file: &ProofFile, inputs: Records, outputs: Records) -> Option<ProofFile> {
    let st = Statement::new(file.statement.kind().clone(), inputs, outputs).ok()?;
    let mut f = file.clone();
    f.statement = st;
    Some(f)
}

#[test]
fn every_public_value_is_bound() {
    for (file, _) in honest() {
        let st = &file.statement;
        let name = st.kind().name();
        for (list, is_input) in [(st.inputs(), true), (st.outputs(), false)] {
            for i in 0..list.len() {
                let bits = 8 * list.get(i).len();
                for bit in (0..bits).step_by(7).chain(bits.checked_sub(1)) {
                    let changed = flipped(list, i, bit);
                    let f = if is_input {
                        with(file, changed, st.outputs().clone())
                    } else {
                        with(file, st.inputs().clone(), changed)
                    };
                    // Some changes are not a statement of the kind at all
                    // (a bit past a value's width): nothing to verify.
                    let Some(f) = f else { continue };
                    assert!(
                        matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                        "{name}: {} {i} bit {bit}",
                        if is_input { "input" } else { "output" }
                    );
                }
            }
        }
        // A different profile, or dropping a record, changes the statement.
        let mut f = file.clone();
        f.profile = Profile::Secure;
        assert!(verify_as_claimed(&f).is_err(), "{name}: profile");
        let fewer = |r: &Records| -> Records { r.iter().take(r.len() - 1).collect() };
        if st.inputs().len() > 1 && st.inputs().len() == st.outputs().len() {
            let f = with(file, fewer(st.inputs()), fewer(st.outputs())).expect("a shorter statement");
            assert!(verify_as_claimed(&f).is_err(), "{name}: a record dropped");
        }
    }
}

#[test]
fn a_proof_for_one_circuit_does_not_verify_for_another() {
    let proofs = honest();
    // The Bristol proof with a different circuit text of the same shape
    // (one AND becomes an XOR).
    let (file, _) = proofs
        .iter()
        .find(|(f, _)| f.statement.kind().name() == "circuit")
        .unwrap();
    let other = starling::kind::circuit(&common::SMALL_BRISTOL.replacen("AND", "XOR", 1)).unwrap();
    let mut f = file.clone();
    f.statement = Statement::new(
        other,
        file.statement.inputs().clone(),
        file.statement.outputs().clone(),
    )
    .unwrap();
    assert!(matches!(verify_as_claimed(&f), Err(Error::Rejected(_))));
    // A hash proof relabelled as another kind does not verify.
    let (_, bytes) = &proofs[0];
    for code in [2u8, 3, 4, 5, 6, 7, 8, 0] {
        let mut bad = bytes.clone();
        bad[10] = code;
        assert!(accepts(&bad).is_err(), "kind code {code}");
    }
}

#[test]
fn truncated_and_random_files_are_errors() {
    for (_, bytes) in honest() {
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            assert!(
                accepts(&bytes[..len]).is_err(),
                "a file cut at {len} bytes was accepted"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(accepts(&long), Err(Error::Malformed(_))));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let len = rng.gen_range(0..4096);
            let mut junk: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            if rng.gen_bool(0.5) && junk.len() >= 16 {
                // A plausible header over random contents.
                junk[..16].copy_from_slice(&bytes[..16]);
            }
            assert!(accepts(&junk).is_err());
        }
    }
    // A header claiming a huge list of records must not allocate or panic
    // (a built-in batch: no parameters, the input count at 16..24).
    let (_, bytes) = &honest()[0];
    let mut huge = bytes[..24].to_vec();
    huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(accepts(&huge), Err(Error::Malformed(_))));
}

#[test]
fn secure_proofs_check_their_proof_of_work() {
    // Every kind plainly, and the first (a SHA-256 batch) with zero
    // knowledge too.
    let zk = ProveOptions {
        profile: Profile::Secure,
        ..common::zk_options(3)
    };
    let sha256 = statements().swap_remove(0);
    let runs = statements()
        .into_iter()
        .map(|s| (s, ProveOptions::from(Profile::Secure)))
        .chain([(sha256, zk)]);
    for ((kind, inputs), options) in runs {
        let proved = prove(kind.clone(), inputs, options, &mut |_| {}).unwrap();
        assert_eq!(proved.file.zk, options.zk.is_some());
        assert!(verify_as_claimed(&proved.file).is_ok());
        // Other nonces before the wiring check: all rejected (most by the
        // work check itself).
        for k in 1..=8u64 {
            let mut f = proved.file.clone();
            f.proof.public_nonce = f.proof.public_nonce.wrapping_add(k);
            assert!(
                matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                "{}: nonce + {k}",
                kind.name()
            );
        }
        // The zerocheck's nonces and the wiring check's, the same way.
        for which in 0..2 {
            let mut f = proved.file.clone();
            f.proof.zerocheck.pow_nonces[which] ^= 1;
            assert!(
                matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                "{}: zerocheck nonce {which}",
                kind.name()
            );
        }
        let rounds = proved.file.proof.wiring.nonces.len();
        for which in [0, rounds / 2, rounds - 1] {
            let mut f = proved.file.clone();
            f.proof.wiring.nonces[which] ^= 1;
            assert!(
                matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                "{}: wiring nonce {which}",
                kind.name()
            );
        }
    }
}
