//! Asking for zero knowledge through the public entry points
//! ([`ProveOptions`]), and the kinds that require it: their proofs are
//! zero-knowledge whatever the caller asks, and a plain proof of one, valid
//! to every check of the proof system, is rejected for that alone.

use std::sync::Arc;

use crate::kind::{Batch, SampleInputs};
use crate::protocol::{prove_with, Tamper};
use crate::ring::{keygen_from, statement};
use crate::{
    prove, prove_private, verify, verify_claimed, Builtin, Error, Expected, Kind, Native, Profile, ProofFile,
    ProveOptions, Records, Rejection, DEFAULT_MIN_SECURITY_BITS,
};

/// A ring signature's records: a ring of 3, the second key signing.
fn ring_statement() -> (Arc<dyn Kind>, Records, Records) {
    let pairs: Vec<_> = (0..3u8).map(|i| keygen_from([i + 1; 32])).collect();
    let pks: Vec<[u8; 32]> = pairs.iter().map(|p| p.1).collect();
    let (public, private) = statement(&pks, &pairs[1].0, b"epoch 9", b"a vote").unwrap();
    (crate::kind::ring(), public, private)
}

#[test]
fn a_profile_proves_plainly_and_the_zero_knowledge_option_hides() {
    let batch = Batch::builtin(Builtin::Sha256);
    let inputs = batch.random_inputs(3, 11);
    let kind: Arc<dyn Kind> = Arc::new(batch);
    let expected = Expected::new(kind.clone(), inputs.clone()).unwrap();
    let plain = prove(kind.clone(), inputs.clone(), Profile::Default, &mut |_| {})
        .unwrap()
        .file;
    assert!(!plain.zk);
    // Plain proofs stay a function of the statement.
    let again = prove(kind.clone(), inputs.clone(), Profile::Default, &mut |_| {}).unwrap();
    assert_eq!(plain.to_bytes(), again.file.to_bytes());
    assert!(!verify(&expected, &plain.to_bytes()).unwrap().zk());

    let options = ProveOptions::zero_knowledge(Profile::Default);
    let hidden = prove(kind.clone(), inputs.clone(), options, &mut |_| {})
        .unwrap()
        .file;
    assert!(hidden.zk);
    let verified = verify(&expected, &hidden.to_bytes()).unwrap();
    assert!(verified.zk());
    assert_eq!(verified.output_lines(), plain.statement.output_lines());
    // Fresh randomness from the operating system: another proof each time.
    let other = prove(kind, inputs, options, &mut |_| {}).unwrap().file;
    assert_ne!(hidden.to_bytes(), other.to_bytes());
}

#[test]
fn a_kind_with_secrets_is_proved_with_zero_knowledge_unasked() {
    let (kind, public, private) = ring_statement();
    assert!(kind.requires_zero_knowledge());
    let proved = prove_private(
        kind.clone(),
        public.clone(),
        private,
        Profile::Default,
        &mut |_| {},
    )
    .unwrap();
    assert!(proved.file.zk);
    let verified = verify(&Expected::new(kind, public).unwrap(), &proved.file.to_bytes()).unwrap();
    assert!(verified.zk());
    for kind in [crate::kind::sha256(), crate::kind::digest(crate::Hash::Sha256)] {
        assert!(!kind.requires_zero_knowledge(), "{}", kind.name());
    }
}

#[test]
fn a_plain_proof_of_a_kind_with_secrets_is_rejected_as_such() {
    let (kind, public, private) = ring_statement();
    let tamper = Tamper {
        plain: true,
        ..Tamper::default()
    };
    let proved = prove_with(
        kind.clone(),
        public.clone(),
        private,
        Profile::Default,
        None,
        &mut |_| {},
        &tamper,
    )
    .unwrap();
    let bytes = proved.file.to_bytes();
    let file = proved.file;
    assert!(!file.zk);
    // Every check of the proof system passes: the rule alone rejects it,
    // from the file's header (decoding it) or from a file in memory.
    starling_verifier::protocol::check(&file, &Native).expect("a valid plain proof");
    let words = "a ring --hash sha256 proof must be zero-knowledge (its private values are secrets), and this one was made without zero knowledge";
    for result in [
        verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).map(|_| ()),
        verify(&Expected::new(kind, public).unwrap(), &bytes).map(|_| ()),
        ProofFile::from_bytes(&bytes).map(|_| ()),
    ] {
        match result {
            Err(Error::Rejected(Rejection::NotZeroKnowledge { kind })) => {
                assert_eq!(kind, "ring --hash sha256")
            }
            other => panic!("expected the zero-knowledge rejection, got {other:?}"),
        }
    }
    let e = verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).unwrap_err();
    assert_eq!(e.to_string(), format!("proof rejected: {words}"));
}
