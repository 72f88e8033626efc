//! Software prefetch: asking the CPU to start loading memory that a pass
//! will read a little later, where its own prefetchers do not.
//!
//! The hardware prefetchers follow a few sequential streams and stop at
//! page boundaries. A pass that reads many streams in short runs, one run
//! of each before the next run of the first (the commitment's gather of
//! rows into a transform's first pass: four rows of a few kilobytes per
//! sub-block, for dozens of sub-blocks), waits on memory at the start of
//! every run. Prefetching each stream's next run as this one is read hides
//! that wait behind the work done before the stream comes round again.

/// Asks the CPU to load every cache line of `v` into its L2 cache (and
/// outer levels). A hint with no effect on results: it never faults, and
/// where there is no stable prefetch instruction (aarch64, whose
/// `core::arch` prefetch is unstable, and other targets) it does nothing.
#[inline]
pub fn to_l2<T>(v: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        let start = v.as_ptr().cast::<i8>();
        for offset in (0..core::mem::size_of_val(v)).step_by(64) {
            // SAFETY: SSE is baseline on x86-64, and a prefetch never
            // faults: it reads nothing the program sees.
            unsafe { _mm_prefetch::<_MM_HINT_T1>(start.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}
