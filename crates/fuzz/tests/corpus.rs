//! Replays the checked-in fuzz corpus (`fuzz/corpus`) through the same
//! checks the fuzz targets run, and the honest proofs through the verifier:
//! a regression in the decoder, the parsers or the verifier that the fuzzer
//! once explored fails here, in every test run, without a nightly toolchain.

use std::path::{Path, PathBuf};

/// At most this many entries of each target's corpus are replayed, spread
/// evenly over the sorted file names.
const SAMPLE: usize = 300;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus {} is part of the repository: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    let step = files.len().div_ceil(SAMPLE);
    files.into_iter().step_by(step).collect()
}

fn replay(target: &str, check: fn(&[u8])) {
    let files = corpus(target);
    for path in &files {
        let bytes = std::fs::read(path).expect("a readable corpus entry");
        if std::panic::catch_unwind(|| check(&bytes)).is_err() {
            panic!("{target}: {} fails its check", path.display());
        }
    }
    eprintln!("{target}: replayed {} corpus entries", files.len());
}

#[test]
fn proof_file_corpus() {
    replay("proof_file", starling_fuzz::proof_file);
}

#[test]
fn bundle_corpus() {
    replay("bundle", starling_fuzz::bundle);
}

#[test]
fn the_bundle_seeds_are_honest_bundles_that_verify() {
    for bundle in starling_fuzz::honest_bundles() {
        assert!(starling::verify_claimed_bytes(bundle, 100.0).is_ok());
        starling_fuzz::bundle(bundle);
    }
}

/// Mutants of the small honest bundle without a fuzzer: a bit flipped at
/// 400 positions spread over the file (header, entries, every shard's
/// proof), and the file cut at 60. None panics, none verifies.
#[test]
fn bundle_mutants_are_refused() {
    let honest = &starling_fuzz::honest_bundles()[0];
    let flips = (0..400).map(|i| i * honest.len() / 400);
    for at in flips {
        let mut bytes = honest.clone();
        bytes[at] ^= 1 << (at % 8);
        assert!(
            starling::verify_claimed_bytes(&bytes, 0.0).is_err(),
            "byte {at} flipped"
        );
        starling_fuzz::bundle(&bytes);
    }
    for len in (0..60).map(|i| i * honest.len() / 60) {
        assert!(
            starling::verify_claimed_bytes(&honest[..len], 0.0).is_err(),
            "cut at {len}"
        );
        starling_fuzz::bundle(&honest[..len]);
    }
}

#[test]
fn inputs_corpus() {
    replay("inputs", starling_fuzz::inputs);
}

#[test]
fn bristol_corpus() {
    replay("bristol", starling_fuzz::bristol);
}

#[test]
fn the_seeds_are_honest_proofs_that_verify() {
    for proof in starling_fuzz::honest_proofs() {
        let file = starling::ProofFile::from_bytes(proof).expect("an honest proof decodes");
        assert!(starling::verify_claimed(&file, 100.0).is_ok());
        // And the check accepts them (an honest proof is allowed to verify).
        starling_fuzz::proof_file(proof);
    }
}

/// Entries of the proof-file corpus in the current format (magic and
/// version) out of every entry. An entry of an older format stops at the
/// version check, so a corpus left behind by a format change replays none
/// of the verifier it once explored: that happened twice (formats 4 and 6
/// stayed checked in through two and three format changes).
#[test]
fn the_proof_file_corpus_is_in_the_current_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/proof_file");
    let header: Vec<u8> = [
        &starling::format::MAGIC[..],
        &starling::format::VERSION.to_le_bytes(),
    ]
    .concat();
    let (mut current, mut all) = (0usize, 0usize);
    for entry in std::fs::read_dir(&dir).expect("the proof-file corpus") {
        let bytes = std::fs::read(entry.expect("a corpus entry").path()).expect("a readable corpus entry");
        all += 1;
        current += usize::from(bytes.starts_with(&header));
    }
    assert!(
        4 * current >= all,
        "{current} of {all} entries of {} are proof files of format {}: after a format change, \
         run scripts/fuzz proof_file and check in the minimised corpus",
        dir.display(),
        starling::format::VERSION
    );
}
