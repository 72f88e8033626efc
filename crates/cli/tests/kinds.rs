//! The statement kinds end to end through the `starling` binary: SHA-512,
//! BLAKE3, Keccak-f[1600] and Bristol circuits against known answers and
//! reference implementations, their error paths, `inspect` and `bench
//! --json`.
//!
//! Every batch is one `prove` call followed by `verify --print-outputs`.

mod common;

use common::{hex, path_str, scratch, starling, text};
use starling::kind::SampleInputs;

use starling_circuit::blake3::{
    compress_reference, Blake3Input, BLAKE3_IV, CHUNK_END, CHUNK_START, KEYED_HASH, ROOT,
};
use std::path::{Path, PathBuf};
use std::process::Output;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

// ---------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------

/// Runs `starling prove <what...> --inputs FILE --out PROOF` on `lines`
/// (one instance per line) and returns the proof's path.
fn prove_lines(what: &[&str], lines: &[String], name: &str) -> PathBuf {
    let inputs = scratch(&format!("{name}.inputs"));
    let mut content = format!("# {name}: {} instances\n", lines.len());
    for line in lines {
        content.push_str(line);
        content.push('\n');
    }
    std::fs::write(&inputs, content).unwrap();
    let proof = scratch(&format!("{name}.proof"));
    let mut args = vec!["prove"];
    args.extend_from_slice(what);
    args.extend(["--inputs", path_str(&inputs), "--out", path_str(&proof)]);
    let out = starling(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "prove {what:?} failed:\n{}",
        text(&out.stderr)
    );
    proof
}

/// `starling verify PROOF --print-outputs`: checks the `OK` line names `kind`
/// and `n` instances, and returns the output lines.
fn verified_outputs(proof: &Path, kind: &str, n: usize) -> Vec<String> {
    let out = starling(&["verify", path_str(proof), "--print-outputs"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "verify failed:\n{}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    let ok = lines.next().unwrap_or_default();
    assert!(ok.starts_with("OK"), "first line is not OK:\n{stdout}");
    assert!(ok.contains(kind), "OK line does not name {kind}: {ok}");
    assert!(ok.contains(&format!("N={n}")), "OK line does not say N={n}: {ok}");
    lines.map(str::to_owned).collect()
}

/// One prove call over `lines`, then the verified output lines, compared
/// line by line with `want`.
fn prove_and_check(what: &[&str], kind: &str, lines: &[String], want: &[String], name: &str) -> PathBuf {
    assert_eq!(lines.len(), want.len());
    let proof = prove_lines(what, lines, name);
    let got = verified_outputs(&proof, kind, lines.len());
    assert_eq!(got.len(), want.len(), "{name}: number of output lines");
    for (i, ((g, w), input)) in got.iter().zip(want).zip(lines).enumerate() {
        assert_eq!(g, w, "{name}: instance {i} (input line `{input}`)");
    }
    proof
}

/// Expects exit code 2 and exactly one stderr line containing `want`.
fn assert_exit_2(out: &Output, want: &str, case: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{case}: exit code; stderr:\n{err}");
    assert!(err.contains(want), "{case}: stderr lacks {want:?}:\n{err}");
    assert_eq!(err.lines().count(), 1, "{case}: stderr is not one line:\n{err}");
    assert!(!err.contains("panicked"), "{case}: {err}");
}

// ---------------------------------------------------------------------------
// Small helpers: hex, integers
// ---------------------------------------------------------------------------

fn from_hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or_else(|_| panic!("bad hex: {s}")))
        .collect()
}

fn random_bytes<const N: usize>(rng: &mut ChaCha20Rng) -> [u8; N] {
    let mut out = [0u8; N];
    rng.fill(&mut out[..]);
    out
}

// ---------------------------------------------------------------------------
// SHA-512
// ---------------------------------------------------------------------------

/// The SHA-512 initial value (FIPS 180-4 §5.3.5), as a `CV` field.
const SHA512_IV_HEX: &str = "6a09e667f3bcc908bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1\
                             510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179";

/// `cv + F(cv, block)` by the sha2 crate, as an output line.
fn sha512_expected(cv: &[u8], block: &[u8]) -> String {
    let mut state: [u64; 8] =
        std::array::from_fn(|i| u64::from_be_bytes(cv[8 * i..8 * i + 8].try_into().unwrap()));
    let block: [u8; 128] = block.try_into().unwrap();
    sha2::compress512(&mut state, &[block.into()]);
    state.iter().map(|w| format!("{w:016x}")).collect()
}

/// FIPS 180-4's "abc" example as one compression from the IV (its digest
/// is the output, written here from the standard), then random calls
/// against the sha2 crate; a changed input line must not verify against
/// the proof.
#[test]
fn sha512_known_answer_random_calls_and_a_changed_input() {
    let mut abc = b"abc".to_vec();
    abc.push(0x80);
    abc.resize(120, 0);
    abc.extend_from_slice(&24u64.to_be_bytes());
    let mut lines = vec![format!("{SHA512_IV_HEX} {}", hex(&abc))];
    let mut want = vec!["ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                         2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        .to_string()];
    assert_eq!(want[0], sha512_expected(&from_hex(SHA512_IV_HEX), &abc));
    let mut rng = ChaCha20Rng::seed_from_u64(512);
    for _ in 0..5 {
        let (cv, block): ([u8; 64], [u8; 128]) = (random_bytes(&mut rng), random_bytes(&mut rng));
        lines.push(format!("{} {}", hex(&cv), hex(&block)));
        want.push(sha512_expected(&cv, &block));
    }
    let proof = prove_and_check(&["sha512"], "sha512", &lines, &want, "sha512");

    let expect = |name: &str, lines: &[String]| {
        let path = scratch(name);
        std::fs::write(&path, lines.join("\n")).unwrap();
        starling(&[
            "verify",
            path_str(&proof),
            "--kind",
            "sha512",
            "--expect",
            path_str(&path),
        ])
    };
    assert_eq!(expect("sha512.expect", &lines).status.code(), Some(0));
    let mut changed = lines.clone();
    let digit = if &changed[3][130..131] == "0" { "1" } else { "0" };
    changed[3].replace_range(130..131, digit);
    let out = expect("sha512.changed", &changed);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("input 3"), "{}", text(&out.stderr));

    // A SHA-256-sized line is refused with the field's name.
    let short = scratch("sha512.short");
    std::fs::write(&short, format!("{} {}\n", "00".repeat(32), "00".repeat(64))).unwrap();
    let out = starling(&[
        "prove",
        "sha512",
        "--inputs",
        path_str(&short),
        "--out",
        path_str(&scratch("x.proof")),
    ]);
    assert_exit_2(&out, "chaining value", "a 32-byte cv");

    let out = starling(&["digest", "--kind", "sha512"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).trim(),
        "3fa821dba729fd6bf0ea57e95c1a2dd378cae42974a0e4eabaf9adb869d41b8b"
    );
}

// ---------------------------------------------------------------------------
// BLAKE3
// ---------------------------------------------------------------------------

/// The BLAKE3 compression function, from the circuit crate's plain
/// reference (its own tests pin it to the blake3 crate and the vectors).
fn blake3_compress(cv: &[u32; 8], block: &[u32; 16], counter: u64, block_len: u32, flags: u32) -> [u32; 16] {
    compress_reference(&Blake3Input {
        cv: *cv,
        block: *block,
        counter,
        block_len,
        flags,
    })
}

fn le_words<const N: usize>(bytes: &[u8]) -> [u32; N] {
    assert_eq!(bytes.len(), 4 * N);
    std::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// One `prove blake3` input line.
fn blake3_line(cv: &[u8; 32], block: &[u8; 64], counter: u64, block_len: u32, flags: u32) -> String {
    format!("{} {} {counter} {block_len} {flags}", hex(cv), hex(block))
}

/// The expected output line of one call, from the reference compression.
fn blake3_expected(cv: &[u8; 32], block: &[u8; 64], counter: u64, block_len: u32, flags: u32) -> String {
    hex(&le_bytes(&blake3_compress(
        &le_words(cv),
        &le_words(block),
        counter,
        block_len,
        flags,
    )))
}

/// The single-compression cases of the official vectors for one mode: input
/// lines (counters 0 and 1 of each case) and the 128 hex digits of extended
/// output each must produce.
fn blake3_vector_calls(
    json: &serde_json::Value,
    mode: &str,
    cv: &[u8; 32],
    flags: u32,
) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut want = Vec::new();
    for case in json["cases"].as_array().expect("a cases array") {
        let len = case["input_len"].as_u64().expect("input_len") as usize;
        if len > 64 {
            continue;
        }
        let mut block = [0u8; 64];
        for (i, b) in block.iter_mut().enumerate().take(len) {
            *b = (i % 251) as u8;
        }
        let extended = case[mode].as_str().expect("an extended output");
        assert!(
            extended.len() >= 256,
            "{mode} output of length {len} is too short"
        );
        for counter in 0..2u64 {
            lines.push(blake3_line(cv, &block, counter, len as u32, flags));
            want.push(extended[128 * counter as usize..128 * (counter as usize + 1)].to_string());
        }
    }
    (lines, want)
}

#[test]
fn blake3_known_answers_and_random_calls() {
    let Some(json_text) = common::read_vector("blake3/test_vectors.json") else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&json_text).expect("valid JSON");
    let iv: [u8; 32] = le_bytes(&BLAKE3_IV).try_into().unwrap();
    let flags = CHUNK_START | CHUNK_END | ROOT;
    assert_eq!(flags, 11);

    // Plain hash: the vectors, then random calls checked against the
    // reference compression (itself checked against the vectors first).
    let (mut lines, mut want) = blake3_vector_calls(&json, "hash", &iv, flags);
    assert_eq!(lines.len(), 22, "11 single-block cases, two counters each");
    for (line, w) in lines.iter().zip(&want) {
        let f: Vec<&str> = line.split(' ').collect();
        let cv: [u8; 32] = from_hex(f[0]).try_into().unwrap();
        let block: [u8; 64] = from_hex(f[1]).try_into().unwrap();
        let got = blake3_expected(&cv, &block, f[2].parse().unwrap(), f[3].parse().unwrap(), 11);
        assert_eq!(
            &got, w,
            "the test's reference compression disagrees with the vectors on `{line}`"
        );
    }
    let mut rng = ChaCha20Rng::seed_from_u64(0xb1a4e3);
    for i in 0..10 {
        let cv = random_bytes::<32>(&mut rng);
        let block = random_bytes::<64>(&mut rng);
        let counter = match i {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << 32,
            _ => rng.gen(),
        };
        let block_len = if i == 3 { 0 } else { rng.gen_range(0..=64) };
        let flags = match i {
            0..=3 => [0, 1, 2, 4][i],
            4 => u32::MAX,
            _ => rng.gen_range(0..32),
        };
        lines.push(blake3_line(&cv, &block, counter, block_len, flags));
        want.push(blake3_expected(&cv, &block, counter, block_len, flags));
    }
    // The first 32 bytes of each counter-0 output are the 32-byte hash: the
    // blake3 crate agrees with the vectors on those inputs.
    for len in [0usize, 1, 63, 64] {
        let input: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let hash = blake3::hash(&input);
        let idx = want
            .iter()
            .zip(&lines)
            .position(|(_, l)| l.ends_with(&format!(" 0 {len} 11")))
            .unwrap();
        assert_eq!(&want[idx][..64], hex(hash.as_bytes()), "length {len}");
    }
    prove_and_check(&["blake3"], "blake3", &lines, &want, "blake3-hash");

    // Keyed hash: the key is the CV, flags gain KEYED_HASH.
    let key: [u8; 32] = json["key"]
        .as_str()
        .expect("a key string")
        .as_bytes()
        .try_into()
        .expect("a 32-byte key");
    let (lines, want) = blake3_vector_calls(&json, "keyed_hash", &key, flags | KEYED_HASH);
    assert_eq!(flags | KEYED_HASH, 27);
    prove_and_check(&["blake3"], "blake3", &lines, &want, "blake3-keyed");
}

// ---------------------------------------------------------------------------
// Keccak-f[1600]
// ---------------------------------------------------------------------------

fn lanes_of(bytes: &[u8]) -> [u64; 25] {
    assert_eq!(bytes.len(), 200);
    std::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
}

fn bytes_of(lanes: &[u64; 25]) -> Vec<u8> {
    lanes.iter().flat_map(|l| l.to_le_bytes()).collect()
}

/// The expected output line for one input line, from the keccak crate.
fn keccak_expected(line: &str) -> String {
    let mut lanes = lanes_of(&from_hex(line));
    keccak::f1600(&mut lanes);
    hex(&bytes_of(&lanes))
}

/// The 200 bytes on the line after each occurrence of `header`.
fn states_after(text: &str, header: &str) -> Vec<Vec<u8>> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i].trim() == header)
        .map(|i| {
            let bytes: Vec<u8> = lines[i + 1]
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).expect("a hex byte"))
                .collect();
            assert_eq!(bytes.len(), 200, "state after line {}", i + 1);
            bytes
        })
        .collect()
}

#[test]
fn keccak_known_answers_random_states_and_inspect() {
    // The two known answers (when the vectors are there), then states of our
    // own against the keccak crate.
    let mut lines: Vec<String> = Vec::new();
    let mut want: Vec<String> = Vec::new();
    if let Some(file) = common::read_vector("keccak/KeccakF-1600-IntermediateValues.txt") {
        let inputs = states_after(&file, "Input of permutation:");
        let outputs = states_after(&file, "State after permutation:");
        assert_eq!((inputs.len(), outputs.len()), (2, 2));
        assert_eq!(inputs[0], vec![0u8; 200]);
        assert_eq!(
            inputs[1], outputs[0],
            "the second example permutes the first output"
        );
        lines.extend(inputs.iter().map(|s| hex(s)));
        want.extend(outputs.iter().map(|s| hex(s)));
        for (line, w) in lines.iter().zip(&want) {
            assert_eq!(
                &keccak_expected(line),
                w,
                "the keccak crate disagrees with the vectors"
            );
        }
    }
    let mut rng = ChaCha20Rng::seed_from_u64(0x4ecc);
    let ones = hex(&[0xff; 200]);
    lines.push(ones.clone());
    want.push(keccak_expected(&ones));
    for _ in 0..5 {
        let line = hex(&random_bytes::<200>(&mut rng));
        want.push(keccak_expected(&line));
        lines.push(line);
    }
    let proof = prove_and_check(&["keccak-f1600"], "keccak-f1600", &lines, &want, "keccak-vectors");

    let out = starling(&["inspect", path_str(&proof)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("keccak-f1600"),
        "inspect does not name the kind:\n{report}"
    );
    assert!(
        report.lines().any(|l| l.starts_with("utilisation")),
        "inspect has no line starting `utilisation`:\n{report}"
    );

    // `--random N --seed S`: the library's generator gives the same states,
    // so the outputs can be checked against the keccak crate.
    let (n, seed) = (4usize, 77u64);
    let proof = scratch("keccak-random.proof");
    let out = starling(&[
        "prove",
        "keccak-f1600",
        "--random",
        &n.to_string(),
        "--seed",
        &seed.to_string(),
        "--out",
        path_str(&proof),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got = verified_outputs(&proof, "keccak-f1600", n);
    let batch = starling::kind::Batch::builtin(starling::Builtin::KeccakF1600);
    let random_lines: Vec<String> = batch
        .random_inputs(n, seed)
        .iter()
        .map(|r| starling::kind::TextFormat::format_input(&batch, r))
        .collect();
    assert_eq!(random_lines.len(), n);
    assert_eq!(got.len(), n);
    for (i, (line, g)) in random_lines.iter().zip(&got).enumerate() {
        assert_eq!(g, &keccak_expected(line), "random state {i}");
    }
}

// ---------------------------------------------------------------------------
// Bristol circuits
// ---------------------------------------------------------------------------

/// Proves `lines` with `prove circuit --bristol vectors/bristol/NAME.txt`.
/// Returns false (skipped) when the circuit file is missing.
fn check_bristol(name: &str, lines: &[String], want: &[String]) -> bool {
    let Some(path) = common::vector_path(&format!("bristol/{name}.txt")) else {
        return false;
    };
    prove_and_check(
        &["circuit", "--bristol", path_str(&path)],
        "circuit",
        lines,
        want,
        &format!("bristol-{name}"),
    );
    true
}

const SHA256_IV: &str = "6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19";

/// SHA-256 compression (with feed-forward) by the sha2 crate, on the bytes
/// as SHA-256 writes them.
fn sha256_compress(block: &[u8], cv: &[u8]) -> Vec<u8> {
    let mut state: [u32; 8] =
        std::array::from_fn(|i| u32::from_be_bytes(cv[4 * i..4 * i + 4].try_into().unwrap()));
    let block = sha2::digest::generic_array::GenericArray::clone_from_slice(block);
    sha2::compress256(&mut state, &[block]);
    state.iter().flat_map(|w| w.to_be_bytes()).collect()
}

#[test]
fn bristol_sha256_against_sha2() {
    let mut blocks_cvs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    // "abc", padded, from the IV: SHA-256("abc").
    let mut abc = vec![0u8; 64];
    abc[..4].copy_from_slice(b"abc\x80");
    abc[63] = 0x18;
    blocks_cvs.push((abc.clone(), from_hex(SHA256_IV)));
    let mut rng = ChaCha20Rng::seed_from_u64(0x5a256);
    for _ in 0..3 {
        blocks_cvs.push((
            random_bytes::<64>(&mut rng).to_vec(),
            random_bytes::<32>(&mut rng).to_vec(),
        ));
    }
    let lines: Vec<String> = blocks_cvs
        .iter()
        .map(|(b, cv)| format!("{} {}", hex(b), hex(cv)))
        .collect();
    let want: Vec<String> = blocks_cvs
        .iter()
        .map(|(b, cv)| hex(&sha256_compress(b, cv)))
        .collect();
    assert_eq!(
        want[0], "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "SHA-256(\"abc\")"
    );
    check_bristol("sha256", &lines, &want);
}

#[test]
fn bristol_aes128_fips197() {
    let cases = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "3243f6a8885a308d313198a2e0370734",
            "3925841d02dc09fbdc118597196a0b32",
        ),
    ];
    let lines: Vec<String> = cases.iter().map(|(k, p, _)| format!("{k} {p}")).collect();
    let want: Vec<String> = cases.iter().map(|(_, _, c)| c.to_string()).collect();
    check_bristol("aes_128", &lines, &want);
}

/// Edge values, then random ones.
fn u64_values(rng: &mut ChaCha20Rng, random: usize) -> Vec<u64> {
    let mut v = vec![0, 1, u64::MAX, 1 << 63, (1 << 63) - 1, 0xffff_ffff];
    v.extend((0..random).map(|_| rng.gen::<u64>()));
    v
}

#[test]
fn bristol_64_bit_arithmetic() {
    let mut rng = ChaCha20Rng::seed_from_u64(0xa717);
    let values = u64_values(&mut rng, 4);
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for &a in &values[..4] {
        for &b in &values[..4] {
            pairs.push((a, b));
        }
    }
    pairs.extend((0..6).map(|_| (rng.gen(), rng.gen())));
    pairs.extend(values[4..].iter().zip(values.iter().rev()).map(|(&a, &b)| (a, b)));

    type BinaryOp = fn(u64, u64) -> u64;
    let binary: [(&str, BinaryOp); 3] = [
        ("adder64", u64::wrapping_add),
        ("sub64", u64::wrapping_sub),
        ("mult64", u64::wrapping_mul),
    ];
    let lines: Vec<String> = pairs.iter().map(|(a, b)| format!("{a:016x} {b:016x}")).collect();
    for (name, op) in binary {
        let want: Vec<String> = pairs.iter().map(|&(a, b)| format!("{:016x}", op(a, b))).collect();
        if !check_bristol(name, &lines, &want) {
            return;
        }
    }

    let mut singles = values.clone();
    singles.extend((0..4).map(|_| rng.gen::<u64>()));
    let lines: Vec<String> = singles.iter().map(|a| format!("{a:016x}")).collect();
    let want: Vec<String> = singles
        .iter()
        .map(|a| format!("{:016x}", a.wrapping_neg()))
        .collect();
    check_bristol("neg64", &lines, &want);

    // zero_equal: one 1-bit output, a single hex digit.
    let want: Vec<String> = singles.iter().map(|&a| u8::from(a == 0).to_string()).collect();
    check_bristol("zero_equal", &lines, &want);
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// A valid 3-gate circuit: inputs of 1 and 1 bits, one 1-bit output
/// `!((a ^ b) & a)`. Gates are on lines 5, 6 and 7.
const TINY: &str = "3 5\n2 1 1\n1 1\n\n2 1 0 1 2 XOR\n2 1 2 0 3 AND\n1 1 3 4 INV\n";

fn prove_circuit_args<'a>(bristol: &'a Path, inputs: &'a Path, proof: &'a Path) -> [&'a str; 8] {
    [
        "prove",
        "circuit",
        "--bristol",
        path_str(bristol),
        "--inputs",
        path_str(inputs),
        "--out",
        path_str(proof),
    ]
}

#[test]
fn circuit_errors_and_tampering() {
    let good_inputs = scratch("tiny.inputs");
    std::fs::write(&good_inputs, "0 0\n0 1\n1 0\n1 1\n").unwrap();
    let unused_proof = scratch("never-written.proof");

    // Malformed circuit files: exit 2, one line naming the offending line.
    let malformed = [
        (TINY.replace("0 3 AND", "0 3 NAND"), "line 6", "unknown gate"),
        (
            TINY.replace("2 1 0 1 2 XOR", "2 1 0 9 2 XOR"),
            "line 5",
            "wire out of range",
        ),
        (TINY.replace("1 1 3 4 INV", "1 1 3 4"), "line 7", "truncated gate"),
        (TINY.replace("2 1 1\n", "2 1 x\n"), "line 2", "bad input size"),
    ];
    for (i, (circuit, want, case)) in malformed.iter().enumerate() {
        assert_ne!(circuit, TINY, "{case}: the edit applies");
        let path = scratch(&format!("malformed-{i}.txt"));
        std::fs::write(&path, circuit).unwrap();
        let out = starling(&prove_circuit_args(&path, &good_inputs, &unused_proof));
        assert_exit_2(&out, want, case);
    }

    // Bad input files for a good circuit: exit 2 naming the input line.
    let tiny = scratch("tiny.txt");
    std::fs::write(&tiny, TINY).unwrap();
    let bad_inputs = [
        ("0 0\n1\n", "line 2", "one value instead of two"),
        (
            "0 0\n1 1\n# comment\n1 1 0\n",
            "line 4",
            "three values instead of two",
        ),
        ("00 1\n", "line 1", "two hex digits for a 1-bit value"),
        ("0 2\n", "line 1", "a value that does not fit in 1 bit"),
    ];
    for (i, (content, want, case)) in bad_inputs.iter().enumerate() {
        let path = scratch(&format!("bad-{i}.inputs"));
        std::fs::write(&path, content).unwrap();
        let out = starling(&prove_circuit_args(&tiny, &path, &unused_proof));
        assert_exit_2(&out, want, case);
    }
    assert!(!unused_proof.exists(), "a failed prove wrote a proof");

    // The good circuit proves; its outputs are !((a ^ b) & a).
    let lines: Vec<String> = ["0 0", "0 1", "1 0", "1 1"].map(String::from).to_vec();
    let want: Vec<String> = [(0u8, 0u8), (0, 1), (1, 0), (1, 1)]
        .map(|(a, b)| (1 - ((a ^ b) & a)).to_string())
        .to_vec();
    let proof = prove_and_check(
        &["circuit", "--bristol", path_str(&tiny)],
        "circuit",
        &lines,
        &want,
        "tiny",
    );

    // A byte flipped near the end: rejected with exit 1 and one line.
    let mut bytes = std::fs::read(&proof).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x01;
    let tampered = scratch("tiny-tampered.proof");
    std::fs::write(&tampered, &bytes).unwrap();
    let out = starling(&["verify", path_str(&tampered), "--print-outputs"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "tampered proof; stderr:\n{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!text(&out.stdout).contains("OK"), "{}", text(&out.stdout));
}

// ---------------------------------------------------------------------------
// bench --json
// ---------------------------------------------------------------------------

#[test]
fn bench_json_for_sha512_blake3_and_keccak() {
    for hash in ["sha512", "blake3", "keccak-f1600"] {
        let out = starling(&["bench", hash, "--count", "64", "--threads", "1", "--json"]);
        assert_eq!(out.status.code(), Some(0), "bench {hash}:\n{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let v: serde_json::Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("bench {hash}: not one JSON object ({e}):\n{stdout}"));
        assert!(v.is_object(), "{stdout}");
        for key in [
            "hash",
            "count",
            "threads",
            "prove_s",
            "hashes_per_s",
            "native_ns",
            "native_hw_ns",
            "native_best_ns",
            "overhead",
            "overhead_best",
            "proof_bytes",
            "file_bytes",
            "verify_ms",
            "peak_rss_bytes",
            "security_bits",
            "profile",
            "phases_s",
        ] {
            assert!(v.get(key).is_some(), "bench {hash}: missing {key}:\n{stdout}");
        }
        assert_eq!(v["hash"], hash, "{stdout}");
        assert_eq!(v["count"], 64, "{stdout}");
        assert_eq!(v["threads"], 1, "{stdout}");
        for key in [
            "prove_s",
            "hashes_per_s",
            "native_best_ns",
            "overhead_best",
            "proof_bytes",
            "file_bytes",
            "security_bits",
        ] {
            let x = v[key]
                .as_f64()
                .unwrap_or_else(|| panic!("bench {hash}: {key} is not a number"));
            assert!(x > 0.0, "bench {hash}: {key} = {x}");
        }
        // Every phase has a CPU time where the system reports one (Unix).
        let phases = v["phases_s"].as_object().expect("phases_s is an object");
        let cpu = v["phases_cpu_s"].as_object().expect("phases_cpu_s is an object");
        if cfg!(unix) {
            let names =
                |m: &serde_json::Map<String, serde_json::Value>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(names(cpu), names(phases), "bench {hash}:\n{stdout}");
            assert!(
                cpu.values().all(|x| x.as_f64().is_some_and(|x| x >= 0.0)),
                "{stdout}"
            );
        }
    }
}
