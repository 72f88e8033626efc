//! One block of a message whose length is private, as a circuit: the
//! instance circuit of the `preimage` statements (`crate::kind::preimage`),
//! for SHA-256 and SHA-512 (FIPS 180-4 §5.1 padding), SHA3-256 and
//! Keccak-256 (FIPS 202 §5.1 pad10*1 with the domain bits, `0x06` or
//! Ethereum's `0x01`) and BLAKE3 (one chunk: block length and flags from
//! the length).
//!
//! A message of private length `L` at most `max_len` takes the same number
//! of instances `B` whatever `L` is: the blocks `max_len` needs. Instance
//! `j` of a message holds block `j` as its circuit computes it from private
//! values, so that which blocks hold message bytes, padding or nothing, and
//! which block is the last, are the witness's, not the statement's:
//!
//! - **The message's extent** is a thermometer: `inside(p) = [p < L]` for
//!   every byte position `p`, computed as `inside(p) = inside(p - 1) ·
//!   continues(p)` from a free private bit `continues(p)` per position (one
//!   AND row each), so it can only fall once. The thermometer's last value
//!   is an output that the next instance takes as its carry-in; the first
//!   instance's carry-in is `inside(-1) = 1` (for BLAKE3, `inside(0)`, free:
//!   see below). The statement binds `continues(max_len)` to 0, which
//!   forces `L <= max_len`.
//! - **The block** is the message bytes masked by the thermometer, with the
//!   padding XORed in: bit `k` of byte `i` is `inside(p) · m(i, k) ⊕
//!   pad(i, k)`, one AND row per block bit, where `m` is the free private
//!   message block and `pad` is linear in the thermometer's edge `edge(p) =
//!   inside(p - 1) ⊕ inside(p)` (1 at `p = L` only) and the final-block
//!   flag: SHA-2's `0x80` at the edge and `8 L` big-endian in the last 8 (16)
//!   bytes of the final block; the sponge's domain bits at the edge and
//!   `0x80` in the last rate byte of the final block; BLAKE3's zeros.
//! - **The final block** is known in-circuit: for SHA-2 it is the block of
//!   the edge when the edge is before the length field, else the next one
//!   (an overflow bit carried to the next instance); for the sponge the
//!   block of the edge; for BLAKE3 the block holding the last message byte
//!   (or block 0 of the empty message).
//! - **The length** (SHA-2 only, for its length field) accumulates across
//!   the instances: `length_out = length_in ⊕ [edge here] · (R j + i)`
//!   where `i` is the edge's position in the block (linear in the
//!   thermometer) and `j` the block index, a public per-instance value.
//!   Exactly one block has the edge, so the final block sees `L`.
//! - **The digest** is selected the same way: a digest register carried
//!   across the instances, `digest_out = digest_in ⊕ final · state_out`,
//!   zero in the first instance; the last instance's is the digest. The
//!   chained state itself goes on through the blocks after the final one
//!   (their blocks are zero), which cost the compressions but no selection.
//!
//! Public inputs, by bit offset ([`PreimageLayout`]): the carried group
//! (the chained state, SHA-2's and BLAKE3's chaining value or the 200-byte
//! Keccak state; the digest register; SHA-2's accumulated length, a 32-bit
//! word; the thermometer's carry bit; SHA-2's overflow bit), then the
//! message block (one rate of bytes), one `continues` bit per byte, and
//! SHA-2's block index (a 32-bit word) or BLAKE3's first-block bit.
//! Outputs: the carried group, in the same order. Bytes are bit `8 b + t`
//! for bit `t` of byte `b`; words are little-endian bits; the chained state
//! is laid out as the plain circuits have it (SHA-2's words big-endian,
//! BLAKE3's and Keccak's lanes little-endian).
//!
//! Cost beyond the compression (AND rows): the thermometer (one per byte
//! of the rate), the block (one per bit), the digest register (one per
//! digest bit); SHA-2 adds 32 for the length field and 26 (SHA-512: 25)
//! for the edge's block index, BLAKE3 one for its final flag. The counts are
//! asserted in the tests.

use alloc::vec::Vec;

use crate::circuit::blake3 as blake3_circuit;
use crate::circuit::builder::CircuitBuilder;
use crate::circuit::keccak::{permute_gadget_keeping, STATE_BITS};
use crate::circuit::lin::Lin;
use crate::circuit::r1cs::R1cs;
use crate::circuit::word::Word;
use crate::circuit::{sha256, sha512};
use crate::hashes::Hash;

/// Bits of SHA-2's accumulated length and block index words.
pub const LENGTH_BITS: usize = 32;

/// Where a preimage block's values are, for one hash: bit offsets of the
/// public inputs and outputs (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PreimageLayout {
    hash: Hash,
}

impl PreimageLayout {
    /// The layout of `hash`'s blocks.
    pub const fn new(hash: Hash) -> Self {
        PreimageLayout { hash }
    }

    /// The hash.
    pub fn hash(self) -> Hash {
        self.hash
    }

    /// Whether the hash has SHA-2's length field (and so the accumulated
    /// length, the overflow bit and the block index).
    pub fn has_length(self) -> bool {
        matches!(self.hash, Hash::Sha256 | Hash::Sha512)
    }

    /// Bytes of the chained state: a chaining value (32 or 64), or the
    /// Keccak state (200).
    pub fn state_bytes(self) -> usize {
        match self.hash {
            Hash::Sha256 | Hash::Blake3 => 32,
            Hash::Sha512 => 64,
            Hash::Sha3_256 | Hash::Keccak256 => STATE_BITS / 8,
        }
    }

    /// Bytes of a digest.
    pub fn digest_bytes(self) -> usize {
        self.hash.digest_bytes()
    }

    /// Message bytes per block: 64, 128 or the sponge's 136.
    pub fn rate(self) -> usize {
        self.hash.block_len()
    }

    /// Bytes of SHA-2's length field (8 or 16), 0 for the others.
    pub fn length_field_bytes(self) -> usize {
        match self.hash {
            Hash::Sha256 => 8,
            Hash::Sha512 => 16,
            _ => 0,
        }
    }

    /// First bit of the chained state (inputs and outputs).
    pub fn state_at(self) -> usize {
        0
    }

    /// First bit of the digest register.
    pub fn digest_at(self) -> usize {
        8 * self.state_bytes()
    }

    /// First bit of SHA-2's accumulated length.
    pub fn length_at(self) -> usize {
        self.digest_at() + 8 * self.digest_bytes()
    }

    /// The thermometer's carry bit.
    pub fn inside_at(self) -> usize {
        self.length_at() + if self.has_length() { LENGTH_BITS } else { 0 }
    }

    /// SHA-2's overflow bit: the padding's `0x80` fell in the length field's
    /// place, so the final block is the next one.
    pub fn overflow_at(self) -> usize {
        self.inside_at() + 1
    }

    /// Bits of the carried group: inputs `0..carried_bits()` and outputs
    /// `0..carried_bits()`.
    pub fn carried_bits(self) -> usize {
        self.inside_at() + if self.has_length() { 2 } else { 1 }
    }

    /// First bit of the private message block (one rate of bytes).
    pub fn message_at(self) -> usize {
        self.carried_bits()
    }

    /// First of the `continues` bits, one per byte of the block.
    pub fn continues_at(self) -> usize {
        self.message_at() + 8 * self.rate()
    }

    /// First bit of SHA-2's block index (a 32-bit word) or BLAKE3's
    /// first-block bit.
    pub fn index_at(self) -> usize {
        self.continues_at() + self.rate()
    }

    /// Public input bits.
    pub fn input_bits(self) -> usize {
        self.index_at()
            + match self.hash {
                Hash::Sha256 | Hash::Sha512 => LENGTH_BITS,
                Hash::Blake3 => 1,
                Hash::Sha3_256 | Hash::Keccak256 => 0,
            }
    }

    /// Public output bits: the carried group.
    pub fn output_bits(self) -> usize {
        self.carried_bits()
    }
}

/// The compiled preimage block circuit of `hash`.
pub fn preimage_block(hash: Hash) -> R1cs {
    let layout = PreimageLayout::new(hash);
    let mut b = CircuitBuilder::new(layout.input_bits(), layout.output_bits());
    match hash {
        Hash::Sha256 => sha2_block::<32>(&mut b, layout, sha256::compress_gadget, &mut |_, state| {
            state.to_vec()
        }),
        Hash::Sha512 => sha2_block::<64>(&mut b, layout, sha512::compress_gadget, &mut |_, state| {
            state.to_vec()
        }),
        Hash::Sha3_256 | Hash::Keccak256 => sponge_block(&mut b, layout),
        Hash::Blake3 => blake3_block(&mut b, layout),
    }
    b.compile().expect("every preimage block output is set")
}

/// The thermometer: `inside[0]` is the carry-in, `inside[k] = inside[k -
/// 1] · continues[k - 1]` for `k = 1..=rate` (one AND row each).
fn thermometer(b: &mut CircuitBuilder, layout: PreimageLayout) -> Vec<Lin> {
    let mut inside = Vec::with_capacity(layout.rate() + 1);
    inside.push(b.public_input(layout.inside_at()));
    for i in 0..layout.rate() {
        let continues = b.public_input(layout.continues_at() + i);
        let next = b.and(&inside[i], &continues);
        inside.push(next);
    }
    inside
}

/// Where bit `i` of a big-endian word of `width` bits sits among the bits
/// of its bytes.
fn be_bit(i: usize, width: usize) -> usize {
    8 * (width / 8 - 1 - i / 8) + i % 8
}

/// Sets the carried outputs every hash has: the chained state (`state`,
/// bits in byte order), the digest register `digest_in ⊕ final · selected`
/// (one AND row per digest bit, the output's own; `selected` is the state,
/// or what a caller of [`sha2_block`] chose from it) and the thermometer's
/// carry-out.
fn carry_out(
    b: &mut CircuitBuilder,
    layout: PreimageLayout,
    state: &[Lin],
    selected: &[Lin],
    final_: &Lin,
    inside_out: &Lin,
) {
    for (j, bit) in state.iter().enumerate() {
        b.set_public_output(layout.state_at() + j, bit);
    }
    for (j, bit) in selected.iter().take(8 * layout.digest_bytes()).enumerate() {
        let digest_in = b.public_input(layout.digest_at() + j);
        b.set_public_output_and_xor(layout.digest_at() + j, final_, bit, &digest_in);
    }
    b.set_public_output(layout.inside_at(), inside_out);
}

/// A SHA-2 block (`W`-bit words): positions `R j + k - 1` are `inside[k]`.
/// `select` adds what a circuit built on the block checks after the
/// compression (the membership statements' path checks,
/// [`crate::circuit::rfc6962_step`]) and returns what the digest register
/// takes in the final block, from the chained state's bits (the preimage
/// block returns them, adding nothing).
pub(crate) fn sha2_block<const W: usize>(
    b: &mut CircuitBuilder,
    layout: PreimageLayout,
    compress: fn(&mut CircuitBuilder, &[Word<W>; 8], &[Word<W>; 16]) -> [Word<W>; 8],
    select: &mut dyn FnMut(&mut CircuitBuilder, &[Lin]) -> Vec<Lin>,
) {
    let rate = layout.rate();
    let field = layout.length_field_bytes();
    let inside = thermometer(b, layout);
    let edge = |i: usize| inside[i].xor(&inside[i + 1]);
    // The edge before the length field makes this block the final one; in
    // the field, the next block (the overflow).
    let overflow_in = b.public_input(layout.overflow_at());
    let final_ = inside[0].xor(&inside[rate - field]).xor(&overflow_in);
    let overflow_out = inside[rate - field].xor(&inside[rate]);
    let has_edge = inside[0].xor(&inside[rate]);

    // The accumulated length: the edge's position in the block (linear in
    // the thermometer) and `R j` where the edge is.
    let shift = rate.trailing_zeros() as usize;
    let index: Word = b.public_input_word(layout.index_at());
    let mut length = Vec::with_capacity(LENGTH_BITS);
    for c in 0..LENGTH_BITS {
        let mut bit = b.public_input(layout.length_at() + c);
        if c < shift {
            for i in (0..rate).filter(|i| (i >> c) & 1 == 1) {
                bit = bit.xor(&edge(i));
            }
        } else {
            let at_edge = b.and(&has_edge, index.bit(c - shift));
            bit = bit.xor(&at_edge);
        }
        length.push(b.materialize(&bit));
    }
    let final_length: Vec<Lin> = length.iter().map(|bit| b.and(&final_, bit)).collect();

    // The block: message bytes inside, `0x80` at the edge, `8 L` big-endian
    // in the final block's length field.
    let mut block = Vec::with_capacity(8 * rate);
    for i in 0..rate {
        for k in 0..8 {
            let mut pad = if k == 7 { edge(i) } else { Lin::zero() };
            if i >= rate - field {
                // Bit `8 (field - 1 - q) + k` of `8 L`, `q` the byte's place in the field.
                let of_8l = 8 * (field - 1 - (i - (rate - field))) + k;
                if (3..3 + LENGTH_BITS).contains(&of_8l) {
                    pad = pad.xor(&final_length[of_8l - 3]);
                }
            }
            let m = b.public_input(layout.message_at() + 8 * i + k);
            block.push(b.and_xor(&inside[i + 1], &m, &pad));
        }
    }
    let bytes = W / 8;
    let cv: [Word<W>; 8] = core::array::from_fn(|w| b.public_input_word_be(layout.state_at() + W * w));
    let words: [Word<W>; 16] = core::array::from_fn(|w| {
        Word::from_bits(core::array::from_fn(|x| block[W * w + be_bit(x, W)].clone()))
    });
    let out = compress(b, &cv, &words);
    let mut state = alloc::vec![Lin::zero(); 8 * 8 * bytes];
    for (w, word) in out.iter().enumerate() {
        for x in 0..W {
            state[W * w + be_bit(x, W)] = word.bit(x).clone();
        }
    }
    let selected = select(b, &state);
    carry_out(b, layout, &state, &selected, &final_, &inside[rate]);
    for (c, bit) in length.iter().enumerate() {
        b.set_public_output(layout.length_at() + c, bit);
    }
    b.set_public_output(layout.overflow_at(), &overflow_out);
}

/// A SHA3-256 or Keccak-256 block: positions `136 j + k - 1` are
/// `inside[k]`; the block is XORed into the rate of the chained state.
fn sponge_block(b: &mut CircuitBuilder, layout: PreimageLayout) {
    let rate = layout.rate();
    let domain: u8 = if layout.hash() == Hash::Sha3_256 {
        0x06
    } else {
        0x01
    };
    let inside = thermometer(b, layout);
    let final_ = inside[0].xor(&inside[rate]);
    let mut state = Vec::with_capacity(STATE_BITS);
    for i in 0..STATE_BITS / 8 {
        for k in 0..8 {
            let s = b.public_input(layout.state_at() + 8 * i + k);
            if i >= rate {
                state.push(s);
                continue;
            }
            let mut pad = if (domain >> k) & 1 == 1 {
                inside[i].xor(&inside[i + 1])
            } else {
                Lin::zero()
            };
            if i == rate - 1 && k == 7 {
                pad = pad.xor(&final_);
            }
            // The row holds the state bit with the block bit XORed in.
            let m = b.public_input(layout.message_at() + 8 * i + k);
            state.push(b.and_xor(&inside[i + 1], &m, &pad.xor(&s)));
        }
    }
    let digest = permute_gadget_keeping(b, &state, 8 * layout.digest_bytes());
    // The permutation set the state's outputs; the digest register reads
    // the kept bits.
    for (j, bit) in digest.iter().enumerate() {
        let digest_in = b.public_input(layout.digest_at() + j);
        b.set_public_output_and_xor(layout.digest_at() + j, &final_, bit, &digest_in);
    }
    b.set_public_output(layout.inside_at(), &inside[rate]);
}

/// A BLAKE3 block: `inside[k]` is position `64 j + k`, so `inside[0]` (the
/// carry-in) is the block's first byte, free in the first block (the empty
/// message has none), and `inside[64]` is the next block's first byte:
/// whether this block is the last follows from this block alone.
fn blake3_block(b: &mut CircuitBuilder, layout: PreimageLayout) {
    let inside = thermometer(b, layout);
    let edge = |k: usize| inside[k - 1].xor(&inside[k]);
    let first = b.public_input(layout.index_at());
    let has_edge = inside[0].xor(&inside[64]);
    let empty = b.and(&first, &inside[0].not());
    let final_ = has_edge.xor(&empty);
    let mut block = Vec::with_capacity(512);
    // Byte `i` is position `64 j + i`: `inside[i]`.
    for (i, byte_inside) in inside[..64].iter().enumerate() {
        for k in 0..8 {
            let m = b.public_input(layout.message_at() + 8 * i + k);
            block.push(b.and(byte_inside, &m));
        }
    }
    // Block length: the edge's position `1..=64` (bit 6 is `inside[63]`:
    // the block is full), 0 without an edge.
    let mut block_len: [Lin; 32] = core::array::from_fn(|_| Lin::zero());
    for (c, bit) in block_len.iter_mut().enumerate().take(6) {
        let mut sum = Lin::zero();
        for k in (1..64).filter(|k| (k >> c) & 1 == 1) {
            sum = sum.xor(&edge(k));
        }
        *bit = b.materialize(&sum);
    }
    block_len[6] = inside[63].clone();
    let mut flags: [Lin; 32] = core::array::from_fn(|_| Lin::zero());
    let flag = |f: u32| f.trailing_zeros() as usize;
    flags[flag(blake3_circuit::CHUNK_START)] = first;
    flags[flag(blake3_circuit::CHUNK_END)] = final_.clone();
    flags[flag(blake3_circuit::ROOT)] = final_.clone();
    let cv: [Word; 8] = core::array::from_fn(|w| b.public_input_word(layout.state_at() + 32 * w));
    let words: [Word; 16] =
        core::array::from_fn(|w| Word::from_bits(core::array::from_fn(|x| block[32 * w + x].clone())));
    let rest = [
        Word::constant(0),
        Word::constant(0),
        Word::from_bits(block_len),
        Word::from_bits(flags),
    ];
    let out = blake3_circuit::compress_gadget(b, &cv, &words, &rest);
    let state: Vec<Lin> = out[..8].iter().flat_map(|w| w.bits().iter().cloned()).collect();
    carry_out(b, layout, &state, &state, &final_, &inside[64]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::{blake3_compression, keccak_f1600, sha256_compression, sha512_compression};

    /// AND rows of each block circuit, and of the plain compression or
    /// permutation it extends: a change that makes a block cost more is
    /// seen here.
    #[test]
    fn preimage_block_costs() {
        let plain = |hash: Hash| match hash {
            Hash::Sha256 => sha256_compression(),
            Hash::Sha512 => sha512_compression(),
            Hash::Sha3_256 | Hash::Keccak256 => keccak_f1600(),
            Hash::Blake3 => blake3_compression(),
        };
        // (hash, AND rows of a block, of the plain circuit, k, p)
        let expected = [
            (Hash::Sha256, 23_463, 22_573, 15, 11),
            (Hash::Sha512, 59_668, 57_947, 16, 12),
            (Hash::Sha3_256, 39_880, 38_400, 16, 13),
            (Hash::Keccak256, 39_880, 38_400, 16, 13),
            (Hash::Blake3, 11_243, 10_410, 14, 11),
        ];
        for (hash, and_rows, plain_and_rows, k, p) in expected {
            let block = preimage_block(hash);
            block.check_structure().unwrap();
            let l = PreimageLayout::new(hash);
            assert_eq!(block.num_public_inputs(), l.input_bits());
            assert_eq!(block.num_public_outputs(), l.output_bits());
            assert_eq!(
                (block.and_rows(), plain(hash).and_rows(), block.k(), block.p()),
                (and_rows, plain_and_rows, k, p),
                "{}",
                hash.name()
            );
            // The thermometer, the block, the digest register; SHA-2's
            // length field and the edge's block index; BLAKE3's final flag.
            let extra = match hash {
                Hash::Sha256 => 64 + 512 + 32 + 26,
                Hash::Sha512 => 128 + 1024 + 32 + 25,
                Hash::Sha3_256 | Hash::Keccak256 => 136 + 1088,
                Hash::Blake3 => 64 + 512 + 1,
            };
            assert_eq!(
                and_rows - plain_and_rows,
                extra + 8 * l.digest_bytes(),
                "{}",
                hash.name()
            );
        }
    }
}
