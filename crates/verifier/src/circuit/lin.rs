//! Symbolic GF(2) linear forms over the wires of one instance.
//!
//! A [`Lin`] is the XOR of a set of wires; wire 0 is the constant wire, so
//! including it means "xor 1". XOR, NOT and constants are set operations and
//! never create a row of the constraint system: only ANDs and explicit
//! materialisations do (DESIGN §2.2).

use alloc::vec::Vec;

use smallvec::{smallvec, SmallVec};

/// Index of the constant wire (always 1).
pub const ONE_WIRE: u32 = 0;

/// Terms a form holds without a heap allocation.
const INLINE_TERMS: usize = 8;

/// A linear form over GF(2): the XOR of the wires whose indices it holds.
///
/// Indices are kept sorted and distinct, so equality of `Lin`s is equality of
/// forms and the symmetric difference is a linear merge.
///
/// Up to eight terms are held inline: the gadgets make and drop forms by the
/// hundred thousand (Keccak-f's 24 rounds of 1,600 bits), and with a heap
/// block each, building Keccak-f's circuit spent about a third of its time
/// in the allocator.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lin {
    terms: SmallVec<[u32; INLINE_TERMS]>,
}

impl Lin {
    /// The constant 0 (empty XOR).
    pub fn zero() -> Self {
        Lin {
            terms: SmallVec::new(),
        }
    }

    /// The constant 1 (the constant wire).
    pub fn one() -> Self {
        Lin {
            terms: smallvec![ONE_WIRE],
        }
    }

    /// The constant `bit`.
    pub fn constant(bit: bool) -> Self {
        if bit {
            Self::one()
        } else {
            Self::zero()
        }
    }

    /// The single wire `index`.
    pub fn wire(index: u32) -> Self {
        Lin {
            terms: smallvec![index],
        }
    }

    /// Builds a form from any list of wires; a wire listed twice cancels.
    pub fn from_wires(wires: impl IntoIterator<Item = u32>) -> Self {
        let mut terms: Vec<u32> = wires.into_iter().collect();
        terms.sort_unstable();
        let mut out = SmallVec::with_capacity(terms.len());
        let mut i = 0;
        while i < terms.len() {
            let mut j = i;
            while j < terms.len() && terms[j] == terms[i] {
                j += 1;
            }
            if (j - i) % 2 == 1 {
                out.push(terms[i]);
            }
            i = j;
        }
        Lin { terms: out }
    }

    /// The sorted wire indices of this form.
    pub fn terms(&self) -> &[u32] {
        &self.terms
    }

    /// Number of wires in the form (its contribution to the nonzero count).
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True for the constant 0.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// True for the constant 1.
    pub fn is_one(&self) -> bool {
        self.terms.len() == 1 && self.terms[0] == ONE_WIRE
    }

    /// `Some(bit)` if the form is a constant.
    pub fn as_constant(&self) -> Option<bool> {
        if self.is_empty() {
            Some(false)
        } else if self.is_one() {
            Some(true)
        } else {
            None
        }
    }

    /// XOR of two forms (symmetric difference of the wire sets).
    pub fn xor(&self, other: &Lin) -> Lin {
        let (a, b) = (&self.terms, &other.terms);
        let mut out = SmallVec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                core::cmp::Ordering::Less => {
                    out.push(a[i]);
                    i += 1;
                }
                core::cmp::Ordering::Greater => {
                    out.push(b[j]);
                    j += 1;
                }
                core::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        Lin { terms: out }
    }

    /// NOT: XOR with the constant wire.
    pub fn not(&self) -> Lin {
        self.xor(&Lin::one())
    }

    /// Evaluates the form on one instance's wire values.
    pub fn eval(&self, z: &[bool]) -> bool {
        self.terms.iter().fold(false, |acc, &w| acc ^ z[w as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_is_symmetric_difference() {
        let a = Lin::from_wires([3, 1, 7]);
        let b = Lin::from_wires([7, 2, 0]);
        assert_eq!(a.xor(&b).terms(), &[0, 1, 2, 3]);
        assert_eq!(a.xor(&a), Lin::zero());
        assert_eq!(Lin::from_wires([5, 5, 5]).terms(), &[5]);
        assert!(Lin::zero().not().is_one());
        assert_eq!(Lin::one().not().as_constant(), Some(false));
    }
}
