#![doc = include_str!("../README.md")]

mod native;
mod native_sha256;
mod native_sha512;
mod process;
mod report;
mod target;
mod timed;

pub use report::Report;
pub use target::{check_count, target, Sizes, Target, SIGNED_MESSAGE_BYTES};

use starling::kind::{SampleInputs, SampleSignatures};
use std::sync::Arc;

use starling::kind::Batch;
use starling::{Builtin, Error, Expected, Kind, Profile, Records};

/// The fixed seed of benchmark and demo inputs.
pub const SEED: u64 = 0x5354_4152_4c49_4e47;

/// How a benchmark proves.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Proofs timed after the first (which also faults in the memory); the
    /// median is reported. 0 reports the first proof alone.
    pub runs: usize,
    /// Security profile.
    pub profile: Profile,
    /// Zero-knowledge proofs (always, for a kind that requires them).
    pub zk: bool,
}

/// Proves the target's inputs (timed as [`timed::proofs`] says), verifies
/// the median proof against them, and reports the figures next to the
/// native cost of the same compression calls (portable, and on hardware
/// where there is a hardware path), per statement unit (hash, message,
/// step, leaf).
pub fn run(target: Target, options: &Options) -> Result<Report, Error> {
    let hash = target.hash_name();
    let (kind, inputs, private, calls, native_verification): (Arc<dyn Kind>, _, _, _, _) = match target {
        Target::Signatures { kind, count, msg_len } => {
            let (public, private) = kind.random_batch(count, msg_len, SEED);
            let native = native::verification(&kind, &public, &private);
            (Arc::new(kind), public, private, Builtin::Sha256, Some(native))
        }
        Target::Secrets {
            kind,
            inputs,
            private,
            hash,
        } => (kind, inputs, private, hash.circuit(), None),
        Target::Inputs { kind, inputs, .. } => {
            let calls = kind
                .circuit()
                .builtin_kind()
                .ok_or_else(|| Error::Input("benchmarks prove built-in circuits".into()))?;
            (kind, inputs, Records::new(), calls, None)
        }
    };
    let runs = timed::proofs(&kind, options, inputs, &private)?;
    // The provers' peak and their buffers' pages, read before the verifications.
    let peak_rss_bytes = process::peak_rss_bytes();
    let huge_page_bytes = process::huge_page_bytes();
    let bytes = runs.median.file.to_bytes();
    let statement = &runs.median.file.statement;
    let count = statement.count();
    let compressions = statement.calls();
    let instances = statement.instances();
    // The inputs went through the proofs: the statement holds them as given.
    let expected = Expected::new(kind.clone(), statement.inputs().clone())?;
    let verify_ms = timed::verify(&expected, &bytes)?.as_secs_f64() * 1e3;
    let native = native::ns_per_call(calls);
    // The calls a native verifier makes per unit: those proved, or for
    // signatures the ones it counted.
    let native_calls = native_verification
        .as_ref()
        .map_or(compressions as f64, |v| v.compressions as f64);
    let calls_per_unit = native_calls / count as f64;
    let native_best_ns = native_verification
        .as_ref()
        .map_or(native.best * calls_per_unit, |v| v.ns);
    Ok(Report {
        hash,
        kind: kind.name(),
        noun: kind.noun(),
        count,
        compressions,
        instances,
        threads: rayon::current_num_threads(),
        profile: options.profile,
        zk: runs.median.file.zk,
        runs: options.runs,
        prove_s: runs.median_s,
        cold_prove_s: runs.cold_s,
        phases: runs.median.timings.phases().to_vec(),
        phases_cpu: runs.median_cpu,
        native_ns: native.portable * calls_per_unit,
        native_hw_ns: native.hw.map(|ns| ns * calls_per_unit),
        native_best_ns,
        native_verification,
        proof_bytes: runs.median.file.proof_len(),
        file_bytes: bytes.len(),
        verify_ms,
        peak_rss_bytes,
        huge_page_bytes,
        security_bits: starling::security_bits(&runs.median.file),
    })
}

/// A batch of `count` random inputs of a built-in compression function,
/// from [`SEED`]: what `bench sha256` and `demo` prove.
pub fn batch_inputs(which: Builtin, count: usize) -> Records {
    Batch::builtin(which).random_inputs(count, SEED)
}
