//! Bulk GF(2)-linear algebra on slices of field elements, read as 128-bit
//! rows of a bit matrix.
//!
//! Two operations, each with a plain definition here and fast kernels:
//!
//! * [`add_bit_sums`]: `out[u] += sum_x bit u of f[x] * w[x]` for all 128
//!   `u` — the 128x128 bit-matrix product `W^T F` of the weight rows and the
//!   data rows. Ring switching's bit evaluations are this with `w = eq`.
//! * [`apply_maps_sum`]: `out[x] += sum_k M_k(input_k[x])` for GF(2)-linear
//!   maps `M_k` on GF(2^128) — the product of the data rows by 128x128 bit
//!   matrices. Ring switching's opening weights are this.
//!
//! [`Kernel`] names the ways to compute both, one file per instruction set:
//! `gfni` (AVX-512 tier: `gf2p8affineqb` multiplies an 8x8 bit matrix by
//! eight bytes at once, on 64 bytes), `avx2_gfni` (AVX2 tier on a CPU with
//! VEX-encoded GFNI: the same on 32 bytes) and `avx2` (AVX2 tier otherwise:
//! split-nibble `vpshufb` tables). The process runs the one its tier
//! selects ([`crate::cpu`]); [`Kernel::available`] lists every one this CPU
//! runs, and `tests/bit_matrix.rs` checks each against the definitions on
//! random inputs.

use crate::{ByteLinearMap, Gf128};
pub use starling_verifier::field::transpose::transpose128;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_gfni;
#[cfg(target_arch = "x86_64")]
mod gfni;

/// Proof that the CPU runs the AVX-512 GFNI kernels.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Gfni(());

/// Proof that the CPU runs the AVX2 kernels.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Avx2(());

/// Proof that the CPU runs the AVX2 kernels with GFNI.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct Avx2Gfni(());

/// True when [`add_bit_sums`] and [`apply_maps_sum`] run a fast kernel
/// (callers with a better portable method of their own can pick it
/// otherwise).
pub fn accelerated() -> bool {
    Kernel::selected() != Kernel::Reference
}

/// A way to compute [`add_bit_sums`] and [`apply_maps_sum`]. The process
/// uses the one its tier selects; tests run every one the CPU has
/// ([`Kernel::available`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The definitions: [`add_bit_sums_reference`], [`apply_maps_sum_reference`].
    Reference,
    /// AVX2 tier, split-nibble `vpshufb` tables.
    Avx2,
    /// AVX2 tier on a CPU with GFNI: affine products on 32 bytes.
    Avx2Gfni,
    /// AVX-512 tier: affine products on 64 bytes.
    Avx512,
}

impl Kernel {
    /// Every kernel this CPU runs, the reference first.
    pub fn available() -> Vec<Kernel> {
        [Kernel::Reference, Kernel::Avx2, Kernel::Avx2Gfni, Kernel::Avx512]
            .into_iter()
            .filter(|k| k.runs_here())
            .collect()
    }

    /// True when this CPU has every instruction the kernel uses.
    pub fn runs_here(self) -> bool {
        use crate::cpu::{has_gfni, Tier};
        match self {
            Kernel::Reference => true,
            Kernel::Avx2 => cfg!(target_arch = "x86_64") && Tier::Avx2.runs_here(),
            Kernel::Avx2Gfni => cfg!(target_arch = "x86_64") && Tier::Avx2.runs_here() && has_gfni(),
            Kernel::Avx512 => cfg!(target_arch = "x86_64") && Tier::Avx512.runs_here(),
        }
    }

    /// The kernel of the process's tier.
    fn selected() -> Kernel {
        match crate::cpu::tier() {
            crate::cpu::Tier::Avx512 => Kernel::Avx512,
            crate::cpu::Tier::Avx2 if Kernel::Avx2Gfni.runs_here() => Kernel::Avx2Gfni,
            crate::cpu::Tier::Avx2 => Kernel::Avx2,
            crate::cpu::Tier::Portable | crate::cpu::Tier::Neon => Kernel::Reference,
        }
    }
}

/// The 8x8 bit transpose of a `u64` read as eight bytes (bit `8 r + c` is
/// row `r`, column `c`): bit `8 r + c` goes to `8 c + r`.
#[inline]
pub fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Weights prepared for [`add_bit_sums`].
#[derive(Clone, Debug)]
pub struct BitSumWeights {
    weights: Vec<u128>,
    /// Fast kernels only: for each group of eight weights `w[8 g + m]` and
    /// each byte position `i`, the affine matrix whose row `s` (byte `7 - s`)
    /// has bit `m` equal to bit `8 i + s` of `w[8 g + m]`. Read as 128 bytes,
    /// byte `v ^ 7` of `cols[g]` has bit `m` equal to bit `v` of `w[8 g + m]`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    cols: Vec<[u64; 16]>,
}

impl BitSumWeights {
    /// Prepares `weights` (raw field elements).
    pub fn new(weights: &[u128]) -> Self {
        // Any fast kernel may be asked for (tests run each), so the columns
        // are made wherever one runs.
        let cols = if Kernel::available().len() > 1 {
            weight_columns(weights)
        } else {
            Vec::new()
        };
        BitSumWeights {
            weights: weights.to_vec(),
            cols,
        }
    }

    /// Number of weights.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// True when there are no weights.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }
}

/// See [`BitSumWeights::cols`].
fn weight_columns(weights: &[u128]) -> Vec<[u64; 16]> {
    weights
        .chunks_exact(8)
        .map(|group| {
            core::array::from_fn(|i| {
                let rows = group.iter().enumerate().fold(0u64, |acc, (m, w)| {
                    acc | ((((w >> (8 * i)) & 0xff) as u64) << (8 * m))
                });
                transpose8(rows).swap_bytes()
            })
        })
        .collect()
}

/// The definition of [`add_bit_sums`] for one weight vector.
pub fn add_bit_sums_reference(f: &[u128], w: &[u128], out: &mut [u128; 128]) {
    assert_eq!(f.len(), w.len());
    for (&fx, &wx) in f.iter().zip(w) {
        for (u, o) in out.iter_mut().enumerate() {
            if (fx >> u) & 1 == 1 {
                *o ^= wx;
            }
        }
    }
}

/// For every weight vector `k` and bit `u`:
/// `out[k][u] += sum_x bit u of f[x] * weights[k][x]`.
///
/// Panics unless every weight vector has `f.len()` entries and there is one
/// output per weight vector.
pub fn add_bit_sums(f: &[u128], weights: &[&BitSumWeights], out: &mut [[u128; 128]]) {
    add_bit_sums_with(Kernel::selected(), f, weights, out);
}

/// [`add_bit_sums`] by `kernel`.
///
/// Panics as [`add_bit_sums`] does, and when this CPU does not run `kernel`.
pub fn add_bit_sums_with(kernel: Kernel, f: &[u128], weights: &[&BitSumWeights], out: &mut [[u128; 128]]) {
    assert!(kernel.runs_here(), "this CPU does not run the {kernel:?} kernel");
    assert_eq!(weights.len(), out.len(), "one output per weight vector");
    for w in weights {
        assert_eq!(w.len(), f.len(), "weights and data must have equal lengths");
    }
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    // The tokens vouch for what `runs_here` checked above.
    #[cfg(target_arch = "x86_64")]
    match kernel {
        Kernel::Reference => {}
        Kernel::Avx2 => done = avx2::add_bit_sums(Avx2(()), f, weights, out),
        Kernel::Avx2Gfni => done = avx2_gfni::add_bit_sums(Avx2Gfni(()), f, weights, out),
        Kernel::Avx512 => done = gfni::add_bit_sums(Gfni(()), f, weights, out),
    }
    for (w, o) in weights.iter().zip(out.iter_mut()) {
        add_bit_sums_reference(&f[done..], &w.weights[done..], o);
    }
}

/// `out[k][u] += ` the element whose byte `i` is `acc[k][i][u]`: the last
/// step of the GFNI kernels, which sum byte `i` of every `out[u]` in
/// `acc[k][i]`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn add_byte_sums(acc: &[[[u8; 128]; 16]], out: &mut [[u128; 128]]) {
    for (a, o) in acc.iter().zip(out.iter_mut()) {
        for (u, ou) in o.iter_mut().enumerate() {
            let bytes: [u8; 16] = core::array::from_fn(|i| a[i][u]);
            *ou ^= u128::from_le_bytes(bytes);
        }
    }
}

/// Split-nibble tables of a GF(2)-linear map on GF(2^128): `[p][o][n]` is
/// byte `o` of the image of the element whose nibble `p` (bits `4 p ..
/// 4 p + 4`) is `n` and whose other bits are zero.
type NibbleTables = [[[u8; 16]; 16]; 32];

/// A GF(2)-linear map on GF(2^128) prepared for [`apply_maps_sum`].
#[derive(Clone)]
pub struct SliceMap {
    map: ByteLinearMap,
    /// AVX2 without GFNI: the map as split-nibble tables.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    nibbles: Box<NibbleTables>,
    /// `mats[o][j]`: the affine matrix taking input byte `j` to its part of
    /// output byte `o` (row `s`, byte `7 - s`, has bit `t` equal to bit
    /// `8 o + s` of the image of bit `8 j + t`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    mats: [[u64; 16]; 16],
}

impl SliceMap {
    /// The map sending basis bit `v` (the element `x^v`) to `images[v]`.
    pub fn new(images: &[Gf128; 128]) -> Self {
        let mats = core::array::from_fn(|o| {
            core::array::from_fn(|j| {
                let mut m = 0u64;
                for s in 0..8 {
                    let mut row = 0u8;
                    for t in 0..8 {
                        row |= (((images[8 * j + t].to_bits() >> (8 * o + s)) & 1) as u8) << t;
                    }
                    m |= (row as u64) << (8 * (7 - s));
                }
                m
            })
        });
        let mut nibbles = Box::new([[[0u8; 16]; 16]; 32]);
        for (p, by_byte) in nibbles.iter_mut().enumerate() {
            let image = |n: usize| -> u128 {
                (0..4)
                    .filter(|t| (n >> t) & 1 == 1)
                    .fold(0, |acc, t| acc ^ images[4 * p + t].to_bits())
            };
            for n in 0..16 {
                let v = image(n);
                for (o, row) in by_byte.iter_mut().enumerate() {
                    row[n] = (v >> (8 * o)) as u8;
                }
            }
        }
        SliceMap {
            map: ByteLinearMap::new(images),
            mats,
            nibbles,
        }
    }

    /// Applies the map to one element.
    pub fn apply(&self, a: Gf128) -> Gf128 {
        self.map.apply(a)
    }
}

/// `out[x] += sum_k maps[k](inputs[k][x])` for every `x`.
///
/// Panics unless there is one input per map and every input has
/// `out.len()` entries.
pub fn apply_maps_sum(maps: &[&SliceMap], inputs: &[&[u128]], out: &mut [u128]) {
    apply_maps_sum_with(Kernel::selected(), maps, inputs, out);
}

/// [`apply_maps_sum`] by `kernel`.
///
/// Panics as [`apply_maps_sum`] does, and when this CPU does not run
/// `kernel`.
pub fn apply_maps_sum_with(kernel: Kernel, maps: &[&SliceMap], inputs: &[&[u128]], out: &mut [u128]) {
    assert!(kernel.runs_here(), "this CPU does not run the {kernel:?} kernel");
    assert_eq!(maps.len(), inputs.len(), "one input per map");
    for input in inputs {
        assert_eq!(
            input.len(),
            out.len(),
            "inputs and output must have equal lengths"
        );
    }
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    // The tokens vouch for what `runs_here` checked above.
    #[cfg(target_arch = "x86_64")]
    match kernel {
        Kernel::Reference => {}
        Kernel::Avx2 => done = avx2::apply_maps_sum(Avx2(()), maps, inputs, out),
        Kernel::Avx2Gfni => done = avx2_gfni::apply_maps_sum(Avx2Gfni(()), maps, inputs, out),
        Kernel::Avx512 => done = gfni::apply_maps_sum(Gfni(()), maps, inputs, out),
    }
    apply_maps_sum_reference(
        maps,
        &inputs.iter().map(|v| &v[done..]).collect::<Vec<_>>(),
        &mut out[done..],
    );
}

/// The definition of [`apply_maps_sum`].
pub fn apply_maps_sum_reference(maps: &[&SliceMap], inputs: &[&[u128]], out: &mut [u128]) {
    for (map, input) in maps.iter().zip(inputs) {
        for (o, &v) in out.iter_mut().zip(input.iter()) {
            *o ^= map.apply(Gf128::new(v)).to_bits();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose8_matches_definition() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..100 {
            let t = transpose8(x);
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!((x >> (8 * r + c)) & 1, (t >> (8 * c + r)) & 1);
                }
            }
            x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17) ^ 0x5555;
        }
    }
}
