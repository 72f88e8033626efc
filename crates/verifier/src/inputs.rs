//! The text form of a statement's public data: one input record per line,
//! as each kind reads it ([`crate::kind::TextFormat::parse_input`]), read a line at a
//! time with bounds; and the field helpers the kinds share.
//!
//! Blank lines and lines starting with `#` are ignored; every error names
//! its line. Hex fields count hex digits and name the first character that
//! is not one.

use alloc::vec;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use smallvec::SmallVec;

use crate::circuit::wording::counted;

use crate::format::MAX_INSTANCES;
use crate::kind::Kind;
use crate::records::Records;
use crate::Error;

/// Longest line read. An input line is at most a few tens of KiB (a
/// Bristol circuit's inputs are at most 2^16 bits); message lines of the
/// digest kind may be 2 MiB of hex (1 MiB messages), so the bound is 4 MiB;
/// a longer line is not an inputs file, and reading stops there instead of
/// filling memory.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Largest inputs text read (4 GiB).
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Where an inputs text is read from, a line at a time: a string here, a
/// file or stdin natively (`starling::inputs`).
pub trait LineSource {
    /// Appends the next line to `buf`, its `\n` included, reading at most
    /// `limit` bytes; returns the bytes read (0 at the end).
    fn read_line(&mut self, buf: &mut Vec<u8>, limit: usize) -> Result<usize, String>;
}

impl LineSource for &[u8] {
    fn read_line(&mut self, buf: &mut Vec<u8>, limit: usize) -> Result<usize, String> {
        let window = &self[..self.len().min(limit)];
        let len = window
            .iter()
            .position(|&b| b == b'\n')
            .map_or(window.len(), |i| i + 1);
        buf.extend_from_slice(&self[..len]);
        *self = &self[len..];
        Ok(len)
    }
}

/// Parses an inputs text for `kind`: the input records, one per line.
pub fn parse_inputs(kind: &dyn Kind, text: &str) -> Result<Records, Error> {
    read_inputs(kind, text.as_bytes())
}

/// Reads an inputs text for `kind` from `reader` a line at a time (a file,
/// stdin). Lines past [`MAX_LINE_BYTES`], texts past [`MAX_INPUT_BYTES`] and
/// more than `MAX_INSTANCES` records are errors as soon as they are seen,
/// so memory stays proportional to the records read.
pub fn read_inputs(kind: &dyn Kind, reader: impl LineSource) -> Result<Records, Error> {
    read_numbered_inputs(kind, reader, |_| {})
}

/// [`read_inputs`], with the line number of every record, in order: what a
/// message about a record names for its reader, since comments and blank
/// lines make line and record numbers differ.
pub fn read_inputs_with_lines(
    kind: &dyn Kind,
    reader: impl LineSource,
) -> Result<(Records, Vec<u64>), Error> {
    let mut lines = Vec::new();
    let records = read_numbered_inputs(kind, reader, |number| lines.push(number))?;
    Ok((records, lines))
}

/// [`read_inputs`], telling `numbered` each record's line number.
fn read_numbered_inputs(
    kind: &dyn Kind,
    reader: impl LineSource,
    mut numbered: impl FnMut(u64),
) -> Result<Records, Error> {
    let mut records = Records::new();
    read_lines(reader, |number, fields| {
        records.push(&kind.parse_input(fields).map_err(Error::Input)?);
        numbered(number);
        Ok(())
    })?;
    checked(kind, records)
}

/// A statement of `kind`: records it takes ([`check_not_empty`], its shape).
pub fn checked(kind: &dyn Kind, records: Records) -> Result<Records, Error> {
    check_not_empty(kind, &records)?;
    kind.shape(&records).map_err(Error::Input)?;
    Ok(records)
}

/// At least one record, unless the kind [`Kind::holds_without_inputs`].
pub fn check_not_empty(kind: &dyn Kind, records: &Records) -> Result<(), Error> {
    if records.is_empty() && !kind.holds_without_inputs() {
        return Err(Error::Input("no inputs: N must be at least 1".into()));
    }
    Ok(())
}

/// Calls `line` with the number and the whitespace-separated fields of
/// every line that is not blank or a comment, with the bounds
/// [`read_inputs`] documents; errors (its own and `line`'s) name the line.
pub fn read_lines(
    reader: impl LineSource,
    line: impl FnMut(u64, &[&str]) -> Result<(), Error>,
) -> Result<(), Error> {
    read_lines_or_whole(reader, |_| false, line)
}

/// [`read_lines`], offering every line first to `whole` as it was read
/// (its `\n` included): a line `whole` takes (returns true for) is a record
/// that `line` never sees. For texts of a million lines of one form (a
/// ring's public keys: 64 hex digits and `\n`), where checking the UTF-8,
/// trimming and splitting each line took longer than reading its record;
/// `whole` must take only lines that `line` would read the same way, and
/// leaves the others, errors included, to it.
pub fn read_lines_or_whole(
    mut reader: impl LineSource,
    mut whole: impl FnMut(&[u8]) -> bool,
    mut line: impl FnMut(u64, &[&str]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut records = 0u64;
    let mut total: u64 = 0;
    let mut buf = Vec::new();
    for number in 1u64.. {
        buf.clear();
        let read = reader
            .read_line(&mut buf, MAX_LINE_BYTES + 1)
            .map_err(|e| Error::Input(format!("line {number}: {e}")))?;
        if read == 0 {
            break;
        }
        let at_line = |problem: String| Error::Input(format!("line {number}: {problem}"));
        if buf.len() > MAX_LINE_BYTES {
            return Err(at_line(format!(
                "longer than {MAX_LINE_BYTES} bytes; this is not an inputs file"
            )));
        }
        total += read as u64;
        if total > MAX_INPUT_BYTES {
            return Err(at_line(format!(
                "the inputs text is longer than {MAX_INPUT_BYTES} bytes"
            )));
        }
        let text = if whole(&buf) {
            None
        } else {
            let text = core::str::from_utf8(&buf).map_err(|e| {
                at_line(format!(
                    "byte {} is not UTF-8 text (0x{:02x})",
                    e.valid_up_to() + 1,
                    buf[e.valid_up_to()]
                ))
            })?;
            let Some(text) = record_text(text) else {
                continue;
            };
            Some(text)
        };
        if records == MAX_INSTANCES {
            return Err(at_line(format!(
                "more than {MAX_INSTANCES} records, the most one proof holds"
            )));
        }
        if let Some(text) = text {
            line(number, &fields(text)).map_err(|e| match e {
                Error::Input(e) => at_line(e),
                Error::False(e) => Error::False(format!("line {number}: {e}")),
                e => e,
            })?;
        }
        records += 1;
    }
    Ok(())
}

/// The record a line of an inputs text holds, trimmed: `None` for a blank
/// line or a `#` comment, which hold none.
pub fn record_text(line: &str) -> Option<&str> {
    let text = line.trim();
    (!text.is_empty() && !text.starts_with('#')).then_some(text)
}

/// The whitespace-separated fields of `text`, as `split_whitespace` gives
/// them. An ASCII line, every inputs file's in practice, is split a byte at
/// a time, and up to eight fields take no allocation: `split_whitespace`
/// decodes and classifies every character, and was a third of the time to
/// read a ring of 2^20 public keys (Zen 5).
fn fields(text: &str) -> SmallVec<[&str; 8]> {
    if !text.is_ascii() {
        return text.split_whitespace().collect();
    }
    // The ASCII characters `char::is_whitespace` takes: the space, and tab
    // to carriage return (vertical tab too, which `u8::is_ascii_whitespace`
    // leaves out).
    let space = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
    let bytes = text.as_bytes();
    // A line of one field (a key, a digest) in one pass without branches.
    if !text.is_empty() && !bytes.iter().fold(false, |seen, &b| seen | space(b)) {
        return SmallVec::from_slice(&[text]);
    }
    let mut fields = SmallVec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        match (start, space(b)) {
            (Some(from), true) => {
                fields.push(&text[from..i]);
                start = None;
            }
            (None, false) => start = Some(i),
            _ => {}
        }
    }
    if let Some(from) = start {
        fields.push(&text[from..]);
    }
    fields
}

/// Checks a line has `n` fields, named `names` in the message.
pub fn expect_fields(fields: &[&str], names: &str, n: usize) -> Result<(), String> {
    if fields.len() == n {
        Ok(())
    } else {
        Err(format!(
            "expected {} ({names}), found {}",
            counted(n as u64, "field"),
            fields.len()
        ))
    }
}

/// The first character of `s` that is not a hex digit, named for a message.
fn first_non_hex(s: &str) -> Option<String> {
    s.chars()
        .find(|c| !c.is_ascii_hexdigit())
        .map(|c| format!("{c:?} (U+{:04X}) is not a hex digit", u32::from(c)))
}

/// Each byte's value as a hex digit, or `0xff` for a byte that is not one.
const HEX_DIGIT: [u8; 256] = {
    let mut table = [0xffu8; 256];
    let mut i = 0;
    while i < 16 {
        table[b"0123456789abcdef"[i] as usize] = i as u8;
        table[b"0123456789ABCDEF"[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// `s` as bytes when it is an even number of hex digits, else `None` (the
/// callers then say why).
fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let mut out = vec![0; s.len() / 2];
    decode_hex_into(s.as_bytes(), &mut out).then_some(out)
}

/// Writes the hex digits `s` (two per byte of `out`) to `out`; false when
/// one is not a digit. A table lookup per digit: `hex::decode` after a
/// scan for non-digits read about 70 MB/s, most of `verify --expect`'s
/// time for the 6.5 MB of 2^14 Keccak-f states (Zen 1).
fn decode_hex_into(s: &[u8], out: &mut [u8]) -> bool {
    debug_assert_eq!(s.len(), 2 * out.len());
    // Any byte that is not a digit sets a high bit of `seen`.
    let mut seen = 0u8;
    for (byte, pair) in out.iter_mut().zip(s.chunks_exact(2)) {
        let (high, low) = (HEX_DIGIT[pair[0] as usize], HEX_DIGIT[pair[1] as usize]);
        seen |= high | low;
        *byte = high << 4 | low;
    }
    seen >> 4 == 0
}

/// Exactly `bytes` bytes written as `2 * bytes` hex digits.
pub fn hex_field(s: &str, bytes: usize, what: &str) -> Result<Vec<u8>, String> {
    match decode_hex(s).filter(|out| out.len() == bytes) {
        Some(out) => Ok(out),
        None => Err(not_hex_field(s, bytes, what)),
    }
}

/// [`hex_field`] of a length known at compile time, without allocating: a
/// ring's 2^20 public keys.
pub fn hex_array<const N: usize>(s: &str, what: &str) -> Result<[u8; N], String> {
    hex_digits(s.as_bytes()).ok_or_else(|| not_hex_field(s, N, what))
}

/// Exactly `N` bytes as `2 N` hex digits, from bytes that need not be
/// text; `None` for any other bytes.
pub fn hex_digits<const N: usize>(s: &[u8]) -> Option<[u8; N]> {
    let mut out = [0; N];
    (s.len() == 2 * N && decode_hex_into(s, &mut out)).then_some(out)
}

/// Why `s` is not `bytes` bytes as hex digits.
fn not_hex_field(s: &str, bytes: usize, what: &str) -> String {
    if let Some(bad) = first_non_hex(s) {
        return format!("{what}: {bad}");
    }
    // Only ASCII hex digits: one byte each.
    format!(
        "{what} has {}, expected {}",
        counted(s.len() as u64, "hex digit"),
        2 * bytes
    )
}

/// Any number of bytes as hex digits (an even number of them); `-` is the
/// empty string.
pub fn hex_bytes(s: &str, what: &str) -> Result<Vec<u8>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    if let Some(out) = decode_hex(s) {
        return Ok(out);
    }
    if let Some(bad) = first_non_hex(s) {
        return Err(format!("{what}: {bad}"));
    }
    // Only ASCII hex digits, an odd number of them.
    Err(format!(
        "{what} has {}, an odd number",
        counted(s.len() as u64, "hex digit")
    ))
}

/// A decimal number in the range of `T`.
pub fn decimal<T: core::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what} `{s}` is not a decimal number in range"))
}

/// The bits (least significant first) of a `bits`-bit value written as
/// exactly `ceil(bits / 4)` hex digits.
pub fn value_bits(s: &str, bits: usize) -> Result<Vec<bool>, String> {
    if let Some(bad) = first_non_hex(s) {
        return Err(bad);
    }
    let digits = bits.div_ceil(4);
    // Only ASCII hex digits are left: one byte each.
    if s.len() != digits {
        return Err(format!(
            "has {}, expected {digits} for {}",
            counted(s.len() as u64, "hex digit"),
            counted(bits as u64, "bit")
        ));
    }
    let mut out = Vec::with_capacity(digits * 4);
    for c in s.chars().rev() {
        let d = c.to_digit(16).unwrap_or(0);
        out.extend((0..4).map(|b| (d >> b) & 1 == 1));
    }
    if out[bits..].iter().any(|&b| b) {
        return Err(format!("does not fit in {}", counted(bits as u64, "bit")));
    }
    out.truncate(bits);
    Ok(out)
}

/// A `bits`-bit value as exactly `ceil(bits / 4)` big-endian hex digits.
pub fn value_hex(bits: impl Iterator<Item = bool>, width: usize) -> String {
    let mut digits = vec![0u8; width.div_ceil(4)];
    for (b, bit) in bits.enumerate() {
        digits[b / 4] |= u8::from(bit) << (b % 4);
    }
    digits
        .iter()
        .rev()
        .map(|d| char::from_digit(u32::from(*d), 16).expect("a nibble"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_hex_agrees_with_the_hex_crate() {
        let digits = b"0123456789abcdefABCDEF";
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for len in 0..40 {
            for _ in 0..50 {
                let mut s: Vec<u8> = (0..len).map(|_| digits[(next() % 22) as usize]).collect();
                // Now and then one byte that is not a digit, of any value.
                if len > 0 && next().is_multiple_of(3) {
                    let at = (next() % len as u64) as usize;
                    s[at] = (next() % 128) as u8;
                }
                let s = String::from_utf8(s).expect("ASCII");
                assert_eq!(decode_hex(&s), hex::decode(&s).ok(), "{s:?}");
            }
        }
        assert_eq!(hex_field("0aFf", 2, "x"), Ok(vec![0x0a, 0xff]));
        assert_eq!(hex_array("0aFf", "x"), Ok([0x0a, 0xff]));
        for bad in ["0aF", "0aFg", "0aFf0", "0aFé"] {
            assert_eq!(
                hex_array::<2>(bad, "x"),
                Err(hex_field(bad, 2, "x").unwrap_err()),
                "{bad}"
            );
        }
        assert!(hex_field("0aF", 2, "x").unwrap_err().contains("3 hex digits"));
        assert!(hex_field("0aFg", 2, "x").unwrap_err().contains("'g'"));
        assert!(hex_bytes("abc", "x").unwrap_err().contains("odd"));
        assert_eq!(hex_bytes("-", "x"), Ok(vec![]));
    }

    #[test]
    fn fields_split_as_split_whitespace_does() {
        let pieces = [
            "ab", "0", "#", "é", " ", "\t", "\n", "\x0b", "\x0c", "\r", "\u{a0}", "\u{3000}", "\u{85}",
            "\x1c",
        ];
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        for len in 0..12 {
            for _ in 0..200 {
                let text: String = (0..len)
                    .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                    .collect();
                let expected: Vec<&str> = text.split_whitespace().collect();
                assert_eq!(fields(&text).as_slice(), expected.as_slice(), "{text:?}");
            }
        }
    }
}
