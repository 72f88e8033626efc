//! `starling verify BUNDLE` and `starling inspect BUNDLE`: a bundle of
//! shard proofs (`starling::bundle`) is checked against the same `--expect`
//! file as the unsharded proof, and prints the same statement.

mod common;

use common::{starling, text};

use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("starling-cli-bundle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Proves the lines with `starling prove sha256` and returns the proof.
fn prove(lines: &[String], name: &str) -> Vec<u8> {
    let inputs = tmp(&format!("{name}.txt"));
    std::fs::write(&inputs, lines.concat()).unwrap();
    let proof = tmp(&format!("{name}.proof"));
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        inputs.to_str().unwrap(),
        "--out",
        proof.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read(proof).unwrap()
}

/// The `OK` line without its timing, and the outputs after it.
fn verdict(stdout: &str) -> (String, Vec<String>) {
    let mut lines = stdout.lines();
    let ok = lines.next().unwrap_or_default();
    let statement = ok.split(" security=").next().unwrap().to_string();
    (statement, lines.map(String::from).collect())
}

#[test]
fn a_bundle_verifies_as_the_unsharded_proof_and_inspects() {
    let lines: Vec<String> = (0..7u32)
        .map(|i| format!("{i:064x} {:0128x}\n", i * 77))
        .collect();
    let all = tmp("all.txt");
    std::fs::write(&all, lines.concat()).unwrap();
    let whole = tmp("whole.proof");
    std::fs::write(&whole, prove(&lines, "whole")).unwrap();
    let shards = [
        prove(&lines[..3], "a"),
        prove(&lines[3..5], "b"),
        prove(&lines[5..], "c"),
    ];
    let bundle = tmp("three.bundle");
    let refs: Vec<&[u8]> = shards.iter().map(Vec::as_slice).collect();
    std::fs::write(&bundle, starling::bundle::assemble(&refs).unwrap()).unwrap();

    let expect = |file: &PathBuf| {
        starling(&[
            "verify",
            file.to_str().unwrap(),
            "--expect",
            all.to_str().unwrap(),
            "--kind",
            "sha256",
            "--print-outputs",
        ])
    };
    let (one, many) = (expect(&whole), expect(&bundle));
    assert_eq!(many.status.code(), Some(0), "{}", text(&many.stderr));
    let (a, b) = (verdict(&text(&one.stdout)), verdict(&text(&many.stdout)));
    assert_eq!(a, b, "the same statement, public digest and outputs");
    assert!(text(&many.stdout).contains(" shards=3 verified in"));

    let out = starling(&["verify", bundle.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = text(&out.stdout);
    assert!(
        json.contains("\"shards\":3") && json.contains("\"verdict\":\"accepted\""),
        "{json}"
    );

    let out = starling(&["inspect", bundle.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    for want in [
        "NOT VERIFIED",
        "bundle         3 shards",
        "N              7",
        "shard 3",
    ] {
        assert!(report.contains(want), "inspect lacks {want:?}:\n{report}");
    }
    let out = starling(&["inspect", bundle.to_str().unwrap(), "--json"]);
    let json = text(&out.stdout);
    assert!(
        json.contains("\"first\":5") && json.contains("\"verified\":false"),
        "{json}"
    );

    // The shards out of order: exit 1, one line with the reason.
    let refs = [shards[0].as_slice(), shards[1].as_slice(), shards[2].as_slice()];
    let good = starling::bundle::assemble(&refs).unwrap();
    let (second, third) = (shards[1].len(), shards[2].len());
    let end = good.len();
    let mut swapped = good[..end - third - second - 16].to_vec();
    swapped.extend_from_slice(&(third as u64).to_le_bytes());
    swapped.extend_from_slice(&shards[2]);
    swapped.extend_from_slice(&(second as u64).to_le_bytes());
    swapped.extend_from_slice(&shards[1]);
    let bad = tmp("swapped.bundle");
    std::fs::write(&bad, &swapped).unwrap();
    let out = expect(&bad);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("out of order"), "{err}");

    // Cut short: unreadable, exit 2.
    std::fs::write(&bad, &good[..good.len() - 10]).unwrap();
    assert_eq!(expect(&bad).status.code(), Some(2));
}
