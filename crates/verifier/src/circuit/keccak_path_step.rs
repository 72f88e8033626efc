//! One absorbing step of a SHAKE256 sponge with the check of a Merkle path
//! step whose direction is private: the instance circuit of the LMS and HSS
//! statements with SHAKE256 (NIST SP 800-208 §5), as
//! [`crate::circuit::sha256_path_step`] is with SHA-256.
//!
//! The step is `S' = Keccak-f[1600](S ⊕ (B ‖ 0^512))`: the state `S` (the
//! previous step's output, zero for a hash's first block) with the
//! 136-byte rate block `B` XORed in (linear, so free). An LMS path node's
//! message, `I ‖ u32(node / 2) ‖ D_INTR ‖ left ‖ right`, is `22 + 2n` bytes
//! and fits one block, `left` at block bytes `22..22 + n` and `right` right
//! after it; the node below is `P`, on the side the direction bit `b` says,
//! checked by two words the statement binds to zero in node blocks:
//!
//! - `E = (1 ⊕ b) · (B[22..22 + n] ⊕ P)`,
//! - `F = b · (B[22 + n..22 + 2n] ⊕ P)`.
//!
//! Public inputs: `S` (200 bytes), `B` (136), `P` (`n`), `b` (one bit);
//! outputs: `S'` (200 bytes), `E`, `F` (`n` each), `J` (block byte 22
//! plus one: [`crate::circuit::path_step`]). States are FIPS 202's
//! byte strings ([`crate::circuit::keccak`]: lane `(x, y)` little-endian at bytes
//! `8(x + 5y)..`); byte `j`, bit `t` of each value is bit `8j + t`.
//! Cost: Keccak-f's 38,400 AND rows, `16 n` for the checks and 6 for `J`.

use alloc::vec::Vec;

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::keccak::{permute_gadget, STATE_BITS};
use crate::circuit::lin::Lin;
use crate::circuit::path_step::{side_checks, PathStepLayout};
use crate::circuit::r1cs::R1cs;

/// Bytes of SHAKE256's rate block.
pub const RATE_BYTES: usize = 136;
/// Bytes of the Keccak-f\[1600\] state.
pub const STATE_BYTES: usize = STATE_BITS / 8;

/// The circuit.
#[derive(Clone, Debug)]
pub struct KeccakPathStep {
    r1cs: R1cs,
}

impl KeccakPathStep {
    /// Builds and compiles the circuit for nodes laid out as `layout` says
    /// ([`PathStepLayout::shake256`]).
    pub fn new(layout: PathStepLayout) -> Self {
        assert_eq!(
            layout,
            PathStepLayout::shake256(layout.node_bytes).with_left_byte(layout.left_byte),
            "SHAKE256 rows"
        );
        let mut b = CircuitBuilder::new(layout.public_input_bits(), layout.public_output_bits());
        Self::build(&mut b, layout);
        let r1cs = b.compile().expect("every output is set");
        KeccakPathStep { r1cs }
    }

    /// Builds the circuit into `b`, its public values at input bit 0 and
    /// output bit 0 (of `b`'s lane).
    pub fn build(b: &mut CircuitBuilder, layout: PathStepLayout) {
        assert_eq!(
            layout,
            PathStepLayout::shake256(layout.node_bytes).with_left_byte(layout.left_byte),
            "SHAKE256 rows"
        );
        let block_bit = |b: &CircuitBuilder, i: usize| b.public_input(layout.block_offset() + i);
        let state: Vec<Lin> = (0..STATE_BITS)
            .map(|j| {
                let s = b.public_input(j);
                if j < 8 * RATE_BYTES {
                    s.xor(&block_bit(b, j))
                } else {
                    s
                }
            })
            .collect();
        permute_gadget(b, &state);
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
