//! What a proof is about: a kind and its public data, the input and output
//! records (see [`crate::Kind`]).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use once_cell::race::OnceBox;

use crate::format;
use crate::host::{Host, Portable};
use crate::kind::{Kind, StatementShape};
use crate::records::Records;

/// The public part of a proof: a kind, its input records and its output
/// records. Everything else (the instances' private wires) is the prover's.
///
/// Clones share the records: they are megabytes for large batches (26 MB
/// for 2^16 Keccak-f permutations), and a verified proof hands its
/// statement back while the file keeps it.
#[derive(Clone)]
pub struct Statement {
    kind: Arc<dyn Kind>,
    public: Arc<PublicValues>,
    shape: StatementShape,
    instances: usize,
}

/// The records and, once asked for, their digest: the transcript binds it
/// and `verify` prints it, and each is one pass of BLAKE3 over the records.
#[derive(Clone)]
struct PublicValues {
    inputs: Records,
    outputs: Records,
    digest: DigestCell,
}

/// The digest once computed; a clone keeps it.
#[derive(Default)]
struct DigestCell(OnceBox<[u8; 32]>);

impl Clone for DigestCell {
    fn clone(&self) -> Self {
        let cell = DigestCell::default();
        if let Some(&d) = self.0.get() {
            let _ = cell.0.set(Box::new(d));
        }
        cell
    }
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
        let instances = kind.instances(&inputs, &outputs);
        // The calls bound what a verifier lays out (a lane circuit holds up
        // to nine per instance), as the instances bound the rest.
        let calls = kind.calls(&inputs, &outputs);
        if instances.max(calls) as u64 > format::MAX_INSTANCES {
            return Err(format!(
                "the statement needs {instances} circuit instances for {calls} compression calls, more than the {} one proof holds",
                format::MAX_INSTANCES
            ));
        }
        Ok(Statement {
            instances,
            kind,
            public: Arc::new(PublicValues {
                inputs,
                outputs,
                digest: DigestCell::default(),
            }),
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
        self.instances
    }

    /// Compression (permutation) calls the instances prove: the instances,
    /// or for a circuit of several lanes (the signature statements') the
    /// calls in its lanes ([`Kind::calls`]).
    pub fn calls(&self) -> usize {
        self.kind.calls(self.inputs(), self.outputs())
    }

    /// The input records.
    pub fn inputs(&self) -> &Records {
        &self.public.inputs
    }

    /// The output records.
    pub fn outputs(&self) -> &Records {
        &self.public.outputs
    }

    /// The outputs, one line each in order, in the kind's text format (what
    /// `verify --print-outputs` prints).
    pub fn output_lines(&self) -> Vec<String> {
        self.outputs()
            .iter()
            .map(|r| self.kind.format_output(r))
            .collect()
    }

    /// BLAKE3 of every public value in file order
    /// ([`format::statement_digest`]), computed on first use.
    pub fn public_digest(&self) -> [u8; 32] {
        self.public_digest_with(&Portable)
    }

    /// [`Statement::public_digest`], computed by `host` if not yet known.
    pub fn public_digest_with(&self, host: &dyn Host) -> [u8; 32] {
        *self
            .public
            .digest
            .0
            .get_or_init(|| Box::new(format::statement_digest(self, host)))
    }

    /// This statement's own copy of its records, digest forgotten: for
    /// tests that play a cheating prover.
    fn public_mut(&mut self) -> &mut PublicValues {
        let public = Arc::make_mut(&mut self.public);
        public.digest = DigestCell::default();
        public
    }

    /// Mutable output records, for tests that play a cheating prover (the
    /// prover's cheating tests change a statement after proving it).
    #[doc(hidden)]
    pub fn outputs_mut(&mut self) -> &mut Records {
        &mut self.public_mut().outputs
    }

    /// Mutable input records, for tests that play a cheating prover.
    #[doc(hidden)]
    pub fn inputs_mut(&mut self) -> &mut Records {
        &mut self.public_mut().inputs
    }
}

impl PartialEq for Statement {
    fn eq(&self, other: &Self) -> bool {
        self.kind.name() == other.kind.name()
            && self.kind.params() == other.kind.params()
            && self.kind.circuit().digest() == other.kind.circuit().digest()
            && self.inputs() == other.inputs()
            && self.outputs() == other.outputs()
    }
}

impl Eq for Statement {}

impl fmt::Debug for Statement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Statement")
            .field("kind", &self.kind.name())
            .field("count", &self.shape.count)
            .field("inputs", &self.inputs().len())
            .field("outputs", &self.outputs().len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::Builtin;
    use crate::kind::Batch;
    use alloc::vec;

    #[test]
    fn clones_share_the_records_and_a_change_forgets_the_digest() {
        let batch = Batch::builtin(Builtin::Sha256);
        let inputs = batch.random_inputs_from(3, &mut crate::kind::test_bytes(1));
        let size = batch.output_size().expect("fixed-size outputs");
        let kind: Arc<dyn Kind> = Arc::new(batch);
        let st = Statement::new(kind, inputs, Records::from_fixed(vec![0; 3 * size], size)).unwrap();
        let copy = st.clone();
        assert!(Arc::ptr_eq(&st.public, &copy.public));
        assert_eq!(st.public_digest(), format::statement_digest(&st, &Portable));

        let mut changed = copy.clone();
        changed.outputs_mut().flip_bit(1, 0);
        assert_ne!(changed.public_digest(), st.public_digest());
        assert_eq!(
            changed.public_digest(),
            format::statement_digest(&changed, &Portable)
        );
        changed.inputs_mut().flip_bit(0, 5);
        assert_eq!(
            changed.public_digest(),
            format::statement_digest(&changed, &Portable)
        );
        assert_eq!(copy.public_digest(), st.public_digest());
        assert_eq!(copy, st);
    }
}
