//! Prove and verify round trips for every statement kind, several batch
//! sizes and both profiles; the outputs are checked against the reference
//! implementations (sha2, blake3, keccak crates; the Bristol evaluator).

mod common;

use starling::inputs::{format_input_row, format_output_row, parse_inputs, random_inputs};
use starling::{prove, verify, Expected, Profile, ProofFile, StatementCircuit, StatementKind};
use starling_circuit::BristolCircuit;

/// The reference output line of one input row.
fn reference_output(circuit: &StatementCircuit, row: &[u64]) -> String {
    let line = format_input_row(circuit, row);
    let fields: Vec<&str> = line.split(' ').collect();
    match circuit.kind() {
        StatementKind::Sha256 => {
            let cv = hex::decode(fields[0]).unwrap();
            let mut state: [u32; 8] =
                std::array::from_fn(|i| u32::from_be_bytes(cv[4 * i..4 * i + 4].try_into().unwrap()));
            let block: [u8; 64] = hex::decode(fields[1]).unwrap().try_into().unwrap();
            sha2::compress256(&mut state, &[block.into()]);
            state.iter().map(|w| format!("{w:08x}")).collect()
        }
        StatementKind::Blake3 => {
            // The circuit crate's plain reference, which its tests pin to the
            // blake3 crate and the official vectors (the crate's API cannot
            // take an arbitrary counter and flags).
            let input = starling_circuit::Blake3Input {
                cv: le_words(&hex::decode(fields[0]).unwrap()).try_into().unwrap(),
                block: le_words(&hex::decode(fields[1]).unwrap()).try_into().unwrap(),
                counter: fields[2].parse().unwrap(),
                block_len: fields[3].parse().unwrap(),
                flags: fields[4].parse().unwrap(),
            };
            let out = starling_circuit::blake3::compress_reference(&input);
            out.iter().map(|w| hex::encode(w.to_le_bytes())).collect()
        }
        StatementKind::KeccakF1600 => {
            let bytes = hex::decode(fields[0]).unwrap();
            let mut lanes: [u64; 25] =
                std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()));
            keccak::f1600(&mut lanes);
            lanes.iter().map(|l| hex::encode(l.to_le_bytes())).collect()
        }
        StatementKind::Circuit => {
            let parsed = BristolCircuit::parse(circuit.bristol_text().unwrap()).unwrap();
            let inputs: Vec<Vec<bool>> = fields
                .iter()
                .zip(parsed.input_sizes())
                .map(|(f, &bits)| hex_value_bits(f, bits))
                .collect();
            let outputs = parsed.evaluate(&inputs).unwrap();
            outputs
                .iter()
                .map(|bits| bits_hex(bits))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn hex_value_bits(s: &str, bits: usize) -> Vec<bool> {
    let digits: Vec<u32> = s.chars().rev().map(|c| c.to_digit(16).unwrap()).collect();
    (0..bits).map(|b| (digits[b / 4] >> (b % 4)) & 1 == 1).collect()
}

fn bits_hex(bits: &[bool]) -> String {
    let digits = bits.len().div_ceil(4);
    (0..digits)
        .rev()
        .map(|d| {
            let v = (0..4).fold(0u32, |acc, b| {
                acc | (u32::from(*bits.get(4 * d + b).unwrap_or(&false)) << b)
            });
            char::from_digit(v, 16).unwrap()
        })
        .collect()
}

fn round_trip(circuit: &std::sync::Arc<StatementCircuit>, n: usize, profile: Profile) {
    let inputs = random_inputs(circuit, n, n as u64);
    // Through the text format, as a user would give them.
    let text: String = inputs
        .chunks_exact(circuit.input_words())
        .map(|r| format_input_row(circuit, r) + "\n")
        .collect();
    let (count, rows) = parse_inputs(circuit, &text).unwrap();
    assert_eq!((count, &rows), (n, &inputs));
    let proved = prove(circuit, n, rows, profile, &mut |_| {}).expect("proving succeeds");
    let bytes = proved.file.to_bytes();
    let file = ProofFile::from_bytes(&bytes).expect("the file decodes");
    assert_eq!(file, proved.file);
    // As a verifier who knows the inputs checks it: against the same text.
    let expected = Expected::from_inputs_text(circuit.clone(), &text).unwrap();
    let verified = verify(&expected, &bytes).expect("the proof verifies");
    assert_eq!(verified.len(), n);
    assert_eq!(verified.kind(), circuit.kind());
    let target = match profile {
        Profile::Default => 100.0,
        Profile::Secure => 120.0,
    };
    assert!(
        verified.security_bits() >= target,
        "{} bits",
        verified.security_bits()
    );
    let lines = verified.output_lines();
    for (i, row) in inputs.chunks_exact(circuit.input_words()).enumerate() {
        assert_eq!(
            lines[i],
            reference_output(circuit, row),
            "{:?} instance {i}",
            circuit.kind()
        );
        assert_eq!(
            lines[i],
            format_output_row(circuit, verified.statement().output_row(i))
        );
    }
}

#[test]
fn every_kind_small_batches_both_profiles() {
    for circuit in common::every_kind() {
        for n in [1, 3] {
            round_trip(&circuit, n, Profile::Default);
            round_trip(&circuit, n, Profile::Secure);
        }
    }
}

#[test]
fn every_kind_full_packed_batches() {
    for circuit in common::every_kind() {
        round_trip(&circuit, 64, Profile::Default);
        round_trip(&circuit, 129, Profile::Secure);
    }
}

#[test]
fn a_thousand_and_twenty_four_sha256_compressions_both_profiles() {
    let circuit = StatementCircuit::builtin(StatementKind::Sha256).unwrap();
    round_trip(&circuit, 1024, Profile::Default);
    round_trip(&circuit, 1024, Profile::Secure);
}
