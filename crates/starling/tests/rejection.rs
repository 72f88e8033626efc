//! A verifier that accepts a wrong statement is the worst bug we can ship.
//! For every statement kind: every section of a proof file is altered byte by
//! byte (all of the small sections, a sample of the opening), every public
//! value is changed by one bit, and truncated or random files must give
//! errors.

mod common;

use std::sync::{Arc, OnceLock};

use rand::{Rng, SeedableRng};
use starling::inputs::random_inputs;
use starling::{
    format, prove, verify_claimed, Error, Profile, ProofFile, Statement, StatementCircuit, StatementKind,
    Verified, DEFAULT_MIN_SECURITY_BITS,
};

const N: usize = 3;

/// An honest proof of every kind, and its bytes.
fn honest() -> &'static Vec<(ProofFile, Vec<u8>)> {
    static PROOFS: OnceLock<Vec<(ProofFile, Vec<u8>)>> = OnceLock::new();
    PROOFS.get_or_init(|| {
        common::every_kind()
            .iter()
            .map(|c| {
                let proved = prove(c, N, random_inputs(c, N, 2024), Profile::Default, &mut |_| {}).unwrap();
                let bytes = proved.file.to_bytes();
                (proved.file, bytes)
            })
            .collect()
    })
}

/// Verifies the statement the file carries (the checks of the proof system).
fn verify_as_claimed(file: &ProofFile) -> Result<Verified, Error> {
    verify_claimed(file, DEFAULT_MIN_SECURITY_BITS)
}

/// Decoding then verifying; `Ok` means the bytes were accepted.
fn accepts(bytes: &[u8]) -> Result<(), Error> {
    let file = ProofFile::from_bytes(bytes)?;
    verify_as_claimed(&file).map(|_| ())
}

/// Byte ranges of the file: header, circuit (Bristol only), statement, and
/// the five proof sections.
fn sections(circuit: &StatementCircuit, bytes: &[u8]) -> Vec<(&'static str, std::ops::Range<usize>)> {
    let header = format::HEADER_BYTES;
    let circuit_end = header + format::circuit_bytes(circuit);
    let statement_end = circuit_end + format::statement_bytes(circuit, N);
    let mut out = vec![
        ("header", 0..header),
        ("circuit", header..circuit_end),
        ("statement", circuit_end..statement_end),
    ];
    let mut at = statement_end;
    for name in [
        "commitment",
        "grinding",
        "zerocheck",
        "lincheck",
        "wiring",
        "opening",
    ] {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        out.push((name, at..at + 4 + len));
        at += 4 + len;
    }
    assert_eq!(at, bytes.len(), "sections cover the file");
    out
}

/// Every byte is flipped in the run with the dispatched backends; the run
/// with the portable backends forced (`scripts/test-all`'s second pass, 10x
/// slower on a CPU without GFNI) flips every seventh, which walks through
/// every bit position and every section, and checks the same verifier code
/// over the other field arithmetic.
fn flip_stride() -> usize {
    if starling_field::backend::portable_forced() {
        7
    } else {
        1
    }
}

#[test]
fn every_section_rejects_flipped_bytes() {
    let stride = flip_stride();
    for (file, bytes) in honest() {
        let circuit = file.statement.circuit();
        assert!(accepts(bytes).is_ok());
        // The opening is the same code for every kind: SHA-256 samples it
        // densely, the others more sparsely.
        let step = if circuit.kind() == StatementKind::Sha256 {
            61
        } else {
            509
        };
        for (name, range) in sections(circuit, bytes) {
            // Small sections: every byte. The opening: its first 4 KB (length
            // and ring-switching messages) byte by byte, then a sample.
            let positions: Vec<usize> = if name == "opening" {
                let dense = range.start..(range.start + 4096).min(range.end);
                dense
                    .step_by(stride)
                    .chain((range.start + 4096..range.end).step_by(step))
                    .chain([range.end - 1])
                    .collect()
            } else {
                range.clone().step_by(stride).chain([range.end - 1]).collect()
            };
            for pos in positions {
                let mut bad = bytes.clone();
                bad[pos] ^= 1 << (pos % 8);
                assert!(
                    accepts(&bad).is_err(),
                    "{:?}: flipping byte {pos} in the {name} section was accepted",
                    circuit.kind()
                );
            }
        }
    }
}

/// The file with a statement rebuilt from changed rows.
fn with_rows(file: &ProofFile, count: usize, inputs: Vec<u64>, outputs: Vec<u64>) -> ProofFile {
    let circuit: Arc<StatementCircuit> = file.statement.circuit().clone();
    let mut f = file.clone();
    f.statement = Statement::from_rows(circuit, count, inputs, outputs).expect("rows in range");
    f
}

#[test]
fn every_public_value_is_bound() {
    for (file, _) in honest() {
        let st = &file.statement;
        let c = st.circuit();
        let kind = c.kind();
        for inst in 0..N {
            for bit in (0..c.input_bits()).step_by(7).chain([c.input_bits() - 1]) {
                let mut rows = st.input_rows().to_vec();
                rows[inst * c.input_words() + bit / 64] ^= 1 << (bit % 64);
                let f = with_rows(file, N, rows, st.output_rows().to_vec());
                assert!(
                    matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                    "{kind:?}: input bit {bit} of instance {inst}"
                );
            }
            for bit in (0..c.output_bits()).step_by(7).chain([c.output_bits() - 1]) {
                let mut rows = st.output_rows().to_vec();
                rows[inst * c.output_words() + bit / 64] ^= 1 << (bit % 64);
                let f = with_rows(file, N, st.input_rows().to_vec(), rows);
                assert!(
                    matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                    "{kind:?}: output bit {bit} of instance {inst}"
                );
            }
        }
        // A different profile, or dropping an instance, changes the statement.
        let mut f = file.clone();
        f.profile = Profile::Secure;
        assert!(verify_as_claimed(&f).is_err(), "{kind:?}: profile");
        let (iw, ow) = (c.input_words(), c.output_words());
        let f = with_rows(
            file,
            N - 1,
            st.input_rows()[..(N - 1) * iw].to_vec(),
            st.output_rows()[..(N - 1) * ow].to_vec(),
        );
        assert!(verify_as_claimed(&f).is_err(), "{kind:?}: an instance dropped");
    }
}

#[test]
fn a_proof_for_one_circuit_does_not_verify_for_another() {
    let proofs = honest();
    // The Bristol proof with a different circuit text of the same shape
    // (one AND becomes an XOR).
    let (file, _) = proofs
        .iter()
        .find(|(f, _)| f.statement.kind() == StatementKind::Circuit)
        .unwrap();
    let other = StatementCircuit::from_bristol(&common::SMALL_BRISTOL.replacen("AND", "XOR", 1)).unwrap();
    let mut f = file.clone();
    f.statement = Statement::from_rows(
        other,
        N,
        file.statement.input_rows().to_vec(),
        file.statement.output_rows().to_vec(),
    )
    .unwrap();
    assert!(matches!(verify_as_claimed(&f), Err(Error::Rejected(_))));
    // A hash proof relabelled as another kind does not even decode.
    let (_, bytes) = &proofs[0];
    for code in [2u8, 3, 4, 5, 0] {
        let mut bad = bytes.clone();
        bad[10] = code;
        assert!(accepts(&bad).is_err(), "kind code {code}");
    }
}

#[test]
fn truncated_and_random_files_are_errors() {
    for (_, bytes) in honest() {
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            assert!(
                accepts(&bytes[..len]).is_err(),
                "a file cut at {len} bytes was accepted"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(accepts(&long), Err(Error::Malformed(_))));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let len = rng.gen_range(0..4096);
            let mut junk: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            if rng.gen_bool(0.5) && junk.len() >= 20 {
                // A plausible header over random contents.
                junk[..20].copy_from_slice(&bytes[..20]);
            }
            assert!(accepts(&junk).is_err());
        }
        // Header claiming a huge batch must not allocate or panic.
        let mut huge = bytes[..20].to_vec();
        huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(accepts(&huge), Err(Error::Malformed(_))));
    }
}

#[test]
fn secure_proofs_check_their_proof_of_work() {
    for c in common::every_kind() {
        let proved = prove(&c, 1, random_inputs(&c, 1, 5), Profile::Secure, &mut |_| {}).unwrap();
        assert!(verify_as_claimed(&proved.file).is_ok());
        // Other public-point nonces: all rejected (most by the work check itself).
        for k in 1..=8u64 {
            let mut f = proved.file.clone();
            f.proof.public_nonce = f.proof.public_nonce.wrapping_add(k);
            assert!(
                matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                "nonce + {k}"
            );
        }
        // The zerocheck's nonces, the same way.
        for which in 0..2 {
            let mut f = proved.file.clone();
            f.proof.zerocheck.pow_nonces[which] ^= 1;
            assert!(
                matches!(verify_as_claimed(&f), Err(Error::Rejected(_))),
                "zerocheck nonce {which}"
            );
        }
    }
}
