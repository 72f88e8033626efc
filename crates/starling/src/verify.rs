//! Verifying proofs made by someone else: against the statement the
//! verifier expects, with the security it requires.
//!
//! A valid proof proves the statement it carries, and anyone can make a
//! valid proof of *some* statement: of a circuit that prints the expected
//! outputs as constants, of other inputs, of fewer instances. So the check a
//! verifier needs is [`verify`]: the proof is valid, its statement is
//! exactly the expected kind, circuit, N and inputs, and its profile gives
//! at least the security required. The outputs, which the expectation does
//! not fix, are then what the proof establishes. [`verify_claimed`] checks
//! a proof against nothing but itself, for tools that only describe proofs.
//!
//! ```no_run
//! use starling::{verify, Expected, StatementCircuit, StatementKind};
//!
//! let sha256 = StatementCircuit::builtin(StatementKind::Sha256).unwrap();
//! // The inputs the proof must be about, in the text `starling prove` reads.
//! let inputs = std::fs::read_to_string("inputs.txt").unwrap();
//! let expected = Expected::from_inputs_text(sha256, &inputs)
//!     .unwrap()
//!     .with_min_security_bits(100.0);
//! let proof = std::fs::read("batch.proof").unwrap();
//! match verify(&expected, &proof) {
//!     Ok(verified) => {
//!         for line in verified.output_lines() {
//!             println!("{line}");
//!         }
//!     }
//!     Err(e) => eprintln!("{e}"),
//! }
//! ```

use std::sync::Arc;

use crate::circuits::StatementCircuit;
use crate::error::{Mismatch, Rejection};
use crate::inputs::{format_output_row, input_fields, parse_inputs};
use crate::proof_file::{security_report, ProofFile};
use crate::protocol::check;
use crate::statement::{Statement, StatementKind};
use crate::{format, Error, Profile};

/// The security a verifier requires unless told otherwise, in bits.
pub const DEFAULT_MIN_SECURITY_BITS: f64 = 100.0;

/// The statement a verifier expects a proof to prove: the kind (and for a
/// `circuit` statement, the circuit), N, and every input; and the least
/// security it accepts.
#[derive(Clone, Debug)]
pub struct Expected {
    circuit: Arc<StatementCircuit>,
    count: usize,
    inputs: Vec<u64>,
    min_security_bits: f64,
}

impl Expected {
    /// `count` instances of `circuit` with these input rows (see
    /// [`Statement`]), requiring [`DEFAULT_MIN_SECURITY_BITS`].
    pub fn new(circuit: Arc<StatementCircuit>, count: usize, inputs: Vec<u64>) -> Result<Self, Error> {
        let outputs = vec![0; count * circuit.output_words()];
        Statement::from_rows(circuit.clone(), count, inputs.clone(), outputs).ok_or_else(|| {
            Error::Input(format!(
                "the expected inputs are not {count} rows of {} bits",
                circuit.input_bits()
            ))
        })?;
        Ok(Expected {
            circuit,
            count,
            inputs,
            min_security_bits: DEFAULT_MIN_SECURITY_BITS,
        })
    }

    /// The instances of an inputs text, as `starling prove` reads it (see
    /// [`crate::inputs`]).
    pub fn from_inputs_text(circuit: Arc<StatementCircuit>, text: &str) -> Result<Self, Error> {
        let (count, rows) = parse_inputs(&circuit, text)?;
        Self::new(circuit, count, rows)
    }

    /// Requires at least `bits` of provable security.
    pub fn with_min_security_bits(mut self, bits: f64) -> Self {
        self.min_security_bits = bits;
        self
    }

    /// The expected circuit.
    pub fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    /// The expected N.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no instance is expected (never a valid expectation).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The first difference between `statement` and this expectation.
    fn first_difference(&self, statement: &Statement) -> Option<Mismatch> {
        let (want, got) = (&self.circuit, statement.circuit());
        if want.kind() != got.kind() {
            return Some(Mismatch::Kind {
                expected: want.kind(),
                found: got.kind(),
            });
        }
        if want.digest() != got.digest() {
            return Some(Mismatch::Circuit {
                expected: want.digest(),
                found: got.digest(),
            });
        }
        if self.count != statement.len() {
            return Some(Mismatch::Count {
                expected: self.count,
                found: statement.len(),
            });
        }
        let words = want.input_words();
        let rows = self
            .inputs
            .chunks_exact(words)
            .zip(statement.input_rows().chunks_exact(words));
        rows.enumerate().find_map(|(instance, (a, b))| {
            let differs = |bit: usize| (a[bit / 64] ^ b[bit / 64]) >> (bit % 64) & 1 == 1;
            let field = input_fields(want)
                .into_iter()
                .find(|f| f.bits.clone().any(differs))?;
            Some(Mismatch::Input {
                instance,
                field: field.name,
            })
        })
    }
}

/// What a successful verification established: the statement (kind,
/// circuit, N, inputs and outputs) at the security of the proof's profile.
#[derive(Clone, Debug)]
pub struct Verified {
    statement: Statement,
    profile: Profile,
    security_bits: f64,
}

impl Verified {
    /// The statement kind.
    pub fn kind(&self) -> StatementKind {
        self.statement.kind()
    }

    /// N.
    pub fn len(&self) -> usize {
        self.statement.len()
    }

    /// Never true for a verified proof (N >= 1).
    pub fn is_empty(&self) -> bool {
        self.statement.is_empty()
    }

    /// The profile of the proof.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Provable security of the proof system at this size and profile.
    pub fn security_bits(&self) -> f64 {
        self.security_bits
    }

    /// The proved statement.
    pub fn statement(&self) -> &Statement {
        &self.statement
    }

    /// The circuit's digest ([`StatementCircuit::digest`]).
    pub fn circuit_digest(&self) -> [u8; 32] {
        self.statement.circuit().digest()
    }

    /// SHA-256 of every public value, inputs and outputs, in file order:
    /// the digest the proof binds.
    pub fn public_digest(&self) -> [u8; 32] {
        format::statement_digest(&self.statement)
    }

    /// The outputs, one line each in input order, in the kind's text format
    /// (see [`crate::inputs`]).
    pub fn output_lines(&self) -> Vec<String> {
        (0..self.statement.len())
            .map(|i| format_output_row(self.statement.circuit(), self.statement.output_row(i)))
            .collect()
    }
}

/// Verifies that `proof`, the bytes of a proof file, proves exactly the
/// `expected` statement at the security it requires.
///
/// Errors: [`Error::Malformed`] when the bytes are not a proof file;
/// [`Error::Rejected`] with [`Rejection::Mismatch`] naming the first
/// difference (kind, circuit, N, then the first instance and field whose
/// inputs differ), [`Rejection::TooWeak`], or [`Rejection::Invalid`] when a
/// check of the proof system fails. Decoding and verifying a file of `B`
/// bytes takes memory and time proportional to `B` (see [`crate::format`]).
pub fn verify(expected: &Expected, proof: &[u8]) -> Result<Verified, Error> {
    let (file, _) = ProofFile::decode(proof, Some(&expected.circuit))?;
    if let Some(m) = expected.first_difference(&file.statement) {
        return Err(Error::mismatch(m));
    }
    verify_file(&file, expected.min_security_bits)
}

/// Verifies that `file` proves the statement *it carries*, whatever that is,
/// at `min_security_bits` or more. Anyone can make such a proof for a
/// statement of their choosing; a verifier that knows what should have been
/// proven uses [`verify`].
pub fn verify_claimed(file: &ProofFile, min_security_bits: f64) -> Result<Verified, Error> {
    verify_file(file, min_security_bits)
}

fn verify_file(file: &ProofFile, min_security_bits: f64) -> Result<Verified, Error> {
    let bits = security_report(file)?.bits();
    if bits < min_security_bits {
        return Err(Error::Rejected(Rejection::TooWeak {
            bits,
            profile: file.profile.name(),
            required: min_security_bits,
        }));
    }
    check(file)?;
    Ok(Verified {
        statement: file.statement.clone(),
        profile: file.profile,
        security_bits: bits,
    })
}
