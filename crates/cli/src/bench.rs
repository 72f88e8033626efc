//! `starling bench` and `starling demo`: prove and verify random inputs and
//! report what it cost (the benchmark itself is `starling_bench`'s, which the
//! Python package shares).

use starling::kind::SampleInputs;
use std::sync::Arc;
use std::time::Instant;

use starling::kind::Batch;
use starling::{Builtin, Expected, Kind, Profile};
use starling_bench::{Options, Sizes, SEED};

use crate::args::{BenchWhat, Bounds, SlhArgs};
use crate::{set_threads, value_name, with_named_params, Failure, Named};

/// `starling bench ...`: the benchmark `starling_bench` runs, with its
/// parameters and size as the flags give them, printed as text or JSON.
pub(crate) fn run(what: BenchWhat) -> Result<(), Failure> {
    // Proof after proof, as a prover of batch after batch: the later
    // proofs reuse the first one's buffers. A command that proves once
    // drops them when its proof is done, before its file is written.
    starling::keep_buffers_between_proofs();
    let none = SlhArgs::default();
    let mut bounds = Bounds::default();
    let (name, hash, scheme, slh, sizes, common) = match what {
        BenchWhat::Sha256(args) => ("sha256", None, None, &none, count(args.count), args.common),
        BenchWhat::Sha512(args) => ("sha512", None, None, &none, count(args.count), args.common),
        BenchWhat::Blake3(args) => ("blake3", None, None, &none, count(args.count), args.common),
        BenchWhat::KeccakF1600(args) => ("keccak-f1600", None, None, &none, count(args.count), args.common),
        BenchWhat::Digest {
            hash,
            msg_len,
            count,
            common,
        } => {
            let sizes = Sizes {
                count: Some(count),
                msg_len: Some(msg_len),
                ..Sizes::default()
            };
            ("digest", Some(hash), None, &none, sizes, common)
        }
        BenchWhat::Chain { hash, steps, common } => {
            let sizes = Sizes {
                steps: Some(steps),
                ..Sizes::default()
            };
            ("chain", Some(hash), None, &none, sizes, common)
        }
        BenchWhat::MerkleRoot {
            hash,
            scheme,
            leaves,
            common,
        } => {
            let sizes = Sizes {
                leaves: Some(leaves),
                ..Sizes::default()
            };
            (
                "merkle-root",
                Some(hash),
                Some(value_name(&scheme)),
                &none,
                sizes,
                common,
            )
        }
        BenchWhat::Preimage {
            hash,
            max_len,
            count: n,
            common,
        } => {
            bounds.max_len = max_len;
            ("preimage", Some(hash), None, &none, count(n), common)
        }
        BenchWhat::Membership {
            hash,
            scheme,
            leaves,
            count,
            common,
        } => {
            let sizes = Sizes {
                count: Some(count),
                leaves: Some(leaves),
                ..Sizes::default()
            };
            let scheme = Some(value_name(&scheme));
            ("membership", Some(hash), scheme, &none, sizes, common)
        }
        BenchWhat::Ring { leaves, common } => {
            let sizes = Sizes {
                leaves: Some(leaves),
                ..Sizes::default()
            };
            ("ring", None, None, &none, sizes, common)
        }
        BenchWhat::Signatures {
            scheme,
            ref slh,
            count,
            msg_len,
            common,
        } => {
            let sizes = Sizes {
                count: Some(count),
                msg_len: Some(msg_len),
                ..Sizes::default()
            };
            ("signatures", None, Some(scheme), slh, sizes, common)
        }
    };
    set_threads(common.threads)?;
    let named = Named {
        hash,
        scheme: scheme.as_deref(),
        slh,
        bounds: &bounds,
        bristol: None,
    };
    let target = with_named_params(&named, |params| starling_bench::target(name, params, &sizes))?;
    let options = Options {
        runs: common.runs,
        profile: common.profile.into(),
        zk: common.zk,
    };
    let report = starling_bench::run(target, &options)?;
    if common.json {
        println!("{}", report.to_json());
    } else {
        print!("{report}");
    }
    Ok(())
}

/// The size of a benchmark that takes `--count` alone.
fn count(count: usize) -> Sizes {
    Sizes {
        count: Some(count),
        ..Sizes::default()
    }
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
