//! Committing to a table: encode the interleaved matrix, hash every column.
//!
//! Level 0's rows are the top `k_0` variables of the table: row `r` is the
//! contiguous message `f[r 2^m .. (r + 1) 2^m]`. The rows past the live
//! length (a circuit's zero tail, which is the top of the table) are then
//! whole rows of zeros, which are neither encoded, hashed nor opened: the
//! verifier takes them as zero. The live rows are transposed into one
//! buffer (position-major, a column per message position); every coset but
//! the last is encoded from it into a second buffer and the last in place.
//! Later levels commit a fold whose rows are its low variables, already
//! position-major. The batched NTT leaves every codeword column contiguous;
//! each is one Merkle leaf (`merkle::hash_leaf_fields`), hashed many at a
//! time by `merkle::hash_leaves_into` (SIMD across leaves), one coset
//! after the other (side by side for a level too small for the transform
//! to use several threads well, [`SIDE_BY_SIDE_ELEMS`]). Everything runs on
//! rayon.
//!
//! No level keeps its codeword. Level 0's is twice the table or more
//! (hundreds of megabytes at 2^14 hashes), and it is read only twice:
//! hashed here, and a few hundred of its columns opened at the very end.
//! Kept alive through the PIOP in between, it set the prover's peak memory
//! (a Keccak-f proof of 2^14 permutations peaked at 722 MiB with the
//! codeword, the table and the zerocheck's forms all live). So the codeword
//! is hashed coset by coset and dropped, and the opening encodes the
//! message again for the columns it opens ([`CommittedLevel::columns`]):
//! a few rows at a time, and only the parts of the transform those columns
//! depend on (`AdditiveNtt::forward_from_at`), about half an encode of the
//! table and no hashing.

use rayon::prelude::*;
#[cfg(not(target_endian = "little"))]
use starling_crypto::merkle::hash_leaf_fields;
use starling_crypto::merkle::{self, MerkleTree};
use starling_crypto::Digest;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128;
use starling_poly::additive_ntt::AdditiveNtt;
use starling_poly::reed_solomon::ReedSolomon;

use crate::params::PcsParams;
use crate::PcsError;

/// The commitment: the Merkle root of the level-0 codeword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// Root of the column tree.
    pub root: Digest,
}

/// Message positions per task of the level-0 transpose (a 64 KiB block of
/// output at 64 rows).
const TRANSPOSE_POSITIONS: usize = 64;

/// Rows encoded at once when a level's message is encoded again for its
/// queries. The batched NTT is nearly as fast per product at four rows as
/// at sixty-four (2.3 and 2.5 ns at 2^17 positions on Zen 3; 3.7 at one
/// row), and the two buffers of four rows are 8 MiB each for Keccak-f's
/// 2^17 positions.
const REENCODE_ROWS: usize = 4;

/// Fewest elements re-encoded at once where a level has the rows for it.
/// Four of a later level's short rows (2^14 positions at 2^16 hashes) make
/// pruned transforms of 2^16 elements that rayon barely splits: level 1's
/// re-encode took 8.5-16.8 ms on two threads against 10-14.5 on one;
/// sixteen rows at once, 6.2-7.4 against 10.4-11.7 (Zen 4, `open_timing`
/// at L = 24; at L = 22, 2.6-3.6 ms on one thread against 3.7-4.1). At
/// most two buffers of 4 MiB.
const REENCODE_MIN_ELEMS: usize = 1 << 18;

/// Elements of a re-encoded row group below which its cosets are encoded
/// side by side on rayon: at that size the additive NTT runs each
/// transform on one thread (`starling_poly`'s `PAR_MIN_ELEMS`). Each coset
/// in flight then has buffers of its own (at most 2 MiB).
const SMALL_LEVEL_ELEMS: usize = 1 << 16;

/// Elements of a level up to which its cosets are committed side by side
/// on rayon when there are several threads, each coset's transform and
/// hashing on one thread with a buffer of its own (4 MiB at most). Below
/// 2^16 the transform runs on one thread anyway, and a later level's
/// cosets one after another left the other threads idle for about 7 ms of a
/// BLAKE3 proof on two threads (Zen 3). Up to 2^18 a transform splits over
/// threads, but poorly: level 1 at 2^16 hashes (sixteen cosets of 2^18) on
/// sixteen threads of a Xeon took the opening of SHA-256 from 174 to 140 ms
/// and BLAKE3's from 137 to 117 (one run each, `bench`). One thread
/// encodes one coset after another and the last in place.
const SIDE_BY_SIDE_ELEMS: usize = 1 << 18;

/// How a level's message is laid out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Row `r` is the contiguous `message[r 2^log_msg .. (r + 1) 2^log_msg]`
    /// (level 0: the table's top variables).
    RowMajor,
    /// Position `p` is the contiguous `message[p width .. (p + 1) width]`
    /// (later levels: a fold's low variables).
    PositionMajor,
}

/// A committed level: the shape of its code and the tree of its codeword's
/// columns; the message is kept by the caller (level 0's is the table).
#[derive(Clone, Debug)]
pub(crate) struct LevelCode {
    /// Rows encoded: the message's first `width` rows (the others are zero).
    width: usize,
    /// `log2` of the positions of a row's message.
    log_msg: usize,
    log_inv_rate: usize,
    layout: Layout,
    pub(crate) tree: MerkleTree,
}

impl LevelCode {
    /// Encodes the first `width` rows of `message` (`2^log_msg` positions
    /// each, laid out as `layout` says) at rate `2^-log_inv_rate` and hashes
    /// the codeword's columns, one coset at a time.
    fn commit(message: &[Gf128], layout: Layout, log_msg: usize, width: usize, log_inv_rate: usize) -> Self {
        let code = ReedSolomon::new(log_msg, log_inv_rate);
        let positions = 1usize << log_msg;
        let n = positions * width;
        let cosets = 1usize << log_inv_rate;
        let mut leaves = Vec::with_capacity(positions << log_inv_rate);
        // Buffers an earlier phase recycled, or zeroed pages from the
        // allocator: every entry is written, so they need no clearing.
        let mut columns = scratch::take_field(n);
        fill_rows(message, layout, log_msg, 0, width, &mut columns);
        if cosets > 1 && n <= SIDE_BY_SIDE_ELEMS && rayon::current_num_threads() > 1 {
            // Cosets side by side, a buffer per rayon job.
            let per_coset: Vec<Vec<Digest>> = (0..cosets)
                .into_par_iter()
                .map_init(
                    || vec![Gf128::ZERO; n],
                    |out, h| {
                        code.encode_coset(&columns, width, h, out);
                        hash_columns(out, width)
                    },
                )
                .collect();
            per_coset.into_iter().for_each(|l| leaves.extend(l));
        } else {
            if cosets > 1 {
                let mut out = scratch::take_field(n);
                for h in 0..cosets - 1 {
                    code.encode_coset(&columns, width, h, &mut out);
                    leaves.extend(hash_columns(&out, width));
                }
                scratch::recycle_field(out);
            }
            code.encode_coset_in_place(&mut columns, width, cosets - 1);
            leaves.extend(hash_columns(&columns, width));
        }
        scratch::recycle_field(columns);
        LevelCode {
            width,
            log_msg,
            log_inv_rate,
            layout,
            tree: MerkleTree::from_leaf_hashes(leaves),
        }
    }

    /// The codeword's columns at `positions`, one after another, encoded
    /// again from `message` (the one committed): [`REENCODE_ROWS`] rows at a
    /// time, or enough short rows to make [`REENCODE_MIN_ELEMS`], only as
    /// much of each coset's transform as its queried columns need.
    fn columns(&self, message: &[Gf128], positions: &[usize]) -> Vec<Gf128> {
        let msg_len = 1usize << self.log_msg;
        let ntt = AdditiveNtt::new(self.log_msg);
        // The distinct positions each coset is asked for, sorted.
        let wanted: Vec<Vec<usize>> = (0..1usize << self.log_inv_rate)
            .map(|h| {
                let mut in_coset: Vec<usize> = positions
                    .iter()
                    .filter(|&&q| q >> self.log_msg == h)
                    .map(|&q| q & (msg_len - 1))
                    .collect();
                in_coset.sort_unstable();
                in_coset.dedup();
                in_coset
            })
            .collect();
        let group = REENCODE_ROWS
            .max(REENCODE_MIN_ELEMS >> self.log_msg)
            .min(self.width);
        let mut columns = vec![Gf128::ZERO; self.width * positions.len()];
        // Writes rows `first ..` of coset `h` into the columns queried
        // there; `at(p)` is where position `p` of the coset starts in `values`.
        let scatter = |columns: &mut [Gf128],
                       first: usize,
                       rows: usize,
                       h: usize,
                       values: &[Gf128],
                       at: &dyn Fn(usize) -> usize| {
            for (col, &q) in columns.chunks_exact_mut(self.width).zip(positions) {
                if q >> self.log_msg == h {
                    col[first..first + rows].copy_from_slice(&values[at(q & (msg_len - 1))..][..rows]);
                }
            }
        };
        if group * msg_len < SMALL_LEVEL_ELEMS {
            // Every row group and coset side by side (each transform runs on
            // one thread at this size), keeping only the queried positions.
            let tasks: Vec<(usize, usize)> = (0..self.width)
                .step_by(group)
                .flat_map(|first| (0..wanted.len()).map(move |h| (first, h)))
                .filter(|&(_, h)| !wanted[h].is_empty())
                .collect();
            let queried: Vec<Vec<Gf128>> = tasks
                .par_iter()
                // Two buffers of a row group per rayon job, not per task.
                .map_init(
                    || vec![Gf128::ZERO; 2 * group * msg_len],
                    |buf, &(first, h)| {
                        let rows = group.min(self.width - first);
                        let (rows_msg, coset) = buf.split_at_mut(group * msg_len);
                        let (rows_msg, coset) =
                            (&mut rows_msg[..rows * msg_len], &mut coset[..rows * msg_len]);
                        fill_rows(message, self.layout, self.log_msg, first, rows, rows_msg);
                        ntt.forward_from_at(rows_msg, coset, rows, (h << self.log_msg) as u64, &wanted[h]);
                        wanted[h]
                            .iter()
                            .flat_map(|&p| coset[p * rows..][..rows].to_vec())
                            .collect()
                    },
                )
                .collect();
            for (&(first, h), values) in tasks.iter().zip(&queried) {
                let rows = group.min(self.width - first);
                let at = |p: usize| wanted[h].binary_search(&p).expect("a queried position") * rows;
                scatter(&mut columns, first, rows, h, values, &at);
            }
            return columns;
        }
        let mut buf = scratch::take_field(2 * group * msg_len);
        for first in (0..self.width).step_by(group) {
            let rows = group.min(self.width - first);
            let (rows_msg, coset) = buf.split_at_mut(group * msg_len);
            let (rows_msg, coset) = (&mut rows_msg[..rows * msg_len], &mut coset[..rows * msg_len]);
            fill_rows(message, self.layout, self.log_msg, first, rows, rows_msg);
            for (h, wanted) in wanted.iter().enumerate() {
                if wanted.is_empty() {
                    continue;
                }
                ntt.forward_from_at(rows_msg, coset, rows, (h << self.log_msg) as u64, wanted);
                scatter(&mut columns, first, rows, h, coset, &|p| p * rows);
            }
        }
        scratch::recycle_field(buf);
        columns
    }
}

/// Writes rows `first .. first + rows` of `message` (`2^log_msg` positions
/// each, laid out as `layout` says) position-major into `out`.
fn fill_rows(
    message: &[Gf128],
    layout: Layout,
    log_msg: usize,
    first: usize,
    rows: usize,
    out: &mut [Gf128],
) {
    let positions = 1usize << log_msg;
    debug_assert_eq!(out.len(), rows * positions);
    match layout {
        Layout::RowMajor => out
            .par_chunks_mut(TRANSPOSE_POSITIONS * rows)
            .enumerate()
            .for_each(|(c, out)| {
                let start = c * TRANSPOSE_POSITIONS;
                for (r, row) in message.chunks_exact(positions).skip(first).take(rows).enumerate() {
                    let src = &row[start..start + out.len() / rows];
                    for (col, &v) in out.chunks_exact_mut(rows).zip(src) {
                        col[r] = v;
                    }
                }
            }),
        Layout::PositionMajor => {
            let width = message.len() >> log_msg;
            for (col, src) in out.chunks_exact_mut(rows).zip(message.chunks_exact(width)) {
                col.copy_from_slice(&src[first..first + rows]);
            }
        }
    }
}

/// A committed level after level 0: its message (a fold of the table, whose
/// rows are its low variables) and its code.
#[derive(Clone, Debug)]
pub(crate) struct CommittedLevel {
    message: Vec<Gf128>,
    pub(crate) code: LevelCode,
}

impl CommittedLevel {
    /// Commits to `message` with `2^log_rows` rows that are its low
    /// variables (position-major) at rate `2^-log_inv_rate`.
    pub(crate) fn new(message: Vec<Gf128>, log_rows: usize, log_inv_rate: usize) -> Self {
        let log_msg = message.len().trailing_zeros() as usize - log_rows;
        let code = LevelCode::commit(
            &message,
            Layout::PositionMajor,
            log_msg,
            1 << log_rows,
            log_inv_rate,
        );
        CommittedLevel { message, code }
    }

    /// The codeword's columns at `positions`, one after another.
    pub(crate) fn columns(&self, positions: &[usize]) -> Vec<Gf128> {
        self.code.columns(&self.message, positions)
    }
}

/// The leaf hashes of the consecutive `batch`-element columns of `codeword`
/// (`merkle::hash_leaf_fields` of each).
fn hash_columns(codeword: &[Gf128], batch: usize) -> Vec<Digest> {
    #[cfg(target_endian = "little")]
    {
        let leaf_len = batch * 16;
        let bytes = Gf128::slice_as_bytes(codeword);
        let count = codeword.len() / batch;
        let mut leaves = vec![[0u8; 32]; count];
        // About 1 MiB of leaves per rayon task, a multiple of the sixteen
        // leaves the SIMD hasher takes at once, and at least four tasks per
        // thread while there are leaves for them (a later level's coset is
        // only 1 MiB: as one task it was hashed on one thread).
        let per_mib = 16 * ((1 << 16) / leaf_len).max(1);
        let per_thread_share = count
            .div_ceil(4 * rayon::current_num_threads())
            .next_multiple_of(16);
        let per_task = per_mib.min(per_thread_share).max(16);
        leaves
            .par_chunks_mut(per_task)
            .zip(bytes.par_chunks(per_task * leaf_len))
            .for_each(|(out, data)| merkle::hash_leaves_into(data, leaf_len, out));
        leaves
    }
    #[cfg(not(target_endian = "little"))]
    codeword.par_chunks(batch).map(hash_leaf_fields).collect()
}

/// What the prover keeps after committing: the table and level 0's code.
#[derive(Clone, Debug)]
pub struct ProverData {
    pub(crate) table: ScratchVec,
    pub(crate) level0: LevelCode,
}

impl ProverData {
    /// Commits to the first `width` rows of `table`, whose rows are its top
    /// `log_rows` variables (the other rows are zero), at rate
    /// `2^-log_inv_rate`.
    fn commit_top_rows(table: ScratchVec, log_rows: usize, width: usize, log_inv_rate: usize) -> Self {
        let log_msg = table.len().trailing_zeros() as usize - log_rows;
        let level0 = LevelCode::commit(&table, Layout::RowMajor, log_msg, width, log_inv_rate);
        ProverData { table, level0 }
    }

    /// The committed table.
    pub fn table(&self) -> &[Gf128] {
        &self.table
    }

    /// The committed table, taken back (for `starling_field::scratch`).
    pub fn into_table(self) -> ScratchVec {
        self.table
    }

    /// The level-0 codeword's columns at `positions`, one after another.
    pub(crate) fn level0_columns(&self, positions: &[usize]) -> Vec<Gf128> {
        self.level0.columns(&self.table, positions)
    }
}

/// Commits to `table` (length `2^num_vars`): a `Vec`, or a buffer lent by
/// `starling_field::scratch` that [`ProverData::into_table`] hands back.
pub fn commit(
    params: &PcsParams,
    table: impl Into<ScratchVec>,
) -> Result<(Commitment, ProverData), PcsError> {
    let table = table.into();
    let want = 1usize << params.num_vars();
    if table.len() != want {
        return Err(PcsError::TableSize {
            got: table.len(),
            want,
        });
    }
    let l0 = params.levels()[0];
    let width = params.level_width(0);
    let positions = want >> l0.log_rows;
    if let Some(i) = table[width * positions..].iter().position(|v| !v.is_zero()) {
        return Err(PcsError::NonzeroPastLive {
            index: width * positions + i,
            live: params.live_len(),
        });
    }
    let data = ProverData::commit_top_rows(table, l0.log_rows, width, l0.log_inv_rate);
    let commitment = Commitment {
        root: data.level0.tree.root(),
    };
    Ok((commitment, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_crypto::merkle::hash_leaf_fields;

    #[test]
    fn column_hashes_match_hash_leaf_fields() {
        let codeword: Vec<Gf128> = (0..4096u128)
            .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)))
            .collect();
        for log_batch in 0..=8 {
            let batch = 1 << log_batch;
            let want: Vec<Digest> = codeword.chunks(batch).map(hash_leaf_fields).collect();
            assert_eq!(hash_columns(&codeword, batch), want, "batch {batch}");
        }
    }

    #[test]
    fn top_rows_are_encoded_row_by_row() {
        // Each row by the single-message encoder (tested against the
        // definition in starling-poly). Widths that are not powers of two, messages long enough for the
        // NTT's passes over memory.
        for (log_rows, log_msg, width, rate) in [(2, 3, 3, 2), (3, 9, 5, 1), (6, 12, 45, 1), (4, 13, 16, 2)] {
            let table: Vec<Gf128> = (0..1u128 << (log_rows + log_msg))
                .map(|i| Gf128::new((i + 1).wrapping_mul(0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15)))
                .collect();
            let data = ProverData::commit_top_rows(table.clone().into(), log_rows, width, rate);
            let rows: Vec<Vec<Gf128>> = table
                .chunks_exact(1 << log_msg)
                .take(width)
                .map(|row| ReedSolomon::new(log_msg, rate).encode(row))
                .collect();
            // Every position, in an order that visits the cosets out of turn.
            let len = 1usize << (log_msg + rate);
            let positions: Vec<usize> = (0..len).map(|i| (i * 5 + 3) % len).collect();
            let columns = data.level0_columns(&positions);
            for (col, &q) in columns.chunks_exact(width).zip(&positions) {
                let want: Vec<Gf128> = rows.iter().map(|row| row[q]).collect();
                assert_eq!(col, want.as_slice(), "rows 2^{log_rows}, width {width}, q {q}");
            }
            let leaves: Vec<Digest> = data
                .level0_columns(&(0..len).collect::<Vec<_>>())
                .chunks_exact(width)
                .map(hash_leaf_fields)
                .collect();
            assert_eq!(
                data.level0.tree.root(),
                MerkleTree::from_leaf_hashes(leaves).root()
            );
        }
    }

    #[test]
    fn later_levels_open_their_columns() {
        // Position-major messages of 2^log_rows rows; repeated positions too.
        // Rows are re-encoded four at a time, all sixteen at once, and in two
        // groups of sixteen (`REENCODE_MIN_ELEMS`).
        for (log_rows, log_msg, rate) in [(0, 5, 2), (2, 9, 3), (4, 12, 4), (5, 14, 1)] {
            let width = 1usize << log_rows;
            let message: Vec<Gf128> = (0..1u128 << (log_rows + log_msg))
                .map(|i| Gf128::new((i + 7).wrapping_mul(0x9e37_79b9_7f4a_7c15_2545_f491_4f6c_dd1d)))
                .collect();
            let want = ReedSolomon::new(log_msg, rate).encode_batch(&message, width);
            let level = CommittedLevel::new(message, log_rows, rate);
            let len = 1usize << (log_msg + rate);
            let mut positions: Vec<usize> = (0..len).map(|i| (i * 7 + 1) % len).collect();
            positions.extend([3, 3, len - 1]);
            let columns = level.columns(&positions);
            for (col, &q) in columns.chunks_exact(width).zip(&positions) {
                assert_eq!(col, &want[q * width..(q + 1) * width], "rows 2^{log_rows}, q {q}");
            }
            let leaves: Vec<Digest> = want.chunks_exact(width).map(hash_leaf_fields).collect();
            assert_eq!(
                level.code.tree.root(),
                MerkleTree::from_leaf_hashes(leaves).root()
            );
        }
    }
}
