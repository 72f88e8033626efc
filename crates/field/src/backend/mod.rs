//! Multiplication backends and the run-time choice between them.
//!
//! `portable` is the definition; `avx2` (the AVX2 tier: PCLMULQDQ on
//! 128-bit registers, one product at a time), `avx2_vpclmul` (the same tier
//! where the CPU has 256-bit VPCLMULQDQ, two at a time) and `avx512`
//! (VPCLMULQDQ on 512-bit vectors, four at a time) on x86_64, and `neon` (PMULL, one product at a time) on aarch64,
//! must agree with it on every input. Each backend's kernels are
//! gathered in a [`Kernels`] table, [`kernels_for`] maps a [`Tier`] to its
//! table, and `tests/backends.rs` runs one shared harness over every tier
//! this CPU runs. The process uses the table of [`crate::cpu::tier`].

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx2_vpclmul;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "aarch64")]
pub mod neon;
pub mod portable;

use starling_verifier::field::SliceKernels;

use crate::cpu::{self, Tier};
use crate::{Gf128, Gf128Slices};

/// The signature of [`Kernels::butterfly_from`]: `(lo, hi, src_lo, src_hi, t)`.
pub type ButterflyFrom = fn(&mut [u128], &mut [u128], &[u128], &[u128], u128);

/// The kernels of one backend. All slices of one call must have equal
/// lengths (the dispatching functions below check it; a kernel called
/// directly with unequal lengths works on the common prefix).
#[derive(Clone, Copy, Debug)]
pub struct Kernels {
    /// Which backend these are: `portable`, `pclmulqdq`, `avx512` or `neon`.
    pub name: &'static str,
    /// `sum_i a[i] * b[i]`.
    pub dot: fn(&[u128], &[u128]) -> u128,
    /// `v[i] *= s`.
    pub scale_slice: fn(&mut [u128], u128),
    /// `dst[i] = s * src[i]`.
    pub scale_into: fn(&mut [u128], &[u128], u128),
    /// `dst[i] += s * src[i]`.
    pub axpy: fn(&mut [u128], &[u128], u128),
    /// `lo[i] += t * hi[i]; hi[i] += lo[i]`.
    pub butterfly: fn(&mut [u128], &mut [u128], u128),
    /// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
    pub butterfly_from: ButterflyFrom,
    /// `hi[i] += lo[i]; lo[i] += t * hi[i]`.
    pub butterfly_inverse: fn(&mut [u128], &mut [u128], u128),
    /// `dst[i] = lo[i] + r (lo[i] + hi[i])`.
    pub fold: fn(&mut [u128], &[u128], &[u128], u128),
    /// `(dst[2j], dst[2j + 1]) = (fold(f0, f1)[j], fold(w0, w1)[j])`.
    pub fold_interleaving: fn(&mut [u128], [&[u128]; 4], u128),
    /// `[sum f0 w0, sum (f0 + f1) (w0 + w1)]` of `[f0, f1, w0, w1]`.
    pub round_sums: fn([&[u128]; 4]) -> [u128; 2],
    /// `round_sums` of interleaved `f`, `w` halves `lo`, `hi`.
    pub round_sums_interleaved: fn(&[u128], &[u128]) -> [u128; 2],
}

static PORTABLE_KERNELS: Kernels = Kernels {
    name: "portable",
    dot: portable::dot,
    scale_slice: portable::scale_slice,
    scale_into: portable::scale_into,
    axpy: portable::axpy,
    butterfly: portable::butterfly,
    butterfly_from: portable::butterfly_from,
    butterfly_inverse: portable::butterfly_inverse,
    fold: portable::fold,
    fold_interleaving: portable::fold_interleaving,
    round_sums: portable::round_sums,
    round_sums_interleaved: portable::round_sums_interleaved,
};

/// Safe wrappers around the `unsafe` kernels of a feature-gated module.
///
/// The wrappers are private and are only reachable through the table they
/// fill, and `kernels_for` hands that table out only for a tier that
/// [`Tier::runs_here`], whose features include the module's. That is what makes calling the `unsafe`
/// kernels from a safe `fn` sound.' One product at a time is the
/// verifier's (`starling_verifier::field::mul`), not a kernel of a table.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! gated_kernels {
    ($name:ident, $label:expr, $module:ident) => {
        mod $name {
            use super::$module as k;
            pub fn dot(a: &[u128], b: &[u128]) -> u128 {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::dot(a, b) }
            }
            pub fn scale_slice(v: &mut [u128], s: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::scale_slice(v, s) }
            }
            pub fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::scale_into(dst, src, s) }
            }
            pub fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::axpy(dst, src, s) }
            }
            pub fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::butterfly(lo, hi, t) }
            }
            pub fn butterfly_from(lo: &mut [u128], hi: &mut [u128], sl: &[u128], sh: &[u128], t: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::butterfly_from(lo, hi, sl, sh, t) }
            }
            pub fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::butterfly_inverse(lo, hi, t) }
            }
            pub fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::fold(dst, lo, hi, r) }
            }
            pub fn fold_interleaving(dst: &mut [u128], halves: [&[u128]; 4], r: u128) {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::fold_interleaving(dst, halves, r) }
            }
            pub fn round_sums(halves: [&[u128]; 4]) -> [u128; 2] {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::round_sums(halves) }
            }
            pub fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
                // SAFETY: see `gated_kernels`: only reachable after detection.
                unsafe { k::round_sums_interleaved(lo, hi) }
            }
            pub static KERNELS: super::Kernels = super::Kernels {
                name: $label,
                dot,
                scale_slice,
                scale_into,
                axpy,
                butterfly,
                butterfly_from,
                butterfly_inverse,
                fold,
                fold_interleaving,
                round_sums,
                round_sums_interleaved,
            };
        }
    };
}

#[cfg(target_arch = "x86_64")]
gated_kernels!(avx2_gated, "pclmulqdq", avx2);
#[cfg(target_arch = "x86_64")]
gated_kernels!(avx2_vpclmul_gated, "pclmulqdq, vpclmulqdq-256", avx2_vpclmul);
#[cfg(target_arch = "x86_64")]
gated_kernels!(avx512_gated, "avx512", avx512);
#[cfg(target_arch = "aarch64")]
gated_kernels!(neon_gated, "neon", neon);

/// The kernels `tier` uses, or `None` when this CPU does not run it. Tiers
/// without field kernels of their own use the portable ones.
pub fn kernels_for(tier: Tier) -> Option<&'static Kernels> {
    if !tier.runs_here() {
        return None;
    }
    Some(match tier {
        // Only with the extra instructions checked: the tier does not
        // include them.
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 if cpu::has_vpclmulqdq_256() => &avx2_vpclmul_gated::KERNELS,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2 => &avx2_gated::KERNELS,
        #[cfg(target_arch = "x86_64")]
        Tier::Avx512 => &avx512_gated::KERNELS,
        #[cfg(target_arch = "aarch64")]
        Tier::Neon => &neon_gated::KERNELS,
        _ => &PORTABLE_KERNELS,
    })
}

/// Every table `tier` may use on some CPU that runs it and this CPU runs
/// (the AVX2 tier's one-at-a-time PCLMULQDQ kernels also where 256-bit
/// VPCLMULQDQ would be picked): what the tests compare with the portable
/// definitions.
pub fn variants_for(tier: Tier) -> Vec<&'static Kernels> {
    let best = kernels_for(tier).into_iter();
    #[cfg(target_arch = "x86_64")]
    if tier == Tier::Avx2 && tier.runs_here() && cpu::has_vpclmulqdq_256() {
        return best.chain([&avx2_gated::KERNELS]).collect();
    }
    best.collect()
}

/// The kernels of the process's tier.
pub fn kernels() -> &'static Kernels {
    kernels_for(cpu::tier()).expect("the process's tier runs here")
}

/// The selected backend as the verifier's [`SliceKernels`]: what a native
/// verifier installs ([`install_in_verifier`]).
struct VerifierKernels;

impl SliceKernels for VerifierKernels {
    fn scale_into(&self, dst: &mut [Gf128], src: &[Gf128], s: Gf128) {
        scale_into(
            Gf128::as_u128_slice_mut(dst),
            Gf128::as_u128_slice(src),
            s.to_bits(),
        );
    }

    fn dot(&self, a: &[Gf128], b: &[Gf128]) -> Gf128 {
        Gf128::new(dot(Gf128::as_u128_slice(a), Gf128::as_u128_slice(b)))
    }
}

/// Has the verifier's long passes (`eq` tables, dot products) run on this
/// process's backend from now on: a third to a half of a small proof's
/// verify time natively. Idempotent.
pub fn install_in_verifier() {
    starling_verifier::field::install_slice_kernels(&VerifierKernels);
}

/// `sum_i a[i] * b[i]`, with the selected backend: the carry-less products
/// are summed unreduced and reduced once (reduction is linear), which
/// saves two of a product's six carry-less multiplications and the
/// accumulators' loads and stores.
pub fn dot(a: &[u128], b: &[u128]) -> u128 {
    assert_eq!(a.len(), b.len());
    (kernels().dot)(a, b)
}

/// `v[i] *= s` for all i, with the selected backend.
pub fn scale_slice(v: &mut [u128], s: u128) {
    (kernels().scale_slice)(v, s)
}

/// `dst[i] = s * src[i]` for all i, with the selected backend: a copy and
/// [`scale_slice`] in one pass.
pub fn scale_into(dst: &mut [u128], src: &[u128], s: u128) {
    assert_eq!(dst.len(), src.len());
    (kernels().scale_into)(dst, src, s)
}

/// `dst[i] += s * src[i]` for all i, with the selected backend.
pub fn axpy(dst: &mut [u128], src: &[u128], s: u128) {
    assert_eq!(dst.len(), src.len());
    (kernels().axpy)(dst, src, s)
}

/// `dst[i] = lo[i] + r (lo[i] + hi[i])`, with the selected backend: the
/// multilinear fold at `r` of a table whose halves (the values 0 and 1 of
/// the variable bound) are `lo` and `hi`, in one pass (the sum, one
/// product by a prepared multiplier, and the sum again, in registers).
pub fn fold(dst: &mut [u128], lo: &[u128], hi: &[u128], r: u128) {
    assert!(dst.len() == lo.len() && lo.len() == hi.len(), "equal lengths");
    (kernels().fold)(dst, lo, hi, r)
}

/// [`fold`] of two tables `f` (halves `f0`, `f1`) and `w` (`w0`, `w1`) at
/// once, written interleaved: `dst[2j]` is `f`'s fold at `j`, `dst[2j + 1]`
/// `w`'s.
pub fn fold_interleaving(dst: &mut [u128], halves: [&[u128]; 4], r: u128) {
    let n = halves[0].len();
    assert!(
        halves.iter().all(|h| h.len() == n) && dst.len() == 2 * n,
        "equal lengths"
    );
    (kernels().fold_interleaving)(dst, halves, r)
}

/// One round of the sumcheck of `sum_x f(x) w(x)` on `[f0, f1, w0, w1]`,
/// the halves of `f` and `w` at the variable bound (equal lengths): `[sum
/// f0 w0, sum (f0 + f1) (w0 + w1)]`, the round polynomial at 0 and its top
/// coefficient, with the selected backend. Both sums in one pass over the
/// four slices, each reduced once (as in [`dot`]).
pub fn round_sums(halves: [&[u128]; 4]) -> [u128; 2] {
    let n = halves[0].len();
    assert!(halves.iter().all(|h| h.len() == n), "equal lengths");
    (kernels().round_sums)(halves)
}

/// [`round_sums`] of two tables stored interleaved (`f` at even entries,
/// `w` at odd ones) whose halves are `lo` and `hi` (equal, even lengths).
pub fn round_sums_interleaved(lo: &[u128], hi: &[u128]) -> [u128; 2] {
    assert!(
        lo.len() == hi.len() && lo.len().is_multiple_of(2),
        "equal, even lengths"
    );
    (kernels().round_sums_interleaved)(lo, hi)
}

/// The additive-NTT butterfly `lo[i] += t * hi[i]; hi[i] += lo[i]`, with the
/// selected backend.
pub fn butterfly(lo: &mut [u128], hi: &mut [u128], t: u128) {
    assert_eq!(lo.len(), hi.len());
    (kernels().butterfly)(lo, hi, t)
}

/// Two rounds of the additive NTT on four equal quarters `q0..q3` of a block:
/// [`butterfly`]`(q0|q1, q2|q3, t)`, then `butterfly(q0, q1, t0)` and
/// `butterfly(q2, q3, t1)` ([`portable::butterfly2`] is the definition). With
/// AVX-512 and AVX2 both rounds run on each group of four, two or one
/// elements while it is in registers (half the loads and stores); otherwise
/// it is the four calls.
pub fn butterfly2(q: [&mut [u128]; 4], t: u128, t0: u128, t1: u128) {
    let n = q[0].len();
    assert!(q.iter().all(|x| x.len() == n), "quarters must have equal lengths");
    #[cfg(target_arch = "x86_64")]
    match cpu::tier() {
        // SAFETY: `cpu::tier` only selects a tier that runs here, and this
        // one includes avx512f, vpclmulqdq and pclmulqdq.
        Tier::Avx512 => return unsafe { avx512::butterfly2(q, t, t0, t1) },
        // SAFETY: the tier includes avx2 and pclmulqdq, and 256-bit
        // VPCLMULQDQ was just checked.
        Tier::Avx2 if cpu::has_vpclmulqdq_256() => return unsafe { avx2_vpclmul::butterfly2(q, t, t0, t1) },
        // SAFETY: the tier includes pclmulqdq.
        Tier::Avx2 => return unsafe { avx2::butterfly2(q, t, t0, t1) },
        _ => {}
    }
    let [q0, q1, q2, q3] = q;
    butterfly(q0, q2, t);
    butterfly(q1, q3, t);
    butterfly(q0, q1, t0);
    butterfly(q2, q3, t1);
}

/// The last four rounds of the additive NTT on a block of sixteen positions
/// of `batch` elements ([`portable::butterfly_rounds4`] is the definition).
/// At the bottom of a transform of four rows every [`butterfly2`] call
/// covers one vector per quarter. With AVX-512 and four rows (one vector
/// per position) the sixteen positions stay in registers for all four
/// rounds (`ntt_timing 17 4`, one Zen 4 thread: 5.14 -> 4.75 ms); otherwise
/// it is [`butterfly2`] on the quarters, then on each quarter's quarters.
pub fn butterfly_rounds4(data: &mut [u128], batch: usize, twiddles: &[u128; 15]) {
    assert_eq!(data.len(), 16 * batch, "a block of sixteen positions");
    #[cfg(target_arch = "x86_64")]
    if batch == 4 && cpu::tier() == Tier::Avx512 {
        let block = data.as_chunks_mut::<4>().0;
        let block: &mut [[u128; 4]; 16] = block.try_into().expect("sixteen positions of four");
        // SAFETY: `cpu::tier` only selects a tier that runs here, and this
        // one includes avx512f, vpclmulqdq and pclmulqdq.
        return unsafe { avx512::butterfly_rounds4(block, twiddles) };
    }
    let quarter = 4 * batch;
    butterfly2(quarters(data), twiddles[0], twiddles[1], twiddles[2]);
    for (s, q) in data.chunks_mut(quarter).enumerate() {
        butterfly2(
            quarters(q),
            twiddles[3 + s],
            twiddles[7 + 2 * s],
            twiddles[8 + 2 * s],
        );
    }
}

/// The four equal quarters of `data`.
fn quarters(data: &mut [u128]) -> [&mut [u128]; 4] {
    let n = data.len() / 4;
    let (q01, q23) = data.split_at_mut(2 * n);
    let (q0, q1) = q01.split_at_mut(n);
    let (q2, q3) = q23.split_at_mut(n);
    [q0, q1, q2, q3]
}

/// [`butterfly`] reading `src_lo`, `src_hi` and writing `lo`, `hi`:
/// `lo[i] = src_lo[i] + t * src_hi[i]; hi[i] = src_hi[i] + lo[i]`.
pub fn butterfly_from(lo: &mut [u128], hi: &mut [u128], src_lo: &[u128], src_hi: &[u128], t: u128) {
    assert!(lo.len() == hi.len() && hi.len() == src_lo.len() && src_lo.len() == src_hi.len());
    (kernels().butterfly_from)(lo, hi, src_lo, src_hi, t)
}

/// The inverse butterfly `hi[i] += lo[i]; lo[i] += t * hi[i]`, with the
/// selected backend.
pub fn butterfly_inverse(lo: &mut [u128], hi: &mut [u128], t: u128) {
    assert_eq!(lo.len(), hi.len());
    (kernels().butterfly_inverse)(lo, hi, t)
}
