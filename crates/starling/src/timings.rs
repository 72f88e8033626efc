//! Wall-clock time of each prover phase, for progress reports and benchmarks.

use std::fmt;
use std::time::{Duration, Instant};

/// The prover's phases, in the order they run; every proof runs each once.
pub const PROVER_PHASES: [&str; 8] = [
    "instances",
    "witness",
    "outputs",
    "commit",
    "zerocheck",
    "lincheck",
    "wiring",
    "open",
];

/// A prover phase that has just ended, as a progress hook hears of it:
/// enough for a progress bar (`done` of `total`) and for the command
/// line's line per phase (its `Display`).
#[derive(Clone, Copy, Debug)]
pub struct Phase {
    /// The phase's name, one of [`PROVER_PHASES`].
    pub name: &'static str,
    /// Phases ended so far, this one included.
    pub done: usize,
    /// Phases in all.
    pub total: usize,
    /// How long this phase took.
    pub elapsed: Duration,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:<12} {:>9.3} s", self.name, self.elapsed.as_secs_f64())
    }
}

/// Named phase durations, in the order they ran.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    phases: Vec<(&'static str, Duration)>,
}

impl Timings {
    /// Runs `f` as the phase `name`, reporting it through `progress`.
    pub(crate) fn phase<T>(
        &mut self,
        name: &'static str,
        progress: &mut dyn FnMut(&Phase),
        f: impl FnOnce() -> T,
    ) -> T {
        let start = Instant::now();
        let out = f();
        let elapsed = start.elapsed();
        self.phases.push((name, elapsed));
        progress(&Phase {
            name,
            done: self.phases.len(),
            total: PROVER_PHASES.len(),
            elapsed,
        });
        out
    }

    /// The phases in order.
    pub fn phases(&self) -> &[(&'static str, Duration)] {
        &self.phases
    }

    /// Sum of all phases.
    pub fn total(&self) -> Duration {
        self.phases.iter().map(|(_, d)| *d).sum()
    }
}
