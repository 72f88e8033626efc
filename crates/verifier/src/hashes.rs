//! The hash functions the linked kinds (digests, chains, Merkle roots) are
//! built from, each as its instance circuit and how a message becomes that
//! circuit's instances:
//!
//! | hash | circuit | block | chaining | digest |
//! |---|---|---|---|---|
//! | `sha256` | SHA-256 compression | 64 bytes, padding `0x80 0.. len64` (big-endian bits) | cv = previous output, the IV first | output bytes 0..32 |
//! | `sha512` | SHA-512 compression | 128 bytes, padding `0x80 0.. len128` (big-endian bits) | cv = previous output, the IV first | output bytes 0..64 |
//! | `sha3-256`, `keccak-256` | Keccak-f\[1600\] | rate 136 bytes, pad10*1 with domain byte `0x06` / `0x01` | state = previous output with the block XORed into bytes 0..136, zero first | output bytes 0..32 |
//! | `blake3` | BLAKE3 compression | 64 bytes of one chunk (messages of at most 1 KiB), zero-padded, with block length, counter 0 and flags `CHUNK_START` (first), `CHUNK_END | ROOT` (last) | cv = previous output bytes 0..32, the IV first | output bytes 0..32 |
//!
//! An instance's input row is the circuit's input bytes (byte `b`, bit `t`
//! is input bit `8 b + t`); the native functions here compute every
//! instance of a message so that the prover knows the private chaining
//! values before it builds the witness.

use alloc::vec;
use alloc::vec::Vec;

use crate::circuit::blake3::{compress_reference, Blake3Input, BLAKE3_IV, CHUNK_END, CHUNK_START, ROOT};
use crate::circuit::sha256::SHA256_IV;
use crate::circuit::sha512::SHA512_IV;

use crate::circuits::Builtin;

/// A hash function of the linked kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hash {
    /// SHA-256 (FIPS 180-4).
    Sha256,
    /// SHA-512 (FIPS 180-4): 64-byte digests.
    Sha512,
    /// SHA3-256 (FIPS 202).
    Sha3_256,
    /// Keccak-256 as Ethereum uses it (pad byte 0x01).
    Keccak256,
    /// BLAKE3 (one chunk: messages of at most 1 KiB).
    Blake3,
}

/// Longest message of a hash whose statements go through one chunk (BLAKE3).
pub const BLAKE3_MAX_MESSAGE: usize = 1024;

/// Bytes of the Keccak sponge's rate at 256-bit output.
const KECCAK_RATE: usize = 136;

impl Hash {
    /// Every hash.
    pub const ALL: [Hash; 5] = [
        Hash::Sha256,
        Hash::Sha512,
        Hash::Sha3_256,
        Hash::Keccak256,
        Hash::Blake3,
    ];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Hash::Sha256 => "sha256",
            Hash::Sha512 => "sha512",
            Hash::Sha3_256 => "sha3-256",
            Hash::Keccak256 => "keccak-256",
            Hash::Blake3 => "blake3",
        }
    }

    /// The hash with this name.
    pub fn from_name(name: &str) -> Option<Hash> {
        Self::ALL.into_iter().find(|h| h.name() == name)
    }

    /// Its code in a file's parameters.
    pub fn code(self) -> u8 {
        match self {
            Hash::Sha256 => 1,
            Hash::Sha3_256 => 2,
            Hash::Keccak256 => 3,
            Hash::Blake3 => 4,
            Hash::Sha512 => 5,
        }
    }

    /// The hash with this code.
    pub fn from_code(code: u8) -> Option<Hash> {
        Self::ALL.into_iter().find(|h| h.code() == code)
    }

    /// The instance circuit.
    pub fn circuit(self) -> Builtin {
        match self {
            Hash::Sha256 => Builtin::Sha256,
            Hash::Sha512 => Builtin::Sha512,
            Hash::Sha3_256 | Hash::Keccak256 => Builtin::KeccakF1600,
            Hash::Blake3 => Builtin::Blake3,
        }
    }

    /// Bytes of a digest: 64 for SHA-512, 32 for the others. A digest is
    /// the first this many bytes of the last instance's output; chains and
    /// plain Merkle trees hash values of this size.
    pub fn digest_bytes(self) -> usize {
        match self {
            Hash::Sha512 => 64,
            Hash::Sha256 | Hash::Sha3_256 | Hash::Keccak256 | Hash::Blake3 => 32,
        }
    }

    /// The longest message this hash takes in a statement.
    pub fn max_message(self) -> usize {
        match self {
            Hash::Blake3 => BLAKE3_MAX_MESSAGE,
            _ => 1 << 20,
        }
    }

    /// Blocks of the padded message: its instances.
    pub fn blocks(self, len: usize) -> usize {
        match self {
            Hash::Sha256 => (len + 9).div_ceil(64),
            Hash::Sha512 => (len + 17).div_ceil(128),
            Hash::Sha3_256 | Hash::Keccak256 => (len + 1).div_ceil(KECCAK_RATE),
            Hash::Blake3 => len.div_ceil(64).max(1),
        }
    }

    /// The input bytes of the chaining part an instance takes from the one
    /// before it (and, for the first block, from a constant): SHA-2's and
    /// BLAKE3's cv; Keccak's capacity (its rate is chained with the block
    /// XORed in, [`Hash::absorbs`]).
    pub fn chained(self) -> core::ops::Range<usize> {
        match self {
            Hash::Sha256 | Hash::Blake3 => 0..32,
            Hash::Sha512 => 0..64,
            Hash::Sha3_256 | Hash::Keccak256 => KECCAK_RATE..200,
        }
    }

    /// The constant value of the chained bytes in a message's first block.
    pub fn initial_chained(self) -> Vec<u8> {
        match self {
            Hash::Sha256 => SHA256_IV.iter().flat_map(|w| w.to_be_bytes()).collect(),
            Hash::Sha512 => SHA512_IV.iter().flat_map(|w| w.to_be_bytes()).collect(),
            Hash::Blake3 => BLAKE3_IV.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Hash::Sha3_256 | Hash::Keccak256 => vec![0; 200 - KECCAK_RATE],
        }
    }

    /// Whether the block is XORed into the chained state (a sponge) rather
    /// than given beside it.
    pub fn absorbs(self) -> bool {
        matches!(self, Hash::Sha3_256 | Hash::Keccak256)
    }

    /// The input bytes that carry block `index` of a message: for a sponge,
    /// the rate (which also chains); otherwise the block with its length,
    /// counter and flags.
    pub fn block_bytes(self) -> core::ops::Range<usize> {
        match self {
            Hash::Sha256 => 32..96,
            Hash::Sha512 => 64..192,
            Hash::Sha3_256 | Hash::Keccak256 => 0..KECCAK_RATE,
            Hash::Blake3 => 32..112,
        }
    }

    /// Message bytes per block: 64, 128 for SHA-512, or the sponge's rate
    /// of 136.
    pub fn block_len(self) -> usize {
        match self {
            Hash::Sha256 | Hash::Blake3 => 64,
            Hash::Sha512 => 128,
            Hash::Sha3_256 | Hash::Keccak256 => KECCAK_RATE,
        }
    }

    /// The public bytes of block `index` of `msg` (padding included), as
    /// they sit in [`Hash::block_bytes`]. For a sponge these are the padded
    /// message bytes XORed into the rate.
    pub fn block(self, msg: &[u8], index: usize) -> Vec<u8> {
        let len = self.block_len();
        let start = (len * index).min(msg.len());
        let end = (len * (index + 1)).min(msg.len());
        self.block_of(msg.len(), index, &msg[start..end])
    }

    /// [`Hash::block`] of a message of `len` bytes, given only the message
    /// bytes that block `index` holds (`chunk`, shorter in the last
    /// blocks): a verifier builds one block of a long message without
    /// copying the message.
    pub fn block_of(self, len: usize, index: usize, chunk: &[u8]) -> Vec<u8> {
        let blocks = self.blocks(len);
        let first = self.block_len() * index;
        let byte = |i: usize| chunk[i - first];
        // Byte `i` of the message followed by its padding (`total` bytes).
        let padded = |i: usize, total: usize| -> u8 {
            match self {
                Hash::Sha256 if i >= total - 8 => (8 * len as u64).to_be_bytes()[i - (total - 8)],
                Hash::Sha512 if i >= total - 16 => (8 * len as u128).to_be_bytes()[i - (total - 16)],
                Hash::Sha3_256 | Hash::Keccak256 => {
                    let domain = if self == Hash::Sha3_256 { 0x06 } else { 0x01 };
                    let b = match i.cmp(&len) {
                        core::cmp::Ordering::Less => byte(i),
                        core::cmp::Ordering::Equal => domain,
                        core::cmp::Ordering::Greater => 0,
                    };
                    if i == total - 1 {
                        b | 0x80
                    } else {
                        b
                    }
                }
                _ => match i.cmp(&len) {
                    core::cmp::Ordering::Less => byte(i),
                    core::cmp::Ordering::Equal if matches!(self, Hash::Sha256 | Hash::Sha512) => 0x80,
                    _ => 0,
                },
            }
        };
        // A whole block before the last holds message bytes only: every
        // hash's padding lies in its last block.
        let whole = chunk.len() == self.block_len() && index + 1 < blocks;
        let bytes = |total: usize| -> Vec<u8> {
            if whole {
                chunk.to_vec()
            } else {
                (first..first + self.block_len())
                    .map(|i| padded(i, total))
                    .collect()
            }
        };
        match self {
            Hash::Sha256 => bytes(64 * blocks),
            Hash::Sha512 => bytes(128 * blocks),
            Hash::Sha3_256 | Hash::Keccak256 => bytes(KECCAK_RATE * blocks),
            Hash::Blake3 => {
                let mut out = bytes(0);
                let block_len = len.saturating_sub(64 * index).min(64) as u32;
                out.extend_from_slice(&0u64.to_le_bytes());
                out.extend_from_slice(&block_len.to_le_bytes());
                let mut flags = 0;
                if index == 0 {
                    flags |= CHUNK_START;
                }
                if index + 1 == blocks {
                    flags |= CHUNK_END | ROOT;
                }
                out.extend_from_slice(&flags.to_le_bytes());
                out
            }
        }
    }

    /// The instance input row of a block: the chained bytes (the previous
    /// output's, or [`Hash::initial_chained`]) with the block's bytes.
    pub fn instance_input(self, previous_output: Option<&[u8]>, block: &[u8]) -> Vec<u8> {
        let circuit = crate::circuits::StatementCircuit::builtin(self.circuit());
        let mut row = vec![0u8; circuit.input_bytes()];
        let chained = self.chained();
        match previous_output {
            Some(out) => row[chained.clone()].copy_from_slice(&out[chained.clone()]),
            None => row[chained.clone()].copy_from_slice(&self.initial_chained()),
        }
        let bytes = self.block_bytes();
        if self.absorbs() {
            for (i, b) in block.iter().enumerate() {
                let state = previous_output.map_or(0, |out| out[i]);
                row[bytes.start + i] = state ^ b;
            }
        } else {
            row[bytes].copy_from_slice(block);
        }
        row
    }

    /// The circuit's output bytes on an input row, computed natively.
    pub fn compress(self, input: &[u8]) -> Vec<u8> {
        match self.circuit() {
            Builtin::Sha256 => {
                let mut state: [u32; 8] = core::array::from_fn(|w| {
                    u32::from_be_bytes(input[4 * w..4 * w + 4].try_into().expect("4 bytes"))
                });
                let block: [u8; 64] = input[32..96].try_into().expect("64 bytes");
                sha2::compress256(&mut state, &[block.into()]);
                state.iter().flat_map(|w| w.to_be_bytes()).collect()
            }
            Builtin::Sha512 => {
                let mut state: [u64; 8] = core::array::from_fn(|w| {
                    u64::from_be_bytes(input[8 * w..8 * w + 8].try_into().expect("8 bytes"))
                });
                let block: [u8; 128] = input[64..192].try_into().expect("128 bytes");
                sha2::compress512(&mut state, &[block.into()]);
                state.iter().flat_map(|w| w.to_be_bytes()).collect()
            }
            Builtin::KeccakF1600 => {
                let mut lanes: [u64; 25] = core::array::from_fn(|i| {
                    u64::from_le_bytes(input[8 * i..8 * i + 8].try_into().expect("8 bytes"))
                });
                keccak::f1600(&mut lanes);
                lanes.iter().flat_map(|l| l.to_le_bytes()).collect()
            }
            Builtin::Blake3 => {
                let word = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
                let input = Blake3Input {
                    cv: core::array::from_fn(|i| word(&input[4 * i..4 * i + 4])),
                    block: core::array::from_fn(|i| word(&input[32 + 4 * i..36 + 4 * i])),
                    counter: u64::from_le_bytes(input[96..104].try_into().expect("8 bytes")),
                    block_len: word(&input[104..108]),
                    flags: word(&input[108..112]),
                };
                compress_reference(&input)
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect()
            }
        }
    }

    /// Every instance input row of `msg`, in block order, and the digest
    /// ([`Hash::digest_bytes`] bytes).
    pub fn instances(self, msg: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
        let mut rows = Vec::with_capacity(self.blocks(msg.len()));
        let mut out: Option<Vec<u8>> = None;
        for index in 0..self.blocks(msg.len()) {
            let row = self.instance_input(out.as_deref(), &self.block(msg, index));
            out = Some(self.compress(&row));
            rows.push(row);
        }
        let mut out = out.expect("every message has a block");
        out.truncate(self.digest_bytes());
        (rows, out)
    }

    /// The digest of `msg` ([`Hash::digest_bytes`] bytes).
    pub fn digest(self, msg: &[u8]) -> Vec<u8> {
        self.instances(msg).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn digests_match_the_reference_crates_around_every_block_boundary() {
        for len in (0..300).chain([1023, 1024]) {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let sha = sha2::Sha256::digest(&msg);
            assert_eq!(Hash::Sha256.digest(&msg), sha.as_slice(), "sha256 {len}");
            let sha512 = sha2::Sha512::digest(&msg);
            assert_eq!(Hash::Sha512.digest(&msg), sha512.as_slice(), "sha512 {len}");
            let sha3 = sha3::Sha3_256::digest(&msg);
            assert_eq!(Hash::Sha3_256.digest(&msg), sha3.as_slice(), "sha3-256 {len}");
            let keccak = sha3::Keccak256::digest(&msg);
            assert_eq!(
                Hash::Keccak256.digest(&msg),
                keccak.as_slice(),
                "keccak-256 {len}"
            );
            if len <= BLAKE3_MAX_MESSAGE {
                assert_eq!(
                    Hash::Blake3.digest(&msg),
                    blake3::hash(&msg).as_bytes(),
                    "blake3 {len}"
                );
            }
        }
    }
}
