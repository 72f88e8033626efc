//! Writes the fuzzers' seed inputs into a corpus folder (default
//! `fuzz/corpus`): the honest proofs and bundles, an inputs line of every kind, and
//! small Bristol circuits. `scripts/fuzz` runs it before fuzzing.

use starling::kind::{SampleInputs, TextFormat};
use std::path::PathBuf;

use starling::kind::Batch;
use starling::{Builtin, Kind, StatementCircuit};
use starling_fuzz::{honest_bundles, honest_proofs, linked_samples, SMALL_BRISTOL, TINY_BRISTOL};

fn main() -> std::io::Result<()> {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "fuzz/corpus".into()));
    let write = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("seed-{name}")), bytes)
    };
    for (i, proof) in honest_proofs().iter().enumerate() {
        write("proof_file", &format!("honest-{i}"), proof)?;
    }
    for (i, bundle) in honest_bundles().iter().enumerate() {
        write("bundle", &format!("honest-{i}"), bundle)?;
    }
    let mut batches: Vec<Batch> = Builtin::ALL.into_iter().map(Batch::builtin).collect();
    batches.push(Batch::of(
        StatementCircuit::from_bristol(SMALL_BRISTOL).expect("a valid circuit"),
    ));
    for b in &batches {
        let text: String = b
            .random_inputs(2, 1)
            .iter()
            .map(|r| b.format_input(r) + "\n")
            .collect();
        write("inputs", &b.name(), format!("# two records\n\n{text}").as_bytes())?;
    }
    for (kind, text) in linked_samples() {
        let name = kind.name().replace(' ', "_");
        write("inputs", &name, text.as_bytes())?;
    }
    write("bristol", "tiny", TINY_BRISTOL.as_bytes())?;
    write("bristol", "small", SMALL_BRISTOL.as_bytes())?;
    Ok(())
}
