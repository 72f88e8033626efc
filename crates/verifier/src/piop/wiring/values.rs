//! The verifier's side of the public values: `sum_{y in I} eq(rho_y, y)
//! sum_j e[j] value(y, j)` for each relation that binds wires to values.
//!
//! This is the verifier's one pass over all the public data (26 MB for 2^16
//! Keccak-f permutations), so how it runs is a [`PublicRows`] the caller
//! chooses: [`RowByRow`] here, the definition, with byte tables of subset
//! sums; a native verifier passes the prover's vector kernels on threads
//! (`starling_piop::wiring::Weighed`), which must compute the same sum.

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::weights::{EqLookup, Instances, WeightsAt};
use crate::field::subset_sums;
use crate::Gf128;

/// Writes the values of one instance: called with an instance `y` of the
/// relation's set and one bit per wire of the run, zeroed (bit `j` is bit
/// `j % 64` of word `j / 64`), it sets the bits of the wires that are one.
/// Rows are what a statement's records already are, so nothing is
/// transposed on the way in.
pub type RowFill<'a> = Box<dyn Fn(usize, &mut [u64]) + Send + Sync + 'a>;

/// What a relation's wires equal.
pub enum Values<'a> {
    /// Zero: a wiring relation with no public part.
    Zero,
    /// The same bits in every instance of the set (bit `j` of the run is
    /// bit `j % 64` of word `j / 64`).
    Constant(Vec<u64>),
    /// Different bits in each instance, one instance's row at a time.
    PerInstance(RowFill<'a>),
    /// Bits `offset..` of rows of `row_bits` bits that another relation's
    /// [`Values::PerInstance`] fill writes: a part of its run (a
    /// zero-knowledge batch's holes cut runs, `crate::zk::Holes::split`).
    /// Weighed in place, so the pieces of a row cost no copies.
    Slice {
        /// Writes a whole row.
        fill: Arc<RowFill<'a>>,
        /// The first bit of this run's values in the row.
        offset: usize,
        /// Bits of a whole row.
        row_bits: usize,
    },
}

impl fmt::Debug for Values<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Values::Zero => f.write_str("Zero"),
            Values::Constant(bits) => f.debug_tuple("Constant").field(bits).finish(),
            Values::PerInstance(_) => f.write_str("PerInstance(..)"),
            Values::Slice { offset, row_bits, .. } => write!(f, "Slice({offset}.. of {row_bits} bits)"),
        }
    }
}

/// One segment of a relation's per-instance values to weigh: words
/// `first..first + segment.len().div_ceil(64)` of rows of `words` words,
/// whose wires weigh `segment`.
pub struct Segment<'a> {
    /// Writes an instance's row ([`RowFill`]).
    pub fill: &'a (dyn Fn(usize, &mut [u64]) + Sync + 'a),
    /// The instances.
    pub set: &'a Instances,
    /// `eq(rho_y, .)`.
    pub weights: &'a EqLookup,
    /// Words of a whole row.
    pub words: usize,
    /// The segment's first word.
    pub first: usize,
    /// The weights of the segment's wires (at most `64 SEGMENT_WORDS`).
    pub segment: &'a [Gf128],
}

/// How the verifier weighs per-instance values: `sum_{y in set} eq(rho_y,
/// y) sum_j segment[j] bit(row(y), 64 first + j)`.
pub trait PublicRows {
    /// The segment's sum.
    fn weigh(&self, segment: &Segment<'_>) -> Gf128;
}

/// The definition: row by row, each word of a row weighed by eight
/// byte tables of subset sums of its 64 wire weights (eight lookups a word).
pub struct RowByRow;

impl PublicRows for RowByRow {
    fn weigh(&self, s: &Segment<'_>) -> Gf128 {
        let tables: Vec<[Gf128; 256]> = s
            .segment
            .chunks(8)
            .map(|e| {
                let mut items = [Gf128::ZERO; 8];
                items[..e.len()].copy_from_slice(e);
                subset_sums(&items)
            })
            .collect();
        let mut row = vec![0u64; s.words];
        s.set
            .members()
            .map(|y| {
                row.fill(0);
                (s.fill)(y, &mut row);
                let bytes = row[s.first..].iter().flat_map(|w| w.to_le_bytes());
                let sum: Gf128 = tables.iter().zip(bytes).map(|(t, b)| t[b as usize]).sum();
                s.weights.at(y) * sum
            })
            .sum()
    }
}

/// Words of a run weighed with one set of tables: about 10 MiB of tables at
/// most in the native weighing (a run of `64 SEGMENT_WORDS` wires), however
/// long a stranger's circuit makes the run. Every built-in kind's runs fit
/// in one segment.
pub const SEGMENT_WORDS: usize = 256;

/// `sum_{y in set} eq(rho_y, y) sum_j wire_weights[j] value(y, j)`, the
/// per-instance values a segment at a time through `rows`.
pub fn weigh_values(
    values: &Values<'_>,
    set: &Instances,
    at_rho: &WeightsAt<'_>,
    wire_weights: &[Gf128],
    rows: &dyn PublicRows,
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
            folded * at_rho.own(set)
        }
        Values::PerInstance(fill) => weigh_rows(
            &**fill,
            set,
            at_rho,
            wire_weights.len().div_ceil(64),
            0,
            wire_weights,
            rows,
        ),
        Values::Slice {
            fill,
            offset,
            row_bits,
        } => {
            // The run's weights from the start of its first word.
            let mut from_word = vec![Gf128::ZERO; offset % 64];
            from_word.extend_from_slice(wire_weights);
            weigh_rows(
                &***fill,
                set,
                at_rho,
                row_bits.div_ceil(64),
                offset / 64,
                &from_word,
                rows,
            )
        }
    }
}

/// `sum_{y in set} eq(rho_y, y) sum_j weights[j] bit(row(y), 64 first + j)`
/// for rows of `words` words that `fill` writes, a segment of at most
/// [`SEGMENT_WORDS`] words at a time through `rows`.
fn weigh_rows(
    fill: &(dyn Fn(usize, &mut [u64]) + Send + Sync),
    set: &Instances,
    at_rho: &WeightsAt<'_>,
    words: usize,
    first: usize,
    weights: &[Gf128],
    rows: &dyn PublicRows,
) -> Gf128 {
    let end = first + weights.len().div_ceil(64);
    (first..end)
        .step_by(SEGMENT_WORDS)
        .map(|at| {
            let stop = (at + SEGMENT_WORDS).min(end);
            rows.weigh(&Segment {
                fill,
                set,
                weights: at_rho.eq_rho(),
                words,
                first: at,
                segment: &weights[64 * (at - first)..(64 * (stop - first)).min(weights.len())],
            })
        })
        .sum()
}
