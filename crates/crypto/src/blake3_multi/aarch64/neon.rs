//! Four messages per pass: one per 32-bit lane of a `uint32x4_t`. Rotation
//! by 16 is a half-word swap, the others a shift left and a shift right
//! with insert.

use core::arch::aarch64::*;

use super::super::lanes::{run, Job, Lanes, MAX_LANES};

/// Four lanes. NEON is part of every aarch64 CPU this crate supports (the
/// NEON tier checks it), and values exist only inside [`run_neon`].
#[derive(Clone, Copy)]
struct Q(uint32x4_t);

impl Lanes for Q {
    const LANES: usize = 4;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: NEON, see the type's comment.
        Q(unsafe { vdupq_n_u32(x) })
    }

    #[inline(always)]
    fn load(words: &[u32]) -> Self {
        let w = &words[..Self::LANES];
        // SAFETY: `w` is LANES readable words; NEON as above.
        Q(unsafe { vld1q_u32(w.as_ptr()) })
    }

    #[inline(always)]
    fn transpose(blocks: &[&[u8; 64]; MAX_LANES]) -> [Self; 16] {
        let mut out = [Q::splat(0); 16];
        for quarter in 0..4 {
            // SAFETY: each block is 64 readable bytes, read as four 16-byte
            // quarters; NEON as above.
            unsafe {
                // No closure: it would be compiled without NEON.
                let r0 = vld1q_u32(blocks[0][16 * quarter..].as_ptr().cast());
                let r1 = vld1q_u32(blocks[1][16 * quarter..].as_ptr().cast());
                let r2 = vld1q_u32(blocks[2][16 * quarter..].as_ptr().cast());
                let r3 = vld1q_u32(blocks[3][16 * quarter..].as_ptr().cast());
                // Words k of the four rows: pairs of words, then of pairs.
                let t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1));
                let t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
                let t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
                let t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
                out[4 * quarter] = Q(vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)));
                out[4 * quarter + 1] = Q(vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)));
                out[4 * quarter + 2] = Q(vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)));
                out[4 * quarter + 3] = Q(vreinterpretq_u32_u64(vtrn2q_u64(t1, t3)));
            }
        }
        out
    }

    #[inline(always)]
    fn store(self, out: &mut [u32; MAX_LANES]) {
        // SAFETY: `out` holds at least four writable words; NEON as above.
        unsafe { vst1q_u32(out.as_mut_ptr(), self.0) }
    }

    /// No prefetch: the stable aarch64 intrinsics have none, and the
    /// cores' prefetchers follow strided streams.
    #[inline(always)]
    fn prefetch(_bytes: &[u8]) {}

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { vaddq_u32(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { veorq_u32(self.0, other.0) })
    }

    #[inline(always)]
    fn rotr16(self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(self.0))) })
    }

    #[inline(always)]
    fn rotr12(self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { vsriq_n_u32::<12>(vshlq_n_u32::<20>(self.0), self.0) })
    }

    #[inline(always)]
    fn rotr8(self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { vsriq_n_u32::<8>(vshlq_n_u32::<24>(self.0), self.0) })
    }

    #[inline(always)]
    fn rotr7(self) -> Self {
        // SAFETY: NEON as above.
        Q(unsafe { vsriq_n_u32::<7>(vshlq_n_u32::<25>(self.0), self.0) })
    }
}

#[target_feature(enable = "neon")]
fn run_neon(job: Job<'_>) {
    run::<Q>(job);
}

/// Does `job`; panics when the CPU lacks the NEON tier.
pub(in super::super) fn jobs_neon(job: Job<'_>) {
    assert!(
        starling_field::cpu::Tier::Neon.runs_here(),
        "the NEON hasher needs NEON"
    );
    // SAFETY: the CPU has NEON, checked just above.
    unsafe { run_neon(job) }
}
