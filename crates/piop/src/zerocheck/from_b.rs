//! The zerocheck holding `b` and not `a`, where the circuit's `A` rows are
//! its `B` rows, some complemented ([`AFromB`]; Keccak-f's χ rows).
//!
//! Over the bits, row `w` of `a` is row `s` of `b`, or its complement, or a
//! stored row: the bit passes (skip, round 0) read `a`'s words a chunk at a
//! time ([`ReadA::fill`]). Every fold is affine, so after `t` folds of the
//! instance variables (wire `w`'s entries stay its own, a row of
//! `words_per_wire / 2^t`) row `w` of `A_t` is row `s` of `B_t`, plus, where
//! complemented, the folds of the all-ones word: a constant, the weighing of
//! that word (`c1`). So `b` alone is folded, in place, and each round reads
//! `A_t` out of it. Once two tables fit in the part of `b`'s buffer the
//! live words took (Keccak-f: after round 2), `A_t` is written out beside
//! `B_t` there, over stale entries whose pages are resident already, and
//! the rounds go on as with two tables.
//!
//! The prover holds `b`, the stored rows (Keccak-f: 1,601 of 40,001 used
//! wires) and a chunk per thread, where it held `a` and `b`. The messages
//! are the same, so the proof is.

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::{backend, Gf128, Gf128Slices};
use starling_verifier::circuit::a_from_b::{AFromB, ARow};

use super::prover::{
    add_sums, clear, round_by_blocks, round_from_bits, rounds_from, sumcheck, words_of, ABits, Sent,
    Sumcheck, IN_PLACE_SEED, LEAF_ITEMS, SUB_WORDS,
};
use super::GruenRound;
use crate::cover::Cover;
use crate::kernels::{portable, Kernels, WordWeights};
use crate::skip::SKIP_SIZE;
use crate::Shape;

/// Entries per task of a fold or a write of `A_t`.
const PIECE: usize = 1 << 12;

/// `a`'s entries (words, or field entries after folds) read out of `b`
/// and the stored rows, `per_wire` entries a wire.
#[derive(Clone, Copy)]
pub(crate) struct ReadA<'a, T> {
    rule: &'a AFromB,
    b: &'a [T],
    stored: &'a [T],
    per_wire: usize,
    /// What a complement adds: the all-ones word, or its fold.
    ones: T,
}

impl<'a> ReadA<'a, u64> {
    /// The words of `a`, from `b`'s words and the stored rows'.
    pub(crate) fn bits(rule: &'a AFromB, b: &'a [u64], stored: &'a [u64], words_per_wire: usize) -> Self {
        ReadA {
            rule,
            b,
            stored,
            per_wire: words_per_wire,
            ones: u64::MAX,
        }
    }
}

impl<T: Copy + Default + core::ops::BitXor<Output = T>> ReadA<'_, T> {
    /// Entries `start .. start + out.len()` of `a`.
    pub(crate) fn fill(&self, start: usize, out: &mut [T]) {
        let pw = self.per_wire;
        let (mut at, mut rest) = (start, out);
        while !rest.is_empty() {
            let (w, off) = (at / pw, at % pw);
            let n = (pw - off).min(rest.len());
            let (run, more) = rest.split_at_mut(n);
            match self.rule.row(w) {
                ARow::Zero => run.fill(T::default()),
                ARow::Like(s) => run.copy_from_slice(&self.b[s as usize * pw + off..][..n]),
                ARow::Complement(s) => {
                    for (o, &x) in run.iter_mut().zip(&self.b[s as usize * pw + off..][..n]) {
                        *o = x ^ self.ones;
                    }
                }
                ARow::Stored(i) => run.copy_from_slice(&self.stored[i as usize * pw + off..][..n]),
            }
            (at, rest) = (at + n, more);
        }
    }
}

/// `dst[i] = src[2i] + r (src[2i] + src[2i + 1])`, with `diff` as long as `dst`.
fn fold_pairs(dst: &mut [u128], src: &[u128], r: u128, diff: &mut [u128]) {
    let diff = &mut diff[..dst.len()];
    for (d, p) in diff.iter_mut().zip(src.chunks_exact(2)) {
        *d = p[0] ^ p[1];
    }
    backend::scale_slice(diff, r);
    for ((o, p), d) in dst.iter_mut().zip(src.chunks_exact(2)).zip(diff.iter()) {
        *o = p[0] ^ *d;
    }
}

/// Weighs the words of `v` below `live` and folds each pair at `r` into
/// the entry that held them. Returns the live entries.
fn fold_bits(kernels: Kernels, w: &WordWeights, v: &mut [u128], live: usize, r: u128) -> usize {
    let out_live = live.div_ceil(2).min(v.len());
    v[..out_live]
        .par_chunks_mut(SUB_WORDS / 2)
        .with_max_len(LEAF_ITEMS)
        .for_each_init(
            || (vec![0u128; SUB_WORDS], vec![0u128; SUB_WORDS / 2]),
            |(weighed, diff), chunk| {
                let n = 2 * chunk.len();
                kernels.weigh_words(w, words_of(chunk), &mut weighed[..n]);
                fold_pairs(chunk, &weighed[..n], r, diff);
            },
        );
    out_live
}

/// Folds the field vector `v` (zero from `live` on) at `r` in place into
/// its first half, in doubling phases as `fold_field_in_place`; the
/// entries past the new live length are cleared. Returns that length.
fn fold_field(v: &mut [u128], live: usize, r: u128) -> usize {
    let out_live = live.div_ceil(2).min(v.len() / 2);
    let seed = IN_PLACE_SEED.min(out_live);
    let copy = v[..2 * seed].to_vec();
    fold_pairs(&mut v[..seed], &copy, r, &mut vec![0u128; seed]);
    let mut start = seed;
    while start < out_live {
        let end = (2 * start).min(out_live);
        let (lo, hi) = v.split_at_mut(2 * start);
        lo[start..end]
            .par_chunks_mut(PIECE)
            .zip(hi[..2 * (end - start)].par_chunks(2 * PIECE))
            .for_each_init(|| vec![0u128; PIECE], |diff, (d, s)| fold_pairs(d, s, r, diff));
        start = end;
    }
    let stale = out_live..live.clamp(out_live, v.len());
    clear(&mut v[stale]);
    out_live
}

/// Where a round reads `A_t`'s block: a table, or out of `b`.
enum ABlock<'a> {
    Table(&'a [u128]),
    Read(ReadA<'a, u128>),
}

/// The round of `A_t`, `b` (the tables of round `t`, zero from `live` on)
/// over `tau_rest`, as `round_from_bits` computes it from the words.
fn round_of(kernels: Kernels, a: ABlock<'_>, b: &[u128], live: usize, tau_rest: &[Gf128]) -> GruenRound {
    round_by_blocks(b, live, tau_rest, Vec::new, |buf, h, cb, e_lo| {
        let block = cb.len();
        let ca: &[u128] = match &a {
            ABlock::Table(a) => &a[h * block..][..block],
            ABlock::Read(read) => {
                buf.resize(block, 0);
                read.fill(h * block, buf);
                buf
            }
        };
        let mut sums = (Gf128::ZERO, Gf128::ZERO);
        for ((ga, gb), el) in ca
            .chunks(SUB_WORDS)
            .zip(cb.chunks(SUB_WORDS))
            .zip(e_lo.chunks(SUB_WORDS / 2))
        {
            let (s0, s2) = kernels.round_field(ga, gb, el);
            sums = add_sums(sums, (Gf128::new(s0), Gf128::new(s2)));
        }
        sums
    })
}

/// The zerocheck's `a` as `b`'s rows and the stored ones (`stored`, rows
/// of `words_per_wire` words while they are bits).
pub(crate) struct FromB<'a> {
    pub(crate) rule: &'a AFromB,
    pub(crate) stored: &'a mut [u128],
    pub(crate) words_per_wire: usize,
}

/// The round after which `A_t` is written out, for tables of `len` field
/// entries of which `live_entries` hold the live words, `words_per_wire`
/// words a wire, in `rounds` rounds: the first `t >= 2` whose two tables
/// fit in the part of `b`'s buffer the live words took (`2 len_t <=
/// live_entries`, with `len_t = len / 2^(t-1)`), while every wire keeps an
/// entry of its own (`t <= log2(words_per_wire)`) and two rounds are left
/// after it. None where there is no such round.
fn written_after(len: usize, live_entries: usize, words_per_wire: usize, rounds: usize) -> Option<usize> {
    let most = (words_per_wire.trailing_zeros() as usize).min(rounds.saturating_sub(1));
    (2..=most).find(|&t| (len >> (t - 2)) <= live_entries.max(1) && (len >> (t - 1)) >= 4)
}

/// Whether [`super::prove_in_place_from_b`] holds `b` alone for a batch of
/// `shape` whose words are zero from `live` on; otherwise (small batches)
/// it writes `a` out whole, as a second table.
pub fn reads_a_from_b(shape: Shape, live: usize) -> bool {
    let len = shape.num_words() / 2;
    written_after(len, live.div_ceil(2), shape.words_per_wire(), shape.word_vars()).is_some()
}

impl FromB<'_> {
    /// The sumcheck over the word variables, as [`sumcheck`] computes it
    /// from `a` and `b` (`b` holds two words per entry, zero from word
    /// `live` on, and is folded in place). Where the tables are too small
    /// for the rounds above, or the last round is masked, `a` is written
    /// out whole and [`sumcheck`] runs.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn sumcheck(
        self,
        kernels: Kernels,
        b: &mut [u128],
        live: usize,
        lagrange: &[Gf128; SKIP_SIZE],
        tau: &[Gf128],
        transcript: &mut Transcript,
        cover: &mut dyn Cover,
        masks: Option<[Gf128; 2]>,
    ) -> Sumcheck {
        let m = tau.len();
        let len = b.len();
        let written_after = written_after(len, live.div_ceil(2), self.words_per_wire, m);
        let Some(t_out) = written_after.filter(|_| masks.is_none()) else {
            let mut a = vec![Gf128::ZERO; len];
            ReadA::bits(self.rule, words_of(b), words_of(self.stored), self.words_per_wire)
                .fill(0, Gf128::as_u64_words_mut(&mut a));
            let a = Gf128::as_u128_slice_mut(&mut a);
            return sumcheck(kernels, a, b, live, lagrange, tau, transcript, cover, masks);
        };
        let weighing = WordWeights::new(&kernels, lagrange);
        let mut out = Sent::new(transcript, cover, m);
        let read_bits = ReadA::bits(self.rule, words_of(b), words_of(self.stored), self.words_per_wire);
        let round = round_from_bits(
            kernels,
            &weighing,
            ABits::FromB(read_bits),
            words_of(b),
            live,
            &tau[1..],
        );
        let mut r = out.round(round).to_bits();
        // Round 0's fold turns the words into field entries, two words to one.
        let stored_words = 2 * self.stored.len();
        let mut live = fold_bits(kernels, &weighing, b, live, r);
        fold_bits(kernels, &weighing, self.stored, stored_words, r);
        let ones = portable::weigh(&weighing.tables, u64::MAX);
        // After round `t`'s fold: the entries of `B_t`, of the stored rows,
        // and a wire's.
        let lens = |t: usize| {
            (
                len >> (t - 1),
                (stored_words / 2) >> (t - 1),
                self.words_per_wire >> t,
            )
        };
        for t in 1..t_out {
            let (tables, stored, per_wire) = lens(t);
            let read = ReadA {
                rule: self.rule,
                b: &b[..tables],
                stored: &self.stored[..stored],
                per_wire,
                ones,
            };
            let round = round_of(kernels, ABlock::Read(read), &b[..tables], live, &tau[t + 1..]);
            r = out.round(round).to_bits();
            live = fold_field(&mut b[..tables], live, r);
            fold_field(&mut self.stored[..stored], stored, r);
        }
        // `A_t` into the half of its own past `B_t`: stale entries of the
        // tables before, zero past `A_t`'s live part as it is written.
        let (tables, stored, per_wire) = lens(t_out);
        let (bt, rest) = b.split_at_mut(tables);
        let at = &mut rest[..tables];
        let read_a = ReadA {
            rule: self.rule,
            b: bt,
            stored: &self.stored[..stored],
            per_wire,
            ones,
        };
        at.par_chunks_mut(PIECE)
            .enumerate()
            .for_each(|(i, chunk)| read_a.fill(i * PIECE, chunk));
        let round = round_of(kernels, ABlock::Table(at), bt, live, &tau[t_out + 1..]);
        rounds_from(kernels, at, bt, live, round, t_out, tau, out, None)
    }
}
