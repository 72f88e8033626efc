//! The proof system end to end: prover and verifier of a batch statement.
//!
//! Order of messages (DESIGN §2.3): commit to the packed witness; bind the
//! statement and the commitment root; zerocheck; lincheck; the public-value
//! claim; ring switching and one batched opening of the three claims on z.

use std::sync::OnceLock;

use starling_circuit::sha256::Sha256Compression;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::{bits, Commitment, PcsParams, SecurityReport};
use starling_piop::lincheck::{self, LincheckClaim};
use starling_piop::{public, zerocheck, Shape, SparseMatrix};

use crate::format::{self, ByteWriter, StatementKind};
use crate::proof_file::{ProofFile, Verified};
use crate::public_table::{log_instances, padded_inputs, sha256_public_words};
use crate::statement::{Sha256Input, Sha256Statement};
use crate::{Error, Profile, Timings};

/// Transcript protocol label; changes with any change to the protocol.
const PROTOCOL_ID: &[u8] = b"starling/batch-r1cs/v1";

/// Transcript label of the proof of work before the public-value point.
const LABEL_POW_PUBLIC: &[u8] = b"pow/public";

/// The SHA-256 circuit and its matrices, built once per process.
pub(crate) struct Sha256Circuit {
    pub(crate) gadget: Sha256Compression,
    pub(crate) a0: SparseMatrix,
    pub(crate) b0: SparseMatrix,
    pub(crate) digest: [u8; 32],
}

pub(crate) fn sha256_circuit() -> &'static Sha256Circuit {
    static CIRCUIT: OnceLock<Sha256Circuit> = OnceLock::new();
    CIRCUIT.get_or_init(|| {
        let gadget = Sha256Compression::new();
        let r1cs = gadget.r1cs();
        let a = r1cs.a();
        let b = r1cs.b();
        let a0 = SparseMatrix::from_csr(a.offsets().to_vec(), a.indices().to_vec())
            .expect("the SHA-256 circuit's A matrix is well formed");
        let b0 = SparseMatrix::from_csr(b.offsets().to_vec(), b.indices().to_vec())
            .expect("the SHA-256 circuit's B matrix is well formed");
        let digest = r1cs.digest();
        Sha256Circuit {
            gadget,
            a0,
            b0,
            digest,
        }
    })
}

/// The proof proper (everything after the statement in the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Merkle root of the committed witness.
    pub commitment: Commitment,
    /// Proof-of-work nonce before the public-value point (zero under the
    /// default profile, which does not grind; the zerocheck holds its own).
    pub public_nonce: u64,
    /// Zerocheck of (Az)∘(Bz) = z.
    pub zerocheck: zerocheck::Proof,
    /// Lincheck of the claims on Az and Bz.
    pub lincheck: lincheck::Proof,
    /// Ring switching and the opening of the three claims on z.
    pub opening: bits::Proof,
}

/// Shape and PCS parameters of a batch, derived from public data only.
pub(crate) struct BatchParams {
    pub(crate) shape: Shape,
    pub(crate) p: usize,
    pub(crate) pcs: PcsParams,
}

/// Number of claims on z opened at the end: zerocheck, lincheck, public.
pub(crate) const OPENED_CLAIMS: usize = 3;

pub(crate) fn batch_params(count: usize, profile: Profile) -> Result<BatchParams, Error> {
    let circuit = sha256_circuit();
    let r1cs = circuit.gadget.r1cs();
    let n = log_instances(count) as usize;
    let shape = Shape::new(n, r1cs.k() as usize).map_err(|e| Error::Malformed(e.to_string()))?;
    let pcs = PcsParams::new(shape.l() - 7, profile).map_err(|e| Error::Malformed(e.to_string()))?;
    Ok(BatchParams {
        shape,
        p: r1cs.p() as usize,
        pcs,
    })
}

/// Every error term of the whole protocol for this batch.
pub(crate) fn security(params: &BatchParams) -> SecurityReport {
    let mut r = params.pcs.security_report_with_ring_switch(OPENED_CLAIMS);
    let grind = params.pcs.profile().piop_grinding_bits();
    let piop_terms = zerocheck::soundness_terms(params.shape, grind)
        .into_iter()
        .chain(lincheck::soundness_terms(params.shape))
        .chain(public::soundness_terms(params.shape, params.p, grind));
    for (name, log2) in piop_terms {
        r.add(name, log2);
    }
    r
}

/// Step 2 of the protocol: everything public goes in before any challenge.
fn bind_statement(
    transcript: &mut Transcript,
    profile: Profile,
    statement: &Sha256Statement,
    params: &BatchParams,
    commitment: &Commitment,
) {
    transcript.absorb_u64(b"format version", format::VERSION as u64);
    transcript.absorb_bytes(
        b"statement kind",
        StatementKind::Sha256Compression.name().as_bytes(),
    );
    transcript.absorb_u64(b"profile", profile.id() as u64);
    transcript.absorb_bytes(b"pcs parameters", &params.pcs.transcript_bytes());
    transcript.absorb_bytes(b"circuit digest", &sha256_circuit().digest);
    transcript.absorb_u64(b"instances", statement.len() as u64);
    transcript.absorb_u64(b"log padded instances", params.shape.n() as u64);
    let mut public = ByteWriter::new();
    format::write_sha256_statement(&mut public, statement);
    transcript.absorb_bytes(b"public values", &public.finish());
    transcript.absorb_bytes(b"commitment", &commitment.root);
}

/// A proof and what it cost to make.
pub struct Proved {
    /// The proof file (statement and proof).
    pub file: ProofFile,
    /// Time per prover phase.
    pub timings: Timings,
}

/// Proves N SHA-256 compressions; every input and output is public.
pub fn prove_sha256(
    inputs: Vec<Sha256Input>,
    profile: Profile,
    progress: &mut dyn FnMut(&str),
) -> Result<Proved, Error> {
    if inputs.is_empty() {
        return Err(Error::Input("no inputs: N must be at least 1".into()));
    }
    if inputs.len() as u64 > format::MAX_INSTANCES {
        return Err(Error::Input(format!(
            "at most {} compressions per proof",
            format::MAX_INSTANCES
        )));
    }
    let mut timings = Timings::default();
    let statement = timings.phase("outputs", progress, || Sha256Statement::compute(inputs));
    prove_statement(statement, profile, progress, timings, None)
}

/// A change a test-only cheating prover makes to the witness words.
pub(crate) type WitnessTamper<'a> = &'a dyn Fn(&mut [u64]);

/// Proves `statement` with the witness its inputs generate. `tamper`, when
/// given, changes the witness words before anything is committed (the linear
/// forms are then recomputed from them): tests use it to play a cheating
/// prover; real proofs pass `None`.
pub(crate) fn prove_statement(
    statement: Sha256Statement,
    profile: Profile,
    progress: &mut dyn FnMut(&str),
    mut timings: Timings,
    tamper: Option<WitnessTamper<'_>>,
) -> Result<Proved, Error> {
    let circuit = sha256_circuit();
    let params = batch_params(statement.len(), profile)?;
    let shape = params.shape;
    let n = shape.n() as u32;

    let (mut witness, mut a, mut b) = timings.phase("witness", progress, || {
        circuit
            .gadget
            .generate_witness_with_forms(n, &padded_inputs(&statement, n))
            .map_err(|e| Error::Input(e.to_string()))
    })?;
    if let Some(tamper) = tamper {
        tamper(witness.words_mut());
        (a, b) = circuit.gadget.r1cs().linear_forms(&witness);
    }
    let z = witness.words();

    let (commitment, prover_data) = timings.phase("commit", progress, || {
        let packed: Vec<Gf128> = z
            .chunks_exact(2)
            .map(|w| Gf128::new(w[0] as u128 | ((w[1] as u128) << 64)))
            .collect();
        starling_pcs::commit(&params.pcs, packed).map_err(|e| Error::Input(e.to_string()))
    })?;

    let mut transcript = Transcript::new(PROTOCOL_ID);
    bind_statement(&mut transcript, profile, &statement, &params, &commitment);

    let grind_bits = profile.piop_grinding_bits();
    let (zerocheck_proof, zc) = timings.phase("zerocheck", progress, || {
        zerocheck::prove(shape, &a, &b, z, grind_bits, &mut transcript)
    });
    drop((a, b));
    let (lincheck_proof, lincheck_claim) = timings.phase("lincheck", progress, || {
        lincheck::prove(
            shape,
            &circuit.a0,
            &circuit.b0,
            z,
            &LincheckClaim::from(&zc),
            &mut transcript,
        )
    });
    let public_nonce = transcript.grind(LABEL_POW_PUBLIC, grind_bits);
    let public_claim = timings.phase("public", progress, || {
        let table = sha256_public_words(circuit.gadget.r1cs(), &statement, n);
        public::claim(shape, params.p, &table, &mut transcript).map_err(|e| Error::Input(e.to_string()))
    })?;
    let claims = [
        zc.z_claim().to_packed(),
        lincheck_claim.to_packed(),
        public_claim.to_packed(),
    ];
    let claims = claims.map(convert_claim);
    let opening = timings.phase("open", progress, || {
        bits::prove(&params.pcs, &prover_data, &claims, &mut transcript)
            .map_err(|e| Error::Input(e.to_string()))
    })?;

    let proof = Proof {
        commitment,
        public_nonce,
        zerocheck: zerocheck_proof,
        lincheck: lincheck_proof,
        opening,
    };
    Ok(Proved {
        file: ProofFile {
            profile,
            statement,
            proof,
        },
        timings,
    })
}

/// The PIOP's claim shape is the PCS's; only the type differs.
fn convert_claim(c: starling_piop::PackedClaim) -> starling_pcs::PackedClaim {
    starling_pcs::PackedClaim {
        lambda: c.lambda,
        point: c.point,
        value: c.value,
    }
}

/// Checks a proof file; on success the statement in it is proved.
pub fn verify(file: &ProofFile) -> Result<Verified, Error> {
    let circuit = sha256_circuit();
    let statement = &file.statement;
    let params = batch_params(statement.len(), file.profile)?;
    let shape = params.shape;
    let proof = &file.proof;
    let reject = |what: &str, e: &dyn std::fmt::Display| Error::Rejected(format!("{what}: {e}"));

    let mut transcript = Transcript::new(PROTOCOL_ID);
    bind_statement(
        &mut transcript,
        file.profile,
        statement,
        &params,
        &proof.commitment,
    );
    let grind_bits = file.profile.piop_grinding_bits();
    let zc = zerocheck::verify(shape, &proof.zerocheck, grind_bits, &mut transcript)
        .map_err(|e| reject("zerocheck", &e))?;
    let lincheck_claim = lincheck::verify(
        shape,
        &circuit.a0,
        &circuit.b0,
        &LincheckClaim::from(&zc),
        &proof.lincheck,
        &mut transcript,
    )
    .map_err(|e| reject("lincheck", &e))?;
    let table = sha256_public_words(circuit.gadget.r1cs(), statement, shape.n() as u32);
    if !transcript.check_grind(LABEL_POW_PUBLIC, grind_bits, proof.public_nonce) {
        return Err(Error::Rejected(
            "proof of work before the public-value point is invalid".into(),
        ));
    }
    let public_claim =
        public::claim(shape, params.p, &table, &mut transcript).map_err(|e| reject("public values", &e))?;
    let claims = [
        zc.z_claim().to_packed(),
        lincheck_claim.to_packed(),
        public_claim.to_packed(),
    ];
    let claims = claims.map(convert_claim);
    bits::verify(
        &params.pcs,
        &proof.commitment,
        &claims,
        &proof.opening,
        &mut transcript,
    )
    .map_err(|e| reject("opening", &e))?;
    Ok(Verified::new(file, security(&params).bits()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calculator's totals for the whole protocol at every batch size a
    /// proof file may have: at least 100 bits (default) and 120 (secure).
    #[test]
    fn both_profiles_meet_their_totals_at_every_size() {
        for log_count in 0..=24usize {
            for (profile, target) in [(Profile::Default, 100.0), (Profile::Secure, 120.0)] {
                let params = batch_params(1 << log_count, profile).unwrap();
                let bits = security(&params).bits();
                assert!(
                    bits >= target,
                    "2^{log_count} compressions, {profile:?}: {bits:.2} bits"
                );
            }
        }
    }
}
