//! The definition of many-message hashing, every message on its own through
//! `blake3::keyed_hash` (every other backend must give exactly these
//! digests), and one lane of plain `u32` arithmetic for the spans of
//! [`super::PartialHashes`], which the `blake3` crate cannot resume from a
//! chaining value.

use super::lanes::{run, Job, Lanes, MAX_LANES};
use super::Key;
use crate::Digest;

/// `out[i] = blake3::keyed_hash(key, data[i * len..(i + 1) * len])` for
/// every `i < out.len()`; `data` must hold exactly `out.len() * len` bytes.
pub fn keyed_hash_many(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(len),
        "data must hold exactly one message per output digest"
    );
    for (i, o) in out.iter_mut().enumerate() {
        *o = *blake3::keyed_hash(key, &data[i * len..(i + 1) * len]).as_bytes();
    }
}

/// Whole messages by the definition, spans one message at a time.
pub(super) fn jobs_portable(job: Job<'_>) {
    match job {
        Job::Whole { key, data, len, out } => keyed_hash_many(key, data, len, out),
        span => run::<Word>(span),
    }
}

/// One lane.
#[derive(Clone, Copy)]
struct Word(u32);

impl Lanes for Word {
    const LANES: usize = 1;

    fn splat(x: u32) -> Self {
        Word(x)
    }

    fn load(words: &[u32]) -> Self {
        Word(words[0])
    }

    fn transpose(blocks: &[&[u8; 64]; MAX_LANES]) -> [Self; 16] {
        core::array::from_fn(|j| {
            Word(u32::from_le_bytes(
                blocks[0][4 * j..4 * j + 4].try_into().expect("4 bytes"),
            ))
        })
    }

    fn store(self, out: &mut [u32; MAX_LANES]) {
        out[0] = self.0;
    }

    fn prefetch(_bytes: &[u8]) {}

    fn add(self, other: Self) -> Self {
        Word(self.0.wrapping_add(other.0))
    }

    fn xor(self, other: Self) -> Self {
        Word(self.0 ^ other.0)
    }

    fn rotr16(self) -> Self {
        Word(self.0.rotate_right(16))
    }

    fn rotr12(self) -> Self {
        Word(self.0.rotate_right(12))
    }

    fn rotr8(self) -> Self {
        Word(self.0.rotate_right(8))
    }

    fn rotr7(self) -> Self {
        Word(self.0.rotate_right(7))
    }
}
