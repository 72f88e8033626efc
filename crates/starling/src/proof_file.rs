//! The proof file as a value: statement plus proof, its encoding, and what a
//! successful verification or an inspection reports.

use std::fmt::Write as _;

use starling_pcs::{bits, SecurityReport};
use starling_piop::{lincheck, zerocheck};

use crate::format::{self, ByteReader, ByteWriter, StatementKind};
use crate::protocol::{batch_params, security, Proof, OPENED_CLAIMS};
use crate::statement::Sha256Statement;
use crate::{Error, Profile};

/// A statement and its proof, as stored in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFile {
    /// Security profile the proof was made for.
    pub profile: Profile,
    /// The public values.
    pub statement: Sha256Statement,
    /// The proof.
    pub proof: Proof,
}

/// Size in bytes of each part of a file, in file order.
type SectionSizes = Vec<(&'static str, usize)>;

/// Names of the proof sections, in file order.
const SECTIONS: [&str; 5] = ["commitment", "grinding", "zerocheck", "lincheck", "opening"];

impl ProofFile {
    /// Encodes the file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = ByteWriter::new();
        format::write_header(
            &mut w,
            StatementKind::Sha256Compression,
            self.profile.id(),
            self.statement.len() as u64,
        );
        format::write_sha256_statement(&mut w, &self.statement);
        w.section(&self.proof.commitment.root);
        w.section(&self.proof.public_nonce.to_le_bytes());
        w.section(&self.proof.zerocheck.to_bytes());
        w.section(&self.proof.lincheck.to_bytes());
        w.section(&self.proof.opening.to_bytes());
        w.finish()
    }

    /// Bytes of the proof proper: the file without its header and statement
    /// (the public values, which the user has anyway).
    pub fn proof_len(&self) -> usize {
        self.to_bytes().len() - format::HEADER_BYTES - self.statement.len() * format::SHA256_INSTANCE_BYTES
    }

    /// Decodes untrusted bytes; never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::decode(bytes)?.0)
    }

    /// Decodes and also returns the size of each section.
    fn decode(bytes: &[u8]) -> Result<(Self, SectionSizes), Error> {
        let mut r = ByteReader::new(bytes);
        let (_kind, profile_id, count) = format::read_header(&mut r)?;
        let profile = Profile::from_id(profile_id)
            .ok_or_else(|| Error::Malformed(format!("unknown security profile {profile_id}")))?;
        let statement = format::read_sha256_statement(&mut r, count)?;
        let params = batch_params(statement.len(), profile)?;
        let bad = |what: &str, e: &dyn std::fmt::Display| Error::Malformed(format!("{what}: {e}"));
        let mut sizes = vec![
            ("header", format::HEADER_BYTES),
            ("statement", statement.len() * format::SHA256_INSTANCE_BYTES),
        ];
        let root_bytes = take_section(&mut r, &mut sizes, 0)?;
        let root: [u8; 32] = root_bytes
            .try_into()
            .map_err(|_| Error::Malformed("commitment is not 32 bytes".into()))?;
        let nonce_bytes = take_section(&mut r, &mut sizes, 1)?;
        let public_nonce = u64::from_le_bytes(
            nonce_bytes
                .try_into()
                .map_err(|_| Error::Malformed("the grinding section is not one 8-byte nonce".into()))?,
        );
        let zc = zerocheck::Proof::from_bytes(params.shape, take_section(&mut r, &mut sizes, 2)?)
            .map_err(|e| bad("zerocheck", &e))?;
        let lc = lincheck::Proof::from_bytes(params.shape, take_section(&mut r, &mut sizes, 3)?)
            .map_err(|e| bad("lincheck", &e))?;
        let opening =
            bits::Proof::from_bytes(&params.pcs, OPENED_CLAIMS, take_section(&mut r, &mut sizes, 4)?)
                .map_err(|e| bad("opening", &e))?;
        r.finish()?;
        let proof = Proof {
            commitment: starling_pcs::Commitment { root },
            public_nonce,
            zerocheck: zc,
            lincheck: lc,
            opening,
        };
        Ok((
            ProofFile {
                profile,
                statement,
                proof,
            },
            sizes,
        ))
    }
}

/// Reads proof section `i` and records its size (with its length field).
fn take_section<'a>(r: &mut ByteReader<'a>, sizes: &mut SectionSizes, i: usize) -> Result<&'a [u8], Error> {
    let s = r.section(SECTIONS[i])?;
    sizes.push((SECTIONS[i], s.len() + 4));
    Ok(s)
}

/// What a successful verification established.
pub struct Verified {
    statement: Sha256Statement,
    profile: Profile,
    security_bits: f64,
}

impl Verified {
    pub(crate) fn new(file: &ProofFile, security_bits: f64) -> Self {
        Verified {
            statement: file.statement.clone(),
            profile: file.profile,
            security_bits,
        }
    }

    /// Statement kind name (`sha256`).
    pub fn kind_name(&self) -> &'static str {
        StatementKind::Sha256Compression.name()
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
    pub fn statement(&self) -> &Sha256Statement {
        &self.statement
    }

    /// The outputs, one 64-hex-digit line each, in input order.
    pub fn output_lines(&self) -> Vec<String> {
        self.statement
            .outputs
            .iter()
            .map(|o| o.iter().map(|w| format!("{w:08x}")).collect())
            .collect()
    }
}

/// Every error term of the protocol for this proof's size and profile.
pub fn security_report(file: &ProofFile) -> Result<SecurityReport, Error> {
    Ok(security(&batch_params(file.statement.len(), file.profile)?))
}

/// Total provable security in bits for this proof's size and profile.
pub fn security_bits(file: &ProofFile) -> f64 {
    security_report(file).map(|r| r.bits()).unwrap_or(0.0)
}

/// A human-readable description of a proof file (does not verify it).
pub fn inspect(file: &ProofFile) -> String {
    let bytes = file.to_bytes();
    let sizes = ProofFile::decode(&bytes).map(|(_, s)| s).unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "statement      {} compression batch",
        StatementKind::Sha256Compression.name()
    );
    let _ = writeln!(out, "N              {}", file.statement.len());
    if let Ok(params) = batch_params(file.statement.len(), file.profile) {
        let _ = writeln!(
            out,
            "padded to      2^{} instances of 2^{} wires",
            params.shape.n(),
            params.shape.k()
        );
    }
    let _ = writeln!(out, "profile        {}", file.profile.name());
    match security_report(file) {
        Ok(r) => {
            let _ = writeln!(
                out,
                "security       {:.1} bits (provable); error terms:",
                r.bits()
            );
            for t in r.terms() {
                let _ = writeln!(out, "  {:>7.2} bits  {}", -t.log2_error, t.name);
            }
        }
        Err(e) => {
            let _ = writeln!(out, "security       unknown: {e}");
        }
    }
    let _ = writeln!(out, "total size     {} bytes", bytes.len());
    for (name, size) in sizes {
        let _ = writeln!(out, "  {name:<13}{size} bytes");
    }
    for (name, size) in file.proof.opening.opening.size_breakdown() {
        let _ = writeln!(out, "    opening: {name:<22}{size} bytes");
    }
    out
}
