//! Ring signatures: one linkable ring signature, hash-based. A signer
//! holds a 32-byte secret key `sk` whose public key
//! `pk = SHA-256("starling/ring/pk" ‖ sk)` is a leaf of a plain SHA-256
//! Merkle tree (the ring, its root public); the statement says that some
//! such `sk` exists, and that the public key image
//! `K = SHA-256("starling/ring/tag" ‖ sk ‖ context)` is that `sk`'s, so two
//! signatures with the same `K` in one context come from the same member.
//! The message is bound as a public value. SHA-256 only: the tree is the
//! `plain` scheme of the `merkle-root` and `membership` kinds, a node
//! `SHA-256(left ‖ right)`, the leaves the 32-byte public keys in the
//! ring's order, padded with all-zero leaves to a power of two. The byte
//! formats are in `docs/ring.md`.
//!
//! **Records.** One public input record,
//! `ROOT ‖ u64 size ‖ MSG_DIGEST ‖ K ‖ u32 context_len ‖ context` (the
//! words little-endian; `size` the padded tree's leaves, a power of two;
//! `MSG_DIGEST` the SHA-256 of the message; the context at most
//! [`MAX_CONTEXT_LEN`] bytes), a verifier's line
//! `ROOT SIZE MSG_DIGEST K CONTEXT` (the context in hex, `-` when empty);
//! no output records; N = 1 signature. The private record is
//! `sk ‖ u64 index ‖ path`, the path the `log2(size)` siblings from the
//! bottom up.
//!
//! **The message** is not in any relation: the statement's records are
//! hashed into the public values digest (`format::statement_digest`),
//! which the transcript absorbs before its first challenge, so every
//! challenge depends on `MSG_DIGEST`, and a proof made for one digest fails
//! a check under another but with the protocol's soundness error (as a
//! proof made for one root fails under another). SHA-256's collision
//! resistance makes the digest stand for the message. The signer chooses
//! the message freely; what is bound is that this proof, with its `K`, was
//! made for it.
//!
//! **Instances**, all of the plain `membership` kind's instance circuit
//! ([`crate::circuit::Sha256PathStep`], `left` at byte 0): with
//! `T = blocks(17 + 32 + context_len)` (1 for a context of at most 6
//! bytes, else 2) and `D = log2(size)`,
//!
//! - `0..T`: the blocks of the tag message
//!   `"starling/ring/tag" ‖ sk ‖ context`, its padding included (`sk` at
//!   bytes 17..49 of block 0);
//! - `T`: the one block of the public key's message `"starling/ring/pk" ‖
//!   sk` (48 bytes; `sk` at bytes 16..48);
//! - `T + 1 + 2 i`, `T + 2 + 2 i` for level `i < D`: the node block and its
//!   padding block, as a `membership` member's levels.
//!
//! `P`, `b`, `E` and `F` of the hash blocks are free, as in padding blocks.
//!
//! **Relations**, every set of instances fixed by the public `size` and
//! `context_len` alone:
//! - the constant wire;
//! - instance 0, `T` and every node block start from the IV; tag blocks
//!   after the first and padding blocks chain from the instance before;
//! - every byte of the tag and key blocks but `sk`'s is a public constant:
//!   the domain strings, the context, the padding (so the tag message's
//!   length is `49 + context_len`, and the key's 48);
//! - `sk`'s 256 input wires of instance `T` equal those of instance 0
//!   (a link between private wires, [`Source::Map`]): one `sk` in both;
//! - the last tag block's output is `K`;
//! - the node blocks' `E` and `F` are zero and their `P` is the output of
//!   the instance before (for level 0 the key block's: `pk`); padding
//!   blocks' blocks are the padding of a 64-byte message;
//! - the last instance's output is the root (for a ring of one, the key
//!   block's: `pk` is the root).
//!
//! Soundness: `K` is SHA-256 of the tag message, whose every byte but
//! `sk`'s is public, and `pk` the SHA-256 of the key message with the same
//! `sk`; from the root down each level's message is the real node's
//! (collision resistance), `D` levels down a leaf, so `pk` is a leaf of the
//! tree. A zero leaf of the padding is no key: it would take a preimage of
//! zero under SHA-256.
//!
//! Cost, in AND rows per signature (the test
//! `and_rows_per_signature_at_depth_20` asserts them): each instance is
//! 23,091 (the compression's 22,573, 512 for `E` and `F`, 6 for `J`); at
//! depth 20 a context of at most 6 bytes takes 42 instances, 969,822 AND
//! rows, a longer one (to 64 bytes) 43, 992,913; padded to 64 instances.
//!
//! Private is not hidden without zero knowledge (DESIGN §2.2): the proof's
//! opened columns and sumcheck messages are functions of the witness, sk
//! among them. So the kind [`Kind::requires_zero_knowledge`]: a signature
//! is always a zero-knowledge proof, and one without is rejected.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use super::membership::Membership;
use super::merkle::Scheme;
use super::preimage::instance_set;
use super::{fill_row, row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuit::path_step::PathStepLayout;
use crate::circuit::rfc6962_step::NODE_BYTES;
use crate::circuits::StatementCircuit;
use crate::hashes::Hash;
use crate::inputs::{decimal, expect_fields, hex_bytes, hex_field};
use crate::piop::wiring::{Instances, Source, Wires};
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

/// The longest context.
pub const MAX_CONTEXT_LEN: usize = 64;

/// Bytes of a secret key, a public key, a key image, a root and a message
/// digest.
pub const KEY_BYTES: usize = 32;

/// The public key's domain string: `pk = SHA-256(PK_DOMAIN ‖ sk)`.
pub const PK_DOMAIN: &[u8] = b"starling/ring/pk";

/// The key image's domain string: `K = SHA-256(TAG_DOMAIN ‖ sk ‖ context)`.
pub const TAG_DOMAIN: &[u8] = b"starling/ring/tag";

/// Bytes of the public record before the context.
const FIXED_PUBLIC: usize = 3 * KEY_BYTES + 8 + 4;

/// Linkable ring signatures over plain SHA-256 trees.
#[derive(Clone, Debug)]
pub struct Ring {
    circuit: Arc<StatementCircuit>,
}

/// A signature's instance rows, with the key image and the root they
/// reach.
#[derive(Clone, Debug)]
pub struct SignatureRows {
    /// The input rows of every instance.
    pub rows: Vec<u64>,
    /// The last tag block's output.
    pub key_image: Vec<u8>,
    /// The last instance's output.
    pub root: Vec<u8>,
}

/// The public record's parts.
struct Public<'a> {
    root: &'a [u8],
    size: u64,
    key_image: &'a [u8],
    context: &'a [u8],
}

impl Default for Ring {
    fn default() -> Self {
        Self::new()
    }
}

impl Ring {
    /// The kind (SHA-256).
    pub fn new() -> Self {
        let circuit = Membership::new(Hash::Sha256, Scheme::Plain)
            .expect("plain SHA-256 membership")
            .circuit()
            .clone();
        Ring { circuit }
    }

    /// The kind a file's parameters name: SHA-256's code, alone.
    pub fn from_params(params: &[u8]) -> Result<Self, Error> {
        match params {
            [code] if *code == Hash::Sha256.code() => Ok(Self::new()),
            _ => Err(Error::Malformed(
                "a ring kind's parameters are SHA-256's code, alone".into(),
            )),
        }
    }

    /// `pk = SHA-256("starling/ring/pk" ‖ sk)`.
    pub fn public_key(sk: &[u8; KEY_BYTES]) -> [u8; KEY_BYTES] {
        digest32(&Self::pk_message(sk))
    }

    /// `K = SHA-256("starling/ring/tag" ‖ sk ‖ context)`.
    pub fn key_image(sk: &[u8; KEY_BYTES], context: &[u8]) -> [u8; KEY_BYTES] {
        digest32(&Self::tag_message(sk, context))
    }

    fn pk_message(sk: &[u8]) -> Vec<u8> {
        [PK_DOMAIN, sk].concat()
    }

    fn tag_message(sk: &[u8], context: &[u8]) -> Vec<u8> {
        [TAG_DOMAIN, sk, context].concat()
    }

    /// The public record; the context must be at most
    /// [`MAX_CONTEXT_LEN`] bytes for [`Kind::shape`] to accept it.
    pub fn public_record(
        root: &[u8],
        size: u64,
        message_digest: &[u8],
        key_image: &[u8],
        context: &[u8],
    ) -> Vec<u8> {
        let mut record = root.to_vec();
        record.extend_from_slice(&size.to_le_bytes());
        record.extend_from_slice(message_digest);
        record.extend_from_slice(key_image);
        record.extend_from_slice(&(context.len() as u32).to_le_bytes());
        record.extend_from_slice(context);
        record
    }

    /// The private record: `sk ‖ u64 index ‖ path` (the siblings from the
    /// bottom up).
    pub fn private_record(sk: &[u8; KEY_BYTES], index: u64, path: &[Vec<u8>]) -> Vec<u8> {
        let mut record = sk.to_vec();
        record.extend_from_slice(&index.to_le_bytes());
        for node in path {
            record.extend_from_slice(node);
        }
        record
    }

    /// The parts of a public record; `None` when it is not one.
    fn public<'a>(&self, record: &'a [u8]) -> Option<Public<'a>> {
        if record.len() < FIXED_PUBLIC {
            return None;
        }
        let (root, rest) = record.split_at(KEY_BYTES);
        let (size, rest) = rest.split_at(8);
        let (_digest, rest) = rest.split_at(KEY_BYTES);
        let (key_image, rest) = rest.split_at(KEY_BYTES);
        let (len, context) = rest.split_at(4);
        let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
        (context.len() == len).then_some(Public {
            root,
            size: u64::from_le_bytes(size.try_into().ok()?),
            key_image,
            context,
        })
    }

    fn the_public<'a>(&self, inputs: &'a Records) -> Public<'a> {
        self.public(inputs.get(0))
            .expect("a statement's shape is checked first")
    }

    /// Blocks of the tag message with a context of `context_len` bytes.
    pub fn tag_blocks(context_len: usize) -> usize {
        Hash::Sha256.blocks(TAG_DOMAIN.len() + KEY_BYTES + context_len)
    }

    /// Instances of a signature in a ring of `size` leaves (a power of
    /// two) with a context of `context_len` bytes.
    pub fn instances_per_signature(size: u64, context_len: usize) -> usize {
        Self::tag_blocks(context_len) + 1 + 2 * Membership::depth(size)
    }

    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`)
    /// from the public record and the private one: [`Error::Input`] when
    /// the private record cannot be read, [`Error::False`] when its `sk`
    /// does not give the public `K` or its path does not lead to the root.
    pub fn instance_rows(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        let public = self.the_public(inputs);
        if private.len() != 1 {
            return Err(Error::Input(format!(
                "a ring signature has one private record, not {}",
                private.len()
            )));
        }
        let SignatureRows {
            rows,
            key_image,
            root,
        } = self
            .rows_of(public.size, public.context, private.get(0))
            .map_err(Error::Input)?;
        if key_image != public.key_image {
            return Err(Error::False(
                "the secret key's key image in this context is not the public one".into(),
            ));
        }
        if root != public.root {
            return Err(Error::False(
                "the secret key's public key and path do not lead to the root".into(),
            ));
        }
        Ok(rows)
    }

    /// The rows of a signature by the private record `record` in a ring of
    /// `size` leaves, with the key image and the root they reach (what a
    /// test's cheating prover claims for a record it made up).
    pub fn rows_of(&self, size: u64, context: &[u8], record: &[u8]) -> Result<SignatureRows, String> {
        let depth = Membership::depth(size);
        if record.len() != KEY_BYTES + 8 + depth * KEY_BYTES {
            return Err(format!(
                "the private record is not sk, an index and {depth} path nodes ({} bytes)",
                KEY_BYTES + 8 + depth * KEY_BYTES
            ));
        }
        let (sk, rest) = record.split_at(KEY_BYTES);
        let (index, path) = rest.split_at(8);
        let index = u64::from_le_bytes(index.try_into().expect("8 bytes"));
        if index >= size {
            return Err(format!("index {index} is past the ring's {size} leaves"));
        }
        let h = Hash::Sha256;
        let iv = h.initial_chained();
        let words = self.circuit.input_words();
        let mut rows = vec![0u64; Self::instances_per_signature(size, context.len()) * words];
        let mut out = rows.chunks_exact_mut(words);
        let mut row = |bytes: &[u8]| fill_row(out.next().expect("a row per instance"), bytes);
        let free = [0u8; NODE_BYTES + 1];
        let tag = Self::tag_message(sk, context);
        let mut cv = iv.clone();
        for j in 0..h.blocks(tag.len()) {
            let block = h.block(&tag, j);
            row(&[&cv[..], &block, &free].concat());
            cv = h.compress(&[&cv[..], &block].concat());
        }
        let key_image = cv;
        let block = h.block(&Self::pk_message(sk), 0);
        row(&[&iv[..], &block, &free].concat());
        let mut value = h.compress(&[&iv[..], &block].concat());
        for (level, sibling) in path.chunks(KEY_BYTES).enumerate() {
            let dir = (index >> level) & 1 == 1;
            let message = if dir {
                [sibling, &value[..]].concat()
            } else {
                [&value[..], sibling].concat()
            };
            row(&[&iv[..], &message, &value, &[u8::from(dir)]].concat());
            let node = h.compress(&[&iv[..], &message].concat());
            let padding = h.block(&message, 1);
            row(&[&node[..], &padding, &free].concat());
            value = h.compress(&[&node[..], &padding].concat());
        }
        Ok(SignatureRows {
            rows,
            key_image,
            root: value,
        })
    }

    /// Input wires of block bytes `bytes`.
    fn block_wires(&self, bytes: Range<usize>) -> Wires {
        let at = Self::layout().block_offset();
        self.circuit
            .input_bit_wires(at + 8 * bytes.start..at + 8 * bytes.end)
    }

    fn layout() -> PathStepLayout {
        PathStepLayout::sha256(NODE_BYTES).with_left_byte(0)
    }
}

/// SHA-256 as 32 bytes.
fn digest32(message: &[u8]) -> [u8; KEY_BYTES] {
    Hash::Sha256.digest(message).try_into().expect("a SHA-256 digest")
}

impl Kind for Ring {
    fn name(&self) -> String {
        "ring --hash sha256".into()
    }

    fn code(&self) -> u8 {
        12
    }

    fn params(&self) -> Vec<u8> {
        vec![Hash::Sha256.code()]
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "signature"
    }

    fn input_size(&self) -> Option<usize> {
        // The context's length varies.
        None
    }

    fn output_size(&self) -> Option<usize> {
        None
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        if inputs.len() != 1 {
            return Err(format!(
                "a ring signature's statement has one public record (ROOT SIZE MSG_DIGEST K CONTEXT), not {}",
                inputs.len()
            ));
        }
        let public = self.public(inputs.get(0)).ok_or_else(|| {
            format!("the public record is not {FIXED_PUBLIC} bytes and the context its length says")
        })?;
        if public.context.len() > MAX_CONTEXT_LEN {
            return Err(format!(
                "the context has {} bytes, more than the {MAX_CONTEXT_LEN} a ring signature takes",
                public.context.len()
            ));
        }
        if !public.size.is_power_of_two() {
            return Err(format!(
                "a ring's tree needs a power of two of leaves, not {}",
                public.size
            ));
        }
        Ok(StatementShape { count: 1, outputs: 0 })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        let public = self.the_public(inputs);
        Self::instances_per_signature(public.size, public.context.len())
    }

    fn has_private_inputs(&self) -> bool {
        true
    }

    fn requires_zero_knowledge(&self) -> bool {
        true
    }

    fn private_records(&self, _inputs: &Records) -> usize {
        1
    }

    /// One signature: it does not split.
    fn join(&self, shards: &[&Statement]) -> Result<(Records, Records), String> {
        match shards {
            [one] => Ok((one.inputs().clone(), one.outputs().clone())),
            _ => Err("a ring signature is one statement: it does not split into shards".into()),
        }
    }

    fn relations<'a>(&'a self, inputs: &'a Records, _outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let public = self.the_public(inputs);
        let h = Hash::Sha256;
        let layout = Self::layout();
        let t = Self::tag_blocks(public.context.len());
        let key = t;
        let total = Self::instances_per_signature(public.size, public.context.len());
        let node = |y: usize| y > key && (y - key) % 2 == 1;
        let cv = 0..layout.block_offset();
        let d = 8 * NODE_BYTES;
        // The messages with a zero sk: every byte but sk's is public.
        let tag = Self::tag_message(&[0; KEY_BYTES], public.context);
        let pk = Self::pk_message(&[0; KEY_BYTES]);
        let (tag_sk, pk_sk) = (TAG_DOMAIN.len(), PK_DOMAIN.len());
        let tag0 = h.block(&tag, 0);
        let pk0 = h.block(&pk, 0);
        let mut relations = vec![
            Relation::constant_wire(n),
            Relation {
                instances: instance_set(total, |y| y == 0 || y == key || node(y)),
                wires: self.circuit.input_bit_wires(cv.clone()),
                from: None,
                values: Values::Constant(row_of(&h.initial_chained())),
            },
            Relation {
                instances: Instances::single(0),
                wires: self.block_wires(0..tag_sk),
                from: None,
                values: Values::Constant(row_of(&tag0[..tag_sk])),
            },
            Relation {
                instances: Instances::single(0),
                wires: self.block_wires(tag_sk + KEY_BYTES..64),
                from: None,
                values: Values::Constant(row_of(&tag0[tag_sk + KEY_BYTES..])),
            },
            Relation {
                instances: Instances::single(key),
                wires: self.block_wires(0..pk_sk),
                from: None,
                values: Values::Constant(row_of(&pk0[..pk_sk])),
            },
            Relation {
                instances: Instances::single(key),
                wires: self.block_wires(pk_sk + KEY_BYTES..64),
                from: None,
                values: Values::Constant(row_of(&pk0[pk_sk + KEY_BYTES..])),
            },
            // One sk: the key block's equals the first tag block's.
            Relation {
                instances: Instances::single(key),
                wires: self.block_wires(pk_sk..pk_sk + KEY_BYTES),
                from: Some((
                    Source::Map(vec![0u32; key + 1].into()),
                    self.block_wires(tag_sk..tag_sk + KEY_BYTES),
                )),
                values: Values::Zero,
            },
            Relation {
                instances: Instances::single(t - 1),
                wires: self.circuit.output_bit_wires(0..d),
                from: None,
                values: Values::Constant(row_of(public.key_image)),
            },
        ];
        for j in 1..t {
            relations.push(Relation {
                instances: Instances::single(j),
                wires: self.block_wires(0..64),
                from: None,
                values: Values::Constant(row_of(&h.block(&tag, j))),
            });
        }
        let chained = instance_set(total, |y| {
            (y > 0 && y < t) || (y > key && (y - key).is_multiple_of(2))
        });
        relations.push(Relation {
            instances: chained,
            wires: self.circuit.input_bit_wires(cv.clone()),
            from: Some((Source::Previous, self.circuit.output_bit_wires(cv))),
            values: Values::Zero,
        });
        if total > key + 1 {
            let nodes = instance_set(total, node);
            relations.push(Relation {
                instances: nodes.clone(),
                wires: self
                    .circuit
                    .output_bit_wires(layout.e_offset()..layout.next_offset()),
                from: None,
                values: Values::Zero,
            });
            relations.push(Relation {
                instances: nodes,
                wires: self
                    .circuit
                    .input_bit_wires(layout.prev_offset()..layout.prev_offset() + d),
                from: Some((Source::Previous, self.circuit.output_bit_wires(0..d))),
                values: Values::Zero,
            });
            let padding = h.block(&[0; 2 * NODE_BYTES], 1);
            relations.push(Relation {
                instances: instance_set(total, |y| y > key && (y - key).is_multiple_of(2)),
                wires: self.block_wires(0..64),
                from: None,
                values: Values::Constant(row_of(&padding)),
            });
        }
        relations.push(Relation {
            instances: Instances::single(total - 1),
            wires: self.circuit.output_bit_wires(0..d),
            from: None,
            values: Values::Constant(row_of(public.root)),
        });
        relations
    }
}

impl TextFormat for Ring {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "ROOT SIZE MSG_DIGEST K CONTEXT", 5)?;
        let root = hex_field(fields[0], KEY_BYTES, "root")?;
        let size: u64 = decimal(fields[1], "size")?;
        let digest = hex_field(fields[2], KEY_BYTES, "message digest")?;
        let key_image = hex_field(fields[3], KEY_BYTES, "key image")?;
        let context = hex_bytes(fields[4], "context")?;
        if context.len() > MAX_CONTEXT_LEN {
            return Err(format!(
                "the context has {} bytes, more than {MAX_CONTEXT_LEN}",
                context.len()
            ));
        }
        Ok(Self::public_record(&root, size, &digest, &key_image, &context))
    }

    fn format_input(&self, record: &[u8]) -> String {
        match self.public(record) {
            Some(p) => format!(
                "{} {} {} {} {}",
                hex::encode(p.root),
                p.size,
                hex::encode(&record[KEY_BYTES + 8..2 * KEY_BYTES + 8]),
                hex::encode(p.key_image),
                super::bytes_line(p.context)
            ),
            None => hex::encode(record),
        }
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        let k = KEY_BYTES;
        let end = record.len().max(FIXED_PUBLIC);
        vec![
            ("root".into(), 0..k),
            ("size".into(), k..k + 8),
            ("message digest".into(), k + 8..2 * k + 8),
            ("key image".into(), 2 * k + 8..3 * k + 8),
            ("context length".into(), 3 * k + 8..FIXED_PUBLIC),
            ("context".into(), FIXED_PUBLIC..end),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn and_rows_per_signature_at_depth_20() {
        let ring = Ring::new();
        let and_rows = ring.circuit().r1cs().and_rows();
        assert_eq!(and_rows, 23_091);
        // A context of at most 6 bytes: one tag block; up to 64: two.
        for (context_len, instances, per_signature) in [
            (0, 42, 969_822),
            (6, 42, 969_822),
            (7, 43, 992_913),
            (64, 43, 992_913),
        ] {
            let m = Ring::instances_per_signature(1 << 20, context_len);
            assert_eq!(m, instances, "context of {context_len} bytes");
            assert_eq!(m * and_rows, per_signature, "context of {context_len} bytes");
        }
        assert_eq!(Ring::instances_per_signature(1, 0), 2);
    }

    #[test]
    fn ring_parameters_and_public_line() {
        let ring = Ring::new();
        assert_eq!(
            Ring::from_params(&ring.params()).unwrap().name(),
            "ring --hash sha256"
        );
        for bad in [&[][..], &[2], &[1, 0]] {
            assert!(
                matches!(Ring::from_params(bad), Err(Error::Malformed(_))),
                "{bad:?}"
            );
        }
        let line = format!(
            "{} 8 {} {} 0a0b",
            "ab".repeat(32),
            "cd".repeat(32),
            "ef".repeat(32)
        );
        let record = ring.parse_input(&line.split(' ').collect::<Vec<_>>()).unwrap();
        assert_eq!(ring.format_input(&record), line);
        let one: Records = [record.as_slice()].into_iter().collect();
        assert_eq!(ring.shape(&one), Ok(StatementShape { count: 1, outputs: 0 }));
        assert_eq!(ring.instances(&one, &Records::new()), 1 + 1 + 6);
        let shape = |size: u64, context: &[u8]| {
            let record = Ring::public_record(&[0; 32], size, &[0; 32], &[0; 32], context);
            ring.shape(&[record.as_slice()].into_iter().collect())
        };
        assert!(shape(6, &[]).unwrap_err().contains("power of two"));
        assert!(shape(0, &[]).unwrap_err().contains("power of two"));
        assert!(shape(8, &[0; 65]).unwrap_err().contains("more than the 64"));
        assert!(shape(8, &[0; 64]).is_ok());
        let mut short = Ring::public_record(&[0; 32], 8, &[0; 32], &[0; 32], &[1, 2]);
        short.pop();
        assert!(ring.shape(&[short.as_slice()].into_iter().collect()).is_err());
    }
}
