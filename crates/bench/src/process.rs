//! What the operating system says about this process: its peak memory,
//! its memory on huge pages, its CPU time. Linux's /proc and POSIX clocks;
//! elsewhere the figures are missing.

use std::time::Duration;

/// The value of `key` (a line `key: N kB`) in the /proc file `path`, in
/// bytes; `None` where the file or the line is missing (not Linux).
fn proc_bytes(path: &str, key: &str) -> Option<u64> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// Peak resident set size of this process (0 where unavailable).
pub(crate) fn peak_rss_bytes() -> u64 {
    proc_bytes("/proc/self/status", "VmHWM").unwrap_or(0)
}

/// Resident anonymous memory of this process on transparent huge pages
/// (`None` where the kernel does not say). The tables the prover keeps
/// between proofs are most of its memory; where they sit on 4 KiB pages a
/// pass that strides across their rows misses the TLB on nearly every row,
/// which on a virtual machine costs a two-level page walk.
pub(crate) fn huge_page_bytes() -> Option<u64> {
    proc_bytes("/proc/self/smaps_rollup", "AnonHugePages")
}

/// CPU time this process has used so far, all its threads together
/// (`None` where the system does not say).
pub(crate) fn process_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through the pointer,
        // which points at `ts`, and keeps nothing.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    None
}
