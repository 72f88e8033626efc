//! GFNI kernels of [`super`]: AVX-512 (F, BW, VBMI) and `gf2p8affineqb`.
//!
//! `gf2p8affineqb(x, A)` sets bit `s` of every byte `b` of a qword of `x` to
//! the parity of `(byte 7 - s of A's qword) & b`: an 8x8 bit matrix (rows in
//! reversed byte order) times each of eight bytes.

use core::arch::x86_64::*;

use super::{BitSumWeights, Gfni, SliceMap};

/// Byte `j` of every qword is `1 << j`: `affine(UNIT, Q)` has bit `i` of
/// byte `j` equal to bit `j` of byte `7 - i` of `Q`.
pub(super) const UNIT: u64 = 0x8040_2010_0804_0201;

/// Indices for `vpermi2b` on eight elements (`a` = elements 0..4, `b` =
/// elements 4..8, byte `16 m + j` is byte `j` of element `m`): qword `j` of
/// the result for half `h` gets byte `8 h + j` of elements 7, 6, .., 0.
const fn rows_idx(h: usize) -> [u8; 64] {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let (j, q) = (p / 8, p % 8);
        idx[p] = (16 * (7 - q) + 8 * h + j) as u8;
        p += 1;
    }
    idx
}
const ROWS_LO: [u8; 64] = rows_idx(0);
const ROWS_HI: [u8; 64] = rows_idx(1);

/// Groups of eight elements handled per pass over the accumulators.
const SUB_GROUPS: usize = 64;

#[inline(always)]
fn load_bytes(idx: &[u8; 64]) -> __m512i {
    // SAFETY: `idx` is 64 readable bytes; the callers enable avx512f.
    unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) }
}

/// [`super::add_bit_sums`] on the leading multiple of eight elements;
/// returns how many elements it did.
pub(super) fn add_bit_sums(
    _token: Gfni,
    f: &[u128],
    weights: &[&BitSumWeights],
    out: &mut [[u128; 128]],
) -> usize {
    let groups = f.len() / 8;
    for w in weights {
        assert!(w.cols.len() >= groups, "weights prepared for GFNI");
    }
    // acc[k][i] byte u: bits s = sum over x of bit (8 i + s) of w_k[x] * bit u of f[x].
    let mut acc = vec![[[0u8; 128]; 16]; weights.len()];
    let mut cols = [[[0u8; 64]; 2]; SUB_GROUPS];
    for (s, fs) in f[..8 * groups].chunks(8 * SUB_GROUPS).enumerate() {
        let n = fs.len() / 8;
        // SAFETY: the token proves the features; `fs` has `8 n` elements.
        unsafe { data_columns(fs, &mut cols[..n]) };
        for (w, a) in weights.iter().zip(acc.iter_mut()) {
            let wc = &w.cols[s * SUB_GROUPS..s * SUB_GROUPS + n];
            for half in 0..2 {
                // SAFETY: as above; the slices have matching lengths.
                unsafe { accumulate(&cols[..n], wc, half, &mut a[8 * half..8 * half + 8]) };
            }
        }
    }
    super::add_byte_sums(&acc, out);
    8 * groups
}

/// Column form of groups of eight elements: `cols[g][h]` qword `j` byte `t`
/// has bit `m` equal to bit `t` of byte `8 h + j` of `f[8 g + m]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn data_columns(f: &[u128], cols: &mut [[[u8; 64]; 2]]) {
    let (lo_idx, hi_idx) = (load_bytes(&ROWS_LO), load_bytes(&ROWS_HI));
    let unit = _mm512_set1_epi64(UNIT as i64);
    for (group, c) in f.chunks_exact(8).zip(cols.iter_mut()) {
        // SAFETY: `group` is 128 readable bytes, `c` 128 writable ones.
        unsafe {
            let a = _mm512_loadu_si512(group.as_ptr().cast());
            let b = _mm512_loadu_si512(group[4..].as_ptr().cast());
            // Row form: qword j byte q = byte j of element 7 - q.
            let lo = _mm512_permutex2var_epi8(a, lo_idx, b);
            let hi = _mm512_permutex2var_epi8(a, hi_idx, b);
            _mm512_storeu_si512(
                c[0].as_mut_ptr().cast(),
                _mm512_gf2p8affine_epi64_epi8::<0>(unit, lo),
            );
            _mm512_storeu_si512(
                c[1].as_mut_ptr().cast(),
                _mm512_gf2p8affine_epi64_epi8::<0>(unit, hi),
            );
        }
    }
}

/// `acc[i'] ^= sum_g affine(cols[g], wcols[g][8 half + i'])` for `i' < 8`,
/// both halves of the data columns.
#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn accumulate(cols: &[[[u8; 64]; 2]], wcols: &[[u64; 16]], half: usize, acc: &mut [[u8; 128]]) {
    // SAFETY: every load and store is of 64 in-bounds bytes.
    unsafe {
        let mut a0: [__m512i; 8] = core::array::from_fn(|i| _mm512_loadu_si512(acc[i].as_ptr().cast()));
        let mut a1: [__m512i; 8] = core::array::from_fn(|i| _mm512_loadu_si512(acc[i][64..].as_ptr().cast()));
        for (c, w) in cols.iter().zip(wcols) {
            let c0 = _mm512_loadu_si512(c[0].as_ptr().cast());
            let c1 = _mm512_loadu_si512(c[1].as_ptr().cast());
            for i in 0..8 {
                let m = _mm512_set1_epi64(w[8 * half + i] as i64);
                a0[i] = _mm512_xor_si512(a0[i], _mm512_gf2p8affine_epi64_epi8::<0>(c0, m));
                a1[i] = _mm512_xor_si512(a1[i], _mm512_gf2p8affine_epi64_epi8::<0>(c1, m));
            }
        }
        for i in 0..8 {
            _mm512_storeu_si512(acc[i].as_mut_ptr().cast(), a0[i]);
            _mm512_storeu_si512(acc[i][64..].as_mut_ptr().cast(), a1[i]);
        }
    }
}

/// `idx[4 j + e] = 16 e + j`: dword `j` gets byte `j` of the four elements.
const BYTES_TO_DWORDS: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        idx[p] = (16 * (p % 4) + p / 4) as u8;
        p += 1;
    }
    idx
};

/// The inverse of [`BYTES_TO_DWORDS`]: `idx[16 e + j] = 4 j + e`.
const DWORDS_TO_BYTES: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        idx[p] = (4 * (p % 16) + p / 16) as u8;
        p += 1;
    }
    idx
};

/// Two-source dword permutations that swap bit `b` of the register index
/// with bit `b` of the dword index: indices for the lower and the upper
/// register of a pair.
const fn dword_butterfly(b: usize) -> ([u32; 16], [u32; 16]) {
    let mut lo = [0u32; 16];
    let mut hi = [0u32; 16];
    let mut p = 0;
    while p < 16 {
        if p & b == 0 {
            lo[p] = p as u32;
            hi[p] = (p ^ b) as u32;
        } else {
            lo[p] = (16 + (p ^ b)) as u32;
            hi[p] = (16 + p) as u32;
        }
        p += 1;
    }
    (lo, hi)
}
const DWORD_BUTTERFLIES: [([u32; 16], [u32; 16]); 4] = [
    dword_butterfly(1),
    dword_butterfly(2),
    dword_butterfly(4),
    dword_butterfly(8),
];

/// Transposes the 16x16 matrix of dwords held in sixteen registers.
#[inline(always)]
fn transpose_dwords(x: &mut [__m512i; 16]) {
    // SAFETY: only reached from functions with avx512f enabled; the index
    // arrays are 64 readable bytes.
    unsafe {
        for (s, (lo, hi)) in DWORD_BUTTERFLIES.iter().enumerate() {
            let b = 1usize << s;
            let lo = _mm512_loadu_si512(lo.as_ptr().cast());
            let hi = _mm512_loadu_si512(hi.as_ptr().cast());
            for k in 0..16 {
                if k & b == 0 {
                    let (u, v) = (x[k], x[k | b]);
                    x[k] = _mm512_permutex2var_epi32(u, lo, v);
                    x[k | b] = _mm512_permutex2var_epi32(u, hi, v);
                }
            }
        }
    }
}

/// [`super::apply_maps_sum`] on the leading multiple of 64 elements; returns
/// how many elements it did.
pub(super) fn apply_maps_sum(
    _token: Gfni,
    maps: &[&SliceMap],
    inputs: &[&[u128]],
    out: &mut [u128],
) -> usize {
    let blocks = out.len() / 64;
    for (b, o) in out.chunks_exact_mut(64).enumerate() {
        let o: &mut [u128; 64] = o.try_into().expect("64 elements");
        // SAFETY: the token proves the features; every input has `out.len()`
        // elements (checked by the caller).
        unsafe { apply64(maps, inputs, 64 * b, o) };
    }
    64 * blocks
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn apply64(maps: &[&SliceMap], inputs: &[&[u128]], start: usize, out: &mut [u128; 64]) {
    // SAFETY: all loads and stores are of in-bounds 64-byte pieces of
    // `inputs[k][start..start + 64]` and `out`.
    unsafe {
        let to_dwords = load_bytes(&BYTES_TO_DWORDS);
        // y[o] byte m: byte o of the sum for element m.
        let mut y = [_mm512_setzero_si512(); 16];
        for (map, input) in maps.iter().zip(inputs) {
            let input = &input[start..start + 64];
            // x[j] byte m: byte j of element m.
            let mut x: [__m512i; 16] = core::array::from_fn(|k| {
                let v = _mm512_loadu_si512(input[4 * k..].as_ptr().cast());
                _mm512_permutexvar_epi8(to_dwords, v)
            });
            transpose_dwords(&mut x);
            for (o, yo) in y.iter_mut().enumerate() {
                let row = &map.mats[o];
                let mut acc = *yo;
                for (j, xj) in x.iter().enumerate() {
                    let m = _mm512_set1_epi64(row[j] as i64);
                    acc = _mm512_xor_si512(acc, _mm512_gf2p8affine_epi64_epi8::<0>(*xj, m));
                }
                *yo = acc;
            }
        }
        transpose_dwords(&mut y);
        let to_bytes = load_bytes(&DWORDS_TO_BYTES);
        for (k, v) in y.iter().enumerate() {
            let p = out[4 * k..].as_mut_ptr().cast();
            let prev = _mm512_loadu_si512(p);
            _mm512_storeu_si512(p, _mm512_xor_si512(prev, _mm512_permutexvar_epi8(to_bytes, *v)));
        }
    }
}
