//! Files and arguments from strangers: every declared size is checked before
//! it is allocated, every read is bounded, exit codes mean one thing (0
//! verified, 1 rejected, 2 unreadable or bad usage, 3 a bug), messages name
//! what is wrong, and `--out` is never half-written nor an input.
//!
//! The bombs run in a child process under `ulimit -v` (64 MiB of address
//! space), set here so that the limit cannot be skipped: a decoder that
//! allocates what a header declares dies instead of exiting 2.

mod common;

use common::{path_str, scratch, starling, text};

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Address space of a bounded child: what a verifier of small files may use.
const LIMIT_KIB: u64 = 64 << 10;

/// The command under `ulimit -v LIMIT_KIB`.
fn starling_bounded(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_starling"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Exit `code` with exactly one line on stderr containing `want`, no panic.
fn assert_exit(out: &Output, code: i32, want: &str, case: &str) {
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{case}: exit status {:?}; stderr: {err}",
        out.status
    );
    assert!(err.contains(want), "{case}: stderr lacks {want:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: not one line: {err}");
    assert!(!err.contains("panicked"), "{case}: {err}");
}

/// A proof file header (magic, version, kind, default profile).
fn header(kind: u8) -> Vec<u8> {
    let mut h = b"STARLING".to_vec();
    h.extend_from_slice(&starling::format::VERSION.to_le_bytes());
    h.extend_from_slice(&[kind, 0]);
    h
}

/// A built-in batch's file: the header, no parameters, `count` input records
/// and nothing more.
fn batch_file(kind: u8, count: u64) -> Vec<u8> {
    let mut f = header(kind);
    f.extend_from_slice(&0u32.to_le_bytes());
    f.extend_from_slice(&count.to_le_bytes());
    f
}

/// A `circuit` proof file whose parameters are `text`, then `count` input
/// records declared, then `rest`.
fn circuit_file(text: &str, count: u64, rest: &[u8]) -> Vec<u8> {
    let mut f = header(4);
    f.extend_from_slice(&(text.len() as u32).to_le_bytes());
    f.extend_from_slice(text.as_bytes());
    f.extend_from_slice(&count.to_le_bytes());
    f.extend_from_slice(rest);
    f
}

/// A one-gate circuit declaring `inputs` input bits.
fn wide_circuit(inputs: u64) -> String {
    format!("1 {}\n1 {inputs}\n1 1\n1 1 0 {inputs} INV\n", inputs + 1)
}

#[test]
fn declared_size_bombs_are_refused_in_bounded_memory() {
    // The 69-byte file of the issue (format version 1, which this build no
    // longer reads), and the same bomb in today's format.
    let mut v1 = b"STARLING".to_vec();
    let text = wide_circuit((1 << 24) - 1);
    v1.extend_from_slice(&1u16.to_le_bytes());
    v1.extend_from_slice(&[4, 0]);
    v1.extend_from_slice(&1u64.to_le_bytes());
    v1.extend_from_slice(&(text.len() as u32).to_le_bytes());
    v1.extend_from_slice(text.as_bytes());
    assert_eq!(v1.len(), 69);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("the 69-byte file of the issue", v1, "version 1 is not supported"),
        (
            "its Bristol bomb in today's format",
            circuit_file(&text, 1, &[]),
            "more than the supported 65536",
        ),
        (
            "2^20 input bits with their records present",
            circuit_file(&wide_circuit(1 << 20), 1, &vec![0u8; (1 << 17) + 1]),
            "more than the supported 65536",
        ),
        (
            "2^16 input bits, 2^24 records, none present",
            circuit_file(&wide_circuit((1 << 16) - 1), 1 << 24, &[]),
            "the file ends inside the input records",
        ),
        (
            "2^30 declared wires",
            circuit_file("1 1073741824\n1 1\n1 1\n1 1 0 1 INV\n", 1, &[0, 0]),
            "is more than the supported",
        ),
        (
            "parameters of 4 GiB",
            {
                let mut f = header(4);
                f.extend_from_slice(&u32::MAX.to_le_bytes());
                f.extend_from_slice(b"1 2\n");
                f
            },
            "the file ends inside the kind's parameters",
        ),
        (
            "a SHA-256 batch of 2^24 records",
            batch_file(1, 1 << 24),
            "the file ends inside the input records",
        ),
        (
            "a batch of 2^64 - 1 records",
            batch_file(1, u64::MAX),
            "more than the 16777216 one proof holds",
        ),
        (
            "2^24 records of a circuit without public values",
            circuit_file("1 1\n0\n0\n1 1 1 0 EQ\n", 1 << 24, &[]),
            "at least one input bit and one output bit",
        ),
    ];
    for (case, bytes, want) in cases {
        let file = write("bomb.proof", &bytes);
        for command in ["verify", "inspect"] {
            assert_exit(
                &starling_bounded(&[command, path_str(&file)]),
                2,
                want,
                &format!("{command}: {case}"),
            );
        }
    }
    // The same circuit handed to the prover.
    let circuit = write("bomb.txt", wide_circuit((1 << 24) - 1).as_bytes());
    let out = starling_bounded(&[
        "prove",
        "circuit",
        "--bristol",
        path_str(&circuit),
        "--random",
        "1",
        "--seed",
        "1",
        "--out",
        path_str(&scratch("never.proof")),
    ]);
    assert_exit(
        &out,
        2,
        "more than the supported 65536",
        "prove circuit: the Bristol bomb",
    );
}

#[test]
fn sizes_from_the_command_line_are_checked_before_allocating() {
    let out = path_str(&scratch("never.proof")).to_string();
    for n in ["16777217", "2305843009213693953", "0"] {
        assert_exit(
            &starling_bounded(&["prove", "sha256", "--random", n, "--seed", "1", "--out", &out]),
            2,
            "--random must be between 1 and 16777216",
            &format!("--random {n}"),
        );
    }
    assert_exit(
        &starling_bounded(&["bench", "sha256", "--count", "2305843009213693953"]),
        2,
        "--count must be between 1 and 16777216",
        "bench --count",
    );
    assert_exit(
        &starling(&[
            "prove",
            "sha256",
            "--random",
            "1",
            "--seed",
            "1",
            "--threads",
            "100000000",
            "--out",
            &out,
        ]),
        2,
        "--threads must be between 1 and 1024",
        "--threads",
    );
}

#[test]
fn endless_or_binary_files_are_refused_in_bounded_memory() {
    let out = path_str(&scratch("never.proof")).to_string();
    assert_exit(
        &starling_bounded(&["prove", "sha256", "--inputs", "/dev/zero", "--out", &out]),
        2,
        "line 1: longer than",
        "--inputs /dev/zero",
    );
    assert_exit(
        &starling_bounded(&[
            "prove",
            "circuit",
            "--bristol",
            "/dev/zero",
            "--random",
            "1",
            "--seed",
            "1",
            "--out",
            &out,
        ]),
        2,
        "NUL",
        "--bristol /dev/zero",
    );
    for command in ["verify", "inspect"] {
        assert_exit(
            &starling_bounded(&[command, "/dev/zero"]),
            2,
            "bad magic",
            command,
        );
    }
    // A proof of the kind expected (verify reads the proof first), then an
    // endless expected-inputs file.
    let sha = scratch("sha.txt");
    std::fs::write(&sha, format!("{} {}\n", "00".repeat(32), "00".repeat(64))).unwrap();
    let proof = path_str(&scratch("sha.proof")).to_string();
    let made = starling(&["prove", "sha256", "--inputs", path_str(&sha), "--out", &proof]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    assert_exit(
        &starling_bounded(&["verify", &proof, "--expect", "/dev/zero", "--kind", "sha256"]),
        2,
        "line 1: longer than",
        "--expect /dev/zero",
    );
}

/// Most memory a verifier may use for an expected-inputs file of up to
/// 1 MB (issue 54).
#[cfg(target_os = "linux")]
const EXPECT_PEAK_BYTES: u64 = 128_000_000;

/// The command's output and its peak resident memory in bytes, from the
/// kernel's account of the child (`wait4`), not the address space: a
/// verifier's threads reserve far more than they touch.
#[cfg(target_os = "linux")]
// The child is reaped by `wait4`, which `std` does not know of.
#[allow(clippy::zombie_processes)]
fn starling_peak(args: &[&str]) -> (Output, u64) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_starling"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the starling binary runs");
    // The outputs are a line or two, well within a pipe's buffer, so the
    // child never waits on them.
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills; the pid is this
    // test's own child, not yet reaped.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(
            libc::wait4(child.id() as i32, &mut status, 0, &mut usage),
            child.id() as i32
        );
        usage
    };
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut stderr).unwrap();
    let status = std::process::ExitStatus::from_raw(status);
    // Linux reports kilobytes.
    (
        Output {
            status,
            stdout,
            stderr,
        },
        usage.ru_maxrss as u64 * 1024,
    )
}

#[cfg(target_os = "linux")]
#[test]
fn an_expected_inputs_file_of_1_mb_is_read_in_bounded_memory() {
    // 500,000 empty RFC 6962 leaves, the most lines 1,000,000 bytes hold,
    // against the proof of one leaf: the expected tree is counted, not
    // built (a million nodes, 145 MB when it was built to count them).
    let one = write("one-leaf.txt", b"-\n");
    let leaves = write("empty-leaves.txt", &b"-\n".repeat(500_000));
    let proof = path_str(&scratch("one-leaf.proof")).to_string();
    let tree = ["--kind", "merkle-root", "--hash", "sha256", "--scheme", "rfc6962"];
    let made = starling(&[
        "prove",
        "merkle-root",
        "--hash",
        "sha256",
        "--scheme",
        "rfc6962",
        "--leaves",
        path_str(&one),
        "--out",
        &proof,
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let mut args = vec!["verify", &proof, "--expect", path_str(&leaves)];
    args.extend(tree);
    let (out, peak) = starling_peak(&args);
    assert_exit(&out, 1, "1 leaf node, expected 500000", "500,000 expected leaves");
    assert!(
        peak <= EXPECT_PEAK_BYTES,
        "verify --expect of a 1 MB file peaked at {peak} bytes"
    );
}

#[test]
fn a_bug_exits_3_and_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_starling"))
        .args(["digest", "--kind", "sha256"])
        .env("STARLING_TEST_INTERNAL_ERROR", "1")
        .output()
        .unwrap();
    assert_exit(&out, 3, "internal error", "forced internal error");
    assert!(text(&out.stderr).contains("this is a bug in Starling"));
}

#[test]
fn out_is_never_an_input_nor_half_written() {
    let inputs = scratch("in.txt");
    let line = format!("{} {}\n", "00".repeat(32), "00".repeat(64));
    std::fs::write(&inputs, &line).unwrap();
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        path_str(&inputs),
        "--out",
        path_str(&inputs),
    ]);
    assert_exit(&out, 2, "is the same file as the input", "--out = --inputs");
    assert_eq!(
        std::fs::read_to_string(&inputs).unwrap(),
        line,
        "the inputs are untouched"
    );
    // The same file through another path.
    let other = format!("{}/./in.txt", inputs.parent().unwrap().display());
    let out = starling(&["prove", "sha256", "--inputs", path_str(&inputs), "--out", &other]);
    assert_exit(&out, 2, "is the same file as the input", "--out = ./--inputs");

    let circuit = write("c.txt", b"1 3\n1 2\n1 1\n2 1 0 1 2 AND\n");
    let out = starling(&[
        "prove",
        "circuit",
        "--bristol",
        path_str(&circuit),
        "--random",
        "1",
        "--seed",
        "1",
        "--out",
        path_str(&circuit),
    ]);
    assert_exit(&out, 2, "is the same file as the input", "--out = --bristol");

    // A failed proof leaves an existing output as it was, and no temporary.
    let proof = write("keep.proof", b"old contents");
    let bad = write("bad.txt", b"zz\n");
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        path_str(&bad),
        "--out",
        path_str(&proof),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&proof).unwrap(), b"old contents");
    let out = starling(&[
        "prove",
        "sha256",
        "--inputs",
        path_str(&inputs),
        "--out",
        path_str(&proof),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let leftovers: Vec<_> = std::fs::read_dir(proof.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn messages_name_characters_and_count_right() {
    let run = |name: &str, content: &[u8]| {
        let f = write(name, content);
        starling(&[
            "prove",
            "sha256",
            "--inputs",
            path_str(&f),
            "--out",
            path_str(&scratch("never.proof")),
        ])
    };
    let block = "00".repeat(64);
    let cases = [
        (
            format!("{}é {block}\n", "0".repeat(62)),
            "'é' (U+00E9) is not a hex digit",
        ),
        (
            format!("{}\0 {block}\n", "0".repeat(63)),
            "'\\0' (U+0000) is not a hex digit",
        ),
        (
            format!("{} {block}\n", "0".repeat(63)),
            "chaining value has 63 hex digits, expected 64",
        ),
        (
            format!("0 {block}\n"),
            "chaining value has 1 hex digit, expected 64",
        ),
        (
            format!("{}\n", "0".repeat(64)),
            "expected 2 fields (CV BLOCK), found 1",
        ),
    ];
    for (i, (content, want)) in cases.iter().enumerate() {
        assert_exit(&run(&format!("m{i}.txt"), content.as_bytes()), 2, want, want);
    }
    let binary = run("binary.txt", b"# fine\n\xff\xfe\n");
    assert_exit(&binary, 2, "line 2: byte 1 is not UTF-8 text (0xff)", "binary");
    let keccak = write("k.txt", format!("{}\n", "0".repeat(399)).as_bytes());
    let out = starling(&[
        "prove",
        "keccak-f1600",
        "--inputs",
        path_str(&keccak),
        "--out",
        path_str(&scratch("never.proof")),
    ]);
    assert_exit(&out, 2, "state has 399 hex digits, expected 400", "keccak");
    let circuit = write("one-input.txt", b"1 2\n1 1\n1 1\n1 1 0 1 INV\n");
    let inputs = write("two-values.txt", b"1 1\n");
    let out = starling(&[
        "prove",
        "circuit",
        "--bristol",
        path_str(&circuit),
        "--inputs",
        path_str(&inputs),
        "--out",
        path_str(&scratch("never.proof")),
    ]);
    assert_exit(
        &out,
        2,
        "expected 1 input value (the circuit's inputs), found 2",
        "one input value",
    );
}
