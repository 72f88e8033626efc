//! The proof file: magic, version, statement (all public values), proof.
//!
//! ```text
//! magic    8 bytes  "STARLING"
//! version  u16 LE   1
//! kind     u8       1 = sha256, 2 = blake3, 3 = keccak-f1600, 4 = circuit
//! profile  u8       0 = default, 1 = secure
//! count    u64 LE   N, 1 <= N <= MAX_INSTANCES
//! circuit           kind 4 only: u32 LE length, the Bristol Fashion text
//! statement         N x (input bytes, output bytes) of each instance
//! sections          for each proof part in order: u32 LE length, bytes
//! ```
//!
//! The public values of an instance are its input and output bits. SHA-256
//! writes them as SHA-256 does: 32-bit words big-endian (cv 32 bytes, block
//! 64, output 32). The other kinds write bit `j` as bit `j mod 8` of byte
//! `j / 8`, which is BLAKE3's and Keccak's own little-endian byte order
//! (BLAKE3: cv 32, block 64, counter 8, block length 4, flags 4, output 64
//! bytes; Keccak: state 200, output 200 bytes); bits past the width in the
//! last byte must be zero.
//! Decoding never panics and never allocates more than the file's own size
//! justifies: every length is checked against the bytes that remain.

use std::sync::Arc;

use crate::circuits::StatementCircuit;
use crate::statement::{Statement, StatementKind};
use crate::Error;

/// File magic.
pub const MAGIC: &[u8; 8] = b"STARLING";
/// Format version written and accepted.
pub const VERSION: u16 = 1;
/// Largest batch a proof file may claim (2^24 compressions).
pub const MAX_INSTANCES: u64 = 1 << 24;

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
    /// Appends a u32.
    pub fn u32(&mut self, v: u32) {
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

/// Bytes of `bits` public bits of one instance.
pub fn row_bytes(bits: usize) -> usize {
    bits.div_ceil(8)
}

/// Bytes of the statement of `count` instances of `circuit`.
pub fn statement_bytes(circuit: &StatementCircuit, count: usize) -> usize {
    count * (row_bytes(circuit.input_bits()) + row_bytes(circuit.output_bits()))
}

/// Which little-endian byte of a row the `i`-th byte in `kind`'s order is.
fn byte_position(kind: StatementKind, i: usize) -> usize {
    match kind {
        // 32-bit words big-endian.
        StatementKind::Sha256 => (i & !3) | (3 - (i & 3)),
        _ => i,
    }
}

/// The `row_bytes(bits)` bytes of a row in `kind`'s byte order.
pub fn row_to_bytes(kind: StatementKind, row: &[u64], bits: usize) -> Vec<u8> {
    (0..row_bytes(bits))
        .map(|i| {
            let j = byte_position(kind, i);
            (row[j / 8] >> (8 * (j % 8))) as u8
        })
        .collect()
}

/// Appends to `out` the row whose bytes in `kind`'s order are `bytes`.
pub fn append_row_from_bytes(kind: StatementKind, bytes: &[u8], out: &mut Vec<u64>) {
    let first = out.len();
    out.resize(first + bytes.len().div_ceil(8), 0);
    for (i, &byte) in bytes.iter().enumerate() {
        let j = byte_position(kind, i);
        out[first + j / 8] |= u64::from(byte) << (8 * (j % 8));
    }
}

/// Appends one row of `bits` bits in the file's byte order for `kind`.
fn write_row(w: &mut ByteWriter, kind: StatementKind, row: &[u64], bits: usize) {
    w.bytes(&row_to_bytes(kind, row, bits));
}

/// The public values of a statement in file order, as the transcript binds them.
pub fn statement_bytes_of(st: &Statement) -> Vec<u8> {
    let mut w = ByteWriter::new();
    write_statement(&mut w, st);
    w.finish()
}

/// Writes the statement's public values.
pub fn write_statement(w: &mut ByteWriter, st: &Statement) {
    let circuit = st.circuit();
    for i in 0..st.len() {
        write_row(w, st.kind(), st.input_row(i), circuit.input_bits());
        write_row(w, st.kind(), st.output_row(i), circuit.output_bits());
    }
}

/// Reads `count` instances of public values of `circuit`.
pub fn read_statement(
    r: &mut ByteReader<'_>,
    circuit: Arc<StatementCircuit>,
    count: u64,
) -> Result<Statement, Error> {
    check_count(count)?;
    let count = count as usize;
    let (in_bytes, out_bytes) = (row_bytes(circuit.input_bits()), row_bytes(circuit.output_bits()));
    // Check the whole statement is present before allocating for it.
    let all = r.bytes(statement_bytes(&circuit, count), "the statement")?;
    let mut inputs = Vec::with_capacity(count * circuit.input_words());
    let mut outputs = Vec::with_capacity(count * circuit.output_words());
    let kind = circuit.kind();
    if in_bytes + out_bytes > 0 {
        for chunk in all.chunks_exact(in_bytes + out_bytes) {
            append_row_from_bytes(kind, &chunk[..in_bytes], &mut inputs);
            append_row_from_bytes(kind, &chunk[in_bytes..], &mut outputs);
        }
    }
    Statement::from_rows(circuit, count, inputs, outputs)
        .ok_or_else(|| Error::Malformed("the statement sets bits past a value's width".into()))
}

fn check_count(count: u64) -> Result<(), Error> {
    if count == 0 || count > MAX_INSTANCES {
        return Err(Error::Malformed(format!(
            "batch size {count} is outside 1..={MAX_INSTANCES}"
        )));
    }
    Ok(())
}

/// The parsed header.
pub struct Header {
    /// Statement kind.
    pub kind: StatementKind,
    /// Profile code.
    pub profile: u8,
    /// N.
    pub count: u64,
}

/// Reads and checks the header.
pub fn read_header(r: &mut ByteReader<'_>) -> Result<Header, Error> {
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
    let code = r.u8("the statement kind")?;
    let kind = StatementKind::from_code(code)
        .ok_or_else(|| Error::Malformed(format!("unknown statement kind {code}")))?;
    let profile = r.u8("the profile")?;
    let count = r.u64("the batch size")?;
    check_count(count)?;
    Ok(Header { kind, profile, count })
}

/// Writes the header.
pub fn write_header(w: &mut ByteWriter, kind: StatementKind, profile: u8, count: u64) {
    w.bytes(MAGIC);
    w.u16(VERSION);
    w.u8(kind.code());
    w.u8(profile);
    w.u64(count);
}

/// Writes the circuit part: the Bristol text of a `circuit` statement,
/// nothing for the built-in kinds.
pub fn write_circuit(w: &mut ByteWriter, circuit: &StatementCircuit) {
    if let Some(text) = circuit.bristol_text() {
        w.section(text.as_bytes());
    }
}

/// Reads the circuit part for `kind` and compiles it.
pub fn read_circuit(r: &mut ByteReader<'_>, kind: StatementKind) -> Result<Arc<StatementCircuit>, Error> {
    if let Some(circuit) = StatementCircuit::builtin(kind) {
        return Ok(circuit);
    }
    let bytes = r.section("the circuit")?;
    let text =
        std::str::from_utf8(bytes).map_err(|_| Error::Malformed("the circuit is not UTF-8 text".into()))?;
    StatementCircuit::from_bristol(text).map_err(|e| Error::Malformed(format!("the circuit: {e}")))
}

/// Bytes of the circuit part of a file.
pub fn circuit_bytes(circuit: &StatementCircuit) -> usize {
    circuit.bristol_text().map_or(0, |t| 4 + t.len())
}
