//! Bristol Fashion parser and evaluator against known circuits and
//! malformed input.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::bristol::{be_bytes_from_bits, bits_from_be_bytes, bits_from_u64, u64_from_bits};
use starling_circuit::sha256::cv_to_bytes;
use starling_circuit::{BristolCircuit, BristolError};

fn load(name: &str) -> Option<BristolCircuit> {
    let text = common::read_vector(&format!("bristol/{name}"))?;
    Some(BristolCircuit::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}")))
}

#[test]
fn sha256_circuit_matches_compress256() {
    let Some(circuit) = load("sha256.txt") else {
        return;
    };
    assert_eq!(circuit.input_sizes(), &[512, 256]);
    assert_eq!(circuit.output_sizes(), &[256]);
    println!("bristol sha256: {} ANDs", circuit.and_count());
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    for _ in 0..4 {
        let mut block = [0u8; 64];
        rng.fill(&mut block[..]);
        let cv: [u32; 8] = std::array::from_fn(|_| rng.gen());
        let inputs = vec![bits_from_be_bytes(&block), bits_from_be_bytes(&cv_to_bytes(&cv))];
        let out = circuit.evaluate(&inputs).unwrap();
        let mut state = cv;
        sha2::compress256(&mut state, &[*GenericArray::from_slice(&block)]);
        assert_eq!(be_bytes_from_bits(&out[0]), cv_to_bytes(&state));
    }
}

fn run2(circuit: &BristolCircuit, x: u64, y: u64) -> u64 {
    let out = circuit
        .evaluate(&[bits_from_u64(x, 64), bits_from_u64(y, 64)])
        .unwrap();
    u64_from_bits(&out[0])
}

#[test]
fn arithmetic_circuits_match_integers() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut values: Vec<u64> = vec![0, 1, u64::MAX, 1 << 63, 0x7fff_ffff_ffff_ffff];
    values.extend((0..20).map(|_| rng.gen::<u64>()));
    if let Some(c) = load("adder64.txt") {
        for &x in &values {
            for &y in &values[..8] {
                assert_eq!(run2(&c, x, y), x.wrapping_add(y), "adder64 {x} {y}");
            }
        }
    }
    if let Some(c) = load("sub64.txt") {
        for &x in &values {
            for &y in &values[..8] {
                assert_eq!(run2(&c, x, y), x.wrapping_sub(y), "sub64 {x} {y}");
            }
        }
    }
    if let Some(c) = load("mult64.txt") {
        for &x in &values {
            for &y in &values[..8] {
                assert_eq!(run2(&c, x, y), x.wrapping_mul(y), "mult64 {x} {y}");
            }
        }
    }
    if let Some(c) = load("neg64.txt") {
        for &x in &values {
            let out = c.evaluate(&[bits_from_u64(x, 64)]).unwrap();
            assert_eq!(u64_from_bits(&out[0]), x.wrapping_neg(), "neg64 {x}");
        }
    }
    if let Some(c) = load("zero_equal.txt") {
        for &x in &values {
            let out = c.evaluate(&[bits_from_u64(x, 64)]).unwrap();
            assert_eq!(out[0], vec![x == 0], "zero_equal {x}");
        }
    }
}

#[test]
fn every_gate_kind_evaluates() {
    // Inputs a (wire 0) and b (wire 1); the outputs are the last six wires.
    let gates = "2 1 0 1 2 XOR\n\
        1 1 0 3 INV\n\
        4 2 0 1 1 0 4 5 MAND\n\
        2 1 3 1 6 AND\n\
        1 1 2 7 EQW\n\
        1 1 1 8 NOT\n\
        1 1 1 9 EQ\n";
    let c = BristolCircuit::parse(&format!("7 10\n2 1 1\n1 6\n\n{gates}")).unwrap();
    assert_eq!(c.and_count(), 3);
    for (a, b) in [(false, false), (false, true), (true, false), (true, true)] {
        let out = c.evaluate(&[vec![a], vec![b]]).unwrap();
        assert_eq!(out, vec![vec![a & b, b & a, !a & b, a ^ b, !b, true]]);
    }
    // One more gate writing wire 10 of 10: out of range, on line 12.
    let err = BristolCircuit::parse(&format!("8 10\n2 1 1\n1 6\n\n{gates}1 1 3 10 INV\n")).unwrap_err();
    assert!(
        matches!(
            err,
            BristolError::WireOutOfRange {
                line: 12,
                wire: 10,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn malformed_files_report_lines() {
    let cases: &[(&str, usize)] = &[
        ("", 1),
        ("1\n1 1\n1 1\n1 1 0 1 INV\n", 1),
        ("1 2\n1 1 1\n1 1\n1 1 0 1 INV\n", 2),
        ("1 2\n1 1\n1 1\n1 1 0 1 FOO\n", 4),
        ("1 2\n1 1\n1 1\n1 1 0 2 INV\n", 4),
        ("1 2\n1 1\n1 1\n1 1 0 INV\n", 4),
        ("1 2\n1 1\n1 1\n2 1 0 1 1 AND\n", 4),
        ("1 2\n1 1\n1 1\n1 1 1 1 INV\n", 4),
        ("2 3\n1 1\n1 1\n1 1 0 1 INV\n1 1 0 1 INV\n", 5),
        ("1 2\n1 1\n1 1\n1 1 0 1 INV\n1 1 0 1 INV\n", 5),
        ("2 3\n1 1\n1 1\n\n1 1 0 1 INV\n", 5),
        ("1 2\n1 1\n1 1\n1 1 x 1 INV\n", 4),
        ("1 2\n1 1\n1 1\n1 1 2 1 EQ\n", 4),
        ("1 2\n1 1\n1 1\n3 1 0 0 1 1 MAND\n", 4),
        ("1 2\n1 5\n1 1\n1 1 0 1 INV\n", 2),
        ("1 99999999999\n1 1\n1 1\n1 1 0 1 INV\n", 1),
        ("1 9\n1 1\n1 1\n1 1 0 1 INV\n", 1),
        ("1 2\n1 1\n1 1\n1 18446744073709551615 0 1 INV\n", 4),
        ("1 2\n1 1\n", 3),
    ];
    for (text, line) in cases {
        let err = BristolCircuit::parse(text).expect_err(text);
        let message = err.to_string();
        assert!(
            message.starts_with(&format!("line {line}:")),
            "{text:?} gave `{message}`"
        );
    }
}

#[test]
fn evaluate_checks_input_shapes() {
    let c = BristolCircuit::parse("1 3\n2 1 1\n1 1\n2 1 0 1 2 AND\n").unwrap();
    assert_eq!(
        c.evaluate(&[vec![true]]).unwrap_err(),
        BristolError::InputCount { expected: 2, got: 1 }
    );
    assert!(matches!(
        c.evaluate(&[vec![true], vec![true, false]]),
        Err(BristolError::InputSize { index: 1, .. })
    ));
    assert_eq!(c.evaluate(&[vec![true], vec![true]]).unwrap(), vec![vec![true]]);
}
