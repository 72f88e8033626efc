//! `starling bench` and `starling demo`: prove and verify random inputs and
//! report what it cost, next to native hashing measured in the same run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use starling::inputs::random_sha256_inputs;
use starling::statement::Sha256Input;
use starling::Profile;

use crate::{native_sha256, BenchArgs, Failure};

/// The fixed seed of benchmark and demo inputs.
const SEED: u64 = 0x5354_4152_4c49_4e47;

/// Best-of-5 nanoseconds per compression of `f` over `inputs`.
fn ns_per_compression(inputs: &[Sha256Input], f: impl Fn(&mut [u32; 8], &[u8; 64])) -> f64 {
    let rounds = (200_000 / inputs.len().max(1)).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..rounds {
            for inp in inputs {
                let mut state = inp.cv;
                f(&mut state, &inp.block);
                black_box(state);
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (rounds * inputs.len()) as f64;
        best = best.min(ns);
    }
    best
}

/// Peak resident set size of this process, from /proc (0 where unavailable).
fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}

/// Median verify time over a few runs.
fn verify_time(file: &starling::ProofFile) -> Result<Duration, Failure> {
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        starling::verify(file)?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

pub(crate) fn sha256(args: &BenchArgs) -> Result<(), Failure> {
    if args.count == 0 {
        return Err(Failure {
            code: 2,
            message: "--count must be at least 1".into(),
        });
    }
    let profile: Profile = args.profile.into();
    let inputs = random_sha256_inputs(args.count, SEED);
    let sample = &inputs[..inputs.len().min(4096)];
    let native_ns = ns_per_compression(sample, native_sha256::compress);
    let native_hw_ns = ns_per_compression(sample, |s, b| sha2::compress256(s, &[(*b).into()]));

    let mut quiet = |_: &str| {};
    let start = Instant::now();
    let proved = starling::prove_sha256(inputs, profile, &mut quiet)?;
    let prove_s = start.elapsed().as_secs_f64();
    let file_bytes = proved.file.to_bytes().len();
    let proof_bytes = proved.file.proof_len();
    let verify_ms = verify_time(&proved.file)?.as_secs_f64() * 1e3;
    let security_bits = starling::security_bits(&proved.file);
    let threads = rayon::current_num_threads();
    let hashes_per_s = args.count as f64 / prove_s;
    let overhead = prove_s * 1e9 / args.count as f64 / native_ns;
    let peak = peak_rss_bytes();

    if args.json {
        let mut phases = serde_json::Map::new();
        for (name, d) in proved.timings.phases() {
            phases.insert(name.to_string(), serde_json::json!(d.as_secs_f64()));
        }
        let obj = serde_json::json!({
            "hash": "sha256",
            "count": args.count,
            "threads": threads,
            "prove_s": prove_s,
            "hashes_per_s": hashes_per_s,
            "native_ns": native_ns,
            "native_hw_ns": native_hw_ns,
            "overhead": overhead,
            "proof_bytes": proof_bytes,
            "file_bytes": file_bytes,
            "verify_ms": verify_ms,
            "peak_rss_bytes": peak,
            "security_bits": security_bits,
            "profile": profile.name(),
            "phases_s": phases,
        });
        println!("{obj}");
    } else {
        println!("hash            sha256 compression ({} profile)", profile.name());
        println!("count           {}", args.count);
        println!("threads         {threads}");
        println!("prove           {prove_s:.3} s  ({hashes_per_s:.0} hashes/s)");
        for (name, d) in proved.timings.phases() {
            println!("  {name:<14}{:.3} s", d.as_secs_f64());
        }
        println!("native          {native_ns:.1} ns/compression (portable), {native_hw_ns:.1} ns (SHA-NI)");
        println!("overhead        {overhead:.0}x portable native hashing");
        println!("proof           {proof_bytes} bytes (file with public values: {file_bytes} bytes)");
        println!("verify          {verify_ms:.2} ms");
        println!("peak RSS        {:.1} MiB", peak as f64 / (1024.0 * 1024.0));
        println!("security        {security_bits:.1} bits");
    }
    Ok(())
}

pub(crate) fn demo() -> Result<(), Failure> {
    const COUNT: usize = 4096;
    println!("Starling demo: proving {COUNT} SHA-256 compressions (random inputs, fixed seed).");
    let inputs = random_sha256_inputs(COUNT, SEED);
    let first = inputs[0];
    let mut progress = |msg: &str| println!("  {msg}");
    let start = Instant::now();
    let proved = starling::prove_sha256(inputs, Profile::Default, &mut progress)?;
    let prove_s = start.elapsed().as_secs_f64();
    let bytes = proved.file.to_bytes();
    println!(
        "Proved in {prove_s:.2} s ({:.0} compressions/s); proof is {} bytes ({} with the public values).",
        COUNT as f64 / prove_s,
        proved.file.proof_len(),
        bytes.len()
    );
    let reread = starling::ProofFile::from_bytes(&bytes)?;
    let start = Instant::now();
    let verified = starling::verify(&reread)?;
    println!(
        "Verified in {:.2} ms at {:.1} bits of security.",
        start.elapsed().as_secs_f64() * 1e3,
        verified.security_bits()
    );
    let out = first.output();
    let hex: String = out.iter().map(|w| format!("{w:08x}")).collect();
    println!("First output (cv + F(cv, block)) = {hex}");
    println!("Every input and output of the {COUNT} compressions is bound by the proof.");
    Ok(())
}
