//! One round of a sumcheck over a product of two multilinear tables.
//!
//! For `sum_x f(x) g(x) = claim`, binding the lowest variable X gives the
//! round polynomial `h(X) = c0 + c1 X + c2 X^2` with
//! `c0 = sum_j f[2j] g[2j]` and `c2 = sum_j (f[2j] + f[2j+1]) (g[2j] + g[2j+1])`.
//! In characteristic 2, `h(0) + h(1) = c1 + c2`, so the prover sends only
//! `(c0, c2)` and the verifier recovers `c1 = claim + c2`. Every sumcheck of
//! degree 2 in Starling (lincheck, PCS opening) uses this message shape.

use crate::multilinear::{PAR_CHUNK, PAR_MIN_LEN};
use rayon::prelude::*;
use starling_field::Gf128;

/// The prover's message for one degree-2 round: `h(0)` and the `X^2` coefficient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct QuadraticRound {
    /// `h(0)`.
    pub c0: Gf128,
    /// Coefficient of `X^2`.
    pub c2: Gf128,
}

impl QuadraticRound {
    /// The next claim `h(r)`, with `c1` recovered from the current claim.
    pub fn next_claim(&self, claim: Gf128, r: Gf128) -> Gf128 {
        let c1 = claim + self.c2;
        self.c0 + r * (c1 + r * self.c2)
    }
}

/// The round message for `sum_x f(x) g(x)` binding the lowest variable.
///
/// Tables of [`crate::multilinear::PAR_MIN_LEN`] entries or more are summed
/// in chunks on rayon's threads (the sums are exact, so the message is the
/// same on any number of threads).
pub fn product_round(f: &[Gf128], g: &[Gf128]) -> QuadraticRound {
    assert_eq!(f.len(), g.len(), "tables must have equal length");
    if f.len() < PAR_MIN_LEN {
        return product_round_serial(f, g);
    }
    f.par_chunks(PAR_CHUNK)
        .zip(g.par_chunks(PAR_CHUNK))
        .map(|(f, g)| product_round_serial(f, g))
        .reduce(QuadraticRound::default, |x, y| QuadraticRound {
            c0: x.c0 + y.c0,
            c2: x.c2 + y.c2,
        })
}

/// [`product_round`] on the calling thread.
fn product_round_serial(f: &[Gf128], g: &[Gf128]) -> QuadraticRound {
    let mut c0 = Gf128::ZERO;
    let mut c2 = Gf128::ZERO;
    for (fp, gp) in f.chunks_exact(2).zip(g.chunks_exact(2)) {
        c0 += fp[0] * gp[0];
        c2 += (fp[0] + fp[1]) * (gp[0] + gp[1]);
    }
    QuadraticRound { c0, c2 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multilinear::{evaluate, fold_lowest};

    #[test]
    fn round_is_consistent_with_folding() {
        let f: Vec<Gf128> = (1..=8u128).map(|i| Gf128::new(i * 0x1357)).collect();
        let g: Vec<Gf128> = (1..=8u128).map(|i| Gf128::new(i * 0x2468 + 1)).collect();
        let claim: Gf128 = f.iter().zip(&g).map(|(a, b)| *a * *b).sum();
        let round = product_round(&f, &g);
        let r = Gf128::new(0xfeed_beef);
        let (f1, g1) = (fold_lowest(&f, r), fold_lowest(&g, r));
        let next: Gf128 = f1.iter().zip(&g1).map(|(a, b)| *a * *b).sum();
        assert_eq!(round.next_claim(claim, r), next);
        let _ = evaluate(&f1, &[r, r]);
    }

    #[test]
    fn long_tables_give_the_serial_round() {
        let len = 4 * PAR_MIN_LEN;
        let f: Vec<Gf128> = (0..len as u128)
            .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 7))
            .collect();
        let g: Vec<Gf128> = (0..len as u128)
            .map(|i| Gf128::new(i.wrapping_mul(0x2545_f491_4f6c_dd1d) + 3))
            .collect();
        assert_eq!(product_round(&f, &g), product_round_serial(&f, &g));
    }
}
