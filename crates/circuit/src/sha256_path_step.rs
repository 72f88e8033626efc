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
//! `j`, bit `t` of each is bit `8 j + t`.

use crate::builder::CircuitBuilder;
use crate::lin::Lin;
use crate::r1cs::R1cs;
use crate::sha256::{compress_gadget, BLOCK_BITS, CV_BITS, OUTPUT_BITS};
use crate::word::Word;

/// Bits of the previous node `P`.
pub const PREV_BITS: usize = 256;
/// Input bit offset of `P`.
pub const PREV_OFFSET: usize = CV_BITS + BLOCK_BITS;
/// Input bit of the direction `b`.
pub const BIT_OFFSET: usize = PREV_OFFSET + PREV_BITS;
/// Public input bits: chaining value, block, `P`, `b`.
pub const PUBLIC_INPUT_BITS: usize = BIT_OFFSET + 1;
/// Output bit offset of `E`.
pub const E_OFFSET: usize = OUTPUT_BITS;
/// Output bit offset of `F`.
pub const F_OFFSET: usize = E_OFFSET + 256;
/// Public output bits: the new chaining value, `E`, `F`.
pub const PUBLIC_OUTPUT_BITS: usize = F_OFFSET + 256;

/// Block byte where `left` starts.
pub const LEFT_BYTE: usize = 22;
/// Block byte where `right` starts (its first 10 bytes end the block).
pub const RIGHT_BYTE: usize = 54;

/// Block bit (of the 512) that `F`'s bit `t` compares with `P`'s bit `t`:
/// bytes 54..64, then 0..22.
pub fn right_block_bit(t: usize) -> usize {
    let head = 8 * (64 - RIGHT_BYTE);
    if t < head {
        8 * RIGHT_BYTE + t
    } else {
        t - head
    }
}

/// The circuit.
#[derive(Clone, Debug)]
pub struct Sha256PathStep {
    r1cs: R1cs,
}

impl Default for Sha256PathStep {
    fn default() -> Self {
        Self::new()
    }
}

impl Sha256PathStep {
    /// Builds and compiles the circuit.
    pub fn new() -> Self {
        let mut b = CircuitBuilder::new(PUBLIC_INPUT_BITS, PUBLIC_OUTPUT_BITS);
        let cv: [Word; 8] = std::array::from_fn(|j| b.public_input_word_be(32 * j));
        let block: [Word; 16] = std::array::from_fn(|j| b.public_input_word_be(CV_BITS + 32 * j));
        let out = compress_gadget(&mut b, &cv, &block);
        for (j, word) in out.iter().enumerate() {
            b.set_public_output_word_be(32 * j, word);
        }
        let block_bit = |b: &CircuitBuilder, i: usize| b.public_input(CV_BITS + i);
        let prev = |b: &CircuitBuilder, t: usize| b.public_input(PREV_OFFSET + t);
        let dir = b.public_input(BIT_OFFSET);
        let not_dir = dir.xor(&Lin::one());
        for t in 0..256 {
            let left = block_bit(&b, 8 * LEFT_BYTE + t).xor(&prev(&b, t));
            b.set_public_output_and_xor(E_OFFSET + t, &not_dir, &left, &Lin::zero());
            let right = block_bit(&b, right_block_bit(t)).xor(&prev(&b, t));
            b.set_public_output_and_xor(F_OFFSET + t, &dir, &right, &Lin::zero());
        }
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
