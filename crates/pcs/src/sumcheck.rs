//! Batched versions of the degree-2 sumcheck round and the lowest-variable
//! fold, for the prover's large tables. They compute exactly what
//! `starling_poly::sumcheck_round::product_round` and
//! `starling_poly::multilinear::fold_lowest_in_place` compute (tested below),
//! but hand the products to the field backend one chunk at a time instead of
//! dispatching per element.

use starling_field::{backend, Gf128};
use starling_poly::sumcheck_round::QuadraticRound;

const CHUNK: usize = 256;

/// The round message for `sum_x f(x) g(x)` binding the lowest variable.
pub(crate) fn product_round(f: &[Gf128], g: &[Gf128]) -> QuadraticRound {
    assert_eq!(f.len(), g.len(), "tables must have equal length");
    let (mut acc0, mut acc2) = ([0u128; CHUNK], [0u128; CHUNK]);
    let (mut a, mut b, mut c, mut d) = ([0u128; CHUNK], [0u128; CHUNK], [0u128; CHUNK], [0u128; CHUNK]);
    for (fc, gc) in f.chunks(2 * CHUNK).zip(g.chunks(2 * CHUNK)) {
        let n = fc.len() / 2;
        for j in 0..n {
            let (f0, f1, g0, g1) = (
                fc[2 * j].to_bits(),
                fc[2 * j + 1].to_bits(),
                gc[2 * j].to_bits(),
                gc[2 * j + 1].to_bits(),
            );
            a[j] = f0;
            b[j] = g0;
            c[j] = f0 ^ f1;
            d[j] = g0 ^ g1;
        }
        backend::mul_add_slices(&mut acc0[..n], &a[..n], &b[..n]);
        backend::mul_add_slices(&mut acc2[..n], &c[..n], &d[..n]);
    }
    let fold = |v: &[u128]| Gf128::new(v.iter().fold(0, |x, y| x ^ y));
    QuadraticRound {
        c0: fold(&acc0),
        c2: fold(&acc2),
    }
}

/// `table[j] = table[2j] + r (table[2j] + table[2j+1])`, then halves the length.
pub(crate) fn fold_in_place(table: &mut Vec<Gf128>, r: Gf128) {
    let half = table.len() / 2;
    let mut diff = [0u128; CHUNK];
    let mut start = 0;
    while start < half {
        let n = CHUNK.min(half - start);
        for (k, dk) in diff[..n].iter_mut().enumerate() {
            let j = start + k;
            *dk = (table[2 * j] + table[2 * j + 1]).to_bits();
        }
        backend::scale_slice(&mut diff[..n], r.to_bits());
        for (k, dk) in diff[..n].iter().enumerate() {
            let j = start + k;
            table[j] = table[2 * j] + Gf128::new(*dk);
        }
        start += n;
    }
    table.truncate(half);
}

/// Out-of-place fold of a borrowed table.
pub(crate) fn fold(table: &[Gf128], r: Gf128) -> Vec<Gf128> {
    let half = table.len() / 2;
    let mut out = Vec::with_capacity(half);
    let mut diff = [0u128; CHUNK];
    for pairs in table.chunks(2 * CHUNK) {
        let n = pairs.len() / 2;
        for (k, dk) in diff[..n].iter_mut().enumerate() {
            *dk = (pairs[2 * k] + pairs[2 * k + 1]).to_bits();
        }
        backend::scale_slice(&mut diff[..n], r.to_bits());
        out.extend(
            diff[..n]
                .iter()
                .enumerate()
                .map(|(k, dk)| pairs[2 * k] + Gf128::new(*dk)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_poly::multilinear::{fold_lowest, fold_lowest_in_place};

    fn table(n: usize, seed: u128) -> Vec<Gf128> {
        (0..n as u128)
            .map(|i| Gf128::new((i + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
            .collect()
    }

    #[test]
    fn batched_kernels_match_reference() {
        for n in [2usize, 8, 512, 1024, 2048 + 2] {
            let (f, g) = (table(n, 1), table(n, 7));
            assert_eq!(
                product_round(&f, &g),
                starling_poly::sumcheck_round::product_round(&f, &g),
                "n = {n}"
            );
            let r = Gf128::new(0x1234_5678_9abc_def0_0fed_cba9);
            assert_eq!(fold(&f, r), fold_lowest(&f, r));
            let (mut a, mut b) = (f.clone(), f.clone());
            fold_in_place(&mut a, r);
            fold_lowest_in_place(&mut b, r);
            assert_eq!(a, b);
        }
    }
}
