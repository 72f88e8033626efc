//! Where a proof or a verification runs: on one of rayon's worker threads.
//!
//! Both fork parallel work thousands of times (every sumcheck round, fold,
//! transform and hashing pass). Forked from a worker, a step's first half
//! runs on that worker while the pool's other workers steal the rest. Forked
//! from a thread outside the pool (a program's `main`), each step is handed
//! to a worker and waited for: two thread switches per step. Measured with
//! `starling bench HASH --count 16384 --threads 1 --runs 3` on a 2-core Zen
//! 4, two alternating rounds, hashes per second from `main` against on a
//! worker: SHA-256 40,843 / 42,089 against 43,086 / 42,899, BLAKE3 74,272 /
//! 74,130 against 77,507 / 76,432, Keccak-f 22,816 / 23,402 against 23,828
//! / 23,683; verification 3.5-3.6 against 3.2-3.3 ms (SHA-256) and 3.9-4.1
//! against 3.5 (BLAKE3).

/// Runs `f` on a worker of the current rayon pool (the global one outside
/// any pool); on the calling thread itself when that is a worker already.
pub(crate) fn on_worker<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| f())
}
