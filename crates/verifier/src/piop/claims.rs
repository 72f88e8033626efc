//! Evaluation claims on the bit witness `z`, in the form later layers consume.
//!
//! Every claim this layer produces weighs the instances by a product: 64
//! arbitrary weights on the low 6 instance bits (the skip variables, one
//! `u64` word) times `eq` over the remaining `n - 6` instance bits, and then
//! `eq` over the `k` wire bits. The zerocheck and lincheck put the Lagrange
//! weights `L_y(r0)` of the univariate skip in the low part; the public-value
//! claim puts `eq(rho[..6], .)` there. [`EvalClaim::to_packed`] regroups the
//! same claim as 128 weights on the low 7 instance bits and an `eq` point on
//! the other `l - 7` variables, the shape the PCS layer opens.

use alloc::vec::Vec;

use super::SKIP_VARS;
use crate::field::subset_sums;
use crate::poly::{eq_eval, eq_table};
use crate::Gf128;

/// Instance weights `W(inst) = low[inst % 64] * eq(point_hi, inst >> 6)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceWeights {
    /// Weights of the 64 values of the low 6 instance bits.
    pub low: [Gf128; 64],
    /// Point for instance bits 6..n (`n - 6` coordinates).
    pub point_hi: Vec<Gf128>,
}

impl InstanceWeights {
    /// `W(inst) = eq(point, inst)` for a point with `n` coordinates (n >= 6).
    pub fn from_point(point: &[Gf128]) -> Self {
        assert!(
            point.len() >= SKIP_VARS,
            "an instance point has at least 6 coordinates"
        );
        let table = eq_table(&point[..SKIP_VARS]);
        let mut low = [Gf128::ZERO; 64];
        low.copy_from_slice(&table);
        InstanceWeights {
            low,
            point_hi: point[SKIP_VARS..].to_vec(),
        }
    }

    /// `W(inst)`, computed directly (reference; O(n)).
    pub fn weight(&self, inst: usize) -> Gf128 {
        let hi: Vec<Gf128> = (0..self.point_hi.len())
            .map(|i| Gf128::from((inst >> (SKIP_VARS + i)) & 1 == 1))
            .collect();
        self.low[inst % 64] * eq_eval(&self.point_hi, &hi)
    }

    /// The 128 weights of the low 7 instance bits:
    /// `lambda(u) = low[u % 64] * eq(point_hi[0], u >> 6)`.
    pub fn lambda(&self) -> Vec<Gf128> {
        assert!(!self.point_hi.is_empty(), "lambda needs n >= 7");
        let t = self.point_hi[0];
        (0..128)
            .map(|u| self.low[u % 64] * if u >= 64 { t } else { Gf128::ONE + t })
            .collect()
    }

    /// The eight byte tables of the low weights: entry `m` of table `j` is
    /// the sum of `low[8j + i]` over the set bits `i` of `m`, so the weighted
    /// sum of the 64 bits of a word is eight lookups.
    pub fn byte_tables(&self) -> Vec<[Gf128; 256]> {
        (0..8).map(|j| subset_sums(&self.low[8 * j..8 * j + 8])).collect()
    }
}

/// The weighted sum of the 64 bits of `word` through [`InstanceWeights::byte_tables`].
#[inline]
pub fn weigh_word(tables: &[[Gf128; 256]], word: u64) -> Gf128 {
    let mut acc = Gf128::ZERO;
    for (j, t) in tables.iter().enumerate() {
        acc += t[((word >> (8 * j)) & 0xff) as usize];
    }
    acc
}

/// A claim `sum_{inst, wire} W(inst) eq(wire_point, wire) z(inst, wire) = value`;
/// the value in the clear, or veiled (`crate::zk::veiled`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalClaim<V = Gf128> {
    /// The instance weights `W`.
    pub weights: InstanceWeights,
    /// The wire point (`k` coordinates).
    pub wire_point: Vec<Gf128>,
    /// The claimed value.
    pub value: V,
}

/// The claim regrouped for the PCS is the PCS's own claim type:
/// `sum_{u < 128} lambda(u) sum_rest eq(point, rest) z(u + 128 rest) = value`,
/// where `rest` runs over instance bits 7..n and then the wire bits.
pub use crate::pcs::PackedClaim;

impl<V: Clone> EvalClaim<V> {
    /// The same claim in the PCS's shape.
    pub fn to_packed(&self) -> PackedClaim<V> {
        let mut point = self.weights.point_hi[1..].to_vec();
        point.extend_from_slice(&self.wire_point);
        PackedClaim {
            lambda: self.weights.lambda(),
            point,
            value: self.value.clone(),
        }
    }
}
