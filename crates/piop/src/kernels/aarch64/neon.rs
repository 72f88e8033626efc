//! The Neon tier's skip chunk: GF(2^8) arithmetic on 16 bytes at a time,
//! four vectors to a 64-byte row. See [`super`] for why the `unsafe` blocks
//! are sound.
//!
//! Per word the chunk needs `c = a_hat * b_hat` on the 64 extra points and
//! then, for each of the 16 coordinates `g_k` of the word's weight, `g_k * c`
//! and `g_k` on the bytes where `z`'s bit is set. The product of two
//! variable bytes is one polynomial multiply (`vmull_p8`, 8x8 -> 15 bits)
//! and a reduction of the high byte by split-nibble `vqtbl1q_u8` tables of
//! `h x^8` and `h x^12` modulo the AES polynomial. Products by a constant
//! `g` are split-nibble tables too (`g x` for the low nibble, `g (x << 4)`
//! for the high one), and `z`'s bits become byte masks with one table
//! lookup and `vtstq_u8`. As in the AVX2 kernel, a first pass over a block
//! of words writes each word's nibbles and mask to a buffer, then one pass
//! per pair of coordinates streams the buffer with the pair's 16
//! accumulator vectors held in registers.

use core::arch::aarch64::*;
use std::sync::OnceLock;

use starling_field::cpu::Tier;

use super::super::portable::{gf8_mul_table, ByteRow, ExtRows, ExtTables, SkipAcc};

/// Proof that the CPU supports NEON (under the Neon tier, which also
/// requires `aes`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon(());

impl Neon {
    /// The token, under the Neon tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Neon && tier.runs_here()).then_some(Neon(()))
    }

    /// Same result as [`super::super::portable::skip_chunk`].
    pub(crate) fn skip_chunk(
        self,
        ext: &ExtTables,
        a: &[u64],
        b: &[u64],
        z: &[u64],
        coords: &[[u8; 16]],
        acc: &mut SkipAcc,
    ) {
        assert!(a.len() == b.len() && b.len() == z.len() && z.len() <= coords.len());
        // SAFETY: the token proves NEON is present; lengths were checked.
        unsafe { skip_chunk_neon(&ext.aes, a, b, z, coords, acc) }
    }
}

/// Per GF(2^8) constant `g`: `g x` for `x < 16`, then `g (x << 4)`.
pub(crate) fn constant_tables() -> &'static [[u8; 32]; 256] {
    static TABLES: OnceLock<Box<[[u8; 32]; 256]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mul = gf8_mul_table();
        let mut t = Box::new([[0u8; 32]; 256]);
        for (g, row) in t.iter_mut().enumerate() {
            for x in 0..16 {
                row[x] = mul[g][x];
                row[16 + x] = mul[g][x << 4];
            }
        }
        t
    })
}

/// `h x^(8 + shift)` modulo the AES polynomial `x^8 + x^4 + x^3 + x + 1`,
/// for every nibble `h`.
const fn reduction_table(shift: u32) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut h = 0;
    while h < 16 {
        let mut v = (h as u32) << (8 + shift);
        let mut bit = 11 + shift;
        while bit >= 8 {
            if (v >> bit) & 1 == 1 {
                v ^= 0x11b << (bit - 8);
            }
            bit -= 1;
        }
        t[h] = v as u8;
        h += 1;
    }
    t
}

/// The reductions of the low and the high nibble of a product's high byte.
const REDUCE: [[u8; 16]; 2] = [reduction_table(0), reduction_table(4)];

/// `idx[q][p] = (16 q + p) / 8`: with the word in lanes 0..8 of a vector,
/// `vqtbl1q_u8` puts the byte holding bit `16 q + p` at byte `p` of
/// quarter `q`.
const MASK_BYTES: [[u8; 16]; 4] = {
    let mut idx = [[0u8; 16]; 4];
    let mut q = 0;
    while q < 4 {
        let mut p = 0;
        while p < 16 {
            idx[q][p] = ((16 * q + p) / 8) as u8;
            p += 1;
        }
        q += 1;
    }
    idx
};

/// Words per block of the first pass: their nibbles and masks (192 bytes a
/// word) stay in L1 while the coordinate passes stream them.
const BLOCK: usize = 32;

/// One word's operands for the coordinate passes: the low and high nibbles
/// of `c` and the mask of `z`'s bits, each as four 16-byte quarters.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct WordOperands {
    lo: [uint8x16_t; 4],
    hi: [uint8x16_t; 4],
    mask: [uint8x16_t; 4],
}

/// The four quarters of a row.
#[inline(always)]
fn load_row(row: &ByteRow) -> [uint8x16_t; 4] {
    // SAFETY: `row` is 64 readable bytes; NEON is present (the callers
    // hold a token).
    let v = unsafe { vld1q_u8_x4(row.0.as_ptr()) };
    [v.0, v.1, v.2, v.3]
}

/// Writes four quarters to a row.
#[inline(always)]
fn store_row(row: &mut ByteRow, v: [uint8x16_t; 4]) {
    // SAFETY: `row` is 64 writable bytes; NEON is present.
    unsafe { vst1q_u8_x4(row.0.as_mut_ptr(), uint8x16x4_t(v[0], v[1], v[2], v[3])) }
}

/// `f_hat` of `word` on the extra points, as four quarters.
#[inline(always)]
fn extra_values(ext: &ExtRows, word: u64) -> [uint8x16_t; 4] {
    let mut acc = load_row(&ext[0][(word & 0xff) as usize]);
    for (j, tj) in ext.iter().enumerate().skip(1) {
        let row = load_row(&tj[((word >> (8 * j)) & 0xff) as usize]);
        for (x, r) in acc.iter_mut().zip(row) {
            // SAFETY: NEON is present.
            *x = unsafe { veorq_u8(*x, r) };
        }
    }
    acc
}

/// Byte-wise GF(2^8) product (AES polynomial) of two vectors: the 15-bit
/// polynomial products, their low bytes, plus the high bytes reduced by
/// [`REDUCE`] (`h < 2^7`, so its high nibble is below 8).
#[inline(always)]
fn gf8_mul(x: uint8x16_t, y: uint8x16_t, reduce: [uint8x16_t; 2], nibble: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is present.
    unsafe {
        let (xp, yp) = (vreinterpretq_p8_u8(x), vreinterpretq_p8_u8(y));
        let first = vreinterpretq_u8_p16(vmull_p8(vget_low_p8(xp), vget_low_p8(yp)));
        let second = vreinterpretq_u8_p16(vmull_high_p8(xp, yp));
        // Little-endian 16-bit lanes: even bytes are the low halves.
        let low = vuzp1q_u8(first, second);
        let high = vuzp2q_u8(first, second);
        let r = veorq_u8(
            vqtbl1q_u8(reduce[0], vandq_u8(high, nibble)),
            vqtbl1q_u8(reduce[1], vshrq_n_u8::<4>(high)),
        );
        veorq_u8(low, r)
    }
}

#[target_feature(enable = "neon")]
fn skip_chunk_neon(ext: &ExtRows, a: &[u64], b: &[u64], z: &[u64], coords: &[[u8; 16]], acc: &mut SkipAcc) {
    let tables = constant_tables();
    let nibble = vdupq_n_u8(0x0f);
    let bit_of_byte = vreinterpretq_u8_u64(vdupq_n_u64(0x8040_2010_0804_0201));
    // SAFETY: each row of `REDUCE` and `MASK_BYTES` is 16 readable bytes.
    let reduce: [uint8x16_t; 2] = core::array::from_fn(|i| unsafe { vld1q_u8(REDUCE[i].as_ptr()) });
    // SAFETY: as above.
    let mask_idx: [uint8x16_t; 4] = core::array::from_fn(|q| unsafe { vld1q_u8(MASK_BYTES[q].as_ptr()) });
    let zero = vdupq_n_u8(0);
    let zero_ops = WordOperands {
        lo: [zero; 4],
        hi: [zero; 4],
        mask: [zero; 4],
    };
    let mut ops = [zero_ops; BLOCK];
    let mut start = 0;
    while start < z.len() {
        let n = BLOCK.min(z.len() - start);
        for (i, o) in ops[..n].iter_mut().enumerate() {
            let w = start + i;
            let (ah, bh) = (extra_values(ext, a[w]), extra_values(ext, b[w]));
            let zw = vreinterpretq_u8_u64(vdupq_n_u64(z[w]));
            for q in 0..4 {
                let c = gf8_mul(ah[q], bh[q], reduce, nibble);
                o.lo[q] = vandq_u8(c, nibble);
                o.hi[q] = vshrq_n_u8::<4>(c);
                o.mask[q] = vtstq_u8(vqtbl1q_u8(zw, mask_idx[q]), bit_of_byte);
            }
        }
        let words = &coords[start..start + n];
        for k in (0..16).step_by(2) {
            coordinate_pair(tables, &ops[..n], words, k, acc);
        }
        start += n;
    }
}

/// Adds the block's terms for coordinates `k` and `k + 1` to `acc`.
#[inline(always)]
fn coordinate_pair(
    tables: &[[u8; 32]; 256],
    ops: &[WordOperands],
    coords: &[[u8; 16]],
    k: usize,
    acc: &mut SkipAcc,
) {
    assert!(k < 15);
    let mut ab = [load_row(&acc.ab[k]), load_row(&acc.ab[k + 1])];
    let mut zs = [load_row(&acc.z[k]), load_row(&acc.z[k + 1])];
    for (o, g) in ops.iter().zip(coords) {
        let gs = [g[k], g[k + 1]];
        // SAFETY: NEON is present; every load is of 16 in-bounds bytes of a
        // 32-byte table row, or one byte of `gs`.
        unsafe {
            let lo_t = gs.map(|gj| vld1q_u8(tables[gj as usize].as_ptr()));
            let hi_t = gs.map(|gj| vld1q_u8(tables[gj as usize].as_ptr().add(16)));
            let gg = [vld1q_dup_u8(&gs[0]), vld1q_dup_u8(&gs[1])];
            for q in 0..4 {
                let (lo, hi, mask) = (o.lo[q], o.hi[q], o.mask[q]);
                for j in 0..2 {
                    let p = veorq_u8(vqtbl1q_u8(lo_t[j], lo), vqtbl1q_u8(hi_t[j], hi));
                    ab[j][q] = veorq_u8(ab[j][q], p);
                    zs[j][q] = veorq_u8(zs[j][q], vandq_u8(mask, gg[j]));
                }
            }
        }
    }
    for j in 0..2 {
        store_row(&mut acc.ab[k + j], ab[j]);
        store_row(&mut acc.z[k + j], zs[j]);
    }
}
