//! From a kind's relations to the wiring check's: the batch padded to a
//! power of two, and per-instance values handed over 64 instances at a time
//! (each instance's row written by the kind, then transposed).

use starling_circuit::layout::transpose64;
use starling_piop::wiring::{self, Instances};

use crate::kind::{Relation, RowValues, RunValues};

/// Smallest log2 batch size: 128 instances fill one packed field element.
pub const MIN_LOG_INSTANCES: u32 = 7;

/// `n` with `2^n >= count`, at least [`MIN_LOG_INSTANCES`].
pub fn log_instances(count: usize) -> u32 {
    let n = count.next_power_of_two().trailing_zeros();
    n.max(MIN_LOG_INSTANCES)
}

/// The group fill of one relation with per-instance values.
type Fill<'a> = Box<dyn Fn(usize, &mut [u64]) + Sync + 'a>;

/// The group fills of `relations` (one per relation with per-instance values).
pub(crate) fn fills<'a>(relations: &'a [Relation<'a>]) -> Vec<Option<Fill<'a>>> {
    relations
        .iter()
        .map(|rel| match &rel.values {
            RunValues::PerInstance(row) => Some(group_fill(&rel.instances, rel.wires.len, row)),
            _ => None,
        })
        .collect()
}

/// The wiring check's relations, the fills from [`fills`].
pub(crate) fn piop_relations<'a>(
    relations: &'a [Relation<'a>],
    fills: &'a [Option<Fill<'a>>],
) -> Vec<wiring::Relation<'a>> {
    relations
        .iter()
        .zip(fills)
        .map(|(rel, fill)| wiring::Relation {
            instances: rel.instances.clone(),
            wires: rel.wires,
            from: rel.from.clone(),
            values: match (&rel.values, fill) {
                (RunValues::Zero, _) => wiring::Values::Zero,
                (RunValues::Constant(bits), _) => wiring::Values::Constant(bits),
                (RunValues::PerInstance(_), Some(f)) => wiring::Values::PerInstance(f.as_ref()),
                (RunValues::PerInstance(_), None) => {
                    unreachable!("fills() makes one per per-instance relation")
                }
            },
        })
        .collect()
}

/// Instances `64 g ..` of the set, their rows written by `row` and
/// transposed: word `j` gets bit `j` of each instance's row.
fn group_fill<'a>(set: &'a Instances, len: usize, row: &'a RowValues<'a>) -> Fill<'a> {
    let row_words = len.div_ceil(64);
    Box::new(move |g: usize, words: &mut [u64]| {
        let mut rows = vec![0u64; 64 * row_words];
        for (i, r) in rows.chunks_exact_mut(row_words).enumerate() {
            if set.contains(64 * g + i) {
                row(64 * g + i, r);
            }
        }
        let mut block = [0u64; 64];
        for col in 0..row_words {
            for (i, slot) in block.iter_mut().enumerate() {
                *slot = rows[i * row_words + col];
            }
            transpose64(&mut block);
            let live = (len - 64 * col).min(64);
            words[64 * col..64 * col + live].copy_from_slice(&block[..live]);
        }
    })
}
