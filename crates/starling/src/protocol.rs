//! The proof system end to end: prover and verifier of a batch statement.
//!
//! Order of messages (DESIGN §2.3): commit to the packed witness; bind the
//! statement and the commitment root; zerocheck of `(A z) ∘ (B z) = C z`;
//! lincheck of its claims on `A z`, `B z` (one point) and `C z` (another);
//! the wiring check (public values, links between instances); ring
//! switching and one batched opening of the three claims on z.

use starling_crypto::Grind;
use starling_field::Gf128Slices;
use std::sync::Arc;

use starling_crypto::merkle::ManyAtOnce;
use starling_crypto::Transcript;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128;
use starling_pcs::{bits, Commitment, PcsParams, SecurityReport};
use starling_piop::lincheck::{self, LincheckClaim};
use starling_piop::{wiring, zerocheck, Shape, SparseMatrix};

use starling_circuit::layout::{slice_instances, unslice_instances};
use starling_circuit::R1csWitness;

use crate::circuits::StatementCircuit;
use crate::error::Check;
use crate::format;
use crate::kind::{prover_of, Kind};
use crate::layout::{self, log_instances, MIN_LOG_INSTANCES};
use crate::proof_file::ProofFile;
use crate::records::Records;
use crate::statement::Statement;
use crate::timings::Phase;
use crate::{Error, Profile, Timings};

/// Transcript protocol label; changes with any change to the protocol.
const PROTOCOL_ID: &[u8] = b"starling/batch-r1cs/v7";

/// Transcript label of the proof of work before the wiring check's challenges.
const LABEL_POW_PUBLIC: &[u8] = b"pow/public";

/// The proof proper (everything after the statement in the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Merkle root of the committed witness.
    pub commitment: Commitment,
    /// Proof-of-work nonce before the wiring check's challenges (zero under the
    /// default profile, which does not grind; the zerocheck holds its own).
    pub public_nonce: u64,
    /// Zerocheck of (Az)∘(Bz) = Cz.
    pub zerocheck: zerocheck::Proof,
    /// Lincheck of the claims on Az, Bz and Cz.
    pub lincheck: lincheck::Proof,
    /// The public values and the wiring between instances.
    pub wiring: wiring::Proof,
    /// Ring switching and the opening of the three claims on z.
    pub opening: bits::Proof,
}

/// Shape and PCS parameters of a batch, derived from public data only.
pub(crate) struct BatchParams {
    pub(crate) shape: Shape,
    pub(crate) p: usize,
    pub(crate) pcs: PcsParams,
}

impl BatchParams {
    /// Wires per instance that the commitment holds: level 0's live rows.
    pub(crate) fn committed_wires(&self) -> usize {
        let bits = self.pcs.level_width(0) << (self.pcs.level_log_msg(0) + 7);
        bits >> self.shape.n()
    }
}

/// Number of claims on z opened at the end: the lincheck's two (one per
/// point of the zerocheck's claims) and the wiring check's.
pub(crate) const OPENED_CLAIMS: usize = 3;

/// Claims the lincheck batches: on `A z`, `B z` and `C z`.
pub(crate) const LINCHECK_CLAIMS: usize = 3;

/// Groups of the lincheck: `A z` and `B z` at the zerocheck's sumcheck point,
/// `C z` at its batching point.
pub(crate) const LINCHECK_GROUPS: usize = 2;

pub(crate) fn batch_params(
    circuit: &StatementCircuit,
    instances: usize,
    profile: Profile,
) -> Result<BatchParams, String> {
    let r1cs = circuit.r1cs();
    let n = log_instances(instances) as usize;
    let too_large = |e: &dyn std::fmt::Display| {
        format!(
            "2^{n} instances of a circuit of 2^{} wires are more than one proof can hold ({e})",
            r1cs.k()
        )
    };
    let shape = Shape::new(n, r1cs.k() as usize).map_err(|e| too_large(&e))?;
    let p = r1cs.p() as usize;
    // The wires past the last used one are zero in every instance: with the
    // instance index low in a bit's index they are the table's top, which
    // level 0 of the opening leaves out (at least the constant wire is used).
    let live_len = r1cs.used_wires().max(1) << (n - MIN_LOG_INSTANCES as usize);
    let pcs = pcs_params(shape, p, profile)
        .and_then(|pcs| pcs.with_live_len(live_len))
        .map_err(|e| too_large(&e))?;
    let params = BatchParams { shape, p, pcs };
    meets_target(&params, profile)?;
    Ok(params)
}

/// The opening's parameters for a batch: the PCS reaches half the profile's
/// error budget ([`Profile::pcs_bits`]), or what the PIOP terms leave of it
/// when they take more than the other half (circuits of millions of wires,
/// whose sumchecks have many rounds).
fn pcs_params(shape: Shape, p: usize, profile: Profile) -> Result<PcsParams, starling_pcs::PcsError> {
    let piop_error: f64 = piop_terms(shape, p, profile)
        .iter()
        .map(|(_, log2)| log2.exp2())
        .sum();
    let left = (-profile.target_bits()).exp2() - piop_error;
    let bits = if left > 0.0 {
        profile.pcs_bits().max(-left.log2())
    } else {
        // Nothing is left: `meets_target` refuses the batch.
        profile.pcs_bits()
    };
    PcsParams::with_bits(shape.l() - 7, profile, bits)
}

/// Fails when the protocol's total falls short of the profile's target.
///
/// The PCS takes at least half the profile's error budget ([`pcs_params`])
/// and the PIOP terms grow with the size; past 2^36 committed bits of a wide
/// circuit the secure profile's PCS cannot reach what the PIOP leaves. Such
/// batches are refused rather than proved below the profile's promise.
fn meets_target(params: &BatchParams, profile: Profile) -> Result<(), String> {
    let bits = security(params).bits();
    if bits < profile.target_bits() {
        return Err(format!(
            "the {} profile reaches only {bits:.2} of its {} bits for 2^{} instances of a circuit of 2^{} wires; prove fewer instances per proof",
            profile.name(),
            profile.target_bits(),
            params.shape.n(),
            params.shape.k()
        ));
    }
    Ok(())
}

/// Every error term of the whole protocol for this batch.
pub(crate) fn security(params: &BatchParams) -> SecurityReport {
    let mut r = params.pcs.security_report_with_ring_switch(OPENED_CLAIMS);
    for (name, log2) in piop_terms(params.shape, params.p, params.pcs.profile()) {
        r.add(name, log2);
    }
    r
}

/// The error terms of zerocheck, lincheck and wiring.
fn piop_terms(shape: Shape, p: usize, profile: Profile) -> Vec<(&'static str, f64)> {
    let grind = profile.piop_grinding_bits();
    zerocheck::soundness_terms(shape, grind)
        .into_iter()
        .chain(lincheck::soundness_terms(shape, LINCHECK_CLAIMS))
        .chain(wiring::soundness_terms(shape, p, grind))
        .collect()
}

/// Step 2 of the protocol: everything public goes in before any challenge.
fn bind_statement(
    transcript: &mut Transcript,
    profile: Profile,
    statement: &Statement,
    params: &BatchParams,
    commitment: &Commitment,
) {
    let kind = statement.kind();
    transcript.absorb_u64(b"format version", format::VERSION as u64);
    transcript.absorb_u64(b"statement kind", u64::from(kind.code()));
    // The kind's parameters: a hash, a scheme, a Bristol circuit's text.
    transcript.absorb_bytes(b"kind parameters", &kind.params());
    transcript.absorb_u64(b"profile", profile.id() as u64);
    transcript.absorb_bytes(b"pcs parameters", &params.pcs.transcript_bytes());
    // The digest fixes the constraint system and how the public bits are
    // split into values.
    transcript.absorb_bytes(b"circuit digest", &kind.circuit().digest());
    transcript.absorb_u64(b"count", statement.count());
    transcript.absorb_u64(b"instances", statement.instances() as u64);
    transcript.absorb_u64(b"log padded instances", params.shape.n() as u64);
    transcript.absorb_bytes(b"public values digest", &statement.public_digest());
    transcript.absorb_bytes(b"commitment", &commitment.root);
}

/// A proof and what it cost to make.
pub struct Proved {
    /// The proof file (statement and proof).
    pub file: ProofFile,
    /// Time per prover phase.
    pub timings: Timings,
}

/// Makes every later proof of this process keep its large buffers for the
/// next one instead of freeing them at its end: for a process that proves
/// batch after batch (the command line, a sequencer), which then maps its
/// buffers once instead of once per proof. The buffers (about three times
/// the committed table) stay with the process between proofs.
pub fn keep_buffers_between_proofs() {
    scratch::keep_between_uses();
}

/// Proves a statement of `kind` on its input records: computes every
/// instance's inputs (private intermediate values included) and the public
/// outputs, and returns the proof file.
///
/// Unlike verification (`worker.rs`), a proof runs on the calling
/// thread and forks its parallel steps from there. Called from outside the
/// rayon pool, each step is handed to a worker and waited for; moving the
/// proof onto a worker instead gained 2-5% but took its buffers from that
/// thread's glibc arena, whose heaps are capped at 64 MiB and fragment (peak
/// RSS of a Keccak-f bench at 2^14 on one thread: 477 -> 496 MB, over the 30
/// KB per hash the project allows itself). A caller that wants both makes
/// its own thread part of the pool (`ThreadPoolBuilder::use_current_thread`),
/// as the command line does.
pub fn prove(
    kind: Arc<dyn Kind>,
    inputs: Records,
    profile: Profile,
    progress: &mut dyn FnMut(&Phase),
) -> Result<Proved, Error> {
    prove_private(kind, inputs, Records::new(), profile, progress)
}

/// [`prove`] for a kind with private input records ([`Kind::has_private_inputs`]:
/// a signature batch's signatures), one per public record, in order. The
/// proof file carries only the public records and the outputs.
pub fn prove_private(
    kind: Arc<dyn Kind>,
    inputs: Records,
    private: Records,
    profile: Profile,
    progress: &mut dyn FnMut(&Phase),
) -> Result<Proved, Error> {
    prove_with(kind, inputs, private, profile, progress, &Tamper::default())
}

/// Changes a test-only cheating prover makes: to the witness words before
/// anything is committed (the linear forms are then recomputed from them),
/// and to the statement it claims. Real proofs change nothing.
#[derive(Default)]
pub(crate) struct Tamper<'a> {
    /// Changes the instances' input rows before the witness is generated
    /// (every instance stays a valid run of the circuit, on other inputs).
    pub(crate) instances: Option<WitnessTamper<'a>>,
    pub(crate) witness: Option<WitnessTamper<'a>>,
    pub(crate) statement: Option<&'a dyn Fn(&mut Statement)>,
}

/// A change to the witness words.
pub(crate) type WitnessTamper<'a> = &'a dyn Fn(&mut [u64]);

pub(crate) fn prove_with(
    kind: Arc<dyn Kind>,
    inputs: Records,
    private: Records,
    profile: Profile,
    progress: &mut dyn FnMut(&Phase),
    tamper: &Tamper<'_>,
) -> Result<Proved, Error> {
    crate::inputs::check_not_empty(kind.as_ref(), &inputs)?;
    if inputs.len() as u64 > format::MAX_INSTANCES {
        return Err(Error::Input(format!(
            "at most {} input records per proof",
            format::MAX_INSTANCES
        )));
    }
    kind.shape(&inputs).map_err(Error::Input)?;
    let wants = if kind.has_private_inputs() {
        inputs.len()
    } else {
        0
    };
    if private.len() != wants {
        return Err(Error::Input(format!(
            "{} private records for {} inputs of a {} statement, expected {wants}",
            private.len(),
            inputs.len(),
            kind.name()
        )));
    }
    starling_piop::prepare_tables();
    let circuit = kind.circuit().clone();
    let mut timings = Timings::default();
    // The instances' input rows (private intermediate values included)
    // come first: a signature batch's layout follows from values only its
    // signatures give.
    let mut rows = timings.phase("instances", progress, || {
        prover_of(kind.as_ref()).instance_inputs(&inputs, &private)
    })?;
    let instances = rows.len() / circuit.input_words();
    if instances as u64 > format::MAX_INSTANCES {
        return Err(Error::Input(format!(
            "the statement needs {instances} circuit instances, more than the {} one proof holds",
            format::MAX_INSTANCES
        )));
    }
    let params = batch_params(&circuit, instances, profile).map_err(Error::Input)?;
    let n = params.shape.n() as u32;
    let r1cs = circuit.r1cs();

    // The witness is written straight into the buffer the PCS commits to,
    // and its linear forms `a = Az`, `b = Bz` (bit-packed like it) into the
    // buffers the zerocheck then folds in place, in one pass; every entry
    // of the three: recycled buffers need no clearing. The commitment that
    // follows holds only a few rows of its codeword at a time, so the
    // forms cost no memory beyond what the zerocheck needs anyway.
    let [mut packed, mut a, mut b] = [(); 3].map(|_| scratch::take_field(params.shape.num_words() / 2));
    timings.phase("witness", progress, || {
        if let Some(f) = tamper.instances {
            f(&mut rows);
        }
        // Padding instances: all-zero inputs.
        rows.resize((1usize << n) * circuit.input_words(), 0);
        let sliced = slice_instances(1 << n, circuit.input_bits(), &rows);
        r1cs.generate_witness_and_forms_into(
            n,
            &sliced,
            &[],
            Gf128::as_u64_words_mut(&mut packed),
            Gf128::as_u64_words_mut(&mut a),
            Gf128::as_u64_words_mut(&mut b),
        )
        .map_err(|e| Error::Internal(format!("witness: {e}")))
    })?;
    let outputs = timings.phase("outputs", progress, || {
        let per_wire = params.shape.words_per_wire();
        let first = r1cs.public_output_wire(0) * per_wire;
        let sliced = &Gf128::as_u64_words(&packed)[first..first + circuit.output_bits() * per_wire];
        let rows = unslice_instances(1 << n, circuit.output_bits(), sliced);
        prover_of(kind.as_ref()).outputs(&inputs, &rows[..instances * circuit.output_words()])
    });
    let mut statement =
        Statement::new(kind, inputs, outputs).map_err(|e| Error::Internal(format!("outputs: {e}")))?;
    if statement.instances() != instances {
        return Err(Error::Internal(format!(
            "the prover laid out {instances} instances, the statement calls for {}",
            statement.instances()
        )));
    }
    if let Some(f) = tamper.statement {
        f(&mut statement);
    }
    if let Some(f) = tamper.witness {
        let z = Gf128::as_u64_words_mut(&mut packed);
        f(z);
        r1cs.linear_forms_into(
            params.shape.words_per_wire(),
            z,
            Gf128::as_u64_words_mut(&mut a),
            Gf128::as_u64_words_mut(&mut b),
        );
    }
    // A generated witness satisfies the constraints row by row, so `C z` is
    // the AND of its forms; a tampered one need not be, and its zerocheck
    // computes `C z` from the table, as a careless prover would.
    let c = if tamper.witness.is_none() {
        CSource::AndOfForms
    } else {
        CSource::Table
    };
    prove_statement(statement, &params, [packed, a, b], c, profile, progress, timings)
}

/// How the zerocheck gets `c = C z`.
#[derive(Clone, Copy)]
enum CSource {
    /// `c = (A z) AND (B z)`, true of every witness the generator makes.
    AndOfForms,
    /// From the committed table and the addends' rows.
    Table,
}

/// Commits to the witness (bit-packed in `packed`) and proves that it
/// satisfies the circuit (its linear forms `a`, `b`, bit-packed like it;
/// the zerocheck's `c` from `c_source`) and agrees with `statement`.
fn prove_statement(
    statement: Statement,
    params: &BatchParams,
    [packed, mut a, mut b]: [ScratchVec; 3],
    c_source: CSource,
    profile: Profile,
    progress: &mut dyn FnMut(&Phase),
    mut timings: Timings,
) -> Result<Proved, Error> {
    let circuit = statement.kind().circuit().clone();
    let shape = params.shape;

    let mut transcript = Transcript::new(PROTOCOL_ID);
    let (commitment, prover_data) = timings.phase("commit", progress, || {
        let (commitment, data) =
            starling_pcs::commit(&params.pcs, packed).map_err(|e| Error::Internal(format!("commit: {e}")))?;
        bind_statement(&mut transcript, profile, &statement, params, &commitment);
        Ok::<_, Error>((commitment, data))
    })?;
    let z = Gf128::as_u64_words(prover_data.table());
    let r1cs = circuit.r1cs();

    // The table's zero tail (the circuit's unused wires) is left out of the
    // zerocheck's passes and the lincheck's folds over the instances.
    let live_words = (2 * params.pcs.live_len())
        .next_multiple_of(shape.words_per_wire())
        .min(z.len());
    let grind_bits = profile.piop_grinding_bits();
    let (zerocheck_proof, zc) = timings.phase("zerocheck", progress, || {
        // `c = C z` is read once, by the skip pass, a chunk at a time: it is
        // the AND of the forms' words there, or computed from the table,
        // rather than held as a third vector.
        let fill = |start: usize, out: &mut [u64]| r1cs.c_words_into(shape.words_per_wire(), z, start, out);
        let c = match c_source {
            CSource::AndOfForms => zerocheck::CWords::AndOfForms,
            CSource::Table if r1cs.has_addends() => zerocheck::CWords::Computed(&fill),
            CSource::Table => zerocheck::CWords::Stored(z),
        };
        // The forms, like `z`, are zero past the used wires (no row there has terms).
        zerocheck::prove_in_place(shape, &mut a, &mut b, c, live_words, grind_bits, &mut transcript)
    });
    // The folded forms' buffers serve the opening's work vectors.
    scratch::recycle_field(a);
    scratch::recycle_field(b);
    let (ab_claim, c_claim) = (LincheckClaim::ab_from(&zc), LincheckClaim::c_from(&zc));
    let (lincheck_proof, lincheck_claims) = timings.phase("lincheck", progress, || {
        lincheck::prove(
            shape,
            &lincheck_groups(&circuit.lincheck_matrices(), &ab_claim, &c_claim),
            &z[..live_words],
            &mut transcript,
        )
    });
    let public_nonce = transcript.grind(LABEL_POW_PUBLIC, grind_bits);
    let (wiring_proof, public_claim) = timings.phase("wiring", progress, || {
        let relations = statement
            .kind()
            .relations(statement.inputs(), statement.outputs(), shape.n());
        let relations = layout::piop_relations(&relations);
        wiring::prove(shape, params.p, &relations, z, grind_bits, &mut transcript)
    });
    let claims = [
        lincheck_claims[0].to_packed(),
        lincheck_claims[1].to_packed(),
        public_claim.to_packed(),
    ];
    let opening = timings.phase("open", progress, || {
        bits::prove(&params.pcs, &prover_data, &claims, &mut transcript)
            .map_err(|e| Error::Internal(format!("opening: {e}")))
    });
    // The proof's large buffers are free now: the table joins the others in
    // the pool, which is dropped unless the process keeps it for its next
    // proof (`scratch::keep_between_uses`).
    scratch::recycle_field(prover_data.into_table());
    scratch::finish();
    let opening = opening?;

    let proof = Proof {
        commitment,
        public_nonce,
        zerocheck: zerocheck_proof,
        lincheck: lincheck_proof,
        wiring: wiring_proof,
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

/// The lincheck's groups: `A0`, `B0` at the zerocheck's sumcheck point and
/// `C0` at its batching point ([`LINCHECK_GROUPS`], [`LINCHECK_CLAIMS`]).
fn lincheck_groups<'a>(
    (ab0, c0): &'a ([&'a SparseMatrix; 2], [&'a SparseMatrix; 1]),
    ab_claim: &'a LincheckClaim,
    c_claim: &'a LincheckClaim,
) -> [lincheck::Group<'a>; LINCHECK_GROUPS] {
    [
        lincheck::Group {
            matrices: ab0,
            claim: ab_claim,
        },
        lincheck::Group {
            matrices: c0,
            claim: c_claim,
        },
    ]
}

/// The PIOP's claim shape is the PCS's; only the type differs.
/// Runs every check of the proof system on a decoded file: `Ok` means the
/// proof proves the statement the file carries, whatever that is. The
/// public API ([`crate::verify`], [`crate::verify_claimed`]) adds what the
/// verifier expects and the security it requires.
pub(crate) fn check(file: &ProofFile) -> Result<(), Error> {
    starling_field::backend::install_in_verifier();
    let statement = &file.statement;
    statement
        .kind()
        .check_public(statement.inputs())
        .map_err(|e| Error::invalid(Check::Statement, &e))?;
    let circuit = statement.kind().circuit();
    let params = batch_params(circuit, statement.instances(), file.profile).map_err(Error::Malformed)?;
    let shape = params.shape;
    let proof = &file.proof;

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
        .map_err(|e| Error::invalid(Check::Zerocheck, &e))?;
    let (ab_claim, c_claim) = (LincheckClaim::ab_from(&zc), LincheckClaim::c_from(&zc));
    let lincheck_claims = lincheck::verify(
        shape,
        &lincheck_groups(&circuit.lincheck_matrices(), &ab_claim, &c_claim),
        &proof.lincheck,
        &mut transcript,
    )
    .map_err(|e| Error::invalid(Check::Lincheck, &e))?;
    if !transcript.check_grind(LABEL_POW_PUBLIC, grind_bits, proof.public_nonce) {
        return Err(Error::invalid(
            Check::ProofOfWork,
            &"the nonce before the wiring check is not a valid proof of work",
        ));
    }
    let relations = statement
        .kind()
        .relations(statement.inputs(), statement.outputs(), shape.n());
    let public_claim = wiring::verify_with(
        shape,
        params.p,
        &layout::piop_relations(&relations),
        &proof.wiring,
        grind_bits,
        &mut transcript,
        &wiring::Weighed,
    )
    .map_err(|e| Error::invalid(Check::Wiring, &e))?;
    let claims = [
        lincheck_claims[0].to_packed(),
        lincheck_claims[1].to_packed(),
        public_claim.to_packed(),
    ];
    bits::verify_with(
        &ManyAtOnce,
        &params.pcs,
        &proof.commitment,
        &claims,
        &proof.opening,
        &mut transcript,
    )
    .map_err(|e| Error::invalid(Check::Opening, &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::Builtin;

    /// The calculator's totals for the whole protocol at every batch size a
    /// proof file may have and every circuit size the builder makes: at least
    /// 100 bits (default) and 120 (secure) wherever the PCS has parameters,
    /// except a few secure shapes past 2^36 committed bits, which
    /// `batch_params` refuses.
    #[test]
    fn both_profiles_meet_their_totals_at_every_size() {
        let mut checked = 0;
        for n in 7..=24usize {
            for k in 1..=30usize {
                for (profile, target) in [(Profile::Default, 100.0), (Profile::Secure, 120.0)] {
                    let Ok(shape) = Shape::new(n, k) else { continue };
                    let Ok(pcs) = pcs_params(shape, k, profile) else {
                        continue;
                    };
                    let params = BatchParams { shape, p: k, pcs };
                    let report = security(&params);
                    let bits = report.bits();
                    let refused = meets_target(&params, profile).is_err();
                    assert_eq!(bits < target, refused);
                    assert!(
                        bits >= target || (profile == Profile::Secure && shape.l() > 36),
                        "2^{n} instances, k = {k}, {profile:?}: {bits:.2} bits\n{report}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked} shapes");
    }

    #[test]
    fn batches_below_the_profile_target_are_refused() {
        // 2^7 instances of 2^30 wires under the secure profile: 119.95 bits.
        let shape = Shape::new(7, 30).unwrap();
        let params = |profile| BatchParams {
            shape,
            p: 1,
            pcs: PcsParams::new(shape.l() - 7, profile).unwrap(),
        };
        let e = meets_target(&params(Profile::Secure), Profile::Secure).unwrap_err();
        assert!(e.contains("reaches only 119.9"), "{e}");
        assert!(meets_target(&params(Profile::Default), Profile::Default).is_ok());
    }

    /// One real parameter set per profile, pinned: SHA-256 at 2^14
    /// compressions (2^15 wires, 2^29 committed bits). Any change to levels,
    /// rates, query counts, grinding or the total shows here, so a change
    /// to the security is always deliberate.
    #[test]
    fn parameter_sets_are_pinned() {
        let circuit = StatementCircuit::builtin(Builtin::Sha256);
        let level = |log_rows, log_inv_rate, queries, grinding_bits| starling_pcs::LevelParams {
            log_rows,
            log_inv_rate,
            queries,
            grinding_bits,
            query_grinding_bits: 16,
        };
        for (profile, levels, piop_grinding, total) in [
            (
                Profile::Default,
                vec![level(6, 1, 212, 0), level(4, 3, 106, 0), level(3, 3, 106, 0)],
                0,
                102.351,
            ),
            (
                Profile::Secure,
                vec![level(6, 1, 262, 17), level(3, 3, 131, 15), level(3, 3, 131, 12)],
                8,
                120.208,
            ),
        ] {
            let params = batch_params(&circuit, 1 << 14, profile).unwrap();
            assert_eq!(params.pcs.levels(), levels.as_slice(), "{profile:?}");
            assert_eq!(profile.piop_grinding_bits(), piop_grinding, "{profile:?}");
            let bits = security(&params).bits();
            assert!((bits - total).abs() < 0.005, "{profile:?}: {bits}");
        }
    }

    #[test]
    fn every_builtin_kind_has_parameters_up_to_the_largest_batch() {
        for kind in Builtin::ALL {
            let circuit = StatementCircuit::builtin(kind);
            for log_count in 0..=24usize {
                for profile in [Profile::Default, Profile::Secure] {
                    let r = batch_params(&circuit, 1 << log_count, profile);
                    assert!(r.is_ok(), "{kind:?} 2^{log_count} {profile:?}: {:?}", r.err());
                }
            }
        }
    }
}
