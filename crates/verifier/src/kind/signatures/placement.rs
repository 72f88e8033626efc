//! Where a signature statement's calls sit among the lanes of its instance
//! circuit ([`crate::circuit::lanes`]).
//!
//! A family lays out each hash's calls as one sequence, its *virtual*
//! instances `0, 1, ..`, and writes its relations over them as if each
//! call were an instance of its own, reading and writing the wires of the
//! first lane of its hash's group. The instance circuit holds `copies`
//! lanes of each group; with `m` instances, virtual instance `v` of a group
//! is instance `v % m` of the group's lane `v / m` (its calls fill the
//! first lane, then the next), `m` the fewest instances that hold every
//! group's calls. This module turns rows, outputs and relations from the
//! one numbering into the other: a virtual relation becomes one per lane
//! (and per lane its source reads from), a read of the virtual instance
//! before stays a read of the instance before where that is the same lane
//! (`Source::Previous`, which the verifier weighs in `O(n)`), and becomes
//! a map where a lane's first instance reads the previous lane's last.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;

use crate::piop::wiring::{Instances, Source, Wires};

use super::hashing::Lane;
use crate::circuits::StatementCircuit;
use crate::kind::{fill_bytes_of, fill_row, Relation, Values};

/// Where the virtual instances of a batch's groups are.
pub struct Placement<'l> {
    lanes: &'l [Lane],
    /// Instances of the batch.
    m: usize,
}

/// An instance of a lane: `(lane of its group, y)`.
type At = (usize, usize);

impl<'l> Placement<'l> {
    /// The placement of `counts[g]` calls of each group `g` of `lanes`.
    pub fn new(lanes: &'l [Lane], counts: &[usize]) -> Self {
        let m = lanes
            .iter()
            .zip(counts)
            .map(|(lane, &count)| count.div_ceil(lane.copies))
            .max()
            .unwrap_or(0);
        Placement { lanes, m }
    }

    /// The placement of a batch of `m` instances.
    pub fn of_instances(lanes: &'l [Lane], m: usize) -> Self {
        Placement { lanes, m }
    }

    /// Instances of the batch.
    pub fn instances(&self) -> usize {
        self.m
    }

    /// Where virtual instance `v` of a group is.
    pub fn at(&self, v: usize) -> At {
        (v / self.m, v % self.m)
    }

    /// The instance rows (`input_words` each) of each group's virtual rows
    /// (`rows[g]`, the group's input bytes of one lane per call).
    pub fn rows(&self, circuit: &StatementCircuit, rows: &[Vec<u8>]) -> Vec<u64> {
        let words = circuit.input_words();
        let mut packed = vec![0u64; self.m * words];
        let mut bytes = vec![0u8; circuit.input_bytes()];
        for (y, row) in packed.chunks_exact_mut(words).enumerate() {
            bytes.fill(0);
            for (lane, calls) in self.lanes.iter().zip(rows) {
                let len = lane.input_bytes;
                for copy in 0..lane.copies {
                    let v = copy * self.m + y;
                    if let Some(from) = calls.get(v * len..(v + 1) * len) {
                        let at = lane.input_at + copy * len;
                        bytes[at..at + len].copy_from_slice(from);
                    }
                }
            }
            fill_row(row, &bytes);
        }
        packed
    }

    /// The first 64 output bytes (or all it has) of virtual instance `v` of
    /// group `g`, from every instance's output row.
    pub fn output(&self, circuit: &StatementCircuit, outputs: &[u64], g: usize, v: usize) -> [u8; 64] {
        let words = circuit.output_words();
        let (copy, y) = self.at(v);
        let lane = &self.lanes[g];
        let mut row = vec![0u8; 8 * words];
        fill_bytes_of(&mut row, &outputs[y * words..(y + 1) * words]);
        let at = lane.output_at + copy * lane.output_bytes;
        let mut bytes = [0u8; 64];
        let len = lane.output_bytes.min(64);
        bytes[..len].copy_from_slice(&row[at..at + len]);
        bytes
    }

    /// The group whose first lane's wires `wires` are, and whether they
    /// are input wires; `None` for wires of no lane (the constant's).
    fn group_of(&self, circuit: &StatementCircuit, wires: Wires) -> Option<(usize, bool)> {
        self.lanes.iter().enumerate().find_map(|(g, lane)| {
            let input = circuit.input_wires(lane.input_at..lane.input_at + lane.input_bytes);
            let output = circuit.output_wires(lane.output_at..lane.output_at + lane.output_bytes);
            let within = |run: Wires| run.base <= wires.base && wires.base + wires.len <= run.base + run.len;
            if within(input) {
                Some((g, true))
            } else if within(output) {
                Some((g, false))
            } else {
                None
            }
        })
    }

    /// `wires` of a group's first lane, moved to its lane `copy`.
    fn moved(&self, circuit: &StatementCircuit, wires: Wires, copy: usize) -> Wires {
        let (g, input) = self.group_of(circuit, wires).expect("a lane's wires");
        let lane = &self.lanes[g];
        let stride = if input {
            lane.input_bytes
        } else {
            lane.output_bytes
        };
        Wires {
            base: wires.base + 8 * copy * stride,
            len: wires.len,
        }
    }

    /// The relations over the instances of virtual relations: see the
    /// module documentation.
    pub fn relations<'a>(
        &self,
        circuit: &StatementCircuit,
        relations: Vec<Relation<'a>>,
    ) -> Vec<Relation<'a>> {
        let mut out = Vec::with_capacity(relations.len());
        let mut placed = Placed::default();
        for relation in relations {
            match self.group_of(circuit, relation.wires) {
                Some((g, _)) => self.place(circuit, g, relation, &mut placed, &mut out),
                None => out.push(relation),
            }
        }
        out
    }

    /// The relations of one virtual relation on wires of group `g`.
    fn place<'a>(
        &self,
        circuit: &StatementCircuit,
        g: usize,
        relation: Relation<'a>,
        placed: &mut Placed,
        out: &mut Vec<Relation<'a>>,
    ) {
        let copies = self.lanes[g].copies;
        // The virtual set as bits; each lane's instances are a stretch of it.
        let bits: Arc<[u64]> = match &relation.instances {
            Instances::Set(bits) => bits.clone(),
            Instances::Range { start, end } => {
                let mut bits = vec![0u64; end.div_ceil(64)];
                (*start..*end).for_each(|v| bits[v / 64] |= 1 << (v % 64));
                bits.into()
            }
        };
        let values = Shared::new(relation.values);
        let (source, from) = match relation.from {
            Some((Source::Map(map), from)) => {
                let source_copies = self
                    .group_of(circuit, from)
                    .map(|(gs, _)| self.lanes[gs].copies)
                    .expect("a lane's wires");
                let at = match placed.reads.iter().position(|r| {
                    Arc::ptr_eq(&r.map, &map)
                        && Arc::ptr_eq(&r.bits, &bits)
                        && (r.copies, r.source_copies) == (copies, source_copies)
                }) {
                    Some(at) => at,
                    None => {
                        placed
                            .reads
                            .push(self.map_reads(bits, map, copies, source_copies));
                        placed.reads.len() - 1
                    }
                };
                for read in &placed.reads[at].placed {
                    out.push(Relation {
                        instances: read.instances.clone(),
                        wires: self.moved(circuit, relation.wires, read.copy),
                        from: Some(match &read.map {
                            None => (Source::Previous, self.moved(circuit, from, read.copy)),
                            Some((map, source_copy)) => {
                                (Source::Map(map.clone()), self.moved(circuit, from, *source_copy))
                            }
                        }),
                        values: values.for_copy(read.copy, self.m),
                    });
                }
                return;
            }
            Some((Source::Previous, from)) => (true, Some(from)),
            None => (false, None),
        };
        let at = match placed.lanes.iter().position(|l| {
            l.reads_previous == source && l.lanes.len() == copies && Arc::ptr_eq(&l.bits, &bits)
        }) {
            Some(at) => at,
            None => {
                placed.lanes.push(self.lane_sets(bits, copies, source));
                placed.lanes.len() - 1
            }
        };
        for (copy, (lane, first)) in placed.lanes[at].lanes.iter().enumerate() {
            if *first {
                let from = from.expect("a source run");
                out.push(Relation {
                    instances: Instances::single(0),
                    wires: self.moved(circuit, relation.wires, copy),
                    from: Some((
                        Source::Map(vec![(self.m - 1) as u32].into()),
                        self.moved(circuit, from, copy - 1),
                    )),
                    values: values.for_copy(copy, self.m),
                });
            }
            if let Some(lane) = lane {
                out.push(Relation {
                    instances: Instances::Set(lane.clone()),
                    wires: self.moved(circuit, relation.wires, copy),
                    from: from.map(|from| (Source::Previous, self.moved(circuit, from, copy))),
                    values: values.for_copy(copy, self.m),
                });
            }
        }
    }

    /// A virtual set's instances in each lane: the lane's stretch of it
    /// (`None` where empty), and whether the lane's first instance is a
    /// member that reads the instance before (`reads_previous`), which is
    /// the last of the lane before: then that member is left out of the
    /// lane's set, and a relation of its own reads it.
    fn lane_sets(&self, bits: Arc<[u64]>, copies: usize, reads_previous: bool) -> LaneSets {
        let lanes = (0..copies)
            .map(|copy| {
                let mut lane = stretch(&bits, copy * self.m, self.m);
                let first = reads_previous && lane.first().is_some_and(|w| w & 1 == 1);
                if first {
                    assert!(copy > 0, "the first instance reads no instance before it");
                    lane[0] &= !1;
                }
                let lane = lane.iter().any(|&w| w != 0).then(|| lane.into());
                (lane, first)
            })
            .collect();
        LaneSets {
            bits,
            reads_previous,
            lanes,
        }
    }

    /// Where a virtual set's reads through `map` go: one placed read per
    /// lane and source lane (the instance before in the same lane read as
    /// `Source::Previous`). Members are visited in order, so a member's
    /// lane is found by counting, and a source's place is worked out once
    /// for a stretch of members that read one instance.
    fn map_reads(&self, bits: Arc<[u64]>, map: Arc<[u32]>, copies: usize, source_copies: usize) -> MapReads {
        let mut previous = vec![Vec::new(); copies];
        let mut maps: Vec<Vec<(usize, usize)>> = vec![Vec::new(); copies * source_copies];
        let (mut copy, mut last) = (0, None);
        let mut source = (0, 0);
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let v = 64 * w + word.trailing_zeros() as usize;
                word &= word - 1;
                while v >= (copy + 1) * self.m {
                    copy += 1;
                }
                let y = v - copy * self.m;
                let x = map[v] as usize;
                if last != Some(x) {
                    (source, last) = (self.at(x), Some(x));
                }
                let (source_copy, source_y) = source;
                if source_copy == copy && source_y + 1 == y {
                    previous[copy].push(y);
                } else {
                    maps[copy * source_copies + source_copy].push((y, source_y));
                }
            }
        }
        let mut placed = Vec::new();
        for (copy, ys) in previous.into_iter().enumerate() {
            if !ys.is_empty() {
                placed.push(PlacedRead {
                    copy,
                    instances: self.set(&ys),
                    map: None,
                });
            }
        }
        for (at, pairs) in maps.into_iter().enumerate() {
            if pairs.is_empty() {
                continue;
            }
            let ys: Vec<usize> = pairs.iter().map(|&(y, _)| y).collect();
            let mut lane_map = vec![0u32; ys.last().map_or(0, |&y| y + 1)];
            for &(y, source_y) in &pairs {
                lane_map[y] = source_y as u32;
            }
            placed.push(PlacedRead {
                copy: at / source_copies,
                instances: self.set(&ys),
                map: Some((lane_map.into(), at % source_copies)),
            });
        }
        MapReads {
            copies,
            source_copies,
            bits,
            map,
            placed,
        }
    }

    /// The set of instances `ys`.
    fn set(&self, ys: &[usize]) -> Instances {
        let mut bits = vec![0u64; self.m.div_ceil(64)];
        for &y in ys {
            bits[y / 64] |= 1 << (y % 64);
        }
        Instances::Set(bits.into())
    }
}

/// What a batch's virtual sets became, kept for the relations that share
/// them (a layout's one set of instances, or one read, split by the wires
/// it binds): those share the placed sets and maps, which the verifier
/// then weighs once.
#[derive(Default)]
struct Placed {
    lanes: Vec<LaneSets>,
    reads: Vec<MapReads>,
}

/// [`Placement::lane_sets`].
struct LaneSets {
    bits: Arc<[u64]>,
    reads_previous: bool,
    lanes: Vec<(Option<Arc<[u64]>>, bool)>,
}

/// A virtual set's reads through one map, placed (from `copies` lanes
/// reading `source_copies`).
struct MapReads {
    copies: usize,
    source_copies: usize,
    bits: Arc<[u64]>,
    map: Arc<[u32]>,
    placed: Vec<PlacedRead>,
}

/// The reads of one lane from one source lane.
struct PlacedRead {
    copy: usize,
    instances: Instances,
    /// `None`: the instance before, in the same lane; else the map and the
    /// source's lane.
    map: Option<(Arc<[u32]>, usize)>,
}

/// Bits `start .. start + len` of `bits` (zero past its end), from bit 0.
fn stretch(bits: &[u64], start: usize, len: usize) -> Vec<u64> {
    let word = |i: usize| bits.get(i).copied().unwrap_or(0);
    let (first, shift) = (start / 64, start % 64);
    let mut out: Vec<u64> = (0..len.div_ceil(64))
        .map(|i| {
            let low = word(first + i) >> shift;
            let high = if shift == 0 {
                0
            } else {
                word(first + i + 1) << (64 - shift)
            };
            low | high
        })
        .collect();
    if !len.is_multiple_of(64) {
        if let Some(last) = out.last_mut() {
            *last &= (1u64 << (len % 64)) - 1;
        }
    }
    out
}

/// One instance's values of a run, shared by the relations of a virtual
/// relation's lanes.
type SharedRow<'a> = Arc<dyn Fn(usize, &mut [u64]) + Send + Sync + 'a>;

/// A virtual relation's values, shared by the relations of its lanes.
enum Shared<'a> {
    Zero,
    Constant(Vec<u64>),
    PerInstance(SharedRow<'a>),
    /// [`Values::Slice`]'s rows, bit offset and row length.
    Slice(SharedRow<'a>, usize, usize),
}

impl<'a> Shared<'a> {
    fn new(values: Values<'a>) -> Self {
        match values {
            Values::Zero => Shared::Zero,
            Values::Constant(bits) => Shared::Constant(bits),
            Values::PerInstance(f) => Shared::PerInstance(Arc::from(f)),
            Values::Slice {
                fill,
                offset,
                row_bits,
            } => Shared::Slice(
                Arc::new(move |y, values: &mut [u64]| fill(y, values)),
                offset,
                row_bits,
            ),
        }
    }

    /// The values of lane `copy`'s instances (`y` is virtual instance
    /// `copy m + y`).
    fn for_copy(&self, copy: usize, m: usize) -> Values<'a> {
        match self {
            Shared::Zero => Values::Zero,
            Shared::Constant(bits) => Values::Constant(bits.clone()),
            Shared::PerInstance(f) => {
                let f = f.clone();
                Values::PerInstance(Box::new(move |y, values| f(copy * m + y, values)))
            }
            Shared::Slice(f, offset, row_bits) => {
                let f = f.clone();
                Values::Slice {
                    fill: Arc::new(Box::new(move |y, values: &mut [u64]| f(copy * m + y, values))),
                    offset: *offset,
                    row_bits: *row_bits,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::Gadget;
    use crate::kind::signatures::hashing::RowHash;

    /// Every virtual (instance, source) pair of a relation is in exactly
    /// one of its placed relations, on the wires of the lanes the two
    /// instances are in, and a placed relation's values are its virtual
    /// instances'.
    #[test]
    fn placed_relations_hold_exactly_the_virtual_ones() {
        let lanes = Lane::groups(&[
            (RowHash::Sha256, Gadget::Sha256, 3),
            (RowHash::Sha512, Gadget::Sha512, 2),
        ]);
        let groups: Vec<_> = lanes.iter().map(|l| (l.gadget, l.copies)).collect();
        let circuit = StatementCircuit::lanes(&groups);
        // 11 SHA-256 calls in three lanes and 5 SHA-512 ones in two: m = 4.
        let placement = Placement::new(&lanes, &[11, 5]);
        assert_eq!(placement.instances(), 4);
        let block = |g: usize| circuit.input_wires(lanes[g].input_at + 40..lanes[g].input_at + 44);
        let out = |g: usize| circuit.output_wires(lanes[g].output_at..lanes[g].output_at + 4);
        let set = |vs: &[usize]| {
            let mut bits = vec![0u64; 1];
            vs.iter().for_each(|&v| bits[0] |= 1 << v);
            Instances::Set(bits.into())
        };
        let chain: Vec<usize> = (1..11).collect();
        let cross = [0usize, 2, 3, 4];
        let map: Vec<u32> = vec![10, 0, 4, 9, 5];
        let virtual_relations = vec![
            Relation::constant_wire(2),
            Relation {
                instances: set(&chain),
                wires: block(0),
                from: Some((Source::Previous, out(0))),
                values: Values::Zero,
            },
            Relation {
                instances: set(&cross),
                wires: block(1),
                from: Some((Source::Map(map.clone().into()), out(0))),
                values: Values::Zero,
            },
            Relation {
                instances: set(&[0, 5, 10]),
                wires: block(0),
                from: None,
                values: Values::PerInstance(Box::new(|v, values| values[0] = v as u64)),
            },
        ];
        let placed = placement.relations(&circuit, virtual_relations);
        assert_eq!(placed[0].wires, Wires { base: 0, len: 1 });
        // Back to virtual: the lane of a wire run and the instance.
        let lane_of = |wires: Wires| -> (usize, usize) {
            (0..lanes.len())
                .flat_map(|g| (0..lanes[g].copies).map(move |c| (g, c)))
                .find(|&(g, c)| {
                    placement.moved(&circuit, block(g), c) == wires
                        || placement.moved(&circuit, out(g), c) == wires
                })
                .expect("a lane's run")
        };
        let mut pairs = Vec::new();
        let mut valued = Vec::new();
        for r in &placed[1..] {
            let (g, copy) = lane_of(r.wires);
            for y in (0..4).filter(|&y| r.instances.contains(y)) {
                let v = copy * 4 + y;
                match &r.from {
                    Some((source, from)) => {
                        let (gs, source_copy) = lane_of(*from);
                        let sy = match source {
                            Source::Previous => y - 1,
                            Source::Map(map) => map[y] as usize,
                        };
                        pairs.push((g, v, gs, source_copy * 4 + sy));
                    }
                    None => {
                        let Values::PerInstance(f) = &r.values else {
                            panic!("values")
                        };
                        let mut values = [0u64];
                        f(y, &mut values);
                        valued.push((v, values[0] as usize));
                    }
                }
            }
        }
        let mut want: Vec<_> = chain.iter().map(|&v| (0, v, 0, v - 1)).collect();
        want.extend(cross.iter().map(|&v| (1, v, 0, map[v] as usize)));
        pairs.sort_unstable();
        want.sort_unstable();
        assert_eq!(pairs, want);
        valued.sort_unstable();
        assert_eq!(valued, vec![(0, 0), (5, 5), (10, 10)]);
    }
}
