//! The univariate-skip domain: polynomials of degree < 64 on a GF(2)-subspace
//! of GF(2^8), and the values the zerocheck needs from them.
//!
//! The 64 bits of one witness word are the values of a polynomial `f_hat` of
//! degree < 64 on `S = {s_y = embed(y) : y < 64}`, a 6-dimensional
//! GF(2)-subspace of the GF(2^8) subfield of F (bytes with the top two bits
//! clear). Since `S` is a subspace, the Lagrange basis has a closed form
//! (the "univariate skip", Gruen, "Some improvements for the PIOP for
//! ZeroCheck", ePrint 2024/108; Binius's skip over a subfield subspace):
//! `L_y(r) = Z_S(r) / (c (r + s_y))` with `Z_S(Y) = prod_{s in S}(Y + s)` and
//! `c = prod_{u in S, u != 0} u = Z_S'(s_y)` for every `y`.
//! On the 63 extra points `E' = {embed(e) : 64 <= e < 127}` every `L_y` is a
//! GF(2^8) value, so `f_hat(e)` is a GF(2^8)-valued GF(2)-linear function of
//! the bits: the prover reads it from byte tables (`starling-piop`'s
//! `skip`, built on these definitions).

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use crate::field::Gf8;
use crate::Gf128;

/// Size of the skip domain `S`.
pub const SKIP_SIZE: usize = 64;
/// Number of extra points `E'` at which the prover evaluates `P_ab`.
pub const EXTRA_POINTS: usize = 63;
/// Number of interpolation points: degree of `P_ab` plus one.
pub const INTERPOLATION_POINTS: usize = SKIP_SIZE + EXTRA_POINTS;

/// The `j`-th interpolation point `embed(j)` (`j < 64`: `s_j`; else an extra point).
pub fn domain_point(j: usize) -> Gf128 {
    debug_assert!(j < 256);
    Gf8(j as u8).embed()
}

/// The inverse of a nonzero GF(2^8) element.
pub fn gf8_inverse(a: Gf8) -> Gf8 {
    // a^254 = a^-1 for a != 0 (the group of units has order 255).
    let mut acc = Gf8(1);
    let mut base = a;
    let mut e = 254u32;
    while e != 0 {
        if e & 1 == 1 {
            acc = acc * base;
        }
        base = base * base;
        e >>= 1;
    }
    acc
}

/// The product of GF(2^8) elements.
pub fn gf8_prod(items: impl Iterator<Item = Gf8>) -> Gf8 {
    items.fold(Gf8(1), |a, b| a * b)
}

/// `c = prod_{u in S, u != 0} u`, in GF(2^8).
pub fn subspace_constant() -> Gf8 {
    gf8_prod((1..SKIP_SIZE).map(|u| Gf8(u as u8)))
}

/// Replaces every element by its inverse (Montgomery's trick: one inversion).
/// Every input must be nonzero.
pub fn batch_invert(vs: &mut [Gf128]) {
    let mut prefix = Vec::with_capacity(vs.len());
    let mut acc = Gf128::ONE;
    for v in vs.iter() {
        prefix.push(acc);
        acc *= *v;
    }
    let mut inv = acc.inverse().expect("batch_invert needs nonzero inputs");
    for (v, p) in vs.iter_mut().zip(prefix).rev() {
        let orig = *v;
        *v = inv * p;
        inv *= orig;
    }
}

/// The 64 Lagrange weights `L_y(r0)` of the skip domain `S`.
pub fn lagrange_weights(r0: Gf128) -> [Gf128; SKIP_SIZE] {
    let mut out = [Gf128::ZERO; SKIP_SIZE];
    if let Some(y) = (0..SKIP_SIZE).find(|&y| domain_point(y) == r0) {
        out[y] = Gf128::ONE;
        return out;
    }
    let diffs: Vec<Gf128> = (0..SKIP_SIZE).map(|y| r0 + domain_point(y)).collect();
    let zs: Gf128 = diffs.iter().copied().product();
    let c = subspace_constant().embed();
    let mut dens: Vec<Gf128> = diffs.iter().map(|&d| c * d).collect();
    batch_invert(&mut dens);
    for (o, d) in out.iter_mut().zip(dens) {
        *o = zs * d;
    }
    out
}

/// Barycentric weights `w_j = 1 / prod_{m != j} (t_j + t_m)` of the 127
/// interpolation points, embedded in F.
fn barycentric_weights() -> &'static [Gf128; INTERPOLATION_POINTS] {
    static W: OnceBox<[Gf128; INTERPOLATION_POINTS]> = OnceBox::new();
    W.get_or_init(|| {
        let mut w = Box::new([Gf128::ZERO; INTERPOLATION_POINTS]);
        for (j, wj) in w.iter_mut().enumerate() {
            let d = gf8_prod(
                (0..INTERPOLATION_POINTS)
                    .filter(|&m| m != j)
                    .map(|m| Gf8((j ^ m) as u8)),
            );
            *wj = gf8_inverse(d).embed();
        }
        w
    })
}

/// The value at `r` of the unique polynomial of degree < 127 with value
/// `values[j]` at `domain_point(j)`.
pub fn interpolate(values: &[Gf128; INTERPOLATION_POINTS], r: Gf128) -> Gf128 {
    if let Some(j) = (0..INTERPOLATION_POINTS).find(|&j| domain_point(j) == r) {
        return values[j];
    }
    let w = barycentric_weights();
    let mut diffs: Vec<Gf128> = (0..INTERPOLATION_POINTS).map(|j| r + domain_point(j)).collect();
    let z: Gf128 = diffs.iter().copied().product();
    batch_invert(&mut diffs);
    let s: Gf128 = (0..INTERPOLATION_POINTS)
        .map(|j| w[j] * values[j] * diffs[j])
        .sum();
    z * s
}

/// The coefficients of [`interpolate`] at `r`: the interpolant at `r` is
/// `sum_j weights[j] values[j]` (for values the verifier holds veiled).
pub fn interpolation_weights(r: Gf128) -> Vec<Gf128> {
    if let Some(j) = (0..INTERPOLATION_POINTS).find(|&j| domain_point(j) == r) {
        let mut unit = vec![Gf128::ZERO; INTERPOLATION_POINTS];
        unit[j] = Gf128::ONE;
        return unit;
    }
    let w = barycentric_weights();
    let mut diffs: Vec<Gf128> = (0..INTERPOLATION_POINTS).map(|j| r + domain_point(j)).collect();
    let z: Gf128 = diffs.iter().copied().product();
    batch_invert(&mut diffs);
    (0..INTERPOLATION_POINTS).map(|j| z * w[j] * diffs[j]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `L_y(r)` from the defining product, the slow way.
    fn lagrange_slow(y: usize, r: Gf128) -> Gf128 {
        let mut acc = Gf128::ONE;
        for s in 0..SKIP_SIZE {
            if s != y {
                let den = (domain_point(y) + domain_point(s)).inverse().unwrap();
                acc *= (r + domain_point(s)) * den;
            }
        }
        acc
    }

    #[test]
    fn closed_form_matches_product_form() {
        let r = Gf128::new(0x0123_4567_89ab_cdef_1122_3344_5566_7788);
        let w = lagrange_weights(r);
        for (y, wy) in w.iter().enumerate() {
            assert_eq!(*wy, lagrange_slow(y, r), "y = {y}");
        }
        assert_eq!(w.iter().copied().sum::<Gf128>(), Gf128::ONE);
        // On the domain itself the weights are an indicator.
        let w = lagrange_weights(domain_point(5));
        assert!(w.iter().enumerate().all(|(y, v)| *v == Gf128::from(y == 5)));
    }

    #[test]
    fn interpolation_recovers_a_polynomial() {
        // p(Y) = sum_i c_i Y^i with 127 coefficients.
        let coeffs: Vec<Gf128> = (0..127u128).map(|i| Gf128::new(i * 0x9e37_79b9 + 3)).collect();
        let eval = |x: Gf128| coeffs.iter().rev().fold(Gf128::ZERO, |acc, c| acc * x + *c);
        let mut values = [Gf128::ZERO; INTERPOLATION_POINTS];
        for (j, v) in values.iter_mut().enumerate() {
            *v = eval(domain_point(j));
        }
        let r = Gf128::new(0xdead_beef_f00d_1234_5678_9abc_def0_1357);
        assert_eq!(interpolate(&values, r), eval(r));
        assert_eq!(interpolate(&values, domain_point(100)), values[100]);
    }
}
