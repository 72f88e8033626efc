//! The verifier's side of the public values: `sum_{y in I} eq(rho_y, y)
//! sum_j e[j] value(y, j)` for each relation that binds wires to values.

use starling_field::{backend, subset_sums, Gf128};
use starling_poly::multilinear::eq_table;

use super::weights::{own_weight_at, EqLookup, Instances};
use crate::SKIP_VARS;

/// Writes the values of one instance: called with an instance `y` of the
/// relation's set and one bit per wire of the run, zeroed (bit `j` is bit
/// `j % 64` of word `j / 64`), it sets the bits of the wires that are one.
/// Rows are what a statement's records already are, so nothing is
/// transposed on the way in.
pub type RowFill<'a> = &'a (dyn Fn(usize, &mut [u64]) + Sync);

/// What a relation's wires equal.
#[derive(Clone, Copy)]
pub enum Values<'a> {
    /// Zero: a wiring relation with no public part.
    Zero,
    /// The same bits in every instance of the set (bit `j` of the run is
    /// bit `j % 64` of word `j / 64`).
    Constant(&'a [u64]),
    /// Different bits in each instance, one instance's row at a time.
    PerInstance(RowFill<'a>),
}

impl std::fmt::Debug for Values<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Values::Zero => f.write_str("Zero"),
            Values::Constant(bits) => f.debug_tuple("Constant").field(bits).finish(),
            Values::PerInstance(_) => f.write_str("PerInstance(..)"),
        }
    }
}

/// `sum_{y in set} eq(rho_y, y) sum_j wire_weights[j] value(y, j)`.
pub(crate) fn evaluate(
    values: &Values<'_>,
    set: &Instances,
    rho_y: &[Gf128],
    wire_weights: &[Gf128],
) -> Gf128 {
    match values {
        Values::Zero => Gf128::ZERO,
        Values::Constant(bits) => {
            let folded: Gf128 = wire_weights
                .iter()
                .enumerate()
                .filter(|(j, _)| bits.get(j / 64).is_some_and(|w| (w >> (j % 64)) & 1 == 1))
                .map(|(_, &e)| e)
                .sum();
            folded * own_weight_at(set, rho_y, None)
        }
        Values::PerInstance(fill) => by_rows(fill, set, rho_y, wire_weights),
    }
}

/// Instances weighed together: their rows are read once per word of
/// tables, so each 32 KiB of tables stays in cache for all of them.
const BATCH: usize = 256;

/// Words of a run weighed with one set of tables: 8 MiB of tables at most
/// (a run of `64 SEGMENT_WORDS` wires), however long a stranger's circuit
/// makes the run. Every built-in kind's runs fit in one segment.
const SEGMENT_WORDS: usize = 256;

/// The per-instance values weighed row by row: a row's `sum_j e[j]
/// value(y, j)` is one lookup per byte of the row in that byte's table of
/// the 256 sums of its eight wire weights (four Russians), and the rows are
/// weighed by `eq(rho_y, y)` as the product of a weight of the low six
/// instance bits (one vector product per instance) and one of the high
/// bits (one product per 64 instances). Per bit of public data this costs
/// an eighth of a table lookup; products are per instance, not per value.
/// Runs longer than [`SEGMENT_WORDS`] words are weighed a segment at a time.
fn by_rows(fill: RowFill<'_>, set: &Instances, rho_y: &[Gf128], wire_weights: &[Gf128]) -> Gf128 {
    debug_assert!(rho_y.len() >= SKIP_VARS);
    let weights = InstanceSplit {
        low: eq_table(&rho_y[..SKIP_VARS]),
        high: EqLookup::new(&rho_y[SKIP_VARS..]),
    };
    let words = wire_weights.len().div_ceil(64);
    (0..words)
        .step_by(SEGMENT_WORDS)
        .map(|first| {
            let end = (first + SEGMENT_WORDS).min(words);
            let segment = &wire_weights[64 * first..(64 * end).min(wire_weights.len())];
            segment_by_rows(fill, set, &weights, words, first, segment)
        })
        .sum()
}

/// `eq(rho_y, y)` as a table of the low six instance bits and a lookup of
/// the rest.
struct InstanceSplit {
    low: Vec<Gf128>,
    high: EqLookup,
}

/// The terms of [`by_rows`] for the wires of words `first..` of rows of
/// `words` words, whose weights are `segment`.
fn segment_by_rows(
    fill: RowFill<'_>,
    set: &Instances,
    weights: &InstanceSplit,
    words: usize,
    first: usize,
    segment: &[Gf128],
) -> Gf128 {
    let tables = ByteTables::new(segment);
    let segment_words = segment.len().div_ceil(64);
    let mut row = vec![0u64; words];
    // Word `first + w` of the batch's rows, row after row, at `w * BATCH..`.
    let mut columns = vec![0u64; segment_words * BATCH];
    let mut sums = [0u128; BATCH];
    let mut low_weights = [0u128; BATCH];
    let mut batch: Vec<usize> = Vec::with_capacity(BATCH);
    let mut v = Gf128::ZERO;
    let mut members = set.members().peekable();
    while members.peek().is_some() {
        batch.clear();
        batch.extend(members.by_ref().take(BATCH));
        for (i, &y) in batch.iter().enumerate() {
            row.fill(0);
            fill(y, &mut row);
            for (w, &word) in row[first..first + segment_words].iter().enumerate() {
                columns[w * BATCH + i] = word;
            }
        }
        tables.weigh(&columns, batch.len(), &mut sums[..batch.len()]);
        for (low, &y) in low_weights.iter_mut().zip(&batch) {
            *low = weights.low[y & ((1 << SKIP_VARS) - 1)].to_bits();
        }
        // Members are increasing: the instances of one group of 64 are
        // weighed by their low weights (vector products), the group by
        // its high weight.
        let mut start = 0;
        while start < batch.len() {
            let group = batch[start] >> SKIP_VARS;
            let end = start + batch[start..].partition_point(|&y| y >> SKIP_VARS == group);
            let acc = backend::dot(&sums[start..end], &low_weights[start..end]);
            v += weights.high.at(group) * Gf128::new(acc);
            start = end;
        }
    }
    v
}

/// For byte `b` of a row, the 256 sums `T_b[x] = sum_{i: bit i of x}
/// e[8 b + i]` (weights past the run are zero).
struct ByteTables {
    sums: Vec<[u128; 256]>,
}

impl ByteTables {
    fn new(e: &[Gf128]) -> Self {
        let sums = e
            .chunks(8)
            .map(|w| {
                let mut eight = [Gf128::ZERO; 8];
                eight[..w.len()].copy_from_slice(w);
                subset_sums(&eight).map(Gf128::to_bits)
            })
            .collect();
        ByteTables { sums }
    }

    /// `sums[i] = sum_j e[j] bit_j(row i)` for `sums.len()` rows whose word
    /// `w` is `columns[w * BATCH + i]`; bits past the weights are ignored.
    /// Word by word, so that one word's eight tables serve every row before
    /// the next are read.
    fn weigh(&self, columns: &[u64], rows: usize, sums: &mut [u128]) {
        sums.fill(0);
        for (tables, column) in self.sums.chunks(8).zip(columns.chunks_exact(BATCH)) {
            let column = &column[..rows];
            if let Ok(t) = <&[[u128; 256]; 8]>::try_from(tables) {
                for (sum, word) in sums.iter_mut().zip(column) {
                    let b = word.to_le_bytes();
                    let even =
                        t[0][b[0] as usize] ^ t[2][b[2] as usize] ^ t[4][b[4] as usize] ^ t[6][b[6] as usize];
                    let odd =
                        t[1][b[1] as usize] ^ t[3][b[3] as usize] ^ t[5][b[5] as usize] ^ t[7][b[7] as usize];
                    *sum ^= even ^ odd;
                }
            } else {
                // The run's last, partial word.
                for (sum, word) in sums.iter_mut().zip(column) {
                    let b = word.to_le_bytes();
                    *sum ^= tables.iter().zip(b).fold(0, |acc, (t, x)| acc ^ t[x as usize]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// `evaluate` against the double sum, term by term: runs of ragged
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
                Instances::Set(set_bits),
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
                let got = evaluate(&Values::PerInstance(&fill), &set, &rho_y, &e);
                assert_eq!(got, expected, "len {len}, {set:?}");
            }
        }
    }
}
