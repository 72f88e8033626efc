//! Wall-clock time of each prover phase, for progress lines and benchmarks.

use std::time::{Duration, Instant};

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
        progress: &mut dyn FnMut(&str),
        f: impl FnOnce() -> T,
    ) -> T {
        let start = Instant::now();
        let out = f();
        let d = start.elapsed();
        progress(&format!("{name:<12} {:>9.3} s", d.as_secs_f64()));
        self.phases.push((name, d));
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
