//! Plain, slow versions of the zerocheck prover's kernels, for tests of the
//! fast paths on small random inputs. Everything here works on field
//! elements directly: Lagrange polynomials from their defining product, `eq`
//! from its definition, no byte tables and no bit slicing.

use starling_field::Gf128;
use starling_poly::multilinear::eq_table;

use crate::skip::{domain_point, EXTRA_POINTS, SKIP_SIZE};
use crate::Shape;

/// `L_y(r) = prod_{s != y} (r - s_s) / (s_y - s_s)`.
pub fn lagrange_product_form(y: usize, r: Gf128) -> Gf128 {
    let sy = domain_point(y);
    let (num, den) = (0..SKIP_SIZE)
        .filter(|&s| s != y)
        .fold((Gf128::ONE, Gf128::ONE), |(n, d), s| {
            (n * (r + domain_point(s)), d * (sy + domain_point(s)))
        });
    num * den.inverse().expect("distinct domain points")
}

/// `[L_y(r) for y < 64]`, each from the product form.
pub fn lagrange_column(r: Gf128) -> Vec<Gf128> {
    (0..SKIP_SIZE).map(|y| lagrange_product_form(y, r)).collect()
}

/// `f_hat_word(r) = sum_y bit y of word * L_y(r)`, given `lagrange_column(r)`.
pub fn word_poly_with(word: u64, column: &[Gf128]) -> Gf128 {
    (0..SKIP_SIZE)
        .filter(|&y| (word >> y) & 1 == 1)
        .map(|y| column[y])
        .sum()
}

/// `f_hat_word(r) = sum_y bit y of word * L_y(r)`.
pub fn word_poly_at(word: u64, r: Gf128) -> Gf128 {
    word_poly_with(word, &lagrange_column(r))
}

/// `P_ab(r) = sum_{x'} eq(tau', x') a_hat(r) b_hat(r)`.
pub fn p_ab_at(a: &[u64], b: &[u64], tau: &[Gf128], r: Gf128) -> Gf128 {
    let eq = eq_table(tau);
    let col = lagrange_column(r);
    a.iter()
        .zip(b)
        .zip(&eq)
        .map(|((&wa, &wb), &e)| e * word_poly_with(wa, &col) * word_poly_with(wb, &col))
        .sum()
}

/// `P_c(r) = sum_{x'} eq(tau', x') c_hat(r)`.
pub fn p_c_at(c: &[u64], tau: &[Gf128], r: Gf128) -> Gf128 {
    let eq = eq_table(tau);
    let col = lagrange_column(r);
    c.iter()
        .zip(&eq)
        .map(|(&w, &e)| e * word_poly_with(w, &col))
        .sum()
}

/// The skip messages the slow way: `v_y = P_c(s_y)` and `P_ab` at the extra points.
pub fn skip_messages(
    shape: Shape,
    a: &[u64],
    b: &[u64],
    c: &[u64],
    tau: &[Gf128],
) -> (Vec<Gf128>, Vec<Gf128>) {
    assert_eq!(a.len(), shape.num_words());
    let eq = eq_table(tau);
    let v = (0..SKIP_SIZE)
        .map(|y| {
            c.iter()
                .zip(&eq)
                .filter(|(&w, _)| (w >> y) & 1 == 1)
                .map(|(_, &e)| e)
                .sum()
        })
        .collect();
    let p = (0..EXTRA_POINTS)
        .map(|i| p_ab_at(a, b, tau, domain_point(SKIP_SIZE + i)))
        .collect();
    (v, p)
}

/// `out[x'] = f_hat_{x'}(r0)`.
pub fn fold(words: &[u64], r0: Gf128) -> Vec<Gf128> {
    let col = lagrange_column(r0);
    words.iter().map(|&w| word_poly_with(w, &col)).collect()
}

/// `sum_{x'} eq(tau', x') A(x') B(x')`, the sumcheck's starting claim.
pub fn eq_weighted_product(fa: &[Gf128], fb: &[Gf128], tau: &[Gf128]) -> Gf128 {
    let eq = eq_table(tau);
    fa.iter().zip(fb).zip(&eq).map(|((x, y), e)| *e * *x * *y).sum()
}
