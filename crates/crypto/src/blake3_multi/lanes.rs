//! BLAKE3's compression written once over a vector of 32-bit lanes, for
//! hashing `L::LANES` messages of one length (at most one chunk) in
//! lockstep: message `l` in lane `l` of every register, whole
//! ([`Job::Whole`]) or a span of blocks at a time from chaining values kept
//! between calls ([`Job::Span`]).
//!
//! Each backend implements [`Lanes`] for its register type with
//! `#[inline(always)]` methods and calls [`run`] from a function compiled
//! for its instructions, so the whole chain is generated for them.
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

/// Most lanes of any backend (AVX-512: sixteen). Chaining values kept
/// between spans are stored in groups of this many messages
/// ([`super::PartialHashes`]).
pub(super) const MAX_LANES: usize = 16;

/// Words of a group's stored chaining values: word `w` of message `l` of
/// the group at `w * MAX_LANES + l`, so that a backend loads and stores
/// each word of its lanes as one vector.
pub(super) const GROUP_WORDS: usize = 8 * MAX_LANES;

/// Which bytes of each message a call absorbs: `bytes` of them, starting
/// at block `first_block`; `ends` when they are the message's last (then
/// the last block is finalised as the root). A span that does not end is a
/// positive multiple of 64 bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) first_block: usize,
    pub(super) bytes: usize,
    pub(super) ends: bool,
}

/// Work for a backend.
pub(super) enum Job<'a> {
    /// `out[i]` = the keyed hash of `data[i * len..(i + 1) * len]`.
    Whole {
        key: &'a Key,
        data: &'a [u8],
        len: usize,
        out: &'a mut [Digest],
    },
    /// Advances whole groups of stored chaining values (`cvs`,
    /// [`GROUP_WORDS`] words per group) over `span` of each message: the
    /// span of message `i` is `data[i * span.bytes..][..span.bytes]`.
    Span {
        cvs: &'a mut [u32],
        data: &'a [u8],
        span: Span,
    },
}

/// A vector of `LANES` 32-bit words, for one instruction set.
pub(super) trait Lanes: Copy {
    /// Words per vector.
    const LANES: usize;
    /// Every lane `x`.
    fn splat(x: u32) -> Self;
    /// Lane `l` from `words[l]` (`l < LANES`).
    fn load(words: &[u32]) -> Self;
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

/// Absorbs `span` of the `L::LANES` messages at the start of `data` (the
/// span of message `l` at `data[l * span.bytes..]`) into `cv`.
#[inline(always)]
fn absorb<L: Lanes>(cv: &mut [L; 8], data: &[u8], span: Span) {
    let bytes = span.bytes;
    debug_assert!(span.ends || (bytes > 0 && bytes.is_multiple_of(64)));
    debug_assert!(data.len() >= L::LANES * bytes);
    let blocks = bytes.div_ceil(64).max(1);
    // Loops, not closures, around the lane methods: a closure is compiled
    // without the caller's target features unless it is inlined.
    for block in 0..blocks {
        // The lanes read 64 bytes each, `bytes` apart, which the hardware
        // prefetchers do not follow: each block asks for the lines the
        // lanes read `PREFETCH_BLOCKS` blocks on (in the next group, past
        // this group's last block). Zen 4, 2^18 leaves of 640 bytes,
        // AVX-512: 58 ms without, 40-45 with.
        let ahead = 64 * (block + PREFETCH_BLOCKS);
        let ahead = if ahead < bytes {
            ahead
        } else {
            L::LANES * bytes + ahead - 64 * blocks
        };
        for lane in 0..L::LANES {
            if let Some(line) = data.get(lane * bytes + ahead..) {
                L::prefetch(line);
            }
        }
        let mut flags = KEYED_HASH;
        if span.first_block + block == 0 {
            flags |= CHUNK_START;
        }
        if span.ends && block + 1 == blocks {
            flags |= CHUNK_END | ROOT;
        }
        let block_len = (bytes - 64 * block).min(64) as u32;
        compress(cv, gather_block::<L>(data, bytes, block), block_len, flags);
    }
}

/// The keyed hashes of the `L::LANES` messages of `len <= MAX_LANE_LEN`
/// bytes at the start of `data` (message `l` at `data[l * len..]`) into
/// `out[..L::LANES]`.
#[inline(always)]
fn hash_messages<L: Lanes>(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    debug_assert!(len <= MAX_LANE_LEN && out.len() >= L::LANES);
    let mut cv = [L::splat(0); 8];
    for (c, word) in cv.iter_mut().zip(key.chunks_exact(4)) {
        *c = L::splat(u32::from_le_bytes(word.try_into().expect("4 bytes")));
    }
    let span = Span {
        first_block: 0,
        bytes: len,
        ends: true,
    };
    absorb(&mut cv, data, span);
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
fn hash_all<L: Lanes>(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
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

/// Advances every group of `cvs` over `span`, `L::LANES` messages at a time
/// (each group's words as [`GROUP_WORDS`] says).
#[inline(always)]
fn absorb_groups<L: Lanes>(cvs: &mut [u32], data: &[u8], span: Span) {
    let group_bytes = MAX_LANES * span.bytes;
    assert!(
        cvs.len().is_multiple_of(GROUP_WORDS) && data.len() == cvs.len() / GROUP_WORDS * group_bytes,
        "a span of every message of whole groups"
    );
    for (g, group) in cvs.chunks_exact_mut(GROUP_WORDS).enumerate() {
        // The rest of the data, not only this group's: `absorb` prefetches
        // the next group's lines.
        let data = &data[g * group_bytes..];
        for first in (0..MAX_LANES).step_by(L::LANES) {
            let mut cv = [L::splat(0); 8];
            for (w, c) in cv.iter_mut().enumerate() {
                *c = L::load(&group[w * MAX_LANES + first..]);
            }
            absorb(&mut cv, &data[first * span.bytes..], span);
            let mut words = [0u32; MAX_LANES];
            for (w, c) in cv.into_iter().enumerate() {
                c.store(&mut words);
                group[w * MAX_LANES + first..][..L::LANES].copy_from_slice(&words[..L::LANES]);
            }
        }
    }
}

/// Does `job` with `L`'s lanes.
#[inline(always)]
pub(super) fn run<L: Lanes>(job: Job<'_>) {
    match job {
        Job::Whole { key, data, len, out } => hash_all::<L>(key, data, len, out),
        Job::Span { cvs, data, span } => absorb_groups::<L>(cvs, data, span),
    }
}
