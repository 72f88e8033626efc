//! Bristol Fashion circuits: parser and a plain evaluator.
//!
//! Format (the "Bristol Fashion" of the MPC community): line 1 `gates
//! wires`; line 2 `n_inputs size...`; line 3 `n_outputs size...`; then one
//! gate per line, `nin nout in... out... OP` with OP one of XOR, AND, INV
//! (or NOT), EQ (constant: `1 1 c out EQ`), EQW (copy) and MAND (`2m m`
//! inputs then outputs, m ANDs pairing input `i` with input `m + i`). Inputs
//! occupy the first wires, outputs the last. Blank lines are ignored.
//!
//! The parser treats the file as untrusted: every problem is a
//! [`BristolError`] carrying the 1-based line number, never a panic, and no
//! allocation is sized by a header number that the gates do not back up.
//! [`crate::circuit::bristol_compile`] compiles a parsed circuit into the builder.

use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

use thiserror::Error;

use crate::circuit::wording::counted;

/// Errors from parsing or evaluating a Bristol Fashion circuit.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BristolError {
    /// A line does not have the expected shape.
    #[error("line {line}: {problem}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// An unknown gate operation.
    #[error("line {line}: unknown gate operation `{op}` (expected XOR, AND, INV, NOT, EQ, EQW or MAND)")]
    UnknownGate {
        /// 1-based line number.
        line: usize,
        /// The operation found.
        op: String,
    },
    /// A wire index is not below the declared wire count.
    #[error("line {line}: wire {wire} is out of range (the header declares {num_wires} wires)")]
    WireOutOfRange {
        /// 1-based line number.
        line: usize,
        /// The wire index.
        wire: u64,
        /// Declared wire count.
        num_wires: usize,
    },
    /// A gate reads a wire that no input or earlier gate sets.
    #[error("line {line}: wire {wire} is read before it is set")]
    ReadBeforeSet {
        /// 1-based line number.
        line: usize,
        /// The wire index.
        wire: u32,
    },
    /// A gate writes a wire that is already set.
    #[error("line {line}: wire {wire} is set twice")]
    SetTwice {
        /// 1-based line number.
        line: usize,
        /// The wire index.
        wire: u32,
    },
    /// The header numbers are inconsistent with each other or with the gates.
    #[error("line {line}: {problem}")]
    Header {
        /// 1-based line number (of the header line at fault, or of the end
        /// of the file when gates are missing).
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// Evaluation was given the wrong number of input values.
    #[error("the circuit has {}, {got} given", counted(*.expected as u64, "input"))]
    InputCount {
        /// Inputs declared.
        expected: usize,
        /// Inputs given.
        got: usize,
    },
    /// Evaluation was given an input of the wrong width.
    #[error("input {index} must have {}, {got} given", counted(*.expected as u64, "bit"))]
    InputSize {
        /// Which input.
        index: usize,
        /// Width declared.
        expected: usize,
        /// Width given.
        got: usize,
    },
}

/// One gate of a Bristol Fashion circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BristolGate {
    /// `out = a XOR b`.
    Xor {
        /// First input wire.
        a: u32,
        /// Second input wire.
        b: u32,
        /// Output wire.
        out: u32,
    },
    /// `out = a AND b`.
    And {
        /// First input wire.
        a: u32,
        /// Second input wire.
        b: u32,
        /// Output wire.
        out: u32,
    },
    /// `out = NOT a`.
    Inv {
        /// Input wire.
        a: u32,
        /// Output wire.
        out: u32,
    },
    /// `out = value` (a constant).
    Eq {
        /// The constant.
        value: bool,
        /// Output wire.
        out: u32,
    },
    /// `out = a` (a copy).
    Eqw {
        /// Input wire.
        a: u32,
        /// Output wire.
        out: u32,
    },
    /// `outs[i] = ins[i] AND ins[m + i]` for `m = outs.len()`.
    Mand {
        /// The `2m` input wires.
        ins: Vec<u32>,
        /// The `m` output wires.
        outs: Vec<u32>,
    },
}

impl BristolGate {
    fn for_each_input(&self, mut f: impl FnMut(u32) -> Result<(), BristolError>) -> Result<(), BristolError> {
        match self {
            BristolGate::Xor { a, b, .. } | BristolGate::And { a, b, .. } => {
                f(*a)?;
                f(*b)
            }
            BristolGate::Inv { a, .. } | BristolGate::Eqw { a, .. } => f(*a),
            BristolGate::Eq { .. } => Ok(()),
            BristolGate::Mand { ins, .. } => ins.iter().try_for_each(|&w| f(w)),
        }
    }

    fn outputs(&self) -> &[u32] {
        match self {
            BristolGate::Xor { out, .. }
            | BristolGate::And { out, .. }
            | BristolGate::Inv { out, .. }
            | BristolGate::Eq { out, .. }
            | BristolGate::Eqw { out, .. } => core::slice::from_ref(out),
            BristolGate::Mand { outs, .. } => outs,
        }
    }

    /// Number of AND operations in the gate.
    pub fn and_count(&self) -> usize {
        match self {
            BristolGate::And { .. } => 1,
            BristolGate::Mand { outs, .. } => outs.len(),
            _ => 0,
        }
    }
}

/// A parsed and validated Bristol Fashion circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BristolCircuit {
    num_wires: usize,
    input_sizes: Vec<usize>,
    output_sizes: Vec<usize>,
    gates: Vec<BristolGate>,
}

/// Largest wire count accepted. Every wire is an input or a gate output and
/// the gates are backed by the text, but the inputs are not: this and
/// [`MAX_BRISTOL_PUBLIC_BITS`] keep what a short text can make a parser or
/// compiler allocate bounded.
pub const MAX_BRISTOL_WIRES: usize = 1 << 24;

/// Largest number of input plus output bits accepted (8 KiB of public values
/// per instance). A header line can declare millions of input bits in a few
/// bytes, and compiling costs a few hundred bytes per wire; past this size a
/// statement is better served by a dedicated kind.
pub const MAX_BRISTOL_PUBLIC_BITS: usize = 1 << 16;

/// Splits a line into tokens, returning `(line_number, tokens)` for the next
/// non-blank line.
struct Lines<'a> {
    inner: core::iter::Enumerate<core::str::Lines<'a>>,
    last_line: usize,
}

impl<'a> Lines<'a> {
    fn next_tokens(&mut self) -> Option<(usize, Vec<&'a str>)> {
        for (i, text) in self.inner.by_ref() {
            self.last_line = i + 1;
            let tokens: Vec<&str> = text.split_whitespace().collect();
            if !tokens.is_empty() {
                return Some((i + 1, tokens));
            }
        }
        None
    }
}

fn parse_number(line: usize, token: &str, what: &str) -> Result<u64, BristolError> {
    token.parse::<u64>().map_err(|_| BristolError::Syntax {
        line,
        problem: format!("{what} `{token}` is not a non-negative integer"),
    })
}

fn parse_wire(line: usize, token: &str, num_wires: usize) -> Result<u32, BristolError> {
    let wire = parse_number(line, token, "wire")?;
    if wire >= num_wires as u64 {
        return Err(BristolError::WireOutOfRange {
            line,
            wire,
            num_wires,
        });
    }
    Ok(wire as u32)
}

/// Parses a `count size...` header line.
fn parse_sizes(lines: &mut Lines<'_>, what: &str, num_wires: usize) -> Result<Vec<usize>, BristolError> {
    let (line, tokens) = lines.next_tokens().ok_or_else(|| BristolError::Header {
        line: lines.last_line + 1,
        problem: format!("missing the {what} line"),
    })?;
    let count = parse_number(line, tokens[0], &format!("{what} count"))?;
    if count != (tokens.len() - 1) as u64 {
        return Err(BristolError::Header {
            line,
            problem: format!(
                "declares {} but lists {}",
                counted(count, what),
                counted((tokens.len() - 1) as u64, "size")
            ),
        });
    }
    let mut total: u64 = 0;
    let mut sizes = Vec::with_capacity(tokens.len() - 1);
    for token in &tokens[1..] {
        let size = parse_number(line, token, &format!("{what} size"))?;
        total = total.saturating_add(size);
        sizes.push(size as usize);
    }
    if total > num_wires as u64 {
        return Err(BristolError::Header {
            line,
            problem: format!(
                "{what}s need {} but the circuit has {num_wires}",
                counted(total, "wire")
            ),
        });
    }
    Ok(sizes)
}

fn parse_gate(line: usize, tokens: &[&str], num_wires: usize) -> Result<BristolGate, BristolError> {
    let syntax = |problem: String| BristolError::Syntax { line, problem };
    if tokens.len() < 3 {
        return Err(syntax("a gate needs `nin nout inputs... outputs... OP`".into()));
    }
    let nin = parse_number(line, tokens[0], "input count")?;
    let nout = parse_number(line, tokens[1], "output count")?;
    let op = tokens[tokens.len() - 1];
    let listed = (tokens.len() - 3) as u64;
    if nin.checked_add(nout) != Some(listed) {
        return Err(syntax(format!(
            "gate declares {} and {} but lists {}",
            counted(nin, "input"),
            counted(nout, "output"),
            counted(listed, "wire")
        )));
    }
    let (nin, nout) = (nin as usize, nout as usize);
    let ins = &tokens[2..2 + nin];
    let outs = &tokens[2 + nin..2 + nin + nout];
    let arity = |want_in: usize, want_out: usize| {
        if nin == want_in && nout == want_out {
            Ok(())
        } else {
            Err(syntax(format!(
                "{op} takes {} and {}, got {nin} and {nout}",
                counted(want_in as u64, "input"),
                counted(want_out as u64, "output")
            )))
        }
    };
    let wire = |token: &str| parse_wire(line, token, num_wires);
    match op {
        "XOR" | "AND" => {
            arity(2, 1)?;
            let (a, b, out) = (wire(ins[0])?, wire(ins[1])?, wire(outs[0])?);
            Ok(if op == "XOR" {
                BristolGate::Xor { a, b, out }
            } else {
                BristolGate::And { a, b, out }
            })
        }
        "INV" | "NOT" => {
            arity(1, 1)?;
            Ok(BristolGate::Inv {
                a: wire(ins[0])?,
                out: wire(outs[0])?,
            })
        }
        "EQ" => {
            arity(1, 1)?;
            let value = match ins[0] {
                "0" => false,
                "1" => true,
                other => return Err(syntax(format!("EQ constant must be 0 or 1, got `{other}`"))),
            };
            Ok(BristolGate::Eq {
                value,
                out: wire(outs[0])?,
            })
        }
        "EQW" => {
            arity(1, 1)?;
            Ok(BristolGate::Eqw {
                a: wire(ins[0])?,
                out: wire(outs[0])?,
            })
        }
        "MAND" => {
            if nout == 0 || nin != 2 * nout {
                return Err(syntax(format!(
                    "MAND takes 2m inputs and m outputs (m >= 1), got {nin} and {nout}"
                )));
            }
            Ok(BristolGate::Mand {
                ins: ins.iter().map(|t| wire(t)).collect::<Result<_, _>>()?,
                outs: outs.iter().map(|t| wire(t)).collect::<Result<_, _>>()?,
            })
        }
        other => Err(BristolError::UnknownGate {
            line,
            op: other.to_string(),
        }),
    }
}

impl BristolCircuit {
    /// Parses and validates Bristol Fashion text: gate count, wire ranges,
    /// every wire read after it is set and set at most once, every output set.
    pub fn parse(text: &str) -> Result<Self, BristolError> {
        let mut lines = Lines {
            inner: text.lines().enumerate(),
            last_line: 0,
        };
        let (line1, tokens) = lines.next_tokens().ok_or(BristolError::Header {
            line: 1,
            problem: "empty file: expected `gates wires`".into(),
        })?;
        if tokens.len() != 2 {
            return Err(BristolError::Header {
                line: line1,
                problem: format!(
                    "expected `gates wires`, found {}",
                    counted(tokens.len() as u64, "number")
                ),
            });
        }
        let num_gates = parse_number(line1, tokens[0], "gate count")?;
        let num_wires = parse_number(line1, tokens[1], "wire count")?;
        if num_wires > MAX_BRISTOL_WIRES as u64 {
            return Err(BristolError::Header {
                line: line1,
                problem: format!("{num_wires} wires is more than the supported {MAX_BRISTOL_WIRES}"),
            });
        }
        let num_wires = num_wires as usize;
        let input_sizes = parse_sizes(&mut lines, "input", num_wires)?;
        let output_sizes = parse_sizes(&mut lines, "output", num_wires)?;
        let public: usize = input_sizes.iter().chain(&output_sizes).sum();
        if public > MAX_BRISTOL_PUBLIC_BITS {
            return Err(BristolError::Header {
                line: lines.last_line,
                problem: format!(
                    "the inputs and outputs have {public} bits in all, more than the supported {MAX_BRISTOL_PUBLIC_BITS}"
                ),
            });
        }

        let mut gates = Vec::new();
        let mut gate_lines = Vec::new();
        let mut settable: u64 = input_sizes.iter().map(|&s| s as u64).sum();
        while let Some((line, tokens)) = lines.next_tokens() {
            if gates.len() as u64 >= num_gates {
                return Err(BristolError::Header {
                    line,
                    problem: format!(
                        "more gates than the {} declared on line {line1}",
                        counted(num_gates, "gate")
                    ),
                });
            }
            let gate = parse_gate(line, &tokens, num_wires)?;
            settable += gate.outputs().len() as u64;
            gates.push(gate);
            gate_lines.push(line);
        }
        if (gates.len() as u64) < num_gates {
            return Err(BristolError::Header {
                line: lines.last_line,
                problem: format!(
                    "file ends after {}, {num_gates} declared on line {line1}",
                    counted(gates.len() as u64, "gate")
                ),
            });
        }
        // Every wire is an input or a gate output, so the wire count is
        // bounded by what the file itself lists before we allocate for it.
        if settable < num_wires as u64 {
            return Err(BristolError::Header {
                line: line1,
                problem: format!(
                    "declares {} but inputs and gates set only {settable}",
                    counted(num_wires as u64, "wire")
                ),
            });
        }
        let mut set = vec![false; num_wires];
        let num_inputs: usize = input_sizes.iter().sum();
        set[..num_inputs].iter_mut().for_each(|s| *s = true);
        for (gate, &line) in gates.iter().zip(&gate_lines) {
            gate.for_each_input(|w| {
                if set[w as usize] {
                    Ok(())
                } else {
                    Err(BristolError::ReadBeforeSet { line, wire: w })
                }
            })?;
            for &w in gate.outputs() {
                if core::mem::replace(&mut set[w as usize], true) {
                    return Err(BristolError::SetTwice { line, wire: w });
                }
            }
        }
        let num_outputs: usize = output_sizes.iter().sum();
        if let Some(unset) = (num_wires - num_outputs..num_wires).find(|&w| !set[w]) {
            return Err(BristolError::Header {
                line: line1,
                problem: format!("output wire {unset} is never set"),
            });
        }
        Ok(BristolCircuit {
            num_wires,
            input_sizes,
            output_sizes,
            gates,
        })
    }

    /// Declared number of wires.
    pub fn num_wires(&self) -> usize {
        self.num_wires
    }

    /// Bit widths of the inputs, in order (they occupy the first wires).
    pub fn input_sizes(&self) -> &[usize] {
        &self.input_sizes
    }

    /// Bit widths of the outputs, in order (they occupy the last wires).
    pub fn output_sizes(&self) -> &[usize] {
        &self.output_sizes
    }

    /// The gates in file order (a valid evaluation order).
    pub fn gates(&self) -> &[BristolGate] {
        &self.gates
    }

    /// Total number of AND operations (AND gates plus MAND lanes).
    pub fn and_count(&self) -> usize {
        self.gates.iter().map(BristolGate::and_count).sum()
    }

    /// Evaluates the circuit on one set of inputs (one `Vec<bool>` per input,
    /// bit `b` = the input's `b`-th wire), returning each output's bits.
    pub fn evaluate(&self, inputs: &[Vec<bool>]) -> Result<Vec<Vec<bool>>, BristolError> {
        if inputs.len() != self.input_sizes.len() {
            return Err(BristolError::InputCount {
                expected: self.input_sizes.len(),
                got: inputs.len(),
            });
        }
        let mut z = vec![false; self.num_wires];
        let mut next = 0;
        for (index, (input, &size)) in inputs.iter().zip(&self.input_sizes).enumerate() {
            if input.len() != size {
                return Err(BristolError::InputSize {
                    index,
                    expected: size,
                    got: input.len(),
                });
            }
            z[next..next + size].copy_from_slice(input);
            next += size;
        }
        for gate in &self.gates {
            match gate {
                BristolGate::Xor { a, b, out } => z[*out as usize] = z[*a as usize] ^ z[*b as usize],
                BristolGate::And { a, b, out } => z[*out as usize] = z[*a as usize] & z[*b as usize],
                BristolGate::Inv { a, out } => z[*out as usize] = !z[*a as usize],
                BristolGate::Eq { value, out } => z[*out as usize] = *value,
                BristolGate::Eqw { a, out } => z[*out as usize] = z[*a as usize],
                BristolGate::Mand { ins, outs } => {
                    let m = outs.len();
                    for (i, &out) in outs.iter().enumerate() {
                        z[out as usize] = z[ins[i] as usize] & z[ins[m + i] as usize];
                    }
                }
            }
        }
        let mut start = self.num_wires - self.output_sizes.iter().sum::<usize>();
        Ok(self
            .output_sizes
            .iter()
            .map(|&size| {
                let bits = z[start..start + size].to_vec();
                start += size;
                bits
            })
            .collect())
    }
}

/// Bits of the big-endian integer encoded by `bytes`: bit `b` is bit `b % 8`
/// of byte `len - 1 - b / 8` (the convention of the Bristol SHA-256 and AES
/// circuits).
pub fn bits_from_be_bytes(bytes: &[u8]) -> Vec<bool> {
    (0..bytes.len() * 8)
        .map(|b| (bytes[bytes.len() - 1 - b / 8] >> (b % 8)) & 1 == 1)
        .collect()
}

/// Inverse of [`bits_from_be_bytes`] (the bit count must be a multiple of 8).
pub fn be_bytes_from_bits(bits: &[bool]) -> Vec<u8> {
    let len = bits.len() / 8;
    let mut out = vec![0u8; len];
    for (b, &bit) in bits.iter().enumerate() {
        out[len - 1 - b / 8] |= u8::from(bit) << (b % 8);
    }
    out
}

/// Bits of `value`, least significant first (`width <= 64`).
pub fn bits_from_u64(value: u64, width: usize) -> Vec<bool> {
    (0..width).map(|b| (value >> b) & 1 == 1).collect()
}

/// The integer whose bit `b` is `bits[b]` (at most 64 bits).
pub fn u64_from_bits(bits: &[bool]) -> u64 {
    bits.iter()
        .enumerate()
        .fold(0u64, |acc, (b, &bit)| acc | (u64::from(bit) << b))
}
