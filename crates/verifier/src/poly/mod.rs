//! Multilinear polynomials as a verifier evaluates them, one element at a
//! time, and the message of a degree-2 sumcheck round.
//!
//! A table `t` of length 2^m holds `t[x] = f(x_0, .., x_{m-1})` with `x_i`
//! bit i of the index. The multilinear extension is `f(r) = sum_x eq(r, x)
//! t[x]` with `eq(r, x) = prod_i (r_i x_i + (1 + r_i)(1 + x_i))`
//! (characteristic 2), which on a Boolean `x` is `prod_i (1 + r_i + x_i)`.
//! The prover's versions of [`eq_table`] and [`evaluate`] (`starling-poly`'s
//! `multilinear`) run long tables on threads and are tested against these.

pub mod novel_basis;

use alloc::vec;
use alloc::vec::Vec;

use crate::field::scale_into;
use crate::Gf128;

/// `eq(a, b) = prod_i (1 + a_i + b_i)`: the multilinear equality polynomial
/// at two arbitrary points of the same length.
pub fn eq_eval(a: &[Gf128], b: &[Gf128]) -> Gf128 {
    assert_eq!(a.len(), b.len(), "eq_eval needs points of equal length");
    a.iter().zip(b).map(|(&x, &y)| Gf128::ONE + x + y).product()
}

/// `eq(P, bits of x)`: the multilinear extension of the unit vector at
/// entry `x`, evaluated at `P` (one product per coordinate).
pub fn eq_at_index(p: &[Gf128], x: usize) -> Gf128 {
    p.iter()
        .enumerate()
        .map(|(b, &u)| if x >> b & 1 == 1 { u } else { Gf128::ONE + u })
        .product()
}

/// The table of `x -> eq(point, x)` over the hypercube of dimension
/// `point.len()`.
pub fn eq_table(point: &[Gf128]) -> Vec<Gf128> {
    let mut table = vec![Gf128::ZERO; 1 << point.len()];
    table[0] = Gf128::ONE;
    for (i, &r) in point.iter().enumerate() {
        // Entries with bit i set are the old ones times r, the others times 1 + r.
        let half = 1usize << i;
        let (lo, hi) = table[..2 * half].split_at_mut(half);
        scale_into(hi, lo, r);
        for (l, h) in lo.iter_mut().zip(hi.iter()) {
            *l += *h;
        }
    }
    table
}

/// The multilinear extension of `table` at `point` (lowest variable first):
/// the lowest variable fixed to `point[0]`, then the next, in place.
pub fn evaluate(table: &[Gf128], point: &[Gf128]) -> Gf128 {
    assert_eq!(
        table.len(),
        1 << point.len(),
        "table length must be 2^(point length)"
    );
    let mut t = table.to_vec();
    for &r in point {
        let half = t.len() / 2;
        for j in 0..half {
            let (a, b) = (t[2 * j], t[2 * j + 1]);
            t[j] = a + r * (a + b);
        }
        t.truncate(half);
    }
    t[0]
}

/// The prover's message for one round of a degree-2 sumcheck: `h(0)` and
/// the `X^2` coefficient of the round polynomial `h(X) = c0 + c1 X + c2 X^2`.
/// In characteristic 2, `h(0) + h(1) = c1 + c2`, so the verifier recovers
/// `c1 = claim + c2`. Every degree-2 sumcheck in Starling (lincheck, the
/// opening) uses this message.
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

/// [`QuadraticRound::next_claim`] on the verifier's values: `h(r)` from
/// `h(0) = c0`, the `X^2` coefficient `c2` and the claim `h(0) + h(1)`, all
/// in the clear or veiled (`crate::zk::veiled`).
pub fn next_claim<V: crate::zk::veiled::Value>(c0: V, c2: V, claim: V, r: Gf128) -> V {
    let c1 = claim + c2.clone();
    c0 + (c1 + c2 * r) * r
}

impl core::ops::Add for QuadraticRound {
    type Output = QuadraticRound;

    /// The message of a sum of sumchecks: coefficients add.
    fn add(self, other: QuadraticRound) -> QuadraticRound {
        QuadraticRound {
            c0: self.c0 + other.c0,
            c2: self.c2 + other.c2,
        }
    }
}
