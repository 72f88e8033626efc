//! Many keyed BLAKE3 hashes of equal-length messages at once: Merkle leaves
//! and inner nodes ([`crate::merkle`]) and proof-of-work attempts
//! ([`crate::pow`]).
//!
//! [`keyed_hash_many`] hashes every consecutive `len`-byte message of a
//! buffer under one key, with the digests of `blake3::keyed_hash`. A message
//! of at most [`MAX_LANE_LEN`] bytes is one BLAKE3 chunk, a chain of at most
//! sixteen compressions, so messages of one length run in lockstep, one per
//! 32-bit lane of a vector register: sixteen with AVX-512, eight with AVX2,
//! four with NEON. `lanes` holds the compression written once over a lane
//! type; each instruction set supplies the type (`x86_64/avx512.rs`,
//! `x86_64/avx2.rs`, `aarch64/neon.rs`). The `blake3` crate, one message at
//! a time, is the definition (`portable`), the backend of the portable tier
//! and of longer messages; `tests/blake3_multi.rs` checks every backend this
//! CPU runs against it.
//!
//! Why BLAKE3 and not SHA-256 for the commitments: seven rounds of adds,
//! xors and rotations per 64-byte block against SHA-256's 64 rounds and
//! message schedule. Zen 4, one thread, 2^18 leaves of 640 bytes (Keccak-f's
//! level-0 columns at 2^14 permutations, `leaf_hash_timing`): SHA-256
//! sixteen lanes at a time with AVX-512 took 58-68 ms, this 34-45 ms with
//! AVX-512 and 48-57 with AVX2 (the `blake3` crate one leaf at a time: 175).

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;
mod lanes;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_64;

use starling_field::Gf128Slices;
use std::borrow::Cow;

use rayon::prelude::*;
use starling_field::cpu::{self, Tier};
use starling_field::Gf128;

use crate::Digest;
use lanes::Job;

/// A BLAKE3 key.
pub type Key = [u8; 32];

/// Longest message the SIMD backends take: one BLAKE3 chunk. Longer
/// messages go to the `blake3` crate one at a time.
pub const MAX_LANE_LEN: usize = 1024;

/// Which implementation of many-message hashing is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The `blake3` crate, one message at a time, any CPU.
    Portable,
    /// x86_64 AVX2, eight messages per pass.
    Avx2,
    /// x86_64 AVX-512F, sixteen messages per pass.
    Avx512,
    /// aarch64 NEON, four messages per pass.
    Neon,
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 4] = [Backend::Portable, Backend::Avx2, Backend::Avx512, Backend::Neon];

    /// The backend `tier` uses.
    pub fn for_tier(tier: Tier) -> Backend {
        match tier {
            Tier::Portable => Backend::Portable,
            Tier::Avx2 => Backend::Avx2,
            Tier::Avx512 => Backend::Avx512,
            Tier::Neon => Backend::Neon,
        }
    }
}

impl Backend {
    /// True when this CPU has the backend's instructions (ignores the
    /// process's tier: tests use it to reach every backend).
    pub fn runs_here(self) -> bool {
        self.jobs().is_some()
    }

    fn jobs(self) -> Option<fn(Job<'_>)> {
        match self {
            Backend::Portable => Some(portable::jobs_portable),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 if Tier::Avx2.runs_here() => Some(x86_64::jobs_avx2),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 if Tier::Avx512.runs_here() => Some(x86_64::jobs_avx512),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon if Tier::Neon.runs_here() => Some(aarch64::jobs_neon),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Does `job`; panics unless the backend runs here.
    fn run(self, job: Job<'_>) {
        let run = self
            .jobs()
            .unwrap_or_else(|| panic!("the {self:?} hasher needs instructions this CPU lacks"));
        run(job);
    }

    /// `out[i] = blake3::keyed_hash(key, data[i * len..(i + 1) * len])`
    /// with this backend; panics unless `data.len() == out.len() * len`,
    /// or when the backend does not run here.
    pub fn keyed_hash_many(self, key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
        self.run(Job::Whole { key, data, len, out });
    }
}

/// The backend of the process's tier.
pub fn backend() -> Backend {
    Backend::for_tier(cpu::tier())
}

/// `out[i] = blake3::keyed_hash(key, data[i * len..(i + 1) * len])`, many
/// at a time where the CPU allows. Panics unless `data.len() == out.len() *
/// len`.
pub fn keyed_hash_many(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    backend().keyed_hash_many(key, data, len, out);
}

/// Messages per group of [`PartialHashes`]' stored chaining values:
/// [`PartialHashes::update_fields_blockwise`] takes whole groups.
pub const GROUP_MESSAGES: usize = lanes::MAX_LANES;

/// A field slice's bytes, as its elements' `to_bytes` in order.
fn field_bytes(data: &[Gf128]) -> Cow<'_, [u8]> {
    #[cfg(target_endian = "little")]
    return Cow::Borrowed(Gf128::slice_as_bytes(data));
    #[cfg(not(target_endian = "little"))]
    Cow::Owned(data.iter().flat_map(|v| v.to_bytes()).collect())
}

/// Spans of [`PartialHashes`] per rayon task: about 1 MiB of data, a whole
/// number of groups.
const SPAN_TASK_BYTES: usize = 1 << 20;

/// Keyed hashes of `count` messages of `len <= MAX_LANE_LEN` bytes each,
/// fed a part of every message at a time: the level-0 commitment encodes a
/// few rows of its table at a time, and each codeword column (a Merkle
/// leaf) grows by those rows' elements. Only the chaining values (32 bytes
/// a message) are kept between parts, instead of every column whole.
/// The digests are [`keyed_hash_many`]'s of the concatenated parts.
pub struct PartialHashes {
    backend: Backend,
    count: usize,
    len: usize,
    /// Bytes of each message absorbed so far.
    done: usize,
    /// True once the messages' last part is in.
    finished: bool,
    /// The chaining values, in groups of `MAX_LANES` messages
    /// ([`lanes::GROUP_WORDS`]); the last group padded.
    cvs: Vec<u32>,
}

impl PartialHashes {
    /// `count` messages of `len` bytes under `key`, none of them fed yet,
    /// hashed with the process's backend.
    pub fn new(key: &Key, count: usize, len: usize) -> Self {
        Self::with_backend(backend(), key, count, len)
    }

    /// [`PartialHashes::new`] with `backend`; panics unless it runs here
    /// or when `len > MAX_LANE_LEN`.
    pub fn with_backend(backend: Backend, key: &Key, count: usize, len: usize) -> Self {
        assert!(backend.runs_here(), "the {backend:?} hasher does not run here");
        assert!(len <= MAX_LANE_LEN, "messages of {len} bytes: at most one chunk");
        let key_words: Vec<u32> = key
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")))
            .collect();
        // Written on rayon's threads, without clearing first: a level-0
        // coset's 2^18 messages (SHA-256 at 2^16) have 8 MiB of them,
        // 2 ms on one Zen 1 thread.
        let cvs = (0..count.div_ceil(lanes::MAX_LANES) * lanes::GROUP_WORDS)
            .into_par_iter()
            .with_min_len(1 << 14)
            .map(|i| key_words[i % lanes::GROUP_WORDS / lanes::MAX_LANES])
            .collect();
        PartialHashes {
            backend,
            count,
            len,
            done: 0,
            finished: false,
            cvs,
        }
    }

    /// Feeds the next `part` bytes of every message: message `i`'s are
    /// `data[i * part..(i + 1) * part]`. Every part but the one that ends
    /// the messages must be a positive multiple of 64 bytes. Runs on rayon.
    pub fn update(&mut self, data: &[u8], part: usize) {
        assert_eq!(
            Some(data.len()),
            self.count.checked_mul(part),
            "one part per message"
        );
        let span = self.next_span(part);
        let run = self.backend.jobs().expect("checked when made");
        let group_bytes = lanes::MAX_LANES * part;
        let whole = self.count / lanes::MAX_LANES;
        let (head, tail) = self.cvs.split_at_mut(whole * lanes::GROUP_WORDS);
        let per_task = (SPAN_TASK_BYTES / group_bytes.max(1))
            .min(whole.div_ceil(4 * rayon::current_num_threads()))
            .max(1);
        head.par_chunks_mut(per_task * lanes::GROUP_WORDS)
            .enumerate()
            .for_each(|(t, cvs)| {
                let groups = cvs.len() / lanes::GROUP_WORDS;
                let data = &data[t * per_task * group_bytes..][..groups * group_bytes];
                run(Job::Span { cvs, data, span });
            });
        if !tail.is_empty() {
            // The ragged last group, its missing messages' parts zero.
            let mut padded = vec![0u8; group_bytes];
            let rest = &data[whole * group_bytes..];
            padded[..rest.len()].copy_from_slice(rest);
            run(Job::Span {
                cvs: tail,
                data: &padded,
                span,
            });
        }
        self.advance(span);
    }

    /// [`PartialHashes::update`] with parts that are made block by block:
    /// `data` holds the next part of every message, field elements
    /// (message `i`'s are `data[i * k..(i + 1) * k]`, `16 k` bytes), in
    /// blocks of `block_messages` messages (a multiple of
    /// [`GROUP_MESSAGES`] that divides the count, or all of them). On
    /// rayon, each block is handed to `finish(index, block)` to be made,
    /// then absorbed while it is still in cache: the commitment finishes
    /// its transform block by block, and reading the whole coset from
    /// memory again to hash it moved as many bytes as the transform's
    /// last pass.
    pub fn update_fields_blockwise(
        &mut self,
        data: &mut [Gf128],
        block_messages: usize,
        finish: impl Fn(usize, &mut [Gf128]) + Sync,
    ) {
        assert!(
            self.count > 0 && data.len().is_multiple_of(self.count),
            "one part per message"
        );
        let elems = data.len() / self.count;
        if block_messages >= self.count {
            finish(0, data);
            self.update(&field_bytes(data), 16 * elems);
            return;
        }
        assert!(
            block_messages > 0
                && block_messages.is_multiple_of(GROUP_MESSAGES)
                && self.count.is_multiple_of(block_messages),
            "blocks of {block_messages} of {} messages are not whole groups",
            self.count
        );
        let span = self.next_span(16 * elems);
        let run = self.backend.jobs().expect("checked when made");
        data.par_chunks_mut(block_messages * elems)
            .zip(
                self.cvs
                    .par_chunks_mut(block_messages / lanes::MAX_LANES * lanes::GROUP_WORDS),
            )
            .enumerate()
            .for_each(|(index, (block, cvs))| {
                finish(index, block);
                run(Job::Span {
                    cvs,
                    data: &field_bytes(block),
                    span,
                });
            });
        self.advance(span);
    }

    /// Which bytes the next `part` bytes of each message are; panics when
    /// they cannot come next.
    fn next_span(&self, part: usize) -> lanes::Span {
        assert!(!self.finished, "the messages are complete");
        let ends = self.done + part == self.len;
        assert!(
            ends || (part > 0 && part.is_multiple_of(64) && self.done + part < self.len),
            "a part of {part} bytes after {} of {}: parts are whole blocks until the last",
            self.done,
            self.len
        );
        lanes::Span {
            first_block: self.done / 64,
            bytes: part,
            ends,
        }
    }

    /// Records `span` as absorbed by every message.
    fn advance(&mut self, span: lanes::Span) {
        self.done += span.bytes;
        self.finished = span.ends;
    }

    /// The digests, once every message is complete.
    pub fn finish(self) -> Vec<Digest> {
        let mut out = starling_field::scratch::filled(self.count, [0u8; 32]);
        self.finish_into(&mut out);
        out
    }

    /// [`PartialHashes::finish`] into `out` (one digest per message), on
    /// rayon's threads: a level-0 commitment writes each coset's digests
    /// into its part of the tree's leaves (2^19 of them per coset at 2^16
    /// Keccak-f permutations), where gathering them after on one thread
    /// took 32 ms.
    pub fn finish_into(self, out: &mut [Digest]) {
        assert!(self.finished, "the messages' last part is not in yet");
        assert_eq!(out.len(), self.count, "one digest per message");
        out.par_chunks_mut(lanes::MAX_LANES)
            .zip(self.cvs.par_chunks(lanes::GROUP_WORDS))
            .with_min_len(1 << 8)
            .for_each(|(digests, group)| group_digests(group, digests));
    }

    /// The digests of each block of `block` consecutive messages (a
    /// multiple of [`GROUP_MESSAGES`] that divides the count) handed to
    /// `reduce` with that block's equal part of `out`, on rayon's threads,
    /// each block in a buffer of its task: for a caller that keeps what it
    /// makes of the digests, not the digests (level 0's Merkle tree, which
    /// keeps its nodes from the fourth level up: the leaves of a 2^18
    /// Keccak-f commitment are 128 MiB, and its lower levels another 112).
    pub fn finish_reduced<T: Send>(
        self,
        block: usize,
        out: &mut [T],
        reduce: impl Fn(&[Digest], &mut [T]) + Sync,
    ) {
        assert!(self.finished, "the messages' last part is not in yet");
        assert!(
            block > 0
                && block.is_multiple_of(GROUP_MESSAGES)
                && self.count.is_multiple_of(block)
                && out.len() >= self.count / block
                && out.len().is_multiple_of(self.count / block),
            "blocks of {block} of {} messages onto {} outputs",
            self.count,
            out.len()
        );
        let per_block = out.len() / (self.count / block);
        out.par_chunks_mut(per_block)
            .zip(self.cvs.par_chunks(block / lanes::MAX_LANES * lanes::GROUP_WORDS))
            .for_each_init(
                || vec![[0u8; 32]; block],
                |digests, (out, groups)| {
                    for (d, group) in digests
                        .chunks_mut(lanes::MAX_LANES)
                        .zip(groups.chunks(lanes::GROUP_WORDS))
                    {
                        group_digests(group, d);
                    }
                    reduce(digests, out);
                },
            );
    }
}

/// The digests of one group of chaining values (word `w` of lane `i` at
/// `group[w * MAX_LANES + i]`), as many as `digests` holds.
fn group_digests(group: &[u32], digests: &mut [Digest]) {
    for (lane, digest) in digests.iter_mut().enumerate() {
        for (w, chunk) in digest.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&group[w * lanes::MAX_LANES + lane].to_le_bytes());
        }
    }
}
