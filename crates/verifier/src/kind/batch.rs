//! Batches: N independent evaluations of one circuit, every input and
//! output public (`sha256`, `sha512`, `blake3`, `keccak-f1600`, `circuit`).
//!
//! An input record is the circuit's input bytes, an output record its output
//! bytes (byte `b`, bit `t` is bit `8 b + t`). Text lines:
//!
//! | kind | input line | output line |
//! |---|---|---|
//! | `sha256` | `CV BLOCK`: 64 and 128 hex digits, the bytes as SHA-256 writes them (big-endian words) | 64 hex digits |
//! | `sha512` | `CV BLOCK`: 128 and 256 hex digits, the bytes as SHA-512 writes them (big-endian words) | 128 hex digits |
//! | `blake3` | `CV BLOCK COUNTER BLOCK_LEN FLAGS`: 64 and 128 hex digits in BLAKE3's little-endian word order, then three decimals | 128 hex digits, the 16 words little-endian |
//! | `keccak-f1600` | 400 hex digits: the 200 state bytes, lane `x + 5y` at bytes `8(x + 5y)..`, lanes little-endian | the same |
//! | `circuit` | the circuit's input values in order, space-separated, each the big-endian hex of the integer whose bit `b` is the value's wire `b`, exactly `ceil(bits / 4)` digits | the outputs the same way |
//!
//! Relations: in every instance, padding ones included, the constant wire
//! is 1 and the input and output bits are the statement's (the padding
//! instances: all-zero inputs and the circuit's outputs on them).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;
use core::ops::Range;

use crate::piop::wiring::{Instances, Wires};

use super::{extend_bytes_of, row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuits::{Builtin, StatementCircuit};
use crate::inputs::{decimal, expect_fields, hex_field, value_bits, value_hex};
use crate::records::Records;

/// A batch of evaluations of one circuit.
#[derive(Clone, Debug)]
pub struct Batch {
    circuit: Arc<StatementCircuit>,
}

impl Batch {
    /// A batch of a built-in circuit.
    pub fn builtin(which: Builtin) -> Self {
        Batch {
            circuit: StatementCircuit::builtin(which),
        }
    }

    /// A batch of any compiled circuit.
    pub fn of(circuit: Arc<StatementCircuit>) -> Self {
        Batch { circuit }
    }

    /// `count` input records of uniformly random bits, from random bytes
    /// `fill` writes, for demos and benchmarks (`starling::kind::Sample`
    /// draws them from a seed).
    pub fn random_inputs_from(&self, count: usize, fill: &mut dyn FnMut(&mut [u8])) -> Records {
        let (bytes, bits) = (self.circuit.input_bytes(), self.circuit.input_bits());
        let mut all = vec![0u8; count * bytes];
        fill(&mut all);
        if !bits.is_multiple_of(8) {
            let mask = (1u8 << (bits % 8)) - 1;
            for row in all.chunks_exact_mut(bytes) {
                row[bytes - 1] &= mask;
            }
        }
        Records::from_fixed(all, bytes)
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

    /// Checks that no bit past the width is set in the last byte.
    fn check_width(bytes: &[u8], bits: usize) -> Result<(), String> {
        if !bits.is_multiple_of(8) && bytes.last().is_some_and(|b| b >> (bits % 8) != 0) {
            return Err("a value sets bits past its width".into());
        }
        Ok(())
    }
}

impl Kind for Batch {
    fn name(&self) -> String {
        self.circuit.name().to_string()
    }

    fn code(&self) -> u8 {
        match self.circuit.builtin_kind() {
            Some(Builtin::Sha256) => 1,
            Some(Builtin::Blake3) => 2,
            Some(Builtin::KeccakF1600) => 3,
            None => 4,
            // 8 is the signatures kind's.
            Some(Builtin::Sha512) => 9,
        }
    }

    fn params(&self) -> Vec<u8> {
        self.circuit.bristol_text().unwrap_or("").as_bytes().to_vec()
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        self.circuit.builtin_kind().map_or("evaluation", Builtin::noun)
    }

    fn input_size(&self) -> Option<usize> {
        Some(self.circuit.input_bytes())
    }

    fn output_size(&self) -> Option<usize> {
        Some(self.circuit.output_bytes())
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        for record in inputs.iter() {
            Self::check_width(record, self.circuit.input_bits())?;
        }
        Ok(StatementShape {
            count: inputs.len() as u64,
            outputs: inputs.len(),
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        inputs.len()
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let c = &self.circuit;
        let all = Instances::Range {
            start: 0,
            end: 1 << n,
        };
        // Instance y's row: its record, or the padding instance's values.
        let row = |records: &'a Records, padding: &'a [u64]| -> Values<'a> {
            Values::PerInstance(Box::new(move |y: usize, out: &mut [u64]| {
                if y < records.len() {
                    let record = records.get(y);
                    let (whole, tail) = record.split_at(record.len() / 8 * 8);
                    for (o, chunk) in out.iter_mut().zip(whole.chunks_exact(8)) {
                        *o = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
                    }
                    if let Some(o) = out.get_mut(whole.len() / 8) {
                        let mut w = [0u8; 8];
                        w[..tail.len()].copy_from_slice(tail);
                        *o = u64::from_le_bytes(w);
                    }
                } else {
                    out.copy_from_slice(&padding[..out.len()]);
                }
            }))
        };
        vec![
            Relation::constant_wire(n),
            Relation {
                instances: all.clone(),
                wires: Wires {
                    base: c.r1cs().public_input_wire(0),
                    len: c.input_bits(),
                },
                from: None,
                values: row(inputs, c.zero_input()),
            },
            Relation {
                instances: all,
                wires: Wires {
                    base: c.r1cs().public_output_wire(0),
                    len: c.output_bits(),
                },
                from: None,
                values: row(outputs, c.padding_output()),
            },
        ]
    }
}

impl TextFormat for Batch {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        match self.circuit.builtin_kind() {
            Some(Builtin::Sha256 | Builtin::Sha512) => {
                expect_fields(fields, "CV BLOCK", 2)?;
                // A SHA-2 cv is the output's size (32 or 64 bytes), the block twice that.
                let cv = self.circuit.output_bytes();
                let mut bytes = hex_field(fields[0], cv, "chaining value")?;
                bytes.extend(hex_field(fields[1], 2 * cv, "block")?);
                Ok(bytes)
            }
            Some(Builtin::Blake3) => {
                expect_fields(fields, "CV BLOCK COUNTER BLOCK_LEN FLAGS", 5)?;
                let mut bytes = hex_field(fields[0], 32, "chaining value")?;
                bytes.extend(hex_field(fields[1], 64, "block")?);
                bytes.extend(decimal::<u64>(fields[2], "counter")?.to_le_bytes());
                bytes.extend(decimal::<u32>(fields[3], "block length")?.to_le_bytes());
                bytes.extend(decimal::<u32>(fields[4], "flags")?.to_le_bytes());
                Ok(bytes)
            }
            Some(Builtin::KeccakF1600) => {
                expect_fields(fields, "STATE", 1)?;
                hex_field(fields[0], 200, "state")
            }
            None => {
                let sizes = self.circuit.bristol_input_sizes().unwrap_or(&[]);
                if fields.len() != sizes.len() {
                    return Err(format!(
                        "expected {} (the circuit's inputs), found {}",
                        crate::circuit::wording::counted(sizes.len() as u64, "input value"),
                        fields.len()
                    ));
                }
                let mut row = vec![0u64; self.circuit.input_words()];
                let mut offset = 0;
                for (i, (field, &bits)) in fields.iter().zip(sizes).enumerate() {
                    let value = value_bits(field, bits).map_err(|e| format!("input value {}: {e}", i + 1))?;
                    for (b, bit) in value.into_iter().enumerate() {
                        let j = offset + b;
                        row[j / 64] |= u64::from(bit) << (j % 64);
                    }
                    offset += bits;
                }
                let mut bytes = Vec::new();
                extend_bytes_of(&mut bytes, &row, self.circuit.input_bytes());
                Ok(bytes)
            }
        }
    }

    fn format_input(&self, record: &[u8]) -> String {
        match self.circuit.builtin_kind() {
            Some(Builtin::Sha256 | Builtin::Sha512) => {
                let (cv, block) = record.split_at(self.circuit.output_bytes());
                format!("{} {}", hex::encode(cv), hex::encode(block))
            }
            Some(Builtin::Blake3) => {
                let le = |range: Range<usize>| {
                    record[range]
                        .iter()
                        .rev()
                        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
                };
                format!(
                    "{} {} {} {} {}",
                    hex::encode(&record[..32]),
                    hex::encode(&record[32..96]),
                    le(96..104),
                    le(104..108),
                    le(108..112)
                )
            }
            Some(Builtin::KeccakF1600) => hex::encode(record),
            None => Self::values_hex(&row_of(record), self.circuit.bristol_input_sizes().unwrap_or(&[])),
        }
    }

    fn format_output(&self, record: &[u8]) -> String {
        match self.circuit.builtin_kind() {
            Some(_) => hex::encode(record),
            None => Self::values_hex(
                &row_of(record),
                self.circuit.bristol_output_sizes().unwrap_or(&[]),
            ),
        }
    }

    fn input_fields(&self, _record: &[u8]) -> Vec<(String, Range<usize>)> {
        let named = |parts: &[(&str, usize)]| {
            let mut at = 0;
            parts
                .iter()
                .map(|&(name, bits)| {
                    at += bits;
                    (name.to_string(), at - bits..at)
                })
                .collect::<Vec<_>>()
        };
        let bit_fields = match self.circuit.builtin_kind() {
            Some(Builtin::Sha256 | Builtin::Sha512) => {
                let cv = self.circuit.output_bits();
                named(&[("chaining value", cv), ("block", 2 * cv)])
            }
            Some(Builtin::Blake3) => named(&[
                ("chaining value", 256),
                ("block", 512),
                ("counter", 64),
                ("block length", 32),
                ("flags", 32),
            ]),
            Some(Builtin::KeccakF1600) => named(&[("state", 1600)]),
            None => {
                let sizes = self.circuit.bristol_input_sizes().unwrap_or(&[]);
                let names: Vec<String> = (1..=sizes.len()).map(|i| format!("input value {i}")).collect();
                let parts: Vec<(&str, usize)> = names
                    .iter()
                    .map(String::as_str)
                    .zip(sizes.iter().copied())
                    .collect();
                named(&parts)
            }
        };
        // Bit ranges to the bytes that hold them.
        bit_fields
            .into_iter()
            .map(|(name, bits)| (name, bits.start / 8..bits.end.div_ceil(8)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::parse_inputs;

    fn lines_of(kind: &Batch, inputs: &Records) -> String {
        inputs.iter().map(|r| kind.format_input(r) + "\n").collect()
    }

    #[test]
    fn every_batch_round_trips_with_comments() {
        let adder = Batch::of(
            StatementCircuit::from_bristol("2 4\n2 1 1\n1 2\n\n2 1 0 1 2 XOR\n1 1 2 3 INV\n").unwrap(),
        );
        let mut all: Vec<Batch> = Builtin::ALL.into_iter().map(Batch::builtin).collect();
        all.push(adder);
        for kind in all {
            let inputs = kind.random_inputs_from(3, &mut crate::kind::test_bytes(9));
            let text = format!("# header\n\n{}\n", lines_of(&kind, &inputs));
            assert_eq!(parse_inputs(&kind, &text).unwrap(), inputs, "{}", kind.name());
        }
    }

    #[test]
    fn records_hold_the_bytes_as_written_and_blake3_numbers_little_endian() {
        let sha = Batch::builtin(Builtin::Sha256);
        let line = format!("{}{} {}", "01020304", "00".repeat(28), "ab".repeat(64));
        let r = parse_inputs(&sha, &line).unwrap();
        assert_eq!(&r.get(0)[..4], &[1, 2, 3, 4]);
        assert_eq!(r.get(0)[32], 0xab);
        let sha512 = Batch::builtin(Builtin::Sha512);
        let line = format!("{}{} {}", "0102030405060708", "00".repeat(56), "ab".repeat(128));
        let r = parse_inputs(&sha512, &line).unwrap();
        assert_eq!(&r.get(0)[..8], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!((r.get(0)[63], r.get(0)[64], r.get(0).len()), (0, 0xab, 192));
        let short = format!("{} {}", "00".repeat(32), "ab".repeat(128));
        assert!(
            parse_inputs(&sha512, &short).is_err(),
            "a SHA-256 cv is too short"
        );
        let blake = Batch::builtin(Builtin::Blake3);
        let line = format!("{} {} 5 64 11", "00".repeat(32), "00".repeat(64));
        let r = parse_inputs(&blake, &line).unwrap();
        assert_eq!(&r.get(0)[96..104], &5u64.to_le_bytes());
        assert_eq!(&r.get(0)[104..112], &[64, 0, 0, 0, 11, 0, 0, 0]);
    }

    #[test]
    fn errors_name_the_line() {
        let sha = Batch::builtin(Builtin::Sha256);
        let good = lines_of(&sha, &sha.random_inputs_from(1, &mut crate::kind::test_bytes(1)));
        let odd = format!("{good}abc {}\n", "00".repeat(64));
        let e = parse_inputs(&sha, &odd).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("hex digit"), "{e}");
        let e = parse_inputs(&sha, "# nothing\n\n").unwrap_err().to_string();
        assert!(e.contains("N must be at least 1"), "{e}");
        let e = parse_inputs(&sha, &format!("{} x y\n", "00".repeat(32)))
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected 2 fields"), "{e}");
        let blake = Batch::builtin(Builtin::Blake3);
        let line = format!("{} {} 1 4294967296 0\n", "00".repeat(32), "00".repeat(64));
        let e = parse_inputs(&blake, &line).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("block length"), "{e}");
    }

    #[test]
    fn circuit_values_are_big_endian_hex_of_exact_width() {
        // Two inputs of 1 and 6 bits; output 1 bit.
        let c = Batch::of(StatementCircuit::from_bristol("1 8\n2 1 6\n1 1\n\n2 1 0 1 7 AND\n").unwrap());
        let r = parse_inputs(&c, "1 2a").unwrap();
        // Input 0 is bit 0; input 1 = 0b101010 in bits 1..7.
        assert_eq!(r.get(0), &[1 | (0b10_1010 << 1)]);
        assert_eq!(c.format_input(r.get(0)), "1 2a");
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

    #[test]
    fn records_with_bits_past_the_width_are_refused() {
        // One 1-bit input: only bit 0 of each record may be set.
        let c = Batch::of(StatementCircuit::from_bristol("1 2\n1 1\n1 1\n\n1 1 0 1 INV\n").unwrap());
        assert!(c.shape(&Records::from_fixed(vec![1], 1)).is_ok());
        assert!(c.shape(&Records::from_fixed(vec![2], 1)).is_err());
    }
}
