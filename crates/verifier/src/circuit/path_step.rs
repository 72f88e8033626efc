//! What the path-step circuits share ([`crate::circuit::sha256_path_step`] for
//! SHA-256, [`crate::circuit::keccak_path_step`] for SHAKE256): where a row holds its
//! values, and the check words `E` and `F` that put the node below on the
//! side its private direction bit says.
//!
//! A row is the chained part (SHA-256's chaining value, the Keccak state),
//! the block, the node below `P` and the direction bit `b`; an output is the
//! chained part, then `E` and `F`. A node's message is `I ‖ u32(node / 2) ‖
//! D_INTR ‖ left ‖ right`: `left` at block byte 22, `right` after it, its
//! tail in the next block when the block ends first (SHA-256's 64 bytes).
//! A layout may put `left` elsewhere ([`PathStepLayout::with_left_byte`]):
//! at byte 0 for a plain Merkle node `H(left ‖ right)`, the `membership`
//! statements' (`crate::kind::membership`):
//!
//! - `E = (1 ⊕ b) · (left ⊕ P)`,
//! - `F = b · (right ⊕ P)`,
//!
//! bound to zero by the statement where a node's bytes are.
//!
//! The output ends with one more byte, `J = block[22] + 1 mod 256`: in a
//! Winternitz chain step (`I ‖ u32(q) ‖ u16(i) ‖ u8(j) ‖ tmp`) byte 22 is
//! the step number `j`, so the statement binds a step's `j` to the step
//! before's `J`, and only a chain's first step has its number as a public
//! value.

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::lin::Lin;
use crate::circuit::word::Word;

/// Block byte where an LMS node's `left` starts: after `I ‖ u32 ‖ u16`;
/// the byte `J` follows, whatever the layout's `left_byte`.
pub const LEFT_BYTE: usize = 22;

/// Where a path step's values are, for Merkle nodes of `node_bytes` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathStepLayout {
    /// Bytes of a node (and of `P`, `E`, `F`): 32, or 24.
    pub node_bytes: usize,
    /// Bits of the chained part that starts a row and an output.
    pub chained_bits: usize,
    /// Bits of the block after it.
    pub block_bits: usize,
    /// Block byte where `left` starts: [`LEFT_BYTE`] for LMS nodes, 0 for
    /// plain Merkle nodes.
    pub left_byte: usize,
}

impl PathStepLayout {
    /// SHA-256's rows (chaining value, 64-byte block) with `node_bytes`
    /// nodes (32, or 24 for SHA-256/192).
    pub const fn sha256(node_bytes: usize) -> Self {
        PathStepLayout {
            node_bytes,
            chained_bits: 256,
            block_bits: 512,
            left_byte: LEFT_BYTE,
        }
    }

    /// SHAKE256's rows (Keccak state, 136-byte rate block) with
    /// `node_bytes` nodes (32, or 24 for SHAKE256/192).
    pub const fn shake256(node_bytes: usize) -> Self {
        PathStepLayout {
            node_bytes,
            chained_bits: 1600,
            block_bits: 1088,
            left_byte: LEFT_BYTE,
        }
    }

    /// The same rows with `left` at block byte `left_byte` (`right` right
    /// after it).
    pub const fn with_left_byte(self, left_byte: usize) -> Self {
        PathStepLayout { left_byte, ..self }
    }

    /// Bits of a node.
    pub fn node_bits(self) -> usize {
        8 * self.node_bytes
    }

    /// Input bit offset of the block.
    pub fn block_offset(self) -> usize {
        self.chained_bits
    }

    /// Input bit offset of `P`.
    pub fn prev_offset(self) -> usize {
        self.chained_bits + self.block_bits
    }

    /// Input bit of the direction `b`.
    pub fn bit_offset(self) -> usize {
        self.prev_offset() + self.node_bits()
    }

    /// Public input bits: the chained part, the block, `P`, `b`.
    pub fn public_input_bits(self) -> usize {
        self.bit_offset() + 1
    }

    /// Output bit offset of `E`.
    pub fn e_offset(self) -> usize {
        self.chained_bits
    }

    /// Output bit offset of `F`.
    pub fn f_offset(self) -> usize {
        self.e_offset() + self.node_bits()
    }

    /// Output bit offset of `J`, the successor of block byte 22.
    pub fn next_offset(self) -> usize {
        self.f_offset() + self.node_bits()
    }

    /// Public output bits: the chained part, `E`, `F`, `J`.
    pub fn public_output_bits(self) -> usize {
        self.next_offset() + 8
    }

    /// Block byte where `right` starts.
    pub fn right_byte(self) -> usize {
        self.left_byte + self.node_bytes
    }

    /// Block bit that `F`'s bit `t` compares with `P`'s bit `t`: from
    /// `right_byte` to the block's end, then from the next block's start.
    pub fn right_block_bit(self, t: usize) -> usize {
        let head = self.block_bits - 8 * self.right_byte();
        if t < head {
            8 * self.right_byte() + t
        } else {
            t - head
        }
    }
}

/// Sets the check words `E` (outputs from `e_offset`) and `F` (from
/// `f_offset`), and the successor `J` of block byte 22 (from
/// `next_offset`: six AND rows), for rows laid out as `layout` says.
pub(crate) fn side_checks(b: &mut CircuitBuilder, layout: PathStepLayout) {
    let step: Word<8> = b.public_input_word(layout.block_offset() + 8 * LEFT_BYTE);
    let next = b.add_const(&step, 1);
    b.set_public_output_word(layout.next_offset(), &next);
    let dir = b.public_input(layout.bit_offset());
    let not_dir = dir.xor(&Lin::one());
    for t in 0..layout.node_bits() {
        let prev = b.public_input(layout.prev_offset() + t);
        let left = b
            .public_input(layout.block_offset() + 8 * layout.left_byte + t)
            .xor(&prev);
        b.set_public_output_and_xor(layout.e_offset() + t, &not_dir, &left, &Lin::zero());
        let right = b
            .public_input(layout.block_offset() + layout.right_block_bit(t))
            .xor(&prev);
        b.set_public_output_and_xor(layout.f_offset() + t, &dir, &right, &Lin::zero());
    }
}
