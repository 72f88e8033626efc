//! aarch64 kernels of the Neon tier: here the portable field loops with an
//! inlined PMULL multiply ([`Pmull`]), and in [`neon`] the skip chunk.
//!
//! Soundness of the `unsafe` blocks: the tokens [`Pmull`] and
//! [`neon::Neon`] are only built by `new`, which takes the [`Tier`] they
//! serve and returns `None` unless it is the Neon tier and
//! [`Tier::runs_here`] (that tier's features are `neon` and `aes`, every
//! feature the tokens' kernels enable), so holding one proves the CPU runs
//! the instructions. Memory is only touched through slices and references,
//! with lengths checked before any load.

pub(crate) mod neon;

use core::arch::aarch64::*;

use starling_field::cpu::Tier;

use super::portable::{fold_field_round_with, round_with, FieldMul};

/// `x^128 mod (x^128 + x^7 + x^2 + x + 1)`.
const POLY: u64 = 0x87;

/// Proof that the CPU supports `neon` and `aes` (PMULL).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pmull(());

impl Pmull {
    /// The token, under the Neon tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Neon && tier.runs_here()).then_some(Pmull(()))
    }
}

/// Karatsuba terms `(x0 y0, (x0 + x1)(y0 + y1), x1 y1)` of a 128x128
/// carry-less product.
#[inline]
#[target_feature(enable = "neon,aes")]
fn karatsuba_terms(x: uint64x2_t, y: uint64x2_t) -> (uint64x2_t, uint64x2_t, uint64x2_t) {
    let lo = vmull_p64(vgetq_lane_u64::<0>(x), vgetq_lane_u64::<0>(y));
    let hi = vmull_p64(vgetq_lane_u64::<1>(x), vgetq_lane_u64::<1>(y));
    // Lane 0 of each: the sum of the two halves.
    let xs = veorq_u64(x, vextq_u64::<1>(x, x));
    let ys = veorq_u64(y, vextq_u64::<1>(y, y));
    let sum = vmull_p64(vgetq_lane_u64::<0>(xs), vgetq_lane_u64::<0>(ys));
    (
        vreinterpretq_u64_p128(lo),
        vreinterpretq_u64_p128(sum),
        vreinterpretq_u64_p128(hi),
    )
}

/// Reduces sums of [`karatsuba_terms`]. The middle term is
/// `sum + lo + hi`; then `lo + x^64 mid + x^128 hi` modulo
/// `x^128 + x^7 + x^2 + x + 1` as in `Clmul::reduce`: with
/// `hi = H0 + x^64 H1` and `P H1 = L + x^64 U` (`P = 0x87`, `U < 2^7`) the
/// result is `lo + x^64 L + P (H0 + U)`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn reduce_terms(lo: uint64x2_t, sum: uint64x2_t, hi: uint64x2_t) -> uint64x2_t {
    let zero = vdupq_n_u64(0);
    let mid = veorq_u64(sum, veorq_u64(lo, hi));
    let lo = veorq_u64(lo, vextq_u64::<1>(zero, mid));
    let hi = veorq_u64(hi, vextq_u64::<1>(mid, zero));
    let t = vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<1>(hi), POLY));
    let lo = veorq_u64(lo, vextq_u64::<1>(zero, t));
    let h0 = veorq_u64(hi, vextq_u64::<1>(t, zero));
    veorq_u64(
        lo,
        vreinterpretq_u64_p128(vmull_p64(vgetq_lane_u64::<0>(h0), POLY)),
    )
}

impl FieldMul for Pmull {
    type E = uint64x2_t;
    /// Sums of [`karatsuba_terms`], combined in `reduce`.
    type W = (uint64x2_t, uint64x2_t, uint64x2_t);

    #[inline(always)]
    fn load(self, x: &u128) -> uint64x2_t {
        // SAFETY: `x` is a valid reference to 16 bytes; a `Pmull` token
        // exists only when neon was detected.
        unsafe { vld1q_u64((x as *const u128).cast()) }
    }
    #[inline(always)]
    fn store(self, x: uint64x2_t) -> u128 {
        let mut out = 0u128;
        // SAFETY: `out` is a valid 16-byte destination; as in `load`.
        unsafe { vst1q_u64((&mut out as *mut u128).cast(), x) };
        out
    }
    #[inline(always)]
    fn add(self, x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
        // SAFETY: a `Pmull` token exists only when neon was detected.
        unsafe { veorq_u64(x, y) }
    }
    #[inline(always)]
    fn mul(self, x: uint64x2_t, y: uint64x2_t) -> uint64x2_t {
        self.reduce(self.mul_add_wide(self.wide_zero(), x, y))
    }
    #[inline(always)]
    fn wide_zero(self) -> Self::W {
        // SAFETY: as in `add`.
        unsafe { (vdupq_n_u64(0), vdupq_n_u64(0), vdupq_n_u64(0)) }
    }
    #[inline(always)]
    fn mul_add_wide(self, acc: Self::W, x: uint64x2_t, y: uint64x2_t) -> Self::W {
        // SAFETY: a `Pmull` token exists only when neon and aes were detected.
        unsafe {
            let (lo, sum, hi) = karatsuba_terms(x, y);
            (veorq_u64(acc.0, lo), veorq_u64(acc.1, sum), veorq_u64(acc.2, hi))
        }
    }
    #[inline(always)]
    fn reduce(self, w: Self::W) -> uint64x2_t {
        // SAFETY: as in `mul_add_wide`.
        unsafe { reduce_terms(w.0, w.1, w.2) }
    }
}

#[target_feature(enable = "neon,aes")]
fn round_field_pmull(m: Pmull, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    round_with(m, a, b, e_lo)
}

#[target_feature(enable = "neon,aes")]
#[allow(clippy::too_many_arguments)]
fn fold_field_round_pmull(
    m: Pmull,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    fold_field_round_with(m, a, b, r, out_a, out_b, e_lo)
}

impl Pmull {
    pub(crate) fn round_field(self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        // SAFETY: the token proves the target features are present.
        unsafe { round_field_pmull(self, a, b, e_lo) }
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
        unsafe { fold_field_round_pmull(self, a, b, r, out_a, out_b, e_lo) }
    }
}
