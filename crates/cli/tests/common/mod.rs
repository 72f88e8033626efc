//! Helpers shared by the CLI integration tests: running the binary, scratch
//! files, and finding the known-answer vectors in the shared folder.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Where the vectors live: `$STARLING_VECTORS` if set, otherwise
/// `../../../shared/vectors` relative to this crate's manifest.
pub fn vectors_dir() -> PathBuf {
    std::env::var_os("STARLING_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"))
}

/// The path of a vector file if it exists. When it does not, the test is
/// skipped with a `SKIPPED` note, except under `CI=true`, where it fails.
pub fn vector_path(relative: &str) -> Option<PathBuf> {
    let path = vectors_dir().join(relative);
    if path.is_file() {
        return Some(path);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(!ci, "vector file {} is required under CI=true", path.display());
    eprintln!(
        "SKIPPED: vector file {} not found; set STARLING_VECTORS to the shared vectors folder",
        path.display()
    );
    None
}

/// The text of a vector file, or `None` (after the note) when it is missing.
pub fn read_vector(relative: &str) -> Option<String> {
    let path = vector_path(relative)?;
    Some(
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("vector file {} exists but is unreadable: {e}", path.display())),
    )
}

/// The `starling` binary with these arguments, stdin closed.
pub fn starling(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_starling"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the starling binary runs")
}

/// A command's output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path in this test binary's own scratch folder, one per test file and
/// process (`starling-kinds-test-PID` for `tests/kinds.rs`).
pub fn scratch(name: &str) -> PathBuf {
    let binary = std::env::current_exe().expect("the test binary has a path");
    let stem = binary.file_stem().expect("a file name").to_string_lossy();
    // Cargo names a test binary `FILE-HASH`.
    let test = stem.split('-').next().unwrap_or("cli");
    let dir = std::env::temp_dir().join(format!("starling-{test}-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// A path as the command line takes it.
pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Bytes as lowercase hex digits.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `verify PROOF --expect EXPECT --kind KIND PARAMS...`.
pub fn verify_expect(proof: &Path, expect: &Path, kind: &str, params: &[&str]) -> Output {
    let mut args = vec![
        "verify",
        path_str(proof),
        "--expect",
        path_str(expect),
        "--kind",
        kind,
    ];
    args.extend_from_slice(params);
    starling(&args)
}
