//! `verify --expect`: of a set of look-alike proofs (other circuits with the
//! same outputs, other inputs, other N, other kinds, tampered files), exactly
//! the honest one is accepted, and each rejection names the first
//! difference in one line with exit code 1.

mod common;

use common::{path_str, scratch, starling, text};

use std::path::{Path, PathBuf};
use std::process::Output;

/// Writes `lines` as an inputs file.
fn inputs_file(name: &str, lines: &[String]) -> PathBuf {
    let path = scratch(&format!("{name}.txt"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// `starling prove WHAT... --inputs (lines) --out NAME.proof [extra...]`.
fn prove(name: &str, what: &[&str], lines: &[String], extra: &[&str]) -> PathBuf {
    let inputs = inputs_file(&format!("{name}-inputs"), lines);
    let proof = scratch(&format!("{name}.proof"));
    let mut args = vec!["prove"];
    args.extend_from_slice(what);
    args.extend(["--inputs", path_str(&inputs), "--out", path_str(&proof)]);
    args.extend_from_slice(extra);
    let out = starling(&args);
    assert_eq!(out.status.code(), Some(0), "prove {name}: {}", text(&out.stderr));
    proof
}

/// `starling verify PROOF --expect FILE --kind KIND [--bristol C] [extra...]`.
fn verify_expect(proof: &Path, expect: &Path, kind: &str, bristol: Option<&Path>, extra: &[&str]) -> Output {
    let mut params = Vec::new();
    if let Some(c) = bristol {
        params.extend(["--bristol", path_str(c)]);
    }
    params.extend_from_slice(extra);
    common::verify_expect(proof, expect, kind, &params)
}

/// Exit 1 with one line on stderr that contains `want`.
fn assert_rejected(out: &Output, want: &str, case: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{case}: exit code; stderr: {err}");
    assert!(err.contains(want), "{case}: stderr lacks {want:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: not one line: {err}");
}

const SHA256_IV: &str = "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19";

/// Four SHA-256 compression lines: `abc` from the IV, then three others.
fn sha256_lines() -> Vec<String> {
    let abc = format!("616263{}{}18", "80", "00".repeat(59));
    let mut lines = vec![format!("{SHA256_IV} {abc}")];
    for i in 1..4u8 {
        lines.push(format!(
            "{} {}",
            format!("{i:02x}").repeat(32),
            format!("{:02x}", 0x40 + i).repeat(64)
        ));
    }
    lines
}

/// Flips bit `bit` of hex digit `digit` of field `field` of `line`.
fn flip(line: &str, field: usize, digit: usize) -> String {
    let mut fields: Vec<String> = line.split(' ').map(str::to_owned).collect();
    let mut chars: Vec<char> = fields[field].chars().collect();
    let d = chars[digit].to_digit(16).unwrap() ^ 1;
    chars[digit] = char::from_digit(d, 16).unwrap();
    fields[field] = chars.into_iter().collect();
    fields.join(" ")
}

/// A copy of a proof file with byte `at` (from the end when negative) flipped.
fn tampered(proof: &Path, name: &str, at: isize) -> PathBuf {
    let mut bytes = std::fs::read(proof).unwrap();
    let i = if at < 0 {
        (bytes.len() as isize + at) as usize
    } else {
        at as usize
    };
    bytes[i] ^= 1;
    let out = scratch(name);
    std::fs::write(&out, bytes).unwrap();
    out
}

/// The first output byte of a 4-instance SHA-256 proof: the header (12
/// bytes), the empty parameters (4), the input count (8) and 4 records of 96
/// bytes, the output count (8).
const OUTPUT_AT: isize = 12 + 4 + 8 + 4 * 96 + 8;

/// A byte inside its zerocheck section: past the outputs (4 x 32), the
/// commitment and grinding sections (4 + 32, 4 + 8) and the zerocheck's
/// length, 10 more.
const ZEROCHECK_AT: isize = OUTPUT_AT + 4 * 32 + 36 + 12 + 4 + 10;

#[test]
fn a_differing_input_names_its_line_in_the_expected_file() {
    let lines = sha256_lines();
    let proof = prove("sha-lines", &["sha256"], &lines, &[]);
    // Comments and blank lines before and between the records: input 3 is
    // on line 9.
    let mut v = lines.clone();
    v[3] = flip(&v[3], 1, 127);
    let commented = [
        "# four compressions".to_string(),
        String::new(),
        v[0].clone(),
        v[1].clone(),
        "# the last two".to_string(),
        String::new(),
        v[2].clone(),
        "   ".to_string(),
        v[3].clone(),
    ];
    let expect = inputs_file("sha-lines-expected", &commented);
    assert_rejected(
        &verify_expect(&proof, &expect, "sha256", None, &[]),
        &format!(
            "input 3 (0-based, in line order) differs first in its block ({}: line 9)",
            path_str(&expect)
        ),
        "a changed block on line 9",
    );
}

#[test]
fn only_the_honest_sha256_proof_matches_the_expected_statement() {
    let lines = sha256_lines();
    let expect = inputs_file("sha-expected", &lines);
    let honest = prove("sha-honest", &["sha256"], &lines, &[]);
    let out = verify_expect(&honest, &expect, "sha256", None, &["--print-outputs"]);
    assert_eq!(out.status.code(), Some(0), "honest: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("OK sha256 N=4 circuit="), "{stdout}");
    assert_eq!(
        stdout.lines().nth(1),
        Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    );

    let mut look_alikes: Vec<(&str, PathBuf, &str)> = Vec::new();
    let mut with = |case: &'static str, lines: Vec<String>, want: &'static str| {
        look_alikes.push((case, prove(case, &["sha256"], &lines, &[]), want));
    };
    let mut v = lines.clone();
    v[0] = flip(&v[0], 0, 5);
    with(
        "cv bit of instance 0",
        v,
        "input 0 (0-based, in line order) differs first in its chaining value",
    );
    let mut v = lines.clone();
    v[3] = flip(&v[3], 1, 127);
    with(
        "block bit of instance 3",
        v,
        "input 3 (0-based, in line order) differs first in its block",
    );
    with(
        "one instance fewer",
        lines[..3].to_vec(),
        "3 compressions, expected 4",
    );
    let mut v = lines.clone();
    v.push(lines[0].clone());
    with("one instance more", v, "5 compressions, expected 4");
    let mut v = lines.clone();
    v.swap(1, 2);
    with("two instances swapped", v, "input 1 (0-based, in line order)");
    let mut v = lines.clone();
    v[1] = lines[0].clone();
    with("an instance repeated", v, "input 1 (0-based, in line order)");
    let mut v = lines.clone();
    v[2] = flip(&v[2], 0, 63);
    v[3] = flip(&v[3], 0, 0);
    with(
        "two instances changed",
        v,
        "input 2 (0-based, in line order) differs first in its chaining value",
    );

    // Other kinds and circuits, including ones with the very same outputs.
    look_alikes.push((
        "a blake3 proof",
        prove(
            "blake3",
            &["blake3"],
            &[format!("{} {} 0 64 11", "00".repeat(32), "ab".repeat(64))],
            &[],
        ),
        "it proves blake3 compressions, expected sha256 compressions",
    ));
    look_alikes.push((
        "a keccak-f1600 proof",
        prove("keccak", &["keccak-f1600"], &["00".repeat(200)], &[]),
        "it proves keccak-f1600 permutations",
    ));
    if let Some(bristol_sha) = common::vector_path("bristol/sha256.txt") {
        // The Bristol SHA-256: the same compressions and the same outputs
        // (its inputs are block then chaining value).
        let swapped: Vec<String> = lines
            .iter()
            .map(|l| {
                let (cv, block) = l.split_once(' ').unwrap();
                format!("{block} {cv}")
            })
            .collect();
        look_alikes.push((
            "the Bristol SHA-256 circuit on the same compressions",
            prove(
                "bristol-sha",
                &["circuit", "--bristol", path_str(&bristol_sha)],
                &swapped,
                &[],
            ),
            "it proves circuit evaluations, expected sha256 compressions",
        ));
    }
    look_alikes.push((
        "a flipped byte in the opening",
        tampered(&honest, "tampered-opening.proof", -100),
        "the proof does not prove the statement it carries",
    ));
    look_alikes.push((
        "a flipped byte in the zerocheck",
        tampered(&honest, "tampered-zerocheck.proof", ZEROCHECK_AT),
        "the proof does not prove the statement it carries",
    ));
    // An output changed in the file's statement.
    look_alikes.push((
        "an output changed",
        tampered(&honest, "tampered-output.proof", OUTPUT_AT),
        "the proof does not prove the statement it carries",
    ));

    for (case, proof, want) in &look_alikes {
        assert_rejected(&verify_expect(proof, &expect, "sha256", None, &[]), want, case);
    }

    // A stronger profile of the same statement is the same statement.
    let secure = prove("sha-secure", &["sha256"], &lines, &["--profile", "secure"]);
    let out = verify_expect(&secure, &expect, "sha256", None, &["--min-security", "120"]);
    assert_eq!(out.status.code(), Some(0), "secure: {}", text(&out.stderr));
    // The default profile is refused where more is required.
    assert_rejected(
        &verify_expect(&honest, &expect, "sha256", None, &["--min-security", "110"]),
        "the proof is weaker than required",
        "--min-security 110",
    );
    // A cut file is unreadable (exit 2), not a rejection.
    let bytes = std::fs::read(&honest).unwrap();
    let cut = scratch("cut.proof");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    assert_eq!(
        verify_expect(&cut, &expect, "sha256", None, &[]).status.code(),
        Some(2)
    );
}

/// Bit `b` of a Bristol value given as big-endian hex.
fn value_bit(hex: &str, b: usize) -> u8 {
    let digits: Vec<u32> = hex.chars().rev().map(|c| c.to_digit(16).unwrap()).collect();
    ((digits[b / 4] >> (b % 4)) & 1) as u8
}

/// A circuit with AES-128's inputs and outputs that ignores its inputs and
/// outputs `ciphertext` through 128 EQ gates.
fn constant_circuit(ciphertext: &str) -> String {
    let mut t = String::from("128 384\n2 128 128\n1 128\n\n");
    for b in 0..128 {
        t.push_str(&format!("1 1 {} {} EQ\n", value_bit(ciphertext, b), 256 + b));
    }
    t
}

#[test]
fn only_the_honest_aes_proof_matches_the_expected_statement() {
    let Some(aes) = common::vector_path("bristol/aes_128.txt") else {
        return;
    };
    // FIPS-197 appendix C.1 and appendix B.
    let lines = vec![
        "000102030405060708090a0b0c0d0e0f 00112233445566778899aabbccddeeff".to_string(),
        "2b7e151628aed2a6abf7158809cf4f3c 3243f6a8885a308d313198a2e0370734".to_string(),
    ];
    let expect = inputs_file("aes-expected", &lines);
    let aes_args = ["circuit", "--bristol", path_str(&aes)];
    let honest = prove("aes-honest", &aes_args, &lines, &[]);
    let out = verify_expect(&honest, &expect, "circuit", Some(&aes), &["--print-outputs"]);
    assert_eq!(out.status.code(), Some(0), "honest: {}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).lines().nth(1),
        Some("69c4e0d86a7b0430d8cdb78070b4c55a")
    );

    let aes_text = std::fs::read_to_string(&aes).unwrap();
    let write_circuit = |name: &str, t: &str| {
        let p = scratch(name);
        std::fs::write(&p, t).unwrap();
        p
    };
    // The same circuit, spaced differently: the same digest, the same statement.
    let respaced = write_circuit("aes-respaced.txt", &aes_text.replace('\n', " \n"));
    let same = prove(
        "aes-respaced",
        &["circuit", "--bristol", path_str(&respaced)],
        &lines,
        &[],
    );
    let out = verify_expect(&same, &expect, "circuit", Some(&aes), &[]);
    assert_eq!(out.status.code(), Some(0), "respaced: {}", text(&out.stderr));

    let constant = write_circuit(
        "aes-constant.txt",
        &constant_circuit("69c4e0d86a7b0430d8cdb78070b4c55a"),
    );
    // The last gate of AES with XOR and AND exchanged where it is an XOR.
    let last_xor = aes_text.rfind(" XOR").unwrap();
    let mut altered = aes_text.clone();
    altered.replace_range(last_xor..last_xor + 4, " AND");
    let altered = write_circuit("aes-altered.txt", &altered);
    let adder = common::vector_path("bristol/adder64.txt");

    let mut cases: Vec<(&str, PathBuf, &str)> = vec![
        (
            "128 EQ gates printing the ciphertext",
            prove(
                "aes-constant",
                &["circuit", "--bristol", path_str(&constant)],
                &lines,
                &[],
            ),
            "the proof was made for a different circuit",
        ),
        (
            "AES with one XOR made an AND",
            prove(
                "aes-altered",
                &["circuit", "--bristol", path_str(&altered)],
                &lines,
                &[],
            ),
            "the proof was made for a different circuit",
        ),
        (
            "another key bit",
            prove(
                "aes-key",
                &aes_args,
                &[flip(&lines[0], 0, 31), lines[1].clone()],
                &[],
            ),
            "input 0 (0-based, in line order) differs first in its input value 1",
        ),
        (
            "another plaintext bit",
            prove(
                "aes-pt",
                &aes_args,
                &[lines[0].clone(), flip(&lines[1], 1, 0)],
                &[],
            ),
            "input 1 (0-based, in line order) differs first in its input value 2",
        ),
        (
            "one instance",
            prove("aes-one", &aes_args, &lines[..1], &[]),
            "1 evaluation, expected 2",
        ),
        (
            "a sha256 proof",
            prove("aes-sha", &["sha256"], &sha256_lines(), &[]),
            "it proves sha256 compressions, expected circuit evaluations",
        ),
    ];
    if let Some(adder) = &adder {
        cases.push((
            "another Bristol circuit",
            prove(
                "adder",
                &["circuit", "--bristol", path_str(adder)],
                &[format!("{} {}", "0".repeat(16), "1".repeat(16))],
                &[],
            ),
            "the proof was made for a different circuit",
        ));
    }
    for (case, proof, want) in &cases {
        assert_rejected(
            &verify_expect(proof, &expect, "circuit", Some(&aes), &[]),
            want,
            case,
        );
    }
}

#[test]
fn digest_prints_what_verify_reports() {
    let lines = sha256_lines();
    let proof = prove("digest-sha", &["sha256"], &lines, &[]);
    let out = starling(&["digest", "--kind", "sha256"]);
    assert_eq!(out.status.code(), Some(0));
    let digest = text(&out.stdout).trim().to_string();
    assert_eq!(digest.len(), 64);
    let out = starling(&["verify", path_str(&proof)]);
    assert!(
        text(&out.stdout).contains(&format!("circuit={digest} ")),
        "{}",
        text(&out.stdout)
    );
    let Some(aes) = common::vector_path("bristol/aes_128.txt") else {
        return;
    };
    let out = starling(&["digest", "--bristol", path_str(&aes)]);
    assert_eq!(out.status.code(), Some(0));
    assert_ne!(text(&out.stdout).trim(), digest);
    let out = starling(&["inspect", path_str(&proof)]);
    assert!(
        text(&out.stdout).starts_with("NOT VERIFIED"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains(&digest));
}
