//! x86_64 kernels, one file per tier: [`avx2`] and [`avx512`], and
//! [`avx2_gfni`] for the AVX2 tier on CPUs that also have GFNI. Here: the
//! portable field loops with an inlined PCLMULQDQ multiply, which both
//! tiers use (for whole loops where the CPU lacks wider carry-less
//! multiplication, and for the elements past the last full register in
//! [`lanes`], the loops on several elements per register).
//!
//! Soundness of the `unsafe` blocks: the tokens [`Clmul`], [`avx2::Avx2`],
//! [`avx2::Vpclmul256`], [`avx2_gfni::Gfni256`], [`avx512::Vpclmul`] and
//! [`avx512::Gfni`] are only built by `new`, which takes the [`Tier`] they
//! serve and returns `None` unless [`Tier::runs_here`] (a tier's features
//! include every feature its tokens' kernels enable) and, for the two
//! that use instructions beyond their tier's (`Vpclmul256`: 256-bit
//! VPCLMULQDQ, `Gfni256`: GFNI), the probe for those in
//! `starling_field::cpu` says the CPU has them; so holding one proves the
//! CPU runs the instructions. Memory is only touched through slices and references, with
//! lengths checked before any load.

pub(crate) mod avx2;
pub(crate) mod avx2_gfni;
pub(crate) mod avx512;
mod lanes;
pub(crate) mod tower;

use core::arch::x86_64::*;

use starling_field::cpu::Tier;

use super::portable::{fold_field_round_with, round_with, FieldMul};

/// Proof that the CPU supports `pclmulqdq` (and SSE2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clmul(());

impl Clmul {
    /// The token, under the tiers that include PCLMULQDQ.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (matches!(tier, Tier::Avx2 | Tier::Avx512) && tier.runs_here()).then_some(Clmul(()))
    }
}

impl FieldMul for Clmul {
    type E = __m128i;
    type W = (__m128i, __m128i, __m128i);

    #[inline(always)]
    fn load(self, x: &u128) -> __m128i {
        // SAFETY: `x` is a valid reference to 16 bytes; SSE2 is baseline.
        unsafe { _mm_loadu_si128((x as *const u128).cast()) }
    }
    #[inline(always)]
    fn store(self, x: __m128i) -> u128 {
        let mut out = 0u128;
        // SAFETY: `out` is a valid 16-byte destination; SSE2 is baseline.
        unsafe { _mm_storeu_si128((&mut out as *mut u128).cast(), x) };
        out
    }
    #[inline(always)]
    fn add(self, x: __m128i, y: __m128i) -> __m128i {
        // SAFETY: SSE2 is baseline.
        unsafe { _mm_xor_si128(x, y) }
    }
    #[inline(always)]
    fn mul(self, x: __m128i, y: __m128i) -> __m128i {
        self.reduce(self.mul_add_wide(self.wide_zero(), x, y))
    }
    #[inline(always)]
    fn wide_zero(self) -> Self::W {
        // SAFETY: SSE2 is baseline.
        unsafe { (_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()) }
    }
    /// Schoolbook: (low, middle, high) products, combined in `reduce`.
    #[inline(always)]
    fn mul_add_wide(self, acc: Self::W, x: __m128i, y: __m128i) -> Self::W {
        // SAFETY: a `Clmul` token exists only when `pclmulqdq` was detected.
        unsafe {
            let lo = _mm_clmulepi64_si128::<0x00>(x, y);
            let hi = _mm_clmulepi64_si128::<0x11>(x, y);
            let mid = _mm_xor_si128(
                _mm_clmulepi64_si128::<0x01>(x, y),
                _mm_clmulepi64_si128::<0x10>(x, y),
            );
            (
                _mm_xor_si128(acc.0, lo),
                _mm_xor_si128(acc.1, mid),
                _mm_xor_si128(acc.2, hi),
            )
        }
    }
    /// `lo + x^64 mid + x^128 hi` modulo `x^128 + x^7 + x^2 + x + 1`:
    /// `x^128 = P = 0x87`, so with `hi = H0 + x^64 H1` and `P H1 = L + x^64 U`
    /// (`U` < 2^7) the result is `lo + x^64 (mid + L) + P (H0 + U)` after
    /// folding `x^64 mid` into `lo` and `hi` first.
    #[inline(always)]
    fn reduce(self, w: Self::W) -> __m128i {
        // SAFETY: as in `mul_add_wide`.
        unsafe {
            let (lo, mid, hi) = w;
            let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
            let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
            let p = _mm_set_epi64x(0, 0x87);
            // P * H1 (H1 is the high qword of hi).
            let t = _mm_clmulepi64_si128::<0x01>(hi, p);
            // L (low qword of t) goes to x^64..; U (high qword) joins H0.
            let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(t));
            let h0 = _mm_xor_si128(hi, _mm_srli_si128::<8>(t));
            _mm_xor_si128(lo, _mm_clmulepi64_si128::<0x00>(h0, p))
        }
    }
}

#[target_feature(enable = "pclmulqdq,sse2")]
fn round_field_clmul(m: Clmul, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    round_with(m, a, b, e_lo)
}

#[target_feature(enable = "pclmulqdq,sse2")]
#[allow(clippy::too_many_arguments)]
fn fold_field_round_clmul(
    m: Clmul,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    fold_field_round_with(m, a, b, r, out_a, out_b, e_lo)
}

impl Clmul {
    pub(crate) fn round_field(self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        // SAFETY: the token proves the target features are present.
        unsafe { round_field_clmul(self, a, b, e_lo) }
    }

    pub(crate) fn fold_field_round(
        self,
        a: &[u128],
        b: &[u128],
        r: u128,
        out_a: &mut [u128],
        out_b: &mut [u128],
        e_lo: &[u128],
    ) -> (u128, u128) {
        // SAFETY: the token proves the target features are present.
        unsafe { fold_field_round_clmul(self, a, b, r, out_a, out_b, e_lo) }
    }
}
