//! The verifier's side of the public values: `sum_{y in I} eq(rho_y, y)
//! sum_j e[j] value(y, j)` for each relation that binds wires to values.

use std::ops::Range;

use starling_field::{backend, Gf128};

use super::weights::{own_weight_at, EqLookup, Instances};
use crate::claims::InstanceWeights;
use crate::kernels::Kernels;
use crate::zerocheck::Weighing;
use crate::SKIP_VARS;

/// Writes the values of one group of 64 instances: called with the group
/// index `g` and one word per wire of the run, it sets bit `i` of word `j`
/// to the value of wire `j` in instance `64 g + i`, and leaves the bits of
/// instances outside the relation's set zero.
pub type GroupFill<'a> = &'a (dyn Fn(usize, &mut [u64]) + Sync);

/// What a relation's wires equal.
#[derive(Clone, Copy)]
pub enum Values<'a> {
    /// Zero: a wiring relation with no public part.
    Zero,
    /// The same bits in every instance of the set (bit `j` of the run is
    /// bit `j % 64` of word `j / 64`).
    Constant(&'a [u64]),
    /// Different bits in each instance, given 64 instances at a time.
    PerInstance(GroupFill<'a>),
}

impl std::fmt::Debug for Values<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Values::Zero => f.write_str("Zero"),
            Values::Constant(bits) => f.debug_tuple("Constant").field(bits).finish(),
            Values::PerInstance(_) => f.write_str("PerInstance(..)"),
        }
    }
}

/// `sum_{y in set} eq(rho_y, y) sum_j wire_weights[j] value(y, j)`.
pub(crate) fn evaluate(
    values: &Values<'_>,
    set: &Instances,
    rho_y: &[Gf128],
    wire_weights: &[Gf128],
) -> Gf128 {
    match values {
        Values::Zero => Gf128::ZERO,
        Values::Constant(bits) => {
            let folded: Gf128 = wire_weights
                .iter()
                .enumerate()
                .filter(|(j, _)| bits.get(j / 64).is_some_and(|w| (w >> (j % 64)) & 1 == 1))
                .map(|(_, &e)| e)
                .sum();
            folded * own_weight_at(set, rho_y, None)
        }
        Values::PerInstance(fill) => {
            let groups = match set {
                Instances::Range { start, end } => start / 64..end.div_ceil(64),
                Instances::Set(bits) => 0..bits.len(),
            };
            by_groups(fill, groups, rho_y, wire_weights)
        }
    }
}

/// The per-instance values of the groups `groups` of 64 instances, weighed:
/// per word one weighing by the low instance weights (the GFNI kernel of the
/// lincheck's fold, or byte tables) and one product with the wire weight,
/// per group one more product with the high instance weight. Only the
/// groups the set meets are visited, so one instance costs one group.
fn by_groups(fill: GroupFill<'_>, groups: Range<usize>, rho_y: &[Gf128], wire_weights: &[Gf128]) -> Gf128 {
    let weights = InstanceWeights::from_point(rho_y);
    let kernels = Kernels::get();
    let weighing = Weighing::new(&weights.low);
    debug_assert!(rho_y.len() >= SKIP_VARS);
    let eq_hi = EqLookup::new(&weights.point_hi);
    let wire: Vec<u128> = wire_weights.iter().map(|e| e.to_bits()).collect();
    let len = wire.len();
    let mut words = vec![0u64; len];
    let mut weighed = vec![0u128; len];
    let mut acc = vec![0u128; len];
    let mut v = Gf128::ZERO;
    for g in groups {
        let e = eq_hi.at(g);
        words.fill(0);
        fill(g, &mut words);
        kernels.weigh_words(&weighing.tables, &weighing.mats, &words, &mut weighed);
        acc.fill(0);
        backend::mul_add_slices(&mut acc, &weighed, &wire);
        v += e * Gf128::new(acc.iter().fold(0, |x, y| x ^ y));
    }
    v
}
