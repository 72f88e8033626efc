//! SLH-DSA signatures against an independent implementation, the RustCrypto
//! `slh-dsa` crate, both ways: its signatures (pure interface with and
//! without a context, the internal interface; messages around the inner
//! hash's block boundaries) prove and verify here, and the signatures
//! `Signatures::random_batch` samples verify there.

mod common;

use slh_dsa::{Sha2_128f, Sha2_128s, Signature, SigningKey, VerifyingKey};
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

/// Lines of signatures by a key of `$set` through the pure interface with
/// `ctx` on messages of `lens` bytes, and through the internal one.
macro_rules! crate_lines {
    ($set:ty, $ctx:expr, $lens:expr, $internal:expr) => {{
        let key = SigningKey::<$set>::slh_keygen_internal(&[1u8; 16], &[2u8; 16], &[3u8; 16]);
        let pk = AsRef::<VerifyingKey<$set>>::as_ref(&key).to_vec();
        let ctx: &[u8] = $ctx;
        let mut lines = String::new();
        for (i, &len) in $lens.iter().enumerate() {
            let msg: Vec<u8> = (0..len).map(|j| (j * 7 + i) as u8).collect();
            let sig = if $internal {
                key.slh_sign_internal(&[&msg], Some(&[i as u8; 16]))
            } else {
                key.try_sign_with_context(&msg, ctx, Some(&[i as u8; 16]))
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

/// Checks that the crate accepts sampled signatures of `$set`.
macro_rules! crate_accepts {
    ($set:ty, $ours:expr) => {{
        let kind = kind($ours, Interface::Pure(b"ab".to_vec()));
        let (public, private): (Records, Records) = kind.random_batch(2, 20, 3);
        for (p, s) in public.iter().zip(private.iter()) {
            let key = VerifyingKey::<$set>::try_from(&p[..32]).unwrap();
            let sig = Signature::<$set>::try_from(s).unwrap();
            key.try_verify_with_context(&p[32..], b"ab", &sig)
                .expect("the crate accepts a sampled signature");
        }
    }};
}

#[test]
fn sampled_signatures_verify_with_the_crate() {
    crate_accepts!(Sha2_128s, SlhSet::Sha2_128s);
    crate_accepts!(Sha2_128f, SlhSet::Sha2_128f);
}
