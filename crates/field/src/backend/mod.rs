//! Multiplication backends and the run-time choice between them.
//!
//! `portable` is the definition; `clmul` must agree with it on every input
//! (tested on random inputs in `tests/backends.rs`). The choice is made once,
//! from the CPU's features, unless `STARLING_FORCE_PORTABLE` is set to a
//! non-empty value other than `0`, which forces the portable path (CI runs the
//! whole suite that way too).

pub mod portable;
#[cfg(target_arch = "x86_64")]
pub mod clmul;

use std::sync::atomic::{AtomicU8, Ordering};

/// Which implementation of the field kernels is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, any CPU.
    Portable,
    /// x86_64 PCLMULQDQ carry-less multiplication.
    Clmul,
}

const UNKNOWN: u8 = 0;
const PORTABLE: u8 = 1;
const CLMUL: u8 = 2;

static SELECTED: AtomicU8 = AtomicU8::new(UNKNOWN);

/// True when the environment asks for the portable path.
pub fn portable_forced() -> bool {
    match std::env::var("STARLING_FORCE_PORTABLE") {
        Ok(v) => !v.is_empty() && v != "0",
        Err(_) => false,
    }
}

fn detect() -> u8 {
    if portable_forced() {
        return PORTABLE;
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("pclmulqdq") {
            return CLMUL;
        }
    }
    PORTABLE
}

#[inline]
fn selected() -> u8 {
    let s = SELECTED.load(Ordering::Relaxed);
    if s != UNKNOWN {
        return s;
    }
    let d = detect();
    SELECTED.store(d, Ordering::Relaxed);
    d
}

/// The backend chosen for this process.
pub fn backend() -> Backend {
    match selected() {
        CLMUL => Backend::Clmul,
        _ => Backend::Portable,
    }
}

/// Multiplies two field elements given as raw `u128`s with the selected backend.
#[inline]
pub fn mul(a: u128, b: u128) -> u128 {
    #[cfg(target_arch = "x86_64")]
    {
        if selected() == CLMUL {
            // SAFETY: CLMUL is only selected after `is_x86_feature_detected!("pclmulqdq")`.
            return unsafe { clmul::mul(a, b) };
        }
    }
    portable::mul(a, b)
}

/// `acc[i] += a[i] * b[i]` for all i, with the selected backend.
pub fn mul_add_slices(acc: &mut [u128], a: &[u128], b: &[u128]) {
    assert!(acc.len() == a.len() && a.len() == b.len());
    #[cfg(target_arch = "x86_64")]
    {
        if selected() == CLMUL {
            // SAFETY: CLMUL is only selected after the feature was detected.
            unsafe { clmul::mul_add_slices(acc, a, b) };
            return;
        }
    }
    for ((c, &x), &y) in acc.iter_mut().zip(a).zip(b) {
        *c ^= portable::mul(x, y);
    }
}

/// `v[i] *= s` for all i, with the selected backend.
pub fn scale_slice(v: &mut [u128], s: u128) {
    #[cfg(target_arch = "x86_64")]
    {
        if selected() == CLMUL {
            // SAFETY: CLMUL is only selected after the feature was detected.
            unsafe { clmul::scale_slice(v, s) };
            return;
        }
    }
    for x in v.iter_mut() {
        *x = portable::mul(*x, s);
    }
}
