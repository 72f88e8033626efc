//! The lincheck's matrices moved around a zero-knowledge batch's holes, as
//! the verifier reads them: their bilinear form from the circuit's own
//! matrix and the wires' positions, without building the moved matrix
//! ([`Holes::place_matrix`], which the prover builds and which is the
//! definition: the tests compare the two). Only the columns' weights are
//! gathered ([`Holes::weights_of_wires`]); the rows' are read in place.

use alloc::vec::Vec;

use super::Holes;
use crate::field::dot;
use crate::piop::lincheck::Matrix;
use crate::piop::{PiopError, SparseMatrix};
use crate::Gf128;

/// What a moved matrix holds at the rows that are not the circuit's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherRows {
    /// `A`: a random wire's row is itself (`w * 1 = w`), other rows empty.
    A,
    /// `B`: a random wire's row is the constant wire (wire 0), other rows
    /// empty.
    B,
    /// `C = I + N`: a random wire's row and every other row are the wire
    /// itself.
    C,
}

/// `m` moved as [`Holes::place_matrix`] moves it, `2^k` rows: the rows of
/// the first `used` wires at their positions, each random wire's and every
/// other row as `other` says.
pub struct PlacedMatrix<'a> {
    m: &'a SparseMatrix,
    holes: Holes,
    other: OtherRows,
    /// The circuit's rows that are moved: those of the first `used` wires.
    rows: usize,
    /// One past the largest column of those rows.
    columns: usize,
}

impl<'a> PlacedMatrix<'a> {
    /// The view of `m` whose first `used` wires' rows are moved, every
    /// wire (row or column) to [`Holes::position`]. `columns` is one past
    /// the largest column of those rows, of `m` and of the other matrices
    /// of its lincheck ([`PlacedMatrix::columns`]): they share the moved
    /// column weights ([`Matrix::read_columns`]).
    pub fn new(m: &'a SparseMatrix, holes: Holes, used: usize, columns: usize, other: OtherRows) -> Self {
        let rows = m.num_rows().min(used);
        PlacedMatrix {
            m,
            holes,
            other,
            rows,
            columns,
        }
    }
}

impl PlacedMatrix<'_> {
    /// One past the largest column of the rows of `m`'s first `used` wires.
    pub fn columns(m: &SparseMatrix, used: usize) -> usize {
        m.max_column(m.num_rows().min(used)).map_or(0, |c| c as usize + 1)
    }
}

impl Matrix for PlacedMatrix<'_> {
    fn check_square(&self, k: usize) -> Result<(), PiopError> {
        let size = 1usize << k;
        // Positions grow with the wire, so the largest lands last.
        let last = |count: usize| count.checked_sub(1).map_or(0, |w| self.holes.position(w));
        if last(self.columns) >= size || last(self.rows) >= size || self.holes.live_wires() > size {
            return Err(PiopError::BadMatrix("a moved wire is not below 2^k"));
        }
        Ok(())
    }

    fn bilinear(&self, row_weights: &[Gf128], col_weights: &[Gf128]) -> Gf128 {
        self.bilinear_read(row_weights, col_weights, None)
    }

    fn read_columns(&self, col_weights: &[Gf128]) -> Option<Vec<Gf128>> {
        Some(self.holes.weights_of_wires(col_weights, self.columns))
    }

    fn bilinear_read(&self, row_weights: &[Gf128], col_weights: &[Gf128], read: Option<&[Gf128]>) -> Gf128 {
        // The circuit's rows' sums at the moved columns, each weighed by its
        // moved row: the rows' weights are read in place, a block's run at a
        // time, and only the columns' are gathered (once for the lincheck's
        // matrices, when it passes them).
        let gathered;
        let moved_col_weights = match read {
            Some(read) => {
                assert!(read.len() >= self.columns, "columns read for this layout");
                read
            }
            None => {
                gathered = self.holes.weights_of_wires(col_weights, self.columns);
                &gathered
            }
        };
        let sums = self.m.row_sums(self.rows, moved_col_weights);
        let in_place = |weights: &[Gf128], wire_order: &[Gf128]| -> Gf128 {
            self.holes
                .wire_runs(self.rows)
                .map(|(w, run)| dot(&wire_order[w..w + run.len()], &weights[run]))
                .sum()
        };
        let circuit = in_place(row_weights, &sums);
        let other = match self.other {
            // The random wires' diagonal.
            OtherRows::A => self
                .holes
                .hole_ranges()
                .map(|r| dot(&row_weights[r.clone()], &col_weights[r]))
                .sum(),
            OtherRows::B => {
                col_weights[0]
                    * self
                        .holes
                        .hole_ranges()
                        .flat_map(|r| &row_weights[r])
                        .copied()
                        .sum::<Gf128>()
            }
            // Every row that is not a moved one is the diagonal's: the whole
            // diagonal less the moved rows' part.
            OtherRows::C => {
                dot(row_weights, col_weights)
                    + self
                        .holes
                        .wire_runs(self.rows)
                        .map(|(_, run)| dot(&row_weights[run.clone()], &col_weights[run]))
                        .sum::<Gf128>()
            }
        };
        circuit + other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::{Builtin, StatementCircuit};
    use crate::protocol::{batch_params_zk, Matrices};
    use crate::Profile;
    use alloc::vec::Vec;

    /// Field elements from a fixed 64-bit generator (splitmix64).
    fn elements(count: usize, mut state: u64) -> Vec<Gf128> {
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        (0..count)
            .map(|_| Gf128::new(u128::from(next()) << 64 | u128::from(next())))
            .collect()
    }

    /// The views' bilinear forms are the built matrices' (linear in both
    /// weight vectors, so random vectors check every entry's weight), with
    /// their own columns' weights or the first view's, and both fit the
    /// shape, for real zero-knowledge layouts.
    #[test]
    fn views_read_as_the_moved_matrices() {
        let mut seed = 1;
        for (builtin, instances, profile) in [
            (Builtin::Sha256, 5, Profile::Default),
            (Builtin::Sha256, 1000, Profile::Secure),
            (Builtin::KeccakF1600, 200, Profile::Default),
        ] {
            let circuit = &*StatementCircuit::builtin(builtin);
            let params = batch_params_zk(circuit, instances, profile).unwrap();
            let k = params.shape.k();
            let Matrices::Placed(built) = params.lincheck_matrices(circuit) else {
                panic!("a zero-knowledge batch moves its matrices")
            };
            let views = params.matrix_views(circuit);
            for (m, view) in built.iter().zip(&views) {
                m.check_square(k).unwrap();
                view.check_square(k).unwrap();
                assert!(view.check_square(k - 1).is_err());
                for _ in 0..2 {
                    seed += 2;
                    let (rows, cols) = (elements(1 << k, seed), elements(1 << k, seed + 1));
                    assert_eq!(
                        view.bilinear(&rows, &cols),
                        m.bilinear(&rows, &cols),
                        "{builtin:?}"
                    );
                    // The columns as the first view reads them, shared.
                    let read = views[0].read_columns(&cols);
                    assert_eq!(
                        view.bilinear_read(&rows, &cols, read.as_deref()),
                        m.bilinear(&rows, &cols),
                        "{builtin:?}, shared columns"
                    );
                }
            }
        }
    }
}
