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
//! [`crate::circuit::sha256`], then `P` (32 bytes), then `b` (one bit); outputs: the
//! new chaining value (32 bytes), then `E` and `F` (32 bytes each), then
//! `J`, block byte 22 plus one (a chain step's number `j` and the next
//! one's: [`crate::circuit::path_step`], six AND rows). Byte
//! `j`, bit `t` of each is bit `8 j + t`. [`PathStepLayout::sha256`] says
//! where each is, for these 32-byte nodes and for SHA-256/192's 24-byte
//! ones.

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::path_step::{side_checks, PathStepLayout};
use crate::circuit::r1cs::R1cs;
use crate::circuit::sha256::{compress_gadget, CV_BITS};
use crate::circuit::word::Word;

/// The circuit.
#[derive(Clone, Debug)]
pub struct Sha256PathStep {
    r1cs: R1cs,
}

impl Sha256PathStep {
    /// Builds and compiles the circuit for nodes laid out as `layout` says
    /// ([`PathStepLayout::sha256`]).
    pub fn new(layout: PathStepLayout) -> Self {
        assert_eq!(
            layout,
            PathStepLayout::sha256(layout.node_bytes).with_left_byte(layout.left_byte),
            "SHA-256 rows"
        );
        let mut b = CircuitBuilder::new(layout.public_input_bits(), layout.public_output_bits());
        Self::build(&mut b, layout);
        let r1cs = b.compile().expect("every output is set");
        Sha256PathStep { r1cs }
    }

    /// Builds the circuit into `b`, its public values at input bit 0 and
    /// output bit 0 (of `b`'s lane).
    pub fn build(b: &mut CircuitBuilder, layout: PathStepLayout) {
        assert_eq!(
            layout,
            PathStepLayout::sha256(layout.node_bytes).with_left_byte(layout.left_byte),
            "SHA-256 rows"
        );
        let cv: [Word; 8] = core::array::from_fn(|j| b.public_input_word_be(32 * j));
        let block: [Word; 16] = core::array::from_fn(|j| b.public_input_word_be(CV_BITS + 32 * j));
        let out = compress_gadget(b, &cv, &block);
        for (j, word) in out.iter().enumerate() {
            b.set_public_output_word_be(32 * j, word);
        }
        side_checks(b, layout);
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
