//! Where an SLH-DSA batch's compressions are, and the relations that make
//! them one run of FIPS 205 verification per signature.
//!
//! Every compression is a call of the SHA-256 compression (SHA-2 sets at
//! 128 bits), every permutation one of the SHAKE256 sponge step (SHAKE
//! sets). The SHA-2 sets at 192 and 256 bits hash with SHA-256 (`F`) and
//! SHA-512 (`H`, `T`, `H_msg`): each hash's calls are a sequence of their
//! own, a *group* (index `lane` below), every other set has one. The
//! layout numbers each group's calls as if each were an instance (its
//! virtual instances) and `placement` puts them in the lanes of the
//! instance circuit. In its group, first the message hashes of all signatures (`H_msg`:
//! SHA-2's inner hash, then MGF1; SHAKE's one sponge), whose digest is
//! public; then per signature its FORS trees (a leaf `F` and `a` nodes `H`
//! each), the FORS roots' `T_k`, and per hypertree layer its Winternitz
//! chains (`F` steps from each digit to 15), their `T_len` and the `h'`
//! nodes `H` up to the layer's root. A value one call computes and another
//! hashes is copied from the instance before in the same lane where it is
//! there (a chain's steps, a tree's nodes, a hash's blocks), else through a
//! public map (a FORS leaf into its first node and a chain's end into its
//! `T` when the two are in different lanes, a `T`'s values).
//!
//! Public: the key, the message (with the context), the digest (so the
//! FORS indices, `idx_tree` and `idx_leaf`, and with them every address and
//! every side a node is hashed on), and each layer's message (the FORS key
//! and the roots of the trees below the top; the top root is `PK.root`), so
//! that every chain's length is public. Private: `R`, the FORS secrets and
//! paths, the chain starts, the tree paths, and everything computed from
//! them. SHA-2: every `F`, `H` and `T` call's first block (`PK.seed` and
//! zeros) is compressed once per key: its instances start from that state,
//! a public value the verifier computes. SHAKE: a call's block starts with
//! the public `PK.seed ‖ ADRS`, and its data follows.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;
use core::ops::Range;

use crate::circuit::path_step::PathStepLayout;
use crate::circuit::Gadget;
use crate::piop::wiring::{Instances, Source, Wires};

use super::family::{public_bytes, same_public_bytes};
use super::hashing::{Lane, RowHash};
use super::slh_dsa::{Adrs, Seeded, SlhSet, FORS_ROOTS, FORS_TREE, MAX_DIGIT, TREE, WOTS_HASH, WOTS_PK};
use crate::circuits::StatementCircuit;
use crate::kind::{fill_row, row_of, Relation, Values};
use crate::records::Records;

/// The SHAKE sets' gadget: the SHAKE256 sponge step of LMS, its path check
/// unused (SLH-DSA's directions are public).
const SHAKE_ROWS: Gadget = Gadget::KeccakPathStep(PathStepLayout::shake256(32));

/// The groups of lanes of a set's instance circuit, one per hash it calls,
/// `F`'s first: five SHA-256 compressions (91% of `2^17` wires), three
/// SHAKE256 sponge steps (96%), or eight SHA-256 and one SHA-512
/// compressions (96% of `2^18`; `F` calls are 7 to 15 times the SHA-512
/// ones).
pub fn lanes(set: SlhSet) -> Vec<Lane> {
    match set.hashes()[..] {
        [RowHash::Shake256] => Lane::groups(&[(RowHash::Shake256, SHAKE_ROWS, 3)]),
        [RowHash::Sha256] => Lane::groups(&[(RowHash::Sha256, Gadget::Sha256, 5)]),
        [RowHash::Sha256, RowHash::Sha512] => Lane::groups(&[
            (RowHash::Sha256, Gadget::Sha256, 8),
            (RowHash::Sha512, Gadget::Sha512, 1),
        ]),
        _ => unreachable!("a set hashes with SHAKE256, SHA-256, or SHA-256 and SHA-512"),
    }
}

/// What an instance computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Block `k` of `H_msg`'s inner hash.
    Inner(u32),
    /// Block `block` of MGF1 call `call`.
    Mgf { call: u32, block: u32 },
    /// An `F` on a private value: a FORS leaf, a chain's first step.
    Start,
    /// A chain step after the first.
    Step,
    /// An `H` whose node below sits left (`true`) or right.
    Node { left: bool },
    /// Block `block` of a `T` over `values` values.
    Compress { block: u32 },
}

impl Role {
    /// Whether the role is an `F` call's (in the first lane).
    fn is_f(self) -> bool {
        matches!(self, Role::Start | Role::Step)
    }
}

/// An instance of a lane: `(lane, y)`.
type At = (usize, usize);

/// One instance of a lane: its signature, role, and for `F`, `H`, `T`
/// calls the address (the first block of a `T`; later blocks repeat it).
#[derive(Clone, Copy, Debug)]
struct Slot {
    signature: u32,
    role: Role,
    adrs: Adrs,
    /// For a `T` block, the values compressed (`k` or `len`).
    values: u32,
    /// For a chain step or a node, the instance whose output it hashes.
    below: Option<At>,
}

/// The instances of an SLH-DSA batch.
pub struct Layout {
    set: SlhSet,
    lanes: Vec<Lane>,
    /// Each lane's instances.
    slots: Vec<Vec<Slot>>,
    /// Per signature: its `H_msg` inner hash's first instance (where `R`
    /// is), in the last lane.
    inner_first: Vec<usize>,
    /// Per signature: the seeded states of its key (SHA-2).
    seeded: Vec<Seeded>,
    /// The instance whose output is value `i` of a `T` block's message, for
    /// the values a `T` compresses from computed nodes (FORS roots, chain
    /// ends): `(T's first instance, i, source)`.
    sources: Vec<(usize, usize, At)>,
}

/// The lane of a role's calls: `F`'s the first, the others the last.
fn lane_of(set: SlhSet, role: Role) -> usize {
    if role.is_f() {
        0
    } else {
        set.hashes().len() - 1
    }
}

/// Bytes of `M'`'s hash's input before `M'`: `R ‖ PK.seed ‖ PK.root`.
fn inner_prefix(set: SlhSet) -> usize {
    3 * set.n()
}

/// Bytes of an MGF1 call's input (SHA-2): `R ‖ PK.seed ‖ inner ‖ counter`.
fn mgf_bytes(set: SlhSet) -> usize {
    2 * set.n() + set.h_hash().digest_bytes() + 4
}

/// Blocks of `H_msg`'s inner hash (SHA-2), or of its sponge (SHAKE), on a
/// message `M'` of `len` bytes.
fn inner_blocks(set: SlhSet, len: usize) -> usize {
    set.h_hash().blocks(inner_prefix(set) + len)
}

/// MGF1 calls (SHA-2; none for SHAKE).
fn mgf_calls(set: SlhSet) -> usize {
    match set.h_hash() {
        RowHash::Shake256 => 0,
        hash => set.digest_bytes().div_ceil(hash.digest_bytes()),
    }
}

/// Blocks of an MGF1 call (SHA-2).
fn mgf_blocks(set: SlhSet) -> usize {
    set.h_hash().blocks(mgf_bytes(set))
}

/// Compressions (permutations) of `H_msg` on a message `M'` of `len` bytes.
pub fn message_blocks(set: SlhSet, len: usize) -> usize {
    inner_blocks(set, len) + mgf_calls(set) * mgf_blocks(set)
}

impl Layout {
    /// The layout of signatures whose messages `M'` have `lens` bytes, with
    /// output records `outputs` (the digest, then each layer's message) and
    /// keys' records `inputs`.
    pub fn new(set: SlhSet, inputs: &Records, lens: &[usize], outputs: &Records) -> Self {
        let lanes = lanes(set);
        let mut layout = Layout {
            set,
            slots: vec![Vec::new(); lanes.len()],
            lanes,
            inner_first: Vec::new(),
            seeded: inputs.iter().map(|r| Seeded::new(set, &r[..set.n()])).collect(),
            sources: Vec::new(),
        };
        let none = Adrs {
            layer: 0,
            tree: 0,
            kind: 0,
            keypair: 0,
            word2: 0,
            word3: 0,
        };
        let last = layout.lanes.len() - 1;
        for (s, &len) in lens.iter().enumerate() {
            layout.inner_first.push(layout.slots[last].len());
            let s = s as u32;
            for k in 0..inner_blocks(set, len) {
                layout.push(s, Role::Inner(k as u32), none, 0, None);
            }
            for call in 0..mgf_calls(set) {
                for block in 0..mgf_blocks(set) {
                    let role = Role::Mgf {
                        call: call as u32,
                        block: block as u32,
                    };
                    layout.push(s, role, none, 0, None);
                }
            }
        }
        for (s, output) in outputs.iter().enumerate() {
            layout.signature(s as u32, output);
        }
        layout
    }

    /// Appends an instance to its role's lane.
    fn push(&mut self, signature: u32, role: Role, adrs: Adrs, values: u32, below: Option<At>) -> At {
        let lane = lane_of(self.set, role);
        self.slots[lane].push(Slot {
            signature,
            role,
            adrs,
            values,
            below,
        });
        (lane, self.slots[lane].len() - 1)
    }

    /// The instances of the batch: its longest lane's.
    fn instances(&self) -> usize {
        self.slots.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Lays out `T`'s blocks over the values produced at `sources` (`None`:
    /// a private value); the last block's instance.
    fn compress(&mut self, s: u32, adrs: Adrs, sources: &[Option<At>]) -> At {
        let mut at = None;
        for block in 0..self.set.tweak_blocks(self.set.n() * sources.len()) {
            let role = Role::Compress { block: block as u32 };
            at = Some(self.push(s, role, adrs, sources.len() as u32, None));
            if block == 0 {
                let first = at.expect("a block").1;
                for (i, source) in sources.iter().enumerate() {
                    if let Some(y) = source {
                        self.sources.push((first, i, *y));
                    }
                }
            }
        }
        at.expect("a T has a block")
    }

    /// Lays out one signature after the message hashes.
    fn signature(&mut self, s: u32, output: &[u8]) {
        let set = self.set;
        let (indices, mut tree, mut leaf) = set.split(&output[..set.digest_bytes()]);
        let a = set.fors_height();
        let mut roots = Vec::with_capacity(indices.len());
        for (i, &index) in indices.iter().enumerate() {
            let mut adrs = Adrs {
                layer: 0,
                tree,
                kind: FORS_TREE,
                keypair: leaf,
                word2: 0,
                word3: (i as u32) << a | index,
            };
            let mut below = self.push(s, Role::Start, adrs, 0, None);
            for j in 0..a {
                adrs.word2 = j + 1;
                adrs.word3 >>= 1;
                let left = (index >> j) & 1 == 0;
                below = self.push(s, Role::Node { left }, adrs, 0, Some(below));
            }
            roots.push(Some(below));
        }
        let roots_adrs = Adrs {
            layer: 0,
            tree,
            kind: FORS_ROOTS,
            keypair: leaf,
            word2: 0,
            word3: 0,
        };
        self.compress(s, roots_adrs, &roots);
        let hp = set.tree_height();
        for l in 0..set.layers() {
            if l > 0 {
                leaf = (tree & ((1 << hp) - 1)) as u32;
                tree >>= hp;
            }
            let at = set.digest_bytes() + set.n() * l;
            let message = &output[at..at + set.n()];
            let mut ends = Vec::with_capacity(set.wots_len());
            for (c, digit) in SlhSet::wots_digits(message).into_iter().enumerate() {
                let mut end = None;
                for j in digit..MAX_DIGIT {
                    let adrs = Adrs {
                        layer: l as u8,
                        tree,
                        kind: WOTS_HASH,
                        keypair: leaf,
                        word2: c as u32,
                        word3: j,
                    };
                    let role = if j == digit { Role::Start } else { Role::Step };
                    end = Some(self.push(s, role, adrs, 0, end));
                }
                ends.push(end);
            }
            let pk_adrs = Adrs {
                layer: l as u8,
                tree,
                kind: WOTS_PK,
                keypair: leaf,
                word2: 0,
                word3: 0,
            };
            let mut below = self.compress(s, pk_adrs, &ends);
            let mut index = leaf;
            for j in 0..hp {
                let adrs = Adrs {
                    layer: l as u8,
                    tree,
                    kind: TREE,
                    keypair: 0,
                    word2: j + 1,
                    word3: index >> 1,
                };
                let left = index & 1 == 0;
                below = self.push(s, Role::Node { left }, adrs, 0, Some(below));
                index >>= 1;
            }
        }
    }

    /// Whether a slot is the first block of its hash.
    fn is_first_block(slot: &Slot) -> bool {
        match slot.role {
            Role::Inner(k) => k == 0,
            Role::Mgf { block, .. } => block == 0,
            Role::Compress { block } => block == 0,
            Role::Start | Role::Step | Role::Node { .. } => true,
        }
    }

    /// Whether a slot is a tweakable hash's (it starts from the seeded
    /// state).
    fn is_tweak(slot: &Slot) -> bool {
        !matches!(slot.role, Role::Inner(_) | Role::Mgf { .. })
    }

    /// The instances of `lane` that `keep` keeps.
    fn set(&self, lane: usize, keep: impl Fn(usize, &Slot) -> bool) -> Instances {
        let mut bits = vec![0u64; self.instances().div_ceil(64)];
        for (y, slot) in self.slots[lane].iter().enumerate() {
            if keep(y, slot) {
                bits[y / 64] |= 1 << (y % 64);
            }
        }
        Instances::Set(bits.into())
    }

    /// The map that takes an instance to its `source` (0 where none).
    fn map(&self, lane: usize, source: impl Fn(usize, &Slot) -> Option<usize>) -> Source {
        Source::Map(
            self.slots[lane]
                .iter()
                .enumerate()
                .map(|(y, slot)| source(y, slot).unwrap_or(0) as u32)
                .collect(),
        )
    }

    /// Input wires of bytes `bytes` of `lane`'s row.
    fn input(&self, circuit: &StatementCircuit, lane: usize, bytes: Range<usize>) -> Wires {
        let at = self.lanes[lane].input_at;
        circuit.input_wires(at + bytes.start..at + bytes.end)
    }

    /// Input wires of bytes `bytes` of `lane`'s block.
    fn block(&self, circuit: &StatementCircuit, lane: usize, bytes: Range<usize>) -> Wires {
        let state = self.lanes[lane].hash.state_bytes();
        self.input(circuit, lane, state + bytes.start..state + bytes.end)
    }

    /// Output wires of bytes `bytes` of `lane`'s output.
    fn output(&self, circuit: &StatementCircuit, lane: usize, bytes: Range<usize>) -> Wires {
        let at = self.lanes[lane].output_at;
        circuit.output_wires(at + bytes.start..at + bytes.end)
    }

    /// The relations that copy output bytes `from` of the instance each
    /// instance `(lane, y)` of `targets` names into its block bytes `to`:
    /// from the instance before in the same lane where it is that one, else
    /// through a map per source lane.
    fn copies<'a>(
        &self,
        circuit: &StatementCircuit,
        lane: usize,
        targets: &[(usize, At)],
        to: Range<usize>,
        from: Range<usize>,
    ) -> Vec<Relation<'a>> {
        let words = self.instances().div_ceil(64);
        // A map covers the targets, not every instance.
        let map_len = targets.iter().map(|&(y, _)| y + 1).max().unwrap_or(0);
        let mut previous = vec![0u64; words];
        // Per source lane: its targets and the map to their sources.
        let mut mapped: Vec<Option<(Vec<u64>, Vec<u32>)>> = vec![None; self.lanes.len()];
        for &(y, source) in targets {
            if source == (lane, y.wrapping_sub(1)) {
                previous[y / 64] |= 1 << (y % 64);
            } else {
                let (bits, map) =
                    mapped[source.0].get_or_insert_with(|| (vec![0u64; words], vec![0u32; map_len]));
                bits[y / 64] |= 1 << (y % 64);
                map[y] = source.1 as u32;
            }
        }
        let mut relations = Vec::new();
        if previous.iter().any(|&w| w != 0) {
            relations.push(Relation {
                instances: Instances::Set(previous.into()),
                wires: self.block(circuit, lane, to.clone()),
                from: Some((Source::Previous, self.output(circuit, lane, from.clone()))),
                values: Values::Zero,
            });
        }
        for (source_lane, entry) in mapped.into_iter().enumerate() {
            if let Some((bits, map)) = entry {
                relations.push(Relation {
                    instances: Instances::Set(bits.into()),
                    wires: self.block(circuit, lane, to.clone()),
                    from: Some((
                        Source::Map(map.into()),
                        self.output(circuit, source_lane, from.clone()),
                    )),
                    values: Values::Zero,
                });
            }
        }
        relations
    }

    /// The public bytes of instance `(lane, y)`'s block (zero where
    /// private).
    fn template(
        &self,
        (lane, y): At,
        inputs: &Records,
        messages: &[Vec<u8>],
        bytes: Range<usize>,
        out: &mut [u8],
    ) {
        let set = self.set;
        let (n, hash) = (set.n(), self.lanes[lane].hash);
        let slot = self.slots[lane][y];
        let s = slot.signature as usize;
        let pk = &inputs.get(s)[..set.public_key_bytes()];
        // A tweakable hash's bytes: SHA-2's after the seed block (the
        // compressed address, then private values), SHAKE's (the seed, the
        // address, then private values).
        let (compressed, full) = (slot.adrs.bytes(), slot.adrs.full());
        let mut tweak = |data: usize, k: usize| match hash {
            RowHash::Shake256 => {
                let byte = |i: usize| match i {
                    _ if i < n => pk[i],
                    _ => full.get(i - n).copied().unwrap_or(0),
                };
                hash.padded_bytes(set.data_at() + data, k, bytes.clone(), byte, out)
            }
            _ => {
                let bb = hash.block_bytes();
                let byte = |i: usize| compressed.get(i - bb).copied().unwrap_or(0);
                hash.padded_bytes(bb + set.data_at() + data, 1 + k, bytes.clone(), byte, out)
            }
        };
        let prefix = inner_prefix(set);
        match slot.role {
            Role::Inner(k) => {
                let message = &messages[s];
                let byte = |i: usize| match i {
                    _ if i < n => 0,
                    _ if i < prefix => pk[i - n],
                    _ => message[i - prefix],
                };
                hash.padded_bytes(prefix + message.len(), k as usize, bytes, byte, out)
            }
            Role::Mgf { call, block: k } => {
                let counter = call.to_be_bytes();
                let at = 2 * n + hash.digest_bytes();
                let byte = |i: usize| match i {
                    _ if (n..2 * n).contains(&i) => pk[i - n],
                    _ if (at..at + 4).contains(&i) => counter[i - at],
                    _ => 0,
                };
                hash.padded_bytes(mgf_bytes(set), k as usize, bytes, byte, out)
            }
            Role::Start | Role::Step => tweak(n, 0),
            Role::Node { .. } => tweak(2 * n, 0),
            Role::Compress { block: k } => tweak(n * slot.values as usize, k as usize),
        }
    }

    /// The relations: see the module documentation.
    pub fn relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        messages: Arc<Vec<Vec<u8>>>,
        outputs: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>> {
        let mut relations = vec![Relation::constant_wire(n)];
        for lane in 0..self.lanes.len() {
            self.lane_relations(circuit, lane, inputs, &messages, outputs, &mut relations);
        }
        self.node_relations(circuit, inputs, outputs, &mut relations);
        relations.retain(|r| !r.instances.is_empty());
        relations
    }

    /// The relations of `lane`'s instances on their own: chained parts,
    /// public bytes and, in the last lane, the message hash.
    fn lane_relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        lane: usize,
        inputs: &'a Records,
        messages: &Arc<Vec<Vec<u8>>>,
        outputs: &'a Records,
        relations: &mut Vec<Relation<'a>>,
    ) {
        let set = self.set;
        let nb = set.n();
        let hash = self.lanes[lane].hash;
        // A row: the chained part (`state` bytes), then the block (`bb`).
        let (state, bb) = (hash.state_bytes(), hash.block_bytes());
        let data_at = set.data_at();
        let cv = self.input(circuit, lane, 0..state);

        // Chained parts: SHA-2's IV or the key's seeded state, SHAKE's zero
        // state, or the block before's output.
        match hash {
            RowHash::Shake256 => relations.push(Relation {
                instances: self.set(lane, |_, s| Self::is_first_block(s)),
                wires: cv,
                from: None,
                values: Values::Constant(row_of(&hash.first_state())),
            }),
            _ => {
                relations.push(Relation {
                    instances: self.set(lane, |_, s| Self::is_first_block(s) && !Self::is_tweak(s)),
                    wires: cv,
                    from: None,
                    values: Values::Constant(row_of(&hash.first_state())),
                });
                let layout = self.clone();
                relations.push(Relation {
                    instances: self.set(lane, |_, s| Self::is_first_block(s) && Self::is_tweak(s)),
                    wires: cv,
                    from: None,
                    values: Values::PerInstance(Box::new(move |y, values| {
                        let s = layout.slots[lane][y].signature as usize;
                        fill_row(values, layout.seeded[s].of(hash))
                    })),
                });
            }
        }
        relations.push(Relation {
            instances: self.set(lane, |_, s| !Self::is_first_block(s)),
            wires: cv,
            from: Some((Source::Previous, self.output(circuit, lane, 0..state))),
            values: Values::Zero,
        });

        // Public bytes: each run of them over the instances that have it.
        // Each run, and whether it is a padding (the same in every instance
        // of its set).
        let tweak_padding = |data: usize| data_at + data..bb;
        let mut public_runs: Vec<(Instances, Range<usize>, bool)> = vec![
            (
                self.set(lane, |_, s| Self::is_first_block(s) && Self::is_tweak(s)),
                0..data_at,
                false,
            ),
            (self.set(lane, |_, s| s.role.is_f()), tweak_padding(nb), true),
            (
                self.set(lane, |_, s| matches!(s.role, Role::Node { .. })),
                tweak_padding(2 * nb),
                true,
            ),
            (self.set(lane, |_, s| s.role == Role::Inner(0)), nb..bb, false),
            (
                self.set(lane, |_, s| matches!(s.role, Role::Inner(k) if k > 0)),
                0..bb,
                false,
            ),
        ];
        // An MGF1 call's bytes but `R` and the inner digest (SHA-2).
        let inner = 2 * nb..2 * nb + hash.digest_bytes();
        let mgf_blocks = if mgf_calls(set) > 0 { mgf_blocks(set) } else { 0 };
        for block in 0..mgf_blocks as u32 {
            let (from, to) = (bb * block as usize, bb * (block as usize + 1));
            let keep = self.set(
                lane,
                |_, s| matches!(s.role, Role::Mgf { block: b, .. } if b == block),
            );
            for run in [nb..inner.start, inner.end..to] {
                let run = run.start.max(from)..run.end.min(to);
                if !run.is_empty() {
                    public_runs.push((keep.clone(), run.start - from..run.end - from, false));
                }
            }
        }
        for values in [set.fors_trees(), set.wots_len()] {
            let len = data_at + nb * values;
            let last = (set.tweak_blocks(nb * values) - 1) as u32;
            public_runs.push((
                self.set(lane, |_, s| {
                    s.role == Role::Compress { block: last } && s.values == values as u32
                }),
                len - bb * last as usize..bb,
                true,
            ));
        }
        for (instances, bytes, padding) in public_runs {
            if instances.is_empty() || bytes.is_empty() {
                continue;
            }
            let layout = self.clone();
            let messages = messages.clone();
            let block_at = self.lanes[lane].input_at + state;
            let template =
                move |y, bytes, out: &mut [u8]| layout.template((lane, y), inputs, &messages, bytes, out);
            if padding {
                relations.extend(same_public_bytes(circuit, block_at, instances, bytes, template));
            } else {
                relations.push(public_bytes(circuit, block_at, instances, bytes, template));
            }
        }

        if lane + 1 == self.lanes.len() {
            match hash {
                // The digest, the sponge's output.
                RowHash::Shake256 => {
                    let layout = self.clone();
                    relations.push(Relation {
                        instances: self.set(lane, |y, s| {
                            matches!(s.role, Role::Inner(_))
                                && self.slots[lane].get(y + 1).is_none_or(|n| {
                                    !matches!(n.role, Role::Inner(_)) || n.signature != s.signature
                                })
                        }),
                        wires: self.output(circuit, lane, 0..set.digest_bytes()),
                        from: None,
                        values: Values::PerInstance(Box::new(move |y, values| {
                            let record = outputs.get(layout.slots[lane][y].signature as usize);
                            fill_row(values, &record[..layout.set.digest_bytes()])
                        })),
                    });
                }
                _ => relations.extend(self.mgf_relations(circuit, lane, outputs)),
            }
        }
    }

    /// SHA-2's `H_msg`: `R` in the inner hash and every MGF1 call, the
    /// inner digest in each call, the digest from the calls' outputs.
    fn mgf_relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        lane: usize,
        outputs: &'a Records,
    ) -> Vec<Relation<'a>> {
        let set = self.set;
        let nb = set.n();
        let digest = self.lanes[lane].hash.digest_bytes();
        let block = |bytes: Range<usize>| self.block(circuit, lane, bytes);
        let out = |bytes: Range<usize>| self.output(circuit, lane, bytes);
        let inner = 2 * nb..2 * nb + digest;
        let mut relations = Vec::new();
        let inner0 = |_, s: &Slot| Some(self.inner_first[s.signature as usize]);
        relations.push(Relation {
            instances: self.set(lane, |_, s| matches!(s.role, Role::Mgf { block: 0, .. })),
            wires: block(0..nb),
            from: Some((self.map(lane, inner0), block(0..nb))),
            values: Values::Zero,
        });
        let inner_last =
            |y: usize, s: &Slot| matches!(s.role, Role::Mgf { block: 0, call: 0 }).then(|| y - 1);
        let first_call = |y: usize, s: &Slot| match s.role {
            Role::Mgf { block: 0, call } => Some(y - mgf_blocks(set) * call as usize),
            _ => None,
        };
        relations.push(Relation {
            instances: self.set(lane, |_, s| matches!(s.role, Role::Mgf { block: 0, call: 0 })),
            wires: block(inner.clone()),
            from: Some((self.map(lane, inner_last), out(0..digest))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: self.set(
                lane,
                |_, s| matches!(s.role, Role::Mgf { block: 0, call } if call > 0),
            ),
            wires: block(inner.clone()),
            from: Some((self.map(lane, first_call), block(inner))),
            values: Values::Zero,
        });
        // The digest, MGF1's outputs.
        let last = mgf_blocks(set) as u32 - 1;
        for call in 0..mgf_calls(set) {
            let bytes = digest * call..(digest * call + digest).min(set.digest_bytes());
            let layout = self.clone();
            let range = bytes.clone();
            relations.push(Relation {
                instances: self.set(lane, |_, s| {
                    s.role
                        == Role::Mgf {
                            call: call as u32,
                            block: last,
                        }
                }),
                wires: out(0..bytes.len()),
                from: None,
                values: Values::PerInstance(Box::new(move |y, values| {
                    fill_row(
                        values,
                        &outputs.get(layout.slots[lane][y].signature as usize)[range.clone()],
                    )
                })),
            });
        }
        relations
    }

    /// The chains' steps, the trees' nodes, `T`'s values and each layer's
    /// message.
    fn node_relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        outputs: &'a Records,
        relations: &mut Vec<Relation<'a>>,
    ) {
        let set = self.set;
        let nb = set.n();
        let data_at = set.data_at();
        let last = self.lanes.len() - 1;
        let bb = self.lanes[last].hash.block_bytes();
        // A chain step hashes the one before; a node, the node below on its
        // side.
        let below = |lane: usize, keep: &dyn Fn(Role) -> bool| -> Vec<(usize, At)> {
            self.slots[lane]
                .iter()
                .enumerate()
                .filter(|(_, s)| keep(s.role))
                .map(|(y, s)| (y, s.below.expect("a value below")))
                .collect()
        };
        let steps = below(0, &|r| r == Role::Step);
        relations.extend(self.copies(circuit, 0, &steps, data_at..data_at + nb, 0..nb));
        for (left, at) in [(true, data_at), (false, data_at + nb)] {
            let nodes = below(last, &|r| r == Role::Node { left });
            relations.extend(self.copies(circuit, last, &nodes, at..at + nb, 0..nb));
        }
        // Each computed value of a T at byte `data_at + n i` of its rows'
        // bytes: whole in one block, or split over two.
        let mut placed: Vec<(usize, Range<usize>, Range<usize>, At)> = Vec::new();
        for &(first, i, source) in &self.sources {
            let at = data_at + nb * i;
            let (b, within) = (at / bb, at % bb);
            if within + nb <= bb {
                placed.push((first + b, within..within + nb, 0..nb, source));
            } else {
                let head = bb - within;
                placed.push((first + b, within..bb, 0..head, source));
                placed.push((first + b + 1, 0..nb - head, head..nb, source));
            }
        }
        let mut patterns: Vec<(Range<usize>, Range<usize>)> = placed
            .iter()
            .map(|(_, to, from, _)| (to.clone(), from.clone()))
            .collect();
        patterns.sort_by_key(|(to, from)| (to.start, from.start));
        patterns.dedup();
        for (to, from) in patterns {
            let targets: Vec<(usize, At)> = placed
                .iter()
                .filter(|(_, t, f, _)| *t == to && *f == from)
                .map(|(y, _, _, source)| (*y, *source))
                .collect();
            relations.extend(self.copies(circuit, last, &targets, to, from));
        }
        // Each layer's message: the FORS key, then each tree's root; the top
        // root is PK.root.
        let layout = self.clone();
        relations.push(Relation {
            instances: self.set(last, |y, _| self.ends_a_layer(y).is_some()),
            wires: self.output(circuit, last, 0..nb),
            from: None,
            values: Values::PerInstance(Box::new(move |y, values| {
                let s = layout.slots[last][y].signature as usize;
                let l = layout.ends_a_layer(y).expect("a layer's end");
                let at = set.digest_bytes() + nb * l;
                let value = if l < set.layers() {
                    &outputs.get(s)[at..at + nb]
                } else {
                    &inputs.get(s)[nb..2 * nb]
                };
                fill_row(values, value)
            })),
        });
    }

    /// For the instance of the last lane that computes layer `l`'s message
    /// (the FORS roots' `T`'s last block for `l = 0`, the last node of
    /// layer `l - 1`), `l`; `d` for the top root.
    fn ends_a_layer(&self, y: usize) -> Option<usize> {
        let lane = &self.slots[self.lanes.len() - 1];
        let slot = lane[y];
        let next_is_other = lane
            .get(y + 1)
            .is_none_or(|n| n.signature != slot.signature || !matches!(n.role, Role::Node { .. }));
        match slot.role {
            Role::Compress { .. } if slot.adrs.kind == FORS_ROOTS => {
                let last = self.set.tweak_blocks(self.set.n() * slot.values as usize) as u32 - 1;
                (slot.role == Role::Compress { block: last }).then_some(0)
            }
            Role::Node { .. } if slot.adrs.kind == TREE && next_is_other => {
                Some(slot.adrs.layer as usize + 1)
            }
            _ => None,
        }
    }
}

/// Instances per lane of everything after the message hashes, walking each
/// signature as far as its output record says, `layer(s, l, y)` told each
/// layer's message's instance in the last lane (`y[last] - 1`) first: the
/// counts of `outputs` and the reading back of [`outputs`] are one walk.
fn walk_signatures(
    set: SlhSet,
    signatures: usize,
    y: &mut [usize],
    mut layer: impl FnMut(usize, usize, usize) -> Vec<u8>,
) {
    let (n, last) = (set.n(), y.len() - 1);
    let fors_nodes = set.fors_trees() * set.fors_height() as usize;
    for s in 0..signatures {
        y[0] += set.fors_trees();
        y[last] += fors_nodes + set.tweak_blocks(n * set.fors_trees());
        for l in 0..set.layers() {
            let message = layer(s, l, y[last] - 1);
            let steps: usize = SlhSet::wots_digits(&message[..n])
                .iter()
                .map(|&d| (MAX_DIGIT - d) as usize)
                .sum();
            y[0] += steps;
            y[last] += set.tweak_blocks(n * set.wots_len()) + set.tree_height() as usize;
        }
    }
}

/// The output records (the digest, then each layer's message) read back
/// from the instances' outputs, `output(lane, y)` being instance `y`'s
/// first 64 output bytes of `lane`: the layout is followed as far as each
/// value says.
pub fn outputs(set: SlhSet, lens: &[usize], output: &dyn Fn(usize, usize) -> [u8; 64]) -> Records {
    let n = set.n();
    let lanes = set.hashes().len();
    let last = lanes - 1;
    let digest_bytes = set.h_hash().digest_bytes().min(64);
    let mut y = vec![0; lanes];
    let mut records: Vec<Vec<u8>> = Vec::with_capacity(lens.len());
    for &len in lens {
        y[last] += inner_blocks(set, len);
        let mut digest = Vec::with_capacity(64);
        if mgf_calls(set) == 0 {
            digest.extend(&output(last, y[last] - 1)[..set.digest_bytes()]);
        }
        for _ in 0..mgf_calls(set) {
            y[last] += mgf_blocks(set);
            digest.extend(&output(last, y[last] - 1)[..digest_bytes]);
        }
        digest.truncate(set.digest_bytes());
        records.push(digest);
    }
    walk_signatures(set, lens.len(), &mut y, |s, _, at| {
        let message = output(last, at)[..n].to_vec();
        records[s].extend(&message);
        message
    });
    let mut out = Records::new();
    for record in records {
        out.push(&record);
    }
    out
}

/// Calls of each lane's hash in a batch, without laying it out.
pub fn count(set: SlhSet, lens: &[usize], outputs: &Records) -> Vec<usize> {
    let n = set.n();
    let lanes = set.hashes().len();
    let mut y = vec![0; lanes];
    y[lanes - 1] = lens.iter().map(|&len| message_blocks(set, len)).sum();
    walk_signatures(set, outputs.len(), &mut y, |s, l, _| {
        let at = set.digest_bytes() + n * l;
        outputs.get(s)[at..at + n].to_vec()
    });
    y
}

/// Each lane's instances' roles, in order.
#[doc(hidden)]
pub fn roles(set: SlhSet, inputs: &Records, lens: &[usize], outputs: &Records) -> Vec<Vec<Role>> {
    Layout::new(set, inputs, lens, outputs)
        .slots
        .iter()
        .map(|lane| lane.iter().map(|s| s.role).collect())
        .collect()
}
