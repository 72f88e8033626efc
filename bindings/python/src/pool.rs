//! Where a call proves or verifies: on a rayon pool of its own, of the
//! size the caller asked for (rayon's default, all cores or
//! `RAYON_NUM_THREADS`, when it did not say). A pool per call lets Python
//! threads prove at once, each on as many threads as it asked for, and
//! leaves no threads behind between calls. The call's work runs on one of
//! the pool's workers, so every parallel step it forks starts there rather
//! than being handed over from a thread outside the pool.

use starling::Error;

/// Most worker threads a call takes, as the command line's `--threads`.
const MAX_THREADS: usize = 1024;

/// Runs `f` on a new pool of `threads` workers.
pub(crate) fn run<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> Result<T, Error> {
    if let Some(t) = threads {
        if !(1..=MAX_THREADS).contains(&t) {
            return Err(Error::Input(format!(
                "threads must be between 1 and {MAX_THREADS}"
            )));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .thread_name(|i| format!("starling-{i}"))
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the worker threads: {e}")))?;
    pool.install(f)
}
