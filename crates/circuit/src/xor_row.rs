//! The witness generator's hot loop: the XOR of the buffer rows a linear
//! row names, `L` words at a time, compiled for the CPU's tier.
//!
//! Every wire of a block is one or three such XORs over a buffer of `L`
//! words per slot (`witness::generator_lanes`: 32 words, 256 bytes, for
//! the built-in hashes), so this loop is most of the witness pass. Built for
//! baseline x86-64 it has sixteen 16-byte registers: a 32-word accumulator
//! fills them all, so the compiler spilled one and copied a register before
//! every two-operand XOR, about fifty instructions per term. AVX2's
//! three-operand 32-byte XOR takes eight per term and AVX-512's 64-byte one
//! four, with the accumulator in registers: the AVX2 and AVX-512 copies
//! hold it in vector registers explicitly, the portable copy is the plain
//! definition ([`body`]), and the test compares every copy the CPU runs
//! with it. The tier is read from `starling_field::cpu` (the workspace's
//! one probe). aarch64 builds the portable copy with NEON, its baseline.

// `unsafe` here: calling the `target_feature` copies of the body, chosen
// only on a CPU that has those features.
#![allow(unsafe_code)]

use starling_field::cpu::{self, Tier};

/// The widest block the generator uses (`witness::generator_lanes`).
#[cfg(target_arch = "x86_64")]
const MAX_LANES: usize = 64;

/// The XOR of the rows of `buf` named by `row`, lane by lane: the
/// definition, and the portable copy's code.
#[inline(always)]
fn body<const L: usize>(buf: &[[u64; L]], row: &[u32]) -> [u64; L] {
    let mut acc = [0u64; L];
    for &i in row {
        let src = &buf[i as usize];
        for l in 0..L {
            acc[l] ^= src[l];
        }
    }
    acc
}

/// [`body`] for any CPU of the target.
///
/// Not inlined (nor are the other copies): inside the block loop the
/// accumulator lived on the stack (every term a load, XOR and store through
/// memory); on its own it stays in registers.
#[inline(never)]
fn portable<const L: usize>(buf: &[[u64; L]], row: &[u32]) -> [u64; L] {
    body(buf, row)
}

/// [`body`] with AVX2: the accumulator in `L / 4` 32-byte registers
/// (explicitly: left to the compiler, the result left them one word at a
/// time through general registers).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn avx2<const L: usize>(buf: &[[u64; L]], row: &[u32]) -> [u64; L] {
    use std::arch::x86_64::*;
    if !L.is_multiple_of(4) {
        return body(buf, row);
    }
    let vectors = L / 4;
    let mut acc = [_mm256_setzero_si256(); MAX_LANES / 4];
    for &i in row {
        let src = buf[i as usize].as_ptr();
        for (v, a) in acc.iter_mut().enumerate().take(vectors) {
            // SAFETY: words `4 v .. 4 v + 4` of the `L`-word slot are readable
            // (`v < L / 4`); unaligned loads.
            *a = _mm256_xor_si256(*a, unsafe { _mm256_loadu_si256(src.add(4 * v).cast()) });
        }
    }
    let mut out = [0u64; L];
    for (v, a) in acc.iter().enumerate().take(vectors) {
        // SAFETY: as above, for `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(4 * v).cast(), *a) };
    }
    out
}

/// [`body`] with AVX-512 F: the accumulator in `L / 8` 64-byte registers.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f")]
#[inline(never)]
unsafe fn avx512<const L: usize>(buf: &[[u64; L]], row: &[u32]) -> [u64; L] {
    use std::arch::x86_64::*;
    if !L.is_multiple_of(8) {
        // SAFETY: the CPU has AVX2 (the caller's promise includes it).
        return unsafe { avx2(buf, row) };
    }
    let vectors = L / 8;
    let mut acc = [_mm512_setzero_si512(); MAX_LANES / 8];
    for &i in row {
        let src = buf[i as usize].as_ptr();
        for (v, a) in acc.iter_mut().enumerate().take(vectors) {
            // SAFETY: words `8 v .. 8 v + 8` of the `L`-word slot are readable
            // (`v < L / 8`); unaligned loads.
            *a = _mm512_xor_si512(*a, unsafe { _mm512_loadu_si512(src.add(8 * v).cast()) });
        }
    }
    let mut out = [0u64; L];
    for (v, a) in acc.iter().enumerate().take(vectors) {
        // SAFETY: as above, for `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(8 * v).cast(), *a) };
    }
    out
}

/// The copy of [`body`] for one tier: chosen once per pass, called per row.
#[derive(Clone, Copy)]
pub(crate) struct XorRow<const L: usize> {
    /// A copy whose instructions the CPU runs (checked in [`XorRow::of`]).
    copy: unsafe fn(&[[u64; L]], &[u32]) -> [u64; L],
}

impl<const L: usize> XorRow<L> {
    /// The copy for this process's tier ([`cpu::tier`]).
    pub(crate) fn for_this_cpu() -> Self {
        Self::of(cpu::tier())
    }

    /// The copy for `tier`, which must run on this CPU.
    ///
    /// # Panics
    /// When it does not ([`Tier::runs_here`]).
    pub(crate) fn of(tier: Tier) -> Self {
        assert!(tier.runs_here(), "tier {tier} does not run on this CPU");
        let copy: unsafe fn(&[[u64; L]], &[u32]) -> [u64; L] = match tier {
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => avx2::<L>,
            #[cfg(target_arch = "x86_64")]
            Tier::Avx512 => avx512::<L>,
            _ => portable::<L>,
        };
        XorRow { copy }
    }

    /// The XOR of the rows of `buf` named by `row`, lane by lane.
    #[inline]
    pub(crate) fn apply(&self, buf: &[[u64; L]], row: &[u32]) -> [u64; L] {
        // SAFETY: `of` chose a copy for a tier this CPU runs, and the AVX2
        // and AVX-512 tiers include the features their copies enable.
        unsafe { (self.copy)(buf, row) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tier this CPU runs computes the definition, for each block
    /// width the generator uses and rows of every length up to 40 terms,
    /// repeats included.
    #[test]
    fn every_tier_matches_the_definition() {
        fn check<const L: usize>() {
            let mut state = 0x2545_f491_4f6c_dd1du64;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let buf: Vec<[u64; L]> = (0..97).map(|_| std::array::from_fn(|_| next())).collect();
            for len in 0..40 {
                let row: Vec<u32> = (0..len).map(|_| (next() % 97) as u32).collect();
                let want = body(&buf, &row);
                for tier in Tier::supported() {
                    assert_eq!(
                        XorRow::<L>::of(tier).apply(&buf, &row),
                        want,
                        "{tier}, L = {L}, {len} terms"
                    );
                }
            }
        }
        check::<1>();
        check::<2>();
        check::<4>();
        check::<8>();
        check::<16>();
        check::<32>();
        check::<64>();
    }
}
