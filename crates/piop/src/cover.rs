//! How the prover sends the PIOP's scalar messages: in the clear, or padded
//! for zero knowledge (`docs/zk.md`, section 3). The pads are entries of
//! the committed table, so they are fixed before any challenge; the order
//! in which messages take them is the verifier's
//! (`starling_verifier::zk::veiled::Veil`): the zerocheck's two masks
//! first, then every message in the order it is sent.

use starling_field::Gf128;

/// The prover's side of a channel.
pub trait Cover {
    /// The zerocheck's masks `rho_A`, `rho_B`, taken before any message;
    /// `None` in the clear.
    fn masks(&mut self) -> Option<[Gf128; 2]>;

    /// What the proof carries for the message `m`.
    fn cover(&mut self, m: Gf128) -> Gf128;

    /// What the proof carries for the zerocheck's evaluations `A'`, `B'`,
    /// sent in the clear in either mode: themselves. Only a test's
    /// cheating prover (`starling`'s `Tamper`) sends others, and goes on
    /// from those, to show the verifier catches a wrong public product.
    fn evaluations(&mut self, evals: [Gf128; 2]) -> [Gf128; 2] {
        evals
    }

    /// A fold of the committed table that a sumcheck then proves against
    /// public `weights` (its sum `<weights, values>` is the step's claim):
    /// kept as it is. Only a test's cheating prover changes it, to show
    /// that ring switching's check of the fold's claim is needed on its
    /// own: a change orthogonal to the weights leaves every round
    /// consistent and only the claim's value wrong.
    fn fold(&mut self, _which: Fold, _weights: &[Gf128], _values: &mut [Gf128]) {}
}

/// The folds a sumcheck proves: the lincheck's, one per group, and the
/// wiring check's over the public block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// The lincheck's fold of a group (by its index).
    Lincheck(usize),
    /// The wiring check's fold at its instance point.
    Wiring,
}

/// Messages in the clear.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plain;

impl Cover for Plain {
    fn masks(&mut self) -> Option<[Gf128; 2]> {
        None
    }

    fn cover(&mut self, m: Gf128) -> Gf128 {
        m
    }
}

/// Messages padded with the pads' values, in order.
#[derive(Clone, Debug)]
pub struct Padded {
    pads: Vec<Gf128>,
    next: usize,
}

impl Padded {
    /// The pads' values (the table's entries at the pads' positions).
    pub fn new(pads: Vec<Gf128>) -> Self {
        Padded { pads, next: 0 }
    }

    /// Pads taken so far.
    pub fn used(&self) -> usize {
        self.next
    }

    fn take(&mut self) -> Gf128 {
        let pad = *self
            .pads
            .get(self.next)
            .expect("the layout holds a pad for every message (zk_layout counts them)");
        self.next += 1;
        pad
    }
}

impl Cover for Padded {
    fn masks(&mut self) -> Option<[Gf128; 2]> {
        Some([self.take(), self.take()])
    }

    fn cover(&mut self, m: Gf128) -> Gf128 {
        m + self.take()
    }
}
