//! The holes of a zero-knowledge batch: where the random wires go, the
//! circuit's wires around them, its matrices and relations moved there.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use crate::pcs::params::MaskRun;
use crate::pcs::{PcsParams, SecurityProfile};
use crate::piop::wiring::{Relation, RowFill, Values, Wires};
use crate::piop::{Shape, SparseMatrix};
use crate::Gf128;

/// Free random entries kept for ring switching (the first of
/// [`Holes::free_entries`]). Its `s_u = sum_x eq(R, x) bit_u(f[x])` go in
/// the clear, one set per opened point `R`, while the pads and the mask
/// runs are spent on the other messages and on the opening; so the `s_u`
/// are uniform only if these entries make them so. For every bit `u`, the
/// map from these entries' bits `u` to the `s_u` of all points, by the
/// weights `(eq(R_i, x))_i` over GF(2), must be onto `GF(2^128)^points`:
/// that takes 128 entries per distinct point (the protocol opens at most
/// three), and 128 more make a rank deficit as unlikely as for random
/// vectors, about `2^-128`. `starling`'s zk tests check the rank at the
/// points real proofs open. (ZK.md's isolated-bit blocks are the exact
/// alternative, at `2^14` entries per point.)
pub const SPARE_ENTRIES: usize = 4 * 128;

/// Of [`SPARE_ENTRIES`], how many must lie in the public block's rows. The
/// wiring check's point is zero above the public block, so only entries
/// there weigh in its `s_u`: 128 for that point, 128 more of margin.
pub const PUBLIC_SPARE_ENTRIES: usize = 2 * 128;

/// The random wires of a zero-knowledge batch: the top `count` wires of each
/// of the first `blocks` blocks of `2^log_block` wires (the opening's level-0
/// rows that hold the circuit's wires). The circuit's wires fill the other
/// positions in order: wire `w` is at [`Holes::position`]`(w)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holes {
    /// `log2` of a block's wires.
    pub log_block: usize,
    /// Random wires at the top of each block.
    pub count: usize,
    /// Blocks holding the circuit's wires (each with its holes).
    pub blocks: usize,
}

impl Holes {
    fn block(&self) -> usize {
        1 << self.log_block
    }

    /// The circuit's wires a block holds.
    fn per_block(&self) -> usize {
        self.block() - self.count
    }

    /// Where the circuit's wire `w` is.
    pub fn position(&self, w: usize) -> usize {
        w + self.count * (w / self.per_block())
    }

    /// Whether the wire at `position` is a random one.
    pub fn is_hole(&self, position: usize) -> bool {
        position < self.live_wires() && position % self.block() >= self.per_block()
    }

    /// Every random wire's position, in order.
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.hole_ranges().flatten()
    }

    /// Each block's random wires' positions.
    pub fn hole_ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        (0..self.blocks).map(move |b| b * self.block() + self.per_block()..(b + 1) * self.block())
    }

    /// The first `count` wires a block at a time: the first wire of each
    /// run and the run's positions.
    pub fn wire_runs(&self, count: usize) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
        (0..count).step_by(self.per_block()).map(move |start| {
            let at = self.position(start);
            (start, at..at + self.per_block().min(count - start))
        })
    }

    /// `weights` at the positions of the first `count` wires, in wire
    /// order (`out[w] = weights[position(w)]`).
    pub fn weights_of_wires(&self, weights: &[Gf128], count: usize) -> Vec<Gf128> {
        let mut out = Vec::with_capacity(count);
        for (_, run) in self.wire_runs(count) {
            out.extend_from_slice(&weights[run]);
        }
        out
    }

    /// Wires up to the end of the last block holding the circuit's: the
    /// live part of every instance.
    pub fn live_wires(&self) -> usize {
        self.blocks << self.log_block
    }

    /// The free random entries: in each live row (block), the entries of
    /// its random wires that the opening's mask run leaves (`log_msg`: the
    /// row's entries, `2^n` instances), row after row. The first
    /// [`SPARE_ENTRIES`] are ring switching's, the rest the pads.
    pub fn free_entries(&self, run: MaskRun, log_msg: usize, n: usize) -> Vec<usize> {
        let row = 1usize << log_msg;
        let random = self.count << (n - 7);
        let mut out = Vec::new();
        for r in 0..self.blocks {
            let base = r * row;
            out.extend((row - random..run.offset).map(|x| base + x));
            out.extend((run.offset + run.len..row).map(|x| base + x));
        }
        out
    }

    /// Bytes binding the holes into the transcript.
    pub fn transcript_bytes(&self) -> Vec<u8> {
        let mut out = vec![self.log_block as u8];
        out.extend_from_slice(&(self.count as u32).to_le_bytes());
        out.extend_from_slice(&(self.blocks as u32).to_le_bytes());
        out
    }

    /// Where each of the first `used` wires is ([`Holes::position`], without
    /// a division per wire).
    pub fn positions_of(&self, used: usize) -> Vec<u32> {
        let per = self.per_block();
        let mut out = Vec::with_capacity(used);
        let (mut at, mut left) = (0usize, per);
        for _ in 0..used {
            out.push(at as u32);
            at += 1;
            left -= 1;
            if left == 0 {
                at += self.count;
                left = per;
            }
        }
        out
    }

    /// `m` with its rows and columns moved to the wires' positions, `2^k`
    /// rows: the rows of the first `used` wires moved (`place` is
    /// [`Holes::positions_of`]`(used)`, whose columns they name), each
    /// random wire's row `hole_row` of it (`[w]` for `A` and `C`: it is a
    /// free input, `w * 1 = w`; `[0]` for `B`, the constant), every other
    /// row `rest_row` of it (`[p]` for `C = I + N`, empty for `A` and `B`: a
    /// padding wire).
    pub fn place_matrix(
        &self,
        m: &SparseMatrix,
        k: usize,
        place: &[u32],
        hole_row: impl Fn(u32) -> Vec<u32>,
        rest_row: impl Fn(u32) -> Vec<u32>,
    ) -> SparseMatrix {
        // Which logical row (or hole) lands at each position.
        const HOLE: u32 = u32::MAX;
        const REST: u32 = u32::MAX - 1;
        let mut source = vec![REST; 1 << k];
        for (i, &p) in place.iter().enumerate().take(m.num_rows()) {
            source[p as usize] = i as u32;
        }
        for h in self.positions() {
            source[h] = HOLE;
        }
        let mut offsets = Vec::with_capacity((1 << k) + 1);
        let mut indices = Vec::with_capacity(m.nnz() + 2 * self.positions().count());
        offsets.push(0u32);
        for (p, &from) in source.iter().enumerate() {
            match from {
                HOLE => indices.extend(hole_row(p as u32)),
                REST => indices.extend(rest_row(p as u32)),
                i => indices.extend(m.row(i as usize).iter().map(|&c| {
                    place
                        .get(c as usize)
                        .copied()
                        .unwrap_or_else(|| self.position(c as usize) as u32)
                })),
            }
            offsets.push(u32::try_from(indices.len()).expect("fewer than 2^32 nonzeros"));
        }
        SparseMatrix::from_csr(offsets, indices).expect("offsets built in order")
    }

    /// The relations with their runs moved to the wires' positions: a run
    /// that a block's holes cut becomes one relation per piece, each with
    /// its part of the values (a run and the run it reads from are cut at
    /// the same offsets).
    pub fn split<'a>(&self, relations: Vec<Relation<'a>>) -> Vec<Relation<'a>> {
        let mut out = Vec::with_capacity(relations.len());
        for r in relations {
            let mut cuts = self.cuts(r.wires);
            if let Some((_, from)) = &r.from {
                cuts.extend(self.cuts(*from));
                cuts.sort_unstable();
                cuts.dedup();
            }
            if cuts.len() == 2 {
                out.push(Relation {
                    wires: self.moved(r.wires, 0, r.wires.len),
                    from: r.from.map(|(s, f)| (s, self.moved(f, 0, f.len))),
                    ..r
                });
                continue;
            }
            let values = Shared::new(r.values, r.wires.len);
            for piece in cuts.windows(2) {
                let (j0, j1) = (piece[0], piece[1]);
                out.push(Relation {
                    instances: r.instances.clone(),
                    wires: self.moved(r.wires, j0, j1 - j0),
                    from: r
                        .from
                        .as_ref()
                        .map(|(s, f)| (s.clone(), self.moved(*f, j0, j1 - j0))),
                    values: values.slice(j0, j1),
                });
            }
        }
        out
    }

    /// The offsets where the holes cut `run`: 0, the offset of each block
    /// boundary inside it, `run.len`.
    fn cuts(&self, run: Wires) -> Vec<usize> {
        let per = self.per_block();
        let first = run.base / per + 1;
        let last = (run.base + run.len - 1) / per;
        let mut cuts = vec![0];
        cuts.extend((first..=last).map(|b| b * per - run.base));
        cuts.push(run.len);
        cuts
    }

    /// Wires `j0 .. j0 + len` of `run`, moved (they lie in one block).
    fn moved(&self, run: Wires, j0: usize, len: usize) -> Wires {
        Wires {
            base: self.position(run.base + j0),
            len,
        }
    }
}

/// A relation's values, shared by the pieces the holes cut its run into.
enum Shared<'a> {
    Zero,
    Constant(Vec<u64>),
    /// Bits `offset..` of rows of `row_bits` bits.
    Rows {
        fill: Arc<RowFill<'a>>,
        offset: usize,
        row_bits: usize,
    },
}

impl<'a> Shared<'a> {
    fn new(values: Values<'a>, len: usize) -> Self {
        match values {
            Values::Zero => Shared::Zero,
            Values::Constant(bits) => Shared::Constant(bits),
            Values::PerInstance(fill) => Shared::Rows {
                fill: Arc::new(fill),
                offset: 0,
                row_bits: len,
            },
            Values::Slice {
                fill,
                offset,
                row_bits,
            } => Shared::Rows {
                fill,
                offset,
                row_bits,
            },
        }
    }

    /// Bits `j0 .. j1` of the values.
    fn slice(&self, j0: usize, j1: usize) -> Values<'a> {
        match self {
            Shared::Zero => Values::Zero,
            Shared::Constant(bits) => Values::Constant(bit_slice(bits, j0, j1)),
            Shared::Rows {
                fill,
                offset,
                row_bits,
            } => Values::Slice {
                fill: Arc::clone(fill),
                offset: offset + j0,
                row_bits: *row_bits,
            },
        }
    }
}

/// Bits `j0 .. j1` of `bits` (bit `j` is bit `j % 64` of word `j / 64`).
fn bit_slice(bits: &[u64], j0: usize, j1: usize) -> Vec<u64> {
    let mut out = vec![0u64; (j1 - j0).div_ceil(64)];
    copy_bits(bits, j0, j1, &mut out);
    out
}

/// Bits `j0 .. j1` of `bits` into the first words of `out`, the rest of
/// `out` cleared: a word at a time.
fn copy_bits(bits: &[u64], j0: usize, j1: usize, out: &mut [u64]) {
    let (word, shift) = (j0 / 64, j0 % 64);
    let len = j1 - j0;
    let words = len.div_ceil(64);
    for (i, o) in out.iter_mut().enumerate() {
        if i >= words {
            *o = 0;
            continue;
        }
        let lo = bits.get(word + i).copied().unwrap_or(0) >> shift;
        let hi = if shift == 0 {
            0
        } else {
            bits.get(word + i + 1).copied().unwrap_or(0) << (64 - shift)
        };
        let keep = len - 64 * i;
        *o = if keep >= 64 {
            lo | hi
        } else {
            (lo | hi) & ((1u64 << keep) - 1)
        };
    }
}

/// A zero-knowledge batch's shape and opening: `2^n` instances of a
/// circuit laid out around [`Holes`] in `2^k` wires, with a public block of
/// `2^p` wires and a hiding opening whose mask runs are in the holes.
#[derive(Clone, Debug)]
pub struct ZkLayout {
    /// The batch's shape (`k` counts the holes).
    pub shape: Shape,
    /// `log2` of the public block: one more than the circuit's (it holds
    /// every moved public wire), at most `k`.
    pub p: usize,
    /// Where the random wires are.
    pub holes: Holes,
    /// The hiding opening.
    pub pcs: PcsParams,
}

/// The smallest layout of `2^n` instances of a circuit whose first
/// `used_wires` wires are used and whose public block is `2^p` wires:
/// for each `k` from the circuit's own up, level 0's data row variables
/// from 6 down to [`crate::pcs::params::MIN_HIDING_ROW_VARS`], the first
/// where every live row's holes hold its mask run, the circuit's wires fit
/// around them and the opening takes the live rows. `pcs_bits(shape, p)` is
/// the bits the opening must reach for that shape, `pads(shape, p)` the
/// pads its messages take. The holes' entries the mask runs leave must hold
/// the [`SPARE_ENTRIES`] and the pads, the public block's rows
/// [`PUBLIC_SPARE_ENTRIES`] of them (else each block takes more random
/// wires, and the public block at least two blocks).
pub fn zk_layout(
    used_wires: usize,
    k: usize,
    p: usize,
    n: usize,
    profile: SecurityProfile,
    pcs_bits: &dyn Fn(Shape, usize) -> f64,
    pads: &dyn Fn(Shape, usize) -> usize,
) -> Result<ZkLayout, String> {
    let mut last = String::from("no layout tried");
    for k in k..=k + 4 {
        let shape = Shape::new(n, k).map_err(|e| format!("{e}"))?;
        let data_vars = shape.l() - 7;
        let entries_per_wire = 1usize << (n - 7);
        for rows in (crate::pcs::params::MIN_HIDING_ROW_VARS..=6.min(k)).rev() {
            let log_block = k - rows;
            let placed = |count: usize| Holes {
                log_block,
                count,
                blocks: used_wires.div_ceil((1 << log_block) - count),
            };
            // Moved around the holes the public block grows by at most one
            // variable (a block holds fewer random wires than its own), and
            // the opening is sized for that bound. It spans two blocks at
            // least, so that its rows hold random entries.
            let p_bound = (p + 1).max(log_block + 1).min(k);
            let bits = pcs_bits(shape, p_bound);
            let pcs = match PcsParams::hiding_with_rows(data_vars, rows, profile, bits) {
                Ok(pcs) => pcs,
                Err(e) => {
                    last = format!("{e}");
                    continue;
                }
            };
            let run = pcs.mask_run().expect("hiding");
            let needed = SPARE_ENTRIES + pads(shape, p_bound);
            let public_blocks = 1usize << p_bound.saturating_sub(log_block);
            let enough = |count: usize| {
                let free = count * entries_per_wire - run.len;
                let blocks = placed(count).blocks;
                blocks * free >= needed && blocks.min(public_blocks) * free >= PUBLIC_SPARE_ENTRIES
            };
            let mut count = (1usize << run.log_block).div_ceil(entries_per_wire);
            while count < 1 << log_block && !enough(count) {
                count += 1;
            }
            if count >= 1 << log_block {
                last =
                    format!("2^{k} wires in blocks of 2^{log_block} cannot hold {count} random wires each");
                continue;
            }
            let holes = placed(count);
            if holes.blocks > 1 << rows {
                last = format!("{used_wires} wires and their holes do not fit 2^{k}");
                continue;
            }
            let public_end = holes.position((1 << p) - 1) + 1;
            let p_moved = public_end.next_power_of_two().trailing_zeros() as usize;
            if p_moved > p_bound {
                last = format!("the public block of 2^{p} wires does not fit 2^{p_bound} around its holes");
                continue;
            }
            let live_len = holes.live_wires() * entries_per_wire;
            match pcs.with_live_len(live_len) {
                Ok(pcs) => {
                    return Ok(ZkLayout {
                        shape,
                        p: p_bound,
                        holes,
                        pcs,
                    })
                }
                Err(e) => last = format!("{e}"),
            }
        }
    }
    Err(format!(
        "no zero-knowledge layout for 2^{n} instances of 2^{k} wires: {last}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piop::wiring::Instances;

    fn holes() -> Holes {
        // Blocks of 8 wires, the top 3 random: the circuit's wires at 0..5,
        // 8..13, 16..21.
        Holes {
            log_block: 3,
            count: 3,
            blocks: 3,
        }
    }

    #[test]
    fn wires_go_around_the_holes() {
        let h = holes();
        let placed: Vec<usize> = (0..15).map(|w| h.position(w)).collect();
        assert_eq!(placed, [0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20]);
        let random: Vec<usize> = h.positions().collect();
        assert_eq!(random, [5, 6, 7, 13, 14, 15, 21, 22, 23]);
        assert!(random.iter().all(|&p| h.is_hole(p)));
        assert!(placed.iter().all(|&p| !h.is_hole(p)));
        assert_eq!(h.live_wires(), 24);
        assert_eq!(
            h.positions_of(15),
            placed.iter().map(|&p| p as u32).collect::<Vec<_>>()
        );
    }

    #[test]
    fn runs_cut_by_holes_become_relations_with_their_part_of_the_values() {
        let h = holes();
        let all = Instances::Range { start: 0, end: 4 };
        // Wires 3..10 (positions 3, 4 | 8..12 | 16): three pieces.
        let bits: u64 = 0b10_1101_0011;
        let rows = [0b01_0110_1011_u64, 0b1_1111_1111];
        let relations = vec![
            Relation {
                instances: all.clone(),
                wires: Wires { base: 3, len: 8 },
                from: None,
                values: Values::Constant(vec![bits]),
            },
            Relation {
                instances: all.clone(),
                wires: Wires { base: 3, len: 8 },
                from: None,
                values: Values::PerInstance(alloc::boxed::Box::new(move |y, out: &mut [u64]| {
                    out[0] = rows[y % 2]
                })),
            },
            Relation {
                instances: all,
                wires: Wires { base: 0, len: 2 },
                from: None,
                values: Values::Zero,
            },
        ];
        let split = h.split(relations);
        let runs: Vec<(usize, usize)> = split.iter().map(|r| (r.wires.base, r.wires.len)).collect();
        assert_eq!(runs, [(3, 2), (8, 5), (16, 1), (3, 2), (8, 5), (16, 1), (0, 2)]);
        let constant: Vec<u64> = split[..3]
            .iter()
            .map(|r| match &r.values {
                Values::Constant(v) => v[0],
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(constant, [bits & 0b11, bits >> 2 & 0b1_1111, bits >> 7 & 1]);
        for (y, &row) in rows.iter().enumerate() {
            let got: Vec<u64> = split[3..6]
                .iter()
                .map(|r| match &r.values {
                    // The piece reads its bits of the whole row in place.
                    Values::Slice {
                        fill,
                        offset,
                        row_bits,
                    } => {
                        assert_eq!(*row_bits, 8);
                        let mut out = [0u64; 1];
                        fill(y, &mut out);
                        out[0] >> offset & ((1 << r.wires.len) - 1)
                    }
                    _ => unreachable!(),
                })
                .collect();
            assert_eq!(
                got,
                [row & 0b11, row >> 2 & 0b1_1111, row >> 7 & 1],
                "instance {y}"
            );
        }
    }
}
