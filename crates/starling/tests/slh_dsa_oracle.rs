//! SLH-DSA signatures against an independent implementation, the RustCrypto
//! `slh-dsa` crate, both ways: its signatures (pure interface with and
//! without a context, the internal interface; messages around the inner
//! hash's block boundaries) prove and verify here, and the signatures
//! `Signatures::random_batch` samples verify there; the SHA-2 and the
//! SHAKE sets at every category. NIST's ACVP sigVer cases of both families
//! prove or are refused.

mod common;

use slh_dsa::{
    Sha2_128f, Sha2_128s, Sha2_192f, Sha2_192s, Sha2_256f, Sha2_256s, Shake128f, Shake128s, Shake192f,
    Shake192s, Shake256f, Shake256s, Signature, SigningKey, VerifyingKey,
};
use starling::kind::SampleSignatures;
use starling::kind::{Interface, SignatureScheme, Signatures, SlhDsa, SlhSet};
use starling::Records;

fn kind(set: SlhSet, interface: Interface) -> Signatures {
    Signatures::new(SignatureScheme::SlhDsa(SlhDsa::new(set, interface).unwrap()))
}

fn line(pk: &[u8], msg: &[u8], sig: &[u8]) -> String {
    let msg = if msg.is_empty() {
        "-".into()
    } else {
        hex::encode(msg)
    };
    format!("{} {msg} {}\n", hex::encode(pk), hex::encode(sig))
}

/// Lines of signatures by a key of `$set` (`n` bytes `$n`) through the
/// pure interface with `ctx` on messages of `lens` bytes, or through the
/// internal one.
macro_rules! crate_lines {
    ($set:ty, $ctx:expr, $lens:expr, $internal:expr) => {
        crate_lines!($set, 16, $ctx, $lens, $internal)
    };
    ($set:ty, $n:expr, $ctx:expr, $lens:expr, $internal:expr) => {{
        let key = SigningKey::<$set>::slh_keygen_internal(&[1u8; $n], &[2u8; $n], &[3u8; $n]);
        let pk = AsRef::<VerifyingKey<$set>>::as_ref(&key).to_vec();
        let ctx: &[u8] = $ctx;
        let mut lines = String::new();
        for (i, &len) in $lens.iter().enumerate() {
            let msg: Vec<u8> = (0..len).map(|j| (j * 7 + i) as u8).collect();
            let sig = if $internal {
                key.slh_sign_internal(&[&msg], Some(&[i as u8; $n]))
            } else {
                key.try_sign_with_context(&msg, ctx, Some(&[i as u8; $n]))
                    .unwrap()
            };
            lines.push_str(&line(&pk, &msg, &sig.to_vec()));
        }
        lines
    }};
}

#[test]
fn the_crates_128f_signatures_prove() {
    // The inner hash reads 48 bytes before M' (2 more with the pure
    // interface's prefix): one and two blocks meet at 7/8 message bytes.
    let lens: [usize; 4] = [0, 5, 6, 40];
    common::prove_signature_lines(
        kind(SlhSet::Sha2_128f, Interface::Pure(Vec::new())),
        &crate_lines!(Sha2_128f, b"", lens, false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Sha2_128f, Interface::Pure(b"context".to_vec())),
        &crate_lines!(Sha2_128f, b"context", [3usize], false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Sha2_128f, Interface::Internal),
        &crate_lines!(Sha2_128f, b"", [7usize, 8], true),
    );
}

#[test]
fn the_crates_128s_signature_proves() {
    common::prove_signature_lines(
        kind(SlhSet::Sha2_128s, Interface::Pure(Vec::new())),
        &crate_lines!(Sha2_128s, b"", [32usize], false),
    );
}

#[test]
fn the_crates_shake_signatures_prove_at_every_category() {
    // SHAKE's H_msg reads 3n bytes before M' in 136-byte blocks: with
    // n = 16, one and two blocks meet at 87/88 bytes of M'.
    common::prove_signature_lines(
        kind(SlhSet::Shake128f, Interface::Internal),
        &crate_lines!(Shake128f, 16, b"", [87usize, 88], true),
    );
    common::prove_signature_lines(
        kind(SlhSet::Shake128s, Interface::Pure(b"ctx".to_vec())),
        &crate_lines!(Shake128s, 16, b"ctx", [0usize], false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Shake192f, Interface::Pure(Vec::new())),
        &crate_lines!(Shake192f, 24, b"", [10usize], false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Shake192s, Interface::Internal),
        &crate_lines!(Shake192s, 24, b"", [64usize], true),
    );
    common::prove_signature_lines(
        kind(SlhSet::Shake256f, Interface::Pure(Vec::new())),
        &crate_lines!(Shake256f, 32, b"", [1usize], false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Shake256s, Interface::Pure(Vec::new())),
        &crate_lines!(Shake256s, 32, b"", [33usize], false),
    );
}

#[test]
fn the_crates_sha2_signatures_prove_at_categories_3_and_5() {
    if common::lower_tier_forced() {
        // The same statements as the other SHA-2 sets' (the kernels are
        // what a forced tier tests): proved on the best tier only.
        return;
    }
    // H_msg's inner hash is SHA-512 (128-byte blocks, at least 17 bytes of
    // padding) over 3n bytes and M'. With n = 24, one and two blocks meet
    // at 39/40 bytes of M': 37/38 message bytes through the pure interface
    // (M' = 0 ‖ 0 ‖ M), 30/31 with a 7-byte context.
    common::prove_signature_lines(
        kind(SlhSet::Sha2_192f, Interface::Pure(Vec::new())),
        &crate_lines!(Sha2_192f, 24, b"", [37usize, 38], false),
    );
    common::prove_signature_lines(
        kind(SlhSet::Sha2_192s, Interface::Pure(b"context".to_vec())),
        &crate_lines!(Sha2_192s, 24, b"context", [30usize, 31], false),
    );
    // With n = 32 they meet at 15/16 bytes of M'.
    common::prove_signature_lines(
        kind(SlhSet::Sha2_256f, Interface::Internal),
        &crate_lines!(Sha2_256f, 32, b"", [15usize, 16], true),
    );
    common::prove_signature_lines(
        kind(SlhSet::Sha2_256s, Interface::Pure(Vec::new())),
        &crate_lines!(Sha2_256s, 32, b"", [0usize], false),
    );
    // The longest context, 255 bytes: the inner hash takes three blocks.
    common::prove_signature_lines(
        kind(SlhSet::Sha2_256s, Interface::Pure(vec![0x5a; 255])),
        &crate_lines!(Sha2_256s, 32, &[0x5a; 255], [1usize], false),
    );
}

/// Checks that the crate accepts sampled signatures of `$set`.
macro_rules! crate_accepts {
    ($set:ty, $ours:expr) => {{
        let kind = kind($ours, Interface::Pure(b"ab".to_vec()));
        let pk = 2 * $ours.n();
        let (public, private): (Records, Records) = kind.random_batch(2, 20, 3);
        for (p, s) in public.iter().zip(private.iter()) {
            let key = VerifyingKey::<$set>::try_from(&p[..pk]).unwrap();
            let sig = Signature::<$set>::try_from(s).unwrap();
            key.try_verify_with_context(&p[pk..], b"ab", &sig)
                .expect("the crate accepts a sampled signature");
        }
    }};
}

#[test]
fn sampled_signatures_verify_with_the_crate() {
    crate_accepts!(Sha2_128s, SlhSet::Sha2_128s);
    crate_accepts!(Sha2_128f, SlhSet::Sha2_128f);
    crate_accepts!(Sha2_192s, SlhSet::Sha2_192s);
    crate_accepts!(Sha2_192f, SlhSet::Sha2_192f);
    crate_accepts!(Sha2_256s, SlhSet::Sha2_256s);
    crate_accepts!(Sha2_256f, SlhSet::Sha2_256f);
    crate_accepts!(Shake128s, SlhSet::Shake128s);
    crate_accepts!(Shake128f, SlhSet::Shake128f);
    crate_accepts!(Shake192s, SlhSet::Shake192s);
    crate_accepts!(Shake192f, SlhSet::Shake192f);
    crate_accepts!(Shake256s, SlhSet::Shake256s);
    crate_accepts!(Shake256f, SlhSet::Shake256f);
}

/// NIST's ACVP signature-verification cases of `file` (the internal
/// interface): every valid case proves and verifies, every other one is
/// refused at `prove` (a false line, or a malformed one where the
/// signature's length is wrong); `(passed, failed)` counts them.
fn acvp_sigver_cases(file: &str, counts: (usize, usize)) {
    use starling::inputs::read_prover_inputs;
    use starling::Error;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with("# ") || l.starts_with("# slh-dsa"));
    let (mut passed, mut failed) = (0, 0);
    while let (Some(case), Some(line)) = (lines.next(), lines.next()) {
        let fields: Vec<&str> = case.trim_start_matches("# ").splitn(4, ' ').collect();
        let set = SlhSet::ALL
            .into_iter()
            .find(|s| s.name() == fields[0])
            .expect("a set");
        let kind = kind(set, Interface::Internal);
        if fields[2] == "pass" {
            common::prove_signature_lines(kind, &format!("{line}\n"));
            passed += 1;
        } else {
            let e = read_prover_inputs(&kind, line.as_bytes()).unwrap_err();
            let expected = if fields[3].contains("too large") || fields[3].contains("too small") {
                matches!(e, Error::Input(_))
            } else {
                matches!(e, Error::False(_))
            };
            assert!(expected, "{case}: {e}");
            failed += 1;
        }
    }
    assert_eq!((passed, failed), counts, "{file}");
}

#[test]
fn acvp_sigver_cases_prove_or_are_refused() {
    acvp_sigver_cases("acvp-slh-dsa-sigver-shake.txt", (7, 13));
}

#[test]
fn acvp_sha2_sigver_cases_prove_or_are_refused() {
    if common::lower_tier_forced() {
        return;
    }
    acvp_sigver_cases("acvp-slh-dsa-sigver-sha2.txt", (4, 9));
}
