//! One round of a sumcheck over a product of two multilinear tables.
//!
//! For `sum_x f(x) g(x) = claim`, binding the lowest variable X gives the
//! round polynomial `h(X) = c0 + c1 X + c2 X^2` with
//! `c0 = sum_j f[2j] g[2j]` and `c2 = sum_j (f[2j] + f[2j+1]) (g[2j] + g[2j+1])`.
//! In characteristic 2, `h(0) + h(1) = c1 + c2`, so the prover sends only
//! `(c0, c2)` and the verifier recovers `c1 = claim + c2`. Every sumcheck of
//! degree 2 in Starling (lincheck, PCS opening) uses this message shape.

use crate::multilinear::{fold_lowest_in_place, PAR_CHUNK, PAR_MIN_LEN};
use rayon::prelude::*;
use starling_field::Gf128;

pub use starling_verifier::poly::QuadraticRound;

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
        .reduce(QuadraticRound::default, |x, y| x + y)
}

/// The round message for `sum_i sum_x f_i(x) g_i(x)` over the pairs
/// `(f_i, g_i)`, binding the lowest variable: the pairs side by side on
/// rayon's threads, each also split when long ([`product_round`]). Below
/// [`PAR_MIN_LEN`] a round's tables took turns on one thread, the
/// lincheck's and the wiring check's last rounds on the critical path of
/// their phases.
pub fn pairs_round(pairs: &[(Vec<Gf128>, Vec<Gf128>)]) -> QuadraticRound {
    pairs
        .par_iter()
        .map(|(f, g)| product_round(f, g))
        .reduce(QuadraticRound::default, |x, y| x + y)
}

/// Binds the lowest variable of every table of `pairs` to `r`
/// ([`fold_lowest_in_place`]), the tables side by side on rayon's threads.
pub fn fold_pairs(pairs: &mut [(Vec<Gf128>, Vec<Gf128>)], r: Gf128) {
    pairs.par_iter_mut().for_each(|(f, g)| {
        rayon::join(|| fold_lowest_in_place(f, r), || fold_lowest_in_place(g, r));
    });
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

    #[test]
    fn pairs_are_summed_and_folded_like_single_tables() {
        let table = |len: usize, seed: u128| -> Vec<Gf128> {
            (0..len as u128)
                .map(|i| Gf128::new((i + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed))
                .collect()
        };
        // One pair long enough to split, two short ones.
        let mut pairs: Vec<(Vec<Gf128>, Vec<Gf128>)> = [2 * PAR_MIN_LEN, 64, 8]
            .iter()
            .enumerate()
            .map(|(i, &len)| (table(len, 2 * i as u128 + 1), table(len, 2 * i as u128 + 2)))
            .collect();
        let want = pairs
            .iter()
            .map(|(f, g)| product_round_serial(f, g))
            .fold(QuadraticRound::default(), |a, b| a + b);
        assert_eq!(pairs_round(&pairs), want);
        let r = Gf128::new(0x5eed);
        let folded: Vec<(Vec<Gf128>, Vec<Gf128>)> = pairs
            .iter()
            .map(|(f, g)| (fold_lowest(f, r), fold_lowest(g, r)))
            .collect();
        fold_pairs(&mut pairs, r);
        assert_eq!(pairs, folded);
    }
}
