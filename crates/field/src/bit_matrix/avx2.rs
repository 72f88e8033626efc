//! AVX2 kernels of [`super`] by split-nibble `vpshufb` tables, for CPUs
//! without GFNI, and the in-lane 16x16 byte transpose they share with other
//! kernels.
//!
//! [`apply_maps_sum`](super::apply_maps_sum), 32 elements at a time: the elements are transposed to
//! 16 byte planes (plane `j` holds byte `j` of every element), each plane
//! split into its two nibble planes, and a map's output byte `o` is the XOR
//! over the 32 nibble planes `p` of `vpshufb(T[p][o], plane p)` with
//! `T[p][o][n]` byte `o` of the image of `n` placed at nibble `p`
//! ([`super::SliceMap`] keeps these tables). The 16 output planes are
//! transposed back.
//!
//! [`add_bit_sums`](super::add_bit_sums), eight elements at a time: the tables come from the
//! data and the indices from the weights. Byte `i` of the XOR of the
//! elements picked by the nibbles of `n` is a 16-entry table in `n`, one per
//! byte `i` and half of the group; an index byte holds bit `v` of the
//! group's eight weights ([`super::BitSumWeights`]'s columns), so one
//! `vpshufb` per half gives byte `i` of `R[v] = sum_x bit v of w[x] * f[x]`
//! for 16 `v` at once. `R` is the bit transpose of the answer, taken per
//! call by `vpmovmskb`.

use core::arch::x86_64::*;

use super::{Avx2, BitSumWeights, SliceMap};

/// The in-lane transpose of 16 rows of 16 bytes: calls `column(c, v)` for
/// `c` in `0..16`, where byte `r` of lane `l` of `v` is byte `c` of lane `l`
/// of `rows[r]`. Four rounds of `vpunpck*`, 64 instructions; the columns go
/// to `column` as the last round makes them, so they need not wait in
/// registers.
///
/// # Safety
/// Only for callers that enable AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub unsafe fn transpose_lanes(rows: [__m256i; 16], mut column: impl FnMut(usize, __m256i)) {
    macro_rules! round {
        ($lo:ident, $hi:ident, $x:expr, [$(($a:literal, $b:literal)),*]) => {
            [$($lo($x[$a], $x[$b]), $hi($x[$a], $x[$b])),*]
        };
    }
    let (lo8, hi8) = (
        |a, b| _mm256_unpacklo_epi8(a, b),
        |a, b| _mm256_unpackhi_epi8(a, b),
    );
    let (lo16, hi16) = (
        |a, b| _mm256_unpacklo_epi16(a, b),
        |a, b| _mm256_unpackhi_epi16(a, b),
    );
    let (lo32, hi32) = (
        |a, b| _mm256_unpacklo_epi32(a, b),
        |a, b| _mm256_unpackhi_epi32(a, b),
    );
    // 16-bit units of rows (2k, 2k+1): entry 2 k + h holds columns 8 h + u.
    let l1 = round!(
        lo8,
        hi8,
        rows,
        [
            (0, 1),
            (2, 3),
            (4, 5),
            (6, 7),
            (8, 9),
            (10, 11),
            (12, 13),
            (14, 15)
        ]
    );
    // 32-bit units of rows 4k..4k+4: entry 4 k + 2 h + g, columns 8 h + 4 g + u.
    let l2 = round!(
        lo16,
        hi16,
        l1,
        [
            (0, 2),
            (1, 3),
            (4, 6),
            (5, 7),
            (8, 10),
            (9, 11),
            (12, 14),
            (13, 15)
        ]
    );
    // 64-bit units of rows 8k..8k+8: entry 8 k + 2 i + f, columns 4 i + 2 f + u.
    let l3 = round!(
        lo32,
        hi32,
        l2,
        [
            (0, 4),
            (1, 5),
            (2, 6),
            (3, 7),
            (8, 12),
            (9, 13),
            (10, 14),
            (11, 15)
        ]
    );
    // All 16 rows: column 2 i + e.
    for i in 0..8 {
        column(2 * i, _mm256_unpacklo_epi64(l3[i], l3[8 + i]));
        column(2 * i + 1, _mm256_unpackhi_epi64(l3[i], l3[8 + i]));
    }
}

/// [`super::apply_maps_sum`] on the leading multiple of 32 elements;
/// returns how many elements it handled.
pub(super) fn apply_maps_sum(_: Avx2, maps: &[&SliceMap], inputs: &[&[u128]], out: &mut [u128]) -> usize {
    // SAFETY: the token proves AVX2 is present.
    in_groups_of_32(out, |start, group| unsafe { apply32(maps, inputs, start, group) })
}

/// Calls `apply(start, group)` for each whole group of 32 elements of `out`
/// (`start` its first index); returns how many elements that covered.
pub(super) fn in_groups_of_32(out: &mut [u128], mut apply: impl FnMut(usize, &mut [u128; 32])) -> usize {
    let whole = out.len() / 32 * 32;
    for (g, group) in out[..whole].chunks_exact_mut(32).enumerate() {
        apply(32 * g, group.try_into().expect("32 elements"));
    }
    whole
}

#[target_feature(enable = "avx2")]
fn apply32(maps: &[&SliceMap], inputs: &[&[u128]], start: usize, out: &mut [u128; 32]) {
    let low = _mm256_set1_epi8(0x0f);
    // planes[o] lane l byte q: byte o of the sum for element 16 l + q.
    let mut planes = [_mm256_setzero_si256(); 16];
    for (map, input) in maps.iter().zip(inputs) {
        // SAFETY: the loads read 16-byte rows of `map.nibbles`; avx2 is
        // enabled on this function.
        unsafe {
            let mut idx = [_mm256_setzero_si256(); 32];
            transpose_lanes(element_rows(input, start), |j, b| {
                idx[2 * j] = _mm256_and_si256(b, low);
                idx[2 * j + 1] = _mm256_and_si256(_mm256_srli_epi16::<4>(b), low);
            });
            // Eight output bytes at a time keep their sums in registers.
            for h in 0..2 {
                let mut acc: [__m256i; 8] = core::array::from_fn(|i| planes[8 * h + i]);
                for (tables, &x) in map.nibbles.iter().zip(&idx) {
                    for (a, t) in acc.iter_mut().zip(&tables[8 * h..8 * h + 8]) {
                        let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
                        *a = _mm256_xor_si256(*a, _mm256_shuffle_epi8(t, x));
                    }
                }
                planes[8 * h..8 * h + 8].copy_from_slice(&acc);
            }
        }
    }
    // SAFETY: avx2 is enabled on this function.
    unsafe { add_planes(planes, out) };
}

/// Elements `start .. start + 32` of `input` as 16 rows for
/// [`transpose_lanes`]: row `r` holds element `start + r`, then element
/// `start + 16 + r`, so that column `j` is byte plane `j`.
#[inline(always)]
pub(super) fn element_rows(input: &[u128], start: usize) -> [__m256i; 16] {
    let input: &[u128; 32] = input[start..start + 32].try_into().expect("32 elements");
    // SAFETY: the loads read elements of `input`; only reached from
    // functions with avx2 enabled.
    unsafe {
        let mut rows = [_mm256_setzero_si256(); 16];
        for (r, row) in rows.iter_mut().enumerate() {
            *row = _mm256_loadu2_m128i(input[16 + r..].as_ptr().cast(), input[r..].as_ptr().cast());
        }
        rows
    }
}

/// `out[16 l + q] += ` the element whose bytes `o` are byte `q` of lane `l`
/// of `planes[o]`.
///
/// # Safety
/// Only for callers that enable AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn add_planes(planes: [__m256i; 16], out: &mut [u128; 32]) {
    // SAFETY: the caller enables AVX2; each load and store is of element
    // `e < 32` of `out`.
    unsafe {
        transpose_lanes(planes, |q, c| {
            for (e, lane) in [
                (q, _mm256_castsi256_si128(c)),
                (16 + q, _mm256_extracti128_si256::<1>(c)),
            ] {
                let o = out[e..].as_mut_ptr().cast();
                _mm_storeu_si128(o, _mm_xor_si128(_mm_loadu_si128(o), lane));
            }
        });
    }
}

/// Reverses the bytes of each qword (as a `vpshufb` index in both lanes).
pub(super) const REVERSE_QWORD_BYTES: [u8; 32] = {
    let mut idx = [0u8; 32];
    let mut p = 0;
    while p < 32 {
        idx[p] = ((p % 16) ^ 7) as u8;
        p += 1;
    }
    idx
};

/// Groups of eight elements whose tables are made per pass over the
/// accumulators (16 KB of tables).
const SUB_GROUPS: usize = 32;

/// The 16 tables of one group of eight elements: lane 0 of `t[i]` byte `n`
/// is byte `i` of the XOR of the elements `m < 4` with bit `m` of `n` set,
/// lane 1 the same for elements `4 + m`.
type GroupTables = [__m256i; 16];

/// [`super::add_bit_sums`] on the leading multiple of eight elements;
/// returns how many elements it did.
pub(super) fn add_bit_sums(
    _: Avx2,
    f: &[u128],
    weights: &[&BitSumWeights],
    out: &mut [[u128; 128]],
) -> usize {
    // SAFETY: the token proves AVX2 is present.
    unsafe { bit_sums(f, weights, out) }
}

#[target_feature(enable = "avx2")]
fn bit_sums(f: &[u128], weights: &[&BitSumWeights], out: &mut [[u128; 128]]) -> usize {
    let groups = f.len() / 8;
    for w in weights {
        assert!(w.cols.len() >= groups, "weights prepared for the fast kernels");
    }
    let mut tables = [[_mm256_setzero_si256(); 16]; SUB_GROUPS];
    // acc[k][i][b] lane l byte p: byte i of the sum for index byte 16 b + p
    // of the columns, from half l of each group.
    let mut acc = vec![[[_mm256_setzero_si256(); 8]; 16]; weights.len()];
    for (s, fs) in f[..8 * groups].chunks(8 * SUB_GROUPS).enumerate() {
        let n = fs.len() / 8;
        for (group, t) in fs.chunks_exact(8).zip(tables.iter_mut()) {
            *t = group_tables(group);
        }
        for (w, a) in weights.iter().zip(acc.iter_mut()) {
            let wc = &w.cols[s * SUB_GROUPS..s * SUB_GROUPS + n];
            for sixteenth in 0..8 {
                for half in 0..2 {
                    accumulate(&tables[..n], wc, sixteenth, half, a);
                }
            }
        }
    }
    for (a, o) in acc.iter().zip(out.iter_mut()) {
        add_transposed(a, o);
    }
    8 * groups
}

/// [`GroupTables`] of the eight elements of `group`.
#[target_feature(enable = "avx2")]
fn group_tables(group: &[u128]) -> GroupTables {
    // SAFETY: the loads read elements of `group` (eight of them).
    unsafe {
        // rows[n]: the XOR of the elements picked by n, both halves.
        let mut rows = [_mm256_setzero_si256(); 16];
        for m in 0..4 {
            let e = _mm256_loadu2_m128i(group[4 + m..].as_ptr().cast(), group[m..].as_ptr().cast());
            for n in 1 << m..2 << m {
                rows[n] = _mm256_xor_si256(rows[n - (1 << m)], e);
            }
        }
        let mut t = [_mm256_setzero_si256(); 16];
        transpose_lanes(rows, |i, v| t[i] = v);
        t
    }
}

/// `acc[8 half + i][sixteenth] ^= ` the table lookups of [`add_bit_sums`]
/// for bytes `16 sixteenth .. + 16` of every group's weight columns.
#[target_feature(enable = "avx2")]
fn accumulate(
    tables: &[GroupTables],
    wcols: &[[u64; 16]],
    sixteenth: usize,
    half: usize,
    acc: &mut [[__m256i; 8]; 16],
) {
    let low = _mm256_set1_epi8(0x0f);
    // Lane 0 indexes by the low nibbles (elements 0..4), lane 1 by the high.
    let shift = _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4);
    let mut a = [_mm256_setzero_si256(); 8];
    for (ai, row) in a.iter_mut().zip(&acc[8 * half..]) {
        *ai = row[sixteenth];
    }
    for (t, w) in tables.iter().zip(wcols) {
        // SAFETY: qwords 2 sixteenth and 2 sixteenth + 1 of `w` are 16
        // readable bytes.
        let x = unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(w[2 * sixteenth..].as_ptr().cast())) };
        let idx = _mm256_and_si256(_mm256_srlv_epi32(x, shift), low);
        for (ai, &ti) in a.iter_mut().zip(&t[8 * half..8 * half + 8]) {
            *ai = _mm256_xor_si256(*ai, _mm256_shuffle_epi8(ti, idx));
        }
    }
    for (ai, row) in a.iter().zip(&mut acc[8 * half..]) {
        row[sixteenth] = *ai;
    }
}

/// `out[u] += ` bit `u` of every `R[v]` at bit `v`, from [`add_bit_sums`]'s
/// accumulators.
#[target_feature(enable = "avx2")]
fn add_transposed(acc: &[[__m256i; 8]; 16], out: &mut [u128; 128]) {
    // SAFETY: the load reads 32 bytes of a constant.
    let reverse = unsafe { _mm256_loadu_si256(REVERSE_QWORD_BYTES.as_ptr().cast()) };
    for (i, row) in acc.iter().enumerate() {
        // q[c] byte p: byte i of R[32 c + p]. The halves' lanes add up, and
        // index byte 8 a + r of the columns is v = 8 a + 7 - r: reversing
        // each qword's bytes puts v in order.
        let mut q = [_mm256_setzero_si256(); 4];
        for (qc, pair) in q.iter_mut().zip(row.chunks_exact(2)) {
            let sum = _mm256_xor_si256(
                _mm256_permute2x128_si256::<0x20>(pair[0], pair[1]),
                _mm256_permute2x128_si256::<0x31>(pair[0], pair[1]),
            );
            *qc = _mm256_shuffle_epi8(sum, reverse);
        }
        // Bit t of every byte, moved to the top by the shift, gathered by
        // vpmovmskb: bit v of out[8 i + t].
        for t in 0..8 {
            let mut bits = 0u128;
            for (c, &qc) in q.iter().enumerate() {
                let top = _mm256_sll_epi16(qc, _mm_cvtsi32_si128(7 - t as i32));
                bits |= u128::from(_mm256_movemask_epi8(top) as u32) << (32 * c);
            }
            out[8 * i + t] ^= bits;
        }
    }
}
