//! Large buffers handed from one prover phase to the next.
//!
//! The prover's phases each need tens of megabytes of field elements for a
//! short while (the zerocheck's folded vectors, ring switching's opening
//! weights, the next level's codeword). Fresh memory from the allocator is
//! mapped on first touch, one page fault per 4 KiB page, which costs more
//! than the arithmetic done on it. A phase that is done with a large buffer
//! [`recycle_field`]s it; a later phase asking for one ([`take_field`]) then
//! gets it back instead of faulting in new pages. At most [`MAX_POOLED`]
//! buffers are kept, and [`release`] drops them all.
//!
//! A buffer is lent as a [`ScratchVec`]: a prefix of a vector whose entries
//! all stay initialised. A large buffer often serves a smaller request, and
//! folds shrink their buffers round by round; lent as a plain `Vec` cut to
//! size, it would come back short, and the next request for the whole of it
//! would clear the lost tail again, one thread writing tens of megabytes
//! (5-7 ms per proof at 2^14 hashes on a Zen 3, measured).
//!
//! The prover's tables are zero past their live part (a circuit's unused
//! wires: 22-39% of SHA-256's, BLAKE3's and Keccak-f's tables), and pages
//! never written cost no memory. The pool remembers, for each buffer, where
//! its zero tail begins ([`take_field_zero_past`]), so that a table lent
//! again need not be cleared there and its tail's pages are never touched,
//! proof after proof.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::Gf128;

/// Buffers kept at most: a proof's tables (two, or three with a cheating
/// prover's witness) and the level-0 cosets it
/// commits at once, with room to spare. At four, a 2^16 BLAKE3 proof on
/// sixteen threads (two cosets of 32 MiB in flight) dropped a coset's
/// buffer at its end and faulted in a new one in its next commitment, every
/// proof: 6 of the commitment's 10-15 ms critical path (thread CPU time,
/// scratch rayon, sixteen threads on two Xeon cores), 4 ms with six. Peak
/// RSS at 2^16, sixteen threads, did not change (542, 1,035 and 2,090 MiB
/// for BLAKE3, SHA-256 and Keccak-f); eight kept small buffers that added
/// 10-25 MiB.
pub const MAX_POOLED: usize = 6;

/// Buffers shorter than this (in elements, 1 MiB) are not worth keeping.
pub const MIN_POOLED: usize = 1 << 16;

/// A pooled vector, initialised over its whole length, and where its zero
/// tail begins: every entry from `zero_from` on is zero.
struct Pooled {
    all: Vec<Gf128>,
    zero_from: usize,
}

static POOL: Mutex<Vec<Pooled>> = Mutex::new(Vec::new());

fn pool() -> std::sync::MutexGuard<'static, Vec<Pooled>> {
    // A panic while holding the lock leaves only whole buffers behind.
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Field elements lent by the pool: `len` entries of `all` from `start`
/// on, `all` going back to the pool whole ([`recycle_field`]).
/// Dereferences to the lent entries.
///
/// A buffer worth pooling is lent from its first entry on a cache line
/// ([`LINE_BYTES`]) where it has room for that ([`take_field`]). The
/// witness pass writes its tables in runs of whole lines with
/// non-temporal stores; the allocator's large blocks start 16 bytes into a
/// line, so every run began and ended with a partial line, which Intel
/// cores write to memory as a read-modify-write: the witness phase of
/// 2^14 Keccak-f permutations on one thread of the device Xeon took
/// 181-197 ms, 53-57 ms with its tables on lines (SHA-256: 108-112 ->
/// 17-21 ms).
#[derive(Default)]
pub struct ScratchVec {
    all: Vec<Gf128>,
    start: usize,
    len: usize,
    /// Where `all`'s zero tail begins once the borrower is done with it:
    /// past the lent entries, or past the live ones of
    /// [`take_field_zero_past`].
    zero_from: usize,
}

impl ScratchVec {
    /// Keeps the first `len` entries (no change if there are fewer); the
    /// rest stay in the buffer for its next use.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Says that the borrower may have left nonzero entries below `n` (of
    /// those lent), past the live part it was lent with
    /// ([`take_field_zero_past`]): the buffer's zero tail then starts no
    /// earlier when it goes back. A borrower that grows what it writes
    /// (weights added to a folded table) calls this.
    pub fn wrote_below(&mut self, n: usize) {
        let end = self.start + self.len;
        if self.zero_from <= end {
            self.zero_from = self.zero_from.max(self.start + n.min(self.len));
        }
    }
}

impl From<Vec<Gf128>> for ScratchVec {
    /// The whole vector, its contents unknown (no zero tail).
    fn from(all: Vec<Gf128>) -> Self {
        let len = all.len();
        ScratchVec {
            all,
            start: 0,
            len,
            zero_from: len,
        }
    }
}

impl Deref for ScratchVec {
    type Target = [Gf128];
    fn deref(&self) -> &[Gf128] {
        &self.all[self.start..self.start + self.len]
    }
}

impl DerefMut for ScratchVec {
    fn deref_mut(&mut self) -> &mut [Gf128] {
        &mut self.all[self.start..self.start + self.len]
    }
}

impl<'a> IntoIterator for &'a ScratchVec {
    type Item = &'a Gf128;
    type IntoIter = std::slice::Iter<'a, Gf128>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut ScratchVec {
    type Item = &'a mut Gf128;
    type IntoIter = std::slice::IterMut<'a, Gf128>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl Clone for ScratchVec {
    /// A copy of the lent entries only.
    fn clone(&self) -> Self {
        ScratchVec::from(self.to_vec())
    }
}

impl PartialEq for ScratchVec {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for ScratchVec {}

impl std::fmt::Debug for ScratchVec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// `len` field elements whose values are unspecified (a recycled buffer
/// keeps whatever it held; fresh memory is zero), for callers that write
/// every entry before reading it: no pass over the memory at all. Reuses
/// the smallest pooled buffer large enough.
///
/// A fresh buffer worth pooling is allocated at the next power of two: the
/// prover's tables are powers of two, and a buffer cut to the live rows of
/// a table (39 of 64 for BLAKE3) could not serve the table-sized requests
/// of the next phase, which then faulted in new memory of their own (a
/// SHA-256 proof of 2^14 hashes with 60 live rows of 64 peaked at 364 MB,
/// not 241). The pages past `len` are never touched unless a later use
/// needs them.
///
/// Such a buffer is allocated with [`LINE_SLACK`] more entries, and lent
/// from its first entry on a cache line ([`ScratchVec`]); a pooled buffer
/// without the room (one recycled from a plain `Vec`) is lent from its
/// start.
pub fn take_field(len: usize) -> ScratchVec {
    lend(len, len)
}

/// `len` field elements of which those from `live` on are zero, the rest
/// unspecified ([`take_field`]); the borrower writes only below `live`
/// (or writes zeros), so that the buffer comes back with its zero tail.
///
/// For the prover's tables, zero past the circuit's used wires: fresh
/// pages there are never touched, so they take no memory (a quarter of
/// each of a SHA-256 proof's tables), and a pooled buffer is cleared only
/// where an earlier borrower left nonzero entries.
pub fn take_field_zero_past(len: usize, live: usize) -> ScratchVec {
    lend(len, live.min(len))
}

/// A buffer of `len` entries whose entries from `live` on are zero.
fn lend(len: usize, live: usize) -> ScratchVec {
    if len < MIN_POOLED {
        return ScratchVec::from(zeroed_vec(len));
    }
    let Pooled { mut all, zero_from } = take_pooled(len).unwrap_or_else(|| {
        let all = zeroed_vec(len.next_power_of_two() + LINE_SLACK);
        Pooled { all, zero_from: 0 }
    });
    let on_line = (all.as_ptr() as usize).wrapping_neg() % LINE_BYTES / core::mem::size_of::<Gf128>();
    let start = if on_line + len <= all.capacity() {
        on_line
    } else {
        0
    };
    if all.len() < start + len {
        // Only a buffer recycled from a `Vec` shorter than its capacity:
        // grown within it.
        all.resize(start + len, Gf128::ZERO);
    }
    let (live_end, end) = (start + live, start + len);
    if live_end < zero_from.min(end) {
        clear(&mut all[live_end..zero_from.min(end)]);
    }
    // Past the lent entries the old tail stays; within them, the borrower
    // may write up to `live`.
    let zero_from = if zero_from > end { zero_from } else { live_end };
    ScratchVec {
        all,
        start,
        len,
        zero_from,
    }
}

/// Zeros `v` on rayon's threads, a MiB a task: a stale part of a
/// table-sized buffer is tens of MB, a pass over memory one thread would
/// leave the others waiting on.
pub fn clear(v: &mut [Gf128]) {
    use rayon::prelude::*;
    v.par_chunks_mut(MIN_POOLED).for_each(|c| c.fill(Gf128::ZERO));
}

/// The cache line the lent part of a pooled buffer starts on.
pub const LINE_BYTES: usize = 64;

/// Entries a fresh pooled buffer has beyond its power of two, so that a
/// part of that length can start on a line: the allocator's blocks are at
/// least 16-byte aligned, one entry.
pub const LINE_SLACK: usize = LINE_BYTES / core::mem::size_of::<Gf128>() - 1;

/// The smallest pooled buffer of capacity at least `len`, if `len` is
/// worth pooling.
fn take_pooled(len: usize) -> Option<Pooled> {
    if len < MIN_POOLED {
        return None;
    }
    let mut p = pool();
    let best = p
        .iter()
        .enumerate()
        .filter(|(_, v)| v.all.capacity() >= len)
        .min_by_key(|(_, v)| v.all.capacity())
        .map(|(i, _)| i)?;
    Some(p.swap_remove(best))
}

/// `len` zeros, as zeroed pages straight from the allocator (not written
/// twice, as `vec![Gf128::ZERO; len]` would be).
fn zeroed_vec(len: usize) -> Vec<Gf128> {
    let mut v = core::mem::ManuallyDrop::new(vec![0u128; len]);
    let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    // SAFETY: `Gf128` is `#[repr(transparent)]` over `u128`: same size and
    // alignment, so the allocation (made for `cap` `u128`s) has the layout of
    // `cap` `Gf128`s and is freed with the same layout; every `u128` is a
    // valid `Gf128`; `v` is not used or dropped again.
    unsafe { Vec::from_raw_parts(ptr.cast::<Gf128>(), len, cap) }
}

/// Bytes below which [`filled`] writes on the calling thread: less than a
/// fork costs.
const FILL_ON_RAYON_BYTES: usize = 1 << 19;

/// `len` copies of `value` in a new vector, written on rayon's threads when
/// it is large. For buffers that are then overwritten: `vec![value; len]`
/// has the calling thread write them, and even zeros cost that for a block
/// the allocator's heap hands out (below its mapping threshold), while every
/// other thread waits. On two Zen 1 cores running sixteen threads, a 2^16
/// SHA-256 commitment's critical path held 2.0 ms of clearing its 16 MiB of
/// leaves and 1.6 ms of its Merkle tree's levels.
pub fn filled<T: Copy + Send + Sync>(len: usize, value: T) -> Vec<T> {
    use rayon::prelude::*;
    if len.saturating_mul(core::mem::size_of::<T>()) < FILL_ON_RAYON_BYTES {
        return vec![value; len];
    }
    let mut out = Vec::with_capacity(len);
    out.par_extend(rayon::iter::repeat_n(value, len));
    out
}

/// Hands a buffer back (all of it, whatever was lent) for a later
/// [`take_field`]. Small buffers are dropped; so is the smallest one when
/// more than [`MAX_POOLED`] would be kept.
pub fn recycle_field(v: ScratchVec) {
    let ScratchVec { all, zero_from, .. } = v;
    if all.capacity() < MIN_POOLED {
        return;
    }
    let dropped = {
        let mut p = pool();
        p.push(Pooled { all, zero_from });
        if p.len() > MAX_POOLED {
            let smallest = p
                .iter()
                .enumerate()
                .min_by_key(|(_, v)| v.all.capacity())
                .map(|(i, _)| i)
                .expect("the pool is not empty");
            Some(p.swap_remove(smallest))
        } else {
            None
        }
    };
    // Freed outside the lock.
    drop(dropped);
}

/// Whether [`finish`] keeps the pool ([`keep_between_uses`]).
static KEEP: AtomicBool = AtomicBool::new(false);

/// Makes [`finish`] keep the pooled buffers for the next proof instead of
/// dropping them. For a process that proves batch after batch: its next
/// proof then takes the same buffers, already mapped, instead of faulting
/// in new ones (about 11 ms per 128 MiB with huge pages, more with small
/// ones, and worse on two threads than on one). The cost is that the
/// buffers stay with the process between proofs.
pub fn keep_between_uses() {
    KEEP.store(true, Ordering::Relaxed);
}

/// The end of a proof: drops the pooled buffers, unless the process asked
/// to keep them ([`keep_between_uses`]).
pub fn finish() {
    if !KEEP.load(Ordering::Relaxed) {
        release();
    }
}

/// Drops every pooled buffer (the memory goes back to the allocator).
pub fn release() {
    let all = core::mem::take(&mut *pool());
    drop(all);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_holds_the_value_on_both_sides_of_the_fork() {
        for len in [0, 1, 1000, (1 << 15) - 1, 1 << 15, (1 << 16) + 3] {
            let v = filled(len, [7u8; 16]);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|x| *x == [7u8; 16]), "{len}");
        }
    }

    /// The tests share the pool: each holds this while it runs, so that a
    /// buffer one recycles is still there for its next take.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[test]
    fn a_shortened_buffer_comes_back_whole_and_uncleared() {
        let _serial = serial();
        let len = 3 * MIN_POOLED + 1;
        let mut v = take_field(len);
        v.iter_mut().for_each(|x| *x = Gf128::new(7));
        v.truncate(2);
        recycle_field(v);
        // The same buffer (the only one of exactly this capacity), all of
        // it as it was left: not cleared, not regrown.
        let w = take_field(len);
        assert_eq!(w.len(), len);
        assert!(w.iter().all(|&x| x == Gf128::new(7)));
        recycle_field(w);
    }

    #[test]
    fn fresh_pooled_buffers_are_lent_from_a_cache_line() {
        let _serial = serial();
        release();
        for len in [MIN_POOLED, 5 * MIN_POOLED + 3] {
            let v = take_field(len);
            assert_eq!(v.len(), len);
            assert_eq!(v.as_ptr() as usize % LINE_BYTES, 0, "{len} entries");
            recycle_field(v);
            // Taken again from the pool: the same line.
            let w = take_field(len);
            assert_eq!(w.as_ptr() as usize % LINE_BYTES, 0, "{len} entries, recycled");
            recycle_field(w);
        }
    }

    #[test]
    fn lent_buffers_have_the_asked_length_and_go_back_whole() {
        let _serial = serial();
        let mut v = take_field(MIN_POOLED + 5);
        assert_eq!(v.len(), MIN_POOLED + 5);
        v.iter_mut().for_each(|x| *x = Gf128::new(7));
        v.truncate(3);
        assert_eq!(v.len(), 3);
        v.truncate(10);
        assert_eq!(v.len(), 3, "truncate never lengthens");
        recycle_field(v);
        // Other tests may share the pool: only lengths are checked.
        for len in [MIN_POOLED + 5, MIN_POOLED, 10, 0] {
            let w = take_field(len);
            assert_eq!(w.len(), len);
            recycle_field(w);
        }
        assert!(pool().len() <= MAX_POOLED);
    }

    #[test]
    fn fresh_buffers_are_zero_and_short_vecs_are_grown() {
        let _serial = serial();
        assert!(zeroed_vec(100).iter().all(|x| x.is_zero()));
        let mut short = Vec::with_capacity(4 * MIN_POOLED);
        short.push(Gf128::new(1));
        recycle_field(ScratchVec::from(short));
        let w = take_field(4 * MIN_POOLED);
        assert_eq!(w.len(), 4 * MIN_POOLED);
        recycle_field(w);
    }

    #[test]
    fn a_zero_tail_is_cleared_only_where_a_borrower_wrote() {
        let _serial = serial();
        release();
        let (len, live) = (4 * MIN_POOLED, 3 * MIN_POOLED);
        // Fresh: zero past `live`; the borrower keeps it so.
        let mut v = take_field_zero_past(len, live);
        assert!(v[live..].iter().all(|x| x.is_zero()));
        v[..live].iter_mut().for_each(|x| *x = Gf128::new(5));
        recycle_field(v);
        // Written everywhere by a plain borrower.
        let mut v = take_field(len);
        assert!(
            v[..live].iter().all(|&x| x == Gf128::new(5)),
            "not cleared below the tail"
        );
        assert!(v[live..].iter().all(|x| x.is_zero()));
        v.iter_mut().for_each(|x| *x = Gf128::new(7));
        recycle_field(v);
        // A shorter live part: cleared from it on, kept below it.
        let short = MIN_POOLED + 9;
        let mut v = take_field_zero_past(len, short);
        assert!(
            v[..short].iter().all(|&x| x == Gf128::new(7)),
            "not cleared below the tail"
        );
        assert!(
            v[short..].iter().all(|x| x.is_zero()),
            "cleared from the live part on"
        );
        v[..short].iter_mut().for_each(|x| *x = Gf128::new(8));
        recycle_field(v);
        // A longer one: what the last borrower left below it, zeros past it.
        let v = take_field_zero_past(len, live);
        assert!(v[..short].iter().all(|&x| x == Gf128::new(8)));
        assert!(v[short..].iter().all(|x| x.is_zero()));
        recycle_field(v);
        // A request shorter than the buffer leaves its tail beyond alone:
        // a plain borrower of the first half, then the whole again.
        let mut v = take_field(len / 2);
        v.iter_mut().for_each(|x| *x = Gf128::new(9));
        recycle_field(v);
        let v = take_field_zero_past(len, len / 2);
        assert!(v[len / 2..].iter().all(|x| x.is_zero()));
        recycle_field(v);
        // A plain borrower of part of a buffer whose old tail reached
        // further keeps that tail marked as written.
        let mut v = take_field(len);
        v.iter_mut().for_each(|x| *x = Gf128::new(3));
        recycle_field(v);
        let v = take_field_zero_past(len / 2, 0);
        assert!(v.iter().all(|x| x.is_zero()));
        recycle_field(v);
        let v = take_field_zero_past(len, len / 2);
        assert!(
            v[len / 2..].iter().all(|x| x.is_zero()),
            "the old tail is cleared"
        );
        recycle_field(v);
        // A borrower that wrote past its live part says so.
        let mut v = take_field_zero_past(len, short);
        v[..live].iter_mut().for_each(|x| *x = Gf128::new(4));
        v.wrote_below(live);
        recycle_field(v);
        let v = take_field_zero_past(len, short);
        assert!(
            v[short..].iter().all(|x| x.is_zero()),
            "cleared up to where it wrote"
        );
        recycle_field(v);
        release();
    }

    #[test]
    fn clones_and_comparisons_see_only_the_lent_entries() {
        let mut a = ScratchVec::from(vec![Gf128::new(1), Gf128::new(2), Gf128::new(3)]);
        a.truncate(2);
        let b = ScratchVec::from(vec![Gf128::new(1), Gf128::new(2)]);
        assert_eq!(a, b);
        assert_eq!(a.clone().len(), 2);
        assert_eq!(format!("{a:?}"), format!("{:?}", &b[..]));
    }
}
