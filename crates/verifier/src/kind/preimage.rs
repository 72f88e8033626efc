//! Preimages: N public digests, each the hash of a private message of
//! private length at most a declared `max_len` (SHA-256, SHA-512, SHA3-256,
//! Keccak-256, or BLAKE3 with `max_len <= 1024`, one chunk).
//!
//! **Records.** The input records are the digests; there are no output
//! records. The digests are what the statement is about, so they are
//! inputs: a verifier's expectation (`verify --expect`, [`crate::Expected`])
//! fixes exactly the input records and N is counted from them, while output
//! records are whatever the proof establishes, which a verifier reads but
//! does not choose. A prover's line is the private message in hex (`-` for
//! the empty one); the digest is computed from it, as a signature batch's
//! prover lines carry a private field beside the public ones
//! ([`crate::kind::Kind::has_private_inputs`]). A verifier's line is the
//! digest in hex.
//!
//! **Instances.** Every message takes `B` consecutive instances, the blocks
//! `max_len` needs (`Hash::blocks(max_len)`), whatever its length; instance
//! `m B + j` is block `j` of message `m`, in the block circuit
//! ([`crate::circuit::preimage`]), which computes the block from private
//! values: the message bytes masked by a thermometer of the message's
//! extent, the padding, and which block is the final one. So the blocks
//! that hold message bytes, padding or nothing, and the block whose output
//! is the digest, are not public; the statement's shape and its relations
//! depend only on N, the hash and `max_len`. One block per instance keeps
//! the instance circuit one compression wide for every `max_len` (a
//! verifier's lincheck costs one instance's nonzeros), at the price of the
//! wires carried from block to block.
//!
//! **Relations.** A wire bound to a public value holds that value in every
//! honest witness whatever the message (constants, block indices, the
//! bound bit, the digest), and links join private wires to private wires
//! only; sets of instances are explicit, `O(N B)` for the verifier:
//! - the constant wire, in every instance;
//! - first blocks: the carried inputs are constants: the chained state is
//!   the hash's initial value (zero for the sponge), the digest register
//!   zero, SHA-2's accumulated length zero and overflow bit zero, and the
//!   thermometer's carry-in 1 (the position before the message is
//!   inside); for BLAKE3 the first-block bit is 1 and the carry-in (whether
//!   the message has a first byte) is private;
//! - later blocks: the carried inputs equal the previous instance's carried
//!   outputs (the chained state, the digest register, the thermometer,
//!   SHA-2's length and overflow bit), all private; BLAKE3's first-block
//!   bit is 0;
//! - SHA-2: every block's index input is its public `j`;
//! - the block that holds position `max_len`: its `continues` bit there is
//!   0 (for BLAKE3 and `max_len = 0`, block 0's carry-in), so the message
//!   ends by `max_len`; an honest prover's bit there is 0 whatever the
//!   length;
//! - last blocks: the digest register's output is the public digest.
//!
//! Together: the thermometer falls exactly once, at a length `L <= max_len`;
//! the blocks are the padded blocks of an `L`-byte message (zero after the
//! final one); the states chain from the initial value; and the digest
//! register holds the final block's output. So each public digest is the
//! hash of some message of at most `max_len` bytes, and the statement
//! shows no message byte, length or block position.
//!
//! Cost, in AND rows per message (a block's rows times `B`; the test
//! `preimage_block_costs` asserts the per-block counts): SHA-256 at the
//! default `max_len` of 64 takes two blocks of 23,463 AND rows each (the
//! compression's 22,573 and 890 for the length logic), 46,926 per message
//! against 45,146 for its two compressions alone; the instance circuit
//! stays at `k = 15`, as SHA-256's. Per block, SHA-512 takes 59,668 (57,947
//! plain), SHA3-256 and Keccak-256 39,880 (38,400), BLAKE3 11,243 (10,410).
//!
//! Private is not hidden without zero knowledge (DESIGN §2.2): the
//! proof's opened columns and sumcheck messages are functions of the
//! witness. So the kind [`Kind::requires_zero_knowledge`]: it is always
//! proved with zero knowledge, and a proof of it without is rejected.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use super::{bytes_line, row_of, Kind, PrivateInputError, Relation, StatementShape, TextFormat, Values};
use crate::circuit::preimage::{PreimageLayout, LENGTH_BITS};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::hashes::Hash;
use crate::inputs::{expect_fields, hex_bytes, hex_field};
use crate::piop::wiring::{Instances, Source};
use crate::records::Records;
use crate::Error;

/// The `max_len` users get unless they say otherwise.
pub const DEFAULT_MAX_LEN: usize = 64;

/// Preimages of digests under one hash, of messages of at most `max_len`
/// bytes.
#[derive(Clone, Debug)]
pub struct Preimage {
    hash: Hash,
    max_len: usize,
    layout: PreimageLayout,
    circuit: Arc<StatementCircuit>,
}

impl Preimage {
    /// Preimages under `hash` of messages of at most `max_len` bytes; errors
    /// when the hash takes no such messages (BLAKE3's one chunk: 1,024
    /// bytes; the others' 1 MiB, [`Hash::max_message`]).
    pub fn new(hash: Hash, max_len: usize) -> Result<Self, String> {
        if max_len > hash.max_message() {
            return Err(format!(
                "--max-len {max_len} is more than the {} bytes {} preimage statements take",
                hash.max_message(),
                hash.name()
            ));
        }
        Ok(Preimage {
            hash,
            max_len,
            layout: PreimageLayout::new(hash),
            circuit: StatementCircuit::preimage(hash),
        })
    }

    /// The kind a file's parameters name: the hash's code and `max_len`
    /// (u32 little-endian).
    pub fn from_params(params: &[u8]) -> Result<Self, Error> {
        let [code, len @ ..] = params else {
            return Err(Error::Malformed(
                "the kind's parameters are not a hash and a length".into(),
            ));
        };
        let len: [u8; 4] = len
            .try_into()
            .map_err(|_| Error::Malformed("the kind's parameters are not a hash and a length".into()))?;
        let hash = Hash::from_code(*code).ok_or_else(|| Error::Malformed(format!("unknown hash {code}")))?;
        Preimage::new(hash, u32::from_le_bytes(len) as usize).map_err(Error::Malformed)
    }

    /// The hash.
    pub fn hash(&self) -> Hash {
        self.hash
    }

    /// The longest message.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Where the block circuit's values are.
    pub fn layout(&self) -> PreimageLayout {
        self.layout
    }

    /// Instances per message: the blocks of a `max_len`-byte message.
    pub fn blocks(&self) -> usize {
        self.hash.blocks(self.max_len)
    }

    /// The block, and its input bit, that says whether position `max_len`
    /// is inside the message; the statement binds it to 0.
    pub fn bound(&self) -> (usize, usize) {
        let l = self.layout;
        match self.hash {
            Hash::Blake3 if self.max_len == 0 => (0, l.inside_at()),
            Hash::Blake3 => (
                (self.max_len - 1) / l.rate(),
                l.continues_at() + (self.max_len - 1) % l.rate(),
            ),
            _ => (
                self.max_len / l.rate(),
                l.continues_at() + self.max_len % l.rate(),
            ),
        }
    }

    /// The instance input rows of one message's [`Preimage::blocks`]
    /// instances, and its digest (what the last block's digest register
    /// holds). `msg` must be at most `max_len` bytes.
    pub fn message_rows(&self, msg: &[u8]) -> (Vec<Vec<u64>>, Vec<u8>) {
        assert!(msg.len() <= self.max_len, "a message longer than max_len");
        let (hash, l) = (self.hash, self.layout);
        let (len, rate) = (msg.len(), l.rate());
        let used = hash.blocks(len);
        // The edge's block, and whether it is in SHA-2's length field.
        let (edge_block, in_field) = (len / rate, len % rate >= rate - l.length_field_bytes());
        let mut rows = Vec::with_capacity(self.blocks());
        let mut previous: Option<Vec<u8>> = None;
        let mut digest = vec![0u8; l.digest_bytes()];
        let mut length = 0u32;
        for j in 0..self.blocks() {
            let block = if j < used {
                hash.block(msg, j)
            } else {
                vec![0; hash.block_bytes().len()]
            };
            let plain = hash.instance_input(previous.as_deref(), &block);
            let mut row = vec![0u64; l.input_bits().div_ceil(64)];
            let state = match (hash.absorbs(), &previous) {
                (true, Some(out)) => out.clone(),
                (true, None) => vec![0; l.state_bytes()],
                (false, _) => plain[hash.chained()].to_vec(),
            };
            put_bytes(&mut row, l.state_at(), &state);
            put_bytes(&mut row, l.digest_at(), &digest);
            let start = rate * j;
            let inside = |p: usize| p < len;
            if hash == Hash::Blake3 {
                put_bit(&mut row, l.inside_at(), inside(start));
                put_bit(&mut row, l.index_at(), j == 0);
                for i in 0..rate {
                    put_bit(&mut row, l.continues_at() + i, inside(start + i + 1));
                }
            } else {
                put_bit(&mut row, l.inside_at(), j == 0 || inside(start - 1));
                for i in 0..rate {
                    put_bit(&mut row, l.continues_at() + i, inside(start + i));
                }
            }
            if l.has_length() {
                put_bytes(&mut row, l.length_at(), &length.to_le_bytes());
                put_bit(&mut row, l.overflow_at(), j == edge_block + 1 && in_field);
                put_bytes(&mut row, l.index_at(), &(j as u32).to_le_bytes());
            }
            put_bytes(
                &mut row,
                l.message_at(),
                &msg[start.min(len)..(start + rate).min(len)],
            );
            rows.push(row);
            let out = hash.compress(&plain);
            if j + 1 == used {
                digest.copy_from_slice(&out[..l.digest_bytes()]);
            }
            if j == edge_block {
                length = len as u32;
            }
            previous = Some(out);
        }
        (rows, digest)
    }

    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`)
    /// from the digests and the private messages, one each.
    pub fn instance_rows(&self, digests: &Records, messages: &Records) -> Result<Vec<u64>, Error> {
        let mut rows = Vec::with_capacity(digests.len() * self.blocks() * self.circuit.input_words());
        for (m, (digest, msg)) in digests.iter().zip(messages.iter()).enumerate() {
            self.check_length(msg)
                .map_err(|e| Error::Input(format!("message {m}: {e}")))?;
            let (message_rows, computed) = self.message_rows(msg);
            if computed != digest {
                return Err(Error::False(format!(
                    "message {m}: its {} digest is not the public digest",
                    self.hash.name()
                )));
            }
            rows.extend(message_rows.into_iter().flatten());
        }
        Ok(rows)
    }

    /// The public and the private record of a prover's line, the message in
    /// hex (`starling::kind::KindProver::parse_prover_line`): the digest and
    /// the message.
    pub fn parse_secret_line(&self, fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        expect_fields(fields, "MESSAGE", 1).map_err(PrivateInputError::Unreadable)?;
        let msg = hex_bytes(fields[0], "message").map_err(PrivateInputError::Unreadable)?;
        self.check_length(&msg).map_err(PrivateInputError::Unreadable)?;
        Ok((self.hash.digest(&msg), msg))
    }

    /// Refuses a message longer than `max_len`.
    fn check_length(&self, msg: &[u8]) -> Result<(), String> {
        if msg.len() > self.max_len {
            return Err(format!(
                "the message has {} bytes, more than the --max-len of {}",
                msg.len(),
                self.max_len
            ));
        }
        Ok(())
    }

    /// `count` random messages of random lengths `0..=max_len` from the
    /// random bytes `fill` writes: the digests (public) and the messages
    /// (private). For tests and benchmarks (`starling::kind::SamplePreimages`
    /// draws them from a seed).
    pub fn random_batch_from(&self, count: usize, fill: &mut dyn FnMut(&mut [u8])) -> (Records, Records) {
        let (mut digests, mut messages) = (Records::new(), Records::new());
        for _ in 0..count {
            let mut len = [0u8; 4];
            fill(&mut len);
            let mut msg = vec![0u8; u32::from_le_bytes(len) as usize % (self.max_len + 1)];
            fill(&mut msg);
            digests.push(&self.hash.digest(&msg));
            messages.push(&msg);
        }
        (digests, messages)
    }

    /// The text of a prover's lines (one message each) for these messages.
    pub fn prover_lines(&self, messages: &Records) -> String {
        messages.iter().map(|m| bytes_line(m) + "\n").collect()
    }

    /// The constant carried inputs `0..end` of a message's first block, as
    /// bits: the initial state, then zeros (the digest register, SHA-2's
    /// length and overflow bit) but for the thermometer's carry-in, 1.
    fn first_carried(&self, end: usize) -> Vec<u64> {
        let l = self.layout;
        let mut bits = vec![0u64; l.carried_bits().div_ceil(64)];
        let state = if self.hash.absorbs() {
            vec![0; l.state_bytes()]
        } else {
            self.hash.initial_chained()
        };
        put_bytes(&mut bits, l.state_at(), &state);
        if l.inside_at() < end {
            put_bit(&mut bits, l.inside_at(), true);
        }
        bits.truncate(end.div_ceil(64));
        bits
    }
}

/// Writes `bytes` into a row of bits from bit `at` (byte `b`, bit `t` at
/// `at + 8 b + t`).
pub(crate) fn put_bytes(row: &mut [u64], at: usize, bytes: &[u8]) {
    for (b, &byte) in bytes.iter().enumerate() {
        for t in 0..8 {
            put_bit(row, at + 8 * b + t, (byte >> t) & 1 == 1);
        }
    }
}

/// Sets bit `at` of a row of bits to `bit`.
pub(crate) fn put_bit(row: &mut [u64], at: usize, bit: bool) {
    let mask = 1u64 << (at % 64);
    if bit {
        row[at / 64] |= mask;
    } else {
        row[at / 64] &= !mask;
    }
}

/// The instances `y < total` that `pick` takes.
pub(crate) fn instance_set(total: usize, pick: impl Fn(usize) -> bool) -> Instances {
    let mut bits = vec![0u64; total.div_ceil(64)];
    for y in (0..total).filter(|&y| pick(y)) {
        bits[y / 64] |= 1 << (y % 64);
    }
    Instances::Set(bits.into())
}

impl Kind for Preimage {
    fn name(&self) -> String {
        format!("preimage --hash {} --max-len {}", self.hash.name(), self.max_len)
    }

    fn code(&self) -> u8 {
        10
    }

    fn params(&self) -> Vec<u8> {
        let mut params = vec![self.hash.code()];
        params.extend_from_slice(&(self.max_len as u32).to_le_bytes());
        params
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "preimage"
    }

    fn input_size(&self) -> Option<usize> {
        Some(self.hash.digest_bytes())
    }

    fn output_size(&self) -> Option<usize> {
        // No outputs; a file that claims some gives each a length, and its
        // statement is refused.
        None
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        if let Some(d) = inputs.iter().position(|d| d.len() != self.hash.digest_bytes()) {
            return Err(format!("digest {d} is not {} bytes", self.hash.digest_bytes()));
        }
        let instances = (inputs.len() as u64).saturating_mul(self.blocks() as u64);
        if instances > MAX_INSTANCES {
            return Err(format!(
                "{} messages of up to {} bytes take {instances} blocks, more than the {MAX_INSTANCES} one proof holds",
                inputs.len(),
                self.max_len
            ));
        }
        Ok(StatementShape {
            count: inputs.len() as u64,
            outputs: 0,
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        inputs.len() * self.blocks()
    }

    fn has_private_inputs(&self) -> bool {
        true
    }

    fn requires_zero_knowledge(&self) -> bool {
        true
    }

    fn relations<'a>(&'a self, inputs: &'a Records, _outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let (l, blocks) = (self.layout, self.blocks());
        let total = inputs.len() * blocks;
        let every = Instances::Range { start: 0, end: total };
        let at = |j: usize| {
            if blocks == 1 {
                every.clone()
            } else {
                instance_set(total, |y| y % blocks == j)
            }
        };
        let (first, last) = (at(0), at(blocks - 1));
        let mut relations = vec![Relation::constant_wire(n)];
        // BLAKE3's carry-in of a first block (whether the message has a
        // byte) is private; its first-block bit is public.
        let first_constant = if self.hash == Hash::Blake3 {
            relations.push(Relation {
                instances: first.clone(),
                wires: self.circuit.input_bit_wires(l.index_at()..l.index_at() + 1),
                from: None,
                values: Values::Constant(vec![1]),
            });
            0..l.inside_at()
        } else {
            0..l.carried_bits()
        };
        relations.push(Relation {
            instances: first,
            values: Values::Constant(self.first_carried(first_constant.end)),
            wires: self.circuit.input_bit_wires(first_constant),
            from: None,
        });
        if blocks > 1 {
            let later = instance_set(total, |y| y % blocks != 0);
            let carried = 0..l.carried_bits();
            relations.push(Relation {
                instances: later.clone(),
                wires: self.circuit.input_bit_wires(carried.clone()),
                from: Some((Source::Previous, self.circuit.output_bit_wires(carried))),
                values: Values::Zero,
            });
            if self.hash == Hash::Blake3 {
                relations.push(Relation {
                    instances: later,
                    wires: self.circuit.input_bit_wires(l.index_at()..l.index_at() + 1),
                    from: None,
                    values: Values::Constant(vec![0]),
                });
            }
        }
        if l.has_length() {
            relations.push(Relation {
                instances: every.clone(),
                wires: self
                    .circuit
                    .input_bit_wires(l.index_at()..l.index_at() + LENGTH_BITS),
                from: None,
                values: Values::PerInstance(alloc::boxed::Box::new(move |y, out: &mut [u64]| {
                    out[0] = (y % blocks) as u64;
                })),
            });
        }
        let (bound_block, bound_bit) = self.bound();
        relations.push(Relation {
            instances: at(bound_block),
            wires: self.circuit.input_bit_wires(bound_bit..bound_bit + 1),
            from: None,
            values: Values::Constant(vec![0]),
        });
        let digest = l.digest_at()..l.digest_at() + 8 * l.digest_bytes();
        relations.push(Relation {
            instances: last,
            wires: self.circuit.output_bit_wires(digest),
            from: None,
            values: Values::PerInstance(alloc::boxed::Box::new(move |y, out: &mut [u64]| {
                out.copy_from_slice(&row_of(inputs.get(y / blocks))[..out.len()]);
            })),
        });
        relations
    }
}

impl TextFormat for Preimage {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "DIGEST", 1)?;
        hex_field(fields[0], self.hash.digest_bytes(), "digest")
    }

    fn format_input(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        vec![("digest".into(), 0..record.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::R1cs;
    use sha2::Digest as _;

    /// The digest of `msg` under `hash` from the reference crates.
    fn reference(hash: Hash, msg: &[u8]) -> Vec<u8> {
        match hash {
            Hash::Sha256 => sha2::Sha256::digest(msg).to_vec(),
            Hash::Sha512 => sha2::Sha512::digest(msg).to_vec(),
            Hash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
            Hash::Keccak256 => sha3::Keccak256::digest(msg).to_vec(),
            Hash::Blake3 => blake3::hash(msg).as_bytes().to_vec(),
        }
    }

    fn bits_of(row: &[u64], len: usize) -> Vec<bool> {
        (0..len).map(|i| (row[i / 64] >> (i % 64)) & 1 == 1).collect()
    }

    fn outputs(r1cs: &R1cs, z: &[bool]) -> Vec<bool> {
        (0..r1cs.num_public_outputs())
            .map(|j| z[r1cs.public_output_wire(j)])
            .collect()
    }

    /// Runs the block circuit on one message's rows, one instance after the
    /// other, checking every row and what the statement binds (first
    /// blocks' constants, the links, the bound, the block indices); returns
    /// the last block's digest register.
    fn run_blocks(kind: &Preimage, rows: &[Vec<u64>]) -> Vec<u8> {
        let (l, r1cs) = (kind.layout, kind.circuit.r1cs());
        let carried = l.carried_bits();
        let first_end = if kind.hash == Hash::Blake3 {
            l.inside_at()
        } else {
            carried
        };
        let first = bits_of(&kind.first_carried(first_end), first_end);
        let (bound_block, bound_bit) = kind.bound();
        let mut previous: Option<Vec<bool>> = None;
        for (j, row) in rows.iter().enumerate() {
            let input = bits_of(row, l.input_bits());
            match &previous {
                None => assert_eq!(input[..first_end], first[..], "first block's constants"),
                Some(out) => assert_eq!(input[..carried], out[..], "block {j}'s link"),
            }
            if l.has_length() {
                let index = (0..32).fold(0usize, |v, i| v | (usize::from(input[l.index_at() + i]) << i));
                assert_eq!(index, j);
            } else if kind.hash == Hash::Blake3 {
                assert_eq!(input[l.index_at()], j == 0);
            }
            if j == bound_block {
                assert!(!input[bound_bit], "the bound");
            }
            let z = r1cs.evaluate_instance(&input, &[]);
            assert!(r1cs.is_satisfied_instance(&z));
            previous = Some(outputs(r1cs, &z));
        }
        let out = previous.expect("a block");
        (0..l.digest_bytes())
            .map(|b| (0..8).fold(0u8, |v, t| v | (u8::from(out[l.digest_at() + 8 * b + t]) << t)))
            .collect()
    }

    fn message(len: usize, seed: u64) -> Vec<u8> {
        let mut msg = vec![0u8; len];
        crate::kind::test_bytes(seed)(&mut msg);
        msg
    }

    #[test]
    fn blocks_compute_the_reference_digests_at_every_boundary() {
        let cases: [(Hash, usize, &[usize]); 6] = [
            (
                Hash::Sha256,
                130,
                &[
                    0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129, 130,
                ],
            ),
            (Hash::Sha512, 240, &[0, 1, 111, 112, 113, 127, 128, 129, 239, 240]),
            (
                Hash::Sha3_256,
                300,
                &[0, 1, 134, 135, 136, 137, 271, 272, 299, 300],
            ),
            (Hash::Keccak256, 136, &[0, 1, 135, 136]),
            (Hash::Blake3, 130, &[0, 1, 63, 64, 65, 127, 128, 129, 130]),
            (Hash::Blake3, 0, &[0]),
        ];
        for (hash, max_len, lengths) in cases {
            let kind = Preimage::new(hash, max_len).unwrap();
            for &len in lengths {
                let msg = message(len, len as u64 + 1);
                let (rows, digest) = kind.message_rows(&msg);
                assert_eq!(rows.len(), kind.blocks());
                let want = reference(hash, &msg);
                assert_eq!(digest, want, "{} native, {len} bytes", hash.name());
                assert_eq!(
                    run_blocks(&kind, &rows),
                    want,
                    "{} circuit, {len} bytes",
                    hash.name()
                );
            }
        }
    }

    #[test]
    fn every_length_up_to_two_blocks_of_sha256() {
        let kind = Preimage::new(Hash::Sha256, 64).unwrap();
        for len in 0..=64 {
            let msg = message(len, 7);
            let (rows, _) = kind.message_rows(&msg);
            assert_eq!(
                run_blocks(&kind, &rows),
                reference(Hash::Sha256, &msg),
                "{len} bytes"
            );
        }
    }

    #[test]
    fn a_thermometer_that_rises_again_leaves_the_message_where_it_fell() {
        // `continues` set again after the edge: the thermometer stays at 0,
        // so the circuit still hashes the 10-byte message.
        let kind = Preimage::new(Hash::Sha256, 64).unwrap();
        let msg = message(10, 3);
        let (mut rows, _) = kind.message_rows(&msg);
        let at = kind.layout.continues_at() + 20;
        rows[0][at / 64] |= 1 << (at % 64);
        assert_eq!(run_blocks(&kind, &rows), reference(Hash::Sha256, &msg));
    }

    #[test]
    fn messages_longer_than_max_len_are_refused() {
        let kind = Preimage::new(Hash::Sha256, 4).unwrap();
        let e = kind.parse_secret_line(&["0102030405"]).unwrap_err();
        assert_eq!(
            e,
            PrivateInputError::Unreadable("the message has 5 bytes, more than the --max-len of 4".into())
        );
        let (digest, msg) = kind.parse_secret_line(&["01020304"]).unwrap();
        assert_eq!(
            (digest, msg),
            (reference(Hash::Sha256, &[1, 2, 3, 4]), vec![1, 2, 3, 4])
        );
        assert_eq!(kind.parse_secret_line(&["-"]).unwrap().1, Vec::<u8>::new());
        let digests: Records = [reference(Hash::Sha256, &[0; 5]).as_slice()]
            .into_iter()
            .collect();
        let messages: Records = [[0u8; 5].as_slice()].into_iter().collect();
        let e = alloc::string::ToString::to_string(&kind.instance_rows(&digests, &messages).unwrap_err());
        assert!(
            e.contains("message 0: the message has 5 bytes, more than the --max-len of 4"),
            "{e}"
        );
        assert!(Preimage::new(Hash::Blake3, 1025).is_err());
        assert!(Preimage::new(Hash::Blake3, 1024).is_ok());
    }

    #[test]
    fn parameters_round_trip_and_bad_ones_are_malformed() {
        for hash in Hash::ALL {
            let kind = Preimage::new(hash, 77).unwrap();
            let back = Preimage::from_params(&kind.params()).unwrap();
            assert_eq!((back.hash(), back.max_len()), (hash, 77));
            assert_eq!(
                kind.name(),
                format!("preimage --hash {} --max-len 77", hash.name())
            );
        }
        for bad in [
            &[][..],
            &[1, 0, 0, 0],
            &[1, 0, 0, 0, 0, 0],
            &[99, 1, 0, 0, 0],
            &[4, 1, 4, 0, 0],
        ] {
            assert!(
                matches!(Preimage::from_params(bad), Err(Error::Malformed(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn text_lines_are_digests() {
        let kind = Preimage::new(Hash::Sha512, 10).unwrap();
        let digest = reference(Hash::Sha512, b"abc");
        let line = hex::encode(&digest);
        assert_eq!(kind.parse_input(&[&line]).unwrap(), digest);
        assert_eq!(kind.format_input(&digest), line);
        assert!(kind
            .parse_input(&["616263"])
            .unwrap_err()
            .contains("expected 128"));
    }
}
