//! A test-only cheating prover: it runs the honest prover on a witness or a
//! statement it has tampered with. Every such proof must be rejected.

use starling_circuit::RowKind;

use crate::inputs::random_sha256_inputs;
use crate::protocol::{prove_statement, sha256_circuit};
use crate::statement::Sha256Statement;
use crate::{verify, Error, Profile, Timings};

const N: usize = 5;
/// Words per wire at the padded size (128 instances).
const WORDS_PER_WIRE: usize = 128 / 64;

fn statement() -> Sha256Statement {
    Sha256Statement::compute(random_sha256_inputs(N, 77))
}

fn prove_tampered(statement: Sha256Statement, tamper: &dyn Fn(&mut [u64])) -> Result<(), Error> {
    let proved = prove_statement(
        statement,
        Profile::Default,
        &mut |_| {},
        Timings::default(),
        Some(tamper),
    )?;
    // The file must also survive encoding; rejection must come from verify.
    let file = crate::ProofFile::from_bytes(&proved.file.to_bytes())?;
    verify(&file).map(|_| ())
}

fn assert_rejected(result: Result<(), Error>, what: &str) {
    match result {
        Err(Error::Rejected(_)) => {}
        other => panic!("{what}: expected a rejection, got {other:?}"),
    }
}

fn flip(words: &mut [u64], wire: usize, instance: usize) {
    words[wire * WORDS_PER_WIRE + instance / 64] ^= 1u64 << (instance % 64);
}

#[test]
fn honest_proof_is_accepted() {
    prove_tampered(statement(), &|_| {}).expect("the honest proof verifies");
}

#[test]
fn wrong_witness_bit_is_rejected() {
    let r1cs = sha256_circuit().gadget.r1cs();
    let and_wires: Vec<usize> = (0..r1cs.num_wires())
        .filter(|&i| r1cs.row_kind(i) == RowKind::And)
        .collect();
    // An AND wire early, one in the middle and the last one; a real and a padding instance.
    for (wire, inst) in [
        (and_wires[0], 0),
        (and_wires[and_wires.len() / 2], 3),
        (*and_wires.last().unwrap(), 100),
    ] {
        assert_rejected(
            prove_tampered(statement(), &|z| flip(z, wire, inst)),
            "flipped AND wire",
        );
    }
    let linear = (0..r1cs.num_wires())
        .find(|&i| r1cs.row_kind(i) == RowKind::Linear)
        .unwrap();
    assert_rejected(
        prove_tampered(statement(), &|z| flip(z, linear, 1)),
        "flipped linear wire",
    );
}

#[test]
fn wrong_output_is_rejected() {
    let r1cs = sha256_circuit().gadget.r1cs();
    // The statement claims a wrong output; the witness is honest.
    let mut st = statement();
    st.outputs[2][5] ^= 1 << 9;
    assert_rejected(
        prove_tampered(st.clone(), &|_| {}),
        "wrong output in the statement",
    );
    // The witness agrees with the wrong output (bit 9 of word 5 of instance 2).
    let out_wire = r1cs.public_output_wire(32 * 5 + 9);
    assert_rejected(
        prove_tampered(st, &|z| flip(z, out_wire, 2)),
        "wrong output in statement and witness",
    );
    // A wrong input in the statement with an honest witness.
    let mut st = statement();
    st.inputs[4].block[0] ^= 0x80;
    assert_rejected(prove_tampered(st, &|_| {}), "wrong input in the statement");
}

#[test]
fn constant_wire_zero_is_rejected() {
    // The constant wire cleared in one instance, then in all instances.
    assert_rejected(
        prove_tampered(statement(), &|z| flip(z, 0, 0)),
        "constant wire 0 in one instance",
    );
    assert_rejected(
        prove_tampered(statement(), &|z| z[..WORDS_PER_WIRE].fill(0)),
        "constant wire 0 everywhere",
    );
    // The all-zero witness satisfies every row; only the public claim can catch it.
    assert_rejected(prove_tampered(statement(), &|z| z.fill(0)), "all-zero witness");
}
