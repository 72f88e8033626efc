//! Values the verifier holds when the PIOP's messages are padded: a public
//! constant plus a linear combination of pads (`docs/zk.md`, section 3).
//!
//! A padded message `m^ = m + p` (characteristic 2: also `m = m^ + p`)
//! becomes the value `m^ + 1 * p`; sums and products by public scalars stay
//! such values, and each of the protocol's equalities becomes a linear
//! constraint on the pads ([`Veil::require`]). The product of two veiled
//! values has no such form and no operation makes one: the zerocheck's one
//! product is made public instead.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, AddAssign, Mul};

use crate::{Gf128, Transcript};

/// A value of the verifier's running claims: a field element in the clear,
/// or [`Veiled`].
pub trait Value:
    Clone + core::fmt::Debug + From<Gf128> + Add<Output = Self> + AddAssign + Mul<Gf128, Output = Self>
{
}

impl Value for Gf128 {}

/// How the PIOP's scalar messages reach the verifier, and what becomes of
/// its equalities.
pub trait Channel {
    /// The verifier's values.
    type Value: Value + Into<Option<Gf128>>;

    /// Whether the values are public (in the clear): only then are they
    /// absorbed into the transcript.
    const PUBLIC: bool;

    /// A message as the proof carries it.
    fn receive(&mut self, sent: Gf128) -> Self::Value;

    /// A pad used as a mask, not to cover a message (the zerocheck's
    /// `rho_A`, `rho_B`); `None` in the clear, where nothing is masked.
    fn mask(&mut self) -> Option<Self::Value>;

    /// One of the protocol's equalities: `false` when it fails (in the
    /// clear); veiled, it is recorded as a constraint and `true`.
    fn require(&mut self, lhs: Self::Value, rhs: Self::Value) -> bool;

    /// After the last check: veiled, the constraints batched with a
    /// challenge `xi` drawn now ([`Veil::batched`]): each pad's coefficient
    /// and the value their combination must equal, a claim on the
    /// committed pads that the opening proves. `None` in the clear.
    fn close(&mut self, transcript: &mut Transcript) -> Option<(Vec<Gf128>, Gf128)>;
}

/// Transcript label of the challenge that batches the constraints.
pub const LABEL_XI: &[u8] = b"zk/constraints-xi";

/// Messages in the clear: every equality is checked at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clear;

impl Channel for Clear {
    type Value = Gf128;
    const PUBLIC: bool = true;

    fn receive(&mut self, sent: Gf128) -> Gf128 {
        sent
    }

    fn mask(&mut self) -> Option<Gf128> {
        None
    }

    fn require(&mut self, lhs: Gf128, rhs: Gf128) -> bool {
        lhs == rhs
    }

    fn close(&mut self, _: &mut Transcript) -> Option<(Vec<Gf128>, Gf128)> {
        None
    }
}

/// `constant + sum_i coefs[i] * pad_(index i)`, the terms sorted by pad
/// index with nonzero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Veiled {
    constant: Gf128,
    terms: Vec<(u32, Gf128)>,
}

impl Veiled {
    /// Pad `i`.
    pub fn pad(i: u32) -> Self {
        Veiled {
            constant: Gf128::ZERO,
            terms: vec![(i, Gf128::ONE)],
        }
    }

    /// The public constant.
    pub fn constant(&self) -> Gf128 {
        self.constant
    }

    /// The pads' coefficients, by increasing pad index.
    pub fn terms(&self) -> &[(u32, Gf128)] {
        &self.terms
    }

    /// The value for these pad values (`pads[i]` is pad `i`).
    pub fn at(&self, pads: &[Gf128]) -> Gf128 {
        self.constant
            + self
                .terms
                .iter()
                .map(|&(i, c)| c * pads[i as usize])
                .sum::<Gf128>()
    }
}

/// A veiled value is never public.
impl From<Veiled> for Option<Gf128> {
    fn from(_: Veiled) -> Self {
        None
    }
}

impl From<Gf128> for Veiled {
    fn from(constant: Gf128) -> Self {
        Veiled {
            constant,
            terms: Vec::new(),
        }
    }
}

impl Add for Veiled {
    type Output = Veiled;

    fn add(mut self, mut other: Veiled) -> Veiled {
        // The longer one takes the other's terms in place: a running claim
        // gains a round's few new pads at its end, without a copy.
        if self.terms.len() < other.terms.len() {
            core::mem::swap(&mut self, &mut other);
        }
        self.constant += other.constant;
        for (i, c) in other.terms {
            match self.terms.binary_search_by_key(&i, |&(j, _)| j) {
                Ok(at) => {
                    let sum = self.terms[at].1 + c;
                    if sum.is_zero() {
                        self.terms.remove(at);
                    } else {
                        self.terms[at].1 = sum;
                    }
                }
                Err(at) => self.terms.insert(at, (i, c)),
            }
        }
        self
    }
}

impl AddAssign for Veiled {
    fn add_assign(&mut self, other: Veiled) {
        *self = core::mem::take(self) + other;
    }
}

impl Mul<Gf128> for Veiled {
    type Output = Veiled;

    fn mul(mut self, s: Gf128) -> Veiled {
        if s.is_zero() {
            return Veiled::default();
        }
        self.constant *= s;
        for (_, c) in &mut self.terms {
            *c *= s;
        }
        self
    }
}

impl Value for Veiled {}

/// Padded messages: message `i` is covered by pad `i`, masks take the
/// pads after the messages' in the order they are asked for, and every
/// equality is a constraint `lhs + rhs = 0` on the pads.
#[derive(Debug, Default)]
pub struct Veil {
    next: u32,
    constraints: Vec<Veiled>,
    /// Checks (by their order) that are not recorded ([`Veil::leaving_out`]).
    left_out: Vec<usize>,
    checks: usize,
}

impl Veil {
    /// A channel that records every check but those at the positions in
    /// `checks` (in the order the checks are made): for the tests that show
    /// each constraint is needed, by a cheating prover that such a verifier
    /// accepts. A verifier that leaves a check out is not sound.
    pub fn leaving_out(checks: &[usize]) -> Self {
        Veil {
            left_out: checks.to_vec(),
            ..Veil::default()
        }
    }

    /// Pads used so far.
    pub fn pads(&self) -> usize {
        self.next as usize
    }

    /// The constraints recorded, in order.
    pub fn constraints(&self) -> &[Veiled] {
        &self.constraints
    }

    /// The constraints batched with the powers of `xi`: the coefficient of
    /// each pad and the public value their combination must equal
    /// (`sum_k xi^k C_k = 0`, so `sum_i coef_i pad_i = sum_k xi^k c_k`).
    pub fn batched(&self, xi: Gf128) -> (Vec<Gf128>, Gf128) {
        let mut coefs = vec![Gf128::ZERO; self.pads()];
        let mut value = Gf128::ZERO;
        let mut power = Gf128::ONE;
        for c in &self.constraints {
            value += power * c.constant;
            for &(i, x) in &c.terms {
                coefs[i as usize] += power * x;
            }
            power *= xi;
        }
        (coefs, value)
    }

    fn take(&mut self) -> Veiled {
        let pad = Veiled::pad(self.next);
        self.next += 1;
        pad
    }
}

impl Channel for Veil {
    type Value = Veiled;
    const PUBLIC: bool = false;

    fn receive(&mut self, sent: Gf128) -> Veiled {
        Veiled::from(sent) + self.take()
    }

    fn mask(&mut self) -> Option<Veiled> {
        Some(self.take())
    }

    fn require(&mut self, lhs: Veiled, rhs: Veiled) -> bool {
        self.checks += 1;
        if !self.left_out.contains(&(self.checks - 1)) {
            self.constraints.push(lhs + rhs);
        }
        true
    }

    fn close(&mut self, transcript: &mut Transcript) -> Option<(Vec<Gf128>, Gf128)> {
        let xi = transcript.challenge_field(LABEL_XI);
        Some(self.batched(xi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: u128) -> Gf128 {
        Gf128::new(x)
    }

    #[test]
    fn veiled_arithmetic_evaluates_like_the_field() {
        let pads = [g(11), g(0x1234), g(77), g(5 << 100)];
        let a = Veiled::from(g(3)) + Veiled::pad(0) * g(9) + Veiled::pad(2);
        let b = Veiled::pad(2) * g(6) + Veiled::pad(3) + Veiled::from(g(1 << 90));
        let s = g(0xdead_beef);
        let c = (a.clone() + b.clone()) * s + a.clone();
        assert_eq!(c.at(&pads), (a.at(&pads) + b.at(&pads)) * s + a.at(&pads));
        // A pad that cancels leaves no term.
        let d = Veiled::pad(1) + Veiled::pad(1);
        assert!(d.terms().is_empty());
        assert!((a * Gf128::ZERO).terms().is_empty());
    }

    #[test]
    fn batched_constraints_hold_exactly_when_every_constraint_does() {
        let mut veil = Veil::default();
        let m = [g(5), g(9), g(1 << 70)];
        let sent: Vec<Veiled> = m.iter().map(|&x| veil.receive(x)).collect();
        // The pads that make the true messages 1, 2, 3: sent = m + pad.
        let pads = [g(5) + g(1), g(9) + g(2), g(1 << 70) + g(3)];
        veil.require(sent[0].clone() + sent[1].clone(), Veiled::from(g(3)));
        veil.require(sent[2].clone(), Veiled::from(g(3)));
        let xi = g(0x5151);
        let (coefs, value) = veil.batched(xi);
        let combined: Gf128 = coefs.iter().zip(&pads).map(|(c, p)| *c * *p).sum();
        assert_eq!(combined, value);
        let mut wrong = pads;
        wrong[2] += Gf128::ONE;
        let combined: Gf128 = coefs.iter().zip(&wrong).map(|(c, p)| *c * *p).sum();
        assert_ne!(combined, value);
    }
}
