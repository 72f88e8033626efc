//! The text formats of inputs and outputs, one instance per line, and
//! random inputs for demos and benchmarks.
//!
//! | kind | input line | output line |
//! |---|---|---|
//! | `sha256` | `CV BLOCK`: 64 and 128 hex digits, the bytes as SHA-256 writes them (big-endian words) | 64 hex digits |
//! | `blake3` | `CV BLOCK COUNTER BLOCK_LEN FLAGS`: 64 and 128 hex digits in BLAKE3's little-endian word order, then three decimals | 128 hex digits, the 16 words little-endian |
//! | `keccak-f1600` | 400 hex digits: the 200 state bytes, lane `x + 5y` at bytes `8(x + 5y)..`, lanes little-endian | the same |
//! | `circuit` | the circuit's input values in order, space-separated, each the big-endian hex of the integer whose bit `b` is the value's wire `b`, exactly `ceil(bits / 4)` digits | the outputs the same way |
//!
//! Blank lines and lines starting with `#` are ignored; every error names
//! its line.

use std::io::{BufRead, Read};
use std::ops::Range;

use rand::{Rng, SeedableRng};
use starling_circuit::wording::counted;

use crate::circuits::StatementCircuit;
use crate::format::{append_row_from_bytes, row_to_bytes, MAX_INSTANCES};
use crate::statement::StatementKind;
use crate::Error;

/// Longest line read. An instance line is at most a few tens of KiB (a
/// Bristol circuit's inputs are at most 2^16 bits); a longer line is not an
/// inputs file, and reading stops there instead of filling memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Largest inputs text read (4 GiB: 2^23 Keccak-f states).
pub const MAX_INPUT_BYTES: u64 = 4 << 30;

/// Parses an inputs text for `circuit`: returns N and the N input rows.
pub fn parse_inputs(circuit: &StatementCircuit, text: &str) -> Result<(usize, Vec<u64>), Error> {
    read_inputs(circuit, text.as_bytes())
}

/// Reads an inputs text for `circuit` from `reader` a line at a time
/// (a file, stdin): returns N and the N input rows. Lines past
/// [`MAX_LINE_BYTES`], texts past [`MAX_INPUT_BYTES`] and more than
/// `MAX_INSTANCES` instances are errors as soon as they are seen, so memory
/// stays proportional to the instances read.
pub fn read_inputs(circuit: &StatementCircuit, mut reader: impl BufRead) -> Result<(usize, Vec<u64>), Error> {
    let mut rows = Vec::new();
    let mut count: u64 = 0;
    let mut total: u64 = 0;
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        let read = reader
            .by_ref()
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::Input(format!("line {number}: cannot read: {e}")))?;
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
        let line = std::str::from_utf8(&buf).map_err(|e| {
            at_line(format!(
                "byte {} is not UTF-8 text (0x{:02x})",
                e.valid_up_to() + 1,
                buf[e.valid_up_to()]
            ))
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if count == MAX_INSTANCES {
            return Err(at_line(format!(
                "more than {MAX_INSTANCES} instances, the most one proof holds"
            )));
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        parse_line(circuit, &fields, &mut rows).map_err(at_line)?;
        count += 1;
    }
    if count == 0 {
        return Err(Error::Input("no inputs: N must be at least 1".into()));
    }
    Ok((count as usize, rows))
}

/// A named part of an input row, as the inputs text names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputField {
    /// The field's name in messages (`chaining value`, `block`, `input value 2`, ...).
    pub name: String,
    /// Its bits in the row.
    pub bits: Range<usize>,
}

/// The fields of `circuit`'s input rows, in row order (which is line order).
pub fn input_fields(circuit: &StatementCircuit) -> Vec<InputField> {
    let named = |parts: &[(&str, usize)]| {
        let mut at = 0;
        parts
            .iter()
            .map(|&(name, bits)| {
                at += bits;
                InputField {
                    name: name.to_string(),
                    bits: at - bits..at,
                }
            })
            .collect()
    };
    match circuit.kind() {
        StatementKind::Sha256 => named(&[("chaining value", 256), ("block", 512)]),
        StatementKind::Blake3 => named(&[
            ("chaining value", 256),
            ("block", 512),
            ("counter", 64),
            ("block length", 32),
            ("flags", 32),
        ]),
        StatementKind::KeccakF1600 => named(&[("state", 1600)]),
        StatementKind::Circuit => {
            let sizes = circuit.bristol_input_sizes().unwrap_or(&[]);
            let names: Vec<String> = (1..=sizes.len()).map(|i| format!("input value {i}")).collect();
            let parts: Vec<(&str, usize)> = names
                .iter()
                .map(String::as_str)
                .zip(sizes.iter().copied())
                .collect();
            named(&parts)
        }
    }
}

/// Parses the fields of one line and appends its row.
fn parse_line(circuit: &StatementCircuit, fields: &[&str], rows: &mut Vec<u64>) -> Result<(), String> {
    let kind = circuit.kind();
    let expect_fields = |names: &str, n: usize| {
        if fields.len() == n {
            Ok(())
        } else {
            Err(format!(
                "expected {} ({names}), found {}",
                counted(n as u64, "field"),
                fields.len()
            ))
        }
    };
    match kind {
        StatementKind::Sha256 => {
            expect_fields("CV BLOCK", 2)?;
            let mut bytes = hex_field(fields[0], 32, "chaining value")?;
            bytes.extend(hex_field(fields[1], 64, "block")?);
            append_row_from_bytes(kind, &bytes, rows);
        }
        StatementKind::Blake3 => {
            expect_fields("CV BLOCK COUNTER BLOCK_LEN FLAGS", 5)?;
            let mut bytes = hex_field(fields[0], 32, "chaining value")?;
            bytes.extend(hex_field(fields[1], 64, "block")?);
            bytes.extend(decimal::<u64>(fields[2], "counter")?.to_le_bytes());
            bytes.extend(decimal::<u32>(fields[3], "block length")?.to_le_bytes());
            bytes.extend(decimal::<u32>(fields[4], "flags")?.to_le_bytes());
            append_row_from_bytes(kind, &bytes, rows);
        }
        StatementKind::KeccakF1600 => {
            expect_fields("STATE", 1)?;
            append_row_from_bytes(kind, &hex_field(fields[0], 200, "state")?, rows);
        }
        StatementKind::Circuit => {
            let sizes = circuit.bristol_input_sizes().unwrap_or(&[]);
            if fields.len() != sizes.len() {
                return Err(format!(
                    "expected {} (the circuit's inputs), found {}",
                    counted(sizes.len() as u64, "input value"),
                    fields.len()
                ));
            }
            let first = rows.len();
            rows.resize(first + circuit.input_words(), 0);
            let mut offset = 0;
            for (i, (field, &bits)) in fields.iter().zip(sizes).enumerate() {
                let value = value_bits(field, bits).map_err(|e| format!("input value {}: {e}", i + 1))?;
                for (b, bit) in value.into_iter().enumerate() {
                    let j = offset + b;
                    rows[first + j / 64] |= u64::from(bit) << (j % 64);
                }
                offset += bits;
            }
        }
    }
    Ok(())
}

/// The first character of `s` that is not a hex digit, named for a message.
fn first_non_hex(s: &str) -> Option<String> {
    s.chars()
        .find(|c| !c.is_ascii_hexdigit())
        .map(|c| format!("{c:?} (U+{:04X}) is not a hex digit", u32::from(c)))
}

fn hex_field(s: &str, bytes: usize, what: &str) -> Result<Vec<u8>, String> {
    if let Some(bad) = first_non_hex(s) {
        return Err(format!("{what}: {bad}"));
    }
    // Only ASCII hex digits are left: one byte each.
    if s.len() != 2 * bytes {
        return Err(format!(
            "{what} has {}, expected {}",
            counted(s.len() as u64, "hex digit"),
            2 * bytes
        ));
    }
    hex::decode(s).map_err(|e| format!("{what}: {e}"))
}

fn decimal<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what} `{s}` is not a decimal number in range"))
}

/// The bits (least significant first) of a `bits`-bit value written as
/// exactly `ceil(bits / 4)` hex digits.
fn value_bits(s: &str, bits: usize) -> Result<Vec<bool>, String> {
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
fn value_hex(bits: impl Iterator<Item = bool>, width: usize) -> String {
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

/// The Bristol values packed in `row` with the given widths, space-separated.
fn values_hex(row: &[u64], sizes: &[usize]) -> String {
    let mut offset = 0;
    let values: Vec<String> = sizes
        .iter()
        .map(|&bits| {
            let start = offset;
            offset += bits;
            value_hex(
                (start..start + bits).map(|j| (row[j / 64] >> (j % 64)) & 1 == 1),
                bits,
            )
        })
        .collect();
    values.join(" ")
}

/// One output row as its line of text.
pub fn format_output_row(circuit: &StatementCircuit, row: &[u64]) -> String {
    match circuit.kind() {
        StatementKind::Circuit => values_hex(row, circuit.bristol_output_sizes().unwrap_or(&[])),
        kind => hex::encode(row_to_bytes(kind, row, circuit.output_bits())),
    }
}

/// One input row as its line of text (the inverse of [`parse_inputs`]).
pub fn format_input_row(circuit: &StatementCircuit, row: &[u64]) -> String {
    let kind = circuit.kind();
    match kind {
        StatementKind::Sha256 => {
            let bytes = row_to_bytes(kind, row, circuit.input_bits());
            format!("{} {}", hex::encode(&bytes[..32]), hex::encode(&bytes[32..]))
        }
        StatementKind::Blake3 => {
            let bytes = row_to_bytes(kind, row, circuit.input_bits());
            let le = |range: std::ops::Range<usize>| {
                bytes[range]
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
            };
            format!(
                "{} {} {} {} {}",
                hex::encode(&bytes[..32]),
                hex::encode(&bytes[32..96]),
                le(96..104),
                le(104..108),
                le(108..112)
            )
        }
        StatementKind::KeccakF1600 => hex::encode(row_to_bytes(kind, row, circuit.input_bits())),
        StatementKind::Circuit => values_hex(row, circuit.bristol_input_sizes().unwrap_or(&[])),
    }
}

/// `count` input rows of uniformly random bits from a seed (ChaCha8), for
/// demos and benchmarks.
pub fn random_inputs(circuit: &StatementCircuit, count: usize, seed: u64) -> Vec<u64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let words = circuit.input_words();
    let bits = circuit.input_bits();
    let mut rows = vec![0u64; count * words];
    rng.fill(rows.as_mut_slice());
    if !bits.is_multiple_of(64) {
        let mask = (1u64 << (bits % 64)) - 1;
        for row in rows.chunks_exact_mut(words) {
            row[words - 1] &= mask;
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(kind: StatementKind) -> std::sync::Arc<StatementCircuit> {
        StatementCircuit::builtin(kind).unwrap()
    }

    fn text_of(circuit: &StatementCircuit, count: usize, rows: &[u64]) -> String {
        rows.chunks_exact(circuit.input_words())
            .take(count)
            .map(|r| format_input_row(circuit, r) + "\n")
            .collect()
    }

    #[test]
    fn every_kind_round_trips_with_comments() {
        let adder =
            StatementCircuit::from_bristol("2 4\n2 1 1\n1 2\n\n2 1 0 1 2 XOR\n1 1 2 3 INV\n").unwrap();
        for circuit in [
            builtin(StatementKind::Sha256),
            builtin(StatementKind::Blake3),
            builtin(StatementKind::KeccakF1600),
            adder,
        ] {
            let rows = random_inputs(&circuit, 3, 9);
            let text = format!("# header\n\n{}\n", text_of(&circuit, 3, &rows));
            assert_eq!(
                parse_inputs(&circuit, &text).unwrap(),
                (3, rows),
                "{:?}",
                circuit.kind()
            );
        }
    }

    #[test]
    fn sha256_words_are_big_endian_and_blake3_little_endian() {
        let sha = builtin(StatementKind::Sha256);
        let line = format!("{}{} {}", "01020304", "00".repeat(28), "00".repeat(64));
        let (_, row) = parse_inputs(&sha, &line).unwrap();
        assert_eq!(row[0] as u32, 0x0102_0304);
        let blake = builtin(StatementKind::Blake3);
        let line = format!("{}{} {} 5 64 11", "01020304", "00".repeat(28), "00".repeat(64));
        let (_, row) = parse_inputs(&blake, &line).unwrap();
        assert_eq!(row[0] as u32, 0x0403_0201);
        // Counter (words 24, 25), block length (26) and flags (27).
        assert_eq!(row[12], 5);
        assert_eq!(row[13], 64 | (11 << 32));
    }

    #[test]
    fn errors_name_the_line() {
        let sha = builtin(StatementKind::Sha256);
        let good = text_of(&sha, 1, &random_inputs(&sha, 1, 1));
        let odd = format!("{good}abc {}\n", "00".repeat(64));
        let e = parse_inputs(&sha, &odd).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("hex digits"), "{e}");
        let bad_digit = format!("{}g {}\n", "0".repeat(63), "00".repeat(64));
        let e = parse_inputs(&sha, &bad_digit).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let e = parse_inputs(&sha, "# nothing\n\n").unwrap_err().to_string();
        assert!(e.contains("N must be at least 1"), "{e}");
        let e = parse_inputs(&sha, &format!("{} x y\n", "00".repeat(32)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 2 fields"), "{e}");
        let blake = builtin(StatementKind::Blake3);
        let line = format!("{} {} 1 4294967296 0\n", "00".repeat(32), "00".repeat(64));
        let e = parse_inputs(&blake, &line).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("block length"), "{e}");
    }

    #[test]
    fn circuit_values_are_big_endian_hex_of_exact_width() {
        // Two inputs of 1 and 6 bits; output 1 bit.
        let c = StatementCircuit::from_bristol("1 8\n2 1 6\n1 1\n\n2 1 0 1 7 AND\n").unwrap();
        let (_, row) = parse_inputs(&c, "1 2a").unwrap();
        // Input 0 is bit 0; input 1 = 0b101010 in bits 1..7.
        assert_eq!(row, vec![1 | (0b10_1010 << 1)]);
        assert_eq!(format_input_row(&c, &row), "1 2a");
        let e = parse_inputs(&c, "1 4a").unwrap_err().to_string();
        assert!(
            e.contains("input value 2") && e.contains("does not fit in 6 bits"),
            "{e}"
        );
        let e = parse_inputs(&c, "1 02a").unwrap_err().to_string();
        assert!(e.contains("expected 2 for 6 bits"), "{e}");
        let e = parse_inputs(&c, "1").unwrap_err().to_string();
        assert!(e.contains("expected 2 input values"), "{e}");
    }
}
