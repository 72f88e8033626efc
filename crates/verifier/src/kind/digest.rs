//! Message digests: N messages of any lengths (up to 1 MiB; 1 KiB for BLAKE3,
//! one chunk) and their digests, with the padding, every block and the
//! chaining between blocks proved; the chaining values are private.
//!
//! Input records are the messages, output records the digests (32 bytes;
//! 64 for SHA-512, [`Hash::digest_bytes`]).
//! Text: one message per line as hex, `-` for the empty message; outputs are
//! the digests in hex, one per line, in input order.
//!
//! The messages' blocks are consecutive instances, message after message.
//! Relations (sets of instances given explicitly, `O(N)` for the verifier,
//! who reads the messages anyway): the constant wire; each block's public
//! bytes (message and padding, and for BLAKE3 the block length, counter and
//! flags), for a sponge the block XORed with the previous state; the chained
//! bytes of a message's first block equal the hash's initial value, those of
//! a later block the previous block's output; the digest bytes of a message's
//! last block equal its digest.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;
use core::ops::Range;

use crate::piop::wiring::{Instances, Source};

use super::{bytes_line, extend_bytes_of, row_of, Kind, Relation, StatementShape, TextFormat, Values};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::hashes::Hash;
use crate::inputs::{expect_fields, hex_bytes};
use crate::records::Records;
use crate::Error;

/// Digests of messages under one hash.
#[derive(Clone, Debug)]
pub struct Digest {
    hash: Hash,
    circuit: Arc<StatementCircuit>,
}

/// Where each message's blocks are.
struct Blocks {
    /// Instance of the first block of message `m`, and one past the last
    /// message at the end.
    starts: Vec<usize>,
    /// For each instance: its message and block index.
    owner: Vec<(u32, u32)>,
}

impl Blocks {
    fn new(hash: Hash, messages: &Records) -> Self {
        let mut starts = Vec::with_capacity(messages.len() + 1);
        let mut owner = Vec::new();
        starts.push(0);
        for (m, msg) in messages.iter().enumerate() {
            let blocks = hash.blocks(msg.len());
            owner.extend((0..blocks).map(|b| (m as u32, b as u32)));
            starts.push(owner.len());
        }
        Blocks { starts, owner }
    }

    /// The instances at `which(m)` for every message, as a set.
    fn set(&self, which: impl Fn(usize, usize) -> usize) -> Instances {
        let mut bits = vec![0u64; self.owner.len().div_ceil(64)];
        for m in 0..self.starts.len() - 1 {
            let y = which(self.starts[m], self.starts[m + 1]);
            bits[y / 64] |= 1 << (y % 64);
        }
        Instances::Set(bits.into())
    }
}

impl Digest {
    /// Digests under `hash`.
    pub fn new(hash: Hash) -> Self {
        Digest {
            hash,
            circuit: StatementCircuit::builtin(hash.circuit()),
        }
    }
}

impl Digest {
    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`):
    /// every instance's circuit input bits, intermediate values computed
    /// natively.
    pub fn instance_rows(&self, inputs: &Records) -> Result<Vec<u64>, Error> {
        let mut rows = Vec::new();
        for msg in inputs.iter() {
            for row in self.hash.instances(msg).0 {
                rows.extend(row_of(&row));
            }
        }
        Ok(rows)
    }

    /// The public outputs, from the output rows of every instance
    /// (`starling::kind::KindProver::outputs`).
    pub fn outputs_of_rows(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        let blocks = Blocks::new(self.hash, inputs);
        let words = self.circuit.output_words();
        let mut out = Records::new();
        let mut bytes = Vec::new();
        for m in 0..inputs.len() {
            let last = blocks.starts[m + 1] - 1;
            bytes.clear();
            extend_bytes_of(
                &mut bytes,
                &instance_outputs[last * words..(last + 1) * words],
                self.hash.digest_bytes(),
            );
            out.push(&bytes);
        }
        out
    }
}

impl Kind for Digest {
    fn name(&self) -> String {
        format!("digest --hash {}", self.hash.name())
    }

    fn code(&self) -> u8 {
        5
    }

    fn params(&self) -> Vec<u8> {
        vec![self.hash.code()]
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "message"
    }

    fn input_size(&self) -> Option<usize> {
        None
    }

    fn output_size(&self) -> Option<usize> {
        Some(self.hash.digest_bytes())
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        let max = self.hash.max_message();
        let mut instances = 0u64;
        for (m, msg) in inputs.iter().enumerate() {
            if msg.len() > max {
                return Err(format!(
                    "message {m} has {} bytes; {} statements take at most {max}",
                    msg.len(),
                    self.hash.name()
                ));
            }
            instances += self.hash.blocks(msg.len()) as u64;
        }
        if instances > MAX_INSTANCES {
            return Err(format!(
                "the messages have {instances} blocks, more than the {MAX_INSTANCES} one proof holds"
            ));
        }
        Ok(StatementShape {
            count: inputs.len() as u64,
            outputs: inputs.len(),
        })
    }

    fn instances(&self, inputs: &Records, _outputs: &Records) -> usize {
        inputs.iter().map(|msg| self.hash.blocks(msg.len())).sum()
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let hash = self.hash;
        let c = &self.circuit;
        let blocks = Arc::new(Blocks::new(hash, inputs));
        let all_blocks = Instances::Range {
            start: 0,
            end: blocks.owner.len(),
        };
        let first = blocks.set(|start, _| start);
        let last = blocks.set(|_, end| end - 1);
        let later = match &first {
            Instances::Set(bits) => {
                let mut later: Vec<u64> = bits.iter().map(|w| !w).collect();
                let total = blocks.owner.len();
                if !total.is_multiple_of(64) {
                    *later.last_mut().expect("at least one block") &= (1 << (total % 64)) - 1;
                }
                Instances::Set(later.into())
            }
            Instances::Range { .. } => unreachable!("a set"),
        };
        let block_values = {
            let blocks = blocks.clone();
            move |y: usize, out: &mut [u64]| {
                let (m, b) = blocks.owner[y];
                let bytes = hash.block(inputs.get(m as usize), b as usize);
                out.copy_from_slice(&row_of(&bytes)[..out.len()]);
            }
        };
        let digest_values = {
            let blocks = blocks.clone();
            move |y: usize, out: &mut [u64]| {
                let (m, _) = blocks.owner[y];
                out.copy_from_slice(&row_of(outputs.get(m as usize))[..out.len()]);
            }
        };
        let block_wires = c.input_wires(hash.block_bytes());
        let chained = hash.chained();
        let mut relations = vec![Relation::constant_wire(n)];
        if hash.absorbs() {
            // The rate: the block in a first block, the block XORed with the
            // previous state in a later one.
            let block_values = Arc::new(block_values);
            let again = block_values.clone();
            relations.push(Relation {
                instances: first.clone(),
                wires: block_wires,
                from: None,
                values: Values::PerInstance(Box::new(move |y, out| block_values(y, out))),
            });
            relations.push(Relation {
                instances: later.clone(),
                wires: block_wires,
                from: Some((Source::Previous, c.output_wires(hash.block_bytes()))),
                values: Values::PerInstance(Box::new(move |y, out| again(y, out))),
            });
        } else {
            relations.push(Relation {
                instances: all_blocks,
                wires: block_wires,
                from: None,
                values: Values::PerInstance(Box::new(block_values)),
            });
        }
        relations.push(Relation {
            instances: first,
            wires: c.input_wires(chained.clone()),
            from: None,
            values: Values::Constant(row_of(&hash.initial_chained())),
        });
        relations.push(Relation {
            instances: later,
            wires: c.input_wires(chained.clone()),
            from: Some((Source::Previous, c.output_wires(chained))),
            values: Values::Zero,
        });
        relations.push(Relation {
            instances: last,
            wires: c.output_wires(0..hash.digest_bytes()),
            from: None,
            values: Values::PerInstance(Box::new(digest_values)),
        });
        relations
    }
}

impl TextFormat for Digest {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        expect_fields(fields, "MESSAGE", 1)?;
        let msg = hex_bytes(fields[0], "message")?;
        if msg.len() > self.hash.max_message() {
            return Err(format!(
                "the message has {} bytes; {} statements take at most {}",
                msg.len(),
                self.hash.name(),
                self.hash.max_message()
            ));
        }
        Ok(msg)
    }

    fn format_input(&self, record: &[u8]) -> String {
        bytes_line(record)
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        vec![("message".into(), 0..record.len())]
    }
}
