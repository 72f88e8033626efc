#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

use starling::kind::{SampleInputs, SampleMembers, SamplePreimages, SampleSignatures};
use std::sync::{Arc, OnceLock};

use starling::bundle::{assemble, Bundle};
use starling::inputs::{parse_inputs, read_prover_inputs};
use starling::kind::{Batch, Membership, Preimage, Scheme, SignatureScheme, Signatures};
use starling::{
    inspect, prove, prove_private, verify_claimed, verify_claimed_bytes, Builtin, Hash, Kind, Profile,
    ProofFile, Records, StatementCircuit,
};

/// The one-AND circuit of the smallest proofs (9 KB): fast to verify, so the
/// fuzzer runs thousands of mutants a second.
pub const TINY_BRISTOL: &str = "1 3\n1 2\n1 1\n2 1 0 1 2 AND\n";

/// A circuit of every gate type, 4-bit inputs (larger proofs, with Merkle paths).
pub const SMALL_BRISTOL: &str = "12 21\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n1 1 5 9 INV\n1 1 1 10 EQ\n1 1 6 11 EQW\n\
    4 2 1 2 9 10 12 13 MAND\n2 1 3 7 14 XOR\n2 1 8 11 15 XOR\n1 1 12 16 INV\n\
    2 1 14 15 17 AND\n1 1 0 18 EQ\n2 1 16 17 19 XOR\n1 1 13 20 EQW\n";

/// The honest proofs the fuzzer starts from, made here (proofs are
/// deterministic): the tiny circuit under both profiles, the small circuit
/// for 200 instances, one SHA-256 compression, and the statements with
/// wiring: three SHA-256 digests (of one, one and two blocks), a BLAKE3 chain of three
/// steps, an RFC 6962 tree of three leaves, and one sampled signature each
/// of LMS (h5/w4) and SLH-DSA-SHA2-128f, whose signatures are private,
/// two SHA-256 preimages of at most 8 bytes, whose messages are private,
/// and two members of an RFC 6962 tree of three leaves of at most 8 bytes,
/// whose leaves, indices and paths are private.
pub fn honest_proofs() -> &'static [Vec<u8>] {
    static PROOFS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    PROOFS.get_or_init(|| {
        let tiny = Batch::of(StatementCircuit::from_bristol(TINY_BRISTOL).expect("a valid circuit"));
        let small = Batch::of(StatementCircuit::from_bristol(SMALL_BRISTOL).expect("a valid circuit"));
        let sha256 = Batch::builtin(Builtin::Sha256);
        let make = |kind: Arc<dyn Kind>, records: Records, profile: Profile| {
            prove(kind, records, profile, &mut |_| {})
                .expect("an honest proof")
                .file
                .to_bytes()
        };
        let batch =
            |b: &Batch, n: usize, profile: Profile| make(Arc::new(b.clone()), b.random_inputs(n, 7), profile);
        let linked = |kind: Arc<dyn Kind>, text: &str| {
            let records = parse_inputs(kind.as_ref(), text).expect("valid inputs");
            make(kind, records, Profile::Default)
        };
        let [digest, chain, tree] = linked_samples();
        let signed = |scheme: &str| {
            let kind = Signatures::new(SignatureScheme::from_name(scheme).expect("a scheme"));
            let (public, private) = kind.random_batch(1, 5, 7);
            prove_private(Arc::new(kind), public, private, Profile::Default, &mut |_| {})
                .expect("an honest proof")
                .file
                .to_bytes()
        };
        let preimages = {
            let kind = preimage_sample();
            let (digests, messages) = kind.random_batch(2, 7);
            prove_private(Arc::new(kind), digests, messages, Profile::Default, &mut |_| {})
                .expect("an honest proof")
                .file
                .to_bytes()
        };
        let members = {
            let kind = membership_sample();
            let (public, private, _) = kind.random_batch(3, 2, 7);
            prove_private(Arc::new(kind), public, private, Profile::Default, &mut |_| {})
                .expect("an honest proof")
                .file
                .to_bytes()
        };
        vec![
            batch(&tiny, 1, Profile::Default),
            batch(&tiny, 3, Profile::Secure),
            batch(&small, 200, Profile::Default),
            batch(&sha256, 1, Profile::Default),
            linked(digest.0, digest.1),
            linked(chain.0, chain.1),
            linked(tree.0, tree.1),
            signed("lms-sha256-m32-h5-w4"),
            signed("hss-l2-lms-sha256-m32-h5-w4"),
            signed("slh-dsa-sha2-128f"),
            preimages,
            members,
        ]
    })
}

/// The honest bundles the bundle fuzzer starts from (`starling::bundle`):
/// three tiny-circuit instances in two shards, the BLAKE3 chain of
/// [`linked_samples`] in three segments, and its RFC 6962 tree of three
/// leaves as subtrees of two leaves and one.
pub fn honest_bundles() -> &'static [Vec<u8>] {
    static BUNDLES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    BUNDLES.get_or_init(|| {
        let make = |kind: &Arc<dyn Kind>, shards: Vec<Records>| {
            let proofs: Vec<Vec<u8>> = shards
                .into_iter()
                .map(|records| {
                    prove(kind.clone(), records, Profile::Default, &mut |_| {})
                        .expect("an honest proof")
                        .file
                        .to_bytes()
                })
                .collect();
            let refs: Vec<&[u8]> = proofs.iter().map(Vec::as_slice).collect();
            assemble(&refs).expect("honest shards make a bundle")
        };
        let records =
            |kind: &Arc<dyn Kind>, text: &str| parse_inputs(kind.as_ref(), text).expect("valid inputs");
        let tiny: Arc<dyn Kind> = Arc::new(Batch::of(
            StatementCircuit::from_bristol(TINY_BRISTOL).expect("a valid circuit"),
        ));
        let [_, (chain, _), (tree, _)] = linked_samples();
        // The chain from 32 bytes of 1 (the sample's start), at `steps`.
        let after = |steps: usize| {
            let mut h = vec![1u8; 32];
            (0..steps).for_each(|_| h = Hash::Blake3.digest(&h));
            h.iter().map(|b| format!("{b:02x}")).collect::<String>()
        };
        vec![
            make(&tiny, vec![records(&tiny, "1\n0\n"), records(&tiny, "2\n")]),
            make(
                &chain,
                (0..3)
                    .map(|i| records(&chain, &format!("{} 1\n", after(i))))
                    .collect(),
            ),
            make(&tree, vec![records(&tree, "-\n00\n"), records(&tree, "0102\n")]),
        ]
    })
}

/// Untrusted bytes as a bundle: decoding, `inspect` and verification never
/// panic, and nothing but an honest bundle verifies.
pub fn bundle(bytes: &[u8]) {
    let described = inspect(bytes);
    let decoded = Bundle::decode(bytes, None);
    if decoded.is_err() {
        assert!(described.is_err(), "inspect read a bundle the decoder refuses");
    }
    if verify_claimed_bytes(bytes, 0.0).is_ok() {
        assert!(
            honest_bundles().iter().any(|h| h == bytes),
            "a bundle that is not one of the honest ones verified"
        );
    }
}

/// The preimage kind of the seeds: SHA-256, messages of at most 8 bytes.
fn preimage_sample() -> Preimage {
    Preimage::new(Hash::Sha256, 8).expect("SHA-256 takes 8-byte messages")
}

/// The membership kind of the seeds: RFC 6962 trees, leaves of at most 8
/// bytes.
fn membership_sample() -> Membership {
    Membership::rfc6962(8).expect("SHA-256 takes 9-byte leaf hashes")
}

/// A digest, a chain and a Merkle root kind with an inputs text of each.
pub fn linked_samples() -> [(Arc<dyn Kind>, &'static str); 3] {
    let tree =
        starling::kind::merkle_root(Hash::Sha256, Scheme::Rfc6962).expect("RFC 6962 trees use SHA-256");
    [
        (
            starling::kind::digest(Hash::Sha256),
            "616263\n-\n6162636462636465636465666465666765666768666768696768696a68696a6b696a6b6c6a6b6c6d6b6c6d6e6c6d6e6f6d6e6f706e6f7071\n",
        ),
        (
            starling::kind::chain(Hash::Blake3),
            "0101010101010101010101010101010101010101010101010101010101010101 3\n",
        ),
        (tree, "-\n00\n0102\n"),
    ]
}

/// Untrusted bytes as a proof file: decoding, `inspect` and verification
/// never panic, and nothing but an honest proof verifies.
pub fn proof_file(bytes: &[u8]) {
    let described = inspect(bytes);
    let Ok(file) = ProofFile::from_bytes(bytes) else {
        assert!(described.is_err(), "inspect read a file the decoder refuses");
        return;
    };
    assert!(described.is_ok(), "inspect refused a file the decoder reads");
    if verify_claimed(&file, 0.0).is_ok() {
        assert!(
            honest_proofs().iter().any(|h| h == bytes),
            "a proof that is not one of the honest ones verified"
        );
    }
}

/// The kinds whose inputs text [`inputs`] parses.
fn input_kinds() -> &'static [Arc<dyn Kind>] {
    static KINDS: OnceLock<Vec<Arc<dyn Kind>>> = OnceLock::new();
    KINDS.get_or_init(|| {
        let mut all: Vec<Arc<dyn Kind>> = Builtin::ALL
            .into_iter()
            .map(|b| Arc::new(Batch::builtin(b)) as Arc<dyn Kind>)
            .collect();
        all.push(starling::kind::circuit(SMALL_BRISTOL).expect("a valid circuit"));
        all.extend(linked_samples().map(|(kind, _)| kind));
        for scheme in [
            "lms-sha256-m32-h5-w4",
            "hss-l2-lms-sha256-m32-h5-w4",
            "lms-shake-m24-h5-w4",
            "slh-dsa-sha2-128f",
        ] {
            let scheme = SignatureScheme::from_name(scheme).expect("a scheme");
            all.push(starling::kind::signatures(scheme));
        }
        all.push(Arc::new(preimage_sample()));
        all.push(Arc::new(membership_sample()));
        all
    })
}

/// Untrusted bytes as the inputs text of every kind: no panic, and records
/// that parse print back to a text that parses to the same records.
pub fn inputs(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    for kind in input_kinds() {
        if kind.has_private_inputs() {
            // A prover's lines (a signature batch's `PK MSG SIG`): read,
            // checked and verified natively, or refused; never a panic.
            let _ = read_prover_inputs(kind.as_ref(), text.as_bytes());
        }
        if let Ok(records) = parse_inputs(kind.as_ref(), text) {
            let printed: String = records.iter().map(|r| kind.format_input(r) + "\n").collect();
            assert_eq!(
                parse_inputs(kind.as_ref(), &printed).ok(),
                Some(records),
                "{}: the printed records do not parse back",
                kind.name()
            );
        }
    }
}

/// Untrusted bytes as a Bristol circuit: parsing and compiling never panic.
pub fn bristol(bytes: &[u8]) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = StatementCircuit::from_bristol(text);
    }
}
