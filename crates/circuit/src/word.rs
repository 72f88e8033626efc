//! 32-bit words as vectors of symbolic bits.
//!
//! Bit `i` of a [`Word`] is the coefficient of 2^i. Everything here is linear
//! (XOR, NOT, rotations, shifts, constants) and therefore free; the operations
//! that create rows (AND, addition, materialisation) live on
//! [`CircuitBuilder`](crate::CircuitBuilder).

use crate::lin::Lin;

/// Number of bits in a [`Word`].
pub const WORD_BITS: usize = 32;

/// A 32-bit word of symbolic bits; `bits[i]` is the coefficient of 2^i.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    bits: [Lin; WORD_BITS],
}

impl Word {
    /// Wraps 32 bit forms, least significant first.
    pub fn from_bits(bits: [Lin; WORD_BITS]) -> Self {
        Word { bits }
    }

    /// The constant `value`.
    pub fn constant(value: u32) -> Self {
        Word {
            bits: std::array::from_fn(|i| Lin::constant((value >> i) & 1 == 1)),
        }
    }

    /// The word whose bit `i` is wire `first_wire + i`.
    pub fn from_wires(first_wire: u32) -> Self {
        Word {
            bits: std::array::from_fn(|i| Lin::wire(first_wire + i as u32)),
        }
    }

    /// Bit `i` (coefficient of 2^i).
    pub fn bit(&self, i: usize) -> &Lin {
        &self.bits[i]
    }

    /// All bits, least significant first.
    pub fn bits(&self) -> &[Lin; WORD_BITS] {
        &self.bits
    }

    /// `Some(value)` if every bit is a constant.
    pub fn as_constant(&self) -> Option<u32> {
        let mut value = 0u32;
        for (i, bit) in self.bits.iter().enumerate() {
            value |= u32::from(bit.as_constant()?) << i;
        }
        Some(value)
    }

    /// Bitwise XOR.
    pub fn xor(&self, other: &Word) -> Word {
        Word {
            bits: std::array::from_fn(|i| self.bits[i].xor(&other.bits[i])),
        }
    }

    /// Bitwise NOT.
    pub fn not(&self) -> Word {
        Word {
            bits: std::array::from_fn(|i| self.bits[i].not()),
        }
    }

    /// Rotation right by `n` bits: result bit `i` is input bit `(i + n) mod 32`.
    pub fn rotr(&self, n: u32) -> Word {
        let n = n as usize % WORD_BITS;
        Word {
            bits: std::array::from_fn(|i| self.bits[(i + n) % WORD_BITS].clone()),
        }
    }

    /// Rotation left by `n` bits.
    pub fn rotl(&self, n: u32) -> Word {
        self.rotr((WORD_BITS as u32 - n % WORD_BITS as u32) % WORD_BITS as u32)
    }

    /// Logical shift right by `n` bits (zeros enter at the top).
    pub fn shr(&self, n: u32) -> Word {
        let n = n as usize;
        Word {
            bits: std::array::from_fn(|i| {
                if i + n < WORD_BITS {
                    self.bits[i + n].clone()
                } else {
                    Lin::zero()
                }
            }),
        }
    }

    /// Logical shift left by `n` bits (zeros enter at the bottom).
    pub fn shl(&self, n: u32) -> Word {
        let n = n as usize;
        Word {
            bits: std::array::from_fn(|i| {
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
    pub fn eval(&self, z: &[bool]) -> u32 {
        self.bits
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, bit)| acc | (u32::from(bit.eval(z)) << i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ops_match_u32() {
        let x = 0x9abc_def1u32;
        let y = 0x1357_9bdfu32;
        let (wx, wy) = (Word::constant(x), Word::constant(y));
        assert_eq!(wx.xor(&wy).as_constant(), Some(x ^ y));
        assert_eq!(wx.not().as_constant(), Some(!x));
        for n in [0, 1, 7, 13, 31] {
            assert_eq!(wx.rotr(n).as_constant(), Some(x.rotate_right(n)));
            assert_eq!(wx.rotl(n).as_constant(), Some(x.rotate_left(n)));
            assert_eq!(wx.shr(n).as_constant(), Some(x >> n));
            assert_eq!(wx.shl(n).as_constant(), Some(x << n));
        }
    }
}
