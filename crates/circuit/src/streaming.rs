//! Stores that go around the caches, for the witness and its linear forms.
//!
//! The witness pass writes `z`, `A z` and `B z` (64 MiB each for 2^14
//! SHA-256 compressions) in runs of up to 512 bytes scattered across rows,
//! and nothing reads them until the commit and the zerocheck. A plain store first reads its
//! cache line from memory (to merge into it); a non-temporal store of a
//! whole line skips that read and does not evict the data the pass is still
//! using. Zen 4, one thread, 2^14 instances (`starling bench`, three
//! alternating rounds): the forms pass of SHA-256 76-82 -> 44-47 ms, BLAKE3
//! 50-57 -> 36-37, Keccak-f 164-178 -> 94-98, the zerocheck after it
//! unchanged. The witness's own stores went the same way once the
//! generator wrote 512-byte runs (see `witness::generator_lanes`), and so
//! did the clearing of the padding rows before it ([`zero`]; Zen 1, one
//! thread, the three tables of 2^14 Keccak-f permutations: 20 -> 7.5 ms).
//!
//! A run covers whole lines only where the table starts on one: the
//! prover's tables do (`starling_field::scratch` lends pooled buffers from
//! a cache line). Runs that began and ended in the middle of lines left
//! each a partial line, which Intel cores write as a read-modify-write of
//! memory: on the device Xeon that made the witness phase three to six
//! times slower (see `ScratchVec`).
//!
//! `unsafe` here: the SSE2 intrinsics (part of every x86-64 CPU).
//! Elsewhere the stores are plain.

#![allow(unsafe_code)]

/// `dst.copy_from_slice(src)`, by non-temporal stores where the CPU has
/// them (x86-64, `dst` 16-byte aligned). A task that streams calls
/// [`finish`] before it ends.
#[inline(always)]
pub(crate) fn copy(dst: &mut [u64], src: &[u64]) {
    assert_eq!(dst.len(), src.len(), "equal lengths");
    #[cfg(target_arch = "x86_64")]
    if dst.len().is_multiple_of(2) && (dst.as_ptr() as usize).is_multiple_of(16) {
        use core::arch::x86_64::{_mm_loadu_si128, _mm_stream_si128};
        for (d, s) in dst.chunks_exact_mut(2).zip(src.chunks_exact(2)) {
            // SAFETY: `d` is 16 writable bytes, 16-byte aligned (checked
            // above, and `d` starts an even number of words after it); `s`
            // is 16 readable bytes; SSE2 is part of x86-64.
            unsafe { _mm_stream_si128(d.as_mut_ptr().cast(), _mm_loadu_si128(s.as_ptr().cast())) };
        }
        return;
    }
    dst.copy_from_slice(src);
}

/// `dst.fill(0)`, by non-temporal stores where the CPU has them (x86-64,
/// `dst` 16-byte aligned). A task that streams calls [`finish`] before it
/// ends.
#[inline]
pub(crate) fn zero(dst: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if dst.len().is_multiple_of(2) && (dst.as_ptr() as usize).is_multiple_of(16) {
        use core::arch::x86_64::{_mm_setzero_si128, _mm_stream_si128};
        for d in dst.chunks_exact_mut(2) {
            // SAFETY: `d` is 16 writable bytes, 16-byte aligned (as in `copy`);
            // SSE2 is part of x86-64.
            unsafe { _mm_stream_si128(d.as_mut_ptr().cast(), _mm_setzero_si128()) };
        }
        return;
    }
    dst.fill(0);
}

/// Makes this thread's streamed stores visible before anything it does
/// next: they are weakly ordered, and the thread that joins the task must
/// see them.
#[inline]
pub(crate) fn finish() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86-64.
    unsafe {
        core::arch::x86_64::_mm_sfence()
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn copies_like_copy_from_slice_at_any_offset_and_length() {
        let src: Vec<u64> = (0..40u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for start in 0..4 {
            for len in [0usize, 1, 2, 3, 16, 17, 32] {
                let mut dst = vec![7u64; 40];
                super::copy(&mut dst[start..start + len], &src[..len]);
                super::finish();
                assert_eq!(&dst[start..start + len], &src[..len], "start {start}, len {len}");
                assert!(dst[..start].iter().chain(&dst[start + len..]).all(|&w| w == 7));
            }
        }
    }

    #[test]
    fn zeroes_like_fill_at_any_offset_and_length() {
        for start in 0..4 {
            for len in [0usize, 1, 2, 3, 16, 17, 32] {
                let mut dst = vec![7u64; 40];
                super::zero(&mut dst[start..start + len]);
                super::finish();
                assert!(
                    dst[start..start + len].iter().all(|&w| w == 0),
                    "start {start}, len {len}"
                );
                assert!(dst[..start].iter().chain(&dst[start + len..]).all(|&w| w == 7));
            }
        }
    }
}
