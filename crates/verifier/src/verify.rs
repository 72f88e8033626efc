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
//! use starling_verifier::{kind, verify, Expected};
//!
//! let sha256 = kind::sha256();
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

use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;

use alloc::sync::Arc;

use crate::bundle::{header_kind, is_bundle, verify_bundle};
use crate::error::{Mismatch, Rejection};
use crate::host::{Host, Portable};
use crate::inputs::parse_inputs;
use crate::kind::Kind;
use crate::proof_file::{security_report, ProofFile};
use crate::protocol::check;
use crate::records::Records;
use crate::statement::Statement;
use crate::{Error, Profile, SecurityReport};

/// The security a verifier requires unless told otherwise, in bits.
pub const DEFAULT_MIN_SECURITY_BITS: f64 = 100.0;

/// The statement a verifier expects a proof to prove: the kind (and for a
/// `circuit` statement, the circuit), and every input record; and the least
/// security it accepts.
#[derive(Clone, Debug)]
pub struct Expected {
    kind: Arc<dyn Kind>,
    inputs: Records,
    min_security_bits: f64,
}

impl Expected {
    /// A statement of `kind` on these input records, requiring
    /// [`DEFAULT_MIN_SECURITY_BITS`].
    pub fn new(kind: Arc<dyn Kind>, inputs: Records) -> Result<Self, Error> {
        kind.shape(&inputs).map_err(Error::Input)?;
        Ok(Expected {
            kind,
            inputs,
            min_security_bits: DEFAULT_MIN_SECURITY_BITS,
        })
    }

    /// The records of an inputs text, as `starling prove` reads it.
    pub fn from_inputs_text(kind: Arc<dyn Kind>, text: &str) -> Result<Self, Error> {
        let inputs = parse_inputs(kind.as_ref(), text)?;
        Self::new(kind, inputs)
    }

    /// Requires at least `bits` of provable security.
    pub fn with_min_security_bits(mut self, bits: f64) -> Self {
        self.min_security_bits = bits;
        self
    }

    /// The expected kind.
    pub fn kind(&self) -> &Arc<dyn Kind> {
        &self.kind
    }

    /// The expected input records.
    pub fn inputs(&self) -> &Records {
        &self.inputs
    }

    /// The first difference between `statement` and this expectation.
    pub(crate) fn first_difference(&self, statement: &Statement) -> Option<Mismatch> {
        let (want, got) = (&self.kind, statement.kind());
        if let Some(m) = kind_difference(want.as_ref(), got.as_ref()) {
            return Some(m);
        }
        let (want_digest, got_digest) = (want.circuit().digest(), got.circuit().digest());
        if want_digest != got_digest {
            return Some(Mismatch::Circuit {
                expected: want_digest,
                found: got_digest,
            });
        }
        if self.inputs.len() != statement.inputs().len() {
            return Some(Mismatch::Count {
                expected: self.inputs.len(),
                found: statement.inputs().len(),
                noun: want.noun(),
            });
        }
        if self.inputs == *statement.inputs() {
            return None;
        }
        self.inputs
            .iter()
            .zip(statement.inputs().iter())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(index, (a, b))| {
                let field = want
                    .input_fields(a)
                    .into_iter()
                    .find(|(_, bytes)| a.get(bytes.clone()) != b.get(bytes.clone()))
                    .map_or_else(|| "length".to_string(), |(name, _)| name);
                Mismatch::Input { index, field }
            })
    }
}

/// What a successful verification established: the statement (kind,
/// circuit, inputs and outputs) at the security of the proof's profile.
#[derive(Clone, Debug)]
pub struct Verified {
    statement: Statement,
    profile: Profile,
    zk: bool,
    security: SecurityReport,
    shards: usize,
}

impl Verified {
    /// What verifying a proof (one shard) or a bundle of `shards`
    /// established.
    pub(crate) fn new(
        statement: Statement,
        profile: Profile,
        zk: bool,
        security: SecurityReport,
        shards: usize,
    ) -> Self {
        Verified {
            statement,
            profile,
            zk,
            security,
            shards,
        }
    }

    /// How many proofs established it: 1 for a proof file, K for a bundle
    /// of K shards (`crate::bundle`).
    pub fn shards(&self) -> usize {
        self.shards
    }

    /// The statement kind.
    pub fn kind(&self) -> &Arc<dyn Kind> {
        self.statement.kind()
    }

    /// N, in the kind's unit.
    pub fn count(&self) -> u64 {
        self.statement.count()
    }

    /// The profile of the proof.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Whether the proof is zero-knowledge: it shows nothing of the
    /// private values beyond the statement (`docs/zk.md`).
    pub fn zk(&self) -> bool {
        self.zk
    }

    /// Provable security of the proof system at this size and profile.
    pub fn security_bits(&self) -> f64 {
        self.security.bits()
    }

    /// Every error term behind [`Verified::security_bits`].
    pub fn security_report(&self) -> &SecurityReport {
        &self.security
    }

    /// The proved statement.
    pub fn statement(&self) -> &Statement {
        &self.statement
    }

    /// The digest of the kind's instance circuit.
    pub fn circuit_digest(&self) -> [u8; 32] {
        self.statement.kind().circuit().digest()
    }

    /// BLAKE3 of every public value, inputs and outputs, in file order:
    /// the digest the proof binds.
    pub fn public_digest(&self) -> [u8; 32] {
        self.statement.public_digest()
    }

    /// The outputs, one line each in order, in the kind's text format.
    pub fn output_lines(&self) -> Vec<String> {
        self.statement.output_lines()
    }
}

/// The difference between an expected kind and a proof's, if any: its
/// name and parameters (`sha256`, `chain --hash sha256`).
pub(crate) fn kind_difference(want: &dyn Kind, got: &dyn Kind) -> Option<Mismatch> {
    let described = |k: &dyn Kind| format!("{} {}s", k.name(), k.noun());
    (want.code() != got.code() || want.name() != got.name()).then(|| Mismatch::Kind {
        expected: described(want),
        found: described(got),
    })
}

/// Checks, from its header alone, that `proof` is about `kind` (name and
/// parameters): what a verifier can tell before it reads the expected
/// inputs as that kind's, so that a proof of another kind is rejected as
/// such ([`Rejection::Mismatch`]) rather than its inputs file refused as
/// malformed. [`verify`] checks this again, with everything else.
pub fn check_kind(kind: &dyn Kind, proof: &[u8]) -> Result<(), Error> {
    let found = if is_bundle(proof) {
        header_kind(proof)?
    } else {
        let mut r = crate::codec::Reader::new(proof);
        let header = crate::format::read_header(&mut r)?;
        crate::format::read_kind(&mut r, header.code, None)?
    };
    match kind_difference(kind, found.as_ref()) {
        Some(m) => Err(Error::mismatch(m)),
        None => Ok(()),
    }
}

/// Verifies that `proof`, the bytes of a proof file, proves exactly the
/// `expected` statement at the security it requires.
///
/// Errors: [`Error::Malformed`] when the bytes are not a proof file;
/// [`Error::Rejected`] with [`Rejection::Mismatch`] naming the first
/// difference (kind, circuit, N, then the first instance and field whose
/// inputs differ), [`Rejection::NotZeroKnowledge`], [`Rejection::TooWeak`],
/// or [`Rejection::Invalid`] when a check of the proof system fails.
/// Decoding and verifying a file of `B` bytes takes memory and time
/// proportional to `B` (see [`crate::format`]). Every pass runs by this crate's definitions ([`Portable`]);
/// [`verify_with`] lets a host run the long ones its own way.
pub fn verify(expected: &Expected, proof: &[u8]) -> Result<Verified, Error> {
    verify_with(expected, proof, &Portable)
}

/// [`verify`], with the long passes run by `host`.
pub fn verify_with(expected: &Expected, proof: &[u8], host: &dyn Host) -> Result<Verified, Error> {
    if is_bundle(proof) {
        return verify_bundle(Some(expected), proof, expected.min_security_bits, host);
    }
    let (file, _) = ProofFile::decode(proof, Some(expected.kind.circuit()))?;
    if let Some(m) = expected.first_difference(&file.statement) {
        return Err(Error::mismatch(m));
    }
    let security = check_file(&file, expected.min_security_bits, host)?;
    Ok(Verified::new(file.statement, file.profile, file.zk, security, 1))
}

/// Verifies that `bytes`, a proof file or a bundle ([`crate::bundle`]),
/// prove the statement they carry, whatever that is, at
/// `min_security_bits` or more: [`verify_claimed_with`] for a proof file.
pub fn verify_claimed_bytes_with(
    bytes: &[u8],
    min_security_bits: f64,
    host: &dyn Host,
) -> Result<Verified, Error> {
    if is_bundle(bytes) {
        return verify_bundle(None, bytes, min_security_bits, host);
    }
    verify_claimed_with(&ProofFile::from_bytes(bytes)?, min_security_bits, host)
}

/// Verifies that `file` proves the statement *it carries*, whatever that is,
/// at `min_security_bits` or more. Anyone can make such a proof for a
/// statement of their choosing; a verifier that knows what should have been
/// proven uses [`verify`].
pub fn verify_claimed(file: &ProofFile, min_security_bits: f64) -> Result<Verified, Error> {
    verify_claimed_with(file, min_security_bits, &Portable)
}

/// [`verify_claimed`], with the long passes run by `host`.
pub fn verify_claimed_with(
    file: &ProofFile,
    min_security_bits: f64,
    host: &dyn Host,
) -> Result<Verified, Error> {
    let security = check_file(file, min_security_bits, host)?;
    Ok(Verified::new(
        file.statement.clone(),
        file.profile,
        file.zk,
        security,
        1,
    ))
}

/// Refuses a proof of `kind` without zero knowledge when the kind's
/// private records are secrets ([`Kind::requires_zero_knowledge`]),
/// whatever the proof shows: decoding a file checks it from the header,
/// verifying a [`ProofFile`] again.
pub(crate) fn check_hides_secrets(kind: &dyn Kind, zk: bool) -> Result<(), Error> {
    if kind.requires_zero_knowledge() && !zk {
        return Err(Error::Rejected(Rejection::NotZeroKnowledge { kind: kind.name() }));
    }
    Ok(())
}

/// Every check of `file` at `min_security_bits` or more: the security its
/// parameters reach on success.
fn check_file(file: &ProofFile, min_security_bits: f64, host: &dyn Host) -> Result<SecurityReport, Error> {
    check_hides_secrets(file.statement.kind().as_ref(), file.zk)?;
    let report = security_report(file)?;
    check_floor(&report, file.profile, min_security_bits)?;
    check(file, host)?;
    Ok(report)
}

/// Refuses a proof (or bundle) of `profile` whose security `report` is
/// below `min_security_bits`.
pub(crate) fn check_floor(
    report: &SecurityReport,
    profile: Profile,
    min_security_bits: f64,
) -> Result<(), Error> {
    let bits = report.bits();
    // A floor that is not a number (NaN) refuses every proof rather than
    // none: `bits < NaN` is false.
    if min_security_bits.is_nan() || bits < min_security_bits {
        return Err(Error::Rejected(Rejection::TooWeak {
            bits,
            profile: profile.name(),
            required: min_security_bits,
        }));
    }
    Ok(())
}
