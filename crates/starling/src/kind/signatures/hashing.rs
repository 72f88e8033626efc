//! How a signature scheme's verification algorithm hashes, written once
//! per scheme as a walk over a [`Hasher`]: plainly ([`Native`], the native
//! verifier benchmarks compare with), or keeping the input row of every
//! compression ([`Trace`], the prover's instances). The hash is SHA-256
//! (an instance per compression) or SHAKE256 (an instance per permutation
//! of its sponge), [`RowHash`].

use std::ops::Range;

use starling_circuit::keccak::bytes_from_lanes;
use starling_circuit::keccak_path_step::{RATE_BYTES, STATE_BYTES};
use starling_circuit::sha256::SHA256_IV;

use crate::hashes::Hash;

/// The hash of a scheme's instances, and where its rows hold what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowHash {
    /// SHA-256: a row is the chaining value (32 bytes) and a 64-byte block.
    Sha256,
    /// SHAKE256: a row is the sponge's state (200 bytes) and a 136-byte
    /// rate block XORed into it; the output is the state's first bytes.
    Shake256,
}

impl RowHash {
    /// Bytes of a block.
    pub fn block_bytes(self) -> usize {
        match self {
            RowHash::Sha256 => 64,
            RowHash::Shake256 => RATE_BYTES,
        }
    }

    /// Bytes of the chained part that starts a row (and an output).
    pub fn state_bytes(self) -> usize {
        match self {
            RowHash::Sha256 => 32,
            RowHash::Shake256 => STATE_BYTES,
        }
    }

    /// Blocks of a message of `len` bytes, padded.
    pub fn blocks(self, len: usize) -> usize {
        match self {
            RowHash::Sha256 => Hash::Sha256.blocks(len),
            RowHash::Shake256 => (len + 1).div_ceil(RATE_BYTES),
        }
    }

    /// The chained part of a hash's first row: SHA-256's IV, or the zero
    /// state.
    pub fn first_state(self) -> Vec<u8> {
        match self {
            RowHash::Sha256 => Hash::Sha256.initial_chained(),
            RowHash::Shake256 => vec![0; STATE_BYTES],
        }
    }

    /// Bytes `range` of block `k` of a message of `len` bytes with its
    /// padding, byte `i` of the message being `byte(i)`, into `out` (one
    /// byte per byte of the range): what a verifier's public values are
    /// built from, without copying the message or building bytes no
    /// relation reads. SHA-256 pads `0x80`, zeros and the bit length;
    /// SHAKE256 `0x1F`, zeros and a last byte ORed with `0x80`.
    pub fn padded_bytes(
        self,
        len: usize,
        k: usize,
        range: Range<usize>,
        byte: impl Fn(usize) -> u8,
        out: &mut [u8],
    ) {
        let total = self.block_bytes() * self.blocks(len);
        let bits = (8 * len as u64).to_be_bytes();
        for (o, i) in out.iter_mut().zip(range) {
            let at = self.block_bytes() * k + i;
            *o = match self {
                RowHash::Sha256 if at < len => byte(at),
                RowHash::Sha256 if at == len => 0x80,
                RowHash::Sha256 if at >= total - 8 => bits[at - (total - 8)],
                RowHash::Shake256 if at < len => byte(at),
                RowHash::Shake256 => {
                    let domain = if at == len { 0x1f } else { 0 };
                    let last = if at == total - 1 { 0x80 } else { 0 };
                    domain | last
                }
                _ => 0,
            };
        }
    }

    /// The rows of `message` (chained part, then block) and its first 32
    /// bytes of output.
    fn rows(self, message: &[u8]) -> (Vec<Vec<u8>>, [u8; 32]) {
        match self {
            RowHash::Sha256 => {
                let (rows, digest) = Hash::Sha256.instances(message);
                (rows, digest.try_into().expect("a SHA-256 digest"))
            }
            RowHash::Shake256 => {
                let mut rows = Vec::with_capacity(self.blocks(message.len()));
                let (_, state) = shake256(
                    message,
                    Some(&mut |state, block| rows.push([state, block].concat())),
                );
                (rows, state[..32].try_into().expect("32 bytes"))
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
    /// The first 32 bytes of the hash of `message`.
    fn hash(&mut self, message: &[u8], part: Part, node: PathNode<'_>) -> [u8; 32];

    /// SHA-256 of a message whose first block has been compressed into
    /// `state` already, given the bytes after that block.
    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32];

    /// The first `len` bytes (at most one rate block) of SHAKE256 of
    /// `message`.
    fn hash_long(&mut self, message: &[u8], part: Part, len: usize) -> Vec<u8>;
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
    fn hash(&mut self, message: &[u8], _: Part, _: PathNode<'_>) -> [u8; 32] {
        match self.hash {
            RowHash::Sha256 => self.continue_from(SHA256_IV, message, 0),
            RowHash::Shake256 => self
                .hash_long(message, Part::Rest, 32)
                .try_into()
                .expect("32 bytes"),
        }
    }

    fn hash_long(&mut self, message: &[u8], _: Part, len: usize) -> Vec<u8> {
        assert_eq!(self.hash, RowHash::Shake256, "long outputs are SHAKE256's");
        assert!(len <= RATE_BYTES, "one block's output");
        let (blocks, state) = shake256(message, None);
        self.calls += blocks as u64;
        state[..len].to_vec()
    }

    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32] {
        assert_eq!(self.hash, RowHash::Sha256, "seeded hashes are SHA-256's");
        self.continue_from(words_of(state), tail, 64)
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
}

fn words_of(state: &[u8; 32]) -> [u32; 8] {
    std::array::from_fn(|w| u32::from_be_bytes(state[4 * w..4 * w + 4].try_into().expect("4 bytes")))
}

fn bytes_of(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_be_bytes());
    }
    out
}

/// The rows of `SHA-256(first ‖ tail)` after its first block, whose state is
/// `state` (chaining value and block, 96 bytes each), and the digest.
pub fn seeded_rows(state: &[u8; 32], tail: &[u8]) -> (Vec<Vec<u8>>, [u8; 32]) {
    let len = 64 + tail.len();
    let blocks = Hash::Sha256.blocks(len) - 1;
    let mut cv = state.to_vec();
    let mut rows = Vec::with_capacity(blocks);
    for k in 0..blocks {
        let chunk = &tail[(64 * k).min(tail.len())..(64 * k + 64).min(tail.len())];
        let block = Hash::Sha256.block_of(len, k + 1, chunk);
        let row = Hash::Sha256.instance_input(Some(&cv), &block);
        cv = Hash::Sha256.compress(&row);
        rows.push(row);
    }
    (rows, cv.try_into().expect("32 bytes"))
}

/// A verified signature's instance rows and the public values it outputs.
pub struct Trace {
    hash: RowHash,
    /// Bytes of an input row of the instance circuit.
    row_bytes: usize,
    /// The signature's output record (its public values beside the key and
    /// message), which the scheme's walk sets.
    pub output: Vec<u8>,
    /// The message hash's rows.
    pub message_rows: Vec<u8>,
    /// The other rows, in layout order.
    pub rows: Vec<u8>,
}

impl Trace {
    /// An empty trace of rows of `hash` of `row_bytes`.
    pub fn of(hash: RowHash, row_bytes: usize) -> Self {
        Trace {
            hash,
            row_bytes,
            output: Vec::new(),
            message_rows: Vec::new(),
            rows: Vec::new(),
        }
    }

    fn push(&mut self, rows: Vec<Vec<u8>>, part: Part, node: PathNode<'_>) {
        let out = match part {
            Part::Message => &mut self.message_rows,
            Part::Rest => &mut self.rows,
        };
        for row in rows {
            let start = out.len();
            out.extend(&row);
            out.resize(start + self.row_bytes, 0);
            // The path-step circuit's `P` (after the chained part and the
            // block), then its direction bit.
            if let Some((below, right)) = node {
                let at = start + self.hash.state_bytes() + self.hash.block_bytes();
                out[at..at + below.len()].copy_from_slice(below);
                out[at + below.len()] = right as u8;
            }
        }
    }
}

impl Hasher for Trace {
    fn hash(&mut self, message: &[u8], part: Part, node: PathNode<'_>) -> [u8; 32] {
        let (rows, digest) = self.hash.rows(message);
        self.push(rows, part, node);
        digest
    }

    fn hash_long(&mut self, message: &[u8], part: Part, len: usize) -> Vec<u8> {
        assert_eq!(self.hash, RowHash::Shake256, "long outputs are SHAKE256's");
        assert!(len <= RATE_BYTES, "one block's output");
        let mut rows = Vec::new();
        let (_, state) = shake256(
            message,
            Some(&mut |state, block| rows.push([state, block].concat())),
        );
        self.push(rows, part, None);
        state[..len].to_vec()
    }

    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32] {
        assert_eq!(self.hash, RowHash::Sha256, "seeded hashes are SHA-256's");
        let (rows, digest) = seeded_rows(state, tail);
        self.push(rows, Part::Rest, None);
        digest
    }
}
