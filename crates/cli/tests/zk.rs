//! `--zk` through the binary: every `prove` subcommand and `bench` take it;
//! `verify` (its OK line and `--json`) and `inspect` (text and `--json`)
//! say whether a proof is zero-knowledge; plain proofs stay a function of
//! their statement and zero-knowledge ones differ each time; a proof of a
//! kind with secrets made without zero knowledge is rejected as such.

mod common;

use common::{path_str, scratch, starling, text};

use std::path::{Path, PathBuf};

use starling::format::{HEADER_BYTES, ZK_PROFILE_BIT};

/// SHA-256 of `abc`.
const ABC_SHA256: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

/// Writes a file of `text` in this test binary's scratch folder.
fn file(name: &str, text: &str) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The one JSON object a command printed (exit 0).
fn object(args: &[&str]) -> serde_json::Value {
    let out = starling(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// `prove WHAT... --out NAME.proof --quiet [--zk]`: the proof's path.
fn prove(name: &str, what: &[&str], zk: bool) -> PathBuf {
    let proof = scratch(&format!("{name}.proof"));
    let mut args = vec!["prove"];
    args.extend_from_slice(what);
    args.extend(["--out", path_str(&proof), "--quiet"]);
    if zk {
        args.push("--zk");
    }
    let out = starling(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    proof
}

/// What `verify` and `inspect` say of `proof`: zero-knowledge or not.
fn assert_reported(proof: &Path, zk: bool) {
    let p = path_str(proof);
    let out = starling(&["verify", p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let word = if zk { "yes" } else { "no" };
    let ok = text(&out.stdout);
    assert!(ok.contains(&format!(" profile=default zk={word} ")), "{ok}");
    assert_eq!(object(&["verify", p, "--json"])["zk"], zk);
    assert_eq!(object(&["inspect", p, "--json"])["zk"], zk);
    let out = starling(&["inspect", p]);
    assert!(text(&out.stdout).contains(&format!("\nzero knowledge {word}\n")));
}

#[test]
fn every_prove_subcommand_takes_zk_and_verify_and_inspect_report_it() {
    let digest = file("messages.txt", "616263\n-\n");
    let leaves = file(
        "leaves.txt",
        &format!("{}\n{}\n", "11".repeat(32), "22".repeat(32)),
    );
    let start = "33".repeat(32);
    let cases: [(&str, Vec<&str>); 4] = [
        ("sha256", vec!["sha256", "--random", "3", "--seed", "1"]),
        (
            "digest",
            vec!["digest", "--hash", "sha256", "--messages", path_str(&digest)],
        ),
        (
            "chain",
            vec!["chain", "--hash", "blake3", "--start", &start, "--steps", "3"],
        ),
        (
            "merkle-root",
            vec![
                "merkle-root",
                "--hash",
                "sha256",
                "--scheme",
                "plain",
                "--leaves",
                path_str(&leaves),
            ],
        ),
    ];
    for (name, what) in cases {
        let plain = prove(&format!("{name}-plain"), &what, false);
        assert_reported(&plain, false);
        let again = prove(&format!("{name}-plain-again"), &what, false);
        assert_eq!(
            std::fs::read(&plain).unwrap(),
            std::fs::read(&again).unwrap(),
            "{name}"
        );
        let hidden = prove(&format!("{name}-zk"), &what, true);
        assert_reported(&hidden, true);
        let other = prove(&format!("{name}-zk-again"), &what, true);
        assert_ne!(
            std::fs::read(&hidden).unwrap(),
            std::fs::read(&other).unwrap(),
            "{name}"
        );
        // The outputs the proofs establish are the same.
        let outputs = |p: &Path| object(&["verify", path_str(p), "--json"])["outputs"].clone();
        assert_eq!(outputs(&plain), outputs(&hidden), "{name}");
    }
}

#[test]
fn a_plain_proof_of_a_kind_with_secrets_is_rejected_as_such() {
    let secrets = file("secret.txt", "616263\n");
    let proof = prove(
        "secret",
        &["preimage", "--hash", "sha256", "--secrets", path_str(&secrets)],
        false,
    );
    assert_reported(&proof, true);
    // The header's zero-knowledge bit cleared: the file claims a plain proof.
    let mut bytes = std::fs::read(&proof).unwrap();
    bytes[HEADER_BYTES - 1] &= !ZK_PROFILE_BIT;
    let plain = scratch("secret-plain.proof");
    std::fs::write(&plain, &bytes).unwrap();
    let out = starling(&["verify", path_str(&plain)]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "error: proof rejected: a preimage --hash sha256 --max-len 64 proof must be zero-knowledge (its private values are secrets), and this one was made without zero knowledge\n"
    );
    let out = starling(&["verify", path_str(&plain), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(obj["verdict"], "rejected");
    assert!(obj["error"].as_str().unwrap().contains("must be zero-knowledge"));
    // `verify --expect` and `inspect` refuse it in the same words.
    let expect = file("secret.expect", &format!("{ABC_SHA256}\n"));
    let p = path_str(&plain);
    for args in [
        &[
            "verify",
            p,
            "--expect",
            path_str(&expect),
            "--kind",
            "preimage",
            "--hash",
            "sha256",
        ][..],
        &["inspect", p],
    ] {
        let out = starling(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stderr), err, "{args:?}");
    }
}

#[test]
fn bench_takes_zk_and_the_kinds_with_secrets() {
    let common = ["--runs", "0", "--threads", "1", "--json"];
    for (what, kind, count, zk) in [
        (vec!["sha256", "--count", "4"], "sha256", 4, false),
        (vec!["sha256", "--count", "4", "--zk"], "sha256", 4, true),
        (
            vec!["preimage", "--hash", "sha256", "--max-len", "100", "--count", "2"],
            "preimage --hash sha256 --max-len 100",
            2,
            true,
        ),
        (
            vec![
                "membership",
                "--hash",
                "keccak-256",
                "--scheme",
                "plain",
                "--leaves",
                "8",
                "--count",
                "2",
            ],
            "membership --hash keccak-256 --scheme plain",
            2,
            true,
        ),
        (vec!["ring", "--leaves", "5"], "ring --hash sha256", 1, true),
    ] {
        let mut args = vec!["bench"];
        args.extend_from_slice(&what);
        args.extend_from_slice(&common);
        let v = object(&args);
        assert_eq!(v["kind"], kind, "{args:?}");
        assert_eq!(v["count"], count, "{args:?}");
        assert_eq!(v["zk"], zk, "{args:?}");
        assert!(v["proof_bytes"].as_u64().unwrap() > 0, "{args:?}");
    }
    let out = starling(&[
        "bench",
        "membership",
        "--hash",
        "sha256",
        "--scheme",
        "plain",
        "--leaves",
        "6",
        "--count",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--leaves: a plain Merkle tree needs a power of two of leaves, not 6"));
}
