//! Words of 32 or 64 symbolic bits.
//!
//! Bit `i` of a [`Word`] is the coefficient of 2^i. The width is a const
//! parameter, 32 unless named ([`Word64`] for SHA-512's words), so one type
//! and one set of builder operations serve every hash. Everything here is
//! linear (XOR, NOT, rotations, shifts, constants) and therefore free; the
//! operations that create rows (AND, addition, materialisation) live on
//! [`CircuitBuilder`](crate::circuit::CircuitBuilder).

use crate::circuit::lin::Lin;

/// Number of bits in a default (32-bit) [`Word`].
pub const WORD_BITS: usize = 32;

/// A word of `W` symbolic bits (`W` at most 64); `bits[i]` is the
/// coefficient of 2^i.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word<const W: usize = WORD_BITS> {
    bits: [Lin; W],
}

/// A 64-bit word (SHA-512).
pub type Word64 = Word<64>;

impl<const W: usize> Word<W> {
    /// Wraps `W` bit forms, least significant first.
    pub fn from_bits(bits: [Lin; W]) -> Self {
        Word { bits }
    }

    /// The constant `value` (its low `W` bits).
    pub fn constant(value: u64) -> Self {
        Word {
            bits: core::array::from_fn(|i| Lin::constant((value >> i) & 1 == 1)),
        }
    }

    /// The word whose bit `i` is wire `first_wire + i`.
    pub fn from_wires(first_wire: u32) -> Self {
        Word {
            bits: core::array::from_fn(|i| Lin::wire(first_wire + i as u32)),
        }
    }

    /// Bit `i` (coefficient of 2^i).
    pub fn bit(&self, i: usize) -> &Lin {
        &self.bits[i]
    }

    /// All bits, least significant first.
    pub fn bits(&self) -> &[Lin; W] {
        &self.bits
    }

    /// `Some(value)` if every bit is a constant.
    pub fn as_constant(&self) -> Option<u64> {
        let mut value = 0u64;
        for (i, bit) in self.bits.iter().enumerate() {
            value |= u64::from(bit.as_constant()?) << i;
        }
        Some(value)
    }

    /// Bitwise XOR.
    pub fn xor(&self, other: &Self) -> Self {
        Word {
            bits: core::array::from_fn(|i| self.bits[i].xor(&other.bits[i])),
        }
    }

    /// Bitwise NOT.
    pub fn not(&self) -> Self {
        Word {
            bits: core::array::from_fn(|i| self.bits[i].not()),
        }
    }

    /// Rotation right by `n` bits: result bit `i` is input bit `(i + n) mod W`.
    pub fn rotr(&self, n: u32) -> Self {
        let n = n as usize % W;
        Word {
            bits: core::array::from_fn(|i| self.bits[(i + n) % W].clone()),
        }
    }

    /// Rotation left by `n` bits.
    pub fn rotl(&self, n: u32) -> Self {
        self.rotr(((W - n as usize % W) % W) as u32)
    }

    /// Logical shift right by `n` bits (zeros enter at the top).
    pub fn shr(&self, n: u32) -> Self {
        let n = n as usize;
        Word {
            bits: core::array::from_fn(|i| {
                if i + n < W {
                    self.bits[i + n].clone()
                } else {
                    Lin::zero()
                }
            }),
        }
    }

    /// Logical shift left by `n` bits (zeros enter at the bottom).
    pub fn shl(&self, n: u32) -> Self {
        let n = n as usize;
        Word {
            bits: core::array::from_fn(|i| {
                if i >= n {
                    self.bits[i - n].clone()
                } else {
                    Lin::zero()
                }
            }),
        }
    }

    /// The largest number of wires in any bit's form (density of the word).
    pub fn max_len(&self) -> usize {
        self.bits.iter().map(Lin::len).max().unwrap_or(0)
    }

    /// Evaluates the word on one instance's wire values.
    pub fn eval(&self, z: &[bool]) -> u64 {
        self.bits
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, bit)| acc | (u64::from(bit.eval(z)) << i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ops_match_u32() {
        let x = 0x9abc_def1u32;
        let y = 0x1357_9bdfu32;
        let (wx, wy): (Word, Word) = (Word::constant(x.into()), Word::constant(y.into()));
        let c = |v: u32| Some(u64::from(v));
        assert_eq!(wx.xor(&wy).as_constant(), c(x ^ y));
        assert_eq!(wx.not().as_constant(), c(!x));
        for n in [0, 1, 7, 13, 31] {
            assert_eq!(wx.rotr(n).as_constant(), c(x.rotate_right(n)));
            assert_eq!(wx.rotl(n).as_constant(), c(x.rotate_left(n)));
            assert_eq!(wx.shr(n).as_constant(), c(x >> n));
            assert_eq!(wx.shl(n).as_constant(), c(x << n));
        }
    }

    #[test]
    fn linear_ops_match_u64() {
        let x = 0x9abc_def1_0246_8ace_u64;
        let y = 0x1357_9bdf_fdb9_7531_u64;
        let (wx, wy) = (Word64::constant(x), Word64::constant(y));
        assert_eq!(wx.xor(&wy).as_constant(), Some(x ^ y));
        assert_eq!(wx.not().as_constant(), Some(!x));
        for n in [0, 1, 14, 28, 41, 63] {
            assert_eq!(wx.rotr(n).as_constant(), Some(x.rotate_right(n)));
            assert_eq!(wx.rotl(n).as_constant(), Some(x.rotate_left(n)));
            assert_eq!(wx.shr(n).as_constant(), Some(x >> n));
            assert_eq!(wx.shl(n).as_constant(), Some(x << n));
        }
    }
}
