//! Large zeroed buffers handed from one prover phase to the next.
//!
//! The prover's phases each need tens of megabytes of field elements for a
//! short while (the zerocheck's folded vectors, ring switching's opening
//! weights, the next level's codeword). Fresh memory from the allocator is
//! mapped on first touch, one page fault per 4 KiB page, which costs more
//! than the arithmetic done on it. A phase that is done with a large buffer
//! [`recycle`]s it; a later phase asking for [`zeroed`] memory then gets it
//! back (cleared) instead of faulting in new pages. At most
//! [`MAX_POOLED`] buffers are kept, and [`release`] drops them all.
//!
//! Without a pooled buffer large enough, [`zeroed`] allocates with
//! `vec![0; len]` (zeroed pages straight from the allocator, not written
//! twice).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::Gf128;

/// Buffers kept at most.
pub const MAX_POOLED: usize = 4;

/// Buffers shorter than this (in `u128`s, 1 MiB) are not worth keeping.
pub const MIN_POOLED: usize = 1 << 16;

static POOL: Mutex<Vec<Vec<u128>>> = Mutex::new(Vec::new());

fn pool() -> std::sync::MutexGuard<'static, Vec<Vec<u128>>> {
    // A panic while holding the lock leaves only whole buffers behind.
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A vector of `len` zeros, reusing a recycled buffer when one is large enough.
pub fn zeroed(len: usize) -> Vec<u128> {
    match take_pooled(len) {
        Some(mut v) => {
            v.fill(0);
            v
        }
        None => vec![0u128; len],
    }
}

/// A vector of `len` entries whose values are unspecified (a recycled buffer
/// keeps whatever it held; fresh memory is zero), for callers that write
/// every entry before reading it: no pass over the memory at all.
pub fn take(len: usize) -> Vec<u128> {
    take_pooled(len).unwrap_or_else(|| vec![0u128; len])
}

/// The smallest pooled buffer of capacity at least `len`, cut to `len`
/// entries (old contents kept where there were entries).
fn take_pooled(len: usize) -> Option<Vec<u128>> {
    if len < MIN_POOLED {
        return None;
    }
    let mut v = {
        let mut p = pool();
        let best = p
            .iter()
            .enumerate()
            .filter(|(_, v)| v.capacity() >= len)
            .min_by_key(|(_, v)| v.capacity())
            .map(|(i, _)| i)?;
        p.swap_remove(best)
    };
    if v.len() < len {
        v.resize(len, 0);
    }
    v.truncate(len);
    Some(v)
}

/// [`zeroed`] as field elements.
pub fn zeroed_field(len: usize) -> Vec<Gf128> {
    into_field_vec(zeroed(len))
}

/// [`take`] as field elements.
pub fn take_field(len: usize) -> Vec<Gf128> {
    into_field_vec(take(len))
}

/// Hands a buffer back for a later [`zeroed`]. Small buffers are dropped; so
/// is the smallest one when more than [`MAX_POOLED`] would be kept.
pub fn recycle(v: Vec<u128>) {
    if v.capacity() < MIN_POOLED {
        return;
    }
    let dropped = {
        let mut p = pool();
        p.push(v);
        if p.len() > MAX_POOLED {
            let smallest = p
                .iter()
                .enumerate()
                .min_by_key(|(_, v)| v.capacity())
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

/// [`recycle`] for field elements.
pub fn recycle_field(v: Vec<Gf128>) {
    recycle(into_u128_vec(v));
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

/// Total capacity pooled, in `u128`s.
pub fn pooled_len() -> usize {
    pool().iter().map(Vec::capacity).sum()
}

/// The same buffer as field elements, without copying.
pub fn into_field_vec(v: Vec<u128>) -> Vec<Gf128> {
    let mut v = core::mem::ManuallyDrop::new(v);
    let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    // SAFETY: `Gf128` is `#[repr(transparent)]` over `u128`: same size and
    // alignment, so the allocation (made for `cap` `u128`s) has the layout of
    // `cap` `Gf128`s and is freed with the same layout; every `u128` is a
    // valid `Gf128`; `v` is not used or dropped again.
    unsafe { Vec::from_raw_parts(ptr.cast::<Gf128>(), len, cap) }
}

/// The same buffer as raw `u128`s, without copying.
pub fn into_u128_vec(v: Vec<Gf128>) -> Vec<u128> {
    let mut v = core::mem::ManuallyDrop::new(v);
    let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    // SAFETY: as in `into_field_vec`, the other way round.
    unsafe { Vec::from_raw_parts(ptr.cast::<u128>(), len, cap) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recycled_buffers_come_back_zeroed() {
        let mut v = zeroed(MIN_POOLED + 5);
        assert!(v.iter().all(|&x| x == 0));
        v.iter_mut().for_each(|x| *x = u128::MAX);
        recycle(v);
        // Other tests may share the pool; every buffer handed out is zero.
        for len in [MIN_POOLED, MIN_POOLED + 3, 10, 0] {
            let w = zeroed(len);
            assert_eq!(w.len(), len);
            assert!(w.iter().all(|&x| x == 0));
            recycle(w);
        }
        let f = zeroed_field(MIN_POOLED);
        assert!(f.iter().all(|x| x.is_zero()));
        recycle_field(f);
        for len in [MIN_POOLED, 2 * MIN_POOLED, 7] {
            assert_eq!(take(len).len(), len);
            assert_eq!(take_field(len).len(), len);
        }
        assert!(pool().len() <= MAX_POOLED);
    }

    #[test]
    fn conversions_keep_contents() {
        let v: Vec<u128> = (0..100).collect();
        let f = into_field_vec(v.clone());
        assert_eq!(f.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), v);
        assert_eq!(into_u128_vec(f), v);
    }
}
