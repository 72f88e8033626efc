//! The one carry-less multiply instruction per architecture, chosen at run
//! time: `pclmulqdq` on x86-64, `pmull` on aarch64. This is the crate's only
//! `unsafe` code: calling a function compiled for an instruction the target
//! does not promise, which is sound once the CPU is known to have it.
//!
//! Three products of 64-bit halves (Karatsuba) and the portable reduction.
//! [`mul`] answers `None` where the instruction is missing (or the
//! architecture has none), and the caller uses [`super::portable::mul`].
#![allow(unsafe_code)]

use super::Gf128;

/// The product, with the instruction, where this CPU has it.
#[inline]
pub fn mul(a: u128, b: u128) -> Option<u128> {
    imp::wide(a, b).map(|(lo, hi)| super::portable::reduce(lo, hi))
}

/// `dst[i] = src[i] s` with the instruction, where this CPU has it (false,
/// and nothing written, where it has not): the loop compiled for the
/// instruction, as in [`wide_dot`].
#[inline]
pub fn scale_into(dst: &mut [Gf128], src: &[Gf128], s: Gf128) -> bool {
    imp::scale_into(dst, src, s)
}

/// `sum_i a[i] b[i]` as unreduced (low, high) halves, with the instruction,
/// where this CPU has it: one check for the whole loop, and the loop
/// compiled for the instruction, so each product is three instructions,
/// not a call.
#[inline]
pub fn wide_dot(a: &[Gf128], b: &[Gf128]) -> Option<(u128, u128)> {
    imp::wide_dot(a, b)
}

/// The entry points of an architecture's module, over its `clmul128`
/// (compiled for `$features`) and its check `$has`: one check per call, and
/// the loops compiled for the instruction, so each product is three
/// instructions, not a call.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! entry_points {
    ($features:literal, $has:ident) => {
        #[inline]
        pub fn wide(a: u128, b: u128) -> Option<(u128, u128)> {
            if !$has() {
                return None;
            }
            // SAFETY: the CPU has the instruction (checked just above).
            Some(unsafe { clmul128(a, b) })
        }

        #[inline]
        pub fn wide_dot(a: &[Gf128], b: &[Gf128]) -> Option<(u128, u128)> {
            if !$has() {
                return None;
            }
            // SAFETY: as in `wide`.
            Some(unsafe { dot_loop(a, b) })
        }

        #[target_feature(enable = $features)]
        fn dot_loop(a: &[Gf128], b: &[Gf128]) -> (u128, u128) {
            a.iter().zip(b).fold((0, 0), |(lo, hi), (x, y)| {
                let (pl, ph) = clmul128(x.0, y.0);
                (lo ^ pl, hi ^ ph)
            })
        }

        #[inline]
        pub fn scale_into(dst: &mut [Gf128], src: &[Gf128], s: Gf128) -> bool {
            if !$has() {
                return false;
            }
            // SAFETY: as in `wide`.
            unsafe { scale_loop(dst, src, s) };
            true
        }

        #[target_feature(enable = $features)]
        fn scale_loop(dst: &mut [Gf128], src: &[Gf128], s: Gf128) {
            for (d, x) in dst.iter_mut().zip(src) {
                let (lo, hi) = clmul128(x.0, s.0);
                *d = Gf128(crate::field::portable::reduce(lo, hi));
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod imp {
    use super::Gf128;
    use core::arch::x86_64::{
        __cpuid, __m128i, _mm_clmulepi64_si128, _mm_cvtsi128_si64, _mm_set_epi64x, _mm_unpackhi_epi64,
    };
    use core::sync::atomic::{AtomicU8, Ordering};

    const UNKNOWN: u8 = 0;
    const ABSENT: u8 = 1;
    const PRESENT: u8 = 2;

    /// Whether the CPU has `pclmulqdq`, asked once (CPUID leaf 1, ECX bit 1;
    /// an SSE-class instruction, so no operating-system state to check).
    static HAS_PCLMULQDQ: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[inline]
    fn has_pclmulqdq() -> bool {
        match HAS_PCLMULQDQ.load(Ordering::Relaxed) {
            PRESENT => true,
            ABSENT => false,
            _ => {
                // SAFETY: CPUID exists on every x86-64 CPU.
                #[allow(unused_unsafe)]
                let leaf1 = unsafe { __cpuid(1) };
                let present = leaf1.ecx & (1 << 1) != 0;
                HAS_PCLMULQDQ.store(if present { PRESENT } else { ABSENT }, Ordering::Relaxed);
                present
            }
        }
    }

    entry_points!("pclmulqdq,sse2", has_pclmulqdq);

    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let av = to_register(a);
        let bv = to_register(b);
        let lo = to_u128(_mm_clmulepi64_si128(av, bv, 0x00));
        let hi = to_u128(_mm_clmulepi64_si128(av, bv, 0x11));
        let mid = to_u128(_mm_clmulepi64_si128(av, bv, 0x01)) ^ to_u128(_mm_clmulepi64_si128(av, bv, 0x10));
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn to_register(s: u128) -> __m128i {
        _mm_set_epi64x((s >> 64) as u64 as i64, s as u64 as i64)
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn to_u128(v: __m128i) -> u128 {
        let lo = _mm_cvtsi128_si64(v) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        (lo as u128) | ((hi as u128) << 64)
    }
}

#[cfg(target_arch = "aarch64")]
mod imp {
    use super::Gf128;
    use core::arch::aarch64::vmull_p64;

    /// Whether the CPU has `pmull` (the `aes` extension): asked of the
    /// operating system with `std`, else what the target promises.
    #[inline]
    fn has_pmull() -> bool {
        #[cfg(feature = "std")]
        return std::arch::is_aarch64_feature_detected!("aes");
        #[cfg(not(feature = "std"))]
        return cfg!(target_feature = "aes");
    }

    // The aes extension holds pmull; neon is part of every aarch64 target
    // Rust supports with `std`, and of those that enable `aes`.
    entry_points!("neon,aes", has_pmull);

    #[inline]
    #[target_feature(enable = "neon,aes")]
    fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let (a0, a1) = (a as u64, (a >> 64) as u64);
        let (b0, b1) = (b as u64, (b >> 64) as u64);
        let lo = vmull_p64(a0, b0);
        let hi = vmull_p64(a1, b1);
        let mid = vmull_p64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod imp {
    use super::Gf128;
    #[inline]
    pub fn wide(_a: u128, _b: u128) -> Option<(u128, u128)> {
        None
    }

    #[inline]
    pub fn wide_dot(_a: &[Gf128], _b: &[Gf128]) -> Option<(u128, u128)> {
        None
    }

    #[inline]
    pub fn scale_into(_dst: &mut [Gf128], _src: &[Gf128], _s: Gf128) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use super::Gf128;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_instruction_gives_the_portable_product() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let edges = [
            0u128,
            1,
            2,
            u128::MAX,
            1 << 127,
            u64::MAX as u128,
            (u64::MAX as u128) << 64,
        ];
        let mut pairs: std::vec::Vec<(u128, u128)> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
            .collect();
        pairs.extend((0..10_000).map(|_| (rng.gen(), rng.gen())));
        let (xs, ys): (std::vec::Vec<Gf128>, std::vec::Vec<Gf128>) =
            pairs.iter().map(|&(a, b)| (Gf128::new(a), Gf128::new(b))).unzip();
        if let Some(d) = super::wide_dot(&xs, &ys) {
            let want = pairs.iter().fold((0, 0), |(lo, hi), &(a, b)| {
                let (pl, ph) = portable::clmul128(a, b);
                (lo ^ pl, hi ^ ph)
            });
            assert_eq!(d, want);
        }
        let mut scaled = xs.clone();
        if super::scale_into(&mut scaled, &xs, ys[0]) {
            for (d, x) in scaled.iter().zip(&xs) {
                assert_eq!(d.0, portable::mul(x.0, ys[0].0));
            }
        }
        for (a, b) in pairs {
            if let Some(p) = super::imp::wide(a, b) {
                assert_eq!(p, portable::clmul128(a, b), "{a:#x} * {b:#x}");
                assert_eq!(super::mul(a, b), Some(portable::mul(a, b)));
            }
        }
    }
}
