//! From a kind's relations to the wiring check's: the batch padded to a
//! power of two, and the kind's relations borrowed as the wiring check's.

use alloc::vec::Vec;

use crate::piop::wiring;

use crate::kind::{Relation, RunValues};

/// Smallest log2 batch size: 128 instances fill one packed field element.
pub const MIN_LOG_INSTANCES: u32 = 7;

/// `n` with `2^n >= count`, at least [`MIN_LOG_INSTANCES`].
pub fn log_instances(count: usize) -> u32 {
    let n = count.next_power_of_two().trailing_zeros();
    n.max(MIN_LOG_INSTANCES)
}

/// The wiring check's relations: the kind's relations, borrowed.
pub fn piop_relations<'a>(relations: &'a [Relation<'a>]) -> Vec<wiring::Relation<'a>> {
    relations
        .iter()
        .map(|rel| wiring::Relation {
            instances: rel.instances.clone(),
            wires: rel.wires,
            from: rel.from.clone(),
            values: match &rel.values {
                RunValues::Zero => wiring::Values::Zero,
                RunValues::Constant(bits) => wiring::Values::Constant(bits),
                RunValues::PerInstance(row) => wiring::Values::PerInstance(row.as_ref()),
            },
        })
        .collect()
}
