//! Sixteen messages per pass: one per 32-bit lane of a `zmm` register,
//! `vprord` for every rotation.

use core::arch::x86_64::*;

use super::super::lanes::{run, Job, Lanes, MAX_LANES};

/// Sixteen lanes. Values exist only inside [`run_avx512`], which runs with
/// AVX-512F enabled, so every method's intrinsics run on a CPU that has it.
#[derive(Clone, Copy)]
struct Zmm(__m512i);

impl Lanes for Zmm {
    const LANES: usize = 16;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the type's comment (AVX-512F is enabled).
        Zmm(unsafe { _mm512_set1_epi32(x as i32) })
    }

    #[inline(always)]
    fn load(words: &[u32]) -> Self {
        let w = &words[..Self::LANES];
        // SAFETY: `w` is LANES readable words; AVX-512F as above.
        Zmm(unsafe { _mm512_loadu_si512(w.as_ptr().cast()) })
    }

    #[inline(always)]
    fn transpose(blocks: &[&[u8; 64]; MAX_LANES]) -> [Self; 16] {
        // No closures here: they would be compiled without AVX-512F.
        let mut rows = [Zmm::splat(0).0; 16];
        for (row, block) in rows.iter_mut().zip(blocks) {
            // SAFETY: each block is 64 readable bytes; AVX-512F as above.
            *row = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        }
        let t = transpose16(rows);
        let mut out = [Zmm(t[0]); 16];
        for (o, v) in out.iter_mut().zip(t) {
            *o = Zmm(v);
        }
        out
    }

    #[inline(always)]
    fn store(self, out: &mut [u32; MAX_LANES]) {
        // SAFETY: `out` is 64 writable bytes; AVX-512F as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn prefetch(bytes: &[u8]) {
        // SAFETY: a prefetch never faults, and SSE is part of x86-64.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().cast()) };
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_add_epi32(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_xor_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn rotr16(self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_ror_epi32::<16>(self.0) })
    }

    #[inline(always)]
    fn rotr12(self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_ror_epi32::<12>(self.0) })
    }

    #[inline(always)]
    fn rotr8(self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_ror_epi32::<8>(self.0) })
    }

    #[inline(always)]
    fn rotr7(self) -> Self {
        // SAFETY: AVX-512F as above.
        Zmm(unsafe { _mm512_ror_epi32::<7>(self.0) })
    }
}

/// The 16x16 transpose of 32-bit words: word `j` of output `j`'s lane `l`
/// is word `j` of row `l`. Within each group of four rows, interleaving
/// words then pairs gathers, in 128-bit lane `q`, words `4q + k` of the four
/// rows (`k` by output); four 128-bit lane shuffles then put lane `q` of the
/// four groups side by side.
#[inline(always)]
fn transpose16(r: [__m512i; 16]) -> [__m512i; 16] {
    // SAFETY: only called from `Zmm::transpose` (AVX-512F enabled).
    unsafe {
        let mut u = [[_mm512_setzero_si512(); 4]; 4];
        for (g, ug) in u.iter_mut().enumerate() {
            let [r0, r1, r2, r3] = [r[4 * g], r[4 * g + 1], r[4 * g + 2], r[4 * g + 3]];
            let s0 = _mm512_unpacklo_epi32(r0, r1);
            let s1 = _mm512_unpackhi_epi32(r0, r1);
            let s2 = _mm512_unpacklo_epi32(r2, r3);
            let s3 = _mm512_unpackhi_epi32(r2, r3);
            *ug = [
                _mm512_unpacklo_epi64(s0, s2),
                _mm512_unpackhi_epi64(s0, s2),
                _mm512_unpacklo_epi64(s1, s3),
                _mm512_unpackhi_epi64(s1, s3),
            ];
        }
        let mut out = [_mm512_setzero_si512(); 16];
        for k in 0..4 {
            let a = _mm512_shuffle_i32x4::<0x44>(u[0][k], u[1][k]);
            let b = _mm512_shuffle_i32x4::<0xee>(u[0][k], u[1][k]);
            let c = _mm512_shuffle_i32x4::<0x44>(u[2][k], u[3][k]);
            let d = _mm512_shuffle_i32x4::<0xee>(u[2][k], u[3][k]);
            out[k] = _mm512_shuffle_i32x4::<0x88>(a, c);
            out[4 + k] = _mm512_shuffle_i32x4::<0xdd>(a, c);
            out[8 + k] = _mm512_shuffle_i32x4::<0x88>(b, d);
            out[12 + k] = _mm512_shuffle_i32x4::<0xdd>(b, d);
        }
        out
    }
}

#[target_feature(enable = "avx512f")]
fn run_avx512(job: Job<'_>) {
    run::<Zmm>(job);
}

/// Does `job`; panics when the CPU lacks the AVX-512F tier.
pub(in super::super) fn jobs_avx512(job: Job<'_>) {
    assert!(
        starling_field::cpu::Tier::Avx512.runs_here(),
        "the AVX-512 hasher needs AVX-512F"
    );
    // SAFETY: the CPU has AVX-512F, checked just above.
    unsafe { run_avx512(job) }
}
