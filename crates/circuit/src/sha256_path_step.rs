//! SHA-256 compression with the check of a Merkle path step whose direction
//! is private: the instance circuit of the signature statements (LMS, RFC
//! 8554 §5.4.2, Algorithm 6a).
//!
//! An LMS path node is `H(I ‖ u32(node / 2) ‖ D_INTR ‖ left ‖ right)`, 86
//! bytes in two blocks: the first holds the 22-byte prefix, `left` at bytes
//! 22..54 and the first 10 bytes of `right` at 54..64, the second the other
//! 22 bytes of `right` at 0..22. The node below (`tmp`) is `left` when the
//! direction bit `b` is 0 and `right` when it is 1; the other half is the
//! authentication path's node, which is private and free. So the whole
//! condition is "`left = tmp` if `b = 0`, `right = tmp` if `b = 1`", and
//! the circuit computes two check words the statement binds to zero where
//! they apply:
//!
//! - `E = (1 ⊕ b) · (block[22..54] ⊕ P)`,
//! - `F = b · (block[54..64] ‖ block[0..22] ⊕ P)`,
//!
//! where `P` is a free input the statement wires to `tmp` (the previous
//! instance's output). In a node's first block `E` and the first 80 bits of
//! `F` are bound to zero; in its second block the last 176 bits of `F`
//! (`P` there carries the same `tmp`). Every other instance leaves `P`, `b`,
//! `E` and `F` unbound: the checks cost 512 AND rows and 769 public-block
//! wires per instance, inside the power of two SHA-256 already pads to
//! (`k` stays 15), so a statement pays for them only in lincheck nonzeros.
//!
//! Public inputs: the chaining value (32 bytes) and block (64), as in
//! [`crate::sha256`], then `P` (32 bytes), then `b` (one bit); outputs: the
//! new chaining value (32 bytes), then `E` and `F` (32 bytes each). Byte
//! `j`, bit `t` of each is bit `8 j + t`. [`PathStepLayout`] says where
//! each is, for these 32-byte nodes and for SHA-256/192's 24-byte ones.

use crate::builder::CircuitBuilder;
use crate::lin::Lin;
use crate::r1cs::R1cs;
use crate::sha256::{compress_gadget, BLOCK_BITS, CV_BITS, OUTPUT_BITS};
use crate::word::Word;

/// Where a path step's values are, for Merkle nodes of `node_bytes` bytes:
/// 32 for SHA-256 (the layout the module documentation describes), 24 for
/// the SHA-256/192 sets of NIST SP 800-208 (`left` at block bytes 22..46,
/// `right` at 46..64 and 0..6 of the second block; `P`, `E` and `F` of 24
/// bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathStepLayout {
    /// Bytes of a node: 24 or 32.
    pub node_bytes: usize,
}

/// Block byte where `left` starts.
pub const LEFT_BYTE: usize = 22;

impl PathStepLayout {
    /// SHA-256's 32-byte nodes.
    pub const SHA256: PathStepLayout = PathStepLayout { node_bytes: 32 };
    /// SHA-256/192's 24-byte nodes.
    pub const SHA256_192: PathStepLayout = PathStepLayout { node_bytes: 24 };

    /// Bits of a node (and of `P`, `E`, `F`).
    pub fn node_bits(self) -> usize {
        8 * self.node_bytes
    }

    /// Input bit offset of `P`.
    pub fn prev_offset(self) -> usize {
        CV_BITS + BLOCK_BITS
    }

    /// Input bit of the direction `b`.
    pub fn bit_offset(self) -> usize {
        self.prev_offset() + self.node_bits()
    }

    /// Public input bits: chaining value, block, `P`, `b`.
    pub fn public_input_bits(self) -> usize {
        self.bit_offset() + 1
    }

    /// Output bit offset of `E`.
    pub fn e_offset(self) -> usize {
        OUTPUT_BITS
    }

    /// Output bit offset of `F`.
    pub fn f_offset(self) -> usize {
        self.e_offset() + self.node_bits()
    }

    /// Public output bits: the new chaining value, `E`, `F`.
    pub fn public_output_bits(self) -> usize {
        self.f_offset() + self.node_bits()
    }

    /// Block byte where `right` starts; its first `64 - right_byte` bytes
    /// end the block.
    pub fn right_byte(self) -> usize {
        LEFT_BYTE + self.node_bytes
    }

    /// Block bit (of the 512) that `F`'s bit `t` compares with `P`'s bit
    /// `t`: from `right_byte` to the block's end, then from the block's
    /// start.
    pub fn right_block_bit(self, t: usize) -> usize {
        let head = 8 * (64 - self.right_byte());
        if t < head {
            8 * self.right_byte() + t
        } else {
            t - head
        }
    }
}

/// Sets a path step's check words (see the module documentation): for `t`
/// below `node_bits`, output `e_offset + t` is `E[t] = (1 ⊕ b) · (left[t] ⊕
/// P[t])` and output `e_offset + node_bits + t` is `F[t] = b · (right[t] ⊕
/// P[t])`, where `left(t)` and `right(t)` are the input bits of `left`'s and
/// `right`'s bit `t`, `P` starts at input `prev_offset` and `b` is input
/// `bit_offset`. The SHA-256 and the SHAKE256 path steps share it.
pub(crate) fn side_checks(
    b: &mut CircuitBuilder,
    node_bits: usize,
    prev_offset: usize,
    bit_offset: usize,
    e_offset: usize,
    left: impl Fn(usize) -> usize,
    right: impl Fn(usize) -> usize,
) {
    let dir = b.public_input(bit_offset);
    let not_dir = dir.xor(&Lin::one());
    for t in 0..node_bits {
        let prev = b.public_input(prev_offset + t);
        let l = b.public_input(left(t)).xor(&prev);
        b.set_public_output_and_xor(e_offset + t, &not_dir, &l, &Lin::zero());
        let r = b.public_input(right(t)).xor(&prev);
        b.set_public_output_and_xor(e_offset + node_bits + t, &dir, &r, &Lin::zero());
    }
}

/// The circuit.
#[derive(Clone, Debug)]
pub struct Sha256PathStep {
    r1cs: R1cs,
}

impl Sha256PathStep {
    /// Builds and compiles the circuit for nodes laid out as `layout` says.
    pub fn new(layout: PathStepLayout) -> Self {
        let mut b = CircuitBuilder::new(layout.public_input_bits(), layout.public_output_bits());
        let cv: [Word; 8] = std::array::from_fn(|j| b.public_input_word_be(32 * j));
        let block: [Word; 16] = std::array::from_fn(|j| b.public_input_word_be(CV_BITS + 32 * j));
        let out = compress_gadget(&mut b, &cv, &block);
        for (j, word) in out.iter().enumerate() {
            b.set_public_output_word_be(32 * j, word);
        }
        side_checks(
            &mut b,
            layout.node_bits(),
            layout.prev_offset(),
            layout.bit_offset(),
            layout.e_offset(),
            |t| CV_BITS + 8 * LEFT_BYTE + t,
            |t| CV_BITS + layout.right_block_bit(t),
        );
        let r1cs = b.compile().expect("every output is set");
        Sha256PathStep { r1cs }
    }

    /// The compiled constraint system.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// Consumes the circuit, returning its constraint system.
    pub fn into_r1cs(self) -> R1cs {
        self.r1cs
    }
}
