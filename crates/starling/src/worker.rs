//! Where a verification runs: on one of rayon's worker threads.
//!
//! It forks parallel work about ten times (the statement digest, and
//! whatever the crates below run on rayon: long multilinear passes, Merkle
//! hashing). Forked from a worker, a step's first half runs on
//! that worker while the pool's other workers steal the rest. Forked from a
//! thread outside the pool (a program's `main`), each step is handed to a
//! worker and waited for: two thread switches per step. `starling bench HASH
//! --count 16384 --threads 1 --runs 3` on a 2-core Zen 4, two alternating
//! rounds: `verify_ms` 3.5-3.6 from `main` against 3.2-3.3 on a worker
//! (SHA-256), 3.9-4.1 against 3.5 (BLAKE3).
//!
//! Proofs fork hundreds of steps and gained 2-5% the same way, but they stay
//! on the calling thread: see [`crate::prove`] for the memory that cost. On
//! a thread that is a worker already (the command line's: its pool uses the
//! current thread) this runs `f` in place.

/// Runs `f` on a worker of the current rayon pool (the global one outside
/// any pool); on the calling thread itself when that is a worker already.
pub(crate) fn on_worker<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| f())
}
