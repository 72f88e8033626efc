//! Signature batches end to end on sampled signatures: they prove and
//! verify, their statement is exactly theirs, and what is not a valid
//! signature is refused before anything is proved.

use std::sync::Arc;

use super::*;
use crate::inputs::{parse_inputs, read_prover_inputs};
use crate::{prove_private, verify, Expected, Kind, Profile};

fn lms(h: u32, w: u32) -> Signatures {
    Signatures::new(Scheme::Lms(LmsSet::new(h, w).unwrap()))
}

fn prove_and_verify(kind: &Signatures, public: &Records, private: &Records) -> Vec<u8> {
    let arc: Arc<dyn Kind> = Arc::new(kind.clone());
    let proved = prove_private(arc.clone(), public.clone(), private.clone(), Profile::Default, &mut |_| {})
        .expect("a valid batch proves");
    let bytes = proved.file.to_bytes();
    let expected = Expected::new(arc, public.clone()).unwrap();
    let verified = verify(&expected, &bytes).expect("the proof verifies");
    assert_eq!(verified.count(), public.len() as u64);
    bytes
}

#[test]
fn sampled_batches_prove_and_verify_at_every_width() {
    for w in [1, 2, 4, 8] {
        let kind = lms(5, w);
        let (public, private) = kind.random_batch(if w == 8 { 1 } else { 2 }, 3 + w as usize, w as u64);
        prove_and_verify(&kind, &public, &private);
    }
}

#[test]
fn prover_lines_read_back_and_expected_lines_refuse_signatures() {
    let kind = lms(5, 4);
    let (public, private) = kind.random_batch(3, 0, 1);
    let text = kind.prover_lines(&public, &private);
    let (p, s) = read_prover_inputs(&kind, text.as_bytes()).unwrap();
    assert_eq!((p, s), (public.clone(), private));
    let e = parse_inputs(&kind, &text).unwrap_err().to_string();
    assert!(e.contains("line 1: verify takes no signatures"), "{e}");
    let expected: String = public.iter().map(|r| kind.format_input(r) + "\n").collect();
    assert_eq!(parse_inputs(&kind, &expected).unwrap(), public);
}

#[test]
fn an_invalid_signature_is_refused_naming_its_line() {
    let kind = lms(5, 4);
    let (public, private) = kind.random_batch(3, 8, 2);
    let mut sigs: Vec<Vec<u8>> = private.iter().map(<[u8]>::to_vec).collect();
    sigs[1][40] ^= 1;
    let mut bad = Records::new();
    for s in &sigs {
        bad.push(s);
    }
    let text = format!("# a comment\n\n{}", kind.prover_lines(&public, &bad));
    let e = read_prover_inputs(&kind, text.as_bytes()).unwrap_err();
    assert!(matches!(e, Error::False(_)), "{e}");
    assert!(e.to_string().starts_with("line 4: signature does not verify"), "{e}");
}
