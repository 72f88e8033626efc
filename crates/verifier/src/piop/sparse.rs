//! Sparse GF(2) matrices of one circuit instance (the R1CS `A0`, `B0`).
//!
//! Row `i` lists the wire indices XOR-ed into `<A0_i, z>`. Stored in
//! compressed form; the lincheck only needs two walks over the nonzeros: a
//! weighted transpose (prover) and a weighted bilinear form (verifier).

use alloc::vec::Vec;

use super::PiopError;
use crate::field::dot;
use crate::Gf128;

/// A sparse GF(2) matrix: row `i` is `indices[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseMatrix {
    offsets: Vec<u32>,
    indices: Vec<u32>,
}

impl SparseMatrix {
    /// Builds a matrix from explicit rows. Panics beyond 2^32 nonzeros.
    pub fn from_rows<R: AsRef<[u32]>>(rows: &[R]) -> Self {
        let mut offsets = Vec::with_capacity(rows.len() + 1);
        offsets.push(0u32);
        let mut indices = Vec::new();
        for row in rows {
            indices.extend_from_slice(row.as_ref());
            offsets.push(u32::try_from(indices.len()).expect("fewer than 2^32 nonzeros"));
        }
        SparseMatrix { offsets, indices }
    }

    /// Builds a matrix from compressed rows, checking that the offsets start
    /// at 0, never decrease and end at `indices.len()`.
    pub fn from_csr(offsets: Vec<u32>, indices: Vec<u32>) -> Result<Self, PiopError> {
        if offsets.first() != Some(&0) {
            return Err(PiopError::BadMatrix("offsets must start at 0"));
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(PiopError::BadMatrix("offsets must not decrease"));
        }
        if offsets.last().map(|&o| o as usize) != Some(indices.len()) {
            return Err(PiopError::BadMatrix(
                "last offset must equal the number of nonzeros",
            ));
        }
        Ok(SparseMatrix { offsets, indices })
    }

    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of nonzeros.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// The wire indices of row `i`.
    pub fn row(&self, i: usize) -> &[u32] {
        &self.indices[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The largest column of the first `rows` rows (`None` when they are
    /// empty).
    pub fn max_column(&self, rows: usize) -> Option<u32> {
        self.indices[..self.offsets[rows] as usize].iter().copied().max()
    }

    fn rows(&self) -> impl Iterator<Item = &[u32]> {
        self.offsets
            .windows(2)
            .map(|w| &self.indices[w[0] as usize..w[1] as usize])
    }

    /// Checks that the matrix is `2^k x 2^k`.
    pub fn check_square(&self, k: usize) -> Result<(), PiopError> {
        let size = 1usize << k;
        if self.num_rows() != size {
            return Err(PiopError::BadMatrix("the number of rows must be 2^k"));
        }
        if self.indices.iter().any(|&c| c as usize >= size) {
            return Err(PiopError::BadMatrix("a column index is not below 2^k"));
        }
        Ok(())
    }

    /// `out[y] += sum_{i : y in row i} row_weights[i]` (the weighted transpose).
    /// Indices must be in range (see [`SparseMatrix::check_square`]).
    pub fn add_transpose_weighted(&self, row_weights: &[Gf128], out: &mut [Gf128]) {
        for (row, &w) in self.rows().zip(row_weights) {
            for &c in row {
                out[c as usize] += w;
            }
        }
    }

    /// `sum_i row_weights[i] * sum_{y in row i} col_weights[y]`: the
    /// multilinear extension at a point when both weight vectors are `eq`
    /// tables. O(nnz + rows). Indices must be in range.
    pub fn bilinear(&self, row_weights: &[Gf128], col_weights: &[Gf128]) -> Gf128 {
        let sums = self.row_sums(row_weights.len().min(self.num_rows()), col_weights);
        dot(&sums, &row_weights[..sums.len()])
    }

    /// `sum_{y in row i} col_weights[y]` for each of the first `rows` rows.
    pub fn row_sums(&self, rows: usize, col_weights: &[Gf128]) -> Vec<Gf128> {
        self.rows()
            .take(rows)
            .map(|row| row.iter().map(|&c| col_weights[c as usize]).sum())
            .collect()
    }
}
