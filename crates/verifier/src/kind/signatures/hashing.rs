//! How a signature scheme's verification algorithm hashes, written once
//! per scheme as a walk over a [`Hasher`]: plainly ([`Native`], the native
//! verifier benchmarks compare with), or keeping the input row of every
//! compression ([`Trace`], the prover's rows). The hash is SHA-256 or
//! SHA-512 (a row per compression) or SHAKE256 (a row per permutation of
//! its sponge), [`RowHash`]; each row is a call in a lane of the instance
//! circuit ([`Lane`]), and a scheme that hashes with two (SLH-DSA's SHA-2
//! sets at 192 and 256 bits) keeps each one's rows in its own group of
//! lanes.

use alloc::vec;
use alloc::vec::Vec;

use core::ops::Range;

use crate::circuit::keccak::bytes_from_lanes;
use crate::circuit::keccak_path_step::{RATE_BYTES, STATE_BYTES};
use crate::circuit::sha256::SHA256_IV;
use crate::circuit::sha512::SHA512_IV;
use crate::circuit::Gadget;

use crate::hashes::Hash;

/// The hash of a scheme's instances, and where its rows hold what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowHash {
    /// SHA-256: a row is the chaining value (32 bytes) and a 64-byte block.
    Sha256,
    /// SHA-512: a row is the chaining value (64 bytes) and a 128-byte block.
    Sha512,
    /// SHAKE256: a row is the sponge's state (200 bytes) and a 136-byte
    /// rate block XORed into it; the output is the state's first bytes.
    Shake256,
}

impl RowHash {
    /// Bytes of a block.
    pub fn block_bytes(self) -> usize {
        match self {
            RowHash::Sha256 => 64,
            RowHash::Sha512 => 128,
            RowHash::Shake256 => RATE_BYTES,
        }
    }

    /// Bytes of the chained part that starts a row (and an output).
    pub fn state_bytes(self) -> usize {
        match self {
            RowHash::Sha256 => 32,
            RowHash::Sha512 => 64,
            RowHash::Shake256 => STATE_BYTES,
        }
    }

    /// Bytes of a digest (SHAKE256: of one squeezed block).
    pub fn digest_bytes(self) -> usize {
        match self {
            RowHash::Sha256 => 32,
            RowHash::Sha512 => 64,
            RowHash::Shake256 => RATE_BYTES,
        }
    }

    /// The SHA-2 hash these rows compress with; `None` for SHAKE256.
    fn sha2(self) -> Option<Hash> {
        match self {
            RowHash::Sha256 => Some(Hash::Sha256),
            RowHash::Sha512 => Some(Hash::Sha512),
            RowHash::Shake256 => None,
        }
    }

    /// Blocks of a message of `len` bytes, padded.
    pub fn blocks(self, len: usize) -> usize {
        match self.sha2() {
            Some(sha2) => sha2.blocks(len),
            None => (len + 1).div_ceil(RATE_BYTES),
        }
    }

    /// The chained part of a hash's first row: SHA-2's IV, or the zero
    /// state.
    pub fn first_state(self) -> Vec<u8> {
        match self.sha2() {
            Some(sha2) => sha2.initial_chained(),
            None => vec![0; STATE_BYTES],
        }
    }

    /// Bytes `range` of block `k` of a message of `len` bytes with its
    /// padding, byte `i` of the message being `byte(i)`, into `out` (one
    /// byte per byte of the range): what a verifier's public values are
    /// built from, without copying the message or building bytes no
    /// relation reads. SHA-2 pads `0x80`, zeros and the bit length (8
    /// bytes for SHA-256, 16 for SHA-512); SHAKE256 `0x1F`, zeros and a
    /// last byte ORed with `0x80`.
    pub fn padded_bytes(
        self,
        len: usize,
        k: usize,
        range: Range<usize>,
        byte: impl Fn(usize) -> u8,
        out: &mut [u8],
    ) {
        let total = self.block_bytes() * self.blocks(len);
        let bits = (8 * len as u128).to_be_bytes();
        let length_at = total - self.block_bytes() / 8;
        for (o, i) in out.iter_mut().zip(range) {
            let at = self.block_bytes() * k + i;
            *o = match self {
                _ if at < len => byte(at),
                RowHash::Sha256 | RowHash::Sha512 if at == len => 0x80,
                RowHash::Sha256 | RowHash::Sha512 if at >= length_at => bits[16 - (total - at)],
                RowHash::Shake256 => {
                    let domain = if at == len { 0x1f } else { 0 };
                    let last = if at == total - 1 { 0x80 } else { 0 };
                    domain | last
                }
                _ => 0,
            };
        }
    }

    /// The rows of `message` (chained part, then block) and its output
    /// ([`RowHash::digest_bytes`]).
    fn rows(self, message: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
        match self.sha2() {
            Some(sha2) => sha2.instances(message),
            None => {
                let mut rows = Vec::with_capacity(self.blocks(message.len()));
                let (_, state) = shake256(
                    message,
                    Some(&mut |state, block| rows.push([state, block].concat())),
                );
                (rows, state[..RATE_BYTES].to_vec())
            }
        }
    }
}

/// Where a sponge's rows go: each permutation's state and block.
type RowSink<'a> = &'a mut dyn FnMut(&[u8], &[u8]);

/// The first bytes of SHAKE256 of `message` (the final state; one rate
/// block's are output), and its blocks, telling `row`, if any, each
/// permutation's input (the state before the block is XORed in, and the
/// block). The block is XORed into the lanes (little-endian words, FIPS
/// 202's byte order), the permutation the `keccak` crate's.
fn shake256(message: &[u8], mut row: Option<RowSink<'_>>) -> (usize, [u8; STATE_BYTES]) {
    let blocks = RowHash::Shake256.blocks(message.len());
    let mut lanes = [0u64; 25];
    let mut block = [0u8; RATE_BYTES];
    for k in 0..blocks {
        RowHash::Shake256.padded_bytes(message.len(), k, 0..RATE_BYTES, |i| message[i], &mut block);
        if let Some(row) = row.as_mut() {
            row(&bytes_from_lanes(&lanes), &block);
        }
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane ^= u64::from_le_bytes(word.try_into().expect("8 bytes"));
        }
        keccak::f1600(&mut lanes);
    }
    (blocks, bytes_from_lanes(&lanes))
}

/// Which region of the layout a hash's compressions join: the message
/// hashes, laid out first for all signatures (so that the public values
/// they output sit where the messages' lengths alone say), or the rest.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The message hash (LMS's `Q`, SLH-DSA's `H_msg`).
    Message,
    /// Everything after it.
    Rest,
}

/// A Merkle path node's compressions are told the node below and whether it
/// is the right child (the path-step circuit checks its side).
pub type PathNode<'a> = Option<(&'a [u8], bool)>;

/// The hash as a verification walk calls it.
pub trait Hasher {
    /// The first 32 bytes of the hasher's hash (its first lane's) of
    /// `message`.
    fn hash(&mut self, message: &[u8], part: Part, node: PathNode<'_>) -> [u8; 32] {
        let hash = self.first_hash();
        self.hash_long(hash, message, part, node, 32)
            .try_into()
            .expect("32 bytes")
    }

    /// The first `len` bytes of `hash` of `message` (at most its digest,
    /// or one rate block of SHAKE256).
    fn hash_long(
        &mut self,
        hash: RowHash,
        message: &[u8],
        part: Part,
        node: PathNode<'_>,
        len: usize,
    ) -> Vec<u8>;

    /// SHA-2 (`hash`) of a message whose first block has been compressed
    /// into `state` already, given the bytes after that block: the digest.
    fn hash_seeded(&mut self, hash: RowHash, state: &[u8], tail: &[u8]) -> Vec<u8>;

    /// The hash [`Hasher::hash`] computes.
    fn first_hash(&self) -> RowHash;
}

/// The hash computed plainly (SHA-256 by the `sha2` crate, with the SHA
/// extensions where the CPU has them; SHAKE256 over the `keccak` crate's
/// permutation), counting compressions or permutations.
pub struct Native {
    hash: RowHash,
    /// Compressions (permutations) so far.
    pub calls: u64,
}

impl Hasher for Native {
    fn hash_long(&mut self, hash: RowHash, message: &[u8], _: Part, _: PathNode<'_>, len: usize) -> Vec<u8> {
        assert!(len <= hash.digest_bytes(), "at most a digest");
        match hash {
            RowHash::Sha256 => self.continue_from(SHA256_IV, message, 0)[..len].to_vec(),
            RowHash::Sha512 => self.continue_from512(SHA512_IV, message, 0)[..len].to_vec(),
            RowHash::Shake256 => {
                let (blocks, state) = shake256(message, None);
                self.calls += blocks as u64;
                state[..len].to_vec()
            }
        }
    }

    fn hash_seeded(&mut self, hash: RowHash, state: &[u8], tail: &[u8]) -> Vec<u8> {
        match hash {
            RowHash::Sha256 => self.continue_from(words_of(state), tail, 64).to_vec(),
            RowHash::Sha512 => self.continue_from512(words64_of(state), tail, 128).to_vec(),
            RowHash::Shake256 => panic!("seeded hashes are SHA-2's"),
        }
    }

    fn first_hash(&self) -> RowHash {
        self.hash
    }
}

impl Native {
    /// Counting calls of `hash`.
    pub fn new(hash: RowHash) -> Self {
        Native { hash, calls: 0 }
    }

    /// SHA-256 from `state`, after `before` bytes (whole blocks) already
    /// compressed into it, over `rest`: padded on the stack when that is
    /// at most four blocks (every hash of a signature but the message's,
    /// LMS's `Kc` and SLH-DSA's `T`), and compressed block by block.
    fn continue_from(&mut self, mut words: [u32; 8], rest: &[u8], before: usize) -> [u8; 32] {
        use sha2::digest::generic_array::GenericArray;
        let len = before + rest.len();
        let blocks = Hash::Sha256.blocks(len) - before / 64;
        self.calls += blocks as u64;
        let mut short = [0u8; 256];
        let mut long = Vec::new();
        let padded = if 64 * blocks <= short.len() {
            &mut short[..64 * blocks]
        } else {
            long.resize(64 * blocks, 0);
            &mut long[..]
        };
        padded[..rest.len()].copy_from_slice(rest);
        padded[rest.len()] = 0x80;
        let end = padded.len();
        padded[end - 8..].copy_from_slice(&(8 * len as u64).to_be_bytes());
        for block in padded.chunks_exact(64) {
            sha2::compress256(&mut words, &[*GenericArray::from_slice(block)]);
        }
        bytes_of(&words)
    }

    /// [`Native::continue_from`] for SHA-512 (the `sha2` crate's
    /// `compress512`); its calls are short (`H`, `T`, `H_msg`), so the
    /// padded message is built on the heap.
    fn continue_from512(&mut self, mut words: [u64; 8], rest: &[u8], before: usize) -> [u8; 64] {
        use sha2::digest::generic_array::GenericArray;
        let len = before + rest.len();
        let blocks = Hash::Sha512.blocks(len) - before / 128;
        self.calls += blocks as u64;
        let mut padded = vec![0u8; 128 * blocks];
        padded[..rest.len()].copy_from_slice(rest);
        padded[rest.len()] = 0x80;
        let end = padded.len();
        padded[end - 16..].copy_from_slice(&(8 * len as u128).to_be_bytes());
        for block in padded.chunks_exact(128) {
            sha2::compress512(&mut words, &[*GenericArray::from_slice(block)]);
        }
        let mut out = [0u8; 64];
        for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

fn words_of(state: &[u8]) -> [u32; 8] {
    core::array::from_fn(|w| u32::from_be_bytes(state[4 * w..4 * w + 4].try_into().expect("4 bytes")))
}

fn words64_of(state: &[u8]) -> [u64; 8] {
    core::array::from_fn(|w| u64::from_be_bytes(state[8 * w..8 * w + 8].try_into().expect("8 bytes")))
}

fn bytes_of(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// The rows of `SHA-2(first ‖ tail)` (`sha2` is SHA-256 or SHA-512) after
/// its first block, whose state is `state` (chaining value and block), and
/// the digest.
pub fn seeded_rows(sha2: Hash, state: &[u8], tail: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let bb = sha2.block_len();
    let len = bb + tail.len();
    let blocks = sha2.blocks(len) - 1;
    let mut cv = state.to_vec();
    let mut rows = Vec::with_capacity(blocks);
    for k in 0..blocks {
        let chunk = &tail[(bb * k).min(tail.len())..(bb * k + bb).min(tail.len())];
        let block = sha2.block_of(len, k + 1, chunk);
        let row = sha2.instance_input(Some(&cv), &block);
        cv = sha2.compress(&row);
        rows.push(row);
    }
    (rows, cv)
}

/// A group of lanes of a signature statement's instance circuit
/// ([`crate::circuit::lanes`]): `copies` lanes of one gadget computing
/// one hash's calls, and where the group's first lane's bytes sit in an
/// instance's input and output rows (its other lanes follow it). A scheme
/// with one hash has one group; SLH-DSA's SHA-2 sets at 192 and 256 bits
/// have a SHA-256 and a SHA-512 group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// The hash.
    pub hash: RowHash,
    /// The gadget of each lane.
    pub gadget: Gadget,
    /// Lanes of the group.
    pub copies: usize,
    /// First input byte of the group.
    pub input_at: usize,
    /// Input bytes of one lane's row (the chained part, the block, and for
    /// a path step `P` and its bit).
    pub input_bytes: usize,
    /// First output byte of the group.
    pub output_at: usize,
    /// Output bytes of one lane.
    pub output_bytes: usize,
}

impl Lane {
    /// The groups of `copies` lanes of each `(hash, gadget, copies)`, in
    /// order.
    pub fn groups(groups: &[(RowHash, Gadget, usize)]) -> Vec<Lane> {
        let (mut input_at, mut output_at) = (0, 0);
        groups
            .iter()
            .map(|&(hash, gadget, copies)| {
                let lane = Lane {
                    hash,
                    gadget,
                    copies,
                    input_at,
                    input_bytes: gadget.input_stride() / 8,
                    output_at,
                    output_bytes: gadget.output_stride() / 8,
                };
                input_at += copies * lane.input_bytes;
                output_at += copies * lane.output_bytes;
                lane
            })
            .collect()
    }
}

/// The rows of one lane of a trace.
#[derive(Clone, Debug, Default)]
pub struct LaneRows {
    /// The message hash's rows.
    pub message_rows: Vec<u8>,
    /// The other rows, in layout order.
    pub rows: Vec<u8>,
}

/// A verified signature's instance rows, lane by lane, and the public
/// values it outputs.
pub struct Trace {
    lanes: Vec<Lane>,
    /// Each lane's rows, in the order of `lanes`.
    pub rows: Vec<LaneRows>,
    /// The signature's output record (its public values beside the key and
    /// message), which the scheme's walk sets.
    pub output: Vec<u8>,
}

impl Trace {
    /// An empty trace of rows in `lanes` (at least one, a hash in one lane
    /// at most).
    pub fn of(lanes: &[Lane]) -> Self {
        assert!(!lanes.is_empty(), "a lane at least");
        Trace {
            lanes: lanes.to_vec(),
            rows: vec![LaneRows::default(); lanes.len()],
            output: Vec::new(),
        }
    }

    fn push(&mut self, hash: RowHash, rows: Vec<Vec<u8>>, part: Part, node: PathNode<'_>) {
        let i = self
            .lanes
            .iter()
            .position(|l| l.hash == hash)
            .expect("a lane of the hash");
        let row_bytes = self.lanes[i].input_bytes;
        let out = match part {
            Part::Message => &mut self.rows[i].message_rows,
            Part::Rest => &mut self.rows[i].rows,
        };
        for row in rows {
            let start = out.len();
            out.extend(&row);
            out.resize(start + row_bytes, 0);
            // The path-step circuit's `P` (after the chained part and the
            // block), then its direction bit.
            if let Some((below, right)) = node {
                let at = start + hash.state_bytes() + hash.block_bytes();
                out[at..at + below.len()].copy_from_slice(below);
                out[at + below.len()] = right as u8;
            }
        }
    }
}

impl Hasher for Trace {
    fn hash_long(
        &mut self,
        hash: RowHash,
        message: &[u8],
        part: Part,
        node: PathNode<'_>,
        len: usize,
    ) -> Vec<u8> {
        assert!(len <= hash.digest_bytes(), "at most a digest");
        let (rows, mut digest) = hash.rows(message);
        self.push(hash, rows, part, node);
        digest.truncate(len);
        digest
    }

    fn hash_seeded(&mut self, hash: RowHash, state: &[u8], tail: &[u8]) -> Vec<u8> {
        let (rows, digest) = seeded_rows(hash.sha2().expect("seeded hashes are SHA-2's"), state, tail);
        self.push(hash, rows, Part::Rest, None);
        digest
    }

    fn first_hash(&self) -> RowHash {
        self.lanes[0].hash
    }
}
