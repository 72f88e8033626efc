//! Multilinear polynomials given by their values on the Boolean hypercube.
//!
//! A table `t` of length 2^m holds `t[x] = f(x_0, .., x_{m-1})` with `x_i` bit
//! i of the index. The multilinear extension is
//! `f(r) = sum_x eq(r, x) t[x]` with `eq(r, x) = prod_i (r_i x_i + (1 + r_i)(1 + x_i))`
//! (characteristic 2), which on a Boolean `x` is `prod_i (1 + r_i + x_i)`.

use rayon::prelude::*;
use starling_field::Gf128Slices;
use starling_field::{backend, scratch, Gf128};

pub use starling_verifier::poly::eq_eval;

/// The table of `x -> eq(point, x)` over the hypercube of dimension `point.len()`.
/// Its doublings of [`PAR_MIN_LEN`] entries or more run on rayon's threads
/// (the prover builds tables of `2^n` instance weights in every phase), and
/// a long table is cleared there too ([`scratch::filled`]).
pub fn eq_table(point: &[Gf128]) -> Vec<Gf128> {
    let mut table = scratch::filled(1 << point.len(), Gf128::ZERO);
    table[0] = Gf128::ONE;
    for (i, &r) in point.iter().enumerate() {
        // Entries with bit i set are the old ones times r, the others times 1 + r.
        let half = 1usize << i;
        let (lo, hi) = table[..2 * half].split_at_mut(half);
        if half < PAR_MIN_LEN {
            double(lo, hi, r);
        } else {
            lo.par_chunks_mut(PAR_CHUNK)
                .zip(hi.par_chunks_mut(PAR_CHUNK))
                .for_each(|(lo, hi)| double(lo, hi, r));
        }
    }
    table
}

/// One doubling of [`eq_table`]: `hi = r lo`, then `lo += hi`, one vector
/// product pass and sums.
fn double(lo: &mut [Gf128], hi: &mut [Gf128], r: Gf128) {
    backend::scale_into(
        Gf128::as_u128_slice_mut(hi),
        Gf128::as_u128_slice(lo),
        r.to_bits(),
    );
    for (l, h) in lo.iter_mut().zip(hi.iter()) {
        *l += *h;
    }
}

/// Tables at least this long are folded (and their product rounds summed,
/// [`crate::sumcheck_round::product_round`]) on rayon's threads: the
/// wiring and lincheck sumchecks run over `2^n` instances, and on sixteen
/// threads their first rounds on one thread took most of the wiring phase.
pub const PAR_MIN_LEN: usize = 1 << 14;

/// Entries per rayon task of those passes.
pub(crate) const PAR_CHUNK: usize = 1 << 12;

/// Fixes the lowest variable to `r`: `out[j] = t[2j] + r (t[2j+1] + t[2j])`.
pub fn fold_lowest(table: &[Gf128], r: Gf128) -> Vec<Gf128> {
    let fold = |p: &[Gf128]| p[0] + r * (p[1] + p[0]);
    if table.len() < PAR_MIN_LEN {
        return table.chunks_exact(2).map(fold).collect();
    }
    table
        .par_chunks_exact(2)
        .with_min_len(PAR_CHUNK / 2)
        .map(fold)
        .collect()
}

/// In-place version of [`fold_lowest`]: the first half of `table` becomes the
/// folded table and the vector is truncated. A long table is folded into a
/// new vector on rayon's threads (in place, a thread's writes would land
/// where another still reads).
pub fn fold_lowest_in_place(table: &mut Vec<Gf128>, r: Gf128) {
    if table.len() >= PAR_MIN_LEN {
        *table = fold_lowest(table, r);
        return;
    }
    let half = table.len() / 2;
    for j in 0..half {
        let (a, b) = (table[2 * j], table[2 * j + 1]);
        table[j] = a + r * (a + b);
    }
    table.truncate(half);
}

/// The multilinear extension of `table` at `point` (lowest variable first).
pub fn evaluate(table: &[Gf128], point: &[Gf128]) -> Gf128 {
    assert_eq!(
        table.len(),
        1 << point.len(),
        "table length must be 2^(point length)"
    );
    if point.is_empty() {
        return table[0];
    }
    let mut t = fold_lowest(table, point[0]);
    for &r in &point[1..] {
        fold_lowest_in_place(&mut t, r);
    }
    t[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verifier's one-at-a-time definitions give what the prover's
    /// threaded passes give, short tables and long ones.
    #[test]
    fn eq_tables_and_evaluations_match_the_verifiers() {
        for m in [0usize, 1, 5, 15] {
            let point: Vec<Gf128> = (0..m as u128)
                .map(|i| Gf128::new((i + 3) * 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))
                .collect();
            let table = eq_table(&point);
            assert_eq!(table, starling_verifier::poly::eq_table(&point), "m {m}");
            assert_eq!(
                evaluate(&table, &point),
                starling_verifier::poly::evaluate(&table, &point),
                "m {m}"
            );
        }
    }

    fn pt(vals: &[u128]) -> Vec<Gf128> {
        vals.iter().map(|&v| Gf128::new(v)).collect()
    }

    #[test]
    fn long_tables_fold_like_short_ones() {
        let r = Gf128::new(0x1234_5678_9abc_def0);
        let table: Vec<Gf128> = (0..4 * PAR_MIN_LEN as u128)
            .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 5))
            .collect();
        let expected: Vec<Gf128> = table.chunks_exact(2).map(|p| p[0] + r * (p[1] + p[0])).collect();
        assert_eq!(fold_lowest(&table, r), expected);
        let mut in_place = table.clone();
        fold_lowest_in_place(&mut in_place, r);
        assert_eq!(in_place, expected);
    }

    #[test]
    fn eq_table_matches_eq_eval_on_hypercube() {
        let r = pt(&[0x1234, 0xabcdef, 7, 1 << 100]);
        let t = eq_table(&r);
        assert_eq!(t.len(), 16);
        for (x, &tx) in t.iter().enumerate() {
            let xb: Vec<Gf128> = (0..4).map(|i| Gf128::from((x >> i) & 1 == 1)).collect();
            assert_eq!(tx, eq_eval(&r, &xb), "x = {x}");
        }
        assert_eq!(t.iter().copied().sum::<Gf128>(), Gf128::ONE);
    }

    #[test]
    fn long_eq_tables_agree_with_eq_eval() {
        // Doublings past PAR_MIN_LEN run in parallel chunks.
        let m = PAR_MIN_LEN.ilog2() as usize + 2;
        let r: Vec<Gf128> = (0..m as u128)
            .map(|i| Gf128::new((i + 3).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        let t = eq_table(&r);
        assert_eq!(t.len(), 1 << m);
        for x in [
            0usize,
            1,
            PAR_MIN_LEN - 1,
            PAR_MIN_LEN,
            3 * PAR_MIN_LEN + 5,
            (1 << m) - 1,
        ] {
            let xb: Vec<Gf128> = (0..m).map(|i| Gf128::from((x >> i) & 1 == 1)).collect();
            assert_eq!(t[x], eq_eval(&r, &xb), "x = {x}");
        }
        assert_eq!(t.iter().copied().sum::<Gf128>(), Gf128::ONE);
    }

    #[test]
    fn evaluate_agrees_with_eq_sum() {
        let table = pt(&[3, 5, 7, 11, 13, 17, 19, 23]);
        let r = pt(&[0x99, 0x1_0000_0001, 42]);
        let eq = eq_table(&r);
        let direct: Gf128 = table.iter().zip(&eq).map(|(a, b)| *a * *b).sum();
        assert_eq!(evaluate(&table, &r), direct);
        // On a Boolean point, evaluation is a table lookup.
        let b = pt(&[1, 0, 1]);
        assert_eq!(evaluate(&table, &b), table[5]);
    }
}
