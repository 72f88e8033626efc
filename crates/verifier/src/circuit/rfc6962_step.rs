//! One SHA-256 block of an RFC 6962 (Certificate Transparency) Merkle path,
//! as a circuit: the instance circuit of the `membership` statements'
//! `rfc6962` scheme (`crate::kind::membership`).
//!
//! An RFC 6962 path hashes a leaf `H(0x00 ‖ leaf)` (any length: the
//! leaf's length is private) and then, level by level, either a node
//! `H(0x01 ‖ left ‖ right)` (65 bytes, two blocks) or nothing, where the
//! node below is a level's odd last node and goes up unchanged (RFC 6962
//! §2.1's split, read bottom up). One circuit does all three so that every
//! member of a batch takes the same instances whatever its index: it is the
//! `preimage` block of SHA-256 ([`crate::circuit::preimage`]: a message of
//! private length, a thermometer of its extent, a digest register carried
//! to the last block) with, after the compression,
//!
//! - the side checks of a path step ([`crate::circuit::path_step`]) on the
//!   private message bytes against the node below `P`, with `left` at
//!   message byte 1 and `right` at byte 33 (its last byte is byte 0 of the
//!   next block, which holds the same `P`):
//!   `E = (1 ⊕ b) · (m[1..33] ⊕ P)`, `F = b · (m[33..64] ‖ m'[0] ⊕ P)`.
//!   The statement binds them to zero where a node's bytes are, and binds
//!   the thermometer there to a 65-byte message, so the message bytes are
//!   the block's;
//! - a promotion bit `s`: the digest register takes `s ? P : out` from the
//!   final block, `D_out = D_in ⊕ final · (out ⊕ s · (out ⊕ P))`, so that a
//!   promoted level passes the node below up unchanged.
//!
//! Public inputs: the preimage block's ([`PreimageLayout`] of SHA-256),
//! then `P` (32 bytes), `b` and `s` (one bit each); outputs: the preimage
//! block's carried group, then `E` and `F` (32 bytes each). Byte `j`, bit
//! `t` of each is bit `8 j + t`.
//!
//! Cost: the preimage block's 23,463 AND rows, 512 for `E` and `F`, 256 for
//! the promotion: 24,231 (asserted in the tests).

use alloc::vec::Vec;

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::lin::Lin;
use crate::circuit::preimage::{sha2_block, PreimageLayout};
use crate::circuit::r1cs::R1cs;
use crate::circuit::sha256;
use crate::hashes::Hash;

/// Message byte of a node block where `left` starts (after `0x01`).
pub const LEFT_BYTE: usize = 1;
/// Bytes of a node: a SHA-256 digest.
pub const NODE_BYTES: usize = 32;

/// Where the circuit's values are: bit offsets of its public inputs and
/// outputs beyond the preimage block's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rfc6962StepLayout;

impl Rfc6962StepLayout {
    /// The preimage block's layout, which this one extends.
    pub const fn block(self) -> PreimageLayout {
        PreimageLayout::new(Hash::Sha256)
    }

    /// First input bit of `P`, the node below.
    pub fn node_at(self) -> usize {
        self.block().input_bits()
    }

    /// Input bit of the direction `b` (1: `P` is the right child).
    pub fn dir_at(self) -> usize {
        self.node_at() + 8 * NODE_BYTES
    }

    /// Input bit of the promotion `s`.
    pub fn promote_at(self) -> usize {
        self.dir_at() + 1
    }

    /// Public input bits.
    pub fn input_bits(self) -> usize {
        self.promote_at() + 1
    }

    /// First output bit of `E`.
    pub fn e_at(self) -> usize {
        self.block().output_bits()
    }

    /// First output bit of `F`.
    pub fn f_at(self) -> usize {
        self.e_at() + 8 * NODE_BYTES
    }

    /// Public output bits.
    pub fn output_bits(self) -> usize {
        self.f_at() + 8 * NODE_BYTES
    }

    /// Bits of `F` in a node's first block; the rest are in its second.
    pub fn f_head_bits(self) -> usize {
        8 * (self.block().rate() - LEFT_BYTE - NODE_BYTES)
    }

    /// The message bit (from the message's start in a block) that bit `t`
    /// of `F` compares with `P`'s bit `t`: from byte 33 to the block's
    /// end, then from the next block's start.
    pub fn right_bit(self, t: usize) -> usize {
        if t < self.f_head_bits() {
            8 * (LEFT_BYTE + NODE_BYTES) + t
        } else {
            t - self.f_head_bits()
        }
    }
}

/// The compiled circuit.
pub fn rfc6962_step() -> R1cs {
    let l = Rfc6962StepLayout;
    let block = l.block();
    let mut b = CircuitBuilder::new(l.input_bits(), l.output_bits());
    sha2_block::<32>(&mut b, block, sha256::compress_gadget, &mut |b, state| {
        let node = |b: &CircuitBuilder, t: usize| b.public_input(l.node_at() + t);
        let message = |b: &CircuitBuilder, bit: usize| b.public_input(block.message_at() + bit);
        let dir = b.public_input(l.dir_at());
        let not_dir = dir.xor(&Lin::one());
        for t in 0..8 * NODE_BYTES {
            let left = message(b, 8 * LEFT_BYTE + t).xor(&node(b, t));
            b.set_public_output_and_xor(l.e_at() + t, &not_dir, &left, &Lin::zero());
            let right = message(b, l.right_bit(t)).xor(&node(b, t));
            b.set_public_output_and_xor(l.f_at() + t, &dir, &right, &Lin::zero());
        }
        let promote = b.public_input(l.promote_at());
        let selected: Vec<Lin> = (0..8 * NODE_BYTES)
            .map(|t| b.and_xor(&promote, &state[t].xor(&node(b, t)), &state[t]))
            .collect();
        selected
    });
    b.compile().expect("every output is set")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::preimage::preimage_block;

    #[test]
    fn rfc6962_step_cost() {
        let r1cs = rfc6962_step();
        r1cs.check_structure().unwrap();
        let l = Rfc6962StepLayout;
        assert_eq!(r1cs.num_public_inputs(), l.input_bits());
        assert_eq!(r1cs.num_public_outputs(), l.output_bits());
        let preimage = preimage_block(Hash::Sha256).and_rows();
        assert_eq!((r1cs.and_rows(), preimage), (24_231, 23_463));
        assert_eq!(r1cs.and_rows() - preimage, 512 + 256);
        assert_eq!(r1cs.k(), 15);
    }
}
