//! Empirical privacy of ring signatures (issue 55's tests), on one ring of
//! 64 members, one context: the recompute-and-compare attack, which finds
//! the signer of a plain proof and no one with zero knowledge, and
//! per-section bit statistics and a classifier on proof bits, which tell two
//! members' plain proofs apart and must not tell their zero-knowledge ones
//! apart. The key image `K` tells whoever holds the secret keys who signed,
//! by design (it links signatures in one context), so these tests look at the
//! proof alone: the file's sections after its statement.

use std::sync::Arc;

use crate::cheating_tests::prove_in;
use crate::protocol::Tamper;
use crate::ring::{keygen_from, statement, KeyPair};
use crate::{verify_claimed, Kind, ProofFile, Randomness, DEFAULT_MIN_SECURITY_BITS};
use starling_verifier::PROOF_SECTIONS;

const MEMBERS: usize = 64;
const CONTEXT: &[u8] = b"slot 7";

fn ring_keys() -> Vec<KeyPair> {
    (0..MEMBERS)
        .map(|i| keygen_from(core::array::from_fn(|b| (i * 131 + b * 17) as u8 ^ 0x3c)))
        .collect()
}

/// Member `m`'s signature on `message`, with `zk`'s randomness (plain for
/// `None`).
fn sign(keys: &[KeyPair], m: usize, message: &[u8], zk: Option<Randomness>) -> ProofFile {
    let pks: Vec<[u8; 32]> = keys.iter().map(|k| k.1).collect();
    let (public, private) = statement(&pks, &keys[m].0, CONTEXT, message).expect("a member signs");
    let kind: Arc<dyn Kind> = crate::kind::ring();
    // Plain even though the kind requires zero knowledge: the attacks'
    // power check.
    let plain = Tamper {
        plain: zk.is_none(),
        ..Tamper::default()
    };
    prove_in(zk, &kind, &public, &private, &plain)
        .expect("a member's signature proves")
        .file
}

/// The proof's sections' bytes (lengths left out).
pub(crate) fn sections(file: &ProofFile) -> [Vec<u8>; 6] {
    let p = &file.proof;
    [
        p.commitment.root.to_vec(),
        p.public_nonce.to_le_bytes().to_vec(),
        p.zerocheck.to_bytes(),
        p.lincheck.to_bytes(),
        p.wiring.to_bytes(),
        p.opening.to_bytes(),
    ]
}

/// The file's bytes after its statement.
fn proof_bytes(file: &ProofFile) -> Vec<u8> {
    let bytes = file.to_bytes();
    bytes[bytes.len() - file.proof_len()..].to_vec()
}

/// Bytes equal at equal offsets.
fn agreement(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

/// The test seed of tag `tag` and index `i`: signers and the attacker
/// draw theirs under different tags.
fn seed(tag: u8, i: usize) -> Randomness {
    let mut s = [tag; 32];
    s[..8].copy_from_slice(&(i as u64).to_le_bytes());
    Randomness::TestSeed(s)
}

/// The attacker knows the ring, the context, the message and, in the worst
/// case, every member's secret key, so every member's private record: it
/// proves the statement as each member would and compares the proof with
/// the signature's. A plain proof is a function of the witness: the
/// signer's recomputation is the signature, byte for byte, and no other
/// member's commitment is. With zero knowledge, no recomputation, under any
/// of the seeds the attacker tries, shares a commitment with the signature,
/// and the signer's agreement with it (equal bytes at equal offsets) is no
/// outlier among the members'.
#[test]
fn recomputing_a_ring_signature_finds_its_signer_only_without_zero_knowledge() {
    let keys = ring_keys();
    let (signer, message) = (37, b"inclusion list 12".as_slice());
    let plain = sign(&keys, signer, message, None);
    // A valid proof, which verifiers refuse only because ring signatures
    // must be zero-knowledge.
    starling_verifier::protocol::check(&plain, &crate::Native)
        .expect("the plain signature passes every check");
    let found: Vec<usize> = (0..MEMBERS)
        .filter(|&m| {
            let again = sign(&keys, m, message, None);
            assert_eq!(
                again.proof.commitment.root == plain.proof.commitment.root,
                m == signer,
                "member {m}'s commitment"
            );
            proof_bytes(&again) == proof_bytes(&plain)
        })
        .collect();
    assert_eq!(found, [signer], "the attack finds the signer of a plain proof");

    let hidden = sign(&keys, signer, message, Some(seed(0xa7, 0)));
    verify_claimed(&hidden, DEFAULT_MIN_SECURITY_BITS).expect("the zero-knowledge signature verifies");
    let target = proof_bytes(&hidden);
    let tries = 3;
    let mut best = vec![0usize; MEMBERS];
    for (m, best) in best.iter_mut().enumerate() {
        for t in 0..tries {
            let again = sign(&keys, m, message, Some(seed(0x5e, t)));
            assert_ne!(
                again.proof.commitment.root, hidden.proof.commitment.root,
                "member {m}, try {t}"
            );
            let bytes = proof_bytes(&again);
            assert_ne!(bytes, target, "member {m}, try {t}");
            *best = (*best).max(agreement(&bytes, &target));
        }
    }
    let others: Vec<f64> = (0..MEMBERS)
        .filter(|&m| m != signer)
        .map(|m| best[m] as f64)
        .collect();
    let (mean, sd) = mean_and_sd(&others);
    let z = (best[signer] as f64 - mean) / sd.max(1.0);
    assert!(
        z < 4.0,
        "the signer's recomputation agrees with {} bytes, the others' {mean:.0} ± {sd:.0} (z = {z:.1})",
        best[signer]
    );
}

fn mean_and_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Many signatures of one member, each on its own message, in one context.
fn signatures(keys: &[KeyPair], m: usize, count: usize, zk: bool) -> Vec<[Vec<u8>; 6]> {
    (0..count)
        .map(|i| {
            let message = format!("inclusion list {i}");
            let randomness = zk.then(|| seed(m as u8, i));
            sections(&sign(keys, m, message.as_bytes(), randomness))
        })
        .collect()
}

/// How far apart two sets of proofs' bits are at each position of one
/// section (up to the shortest section of either set).
struct BitTest {
    /// `(chi^2 - d) / sqrt(2 d)` over the `d` positions whose bit is not
    /// the same in every proof, `chi^2` summing each position's squared z
    /// of the difference of the two sets' frequencies: about a standard
    /// normal when the sets are alike.
    normalized: f64,
    /// The largest z of a single position.
    max_z: f64,
}

fn slices(set: &[Vec<u8>]) -> Vec<&[u8]> {
    set.iter().map(Vec::as_slice).collect()
}

/// How many of the proofs have each bit of their first `len` bytes set.
fn ones(set: &[&[u8]], len: usize) -> Vec<u32> {
    let mut count = vec![0u32; 8 * len];
    for bytes in set {
        for (i, &byte) in bytes[..len].iter().enumerate() {
            for t in 0..8 {
                count[8 * i + t] += u32::from(byte >> t & 1);
            }
        }
    }
    count
}

/// [`BitTest`] of two sets of one section's bytes.
fn compare_bits(a: &[&[u8]], b: &[&[u8]]) -> BitTest {
    let len = a.iter().chain(b).map(|s| s.len()).min().expect("proofs");
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (mut chi2, mut d, mut max_z) = (0.0, 0usize, 0.0f64);
    for (&ca, &cb) in ones(a, len).iter().zip(&ones(b, len)) {
        let p = f64::from(ca + cb) / (na + nb);
        if p == 0.0 || p == 1.0 {
            continue;
        }
        let diff = f64::from(ca) / na - f64::from(cb) / nb;
        let z2 = diff * diff / (p * (1.0 - p) * (1.0 / na + 1.0 / nb));
        chi2 += z2;
        max_z = max_z.max(z2.sqrt());
        d += 1;
    }
    // No position whose bit varies (the default profile's grinding
    // nonce, always zero): nothing tells the sets apart.
    if d == 0 {
        return BitTest {
            normalized: 0.0,
            max_z: 0.0,
        };
    }
    let d = d as f64;
    BitTest {
        normalized: (chi2 - d) / (2.0 * d).sqrt(),
        max_z,
    }
}

/// A naive-Bayes classifier on proof bits: each bit's log-odds between two
/// members, from training proofs (counts with one added to each).
struct LogOdds {
    /// The score of a proof whose every bit is zero.
    base: f64,
    /// What each bit adds when it is one.
    one: Vec<f64>,
}

impl LogOdds {
    fn train(a: &[Vec<u8>], b: &[Vec<u8>]) -> Self {
        let len = a[0].len();
        let (ca, cb) = (ones(&slices(a), len), ones(&slices(b), len));
        let (na, nb) = (a.len() as f64 + 2.0, b.len() as f64 + 2.0);
        let (mut base, mut one) = (0.0, Vec::with_capacity(8 * len));
        for (&x, &y) in ca.iter().zip(&cb) {
            let (pa, pb) = ((f64::from(x) + 1.0) / na, (f64::from(y) + 1.0) / nb);
            let zero = ((1.0 - pa) / (1.0 - pb)).ln();
            base += zero;
            one.push((pa / pb).ln() - zero);
        }
        LogOdds { base, one }
    }

    /// Positive: more like member `a`'s proofs.
    fn score(&self, bytes: &[u8]) -> f64 {
        let mut s = self.base;
        for (i, &byte) in bytes.iter().enumerate() {
            for t in 0..8 {
                if byte >> t & 1 == 1 {
                    s += self.one[8 * i + t];
                }
            }
        }
        s
    }
}

/// The classifier trained on the first half of each member's proofs,
/// tested on the second half: the fraction it tells right. A proof is its
/// sections' bytes, each cut to the shortest of that section.
fn classifier_accuracy(a: &[[Vec<u8>; 6]], b: &[[Vec<u8>; 6]]) -> (f64, usize) {
    let cut: Vec<usize> = (0..PROOF_SECTIONS.len())
        .map(|s| a.iter().chain(b).map(|p| p[s].len()).min().expect("proofs"))
        .collect();
    let flat =
        |p: &[Vec<u8>; 6]| -> Vec<u8> { p.iter().zip(&cut).flat_map(|(s, &c)| s[..c].to_vec()).collect() };
    let (a, b): (Vec<Vec<u8>>, Vec<Vec<u8>>) = (a.iter().map(flat).collect(), b.iter().map(flat).collect());
    let (ha, hb) = (a.len() / 2, b.len() / 2);
    let model = LogOdds::train(&a[..ha], &b[..hb]);
    let right = a[ha..].iter().filter(|p| model.score(p) > 0.0).count()
        + b[hb..].iter().filter(|p| model.score(p) <= 0.0).count();
    let tested = a.len() - ha + b.len() - hb;
    (right as f64 / tested as f64, tested)
}

/// Proofs per member with zero knowledge: the classifier is tested on
/// 400, so chance is 50% with a standard deviation of 2.5%.
const ZK_PROOFS: usize = 400;

/// Many signatures of two members of one ring, in one context, each on its
/// own message (the key image, which differs, is the statement's, not the
/// proof's): their sections' lengths, each section's bits and a classifier
/// on all of them. Without zero knowledge the commitment is the same for
/// all of one member's proofs, so the statistics and the classifier tell
/// the members apart (the test has power); with it, they must be at chance:
/// lengths whose means are within 4.5 standard errors, each section's
/// statistic within 5 standard deviations and no bit's z above 6.5 (over
/// about 1.2 million positions), the classifier within three standard
/// deviations of 50%.
#[test]
fn two_members_zero_knowledge_signatures_are_indistinguishable() {
    let keys = ring_keys();
    // Members 5 and 50 (0b000101, 0b110010): paths on other sides at every level.
    let (a, b) = (5, 50);
    let plain = [signatures(&keys, a, 40, false), signatures(&keys, b, 40, false)];
    let commitments = compare_section(&plain, 0);
    assert!(
        commitments.normalized > 100.0,
        "plain commitments tell the members apart"
    );
    let (accuracy, _) = classifier_accuracy(&plain[0], &plain[1]);
    assert!(
        accuracy >= 0.95,
        "the classifier tells plain proofs apart: {accuracy}"
    );

    let zk = [
        signatures(&keys, a, ZK_PROOFS, true),
        signatures(&keys, b, ZK_PROOFS, true),
    ];
    for (s, section) in PROOF_SECTIONS.iter().enumerate() {
        let lengths = zk
            .each_ref()
            .map(|set| set.iter().map(|p| p[s].len() as f64).collect::<Vec<_>>());
        let t = welch_t(&lengths[0], &lengths[1]);
        assert!(
            t.abs() < 4.5,
            "{section}: the lengths tell the members apart (t = {t:.2})"
        );
    }
    assert_at_chance(&zk, "the members' zero-knowledge proofs");
}

/// Each section's bit statistic within 5 standard deviations and no bit's
/// z above 6.5, and the classifier within three standard deviations of
/// 50%: nothing tells the two sets of proofs (`what`) apart.
pub(crate) fn assert_at_chance(sets: &[Vec<[Vec<u8>; 6]>; 2], what: &str) {
    for (s, section) in PROOF_SECTIONS.iter().enumerate() {
        let bits = compare_section(sets, s);
        assert!(
            bits.normalized.abs() < 5.0 && bits.max_z < 6.5,
            "{section}: the bits tell {what} apart (statistic {:.2}, largest z {:.2})",
            bits.normalized,
            bits.max_z
        );
    }
    let (accuracy, tested) = classifier_accuracy(&sets[0], &sets[1]);
    let sigma = 0.5 / (tested as f64).sqrt();
    assert!(
        (accuracy - 0.5).abs() <= 3.0 * sigma,
        "the classifier tells {what} apart: {accuracy} over {tested}"
    );
}

/// [`compare_bits`] of section `s` of two members' proofs.
fn compare_section(sets: &[Vec<[Vec<u8>; 6]>; 2], s: usize) -> BitTest {
    let [a, b] = sets
        .each_ref()
        .map(|set| set.iter().map(|p| p[s].as_slice()).collect::<Vec<_>>());
    compare_bits(&a, &b)
}

/// Welch's t of the difference of two samples' means; zero when both are
/// constant and equal, infinite when they are constant and differ.
fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let ((ma, sa), (mb, sb)) = (mean_and_sd(a), mean_and_sd(b));
    let se = (sa * sa / a.len() as f64 + sb * sb / b.len() as f64).sqrt();
    match (ma == mb, se == 0.0) {
        (true, _) => 0.0,
        (false, true) => f64::INFINITY,
        (false, false) => (ma - mb) / se,
    }
}
