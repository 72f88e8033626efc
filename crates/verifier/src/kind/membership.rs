//! Membership: N private leaves, each a leaf of the Merkle tree whose root
//! is public (`plain` trees under SHA-256 or Keccak-256, `rfc6962` trees
//! under SHA-256, as the `merkle-root` kind builds them:
//! [`crate::kind::merkle`]). The leaves, their indices and their paths are
//! private.
//!
//! **Records.** One public input record, `ROOT ‖ u64 N ‖ u64 size` (a
//! verifier's line `ROOT N SIZE`); no output records. The tree's size is
//! public so that every member takes the same instances whatever its index
//! (the tree's depth `D`: `log2(size)` for `plain`, whose size is a power
//! of two, `ceil(log2(size))` for `rfc6962`, whose logs publish their size
//! with each signed tree head anyway). The private records are the N
//! members, each `u64 index ‖ path ‖ leaf`: the path is the siblings from
//! the bottom up, one per level the member's node is hashed at (every
//! level for `plain`; RFC 6962 §2.1.1's audit path for `rfc6962`), so
//! [`crate::kind::Kind::private_records`] is N, not the one input record.
//! A prover reads its members as lines `LEAF INDEX` and computes their
//! paths from the tree's leaves (`starling::inputs::read_members`), or as
//! lines `LEAF INDEX SIBLING...` with their paths in a tree of a given size
//! (`starling::inputs::read_member_paths`): an audit path is all a member
//! needs, and a sharded statement's shards carry only theirs.
//!
//! **Instances.** Member `m` takes `M` consecutive instances from `m M`:
//!
//! | scheme, hash | instance circuit | a member's instances `M` |
//! |---|---|---|
//! | `plain`, SHA-256 | [`crate::circuit::Sha256PathStep`], `left` at byte 0 | `2 D`: per level the node block `left ‖ right`, then its padding block |
//! | `plain`, Keccak-256 | [`crate::circuit::KeccakPathStep`], `left` at byte 0 | `D`: per level the one rate block |
//! | `rfc6962`, SHA-256 | [`crate::circuit::rfc6962_step`] | `B + 2 D`: the leaf hash's `B = blocks(1 + max_leaf_len)` blocks, then two per level |
//!
//! In a node's block the path step's check words put the node below `P`
//! on the side the private direction bit `b` says, the other half (the
//! sibling) free: `E = (1 ⊕ b) · (left ⊕ P)` and `F = b · (right ⊕ P)`,
//! bound to zero. An RFC 6962 level whose node is its level's odd last one
//! is promoted, not hashed: the private bit `s` makes the level's output
//! `P` itself.
//!
//! **Relations.** None binds a private value to a public one but the last
//! level's output to the root; sets of instances are explicit, `O(N M)` for
//! the verifier, who reads N anyway, and depend only on N, the size and the
//! kind, never on an index:
//! - the constant wire;
//! - `plain` SHA-256: node blocks start from the IV, and their `E` and `F`
//!   are zero; padding blocks chain from the node block before them, and
//!   their block is the padding of a 64-byte message; a level's `P` is the
//!   level below's output (level 0's is free: the leaf);
//! - `plain` Keccak-256: every block starts from the zero state, its bytes
//!   64.. are the padding of a 64-byte message (`0x01`, zeros, `0x80`), its
//!   `E` and `F` are zero; `P` as for SHA-256;
//! - `rfc6962`: the `preimage` kind's relations for the leaf hash
//!   (first-block constants, the links between blocks, the block indices,
//!   `continues(1 + max_leaf_len) = 0`), with message byte 0 bound to
//!   `0x00` and `continues(0)` to 1, and `s = 0` in its blocks; for a node:
//!   first-block constants and the link between its two blocks, the block
//!   indices 0 and 1, message byte 0 of the first block `0x01`, the
//!   thermometer of its second block saying the message ends after byte 64
//!   (so it is 65 bytes), `E` and `F` zero on the node's bytes, the second
//!   block's `P` and `b` equal to the first's, the first block's `P` the
//!   digest register of the instance before (the leaf hash, or the level
//!   below);
//! - the last instance of every member: its output (for `rfc6962`, its
//!   digest register) is the root.
//!
//! Soundness without checking the indices: from the root down, each hashed
//! level's message is the real node's (collision resistance) and a
//! promoted level keeps the value, so the bottom value is a real node, `D`
//! levels down. For `plain` the fixed depth makes it a leaf; any `D` bits
//! of direction are an index of the tree. For `rfc6962` the bottom value is
//! `H(0x00 ‖ leaf)`, computed in-circuit, and an inner node is
//! `H(0x01 ‖ ...)`: a real node that is a leaf hash is a leaf's (else a
//! collision), and the leaf is that leaf's. Neither the index nor the
//! promotion bits are checked against the size; a statement that needs the
//! index (distinct members, a range) would carry it as `preimage` carries
//! the length.
//!
//! Cost, in AND rows per member at depth 20 (the test
//! `and_rows_per_member_at_depth_20` asserts them): `plain` SHA-256 40
//! instances of 23,091 (the compression's 22,573, 512 for `E` and `F`, 6
//! for the path step's `J`), 923,640; `plain` Keccak-256 20 of 38,918,
//! 778,360; `rfc6962` 40 of 24,231 (the `preimage` block's 23,463, 512 for
//! `E` and `F`, 256 for the promotion) and the leaf hash's 2 at the default
//! `max_leaf_len` of 64, 1,017,702.
//!
//! Private is not hidden without zero knowledge (DESIGN §2.2): the proof's
//! opened columns and sumcheck messages are functions of the witness.
//! So the kind [`Kind::requires_zero_knowledge`]: it is always proved with
//! zero knowledge, and a proof of it without is rejected.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use super::merkle::Scheme;
use super::preimage::{instance_set, put_bit, put_bytes, Preimage};
use super::{fill_row, row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuit::lanes::Gadget;
use crate::circuit::path_step::PathStepLayout;
use crate::circuit::preimage::LENGTH_BITS;
use crate::circuit::rfc6962_step::{Rfc6962StepLayout, NODE_BYTES};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::hashes::Hash;
use crate::inputs::{decimal, expect_fields, hex_bytes, hex_field};
use crate::piop::wiring::{Instances, Source};
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

/// The longest RFC 6962 leaf users get unless they say otherwise.
pub const DEFAULT_MAX_LEAF_LEN: usize = 64;

/// Bytes of a node's message in an RFC 6962 tree: `0x01 ‖ left ‖ right`.
const RFC6962_NODE_MESSAGE: usize = 1 + 2 * NODE_BYTES;

/// How a member's value goes up one level of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Hashed as the left child (`b = 0`).
    Left,
    /// Hashed as the right child (`b = 1`).
    Right,
    /// The level's odd last node, promoted unchanged (RFC 6962 only).
    Promoted,
}

/// Members of Merkle trees under one hash and scheme.
#[derive(Clone, Debug)]
pub struct Membership {
    hash: Hash,
    scheme: Scheme,
    max_leaf_len: usize,
    circuit: Arc<StatementCircuit>,
}

/// The public record's parts.
struct Public<'a> {
    root: &'a [u8],
    members: u64,
    size: u64,
}

/// A member's private record's parts.
struct Member<'a> {
    index: u64,
    path: Vec<&'a [u8]>,
    leaf: &'a [u8],
}

impl Membership {
    /// Members of `scheme` trees under `hash`: `plain` with SHA-256 or
    /// Keccak-256, `rfc6962` with SHA-256 (leaves of at most
    /// [`DEFAULT_MAX_LEAF_LEN`] bytes; [`Membership::rfc6962`] takes
    /// another bound).
    pub fn new(hash: Hash, scheme: Scheme) -> Result<Self, String> {
        Self::with_max_leaf_len(hash, scheme, DEFAULT_MAX_LEAF_LEN)
    }

    /// Members of RFC 6962 trees, leaves of at most `max_leaf_len` bytes.
    pub fn rfc6962(max_leaf_len: usize) -> Result<Self, String> {
        Self::with_max_leaf_len(Hash::Sha256, Scheme::Rfc6962, max_leaf_len)
    }

    fn with_max_leaf_len(hash: Hash, scheme: Scheme, max_leaf_len: usize) -> Result<Self, String> {
        let circuit = match (scheme, hash) {
            (Scheme::Plain, Hash::Sha256) => StatementCircuit::lanes(&[(
                Gadget::Sha256PathStep(PathStepLayout::sha256(NODE_BYTES).with_left_byte(0)),
                1,
            )]),
            (Scheme::Plain, Hash::Keccak256) => StatementCircuit::lanes(&[(
                Gadget::KeccakPathStep(PathStepLayout::shake256(NODE_BYTES).with_left_byte(0)),
                1,
            )]),
            (Scheme::Rfc6962, Hash::Sha256) => {
                // The leaf hash's message is `0x00 ‖ leaf`.
                if max_leaf_len >= hash.max_message() {
                    return Err(format!(
                        "--max-leaf-len {max_leaf_len} is more than the {} bytes a leaf may have",
                        hash.max_message() - 1
                    ));
                }
                StatementCircuit::rfc6962_step()
            }
            _ => {
                return Err(format!(
                    "membership statements of {} trees do not take {}",
                    scheme.name(),
                    hash.name()
                ))
            }
        };
        let max_leaf_len = if scheme == Scheme::Rfc6962 {
            max_leaf_len
        } else {
            0
        };
        Ok(Membership {
            hash,
            scheme,
            max_leaf_len,
            circuit,
        })
    }

    /// The kind a file's parameters name: the hash's and the scheme's
    /// codes, and for `rfc6962` the longest leaf (u32 little-endian).
    pub fn from_params(params: &[u8]) -> Result<Self, Error> {
        let malformed = || Error::Malformed("the kind's parameters are not a hash and a scheme".into());
        let (&code, rest) = params.split_first().ok_or_else(malformed)?;
        let (&s, rest) = rest.split_first().ok_or_else(malformed)?;
        let hash = Hash::from_code(code).ok_or_else(|| Error::Malformed(format!("unknown hash {code}")))?;
        let scheme =
            Scheme::from_code(s).ok_or_else(|| Error::Malformed(format!("unknown Merkle scheme {s}")))?;
        let max_leaf_len = match scheme {
            Scheme::Rfc6962 => {
                let len: [u8; 4] = rest.try_into().map_err(|_| {
                    Error::Malformed(
                        "an rfc6962 membership kind's parameters end with the longest leaf".into(),
                    )
                })?;
                u32::from_le_bytes(len) as usize
            }
            _ if rest.is_empty() => 0,
            _ => return Err(malformed()),
        };
        Self::with_max_leaf_len(hash, scheme, max_leaf_len).map_err(Error::Malformed)
    }

    /// The hash.
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The longest leaf (`rfc6962`; 0 for `plain`, whose leaves are
    /// digest-sized).
    pub fn max_leaf_len(&self) -> usize {
        self.max_leaf_len
    }

    /// The public record of N members of a tree of `size` leaves with this
    /// root.
    pub fn public_record(root: &[u8], members: u64, size: u64) -> Vec<u8> {
        let mut record = root.to_vec();
        record.extend_from_slice(&members.to_le_bytes());
        record.extend_from_slice(&size.to_le_bytes());
        record
    }

    /// A member's private record: its index, its path (the siblings from
    /// the bottom up, one per hashed level) and its leaf.
    pub fn member_record(index: u64, path: &[Vec<u8>], leaf: &[u8]) -> Vec<u8> {
        let mut record = index.to_le_bytes().to_vec();
        for node in path {
            record.extend_from_slice(node);
        }
        record.extend_from_slice(leaf);
        record
    }

    /// The tree's size in a public record; `None` when the record has
    /// another length.
    pub fn size_of(&self, record: &[u8]) -> Option<u64> {
        self.public(record).map(|p| p.size)
    }

    /// The parts of a public record; `None` when it has another size.
    fn public<'a>(&self, record: &'a [u8]) -> Option<Public<'a>> {
        let d = self.hash.digest_bytes();
        if record.len() != d + 16 {
            return None;
        }
        let (root, words) = record.split_at(d);
        let (members, size) = words.split_at(8);
        Some(Public {
            root,
            members: u64::from_le_bytes(members.try_into().ok()?),
            size: u64::from_le_bytes(size.try_into().ok()?),
        })
    }

    /// The statement's one public record, which [`Kind::shape`] has
    /// accepted.
    fn the_public<'a>(&self, inputs: &'a Records) -> Public<'a> {
        self.public(inputs.get(0))
            .expect("a statement's shape is checked first")
    }

    /// Levels of a tree of `size` leaves: `log2(size)` rounded up.
    pub fn depth(size: u64) -> usize {
        (u64::BITS - size.saturating_sub(1).leading_zeros()) as usize
    }

    /// Blocks of an RFC 6962 leaf hash (`0x00 ‖ leaf`).
    fn leaf_blocks(&self) -> usize {
        match self.scheme {
            Scheme::Rfc6962 => self.hash.blocks(1 + self.max_leaf_len),
            _ => 0,
        }
    }

    /// Instances per node hashed.
    fn node_blocks(&self) -> usize {
        match self.hash {
            Hash::Keccak256 => 1,
            _ => 2,
        }
    }

    /// Instances each member takes in a tree of `size` leaves.
    pub fn instances_per_member(&self, size: u64) -> usize {
        self.leaf_blocks() + self.node_blocks() * Self::depth(size)
    }

    /// How the value of the leaf at `index` goes up the levels of a tree of
    /// `size` leaves, from the bottom: a level's odd last node is promoted
    /// (never in a `plain` tree, whose size is a power of two).
    pub fn steps(size: u64, index: u64) -> Vec<Step> {
        let (mut count, mut at) = (size, index);
        let mut steps = Vec::with_capacity(Self::depth(size));
        while count > 1 {
            steps.push(if at % 2 == 1 {
                Step::Right
            } else if at + 1 < count {
                Step::Left
            } else {
                Step::Promoted
            });
            count = count.div_ceil(2);
            at /= 2;
        }
        steps
    }

    /// A leaf's value at the bottom of the tree: the leaf (`plain`) or
    /// `H(0x00 ‖ leaf)` (`rfc6962`).
    pub fn leaf_value(&self, leaf: &[u8]) -> Vec<u8> {
        match self.scheme {
            Scheme::Rfc6962 => self.hash.digest(&[&[0u8][..], leaf].concat()),
            _ => leaf.to_vec(),
        }
    }

    /// A node's message: `left ‖ right`, or `0x01 ‖ left ‖ right`.
    fn node_message(&self, left: &[u8], right: &[u8]) -> Vec<u8> {
        let prefix: &[u8] = if self.scheme == Scheme::Rfc6962 { &[1] } else { &[] };
        [prefix, left, right].concat()
    }

    /// The tree's levels from the bottom (the leaves' values) to the root,
    /// a level's odd last node promoted. Computed natively, by a prover.
    pub fn levels(&self, leaves: &Records) -> Vec<Vec<Vec<u8>>> {
        let mut levels = vec![leaves.iter().map(|l| self.leaf_value(l)).collect::<Vec<_>>()];
        while let Some(level) = levels.last().filter(|l| l.len() > 1) {
            let up = level
                .chunks(2)
                .map(|pair| match pair {
                    [left, right] => self.hash.digest(&self.node_message(left, right)),
                    [alone] => alone.clone(),
                    _ => unreachable!("chunks of two"),
                })
                .collect();
            levels.push(up);
        }
        levels
    }

    /// The path of the leaf at `index` in the tree of these levels
    /// ([`Membership::levels`]): the siblings from the bottom up.
    pub fn path(levels: &[Vec<Vec<u8>>], index: u64) -> Vec<Vec<u8>> {
        let size = levels.first().map_or(0, Vec::len) as u64;
        let mut at = index as usize;
        let mut path = Vec::new();
        for (level, step) in levels.iter().zip(Self::steps(size, index)) {
            match step {
                Step::Left => path.push(level[at + 1].clone()),
                Step::Right => path.push(level[at - 1].clone()),
                Step::Promoted => {}
            }
            at /= 2;
        }
        path
    }

    /// The public record and the members' private records of the tree of
    /// `leaves` (a `plain` tree's are digest-sized and a power of two of
    /// them; an RFC 6962 tree's any byte strings): each member is `(leaf,
    /// index)`, refused when its leaf is longer than `max_leaf_len`, the
    /// index is past the tree or the tree's leaf there is another, naming
    /// the member by `name(m)` (a line, for a file).
    pub fn members_of_tree(
        &self,
        leaves: &Records,
        members: &[(Vec<u8>, u64)],
        name: &dyn Fn(usize) -> String,
    ) -> Result<(Records, Records), Error> {
        let size = leaves.len() as u64;
        if size == 0 {
            return Err(Error::Input("the tree has no leaves".into()));
        }
        if self.scheme == Scheme::Plain && !size.is_power_of_two() {
            return Err(Error::Input(format!(
                "a plain Merkle tree needs a power of two of leaves, not {size}"
            )));
        }
        // A plain tree's leaves are digest-sized; an RFC 6962 tree's may be
        // longer than the members' bound.
        if self.scheme == Scheme::Plain {
            for (i, leaf) in leaves.iter().enumerate() {
                self.check_leaf(leaf)
                    .map_err(|e| Error::Input(format!("leaf {i} of the tree: {e}")))?;
            }
        }
        let levels = self.levels(leaves);
        let root = levels.last().and_then(|l| l.first()).expect("a root").clone();
        let mut private = Records::new();
        for (m, (leaf, index)) in members.iter().enumerate() {
            self.check_leaf(leaf)
                .map_err(|e| Error::Input(format!("{}: {e}", name(m))))?;
            if *index >= size {
                return Err(Error::False(format!(
                    "{}: index {index} is past the tree's {size} leaves",
                    name(m)
                )));
            }
            if leaves.get(*index as usize) != leaf.as_slice() {
                return Err(Error::False(format!(
                    "{}: the leaf is not the tree's leaf {index}",
                    name(m)
                )));
            }
            private.push(&Self::member_record(*index, &Self::path(&levels, *index), leaf));
        }
        let public = Self::public_record(&root, members.len() as u64, size);
        Ok(([public.as_slice()].into_iter().collect(), private))
    }

    /// A member's line, `LEAF INDEX`: the leaf (hex, `-` for an empty
    /// RFC 6962 leaf) and its index.
    pub fn parse_member_line(&self, fields: &[&str]) -> Result<(Vec<u8>, u64), String> {
        expect_fields(fields, "LEAF INDEX", 2)?;
        let leaf = match self.scheme {
            Scheme::Rfc6962 => hex_bytes(fields[0], "leaf")?,
            _ => hex_field(fields[0], self.hash.digest_bytes(), "leaf")?,
        };
        self.check_leaf(&leaf)?;
        Ok((leaf, decimal(fields[1], "index")?))
    }

    /// A member's line with its path in a tree of `size` leaves, `LEAF
    /// INDEX SIBLING...`: the leaf and index as [`Membership::parse_member_line`]
    /// reads them, then the siblings from the bottom up (hex), as many as
    /// the index's hashed levels. Returns the member's private record; its
    /// path is not checked against a root here.
    pub fn parse_path_line(&self, size: u64, fields: &[&str]) -> Result<Vec<u8>, String> {
        let (member, siblings) = fields.split_at(fields.len().min(2));
        let (leaf, index) = self.parse_member_line(member)?;
        if index >= size {
            return Err(format!("index {index} is past the tree's {size} leaves"));
        }
        let hashed = Self::hashed_levels(size, index);
        if siblings.len() != hashed {
            return Err(format!(
                "index {index} of a tree of {size} leaves has a path of {hashed} siblings, not {}",
                siblings.len()
            ));
        }
        let path = siblings
            .iter()
            .map(|s| hex_field(s, self.hash.digest_bytes(), "sibling"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::member_record(index, &path, &leaf))
    }

    /// The line [`Membership::parse_path_line`] reads as the private
    /// `record` of a member of a tree of `size` leaves.
    pub fn path_line(&self, size: u64, record: &[u8]) -> Result<String, String> {
        let member = self.member(record, size)?;
        let mut line = if member.leaf.is_empty() {
            "-".into()
        } else {
            hex::encode(member.leaf)
        };
        line.push_str(&format!(" {}", member.index));
        for sibling in &member.path {
            line.push(' ');
            line.push_str(&hex::encode(sibling));
        }
        Ok(line)
    }

    /// The levels at which the node of the leaf at `index` in a tree of
    /// `size` leaves is hashed (not promoted): its path's length.
    fn hashed_levels(size: u64, index: u64) -> usize {
        Self::steps(size, index)
            .iter()
            .filter(|&&s| s != Step::Promoted)
            .count()
    }

    /// Refuses a leaf of another size (`plain`) or longer than
    /// `max_leaf_len` (`rfc6962`).
    fn check_leaf(&self, leaf: &[u8]) -> Result<(), String> {
        match self.scheme {
            Scheme::Rfc6962 if leaf.len() > self.max_leaf_len => Err(format!(
                "the leaf has {} bytes, more than the --max-leaf-len of {}",
                leaf.len(),
                self.max_leaf_len
            )),
            Scheme::Rfc6962 => Ok(()),
            _ if leaf.len() != self.hash.digest_bytes() => {
                Err(format!("the leaf is not {} bytes", self.hash.digest_bytes()))
            }
            _ => Ok(()),
        }
    }

    /// A member's private record read: its index below `size`, and a path
    /// of as many nodes as its hashed levels.
    fn member<'a>(&self, record: &'a [u8], size: u64) -> Result<Member<'a>, String> {
        let (index, rest) = record.split_first_chunk::<8>().ok_or("the record has no index")?;
        let index = u64::from_le_bytes(*index);
        if index >= size {
            return Err(format!("index {index} is past the tree's {size} leaves"));
        }
        let hashed = Self::hashed_levels(size, index);
        let d = self.hash.digest_bytes();
        if rest.len() < hashed * d {
            return Err(format!(
                "the path has fewer than the {hashed} nodes index {index} takes"
            ));
        }
        let (path, leaf) = rest.split_at(hashed * d);
        self.check_leaf(leaf)?;
        Ok(Member {
            index,
            path: path.chunks(d).collect(),
            leaf,
        })
    }

    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`)
    /// from the public record and the members; a member whose path does not
    /// lead to the root is [`Error::False`].
    pub fn instance_rows(&self, inputs: &Records, members: &Records) -> Result<Vec<u64>, Error> {
        let public = self.the_public(inputs);
        let words = self.circuit.input_words();
        let per_member = self.instances_per_member(public.size);
        let mut rows = vec![0u64; members.len() * per_member * words];
        for (m, record) in members.iter().enumerate() {
            let member = self
                .member(record, public.size)
                .map_err(|e| Error::Input(format!("member {m}: {e}")))?;
            let out = &mut rows[m * per_member * words..(m + 1) * per_member * words];
            if self.member_rows(&member, public.size, out) != public.root {
                return Err(Error::False(format!(
                    "member {m}: its path does not lead to the root"
                )));
            }
        }
        Ok(rows)
    }

    /// The value a member's private record reaches at the top of a tree of
    /// `size` leaves (the root, for a member of the tree): what a test's
    /// cheating prover claims for a path it made up.
    pub fn reached(&self, size: u64, record: &[u8]) -> Result<Vec<u8>, String> {
        let member = self.member(record, size)?;
        let mut rows = vec![0u64; self.instances_per_member(size) * self.circuit.input_words()];
        Ok(self.member_rows(&member, size, &mut rows))
    }

    /// Writes one member's instance rows into `out` and returns the value
    /// its path reaches.
    fn member_rows(&self, member: &Member<'_>, size: u64, out: &mut [u64]) -> Vec<u8> {
        let words = self.circuit.input_words();
        let mut rows = out.chunks_exact_mut(words);
        let mut next_row = || rows.next().expect("a row per instance");
        let mut siblings = member.path.iter();
        let mut value = member.leaf.to_vec();
        // An RFC 6962 node's two blocks: a 65-byte message's.
        let node = Preimage::new(self.hash, RFC6962_NODE_MESSAGE).expect("65 bytes fit");
        if self.scheme == Scheme::Rfc6962 {
            let leaf_hash = Preimage::new(self.hash, 1 + self.max_leaf_len).expect("a leaf hash fits");
            let message = [&[0u8][..], member.leaf].concat();
            let (leaf_rows, digest) = leaf_hash.message_rows(&message);
            for row in leaf_rows {
                self.rfc6962_row(next_row(), &row, &[0; NODE_BYTES], false, false);
            }
            value = digest;
        }
        for step in Self::steps(size, member.index) {
            let (message, dir) = match step {
                // The node's bytes are free: `P` on the left, zeros on the right.
                Step::Promoted => (self.node_message(&value, &[0; NODE_BYTES]), false),
                Step::Left => (
                    self.node_message(&value, siblings.next().expect("a sibling per hashed level")),
                    false,
                ),
                Step::Right => (
                    self.node_message(siblings.next().expect("a sibling per hashed level"), &value),
                    true,
                ),
            };
            let up = match (self.scheme, self.hash) {
                (Scheme::Rfc6962, _) => {
                    let (node_rows, digest) = node.message_rows(&message);
                    let promoted = step == Step::Promoted;
                    for row in node_rows {
                        self.rfc6962_row(next_row(), &row, &value, dir, promoted);
                    }
                    if promoted {
                        value.clone()
                    } else {
                        digest
                    }
                }
                (_, Hash::Keccak256) => {
                    let block = self.hash.block(&message, 0);
                    // The state starts at zero: the Keccak-f input is the block.
                    let input = self.hash.instance_input(None, &block);
                    let bytes = [&[0; 200][..], &block, &value, &[u8::from(dir)]].concat();
                    fill_row(next_row(), &bytes);
                    self.hash.compress(&input)[..NODE_BYTES].to_vec()
                }
                _ => {
                    let iv = self.hash.initial_chained();
                    let node = self.hash.compress(&[&iv[..], &message].concat());
                    let bytes = [&iv[..], &message, &value, &[u8::from(dir)]].concat();
                    fill_row(next_row(), &bytes);
                    let padding = self.hash.block(&message, 1);
                    let bytes = [&node[..], &padding, &[0; NODE_BYTES + 1]].concat();
                    fill_row(next_row(), &bytes);
                    self.hash.compress(&[&node[..], &padding].concat())
                }
            };
            value = up;
        }
        value
    }

    /// An RFC 6962 step row: a `preimage` block's row with `P`, `b` and `s`.
    fn rfc6962_row(&self, out: &mut [u64], block_row: &[u64], node: &[u8], dir: bool, promote: bool) {
        let l = Rfc6962StepLayout;
        out[..block_row.len()].copy_from_slice(block_row);
        out[block_row.len()..].fill(0);
        put_bytes(out, l.node_at(), node);
        put_bit(out, l.dir_at(), dir);
        put_bit(out, l.promote_at(), promote);
    }

    /// A random tree of `size` leaves (digest-sized for `plain`, of random
    /// lengths up to `max_leaf_len` for `rfc6962`) and `count` members at
    /// random indices, from the random bytes `fill` writes: the public
    /// record, the members' private records and the tree's leaves. For
    /// tests and benchmarks (`starling::kind::SampleMembers` draws them
    /// from a seed).
    pub fn random_batch_from(
        &self,
        size: usize,
        count: usize,
        fill: &mut dyn FnMut(&mut [u8]),
    ) -> (Records, Records, Records) {
        let draw = |fill: &mut dyn FnMut(&mut [u8]), bound: usize| {
            let mut word = [0u8; 8];
            fill(&mut word);
            (u64::from_le_bytes(word) % bound as u64) as usize
        };
        let mut leaves = Records::new();
        for _ in 0..size {
            let len = match self.scheme {
                Scheme::Rfc6962 => draw(fill, self.max_leaf_len + 1),
                _ => self.hash.digest_bytes(),
            };
            let mut leaf = vec![0u8; len];
            fill(&mut leaf);
            leaves.push(&leaf);
        }
        let members: Vec<(Vec<u8>, u64)> = (0..count)
            .map(|_| {
                let index = draw(fill, size);
                (leaves.get(index).to_vec(), index as u64)
            })
            .collect();
        let (public, private) = self
            .members_of_tree(&leaves, &members, &|m| format!("member {m}"))
            .expect("sampled members are the tree's");
        (public, private, leaves)
    }

    /// The relations of a `plain` tree's members (`m` instances each).
    fn plain_relations<'a>(&self, total: usize, m: usize, root: &[u8], relations: &mut Vec<Relation<'a>>) {
        let d = 8 * NODE_BYTES;
        let keccak = self.hash == Hash::Keccak256;
        let layout = if keccak {
            PathStepLayout::shake256(NODE_BYTES)
        } else {
            PathStepLayout::sha256(NODE_BYTES)
        };
        let checks = layout.e_offset()..layout.next_offset();
        let node = layout.prev_offset()..layout.prev_offset() + d;
        if keccak {
            // Every block starts from the zero state and is one node's
            // message with its padding.
            let every = Instances::Range { start: 0, end: total };
            relations.push(Relation {
                instances: every.clone(),
                wires: self.circuit.input_bit_wires(0..layout.block_offset()),
                from: None,
                values: Values::Zero,
            });
            let padding = self.hash.block(&[0; 2 * NODE_BYTES], 0);
            let tail = layout.block_offset() + 8 * 2 * NODE_BYTES..layout.prev_offset();
            relations.push(Relation {
                instances: every.clone(),
                wires: self.circuit.input_bit_wires(tail),
                from: None,
                values: Values::Constant(row_of(&padding[2 * NODE_BYTES..])),
            });
            relations.push(Relation {
                instances: every,
                wires: self.circuit.output_bit_wires(checks),
                from: None,
                values: Values::Zero,
            });
            relations.push(Relation {
                instances: instance_set(total, |y| y % m != 0),
                wires: self.circuit.input_bit_wires(node),
                from: Some((Source::Previous, self.circuit.output_bit_wires(0..d))),
                values: Values::Zero,
            });
        } else {
            let nodes = instance_set(total, |y| y % 2 == 0);
            let cv = 0..layout.block_offset();
            relations.push(Relation {
                instances: nodes.clone(),
                wires: self.circuit.input_bit_wires(cv.clone()),
                from: None,
                values: Values::Constant(row_of(&self.hash.initial_chained())),
            });
            relations.push(Relation {
                instances: nodes,
                wires: self.circuit.output_bit_wires(checks),
                from: None,
                values: Values::Zero,
            });
            relations.push(Relation {
                instances: instance_set(total, |y| y % 2 == 0 && y % m != 0),
                wires: self.circuit.input_bit_wires(node),
                from: Some((Source::Previous, self.circuit.output_bit_wires(0..d))),
                values: Values::Zero,
            });
            let paddings = instance_set(total, |y| y % 2 == 1);
            relations.push(Relation {
                instances: paddings.clone(),
                wires: self.circuit.input_bit_wires(cv.clone()),
                from: Some((Source::Previous, self.circuit.output_bit_wires(cv))),
                values: Values::Zero,
            });
            let padding = self.hash.block(&[0; 2 * NODE_BYTES], 1);
            relations.push(Relation {
                instances: paddings,
                wires: self
                    .circuit
                    .input_bit_wires(layout.block_offset()..layout.prev_offset()),
                from: None,
                values: Values::Constant(row_of(&padding)),
            });
        }
        relations.push(Relation {
            instances: instance_set(total, |y| y % m == m - 1),
            wires: self.circuit.output_bit_wires(0..d),
            from: None,
            values: Values::Constant(row_of(root)),
        });
    }

    /// The relations of an RFC 6962 tree's members (`m` instances each).
    fn rfc6962_relations<'a>(&self, total: usize, m: usize, root: &[u8], relations: &mut Vec<Relation<'a>>) {
        let l = Rfc6962StepLayout;
        let block = l.block();
        let leaf_blocks = self.leaf_blocks();
        // A member's instance `j`: a leaf block `j < B`, or a node's block
        // `(j - B) % 2`.
        let node_block = move |j: usize| (j >= leaf_blocks).then(|| (j - leaf_blocks) % 2);
        let is = |pick: &dyn Fn(usize) -> bool| instance_set(total, |y| pick(y % m));
        let carried = 0..block.carried_bits();
        // First blocks: the IV, a zero digest register, length and overflow
        // bit, and the thermometer's carry-in 1.
        let mut first = vec![0u64; block.carried_bits().div_ceil(64)];
        put_bytes(&mut first, block.state_at(), &self.hash.initial_chained());
        put_bit(&mut first, block.inside_at(), true);
        relations.push(Relation {
            instances: is(&|j| j == 0 || node_block(j) == Some(0)),
            wires: self.circuit.input_bit_wires(carried.clone()),
            from: None,
            values: Values::Constant(first),
        });
        relations.push(Relation {
            instances: is(&|j| (j > 0 && j < leaf_blocks) || node_block(j) == Some(1)),
            wires: self.circuit.input_bit_wires(carried.clone()),
            from: Some((Source::Previous, self.circuit.output_bit_wires(carried))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: Instances::Range { start: 0, end: total },
            wires: self
                .circuit
                .input_bit_wires(block.index_at()..block.index_at() + LENGTH_BITS),
            from: None,
            values: Values::PerInstance(Box::new(move |y, out: &mut [u64]| {
                let j = y % m;
                out[0] = node_block(j).unwrap_or(j) as u64;
            })),
        });
        // The leaf hash: `0x00 ‖ leaf`, at most `1 + max_leaf_len` bytes,
        // and its digest register takes its own output.
        let leaf_first = is(&|j| j == 0);
        relations.push(Relation {
            instances: leaf_first.clone(),
            wires: self
                .circuit
                .input_bit_wires(block.message_at()..block.message_at() + 8),
            from: None,
            values: Values::Constant(vec![0]),
        });
        relations.push(Relation {
            instances: leaf_first,
            wires: self
                .circuit
                .input_bit_wires(block.continues_at()..block.continues_at() + 1),
            from: None,
            values: Values::Constant(vec![1]),
        });
        let (bound_block, bound_bit) = Preimage::new(self.hash, 1 + self.max_leaf_len)
            .expect("a leaf hash fits")
            .bound();
        relations.push(Relation {
            instances: is(&|j| j == bound_block),
            wires: self.circuit.input_bit_wires(bound_bit..bound_bit + 1),
            from: None,
            values: Values::Constant(vec![0]),
        });
        relations.push(Relation {
            instances: is(&|j| j < leaf_blocks),
            wires: self.circuit.input_bit_wires(l.promote_at()..l.promote_at() + 1),
            from: None,
            values: Values::Constant(vec![0]),
        });
        if m > leaf_blocks {
            let node = l.node_at()..l.node_at() + 8 * NODE_BYTES;
            let firsts = is(&|j| node_block(j) == Some(0));
            relations.push(Relation {
                instances: firsts.clone(),
                wires: self
                    .circuit
                    .input_bit_wires(block.message_at()..block.message_at() + 8),
                from: None,
                values: Values::Constant(vec![1]),
            });
            relations.push(Relation {
                instances: firsts.clone(),
                wires: self
                    .circuit
                    .output_bit_wires(l.e_at()..l.f_at() + l.f_head_bits()),
                from: None,
                values: Values::Zero,
            });
            let digest = block.digest_at()..block.digest_at() + 8 * NODE_BYTES;
            relations.push(Relation {
                instances: firsts,
                wires: self.circuit.input_bit_wires(node.clone()),
                from: Some((Source::Previous, self.circuit.output_bit_wires(digest))),
                values: Values::Zero,
            });
            let seconds = is(&|j| node_block(j) == Some(1));
            // Position 64 is inside the message and 65 is not: 65 bytes.
            relations.push(Relation {
                instances: seconds.clone(),
                wires: self
                    .circuit
                    .input_bit_wires(block.continues_at()..block.continues_at() + 2),
                from: None,
                values: Values::Constant(vec![0b01]),
            });
            relations.push(Relation {
                instances: seconds.clone(),
                wires: self
                    .circuit
                    .output_bit_wires(l.f_at() + l.f_head_bits()..l.output_bits()),
                from: None,
                values: Values::Zero,
            });
            relations.push(Relation {
                instances: seconds,
                wires: self.circuit.input_bit_wires(node.start..l.dir_at() + 1),
                from: Some((
                    Source::Previous,
                    self.circuit.input_bit_wires(node.start..l.dir_at() + 1),
                )),
                values: Values::Zero,
            });
        }
        let digest = block.digest_at()..block.digest_at() + 8 * NODE_BYTES;
        relations.push(Relation {
            instances: is(&|j| j == m - 1),
            wires: self.circuit.output_bit_wires(digest),
            from: None,
            values: Values::Constant(row_of(root)),
        });
    }
}

impl Kind for Membership {
    fn name(&self) -> String {
        let mut name = format!(
            "membership --hash {} --scheme {}",
            self.hash.name(),
            self.scheme.name()
        );
        if self.scheme == Scheme::Rfc6962 {
            name += &format!(" --max-leaf-len {}", self.max_leaf_len);
        }
        name
    }

    fn code(&self) -> u8 {
        11
    }

    fn params(&self) -> Vec<u8> {
        let mut params = vec![self.hash.code(), self.scheme.code()];
        if self.scheme == Scheme::Rfc6962 {
            params.extend_from_slice(&(self.max_leaf_len as u32).to_le_bytes());
        }
        params
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "member"
    }

    fn input_size(&self) -> Option<usize> {
        Some(self.hash.digest_bytes() + 16)
    }

    fn output_size(&self) -> Option<usize> {
        // No outputs; a file that claims some gives each a length, and its
        // statement is refused.
        None
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        if inputs.len() != 1 {
            return Err(format!(
                "a membership statement has one public record (ROOT N SIZE), not {}",
                inputs.len()
            ));
        }
        let public = self
            .public(inputs.get(0))
            .ok_or_else(|| format!("the public record is not {} bytes", self.hash.digest_bytes() + 16))?;
        if public.members == 0 {
            return Err("no members: N must be at least 1".into());
        }
        if public.size == 0 {
            return Err("a Merkle tree needs at least one leaf".into());
        }
        if self.scheme == Scheme::Plain && !public.size.is_power_of_two() {
            return Err(format!(
                "a plain Merkle tree needs a power of two of leaves, not {}",
                public.size
            ));
        }
        let instances = public
            .members
            .saturating_mul(self.instances_per_member(public.size) as u64);
        if instances > MAX_INSTANCES || public.members > MAX_INSTANCES {
            return Err(format!(
                "{} members of a tree of {} leaves take {instances} instances, more than the {MAX_INSTANCES} one proof holds",
                public.members, public.size
            ));
        }
        Ok(StatementShape {
            count: public.members,
            outputs: 0,
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        let public = self.the_public(inputs);
        public.members as usize * self.instances_per_member(public.size)
    }

    fn has_private_inputs(&self) -> bool {
        true
    }

    fn requires_zero_knowledge(&self) -> bool {
        true
    }

    fn private_records(&self, inputs: &Records) -> usize {
        self.the_public(inputs).members as usize
    }

    /// Members of one tree: every shard names the same root and size, and
    /// the statement holds all their members.
    fn join(&self, shards: &[&Statement]) -> Result<(Records, Records), String> {
        let publics: Vec<Public<'_>> = shards
            .iter()
            .map(|s| {
                self.public(s.inputs().get(0))
                    .expect("a statement's shape is checked")
            })
            .collect();
        let first = publics.first().ok_or("no shards")?;
        if let Some(i) = publics
            .iter()
            .position(|p| p.root != first.root || p.size != first.size)
        {
            return Err(format!(
                "shard {} is about another tree than shard 1 (root {} of {} leaves, not {} of {})",
                i + 1,
                hex::encode(publics[i].root),
                publics[i].size,
                hex::encode(first.root),
                first.size
            ));
        }
        let members = publics
            .iter()
            .try_fold(0u64, |sum, p| sum.checked_add(p.members))
            .ok_or("the shards' members add up past 2^64")?;
        let record = Self::public_record(first.root, members, first.size);
        Ok(([record.as_slice()].into_iter().collect(), Records::new()))
    }

    fn relations<'a>(&'a self, inputs: &'a Records, _outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let public = self.the_public(inputs);
        let m = self.instances_per_member(public.size);
        let total = public.members as usize * m;
        let mut relations = vec![Relation::constant_wire(n)];
        if m == 0 {
            // A plain tree of one leaf: the root is the leaf, and a member
            // is that leaf; nothing to prove.
            return relations;
        }
        match self.scheme {
            Scheme::Rfc6962 => self.rfc6962_relations(total, m, public.root, &mut relations),
            _ => self.plain_relations(total, m, public.root, &mut relations),
        }
        relations
    }
}

impl TextFormat for Membership {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "ROOT N SIZE", 3)?;
        let root = hex_field(fields[0], self.hash.digest_bytes(), "root")?;
        Ok(Self::public_record(
            &root,
            decimal(fields[1], "N")?,
            decimal(fields[2], "size")?,
        ))
    }

    fn format_input(&self, record: &[u8]) -> String {
        match self.public(record) {
            Some(public) => format!("{} {} {}", hex::encode(public.root), public.members, public.size),
            None => hex::encode(record),
        }
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        let d = record.len().saturating_sub(16);
        vec![
            ("root".into(), 0..d),
            ("members".into(), d..d + 8),
            ("size".into(), d + 8..d + 16),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn and_rows_per_member_at_depth_20() {
        let cases = [
            (
                Membership::new(Hash::Sha256, Scheme::Plain).unwrap(),
                40,
                23_091,
                923_640,
            ),
            (
                Membership::new(Hash::Keccak256, Scheme::Plain).unwrap(),
                20,
                38_918,
                778_360,
            ),
            (Membership::rfc6962(64).unwrap(), 42, 24_231, 1_017_702),
        ];
        for (kind, instances, per_instance, per_member) in cases {
            let and_rows = kind.circuit().r1cs().and_rows();
            assert_eq!(
                (kind.instances_per_member(1 << 20), and_rows),
                (instances, per_instance),
                "{}",
                kind.name()
            );
            assert_eq!(instances * and_rows, per_member, "{}", kind.name());
        }
        // An RFC 6962 tree of 2^19 + 1 leaves is as deep.
        let rfc = Membership::rfc6962(64).unwrap();
        assert_eq!(rfc.instances_per_member((1 << 19) + 1), 42);
    }

    /// RFC 6962 §2.1.1's audit path of leaf `m` of `n`, top down, as the
    /// side the leaf's subtree is on at each split.
    fn audit_sides(m: u64, n: u64) -> Vec<Step> {
        if n == 1 {
            return Vec::new();
        }
        let k = 1u64 << (u64::BITS - 1 - (n - 1).leading_zeros());
        let (side, mut below) = if m < k {
            (Step::Left, audit_sides(m, k))
        } else {
            (Step::Right, audit_sides(m - k, n - k))
        };
        below.insert(0, side);
        below
    }

    #[test]
    fn steps_are_the_audit_path_read_bottom_up() {
        for n in 1..=70u64 {
            for m in 0..n {
                let steps = Membership::steps(n, m);
                assert_eq!(steps.len(), Membership::depth(n), "{m} of {n}");
                let mut hashed: Vec<Step> = steps.into_iter().filter(|&s| s != Step::Promoted).collect();
                hashed.reverse();
                assert_eq!(hashed, audit_sides(m, n), "{m} of {n}");
            }
        }
        assert_eq!(Membership::depth(1 << 20), 20);
        assert!(Membership::steps(1 << 10, 77)
            .iter()
            .all(|&s| s != Step::Promoted));
    }

    #[test]
    fn parameters_round_trip_and_bad_ones_are_malformed() {
        for kind in [
            Membership::new(Hash::Sha256, Scheme::Plain).unwrap(),
            Membership::new(Hash::Keccak256, Scheme::Plain).unwrap(),
            Membership::rfc6962(77).unwrap(),
        ] {
            let back = Membership::from_params(&kind.params()).unwrap();
            assert_eq!(back.name(), kind.name());
        }
        assert_eq!(
            Membership::rfc6962(77).unwrap().name(),
            "membership --hash sha256 --scheme rfc6962 --max-leaf-len 77"
        );
        for bad in [
            &[][..],
            &[1],
            &[1, 1, 0],
            &[1, 2],
            &[1, 2, 0, 0, 0],
            &[1, 3],
            &[2, 1],
            &[4, 1],
            &[99, 1],
            &[1, 2, 255, 255, 255, 255],
        ] {
            assert!(
                matches!(Membership::from_params(bad), Err(Error::Malformed(_))),
                "{bad:?}"
            );
        }
        assert!(Membership::new(Hash::Sha512, Scheme::Plain).is_err());
        assert!(Membership::new(Hash::Sha256, Scheme::Bitcoin).is_err());
    }

    #[test]
    fn the_public_line_is_root_n_size_and_shapes_are_checked() {
        let kind = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
        let line = format!("{} 3 16", "ab".repeat(32));
        let record = kind.parse_input(&line.split(' ').collect::<Vec<_>>()).unwrap();
        assert_eq!(kind.format_input(&record), line);
        let one: Records = [record.as_slice()].into_iter().collect();
        assert_eq!(kind.shape(&one), Ok(StatementShape { count: 3, outputs: 0 }));
        assert_eq!(kind.private_records(&one), 3);
        assert_eq!(kind.instances(&one, &Records::new()), 3 * 8);
        let fields: Vec<&str> = kind
            .input_fields(&record)
            .into_iter()
            .map(|(name, _)| if name == "root" { "root" } else { "other" })
            .collect();
        assert_eq!(fields, ["root", "other", "other"]);
        let shape = |root: &[u8], n: u64, size: u64| {
            let record = Membership::public_record(root, n, size);
            kind.shape(&[record.as_slice()].into_iter().collect())
        };
        assert!(shape(&[0; 32], 1, 12).unwrap_err().contains("power of two"));
        assert!(shape(&[0; 32], 0, 16)
            .unwrap_err()
            .contains("N must be at least 1"));
        assert!(shape(&[0; 32], 1, 0).unwrap_err().contains("at least one leaf"));
        assert!(shape(&[0; 32], 1 << 20, 1 << 20)
            .unwrap_err()
            .contains("more than"));
        assert!(shape(&[0; 32], u64::MAX, 1 << 63)
            .unwrap_err()
            .contains("more than"));
        assert!(shape(&[0; 31], 1, 1).unwrap_err().contains("not 48 bytes"));
        assert!(kind
            .shape(&[&record[..], &record[..]].into_iter().collect())
            .is_err());
        let rfc = Membership::rfc6962(64).unwrap();
        let record = Membership::public_record(&[0; 32], 1, 12);
        assert!(rfc.shape(&[record.as_slice()].into_iter().collect()).is_ok());
    }
}
