//! Writes the fuzzers' seed inputs into a corpus folder (default
//! `fuzz/corpus`): the honest proofs, an inputs line of every kind, and
//! small Bristol circuits. `scripts/fuzz` runs it before fuzzing.

use std::path::PathBuf;

use starling::inputs::{format_input_row, random_inputs};
use starling::{StatementCircuit, StatementKind};
use starling_fuzz::{honest_proofs, SMALL_BRISTOL, TINY_BRISTOL};

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
    let mut circuits: Vec<_> = [
        StatementKind::Sha256,
        StatementKind::Blake3,
        StatementKind::KeccakF1600,
    ]
    .into_iter()
    .map(|k| StatementCircuit::builtin(k).expect("built in"))
    .collect();
    circuits.push(StatementCircuit::from_bristol(SMALL_BRISTOL).expect("a valid circuit"));
    for c in &circuits {
        let rows = random_inputs(c, 2, 1);
        let text: String = rows
            .chunks_exact(c.input_words())
            .map(|r| format_input_row(c, r) + "\n")
            .collect();
        write(
            "inputs",
            c.kind().name(),
            format!("# two instances\n\n{text}").as_bytes(),
        )?;
    }
    write("bristol", "tiny", TINY_BRISTOL.as_bytes())?;
    write("bristol", "small", SMALL_BRISTOL.as_bytes())?;
    Ok(())
}
