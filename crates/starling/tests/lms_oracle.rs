//! LMS signatures against an independent implementation, the RustCrypto
//! `lms-signature` crate, both ways: its keys' signatures (every width, the
//! first and last leaf, messages at every block boundary of the message
//! hash) prove and verify here, and the signatures `Signatures::random_batch`
//! samples verify there. HSS: signatures stacked from the crate's LMS keys
//! (RFC 8554 §6.2's format around them) prove, sampled ones verify there
//! level by level; and RFC 8554 Appendix F's test vectors prove while every
//! one-bit change of them is refused. Where the crate has no set (SHA-256/192,
//! SHAKE256, HSS), batches signed by another implementation, pyhsslms
//! (`scripts/pyhsslms-vectors.py` writes them), prove, and a changed bit of
//! them is refused.

mod common;

use getrandom::{rand_core::UnwrapErr, SysRng};
use lms_signature::lms::{LmsSha256M32H10, LmsSha256M32H5, Signature, SigningKey, VerifyingKey};
use lms_signature::ots::{LmsOtsSha256N32W1, LmsOtsSha256N32W2, LmsOtsSha256N32W4, LmsOtsSha256N32W8};
use signature::{RandomizedSignerMut, Verifier};
use starling::inputs::read_prover_inputs;
use starling::kind::SampleSignatures;
use starling::kind::{Hss, LmsSet, SignatureScheme, Signatures};
use starling::{Error, Records};

/// Lines `PK MSG SIG` of signatures by a fresh key of mode `$mode` (set
/// `$set`) on messages of `$lens` bytes; `$last` makes the last one the
/// key's last leaf's.
macro_rules! crate_lines {
    ($mode:ty, $set:expr, $lens:expr, $last:expr) => {{
        let set: LmsSet = $set;
        let lens: &[usize] = $lens;
        let mut key = SigningKey::<$mode>::new_from_seed([7u8; 16], [9u8; 32]).unwrap();
        let public = key.public();
        let mut pk = set.lms_type().to_be_bytes().to_vec();
        pk.extend(set.ots_type().to_be_bytes());
        pk.extend(public.id());
        pk.extend(public.k());
        let mut rng = UnwrapErr(SysRng);
        let mut lines = String::new();
        let leaves = 1u32 << set.h;
        for (n, &len) in lens.iter().enumerate() {
            let msg: Vec<u8> = (0..len).map(|i| (i * 31 + n) as u8).collect();
            if $last && n + 1 == lens.len() {
                while key.q() < leaves - 1 {
                    key.try_sign_with_rng(&mut rng, b"skip").unwrap();
                }
            }
            let sig: Signature<$mode> = key.try_sign_with_rng(&mut rng, &msg).unwrap();
            let sig: Vec<u8> = sig.into();
            let msg_hex = if msg.is_empty() {
                "-".into()
            } else {
                hex::encode(&msg)
            };
            lines.push_str(&format!("{} {msg_hex} {}\n", hex::encode(&pk), hex::encode(&sig)));
        }
        lines
    }};
}

fn set(h: u32, w: u32) -> LmsSet {
    LmsSet::new(32, h, w).unwrap()
}

fn prove_lines(h: u32, w: u32, lines: &str) {
    let kind = Signatures::new(SignatureScheme::Lms(LmsSet::new(32, h, w).unwrap()));
    common::prove_signature_lines(kind, lines);
}

#[test]
fn the_crates_signatures_prove_at_every_width() {
    // Message hash blocks: 54 fixed bytes, so 1 and 2 blocks meet at 9/10
    // message bytes, 2 and 3 at 73/74.
    let w4 = crate_lines!(
        LmsSha256M32H5<LmsOtsSha256N32W4>,
        set(5, 4),
        &[0, 1, 9, 10, 73, 74, 200],
        true
    );
    prove_lines(5, 4, &w4);
    prove_lines(
        5,
        1,
        &crate_lines!(LmsSha256M32H5<LmsOtsSha256N32W1>, set(5, 1), &[3, 64], false),
    );
    prove_lines(
        5,
        2,
        &crate_lines!(LmsSha256M32H5<LmsOtsSha256N32W2>, set(5, 2), &[5], true),
    );
    prove_lines(
        5,
        8,
        &crate_lines!(LmsSha256M32H5<LmsOtsSha256N32W8>, set(5, 8), &[32], false),
    );
}

#[test]
fn the_crates_h10_w4_signatures_prove() {
    prove_lines(
        10,
        4,
        &crate_lines!(
            LmsSha256M32H10<LmsOtsSha256N32W4>,
            set(10, 4),
            &[32, 32, 100],
            false
        ),
    );
}

/// Checks that the crate accepts sampled signatures of mode `$mode`.
macro_rules! crate_accepts {
    ($mode:ty, $set:expr) => {{
        let kind = Signatures::new(SignatureScheme::Lms($set));
        let (public, private): (Records, Records) = kind.random_batch(4, 20, 3);
        for (p, s) in public.iter().zip(private.iter()) {
            let key = VerifyingKey::<$mode>::try_from(&p[..56]).unwrap();
            let sig = Signature::<$mode>::try_from(s).unwrap();
            key.verify(&p[56..], &sig)
                .expect("the crate accepts a sampled signature");
        }
    }};
}

#[test]
fn sampled_signatures_verify_with_the_crate() {
    crate_accepts!(LmsSha256M32H5<LmsOtsSha256N32W1>, set(5, 1));
    crate_accepts!(LmsSha256M32H5<LmsOtsSha256N32W2>, set(5, 2));
    crate_accepts!(LmsSha256M32H5<LmsOtsSha256N32W4>, set(5, 4));
    crate_accepts!(LmsSha256M32H5<LmsOtsSha256N32W8>, set(5, 8));
    crate_accepts!(LmsSha256M32H10<LmsOtsSha256N32W4>, set(10, 4));
}

/// Lines `PK MSG SIG` of two-level HSS signatures made of the crate's LMS
/// keys of mode `$mode` (set `$set`): the top key signs the lower key's
/// public key once, the lower key signs each message of `$lens` bytes.
macro_rules! crate_hss_lines {
    ($mode:ty, $set:expr, $lens:expr) => {{
        let set: LmsSet = $set;
        let public_key = |key: &VerifyingKey<$mode>| {
            [
                &set.lms_type().to_be_bytes()[..],
                &set.ots_type().to_be_bytes(),
                key.id(),
                key.k(),
            ]
            .concat()
        };
        let mut rng = UnwrapErr(SysRng);
        let mut top = SigningKey::<$mode>::new_from_seed([1u8; 16], [2u8; 32]).unwrap();
        let mut lower = SigningKey::<$mode>::new_from_seed([3u8; 16], [4u8; 32]).unwrap();
        let lower_pk = public_key(&lower.public());
        let signed: Signature<$mode> = top.try_sign_with_rng(&mut rng, &lower_pk).unwrap();
        let signed: Vec<u8> = signed.into();
        let pk = [&2u32.to_be_bytes()[..], &public_key(&top.public())].concat();
        let lens: &[usize] = $lens;
        let mut lines = String::new();
        for (n, &len) in lens.iter().enumerate() {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + n) as u8).collect();
            let sig: Signature<$mode> = lower.try_sign_with_rng(&mut rng, &msg).unwrap();
            let sig: Vec<u8> = sig.into();
            let hss_sig = [&1u32.to_be_bytes()[..], &signed, &lower_pk, &sig].concat();
            let msg_hex = if msg.is_empty() {
                "-".into()
            } else {
                hex::encode(&msg)
            };
            lines.push_str(&format!(
                "{} {msg_hex} {}\n",
                hex::encode(&pk),
                hex::encode(&hss_sig)
            ));
        }
        lines
    }};
}

fn hss(levels: u32, h: u32, w: u32) -> Signatures {
    Signatures::new(SignatureScheme::Hss(Hss::new(levels, set(h, w)).unwrap()))
}

#[test]
fn hss_signatures_of_the_crates_keys_prove() {
    let lines = crate_hss_lines!(LmsSha256M32H5<LmsOtsSha256N32W4>, set(5, 4), &[0, 10, 74]);
    common::prove_signature_lines(hss(2, 5, 4), &lines);
}

#[test]
fn sampled_hss_signatures_verify_with_the_crate_level_by_level() {
    type Mode = LmsSha256M32H5<LmsOtsSha256N32W4>;
    let kind = hss(3, 5, 4);
    let (public, private) = kind.random_batch(2, 20, 6);
    let signed = set(5, 4).signature_bytes() + 56;
    for (p, s) in public.iter().zip(private.iter()) {
        let mut key = &p[4..60];
        let mut rest = &s[4..];
        for _ in 0..2 {
            let (sig, next) = (&rest[..signed - 56], &rest[signed - 56..signed]);
            VerifyingKey::<Mode>::try_from(key)
                .unwrap()
                .verify(next, &Signature::<Mode>::try_from(sig).unwrap())
                .expect("the crate accepts a sampled level");
            key = next;
            rest = &rest[signed..];
        }
        VerifyingKey::<Mode>::try_from(key)
            .unwrap()
            .verify(&p[60..], &Signature::<Mode>::try_from(rest).unwrap())
            .expect("the crate accepts a sampled last level");
    }
}

/// Lines of a vector file in this crate's `tests/vectors`, grouped under
/// the `# SCHEME` comment that precedes them, or all under `scheme`.
fn vector_batches(file: &str, scheme: Option<&str>) -> Vec<(Signatures, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let mut batches: Vec<(String, String)> = scheme
        .map(|s| (s.to_owned(), String::new()))
        .into_iter()
        .collect();
    for line in text.lines() {
        match line.strip_prefix("# ") {
            Some(name) if scheme.is_none() && SignatureScheme::from_name(name).is_ok() => {
                if batches.last().is_none_or(|(s, _)| s != name) {
                    batches.push((name.to_owned(), String::new()));
                }
            }
            Some(_) => {}
            None => {
                let batch = batches.last_mut().expect("a scheme before the first line");
                batch.1.push_str(line);
                batch.1.push('\n');
            }
        }
    }
    batches
        .into_iter()
        .map(|(name, lines)| (Signatures::new(SignatureScheme::from_name(&name).unwrap()), lines))
        .collect()
}

/// Proves a batch, and checks that a bit changed in any line's signature
/// (its first, middle and last byte), message or key is refused.
fn proves_and_refuses_changes(kind: &Signatures, lines: &str) {
    common::prove_signature_lines(kind.clone(), lines);
    for line in lines.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let sig_len = fields[2].len() / 2;
        let mut changes = vec![(2, 0), (2, sig_len / 2), (2, sig_len - 1), (0, 30)];
        if fields[1] != "-" {
            changes.push((1, 0));
        }
        for (field, at) in changes {
            let mut bytes = hex::decode(fields[field]).unwrap();
            bytes[at] ^= 0x10;
            let hex = hex::encode(&bytes);
            let mut changed = fields.clone();
            changed[field] = &hex;
            let e = read_prover_inputs(kind, changed.join(" ").as_bytes()).unwrap_err();
            assert!(
                matches!(e, Error::False(_) | Error::Input(_)),
                "{}: field {field} byte {at}: {e}",
                kind.scheme().name()
            );
        }
    }
}

#[test]
fn rfc8554_test_vectors_prove_and_changed_bits_are_refused() {
    for (file, scheme) in [
        ("rfc8554-test-case-1.txt", "hss-l2-lms-sha256-m32-h5-w8"),
        ("rfc8554-test-case-2-leaf.txt", "lms-sha256-m32-h5-w8"),
    ] {
        for (kind, lines) in vector_batches(file, Some(scheme)) {
            proves_and_refuses_changes(&kind, &lines);
        }
    }
}

#[test]
fn pyhsslms_signatures_of_sha256_192_shake256_and_hss_prove_and_changed_bits_are_refused() {
    for file in [
        "pyhsslms-lms-m24.txt",
        "pyhsslms-hss-m32.txt",
        "pyhsslms-hss-m24.txt",
        "pyhsslms-lms-shake.txt",
        "pyhsslms-lms-shake-m24.txt",
        "pyhsslms-hss-shake.txt",
    ] {
        let batches = vector_batches(file, None);
        assert!(!batches.is_empty(), "{file}");
        for (kind, lines) in batches {
            proves_and_refuses_changes(&kind, &lines);
        }
    }
}
