//! Bundles: one statement proved as several shard proofs, and the links
//! that join them.
//!
//! A statement too large for one machine is cut into shards, each an
//! ordinary proof of a statement of the same kind (the cutting is the
//! prover's, `starling.dask` in the Python package). A bundle holds the
//! shard proofs in order and lists each shard's place; the verifier checks
//! every shard proof, that the shards are the ones listed, in that order,
//! and that they join into one statement ([`Kind::join`]: slices of
//! independent records, a chain's segments, a tree's subtrees). It then
//! accepts exactly that statement, as a proof of it would be accepted: the
//! same `--expect` inputs, outputs and public digest.
//!
//! ```text
//! magic    8 bytes  "STARBNDL"
//! version  u16 LE   1 ([`BUNDLE_VERSION`])
//! kind     u8       as in a proof file (crate::format)
//! profile  u8       as in a proof file, zero-knowledge bit included
//! params            u32 LE length, the kind's parameters
//! count    u64 LE   N of the joined statement, in the kind's unit
//! shards   u32 LE   K, 1 to MAX_SHARDS
//! entries           K times: first u64 LE (the shard's first unit of the
//!                   N: record, step, leaf, member), count u64 LE (its
//!                   N), its statement's public digest (32 bytes)
//! proofs            K times: u64 LE length, a whole proof file
//! ```
//!
//! The entries make a wrong bundle fail with a reason a person can act on
//! (a shard missing, repeated, out of order, from another bundle), before
//! any proof is checked. They add nothing to soundness: whatever a bundle
//! lists, what it proves is the join of the shards it holds, which is what
//! `verify` compares with the expected statement and prints.
//!
//! The security of a bundle is its weakest shard's, not less. A bundle
//! that verifies while its statement is false holds a shard whose own
//! statement is false (the links are exact checks), and that shard's proof
//! verifies: a forgery of that one proof. Against an interactive verifier,
//! fix that shard: its challenges are independent of the others', so it
//! passes with at most its own error. Against Fiat–Shamir, every query to
//! the hash is a query for one shard's transcript, so a prover's queries
//! over all shards buy what as many queries for one proof would. The
//! shards' other proofs, true or not, give a cheater nothing; their error
//! terms are not added (`K` shards of `b` bits are `b` bits, not
//! `b - log2 K`).

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::circuit::wording::counted;
use crate::circuits::StatementCircuit;
use crate::codec::{put_section, Reader};
use crate::error::{Check, Rejection};
use crate::format::{self, MAX_FILE_BYTES};
use crate::host::Host;
use crate::kind::Kind;
use crate::proof_file::{security_report, ProofFile};
use crate::protocol::check;
use crate::statement::Statement;
use crate::verify::{check_floor, check_hides_secrets, kind_difference, Expected, Verified};
use crate::{Error, Profile, SecurityReport};

/// Bundle magic.
pub const BUNDLE_MAGIC: &[u8; 8] = b"STARBNDL";
/// Bundle format version written and accepted.
pub const BUNDLE_VERSION: u16 = 1;
/// Most shards one bundle holds.
pub const MAX_SHARDS: usize = 1 << 16;
/// Largest bundle read (16 GiB: the public values of 2^24 Keccak-f
/// states, the most one statement holds, and thousands of shard proofs).
pub const MAX_BUNDLE_BYTES: u64 = 16 << 30;
/// Bytes of one entry.
const ENTRY_BYTES: usize = 8 + 8 + 32;

/// Whether `bytes` are a bundle (by its magic) rather than a proof file.
pub fn is_bundle(bytes: &[u8]) -> bool {
    bytes.starts_with(BUNDLE_MAGIC)
}

/// Reads a bundle's header: magic, version, kind (with its parameters),
/// profile and zero knowledge.
fn read_header(
    r: &mut Reader<'_>,
    known: Option<&Arc<StatementCircuit>>,
) -> Result<(Arc<dyn Kind>, Profile, bool), Error> {
    if r.take(8, "the magic")? != BUNDLE_MAGIC {
        return Err(Error::Malformed("not a Starling bundle (bad magic)".into()));
    }
    let version = r.u16("the version")?;
    if version != BUNDLE_VERSION {
        return Err(Error::Malformed(format!(
            "bundle format version {version} is not supported (this build reads {BUNDLE_VERSION})"
        )));
    }
    let code = r.u8("the statement kind")?;
    let profile_byte = r.u8("the profile")?;
    let zk = profile_byte & format::ZK_PROFILE_BIT != 0;
    let profile = Profile::from_id(profile_byte & !format::ZK_PROFILE_BIT)
        .ok_or_else(|| Error::Malformed(format!("unknown security profile {profile_byte}")))?;
    let kind = format::read_kind(r, code, known)?;
    Ok((kind, profile, zk))
}

/// The kind a bundle's header names, read from its header alone.
pub(crate) fn header_kind(bytes: &[u8]) -> Result<Arc<dyn Kind>, Error> {
    read_header(&mut Reader::new(bytes), None).map(|(kind, _, _)| kind)
}

/// Where a shard sits in the joined statement, and its digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The shard's first unit of N.
    pub first: u64,
    /// The shard's N.
    pub count: u64,
    /// BLAKE3 of the shard's public values ([`Statement::public_digest`]).
    pub public_digest: [u8; 32],
}

/// A decoded bundle: the header, the entries and each shard's decoded
/// proof file.
pub struct Bundle {
    /// The kind every shard proves.
    pub kind: Arc<dyn Kind>,
    /// The profile of every shard.
    pub profile: Profile,
    /// Whether every shard is zero-knowledge.
    pub zk: bool,
    /// N of the joined statement.
    pub count: u64,
    /// Where each shard sits.
    pub entries: Vec<Entry>,
    /// The shards' proof files, in order.
    pub shards: Vec<ProofFile>,
    /// The bytes of each shard's proof file.
    pub shard_bytes: Vec<usize>,
}

impl Bundle {
    /// Decodes a bundle and every shard's proof file. `known` is a circuit
    /// the caller has compiled already (the one a verifier expects). Like a
    /// proof file's, decoding never panics and allocates no more than the
    /// bytes present justify.
    pub fn decode(bytes: &[u8], known: Option<&Arc<StatementCircuit>>) -> Result<Bundle, Error> {
        let mut r = Reader::new(bytes);
        let (kind, profile, zk) = read_header(&mut r, known)?;
        check_hides_secrets(kind.as_ref(), zk)?;
        let count = r.u64("the count")?;
        let k = r.u32("the number of shards")? as usize;
        if k == 0 || k > MAX_SHARDS {
            return Err(Error::Malformed(format!(
                "a bundle holds 1 to {MAX_SHARDS} shards, not {k}"
            )));
        }
        if k * ENTRY_BYTES > r.remaining() {
            return Err(Error::Malformed("the file ends inside the shard entries".into()));
        }
        let mut entries = Vec::with_capacity(k);
        for _ in 0..k {
            entries.push(Entry {
                first: r.u64("a shard entry")?,
                count: r.u64("a shard entry")?,
                public_digest: r.digest("a shard entry")?,
            });
        }
        let mut shards = Vec::with_capacity(k);
        let mut shard_bytes = Vec::with_capacity(k);
        for i in 0..k {
            let len = r.u64("a shard's length")?;
            if len > MAX_FILE_BYTES || len > r.remaining() as u64 {
                return Err(Error::Malformed(format!(
                    "shard {} of {k}: the file ends inside its proof",
                    i + 1
                )));
            }
            let proof = r.take(len as usize, "a shard's proof")?;
            let (file, _) = ProofFile::decode(proof, Some(kind.circuit())).map_err(|e| match e {
                Error::Malformed(m) => Error::Malformed(format!("shard {} of {k}: {m}", i + 1)),
                Error::Rejected(rejection) => shard_rejected(i, k, rejection),
                other => other,
            })?;
            shards.push(file);
            shard_bytes.push(proof.len());
        }
        r.finish()?;
        Ok(Bundle {
            kind,
            profile,
            zk,
            count,
            entries,
            shards,
            shard_bytes,
        })
    }

    /// The one statement the shards prove together, once they are checked
    /// to be the bundle's own, in its order, and to join; each shard's
    /// proof is not checked here.
    pub fn joined(&self) -> Result<Statement, Error> {
        let k = self.shards.len();
        for (i, file) in self.shards.iter().enumerate() {
            let shard_kind = file.statement.kind();
            if let Some(m) = kind_difference(self.kind.as_ref(), shard_kind.as_ref()) {
                return Err(shard_rejected(i, k, Rejection::Mismatch(m)));
            }
            if shard_kind.params() != self.kind.params()
                || shard_kind.circuit().digest() != self.kind.circuit().digest()
            {
                return Err(links(format!(
                    "shard {} of {k} proves {} with other parameters than the bundle's",
                    i + 1,
                    shard_kind.name()
                )));
            }
            if file.profile != self.profile || file.zk != self.zk {
                return Err(links(format!(
                    "shard {} of {k} is a {} proof, the bundle's are {}",
                    i + 1,
                    describe(file.profile, file.zk),
                    describe(self.profile, self.zk)
                )));
            }
        }
        self.check_entries()?;
        let statements: Vec<&Statement> = self.shards.iter().map(|f| &f.statement).collect();
        let (inputs, outputs) = self.kind.join(&statements).map_err(links)?;
        let joined = Statement::new(self.kind.clone(), inputs, outputs)
            .map_err(|e| links(format!("the shards do not make one statement: {e}")))?;
        if joined.count() != self.count {
            return Err(links(format!(
                "the shards join into N = {}, the bundle says {}",
                joined.count(),
                self.count
            )));
        }
        Ok(joined)
    }

    /// Each shard is the one the bundle lists at its place: a shard listed
    /// elsewhere is out of order or repeated, one listed nowhere is from
    /// another bundle, and the places cover N without a gap.
    fn check_entries(&self) -> Result<(), Error> {
        let k = self.shards.len();
        let digests: Vec<[u8; 32]> = self.shards.iter().map(|f| f.statement.public_digest()).collect();
        for (i, (entry, digest)) in self.entries.iter().zip(&digests).enumerate() {
            if entry.public_digest == *digest {
                continue;
            }
            if let Some(j) = digests[..i].iter().position(|d| d == digest) {
                return Err(links(format!(
                    "shard {} of {k} repeats shard {}: the bundle holds one shard twice",
                    i + 1,
                    j + 1
                )));
            }
            return Err(links(
                match self.entries.iter().position(|e| e.public_digest == *digest) {
                    Some(j) => format!(
                        "shard {} of {k} is the bundle's shard {}: the shards are out of order",
                        i + 1,
                        j + 1
                    ),
                    None => format!(
                        "shard {} of {k} is not one this bundle lists (its public digest is another): a shard from another bundle",
                        i + 1
                    ),
                },
            ));
        }
        let mut next = 0u64;
        for (i, (entry, file)) in self.entries.iter().zip(&self.shards).enumerate() {
            if entry.count != file.statement.count() {
                return Err(links(format!(
                    "shard {} of {k} proves N = {}, the bundle lists {}",
                    i + 1,
                    file.statement.count(),
                    entry.count
                )));
            }
            if entry.first != next {
                return Err(links(format!(
                    "shard {} of {k} is listed from {} of N, where shard {} ends at {next}: a shard is missing or out of order",
                    i + 1,
                    entry.first,
                    i
                )));
            }
            next = next.saturating_add(entry.count);
        }
        if next != self.count {
            return Err(links(format!(
                "the shards cover {next} of the bundle's N = {}: a shard is missing",
                self.count
            )));
        }
        Ok(())
    }

    /// The security of the bundle: the weakest shard's error terms, named
    /// by that shard (see the module documentation for why not their sum).
    pub fn security_report(&self) -> Result<SecurityReport, Error> {
        let mut weakest: Option<(usize, SecurityReport)> = None;
        for (i, file) in self.shards.iter().enumerate() {
            let report = security_report(file)?;
            if weakest.as_ref().is_none_or(|(_, w)| report.bits() < w.bits()) {
                weakest = Some((i, report));
            }
        }
        let (i, shard) = weakest.expect("a bundle holds a shard");
        let mut report = SecurityReport::new();
        for term in shard.terms() {
            report.add(format!("shard {}: {}", i + 1, term.name), term.log2_error);
        }
        Ok(report)
    }
}

/// What `inspect` says of a bundle: its statement (the shards' join, or
/// why they do not join), profile, security, and each shard's place, N,
/// size and public digest. Nothing is verified, and the first line says so.
pub fn inspect(bytes: &[u8]) -> Result<String, Error> {
    let bundle = Bundle::decode(bytes, None)?;
    let kind = &bundle.kind;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "NOT VERIFIED: this describes the file as it claims to be; `starling verify` checks it"
    );
    let _ = writeln!(out, "bundle         {} shards", bundle.shards.len());
    let _ = writeln!(out, "statement      {}", kind.name());
    let _ = writeln!(out, "N              {}", counted(bundle.count, kind.noun()));
    let _ = writeln!(out, "circuit digest {}", hex::encode(kind.circuit().digest()));
    match bundle.joined() {
        Ok(joined) => {
            let _ = writeln!(out, "public digest  {}", hex::encode(joined.public_digest()));
        }
        Err(e) => {
            let _ = writeln!(out, "public digest  none: {e}");
        }
    }
    let _ = writeln!(out, "profile        {}", bundle.profile.name());
    let _ = writeln!(out, "zero knowledge {}", if bundle.zk { "yes" } else { "no" });
    if let Ok(report) = bundle.security_report() {
        let _ = writeln!(
            out,
            "security       {:.1} bits (every shard's error terms summed; `inspect` of a shard lists them)",
            report.bits()
        );
    }
    let _ = writeln!(out, "total size     {} bytes", bytes.len());
    for (i, ((entry, file), size)) in bundle
        .entries
        .iter()
        .zip(&bundle.shards)
        .zip(&bundle.shard_bytes)
        .enumerate()
    {
        let _ = writeln!(
            out,
            "  shard {:<5} N {}..{} ({} instances), {size} bytes, public digest {}",
            i + 1,
            entry.first,
            entry.first.saturating_add(entry.count),
            file.statement.instances(),
            hex::encode(entry.public_digest)
        );
    }
    Ok(out)
}

/// The bundle of these shard proofs, in order: the entries computed from
/// them. Errors when they are not proofs of one kind, profile and zero
/// knowledge, or do not join into one statement; the proofs themselves are
/// not checked (a prover checks each shard as it comes back).
pub fn assemble(proofs: &[&[u8]]) -> Result<Vec<u8>, Error> {
    if proofs.is_empty() || proofs.len() > MAX_SHARDS {
        return Err(Error::Input(format!(
            "a bundle holds 1 to {MAX_SHARDS} shards, not {}",
            proofs.len()
        )));
    }
    let shards = proofs
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            ProofFile::decode(bytes, None)
                .map(|(file, _)| file)
                .map_err(|e| Error::Input(format!("shard {} of {}: {e}", i + 1, proofs.len())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let first = &shards[0];
    let mut next = 0u64;
    let entries = shards
        .iter()
        .map(|f| {
            let entry = Entry {
                first: next,
                count: f.statement.count(),
                public_digest: f.statement.public_digest(),
            };
            next += entry.count;
            entry
        })
        .collect();
    let bundle = Bundle {
        kind: first.statement.kind().clone(),
        profile: first.profile,
        zk: first.zk,
        count: next,
        entries,
        shard_bytes: proofs.iter().map(|p| p.len()).collect(),
        shards,
    };
    bundle
        .joined()
        .map_err(|e| Error::Input(format!("the shards do not make a bundle: {e}")))?;
    let mut out = Vec::new();
    out.extend_from_slice(BUNDLE_MAGIC);
    out.extend_from_slice(&BUNDLE_VERSION.to_le_bytes());
    out.push(bundle.kind.code());
    out.push(bundle.profile.id() | if bundle.zk { format::ZK_PROFILE_BIT } else { 0 });
    put_section(&mut out, &bundle.kind.params());
    out.extend_from_slice(&bundle.count.to_le_bytes());
    out.extend_from_slice(&(proofs.len() as u32).to_le_bytes());
    for e in &bundle.entries {
        out.extend_from_slice(&e.first.to_le_bytes());
        out.extend_from_slice(&e.count.to_le_bytes());
        out.extend_from_slice(&e.public_digest);
    }
    for proof in proofs {
        out.extend_from_slice(&(proof.len() as u64).to_le_bytes());
        out.extend_from_slice(proof);
    }
    Ok(out)
}

/// Verifies a bundle: against `expected` when given (its kind compared
/// before anything else, its inputs with the joined statement's), at
/// `min_security_bits` or more for the bundle as a whole. The cheap checks
/// (entries, links, the expectation, security) run before any shard's
/// proof; then each shard's proof is checked as a proof file's is, at once
/// where the host runs them so ([`Host::each_shard`]).
pub(crate) fn verify_bundle(
    expected: Option<&Expected>,
    bytes: &[u8],
    min_security_bits: f64,
    host: &dyn Host,
) -> Result<Verified, Error> {
    let bundle = Bundle::decode(bytes, expected.map(|e| e.kind().circuit()))?;
    if let Some(m) = expected.and_then(|e| kind_difference(e.kind().as_ref(), bundle.kind.as_ref())) {
        return Err(Error::mismatch(m));
    }
    let joined = bundle.joined()?;
    if let Some(m) = expected.and_then(|e| e.first_difference(&joined)) {
        return Err(Error::mismatch(m));
    }
    let security = bundle.security_report()?;
    check_floor(&security, bundle.profile, min_security_bits)?;
    let k = bundle.shards.len();
    host.each_shard(k, &|i| {
        check(&bundle.shards[i], host).map_err(|e| match e {
            Error::Rejected(rejection) => shard_rejected(i, k, rejection),
            other => other,
        })
    })?;
    Ok(Verified::new(joined, bundle.profile, bundle.zk, security, k))
}

/// A bundle whose shards do not link.
fn links(detail: String) -> Error {
    Error::invalid(Check::Links, &detail)
}

/// Shard `i` (from 0) of `k` rejected.
fn shard_rejected(i: usize, k: usize, rejection: Rejection) -> Error {
    Error::Rejected(Rejection::Shard {
        shard: i + 1,
        shards: k,
        rejection: alloc::boxed::Box::new(rejection),
    })
}

/// `default`, `secure zero-knowledge`.
fn describe(profile: Profile, zk: bool) -> String {
    format!("{}{}", profile.name(), if zk { " zero-knowledge" } else { "" })
}
