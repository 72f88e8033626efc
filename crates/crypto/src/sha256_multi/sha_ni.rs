//! SHA-NI, two leaves at a time: the x86 SHA extensions (`sha256rnds2`,
//! `sha256msg1`, `sha256msg2`) on two independent messages in lockstep.
//!
//! One message's rounds form a chain (each `sha256rnds2` waits for the one
//! before), so a single stream leaves the SHA unit idle most cycles; a second
//! message's rounds fill them. The state is kept in the instructions' layout
//! (`ABEF` and `CDGH` words in two registers). Blocks are assembled in a
//! 64-byte buffer per lane by [`fill_block`]: block `b` of `prefix || data ||
//! padding`, the same bytes for every backend. An odd leaf left over goes
//! through the portable path.

use core::arch::x86_64::*;

use super::{portable, K};
use crate::merkle::SHA256_IV;
use crate::Digest;

/// True when this CPU has the SHA extensions (and SSE4.1, for the blends).
pub fn available() -> bool {
    starling_field::cpu::has_sha_extensions()
}

/// Same contract as [`portable::hash_leaves_chunked`]; panics when the CPU
/// lacks the SHA extensions.
pub fn hash_leaves_chunked(data: &[u8], leaf_len: usize, out: &mut [Digest]) {
    assert!(available(), "the SHA-NI leaf hasher needs the SHA extensions");
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(leaf_len),
        "data must hold exactly one leaf per output digest"
    );
    // SAFETY: the features `chunked_with_prefix` is compiled for were
    // checked just above.
    unsafe { chunked_with_prefix(data, leaf_len, 0, out) }
}

/// Same contract as [`portable::hash_nodes`] (the inner-node message
/// `0x01 || left || right` is a 64-byte leaf with prefix byte 1); panics
/// when the CPU lacks the SHA extensions.
pub fn hash_nodes(children: &[u8], out: &mut [Digest]) {
    assert!(available(), "the SHA-NI hasher needs the SHA extensions");
    assert_eq!(
        Some(children.len()),
        out.len().checked_mul(64),
        "children must hold exactly two digests per output"
    );
    // SAFETY: as in `hash_leaves_chunked`.
    unsafe { chunked_with_prefix(children, 64, 1, out) }
}

/// Same contract as [`portable::compress_blocks`]; panics when the CPU
/// lacks the SHA extensions.
pub fn compress_blocks(blocks: &[[u8; 64]], out: &mut [Digest]) {
    assert!(available(), "the SHA-NI hasher needs the SHA extensions");
    assert_eq!(blocks.len(), out.len(), "one output digest per block");
    // SAFETY: the features `compress_pairs` is compiled for were checked
    // just above.
    unsafe { compress_pairs(blocks, out) }
}

/// [`compress_blocks`], two blocks in lockstep.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_pairs(blocks: &[[u8; 64]], out: &mut [Digest]) {
    let paired = out.len() / 2 * 2;
    for (b, o) in blocks[..paired]
        .chunks_exact(2)
        .zip(out[..paired].chunks_exact_mut(2))
    {
        let mut state = [start_state(), start_state()];
        compress2(&mut state, [&b[0], &b[1]]);
        o[0] = finish(state[0]);
        o[1] = finish(state[1]);
    }
    portable::compress_blocks(&blocks[paired..], &mut out[paired..]);
}

/// Blocks of `prefix || data || padding`.
fn block_count(len: usize) -> usize {
    // The prefix byte, the data, 0x80 and the 8-byte length.
    (1 + len + 1 + 8).div_ceil(64)
}

/// Block `b` of `prefix || data || 0x80 || zeros || bit length` into `out`.
fn fill_block(prefix: u8, data: &[u8], b: usize, out: &mut [u8; 64]) {
    out.fill(0);
    // `out[i]` is byte `start + i` of the message; the data is bytes
    // `1 .. total`.
    let start = 64 * b;
    let total = 1 + data.len();
    if b == 0 {
        out[0] = prefix;
    }
    let (lo, hi) = (start.max(1), (start + 64).min(total));
    if lo < hi {
        out[lo - start..hi - start].copy_from_slice(&data[lo - 1..hi - 1]);
    }
    if (start..start + 64).contains(&total) {
        out[total - start] = 0x80;
    }
    if b + 1 == block_count(data.len()) {
        out[56..].copy_from_slice(&((total as u64) * 8).to_be_bytes());
    }
}

/// `SHA-256(prefix || chunk)` of every `leaf_len`-byte chunk, two at a time.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn chunked_with_prefix(data: &[u8], leaf_len: usize, prefix: u8, out: &mut [Digest]) {
    let pairs = out.len() / 2;
    let (paired, rest) = out.split_at_mut(2 * pairs);
    let blocks = block_count(leaf_len);
    let (mut buf_a, mut buf_b) = ([0u8; 64], [0u8; 64]);
    for (p, o) in paired.chunks_exact_mut(2).enumerate() {
        let a = &data[2 * p * leaf_len..(2 * p + 1) * leaf_len];
        let b = &data[(2 * p + 1) * leaf_len..(2 * p + 2) * leaf_len];
        let mut state = [start_state(), start_state()];
        for blk in 0..blocks {
            // Blocks wholly inside the data are read in place (the prefix
            // shifts them by one byte); the first and the padded ones are
            // assembled.
            let inner = blk > 0 && 64 * blk + 63 <= leaf_len;
            let (ba, bb): (&[u8; 64], &[u8; 64]) = if inner {
                let at = 64 * blk - 1;
                (
                    a[at..at + 64].try_into().expect("64 bytes"),
                    b[at..at + 64].try_into().expect("64 bytes"),
                )
            } else {
                fill_block(prefix, a, blk, &mut buf_a);
                fill_block(prefix, b, blk, &mut buf_b);
                (&buf_a, &buf_b)
            };
            compress2(&mut state, [ba, bb]);
        }
        o[0] = finish(state[0]);
        o[1] = finish(state[1]);
    }
    let tail = &data[2 * pairs * leaf_len..];
    if prefix == 0 {
        portable::hash_leaves_chunked(tail, leaf_len, rest);
    } else {
        debug_assert!(prefix == 1 && leaf_len == 64);
        portable::hash_nodes(tail, rest);
    }
}

/// A state in the instructions' layout: (`ABEF`, `CDGH`), word `A` in the
/// top lane of the first.
type State = (__m128i, __m128i);

#[inline(always)]
fn start_state() -> State {
    let [a, b, c, d, e, f, g, h] = SHA256_IV.map(|w| w as i32);
    // SAFETY: SSE2 only (enabled by the caller).
    unsafe { (_mm_set_epi32(a, b, e, f), _mm_set_epi32(c, d, g, h)) }
}

/// The digest of a final state: words `A .. H` big-endian.
#[inline(always)]
fn finish((abef, cdgh): State) -> Digest {
    let mut w = [0u32; 8];
    // SAFETY: SSE2 only; `w` is 32 writable bytes.
    unsafe {
        let (mut x, mut y) = ([0u32; 4], [0u32; 4]);
        _mm_storeu_si128(x.as_mut_ptr().cast(), abef);
        _mm_storeu_si128(y.as_mut_ptr().cast(), cdgh);
        // Lanes are little-endian: lane 3 is A (or C), lane 0 is F (or H).
        w[0] = x[3];
        w[1] = x[2];
        w[4] = x[1];
        w[5] = x[0];
        w[2] = y[3];
        w[3] = y[2];
        w[6] = y[1];
        w[7] = y[0];
    }
    let mut out = [0u8; 32];
    for (o, word) in out.chunks_exact_mut(4).zip(w) {
        o.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Message words `4 g .. 4 g + 4` of a block (big-endian).
#[inline(always)]
fn load_words(block: &[u8; 64], g: usize) -> __m128i {
    assert!(g < 4);
    // SAFETY: 16 in-bounds bytes of the block; SSSE3 is enabled by the
    // caller. The shuffle reverses the bytes of every 32-bit lane.
    unsafe {
        let swap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
        _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * g).cast()), swap)
    }
}

/// Message words `4 g .. 4 g + 4` for `g >= 4` from the four groups before
/// (`w[g % 4]` holds group `g - 4`, `w[(g + 3) % 4]` group `g - 1`).
#[inline(always)]
fn schedule(w: &[__m128i; 4], g: usize) -> __m128i {
    // SAFETY: the SHA extensions and SSSE3 are enabled by the caller.
    unsafe {
        let s = _mm_add_epi32(
            _mm_sha256msg1_epu32(w[g % 4], w[(g + 1) % 4]),
            _mm_alignr_epi8::<4>(w[(g + 3) % 4], w[(g + 2) % 4]),
        );
        _mm_sha256msg2_epu32(s, w[(g + 3) % 4])
    }
}

/// Four rounds of one state with message words `m` and constants `k`.
#[inline(always)]
fn rounds4((abef, cdgh): &mut State, m: __m128i, k: __m128i) {
    // SAFETY: the SHA extensions are enabled by the caller.
    unsafe {
        let mk = _mm_add_epi32(m, k);
        *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, mk);
        *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32::<0x0e>(mk));
    }
}

/// One block into each of two states. The sixteen groups of four rounds
/// are spelled out so that every schedule index is a constant and the
/// message words stay in registers.
// The last group's words are stored like the others' and never read.
#[allow(unused_assignments)]
#[inline(always)]
fn compress2(state: &mut [State; 2], blocks: [&[u8; 64]; 2]) {
    let [mut a, mut b] = *state;
    let (mut wa, mut wb) = ([a.0; 4], [a.0; 4]);
    macro_rules! group {
        ($g:literal) => {{
            // SAFETY: 16 in-bounds bytes of the constant table; SSE2.
            let k = unsafe { _mm_loadu_si128(K[$g / 4].as_ptr().add(4 * ($g % 4)).cast()) };
            let (ma, mb) = if $g < 4 {
                (load_words(blocks[0], $g % 4), load_words(blocks[1], $g % 4))
            } else {
                (schedule(&wa, $g), schedule(&wb, $g))
            };
            wa[$g % 4] = ma;
            wb[$g % 4] = mb;
            rounds4(&mut a, ma, k);
            rounds4(&mut b, mb, k);
        }};
    }
    group!(0);
    group!(1);
    group!(2);
    group!(3);
    group!(4);
    group!(5);
    group!(6);
    group!(7);
    group!(8);
    group!(9);
    group!(10);
    group!(11);
    group!(12);
    group!(13);
    group!(14);
    group!(15);
    // SAFETY: SSE2 only.
    unsafe {
        for (s, v) in state.iter_mut().zip([a, b]) {
            s.0 = _mm_add_epi32(s.0, v.0);
            s.1 = _mm_add_epi32(s.1, v.1);
        }
    }
}
