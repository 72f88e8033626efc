//! BLAKE3's compression written once over a vector of 32-bit lanes, for
//! hashing `L::LANES` messages of one length (at most one chunk) in
//! lockstep: message `l` in lane `l` of every register.
//!
//! Each backend implements [`Lanes`] for its register type with
//! `#[inline(always)]` methods and calls [`hash_messages`] from a function
//! compiled for its instructions, so the whole chain is generated for them.
//! From the BLAKE3 specification (section 2): the state is the chaining
//! value, the first four IV words, the counter, the block length and the
//! flags; seven rounds of the G function on the columns, then the
//! diagonals, with the message words permuted between rounds; the new
//! chaining value is the first half of the state XOR the second.

use super::{Key, MAX_LANE_LEN};
use crate::Digest;

/// BLAKE3's IV (SHA-256's initial state).
const IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// The message word each position takes after a round.
const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const ROOT: u32 = 8;
const KEYED_HASH: u32 = 16;

/// Blocks between a line's prefetch and its use (in the measurement
/// quoted in [`hash_messages`]: 2 gave 43 ms, 4 40-45, 8 40).
const PREFETCH_BLOCKS: usize = 4;

/// Most lanes of any backend (AVX-512: sixteen).
pub(super) const MAX_LANES: usize = 16;

/// A vector of `LANES` 32-bit words, for one instruction set.
pub(super) trait Lanes: Copy {
    /// Words per vector.
    const LANES: usize;
    /// Every lane `x`.
    fn splat(x: u32) -> Self;
    /// The sixteen message vectors of one block per lane: vector `j` holds,
    /// in lane `l`, little-endian word `j` of `blocks[l]` (`l < LANES`).
    fn transpose(blocks: &[&[u8; 64]; MAX_LANES]) -> [Self; 16];
    /// Writes the lanes to the first `LANES` words of `out`.
    fn store(self, out: &mut [u32; MAX_LANES]);
    /// Asks for the cache line holding `bytes[0]` ahead of use (a hint; no
    /// effect on results).
    fn prefetch(bytes: &[u8]);
    fn add(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    fn rotr16(self) -> Self;
    fn rotr12(self) -> Self;
    fn rotr8(self) -> Self;
    fn rotr7(self) -> Self;
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn g<L: Lanes>(v: &mut [L; 16], a: usize, b: usize, c: usize, d: usize, x: L, y: L) {
    v[a] = v[a].add(v[b]).add(x);
    v[d] = v[d].xor(v[a]).rotr16();
    v[c] = v[c].add(v[d]);
    v[b] = v[b].xor(v[c]).rotr12();
    v[a] = v[a].add(v[b]).add(y);
    v[d] = v[d].xor(v[a]).rotr8();
    v[c] = v[c].add(v[d]);
    v[b] = v[b].xor(v[c]).rotr7();
}

/// One compression of the block `m` into the chaining value `cv` (counter
/// zero: every message is the first chunk).
#[inline(always)]
fn compress<L: Lanes>(cv: &mut [L; 8], mut m: [L; 16], block_len: u32, flags: u32) {
    let mut v = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        L::splat(IV[0]),
        L::splat(IV[1]),
        L::splat(IV[2]),
        L::splat(IV[3]),
        L::splat(0),
        L::splat(0),
        L::splat(block_len),
        L::splat(flags),
    ];
    for round in 0..7 {
        g(&mut v, 0, 4, 8, 12, m[0], m[1]);
        g(&mut v, 1, 5, 9, 13, m[2], m[3]);
        g(&mut v, 2, 6, 10, 14, m[4], m[5]);
        g(&mut v, 3, 7, 11, 15, m[6], m[7]);
        g(&mut v, 0, 5, 10, 15, m[8], m[9]);
        g(&mut v, 1, 6, 11, 12, m[10], m[11]);
        g(&mut v, 2, 7, 8, 13, m[12], m[13]);
        g(&mut v, 3, 4, 9, 14, m[14], m[15]);
        if round < 6 {
            let previous = m;
            for (word, &from) in m.iter_mut().zip(&PERMUTATION) {
                *word = previous[from];
            }
        }
    }
    for i in 0..8 {
        cv[i] = v[i].xor(v[i + 8]);
    }
}

/// Block `block` of the `L::LANES` messages of `len` bytes at the start of
/// `data`, one per lane, zero past a message's end.
#[inline(always)]
fn gather_block<L: Lanes>(data: &[u8], len: usize, block: usize) -> [L; 16] {
    let start = 64 * block;
    if start + 64 <= len {
        let blocks = core::array::from_fn(|lane| {
            let lane = lane.min(L::LANES - 1);
            data[lane * len + start..][..64].try_into().expect("64 bytes")
        });
        return L::transpose(&blocks);
    }
    // The last block of messages whose length is not a multiple of 64.
    let mut padded = [[0u8; 64]; MAX_LANES];
    for (lane, p) in padded.iter_mut().enumerate().take(L::LANES) {
        p[..len - start].copy_from_slice(&data[lane * len + start..lane * len + len]);
    }
    L::transpose(&core::array::from_fn(|lane| &padded[lane]))
}

/// The keyed hashes of the `L::LANES` messages of `len <= MAX_LANE_LEN`
/// bytes at the start of `data` (message `l` at `data[l * len..]`) into
/// `out[..L::LANES]`.
#[inline(always)]
pub(super) fn hash_messages<L: Lanes>(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    debug_assert!(len <= MAX_LANE_LEN && data.len() >= L::LANES * len && out.len() >= L::LANES);
    let blocks = len.div_ceil(64).max(1);
    // Loops, not closures, around the lane methods: a closure is compiled
    // without the caller's target features unless it is inlined.
    let mut cv = [L::splat(0); 8];
    for (c, word) in cv.iter_mut().zip(key.chunks_exact(4)) {
        *c = L::splat(u32::from_le_bytes(word.try_into().expect("4 bytes")));
    }
    for block in 0..blocks {
        // The lanes read 64 bytes each, `len` bytes apart, which the
        // hardware prefetchers do not follow: each block asks for the
        // lines the lanes read `PREFETCH_BLOCKS` blocks on (in the next
        // group, past this group's last block). Zen 4, 2^18 leaves of 640
        // bytes, AVX-512: 58 ms without, 40-45 with.
        let ahead = 64 * (block + PREFETCH_BLOCKS);
        let ahead = if ahead < len {
            ahead
        } else {
            L::LANES * len + ahead - 64 * blocks
        };
        for lane in 0..L::LANES {
            if let Some(line) = data.get(lane * len + ahead..) {
                L::prefetch(line);
            }
        }
        let mut flags = KEYED_HASH;
        if block == 0 {
            flags |= CHUNK_START;
        }
        if block + 1 == blocks {
            flags |= CHUNK_END | ROOT;
        }
        let block_len = (len - 64 * block).min(64) as u32;
        compress(&mut cv, gather_block::<L>(data, len, block), block_len, flags);
    }
    let mut words = [[0u32; MAX_LANES]; 8];
    for (w, v) in words.iter_mut().zip(cv) {
        v.store(w);
    }
    for (lane, digest) in out[..L::LANES].iter_mut().enumerate() {
        for (chunk, w) in digest.chunks_exact_mut(4).zip(&words) {
            chunk.copy_from_slice(&w[lane].to_le_bytes());
        }
    }
}

/// [`hash_messages`] over every message of `data`: whole groups of
/// `L::LANES` in lockstep, the rest (and messages longer than a chunk)
/// through the portable definition.
#[inline(always)]
pub(super) fn hash_all<L: Lanes>(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(len),
        "data must hold exactly one message per output digest"
    );
    if len > MAX_LANE_LEN {
        return super::portable::keyed_hash_many(key, data, len, out);
    }
    let whole = out.len() / L::LANES * L::LANES;
    let group_len = L::LANES * len;
    for (g, group) in out[..whole].chunks_exact_mut(L::LANES).enumerate() {
        hash_messages::<L>(key, &data[g * group_len..], len, group);
    }
    super::portable::keyed_hash_many(key, &data[whole * len..], len, &mut out[whole..]);
}
