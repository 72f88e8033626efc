//! Shared test helpers: locating the known-answer vectors.

#![allow(dead_code)]

use std::path::PathBuf;

/// The vectors folder: `$STARLING_VECTORS`, else `../shared/vectors` next to
/// the workspace root.
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("STARLING_VECTORS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"),
    }
}

/// Reads a vector file, or returns `None` after printing why the test is
/// skipped. Under `CI=true` a missing file fails the test instead.
pub fn read_vector(relative: &str) -> Option<String> {
    let path = vectors_dir().join(relative);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(err) => {
            let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
            assert!(
                !ci,
                "vector file {} is required under CI=true: {err}",
                path.display()
            );
            eprintln!(
                "SKIPPED: vector file {} not readable ({err}); set STARLING_VECTORS to the shared vectors folder",
                path.display()
            );
            None
        }
    }
}
