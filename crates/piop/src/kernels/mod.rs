//! Fast paths of the zerocheck prover, with run-time CPU dispatch.
//!
//! [`portable`] is the definition of every kernel. `x86_64` holds
//! * `Clmul` (AVX2 and AVX-512 tiers): the portable field loops with an
//!   inlined PCLMULQDQ multiply and a reduction by carry-less
//!   multiplication, kept in xmm registers;
//! * `x86_64/avx2.rs`, `Avx2`: the skip chunk (GF(2^8) products in the
//!   tower basis of `x86_64/tower.rs`, split-nibble `vpshufb` tables for the
//!   products by the `eq` coordinates, and `z` eight bit-transposed words
//!   at a time) and the weighing of words (split-nibble tables on 32
//!   byte-transposed words; not where the CPU runs 256-bit instructions
//!   as two halves, where the byte tables are faster), and `Vpclmul256`:
//!   the field loops on two elements at a time where the CPU has 256-bit
//!   VPCLMULQDQ;
//! * `x86_64/avx2_gfni.rs`, `Gfni256`: the AVX2 tier's skip chunk and
//!   weighing of words where the CPU has GFNI (VEX-encoded `gf2p8mulb` and
//!   `gf2p8affineqb` on 32 bytes: the AVX-512 tier's computation on halves,
//!   and the weighing's byte planes with affine products);
//! * `x86_64/avx512.rs`, `Vpclmul`: the field loops on four elements at a
//!   time (VPCLMULQDQ; both widths share `x86_64/lanes.rs`), and `Gfni`: the skip chunk (`gf2p8mulb` for the
//!   GF(2^8) products, `gf2p8affineqb` for products by the `eq`
//!   coordinates) and the weighing of words by the Lagrange weights (64
//!   words at a time, byte-transposed);
//! * and `aarch64` the Neon tier's: `Pmull`, the portable field loops with
//!   an inlined PMULL multiply and reduction, and in `aarch64/neon.rs`,
//!   `Neon`, the skip chunk (`vmull_p8` for the GF(2^8) products,
//!   split-nibble `vqtbl1q_u8` tables for products by the `eq` coordinates).
//!
//! [`Kernels::for_tier`] is the one place that maps a
//! [`starling_field::cpu::Tier`] to these; the process uses its tier's.
//! `tests` runs every tier's kernels this CPU runs against the portable
//! definitions on random inputs.

#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use std::sync::OnceLock;

use starling_field::cpu::{self, Tier};
use starling_field::{subset_sums, Gf128};

pub(crate) use portable::{ByteRow, ExtTables, SkipAcc};

/// The weights of a word's 64 bits in the forms the weighing kernels take
/// (the forms of one [`Kernels`] set, built for it: a verifier builds one per
/// word of a public run).
pub(crate) struct WordWeights {
    /// `tables[j][m] = sum_{t in m} weights[8 j + t]`: the portable form.
    pub(crate) tables: Box<[[u128; 256]; 8]>,
    /// GFNI (either width): [`weigh_matrices`] of `tables`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) mats: Option<[[u64; 8]; 16]>,
    /// AVX2 without GFNI: split-nibble shuffle tables, `nibbles[p][o][n]`
    /// byte `o` of the sum of the weights of the bits set in `n` placed at
    /// nibble `p` of a word (bits `4 p .. 4 p + 4`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) nibbles: Option<Box<NibbleTables>>,
}

/// See [`WordWeights::nibbles`].
pub(crate) type NibbleTables = [[[u8; 16]; 16]; 16];

impl WordWeights {
    /// The forms `kernels` read of the weighing by `weights` (bit `y` of a
    /// word weighs `weights[y]`).
    pub(crate) fn new(kernels: &Kernels, weights: &[Gf128; 64]) -> Self {
        let mut tables = Box::new([[0u128; 256]; 8]);
        for (j, tj) in tables.iter_mut().enumerate() {
            for (o, s) in tj.iter_mut().zip(subset_sums(&weights[8 * j..8 * j + 8])) {
                *o = s.to_bits();
            }
        }
        Self::from_tables(kernels, tables)
    }

    /// The forms `kernels` read of the weighing that byte tables describe
    /// (`tables[j][m]` the sum for byte `j` holding `m`; linear in `m`).
    pub(crate) fn from_tables(kernels: &Kernels, tables: Box<[[u128; 256]; 8]>) -> Self {
        let (mut mats, mut nibbles) = (None, None);
        #[cfg(target_arch = "x86_64")]
        if kernels.gfni.is_some() || kernels.gfni256.is_some() {
            mats = Some(weigh_matrices(&tables));
        } else if kernels.avx2_weigh.is_some() {
            let mut n = Box::new([[[0u8; 16]; 16]; 16]);
            for (p, by_byte) in n.iter_mut().enumerate() {
                for (o, row) in by_byte.iter_mut().enumerate() {
                    for (x, v) in row.iter_mut().enumerate() {
                        *v = (tables[p / 2][x << (4 * (p % 2))] >> (8 * o)) as u8;
                    }
                }
            }
            nibbles = Some(n);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (kernels, &mut mats, &mut nibbles);
        WordWeights {
            tables,
            mats,
            nibbles,
        }
    }
}

/// The `eq` weights of the words of a skip chunk, in the forms the kernels
/// take.
pub(crate) struct SkipWeights {
    /// GF(2^8) coordinates of each word's weight.
    pub(crate) coords: Vec<[u8; 16]>,
    /// GFNI (either width) only: [`mul_matrix`] of each coordinate, per word.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) mats: Vec<[u64; 16]>,
    /// GFNI (either width) only: for each group of eight words and each
    /// coordinate `k`, the matrix sending a byte with bit `t` set for word
    /// `8 G + t` to the sum of those words' coordinates `k`
    /// ([`group_matrix`]).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) group_mats: Vec<[u64; 16]>,
    /// AVX2 without GFNI only: the same maps as `group_mats` as split-nibble
    /// tables ([`group_nibbles_of`]), per group of eight words and
    /// coordinate.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) group_nibbles: Vec<[[u8; 32]; 16]>,
}

impl SkipWeights {
    pub(crate) fn new(kernels: &Kernels, coords: Vec<[u8; 16]>) -> Self {
        let (mut mats, mut group_mats, mut group_nibbles) = (Vec::new(), Vec::new(), Vec::new());
        #[cfg(target_arch = "x86_64")]
        if kernels.gfni.is_some() || kernels.gfni256.is_some() {
            let table: [u64; 256] = core::array::from_fn(|g| mul_matrix(g as u8));
            mats = coords
                .iter()
                .map(|g| core::array::from_fn(|k| table[g[k] as usize]))
                .collect();
            group_mats = coords
                .chunks_exact(8)
                .map(|group| core::array::from_fn(|k| group_matrix(core::array::from_fn(|t| group[t][k]))))
                .collect();
        } else if kernels.avx2.is_some() {
            group_nibbles = coords
                .chunks_exact(8)
                .map(|group| {
                    core::array::from_fn(|k| group_nibbles_of(core::array::from_fn(|t| group[t][k])))
                })
                .collect();
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (kernels, &mut mats, &mut group_mats, &mut group_nibbles);
        SkipWeights {
            coords,
            mats,
            group_mats,
            group_nibbles,
        }
    }
}

/// Split-nibble tables of the GF(2)-linear map sending a byte `x` to
/// `sum_t bit t of x * h[t]`: entry `n` is the image of `n`, entry `16 + n`
/// that of `n << 4`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn group_nibbles_of(h: [u8; 8]) -> [u8; 32] {
    let sum = |m: usize| {
        (0..8)
            .filter(|t| (m >> t) & 1 == 1)
            .fold(0u8, |acc, t| acc ^ h[t])
    };
    core::array::from_fn(|i| if i < 16 { sum(i) } else { sum((i - 16) << 4) })
}

/// The GFNI affine matrix of the GF(2)-linear map sending a byte `x` to
/// `sum_t bit t of x * h[t]`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn group_matrix(h: [u8; 8]) -> u64 {
    let mut m = 0u64;
    for i in 0..8 {
        let row = (0..8).fold(0u8, |row, t| row | (((h[t] >> i) & 1) << t));
        m |= (row as u64) << (8 * (7 - i));
    }
    m
}

/// The kernels selected for this process.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kernels {
    #[cfg(target_arch = "x86_64")]
    clmul: Option<x86_64::Clmul>,
    #[cfg(target_arch = "x86_64")]
    avx2: Option<x86_64::avx2::Avx2>,
    /// The AVX2 weighing of words by split-nibble shuffles: [`Kernels::avx2`]
    /// except where the CPU runs 256-bit instructions as two halves
    /// ([`cpu::splits_256bit_vectors`]; a Zen 1 EPYC, one thread: the byte
    /// tables made a 2^14 SHA-256 proof 6% faster and its verification 9%).
    #[cfg(target_arch = "x86_64")]
    avx2_weigh: Option<x86_64::avx2::Avx2>,
    #[cfg(target_arch = "x86_64")]
    vpclmul256: Option<x86_64::avx2::Vpclmul256>,
    #[cfg(target_arch = "x86_64")]
    gfni256: Option<x86_64::avx2_gfni::Gfni256>,
    #[cfg(target_arch = "x86_64")]
    gfni: Option<x86_64::avx512::Gfni>,
    #[cfg(target_arch = "x86_64")]
    vpclmul: Option<x86_64::avx512::Vpclmul>,
    #[cfg(target_arch = "aarch64")]
    pmull: Option<aarch64::Pmull>,
    #[cfg(target_arch = "aarch64")]
    neon: Option<aarch64::neon::Neon>,
}

impl Kernels {
    /// The kernels `tier` uses, or `None` when this CPU does not run it.
    pub(crate) fn for_tier(tier: Tier) -> Option<Kernels> {
        if !tier.runs_here() {
            return None;
        }
        Some(Kernels {
            #[cfg(target_arch = "x86_64")]
            clmul: x86_64::Clmul::new(tier),
            #[cfg(target_arch = "x86_64")]
            avx2: x86_64::avx2::Avx2::new(tier),
            #[cfg(target_arch = "x86_64")]
            avx2_weigh: x86_64::avx2::Avx2::new(tier).filter(|_| !cpu::splits_256bit_vectors()),
            #[cfg(target_arch = "x86_64")]
            vpclmul256: x86_64::avx2::Vpclmul256::new(tier),
            #[cfg(target_arch = "x86_64")]
            gfni256: x86_64::avx2_gfni::Gfni256::new(tier),
            #[cfg(target_arch = "x86_64")]
            gfni: x86_64::avx512::Gfni::new(tier),
            #[cfg(target_arch = "x86_64")]
            vpclmul: x86_64::avx512::Vpclmul::new(tier),
            #[cfg(target_arch = "aarch64")]
            pmull: aarch64::Pmull::new(tier),
            #[cfg(target_arch = "aarch64")]
            neon: aarch64::neon::Neon::new(tier),
        })
    }

    /// The kernels of every tier this CPU runs, portable first.
    #[cfg(test)]
    pub(crate) fn every_tier() -> Vec<Kernels> {
        Tier::supported()
            .into_iter()
            .filter_map(Kernels::for_tier)
            .collect()
    }

    /// [`Kernels::every_tier`] and, where the CPU has them, the variants a
    /// tier falls back to on CPUs with fewer instructions (the AVX2 tier
    /// without 256-bit VPCLMULQDQ, and without GFNI) and, where this CPU
    /// weighs words by byte tables, the split-nibble weighing other AVX2
    /// CPUs use, each with a name.
    #[cfg(test)]
    pub(crate) fn every_variant() -> Vec<(String, Kernels)> {
        let mut out = Vec::new();
        for tier in Tier::supported() {
            let k = Kernels::for_tier(tier).expect("supported");
            out.push((tier.name().to_string(), k));
            #[cfg(target_arch = "x86_64")]
            if k.vpclmul256.is_some() {
                let narrow = Kernels {
                    vpclmul256: None,
                    ..k
                };
                out.push((format!("{} without vpclmulqdq-256", tier.name()), narrow));
            }
            #[cfg(target_arch = "x86_64")]
            if k.avx2.is_some() && k.avx2_weigh.is_none() {
                let nibbles = Kernels {
                    avx2_weigh: k.avx2,
                    ..k
                };
                out.push((format!("{} with split-nibble weighing", tier.name()), nibbles));
            }
            #[cfg(target_arch = "x86_64")]
            if k.gfni256.is_some() {
                let plain = Kernels { gfni256: None, ..k };
                out.push((format!("{} without gfni", tier.name()), plain));
            }
        }
        out
    }

    /// The portable definitions.
    #[cfg(test)]
    pub(crate) fn portable() -> Kernels {
        Kernels::for_tier(Tier::Portable).expect("portable runs everywhere")
    }

    /// The kernels of the process's tier.
    pub(crate) fn get() -> Kernels {
        static SELECTED: OnceLock<Kernels> = OnceLock::new();
        *SELECTED.get_or_init(|| Kernels::for_tier(cpu::tier()).expect("the process's tier runs here"))
    }

    /// Builds the constant tables these kernels read (see
    /// [`crate::prepare_tables`]).
    pub(crate) fn prepare_tables(&self) {
        portable::gf8_mul_table();
        #[cfg(target_arch = "x86_64")]
        if self.avx2.is_some() {
            x86_64::avx2::constant_tables();
        }
        #[cfg(target_arch = "aarch64")]
        if self.neon.is_some() {
            aarch64::neon::constant_tables();
        }
    }

    /// See [`portable::skip_chunk`]; `w` holds the weights of the chunk's
    /// words from the first on.
    pub(crate) fn skip_chunk(
        &self,
        ext: &ExtTables,
        a: &[u64],
        b: &[u64],
        z: &[u64],
        w: &SkipWeights,
        acc: &mut SkipAcc,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(g) = self.gfni {
            return g.skip_chunk(ext, a, b, z, w, acc);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(g) = self.gfni256 {
            return g.skip_chunk(ext, a, b, z, w, acc);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.avx2 {
            return v.skip_chunk(ext, a, b, z, w, acc);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(v) = self.neon {
            return v.skip_chunk(ext, a, b, z, &w.coords, acc);
        }
        portable::skip_chunk(ext, a, b, z, &w.coords, acc)
    }

    /// See [`portable::weigh_words`]; `w` holds the forms of these kernels
    /// ([`WordWeights::new`]).
    pub(crate) fn weigh_words(&self, w: &WordWeights, words: &[u64], out: &mut [u128]) {
        #[cfg(target_arch = "x86_64")]
        if let (Some(g), Some(mats)) = (self.gfni, &w.mats) {
            return g.weigh_words(&w.tables, mats, words, out);
        }
        #[cfg(target_arch = "x86_64")]
        if let (Some(g), Some(mats)) = (self.gfni256, &w.mats) {
            return g.weigh_words(&w.tables, mats, words, out);
        }
        #[cfg(target_arch = "x86_64")]
        if let (Some(v), Some(nibbles)) = (self.avx2_weigh, &w.nibbles) {
            return v.weigh_words(&w.tables, nibbles, words, out);
        }
        portable::weigh_words(&w.tables, words, out)
    }

    /// See [`portable::round_with`].
    pub(crate) fn round_field(&self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.vpclmul {
            return v.round_field(a, b, e_lo);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.vpclmul256 {
            return v.round_field(a, b, e_lo);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(c) = self.clmul {
            return c.round_field(a, b, e_lo);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(p) = self.pmull {
            return p.round_field(a, b, e_lo);
        }
        portable::round_field(a, b, e_lo)
    }

    /// See [`portable::fold_field_round`].
    pub(crate) fn fold_field_round(
        &self,
        a: &[u128],
        b: &[u128],
        r: u128,
        out_a: &mut [u128],
        out_b: &mut [u128],
        e_lo: &[u128],
    ) -> (u128, u128) {
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.vpclmul {
            return v.fold_field_round(a, b, r, out_a, out_b, e_lo);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = self.vpclmul256 {
            return v.fold_field_round(a, b, r, out_a, out_b, e_lo);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(c) = self.clmul {
            return c.fold_field_round(a, b, r, out_a, out_b, e_lo);
        }
        #[cfg(target_arch = "aarch64")]
        if let Some(p) = self.pmull {
            return p.fold_field_round(a, b, r, out_a, out_b, e_lo);
        }
        portable::fold_field_round(a, b, r, out_a, out_b, e_lo)
    }
}

/// GFNI matrices of a weighing by byte tables: `mats[o][j]` maps byte `j`
/// of a word to its contribution to byte `o` of the sum (`tables[j][1 << t]`
/// is the weight of bit `8 j + t`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn weigh_matrices(tables: &[[u128; 256]; 8]) -> [[u64; 8]; 16] {
    core::array::from_fn(|o| {
        core::array::from_fn(|j| {
            let mut m = 0u64;
            for i in 0..8 {
                let mut row = 0u8;
                for t in 0..8 {
                    row |= (((tables[j][1 << t] >> (8 * o + i)) & 1) as u8) << t;
                }
                m |= (row as u64) << (8 * (7 - i));
            }
            m
        })
    })
}

/// The GFNI affine matrix (`gf2p8affineqb` layout: byte `7 - i` is the row of
/// output bit `i`) of multiplication by `g` in GF(2^8).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn mul_matrix(g: u8) -> u64 {
    let mul = portable::gf8_mul_table();
    let mut m = 0u64;
    for i in 0..8 {
        let mut row = 0u8;
        for t in 0..8 {
            row |= ((mul[g as usize][1 << t] >> i) & 1) << t;
        }
        m |= (row as u64) << (8 * (7 - i));
    }
    m
}

#[cfg(test)]
mod tests;
