//! `prove` interrupted by SIGINT (Ctrl-C) or SIGTERM removes its temporary
//! proof file and exits with the shell's status for the signal, 128 plus
//! its number (130, 143).
//!
//! There is no signal handler: [`watch`] blocks both signals in the main
//! thread before any other thread starts, so that every thread inherits the
//! mask, and one thread takes them with `sigwait`. It then runs as ordinary
//! code, so it may lock, remove a file and print, none of which a handler
//! may do (only async-signal-safe calls are allowed there). The file to
//! remove is registered in [`PENDING`]; creating it and the rename that
//! publishes the proof hold the same lock ([`step`]), so a signal finds
//! either no file yet, or the temporary file, which it removes, or the
//! proof in place.
//!
//! The commands that write no file end at a closed pipe as Unix tools do
//! ([`closed_pipe_ends_quietly`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary file to remove on a signal, and the `--out` it is for.
static PENDING: Mutex<Option<(PathBuf, PathBuf)>> = Mutex::new(None);

fn pending() -> MutexGuard<'static, Option<(PathBuf, PathBuf)>> {
    // A thread that panicked holding the lock left a path or none; both
    // are still right.
    PENDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `change`, which creates or renames the temporary file, with no
/// signal taken meanwhile; once it has succeeded, a signal removes `then`
/// (a temporary file and the `--out` it is for), or nothing.
pub(crate) fn step<T, E>(
    change: impl FnOnce() -> Result<T, E>,
    then: Option<(&Path, &Path)>,
) -> Result<T, E> {
    let mut pending = pending();
    let result = change();
    if result.is_ok() {
        *pending = then.map(|(tmp, out)| (tmp.to_path_buf(), out.to_path_buf()));
    }
    result
}

/// Nothing to remove any more.
pub(crate) fn forget() {
    *pending() = None;
}

/// Takes SIGINT and SIGTERM from here on. Call before any other thread
/// starts (the worker pool); where the signals cannot be taken, they keep
/// their default action.
#[cfg(unix)]
pub(crate) fn watch() {
    // SAFETY: `sigset_t` is plain data that `sigemptyset` initialises;
    // `pthread_sigmask` changes this thread's mask only.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::sigaddset(&mut set, libc::SIGTERM);
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let started = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || take_signals(set));
    if started.is_err() {
        // SAFETY: as above; the signals are let through again.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

/// Elsewhere the signals keep their default action.
#[cfg(not(unix))]
pub(crate) fn watch() {}

/// Waits for a signal of `set`, removes the registered file and exits.
#[cfg(unix)]
fn take_signals(set: libc::sigset_t) -> ! {
    let mut signal: libc::c_int = 0;
    // SAFETY: `set` and `signal` are valid for the call; `sigwait` returns
    // 0 with the signal taken, an error number otherwise (never EINTR).
    while unsafe { libc::sigwait(&set, &mut signal) } != 0 {}
    let name = if signal == libc::SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    };
    // Held until the process ends: no rename can start after this.
    let pending = pending();
    match pending.as_ref() {
        Some((tmp, out)) => {
            let _ = std::fs::remove_file(tmp);
            eprintln!(
                "error: interrupted by {name}; no proof written, {} left as it was",
                out.display()
            );
        }
        None => eprintln!("error: interrupted by {name}"),
    }
    // SAFETY: `_exit` ends the process at once: the other threads are
    // still proving, and nothing they hold needs to be released or flushed
    // (stderr is unbuffered, the proof is not written).
    unsafe { libc::_exit(128 + signal) }
}

/// Lets SIGPIPE end the process (the shell reports 141), as it ends other
/// Unix tools, when what it prints goes to a pipe closed early (`starling
/// verify --json | head`): Rust ignores SIGPIPE, so the print failed and the
/// panic it raises read as a bug in Starling. For the commands that write no
/// file; `prove` keeps the failure, which leaves no temporary file behind.
#[cfg(unix)]
pub(crate) fn closed_pipe_ends_quietly() {
    // SAFETY: restores the default action of one signal, before any other
    // thread starts; no handler is installed.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Nothing to do where there are no signals.
#[cfg(not(unix))]
pub(crate) fn closed_pipe_ends_quietly() {}
