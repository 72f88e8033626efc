//! The proofs and verifications a benchmark times.

use std::sync::Arc;
use std::time::{Duration, Instant};

use starling::{Error, Expected, Kind, ProveOptions, Randomness, Records};

use crate::process::process_cpu;
use crate::Options;

/// Verifications [`verify`] takes the median of: a few milliseconds
/// each, and on a shared machine the median of five still moved by a third
/// between runs of the same binary (SHA-256 at 2^14: 3.7 to 5.5 ms).
const VERIFY_RUNS: usize = 21;

/// Median verify time over [`VERIFY_RUNS`] runs, as a verifier who expects
/// these inputs checks the proof: from the file's bytes, decoding included.
pub(crate) fn verify(expected: &Expected, bytes: &[u8]) -> Result<Duration, Error> {
    let mut times = Vec::new();
    for _ in 0..VERIFY_RUNS {
        let start = Instant::now();
        starling::verify(expected, bytes)?;
        times.push(start.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// The proofs a benchmark times.
pub(crate) struct TimedProofs {
    /// Seconds of the first proof of the process.
    pub(crate) cold_s: f64,
    /// The last proof's file with the timings of the median of the later
    /// ones, and that median's time.
    pub(crate) median: starling::Proved,
    pub(crate) median_s: f64,
    /// The median proof's CPU time per phase (all threads), in the order of
    /// its timings; empty where unknown.
    pub(crate) median_cpu: Vec<Duration>,
}

/// Proves the inputs once, then `options.runs` more times, and keeps the median
/// of the later runs.
///
/// The first proof of a process pays for faulting in every buffer, which on a
/// virtual machine can cost as much as the proof itself (see `starling_alloc`);
/// later proofs reuse the memory, as a prover that proves batch after batch
/// does. Both figures are reported. Like such a prover, the loop holds
/// nothing of a proof it is done with, so that the peak memory reported is
/// one proof's:
/// - the inputs go into each proof and are taken back from its statement
///   for the next (a copy held beside them was 52 MB at 2^18 Keccak-f
///   permutations);
/// - each proof is dropped before the next starts (its statement, inputs
///   and outputs, was another 105 MB), and the last one's file stands for
///   every run (plain proofs are deterministic; zero-knowledge ones differ,
///   in size too by a few hundred bytes of opening paths);
/// - only the later runs' timings are kept.
pub(crate) fn proofs(
    kind: &Arc<dyn Kind>,
    options: &Options,
    inputs: Records,
    private: &Records,
) -> Result<TimedProofs, Error> {
    let runs = options.runs;
    let options = ProveOptions {
        profile: options.profile,
        zk: options.zk.then_some(Randomness::Os),
    };
    // The prover reports each phase as it ends: the process's CPU time
    // between those reports is each phase's (a phase's also holds the
    // little the prover does after the previous one).
    let prove_once = |inputs: Records| -> Result<(f64, starling::Proved, Vec<Duration>), Error> {
        let mut marks = vec![process_cpu()];
        let start = Instant::now();
        let proved = starling::prove_private(
            kind.clone(),
            inputs,
            private.clone(),
            options,
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
    let (cold_s, mut last, cold_cpu) = prove_once(inputs)?;
    let mut later = Vec::with_capacity(runs);
    for _ in 0..runs {
        let inputs = last.file.statement.inputs().clone();
        drop(last);
        let (s, proved, cpu) = prove_once(inputs)?;
        later.push((s, proved.timings.clone(), cpu));
        last = proved;
    }
    later.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (median_s, median_cpu) = if later.is_empty() {
        (cold_s, cold_cpu)
    } else {
        let (s, timings, cpu) = later.swap_remove(later.len() / 2);
        last.timings = timings;
        (s, cpu)
    };
    Ok(TimedProofs {
        cold_s,
        median: last,
        median_s,
        median_cpu,
    })
}
