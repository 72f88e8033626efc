//! `starling prove signatures`, `verify --kind signatures`, `inspect` and
//! `bench signatures` through the binary: the contract's exit codes and
//! messages, on signatures sampled by the library.

mod common;

use common::{path_str, starling, text};
use starling::kind::{SampleSignatures, TextFormat};

use std::path::{Path, PathBuf};
use std::process::Output;

use starling::kind::{LmsSet, SignatureScheme, Signatures};
use starling::{Kind, Records};

const SCHEME: &str = "lms-sha256-m32-h5-w4";

/// A folder private to one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("starling-signatures-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn kind() -> Signatures {
    Signatures::new(SignatureScheme::Lms(LmsSet::new(32, 5, 4).unwrap()))
}

/// `count` prover lines `PK MSG SIG` and the expected lines `PK MSG`.
fn batch(count: usize, seed: u64) -> (Vec<String>, Vec<String>) {
    let kind = kind();
    let (public, private): (Records, Records) = kind.random_batch(count, 7, seed);
    let prover = kind
        .prover_lines(&public, &private)
        .lines()
        .map(str::to_owned)
        .collect();
    let expected = public.iter().map(|r| kind.format_input(r)).collect();
    (prover, expected)
}

fn write(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn prove(dir: &Path, lines: &[String]) -> (Output, PathBuf) {
    let batch = write(dir, "batch.txt", lines);
    let proof = dir.join("batch.proof");
    let out = starling(&[
        "prove",
        "signatures",
        "--scheme",
        SCHEME,
        "--batch",
        path_str(&batch),
        "--out",
        path_str(&proof),
    ]);
    (out, proof)
}

fn verify_expect(proof: &Path, expect: &Path, scheme: &str) -> Output {
    starling(&[
        "verify",
        path_str(proof),
        "--kind",
        "signatures",
        "--scheme",
        scheme,
        "--expect",
        path_str(expect),
    ])
}

/// The files in `dir` other than those named.
fn others(dir: &Path, names: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !names.contains(&n.as_str()))
        .collect()
}

#[test]
fn a_batch_proves_verifies_and_inspects() {
    let dir = folder("valid");
    let (prover, expected) = batch(3, 1);
    let (out, proof) = prove(&dir, &prover);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expect = write(&dir, "expect.txt", &expected);
    let out = verify_expect(&proof, &expect, SCHEME);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("OK signatures --scheme {SCHEME} N=3")));
    let out = starling(&["verify", path_str(&proof)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("OK signatures --scheme {SCHEME} N=3")));
    let out = starling(&["inspect", path_str(&proof)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("signatures"), "{}", text(&out.stdout));
}

#[test]
fn an_invalid_signature_exits_1_naming_its_line_and_writes_nothing() {
    for (bad, line) in [(0usize, 1usize), (2, 3), (4, 5)] {
        let dir = folder(&format!("invalid-{bad}"));
        let (mut prover, _) = batch(5, 2);
        // One hex digit of a chain value: still a well-formed signature.
        let fields: Vec<&str> = prover[bad].split(' ').collect();
        let mut sig = fields[2].to_owned();
        let at = 2 * 40 + 3;
        let digit = if &sig[at..at + 1] == "0" { "1" } else { "0" };
        sig.replace_range(at..at + 1, digit);
        prover[bad] = format!("{} {} {sig}", fields[0], fields[1]);
        let (out, _) = prove(&dir, &prover);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(&format!("line {line}: signature does not verify")),
            "{err}"
        );
        assert_eq!(
            others(&dir, &["batch.txt"]),
            Vec::<String>::new(),
            "files left behind"
        );
    }
}

#[test]
fn malformed_lines_exit_2_naming_the_line() {
    let kind = kind();
    let set = LmsSet::new(32, 5, 4).unwrap();
    let (prover, _) = batch(2, 3);
    let fields: Vec<String> = prover[1].split(' ').map(str::to_owned).collect();
    let (pk, msg, sig) = (&fields[0], &fields[1], &fields[2]);
    let q_past = {
        let mut s = sig.clone();
        s.replace_range(0..8, &format!("{:08x}", 1u32 << set.h));
        s
    };
    let typecode = |at: usize, s: &str| {
        let mut s = s.to_owned();
        s.replace_range(2 * at..2 * at + 8, "0000000c");
        s
    };
    let cases = [
        (format!("{pk} {msg}"), "expected 3 fields"),
        (format!("{pk} {msg} {sig} 00"), "expected 3 fields"),
        (format!("{pk} {msg} {}", &sig[1..]), "odd"),
        (format!("{pk} {msg} x{}", &sig[1..]), "not a hex digit"),
        (format!("{} {msg} {sig}", &pk[2..]), "public key"),
        (format!("{pk} {msg} {}", &sig[2..]), "the signature has"),
        (format!("{} {msg} {sig}", typecode(0, pk)), "LMS typecode"),
        (format!("{} {msg} {sig}", typecode(4, pk)), "LM-OTS typecode"),
        (format!("{pk} {msg} {}", typecode(4, sig)), "LM-OTS typecode"),
        (
            format!("{pk} {msg} {}", typecode(40 + 32 * set.p(), sig)),
            "LMS typecode",
        ),
        (format!("{pk} {msg} {q_past}"), "at or past 2^5"),
    ];
    for (i, (line, want)) in cases.iter().enumerate() {
        let dir = folder(&format!("malformed-{i}"));
        let (out, _) = prove(&dir, &[prover[0].clone(), line.clone()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "case {i}: {err}");
        assert!(
            err.contains("line 2: ") && err.contains(want),
            "case {i}: want {want:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "case {i}: {err}");
    }
    assert_eq!(kind.noun(), "signature");
}

#[test]
fn expectations_that_differ_exit_1_and_signatures_are_refused() {
    let dir = folder("expect");
    let (prover, expected) = batch(3, 4);
    let (out, proof) = prove(&dir, &prover);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut flipped = expected.clone();
    let last = flipped[2].pop().unwrap();
    flipped[2].push(if last == '0' { '1' } else { '0' });
    let mut swapped = expected.clone();
    swapped.swap(0, 2);
    for (i, (lines, scheme)) in [
        (flipped, SCHEME),
        (swapped, SCHEME),
        (expected[..2].to_vec(), SCHEME),
        ([&expected[..], &expected[..1]].concat(), SCHEME),
    ]
    .into_iter()
    .enumerate()
    {
        let expect = write(&dir, &format!("expect-{i}.txt"), &lines);
        let out = verify_expect(&proof, &expect, scheme);
        assert_eq!(out.status.code(), Some(1), "case {i}: {}", text(&out.stderr));
    }
    let expect = write(&dir, "expect-other.txt", &expected);
    for scheme in ["lms-sha256-m32-h10-w4", "lms-sha256-m32-h5-w8"] {
        let out = verify_expect(&proof, &expect, scheme);
        assert_eq!(out.status.code(), Some(1), "{scheme}: {}", text(&out.stderr));
    }
    let with_sigs = write(&dir, "expect-sigs.txt", &prover);
    let out = verify_expect(&proof, &with_sigs, SCHEME);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("verify takes no signatures"), "{err}");
}

#[test]
fn bench_json_reports_the_native_verifier() {
    let out = starling(&[
        "bench",
        "signatures",
        "--scheme",
        SCHEME,
        "--count",
        "2",
        "--runs",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for key in [
        "\"count\":2",
        "\"native_compressions\"",
        "\"native_verify_ns\"",
        "\"overhead_best\"",
        "\"hashes_per_s\"",
        "\"compressions\"",
    ] {
        assert!(stdout.contains(key), "{key} missing: {stdout}");
    }
}

#[test]
fn slh_dsa_with_a_context_proves_and_another_context_or_interface_is_a_mismatch() {
    use starling::kind::{Interface, SlhDsa, SlhSet};
    let dir = folder("slh");
    let kind = Signatures::new(SignatureScheme::SlhDsa(
        SlhDsa::new(SlhSet::Sha2_128f, Interface::Pure(vec![0xab, 0xcd])).unwrap(),
    ));
    let (public, private) = kind.random_batch(2, 11, 6);
    let prover: Vec<String> = kind
        .prover_lines(&public, &private)
        .lines()
        .map(str::to_owned)
        .collect();
    let expected: Vec<String> = public.iter().map(|r| kind.format_input(r)).collect();
    let batch = write(&dir, "batch.txt", &prover);
    let proof = dir.join("batch.proof");
    let prove = |ctx: &str| {
        starling(&[
            "prove",
            "signatures",
            "--scheme",
            "slh-dsa-sha2-128f",
            "--ctx",
            ctx,
            "--batch",
            path_str(&batch),
            "--out",
            path_str(&proof),
        ])
    };
    let out = prove("abce");
    assert_eq!(
        out.status.code(),
        Some(1),
        "another context: {}",
        text(&out.stderr)
    );
    // Named as a malformed line is, and still exit 1: the file is read,
    // its statement is false.
    assert!(text(&out.stderr).contains(&format!(
        "{}: line 1: signature does not verify",
        path_str(&batch)
    )));
    let out = prove("abcd");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expect = write(&dir, "expect.txt", &expected);
    let verify = |flags: &[&str]| {
        let mut args = vec![
            "verify",
            path_str(&proof),
            "--kind",
            "signatures",
            "--scheme",
            "slh-dsa-sha2-128f",
            "--expect",
            path_str(&expect),
        ];
        args.extend_from_slice(flags);
        starling(&args)
    };
    let out = verify(&["--ctx", "abcd"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("OK signatures --scheme slh-dsa-sha2-128f --ctx abcd N=2"));
    for flags in [&["--ctx", "abce"][..], &[], &["--interface", "internal"]] {
        let out = verify(flags);
        assert_eq!(out.status.code(), Some(1), "{flags:?}: {}", text(&out.stderr));
    }
    let out = verify(&["--interface", "internal", "--ctx", "ab"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn the_rfc_8554_hss_vector_proves_and_other_level_counts_are_refused() {
    let dir = folder("hss");
    let vector =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../starling/tests/vectors/rfc8554-test-case-1.txt");
    let proof = dir.join("hss.proof");
    let prove = |scheme: &str| {
        starling(&[
            "prove",
            "signatures",
            "--scheme",
            scheme,
            "--batch",
            path_str(&vector),
            "--out",
            path_str(&proof),
        ])
    };
    // The key says two levels: another level count is a malformed line.
    let out = prove("hss-l3-lms-sha256-m32-h5-w8");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("line 5:"), "{}", text(&out.stderr));
    let scheme = "hss-l2-lms-sha256-m32-h5-w8";
    let out = prove(scheme);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let line = std::fs::read_to_string(&vector).unwrap();
    let fields: Vec<&str> = line.lines().last().unwrap().split(' ').collect();
    let expect = write(&dir, "expect.txt", &[format!("{} {}", fields[0], fields[1])]);
    let out = verify_expect(&proof, &expect, scheme);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("OK signatures --scheme {scheme} N=1")));
    let out = verify_expect(&proof, &expect, "hss-l2-lms-sha256-m32-h5-w4");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = starling(&["verify", path_str(&proof), "--print-outputs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l.len() == 128 && l.bytes().all(|b| b.is_ascii_hexdigit())),
        "two levels' Q per signature: {}",
        text(&out.stdout)
    );
}
