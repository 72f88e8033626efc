//! The prover's side of the opening sumcheck `sum_x f(x) w(x)`: degree-2
//! rounds and folds of the two tables, batched and parallel. Level 0 binds
//! its rows, the table's top variables, one after another: each of those
//! rounds pairs the halves `x`, `x + 2^v` of blocks of `2^(v + 1)` entries
//! and folds out of place (the `_at` functions); every later round binds the
//! lowest variable, in place.
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
//! folds from a copy.

use rayon::prelude::*;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128Slices;
use starling_field::{backend, Gf128};
use starling_poly::sumcheck_round::QuadraticRound;

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
    /// into a new buffer (`w`'s goes back to `starling_field::scratch`); the
    /// blocks folded from zeros are cleared, not computed. For `v = 0` this
    /// is [`PairTable::fold_first`]. With `with_round`, also returns the
    /// next round, binding variable `v` of the folded tables ([`fold_high`]).
    pub(crate) fn fold_first_at(
        table: &[Gf128],
        w: ScratchVec,
        live: usize,
        r: Gf128,
        v: usize,
        with_round: bool,
    ) -> (PairTable, Option<QuadraticRound>) {
        if v == 0 {
            return Self::fold_first(table, w, live, r, with_round);
        }
        assert_eq!(table.len(), w.len(), "tables must have equal length");
        let (h, r) = (1usize << v, r.to_bits());
        let live = live_after_fold(live, v);
        // Every entry below `2 live` is written below; the rest is zero.
        let mut fw = scratch::take_field_zero_past(table.len(), 2 * live);
        // Output block `k` (2h interleaved entries) is input block `k` (2h
        // entries of each table) folded.
        let round = fold_high(&mut fw, 2 * h, 2 * live, with_round, |o, at| {
            let (base, j, n) = (at / (2 * h) * 2 * h, at % (2 * h) / 2, o.len() / 2);
            let (f0, f1) = (&table[base + j..][..n], &table[base + h + j..][..n]);
            let (w0, w1) = (&w[base + j..][..n], &w[base + h + j..][..n]);
            fold_halves_interleaving(o, f0, f1, w0, w1, r);
        });
        scratch::recycle_field(w);
        (PairTable { fw, live }, round)
    }

    /// Folds both tables at variable `v` with `r`: in place for `v = 0`
    /// ([`PairTable::fold`]), into a new buffer half as long otherwise. With
    /// `with_round`, also returns the next round, binding variable `v` of the
    /// folded tables ([`fold_high`]).
    pub(crate) fn fold_at(&mut self, r: Gf128, v: usize, with_round: bool) -> Option<QuadraticRound> {
        if v == 0 {
            return self.fold(r, with_round);
        }
        let (h, r) = (2usize << v, r.to_bits());
        self.live = live_after_fold(self.live, v);
        // Every entry below `2 live` is written below; the rest is zero.
        let mut out = scratch::take_field_zero_past(self.fw.len() / 2, 2 * self.live);
        // Output block `k` (h interleaved entries) is input block `k` (2h)
        // folded.
        let fw = &self.fw;
        let round = fold_high(&mut out, h, 2 * self.live, with_round, |o, at| {
            let (base, e) = (at / h * 2 * h, at % h);
            fold_halves(o, &fw[base + e..][..o.len()], &fw[base + h + e..][..o.len()], r);
        });
        scratch::recycle_field(std::mem::replace(&mut self.fw, out));
        round
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

/// Writes a fold at a high variable `v` into `out`, a piece at a time:
/// `fold_piece(piece, at)` writes the `piece` of `out` that starts at entry
/// `at` (never across a `block`, the interleaved entries of `2^v`
/// positions). Pieces from entry `live` on fold zeros: `out` is zero there
/// already ([`scratch::take_field_zero_past`]), so they are skipped, and
/// add nothing to the round. With `with_round`, and while
/// `out` holds two blocks or more, it also returns the round binding
/// variable `v` of the folded tables:
/// that round pairs the same entries of blocks `2k` and `2k + 1`, so those
/// two are folded side by side, piece by piece, and each pair of pieces is
/// summed while it is in cache (before, a separate pass over the folded
/// tables: 10 ms of a BLAKE3 proof's 2^22 entries on one Zen 5 thread).
fn fold_high(
    out: &mut [Gf128],
    block: usize,
    live: usize,
    with_round: bool,
    fold_piece: impl Fn(&mut [Gf128], usize) + Sync,
) -> Option<QuadraticRound> {
    let piece = block.min(2 * TASK);
    let fold_live = |o: &mut [Gf128], at: usize| {
        if at < live {
            fold_piece(o, at);
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
    Some(sums.finish())
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
}
