//! AVX-512 multi-buffer SHA-256: sixteen leaves at once, leaf `i` in 32-bit
//! lane `i` of every `zmm` register.
//!
//! Leaf hashing is `SHA-256(0x00 || data)`. All sixteen leaves of a group have
//! the same length, so they have the same number of blocks and the same
//! padding layout. Block `b` of a leaf covers bytes `64b .. 64b + 64` of
//! `0x00 || data || padding`, i.e. `data[64b - 1 .. 64b + 63]`: a block that
//! lies wholly inside the data is one unaligned 64-byte load per leaf (the
//! one-byte shift of the prefix is just the start address). The first block
//! (which holds the prefix byte) and the last one or two (past the end of
//! the data) use a masked load of the data bytes they hold, and the padding
//! (the same for all sixteen) is or-ed in after the transpose. The rows
//! are then byte-swapped to big-endian words and transposed, so register `j`
//! holds message word `j` of all sixteen leaves, and the 64 rounds run on
//! whole registers: `vprord` for the rotations, `vpternlogd` for Ch, Maj and
//! the three-way xors, `vpaddd` for the sums. Fewer than sixteen leaves left
//! over go through the portable path.
//!
//! Needs AVX-512F (rotates, ternary logic, 512-bit adds and shuffles) and
//! AVX-512BW (`vpshufb` on 512 bits for the byte swap, byte-masked loads).

use core::arch::x86_64::*;

use super::{portable, K};
use crate::merkle::SHA256_IV;
use crate::Digest;

/// True when this CPU can run the kernel: the AVX-512 tier includes
/// AVX-512F and AVX-512BW.
pub fn available() -> bool {
    starling_field::cpu::Tier::Avx512.runs_here()
}

/// Same contract as [`portable::hash_leaves_chunked`]; panics when the CPU
/// lacks AVX-512F or AVX-512BW.
pub fn hash_leaves_chunked(data: &[u8], leaf_len: usize, out: &mut [Digest]) {
    assert!(
        available(),
        "the AVX-512 leaf hasher needs AVX-512F and AVX-512BW"
    );
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(leaf_len),
        "data must hold exactly one leaf per output digest"
    );
    // SAFETY: the only requirement of `chunked` is that the CPU has the
    // features it is compiled for (AVX-512F and AVX-512BW), checked just above.
    unsafe { chunked(data, leaf_len, out) }
}

/// `out[i] = merkle::hash_node(left, right)` for the 64-byte pairs
/// `children[64 i..64 i + 64] = left || right`: the inner-node message
/// `0x01 || left || right` is a 64-byte leaf with prefix byte 1. Panics when
/// the CPU lacks AVX-512F or AVX-512BW.
pub fn hash_nodes(children: &[u8], out: &mut [Digest]) {
    assert!(available(), "the AVX-512 hasher needs AVX-512F and AVX-512BW");
    assert_eq!(
        Some(children.len()),
        out.len().checked_mul(64),
        "children must hold exactly two digests per output"
    );
    // SAFETY: the features were checked just above.
    unsafe { chunked_with_prefix(children, 64, 1, out) }
}

#[target_feature(enable = "avx512f,avx512bw")]
fn chunked(data: &[u8], leaf_len: usize, out: &mut [Digest]) {
    chunked_with_prefix(data, leaf_len, 0, out)
}

/// `SHA-256(prefix || chunk)` of every `leaf_len`-byte chunk, sixteen at a time.
#[target_feature(enable = "avx512f,avx512bw")]
fn chunked_with_prefix(data: &[u8], leaf_len: usize, prefix: u8, out: &mut [Digest]) {
    let full = out.len() / 16 * 16;
    let (groups, rest) = out.split_at_mut(full);
    for (g, o) in groups.chunks_exact_mut(16).enumerate() {
        let base = g * 16 * leaf_len;
        let mut lanes: [&[u8]; 16] = [&[]; 16];
        for (i, lane) in lanes.iter_mut().enumerate() {
            *lane = &data[base + i * leaf_len..base + (i + 1) * leaf_len];
        }
        hash16(&lanes, 16 * leaf_len, prefix, o);
    }
    let tail = &data[full * leaf_len..];
    if prefix == 0 {
        portable::hash_leaves_chunked(tail, leaf_len, rest);
    } else {
        debug_assert!(prefix == 1 && leaf_len == 64);
        portable::hash_nodes(tail, rest);
    }
}

/// How many blocks ahead each lane's data is prefetched.
const PREFETCH_BLOCKS: usize = 3;

/// Hashes sixteen leaves of equal length, each after the byte `prefix`
/// (0 for leaves, 1 for inner nodes), into `out[0..16]`. `group_stride`
/// is where the next group's leaves probably are (`lanes[i]` plus that many
/// bytes), only used for prefetch hints.
#[target_feature(enable = "avx512f,avx512bw")]
fn hash16(lanes: &[&[u8]; 16], group_stride: usize, prefix: u8, out: &mut [Digest]) {
    let len = lanes[0].len();
    debug_assert!(lanes.iter().all(|l| l.len() == len));
    // The padded message is `prefix || data || 0x80 || zeros || bit length`.
    let msg_len = len + 1;
    let nblocks = (msg_len + 8) / 64 + 1;
    let bit_len = msg_len as u64 * 8;
    let mut state = start_state();
    let mut rows = [_mm512_setzero_si512(); 16];
    for b in 0..nblocks {
        // Block `b` holds message bytes `64b..64b + 64`, i.e. data bytes
        // `64b - 1..64b + 63`: those inside `0..len` are loaded, the prefix
        // byte and everything past the data are zero, and the padding is
        // added after the transpose.
        let start = 64 * b;
        // A whole compression per block is longer than the out-of-order
        // window, so the next loads would not be issued early on their own:
        // hint the lines a few blocks ahead (in this group or the next).
        let ahead = b + PREFETCH_BLOCKS;
        let offset = (ahead / nblocks) * group_stride + 64 * (ahead % nblocks);
        for lane in lanes {
            let p = lane.as_ptr().wrapping_add(offset);
            // A prefetch is only a hint: it never faults, so any address is
            // allowed (the intrinsic is safe).
            _mm_prefetch::<_MM_HINT_T0>(p.cast());
        }
        let lo = start.max(1);
        let hi = (start + 64).min(msg_len);
        if b >= 1 && start + 64 <= msg_len {
            for (row, lane) in rows.iter_mut().zip(lanes) {
                let src: &[u8] = &lane[start - 1..start + 63];
                // SAFETY: `src` is a 64-byte slice (the range above is
                // bounds-checked), so the unaligned 64-byte load reads only
                // initialised bytes it borrows.
                *row = unsafe { _mm512_loadu_si512(src.as_ptr().cast()) };
            }
        } else if lo < hi {
            // Bytes `lo - start..hi - start` of the block are data bytes
            // `lo - 1..hi - 1`; the mask enables exactly those.
            let mask: u64 = (u64::MAX >> (64 - (hi - lo))) << (lo - start);
            for (row, lane) in rows.iter_mut().zip(lanes) {
                let src: &[u8] = &lane[lo - 1..hi - 1];
                // Byte 0 of the block, possibly before `src` (one byte before
                // the leaf for block 0); only an address, never dereferenced
                // outside `src`.
                let base = src.as_ptr().wrapping_sub(lo - start);
                // SAFETY: the mask enables exactly the bytes
                // `base + (lo - start)..base + (hi - start)`, which are
                // `src`. A masked AVX-512 load does not access the disabled
                // bytes at all (no read, no fault), so nothing outside `src`
                // is touched.
                *row = unsafe { _mm512_maskz_loadu_epi8(mask, base.cast()) };
            }
        } else {
            rows = [_mm512_setzero_si512(); 16];
        }
        let mut w = transpose_be(&rows);
        if b == 0 && prefix != 0 {
            // Message byte 0 is the most significant byte of word 0.
            w[0] = _mm512_or_si512(w[0], _mm512_set1_epi32(((prefix as u32) << 24) as i32));
        }
        if (start..start + 64).contains(&msg_len) {
            let at = msg_len - start;
            let bit = _mm512_set1_epi32((0x80u32 << (24 - 8 * (at % 4))) as i32);
            w[at / 4] = _mm512_or_si512(w[at / 4], bit);
        }
        if b + 1 == nblocks {
            w[14] = _mm512_set1_epi32((bit_len >> 32) as u32 as i32);
            w[15] = _mm512_set1_epi32(bit_len as u32 as i32);
        }
        compress(&mut state, &mut w);
    }
    store_digests(&state, out);
}

/// The sixteen lanes' states, as digests, into `out[0..16]`.
#[target_feature(enable = "avx512f")]
fn store_digests(state: &[__m512i; 8], out: &mut [Digest]) {
    let mut words = [[0u32; 16]; 8];
    for (wd, s) in words.iter_mut().zip(state) {
        // SAFETY: `wd` is a 64-byte array of `u32`, so the unaligned 64-byte
        // store writes only memory it borrows mutably.
        unsafe { _mm512_storeu_si512(wd.as_mut_ptr().cast(), *s) };
    }
    for (i, o) in out[..16].iter_mut().enumerate() {
        for (j, chunk) in o.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&words[j][i].to_be_bytes());
        }
    }
}

/// SHA-256's initial state in every lane.
#[target_feature(enable = "avx512f")]
fn start_state() -> [__m512i; 8] {
    SHA256_IV.map(|iv| _mm512_set1_epi32(iv as i32))
}

/// Same contract as [`portable::compress_blocks`]; panics when the CPU
/// lacks AVX-512F or AVX-512BW.
pub fn compress_blocks(blocks: &[[u8; 64]], out: &mut [Digest]) {
    assert!(available(), "the AVX-512 hasher needs AVX-512F and AVX-512BW");
    assert_eq!(blocks.len(), out.len(), "one output digest per block");
    // SAFETY: the features `compress_blocks16` is compiled for were checked
    // just above.
    unsafe { compress_blocks16(blocks, out) }
}

/// [`compress_blocks`], sixteen blocks per pass.
#[target_feature(enable = "avx512f,avx512bw")]
fn compress_blocks16(blocks: &[[u8; 64]], out: &mut [Digest]) {
    let full = out.len() / 16 * 16;
    for (group, o) in blocks[..full]
        .chunks_exact(16)
        .zip(out[..full].chunks_exact_mut(16))
    {
        // SAFETY: each block is 64 readable bytes; the load has no alignment
        // requirement.
        let rows: [__m512i; 16] =
            core::array::from_fn(|i| unsafe { _mm512_loadu_si512(group[i].as_ptr().cast()) });
        let mut w = transpose_be(&rows);
        let mut state = start_state();
        compress(&mut state, &mut w);
        store_digests(&state, o);
    }
    portable::compress_blocks(&blocks[full..], &mut out[full..]);
}

/// Reads each row as sixteen big-endian words and transposes: word `j` of row
/// `i` lands in lane `i` of output `j`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn transpose_be(rows: &[__m512i; 16]) -> [__m512i; 16] {
    // Reverses the bytes of every 32-bit word.
    let bswap = _mm512_set4_epi32(0x0c0d_0e0f, 0x0809_0a0b, 0x0405_0607, 0x0001_0203);
    let mut r = [_mm512_setzero_si512(); 16];
    for (d, s) in r.iter_mut().zip(rows) {
        *d = _mm512_shuffle_epi8(*s, bswap);
    }
    // Within each 128-bit lane: interleave words of row pairs...
    let mut t = [_mm512_setzero_si512(); 16];
    for p in 0..8 {
        t[2 * p] = _mm512_unpacklo_epi32(r[2 * p], r[2 * p + 1]);
        t[2 * p + 1] = _mm512_unpackhi_epi32(r[2 * p], r[2 * p + 1]);
    }
    // ...then pairs of words of row quadruples: `u[4g + m]` holds, in 128-bit
    // lane `k`, word `4k + m` of rows `4g..4g + 4`.
    let mut u = [_mm512_setzero_si512(); 16];
    for g in 0..4 {
        let (a0, a1, b0, b1) = (t[4 * g], t[4 * g + 1], t[4 * g + 2], t[4 * g + 3]);
        u[4 * g] = _mm512_unpacklo_epi64(a0, b0);
        u[4 * g + 1] = _mm512_unpackhi_epi64(a0, b0);
        u[4 * g + 2] = _mm512_unpacklo_epi64(a1, b1);
        u[4 * g + 3] = _mm512_unpackhi_epi64(a1, b1);
    }
    // Finally a 4x4 transpose of 128-bit lanes across the quadruples.
    let mut out = [_mm512_setzero_si512(); 16];
    for m in 0..4 {
        let (u0, u1, u2, u3) = (u[m], u[4 + m], u[8 + m], u[12 + m]);
        let v0 = _mm512_shuffle_i32x4::<0x44>(u0, u1);
        let v1 = _mm512_shuffle_i32x4::<0xee>(u0, u1);
        let v2 = _mm512_shuffle_i32x4::<0x44>(u2, u3);
        let v3 = _mm512_shuffle_i32x4::<0xee>(u2, u3);
        out[m] = _mm512_shuffle_i32x4::<0x88>(v0, v2);
        out[4 + m] = _mm512_shuffle_i32x4::<0xdd>(v0, v2);
        out[8 + m] = _mm512_shuffle_i32x4::<0x88>(v1, v3);
        out[12 + m] = _mm512_shuffle_i32x4::<0xdd>(v1, v3);
    }
    out
}

/// `x ^ y ^ z`.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0x96>(x, y, z)
}

/// Σ0.
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma0(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi32::<2>(x),
        _mm512_ror_epi32::<13>(x),
        _mm512_ror_epi32::<22>(x),
    )
}

/// Σ1.
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma1(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi32::<6>(x),
        _mm512_ror_epi32::<11>(x),
        _mm512_ror_epi32::<25>(x),
    )
}

/// σ0.
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma0(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi32::<7>(x),
        _mm512_ror_epi32::<18>(x),
        _mm512_srli_epi32::<3>(x),
    )
}

/// σ1.
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma1(x: __m512i) -> __m512i {
    xor3(
        _mm512_ror_epi32::<17>(x),
        _mm512_ror_epi32::<19>(x),
        _mm512_srli_epi32::<10>(x),
    )
}

/// One compression of sixteen blocks; `w` holds the message words (lane `i`
/// is block `i`) and is used as the schedule's ring buffer.
#[target_feature(enable = "avx512f")]
#[inline]
fn compress(state: &mut [__m512i; 8], w: &mut [__m512i; 16]) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    // One round on the named registers: only `d` and `h` change, and the
    // caller rotates the names instead of moving values.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $kw:expr) => {{
            // Ch(e, f, g) = e ? f : g; Maj(a, b, c) = majority.
            let ch = _mm512_ternarylogic_epi32::<0xca>($e, $f, $g);
            let maj = _mm512_ternarylogic_epi32::<0xe8>($a, $b, $c);
            let t1 = _mm512_add_epi32(_mm512_add_epi32($h, $kw), _mm512_add_epi32(big_sigma1($e), ch));
            let t2 = _mm512_add_epi32(big_sigma0($a), maj);
            $d = _mm512_add_epi32($d, t1);
            $h = _mm512_add_epi32(t1, t2);
        }};
    }
    // Sixteen rounds with the constants `$k` (one row of `K`); with
    // `$sched`, each round's message word is replaced, once used, by the
    // word sixteen rounds later: W[t+16] = σ1(W[t+14]) + W[t+9] + σ0(W[t+1]) + W[t].
    macro_rules! sixteen {
        ($k:expr, $sched:expr) => {{
            let k: &[u32; 16] = $k;
            macro_rules! step {
                ($j:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {{
                    let kw = _mm512_add_epi32(w[$j], _mm512_set1_epi32(k[$j] as i32));
                    round!($a, $b, $c, $d, $e, $f, $g, $h, kw);
                    if $sched {
                        w[$j] = _mm512_add_epi32(
                            _mm512_add_epi32(w[$j], small_sigma0(w[($j + 1) & 15])),
                            _mm512_add_epi32(w[($j + 9) & 15], small_sigma1(w[($j + 14) & 15])),
                        );
                    }
                }};
            }
            step!(0, a, b, c, d, e, f, g, h);
            step!(1, h, a, b, c, d, e, f, g);
            step!(2, g, h, a, b, c, d, e, f);
            step!(3, f, g, h, a, b, c, d, e);
            step!(4, e, f, g, h, a, b, c, d);
            step!(5, d, e, f, g, h, a, b, c);
            step!(6, c, d, e, f, g, h, a, b);
            step!(7, b, c, d, e, f, g, h, a);
            step!(8, a, b, c, d, e, f, g, h);
            step!(9, h, a, b, c, d, e, f, g);
            step!(10, g, h, a, b, c, d, e, f);
            step!(11, f, g, h, a, b, c, d, e);
            step!(12, e, f, g, h, a, b, c, d);
            step!(13, d, e, f, g, h, a, b, c);
            step!(14, c, d, e, f, g, h, a, b);
            step!(15, b, c, d, e, f, g, h, a);
        }};
    }

    for k in &K[..3] {
        sixteen!(k, true);
    }
    sixteen!(&K[3], false);

    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = _mm512_add_epi32(*s, v);
    }
}
