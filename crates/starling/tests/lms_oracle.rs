//! LMS signatures against an independent implementation, the RustCrypto
//! `lms-signature` crate, both ways: its keys' signatures (every width, the
//! first and last leaf, messages at every block boundary of the message
//! hash) prove and verify here, and the signatures `Signatures::random_batch`
//! samples verify there.

mod common;

use getrandom_04::{rand_core::UnwrapErr, SysRng};
use lms_signature::lms::{LmsSha256M32H10, LmsSha256M32H5, Signature, SigningKey, VerifyingKey};
use lms_signature::ots::{LmsOtsSha256N32W1, LmsOtsSha256N32W2, LmsOtsSha256N32W4, LmsOtsSha256N32W8};
use signature::{RandomizedSignerMut, Verifier};
use starling::kind::{LmsSet, SignatureScheme, Signatures};
use starling::Records;

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
    LmsSet::new(h, w).unwrap()
}

fn prove_lines(h: u32, w: u32, lines: &str) {
    let kind = Signatures::new(SignatureScheme::Lms(LmsSet::new(h, w).unwrap()));
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
