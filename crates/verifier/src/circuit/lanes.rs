//! Several hash gadgets side by side in one instance circuit, each in its
//! own *lane* of public inputs and outputs: copies of one gadget, so that an
//! instance holds as many calls as fill a power of two of wires (a single
//! SHA-256 path step leaves a quarter of its `2^15` wires unused, five of
//! them fill 94% of `2^17`), or gadgets of two hashes, for a statement
//! that calls both (SLH-DSA's SHA-2 sets at 192 and 256 bits: SHA-256 and
//! SHA-512).
//!
//! The lanes share nothing but the instance: a statement places its calls
//! of each gadget in that gadget's lanes and wires them with its relations.
//! A lane an instance does not use holds zeros and is bound to nothing.
//!
//! Public inputs: every lane's, in order (a group's copies one after the
//! other, then the next group's), each lane's from a byte boundary (a path
//! step's 1,025 input bits take 129 bytes, the last 7 bits unused); public
//! outputs likewise. Each lane is
//! built exactly as its gadget alone ([`CircuitBuilder::set_lane`]), so
//! its bytes are where the gadget's own circuit has them, shifted by the
//! lanes before it.

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::keccak_path_step::KeccakPathStep;
use crate::circuit::path_step::PathStepLayout;
use crate::circuit::r1cs::R1cs;
use crate::circuit::sha256;
use crate::circuit::sha256_path_step::Sha256PathStep;
use crate::circuit::sha512;

/// A gadget a lane holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gadget {
    /// SHA-256 compression ([`sha256::build`]).
    Sha256,
    /// SHA-512 compression ([`sha512::build`]).
    Sha512,
    /// SHA-256 compression with a path step's check ([`Sha256PathStep`]).
    Sha256PathStep(PathStepLayout),
    /// A SHAKE256 sponge step with a path step's check
    /// ([`KeccakPathStep`]).
    KeccakPathStep(PathStepLayout),
}

impl Gadget {
    /// Public input bits of one lane, whole bytes.
    pub fn input_stride(self) -> usize {
        self.input_bits().next_multiple_of(8)
    }

    /// Public output bits of one lane, whole bytes.
    pub fn output_stride(self) -> usize {
        self.output_bits().next_multiple_of(8)
    }

    /// Public input bits of the gadget.
    pub fn input_bits(self) -> usize {
        match self {
            Gadget::Sha256 => sha256::PUBLIC_INPUT_BITS,
            Gadget::Sha512 => sha512::PUBLIC_INPUT_BITS,
            Gadget::Sha256PathStep(layout) | Gadget::KeccakPathStep(layout) => layout.public_input_bits(),
        }
    }

    /// Public output bits of the gadget.
    pub fn output_bits(self) -> usize {
        match self {
            Gadget::Sha256 => sha256::OUTPUT_BITS,
            Gadget::Sha512 => sha512::OUTPUT_BITS,
            Gadget::Sha256PathStep(layout) | Gadget::KeccakPathStep(layout) => layout.public_output_bits(),
        }
    }

    fn build(self, b: &mut CircuitBuilder) {
        match self {
            Gadget::Sha256 => sha256::build(b),
            Gadget::Sha512 => sha512::build(b),
            Gadget::Sha256PathStep(layout) => Sha256PathStep::build(b, layout),
            Gadget::KeccakPathStep(layout) => KeccakPathStep::build(b, layout),
        }
    }
}

/// The circuit: `copies` lanes of each group's gadget, group by group.
#[derive(Clone, Debug)]
pub struct Lanes {
    r1cs: R1cs,
}

impl Lanes {
    /// Builds and compiles the circuit of `groups`: `(gadget, copies)`.
    pub fn new(groups: &[(Gadget, usize)]) -> Self {
        let lanes = || {
            groups
                .iter()
                .flat_map(|&(g, copies)| core::iter::repeat_n(g, copies))
        };
        let inputs: usize = lanes().map(Gadget::input_stride).sum();
        let outputs: usize = lanes().map(Gadget::output_stride).sum();
        let mut b = CircuitBuilder::new(inputs, outputs);
        let (mut input_at, mut output_at) = (0, 0);
        for gadget in lanes() {
            b.set_lane(input_at, output_at);
            gadget.build(&mut b);
            input_at += gadget.input_stride();
            output_at += gadget.output_stride();
        }
        let r1cs = b.compile().expect("every lane sets its outputs");
        Lanes { r1cs }
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
