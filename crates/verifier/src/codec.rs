//! Proof bytes: the one bounded reader of untrusted input and the matching
//! writes, shared by every layer's proof encoding (PIOP messages, the
//! opening, the proof file).
//!
//! Every read checks the bytes that remain before it takes any, so decoding
//! returns an error instead of panicking, and a count found in the bytes is
//! only used to allocate once the bytes it implies are known to be there.
//! Integers are little-endian; a field element is its 16-byte encoding
//! ([`Gf128::to_bytes`]); a section is a `u32` length and that many bytes.

use alloc::vec::Vec;

use crate::{Digest, Gf128};

/// Why bytes could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes end inside the named part.
    #[error("the bytes end inside {0}")]
    Truncated(&'static str),
    /// Bytes are left over after the last part.
    #[error("{0} unexpected bytes after the end")]
    TrailingBytes(usize),
}

/// A cursor over untrusted bytes; each read names the part it reads, for
/// the error.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { rest: bytes }
    }

    /// Takes `n` raw bytes.
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DecodeError> {
        if self.rest.len() < n {
            return Err(DecodeError::Truncated(what));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    /// Takes `N` raw bytes as an array.
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], DecodeError> {
        let (head, tail) = self
            .rest
            .split_first_chunk::<N>()
            .ok_or(DecodeError::Truncated(what))?;
        self.rest = tail;
        Ok(*head)
    }

    /// Takes a `u8`.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// Takes a `u16`.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, DecodeError> {
        self.array(what).map(u16::from_le_bytes)
    }

    /// Takes a `u32`.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// Takes a `u64`.
    pub fn u64(&mut self, what: &'static str) -> Result<u64, DecodeError> {
        self.array(what).map(u64::from_le_bytes)
    }

    /// Takes a 32-byte digest.
    pub fn digest(&mut self, what: &'static str) -> Result<Digest, DecodeError> {
        self.array(what)
    }

    /// Takes one field element.
    pub fn field(&mut self, what: &'static str) -> Result<Gf128, DecodeError> {
        self.array(what).map(Gf128::from_bytes)
    }

    /// Takes `count` field elements; the bytes are checked before allocating.
    pub fn fields(&mut self, count: usize, what: &'static str) -> Result<Vec<Gf128>, DecodeError> {
        let len = count.checked_mul(16).ok_or(DecodeError::Truncated(what))?;
        let bytes = self.take(len, what)?;
        Ok(bytes
            .chunks_exact(16)
            .map(|c| Gf128::from_bytes(c.try_into().expect("16-byte chunks")))
            .collect())
    }

    /// Takes a section: a `u32` length and that many bytes.
    pub fn section(&mut self, what: &'static str) -> Result<&'a [u8], DecodeError> {
        let len = self.u32(what)? as usize;
        self.take(len, what)
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Fails unless every byte was read.
    pub fn finish(self) -> Result<(), DecodeError> {
        match self.rest.len() {
            0 => Ok(()),
            n => Err(DecodeError::TrailingBytes(n)),
        }
    }
}

/// Appends field elements, 16 bytes each.
pub fn put_fields(out: &mut Vec<u8>, v: &[Gf128]) {
    for x in v {
        out.extend_from_slice(&x.to_bytes());
    }
}

/// Appends a section: the `u32` length of `bytes`, then `bytes`.
///
/// Panics if `bytes` is 4 GiB or longer, which no proof part is.
pub fn put_section(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("a section is shorter than 4 GiB");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn reads_what_was_written() {
        let mut out = vec![7u8];
        out.extend_from_slice(&0x1234u16.to_le_bytes());
        out.extend_from_slice(&0xdead_beefu32.to_le_bytes());
        out.extend_from_slice(&u64::MAX.to_le_bytes());
        let fields = [Gf128::new(3), Gf128::new(u128::MAX)];
        put_fields(&mut out, &fields);
        put_section(&mut out, b"text");
        out.extend_from_slice(&[9u8; 32]);
        let mut r = Reader::new(&out);
        assert_eq!(r.u8("a").unwrap(), 7);
        assert_eq!(r.u16("b").unwrap(), 0x1234);
        assert_eq!(r.u32("c").unwrap(), 0xdead_beef);
        assert_eq!(r.u64("d").unwrap(), u64::MAX);
        assert_eq!(r.field("e").unwrap(), fields[0]);
        assert_eq!(r.fields(1, "f").unwrap(), vec![fields[1]]);
        assert_eq!(r.section("g").unwrap(), b"text");
        assert_eq!(r.remaining(), 32);
        assert_eq!(r.digest("h").unwrap(), [9u8; 32]);
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn short_and_long_inputs_are_errors() {
        let bytes = [1u8, 2, 3];
        assert_eq!(
            Reader::new(&bytes).u32("the count"),
            Err(DecodeError::Truncated("the count"))
        );
        assert_eq!(Reader::new(&bytes).take(4, "x"), Err(DecodeError::Truncated("x")));
        assert_eq!(Reader::new(&bytes).field("x"), Err(DecodeError::Truncated("x")));
        // A huge count fails on the length check, before any allocation.
        assert_eq!(
            Reader::new(&bytes).fields(usize::MAX, "x"),
            Err(DecodeError::Truncated("x"))
        );
        assert_eq!(
            Reader::new(&bytes).fields(1 << 40, "x"),
            Err(DecodeError::Truncated("x"))
        );
        // A section whose length runs past the end.
        let mut section = Vec::new();
        put_section(&mut section, b"abc");
        assert_eq!(
            Reader::new(&section[..6]).section("s"),
            Err(DecodeError::Truncated("s"))
        );
        let mut r = Reader::new(&bytes);
        r.u8("x").unwrap();
        assert_eq!(r.finish(), Err(DecodeError::TrailingBytes(2)));
    }
}
