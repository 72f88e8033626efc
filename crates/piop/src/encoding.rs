//! Reading and writing proof messages as bytes.
//!
//! Every proof of this layer is a fixed number of field elements once the
//! shape is known, so a decoder never allocates from a length found in the
//! bytes: the caller says how many elements to read and the reader fails
//! with an error, never a panic, when the bytes run out.

use starling_field::Gf128;

use crate::PiopError;

/// Appends field elements to a byte buffer (16 bytes each, little-endian).
pub(crate) fn write_fields(out: &mut Vec<u8>, vs: &[Gf128]) {
    for v in vs {
        out.extend_from_slice(&v.to_bytes());
    }
}

/// A cursor over untrusted proof bytes.
pub struct ByteReader<'a> {
    rest: &'a [u8],
}

impl<'a> ByteReader<'a> {
    /// A reader positioned at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteReader { rest: bytes }
    }

    /// Reads one field element.
    pub fn read_field(&mut self) -> Result<Gf128, PiopError> {
        let (head, tail) = self.rest.split_first_chunk::<16>().ok_or(PiopError::Truncated)?;
        self.rest = tail;
        Ok(Gf128::from_bytes(*head))
    }

    /// Reads `count` field elements; `count` must come from the known shape.
    pub fn read_fields(&mut self, count: usize) -> Result<Vec<Gf128>, PiopError> {
        if self.rest.len() / 16 < count {
            return Err(PiopError::Truncated);
        }
        (0..count).map(|_| self.read_field()).collect()
    }

    /// Reads a little-endian `u64`.
    pub fn read_u64(&mut self) -> Result<u64, PiopError> {
        let (head, tail) = self.rest.split_first_chunk::<8>().ok_or(PiopError::Truncated)?;
        self.rest = tail;
        Ok(u64::from_le_bytes(*head))
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Fails unless every byte was read.
    pub fn finish(self) -> Result<(), PiopError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(PiopError::TrailingBytes(self.rest.len()))
        }
    }
}
