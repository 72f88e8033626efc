//! How a signature scheme's verification algorithm hashes, written once
//! per scheme as a walk over a [`Hasher`]: plainly ([`Native`], the native
//! verifier benchmarks compare with), or keeping the input row of every
//! compression ([`Trace`], the prover's instances).

use std::ops::Range;

use starling_circuit::sha256::SHA256_IV;

use crate::hashes::Hash;

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

/// SHA-256 as a verification walk calls it.
pub trait Hasher {
    /// SHA-256 of `message`.
    fn hash(&mut self, message: &[u8], part: Part, node: PathNode<'_>) -> [u8; 32];

    /// SHA-256 of a message whose first block has been compressed into
    /// `state` already, given the bytes after that block.
    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32];
}

/// Plain SHA-256 (the `sha2` crate, with the SHA extensions where the CPU
/// has them), counting compression calls.
#[derive(Default)]
pub struct Native {
    /// Compressions so far.
    pub calls: u64,
}

impl Hasher for Native {
    fn hash(&mut self, message: &[u8], _: Part, _: PathNode<'_>) -> [u8; 32] {
        self.continue_from(SHA256_IV, message, 0)
    }

    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32] {
        self.continue_from(words_of(state), tail, 64)
    }
}

impl Native {
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
    /// An empty trace of rows of `row_bytes`.
    pub fn new(row_bytes: usize) -> Self {
        Trace {
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
            // The path-step circuit's `P` (after the chaining value and
            // block), then its direction bit.
            if let Some((below, right)) = node {
                let at = start + 96;
                out[at..at + below.len()].copy_from_slice(below);
                out[at + below.len()] = right as u8;
            }
        }
    }
}

impl Hasher for Trace {
    fn hash(&mut self, message: &[u8], part: Part, node: PathNode<'_>) -> [u8; 32] {
        let (rows, digest) = Hash::Sha256.instances(message);
        self.push(rows, part, node);
        digest.try_into().expect("a SHA-256 digest")
    }

    fn hash_seeded(&mut self, state: &[u8; 32], tail: &[u8]) -> [u8; 32] {
        let (rows, digest) = seeded_rows(state, tail);
        self.push(rows, Part::Rest, None);
        digest
    }
}

/// Bytes `range` of block `k` of a SHA-256 message of `len` bytes with its
/// padding, byte `i` of the message being `byte(i)`, into `out` (one byte
/// per byte of the range): what a verifier's public values are built from,
/// without copying the message or building bytes no relation reads.
pub fn padded_bytes(len: usize, k: usize, range: Range<usize>, byte: impl Fn(usize) -> u8, out: &mut [u8]) {
    let total = 64 * Hash::Sha256.blocks(len);
    let bits = (8 * len as u64).to_be_bytes();
    for (o, i) in out.iter_mut().zip(range) {
        let at = 64 * k + i;
        *o = if at < len {
            byte(at)
        } else if at == len {
            0x80
        } else if at >= total - 8 {
            bits[at - (total - 8)]
        } else {
            0
        };
    }
}
