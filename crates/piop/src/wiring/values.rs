//! The native verifier's weighing of the public values
//! ([`PublicRows`]): the prover's vector kernels, batches of instances on
//! rayon's threads.

use rayon::prelude::*;
use starling_field::{backend, Gf128};

use super::{EqLookup, Instances, PublicRows, Segment};

/// One instance's row of values, as [`Segment::fill`] lends it.
type Fill<'a> = &'a (dyn Fn(usize, &mut [u64]) + Sync + 'a);
use crate::kernels::{Kernels, WordWeights};

/// Weighs the public values as [`starling_verifier::piop::wiring::RowByRow`]
/// defines, with the prover's kernels on rayon's threads.
pub struct Weighed;

impl PublicRows for Weighed {
    fn weigh(&self, s: &Segment<'_>) -> Gf128 {
        segment_by_rows(s.fill, s.set, s.weights, s.words, s.first, s.segment)
    }
}

/// Instances weighed together: their rows are read once per word of the
/// run, so that word's weighing tables stay in cache for all of them.
const BATCH: usize = 256;

/// The per-instance values weighed row by row, for the wires of words
/// `first..` of rows of `words` words, whose weights are `segment`: a
/// row's `sum_j e[j] value(y, j)` is, word by word, the weighing of the
/// word by its 64 wire weights that the zerocheck prover runs too
/// ([`Kernels::weigh_words`]: byte tables of the subset sums (four
/// Russians), split-nibble shuffles on AVX2, affine products on GFNI), and
/// the rows are weighed by `eq(rho_y, y)` as the product of a weight of the
/// low half of the instance bits (one vector product per instance) and one
/// of the high half (one product per group of instances that share it,
/// however few of the group are in the set). Batches of [`BATCH`]
/// instances are weighed on rayon's threads (the verifier's one pass over
/// all the public data, 26 MB for 2^16 Keccak-f permutations), each job
/// with buffers of its own; the sum of their terms does not depend on how
/// they are split.
fn segment_by_rows(
    fill: Fill<'_>,
    set: &Instances,
    weights: &EqLookup,
    words: usize,
    first: usize,
    segment: &[Gf128],
) -> Gf128 {
    let kernels = Kernels::get();
    let tables: Vec<WordWeights> = segment
        .chunks(64)
        .map(|e| {
            let mut weights = [Gf128::ZERO; 64];
            weights[..e.len()].copy_from_slice(e);
            WordWeights::new(&kernels, &weights)
        })
        .collect();
    let members: Vec<usize> = set.members().collect();
    let weigh = SegmentWeighing {
        fill,
        kernels,
        tables: &tables,
        weights,
        words,
        first,
    };
    members
        .par_chunks(BATCH)
        .map_init(
            || RowBuffers::new(words, tables.len()),
            |buffers, batch| weigh.batch(buffers, batch),
        )
        .reduce(|| Gf128::ZERO, |a, b| a + b)
}

/// What [`segment_by_rows`] weighs every batch with.
struct SegmentWeighing<'a> {
    fill: Fill<'a>,
    kernels: Kernels,
    tables: &'a [WordWeights],
    weights: &'a EqLookup,
    words: usize,
    first: usize,
}

/// A batch's rows, one after another, then word `first + w` of each of
/// them at `w * BATCH..` (written column by column: a row's words
/// scattered `BATCH` words apart collided in the store buffer).
struct RowBuffers {
    rows: Vec<u64>,
    columns: Vec<u64>,
}

impl RowBuffers {
    fn new(words: usize, segment_words: usize) -> Self {
        RowBuffers {
            rows: vec![0u64; words * BATCH],
            columns: vec![0u64; segment_words * BATCH],
        }
    }
}

impl SegmentWeighing<'_> {
    /// The terms of the instances `batch` (increasing, at most [`BATCH`]).
    fn batch(&self, buffers: &mut RowBuffers, batch: &[usize]) -> Gf128 {
        let rows = batch.len();
        let (rows_buf, columns) = (&mut buffers.rows[..self.words * rows], &mut buffers.columns);
        rows_buf.fill(0);
        for (row, &y) in rows_buf.chunks_exact_mut(self.words).zip(batch) {
            (self.fill)(y, row);
        }
        for (w, column) in columns.chunks_exact_mut(BATCH).enumerate() {
            for (c, row) in column.iter_mut().zip(rows_buf.chunks_exact(self.words)) {
                *c = row[self.first + w];
            }
        }
        // Word by word, so that one word's tables serve every row before the
        // next are read.
        let (mut sums, mut weighed) = ([0u128; BATCH], [0u128; BATCH]);
        for (w, column) in self.tables.iter().zip(columns.chunks_exact(BATCH)) {
            self.kernels.weigh_words(w, &column[..rows], &mut weighed[..rows]);
            for (s, x) in sums[..rows].iter_mut().zip(&weighed[..rows]) {
                *s ^= x;
            }
        }
        let mut low_weights = [0u128; BATCH];
        for (low, &y) in low_weights.iter_mut().zip(batch) {
            *low = self.weights.low(y).to_bits();
        }
        // The instances of one group are weighed by their low weights
        // (vector products), the group by its high weight.
        let mut v = Gf128::ZERO;
        let mut start = 0;
        while start < rows {
            let group = self.weights.group(batch[start]);
            let end = start + batch[start..].partition_point(|&y| self.weights.group(y) == group);
            let acc = backend::dot(&sums[start..end], &low_weights[start..end]);
            v += self.weights.high(group) * Gf128::new(acc);
            start = end;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::wiring::{weigh_values, RowByRow, Values, WeightsAt, SEGMENT_WORDS};
    use starling_poly::multilinear::eq_table;
    use starling_verifier::piop::wiring::PublicRows;

    /// The native weighing and the definition against the double sum, term by term: runs of ragged
    /// lengths (inside a byte, a word, across words, past one segment of
    /// tables), ranges and sets that start and end inside groups and span
    /// several batches.
    #[test]
    fn per_instance_values_match_the_double_sum() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 10;
        let rho_y: Vec<Gf128> = (0..n).map(|_| Gf128::new(rng.gen())).collect();
        let eq_y = eq_table(&rho_y);
        for len in [1usize, 5, 8, 63, 64, 65, 130, 200, 64 * SEGMENT_WORDS + 77] {
            let words = len.div_ceil(64);
            let e: Vec<Gf128> = (0..len).map(|_| Gf128::new(rng.gen())).collect();
            let rows: Vec<u64> = (0..words << n).map(|_| rng.gen()).collect();
            // Bits past the run are set in `rows` and must be ignored.
            let fill = |y: usize, out: &mut [u64]| out.copy_from_slice(&rows[y * words..(y + 1) * words]);
            let mut set_bits = vec![0u64; (1 << n) / 64];
            for _ in 0..300 {
                let y = rng.gen_range(0..1 << n);
                set_bits[y / 64] |= 1 << (y % 64);
            }
            for set in [
                Instances::Range { start: 3, end: 1000 },
                Instances::single(77),
                Instances::Set(set_bits.into()),
            ] {
                let expected: Gf128 = set
                    .members()
                    .map(|y| {
                        let row_sum: Gf128 = (0..len)
                            .filter(|&j| (rows[y * words + j / 64] >> (j % 64)) & 1 == 1)
                            .map(|j| e[j])
                            .sum();
                        eq_y[y] * row_sum
                    })
                    .sum();
                for rows in [&Weighed as &dyn PublicRows, &RowByRow] {
                    let got = weigh_values(
                        &Values::PerInstance(Box::new(fill)),
                        &set,
                        &WeightsAt::new(&rho_y, None),
                        &e,
                        rows,
                    );
                    assert_eq!(got, expected, "len {len}, {set:?}");
                }
            }
        }
    }
}
