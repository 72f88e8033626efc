//! Committing to a table: encode the interleaved matrix, hash every column.
//!
//! Level 0's rows are the top `k_0` variables of the table: row `r` is the
//! contiguous message `f[r 2^m .. (r + 1) 2^m]`. The rows past the live
//! length (a circuit's zero tail, which is the top of the table) are then
//! whole rows of zeros, which are neither encoded, hashed nor opened: the
//! verifier takes them as zero. The live rows are transposed into the last
//! coset's part of the codeword buffer (position-major, a column per message
//! position), every other coset is encoded from there and the last one in
//! place, so the transpose costs no memory. Later levels commit a fold whose
//! rows are its low variables, already position-major. The batched NTT leaves
//! every codeword column contiguous; each is one Merkle leaf
//! (`merkle::hash_leaf_fields`), hashed many at a time by `sha256_multi`
//! (SIMD across leaves when the CPU has it). Everything runs on rayon.

use rayon::prelude::*;
#[cfg(not(target_endian = "little"))]
use starling_crypto::merkle::hash_leaf_fields;
use starling_crypto::merkle::MerkleTree;
use starling_crypto::{sha256_multi, Digest};
use starling_field::{scratch, Gf128};
use starling_poly::reed_solomon::ReedSolomon;

use crate::params::PcsParams;
use crate::PcsError;

/// The commitment: the Merkle root of the level-0 codeword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// Root of the column tree.
    pub root: Digest,
}

/// One committed level: the codeword (columns of `width` elements,
/// contiguous) and its tree.
#[derive(Clone, Debug)]
pub(crate) struct CommittedLevel {
    width: usize,
    pub(crate) codeword: Vec<Gf128>,
    pub(crate) tree: MerkleTree,
}

/// Message positions per task of the level-0 transpose (a 64 KiB block of
/// output at 64 rows).
const TRANSPOSE_POSITIONS: usize = 64;

impl CommittedLevel {
    /// Encodes `table` with `2^log_rows` rows that are its low variables
    /// (position-major) at rate `2^-log_inv_rate`.
    pub(crate) fn new(table: &[Gf128], log_rows: usize, log_inv_rate: usize) -> Self {
        let width = 1usize << log_rows;
        Self::encode(table.len() / width, width, log_inv_rate, |msg| {
            msg.copy_from_slice(table)
        })
    }

    /// Encodes the first `width` rows of `table`, whose rows are its top
    /// `log_rows` variables; the other rows are zero.
    pub(crate) fn from_top_rows(table: &[Gf128], log_rows: usize, width: usize, log_inv_rate: usize) -> Self {
        let positions = table.len() >> log_rows;
        Self::encode(positions, width, log_inv_rate, |msg| {
            msg.par_chunks_mut(TRANSPOSE_POSITIONS * width)
                .enumerate()
                .for_each(|(c, out)| {
                    let start = c * TRANSPOSE_POSITIONS;
                    for (r, row) in table.chunks_exact(positions).take(width).enumerate() {
                        let src = &row[start..start + out.len() / width];
                        for (col, &v) in out.chunks_exact_mut(width).zip(src) {
                            col[r] = v;
                        }
                    }
                });
        })
    }

    /// Encodes the position-major message that `fill` writes (`positions`
    /// columns of `width`) at rate `2^-log_inv_rate` and hashes the columns.
    fn encode(positions: usize, width: usize, log_inv_rate: usize, fill: impl FnOnce(&mut [Gf128])) -> Self {
        let code = ReedSolomon::new(positions.trailing_zeros() as usize, log_inv_rate);
        let n = positions * width;
        // Zeroed pages from the allocator, or a buffer an earlier phase
        // recycled: every entry is written, so it needs no clearing.
        let mut codeword = scratch::take_field(n << log_inv_rate);
        let (others, last) = codeword.split_at_mut(n * ((1 << log_inv_rate) - 1));
        fill(last);
        others
            .par_chunks_mut(n)
            .enumerate()
            .for_each(|(h, chunk)| code.encode_coset(last, width, h, chunk));
        code.encode_coset_in_place(last, width, (1 << log_inv_rate) - 1);
        let leaves = hash_columns(&codeword, width);
        let tree = MerkleTree::from_leaf_hashes(leaves);
        CommittedLevel {
            width,
            codeword,
            tree,
        }
    }

    /// The column at position `q`.
    pub(crate) fn column(&self, q: usize) -> &[Gf128] {
        &self.codeword[q * self.width..(q + 1) * self.width]
    }
}

/// The leaf hashes of the consecutive `batch`-element columns of `codeword`
/// (`merkle::hash_leaf_fields` of each).
fn hash_columns(codeword: &[Gf128], batch: usize) -> Vec<Digest> {
    #[cfg(target_endian = "little")]
    {
        let leaf_len = batch * 16;
        let bytes = Gf128::slice_as_bytes(codeword);
        let mut leaves = vec![[0u8; 32]; codeword.len() / batch];
        // About 1 MiB of leaves per rayon task, a multiple of the sixteen
        // leaves the SIMD hasher takes at once.
        let per_task = 16 * ((1 << 16) / leaf_len).max(1);
        leaves
            .par_chunks_mut(per_task)
            .zip(bytes.par_chunks(per_task * leaf_len))
            .for_each(|(out, data)| sha256_multi::hash_leaves_chunked_into(data, leaf_len, out));
        leaves
    }
    #[cfg(not(target_endian = "little"))]
    codeword.par_chunks(batch).map(hash_leaf_fields).collect()
}

/// What the prover keeps after committing: the table and the level-0 codeword.
#[derive(Clone, Debug)]
pub struct ProverData {
    pub(crate) table: Vec<Gf128>,
    pub(crate) level0: CommittedLevel,
}

impl ProverData {
    /// The committed table.
    pub fn table(&self) -> &[Gf128] {
        &self.table
    }
}

/// Commits to `table` (length `2^num_vars`).
pub fn commit(params: &PcsParams, table: Vec<Gf128>) -> Result<(Commitment, ProverData), PcsError> {
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
    let level0 = CommittedLevel::from_top_rows(&table, l0.log_rows, width, l0.log_inv_rate);
    let commitment = Commitment {
        root: level0.tree.root(),
    };
    Ok((commitment, ProverData { table, level0 }))
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
            let level = CommittedLevel::from_top_rows(&table, log_rows, width, rate);
            let rows: Vec<Vec<Gf128>> = table
                .chunks_exact(1 << log_msg)
                .take(width)
                .map(|row| ReedSolomon::new(log_msg, rate).encode(row))
                .collect();
            for q in 0..1usize << (log_msg + rate) {
                let want: Vec<Gf128> = rows.iter().map(|row| row[q]).collect();
                assert_eq!(
                    level.column(q),
                    want.as_slice(),
                    "rows 2^{log_rows}, width {width}, q {q}"
                );
            }
            let leaves: Vec<Digest> = (0..1usize << (log_msg + rate))
                .map(|q| hash_leaf_fields(level.column(q)))
                .collect();
            assert_eq!(level.tree.root(), MerkleTree::from_leaf_hashes(leaves).root());
        }
    }
}
