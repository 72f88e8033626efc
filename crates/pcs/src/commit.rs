//! Committing to a table: encode the interleaved matrix, hash every column.
//!
//! The low `k_0` variables of the table are the rows, so message position `j`
//! is the contiguous block `f[j * 2^k0 .. (j + 1) * 2^k0]` and no transpose is
//! needed. The batched NTT leaves every codeword column contiguous; each is
//! one Merkle leaf (`merkle::hash_leaf_fields`), hashed many at a time by
//! `sha256_multi` (SIMD across leaves when the CPU has it). Encoding and
//! hashing run on rayon.

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

/// One committed level: the codeword (columns contiguous) and its tree.
#[derive(Clone, Debug)]
pub(crate) struct CommittedLevel {
    pub(crate) log_rows: usize,
    pub(crate) codeword: Vec<Gf128>,
    pub(crate) tree: MerkleTree,
}

impl CommittedLevel {
    /// Encodes `table` with `2^log_rows` rows at rate `2^-log_inv_rate`.
    pub(crate) fn new(table: &[Gf128], log_rows: usize, log_inv_rate: usize) -> Self {
        let batch = 1usize << log_rows;
        let log_msg = (table.len() / batch).trailing_zeros() as usize;
        let code = ReedSolomon::new(log_msg, log_inv_rate);
        // Zeroed pages from the allocator, or a buffer an earlier phase recycled.
        // Every entry is written by the encoding, so a recycled buffer needs no clearing.
        let mut codeword = scratch::take_field(table.len() << log_inv_rate);
        codeword
            .par_chunks_mut(table.len())
            .enumerate()
            .for_each(|(h, chunk)| code.encode_coset(table, batch, h, chunk));
        let leaves = hash_columns(&codeword, batch);
        let tree = MerkleTree::from_leaf_hashes(leaves);
        CommittedLevel {
            log_rows,
            codeword,
            tree,
        }
    }

    /// The column at position `q`.
    pub(crate) fn column(&self, q: usize) -> &[Gf128] {
        let b = 1usize << self.log_rows;
        &self.codeword[q * b..(q + 1) * b]
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
    let level0 = CommittedLevel::new(&table, l0.log_rows, l0.log_inv_rate);
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
}
