#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

use std::sync::{Arc, OnceLock};

use starling::inputs::{format_input_row, parse_inputs, random_inputs};
use starling::{inspect, prove, verify_claimed, Profile, ProofFile, StatementCircuit, StatementKind};

/// The one-AND circuit of the smallest proofs (9 KB): fast to verify, so the
/// fuzzer runs thousands of mutants a second.
pub const TINY_BRISTOL: &str = "1 3\n1 2\n1 1\n2 1 0 1 2 AND\n";

/// A circuit of every gate type, 4-bit inputs (larger proofs, with Merkle paths).
pub const SMALL_BRISTOL: &str = "12 21\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n1 1 5 9 INV\n1 1 1 10 EQ\n1 1 6 11 EQW\n\
    4 2 1 2 9 10 12 13 MAND\n2 1 3 7 14 XOR\n2 1 8 11 15 XOR\n1 1 12 16 INV\n\
    2 1 14 15 17 AND\n1 1 0 18 EQ\n2 1 16 17 19 XOR\n1 1 13 20 EQW\n";

/// The honest proofs the fuzzer starts from, made here (proofs are
/// deterministic): the tiny circuit under both profiles, the small circuit
/// for 200 instances, and one SHA-256 compression.
pub fn honest_proofs() -> &'static [Vec<u8>] {
    static PROOFS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    PROOFS.get_or_init(|| {
        let tiny = StatementCircuit::from_bristol(TINY_BRISTOL).expect("a valid circuit");
        let small = StatementCircuit::from_bristol(SMALL_BRISTOL).expect("a valid circuit");
        let sha256 = StatementCircuit::builtin(StatementKind::Sha256).expect("built in");
        let make = |c: &Arc<StatementCircuit>, n: usize, profile: Profile| {
            prove(c, n, random_inputs(c, n, 7), profile, &mut |_| {})
                .expect("an honest proof")
                .file
                .to_bytes()
        };
        vec![
            make(&tiny, 1, Profile::Default),
            make(&tiny, 3, Profile::Secure),
            make(&small, 200, Profile::Default),
            make(&sha256, 1, Profile::Default),
        ]
    })
}

/// Untrusted bytes as a proof file: decoding, `inspect` and verification
/// never panic, and nothing but an honest proof verifies.
pub fn proof_file(bytes: &[u8]) {
    let described = inspect(bytes);
    let Ok(file) = ProofFile::from_bytes(bytes) else {
        assert!(described.is_err(), "inspect read a file the decoder refuses");
        return;
    };
    assert!(described.is_ok(), "inspect refused a file the decoder reads");
    if verify_claimed(&file, 0.0).is_ok() {
        assert!(
            honest_proofs().iter().any(|h| h == bytes),
            "a proof that is not one of the honest ones verified"
        );
    }
}

/// The circuits whose inputs text [`inputs`] parses.
fn input_circuits() -> &'static [Arc<StatementCircuit>] {
    static CIRCUITS: OnceLock<Vec<Arc<StatementCircuit>>> = OnceLock::new();
    CIRCUITS.get_or_init(|| {
        let mut all: Vec<_> = [
            StatementKind::Sha256,
            StatementKind::Blake3,
            StatementKind::KeccakF1600,
        ]
        .into_iter()
        .map(|k| StatementCircuit::builtin(k).expect("built in"))
        .collect();
        all.push(StatementCircuit::from_bristol(SMALL_BRISTOL).expect("a valid circuit"));
        all
    })
}

/// Untrusted bytes as the inputs text of every kind: no panic, and rows that
/// parse print back to a text that parses to the same rows.
pub fn inputs(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    for circuit in input_circuits() {
        if let Ok((count, rows)) = parse_inputs(circuit, text) {
            let printed: String = rows
                .chunks_exact(circuit.input_words())
                .map(|r| format_input_row(circuit, r) + "\n")
                .collect();
            assert_eq!(
                parse_inputs(circuit, &printed).ok(),
                Some((count, rows)),
                "{:?}: the printed rows do not parse back",
                circuit.kind()
            );
        }
    }
}

/// Untrusted bytes as a Bristol circuit: parsing and compiling never panic.
pub fn bristol(bytes: &[u8]) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = StatementCircuit::from_bristol(text);
    }
}
