//! A test-only cheating prover: it runs the honest prover on a witness or a
//! statement it has tampered with. Every such proof must be rejected, for
//! every statement kind.

use std::sync::Arc;

use starling_circuit::RowKind;

use crate::circuits::StatementCircuit;
use crate::inputs::random_inputs;
use crate::protocol::{prove_with, Tamper};
use crate::statement::{Statement, StatementKind};
use crate::{verify_claimed, Error, Profile, DEFAULT_MIN_SECURITY_BITS};

const N: usize = 5;
/// Words per wire at the padded size (128 instances).
const WORDS_PER_WIRE: usize = 128 / 64;

/// A small Bristol circuit: 4-bit x, y; outputs x AND y, and x XOR NOT y.
const SMALL_BRISTOL: &str = "12 20\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n2 1 1 5 9 AND\n2 1 2 6 10 AND\n2 1 3 7 11 AND\n\
    1 1 4 12 INV\n1 1 5 13 INV\n1 1 6 14 INV\n1 1 7 15 INV\n\
    2 1 0 12 16 XOR\n2 1 1 13 17 XOR\n2 1 2 14 18 XOR\n2 1 3 15 19 XOR\n";

fn circuits() -> Vec<Arc<StatementCircuit>> {
    let mut all: Vec<_> = [
        StatementKind::Sha256,
        StatementKind::Blake3,
        StatementKind::KeccakF1600,
    ]
    .into_iter()
    .map(|k| StatementCircuit::builtin(k).unwrap())
    .collect();
    all.push(StatementCircuit::from_bristol(SMALL_BRISTOL).unwrap());
    all
}

fn prove_tampered(circuit: &Arc<StatementCircuit>, tamper: Tamper<'_>) -> Result<(), Error> {
    let inputs = random_inputs(circuit, N, 77);
    let proved = prove_with(circuit, N, inputs, Profile::Default, &mut |_| {}, &tamper)?;
    // The file must also survive encoding; rejection must come from verify.
    let file = crate::ProofFile::from_bytes(&proved.file.to_bytes())?;
    verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).map(|_| ())
}

fn with_witness(f: &dyn Fn(&mut [u64])) -> Tamper<'_> {
    Tamper {
        witness: Some(f),
        statement: None,
    }
}

fn assert_rejected(result: Result<(), Error>, what: &str, circuit: &StatementCircuit) {
    match result {
        Err(Error::Rejected(_)) => {}
        other => panic!(
            "{:?}, {what}: expected a rejection, got {other:?}",
            circuit.kind()
        ),
    }
}

fn flip(words: &mut [u64], wire: usize, instance: usize) {
    words[wire * WORDS_PER_WIRE + instance / 64] ^= 1u64 << (instance % 64);
}

fn wires_of(circuit: &StatementCircuit, kind: RowKind) -> Vec<usize> {
    let r1cs = circuit.r1cs();
    (0..r1cs.num_wires())
        .filter(|&i| r1cs.row_kind(i) == kind)
        .collect()
}

#[test]
fn honest_proofs_are_accepted() {
    for c in circuits() {
        prove_tampered(&c, Tamper::default()).expect("the honest proof verifies");
    }
}

#[test]
fn wrong_witness_bit_is_rejected() {
    for c in circuits() {
        let and_wires = wires_of(&c, RowKind::And);
        // An AND wire early, one in the middle and the last one; a real and a padding instance.
        for (wire, inst) in [
            (and_wires[0], 0),
            (and_wires[and_wires.len() / 2], 3),
            (*and_wires.last().unwrap(), 100),
        ] {
            assert_rejected(
                prove_tampered(&c, with_witness(&|z| flip(z, wire, inst))),
                "flipped AND wire",
                &c,
            );
        }
        if let Some(&linear) = wires_of(&c, RowKind::Linear).first() {
            assert_rejected(
                prove_tampered(&c, with_witness(&|z| flip(z, linear, 1))),
                "flipped linear wire",
                &c,
            );
        }
    }
}

#[test]
fn wrong_public_values_are_rejected() {
    for c in circuits() {
        let out_bit = c.output_bits() / 2 + 1;
        let flip_output = |st: &mut Statement| {
            let w = c.output_words();
            st.output_rows_mut()[2 * w + out_bit / 64] ^= 1 << (out_bit % 64);
        };
        // The statement claims a wrong output; the witness is honest.
        let tamper = Tamper {
            witness: None,
            statement: Some(&flip_output),
        };
        assert_rejected(prove_tampered(&c, tamper), "wrong output in the statement", &c);
        // The witness agrees with the wrong output.
        let out_wire = c.r1cs().public_output_wire(out_bit);
        let flip_wire = |z: &mut [u64]| flip(z, out_wire, 2);
        let tamper = Tamper {
            witness: Some(&flip_wire),
            statement: Some(&flip_output),
        };
        assert_rejected(
            prove_tampered(&c, tamper),
            "wrong output in statement and witness",
            &c,
        );
        // A wrong input in the statement with an honest witness.
        let flip_input = |st: &mut Statement| {
            let w = c.input_words();
            st.input_rows_mut()[4 * w] ^= 1;
        };
        let tamper = Tamper {
            witness: None,
            statement: Some(&flip_input),
        };
        assert_rejected(prove_tampered(&c, tamper), "wrong input in the statement", &c);
    }
}

#[test]
fn constant_wire_zero_is_rejected() {
    for c in circuits() {
        // The constant wire cleared in one instance, then in all instances.
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| flip(z, 0, 0))),
            "constant wire 0 in one instance",
            &c,
        );
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| z[..WORDS_PER_WIRE].fill(0))),
            "constant wire 0 everywhere",
            &c,
        );
        // The all-zero witness satisfies every row; only the public claim can catch it.
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| z.fill(0))),
            "all-zero witness",
            &c,
        );
    }
}
