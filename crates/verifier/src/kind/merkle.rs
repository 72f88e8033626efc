//! Merkle roots: public leaves and root, every inner node private.
//!
//! | scheme | hashes | leaves | node |
//! |---|---|---|---|
//! | `plain` | sha256, sha512, keccak-256, blake3 | values of a digest's size (32 bytes, 64 for sha512), a power of two of them | `H(left ‖ right)` |
//! | `rfc6962` | sha256 | byte strings of any length, any number (RFC 6962 §2.1 split) | leaf `H(0x00 ‖ d)`, node `H(0x01 ‖ l ‖ r)` |
//! | `bitcoin` | sha256 | 32-byte transaction ids as hashed, any number; a level of odd count pairs its last node with itself | `H(H(l ‖ r))` |
//!
//! Input records are the leaves, the one output record the root (for one
//! plain or bitcoin leaf, the leaf itself). Text: one leaf per line in hex
//! (`-` for an empty rfc6962 leaf); the output line is the root in hex, in
//! the byte order of the leaves.
//!
//! The tree is a list of hashed nodes, children before parents, each a
//! message of parts (constant bytes, a leaf's bytes, a child's digest)
//! hashed block by block; the blocks are consecutive instances. Relations:
//! the constant wire; the hash's chaining across a node's blocks (as for
//! digests); every block's public bytes (constants, leaves, padding); every
//! run of a child's digest bytes inside a block equals the digest bytes of
//! the child's last block (an explicit map from instance to instance); the
//! root node's digest equals the root. Instances with the same layout of
//! parts share their relations, so a tree needs a handful of them.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use core::ops::Range;

use crate::piop::wiring::{Instances, Source, Wires};

use super::{bytes_line, extend_bytes_of, row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::hashes::Hash;
use crate::inputs::{expect_fields, hex_bytes, hex_field};
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

/// How a tree is built from its leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `H(left ‖ right)` over leaves of a digest's size, a power of two of
    /// them.
    Plain,
    /// RFC 6962 (Certificate Transparency).
    Rfc6962,
    /// Bitcoin's transaction tree (double SHA-256, odd levels duplicate
    /// their last node).
    Bitcoin,
}

impl Scheme {
    /// Every scheme.
    pub const ALL: [Scheme; 3] = [Scheme::Plain, Scheme::Rfc6962, Scheme::Bitcoin];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Plain => "plain",
            Scheme::Rfc6962 => "rfc6962",
            Scheme::Bitcoin => "bitcoin",
        }
    }

    /// Its code in a file's parameters.
    pub(crate) fn code(self) -> u8 {
        match self {
            Scheme::Plain => 1,
            Scheme::Rfc6962 => 2,
            Scheme::Bitcoin => 3,
        }
    }

    /// The scheme with this code.
    pub(crate) fn from_code(code: u8) -> Option<Scheme> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Whether `hash` builds trees of this scheme.
    pub fn takes(self, hash: Hash) -> bool {
        match self {
            Scheme::Plain => matches!(hash, Hash::Sha256 | Hash::Sha512 | Hash::Keccak256 | Hash::Blake3),
            Scheme::Rfc6962 | Scheme::Bitcoin => hash == Hash::Sha256,
        }
    }
}

/// Part of a node's message. Eight bytes, so that a tree of 2^24 leaves
/// stays within the memory its input file's size suggests.
#[derive(Clone, Copy, Debug)]
enum Part {
    /// A constant byte (RFC 6962's domain separation).
    Byte(u8),
    /// A leaf's bytes.
    Leaf(u32),
    /// A child node's digest.
    Child(u32),
}

/// The tree as hashed nodes, children before parents; the root is the last
/// (none for a single plain or bitcoin leaf, which is its own root). The
/// nodes' parts are one flat list: a list per node cost an allocation each,
/// most of a verifier's memory for a file of empty RFC 6962 leaves.
struct Tree {
    parts: Vec<Part>,
    /// End of each node's parts in `parts`.
    ends: Vec<u32>,
    /// Bytes of a child's digest in its parent's message.
    digest_bytes: usize,
}

impl Tree {
    fn build(hash: Hash, scheme: Scheme, leaves: usize) -> Tree {
        let mut tree = Tree {
            parts: Vec::new(),
            ends: Vec::new(),
            digest_bytes: hash.digest_bytes(),
        };
        match scheme {
            Scheme::Plain | Scheme::Bitcoin => {
                let mut level: Vec<Part> = (0..leaves as u32).map(Part::Leaf).collect();
                while level.len() > 1 {
                    if level.len() % 2 == 1 {
                        level.push(level[level.len() - 1]);
                    }
                    level = level
                        .chunks_exact(2)
                        .map(|pair| {
                            let inner = tree.push(pair);
                            if scheme == Scheme::Bitcoin {
                                Part::Child(tree.push(&[Part::Child(inner)]))
                            } else {
                                Part::Child(inner)
                            }
                        })
                        .collect();
                }
            }
            // RFC 6962 §2.1: the hash of an empty list is the hash of the
            // empty string.
            Scheme::Rfc6962 if leaves == 0 => {
                tree.push(&[]);
            }
            Scheme::Rfc6962 => {
                tree.rfc6962(0..leaves as u32);
            }
        }
        tree
    }

    fn push(&mut self, parts: &[Part]) -> u32 {
        self.parts.extend_from_slice(parts);
        self.ends.push(self.parts.len() as u32);
        self.ends.len() as u32 - 1
    }

    /// Number of hashed nodes.
    fn nodes(&self) -> usize {
        self.ends.len()
    }

    /// The parts of a node's message.
    fn parts(&self, node: usize) -> &[Part] {
        let start = node.checked_sub(1).map_or(0, |before| self.ends[before] as usize);
        &self.parts[start..self.ends[node] as usize]
    }

    /// RFC 6962 §2.1: the node of `leaves` (at least one), split at the
    /// largest power of two below their number.
    fn rfc6962(&mut self, leaves: Range<u32>) -> u32 {
        if leaves.len() == 1 {
            return self.push(&[Part::Byte(0x00), Part::Leaf(leaves.start)]);
        }
        // The largest power of two below the number of leaves.
        let k = 1u32 << (u32::BITS - 1 - (leaves.len() as u32 - 1).leading_zeros());
        let split = leaves.start + k;
        let left = self.rfc6962(leaves.start..split);
        let right = self.rfc6962(split..leaves.end);
        self.push(&[Part::Byte(0x01), Part::Child(left), Part::Child(right)])
    }

    /// Bytes of a part in its node's message.
    fn part_len(&self, part: Part, leaves: &Records) -> usize {
        match part {
            Part::Byte(_) => 1,
            Part::Leaf(i) => leaves.get(i as usize).len(),
            Part::Child(_) => self.digest_bytes,
        }
    }

    /// A node's message, with `digest(child)` for each child (zeros when
    /// the digests are not known, as for the verifier's public bytes).
    fn message(&self, node: usize, leaves: &Records, digest: &dyn Fn(usize) -> Vec<u8>) -> Vec<u8> {
        let mut out = Vec::new();
        for part in self.parts(node) {
            match *part {
                Part::Byte(b) => out.push(b),
                Part::Leaf(i) => out.extend_from_slice(leaves.get(i as usize)),
                Part::Child(c) => out.extend_from_slice(&digest(c as usize)),
            }
        }
        out
    }

    /// The parts of a node's message as byte ranges of it, each with the
    /// child whose digest it is (`None` for constant and leaf bytes).
    fn spans(&self, node: usize, leaves: &Records) -> Vec<(Range<usize>, Option<usize>)> {
        let mut at = 0;
        self.parts(node)
            .iter()
            .map(|&part| {
                let len = self.part_len(part, leaves);
                let child = match part {
                    Part::Child(c) => Some(c as usize),
                    Part::Byte(_) | Part::Leaf(_) => None,
                };
                at += len;
                (at - len..at, child)
            })
            .collect()
    }

    /// Length of a node's message.
    fn message_len(&self, node: usize, leaves: &Records) -> usize {
        self.parts(node)
            .iter()
            .map(|&part| self.part_len(part, leaves))
            .sum()
    }

    /// The bytes `range` of a node's message, children's digests as zeros
    /// (the verifier's public bytes), without building the whole message: a
    /// block of a long RFC 6962 leaf costs its own bytes only.
    fn message_bytes(&self, node: usize, range: Range<usize>, leaves: &Records) -> Vec<u8> {
        let mut out = vec![0; range.len()];
        for (part, (span, _)) in self.parts(node).iter().zip(self.spans(node, leaves)) {
            let (start, end) = (span.start.max(range.start), span.end.min(range.end));
            if start >= end {
                continue;
            }
            let bytes: &[u8] = match part {
                Part::Byte(b) => core::slice::from_ref(b),
                Part::Leaf(i) => leaves.get(*i as usize),
                Part::Child(_) => continue,
            };
            out[start - range.start..end - range.start]
                .copy_from_slice(&bytes[start - span.start..end - span.start]);
        }
        out
    }
}

/// The circuit instances of the tree of `scheme` over `leaves`, counted
/// without building it (what a statement's shape needs, for trees of
/// millions of nodes): every hashed node takes the blocks of its message.
fn count_instances(hash: Hash, scheme: Scheme, leaves: &Records) -> u64 {
    let blocks = |len: usize| hash.blocks(len) as u64;
    let d = hash.digest_bytes();
    // Plain and bitcoin trees hash each level's nodes in pairs, an odd
    // level's last node paired with itself, up to one node.
    let pairs = || {
        let (mut level, mut pairs) = (leaves.len() as u64, 0);
        while level > 1 {
            level = level.div_ceil(2);
            pairs += level;
        }
        pairs
    };
    match scheme {
        Scheme::Plain => pairs() * blocks(2 * d),
        // H(H(l || r)): the outer hash is of one digest.
        Scheme::Bitcoin => pairs() * (blocks(2 * d) + blocks(d)),
        Scheme::Rfc6962 if leaves.is_empty() => blocks(0),
        // Leaf nodes hash 0x00 || d; the n - 1 inner nodes 0x01 || l || r.
        Scheme::Rfc6962 => {
            leaves.iter().map(|leaf| blocks(1 + leaf.len())).sum::<u64>()
                + (leaves.len() as u64 - 1) * blocks(1 + 2 * d)
        }
    }
}

/// Merkle roots under one hash and scheme.
#[derive(Clone, Debug)]
pub struct MerkleRoot {
    hash: Hash,
    scheme: Scheme,
    circuit: Arc<StatementCircuit>,
}

/// Where the instances of a tree are, built once for a statement's
/// relations (the count alone is [`count_instances`]).
struct Layout {
    tree: Tree,
    /// First instance of each node, and the total at the end.
    starts: Vec<u32>,
    /// For each instance: its node (its block is its distance from the
    /// node's first instance).
    owner: Vec<u32>,
}

impl Layout {
    fn new(hash: Hash, scheme: Scheme, leaves: &Records) -> Layout {
        let tree = Tree::build(hash, scheme, leaves.len());
        let mut starts = Vec::with_capacity(tree.nodes() + 1);
        starts.push(0);
        let mut owner = Vec::with_capacity(count_instances(hash, scheme, leaves) as usize);
        for node in 0..tree.nodes() {
            let blocks = hash.blocks(tree.message_len(node, leaves));
            owner.extend(core::iter::repeat_n(node as u32, blocks));
            starts.push(owner.len() as u32);
        }
        Layout { tree, starts, owner }
    }

    /// The node of instance `y` and its block in the node's message.
    fn block(&self, y: usize) -> (usize, usize) {
        let node = self.owner[y] as usize;
        (node, y - self.starts[node] as usize)
    }

    fn first_instance(&self, node: usize) -> usize {
        self.starts[node] as usize
    }

    fn last_instance(&self, node: usize) -> usize {
        self.starts[node + 1] as usize - 1
    }

    fn instances(&self) -> usize {
        self.owner.len()
    }

    fn set(&self, members: impl Iterator<Item = usize>) -> Instances {
        let mut bits = vec![0u64; self.instances().div_ceil(64)];
        for y in members {
            bits[y / 64] |= 1 << (y % 64);
        }
        Instances::Set(bits.into())
    }
}

/// A run of bytes of a block: public, or a child's digest bytes from `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    Public { start: usize, len: usize },
    Child { start: usize, len: usize, j: usize },
}

impl MerkleRoot {
    /// Roots of `scheme` trees under `hash`; `None` when the scheme does not
    /// take the hash.
    pub fn new(hash: Hash, scheme: Scheme) -> Option<Self> {
        scheme.takes(hash).then(|| MerkleRoot {
            hash,
            scheme,
            circuit: StatementCircuit::builtin(hash.circuit()),
        })
    }

    /// The runs of block `b` of `node`, and the child each child run reads.
    fn segments(
        &self,
        layout: &Layout,
        leaves: &Records,
        node: usize,
        b: usize,
    ) -> Vec<(Segment, Option<usize>)> {
        let block = self.hash.block_len();
        let (lo, hi) = (block * b, block * (b + 1));
        let mut out: Vec<(Segment, Option<usize>)> = Vec::new();
        let public = |out: &mut Vec<(Segment, Option<usize>)>, start: usize, len: usize| match out.last_mut()
        {
            Some((Segment::Public { start: s, len: l }, None)) if *s + *l == start => *l += len,
            _ => out.push((Segment::Public { start, len }, None)),
        };
        let spans = layout.tree.spans(node, leaves);
        let message_end = spans.last().map_or(0, |(r, _)| r.end);
        for (span, child) in spans {
            let (start, end) = (span.start.max(lo), span.end.min(hi));
            if start >= end {
                continue;
            }
            match child {
                None => public(&mut out, start - lo, end - start),
                Some(c) => out.push((
                    Segment::Child {
                        start: start - lo,
                        len: end - start,
                        j: start - span.start,
                    },
                    Some(c),
                )),
            }
        }
        // Padding after the message, then the rest of the circuit's block
        // bytes (BLAKE3's length, counter and flags): public.
        let padding = message_end.clamp(lo, hi);
        let all = self.hash.block_bytes().len();
        if padding - lo < all {
            public(&mut out, padding - lo, all - (padding - lo));
        }
        out
    }

    /// The root of the tree over `leaves`, hashed node by node as the
    /// tree's messages say: what the tests compare joined subtrees with.
    #[cfg(test)]
    pub(crate) fn native_root(&self, leaves: &Records) -> Vec<u8> {
        let tree = Tree::build(self.hash, self.scheme, leaves.len());
        let mut digests: Vec<Vec<u8>> = Vec::new();
        for node in 0..tree.nodes() {
            let message = tree.message(node, leaves, &|child| digests[child].clone());
            digests.push(self.hash.digest(&message));
        }
        digests.pop().unwrap_or_else(|| leaves.get(0).to_vec())
    }

    fn read_root(outputs: &Records) -> &[u8] {
        outputs.get(0)
    }
}

impl MerkleRoot {
    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`):
    /// every instance's circuit input bits, intermediate values computed
    /// natively.
    pub fn instance_rows(&self, inputs: &Records) -> Result<Vec<u64>, Error> {
        let tree = Tree::build(self.hash, self.scheme, inputs.len());
        let mut digests: Vec<Vec<u8>> = Vec::with_capacity(tree.nodes());
        let mut rows = Vec::new();
        for node in 0..tree.nodes() {
            let msg = tree.message(node, inputs, &|c| digests[c].clone());
            let (node_rows, digest) = self.hash.instances(&msg);
            for row in node_rows {
                rows.extend(row_of(&row));
            }
            digests.push(digest);
        }
        Ok(rows)
    }

    /// The public outputs, from the output rows of every instance
    /// (`starling::kind::KindProver::outputs`).
    pub fn outputs_of_rows(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        // The root is the last node, so its digest is the last instance's.
        let root: Vec<u8> = match count_instances(self.hash, self.scheme, inputs) as usize {
            // One plain or bitcoin leaf is its own root.
            0 => inputs.get(0).to_vec(),
            instances => {
                let words = self.circuit.output_words();
                let y = instances - 1;
                let mut bytes = Vec::new();
                extend_bytes_of(
                    &mut bytes,
                    &instance_outputs[y * words..(y + 1) * words],
                    self.hash.digest_bytes(),
                );
                bytes
            }
        };
        [root.as_slice()].into_iter().collect()
    }
}

impl Kind for MerkleRoot {
    fn name(&self) -> String {
        format!(
            "merkle-root --hash {} --scheme {}",
            self.hash.name(),
            self.scheme.name()
        )
    }

    fn code(&self) -> u8 {
        7
    }

    fn params(&self) -> Vec<u8> {
        vec![self.hash.code(), self.scheme.code()]
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        // Plurals are formed with an `s` (`wording::counted`).
        "leaf node"
    }

    fn input_size(&self) -> Option<usize> {
        match self.scheme {
            Scheme::Rfc6962 => None,
            Scheme::Plain | Scheme::Bitcoin => Some(self.hash.digest_bytes()),
        }
    }

    fn output_size(&self) -> Option<usize> {
        Some(self.hash.digest_bytes())
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        let leaves = inputs.len();
        if leaves == 0 && !self.holds_without_inputs() {
            return Err("a Merkle tree needs at least one leaf".into());
        }
        if self.scheme == Scheme::Plain && !leaves.is_power_of_two() {
            return Err(format!(
                "a plain Merkle tree needs a power of two of leaves, not {leaves}"
            ));
        }
        for leaf in inputs.iter() {
            if let Some(size) = self.input_size().filter(|&s| leaf.len() != s) {
                return Err(format!("a leaf is not {size} bytes"));
            }
            if leaf.len() > self.hash.max_message() {
                return Err(format!(
                    "a leaf of {} bytes is longer than the {} taken",
                    leaf.len(),
                    self.hash.max_message()
                ));
            }
        }
        let instances = count_instances(self.hash, self.scheme, inputs);
        if instances > MAX_INSTANCES {
            return Err(format!(
                "the tree needs {instances} instances, more than the {MAX_INSTANCES} one proof holds"
            ));
        }
        Ok(StatementShape {
            count: leaves as u64,
            outputs: 1,
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        count_instances(self.hash, self.scheme, inputs) as usize
    }

    fn holds_without_inputs(&self) -> bool {
        self.scheme == Scheme::Rfc6962
    }

    /// Consecutive subtrees, their roots hashed into the tree's
    /// (`super::subtrees`).
    fn join(&self, shards: &[&Statement]) -> Result<(Records, Records), String> {
        super::subtrees::join(self.hash, self.scheme, shards)
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let hash = self.hash;
        let c = &self.circuit;
        let layout = Arc::new(Layout::new(hash, self.scheme, inputs));
        let mut relations = vec![Relation::constant_wire(n)];
        let nodes = layout.tree.nodes();
        if nodes == 0 {
            // One leaf, its own root: the constant wire alone, and the root
            // must be the leaf (`shape` of the outputs is checked by the
            // statement; here a relation that cannot hold otherwise).
            if outputs.get(0) != inputs.get(0) {
                relations.push(Relation {
                    instances: Instances::single(0),
                    wires: Wires { base: 0, len: 1 },
                    from: None,
                    values: Values::Constant(vec![0]),
                });
            }
            return relations;
        }
        let first = layout.set((0..nodes).map(|v| layout.first_instance(v)));
        let later =
            layout.set((0..nodes).flat_map(|v| layout.first_instance(v) + 1..=layout.last_instance(v)));
        let chained = hash.chained();
        relations.push(Relation {
            instances: first,
            wires: c.input_wires(chained.clone()),
            from: None,
            values: Values::Constant(row_of(&hash.initial_chained())),
        });
        relations.push(Relation {
            instances: later,
            wires: c.input_wires(chained.clone()),
            from: Some((Source::Previous, c.output_wires(chained))),
            values: Values::Zero,
        });
        // Group the instances by the layout of their block.
        let mut groups: BTreeMap<Vec<Segment>, Group> = BTreeMap::new();
        for y in 0..layout.instances() {
            let (node, b) = layout.block(y);
            let segments = self.segments(&layout, inputs, node, b);
            let key: Vec<Segment> = segments.iter().map(|(s, _)| *s).collect();
            let children = segments.iter().filter_map(|(_, child)| *child).count();
            let entry = groups.entry(key).or_insert_with(|| Group {
                members: Vec::new(),
                maps: vec![vec![0; layout.instances()]; children],
            });
            entry.members.push(y);
            for (map, child) in entry.maps.iter_mut().zip(segments.iter().filter_map(|(_, c)| *c)) {
                map[y] = layout.last_instance(child) as u32;
            }
        }
        let block_start = hash.block_bytes().start;
        for (key, Group { members, maps }) in groups {
            let set = layout.set(members.into_iter());
            let mut maps = maps.into_iter();
            for segment in key {
                match segment {
                    Segment::Public { start, len } => {
                        let layout = layout.clone();
                        relations.push(Relation {
                            instances: set.clone(),
                            wires: c.input_wires(block_start + start..block_start + start + len),
                            from: None,
                            values: Values::PerInstance(Box::new(move |y, out| {
                                let (node, b) = layout.block(y);
                                let msg_len = layout.tree.message_len(node, inputs);
                                let lo = (hash.block_len() * b).min(msg_len);
                                let hi = (hash.block_len() * (b + 1)).min(msg_len);
                                let chunk = layout.tree.message_bytes(node, lo..hi, inputs);
                                let block = hash.block_of(msg_len, b, &chunk);
                                out.copy_from_slice(&row_of(&block[start..start + len])[..out.len()]);
                            })),
                        });
                    }
                    Segment::Child { start, len, j } => {
                        let map = maps.next().expect("a map per child run");
                        relations.push(Relation {
                            instances: set.clone(),
                            wires: c.input_wires(block_start + start..block_start + start + len),
                            from: Some((Source::Map(map.into()), c.output_wires(j..j + len))),
                            values: Values::Zero,
                        });
                    }
                }
            }
        }
        relations.push(Relation {
            instances: Instances::single(layout.last_instance(nodes - 1)),
            wires: c.output_wires(0..hash.digest_bytes()),
            from: None,
            values: Values::Constant(row_of(Self::read_root(outputs))),
        });
        relations
    }
}

impl TextFormat for MerkleRoot {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "LEAF", 1)?;
        match self.scheme {
            Scheme::Rfc6962 => hex_bytes(fields[0], "leaf"),
            Scheme::Plain | Scheme::Bitcoin => hex_field(fields[0], self.hash.digest_bytes(), "leaf"),
        }
    }

    fn format_input(&self, record: &[u8]) -> String {
        bytes_line(record)
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        vec![("leaf".into(), 0..record.len())]
    }
}

/// Instances whose blocks share one layout of public and child segments.
struct Group {
    /// The instances, in increasing order.
    members: Vec<usize>,
    /// Per child segment, each instance's source instance (unused entries 0).
    maps: Vec<Vec<u32>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_read_from_the_parts_they_cover() {
        let lengths = [0usize, 1, 54, 55, 63, 64, 65, 200];
        let data: Vec<Vec<u8>> = lengths
            .iter()
            .map(|&n| (0..n).map(|i| i as u8 ^ n as u8).collect())
            .collect();
        let leaves: Records = data.iter().map(Vec::as_slice).collect();
        let kind = MerkleRoot::new(Hash::Sha256, Scheme::Rfc6962).expect("RFC 6962 takes SHA-256");
        let layout = Layout::new(Hash::Sha256, Scheme::Rfc6962, &leaves);
        for y in 0..layout.instances() {
            let (node, b) = layout.block(y);
            let msg = layout.tree.message(node, &leaves, &|_| vec![0; 32]);
            assert_eq!(layout.tree.message_len(node, &leaves), msg.len());
            let (lo, hi) = ((64 * b).min(msg.len()), (64 * b + 64).min(msg.len()));
            let chunk = layout.tree.message_bytes(node, lo..hi, &leaves);
            assert_eq!(chunk, &msg[lo..hi], "instance {y}");
            assert_eq!(
                Hash::Sha256.block_of(msg.len(), b, &chunk),
                Hash::Sha256.block(&msg, b)
            );
            // The segments tile the block's bytes, children where the
            // message holds a child's digest.
            let mut at = 0;
            for (segment, child) in kind.segments(&layout, &leaves, node, b) {
                let (start, len) = match segment {
                    Segment::Public { start, len } => (start, len),
                    Segment::Child { start, len, .. } => (start, len),
                };
                assert_eq!(start, at, "instance {y}");
                assert_eq!(child.is_some(), matches!(segment, Segment::Child { .. }));
                at += len;
            }
            assert_eq!(at, Hash::Sha256.block_bytes().len(), "instance {y}");
        }
    }

    #[test]
    fn rfc6962_splits_at_the_largest_power_of_two_below() {
        let tree = Tree::build(Hash::Sha256, Scheme::Rfc6962, 5);
        // Leaves 0..4 in a balanced subtree, then leaf 4: 5 leaf nodes, 4 inner.
        assert_eq!(tree.nodes(), 9);
        let tree = Tree::build(Hash::Sha256, Scheme::Bitcoin, 3);
        // 3 -> 4 leaves at level 0 (2 pairs: 4 nodes), 2 -> 1 at level 1 (2 nodes).
        assert_eq!(tree.nodes(), 6);
    }

    /// Leaves of many lengths (for RFC 6962, which takes any) or of a
    /// digest's size.
    fn leaves(scheme: Scheme, hash: Hash, count: usize) -> Records {
        let len = |i: usize| match scheme {
            Scheme::Rfc6962 => [0, 1, 54, 55, 56, 63, 64, 119, 120, 300][i % 10],
            Scheme::Plain | Scheme::Bitcoin => hash.digest_bytes(),
        };
        let mut records = Records::new();
        for i in 0..count {
            records.push(&vec![i as u8; len(i)]);
        }
        records
    }

    #[test]
    fn instances_are_counted_as_the_layout_places_them() {
        let large = [1 << 16, (1 << 16) + 1, 100_003, 249_000];
        for scheme in Scheme::ALL {
            for hash in Hash::ALL.into_iter().filter(|&h| scheme.takes(h)) {
                for count in (0..300).chain(large) {
                    let leaves = leaves(scheme, hash, count);
                    let layout = Layout::new(hash, scheme, &leaves);
                    assert_eq!(
                        count_instances(hash, scheme, &leaves),
                        layout.instances() as u64,
                        "{} {} over {count} leaves",
                        hash.name(),
                        scheme.name()
                    );
                    assert_eq!(layout.starts.last().copied(), Some(layout.instances() as u32));
                }
            }
        }
    }

    #[test]
    fn the_empty_rfc6962_tree_is_the_hash_of_the_empty_string() {
        let kind = MerkleRoot::new(Hash::Sha256, Scheme::Rfc6962).expect("RFC 6962 takes SHA-256");
        let none = Records::new();
        assert!(kind.holds_without_inputs());
        assert_eq!(kind.shape(&none), Ok(StatementShape { count: 0, outputs: 1 }));
        assert_eq!(kind.instances(&none, &none), 1);
        let rows = kind.instance_rows(&none).expect("an empty tree has instances");
        assert_eq!(rows.len(), kind.circuit().input_words());
        let tree = Tree::build(Hash::Sha256, Scheme::Rfc6962, 0);
        assert_eq!(tree.nodes(), 1);
        assert_eq!(
            hex::encode(Hash::Sha256.digest(&tree.message(0, &none, &|_| Vec::new()))),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        for scheme in [Scheme::Plain, Scheme::Bitcoin] {
            let kind = MerkleRoot::new(Hash::Sha256, scheme).expect("takes SHA-256");
            assert!(kind.shape(&none).is_err(), "{}", scheme.name());
        }
    }
}
