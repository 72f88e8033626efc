//! The one carry-less multiply instruction per architecture, chosen at run
//! time: `pclmulqdq` on x86-64, `pmull` on aarch64. This is the crate's only
//! `unsafe` code: calling a function compiled for an instruction the target
//! does not promise, which is sound once the CPU is known to have it.
//!
//! Three products of 64-bit halves (Karatsuba) and the portable reduction.
//! [`mul`] answers `None` where the instruction is missing (or the
//! architecture has none), and the caller uses [`super::portable::mul`].
#![allow(unsafe_code)]

/// The product, with the instruction, where this CPU has it.
#[inline]
pub fn mul(a: u128, b: u128) -> Option<u128> {
    imp::wide(a, b).map(|(lo, hi)| super::portable::reduce(lo, hi))
}

/// The 256-bit carry-less product as (low, high) halves, unreduced, with
/// the instruction, where this CPU has it.
#[inline]
pub fn wide(a: u128, b: u128) -> Option<(u128, u128)> {
    imp::wide(a, b)
}

#[cfg(target_arch = "x86_64")]
mod imp {
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

    #[inline]
    pub fn wide(a: u128, b: u128) -> Option<(u128, u128)> {
        if !has_pclmulqdq() {
            return None;
        }
        // SAFETY: the CPU has pclmulqdq (checked above); SSE2 is part of x86-64.
        Some(unsafe { clmul128(a, b) })
    }

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

    #[inline]
    pub fn wide(a: u128, b: u128) -> Option<(u128, u128)> {
        if !has_pmull() {
            return None;
        }
        // SAFETY: the CPU has the aes extension (checked above), which
        // holds pmull; neon is part of every aarch64 target Rust supports
        // with `std`, and of those that enable `aes`.
        Some(unsafe { clmul128(a, b) })
    }

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
    #[inline]
    pub fn wide(_a: u128, _b: u128) -> Option<(u128, u128)> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
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
        for (a, b) in pairs {
            if let Some(p) = super::wide(a, b) {
                assert_eq!(p, portable::clmul128(a, b), "{a:#x} * {b:#x}");
                assert_eq!(super::mul(a, b), Some(portable::mul(a, b)));
            }
        }
    }
}
