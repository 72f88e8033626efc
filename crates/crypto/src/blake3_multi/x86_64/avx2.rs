//! Eight messages per pass: one per 32-bit lane of a `ymm` register. AVX2
//! has no rotation: by 16 and 8 a byte shuffle, by 12 and 7 two shifts and
//! an or.

use core::arch::x86_64::*;

use super::super::lanes::{run, Job, Lanes, MAX_LANES};

/// Eight lanes. Values exist only inside [`run_avx2`], which runs with
/// AVX2 enabled, so every method's intrinsics run on a CPU that has it.
#[derive(Clone, Copy)]
struct Ymm(__m256i);

/// `vpshufb` indices rotating every 32-bit word right by 16 and by 8 bits.
const ROT16: [u8; 32] = rotation_bytes(2);
const ROT8: [u8; 32] = rotation_bytes(1);

/// Byte `i` of each word takes byte `(i + by) % 4`: a right rotation by
/// `8 by` bits of little-endian words.
const fn rotation_bytes(by: usize) -> [u8; 32] {
    let mut idx = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        idx[i] = ((i / 4) * 4 + (i % 4 + by) % 4) as u8;
        i += 1;
    }
    idx
}

impl Ymm {
    #[inline(always)]
    fn shuffle(self, idx: &[u8; 32]) -> Self {
        // SAFETY: `idx` is 32 readable bytes; AVX2 as in the type's comment.
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, _mm256_loadu_si256(idx.as_ptr().cast())) })
    }
}

impl Lanes for Ymm {
    const LANES: usize = 8;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the type's comment (AVX2 is enabled).
        Ymm(unsafe { _mm256_set1_epi32(x as i32) })
    }

    #[inline(always)]
    fn load(words: &[u32]) -> Self {
        let w = &words[..Self::LANES];
        // SAFETY: `w` is LANES readable words; AVX2 as above.
        Ymm(unsafe { _mm256_loadu_si256(w.as_ptr().cast()) })
    }

    #[inline(always)]
    fn transpose(blocks: &[&[u8; 64]; MAX_LANES]) -> [Self; 16] {
        // No closures here: they would be compiled without AVX2.
        let mut out = [Ymm::splat(0); 16];
        for h in 0..2 {
            let mut rows = [out[0].0; 8];
            for (row, block) in rows.iter_mut().zip(blocks) {
                // SAFETY: each block is 64 readable bytes, read as two
                // 32-byte halves; AVX2 as above.
                *row = unsafe { _mm256_loadu_si256(block[32 * h..].as_ptr().cast()) };
            }
            for (o, v) in out[8 * h..8 * h + 8].iter_mut().zip(transpose8(rows)) {
                *o = Ymm(v);
            }
        }
        out
    }

    #[inline(always)]
    fn store(self, out: &mut [u32; MAX_LANES]) {
        // SAFETY: `out` holds at least 32 writable bytes; AVX2 as above.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn prefetch(bytes: &[u8]) {
        // SAFETY: a prefetch never faults, and SSE is part of x86-64.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().cast()) };
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: AVX2 as above.
        Ymm(unsafe { _mm256_add_epi32(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 as above.
        Ymm(unsafe { _mm256_xor_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn rotr16(self) -> Self {
        self.shuffle(&ROT16)
    }

    #[inline(always)]
    fn rotr12(self) -> Self {
        // SAFETY: AVX2 as above.
        Ymm(unsafe { _mm256_or_si256(_mm256_srli_epi32::<12>(self.0), _mm256_slli_epi32::<20>(self.0)) })
    }

    #[inline(always)]
    fn rotr8(self) -> Self {
        self.shuffle(&ROT8)
    }

    #[inline(always)]
    fn rotr7(self) -> Self {
        // SAFETY: AVX2 as above.
        Ymm(unsafe { _mm256_or_si256(_mm256_srli_epi32::<7>(self.0), _mm256_slli_epi32::<25>(self.0)) })
    }
}

/// The 8x8 transpose of 32-bit words: output `j`'s lane `l` is word `j` of
/// row `l`. Interleaving words then pairs within each group of four rows
/// gathers, in 128-bit half `h`, words `4h + k` of the four rows; one
/// 128-bit permutation per output joins the two groups.
#[inline(always)]
fn transpose8(r: [__m256i; 8]) -> [__m256i; 8] {
    // SAFETY: only called from `Ymm::transpose` (AVX2 enabled).
    unsafe {
        let mut u = [[_mm256_setzero_si256(); 4]; 2];
        for (g, ug) in u.iter_mut().enumerate() {
            let s0 = _mm256_unpacklo_epi32(r[4 * g], r[4 * g + 1]);
            let s1 = _mm256_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
            let s2 = _mm256_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
            let s3 = _mm256_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
            *ug = [
                _mm256_unpacklo_epi64(s0, s2),
                _mm256_unpackhi_epi64(s0, s2),
                _mm256_unpacklo_epi64(s1, s3),
                _mm256_unpackhi_epi64(s1, s3),
            ];
        }
        let [u0, u1] = u;
        let mut out = [_mm256_setzero_si256(); 8];
        for k in 0..4 {
            out[k] = _mm256_permute2x128_si256::<0x20>(u0[k], u1[k]);
            out[4 + k] = _mm256_permute2x128_si256::<0x31>(u0[k], u1[k]);
        }
        out
    }
}

#[target_feature(enable = "avx2")]
fn run_avx2(job: Job<'_>) {
    run::<Ymm>(job);
}

/// Does `job`; panics when the CPU lacks the AVX2 tier.
pub(in super::super) fn jobs_avx2(job: Job<'_>) {
    assert!(
        starling_field::cpu::Tier::Avx2.runs_here(),
        "the AVX2 hasher needs AVX2"
    );
    // SAFETY: the CPU has AVX2, checked just above.
    unsafe { run_avx2(job) }
}
