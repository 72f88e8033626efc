//! Kinds shared by the end-to-end tests.

#![allow(dead_code)]

use starling::kind::{SampleInputs, SampleMembers, SamplePreimages, SampleSignatures};
use std::sync::Arc;

use starling::kind::{Batch, Scheme};
use starling::{Builtin, Hash, Kind, ProveOptions, Randomness, Records, StatementCircuit};

/// A small Bristol circuit: 4-bit x, y; outputs x AND y, and x XOR NOT y.
pub const SMALL_BRISTOL: &str = "12 20\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n2 1 1 5 9 AND\n2 1 2 6 10 AND\n2 1 3 7 11 AND\n\
    1 1 4 12 INV\n1 1 5 13 INV\n1 1 6 14 INV\n1 1 7 15 INV\n\
    2 1 0 12 16 XOR\n2 1 1 13 17 XOR\n2 1 2 14 18 XOR\n2 1 3 15 19 XOR\n";

/// Every batch kind: the built-in circuits and a small Bristol circuit.
pub fn every_batch() -> Vec<Batch> {
    let mut all: Vec<Batch> = Builtin::ALL.into_iter().map(Batch::builtin).collect();
    all.push(Batch::of(StatementCircuit::from_bristol(SMALL_BRISTOL).unwrap()));
    all
}

/// A batch kind with `count` random input records.
pub fn random_batch(batch: &Batch, count: usize, seed: u64) -> (Arc<dyn Kind>, Records) {
    (Arc::new(batch.clone()), batch.random_inputs(count, seed))
}

/// Statements of the kinds that link instances (chains, digests, Merkle
/// roots), small, with their input records.
pub fn linked_statements() -> Vec<(Arc<dyn Kind>, Records)> {
    let mut all = Vec::new();
    for hash in Hash::ALL {
        let chain: Records = [starling::kind::Chain::record(&vec![9; hash.digest_bytes()], 3).as_slice()]
            .into_iter()
            .collect();
        all.push((starling::kind::chain(hash), chain));
        let messages: Vec<Vec<u8>> = [0usize, 70, 200]
            .iter()
            .map(|&l| (0..l).map(|i| i as u8).collect())
            .collect();
        let digests: Records = messages.iter().map(Vec::as_slice).collect();
        all.push((starling::kind::digest(hash), digests));
    }
    let leaf = |i: u8| vec![i; 32];
    for (hash, scheme, leaves) in [
        (
            Hash::Sha256,
            Scheme::Plain,
            vec![leaf(1), leaf(2), leaf(3), leaf(4)],
        ),
        (Hash::Sha512, Scheme::Plain, vec![vec![1; 64], vec![2; 64]]),
        (Hash::Keccak256, Scheme::Plain, vec![leaf(1), leaf(2)]),
        (Hash::Blake3, Scheme::Plain, vec![leaf(1), leaf(2)]),
        (Hash::Sha256, Scheme::Bitcoin, vec![leaf(5), leaf(6), leaf(7)]),
        (
            Hash::Sha256,
            Scheme::Rfc6962,
            vec![vec![], vec![0xab; 70], vec![1, 2, 3]],
        ),
    ] {
        let records: Records = leaves.iter().map(Vec::as_slice).collect();
        all.push((starling::kind::merkle_root(hash, scheme).unwrap(), records));
    }
    all
}

/// Where the vectors live: `$STARLING_VECTORS` if set, otherwise
/// `../../../shared/vectors` relative to this crate's manifest.
pub fn vectors_dir() -> std::path::PathBuf {
    std::env::var_os("STARLING_VECTORS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors")
        })
}

/// The text of a vector file, or `None` after a `SKIPPED` note when it is
/// missing (under `CI=true` a missing file fails).
pub fn read_vector(relative: &str) -> Option<String> {
    let path = vectors_dir().join(relative);
    if !path.is_file() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "vector file {} is required under CI=true", path.display());
        eprintln!(
            "SKIPPED: vector file {} not found; set STARLING_VECTORS",
            path.display()
        );
        return None;
    }
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Reads a prover's signature lines (`PK MSG SIG`), proves them and
/// verifies the proof against the lines' `PK MSG`.
pub fn prove_signature_lines(kind: starling::kind::Signatures, lines: &str) {
    let (public, private) =
        starling::inputs::read_prover_inputs(&kind, lines.as_bytes()).expect("the signatures are valid");
    let kind: Arc<dyn Kind> = Arc::new(kind);
    let proved = starling::prove_private(
        kind.clone(),
        public.clone(),
        private,
        starling::Profile::Default,
        &mut |_| {},
    )
    .expect("a valid batch proves");
    let expected = starling::Expected::new(kind, public).expect("the expected records");
    starling::verify(&expected, &proved.file.to_bytes()).expect("verifies");
}

/// Whether a lower CPU tier is forced (`scripts/test-all` runs the suites
/// again under each): the kernels differ there, the statements do not, so
/// tests that prove many statements of one scheme family prove a sample.
pub fn lower_tier_forced() -> bool {
    std::env::var_os("STARLING_CPU_TIER").is_some() || std::env::var_os("STARLING_CPU_WITHOUT").is_some()
}

/// Small signature batches with their private records: two LMS (h5/w4)
/// signatures, one two-level HSS signature of that set, one LMS signature
/// with SHAKE256/192, one SLH-DSA-SHA2-128f, one SLH-DSA-SHA2-192s (SHA-256
/// and SHA-512 lanes) and one SLH-DSA-SHAKE-128f signature, sampled.
pub fn signature_statements() -> Vec<(Arc<dyn Kind>, Records, Records)> {
    [
        "lms-sha256-m32-h5-w4",
        "hss-l2-lms-sha256-m32-h5-w4",
        "lms-shake-m24-h5-w4",
        "slh-dsa-sha2-128f",
        "slh-dsa-sha2-192s",
        "slh-dsa-shake-128f",
    ]
    .into_iter()
    .zip([2, 1, 1, 1, 1, 1])
    .map(|(scheme, count)| {
        let scheme = starling::kind::SignatureScheme::from_name(scheme).expect("a scheme");
        let kind = starling::kind::Signatures::new(scheme);
        let (public, private) = kind.random_batch(count, 9, 2024);
        (Arc::new(kind) as Arc<dyn Kind>, public, private)
    })
    .collect()
}

/// Zero knowledge under the default profile, its randomness from the test
/// seed `seed` (reproducible proofs).
pub fn zk_options(seed: u8) -> ProveOptions {
    ProveOptions {
        profile: starling::Profile::Default,
        zk: Some(Randomness::TestSeed([seed; 32])),
    }
}

/// Statements of the kinds with secrets, always proved with zero
/// knowledge, with their public and private records: preimages of three
/// SHA-256 digests, two members of a 16-leaf tree, a ring signature by
/// the fourth of five members.
pub fn secret_statements() -> Vec<(Arc<dyn Kind>, Records, Records)> {
    let preimage = starling::kind::Preimage::new(Hash::Sha256, 64).unwrap();
    let (digests, secrets) = preimage.random_batch(3, 7);
    let membership = starling::kind::Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let (root, members, _leaves) = membership.random_batch(16, 2, 8);
    let keys: Vec<_> = (0..5u8).map(|i| starling::ring::keygen_from([i; 32])).collect();
    let pks: Vec<[u8; 32]> = keys.iter().map(|k| k.1).collect();
    let (ring_public, ring_private) =
        starling::ring::statement(&pks, &keys[3].0, b"round 7", b"a message").unwrap();
    vec![
        (Arc::new(preimage), digests, secrets),
        (Arc::new(membership), root, members),
        (starling::kind::ring(), ring_public, ring_private),
    ]
}
