//! The prover's side of the opening sumcheck `sum_x f(x) w(x)`: degree-2
//! rounds and folds of the two tables, batched and parallel. Level 0 binds
//! its rows, the table's top variables, one after another: each of those
//! rounds pairs the halves `x`, `x + 2^v` of blocks of `2^(v + 1)` entries
//! (the `_at` functions); every later round binds the lowest variable. All
//! folds write in place.
//! They compute exactly what `starling_poly::sumcheck_round::product_round`
//! and `starling_poly::multilinear::fold_lowest` compute (tested below), but
//! hand the products to the field backend a slice at a time instead of
//! dispatching per element, and split the work over rayon. The high
//! variables' folds and rounds are one backend kernel each
//! (`backend::fold`, `fold_interleaving`, `round_sums`,
//! `round_sums_interleaved`), which keep sums and products in registers;
//! the lowest variable's, whose pairs are adjacent, gather a chunk into
//! buffers first.
//!
//! After the first fold the two tables live interleaved in one buffer,
//! `[f0, w0, f1, w1, ..]` ([`PairTable`]): the first fold then writes in the
//! place of the weight table it reads (no new memory for the folded message),
//! every later fold reads and writes one stream, and each fold also
//! accumulates the next round's products while the folded chunk is in cache.
//!
//! Folding in place writes output pair `j` from input pairs `2j` and `2j + 1`,
//! so output block `[a, 2a)` only overwrites inputs of outputs below `a`; the
//! in-place fold runs in doubling phases `[a, 2a)`, each parallel with
//! disjoint source and destination slices, after a small first phase that
//! folds from a copy. A fold at a high variable runs the same doubling
//! phases over blocks of `2^v` pairs ([`PairTable::fold_at`]), and the first
//! one writes each output block over its own input block of `w`, folded
//! from a copy of that block ([`PairTable::fold_first_at`]). In place for
//! memory: level 0's tables are the largest buffers of a proof, and folding
//! them out of place held a third table-sized buffer (the first fold: the
//! table, `w` and the new pair table) or half of one (each later fold); now
//! the opening holds the table and one pair table, plus one copied block
//! pair. Peak RSS on two Xeon threads: 2^16 SHA-256 681-685 -> 513 MiB,
//! 2^14 Keccak-f 308-312 -> 234-243 MiB; proofs unchanged.

use rayon::prelude::*;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128Slices;
use starling_field::{backend, Gf128};
use starling_poly::sumcheck_round::QuadraticRound;

use crate::ring_switch::OpeningWeights;

/// Elements handed to the field backend per call.
const CHUNK: usize = 256;
/// Output pairs per rayon task. With 2^13 (and a seed of 2^12) a fold of up
/// to 2^15 pairs ran its first 2^14 on one thread, and passes of up to 2^15
/// entries were one task: the later levels' rounds, and level 0's last
/// ones, waited on one thread. On two Zen 1 cores running sixteen threads,
/// 2^16 BLAKE3: the critical path of level 0's rounds 2.7-3.7 -> 1.3-1.4 ms,
/// of level 1's 2.2-2.3 -> 0.95; one and two threads unchanged.
const TASK: usize = 1 << 11;
/// Output pairs of the first (sequential, from a copy) phase of an in-place fold.
const SEED: usize = 1 << 10;
/// Entries of `w` the opening's first fold at a high variable copies aside
/// and folds at once, when its blocks are smaller
/// ([`PairTable::fold_first_at`]): enough pieces for the threads, and one
/// rayon call per run of blocks rather than per block.
const SPAN: usize = 1 << 16;

/// Running sums of one product round: the sums of `f[2j] w[2j]` and of
/// `(f[2j] + f[2j+1]) (w[2j] + w[2j+1])`, a chunk of products at a time by
/// `backend::dot` (summed unreduced, reduced once per chunk). Two field
/// elements, so rayon's `fold`/`reduce` frames stay small (lane-wise
/// accumulators of 8 KiB per frame once overflowed the worker stacks).
#[derive(Clone, Copy)]
pub(crate) struct RoundSums {
    s0: u128,
    s2: u128,
}

impl RoundSums {
    pub(crate) fn new() -> Self {
        RoundSums { s0: 0, s2: 0 }
    }

    /// Adds the products of the pairs of `f` and `w` (equal, even lengths).
    /// Never inlined, like every function here with kilobytes of stack
    /// buffers: inlined into a rayon task, its buffers would be reserved in
    /// every frame of the split tree (BENCHMARKS.md: "Threads").
    #[inline(never)]
    pub(crate) fn add(&mut self, f: &[Gf128], w: &[Gf128]) {
        debug_assert!(f.len() == w.len() && f.len().is_multiple_of(2));
        let (mut a, mut b) = ([0u128; CHUNK], [0u128; CHUNK]);
        let (mut c, mut d) = ([0u128; CHUNK], [0u128; CHUNK]);
        for (fc, wc) in f.chunks(2 * CHUNK).zip(w.chunks(2 * CHUNK)) {
            let n = fc.len() / 2;
            for (j, (fp, wp)) in fc.chunks_exact(2).zip(wc.chunks_exact(2)).enumerate() {
                let (f0, f1, w0, w1) = (fp[0].to_bits(), fp[1].to_bits(), wp[0].to_bits(), wp[1].to_bits());
                a[j] = f0;
                b[j] = w0;
                c[j] = f0 ^ f1;
                d[j] = w0 ^ w1;
            }
            self.multiply(n, &a, &b, &c, &d);
        }
    }

    /// Adds the products of the pairs of an interleaved `[f, w, f, w, ..]`
    /// slice (length a multiple of 4). Never inlined (see [`RoundSums::add`]).
    #[inline(never)]
    fn add_interleaved(&mut self, fw: &[Gf128]) {
        debug_assert!(fw.len().is_multiple_of(4));
        let (mut a, mut b) = ([0u128; CHUNK], [0u128; CHUNK]);
        let (mut c, mut d) = ([0u128; CHUNK], [0u128; CHUNK]);
        for quads in fw.chunks(4 * CHUNK) {
            let n = quads.len() / 4;
            for (j, q) in quads.chunks_exact(4).enumerate() {
                let (f0, w0, f1, w1) = (q[0].to_bits(), q[1].to_bits(), q[2].to_bits(), q[3].to_bits());
                a[j] = f0;
                b[j] = w0;
                c[j] = f0 ^ f1;
                d[j] = w0 ^ w1;
            }
            self.multiply(n, &a, &b, &c, &d);
        }
    }

    /// Adds the products of the pairs `(f0[j], f1[j])`, `(w0[j], w1[j])`
    /// (all four of equal length), in one pass ([`backend::round_sums`]).
    pub(crate) fn add_halves(&mut self, f0: &[Gf128], f1: &[Gf128], w0: &[Gf128], w1: &[Gf128]) {
        let [s0, s2] = backend::round_sums([f0, f1, w0, w1].map(Gf128::as_u128_slice));
        self.s0 ^= s0;
        self.s2 ^= s2;
    }

    /// Adds the products of the pairs `x`, `x + 2^v` of `f` and `w` (equal
    /// lengths, a multiple of `2^(v + 1)`).
    pub(crate) fn add_at(&mut self, f: &[Gf128], w: &[Gf128], v: usize) {
        if v == 0 {
            return self.add(f, w);
        }
        let h = 1usize << v;
        for (fb, wb) in f.chunks_exact(2 * h).zip(w.chunks_exact(2 * h)) {
            let ((f0, f1), (w0, w1)) = (fb.split_at(h), wb.split_at(h));
            self.add_halves(f0, f1, w0, w1);
        }
    }

    /// Adds the products of the pairs `(lo[2j], hi[2j])` (of `f`) and
    /// `(lo[2j + 1], hi[2j + 1])` (of `w`) of two halves of an interleaved
    /// table, in one pass ([`backend::round_sums_interleaved`]).
    fn add_interleaved_halves(&mut self, lo: &[Gf128], hi: &[Gf128]) {
        let [s0, s2] = backend::round_sums_interleaved(Gf128::as_u128_slice(lo), Gf128::as_u128_slice(hi));
        self.s0 ^= s0;
        self.s2 ^= s2;
    }

    fn multiply(&mut self, n: usize, a: &[u128], b: &[u128], c: &[u128], d: &[u128]) {
        self.s0 ^= backend::dot(&a[..n], &b[..n]);
        self.s2 ^= backend::dot(&c[..n], &d[..n]);
    }

    pub(crate) fn merge(self, other: RoundSums) -> RoundSums {
        RoundSums {
            s0: self.s0 ^ other.s0,
            s2: self.s2 ^ other.s2,
        }
    }

    pub(crate) fn finish(&self) -> QuadraticRound {
        QuadraticRound {
            c0: Gf128::new(self.s0),
            c2: Gf128::new(self.s2),
        }
    }
}

/// The round message for `sum_x f(x) w(x)` binding the lowest variable.
pub(crate) fn product_round(f: &[Gf128], w: &[Gf128]) -> QuadraticRound {
    assert_eq!(f.len(), w.len(), "tables must have equal length");
    if f.len() <= 2 * TASK {
        let mut s = RoundSums::new();
        s.add(f, w);
        return s.finish();
    }
    f.par_chunks(2 * TASK)
        .zip(w.par_chunks(2 * TASK))
        .fold(RoundSums::new, |mut s, (fc, wc)| {
            s.add(fc, wc);
            s
        })
        .reduce(RoundSums::new, RoundSums::merge)
        .finish()
}

/// The round message for `sum_x f(x) w(x)` binding variable `v`.
pub(crate) fn product_round_at(f: &[Gf128], w: &[Gf128], v: usize) -> QuadraticRound {
    if v == 0 {
        return product_round(f, w);
    }
    assert_eq!(f.len(), w.len(), "tables must have equal length");
    let h = 1usize << v;
    f.par_chunks(2 * h)
        .zip(w.par_chunks(2 * h))
        .flat_map(|(fb, wb)| {
            let ((f0, f1), (w0, w1)) = (fb.split_at(h), wb.split_at(h));
            let fs = f0.par_chunks(TASK).zip(f1.par_chunks(TASK));
            fs.zip(w0.par_chunks(TASK).zip(w1.par_chunks(TASK)))
        })
        .fold(RoundSums::new, |mut s, ((f0, f1), (w0, w1))| {
            s.add_halves(f0, f1, w0, w1);
            s
        })
        .reduce(RoundSums::new, RoundSums::merge)
        .finish()
}

/// The message `f` and weight `w` of the opening, interleaved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PairTable {
    fw: ScratchVec,
    /// Entries of each table that may be nonzero: both are zero from here on.
    live: usize,
}

/// Entries that may be nonzero after a fold at variable `v` of tables that
/// are zero from `live` on: output block `k` (`2^v` entries) is zero when
/// input block `k` (`2^(v + 1)`) is.
fn live_after_fold(live: usize, v: usize) -> usize {
    live.div_ceil(2 << v) << v
}

/// The buffer goes back to `starling_field::scratch`: it is the size of the
/// table's first fold or was taken from the pool, and the next proof wants it.
impl Drop for PairTable {
    fn drop(&mut self) {
        scratch::recycle_field(std::mem::take(&mut self.fw));
    }
}

impl PairTable {
    /// Number of entries of each table.
    pub(crate) fn len(&self) -> usize {
        self.fw.len() / 2
    }

    /// A copy of `f`, made on rayon's threads: level 0's folded message is
    /// 2^20 entries for 2^16 Keccak-f permutations, 1.7 ms on one Zen 1
    /// thread, which sixteen threads waited for.
    pub(crate) fn message(&self) -> Vec<Gf128> {
        self.fw
            .par_chunks_exact(2)
            .with_min_len(TASK)
            .map(|pair| pair[0])
            .collect()
    }

    /// `w[j] += add[j]` for all `j < add.len()`.
    pub(crate) fn add_to_weights(&mut self, add: &[Gf128]) {
        self.live = self.live.max(add.len());
        self.fw.wrote_below(2 * add.len());
        self.fw
            .par_chunks_mut(2 * TASK)
            .zip(add.par_chunks(TASK))
            .for_each(|(fw, a)| {
                for (pair, x) in fw.chunks_exact_mut(2).zip(a) {
                    pair[1] += *x;
                }
            });
    }

    /// A hiding opening's round binding `T`, the mask row's variable, once
    /// level 0's data row variables are folded (`ligerito`'s module notes):
    /// with `F`, `w` the current tables, `M` the mask row and `e = eq(s, 0)`,
    /// `h(X) = (1 + X)^2 <F, w> + X (1 + X) e <M, w>` (the weight is zero in
    /// `T`'s upper half).
    pub(crate) fn mask_row_round(&self, mask: &[Gf128], e: Gf128) -> QuadraticRound {
        assert_eq!(mask.len(), self.len(), "the mask row is a folded table's length");
        let (fw, mw) = self
            .fw
            .par_chunks(2 * TASK)
            .zip(mask.par_chunks(TASK))
            .map(|(fw, m)| {
                let mut sums = (Gf128::ZERO, Gf128::ZERO);
                for (pair, x) in fw.chunks_exact(2).zip(m) {
                    sums.0 += pair[0] * pair[1];
                    sums.1 += *x * pair[1];
                }
                sums
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), |a, b| (a.0 + b.0, a.1 + b.1));
        QuadraticRound {
            c0: fw,
            c2: fw + e * mw,
        }
    }

    /// Folds `T` at `s`: `F <- (1 + s) F + s e M`, `w <- (1 + s) w`.
    pub(crate) fn fold_mask_row(&mut self, mask: &[Gf128], e: Gf128, s: Gf128) {
        assert_eq!(mask.len(), self.len(), "the mask row is a folded table's length");
        let (keep, add) = (Gf128::ONE + s, s * e);
        self.fw.wrote_below(self.fw.len());
        self.fw
            .par_chunks_mut(2 * TASK)
            .zip(mask.par_chunks(TASK))
            .for_each(|(fw, m)| {
                for (pair, x) in fw.chunks_exact_mut(2).zip(m) {
                    pair[0] = keep * pair[0] + add * *x;
                    pair[1] *= keep;
                }
            });
        self.live = self.len();
    }

    /// Moves the tables into a buffer of their own length and gives the one
    /// they were folded in back to `starling_field::scratch`. After level
    /// 0's folds they are a 64th of the table they started as; the rest of
    /// that buffer's pages, resident, then serve the next level's commitment
    /// and the queries' re-encoding, which otherwise took fresh memory at
    /// the proof's peak (2^18 SHA-256 on two threads: 1,912 MiB, against
    /// 1,766 through the zerocheck).
    pub(crate) fn compact(&mut self) {
        let live = 2 * self.live.min(self.len());
        let mut own = scratch::take_field_zero_past(self.fw.len(), live);
        copy_par(&mut own[..live], &self.fw[..live]);
        scratch::recycle_field(std::mem::replace(&mut self.fw, own));
    }

    /// The round message of the current tables.
    pub(crate) fn round(&self) -> QuadraticRound {
        let sums = if self.fw.len() <= 4 * TASK {
            let mut s = RoundSums::new();
            s.add_interleaved(&self.fw);
            s
        } else {
            self.fw
                .par_chunks(4 * TASK)
                .fold(RoundSums::new, |mut s, c| {
                    s.add_interleaved(c);
                    s
                })
                .reduce(RoundSums::new, RoundSums::merge)
        };
        sums.finish()
    }

    /// The round message binding variable `v` of the current tables.
    pub(crate) fn round_at(&self, v: usize) -> QuadraticRound {
        if v == 0 {
            return self.round();
        }
        let h = 2usize << v;
        self.fw
            .par_chunks(2 * h)
            .flat_map(|block| {
                let (lo, hi) = block.split_at(h);
                lo.par_chunks(2 * TASK).zip(hi.par_chunks(2 * TASK))
            })
            .fold(RoundSums::new, |mut s, (lo, hi)| {
                s.add_interleaved_halves(lo, hi);
                s
            })
            .reduce(RoundSums::new, RoundSums::merge)
            .finish()
    }

    /// The first fold binding variable `v` of `table` and `w`, both zero
    /// from entry `live` on: the pairs `x`, `x + 2^v`, written interleaved
    /// over `w` (`w`'s buffer becomes the pair table's); the blocks folded
    /// from zeros are left as they are, zero. For `v = 0` this is
    /// [`PairTable::fold_first`]. With `with_round`, also returns the next
    /// round, binding variable `v` of the folded tables ([`fold_high`]).
    ///
    /// In place for memory ([`fold_first_over_buffer`]): the prover then
    /// holds the committed table, `w` and one block pair, not a third
    /// table-sized buffer (module notes).
    pub(crate) fn fold_first_at(
        table: &[Gf128],
        mut w: ScratchVec,
        live: usize,
        r: Gf128,
        v: usize,
        with_round: bool,
    ) -> (PairTable, Option<QuadraticRound>) {
        if v == 0 {
            return Self::fold_first(table, w, live, r, with_round);
        }
        assert_eq!(table.len(), w.len(), "tables must have equal length");
        let r = r.to_bits();
        let (live, round) = fold_first_over_buffer(&mut w, live, v, with_round, |o, [w0, w1], [i0, i1]| {
            let n = w0.len();
            fold_halves_interleaving(o, &table[i0..][..n], &table[i1..][..n], w0, w1, r);
        });
        (PairTable { fw: w, live }, round)
    }

    /// [`PairTable::fold_first_at`] with the weight computed where the fold
    /// reads it (`weights`, from entry `live` on zero like the table), and
    /// written over the committed table's buffer, which becomes the pair
    /// table's ([`fold_first_over_buffer`]). The opening then holds one
    /// table-sized buffer where it held two; the table is gone afterwards,
    /// and a prover that needs it again writes it again.
    pub(crate) fn fold_first_over(
        mut table: ScratchVec,
        weights: &OpeningWeights,
        live: usize,
        r: Gf128,
        v: usize,
        with_round: bool,
    ) -> (PairTable, Option<QuadraticRound>) {
        let r = r.to_bits();
        let (live, round) =
            fold_first_over_buffer(&mut table, live, v, with_round, |o, [f0, f1], [i0, i1]| {
                let n = f0.len();
                let mut w = vec![Gf128::ZERO; 2 * n];
                let (w0, w1) = w.split_at_mut(n);
                weights.fill_runs(i0, w0);
                weights.fill_runs(i1, w1);
                fold_halves_interleaving(o, f0, f1, w0, w1, r);
            });
        (PairTable { fw: table, live }, round)
    }

    /// Folds both tables at variable `v` with `r`, in place: [`PairTable::fold`]
    /// for `v = 0`; otherwise output block `k` (`2^(v + 1)` interleaved
    /// entries) lies inside input block `k / 2`, so the output blocks are
    /// written in doubling phases, each parallel: blocks 0 and 1 from input
    /// blocks 0 and 1 ([`fold_front`]), then each `[a, 2a)` from input
    /// blocks `[a, 2a)`, entries disjoint from those it writes. In place,
    /// the fold holds its tables, not half as much again.
    /// With `with_round`, also returns the next round, binding variable `v`
    /// of the folded tables ([`fold_high`]; in the first phase, output
    /// blocks 0 and 1 side by side).
    ///
    /// Output entries past the new live part that held input data (below
    /// the old live part) are cleared: the tables stay zero past `live`.
    pub(crate) fn fold_at(&mut self, r: Gf128, v: usize, with_round: bool) -> Option<QuadraticRound> {
        if v == 0 {
            return self.fold(r, with_round);
        }
        let (h, r) = (2usize << v, r.to_bits());
        let half = self.fw.len() / 2;
        let blocks = half / h;
        debug_assert!(
            blocks.is_power_of_two() && blocks * h == half,
            "whole blocks, pairs of them"
        );
        // Entries of `fw` that may be nonzero: before the fold (`stale`:
        // output entries below it and past `live` are cleared) and after.
        let stale = 2 * self.live;
        self.live = live_after_fold(self.live, v);
        let live = 2 * self.live;
        let end = live.max(stale);
        let round_ok = with_round && blocks >= 2;
        let front = blocks.min(2);
        let mut sums = fold_front(&mut self.fw[..2 * front * h], h, live, stale, round_ok, r);
        let mut a = front;
        while a < blocks && a * h < end {
            let b = (2 * a).min(blocks);
            let (left, right) = self.fw.split_at_mut(2 * a * h);
            let src = &right[..2 * (b - a) * h];
            let (live, stale) = (live.saturating_sub(a * h), stale.saturating_sub(a * h));
            let phase = fold_high(&mut left[a * h..b * h], h, live, stale, round_ok, |o, at| {
                let (base, e) = (at / h * 2 * h, at % h);
                fold_halves(o, &src[base + e..][..o.len()], &src[base + h + e..][..o.len()], r);
            });
            if let Some(p) = phase {
                sums = sums.merge(p);
            }
            a = b;
        }
        // The buffer keeps its zero-tail bookkeeping (past the old live
        // part), which covers the input data left past the new length.
        self.fw.truncate(half);
        round_ok.then(|| sums.finish())
    }

    /// The first fold: `f` from the borrowed `table`, `w` in place, written
    /// interleaved into the weight buffer (both tables zero from entry
    /// `live` on); with `with_round`, also the next round's message.
    pub(crate) fn fold_first(
        table: &[Gf128],
        mut w: ScratchVec,
        live: usize,
        r: Gf128,
        with_round: bool,
    ) -> (PairTable, Option<QuadraticRound>) {
        assert_eq!(table.len(), w.len(), "tables must have equal length");
        let r = r.to_bits();
        let round_ok = with_round && table.len() >= 4;
        // Chunks past `live` fold zeros into zeros: left as they are, so
        // that the pages of `w`'s zero tail are never touched.
        let sums = if w.len() <= 2 * TASK {
            let mut s = RoundSums::new();
            fold_first_chunk(table, &mut w, r, round_ok.then_some(&mut s));
            s
        } else {
            let live_chunks = (live.div_ceil(2 * TASK) * 2 * TASK).min(w.len());
            table[..live_chunks]
                .par_chunks(2 * TASK)
                .zip(w[..live_chunks].par_chunks_mut(2 * TASK))
                .fold(RoundSums::new, |mut s, (t, fw)| {
                    fold_first_chunk(t, fw, r, round_ok.then_some(&mut s));
                    s
                })
                .reduce(RoundSums::new, RoundSums::merge)
        };
        let live = live_after_fold(live, 0);
        (PairTable { fw: w, live }, round_ok.then(|| sums.finish()))
    }

    /// Folds both tables in place with `r`; with `with_round`, also returns
    /// the next round's message.
    pub(crate) fn fold(&mut self, r: Gf128, with_round: bool) -> Option<QuadraticRound> {
        let half = self.len() / 2;
        let r = r.to_bits();
        self.live = live_after_fold(self.live, 0);
        let round_ok = with_round && half >= 2;
        let seed = half.min(SEED);
        let mut sums = RoundSums::new();
        let copy = self.fw[..4 * seed].to_vec();
        fold_pairs(&mut self.fw[..2 * seed], &copy, r, round_ok.then_some(&mut sums));
        let mut a = seed;
        while a < half {
            let b = (2 * a).min(half);
            let (left, right) = self.fw.split_at_mut(4 * a);
            let phase = fold_pairs_par(&mut left[2 * a..2 * b], &right[..4 * (b - a)], r, round_ok);
            sums = sums.merge(phase);
            a = b;
        }
        self.fw.truncate(2 * half);
        round_ok.then(|| sums.finish())
    }
}

/// One chunk of [`PairTable::fold_first`]: folds `t` (the message) and
/// `fw` (the weights, overwritten by the interleaved result) with `r`; when
/// `sums` is set, adds the products of the folded pairs. Never inlined (see
/// [`RoundSums::add`]).
#[inline(never)]
fn fold_first_chunk(t: &[Gf128], fw: &mut [Gf128], r: u128, mut sums: Option<&mut RoundSums>) {
    let mut diff = [0u128; 2 * CHUNK];
    for (tc, wc) in t.chunks(2 * CHUNK).zip(fw.chunks_mut(2 * CHUNK)) {
        let n = tc.len();
        for (d, (tp, wp)) in diff[..n]
            .chunks_exact_mut(2)
            .zip(tc.chunks_exact(2).zip(wc.chunks_exact(2)))
        {
            d[0] = (tp[0] + tp[1]).to_bits();
            d[1] = (wp[0] + wp[1]).to_bits();
        }
        backend::scale_slice(&mut diff[..n], r);
        for ((d, tp), wp) in diff[..n]
            .chunks_exact(2)
            .zip(tc.chunks_exact(2))
            .zip(wc.chunks_exact_mut(2))
        {
            let w0 = wp[0];
            wp[0] = tp[0] + Gf128::new(d[0]);
            wp[1] = w0 + Gf128::new(d[1]);
        }
        if let Some(s) = sums.as_deref_mut() {
            s.add_interleaved(wc);
        }
    }
}

/// `dst[2k + c] = src[4k + c] + r (src[4k + c] + src[4k + 2 + c])` for `c` in
/// {0, 1}: one fold of an interleaved pair table; when `sums` is set, adds the
/// products of the folded pairs. Never inlined (see [`RoundSums::add`]).
#[inline(never)]
fn fold_pairs(dst: &mut [Gf128], src: &[Gf128], r: u128, mut sums: Option<&mut RoundSums>) {
    debug_assert_eq!(2 * dst.len(), src.len());
    let mut diff = [0u128; 2 * CHUNK];
    for (d, s) in dst.chunks_mut(2 * CHUNK).zip(src.chunks(4 * CHUNK)) {
        let n = d.len();
        for (dk, q) in diff[..n].chunks_exact_mut(2).zip(s.chunks_exact(4)) {
            dk[0] = (q[0] + q[2]).to_bits();
            dk[1] = (q[1] + q[3]).to_bits();
        }
        backend::scale_slice(&mut diff[..n], r);
        for ((o, q), dk) in d
            .chunks_exact_mut(2)
            .zip(s.chunks_exact(4))
            .zip(diff[..n].chunks_exact(2))
        {
            o[0] = q[0] + Gf128::new(dk[0]);
            o[1] = q[1] + Gf128::new(dk[1]);
        }
        if let Some(s) = sums.as_deref_mut() {
            s.add_interleaved(d);
        }
    }
}

/// `out[2j] = f0[j] + r (f0[j] + f1[j])`, `out[2j + 1]` the same of `w`:
/// a fold at a high variable, interleaving `f` and `w`, in one pass
/// ([`backend::fold_interleaving`]; before, a sum into a buffer, a scaling
/// pass and a sum again: 3.7% of a 2^14 SHA-256 proof's samples on one
/// Zen 5 thread, with the buffer's clearing).
fn fold_halves_interleaving(
    out: &mut [Gf128],
    f0: &[Gf128],
    f1: &[Gf128],
    w0: &[Gf128],
    w1: &[Gf128],
    r: u128,
) {
    let halves = [f0, f1, w0, w1].map(Gf128::as_u128_slice);
    backend::fold_interleaving(Gf128::as_u128_slice_mut(out), halves, r);
}

/// `out[e] = lo[e] + r (lo[e] + hi[e])`: a fold of an interleaved pair
/// table at a high variable, in one pass ([`backend::fold`]).
fn fold_halves(out: &mut [Gf128], lo: &[Gf128], hi: &[Gf128], r: u128) {
    let (lo, hi) = (Gf128::as_u128_slice(lo), Gf128::as_u128_slice(hi));
    backend::fold(Gf128::as_u128_slice_mut(out), lo, hi, r);
}

/// `lo[e] = lo[e] + r (lo[e] + hi[e])`: [`fold_halves`] written over its
/// low half, a chunk at a time from a copy on the stack. Never inlined (see
/// [`RoundSums::add`]).
#[inline(never)]
fn fold_halves_in_place(lo: &mut [Gf128], hi: &[Gf128], r: u128) {
    let mut copy = [0u128; CHUNK];
    for (l, h) in lo.chunks_mut(CHUNK).zip(hi.chunks(CHUNK)) {
        let c = &mut copy[..l.len()];
        c.copy_from_slice(Gf128::as_u128_slice(l));
        backend::fold(Gf128::as_u128_slice_mut(l), c, Gf128::as_u128_slice(h), r);
    }
}

/// `dst = src` on rayon's threads.
fn copy_par(dst: &mut [Gf128], src: &[Gf128]) {
    dst.par_chunks_mut(2 * TASK)
        .zip(src.par_chunks(2 * TASK))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// Writes a fold at a high variable `v` into `out`, a piece at a time:
/// `fold_piece(piece, at)` writes the `piece` of `out` that starts at entry
/// `at` (never across a `block`, the interleaved entries of `2^v`
/// positions). Pieces from entry `live` on fold zeros and add nothing to the
/// round: below `stale` they still hold input data of an in-place fold and
/// are cleared, from `stale` on they are zero already (a zero tail that
/// stays untouched, [`scratch::take_field_zero_past`]). With `with_round`,
/// and while `out` holds two blocks or more, it also returns the sums of
/// the round binding variable `v` of the folded tables: that round pairs
/// the same entries of blocks `2k` and `2k + 1`, so those two are folded
/// side by side, piece by piece, and each pair of pieces is summed while it
/// is in cache (before, a separate pass over the folded tables: 10 ms of a
/// BLAKE3 proof's 2^22 entries on one Zen 5 thread).
fn fold_high(
    out: &mut [Gf128],
    block: usize,
    live: usize,
    stale: usize,
    with_round: bool,
    fold_piece: impl Fn(&mut [Gf128], usize) + Sync,
) -> Option<RoundSums> {
    let piece = block.min(2 * TASK);
    let fold_live = |o: &mut [Gf128], at: usize| {
        if at < live {
            fold_piece(o, at);
        } else if at < stale {
            o.fill(Gf128::ZERO);
        }
    };
    if !with_round || out.len() < 2 * block {
        out.par_chunks_mut(piece)
            .enumerate()
            .for_each(|(i, o)| fold_live(o, i * piece));
        return None;
    }
    let sums = out
        .par_chunks_mut(2 * block)
        .enumerate()
        .flat_map(|(k, pair)| {
            let (lo, hi) = pair.split_at_mut(block);
            let at = 2 * k * block;
            lo.par_chunks_mut(piece)
                .zip(hi.par_chunks_mut(piece))
                .enumerate()
                .map(move |(i, (lo, hi))| (at + i * piece, lo, hi))
        })
        .fold(RoundSums::new, |mut s, (at, lo, hi)| {
            fold_live(lo, at);
            fold_live(hi, at + block);
            if at < live {
                s.add_interleaved_halves(lo, hi);
            }
            s
        })
        .reduce(RoundSums::new, RoundSums::merge);
    Some(sums)
}

/// The first fold binding variable `v` of two tables, zero from entry
/// `live` on, written interleaved over `buf`, one of them: output block `k`
/// (`2^(v + 1)` interleaved entries) takes exactly the place of input
/// block `k` of `buf`, so each block (a pair of blocks with `with_round`,
/// or a run of small ones up to [`SPAN`] entries) is copied aside, and
/// `fold(piece, [x0, x1], [i0, i1])` writes each output piece from the
/// copy's entries of `buf` at the pairs' two halves, `x0` and `x1`, and the
/// other table's at entries `i0` and `i1` (as many). The blocks folded from
/// zeros are left as they are, zero. Returns the live length of the folded
/// tables and, with `with_round`, the next round, binding variable `v`
/// ([`fold_high`]). The copy is the one pass more, over `buf`'s live part.
fn fold_first_over_buffer(
    buf: &mut ScratchVec,
    live: usize,
    v: usize,
    with_round: bool,
    fold: impl Fn(&mut [Gf128], [&[Gf128]; 2], [usize; 2]) + Sync,
) -> (usize, Option<QuadraticRound>) {
    let h = 1usize << v;
    // Entries of an input block of each table, and of an output block.
    let block = 2 * h;
    assert!(
        block <= buf.len(),
        "variable {v} of a table of {} entries",
        buf.len()
    );
    let live_in = live.min(buf.len());
    let live = live_after_fold(live_in, v);
    // The output's live part: whole blocks, past `live_in` where that ends
    // inside a block.
    let out_live = 2 * live;
    buf.wrote_below(out_live);
    let round_ok = with_round && buf.len() >= 2 * block;
    let group = if round_ok { 2 * block } else { block };
    debug_assert!(buf.len().is_multiple_of(group), "whole blocks (pairs)");
    let span = group * (SPAN / group).max(1);
    let mut copy = scratch::take_field(span.min(out_live));
    let mut sums = RoundSums::new();
    for (s, out) in buf.chunks_mut(span).enumerate() {
        let base = s * span;
        // From here on input and output blocks are zero.
        if base >= out_live {
            break;
        }
        // The part of `buf` the live output blocks read: whole blocks, of
        // which it may be nonzero below `live_in` only.
        let need = out.len().min(out_live - base);
        let keep = need.min(live_in - base);
        let c = &mut copy[..need];
        copy_par(&mut c[..keep], &out[..keep]);
        scratch::clear(&mut c[keep..]);
        let c = &*c;
        let folded = fold_high(out, block, out_live - base, 0, round_ok, |o, at| {
            let (b, j, n) = (at / block * block, at % block / 2, o.len() / 2);
            let halves = [&c[b + j..][..n], &c[b + h + j..][..n]];
            fold(o, halves, [base + b + j, base + b + h + j]);
        });
        if let Some(p) = folded {
            sums = sums.merge(p);
        }
    }
    scratch::recycle_field(copy);
    (live, round_ok.then(|| sums.finish()))
}

/// The first phase of [`PairTable::fold_at`] at a high variable, in place:
/// `front` is input block 0 (`2 h` interleaved entries), or blocks 0 and 1
/// (`4 h`), folded into output block 0 (and 1). Output block 0 is written
/// over the low half of input block 0, each piece from itself and the high
/// half's ([`fold_halves_in_place`]); output block 1 then over that high
/// half, from input block 1. Pieces at the same offset of the two output
/// blocks go together: the high half's piece is read for block 0 before it
/// is written for block 1, and the pair is summed for the next round
/// (with `with_round`; the sums are zero otherwise, as for one block).
/// `live` and `stale` as in [`fold_high`].
fn fold_front(
    front: &mut [Gf128],
    h: usize,
    live: usize,
    stale: usize,
    with_round: bool,
    r: u128,
) -> RoundSums {
    let piece = h.min(2 * TASK);
    let fold0 = |o: &mut [Gf128], hi: &[Gf128], at: usize| {
        if at < live {
            fold_halves_in_place(o, hi, r);
        } else if at < stale {
            o.fill(Gf128::ZERO);
        }
    };
    if front.len() == 2 * h {
        let (lo, hi) = front.split_at_mut(h);
        lo.par_chunks_mut(piece)
            .zip(hi.par_chunks(piece))
            .enumerate()
            .for_each(|(i, (o, hi))| fold0(o, hi, i * piece));
        return RoundSums::new();
    }
    debug_assert_eq!(front.len(), 4 * h);
    let (q01, q23) = front.split_at_mut(2 * h);
    let (q0, q1) = q01.split_at_mut(h);
    let (q2, q3) = q23.split_at(h);
    q0.par_chunks_mut(piece)
        .zip(q1.par_chunks_mut(piece))
        .zip(q2.par_chunks(piece).zip(q3.par_chunks(piece)))
        .enumerate()
        .fold(RoundSums::new, |mut s, (i, ((o0, o1), (i2, i3)))| {
            let at = i * piece;
            fold0(o0, o1, at);
            if h + at < live {
                fold_halves(o1, i2, i3, r);
            } else if h + at < stale {
                o1.fill(Gf128::ZERO);
            }
            if with_round && at < live {
                s.add_interleaved_halves(o0, o1);
            }
            s
        })
        .reduce(RoundSums::new, RoundSums::merge)
}

/// [`fold_pairs`] split into rayon tasks.
fn fold_pairs_par(dst: &mut [Gf128], src: &[Gf128], r: u128, with_round: bool) -> RoundSums {
    if dst.len() <= 2 * TASK {
        let mut s = RoundSums::new();
        fold_pairs(dst, src, r, with_round.then_some(&mut s));
        return s;
    }
    dst.par_chunks_mut(2 * TASK)
        .zip(src.par_chunks(4 * TASK))
        .fold(RoundSums::new, |mut s, (d, sc)| {
            fold_pairs(d, sc, r, with_round.then_some(&mut s));
            s
        })
        .reduce(RoundSums::new, RoundSums::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_poly::multilinear::fold_lowest;
    use starling_poly::sumcheck_round::product_round as reference_round;

    fn table(n: usize, seed: u128) -> Vec<Gf128> {
        (0..n as u128)
            .map(|i| Gf128::new((i + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
            .collect()
    }

    #[test]
    fn batched_kernels_match_reference() {
        let (r, r2) = (
            Gf128::new(0x1234_5678_9abc_def0_0fed_cba9),
            Gf128::new(0x77 << 90 | 5),
        );
        for n in [2usize, 4, 8, 512, 1024, 2048 + 2, 1 << 15, 1 << 17] {
            let (f, w) = (table(n, 1), table(n, 7));
            assert_eq!(product_round(&f, &w), reference_round(&f, &w), "n = {n}");
            if !n.is_power_of_two() {
                continue;
            }
            let (ff, wf) = (fold_lowest(&f, r), fold_lowest(&w, r));
            let want = (ff.len() >= 2).then(|| reference_round(&ff, &wf));
            let (mut p, round) = PairTable::fold_first(&f, w.clone().into(), n, r, true);
            assert_eq!(round, want, "n = {n}");
            assert_eq!((p.message(), p.len()), (ff.clone(), ff.len()));
            if ff.len() >= 2 {
                assert_eq!(p.round(), reference_round(&ff, &wf), "n = {n}");
                let (fff, wff) = (fold_lowest(&ff, r2), fold_lowest(&wf, r2));
                let want = (fff.len() >= 2).then(|| reference_round(&fff, &wff));
                let mut q = p.clone();
                assert_eq!(q.fold(r2, false), None);
                assert_eq!(p.fold(r2, true), want, "n = {n}");
                assert_eq!(p, q);
                assert_eq!(p.message(), fff);
                let ones = vec![Gf128::ONE; p.len()];
                p.add_to_weights(&ones);
                let w_plus: Vec<Gf128> = wff.iter().map(|x| *x + Gf128::ONE).collect();
                if fff.len() >= 2 {
                    assert_eq!(p.round(), reference_round(&fff, &w_plus), "n = {n}");
                }
            }
        }
    }

    /// `t` with variable `v` moved to position 0 (the others keep their order).
    fn lowest_first(t: &[Gf128], v: usize) -> Vec<Gf128> {
        let h = 1usize << v;
        let mut out = Vec::with_capacity(t.len());
        for block in t.chunks(2 * h) {
            for j in 0..h {
                out.extend([block[j], block[h + j]]);
            }
        }
        out
    }

    #[test]
    fn rounds_and_folds_at_a_high_variable_match_reference() {
        let (r, r2) = (Gf128::new(0xdead_beef << 70 | 3), Gf128::new(0x5555_1234_9876));
        for log_n in [2usize, 5, 12, 15, 17] {
            let n = 1usize << log_n;
            let (f, w) = (table(n, 3), table(n, 11));
            for v in 1..log_n {
                let (fl, wl) = (lowest_first(&f, v), lowest_first(&w, v));
                assert_eq!(
                    product_round_at(&f, &w, v),
                    reference_round(&fl, &wl),
                    "n {n} v {v}"
                );
                let (ff, wf) = (fold_lowest(&fl, r), fold_lowest(&wl, r));
                let (mut p, next) = PairTable::fold_first_at(&f, w.clone().into(), n, r, v, true);
                let (plain, none) = PairTable::fold_first_at(&f, w.clone().into(), n, r, v, false);
                assert_eq!((&plain, none), (&p, None));
                assert_eq!(p.message(), ff, "n {n} v {v}");
                if v + 1 < log_n {
                    // The folded tables' variable v is the next one up.
                    let (fl, wl) = (lowest_first(&ff, v), lowest_first(&wf, v));
                    let want = reference_round(&fl, &wl);
                    assert_eq!(p.round_at(v), want, "n {n} v {v}");
                    assert_eq!(next, Some(want), "n {n} v {v}");
                    let (ff2, wf2) = (fold_lowest(&fl, r2), fold_lowest(&wl, r2));
                    let mut plain = p.clone();
                    assert_eq!(plain.fold_at(r2, v, false), None);
                    let next = p.fold_at(r2, v, true);
                    assert_eq!(p, plain);
                    assert_eq!(p.message(), ff2, "n {n} v {v}");
                    assert_eq!(p.fw.iter().skip(1).step_by(2).copied().collect::<Vec<_>>(), wf2);
                    // A round at v is left while the twice-folded tables
                    // still have variable v.
                    let want = (v + 2 < log_n)
                        .then(|| reference_round(&lowest_first(&ff2, v), &lowest_first(&wf2, v)));
                    assert_eq!(next, want, "n {n} v {v}");
                } else {
                    assert_eq!(next, None);
                }
            }
        }
    }

    #[test]
    fn folds_of_tables_with_a_zero_tail_skip_it_and_match() {
        // Tables zero from `live` on, folded at a high variable three times
        // (level 0's rows): told the live length, or not, the folds and
        // rounds agree, and each fold's live length bounds its nonzeros.
        let (log_n, v) = (15usize, 11usize);
        let n = 1usize << log_n;
        let rs = [
            Gf128::new(0xabc << 80 | 9),
            Gf128::new(0x31 << 40 | 1),
            Gf128::new(77),
        ];
        // Whole rows of 2^v, a ragged row, one row, a few entries.
        for live in [n, 11 << v, (11 << v) + 5, 1 << v, 3] {
            let (mut f, mut w) = (table(n, 5), table(n, 13));
            f[live..].fill(Gf128::ZERO);
            w[live..].fill(Gf128::ZERO);
            let (mut told, round) = PairTable::fold_first_at(&f, w.clone().into(), live, rs[0], v, true);
            let (mut blind, want) = PairTable::fold_first_at(&f, w.clone().into(), n, rs[0], v, true);
            assert_eq!((&told.fw, round), (&blind.fw, want), "live {live}");
            assert!(live == n || told.live < n / 2, "live {live}: {}", told.live);
            for &r in &rs[1..] {
                let round = told.fold_at(r, v, true);
                assert_eq!(round, blind.fold_at(r, v, true), "live {live}");
                assert_eq!(told.fw, blind.fw, "live {live}");
                assert!(
                    told.fw[2 * told.live..].iter().all(|x| x.is_zero()),
                    "live {live}"
                );
            }
        }
    }

    /// The fold at variable `v` of a table, as `starling_poly` computes it.
    fn fold_at_reference(t: &[Gf128], r: Gf128, v: usize) -> Vec<Gf128> {
        fold_lowest(&lowest_first(t, v), r)
    }

    /// Checks `p` against the tables `f`, `w`: same entries, a live part
    /// that bounds their nonzeros, and zeros in the pair table past it.
    fn assert_pair_table(p: &PairTable, f: &[Gf128], w: &[Gf128], live: usize, at: &str) {
        assert_eq!(p.message(), f, "{at}: message");
        let weights: Vec<Gf128> = p.fw.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(weights, w, "{at}: weights");
        assert_eq!(p.live, live, "{at}: live");
        assert!(
            p.fw[2 * p.live.min(p.len())..].iter().all(|x| x.is_zero()),
            "{at}: zero past live"
        );
    }

    #[test]
    fn in_place_folds_at_a_high_variable_match_reference_and_keep_zero_tails() {
        // Tables zero from `live` on (`w` in a pooled buffer with that zero
        // tail), folded at variable `v` until it is the top one: each fold,
        // with or without its fused round, gives the reference's tables and
        // round, and leaves zeros past its live part, also where its input
        // had data; the buffer goes back to the pool with its zero tail
        // known.
        let rs = [
            Gf128::new(0x0f0f << 96 | 0x1234_5678),
            Gf128::new(0x3 << 64 | 0xffff),
            Gf128::new(0x77_7777),
        ];
        // Blocks of one piece or less, of several pieces, and (v = 15) of
        // pairs larger than `SPAN`.
        for (log_n, v) in [
            (5usize, 2usize),
            (13, 3),
            (17, 1),
            (17, 6),
            (17, 12),
            (17, 14),
            (18, 15),
        ] {
            let (n, row) = (1usize << log_n, 1usize << v);
            let mut lives = vec![
                n,
                n - 3,
                n / 2 + row + 1,
                5 * row,
                5 * row + 7,
                6 * row,
                row,
                7,
                1,
                0,
            ];
            lives.retain(|&l| l <= n);
            lives.dedup();
            for live in lives {
                for with_round in [false, true] {
                    let (mut f, mut w) = (table(n, 17), table(n, 23));
                    f[live..].fill(Gf128::ZERO);
                    w[live..].fill(Gf128::ZERO);
                    let mut buf = scratch::take_field_zero_past(n, live);
                    buf[..live].copy_from_slice(&w[..live]);
                    let (mut p, mut next) = PairTable::fold_first_at(&f, buf, live, rs[0], v, with_round);
                    let (mut f, mut w) = (fold_at_reference(&f, rs[0], v), fold_at_reference(&w, rs[0], v));
                    let mut live = live_after_fold(live, v);
                    for i in 1.. {
                        let at = format!("n {n} v {v} live {live} round {with_round} fold {i}");
                        assert_pair_table(&p, &f, &w, live, &at);
                        assert!(f[live.min(f.len())..].iter().all(|x| x.is_zero()), "{at}");
                        assert!(w[live.min(w.len())..].iter().all(|x| x.is_zero()), "{at}");
                        let more = f.len() >= 2 << v;
                        let want = (with_round && more)
                            .then(|| reference_round(&lowest_first(&f, v), &lowest_first(&w, v)));
                        assert_eq!(next, want, "{at}: round");
                        if !more {
                            break;
                        }
                        let r = rs[i % rs.len()];
                        next = p.fold_at(r, v, with_round);
                        (f, w) = (fold_at_reference(&f, r, v), fold_at_reference(&w, r, v));
                        live = live_after_fold(live, v);
                    }
                    drop(p);
                    // A buffer lent again with no live part is all zero
                    // (whichever buffer the pool, shared with other tests,
                    // lends: this one if no other test took it).
                    let again = scratch::take_field_zero_past(n, 0);
                    assert!(again.iter().all(|x| x.is_zero()), "n {n} v {v}: pooled tail");
                    scratch::recycle_field(again);
                }
            }
        }
    }
}
