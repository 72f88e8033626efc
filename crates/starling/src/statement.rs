//! What a proof is about: a kind and its public data, the input and output
//! records (see [`crate::Kind`]).

use std::fmt;
use std::sync::Arc;

use crate::kind::{Kind, StatementShape};
use crate::records::Records;

/// The public part of a proof: a kind, its input records and its output
/// records. Everything else (the instances' private wires) is the prover's.
#[derive(Clone)]
pub struct Statement {
    kind: Arc<dyn Kind>,
    inputs: Records,
    outputs: Records,
    shape: StatementShape,
}

impl Statement {
    /// A statement of `kind` on these records. Errors when the inputs do not
    /// form a statement of the kind or the outputs are not the ones it calls
    /// for (their number and sizes).
    pub fn new(kind: Arc<dyn Kind>, inputs: Records, outputs: Records) -> Result<Self, String> {
        let shape = kind.shape(&inputs)?;
        if outputs.len() != shape.outputs {
            return Err(format!(
                "{} output records for {} inputs, expected {}",
                outputs.len(),
                inputs.len(),
                shape.outputs
            ));
        }
        if let Some(size) = kind.output_size() {
            if outputs.iter().any(|r| r.len() != size) {
                return Err(format!("an output record is not {size} bytes"));
            }
        }
        Ok(Statement {
            kind,
            inputs,
            outputs,
            shape,
        })
    }

    /// The kind.
    pub fn kind(&self) -> &Arc<dyn Kind> {
        &self.kind
    }

    /// N, in the kind's unit.
    pub fn count(&self) -> u64 {
        self.shape.count
    }

    /// Circuit instances before padding.
    pub fn instances(&self) -> usize {
        self.shape.instances
    }

    /// The input records.
    pub fn inputs(&self) -> &Records {
        &self.inputs
    }

    /// The output records.
    pub fn outputs(&self) -> &Records {
        &self.outputs
    }

    /// Mutable output records, for tests that play a cheating prover.
    #[cfg(test)]
    pub(crate) fn outputs_mut(&mut self) -> &mut Records {
        &mut self.outputs
    }

    /// Mutable input records, for tests that play a cheating prover.
    #[cfg(test)]
    pub(crate) fn inputs_mut(&mut self) -> &mut Records {
        &mut self.inputs
    }
}

impl PartialEq for Statement {
    fn eq(&self, other: &Self) -> bool {
        self.kind.name() == other.kind.name()
            && self.kind.params() == other.kind.params()
            && self.kind.circuit().digest() == other.kind.circuit().digest()
            && self.inputs == other.inputs
            && self.outputs == other.outputs
    }
}

impl Eq for Statement {}

impl fmt::Debug for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Statement")
            .field("kind", &self.kind.name())
            .field("count", &self.shape.count)
            .field("inputs", &self.inputs.len())
            .field("outputs", &self.outputs.len())
            .finish()
    }
}
