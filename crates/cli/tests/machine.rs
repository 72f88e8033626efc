//! Output for scripts: `verify --json` and `inspect --json` print one JSON
//! object with the fields the text lines hold, a rejection included, with
//! the exit codes unchanged; `prove --quiet` prints nothing on success.

mod common;

use common::{path_str, scratch, starling, text};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

const IV: &str = "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19";

/// Two SHA-256 compression lines: `abc` from the IV, then another.
fn lines() -> String {
    let abc = format!("616263{}{}18", "80", "00".repeat(59));
    format!("{IV} {abc}\n{} {}\n", "11".repeat(32), "22".repeat(64))
}

/// The one JSON object on stdout.
fn object(out: &Output) -> Value {
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// A quiet proof of [`lines`] and its inputs file.
fn quiet_proof(name: &str) -> (PathBuf, PathBuf) {
    let inputs = scratch(&format!("{name}.txt"));
    std::fs::write(&inputs, lines()).unwrap();
    let proof = scratch(&format!("{name}.proof"));
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        path_str(&inputs),
        "--out",
        path_str(&proof),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "--quiet printed: {}",
        text(&out.stderr)
    );
    (proof, inputs)
}

/// The fields every object has, checked against the text `verify` prints.
fn check_statement(obj: &Value, proof: &Path) {
    let out = starling(&["verify", path_str(proof), "--print-outputs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let ok = stdout.lines().next().unwrap();
    assert_eq!(obj["kind"], "sha256", "{obj}");
    assert_eq!(obj["count"], 2, "{obj}");
    assert_eq!(obj["instances"], 2, "{obj}");
    assert_eq!(obj["profile"], "default", "{obj}");
    let circuit = obj["circuit"].as_str().unwrap();
    let digest = starling(&["digest", "--kind", "sha256"]);
    assert_eq!(text(&digest.stdout).trim(), circuit);
    assert!(ok.contains(&format!(" circuit={circuit} ")), "{ok}");
    let public = obj["public_digest"].as_str().unwrap();
    assert!(ok.contains(&format!(" public={public} ")), "{ok}");
    // The total is the terms' sum of error probabilities.
    let terms = obj["security_terms"].as_object().unwrap();
    assert!(terms.len() > 5, "{obj}");
    let total: f64 = terms.values().map(|t| t.as_f64().unwrap().exp2()).sum();
    let bits = obj["security_bits"].as_f64().unwrap();
    assert!(
        (bits + total.log2()).abs() < 1e-6,
        "{bits} against {}",
        -total.log2()
    );
    assert!(ok.contains(&format!(" security={bits:.1} bits ")), "{ok}");
}

#[test]
fn verify_json_reports_an_accepted_proof() {
    let (proof, inputs) = quiet_proof("accepted");
    let out = starling(&[
        "verify",
        path_str(&proof),
        "--expect",
        path_str(&inputs),
        "--kind",
        "sha256",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let obj = object(&out);
    check_statement(&obj, &proof);
    assert_eq!(obj["verdict"], "accepted");
    assert_eq!(obj["expected"], true);
    assert!(obj["verify_ms"].as_f64().unwrap() > 0.0);
    assert!(obj.get("error").is_none(), "{obj}");
    let printed = starling(&["verify", path_str(&proof), "--print-outputs"]);
    let lines: Vec<Value> = text(&printed.stdout).lines().skip(1).map(Value::from).collect();
    assert_eq!(obj["outputs"], Value::Array(lines));
    assert_eq!(
        obj["outputs"][0],
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    // Without --expect, the statement the proof carries.
    let out = starling(&["verify", path_str(&proof), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let claimed = object(&out);
    assert_eq!(claimed["expected"], false);
    assert_eq!(claimed["public_digest"], obj["public_digest"]);
}

#[test]
fn verify_json_reports_a_rejection_with_its_exit_code() {
    let (proof, _) = quiet_proof("rejected");
    let other = scratch("rejected-other.txt");
    std::fs::write(&other, lines().replace("11", "33")).unwrap();
    let out = starling(&[
        "verify",
        path_str(&proof),
        "--expect",
        path_str(&other),
        "--kind",
        "sha256",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let obj = object(&out);
    assert_eq!(obj["verdict"], "rejected");
    let error = obj["error"].as_str().unwrap();
    assert!(
        error.contains("input 1 (0-based, in line order) differs first in its chaining value"),
        "{error}"
    );
    assert_eq!(text(&out.stderr).trim(), format!("error: {error}"));
    // What the file claims, but no outputs: a rejected proof establishes none.
    check_statement(&obj, &proof);
    assert!(obj.get("outputs").is_none(), "{obj}");

    // A proof of another kind is rejected before the inputs are read.
    let out = starling(&[
        "verify",
        path_str(&proof),
        "--expect",
        path_str(&other),
        "--kind",
        "blake3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(object(&out)["verdict"], "rejected");

    // A file that is not a proof is no verdict: exit 2, nothing on stdout.
    let out = starling(&["verify", path_str(&other), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

#[test]
fn inspect_json_describes_the_file_unverified() {
    let (proof, _) = quiet_proof("inspected");
    let out = starling(&["inspect", path_str(&proof), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let obj = object(&out);
    check_statement(&obj, &proof);
    assert_eq!(obj["verified"], false);
    assert!(obj.get("verdict").is_none(), "{obj}");
    assert_eq!(
        obj["file_bytes"].as_u64(),
        Some(std::fs::metadata(&proof).unwrap().len())
    );
    assert_eq!(obj["outputs"].as_array().map(Vec::len), Some(2));
}

#[test]
fn prove_quiet_still_reports_errors() {
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        "/nonexistent/inputs",
        "--out",
        path_str(&scratch("never.proof")),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/inputs"));
}
