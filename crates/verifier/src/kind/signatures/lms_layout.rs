//! Where an LMS or HSS batch's compressions are, and the relations that
//! make them one run of RFC 8554's verification per signature.
//!
//! A signature is a stack of LMS levels ([`Stack`]: one for LMS, `L` for
//! HSS), each level of each signature a *unit* laid out alike. Every
//! compression is a call of the path-step circuit
//! ([`crate::circuit::sha256_path_step`]), numbered here as if each were
//! an instance (`placement` puts five in an instance). First the message hashes of
//! all units (so that each one's `Q`, a public output, sits where the
//! messages' lengths alone say), then per unit: its Winternitz chains
//! (chain `i` takes the steps `a_i .. 2^w - 2`, its digit `a_i` read from
//! the public `Q`), the blocks of the candidate public key `Kc`, the leaf,
//! and two blocks per level of the path.
//!
//! Public: the key's `I` and root `T`, the message, `Q`, and from `Q` the
//! chains' lengths. Private: `q`, `C`, the chain starts `y`, the path, and
//! everything computed from them. `q` is one free field (bytes 16..20 of
//! the message hash's first block, below `2^h`) that every other hash of
//! the unit copies, with `I` before it (public in the message hash of a
//! top unit only); the leaf's node number is `q ⊕ 2^h`, each level's
//! the one below shifted right by one bit, and a level's direction bit is
//! the low bit of the node below. A level's first block checks `left = P`
//! or `right = P` by that bit (the circuit's `E` and `F`), with `P` the
//! node below; its second block checks the rest of `right`.
//!
//! Hash values are `n` bytes (32, or 24 for SHA-256/192, whose outputs the
//! relations read the first 24 bytes of); offsets below are for `n = 32`.
//!
//! HSS: a unit below the top has a private key, the `24 + n`-byte public
//! key the unit above signs. That unit's message hash holds it (its
//! typecodes public, at message bytes 54..62: the scheme's); the lower
//! unit's `I` (message bytes 62..78) is copied into its first message block
//! and from there into every first block of the unit, and its root `T`
//! (message bytes 78..110) is what its last path level must output. Each
//! level's `Q` is public like LMS's.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use core::ops::Range;

use crate::piop::wiring::{Instances, Source, Wires};

use super::family::{public_bytes, same_public_bytes};
use super::hss::Stack;
use super::lms::{LmsSet, D_INTR, D_LEAF, D_MESG, D_PBLC, KEY_HEAD_BYTES, PREFIX_BYTES};
use crate::circuits::StatementCircuit;
use crate::kind::{fill_row, row_of, Relation, Values};
use crate::records::Records;

/// What an instance computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Block `k` of the message hash.
    Message(u32),
    /// Step `j` of chain `chain`; `first` when it takes the chain's start.
    Step { chain: u16, j: u8, first: bool },
    /// Block `k` of the candidate public key.
    PublicKey(u32),
    /// The leaf.
    Leaf,
    /// A path level's first block (`second` false) or second.
    Node { second: bool },
}

impl Role {
    /// Whether the role's block is its hash's first.
    fn is_first_block(self) -> bool {
        match self {
            Role::Message(k) | Role::PublicKey(k) => k == 0,
            Role::Step { .. } | Role::Leaf => true,
            Role::Node { second } => !second,
        }
    }
}

/// The instances of an LMS or HSS batch, each with its unit (signature
/// `s`'s level `j` is unit `s L + j`) and role.
pub struct Layout {
    stack: Stack,
    owner: Vec<(u32, Role)>,
    /// Per unit: its message hash's first instance.
    message_first: Vec<usize>,
    /// Per unit: where its candidate public key's blocks start.
    key_first: Vec<usize>,
    /// Per unit and chain: the chain's last step, if it has steps.
    chain_end: Vec<Vec<Option<usize>>>,
    /// Per unit: where its chain steps start (its key's blocks if none).
    steps_first: Vec<usize>,
}

/// What the relations' sets ask of an instance: its role (a chain step's
/// numbers left out, and a block number only as far as some set tells it
/// apart: the first, the last of a key's hash, the last of a signed key's
/// message), whether it is its hash's last block, and its unit's place in
/// the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    role: Role,
    last_of_hash: bool,
    top: bool,
    signs_key: bool,
}

impl Class {
    /// A number below 256, distinct for distinct classes: a normalized
    /// block number is 0, 1 or a key's last block, which `min(2)` keeps
    /// apart from 1 since a key whose last block is 1 has no other.
    fn key(self) -> usize {
        let (kind, payload) = match self.role {
            Role::Message(k) => (0, k.min(2) as usize),
            Role::Step { first, .. } => (1, first as usize),
            Role::PublicKey(k) => (2, k.min(2) as usize),
            Role::Leaf => (3, 0),
            Role::Node { second } => (4, second as usize),
        };
        kind | payload << 3
            | usize::from(self.last_of_hash) << 5
            | usize::from(self.top) << 6
            | usize::from(self.signs_key) << 7
    }
}

/// A layout's instances split by [`Class`].
#[derive(Debug)]
struct Classes {
    words: usize,
    classes: Vec<(Class, Vec<u64>)>,
    /// Each class's place in `classes` by its key.
    index: [u8; 256],
}

impl Classes {
    fn new(instances: usize) -> Self {
        Classes {
            words: instances.div_ceil(64),
            classes: Vec::new(),
            index: [u8::MAX; 256],
        }
    }

    /// Puts the instances `range` in `class`.
    fn add(&mut self, class: Class, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        let key = class.key();
        if self.index[key] == u8::MAX {
            self.index[key] = self.classes.len() as u8;
            self.classes.push((class, vec![0u64; self.words]));
        }
        let at = self.index[key] as usize;
        let bits = &mut self.classes[at].1;
        let (first, last) = (range.start / 64, (range.end - 1) / 64);
        let low = !0u64 << (range.start % 64);
        let high = !0u64 >> (63 - (range.end - 1) % 64);
        if first == last {
            bits[first] |= low & high;
        } else {
            bits[first] |= low;
            bits[first + 1..last].fill(!0);
            bits[last] |= high;
        }
    }

    /// Each class's instances, by the class's key (for comparing two).
    #[cfg(test)]
    fn by_key(&self) -> alloc::collections::BTreeMap<usize, (Class, &[u64])> {
        self.classes
            .iter()
            .map(|(c, bits)| (c.key(), (*c, &bits[..])))
            .collect()
    }

    /// The instances whose class passes `keep`.
    fn set(&self, keep: impl Fn(Class) -> bool) -> Instances {
        Instances::Set(self.bits(keep).into())
    }

    /// [`Classes::set`] as bits.
    fn bits(&self, keep: impl Fn(Class) -> bool) -> Vec<u64> {
        let mut bits = vec![0u64; self.words];
        for (_, members) in self.classes.iter().filter(|(c, _)| keep(*c)) {
            bits.iter_mut().zip(members).for_each(|(b, m)| *b |= m);
        }
        bits
    }
}

/// The instances right after those of `bits` (bit `y + 1` for each `y`).
fn after(bits: &[u64]) -> Vec<u64> {
    let mut carry = 0;
    bits.iter()
        .map(|&w| {
            let shifted = (w << 1) | carry;
            carry = w >> 63;
            shifted
        })
        .collect()
}

/// Bytes each unit's message hash reads after its prefix, per signature
/// record: the key below for all units but the last, the message for it.
fn unit_messages(stack: Stack, record: &[u8]) -> impl Iterator<Item = usize> {
    let msg = record.len() - stack.public_key_bytes();
    let key = stack.set.public_key_bytes();
    (1..=stack.levels).map(move |j| if j < stack.levels { key } else { msg })
}

impl Layout {
    /// The layout of signatures on `inputs` (`PK ‖ MSG`) whose output
    /// records are `q_reps` (every level's `Q`).
    pub fn new(stack: Stack, inputs: &Records, q_reps: &Records) -> Self {
        let set = stack.set;
        let mut owner = Vec::new();
        let mut message_first = Vec::with_capacity(inputs.len() * stack.levels as usize);
        for record in inputs.iter() {
            for len in unit_messages(stack, record) {
                let u = message_first.len() as u32;
                message_first.push(owner.len());
                owner.extend((0..set.message_blocks(len)).map(|k| (u, Role::Message(k as u32))));
            }
        }
        let max = set.max_digit();
        let key_blocks = Self::key_blocks(set);
        let mut key_first = Vec::with_capacity(message_first.len());
        let mut chain_end = Vec::with_capacity(message_first.len());
        let mut steps_first = Vec::with_capacity(message_first.len());
        owner.reserve(Self::count(stack, inputs, q_reps) - owner.len());
        for q_rep in q_reps.iter().flat_map(|r| r.chunks_exact(set.n_bytes())) {
            let s32 = key_first.len() as u32;
            steps_first.push(owner.len());
            let mut ends = Vec::with_capacity(set.p());
            for (i, a) in set.digits(q_rep).into_iter().enumerate() {
                for j in a..max {
                    let role = Role::Step {
                        chain: i as u16,
                        j: j as u8,
                        first: j == a,
                    };
                    owner.push((s32, role));
                }
                ends.push((a < max).then(|| owner.len() - 1));
            }
            chain_end.push(ends);
            key_first.push(owner.len());
            owner.extend((0..key_blocks).map(|k| (s32, Role::PublicKey(k as u32))));
            owner.push((s32, Role::Leaf));
            for _ in 0..set.h {
                owner.push((s32, Role::Node { second: false }));
                if Self::node_blocks(set) == 2 {
                    owner.push((s32, Role::Node { second: true }));
                }
            }
        }
        Layout {
            stack,
            owner,
            message_first,
            key_first,
            chain_end,
            steps_first,
        }
    }

    /// Instances of a batch of signatures on `inputs` with output records
    /// `q_reps`, without laying them out.
    pub fn count(stack: Stack, inputs: &Records, q_reps: &Records) -> usize {
        let set = stack.set;
        let per_unit = Self::key_blocks(set) + 1 + Self::node_blocks(set) * set.h as usize;
        let messages: usize = inputs
            .iter()
            .flat_map(|r| unit_messages(stack, r))
            .map(|len| set.message_blocks(len))
            .sum();
        let steps: usize = q_reps
            .iter()
            .flat_map(|r| r.chunks_exact(set.n_bytes()))
            .map(|q| set.steps(q) as usize)
            .sum();
        messages + steps + inputs.len() * stack.levels as usize * per_unit
    }

    /// Whether unit `u` is a top level, under the public key.
    fn top(&self, u: u32) -> bool {
        u.is_multiple_of(self.stack.levels)
    }

    /// Whether unit `u` signs the key of the unit below it.
    fn signs_key(&self, u: u32) -> bool {
        !(u + 1).is_multiple_of(self.stack.levels)
    }

    /// Blocks of the candidate public key's hash.
    fn key_blocks(set: LmsSet) -> usize {
        set.hash.blocks(Self::key_message_bytes(set))
    }

    /// Blocks of a path level's hash: two for SHA-256, one for SHAKE256.
    fn node_blocks(set: LmsSet) -> usize {
        set.hash.blocks(set.node_bytes())
    }

    fn key_message_bytes(set: LmsSet) -> usize {
        PREFIX_BYTES + set.n_bytes() * set.p()
    }

    /// Each instance's unit and role, in order.
    #[doc(hidden)]
    pub fn roles(&self) -> &[(u32, Role)] {
        &self.owner
    }

    /// Whether instance `y` is the last block of its hash: the next
    /// instance is another unit's or another role's.
    #[cfg(test)]
    fn last_of_its_hash(&self, y: usize) -> bool {
        let (s, role) = self.owner[y];
        self.owner.get(y + 1).is_none_or(|&(next_s, next)| {
            next_s != s || core::mem::discriminant(&next) != core::mem::discriminant(&role)
        })
    }

    /// The class of an instance of unit `u` with role `role` (whether it
    /// is its hash's last block matters for messages and path levels only):
    /// blocks of one kind that no set tells apart stand for each other.
    fn class_of(&self) -> impl Fn(u32, Role, bool) -> Class + '_ {
        let set = self.stack.set;
        let key_last = Self::key_blocks(set) as u32 - 1;
        let signed_last =
            ((set.message_prefix_bytes() + set.public_key_bytes()) / set.hash.block_bytes()) as u32;
        move |u, role, last_of_hash| {
            let signs_key = self.signs_key(u);
            let role = match role {
                Role::Message(k) if !signs_key => Role::Message(k.min(1)),
                Role::Message(k) => Role::Message(if k == signed_last { signed_last } else { k.min(1) }),
                Role::Step { first, .. } => Role::Step {
                    chain: 0,
                    j: 0,
                    first,
                },
                Role::PublicKey(k) if k == 0 || k == key_last => Role::PublicKey(k),
                Role::PublicKey(_) => Role::PublicKey(1),
                other => other,
            };
            Class {
                role,
                last_of_hash: last_of_hash && matches!(role, Role::Message(_) | Role::Node { .. }),
                top: self.top(u),
                signs_key,
            }
        }
    }

    /// The instances by [`Class`], laid down unit by unit as runs (a
    /// chain's steps after its first are one), after which a set is a union
    /// of classes: a few word operations per instance (a verifier builds
    /// some twenty sets over every call of the batch).
    fn classes(&self) -> Classes {
        let set = self.stack.set;
        let class = self.class_of();
        let mut classes = Classes::new(self.owner.len());
        let bodies = self.steps_first.first().copied().unwrap_or(self.owner.len());
        for (u, &first) in self.message_first.iter().enumerate() {
            let u32 = u as u32;
            let end = self.message_first.get(u + 1).copied().unwrap_or(bodies);
            for y in first..end {
                let role = Role::Message((y - first) as u32);
                classes.add(class(u32, role, y + 1 == end), y..y + 1);
            }
        }
        let key_blocks = Self::key_blocks(set);
        for (u, ends) in self.chain_end.iter().enumerate() {
            let u32 = u as u32;
            let step = |first| Role::Step {
                chain: 0,
                j: 0,
                first,
            };
            let (first_step, later_step) = (class(u32, step(true), false), class(u32, step(false), false));
            let mut next = self.steps_first[u];
            for &end in ends.iter().flatten() {
                classes.add(first_step, next..next + 1);
                classes.add(later_step, next + 1..end + 1);
                next = end + 1;
            }
            let key = self.key_first[u];
            for k in 0..key_blocks {
                classes.add(class(u32, Role::PublicKey(k as u32), false), key + k..key + k + 1);
            }
            let leaf = key + key_blocks;
            classes.add(class(u32, Role::Leaf, false), leaf..leaf + 1);
            let nodes = leaf + 1..leaf + 1 + Self::node_blocks(set) * set.h as usize;
            for y in nodes.clone() {
                let role = Role::Node {
                    second: Self::node_blocks(set) == 2 && (y - nodes.start) % 2 == 1,
                };
                classes.add(class(u32, role, y + 1 == nodes.end), y..y + 1);
            }
        }
        classes
    }

    /// [`Layout::classes`] instance by instance from the roles: the plain
    /// reference the tests hold it against.
    #[cfg(test)]
    fn classes_one_by_one(&self) -> Classes {
        let class = self.class_of();
        let mut classes = Classes::new(self.owner.len());
        for (y, &(u, role)) in self.owner.iter().enumerate() {
            classes.add(class(u, role, self.last_of_its_hash(y)), y..y + 1);
        }
        classes
    }

    /// A map from each instance of `readers` to the one `source` names (0
    /// elsewhere: no relation reads those entries).
    fn map(&self, readers: &[&Instances], source: impl Fn(usize, u32, Role) -> Option<usize>) -> Source {
        let mut map = vec![0u32; self.owner.len()];
        for y in readers.iter().flat_map(|set| set.members()) {
            let (u, role) = self.owner[y];
            map[y] = source(y, u, role).unwrap_or(0) as u32;
        }
        Source::Map(map.into())
    }

    /// The public bytes of instance `y`'s block: every byte the verifier
    /// knows, zero where the block holds a private value.
    fn template(&self, y: usize, inputs: &Records, bytes: Range<usize>, out: &mut [u8]) {
        let (u, role) = self.owner[y];
        let record = inputs.get((u / self.stack.levels) as usize);
        let key = &record[self.stack.key_at()..];
        let top = self.top(u);
        // The message's public bytes: `I` (a top unit's), the 2-byte tag
        // after the private 4-byte field, then what `rest` gives (zero
        // where private).
        let mut hashed = |len: usize, k: usize, tag: [u8; 2], rest: &dyn Fn(usize) -> u8| {
            let byte = |i| match i {
                0..16 if top => key[8 + i],
                0..16 => 0,
                16..20 => 0,
                20 => tag[0],
                21 => tag[1],
                _ => rest(i),
            };
            self.stack.set.hash.padded_bytes(len, k, bytes.clone(), byte, out)
        };
        let set = self.stack.set;
        let fixed = set.message_prefix_bytes();
        match role {
            Role::Message(k) if self.signs_key(u) => {
                // The key below: public typecodes, the rest private.
                let types = [set.lms_type(), set.ots_type()];
                let types: Vec<u8> = types.iter().flat_map(|t| t.to_be_bytes()).collect();
                let rest = |i: usize| i.checked_sub(fixed).and_then(|i| types.get(i)).map_or(0, |b| *b);
                hashed(fixed + set.public_key_bytes(), k as usize, D_MESG, &rest)
            }
            Role::Message(k) => {
                let msg = &record[self.stack.public_key_bytes()..];
                let rest = |i: usize| i.checked_sub(fixed).map_or(0, |i| msg[i]);
                hashed(fixed + msg.len(), k as usize, D_MESG, &rest)
            }
            Role::Step { chain, j, .. } => {
                let rest = |i: usize| if i == PREFIX_BYTES { j } else { 0 };
                hashed(set.step_bytes(), 0, chain.to_be_bytes(), &rest)
            }
            Role::PublicKey(k) => hashed(Self::key_message_bytes(set), k as usize, D_PBLC, &|_| 0),
            Role::Leaf => hashed(fixed, 0, D_LEAF, &|_| 0),
            Role::Node { second } => hashed(set.node_bytes(), second as usize, D_INTR, &|_| 0),
        }
    }

    /// The relations: see the module documentation.
    pub fn relations<'a>(
        self: &Arc<Self>,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        q_reps: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>> {
        let set = self.stack.set;
        let nb = set.n_bytes();
        // A row: the chained part (`state` bytes), the block (`bb` bytes),
        // `P` and the direction bit; an output: the chained part, `E`, `F`.
        let (state, bb) = (set.hash.state_bytes(), set.hash.block_bytes());
        let key_last = Self::key_blocks(set) as u32 - 1;
        let block = |bytes: Range<usize>| circuit.input_wires(state + bytes.start..state + bytes.end);
        let block_bits = |bits: Range<usize>| Wires {
            base: circuit.r1cs().public_input_wire(8 * state + bits.start),
            len: bits.len(),
        };
        let out = |bytes: Range<usize>| circuit.output_wires(bytes);
        let prev_at = state + bb;
        let prev = |bytes: Range<usize>| circuit.input_wires(prev_at + bytes.start..prev_at + bytes.end);
        let dir = Wires {
            base: circuit.r1cs().public_input_wire(8 * (prev_at + nb)),
            len: 1,
        };
        let check_e = circuit.output_wires(state..state + nb);
        let check_f =
            |bytes: Range<usize>| circuit.output_wires(state + nb + bytes.start..state + nb + bytes.end);
        // A path level's `right` child, at message byte `22 + n`: its first
        // `right_head` bytes in the first block, the rest (SHA-256) in the
        // second.
        let right_head = nb.min(bb - (PREFIX_BYTES + nb));
        let node_blocks = Self::node_blocks(set);
        let first_node = |r: Role| r == Role::Node { second: false };
        let second_node = |r: Role| r == Role::Node { second: true };
        let message0 = |_, u: u32, _| Some(self.message_first[u as usize]);
        // The instance holding the node number a path level's first block
        // shifts: the leaf below the first level, else the level below.
        let holder = |y: usize, _, r: Role| {
            first_node(r).then(|| {
                if self.owner[y - 1].1 == Role::Leaf {
                    y - 1
                } else {
                    y - node_blocks
                }
            })
        };

        // The sets and maps several relations share, made once.
        let classes = self.classes();
        let first_blocks = classes.set(|c| c.role.is_first_block());
        let steps = classes.set(|c| matches!(c.role, Role::Step { .. }));
        let first_nodes = classes.set(|c| first_node(c.role));
        let second_nodes = classes.set(|c| second_node(c.role));
        let leaves = classes.set(|c| c.role == Role::Leaf);
        let message_starts = classes.set(|c| c.role == Role::Message(0));
        let holders = self.map(&[&first_nodes], holder);

        let mut relations = vec![Relation::constant_wire(n)];
        // Chained parts: SHA-256's IV or SHAKE256's zero state in a hash's
        // first block, the previous block's output in the others.
        let first_state: Vec<u8> = set.hash.first_state();
        relations.push(Relation {
            instances: first_blocks.clone(),
            wires: circuit.input_wires(0..state),
            from: None,
            values: Values::Constant(row_of(&first_state)),
        });
        relations.push(Relation {
            instances: classes.set(|c| !c.role.is_first_block()),
            wires: circuit.input_wires(0..state),
            from: Some((Source::Previous, out(0..state))),
            values: Values::Zero,
        });
        // The public bytes of every block.
        let key_tail = Self::key_message_bytes(set).saturating_sub(bb * key_last as usize);
        let fixed = set.message_prefix_bytes();
        // Where a signed key's message ends: in its first block (SHAKE256)
        // or its second (SHA-256); where a path level's ends (SHAKE256: in
        // its only block).
        let signed_end = fixed + set.public_key_bytes();
        let (signed_last, signed_tail) = (signed_end / bb, signed_end % bb);
        let node_tail = set.node_bytes() % bb;
        // Each run, and whether it is the same in every instance of its set
        // (a padding, a domain tag): one constant row for the set.
        let public_runs: [(Instances, Range<usize>, bool); 13] = [
            (classes.set(|c| c.role == Role::Message(0) && c.top), 0..16, false),
            // The domain tag of each kind of hash but a chain step's.
            (message_starts.clone(), 20..22, true),
            (classes.set(|c| c.role == Role::PublicKey(0)), 20..22, true),
            (leaves.clone(), 20..22, true),
            (first_nodes.clone(), 20..22, true),
            (steps.clone(), set.step_bytes()..bb, true),
            (
                classes.set(|c| c.role == Role::Leaf || c.role == Role::Message(0) && !c.signs_key),
                fixed..bb,
                false,
            ),
            (
                classes.set(|c| c.role == Role::Message(0) && c.signs_key),
                fixed..fixed + 8,
                false,
            ),
            (
                classes.set(|c| matches!(c.role, Role::Message(k) if k > 0) && !c.signs_key),
                0..bb,
                false,
            ),
            (
                classes.set(|c| c.role == Role::Message(signed_last as u32) && c.signs_key),
                signed_tail..bb,
                false,
            ),
            (
                classes.set(|c| c.role == Role::PublicKey(key_last)),
                key_tail..bb,
                true,
            ),
            (second_nodes.clone(), node_tail..bb, true),
            (
                classes.set(|c| node_blocks == 1 && first_node(c.role)),
                node_tail..bb,
                true,
            ),
        ];
        for (instances, bytes, same) in public_runs {
            if instances.is_empty() || bytes.is_empty() {
                continue;
            }
            let layout = self.clone();
            let template = move |y, bytes, out: &mut [u8]| layout.template(y, inputs, bytes, out);
            if same {
                relations.extend(same_public_bytes(circuit, state, instances, bytes, template));
            } else {
                relations.push(public_bytes(circuit, state, instances, bytes, template));
            }
        }
        // A chain step's tag, the chain's number `i` and the step's `j`: a
        // public row at a chain's first step (written straight from its
        // role, as the template would), and at the steps after it `i`
        // copied from the step before and `j` its successor `J`, which the
        // circuit computes (so that a verifier weighs no row per step).
        let layout = self.clone();
        relations.push(Relation {
            instances: classes.set(|c| matches!(c.role, Role::Step { first: true, .. })),
            wires: block(20..PREFIX_BYTES + 1),
            from: None,
            values: Values::PerInstance(Box::new(move |y, values| {
                if let Role::Step { chain, j, .. } = layout.owner[y].1 {
                    let [high, low] = chain.to_be_bytes();
                    values[0] = u64::from_le_bytes([high, low, j, 0, 0, 0, 0, 0]);
                }
            })),
        });
        let later_steps = classes.set(|c| matches!(c.role, Role::Step { first: false, .. }));
        relations.push(Relation {
            instances: later_steps.clone(),
            wires: block(20..PREFIX_BYTES),
            from: Some((Source::Previous, block(20..PREFIX_BYTES))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: later_steps.clone(),
            wires: block(PREFIX_BYTES..PREFIX_BYTES + 1),
            from: Some((Source::Previous, out(state + 2 * nb..state + 2 * nb + 1))),
            values: Values::Zero,
        });
        // `I` and `q`, the key's identifier (public for a top unit) and one
        // value below 2^h, copied from the message hash into every hash that
        // names them (`I` alone into a path level's, `q ⊕ 2^h` into the
        // leaf's): a read of another instance, which the verifier weighs far
        // faster than a row of public bytes per chain step. A chain step or
        // the key's first block after a step reads the step (of its unit:
        // a unit's steps are followed by its key), the others the message
        // hash.
        let named = classes.bits(|c| matches!(c.role, Role::Step { .. } | Role::PublicKey(0)));
        let after_step = after(&classes.bits(|c| matches!(c.role, Role::Step { .. })));
        let first_named = Instances::Set(named.iter().zip(&after_step).map(|(a, b)| a & !b).collect());
        let to_message0 = self.map(&[&first_named, &first_nodes, &leaves], message0);
        relations.push(Relation {
            instances: Instances::Set(named.iter().zip(&after_step).map(|(a, b)| a & b).collect()),
            wires: block(0..20),
            from: Some((Source::Previous, block(0..20))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: first_named,
            wires: block(0..20),
            from: Some((to_message0.clone(), block(0..20))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: first_nodes.clone(),
            wires: block(0..16),
            from: Some((to_message0.clone(), block(0..16))),
            values: Values::Zero,
        });
        for bits in runs((set.h..32).map(u32_bit)) {
            relations.push(Relation {
                instances: message_starts.clone(),
                wires: block_bits(128 + bits.start..128 + bits.end),
                from: None,
                values: Values::Zero,
            });
        }
        let mut leaf_id_q = [0u8; 20];
        leaf_id_q[16..].copy_from_slice(&(1u32 << set.h).to_be_bytes());
        relations.push(Relation {
            instances: leaves.clone(),
            wires: block(0..20),
            from: Some((to_message0.clone(), block(0..20))),
            values: Values::Constant(row_of(&leaf_id_q)),
        });
        // Each level's node number: the one below shifted right by one bit
        // (value bit v from bit v + 1; the top bit zero); its direction: the
        // low bit of the one below.
        let mut pairs: Vec<(usize, usize)> = (0..31).map(|v| (u32_bit(v), u32_bit(v + 1))).collect();
        pairs.sort_unstable();
        for (to, from) in shifted_runs(&pairs) {
            relations.push(Relation {
                instances: first_nodes.clone(),
                wires: block_bits(128 + to.start..128 + to.end),
                from: Some((holders.clone(), block_bits(128 + from.start..128 + from.end))),
                values: Values::Zero,
            });
        }
        relations.push(Relation {
            instances: first_nodes.clone(),
            wires: block_bits(128 + u32_bit(31)..128 + u32_bit(31) + 1),
            from: None,
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: first_nodes.clone(),
            wires: dir,
            from: Some((
                holders.clone(),
                block_bits(128 + u32_bit(0)..128 + u32_bit(0) + 1),
            )),
            values: Values::Zero,
        });
        // A level's second block (SHA-256) takes the first's bit and `P`.
        if node_blocks == 2 {
            relations.push(Relation {
                instances: second_nodes.clone(),
                wires: dir,
                from: Some((Source::Previous, dir)),
                values: Values::Zero,
            });
        }
        // The node below, P, and the checks that put it on its side.
        relations.push(Relation {
            instances: first_nodes.clone(),
            wires: prev(0..nb),
            from: Some((Source::Previous, out(0..nb))),
            values: Values::Zero,
        });
        if node_blocks == 2 {
            relations.push(Relation {
                instances: second_nodes.clone(),
                wires: prev(right_head..nb),
                from: Some((Source::Previous, prev(right_head..nb))),
                values: Values::Zero,
            });
        }
        for (instances, wires) in [
            (first_nodes.clone(), check_e),
            (first_nodes, check_f(0..right_head)),
            (second_nodes, check_f(right_head..nb)),
        ] {
            if wires.len > 0 {
                relations.push(Relation {
                    instances,
                    wires,
                    from: None,
                    values: Values::Zero,
                });
            }
        }
        // The leaf hashes Kc, the key's last block's output.
        relations.push(Relation {
            instances: leaves.clone(),
            wires: block(PREFIX_BYTES..PREFIX_BYTES + nb),
            from: Some((Source::Previous, out(0..nb))),
            values: Values::Zero,
        });
        // A chain step after the first hashes the one before.
        relations.push(Relation {
            instances: later_steps,
            wires: block(PREFIX_BYTES + 1..set.step_bytes()),
            from: Some((Source::Previous, out(0..nb))),
            values: Values::Zero,
        });
        // Each chain's end in Kc, at byte 22 + n i of its message: whole in
        // one block, or split over two where it crosses a block's end;
        // grouped by where in its block it starts, and by part.
        let mut placed: BTreeMap<(usize, bool), Vec<(usize, usize)>> = BTreeMap::new();
        for (u, ends) in self.chain_end.iter().enumerate() {
            for (i, end) in ends.iter().enumerate() {
                let Some(end) = *end else { continue };
                let at = PREFIX_BYTES + nb * i;
                let y = self.key_first[u] + at / bb;
                placed.entry((at % bb, false)).or_default().push((y, end));
                if at % bb + nb > bb {
                    placed.entry((at % bb, true)).or_default().push((y + 1, end));
                }
            }
        }
        for ((start, tail), pairs) in placed {
            let head = nb.min(bb - start);
            let (to, from) = if tail {
                (block(0..nb - head), out(head..nb))
            } else {
                (block(start..start + head), out(0..head))
            };
            let mut bits = vec![0u64; self.owner.len().div_ceil(64)];
            let mut map = vec![0u32; self.owner.len()];
            for (y, end) in pairs {
                bits[y / 64] |= 1 << (y % 64);
                map[y] = end as u32;
            }
            relations.push(Relation {
                instances: Instances::Set(bits.into()),
                wires: to,
                from: Some((Source::Map(map.into()), from)),
                values: Values::Zero,
            });
        }
        // Q, and the root T.
        let layout = self.clone();
        let levels = self.stack.levels;
        relations.push(Relation {
            instances: classes.set(|c| matches!(c.role, Role::Message(_)) && c.last_of_hash),
            wires: out(0..nb),
            from: None,
            values: Values::PerInstance(Box::new(move |y, values| {
                let u = layout.owner[y].0;
                let j = (u % levels) as usize;
                fill_row(values, &q_reps.get((u / levels) as usize)[nb * j..nb * (j + 1)])
            })),
        });
        // The top level's last block (a path level is one block with
        // SHAKE256, whose nodes are all first blocks).
        let last_node = |c: Class| matches!(c.role, Role::Node { .. }) && c.last_of_hash;
        let layout = self.clone();
        relations.push(Relation {
            instances: classes.set(|c| last_node(c) && c.top),
            wires: out(0..nb),
            from: None,
            values: Values::PerInstance(Box::new(move |y, values| {
                let record = inputs.get((layout.owner[y].0 / levels) as usize);
                let key = &record[layout.stack.key_at()..];
                fill_row(values, &key[KEY_HEAD_BYTES..KEY_HEAD_BYTES + nb])
            })),
        });
        if levels > 1 {
            relations.extend(self.signed_keys(circuit, &classes, last_node));
        }
        relations
    }

    /// HSS: each unit below the top takes its key from the unit above's
    /// message (see the module documentation).
    fn signed_keys<'a>(
        &self,
        circuit: &StatementCircuit,
        classes: &Classes,
        last_node: impl Fn(Class) -> bool,
    ) -> Vec<Relation<'a>> {
        let set = self.stack.set;
        let state = set.hash.state_bytes();
        let block = |bytes: Range<usize>| circuit.input_wires(state + bytes.start..state + bytes.end);
        let lower_message0 = classes.set(|c| c.role == Role::Message(0) && !c.top);
        let lower_roots = classes.set(|c| !c.top && last_node(c));
        // The unit above's message block `k`, by the instance that reads it.
        let above = |k: usize| {
            self.map(&[&lower_message0, &lower_roots], move |_, u, _| {
                (!self.top(u)).then(|| self.message_first[u as usize - 1] + k)
            })
        };
        // The signed key's `I` and root, after its typecodes in the message
        // the unit above signs, each in one block or split over two.
        let id_at = set.message_prefix_bytes() + 8;
        let id = pieces(id_at, 16, set.hash.block_bytes());
        let root = pieces(id_at + 16, set.n_bytes(), set.hash.block_bytes());
        let mut relations: Vec<Relation<'a>> = id
            .into_iter()
            .map(|(k, at, of_id)| Relation {
                instances: lower_message0.clone(),
                wires: block(of_id),
                from: Some((above(k), block(at))),
                values: Values::Zero,
            })
            .collect();
        relations.extend(root.into_iter().map(|(k, at, of_root)| Relation {
            instances: lower_roots.clone(),
            wires: circuit.output_wires(of_root),
            from: Some((above(k), block(at))),
            values: Values::Zero,
        }));
        relations
    }
}

/// Message bytes `start..start + len` as pieces within blocks of
/// `block_bytes`: the block, the bytes in it, and the bytes of the value.
fn pieces(start: usize, len: usize, block_bytes: usize) -> Vec<(usize, Range<usize>, Range<usize>)> {
    let mut out = Vec::new();
    let mut at = start;
    while at < start + len {
        let end = (start + len).min((at / block_bytes + 1) * block_bytes);
        out.push((
            at / block_bytes,
            at % block_bytes..at % block_bytes + end - at,
            at - start..end - start,
        ));
        at = end;
    }
    out
}

/// The bit within four bytes that holds bit `v` of a big-endian `u32`.
fn u32_bit(v: u32) -> usize {
    8 * (3 - v as usize / 8) + v as usize % 8
}

/// Increasing bit positions as runs of consecutive ones.
fn runs(bits: impl Iterator<Item = usize>) -> Vec<Range<usize>> {
    let mut sorted: Vec<usize> = bits.collect();
    sorted.sort_unstable();
    let mut out: Vec<Range<usize>> = Vec::new();
    for b in sorted {
        match out.last_mut() {
            Some(r) if r.end == b => r.end += 1,
            _ => out.push(b..b + 1),
        }
    }
    out
}

/// Pairs `(to, from)`, sorted by `to`, as runs where both advance by one.
fn shifted_runs(pairs: &[(usize, usize)]) -> Vec<(Range<usize>, Range<usize>)> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for &(to, from) in pairs {
        match out.last_mut() {
            Some((t, f)) if t.end == to && f.end == from => {
                t.end += 1;
                f.end += 1;
            }
            _ => out.push((to..to + 1, from..from + 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::signatures::{hashing::RowHash, Hss, Scheme, Signatures};
    use crate::kind::Kind;

    /// The classes laid down by runs are those of the instances one by one:
    /// LMS and HSS, both hashes, messages of one block and of several.
    #[test]
    fn classes_by_runs_are_the_classes_of_each_instance() {
        let sha = LmsSet::with_hash(RowHash::Sha256, 32, 5, 4).unwrap();
        let shake = LmsSet::with_hash(RowHash::Shake256, 24, 5, 2).unwrap();
        let stacks = [
            (Scheme::Lms(sha), Stack::lms(sha)),
            (Scheme::Lms(shake), Stack::lms(shake)),
            (
                Scheme::Hss(Hss::new(2, sha).unwrap()),
                Hss::new(2, sha).unwrap().stack(),
            ),
            (
                Scheme::Hss(Hss::new(3, shake).unwrap()),
                Hss::new(3, shake).unwrap().stack(),
            ),
        ];
        for (scheme, stack) in stacks {
            for msg_len in [0, 150] {
                let kind = Signatures::new(scheme.clone());
                let (public, private) = kind.random_batch_from(3, msg_len, &mut crate::kind::test_bytes(5));
                let mut q_reps = Records::new();
                let key = stack.public_key_bytes();
                for (p, s) in public.iter().zip(private.iter()) {
                    q_reps.push(&stack.trace(&p[..key], &p[key..], s).unwrap().output);
                }
                let layout = Layout::new(stack, &public, &q_reps);
                assert_eq!(
                    layout.classes().by_key(),
                    layout.classes_one_by_one().by_key(),
                    "{} with {msg_len}-byte messages",
                    kind.name()
                );
            }
        }
    }
}
