//! The prover's side of the univariate skip: the Lagrange weights at the
//! extra points as GF(2^8) values, from which it reads `f_hat(e)` out of
//! byte tables. The skip domain, its weights and the interpolation are the
//! verifier's (`starling_verifier::piop::skip`, re-exported).

use std::sync::OnceLock;

use starling_field::Gf8;
pub use starling_verifier::piop::skip::*;

/// `L_y(e)` for the extra points: `table[e - 64][y]`, GF(2^8) values.
pub(crate) fn lagrange_at_extra_points() -> &'static [[Gf8; SKIP_SIZE]; EXTRA_POINTS] {
    static TABLE: OnceLock<[[Gf8; SKIP_SIZE]; EXTRA_POINTS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let c = subspace_constant();
        let mut t = [[Gf8(0); SKIP_SIZE]; EXTRA_POINTS];
        for (idx, row) in t.iter_mut().enumerate() {
            let e = (SKIP_SIZE + idx) as u8;
            // In characteristic 2, e - s = e ^ s; e is outside S so none is 0.
            let zs = gf8_prod((0..SKIP_SIZE).map(|s| Gf8(e ^ s as u8)));
            for (y, v) in row.iter_mut().enumerate() {
                *v = zs * gf8_inverse(c * Gf8(e ^ y as u8));
            }
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_point_table_matches_embedding() {
        let t = lagrange_at_extra_points();
        for idx in [0usize, 17, 62] {
            for y in [0usize, 1, 33, 63] {
                assert_eq!(t[idx][y].embed(), lagrange_weights(domain_point(64 + idx))[y]);
            }
        }
    }
}
