//! `starling prove|verify|bench` for the statements with private
//! intermediate values: message digests, hash chains and Merkle roots, as a
//! user types them, checked against the `sha2`, `sha3` and `blake3` crates.

mod common;

use common::{hex, path_str, scratch, starling, text};

use std::path::{Path, PathBuf};

use sha2::Digest as _;

fn lines_file(name: &str, lines: &[String]) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    path
}

fn digest_of(hash: &str, message: &[u8]) -> Vec<u8> {
    match hash {
        "sha256" => sha2::Sha256::digest(message).to_vec(),
        "sha512" => sha2::Sha512::digest(message).to_vec(),
        "sha3-256" => sha3::Sha3_256::digest(message).to_vec(),
        "keccak-256" => sha3::Keccak256::digest(message).to_vec(),
        "blake3" => blake3::hash(message).as_bytes().to_vec(),
        other => panic!("no hash {other}"),
    }
}

/// Proves with `prove_args` (plus `--out`), then checks that `verify
/// --print-outputs` prints `want`, that `verify --expect` accepts the
/// inputs file and rejects (exit 1) `wrong` in its place.
fn prove_verify_expect(
    name: &str,
    prove_args: &[&str],
    params: &[&str],
    expect: &Path,
    wrong: &Path,
    want: &[String],
) {
    let proof = scratch(&format!("{name}.proof"));
    let mut args = prove_args.to_vec();
    args.extend(["--out", path_str(&proof)]);
    let out = starling(&args);
    assert!(
        out.status.success(),
        "{name}: prove failed: {}",
        text(&out.stderr)
    );

    let out = starling(&["verify", path_str(&proof), "--print-outputs"]);
    assert!(
        out.status.success(),
        "{name}: verify failed: {}",
        text(&out.stderr)
    );
    let printed: Vec<String> = text(&out.stdout).lines().skip(1).map(str::to_owned).collect();
    assert_eq!(printed, want, "{name}: printed outputs");

    let kind = prove_args[1];
    let mut args = vec![
        "verify",
        path_str(&proof),
        "--kind",
        kind,
        "--expect",
        path_str(expect),
    ];
    args.extend(params);
    let out = starling(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{name}: --expect: {}",
        text(&out.stderr)
    );

    args[5] = path_str(wrong);
    let out = starling(&args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: --expect with a changed input must fail"
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("input 0 (0-based, in line order) differs"),
        "{name}: {err}"
    );
}

#[test]
fn digests_print_the_crates_digests_and_expect_binds_the_messages() {
    let messages: Vec<Vec<u8>> = vec![b"".to_vec(), b"abc".to_vec(), vec![0x5a; 200]];
    let lines: Vec<String> = messages
        .iter()
        .map(|m| if m.is_empty() { "-".into() } else { hex(m) })
        .collect();
    let file = lines_file("messages", &lines);
    let mut changed = lines.clone();
    changed[0] = "00".into();
    let wrong = lines_file("messages-changed", &changed);
    for hash in ["sha256", "sha512", "sha3-256", "keccak-256", "blake3"] {
        let want: Vec<String> = messages.iter().map(|m| hex(&digest_of(hash, m))).collect();
        prove_verify_expect(
            &format!("digest-{hash}"),
            &["prove", "digest", "--hash", hash, "--messages", path_str(&file)],
            &["--hash", hash],
            &file,
            &wrong,
            &want,
        );
    }
}

#[test]
fn chains_print_the_last_link_and_expect_binds_start_and_steps() {
    let steps = 3;
    for hash in ["sha256", "sha512", "sha3-256", "keccak-256", "blake3"] {
        // h(i) is a digest's size: SHA-512 chains 64-byte values.
        let start = vec![0x17u8; if hash == "sha512" { 64 } else { 32 }];
        let mut h = start.clone();
        for _ in 0..steps {
            h = digest_of(hash, &h);
        }
        let expect = lines_file(&format!("chain-{hash}"), &[format!("{} {steps}", hex(&start))]);
        let wrong = lines_file(
            &format!("chain-{hash}-wrong"),
            &[format!("{} {}", hex(&start), steps + 1)],
        );
        prove_verify_expect(
            &format!("chain-{hash}"),
            &[
                "prove",
                "chain",
                "--hash",
                hash,
                "--start",
                &hex(&start),
                "--steps",
                &steps.to_string(),
            ],
            &["--hash", hash],
            &expect,
            &wrong,
            &[hex(&h)],
        );
    }
}

/// The root by the schemes' definitions, over the crates.
fn reference_root(hash: &str, scheme: &str, leaves: &[Vec<u8>]) -> Vec<u8> {
    let node = |l: &[u8], r: &[u8]| digest_of(hash, &[l, r].concat());
    match scheme {
        "plain" => {
            let mut level = leaves.to_vec();
            while level.len() > 1 {
                level = level.chunks(2).map(|p| node(&p[0], &p[1])).collect();
            }
            level.remove(0)
        }
        "bitcoin" => {
            let mut level = leaves.to_vec();
            while level.len() > 1 {
                level = level
                    .chunks(2)
                    .map(|p| digest_of(hash, &node(&p[0], p.get(1).unwrap_or(&p[0]))))
                    .collect();
            }
            level.remove(0)
        }
        "rfc6962" => {
            if leaves.len() == 1 {
                return digest_of(hash, &[&[0u8][..], &leaves[0]].concat());
            }
            let k = leaves.len().next_power_of_two() / 2;
            let l = reference_root(hash, scheme, &leaves[..k]);
            let r = reference_root(hash, scheme, &leaves[k..]);
            digest_of(hash, &[&[1u8][..], &l, &r].concat())
        }
        other => panic!("no scheme {other}"),
    }
}

#[test]
fn merkle_roots_match_the_schemes_and_expect_binds_the_leaves() {
    for (hash, scheme, count) in [
        ("sha256", "plain", 4),
        ("sha512", "plain", 4),
        ("blake3", "plain", 2),
        ("keccak-256", "plain", 1),
        ("sha256", "rfc6962", 5),
        ("sha256", "bitcoin", 5),
    ] {
        let leaves: Vec<Vec<u8>> = (0..count)
            .map(|i| {
                let len = match (hash, scheme) {
                    (_, "rfc6962") => 7 * i,
                    // Plain SHA-512 trees take 64-byte leaves.
                    ("sha512", _) => 64,
                    _ => 32,
                };
                (0..len).map(|j| (i * 31 + j) as u8).collect()
            })
            .collect();
        let lines: Vec<String> = leaves
            .iter()
            .map(|l| if l.is_empty() { "-".into() } else { hex(l) })
            .collect();
        let name = format!("merkle-{hash}-{scheme}");
        let file = lines_file(&name, &lines);
        let mut changed = lines.clone();
        changed[0] = if scheme == "rfc6962" {
            "01".into()
        } else {
            hex(&vec![0xee; leaves[0].len()])
        };
        let wrong = lines_file(&format!("{name}-wrong"), &changed);
        prove_verify_expect(
            &name,
            &[
                "prove",
                "merkle-root",
                "--hash",
                hash,
                "--scheme",
                scheme,
                "--leaves",
                path_str(&file),
            ],
            &["--hash", hash, "--scheme", scheme],
            &file,
            &wrong,
            &[hex(&reference_root(hash, scheme, &leaves))],
        );
    }
}

#[test]
fn the_empty_rfc6962_tree_is_the_hash_of_the_empty_string() {
    // RFC 6962 §2.1: MTH({}) = SHA-256(), whatever the comments.
    let empty = lines_file("merkle-empty", &["# no leaves".into()]);
    let one = lines_file("merkle-one", &["-".into()]);
    prove_verify_expect_empty(&empty, &one);
    for scheme in ["plain", "bitcoin"] {
        let out = starling(&[
            "prove",
            "merkle-root",
            "--hash",
            "sha256",
            "--scheme",
            scheme,
            "--leaves",
            path_str(&empty),
            "--out",
            path_str(&scratch("never.proof")),
        ]);
        assert_eq!(out.status.code(), Some(2), "{scheme}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("N must be at least 1"), "{scheme}");
    }
}

/// Proves the empty tree of `empty`, checks its root and that `verify
/// --expect` accepts no leaves and rejects `one` leaf.
fn prove_verify_expect_empty(empty: &Path, one: &Path) {
    let proof = scratch("merkle-empty.proof");
    let tree = ["--hash", "sha256", "--scheme", "rfc6962"];
    let mut args = vec![
        "prove",
        "merkle-root",
        "--leaves",
        path_str(empty),
        "--out",
        path_str(&proof),
    ];
    args.extend(tree);
    let out = starling(&args);
    assert!(out.status.success(), "prove: {}", text(&out.stderr));
    assert_eq!(
        hex(&digest_of("sha256", b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    for (expect, code) in [(empty, 0), (one, 1)] {
        let mut args = vec![
            "verify",
            path_str(&proof),
            "--print-outputs",
            "--kind",
            "merkle-root",
            "--expect",
            path_str(expect),
        ];
        args.extend(tree);
        let out = starling(&args);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        if code == 0 {
            let printed: Vec<String> = text(&out.stdout).lines().skip(1).map(str::to_owned).collect();
            assert_eq!(printed, [hex(&digest_of("sha256", b""))]);
            assert!(text(&out.stdout).starts_with("OK merkle-root --hash sha256 --scheme rfc6962 N=0 "));
        } else {
            assert!(
                text(&out.stderr).contains("0 leaf nodes, expected 1"),
                "{}",
                text(&out.stderr)
            );
        }
    }
}

#[test]
fn wrong_parameters_exit_2_with_the_reason() {
    let leaves = lines_file("three-leaves", &vec![hex(&[1; 32]); 3]);
    for (args, reason) in [
        (
            vec![
                "prove",
                "merkle-root",
                "--hash",
                "sha256",
                "--scheme",
                "plain",
                "--leaves",
                path_str(&leaves),
            ],
            "power of two",
        ),
        (
            vec![
                "prove",
                "merkle-root",
                "--hash",
                "blake3",
                "--scheme",
                "bitcoin",
                "--leaves",
                path_str(&leaves),
            ],
            "not built with blake3",
        ),
        (
            vec![
                "prove", "chain", "--hash", "sha256", "--start", "00", "--steps", "1",
            ],
            "start",
        ),
        (
            vec![
                "prove",
                "chain",
                "--hash",
                "sha256",
                "--start",
                &hex(&[0; 32]),
                "--steps",
                "0",
            ],
            "steps",
        ),
    ] {
        let mut args = args.clone();
        let out_path = scratch("never-written");
        args.extend(["--out", path_str(&out_path)]);
        let out = starling(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(reason),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!out_path.exists(), "{args:?} wrote a proof");
    }
}

#[test]
fn verify_refuses_parameters_the_kind_does_not_take() {
    let proof = scratch("one-step.proof");
    let out = starling(&[
        "prove",
        "chain",
        "--hash",
        "sha256",
        "--start",
        &hex(&[7; 32]),
        "--steps",
        "1",
        "--out",
        path_str(&proof),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expect = lines_file("one-step", &[format!("{} 1", hex(&[7; 32]))]);
    for (extra, reason) in [
        (
            vec!["--hash", "sha256", "--scheme", "plain"],
            "--scheme is not a parameter of chain statements",
        ),
        (
            vec!["--hash", "sha256", "--bristol", "x.txt"],
            "--bristol is not a parameter of chain statements",
        ),
        (vec![], "need --hash"),
    ] {
        let mut args = vec![
            "verify",
            path_str(&proof),
            "--kind",
            "chain",
            "--expect",
            path_str(&expect),
        ];
        args.extend(&extra);
        let out = starling(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(reason),
            "{extra:?}: {}",
            text(&out.stderr)
        );
    }
    let out = starling(&[
        "verify",
        path_str(&proof),
        "--kind",
        "sha256",
        "--hash",
        "sha256",
        "--expect",
        path_str(&expect),
    ]);
    assert!(
        text(&out.stderr).contains("--hash is not a parameter of sha256 statements"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bench_json_counts_compressions() {
    for args in [
        vec![
            "bench",
            "digest",
            "--hash",
            "sha256",
            "--msg-len",
            "100",
            "--count",
            "4",
        ],
        vec!["bench", "chain", "--hash", "keccak-256", "--steps", "4"],
        vec![
            "bench",
            "digest",
            "--hash",
            "sha512",
            "--msg-len",
            "200",
            "--count",
            "4",
        ],
        vec![
            "bench",
            "merkle-root",
            "--hash",
            "sha512",
            "--scheme",
            "plain",
            "--leaves",
            "4",
        ],
        vec![
            "bench",
            "merkle-root",
            "--hash",
            "sha256",
            "--scheme",
            "bitcoin",
            "--leaves",
            "3",
        ],
    ] {
        let mut args = args.clone();
        args.extend(["--threads", "1", "--json"]);
        let out = starling(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        for key in [
            "kind",
            "count",
            "compressions",
            "compressions_per_s",
            "hashes_per_s",
            "proof_bytes",
            "verify_ms",
            "security_bits",
        ] {
            assert!(v.get(key).is_some(), "{args:?}: missing {key}");
        }
        let compressions = v["compressions"].as_u64().unwrap();
        // 100 bytes are two SHA-256 blocks, 200 two SHA-512 blocks; a
        // 4-link chain is 4 calls; a bitcoin tree over 3 leaves has 3 nodes
        // of 2 + 1 calls each; a plain SHA-512 tree over 4 leaves 3 nodes
        // of 128 bytes, two blocks each.
        let want = match (args[1], args[3]) {
            ("digest", _) => 8,
            ("chain", _) => 4,
            (_, "sha512") => 6,
            _ => 9,
        };
        assert_eq!(compressions, want, "{args:?}");
    }
}
