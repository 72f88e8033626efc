//! The proof file as a value: statement plus proof, its encoding, its
//! security report, and what `inspect` says of it.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use core::fmt::Write as _;

use crate::circuit::wording::counted;
use alloc::sync::Arc;

use crate::codec::{put_section, Reader};
use crate::pcs::{bits, SecurityReport};
use crate::piop::{lincheck, wiring, zerocheck};

use crate::circuits::StatementCircuit;
use crate::format;
use crate::protocol::{batch_params_for, security, Proof, LINCHECK_GROUPS, OPENED_CLAIMS};
use crate::statement::Statement;
use crate::{Error, Profile};

/// A statement and its proof, as stored in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFile {
    /// Security profile the proof was made for.
    pub profile: Profile,
    /// Whether the batch is laid out for zero knowledge
    /// ([`crate::protocol::batch_params_zk`]; the header's profile byte
    /// has its top bit set).
    pub zk: bool,
    /// The public values.
    pub statement: Statement,
    /// The proof.
    pub proof: Proof,
}

/// Size in bytes of each part of a file, in file order.
pub(crate) type SectionSizes = Vec<(&'static str, usize)>;

/// Names of the proof sections, in file order.
pub const PROOF_SECTIONS: [&str; 6] = [
    "commitment",
    "grinding",
    "zerocheck",
    "lincheck",
    "wiring",
    "opening",
];

impl ProofFile {
    /// Encodes the file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        format::write_header(
            &mut out,
            self.statement.kind().as_ref(),
            self.profile.id() | if self.zk { format::ZK_PROFILE_BIT } else { 0 },
        );
        format::write_statement(&mut out, &self.statement);
        put_section(&mut out, &self.proof.commitment.root);
        put_section(&mut out, &self.proof.public_nonce.to_le_bytes());
        put_section(&mut out, &self.proof.zerocheck.to_bytes());
        put_section(&mut out, &self.proof.lincheck.to_bytes());
        put_section(&mut out, &self.proof.wiring.to_bytes());
        put_section(&mut out, &self.proof.opening.to_bytes());
        out
    }

    /// Bytes of the proof proper: the file without its header, the kind's
    /// parameters and the public data (which the user has anyway).
    pub fn proof_len(&self) -> usize {
        self.to_bytes().len() - self.public_len()
    }

    /// Bytes of the header, the kind's parameters and the public data.
    fn public_len(&self) -> usize {
        format::HEADER_BYTES
            + 4
            + self.statement.kind().params().len()
            + format::statement_bytes(&self.statement)
    }

    /// Decodes untrusted bytes; never panics, and allocates no more than a
    /// small multiple of their length (see [`format`](mod@crate::format)).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::decode(bytes, None)?.0)
    }

    /// Decodes and also returns the size of each section. `known` is a
    /// circuit the caller has compiled already (see [`format::read_circuit`]).
    pub(crate) fn decode(
        bytes: &[u8],
        known: Option<&Arc<StatementCircuit>>,
    ) -> Result<(Self, SectionSizes), Error> {
        let mut r = Reader::new(bytes);
        let header = format::read_header(&mut r)?;
        let zk = header.profile & format::ZK_PROFILE_BIT != 0;
        let profile = Profile::from_id(header.profile & !format::ZK_PROFILE_BIT)
            .ok_or_else(|| Error::Malformed(format!("unknown security profile {}", header.profile)))?;
        let kind = format::read_kind(&mut r, header.code, known)?;
        // A kind with secrets has no plain proofs: refused from the header,
        // before a section is read as a plain layout's.
        crate::verify::check_hides_secrets(kind.as_ref(), zk)?;
        let params_len = 4 + kind.params().len();
        let statement = format::read_statement(&mut r, kind.clone())?;
        let params =
            batch_params_for(kind.circuit(), statement.instances(), profile, zk).map_err(Error::Malformed)?;
        let bad = |what: &str, e: &dyn core::fmt::Display| Error::Malformed(format!("{what}: {e}"));
        let mut sizes = vec![
            ("header", format::HEADER_BYTES),
            ("parameters", params_len),
            ("public data", format::statement_bytes(&statement)),
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
        let zc = zerocheck::Proof::from_bytes(params.shape, zk, take_section(&mut r, &mut sizes, 2)?)
            .map_err(|e| bad("zerocheck", &e))?;
        let lc = lincheck::Proof::from_bytes(
            params.shape,
            LINCHECK_GROUPS,
            take_section(&mut r, &mut sizes, 3)?,
        )
        .map_err(|e| bad("lincheck", &e))?;
        let grinding = profile.piop_grinding_bits();
        let wiring = wiring::Proof::from_bytes(
            params.shape,
            params.p,
            grinding,
            take_section(&mut r, &mut sizes, 4)?,
        )
        .map_err(|e| bad("wiring", &e))?;
        let opening =
            bits::Proof::from_bytes(&params.pcs, OPENED_CLAIMS, take_section(&mut r, &mut sizes, 5)?)
                .map_err(|e| bad("opening", &e))?;
        r.finish()?;
        let proof = Proof {
            commitment: crate::pcs::Commitment { root },
            public_nonce,
            zerocheck: zc,
            lincheck: lc,
            wiring,
            opening,
        };
        Ok((
            ProofFile {
                profile,
                zk,
                statement,
                proof,
            },
            sizes,
        ))
    }
}

/// Reads proof section `i` and records its size (with its length field).
fn take_section<'a>(r: &mut Reader<'a>, sizes: &mut SectionSizes, i: usize) -> Result<&'a [u8], Error> {
    let s = r.section(PROOF_SECTIONS[i])?;
    sizes.push((PROOF_SECTIONS[i], s.len() + 4));
    Ok(s)
}

/// Every error term of the protocol for this proof's size and profile.
pub fn security_report(file: &ProofFile) -> Result<SecurityReport, Error> {
    let params = batch_params_for(
        file.statement.kind().circuit(),
        file.statement.instances(),
        file.profile,
        file.zk,
    )
    .map_err(Error::Malformed)?;
    Ok(security(&params))
}

/// Total provable security in bits for this proof's size and profile.
pub fn security_bits(file: &ProofFile) -> f64 {
    security_report(file).map(|r| r.bits()).unwrap_or(0.0)
}

/// A human-readable description of a proof file, decoded from its bytes:
/// statement, N, utilisation, profile, security, section sizes. It does not
/// verify the proof, and its first line says so. A bundle's is
/// [`crate::bundle::inspect`].
pub fn inspect(bytes: &[u8]) -> Result<String, Error> {
    if crate::bundle::is_bundle(bytes) {
        return crate::bundle::inspect(bytes);
    }
    let (file, sizes) = ProofFile::decode(bytes, None)?;
    let mut out = String::new();
    let kind = file.statement.kind();
    let circuit = kind.circuit();
    let count = file.statement.count();
    let instances = file.statement.instances();
    let _ = writeln!(
        out,
        "NOT VERIFIED: this describes the file as it claims to be; `starling verify` checks it"
    );
    let _ = writeln!(out, "statement      {}", kind.name());
    let _ = writeln!(out, "N              {}", counted(count, kind.noun()));
    let _ = writeln!(
        out,
        "circuit        {} ({} AND rows)",
        circuit.name(),
        circuit.r1cs().and_rows()
    );
    let _ = writeln!(out, "circuit digest {}", hex::encode(circuit.digest()));
    let _ = writeln!(
        out,
        "public digest  {}",
        hex::encode(file.statement.public_digest())
    );
    if let Ok(params) = batch_params_for(circuit, instances, file.profile, file.zk) {
        let r1cs = circuit.r1cs();
        let _ = writeln!(
            out,
            "padded to      2^{} instances of 2^{} wires",
            params.shape.n(),
            params.shape.k()
        );
        let slots = 1usize << params.shape.n();
        let committed = params.committed_wires();
        let _ = writeln!(
            out,
            "utilisation    {:.1}% of committed bits useful ({} of {} committed wires per instance (2^{} padded), {} of {} instances)",
            100.0 * (r1cs.committed_wires() * instances) as f64 / (committed << params.shape.n()) as f64,
            r1cs.committed_wires(),
            committed,
            params.shape.k(),
            instances,
            slots
        );
    }
    let _ = writeln!(out, "profile        {}", file.profile.name());
    let _ = writeln!(out, "zero knowledge {}", if file.zk { "yes" } else { "no" });
    match security_report(&file) {
        Ok(r) => {
            let _ = writeln!(
                out,
                "security       {:.1} bits (provable; bits earned by proof of work count in the random-oracle cost model); error terms:",
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
    Ok(out)
}
