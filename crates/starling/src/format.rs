//! The proof file: magic, version, statement (all public values), proof.
//!
//! ```text
//! magic    8 bytes  "STARLING"
//! version  u16 LE   1
//! kind     u8       1 = SHA-256 compression batch
//! profile  u8       0 = default, 1 = secure
//! count    u64 LE   N, 1 <= N <= MAX_INSTANCES
//! statement         N x (cv 32 bytes, block 64 bytes, output 32 bytes),
//!                   words big-endian as SHA-256 writes them
//! sections          for each proof part in order: u32 LE length, bytes
//! ```
//! Decoding never panics and never allocates more than the file's own size
//! justifies: every length is checked against the bytes that remain.

use crate::statement::{Sha256Input, Sha256Statement};
use crate::Error;

/// File magic.
pub const MAGIC: &[u8; 8] = b"STARLING";
/// Format version written and accepted.
pub const VERSION: u16 = 1;
/// Largest batch a proof file may claim (2^24 compressions).
pub const MAX_INSTANCES: u64 = 1 << 24;

/// Statement kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// N SHA-256 compressions with feed-forward.
    Sha256Compression,
}

impl StatementKind {
    fn code(self) -> u8 {
        match self {
            StatementKind::Sha256Compression => 1,
        }
    }

    /// The name shown to users.
    pub fn name(self) -> &'static str {
        match self {
            StatementKind::Sha256Compression => "sha256",
        }
    }
}

/// Writes little-endian integers and length-prefixed sections.
#[derive(Default)]
pub struct ByteWriter {
    buf: Vec<u8>,
}

impl ByteWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// Appends a u8.
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    /// Appends a u16.
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    /// Appends a u64.
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    /// Appends a u32 length and the section bytes.
    pub fn section(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(&(b.len() as u32).to_le_bytes());
        self.buf.extend_from_slice(b);
    }
    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads what [`ByteWriter`] wrote, with every read bounds-checked.
pub struct ByteReader<'a> {
    rest: &'a [u8],
}

impl<'a> ByteReader<'a> {
    /// A reader over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteReader { rest: bytes }
    }
    /// Takes `n` raw bytes.
    pub fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        if self.rest.len() < n {
            return Err(Error::Malformed(format!("file ends inside {what}")));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }
    /// Takes a fixed-size array.
    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.bytes(N, what)?);
        Ok(a)
    }
    /// Takes a u8.
    pub fn u8(&mut self, what: &str) -> Result<u8, Error> {
        Ok(self.array::<1>(what)?[0])
    }
    /// Takes a u16.
    pub fn u16(&mut self, what: &str) -> Result<u16, Error> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }
    /// Takes a u64.
    pub fn u64(&mut self, what: &str) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }
    /// Takes a length-prefixed section.
    pub fn section(&mut self, what: &str) -> Result<&'a [u8], Error> {
        let len = u32::from_le_bytes(self.array(what)?) as usize;
        self.bytes(len, what)
    }
    /// Fails unless every byte was consumed.
    pub fn finish(self) -> Result<(), Error> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(Error::Malformed(format!(
                "{} unexpected bytes after the proof",
                self.rest.len()
            )))
        }
    }
}

/// Bytes of the header: magic, version, kind, profile, count.
pub const HEADER_BYTES: usize = 8 + 2 + 1 + 1 + 8;

/// Bytes of one instance in the statement: cv, block, output.
pub const SHA256_INSTANCE_BYTES: usize = 32 + 64 + 32;

/// Writes the statement's public values.
pub fn write_sha256_statement(w: &mut ByteWriter, st: &Sha256Statement) {
    for (inp, out) in st.inputs.iter().zip(&st.outputs) {
        for word in inp.cv {
            w.bytes(&word.to_be_bytes());
        }
        w.bytes(&inp.block);
        for word in out {
            w.bytes(&word.to_be_bytes());
        }
    }
}

/// Reads `count` instances of public values.
pub fn read_sha256_statement(r: &mut ByteReader<'_>, count: u64) -> Result<Sha256Statement, Error> {
    if count == 0 || count > MAX_INSTANCES {
        return Err(Error::Malformed(format!(
            "batch size {count} is outside 1..={MAX_INSTANCES}"
        )));
    }
    let count = count as usize;
    // Check the whole statement is present before allocating for it.
    let all = r.bytes(count * SHA256_INSTANCE_BYTES, "the statement")?;
    let mut inputs = Vec::with_capacity(count);
    let mut outputs = Vec::with_capacity(count);
    for chunk in all.chunks_exact(SHA256_INSTANCE_BYTES) {
        let words = |b: &[u8]| {
            let mut w = [0u32; 8];
            for (i, x) in w.iter_mut().enumerate() {
                *x = u32::from_be_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
            }
            w
        };
        let cv = words(&chunk[..32]);
        let mut block = [0u8; 64];
        block.copy_from_slice(&chunk[32..96]);
        inputs.push(Sha256Input { cv, block });
        outputs.push(words(&chunk[96..128]));
    }
    Ok(Sha256Statement { inputs, outputs })
}

/// Reads and checks the header; returns (kind, profile code, count).
pub fn read_header(r: &mut ByteReader<'_>) -> Result<(StatementKind, u8, u64), Error> {
    let magic = r.bytes(8, "the magic")?;
    if magic != MAGIC {
        return Err(Error::Malformed("not a Starling proof file (bad magic)".into()));
    }
    let version = r.u16("the version")?;
    if version != VERSION {
        return Err(Error::Malformed(format!(
            "proof format version {version} is not supported (this build reads {VERSION})"
        )));
    }
    let kind = match r.u8("the statement kind")? {
        1 => StatementKind::Sha256Compression,
        k => return Err(Error::Malformed(format!("unknown statement kind {k}"))),
    };
    let profile = r.u8("the profile")?;
    let count = r.u64("the batch size")?;
    Ok((kind, profile, count))
}

/// Writes the header.
pub fn write_header(w: &mut ByteWriter, kind: StatementKind, profile: u8, count: u64) {
    w.bytes(MAGIC);
    w.u16(VERSION);
    w.u8(kind.code());
    w.u8(profile);
    w.u64(count);
}
