//! The library's verification against an expected statement: typed errors
//! naming the first difference (for plain and zero-knowledge proofs), and
//! the security a verifier requires.

mod common;

use starling::kind::Batch;
use starling::{
    prove, verify, Builtin, Error, Expected, Mismatch, Profile, ProveOptions, Records, Rejection,
    StatementCircuit,
};

fn mismatch(r: Result<starling::Verified, Error>) -> Mismatch {
    match r {
        Err(Error::Rejected(Rejection::Mismatch(m))) => m,
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

/// Plainly and with zero knowledge: a zero-knowledge proof is checked
/// against an expectation the same way.
#[test]
fn the_first_difference_is_named() {
    for options in [ProveOptions::from(Profile::Default), common::zk_options(4)] {
        first_difference_is_named(options);
    }
}

fn first_difference_is_named(options: ProveOptions) {
    let sha = Batch::builtin(Builtin::Sha256);
    let (kind, rows) = common::random_batch(&sha, 3, 1);
    let proof = prove(kind.clone(), rows.clone(), options, &mut |_| {})
        .unwrap()
        .file
        .to_bytes();
    let expected = Expected::new(kind.clone(), rows.clone()).unwrap();
    let verified = verify(&expected, &proof).expect("the honest proof");
    assert_eq!(
        (verified.kind().name(), verified.count(), verified.zk()),
        ("sha256".to_string(), 3, options.zk.is_some())
    );
    assert_eq!(verified.circuit_digest(), kind.circuit().digest());

    // Record 2's block (bytes 32..96).
    let mut other = Records::new();
    for (i, r) in rows.iter().enumerate() {
        let mut r = r.to_vec();
        if i == 2 {
            r[40] ^= 2;
        }
        other.push(&r);
    }
    let m = mismatch(verify(&Expected::new(kind.clone(), other).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Input {
            index: 2,
            field: "block".into()
        }
    );
    let two: Records = rows.iter().take(2).collect();
    let m = mismatch(verify(&Expected::new(kind.clone(), two).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Count {
            expected: 2,
            found: 3,
            noun: "compression"
        }
    );
    let blake3 = Batch::builtin(Builtin::Blake3);
    let (bkind, brows) = common::random_batch(&blake3, 3, 1);
    let m = mismatch(verify(&Expected::new(bkind, brows).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Kind {
            expected: "blake3 compressions".into(),
            found: "sha256 compressions".into()
        }
    );
    match verify(&expected.clone().with_min_security_bits(110.0), &proof) {
        Err(Error::Rejected(Rejection::TooWeak { required, .. })) => assert_eq!(required, 110.0),
        other => panic!("expected too weak, got {other:?}"),
    }
    // A floor that is not a number refuses every proof, rather than none.
    match verify(&expected.clone().with_min_security_bits(f64::NAN), &proof) {
        Err(Error::Rejected(Rejection::TooWeak { required, .. })) => assert!(required.is_nan()),
        other => panic!("expected too weak, got {other:?}"),
    }
}

#[test]
fn circuits_are_compared_by_digest() {
    let small = Batch::of(StatementCircuit::from_bristol(common::SMALL_BRISTOL).unwrap());
    let (kind, rows) = common::random_batch(&small, 2, 3);
    let proof = prove(kind.clone(), rows.clone(), Profile::Default, &mut |_| {})
        .unwrap()
        .file
        .to_bytes();
    // The same circuit written with other spacing is the same statement.
    let respaced = starling::kind::circuit(&common::SMALL_BRISTOL.replace(' ', "  ")).unwrap();
    assert_eq!(respaced.circuit().digest(), kind.circuit().digest());
    assert!(verify(&Expected::new(respaced, rows.clone()).unwrap(), &proof).is_ok());
    // One gate changed is another circuit.
    let other = starling::kind::circuit(&common::SMALL_BRISTOL.replacen("AND", "XOR", 1)).unwrap();
    let m = mismatch(verify(&Expected::new(other.clone(), rows).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Circuit {
            expected: other.circuit().digest(),
            found: kind.circuit().digest()
        }
    );
}

/// Proofs name their circuit by digest, so a built-in circuit whose digest
/// changes no longer verifies the proofs made before it: such a change is a
/// new format version (`starling::format::VERSION`), made on purpose.
#[test]
fn the_built_in_circuit_digests_are_pinned() {
    for (which, digest) in [
        (
            Builtin::Sha256,
            "20ea15f774c986a3a698a522dba747ef2addc2d0dcd7ec12b394f635aa7e5103",
        ),
        (
            Builtin::Sha512,
            "3fa821dba729fd6bf0ea57e95c1a2dd378cae42974a0e4eabaf9adb869d41b8b",
        ),
        (
            Builtin::Blake3,
            "0d58201a2d70baf3b81ef5d6253474e422c79734fa60d1d54532de111ec85d26",
        ),
        (
            Builtin::KeccakF1600,
            "a23d2557238bb9258f53be034ab4d78c196168dee9e7af460c84c342efc7db03",
        ),
    ] {
        let hex = hex::encode(StatementCircuit::builtin(which).digest());
        assert_eq!(hex, digest, "{}", which.name());
    }
}
