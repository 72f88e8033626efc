//! The novel polynomial basis of Lin, Chung and Han ("Novel polynomial
//! basis and its application to Reed–Solomon erasure codes", FOCS 2014) on
//! GF(2)-subspaces of GF(2^128): what a verifier needs of the code the
//! commitment uses. The transform itself is the prover's
//! (`starling-poly`'s `additive_ntt`), built on these definitions.
//!
//! The subspace basis is `beta_b = x^b` (the element with integer value
//! 2^b), so the evaluation point with integer label `q` is `Gf128::new(q)`.
//! With the subspace vanishing polynomials `W_0(Y) = Y`, `W_{i+1}(Y) =
//! W_i(Y)(W_i(Y) + W_i(beta_i))` and their normalisations `What_i = W_i /
//! W_i(beta_i)`, the novel basis is `X_j(Y) = prod_b What_b(Y)^{j_b}`. Every
//! `What_i` is GF(2)-linear, so `What_i(q)` is the XOR of `What_i(beta_c)`
//! over the set bits `c` of `q`; one 64 x 128 table of those values drives
//! the code.

use alloc::boxed::Box;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use crate::Gf128;

/// Number of basis indices `i` for which `What_i` is tabulated.
const TABLE_ROWS: usize = 64;

/// `What_i(beta_c)` for `i < 64` and every `c < 128`.
fn what_table() -> &'static [[Gf128; 128]] {
    static TABLE: OnceBox<Vec<[Gf128; 128]>> = OnceBox::new();
    TABLE.get_or_init(|| {
        Box::new({
            // w[c] = W_i(beta_c), updated from i to i + 1 by the recurrence.
            let mut w: Vec<Gf128> = (0..128).map(|c| Gf128::new(1u128 << c)).collect();
            let mut table = Vec::with_capacity(TABLE_ROWS);
            for i in 0..TABLE_ROWS {
                let norm = w[i];
                // beta_i is outside span(beta_0..beta_{i-1}), so W_i(beta_i) != 0.
                let inv = norm.inverse().expect("W_i(beta_i) is nonzero");
                let mut row = [Gf128::ZERO; 128];
                for c in 0..128 {
                    row[c] = w[c] * inv;
                }
                table.push(row);
                for v in w.iter_mut() {
                    *v = *v * (*v + norm);
                }
            }
            table
        })
    })
}

/// `What_i(q)`: the normalised vanishing polynomial of `span(beta_0..beta_{i-1})`
/// at the domain point with integer label `q`.
#[inline]
pub fn normalized_vanishing(i: usize, q: u64) -> Gf128 {
    let row = &what_table()[i];
    // What_i(beta_c) = 0 for c < i, so only the bits from i upwards matter.
    let mut bits = q >> i;
    let mut c = i;
    let mut acc = Gf128::ZERO;
    while bits != 0 {
        let tz = bits.trailing_zeros() as usize;
        c += tz;
        acc += row[c];
        bits >>= tz;
        bits &= !1;
    }
    acc
}

/// `What_i(y)` at an arbitrary field element `y` (by linearity over its bits).
pub fn normalized_vanishing_at(i: usize, y: Gf128) -> Gf128 {
    let row = &what_table()[i];
    (0..128).filter(|&c| y.bit(c)).map(|c| row[c]).sum()
}

/// `X_j(y) = prod_b What_b(y)^{j_b}`, the novel basis polynomial `j` at `y`.
pub fn novel_basis_at(j: u64, y: Gf128) -> Gf128 {
    let mut acc = Gf128::ONE;
    for b in 0..64 {
        if (j >> b) & 1 == 1 {
            acc *= normalized_vanishing_at(b, y);
        }
    }
    acc
}

/// The multilinear extension over `j in {0,1}^m` of
/// `j -> X_j(omega_q)`, evaluated at `point`:
/// `prod_b (1 + u_b + u_b What_b(omega_q))`. This is the MLE of row `q` of the
/// Reed–Solomon generator matrix, which a PCS verifier needs per query.
pub fn generator_row_mle(m: usize, q: u64, point: &[Gf128]) -> Gf128 {
    assert_eq!(point.len(), m, "point must have m coordinates");
    point
        .iter()
        .enumerate()
        .map(|(b, &u)| Gf128::ONE + u * (Gf128::ONE + normalized_vanishing(b, q)))
        .product()
}
