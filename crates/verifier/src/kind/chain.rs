//! Hash chains: `h(0) = start`, `h(i + 1) = H(h(i))` (the standard digest of
//! the value, which is a digest's size: 32 bytes, 64 for SHA-512,
//! [`Hash::digest_bytes`]), public start, N and `h(N)`; every link private.
//!
//! One input record: the start (a digest's size) and N (8 bytes,
//! little-endian); one output record: `h(N)`. Text: `START STEPS`, 64 hex
//! digits (128 for SHA-512) and a decimal; the output line is `h(N)` in hex.
//!
//! Instance `y` hashes `h(y)`, one block. Relations, all over ranges of
//! instances with constant values, so the verifier's work grows with `log N`
//! only: the constant wire; the block's padding (and the chaining value or
//! capacity the hash starts from) in every step; the message bytes of
//! instance 0 equal the start, and those of instance `y >= 1` equal the
//! digest bytes of instance `y - 1`; the digest bytes of instance `N - 1`
//! equal `h(N)`.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;
use core::ops::Range;

use crate::piop::wiring::{Instances, Source};

use super::{row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::hashes::Hash;
use crate::inputs::{decimal, expect_fields, hex_field};
use crate::records::Records;
use crate::statement::Statement;
use crate::Error;

/// A hash chain of one hash.
#[derive(Clone, Debug)]
pub struct Chain {
    hash: Hash,
    circuit: Arc<StatementCircuit>,
}

impl Chain {
    /// A chain of `hash`.
    pub fn new(hash: Hash) -> Self {
        Chain {
            hash,
            circuit: StatementCircuit::builtin(hash.circuit()),
        }
    }

    /// The input record of a chain of `steps` from `start` (a digest's size).
    pub fn record(start: &[u8], steps: u64) -> Vec<u8> {
        let mut r = start.to_vec();
        r.extend_from_slice(&steps.to_le_bytes());
        r
    }

    /// Bytes of each value `h(i)`.
    fn value_bytes(&self) -> usize {
        self.hash.digest_bytes()
    }

    /// Where the message bytes (the value hashed) sit in an instance's input.
    fn message(&self) -> Range<usize> {
        let start = self.hash.block_bytes().start;
        start..start + self.value_bytes()
    }

    /// Start and steps of the (checked) input record.
    fn read<'a>(&self, inputs: &'a Records) -> (&'a [u8], u64) {
        let (start, steps) = inputs.get(0).split_at(self.value_bytes());
        (start, u64::from_le_bytes(steps.try_into().expect("8 bytes")))
    }

    /// The instance row of the step that hashes `h`.
    fn row(&self, h: &[u8]) -> Vec<u8> {
        self.hash.instance_input(None, &self.hash.block(h, 0))
    }
}

impl Chain {
    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`):
    /// every instance's circuit input bits, intermediate values computed
    /// natively.
    pub fn instance_rows(&self, inputs: &Records) -> Result<Vec<u64>, Error> {
        let (start, steps) = self.read(inputs);
        let mut h = start.to_vec();
        let mut rows = Vec::with_capacity(steps as usize * self.circuit.input_words());
        for _ in 0..steps {
            let row = self.row(&h);
            h = self.hash.compress(&row)[..self.value_bytes()].to_vec();
            rows.extend(row_of(&row));
        }
        Ok(rows)
    }

    /// The public outputs, from the output rows of every instance
    /// (`starling::kind::KindProver::outputs`).
    pub fn outputs_of_rows(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        let (_, steps) = self.read(inputs);
        let words = self.circuit.output_words();
        let last = &instance_outputs[(steps as usize - 1) * words..steps as usize * words];
        let mut bytes = Vec::new();
        super::extend_bytes_of(&mut bytes, last, self.value_bytes());
        [bytes.as_slice()].into_iter().collect()
    }
}

impl Kind for Chain {
    fn name(&self) -> String {
        format!("chain --hash {}", self.hash.name())
    }

    fn code(&self) -> u8 {
        6
    }

    fn params(&self) -> Vec<u8> {
        vec![self.hash.code()]
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "step"
    }

    fn input_size(&self) -> Option<usize> {
        Some(self.value_bytes() + 8)
    }

    fn output_size(&self) -> Option<usize> {
        Some(self.value_bytes())
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        if inputs.len() != 1 {
            return Err(format!(
                "a chain has one input line (START STEPS), found {}",
                inputs.len()
            ));
        }
        let (_, steps) = self.read(inputs);
        if steps == 0 || steps > MAX_INSTANCES {
            return Err(format!(
                "the number of steps must be between 1 and {MAX_INSTANCES}"
            ));
        }
        Ok(StatementShape {
            count: steps,
            outputs: 1,
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        self.read(inputs).1 as usize
    }

    /// Consecutive segments: each starts where the one before ends; the
    /// chain runs from the first start for all their steps to the last end.
    fn join(&self, shards: &[&Statement]) -> Result<(Records, Records), String> {
        let (first, last) = match (shards.first(), shards.last()) {
            (Some(first), Some(last)) => (first, last),
            _ => return Err("no shards".into()),
        };
        for (i, pair) in shards.windows(2).enumerate() {
            let end = pair[0].outputs().get(0);
            let (start, _) = self.read(pair[1].inputs());
            if start != end {
                return Err(format!(
                    "shard {} starts at {}, not where shard {} ends ({})",
                    i + 2,
                    hex::encode(start),
                    i + 1,
                    hex::encode(end)
                ));
            }
        }
        let steps = shards
            .iter()
            .try_fold(0u64, |sum, s| sum.checked_add(self.read(s.inputs()).1))
            .ok_or("the shards' steps add up past 2^64")?;
        let (start, _) = self.read(first.inputs());
        let inputs = [Self::record(start, steps).as_slice()].into_iter().collect();
        Ok((inputs, last.outputs().clone()))
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let (start, steps) = self.read(inputs);
        let steps = steps as usize;
        let c = &self.circuit;
        let message = self.message();
        let digest = 0..self.value_bytes();
        let template = self.row(&vec![0; self.value_bytes()]);
        let every_step = Instances::Range { start: 0, end: steps };
        let mut relations = vec![Relation::constant_wire(n)];
        // The constant bytes around the message: chaining value or capacity,
        // padding, length, flags.
        for bytes in [0..message.start, message.end..c.input_bytes()] {
            if !bytes.is_empty() {
                relations.push(Relation {
                    instances: every_step.clone(),
                    wires: c.input_wires(bytes.clone()),
                    from: None,
                    values: Values::Constant(row_of(&template[bytes])),
                });
            }
        }
        relations.push(Relation {
            instances: Instances::single(0),
            wires: c.input_wires(message.clone()),
            from: None,
            values: Values::Constant(row_of(start)),
        });
        if steps > 1 {
            relations.push(Relation {
                instances: Instances::Range { start: 1, end: steps },
                wires: c.input_wires(message),
                from: Some((Source::Previous, c.output_wires(digest.clone()))),
                values: Values::Zero,
            });
        }
        relations.push(Relation {
            instances: Instances::single(steps - 1),
            wires: c.output_wires(digest),
            from: None,
            values: Values::Constant(row_of(outputs.get(0))),
        });
        relations
    }
}

impl TextFormat for Chain {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "START STEPS", 2)?;
        let start = hex_field(fields[0], self.value_bytes(), "start")?;
        Ok(Self::record(&start, decimal(fields[1], "steps")?))
    }

    fn format_input(&self, record: &[u8]) -> String {
        let (start, steps) = record.split_at(self.value_bytes());
        let steps = u64::from_le_bytes(steps.try_into().expect("8 bytes"));
        format!("{} {steps}", hex::encode(start))
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, _record: &[u8]) -> Vec<(String, Range<usize>)> {
        let d = self.value_bytes();
        vec![("start".into(), 0..d), ("steps".into(), d..d + 8)]
    }
}
