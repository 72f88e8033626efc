//! Column ranges of a batch-layout buffer, one per task of a parallel pass.
//!
//! A batch-layout buffer holds one row of `words_per_wire` words per wire;
//! the witness pass, its forms and the slicing of inputs each cut the
//! columns into ranges and give every task one range of every row. The
//! ranges were once built as a list of row slices per range: a reference
//! per wire and range, built on one thread before the pass (three tables of
//! 2^16 wires in sixteen ranges: three million references, 48 MiB, 12-15 ms
//! of a 2^14 Keccak-f witness on sixteen threads of the device Xeon, more
//! than on one thread). A [`ColumnPart`] is instead the buffer's address
//! and its range, and computes a row's slice when asked.

// `unsafe` here: the slices a part hands out are made from the buffer's
// address; the parts' column ranges are disjoint, which the borrow checker
// cannot see through one `&mut` buffer.
#![allow(unsafe_code)]

use std::marker::PhantomData;

/// Most column ranges a batch-layout pass (the witness, its forms, the
/// slicing of inputs) is cut into: sixteen per thread up to four threads.
/// It was sixteen while each range cost a list of row slices (above), which
/// left sixteen threads one range each: the pass took as long as its
/// slowest range. 2^16 Keccak-f, sixteen threads on two Zen 1 cores: the
/// generator's critical path (in thread CPU time, with a scratch build of
/// rayon that times each fork's halves) was 20.5 ms, all of a sixteenth of
/// its work (20.8); in 32 ranges of one 32-word block each, 13.0 ms.
const MAX_TASKS: usize = 64;

/// Words of each wire per task of a batch-layout pass: about sixteen tasks
/// per thread, at most [`MAX_TASKS`], and at least one block of `lanes`
/// words. Blocks cost the same, but threads do not run at the same speed
/// (a virtual machine's cores, the other thread's wake-up), and a pass ends
/// when its last task does: 2^16 Keccak-f on two threads, three alternating
/// rounds, the witness phase took 99-106 ms in four tasks per thread and
/// 90-96 ms in sixteen.
pub(crate) fn part_words(words_per_wire: usize, lanes: usize) -> usize {
    let tasks = (16 * rayon::current_num_threads())
        .next_power_of_two()
        .min(MAX_TASKS);
    (words_per_wire / tasks).max(lanes)
}

/// Words `start .. start + len` of every row of a batch-layout buffer,
/// writable by one task while other tasks write the other ranges.
pub(crate) struct ColumnPart<'a> {
    /// The buffer's first word.
    base: *mut u64,
    words_per_wire: usize,
    wires: usize,
    start: usize,
    len: usize,
    /// The buffer stays mutably borrowed while parts of it exist.
    buffer: PhantomData<&'a mut [u64]>,
}

// SAFETY: a part is the exclusive handle on its words of the buffer (no
// two parts of one buffer share a word, and the buffer is borrowed while
// they exist), like a `&mut [u64]`, which is `Send`.
unsafe impl Send for ColumnPart<'_> {}

impl ColumnPart<'_> {
    /// The part's words of `wire`'s row.
    ///
    /// # Panics
    /// When `wire` is not a row of the buffer.
    #[inline]
    pub(crate) fn row(&mut self, wire: usize) -> &mut [u64] {
        assert!(wire < self.wires, "wire {wire} of {}", self.wires);
        // SAFETY: `wire * words_per_wire + start + len <= wires *
        // words_per_wire` (`column_parts` keeps `start + len <=
        // words_per_wire`), so the words lie in the buffer, which outlives
        // `'a`. They belong to this part alone, and the slice borrows the
        // part mutably, so no other slice of them exists while it does.
        unsafe {
            std::slice::from_raw_parts_mut(self.base.add(wire * self.words_per_wire + self.start), self.len)
        }
    }

    /// Words of each row in this part.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// Cuts a batch-layout buffer (`words_per_wire` words per wire) into column
/// ranges of `part` words: part `p` holds, for every wire, its words
/// `p * part .. (p + 1) * part` (the last range shorter where `part` does
/// not divide `words_per_wire`). The ranges are disjoint, so tasks can
/// write them at the same time.
pub(crate) fn column_parts(buf: &mut [u64], words_per_wire: usize, part: usize) -> Vec<ColumnPart<'_>> {
    assert!(part > 0, "parts hold at least one word");
    assert!(
        words_per_wire > 0 && buf.len().is_multiple_of(words_per_wire),
        "the buffer is whole rows"
    );
    let wires = buf.len() / words_per_wire;
    let base = buf.as_mut_ptr();
    (0..words_per_wire)
        .step_by(part)
        .map(|start| ColumnPart {
            base,
            words_per_wire,
            wires,
            start,
            len: part.min(words_per_wire - start),
            buffer: PhantomData,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// Parts written at once on rayon cover every word exactly once.
    #[test]
    fn parts_cover_every_word_once() {
        for (words_per_wire, wires, part) in [(8usize, 5usize, 3usize), (16, 3, 16), (16, 4, 4), (7, 2, 10)] {
            let mut buf = vec![0u64; words_per_wire * wires];
            let parts = column_parts(&mut buf, words_per_wire, part);
            assert_eq!(parts.len(), words_per_wire.div_ceil(part));
            parts.into_par_iter().enumerate().for_each(|(p, mut cols)| {
                for wire in 0..wires {
                    let len = cols.len();
                    for (at, w) in cols.row(wire).iter_mut().enumerate() {
                        *w += (wire * words_per_wire + p * part + at) as u64 + 1;
                    }
                    assert_eq!(cols.row(wire).len(), len);
                }
            });
            let want: Vec<u64> = (1..=buf.len() as u64).collect();
            assert_eq!(
                buf, want,
                "{words_per_wire} words, {wires} wires, parts of {part}"
            );
        }
    }
}
