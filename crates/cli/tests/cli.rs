//! The `starling` command as users run it: exit codes, output lines, errors.

mod common;

use common::{starling, text};

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("starling-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The NIST "abc" block: SHA-256("abc") is one compression from the IV.
const IV: &str = "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19";
const ABC_BLOCK: &str = "6162638000000000000000000000000000000000000000000000000000000000\
                         0000000000000000000000000000000000000000000000000000000000000018";
const ABC_DIGEST: &str = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

#[test]
fn prove_verify_print_outputs_inspect() {
    let inputs = tmp("abc.txt");
    std::fs::write(
        &inputs,
        format!("# SHA-256(\"abc\")\n\n{IV} {ABC_BLOCK}\n{IV} {ABC_BLOCK}\n"),
    )
    .unwrap();
    let proof = tmp("abc.proof");
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        inputs.to_str().unwrap(),
        "--out",
        proof.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out = starling(&["verify", proof.to_str().unwrap(), "--print-outputs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("OK"), "{stdout}");
    assert_eq!(&lines[1..], &[ABC_DIGEST, ABC_DIGEST]);

    let out = starling(&["inspect", proof.to_str().unwrap()]);
    assert!(out.status.success());
    let report = text(&out.stdout);
    for want in [
        "sha256",
        "N              2",
        "profile        default",
        "security",
        "opening",
    ] {
        assert!(report.contains(want), "inspect output lacks {want:?}:\n{report}");
    }

    // A tampered proof: exit 1 and one line.
    let mut bytes = std::fs::read(&proof).unwrap();
    let last = bytes.len() - 100;
    bytes[last] ^= 1;
    let bad = tmp("bad.proof");
    std::fs::write(&bad, &bytes).unwrap();
    let out = starling(&["verify", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr).lines().count(), 1, "{}", text(&out.stderr));
}

#[test]
fn random_inputs_and_stdin() {
    let proof = tmp("random.proof");
    let out = starling(&[
        "prove",
        "sha256",
        "--random",
        "5",
        "--seed",
        "9",
        "--out",
        proof.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = starling(&["verify", proof.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));

    let mut child = Command::new(env!("CARGO_BIN_EXE_starling"))
        .args([
            "prove",
            "sha256",
            "--inputs",
            "-",
            "--out",
            tmp("stdin.proof").to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{IV} {ABC_BLOCK}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn bad_inputs_exit_2_with_the_line() {
    let cases = [
        (format!("{IV} {ABC_BLOCK}\n{IV}0 {ABC_BLOCK}\n"), "line 2"),
        (format!("{} {ABC_BLOCK}\n", &IV[..63]), "line 1"),
        (format!("{IV} {}x\n", &ABC_BLOCK[..127]), "line 1"),
        ("# only a comment\n".to_string(), "N must be at least 1"),
    ];
    for (content, want) in cases {
        let f = tmp("bad-input.txt");
        std::fs::write(&f, content).unwrap();
        let out = starling(&[
            "prove",
            "sha256",
            "--inputs",
            f.to_str().unwrap(),
            "--out",
            tmp("x.proof").to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains(want), "{err}");
        // Named as verify names its expected inputs: `FILE: line N: ...`.
        assert!(err.starts_with(&format!("error: {}: ", f.display())), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = starling(&["prove", "sha256", "--inputs", "-", "--out", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: stdin: no inputs"),
        "{}",
        text(&out.stderr)
    );
    let out = starling(&["prove", "sha256", "--inputs", "/nonexistent/inputs", "--out", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let out = starling(&["verify", "/nonexistent/proof"]);
    assert_eq!(out.status.code(), Some(2));
    let junk = tmp("junk.proof");
    std::fs::write(&junk, b"not a proof at all").unwrap();
    let out = starling(&["verify", junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stderr).contains("panicked"));
    let out = starling(&["prove", "sha256", "--random", "0", "--seed", "1", "--out", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let out = starling(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_json_has_the_keys() {
    let out = starling(&["bench", "sha256", "--count", "64", "--threads", "1", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    for key in [
        "hash",
        "count",
        "threads",
        "prove_s",
        "hashes_per_s",
        "native_ns",
        "overhead",
        "native_best_ns",
        "overhead_best",
        "proof_bytes",
        "verify_ms",
        "peak_rss_bytes",
        "huge_page_bytes",
        "security_bits",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    // Memory on huge pages is resident, so within the peak (null off Linux).
    if let Some(huge) = v["huge_page_bytes"].as_u64() {
        assert!(huge <= v["peak_rss_bytes"].as_u64().unwrap(), "{v}");
    }
    // The best native code is never slower than the portable yardstick.
    let (best, portable) = (
        v["native_best_ns"].as_f64().unwrap(),
        v["native_ns"].as_f64().unwrap(),
    );
    assert!(
        0.0 < best && best <= portable,
        "best {best} ns, portable {portable} ns"
    );
    assert!(v["overhead_best"].as_f64().unwrap() >= v["overhead"].as_f64().unwrap());
    assert_eq!(v["count"], 64);
    assert_eq!(v["threads"], 1);
}

fn starling_with_tier(tier: &str, args: &[&str]) -> Output {
    starling_with_cpu(tier, None, args)
}

/// The binary under tier `tier`, with `STARLING_CPU_WITHOUT` set to
/// `without` where given and otherwise as this process has it.
fn starling_with_cpu(tier: &str, without: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_starling"));
    command
        .args(args)
        .env("STARLING_CPU_TIER", tier)
        .env_remove("STARLING_FORCE_PORTABLE");
    if let Some(without) = without {
        command.env("STARLING_CPU_WITHOUT", without);
    }
    command.stdin(Stdio::null()).output().expect("the binary runs")
}

/// A `bench --json` of sixteen SHA-256 compressions: enough to report the
/// CPU tier and extensions.
const TINY_BENCH: [&str; 9] = [
    "bench",
    "sha256",
    "--count",
    "16",
    "--threads",
    "1",
    "--runs",
    "1",
    "--json",
];

/// The ways of withholding the AVX2 tier's extensions, as
/// `STARLING_CPU_WITHOUT` values.
const WITHHOLDINGS: [&str; 4] = ["", "gfni", "vpclmulqdq", "gfni,vpclmulqdq"];

#[test]
fn cpu_tier_is_forced_reported_or_refused() {
    use starling::cpu::Tier;
    for tier in Tier::ALL {
        let out = starling_with_tier(tier.name(), &TINY_BENCH);
        if tier.runs_here() {
            assert!(out.status.success(), "{tier}: {}", text(&out.stderr));
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
            assert_eq!(v["cpu_tier"], tier.name());
        } else {
            assert_eq!(out.status.code(), Some(2), "{tier}");
            let err = text(&out.stderr);
            assert!(
                err.contains("STARLING_CPU_TIER") && err.contains("portable"),
                "{err}"
            );
        }
    }
    let out = starling_with_tier("avx3", &["digest", "--kind", "sha256"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a tier"), "{}", text(&out.stderr));
}

/// `STARLING_CPU_WITHOUT` takes the AVX2 tier's extensions away one by one
/// (`bench --json` names those left in `cpu_extensions`), takes the
/// AVX-512 tier with either, and refuses names it does not know.
#[test]
fn cpu_extensions_are_withheld_reported_or_refused() {
    use starling::cpu::{Extension, Tier};
    // What this CPU has, asked without withholding anything.
    let out = starling_with_cpu("avx2", Some(""), &TINY_BENCH);
    if !out.status.success() {
        assert!(!Tier::Avx2.runs_here(), "{}", text(&out.stderr));
        eprintln!("skipped: this CPU does not run the AVX2 tier");
        return;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let has: Vec<String> = v["cpu_extensions"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| e.as_str().expect("a name").to_string())
        .collect();
    assert!(has.iter().all(|e| Extension::from_name(e).is_some()), "{has:?}");
    for without in WITHHOLDINGS {
        let out = starling_with_cpu("avx2", Some(without), &TINY_BENCH);
        assert!(out.status.success(), "{without}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let want: Vec<&String> = has
            .iter()
            .filter(|e| !without.split(',').any(|w| w == e.as_str()))
            .collect();
        let got: Vec<&str> = v["cpu_extensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        assert_eq!(got, want, "withheld {without:?}");
        assert_eq!(v["cpu_tier"], "avx2");
        if !without.is_empty() {
            let out = starling_with_cpu("avx512", Some(without), &["digest", "--kind", "sha256"]);
            assert_eq!(out.status.code(), Some(2), "avx512 without {without}");
            assert!(
                text(&out.stderr).contains("STARLING_CPU_TIER=avx512"),
                "{}",
                text(&out.stderr)
            );
        }
    }
    let out = starling_with_cpu("avx2", Some("gfni,avx9"), &["digest", "--kind", "sha256"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("STARLING_CPU_WITHOUT") && err.contains("avx9"),
        "{err}"
    );
}

/// The same inputs give the same proof bytes under every tier this CPU runs
/// (the AVX2 tier with each set of its extensions withheld too) and on one
/// or two threads.
#[test]
fn proofs_are_identical_across_tiers_and_threads() {
    use starling::cpu::Tier;
    let mut setups: Vec<(Tier, Option<&str>)> = Tier::supported().into_iter().map(|t| (t, None)).collect();
    if Tier::Avx2.runs_here() {
        setups.extend(WITHHOLDINGS.iter().skip(1).map(|&w| (Tier::Avx2, Some(w))));
    }
    for kind in ["sha256", "blake3", "keccak-f1600"] {
        let mut first: Option<(String, Vec<u8>)> = None;
        for &(tier, without) in &setups {
            for threads in ["1", "2"] {
                let without_label = without.map(|w| format!(" without {w}")).unwrap_or_default();
                let proof = tmp(&format!(
                    "tiers-{kind}-{tier}{}-{threads}.proof",
                    without
                        .map(|w| format!("-no-{}", w.replace(',', "-")))
                        .unwrap_or_default()
                ));
                let out = starling_with_cpu(
                    tier.name(),
                    without,
                    &[
                        "prove",
                        kind,
                        "--random",
                        "20",
                        "--seed",
                        "11",
                        "--threads",
                        threads,
                        "--out",
                        proof.to_str().unwrap(),
                    ],
                );
                assert!(
                    out.status.success(),
                    "{kind} {tier}{without_label}: {}",
                    text(&out.stderr)
                );
                let bytes = std::fs::read(&proof).unwrap();
                let label = format!("{kind} under {tier}{without_label} on {threads} threads");
                match &first {
                    None => first = Some((label, bytes)),
                    Some((l, b)) => assert!(*b == bytes, "{label} differs from {l}"),
                }
            }
        }
    }
}

/// A prove interrupted by SIGINT or SIGTERM removes its temporary file and
/// exits 128 plus the signal's number, as a shell reports it.
#[cfg(unix)]
#[test]
fn an_interrupted_prove_leaves_no_file() {
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let dir = tmp(&format!("interrupted-{signal}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("big.proof");
        // 2^16 compressions take a second or more on one thread; the
        // signal comes as soon as the temporary file is there.
        let mut child = Command::new(env!("CARGO_BIN_EXE_starling"))
            .args([
                "prove",
                "sha256",
                "--random",
                "65536",
                "--seed",
                "1",
                "--threads",
                "1",
                "--quiet",
            ])
            .arg("--out")
            .arg(&out)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let listed = || -> Vec<String> {
            std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        };
        let started = std::time::Instant::now();
        while listed().is_empty() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "prove ended before its temporary file was seen"
            );
            assert!(
                started.elapsed().as_secs() < 60,
                "no temporary file after a minute"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        // SAFETY: a signal to this test's own child, which has not been
        // waited for yet.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let run = child.wait_with_output().unwrap();
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(code), "signal {signal}: {err}");
        assert!(err.contains("interrupted by SIG"), "{err}");
        assert_eq!(listed(), Vec::<String>::new(), "signal {signal}: files left");
    }
}

/// Output to a pipe closed early (`verify --json | head`) ends `verify` by
/// SIGPIPE, as other Unix tools end, not with a panic reported as a bug.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_verify_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let proof = tmp("closed-pipe.proof");
    let proof_path = proof.to_str().unwrap();
    let made = starling(&[
        "prove", "sha256", "--random", "4096", "--seed", "3", "--quiet", "--out", proof_path,
    ]);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made.stderr));
    // 4,096 outputs of 64 hex digits: more than a pipe holds, so the write
    // is still going when the reader leaves.
    let mut child = Command::new(env!("CARGO_BIN_EXE_starling"))
        .args(["verify", proof_path, "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let run = child.wait_with_output().unwrap();
    let err = text(&run.stderr);
    assert!(!err.contains("internal error"), "{err}");
    assert_eq!(
        run.status.signal(),
        Some(libc::SIGPIPE),
        "{:?}: {err}",
        run.status
    );
}

/// `--out` names a regular file or nothing: a device, a FIFO, a link or a
/// folder is refused (exit 2) and left as it was (the rename over it
/// replaced it, as root deleting a device node).
#[cfg(unix)]
#[test]
fn out_is_a_regular_file_or_nothing() {
    let prove = |out: &std::path::Path| {
        starling(&[
            "prove",
            "sha256",
            "--random",
            "2",
            "--seed",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let dir = tmp("out-targets");
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("target.txt");
    std::fs::write(&target, b"keep me").unwrap();
    let link = dir.join("link.proof");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = dir.join("fifo.proof");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut refused = vec![link.clone(), dir.clone(), PathBuf::from("/dev/null")];
    if made {
        refused.push(fifo.clone());
    }
    for out in &refused {
        let run = prove(out);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{}: {}",
            out.display(),
            text(&run.stderr)
        );
        assert!(
            text(&run.stderr).contains("not a regular file"),
            "{}",
            text(&run.stderr)
        );
    }
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert!(std::path::Path::new("/dev/null").exists());
    // A regular file is written, and no temporary file is left.
    let out = dir.join("x.proof");
    let _ = std::fs::remove_file(&out);
    let run = prove(&out);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(std::fs::metadata(&out).unwrap().file_type().is_file());
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") && std::fs::symlink_metadata(dir.join(n)).is_ok_and(|m| m.is_file()))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn a_security_floor_that_is_not_a_number_is_refused() {
    for floor in ["NaN", "inf", "-inf"] {
        let flag = format!("--min-security={floor}");
        let out = starling(&["verify", "/nonexistent/proof", &flag]);
        assert_eq!(out.status.code(), Some(2), "{floor}");
        assert!(text(&out.stderr).contains("finite"), "{}", text(&out.stderr));
    }
}

/// A proof of another kind than `--kind` is rejected as such (exit 1),
/// before the expected inputs are read as that kind's (which here would be
/// a malformed file, exit 2).
#[test]
fn a_proof_of_another_kind_is_rejected_as_such() {
    let inputs = tmp("kind-first.inputs");
    std::fs::write(&inputs, format!("{IV} {ABC_BLOCK}\n")).unwrap();
    let proof = tmp("kind-first.proof");
    let (inputs, proof) = (inputs.to_str().unwrap(), proof.to_str().unwrap());
    let made = starling(&["prove", "sha256", "--inputs", inputs, "--out", proof]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let out = starling(&[
        "verify", proof, "--expect", inputs, "--kind", "digest", "--hash", "sha256",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("sha256 compressions"),
        "{}",
        text(&out.stderr)
    );
    let out = starling(&["verify", proof, "--expect", inputs, "--kind", "sha256"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}
