//! Bundles (`starling::bundle`): shard proofs of every kind join into the
//! statement the unsharded proof proves (same verdict against the same
//! expectation, same outputs, same public digest), and every way of
//! tampering with a bundle is rejected with its reason.
//!
//! The shards here are cut by a small fixture ([`shards_of`]) following
//! the rules `starling.dask` (the Python package) cuts by; the verifier
//! checks the rules, whoever cut.

mod common;

use std::sync::Arc;

use common::{
    every_batch, linked_statements, lower_tier_forced, random_batch, secret_statements, signature_statements,
    zk_options,
};
use starling::bundle::{self, Bundle};
use starling::kind::{Chain, Membership, Scheme};
use starling::{Error, Expected, Hash, Kind, ProveOptions, Records, Rejection};

/// The public and private records of each shard of a statement cut into
/// at most `k` shards, as `starling.dask` cuts it: consecutive slices of
/// the records (even, at least one each); a chain's steps into segments; a
/// Merkle tree's leaves into subtrees of `2^j` leaves, `j` the least with
/// at most `k` of them (a plain tree: a power of two of them); a
/// membership statement's members.
fn shards_of(kind: &dyn Kind, public: &Records, private: &Records, k: usize) -> Vec<(Records, Records)> {
    match kind.code() {
        6 => {
            let hash = chain_hash(kind);
            let record = public.get(0);
            let (start, steps) = record.split_at(hash.digest_bytes());
            let steps = u64::from_le_bytes(steps.try_into().unwrap());
            let mut h = start.to_vec();
            cut(steps as usize, k)
                .into_iter()
                .map(|n| {
                    let shard: Records = [Chain::record(&h, n as u64).as_slice()].into_iter().collect();
                    for _ in 0..n {
                        h = hash.digest(&h);
                    }
                    (shard, Records::new())
                })
                .collect()
        }
        7 => {
            let n = public.len();
            let plain = kind.name().contains("plain");
            let mut size = 1;
            while n.div_ceil(size) > k || (plain && !(n / size).is_power_of_two()) {
                size *= 2;
            }
            let sizes: Vec<usize> = (0..n.div_ceil(size).max(1))
                .map(|i| size.min(n - i * size))
                .collect();
            slices(public, &sizes)
                .into_iter()
                .map(|p| (p, Records::new()))
                .collect()
        }
        11 => {
            let record = public.get(0);
            let (root, words) = record.split_at(record.len() - 16);
            let size = u64::from_le_bytes(words[8..].try_into().unwrap());
            let sizes = cut(private.len(), k);
            slices(private, &sizes)
                .into_iter()
                .map(|members| {
                    let shard = Membership::public_record(root, members.len() as u64, size);
                    ([shard.as_slice()].into_iter().collect(), members)
                })
                .collect()
        }
        _ => {
            let sizes = cut(public.len(), k);
            let privates = if private.is_empty() {
                vec![Records::new(); sizes.len()]
            } else {
                slices(private, &sizes)
            };
            slices(public, &sizes).into_iter().zip(privates).collect()
        }
    }
}

/// `n` in at most `k` parts as even as possible, each at least 1.
fn cut(n: usize, k: usize) -> Vec<usize> {
    let parts = k.min(n).max(1);
    (0..parts)
        .map(|i| n / parts + usize::from(i < n % parts))
        .collect()
}

/// Consecutive slices of `records` of these sizes.
fn slices(records: &Records, sizes: &[usize]) -> Vec<Records> {
    let mut at = 0;
    sizes
        .iter()
        .map(|&n| {
            at += n;
            (at - n..at).map(|i| records.get(i)).collect()
        })
        .collect()
}

/// The hash of a chain kind, from its name (`chain --hash H`).
fn chain_hash(kind: &dyn Kind) -> Hash {
    Hash::from_name(kind.name().rsplit(' ').next().unwrap()).unwrap()
}

/// The options a kind proves with here: zero knowledge (seeded) for the
/// kinds with secrets.
fn options(kind: &dyn Kind) -> ProveOptions {
    if kind.requires_zero_knowledge() {
        zk_options(5)
    } else {
        starling::Profile::Default.into()
    }
}

/// The proof file of one statement.
fn prove(kind: &Arc<dyn Kind>, public: Records, private: Records) -> Vec<u8> {
    let options = options(kind.as_ref());
    starling::prove_private(kind.clone(), public, private, options, &mut |_| {})
        .expect("a true statement proves")
        .file
        .to_bytes()
}

/// The bundle of the statement cut into at most `k` shards.
fn bundle_of(kind: &Arc<dyn Kind>, public: &Records, private: &Records, k: usize) -> Vec<u8> {
    let proofs: Vec<Vec<u8>> = shards_of(kind.as_ref(), public, private, k)
        .into_iter()
        .map(|(p, s)| prove(kind, p, s))
        .collect();
    let refs: Vec<&[u8]> = proofs.iter().map(Vec::as_slice).collect();
    bundle::assemble(&refs).expect("the shards make a bundle")
}

/// Every kind's statement, with its public and private records.
fn every_statement() -> Vec<(Arc<dyn Kind>, Records, Records)> {
    let mut all: Vec<(Arc<dyn Kind>, Records, Records)> = Vec::new();
    for batch in every_batch() {
        let (kind, inputs) = random_batch(&batch, 7, 3);
        all.push((kind, inputs, Records::new()));
    }
    for (kind, inputs) in linked_statements() {
        all.push((kind, inputs, Records::new()));
    }
    let signatures = signature_statements();
    all.extend(signatures.into_iter().take(2));
    all.extend(secret_statements().into_iter().filter(|(k, _, _)| k.code() != 12));
    all
}

/// Bundles of 1, 2, 3 and 7 shards of every kind verify against the
/// unsharded statement's expectation, with its outputs and public digest.
#[test]
fn bundles_of_every_kind_are_the_unsharded_statement() {
    let counts: &[usize] = if lower_tier_forced() { &[3] } else { &[1, 2, 3, 7] };
    for (kind, public, private) in every_statement() {
        let whole = prove(&kind, public.clone(), private.clone());
        let expected = Expected::new(kind.clone(), public.clone()).unwrap();
        let unsharded = starling::verify(&expected, &whole).unwrap();
        for &k in counts {
            let bytes = bundle_of(&kind, &public, &private, k);
            let v = starling::verify(&expected, &bytes)
                .unwrap_or_else(|e| panic!("{} in {k} shards: {e}", kind.name()));
            assert_eq!(v.statement(), unsharded.statement(), "{} in {k}", kind.name());
            assert_eq!(v.public_digest(), unsharded.public_digest());
            assert_eq!(v.output_lines(), unsharded.output_lines());
            assert_eq!(v.zk(), unsharded.zk());
            assert!(v.security_bits() >= starling::DEFAULT_MIN_SECURITY_BITS);
            let claimed = starling::verify_claimed_bytes(&bytes, 100.0).unwrap();
            assert_eq!(claimed.public_digest(), unsharded.public_digest());
            assert!(starling::inspect(&bytes).unwrap().contains("NOT VERIFIED"));
        }
    }
}

/// A ring signature is one statement: one shard bundles, two do not.
#[test]
fn a_ring_signature_does_not_split() {
    let (kind, public, private) = secret_statements().pop().unwrap();
    assert_eq!(kind.code(), 12);
    let proof = prove(&kind, public.clone(), private);
    let one = bundle::assemble(&[&proof]).unwrap();
    let expected = Expected::new(kind.clone(), public).unwrap();
    starling::verify(&expected, &one).unwrap();
    let err = bundle::assemble(&[&proof, &proof]).unwrap_err();
    assert!(err.to_string().contains("does not split"), "{err}");
}

/// A chain of 5 steps split at every set of boundary positions.
#[test]
fn chains_split_at_every_boundary() {
    let kind = starling::kind::chain(Hash::Sha256);
    let start = [7u8; 32];
    let public: Records = [Chain::record(&start, 5).as_slice()].into_iter().collect();
    let expected = Expected::new(kind.clone(), public.clone()).unwrap();
    let whole = starling::verify(&expected, &prove(&kind, public, Records::new())).unwrap();
    let masks = if lower_tier_forced() { 3..4 } else { 0..16 };
    for mask in masks {
        // Bit b set: a boundary after step b + 1.
        let mut sizes = Vec::new();
        let mut run = 1;
        for b in 0..4 {
            if mask >> b & 1 == 1 {
                sizes.push(run);
                run = 0;
            }
            run += 1;
        }
        sizes.push(run);
        let mut h = start.to_vec();
        let proofs: Vec<Vec<u8>> = sizes
            .iter()
            .map(|&n| {
                let shard: Records = [Chain::record(&h, n as u64).as_slice()].into_iter().collect();
                (0..n).for_each(|_| h = Hash::Sha256.digest(&h));
                prove(&kind, shard, Records::new())
            })
            .collect();
        let refs: Vec<&[u8]> = proofs.iter().map(Vec::as_slice).collect();
        let v = starling::verify(&expected, &bundle::assemble(&refs).unwrap()).unwrap();
        assert_eq!(v.output_lines(), whole.output_lines(), "segments {sizes:?}");
        assert_eq!(v.public_digest(), whole.public_digest());
    }
}

/// Trees of each scheme split at several depths (subtrees of 1 to 8
/// leaves).
#[test]
fn trees_split_at_several_depths() {
    for (scheme, n) in [(Scheme::Plain, 16), (Scheme::Rfc6962, 13), (Scheme::Bitcoin, 11)] {
        let kind = starling::kind::merkle_root(Hash::Sha256, scheme).unwrap();
        let leaves: Records = (0..n)
            .map(|i| match scheme {
                Scheme::Rfc6962 => vec![i as u8; i % 4],
                _ => vec![i as u8; 32],
            })
            .collect::<Vec<_>>()
            .iter()
            .map(Vec::as_slice)
            .collect();
        let expected = Expected::new(kind.clone(), leaves.clone()).unwrap();
        let whole = starling::verify(&expected, &prove(&kind, leaves.clone(), Records::new())).unwrap();
        let depths: &[usize] = if lower_tier_forced() { &[4] } else { &[16, 8, 4, 2] };
        for &k in depths {
            let bytes = bundle_of(&kind, &leaves, &Records::new(), k);
            let v = starling::verify(&expected, &bytes).unwrap();
            assert_eq!(v.output_lines(), whole.output_lines(), "{scheme:?} in {k}");
            assert_eq!(v.public_digest(), whole.public_digest());
        }
    }
}

/// A bundle's parts, to rebuild it changed: the header up to the number
/// of shards, each entry, each proof.
struct Parts {
    head: Vec<u8>,
    entries: Vec<Vec<u8>>,
    proofs: Vec<Vec<u8>>,
}

impl Parts {
    fn of(bytes: &[u8]) -> Parts {
        let params = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let head_len = 16 + params + 8;
        let k = u32::from_le_bytes(bytes[head_len..head_len + 4].try_into().unwrap()) as usize;
        let mut at = head_len + 4;
        let entries = (0..k)
            .map(|_| {
                at += 48;
                bytes[at - 48..at].to_vec()
            })
            .collect();
        let proofs = (0..k)
            .map(|_| {
                let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
                at += 8 + len;
                bytes[at - len..at].to_vec()
            })
            .collect();
        Parts {
            head: bytes[..head_len].to_vec(),
            entries,
            proofs,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = self.head.clone();
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        self.entries.iter().for_each(|e| out.extend_from_slice(e));
        for p in &self.proofs {
            out.extend_from_slice(&(p.len() as u64).to_le_bytes());
            out.extend_from_slice(p);
        }
        out
    }
}

/// The rejection of `bytes` against `expected`, as its message.
fn rejection(expected: &Expected, bytes: &[u8]) -> String {
    match starling::verify(expected, bytes) {
        Err(Error::Rejected(r)) => r.to_string(),
        Err(e) => panic!("not a rejection: {e}"),
        Ok(_) => panic!("a tampered bundle verified"),
    }
}

/// A shard from another bundle, dropped, repeated or out of order, a link
/// changed, an entry or the count changed, a shard's proof broken: each
/// rejected, naming what is wrong.
#[test]
fn every_tampering_is_rejected() {
    let batch = starling::kind::Batch::builtin(starling::Builtin::Sha256);
    let (kind, public) = random_batch(&batch, 12, 1);
    let (_, other) = random_batch(&batch, 12, 2);
    let expected = Expected::new(kind.clone(), public.clone()).unwrap();
    let good = bundle_of(&kind, &public, &Records::new(), 4);
    let theirs = Parts::of(&bundle_of(&kind, &other, &Records::new(), 4));
    assert_eq!(Parts::of(&good).bytes(), good);
    starling::verify(&expected, &good).unwrap();

    let changed = |f: &dyn Fn(&mut Parts)| {
        let mut parts = Parts::of(&good);
        f(&mut parts);
        parts.bytes()
    };
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a shard of another bundle",
            changed(&|p| p.proofs[2] = theirs.proofs[2].clone()),
            "shard 3 of 4 is not one this bundle lists",
        ),
        (
            "a shard repeated",
            changed(&|p| p.proofs[2] = p.proofs[1].clone()),
            "shard 3 of 4 repeats shard 2",
        ),
        (
            "two shards swapped",
            changed(&|p| p.proofs.swap(1, 2)),
            "shard 2 of 4 is the bundle's shard 3: the shards are out of order",
        ),
        (
            "two shards and their entries swapped",
            changed(&|p| {
                p.proofs.swap(1, 2);
                p.entries.swap(1, 2);
            }),
            "shard 2 of 4 is listed from 6 of N, where shard 1 ends at 3",
        ),
        (
            "the last shard and its entry dropped",
            changed(&|p| {
                p.proofs.pop();
                p.entries.pop();
            }),
            "the shards cover 9 of the bundle's N = 12: a shard is missing",
        ),
        (
            "a middle shard and its entry dropped",
            changed(&|p| {
                p.proofs.remove(1);
                p.entries.remove(1);
            }),
            "shard 2 of 3 is listed from 6 of N, where shard 1 ends at 3",
        ),
        (
            "an entry's count changed",
            changed(&|p| p.entries[3][8] ^= 1),
            "shard 4 of 4 proves N = 3, the bundle lists 2",
        ),
        (
            "the header's profile changed",
            changed(&|p| p.head[11] = 1),
            "shard 1 of 4 is a default proof, the bundle's are secure",
        ),
        (
            "the header's kind changed",
            changed(&|p| p.head[10] = 2),
            "it proves blake3 compressions, expected sha256 compressions",
        ),
        (
            "a shard's proof changed",
            changed(&|p| {
                let last = p.proofs[1].len() - 40;
                p.proofs[1][last] ^= 1;
            }),
            "shard 2 of 4: the proof does not prove the statement it carries",
        ),
        (
            // The shards are checked at once: the first by index is named.
            "two shards' proofs changed",
            changed(&|p| {
                for i in [3, 1] {
                    let last = p.proofs[i].len() - 40;
                    p.proofs[i][last] ^= 1;
                }
            }),
            "shard 2 of 4: the proof does not prove the statement it carries",
        ),
    ];
    for (what, bytes, reason) in cases {
        let got = rejection(&expected, &bytes);
        assert!(got.contains(reason), "{what}: {got}");
    }
    // The header's kind changed, verified as claimed: the shards are not
    // of the bundle's kind.
    let mut parts = Parts::of(&good);
    parts.head[10] = 2;
    let err = starling::verify_claimed_bytes(&parts.bytes(), 0.0)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("shard 1 of 4: the proof was made for another kind"),
        "{err}"
    );
    // The middle shard dropped, and the entries made to match: another
    // statement, which the expectation refuses.
    let mut parts = Parts::of(&good);
    parts.proofs.remove(1);
    parts.entries.remove(1);
    let rest = bundle::assemble(&parts.proofs.iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap();
    let got = rejection(&expected, &rest);
    assert!(got.contains("different number"), "{got}");
    // A missing proof with its entry kept: the file ends early.
    let mut parts = Parts::of(&good);
    parts.proofs.pop();
    assert!(matches!(
        starling::verify(&expected, &parts.bytes()),
        Err(Error::Malformed(_))
    ));
}

/// A chain's link changed: a segment proved from another start than the
/// one before it ends at, listed as the bundle's own.
#[test]
fn a_changed_link_is_rejected() {
    let kind = starling::kind::chain(Hash::Sha256);
    let start = [3u8; 32];
    let public: Records = [Chain::record(&start, 4).as_slice()].into_iter().collect();
    let expected = Expected::new(kind.clone(), public.clone()).unwrap();
    let good = bundle_of(&kind, &public, &Records::new(), 2);
    let mut wrong_start = Hash::Sha256.digest(&Hash::Sha256.digest(&start));
    wrong_start[0] ^= 1;
    let segment: Records = [Chain::record(&wrong_start, 2).as_slice()].into_iter().collect();
    let proof = prove(&kind, segment, Records::new());
    let digest = Bundle::decode(&bundle::assemble(&[&proof]).unwrap(), None)
        .unwrap()
        .entries[0]
        .public_digest;
    let mut parts = Parts::of(&good);
    parts.proofs[1] = proof;
    parts.entries[1][16..].copy_from_slice(&digest);
    let got = rejection(&expected, &parts.bytes());
    assert!(got.contains("links between shards; shard 2 starts at"), "{got}");
    let err = bundle::assemble(&parts.proofs.iter().map(Vec::as_slice).collect::<Vec<_>>()).unwrap_err();
    assert!(err.to_string().contains("shard 2 starts at"), "{err}");
}

/// Against other inputs, a bundle is refused as the unsharded proof is,
/// naming the first record that differs across shards; against another
/// kind, from its header.
#[test]
fn a_bundle_of_other_inputs_is_refused_as_a_proof_is() {
    let batch = starling::kind::Batch::builtin(starling::Builtin::Blake3);
    let (kind, public) = random_batch(&batch, 9, 4);
    let bytes = bundle_of(&kind, &public, &Records::new(), 3);
    let mut other = public.clone();
    other.flip_bit(7, 3);
    let got = rejection(&Expected::new(kind.clone(), other).unwrap(), &bytes);
    assert!(got.contains("input 7 (0-based"), "{got}");
    let sha = Expected::new(
        starling::kind::sha256(),
        random_batch(&starling::kind::Batch::builtin(starling::Builtin::Sha256), 9, 4).1,
    )
    .unwrap();
    assert!(matches!(
        starling::verify(&sha, &bytes),
        Err(Error::Rejected(Rejection::Mismatch(_)))
    ));
    assert!(starling::check_kind(starling::kind::sha256().as_ref(), &bytes).is_err());
    assert!(starling::check_kind(kind.as_ref(), &bytes).is_ok());
    // A bundle's security is its weakest shard's: 3 default shards keep
    // the default profile's bits.
    let v = starling::verify(&Expected::new(kind, public).unwrap(), &bytes).unwrap();
    assert_eq!(v.shards(), 3);
    assert!(v.security_bits() > 102.0, "{}", v.security_bits());
}
