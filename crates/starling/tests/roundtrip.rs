//! Prove and verify round trips for every statement kind, several batch
//! sizes and both profiles; the outputs are checked against the reference
//! implementations (sha2, blake3, keccak crates; the Bristol evaluator).

mod common;

use starling::inputs::parse_inputs;
use starling::kind::Batch;
use starling::kind::{SampleInputs, TextFormat};
use starling::{prove, verify, Builtin, Expected, Kind, Profile, ProofFile};
use starling_circuit::BristolCircuit;

/// The reference output line of one input record.
fn reference_output(batch: &Batch, record: &[u8]) -> String {
    let line = batch.format_input(record);
    let fields: Vec<&str> = line.split(' ').collect();
    match batch.circuit().builtin_kind() {
        Some(Builtin::Sha256) => {
            let cv = hex::decode(fields[0]).unwrap();
            let mut state: [u32; 8] =
                std::array::from_fn(|i| u32::from_be_bytes(cv[4 * i..4 * i + 4].try_into().unwrap()));
            let block: [u8; 64] = hex::decode(fields[1]).unwrap().try_into().unwrap();
            sha2::compress256(&mut state, &[block.into()]);
            state.iter().map(|w| format!("{w:08x}")).collect()
        }
        Some(Builtin::Sha512) => {
            let cv = hex::decode(fields[0]).unwrap();
            let mut state: [u64; 8] =
                std::array::from_fn(|i| u64::from_be_bytes(cv[8 * i..8 * i + 8].try_into().unwrap()));
            let block: [u8; 128] = hex::decode(fields[1]).unwrap().try_into().unwrap();
            sha2::compress512(&mut state, &[block.into()]);
            state.iter().map(|w| format!("{w:016x}")).collect()
        }
        Some(Builtin::Blake3) => {
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
        Some(Builtin::KeccakF1600) => {
            let bytes = hex::decode(fields[0]).unwrap();
            let mut lanes: [u64; 25] =
                std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()));
            keccak::f1600(&mut lanes);
            lanes.iter().map(|l| hex::encode(l.to_le_bytes())).collect()
        }
        None => {
            let parsed = BristolCircuit::parse(batch.circuit().bristol_text().unwrap()).unwrap();
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

fn round_trip(batch: &Batch, n: usize, profile: Profile) {
    let inputs = batch.random_inputs(n, n as u64);
    // Through the text format, as a user would give them.
    let text: String = inputs.iter().map(|r| batch.format_input(r) + "\n").collect();
    assert_eq!(parse_inputs(batch, &text).unwrap(), inputs);
    let kind: std::sync::Arc<dyn Kind> = std::sync::Arc::new(batch.clone());
    let proved = prove(kind.clone(), inputs.clone(), profile, &mut |_| {}).expect("proving succeeds");
    let bytes = proved.file.to_bytes();
    let file = ProofFile::from_bytes(&bytes).expect("the file decodes");
    assert_eq!(file, proved.file);
    // As a verifier who knows the inputs checks it: against the same text.
    let expected = Expected::from_inputs_text(kind, &text).unwrap();
    let verified = verify(&expected, &bytes).expect("the proof verifies");
    assert_eq!(verified.count(), n as u64);
    assert_eq!(verified.kind().name(), batch.name());
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
    for (i, record) in inputs.iter().enumerate() {
        assert_eq!(
            lines[i],
            reference_output(batch, record),
            "{} record {i}",
            batch.name()
        );
    }
}

#[test]
fn every_kind_small_batches_both_profiles() {
    for batch in common::every_batch() {
        for n in [1, 3] {
            round_trip(&batch, n, Profile::Default);
            round_trip(&batch, n, Profile::Secure);
        }
    }
}

#[test]
fn every_kind_full_packed_batches() {
    for batch in common::every_batch() {
        round_trip(&batch, 64, Profile::Default);
        round_trip(&batch, 129, Profile::Secure);
    }
}

#[test]
fn a_thousand_and_twenty_four_sha256_compressions_both_profiles() {
    let batch = Batch::builtin(Builtin::Sha256);
    round_trip(&batch, 1024, Profile::Default);
    round_trip(&batch, 1024, Profile::Secure);
}
