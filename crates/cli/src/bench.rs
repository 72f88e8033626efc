//! `starling bench` and `starling demo`: prove and verify random inputs and
//! report what it cost, next to native hashing measured in the same run.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use starling::inputs::{format_output_row, random_inputs};
use starling::{Expected, Profile, StatementCircuit, StatementKind};

use crate::{native_sha256, BenchArgs, Failure};

/// The fixed seed of benchmark and demo inputs.
const SEED: u64 = 0x5354_4152_4c49_4e47;

/// Best-of-5 nanoseconds per call of `f` on each of `items`.
fn ns_per_call<T: Clone>(items: &[T], f: impl Fn(&mut T)) -> f64 {
    let rounds = (200_000 / items.len().max(1)).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..rounds {
            for item in items {
                let mut x = item.clone();
                f(&mut x);
                black_box(x);
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (rounds * items.len()) as f64;
        best = best.min(ns);
    }
    best
}

/// Native cost of one instance on the first input rows: the portable
/// implementation, and the hardware one where the hash has one (SHA-NI).
fn native_ns(circuit: &StatementCircuit, rows: &[u64]) -> (f64, Option<f64>) {
    let sample = rows.chunks_exact(circuit.input_words()).take(4096);
    match circuit.kind() {
        StatementKind::Sha256 => {
            // Row words 0..8 are the cv, 8..24 the block words (big-endian in the block).
            let items: Vec<([u32; 8], [u8; 64])> = sample
                .map(|r| {
                    let word = |w: usize| (r[w / 2] >> (32 * (w % 2))) as u32;
                    let mut block = [0u8; 64];
                    for (j, chunk) in block.chunks_exact_mut(4).enumerate() {
                        chunk.copy_from_slice(&word(8 + j).to_be_bytes());
                    }
                    (std::array::from_fn(word), block)
                })
                .collect();
            let portable = ns_per_call(&items, |(cv, block)| native_sha256::compress(cv, block));
            let hw = ns_per_call(&items, |(cv, block)| sha2::compress256(cv, &[(*block).into()]));
            (portable, Some(hw))
        }
        StatementKind::Blake3 => {
            // One keyed hash of a 64-byte message is exactly one compression
            // (cv = key, flags CHUNK_START | CHUNK_END | ROOT | KEYED_HASH);
            // the crate is built without its SIMD paths (see Cargo.toml), so
            // this is its portable implementation.
            let items: Vec<([u8; 32], [u8; 64])> = sample
                .map(|r| {
                    let bytes: Vec<u8> = r[..12].iter().flat_map(|w| w.to_le_bytes()).collect();
                    (bytes[..32].try_into().unwrap(), bytes[32..96].try_into().unwrap())
                })
                .collect();
            let portable = ns_per_call(&items, |(key, block)| {
                black_box(blake3::keyed_hash(key, block));
            });
            (portable, None)
        }
        StatementKind::KeccakF1600 => {
            let items: Vec<[u64; 25]> = sample.map(|r| r.try_into().unwrap()).collect();
            (ns_per_call(&items, keccak::f1600), None)
        }
        StatementKind::Circuit => unreachable!("benchmarks are for the built-in hashes"),
    }
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

/// Median verify time over a few runs, as a verifier who expects these
/// inputs checks the proof: from the file's bytes, decoding included.
fn verify_time(expected: &Expected, bytes: &[u8]) -> Result<Duration, Failure> {
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        starling::verify(expected, bytes)?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// The proofs a benchmark times.
struct TimedProofs {
    /// Seconds of the first proof of the process.
    cold_s: f64,
    /// The proof of median time among the later ones, and that time.
    median: starling::Proved,
    median_s: f64,
}

/// Proves the inputs once, then `args.runs` more times, and keeps the median
/// of the later runs.
///
/// The first proof of a process pays for faulting in every buffer, which on a
/// virtual machine can cost as much as the proof itself (see
/// `allocator::keep_freed_blocks`); later proofs reuse the memory, as a
/// prover that proves batch after batch does. Both figures are reported.
fn timed_proofs(
    circuit: &Arc<StatementCircuit>,
    args: &BenchArgs,
    inputs: &[u64],
) -> Result<TimedProofs, Failure> {
    let profile: Profile = args.profile.into();
    let mut quiet = |_: &str| {};
    let mut prove_once = || -> Result<(f64, starling::Proved), Failure> {
        let start = Instant::now();
        let proved = starling::prove(circuit, args.count, inputs.to_vec(), profile, &mut quiet)?;
        Ok((start.elapsed().as_secs_f64(), proved))
    };
    let (cold_s, first) = prove_once()?;
    let mut later = Vec::with_capacity(args.runs);
    for _ in 0..args.runs {
        later.push(prove_once()?);
    }
    later.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (median_s, median) = if later.is_empty() {
        (cold_s, first)
    } else {
        later.swap_remove(later.len() / 2)
    };
    Ok(TimedProofs {
        cold_s,
        median,
        median_s,
    })
}

/// `starling bench HASH`: prove and verify random inputs, report the costs.
pub(crate) fn run(circuit: &Arc<StatementCircuit>, args: &BenchArgs) -> Result<(), Failure> {
    let kind = circuit.kind();
    let profile: Profile = args.profile.into();
    let inputs = random_inputs(circuit, args.count, SEED);
    let (native_ns, native_hw_ns) = native_ns(circuit, &inputs);

    let runs = timed_proofs(circuit, args, &inputs)?;
    let cold_prove_s = runs.cold_s;
    let proved = runs.median;
    let prove_s = runs.median_s;
    let bytes = proved.file.to_bytes();
    let file_bytes = bytes.len();
    let proof_bytes = proved.file.proof_len();
    let expected = Expected::new(circuit.clone(), args.count, inputs)?;
    let verify_ms = verify_time(&expected, &bytes)?.as_secs_f64() * 1e3;
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
            "hash": kind.name(),
            "count": args.count,
            "threads": threads,
            "prove_s": prove_s,
            "cold_prove_s": cold_prove_s,
            "runs": args.runs,
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
        let noun = kind.instance_noun();
        println!(
            "hash            {} {noun} ({} profile)",
            kind.name(),
            profile.name()
        );
        println!("count           {}", args.count);
        println!("threads         {threads}");
        println!(
            "prove           {prove_s:.3} s  ({hashes_per_s:.0} hashes/s; median of {} proofs after the first)",
            args.runs
        );
        println!("first proof     {cold_prove_s:.3} s  (fresh process: every buffer faulted in)");
        for (name, d) in proved.timings.phases() {
            println!("  {name:<14}{:.3} s", d.as_secs_f64());
        }
        match native_hw_ns {
            Some(hw) => println!("native          {native_ns:.1} ns/{noun} (portable), {hw:.1} ns (SHA-NI)"),
            None => println!("native          {native_ns:.1} ns/{noun} (portable)"),
        }
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
    let circuit = StatementCircuit::builtin(StatementKind::Sha256).expect("built in");
    let inputs = random_inputs(&circuit, COUNT, SEED);
    let expected = Expected::new(circuit.clone(), COUNT, inputs.clone())?;
    let mut progress = |msg: &str| println!("  {msg}");
    let start = Instant::now();
    let proved = starling::prove(&circuit, COUNT, inputs, Profile::Default, &mut progress)?;
    let prove_s = start.elapsed().as_secs_f64();
    let bytes = proved.file.to_bytes();
    println!(
        "Proved in {prove_s:.2} s ({:.0} compressions/s); proof is {} bytes ({} with the public values).",
        COUNT as f64 / prove_s,
        proved.file.proof_len(),
        bytes.len()
    );
    let start = Instant::now();
    let verified = starling::verify(&expected, &bytes)?;
    println!(
        "Verified in {:.2} ms at {:.1} bits of security.",
        start.elapsed().as_secs_f64() * 1e3,
        verified.security_bits()
    );
    let first = format_output_row(&circuit, verified.statement().output_row(0));
    println!("First output (cv + F(cv, block)) = {first}");
    println!("Every input and output of the {COUNT} compressions is bound by the proof.");
    Ok(())
}
