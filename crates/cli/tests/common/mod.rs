//! Helpers shared by the CLI integration tests: finding the known-answer
//! vectors in the shared folder.

#![allow(dead_code)]

use std::path::PathBuf;

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
