//! Where an SLH-DSA batch's compressions are, and the relations that make
//! them one run of FIPS 205 verification per signature.
//!
//! Every compression is an instance of the SHA-256 circuit (SHA-2 sets),
//! every permutation one of the SHAKE256 sponge step (SHAKE sets). First
//! the message hashes of all signatures (`H_msg`: SHA-2's inner hash, then
//! MGF1; SHAKE's one sponge), whose digest is public; then per signature
//! its FORS trees (a leaf `F` and `a` nodes `H` each), the FORS roots'
//! `T_k`, and per hypertree layer its Winternitz chains (`F` steps from
//! each digit to 15), their `T_len` and the `h'` nodes `H` up to the
//! layer's root.
//!
//! Public: the key, the message (with the context), the digest (so the
//! FORS indices, `idx_tree` and `idx_leaf`, and with them every address and
//! every side a node is hashed on), and each layer's message (the FORS key
//! and the roots of the trees below the top; the top root is `PK.root`), so
//! that every chain's length is public. Private: `R`, the FORS secrets and
//! paths, the chain starts, the tree paths, and everything computed from
//! them. SHA-2: every `F`, `H` and `T` call's first block (`PK.seed ‖
//! 0^48`) is compressed once per key: its instances start from that state,
//! a public value the verifier computes. SHAKE: a call's block starts with
//! the public `PK.seed ‖ ADRS`, and its data follows.

use std::ops::Range;
use std::sync::Arc;

use starling_piop::wiring::{Instances, Source};

use super::family::public_bytes;
use super::hashing::RowHash;
use super::slh_dsa::{
    seeded_state, Adrs, SlhSet, FORS_ROOTS, FORS_TREE, MAX_DIGIT, TREE, WOTS_HASH, WOTS_PK,
};
use crate::circuits::StatementCircuit;
use crate::hashes::Hash;
use crate::kind::{fill_row, row_of, Relation, RunValues};
use crate::records::Records;

/// What an instance computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
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

/// One instance: its signature, role, and for `F`, `H`, `T` calls the
/// address (the first block of a `T`; later blocks repeat it).
#[derive(Clone, Copy, Debug)]
struct Slot {
    signature: u32,
    role: Role,
    adrs: Adrs,
    /// For a `T` block, the values compressed (`k` or 35).
    values: u32,
}

/// The instances of an SLH-DSA batch.
pub(crate) struct Layout {
    set: SlhSet,
    slots: Vec<Slot>,
    /// Per signature: its `H_msg` inner hash's first instance (where `R`
    /// is).
    inner_first: Vec<usize>,
    /// Per signature: the seeded state of its key (SHA-2).
    seeded: Vec<[u8; 32]>,
    /// The instance whose output is value `i` of a `T` block's message, for
    /// the values a `T` compresses from computed nodes (FORS roots, chain
    /// ends): `(T's first instance, i, source)`.
    sources: Vec<(usize, usize, usize)>,
}

/// Bytes of `M'`'s hash's input before `M'`: `R ‖ PK.seed ‖ PK.root`.
fn inner_prefix(set: SlhSet) -> usize {
    3 * set.n()
}

/// Bytes of an MGF1 call's input (SHA-2): `R ‖ PK.seed ‖ inner ‖ counter`.
fn mgf_bytes(set: SlhSet) -> usize {
    2 * set.n() + 32 + 4
}

/// Blocks of `H_msg`'s inner hash (SHA-2), or of its sponge (SHAKE), on a
/// message `M'` of `len` bytes.
fn inner_blocks(set: SlhSet, len: usize) -> usize {
    set.hash().blocks(inner_prefix(set) + len)
}

/// MGF1 calls (SHA-2; none for SHAKE).
fn mgf_calls(set: SlhSet) -> usize {
    match set.hash() {
        RowHash::Sha256 => set.digest_bytes().div_ceil(32),
        RowHash::Shake256 => 0,
    }
}

/// Compressions (permutations) of `H_msg` on a message `M'` of `len` bytes.
pub(crate) fn message_blocks(set: SlhSet, len: usize) -> usize {
    inner_blocks(set, len) + mgf_calls(set) * Hash::Sha256.blocks(mgf_bytes(set))
}

impl Layout {
    /// The layout of signatures whose messages `M'` have `lens` bytes, with
    /// output records `outputs` (the digest, then each layer's message) and
    /// keys' records `inputs`.
    pub(crate) fn new(set: SlhSet, inputs: &Records, lens: &[usize], outputs: &Records) -> Self {
        let mut layout = Layout {
            set,
            slots: Vec::new(),
            inner_first: Vec::new(),
            seeded: match set.hash() {
                RowHash::Sha256 => inputs.iter().map(|r| seeded_state(&r[..set.n()])).collect(),
                RowHash::Shake256 => Vec::new(),
            },
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
        for (s, &len) in lens.iter().enumerate() {
            layout.inner_first.push(layout.slots.len());
            let s = s as u32;
            for k in 0..inner_blocks(set, len) {
                layout.push(s, Role::Inner(k as u32), none, 0);
            }
            for call in 0..mgf_calls(set) {
                for block in 0..Hash::Sha256.blocks(mgf_bytes(set)) {
                    let role = Role::Mgf {
                        call: call as u32,
                        block: block as u32,
                    };
                    layout.push(s, role, none, 0);
                }
            }
        }
        for (s, output) in outputs.iter().enumerate() {
            layout.signature(s as u32, output);
        }
        layout
    }

    fn push(&mut self, signature: u32, role: Role, adrs: Adrs, values: u32) {
        self.slots.push(Slot {
            signature,
            role,
            adrs,
            values,
        });
    }

    /// Lays out `T`'s blocks over the values produced at `sources` (`None`:
    /// a private value).
    fn compress(&mut self, s: u32, adrs: Adrs, sources: &[Option<usize>]) {
        let first = self.slots.len();
        for block in 0..self.set.tweak_blocks(self.set.n() * sources.len()) {
            self.push(
                s,
                Role::Compress { block: block as u32 },
                adrs,
                sources.len() as u32,
            );
        }
        for (i, source) in sources.iter().enumerate() {
            if let Some(y) = source {
                self.sources.push((first, i, *y));
            }
        }
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
            self.push(s, Role::Start, adrs, 0);
            for j in 0..a {
                adrs.word2 = j + 1;
                adrs.word3 >>= 1;
                let left = (index >> j) & 1 == 0;
                self.push(s, Role::Node { left }, adrs, 0);
            }
            roots.push(Some(self.slots.len() - 1));
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
                    self.push(s, role, adrs, 0);
                }
                ends.push((digit < MAX_DIGIT).then(|| self.slots.len() - 1));
            }
            let pk_adrs = Adrs {
                layer: l as u8,
                tree,
                kind: WOTS_PK,
                keypair: leaf,
                word2: 0,
                word3: 0,
            };
            self.compress(s, pk_adrs, &ends);
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
                self.push(s, Role::Node { left: index & 1 == 0 }, adrs, 0);
                index >>= 1;
            }
        }
    }

    /// Whether instance `y` is the first block of its hash.
    fn is_first_block(&self, y: usize) -> bool {
        match self.slots[y].role {
            Role::Inner(k) => k == 0,
            Role::Mgf { block, .. } => block == 0,
            Role::Compress { block } => block == 0,
            Role::Start | Role::Step | Role::Node { .. } => true,
        }
    }

    /// Whether instance `y` is a tweakable hash's (it starts from the
    /// seeded state).
    fn is_tweak(&self, y: usize) -> bool {
        !matches!(self.slots[y].role, Role::Inner(_) | Role::Mgf { .. })
    }

    fn set(&self, keep: impl Fn(usize, &Slot) -> bool) -> Instances {
        let mut bits = vec![0u64; self.slots.len().div_ceil(64)];
        for (y, slot) in self.slots.iter().enumerate() {
            if keep(y, slot) {
                bits[y / 64] |= 1 << (y % 64);
            }
        }
        Instances::Set(bits)
    }

    fn map(&self, source: impl Fn(usize, &Slot) -> Option<usize>) -> Source {
        Source::Map(
            self.slots
                .iter()
                .enumerate()
                .map(|(y, slot)| source(y, slot).unwrap_or(0) as u32)
                .collect(),
        )
    }

    /// The public bytes of instance `y`'s block (zero where private).
    fn template(
        &self,
        y: usize,
        inputs: &Records,
        messages: &[Vec<u8>],
        bytes: Range<usize>,
        out: &mut [u8],
    ) {
        let set = self.set;
        let (n, hash) = (set.n(), set.hash());
        let slot = self.slots[y];
        let s = slot.signature as usize;
        let pk = &inputs.get(s)[..set.public_key_bytes()];
        // A tweakable hash's bytes: SHA-2's after the seed block (the
        // compressed address, then private values), SHAKE's (the seed, the
        // address, then private values).
        let (compressed, full) = (slot.adrs.bytes(), slot.adrs.full());
        let mut tweak = |data: usize, k: usize| match hash {
            RowHash::Sha256 => {
                let byte = |i: usize| compressed.get(i - 64).copied().unwrap_or(0);
                hash.padded_bytes(64 + set.data_at() + data, 1 + k, bytes.clone(), byte, out)
            }
            RowHash::Shake256 => {
                let byte = |i: usize| match i {
                    _ if i < n => pk[i],
                    _ => full.get(i - n).copied().unwrap_or(0),
                };
                hash.padded_bytes(set.data_at() + data, k, bytes.clone(), byte, out)
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
                let byte = |i: usize| match i {
                    _ if (n..2 * n).contains(&i) => pk[i - n],
                    _ if (2 * n + 32..2 * n + 36).contains(&i) => counter[i - 2 * n - 32],
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
    pub(crate) fn relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        messages: Arc<Vec<Vec<u8>>>,
        outputs: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>> {
        let set = self.set;
        let (nb, hash) = (set.n(), set.hash());
        // A row: the chained part (`state` bytes), then the block (`bb`).
        let (state, bb) = (hash.state_bytes(), hash.block_bytes());
        let data_at = set.data_at();
        let out = |bytes: Range<usize>| circuit.output_wires(bytes);
        let cv = circuit.input_wires(0..state);
        let mut relations = vec![Relation::constant_wire(n)];

        // Chained parts: SHA-2's IV or the key's seeded state, SHAKE's zero
        // state, or the block before's output.
        match hash {
            RowHash::Sha256 => {
                let iv = Hash::Sha256.initial_chained();
                relations.push(Relation {
                    instances: self.set(|y, _| self.is_first_block(y) && !self.is_tweak(y)),
                    wires: cv,
                    from: None,
                    values: RunValues::Constant(row_of(&iv)),
                });
                let layout = self.clone();
                relations.push(Relation {
                    instances: self.set(|y, _| self.is_first_block(y) && self.is_tweak(y)),
                    wires: cv,
                    from: None,
                    values: RunValues::PerInstance(Box::new(move |y, values| {
                        fill_row(values, &layout.seeded[layout.slots[y].signature as usize])
                    })),
                });
            }
            RowHash::Shake256 => relations.push(Relation {
                instances: self.set(|y, _| self.is_first_block(y)),
                wires: cv,
                from: None,
                values: RunValues::Constant(row_of(&hash.first_state())),
            }),
        }
        relations.push(Relation {
            instances: self.set(|y, _| !self.is_first_block(y)),
            wires: cv,
            from: Some((Source::Previous, out(0..state))),
            values: RunValues::Zero,
        });

        // Public bytes: each run of them over the instances that have it.
        let tweak_padding = |data: usize| data_at + data..bb;
        let mut public_runs: Vec<(Instances, Range<usize>)> = vec![
            (
                self.set(|y, _| self.is_first_block(y) && self.is_tweak(y)),
                0..data_at,
            ),
            (
                self.set(|_, s| matches!(s.role, Role::Start | Role::Step)),
                tweak_padding(nb),
            ),
            (
                self.set(|_, s| matches!(s.role, Role::Node { .. })),
                tweak_padding(2 * nb),
            ),
            (self.set(|_, s| s.role == Role::Inner(0)), nb..bb),
            (self.set(|_, s| matches!(s.role, Role::Inner(k) if k > 0)), 0..bb),
            (
                self.set(|_, s| matches!(s.role, Role::Mgf { block: 0, .. })),
                nb..2 * nb,
            ),
            (
                self.set(|_, s| matches!(s.role, Role::Mgf { block: 1, .. })),
                0..bb,
            ),
        ];
        for values in [set.fors_trees(), set.wots_len()] {
            let len = data_at + nb * values;
            let last = (set.tweak_blocks(nb * values) - 1) as u32;
            public_runs.push((
                self.set(|_, s| s.role == Role::Compress { block: last } && s.values == values as u32),
                len - bb * last as usize..bb,
            ));
        }
        for (instances, bytes) in public_runs {
            if instances.is_empty() || bytes.is_empty() {
                continue;
            }
            let layout = self.clone();
            let messages = messages.clone();
            relations.push(public_bytes(
                circuit,
                state,
                instances,
                bytes,
                move |y, bytes, out| layout.template(y, inputs, &messages, bytes, out),
            ));
        }

        match hash {
            RowHash::Sha256 => relations.extend(self.mgf_relations(circuit, outputs)),
            // The digest, the sponge's output.
            RowHash::Shake256 => {
                let layout = self.clone();
                relations.push(Relation {
                    instances: self.set(|y, s| {
                        matches!(s.role, Role::Inner(_))
                            && self.slots.get(y + 1).is_none_or(|n| {
                                !matches!(n.role, Role::Inner(_)) || n.signature != s.signature
                            })
                    }),
                    wires: out(0..set.digest_bytes()),
                    from: None,
                    values: RunValues::PerInstance(Box::new(move |y, values| {
                        let record = outputs.get(layout.slots[y].signature as usize);
                        fill_row(values, &record[..layout.set.digest_bytes()])
                    })),
                });
            }
        }
        self.node_relations(circuit, inputs, outputs, &mut relations);
        relations
    }

    /// SHA-2's `H_msg`: `R` in the inner hash and every MGF1 call, the
    /// inner digest in each call, the digest from the calls' outputs.
    fn mgf_relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        outputs: &'a Records,
    ) -> Vec<Relation<'a>> {
        let set = self.set;
        let nb = set.n();
        let block = |bytes: Range<usize>| circuit.input_wires(32 + bytes.start..32 + bytes.end);
        let out = |bytes: Range<usize>| circuit.output_wires(bytes);
        let mut relations = Vec::new();
        let inner0 = |_, s: &Slot| Some(self.inner_first[s.signature as usize]);
        relations.push(Relation {
            instances: self.set(|_, s| matches!(s.role, Role::Mgf { block: 0, .. })),
            wires: block(0..nb),
            from: Some((self.map(inner0), block(0..nb))),
            values: RunValues::Zero,
        });
        let inner_last =
            |y: usize, s: &Slot| matches!(s.role, Role::Mgf { block: 0, call: 0 }).then(|| y - 1);
        let first_call = |y: usize, s: &Slot| match s.role {
            Role::Mgf { block: 0, call } => Some(y - Hash::Sha256.blocks(mgf_bytes(set)) * call as usize),
            _ => None,
        };
        relations.push(Relation {
            instances: self.set(|_, s| matches!(s.role, Role::Mgf { block: 0, call: 0 })),
            wires: block(2 * nb..2 * nb + 32),
            from: Some((self.map(inner_last), out(0..32))),
            values: RunValues::Zero,
        });
        relations.push(Relation {
            instances: self.set(|_, s| matches!(s.role, Role::Mgf { block: 0, call } if call > 0)),
            wires: block(2 * nb..2 * nb + 32),
            from: Some((self.map(first_call), block(2 * nb..2 * nb + 32))),
            values: RunValues::Zero,
        });
        // The digest, MGF1's outputs.
        for call in 0..mgf_calls(set) {
            let bytes = 32 * call..(32 * call + 32).min(set.digest_bytes());
            let layout = self.clone();
            let range = bytes.clone();
            relations.push(Relation {
                instances: self.set(|_, s| {
                    s.role
                        == Role::Mgf {
                            call: call as u32,
                            block: 1,
                        }
                }),
                wires: out(0..bytes.len()),
                from: None,
                values: RunValues::PerInstance(Box::new(move |y, values| {
                    fill_row(
                        values,
                        &outputs.get(layout.slots[y].signature as usize)[range.clone()],
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
        let (state, bb) = (set.hash().state_bytes(), set.hash().block_bytes());
        let data_at = set.data_at();
        let block = |bytes: Range<usize>| circuit.input_wires(state + bytes.start..state + bytes.end);
        let out = |bytes: Range<usize>| circuit.output_wires(bytes);
        // A chain step hashes the one before; a node, the node below on its
        // side.
        relations.push(Relation {
            instances: self.set(|_, s| s.role == Role::Step),
            wires: block(data_at..data_at + nb),
            from: Some((Source::Previous, out(0..nb))),
            values: RunValues::Zero,
        });
        for (left, at) in [(true, data_at), (false, data_at + nb)] {
            relations.push(Relation {
                instances: self.set(|_, s| s.role == Role::Node { left }),
                wires: block(at..at + nb),
                from: Some((Source::Previous, out(0..nb))),
                values: RunValues::Zero,
            });
        }
        // Each computed value of a T at byte `data_at + n i` of its rows'
        // bytes: whole in one block, or split over two.
        let mut placed: Vec<(usize, Range<usize>, Range<usize>, usize)> = Vec::new();
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
            let mut sources = vec![None; self.slots.len()];
            for (y, t, f, source) in &placed {
                if *t == to && *f == from {
                    sources[*y] = Some(*source);
                }
            }
            relations.push(Relation {
                instances: self.set(|y, _| sources[y].is_some()),
                wires: block(to),
                from: Some((self.map(|y, _| sources[y]), out(from))),
                values: RunValues::Zero,
            });
        }
        // Each layer's message: the FORS key, then each tree's root; the top
        // root is PK.root.
        let layout = self.clone();
        relations.push(Relation {
            instances: self.set(|y, _| self.ends_a_layer(y).is_some()),
            wires: out(0..nb),
            from: None,
            values: RunValues::PerInstance(Box::new(move |y, values| {
                let s = layout.slots[y].signature as usize;
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

    /// For the instance that computes layer `l`'s message (the FORS roots'
    /// `T`'s last block for `l = 0`, the last node of layer `l - 1`), `l`;
    /// `d` for the top root.
    fn ends_a_layer(&self, y: usize) -> Option<usize> {
        let slot = self.slots[y];
        let next_is_other = self
            .slots
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

/// The output records (the digest, then each layer's message) read back
/// from the instances' outputs, `output(y)` being instance `y`'s first 64
/// output bytes: the layout is followed as far as each value says.
pub(crate) fn outputs(set: SlhSet, lens: &[usize], output: impl Fn(usize) -> [u8; 64]) -> Records {
    let n = set.n();
    let calls = mgf_calls(set);
    let mgf = Hash::Sha256.blocks(mgf_bytes(set));
    let mut digests = Vec::with_capacity(lens.len());
    let mut y = 0;
    for &len in lens {
        y += inner_blocks(set, len);
        let mut digest = Vec::with_capacity(64);
        if calls == 0 {
            digest.extend(&output(y - 1)[..set.digest_bytes()]);
        }
        for _ in 0..calls {
            y += mgf;
            digest.extend(&output(y - 1)[..32]);
        }
        digest.truncate(set.digest_bytes());
        digests.push(digest);
    }
    let fors = set.fors_trees() * (1 + set.fors_height() as usize) + set.tweak_blocks(n * set.fors_trees());
    let mut records = Records::new();
    for mut record in digests {
        y += fors;
        for _ in 0..set.layers() {
            let message = output(y - 1);
            record.extend(&message[..n]);
            let steps: usize = SlhSet::wots_digits(&message[..n])
                .iter()
                .map(|&d| (MAX_DIGIT - d) as usize)
                .sum();
            y += steps + set.tweak_blocks(n * set.wots_len()) + set.tree_height() as usize;
        }
        records.push(&record);
    }
    records
}

/// Instances of a batch, without laying it out.
pub(crate) fn count(set: SlhSet, lens: &[usize], outputs: &Records) -> usize {
    let n = set.n();
    let messages: usize = lens.iter().map(|&len| message_blocks(set, len)).sum();
    let fors = set.fors_trees() * (1 + set.fors_height() as usize) + set.tweak_blocks(n * set.fors_trees());
    let per_layer = set.tweak_blocks(n * set.wots_len()) + set.tree_height() as usize;
    let steps: usize = outputs
        .iter()
        .map(|o| {
            (0..set.layers())
                .map(|l| {
                    let at = set.digest_bytes() + n * l;
                    SlhSet::wots_digits(&o[at..at + n])
                        .iter()
                        .map(|&d| (MAX_DIGIT - d) as usize)
                        .sum::<usize>()
                })
                .sum::<usize>()
        })
        .sum();
    messages + steps + outputs.len() * (fors + set.layers() * per_layer)
}

/// Each instance's role, in order.
#[cfg(test)]
pub(crate) fn roles(set: SlhSet, inputs: &Records, lens: &[usize], outputs: &Records) -> Vec<Role> {
    Layout::new(set, inputs, lens, outputs)
        .slots
        .iter()
        .map(|s| s.role)
        .collect()
}
