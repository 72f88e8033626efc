//! The library's verification against an expected statement: typed errors
//! naming the first difference, and the security a verifier requires.

mod common;

use starling::inputs::random_inputs;
use starling::{
    prove, verify, Error, Expected, Mismatch, Profile, Rejection, StatementCircuit, StatementKind,
};

fn sha256() -> std::sync::Arc<StatementCircuit> {
    StatementCircuit::builtin(StatementKind::Sha256).unwrap()
}

fn mismatch(r: Result<starling::Verified, Error>) -> Mismatch {
    match r {
        Err(Error::Rejected(Rejection::Mismatch(m))) => m,
        other => panic!("expected a mismatch, got {other:?}"),
    }
}

#[test]
fn the_first_difference_is_named() {
    let c = sha256();
    let rows = random_inputs(&c, 3, 1);
    let proof = prove(&c, 3, rows.clone(), Profile::Default, &mut |_| {})
        .unwrap()
        .file
        .to_bytes();
    let expected = Expected::new(c.clone(), 3, rows.clone()).unwrap();
    let verified = verify(&expected, &proof).expect("the honest proof");
    assert_eq!((verified.kind(), verified.len()), (StatementKind::Sha256, 3));
    assert_eq!(verified.circuit_digest(), c.digest());

    // Instance 2's block (bits 256.. of the row): words 4.. of its 12.
    let mut other = rows.clone();
    other[2 * 12 + 5] ^= 1 << 9;
    let m = mismatch(verify(&Expected::new(c.clone(), 3, other).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Input {
            instance: 2,
            field: "block".into()
        }
    );
    let m = mismatch(verify(
        &Expected::new(c.clone(), 2, rows[..24].to_vec()).unwrap(),
        &proof,
    ));
    assert_eq!(
        m,
        Mismatch::Count {
            expected: 2,
            found: 3
        }
    );
    let blake3 = StatementCircuit::builtin(StatementKind::Blake3).unwrap();
    let m = mismatch(verify(
        &Expected::new(blake3.clone(), 3, random_inputs(&blake3, 3, 1)).unwrap(),
        &proof,
    ));
    assert_eq!(
        m,
        Mismatch::Kind {
            expected: StatementKind::Blake3,
            found: StatementKind::Sha256
        }
    );
    match verify(&expected.clone().with_min_security_bits(110.0), &proof) {
        Err(Error::Rejected(Rejection::TooWeak { required, .. })) => assert_eq!(required, 110.0),
        other => panic!("expected too weak, got {other:?}"),
    }
}

#[test]
fn circuits_are_compared_by_digest() {
    let small = StatementCircuit::from_bristol(common::SMALL_BRISTOL).unwrap();
    let rows = random_inputs(&small, 2, 3);
    let proof = prove(&small, 2, rows.clone(), Profile::Default, &mut |_| {})
        .unwrap()
        .file
        .to_bytes();
    // The same circuit written with other spacing is the same statement.
    let respaced = StatementCircuit::from_bristol(&common::SMALL_BRISTOL.replace(' ', "  ")).unwrap();
    assert_eq!(respaced.digest(), small.digest());
    assert!(verify(&Expected::new(respaced, 2, rows.clone()).unwrap(), &proof).is_ok());
    // One gate changed is another circuit.
    let other = StatementCircuit::from_bristol(&common::SMALL_BRISTOL.replacen("AND", "XOR", 1)).unwrap();
    let m = mismatch(verify(&Expected::new(other.clone(), 2, rows).unwrap(), &proof));
    assert_eq!(
        m,
        Mismatch::Circuit {
            expected: other.digest(),
            found: small.digest()
        }
    );
}
