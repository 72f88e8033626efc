//! A list of byte strings in one buffer: the public inputs or outputs of a
//! statement (rows of a batch, messages, digests, leaves).

use alloc::vec::Vec;

use core::ops::Range;

/// Byte strings, stored back to back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Records {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Records {
    /// No records.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records of `size` bytes each, cut from `bytes` (whose length is a
    /// multiple of `size`; `size` 0 gives none).
    pub fn from_fixed(bytes: Vec<u8>, size: usize) -> Self {
        let count = bytes.len().checked_div(size).unwrap_or(0);
        Records {
            ends: (1..=count).map(|i| i * size).collect(),
            bytes,
        }
    }

    /// Appends a record.
    pub fn push(&mut self, record: &[u8]) {
        self.bytes.extend_from_slice(record);
        self.ends.push(self.bytes.len());
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn range(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start..self.ends[i]
    }

    /// Record `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.range(i)]
    }

    /// Every record in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Flips bit `bit` of record `i` (bit `t` of byte `b` is bit `8 b + t`),
    /// for tests that play a cheating prover.
    #[doc(hidden)]
    pub fn flip_bit(&mut self, i: usize, bit: usize) {
        let at = self.range(i).start + bit / 8;
        self.bytes[at] ^= 1 << (bit % 8);
    }

    /// All records' bytes back to back.
    pub fn concatenated(&self) -> &[u8] {
        &self.bytes
    }
}

impl<'a> FromIterator<&'a [u8]> for Records {
    fn from_iter<I: IntoIterator<Item = &'a [u8]>>(iter: I) -> Self {
        let mut r = Records::new();
        for x in iter {
            r.push(x);
        }
        r
    }
}
