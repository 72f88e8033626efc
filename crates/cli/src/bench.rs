//! `starling bench` and `starling demo`: prove and verify random inputs and
//! report what it cost, next to native hashing measured in the same run.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use starling::kind::{Batch, Signatures, MAX_SIGNED_MESSAGE_BYTES as MAX_MESSAGE_BYTES};
use starling::{Builtin, Expected, Kind, Profile, Records};
use starling_circuit::blake3::{compress_reference, Blake3Input};

use rand::{Rng, SeedableRng};
use starling::kind::Chain;
use starling::Hash;

use crate::args::{BenchArgs, BenchCommon, BenchWhat, SlhArgs};
use crate::{
    check_count, kind_named, native_sha256, native_sha512, set_threads, unreadable, value_name, Failure,
};

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

/// Native cost of one call of the compression function (or permutation),
/// in ns.
struct NativeCost {
    /// Plain portable code: the yardstick Flock's figures use.
    portable: f64,
    /// The SHA extensions (SHA-NI, ARMv8 SHA2), for SHA-256 where the CPU
    /// has them.
    hw: Option<f64>,
    /// The fastest code this machine has for one call at a time.
    best: f64,
}

/// Native cost of one call of the compression function (or permutation)
/// `which`, on random inputs. Every kind is measured by the calls it proves,
/// so the figures of batches, digests, chains and trees compare.
fn native_ns_per_call(which: Builtin) -> NativeCost {
    let sample = Batch::builtin(which).random_inputs(4096, SEED);
    let sample = sample.iter();
    match which {
        Builtin::Sha256 => {
            // A record is the cv (words big-endian) then the block.
            let items: Vec<([u32; 8], [u8; 64])> = sample
                .map(|r| {
                    let cv =
                        std::array::from_fn(|w| u32::from_be_bytes(r[4 * w..4 * w + 4].try_into().unwrap()));
                    (cv, r[32..96].try_into().unwrap())
                })
                .collect();
            let portable = ns_per_call(&items, |(cv, block)| native_sha256::compress(cv, block));
            // `sha2` picks the SHA extensions at run time where the CPU has
            // them, its portable code otherwise.
            let sha2 = ns_per_call(&items, |(cv, block)| sha2::compress256(cv, &[(*block).into()]));
            let hw = starling::cpu::has_sha_extensions().then_some(sha2);
            NativeCost {
                portable,
                hw,
                best: portable.min(sha2),
            }
        }
        Builtin::Sha512 => {
            // A record is the cv (words big-endian) then the block.
            let items: Vec<([u64; 8], [u8; 128])> = sample
                .map(|r| {
                    let cv =
                        std::array::from_fn(|w| u64::from_be_bytes(r[8 * w..8 * w + 8].try_into().unwrap()));
                    (cv, r[64..192].try_into().unwrap())
                })
                .collect();
            let portable = ns_per_call(&items, |(cv, block)| native_sha512::compress(cv, block));
            // `sha2` uses AVX2 for the message schedule where the CPU has
            // it (no x86-64 CPU we measure has SHA-512 instructions).
            let sha2 = ns_per_call(&items, |(cv, block)| sha2::compress512(cv, &[(*block).into()]));
            NativeCost {
                portable,
                hw: None,
                best: portable.min(sha2),
            }
        }
        Builtin::Blake3 => {
            // The portable baseline is the plain compression function; the
            // best is the `blake3` crate with its Rust SIMD code for one
            // block (SSE4.1 on x86-64; see Cargo.toml): one keyed hash of a
            // 64-byte message is exactly one compression (cv = key, flags
            // CHUNK_START | CHUNK_END | ROOT | KEYED_HASH).
            let items: Vec<Blake3Input> = sample
                .map(|r| {
                    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
                    Blake3Input {
                        cv: std::array::from_fn(|i| word(&r[4 * i..4 * i + 4])),
                        block: std::array::from_fn(|i| word(&r[32 + 4 * i..36 + 4 * i])),
                        counter: u64::from(word(&r[96..100])) | u64::from(word(&r[100..104])) << 32,
                        block_len: word(&r[104..108]),
                        flags: word(&r[108..112]),
                    }
                })
                .collect();
            let portable = ns_per_call(&items, |input| {
                black_box(compress_reference(input));
            });
            let keyed: Vec<([u8; 32], [u8; 64])> = items
                .iter()
                .map(|x| {
                    let bytes = |w: &[u32]| w.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
                    (
                        bytes(&x.cv).try_into().unwrap(),
                        bytes(&x.block).try_into().unwrap(),
                    )
                })
                .collect();
            let simd = ns_per_call(&keyed, |(key, block)| {
                black_box(blake3::keyed_hash(key, block));
            });
            NativeCost {
                portable,
                hw: None,
                best: portable.min(simd),
            }
        }
        Builtin::KeccakF1600 => {
            let items: Vec<[u64; 25]> = sample
                .map(|r| std::array::from_fn(|i| u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap())))
                .collect();
            // The `keccak` crate's permutation is the fastest one-at-a-time
            // code on x86-64 (there is no wider instruction for one state).
            let portable = ns_per_call(&items, keccak::f1600);
            NativeCost {
                portable,
                hw: None,
                best: portable,
            }
        }
    }
}

/// The value of `key` (a line `key: N kB`) in the /proc file `path`, in
/// bytes; `None` where the file or the line is missing (not Linux).
fn proc_bytes(path: &str, key: &str) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// Peak resident set size of this process (0 where unavailable).
fn peak_rss_bytes() -> u64 {
    proc_bytes("/proc/self/status", "VmHWM").unwrap_or(0)
}

/// Resident anonymous memory of this process on transparent huge pages
/// (`None` where the kernel does not say). The tables the prover keeps
/// between proofs are most of its memory; where they sit on 4 KiB pages a
/// pass that strides across their rows misses the TLB on nearly every row,
/// which on a virtual machine costs a two-level page walk.
fn huge_page_bytes() -> Option<u64> {
    proc_bytes("/proc/self/smaps_rollup", "AnonHugePages")
}

/// Verifications [`verify_time`] takes the median of: a few milliseconds
/// each, and on a shared machine the median of five still moved by a third
/// between runs of the same binary (SHA-256 at 2^14: 3.7 to 5.5 ms).
const VERIFY_RUNS: usize = 21;

/// Median verify time over [`VERIFY_RUNS`] runs, as a verifier who expects
/// these inputs checks the proof: from the file's bytes, decoding included.
fn verify_time(expected: &Expected, bytes: &[u8]) -> Result<Duration, Failure> {
    let mut times = Vec::new();
    for _ in 0..VERIFY_RUNS {
        let start = Instant::now();
        starling::verify(expected, bytes)?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// CPU time this process has used so far, all its threads together
/// (`None` where the system does not say).
fn process_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through the pointer,
        // which points at `ts`, and keeps nothing.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    None
}

/// The proofs a benchmark times.
struct TimedProofs {
    /// Seconds of the first proof of the process.
    cold_s: f64,
    /// The first proof's file with the timings of the median of the later
    /// ones, and that median's time.
    median: starling::Proved,
    median_s: f64,
    /// The median proof's CPU time per phase (all threads), in the order of
    /// its timings; empty where unknown.
    median_cpu: Vec<Duration>,
}

/// Proves the inputs once, then `args.runs` more times, and keeps the median
/// of the later runs.
///
/// The first proof of a process pays for faulting in every buffer, which on a
/// virtual machine can cost as much as the proof itself (see `allocator`);
/// later proofs reuse the memory, as a prover that proves batch after batch
/// does. Both figures are reported. Like such a prover, the loop keeps no
/// proof it is done with: proofs are deterministic, so the first one's file
/// stands for every run and only the later runs' timings are kept (every
/// run's statement and proof, a few megabytes each, would otherwise add to
/// the peak memory reported).
fn timed_proofs(
    kind: &Arc<dyn Kind>,
    args: &BenchCommon,
    inputs: &Records,
    private: &Records,
) -> Result<TimedProofs, Failure> {
    let profile: Profile = args.profile.into();
    // The prover reports each phase as it ends: the process's CPU time
    // between those reports is each phase's (a phase's also holds the
    // little the prover does after the previous one).
    let prove_once = || -> Result<(f64, starling::Proved, Vec<Duration>), Failure> {
        let mut marks = vec![process_cpu()];
        let start = Instant::now();
        let proved = starling::prove_private(
            kind.clone(),
            inputs.clone(),
            private.clone(),
            profile,
            &mut |_: &starling::Phase| marks.push(process_cpu()),
        )?;
        let s = start.elapsed().as_secs_f64();
        let marks: Option<Vec<Duration>> = marks.into_iter().collect();
        let cpu = match marks {
            Some(m) if m.len() == proved.timings.phases().len() + 1 => {
                m.windows(2).map(|w| w[1].saturating_sub(w[0])).collect()
            }
            _ => Vec::new(),
        };
        Ok((s, proved, cpu))
    };
    let (cold_s, mut median, cold_cpu) = prove_once()?;
    let mut later = Vec::with_capacity(args.runs);
    for _ in 0..args.runs {
        let (s, proved, cpu) = prove_once()?;
        later.push((s, proved.timings, cpu));
    }
    later.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (median_s, median_cpu) = if later.is_empty() {
        (cold_s, cold_cpu)
    } else {
        let (s, timings, cpu) = later.swap_remove(later.len() / 2);
        median.timings = timings;
        (s, cpu)
    };
    Ok(TimedProofs {
        cold_s,
        median,
        median_s,
        median_cpu,
    })
}

/// `starling bench ...`: prove and verify inputs made up here, report the costs.
pub(crate) fn run(what: BenchWhat) -> Result<(), Failure> {
    match what {
        BenchWhat::Sha256(args) => batch(Builtin::Sha256, &args),
        BenchWhat::Sha512(args) => batch(Builtin::Sha512, &args),
        BenchWhat::Blake3(args) => batch(Builtin::Blake3, &args),
        BenchWhat::KeccakF1600(args) => batch(Builtin::KeccakF1600, &args),
        BenchWhat::Digest {
            hash,
            msg_len,
            count,
            common,
        } => {
            let hash: Hash = hash.into();
            check_count("--count", count)?;
            if msg_len > hash.max_message() {
                return Err(unreadable(format!(
                    "--msg-len: {} messages are at most {} bytes",
                    hash.name(),
                    hash.max_message()
                )));
            }
            set_threads(common.threads)?;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
            let messages: Vec<Vec<u8>> = (0..count)
                .map(|_| (0..msg_len).map(|_| rng.gen()).collect())
                .collect();
            let records: Records = messages.iter().map(Vec::as_slice).collect();
            report(starling::kind::digest(hash), records, hash.name(), &common)
        }
        BenchWhat::Chain { hash, steps, common } => {
            let hash: Hash = hash.into();
            check_count("--steps", steps as usize)?;
            set_threads(common.threads)?;
            let start = vec![0x42u8; hash.digest_bytes()];
            let records: Records = [Chain::record(&start, steps).as_slice()].into_iter().collect();
            report(starling::kind::chain(hash), records, hash.name(), &common)
        }
        BenchWhat::MerkleRoot {
            hash,
            scheme,
            leaves,
            common,
        } => {
            check_count("--leaves", leaves)?;
            set_threads(common.threads)?;
            let kind = kind_named(
                "merkle-root",
                Some(hash),
                Some(&value_name(&scheme)),
                &SlhArgs::default(),
                None,
            )?;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
            // Plain and bitcoin leaves are a digest's size; rfc6962 takes 32 bytes.
            let size = kind.input_size().unwrap_or(32);
            let all: Vec<Vec<u8>> = (0..leaves)
                .map(|_| (0..size).map(|_| rng.gen()).collect())
                .collect();
            let records: Records = all.iter().map(Vec::as_slice).collect();
            report(kind, records, Hash::from(hash).name(), &common)
        }
        BenchWhat::Signatures {
            scheme,
            slh,
            count,
            msg_len,
            common,
        } => {
            check_count("--count", count)?;
            if msg_len > MAX_MESSAGE_BYTES {
                return Err(unreadable(format!(
                    "--msg-len: signed messages are at most {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            set_threads(common.threads)?;
            let interface = slh.interface.map(|i| value_name(&i));
            let kind = starling::kind::named_signatures(&scheme, slh.ctx.as_deref(), interface.as_deref())?;
            let (public, private) = kind.random_batch(count, msg_len, SEED);
            let native = native_verification(&kind, &public, &private);
            let bench = Bench {
                private,
                calls: Builtin::Sha256,
                native_verification: Some(native),
            };
            report_with(Arc::new(kind), public, "sha256", &common, bench)
        }
    }
}

/// What a native verifier of a signature batch costs on this machine.
struct NativeVerification {
    /// Compression calls it makes for the whole batch.
    compressions: u64,
    /// Best-of-5 nanoseconds per signature.
    ns: f64,
}

/// Verifies every signature natively, best of five rounds.
fn native_verification(kind: &Signatures, public: &Records, private: &Records) -> NativeVerification {
    let mut compressions = 0;
    let mut best = f64::INFINITY;
    for round in 0..5 {
        let mut calls = 0;
        let start = Instant::now();
        for (p, s) in public.iter().zip(private.iter()) {
            assert!(
                black_box(kind.verify_natively(p, s, &mut calls)),
                "a sampled signature verifies"
            );
        }
        best = best.min(start.elapsed().as_nanos() as f64 / public.len() as f64);
        if round == 0 {
            compressions = calls;
        }
    }
    NativeVerification {
        compressions,
        ns: best,
    }
}

/// What a benchmark proves beyond its public inputs, and what its native
/// figures compare with.
struct Bench {
    /// The private records (signatures), if the kind has them.
    private: Records,
    /// The compression function or permutation the instances compute.
    calls: Builtin,
    /// For signatures: the native verifier's calls and time.
    native_verification: Option<NativeVerification>,
}

/// `starling bench sha256|sha512|blake3|keccak-f1600`.
fn batch(which: Builtin, args: &BenchArgs) -> Result<(), Failure> {
    check_count("--count", args.count)?;
    set_threads(args.common.threads)?;
    let batch = Batch::builtin(which);
    let inputs = batch.random_inputs(args.count, SEED);
    report(Arc::new(batch), inputs, which.name(), &args.common)
}

/// Proves `inputs` (timed as [`timed_proofs`] says), verifies the median
/// proof against them, and prints the figures next to the native cost of
/// the same compression calls (portable, and on hardware where there is a
/// hardware path), per statement unit (hash, message, step, leaf).
fn report(kind: Arc<dyn Kind>, inputs: Records, hash: &str, args: &BenchCommon) -> Result<(), Failure> {
    let bench = Bench {
        private: Records::new(),
        calls: kind
            .circuit()
            .builtin_kind()
            .expect("benchmarks prove built-in circuits"),
        native_verification: None,
    };
    report_with(kind, inputs, hash, args, bench)
}

/// [`report`] for a benchmark that says what it proves and compares with.
fn report_with(
    kind: Arc<dyn Kind>,
    inputs: Records,
    hash: &str,
    args: &BenchCommon,
    bench: Bench,
) -> Result<(), Failure> {
    let profile: Profile = args.profile.into();
    let runs = timed_proofs(&kind, args, &inputs, &bench.private)?;
    // The provers' peak and their buffers' pages, read before the verifications.
    let peak = peak_rss_bytes();
    let huge_pages = huge_page_bytes();
    let cold_prove_s = runs.cold_s;
    let proved = runs.median;
    let prove_s = runs.median_s;
    let phase_cpu = runs.median_cpu;
    let bytes = proved.file.to_bytes();
    let file_bytes = bytes.len();
    let proof_bytes = proved.file.proof_len();
    let count = proved.file.statement.count();
    let compressions = proved.file.statement.calls();
    let instances = proved.file.statement.instances();
    let expected = Expected::new(kind.clone(), inputs)?;
    let verify_ms = verify_time(&expected, &bytes)?.as_secs_f64() * 1e3;
    let security_bits = starling::security_bits(&proved.file);
    let threads = rayon::current_num_threads();
    let hashes_per_s = count as f64 / prove_s;
    let compressions_per_s = compressions as f64 / prove_s;
    let native = native_ns_per_call(bench.calls);
    // The calls a native verifier makes per unit: those proved, or for
    // signatures the ones it counted.
    let native_calls = bench
        .native_verification
        .as_ref()
        .map_or(compressions as f64, |v| v.compressions as f64);
    let calls_per_unit = native_calls / count as f64;
    let native_ns = native.portable * calls_per_unit;
    let native_hw_ns = native.hw.map(|ns| ns * calls_per_unit);
    let native_best_ns = bench
        .native_verification
        .as_ref()
        .map_or(native.best * calls_per_unit, |v| v.ns);
    let overhead = prove_s * 1e9 / count as f64 / native_ns;
    let overhead_best = prove_s * 1e9 / count as f64 / native_best_ns;

    if args.json {
        let mut phases = serde_json::Map::new();
        for (name, d) in proved.timings.phases() {
            phases.insert(name.to_string(), serde_json::json!(d.as_secs_f64()));
        }
        let phases_cpu: serde_json::Map<String, serde_json::Value> = proved
            .timings
            .phases()
            .iter()
            .zip(&phase_cpu)
            .map(|((name, _), cpu)| (name.to_string(), serde_json::json!(cpu.as_secs_f64())))
            .collect();
        let mut obj = serde_json::json!({
            "hash": hash,
            "kind": kind.name(),
            "count": count,
            "compressions": compressions,
            "instances": instances,
            "threads": threads,
            "cpu_tier": starling::cpu::tier().name(),
            "cpu_extensions": starling::cpu::extensions().iter().map(|e| e.name()).collect::<Vec<_>>(),
            "prove_s": prove_s,
            "cold_prove_s": cold_prove_s,
            "runs": args.runs,
            "hashes_per_s": hashes_per_s,
            "compressions_per_s": compressions_per_s,
            "native_ns": native_ns,
            "native_hw_ns": native_hw_ns,
            "native_best_ns": native_best_ns,
            "overhead": overhead,
            "overhead_best": overhead_best,
            "proof_bytes": proof_bytes,
            "file_bytes": file_bytes,
            "verify_ms": verify_ms,
            "peak_rss_bytes": peak,
            "huge_page_bytes": huge_pages,
            "security_bits": security_bits,
            "profile": profile.name(),
            "phases_s": phases,
            "phases_cpu_s": phases_cpu,
        });
        if let Some(v) = &bench.native_verification {
            obj["native_compressions"] = serde_json::json!(v.compressions);
            obj["native_verify_ns"] = serde_json::json!(v.ns);
        }
        println!("{obj}");
    } else {
        let noun = kind.noun();
        println!("statement       {} ({} profile)", kind.name(), profile.name());
        println!("count           {count} {noun}s, {compressions} compression calls in {instances} circuit instances");
        println!("threads         {threads}");
        let extensions = starling::cpu::extensions();
        if extensions.is_empty() {
            println!("cpu tier        {}", starling::cpu::tier());
        } else {
            let names: Vec<&str> = extensions.iter().map(|e| e.name()).collect();
            println!(
                "cpu tier        {} (with {})",
                starling::cpu::tier(),
                names.join(", ")
            );
        }
        println!(
            "prove           {prove_s:.3} s  ({hashes_per_s:.0} {noun}s/s, {compressions_per_s:.0} instances/s; median of {} proofs after the first)",
            args.runs
        );
        println!("first proof     {cold_prove_s:.3} s  (fresh process: every buffer faulted in)");
        for (i, (name, d)) in proved.timings.phases().iter().enumerate() {
            match phase_cpu.get(i) {
                // CPU time over wall time: how many threads ran on average
                // (idle workers spin a little before they sleep).
                Some(cpu) => println!(
                    "  {name:<14}{:.3} s  (cpu {:.3} s, {:.1}x wall)",
                    d.as_secs_f64(),
                    cpu.as_secs_f64(),
                    cpu.as_secs_f64() / d.as_secs_f64().max(1e-9)
                ),
                None => println!("  {name:<14}{:.3} s", d.as_secs_f64()),
            }
        }
        match native_hw_ns {
            Some(hw) => println!(
                "native          {native_ns:.1} ns/{noun} (portable), {hw:.1} ns (SHA extensions), {native_best_ns:.1} ns (best)"
            ),
            None => println!("native          {native_ns:.1} ns/{noun} (portable), {native_best_ns:.1} ns (best)"),
        }
        if let Some(v) = &bench.native_verification {
            println!(
                "native verify   {:.1} us/{noun} ({} compression calls in all, {:.2} per proved call)",
                v.ns / 1e3,
                v.compressions,
                v.compressions as f64 / compressions as f64
            );
        }
        println!("overhead        {overhead:.0}x portable native hashing, {overhead_best:.0}x the best");
        println!("proof           {proof_bytes} bytes (file with public values: {file_bytes} bytes)");
        println!("verify          {verify_ms:.2} ms");
        println!("peak RSS        {:.1} MiB", peak as f64 / (1024.0 * 1024.0));
        if let Some(h) = huge_pages {
            println!(
                "huge pages      {:.1} MiB resident after the proofs",
                h as f64 / (1024.0 * 1024.0)
            );
        }
        println!("security        {security_bits:.1} bits");
    }
    Ok(())
}

pub(crate) fn demo() -> Result<(), Failure> {
    const COUNT: usize = 4096;
    println!("Starling demo: proving {COUNT} SHA-256 compressions (random inputs, fixed seed).");
    let batch = Batch::builtin(Builtin::Sha256);
    let inputs = batch.random_inputs(COUNT, SEED);
    let kind: Arc<dyn Kind> = Arc::new(batch);
    let expected = Expected::new(kind.clone(), inputs.clone())?;
    let mut progress = |phase: &starling::Phase| println!("  {phase}");
    let start = Instant::now();
    let proved = starling::prove(kind.clone(), inputs, Profile::Default, &mut progress)?;
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
    let first = kind.format_output(verified.statement().outputs().get(0));
    println!("First output (cv + F(cv, block)) = {first}");
    println!("Every input and output of the {COUNT} compressions is bound by the proof.");
    Ok(())
}
