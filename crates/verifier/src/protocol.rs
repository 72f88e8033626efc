//! The proof system's verifier end to end (DESIGN §2.3), and what prover and
//! verifier derive alike from public data: the batch's shape and PCS
//! parameters, the security of the whole protocol, the statement's binding.
//!
//! Order of messages: commit to the packed witness; bind the statement and
//! the commitment root; zerocheck of `(A z) ∘ (B z) = C z`; lincheck of its
//! claims on `A z`, `B z` (one point) and `C z` (another); the wiring check
//! (public values, links between instances); ring switching and one batched
//! opening of the three claims on z. The prover is `starling`'s.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use libm::{exp2, log2};

use crate::circuits::StatementCircuit;
use crate::error::Check;
use crate::format;
use crate::host::Host;
use crate::layout::{log_instances, MIN_LOG_INSTANCES};
use crate::pcs::{bits, Commitment, PcsParams, SecurityProfile as Profile, SecurityReport};
use crate::piop::lincheck::{self, LincheckClaim, Matrix};
use crate::piop::{wiring, zerocheck, Shape, SparseMatrix};
use crate::proof_file::ProofFile;
use crate::statement::Statement;
use crate::zk::veiled::{Channel, Clear, Veil};
use crate::zk::{zk_layout, Holes, OtherRows, PlacedMatrix, SPARE_ENTRIES};
use crate::Gf128;
use crate::{Error, Transcript};
use alloc::boxed::Box;
use alloc::vec;

/// Transcript protocol label; changes with any change to the protocol.
pub const PROTOCOL_ID: &[u8] = b"starling/batch-r1cs/v7";

/// Transcript label of the proof of work before the wiring check's challenges.
pub const LABEL_POW_PUBLIC: &[u8] = b"pow/public";

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
pub struct BatchParams {
    /// The batch's shape.
    pub shape: Shape,
    /// log2 of the public block's wires.
    pub p: usize,
    /// The opening's parameters.
    pub pcs: PcsParams,
    /// A zero-knowledge batch's random wires (`None` for a plain one).
    pub holes: Option<Holes>,
}

impl BatchParams {
    /// Wires per instance that the commitment holds: level 0's live rows.
    pub fn committed_wires(&self) -> usize {
        let bits = self.pcs.level0_data_rows() << (self.pcs.level_log_msg(0) + 7);
        bits >> self.shape.n()
    }

    /// The lincheck's matrices: the circuit's, or a zero-knowledge batch's
    /// moved around its holes.
    pub fn lincheck_matrices<'a>(&self, circuit: &'a StatementCircuit) -> Matrices<'a> {
        let ([a, b], [c]) = circuit.lincheck_matrices();
        match self.holes {
            None => Matrices::Circuit([a, b, c]),
            Some(h) => {
                let k = self.shape.k();
                let place = h.positions_of(circuit.r1cs().used_wires());
                Matrices::Placed(Box::new([
                    h.place_matrix(a, k, &place, |w| vec![w], |_| vec![]),
                    h.place_matrix(b, k, &place, |_| vec![0], |_| vec![]),
                    h.place_matrix(c, k, &place, |w| vec![w], |p| vec![p]),
                ]))
            }
        }
    }

    /// The lincheck's three matrices as the verifier reads them: the
    /// circuit's, or views of them moved around a zero-knowledge batch's
    /// holes that are never built ([`PlacedMatrix`]; the prover builds them,
    /// [`BatchParams::lincheck_matrices`]).
    pub fn matrix_views<'a>(&self, circuit: &'a StatementCircuit) -> [Box<dyn Matrix + 'a>; 3] {
        let ([a, b], [c]) = circuit.lincheck_matrices();
        match self.holes {
            None => [Box::new(a), Box::new(b), Box::new(c)],
            Some(h) => {
                let used = circuit.r1cs().used_wires();
                let columns = [a, b, c]
                    .map(|m| PlacedMatrix::columns(m, used))
                    .into_iter()
                    .max()
                    .unwrap_or(0);
                [(a, OtherRows::A), (b, OtherRows::B), (c, OtherRows::C)].map(|(m, other)| {
                    Box::new(PlacedMatrix::new(m, h, used, columns, other)) as Box<dyn Matrix>
                })
            }
        }
    }

    /// What the wiring check proves: the kind's relations, moved around a
    /// zero-knowledge batch's holes.
    pub fn relations<'a>(&self, statement: &'a Statement) -> Vec<wiring::Relation<'a>> {
        let relations = statement
            .kind()
            .relations(statement.inputs(), statement.outputs(), self.shape.n());
        match self.holes {
            None => relations,
            Some(h) => h.split(relations),
        }
    }
}

/// The lincheck's three matrices, `A0`, `B0`, `C0`, as the batch lays its
/// wires out.
pub enum Matrices<'a> {
    /// The circuit's own.
    Circuit([&'a SparseMatrix; 3]),
    /// Moved around a zero-knowledge batch's holes.
    Placed(Box<[SparseMatrix; 3]>),
}

impl Matrices<'_> {
    /// `([A0, B0], [C0])`, as [`lincheck_groups`] takes them.
    pub fn groups(&self) -> ([&SparseMatrix; 2], [&SparseMatrix; 1]) {
        match self {
            Matrices::Circuit([a, b, c]) => ([*a, *b], [*c]),
            Matrices::Placed(m) => ([&m[0], &m[1]], [&m[2]]),
        }
    }
}

/// Number of claims on z opened at the end: the lincheck's two (one per
/// point of the zerocheck's claims) and the wiring check's.
pub const OPENED_CLAIMS: usize = 3;

// Ring switching's spare entries: 128 per opened point and 128 of margin.
const _: () = assert!(SPARE_ENTRIES >= (OPENED_CLAIMS + 1) * 128);

/// Claims the lincheck batches: on `A z`, `B z` and `C z`.
pub const LINCHECK_CLAIMS: usize = 3;

/// Groups of the lincheck: `A z` and `B z` at the zerocheck's sumcheck point,
/// `C z` at its batching point.
pub const LINCHECK_GROUPS: usize = 2;

/// The shape and PCS parameters of `instances` instances of `circuit`
/// under `profile`; errors when one proof cannot hold them.
pub fn batch_params(
    circuit: &StatementCircuit,
    instances: usize,
    profile: Profile,
) -> Result<BatchParams, String> {
    let r1cs = circuit.r1cs();
    let n = log_instances(instances) as usize;
    let too_large = |e: &dyn core::fmt::Display| {
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
    let pcs = PcsParams::with_bits(shape.l() - 7, profile, pcs_bits(shape, p, profile, false))
        .and_then(|pcs| pcs.with_live_len(live_len))
        .map_err(|e| too_large(&e))?;
    let params = BatchParams {
        shape,
        p,
        pcs,
        holes: None,
    };
    meets_target(&params, profile)?;
    Ok(params)
}

/// [`batch_params`] of a zero-knowledge batch: the circuit laid out around
/// the random wires a hiding opening needs ([`crate::zk::zk_layout`]).
pub fn batch_params_zk(
    circuit: &StatementCircuit,
    instances: usize,
    profile: Profile,
) -> Result<BatchParams, String> {
    let r1cs = circuit.r1cs();
    let n = log_instances(instances) as usize;
    let layout = zk_layout(
        r1cs.used_wires().max(1),
        r1cs.k() as usize,
        r1cs.p() as usize,
        n,
        profile,
        &|shape, p| pcs_bits(shape, p, profile, true),
        &padded_messages,
    )?;
    let params = BatchParams {
        shape: layout.shape,
        p: layout.p,
        pcs: layout.pcs,
        holes: Some(layout.holes),
    };
    meets_target(&params, profile)?;
    Ok(params)
}

/// [`batch_params`] or [`batch_params_zk`].
pub fn batch_params_for(
    circuit: &StatementCircuit,
    instances: usize,
    profile: Profile,
    zk: bool,
) -> Result<BatchParams, String> {
    if zk {
        batch_params_zk(circuit, instances, profile)
    } else {
        batch_params(circuit, instances, profile)
    }
}

/// The bits the opening must reach for a batch: half the profile's error
/// budget ([`Profile::pcs_bits`]), or what the PIOP terms leave of it when
/// they take more than the other half (circuits of millions of wires, whose
/// sumchecks have many rounds).
fn pcs_bits(shape: Shape, p: usize, profile: Profile, zk: bool) -> f64 {
    let piop_error: f64 = piop_terms(shape, p, profile, zk)
        .iter()
        .map(|&(_, bits)| exp2(bits))
        .sum();
    let left = exp2(-profile.target_bits()) - piop_error;
    if left > 0.0 {
        profile.pcs_bits().max(-log2(left))
    } else {
        // Nothing is left: `meets_target` refuses the batch.
        profile.pcs_bits()
    }
}

/// Fails when the protocol's total falls short of the profile's target.
///
/// The PCS takes at least half the profile's error budget ([`pcs_bits`])
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
pub fn security(params: &BatchParams) -> SecurityReport {
    let mut r = params.pcs.security_report_with_ring_switch(OPENED_CLAIMS);
    for (name, log2) in piop_terms(
        params.shape,
        params.p,
        params.pcs.profile(),
        params.holes.is_some(),
    ) {
        r.add(name, log2);
    }
    r
}

/// The error terms of zerocheck, lincheck and wiring.
fn piop_terms(shape: Shape, p: usize, profile: Profile, zk: bool) -> Vec<(&'static str, f64)> {
    let grind = profile.piop_grinding_bits();
    let mut terms: Vec<(&'static str, f64)> = zerocheck::soundness_terms(shape, grind)
        .into_iter()
        .chain(lincheck::soundness_terms(shape, LINCHECK_CLAIMS))
        .chain(wiring::soundness_terms(shape, p, grind))
        .collect();
    if zk {
        terms.extend(zk_terms());
    }
    terms
}

/// Pads a zero-knowledge proof's messages take, in the order they take
/// them (`crate::zk::veiled::Veil`): the zerocheck's two masks, its 127
/// skip messages, two per round and two more in the last; the lincheck's
/// two per round and one per group; the wiring check's two per round and
/// its evaluation.
pub fn padded_messages(shape: Shape, p: usize) -> usize {
    let zerocheck = 2 + 127 + 2 * shape.word_vars() + 2;
    let lincheck = 2 * shape.k() + LINCHECK_GROUPS;
    let wiring = 2 * (shape.n() + p) + 1;
    zerocheck + lincheck + wiring
}

/// Constraints a zero-knowledge proof's checks become: the zerocheck's,
/// the lincheck's and the wiring check's final checks, and one per claim
/// ring switching checks.
const ZK_CONSTRAINTS: usize = 3 + OPENED_CLAIMS;

/// What zero knowledge adds to the soundness error (`docs/zk.md`):
///
/// * The zerocheck's last round has degree 5 (its masked `q` of degree 4
///   times the eq factor) instead of 3: `2/|F|` more (Lund–Fortnow–
///   Karloff–Nisan, per round `degree/|F|`).
/// * The checks are constraints on the pads, batched with the powers of
///   `xi`: a false one passes for at most `constraints - 1` values of `xi`
///   (Schwartz–Zippel on a polynomial of that degree).
/// * The pads' claim joins the opening's with a random `gamma`: a false one
///   passes for one `gamma` at most.
fn zk_terms() -> [(&'static str, f64); 3] {
    use crate::piop::soundness::log2_error;
    [
        (
            "zero knowledge: the zerocheck's masked last round, degree 5",
            log2_error(2.0, 0.0),
        ),
        (
            "zero knowledge: the checks' constraints batched with powers of xi",
            log2_error((ZK_CONSTRAINTS - 1) as f64, 0.0),
        ),
        (
            "zero knowledge: the pads' claim joined to the opening's",
            log2_error(1.0, 0.0),
        ),
    ]
}

/// Step 2 of the protocol: everything public goes in before any challenge.
pub fn bind_statement(
    transcript: &mut Transcript,
    profile: Profile,
    statement: &Statement,
    params: &BatchParams,
    commitment: &Commitment,
    host: &dyn Host,
) {
    let kind = statement.kind();
    transcript.absorb_u64(b"format version", format::VERSION as u64);
    transcript.absorb_u64(b"statement kind", u64::from(kind.code()));
    // The kind's parameters: a hash, a scheme, a Bristol circuit's text.
    transcript.absorb_bytes(b"kind parameters", &kind.params());
    transcript.absorb_u64(b"profile", profile.id() as u64);
    transcript.absorb_bytes(b"pcs parameters", &params.pcs.transcript_bytes());
    // Only a zero-knowledge batch says so: a plain proof's transcript is
    // what it was before they existed.
    if let Some(holes) = &params.holes {
        transcript.absorb_bytes(b"zero-knowledge holes", &holes.transcript_bytes());
    }
    // The digest fixes the constraint system and how the public bits are
    // split into values.
    transcript.absorb_bytes(b"circuit digest", &kind.circuit().digest());
    transcript.absorb_u64(b"count", statement.count());
    transcript.absorb_u64(b"instances", statement.instances() as u64);
    transcript.absorb_u64(b"log padded instances", params.shape.n() as u64);
    transcript.absorb_bytes(b"public values digest", &statement.public_digest_with(host));
    transcript.absorb_bytes(b"commitment", &commitment.root);
}

/// The lincheck's groups: `A0`, `B0` at the zerocheck's sumcheck point and
/// `C0` at its batching point ([`LINCHECK_GROUPS`], [`LINCHECK_CLAIMS`]).
pub fn lincheck_groups<'a, V, M: ?Sized>(
    (ab0, c0): &'a ([&'a M; 2], [&'a M; 1]),
    ab_claim: &'a LincheckClaim<V>,
    c_claim: &'a LincheckClaim<V>,
) -> [lincheck::Group<'a, V, M>; LINCHECK_GROUPS] {
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

/// Runs every check of the proof system on a decoded file: `Ok` means the
/// proof proves the statement the file carries, whatever that is. The
/// public API ([`crate::verify`], [`crate::verify_claimed`]) adds what the
/// verifier expects and the security it requires.
pub fn check(file: &ProofFile, host: &dyn Host) -> Result<(), Error> {
    check_through(file, host, &mut Veil::default())
}

/// [`check`], a zero-knowledge proof's messages reaching the verifier
/// through `veil` (a padded channel: [`Veil`] records every check as a
/// constraint; tests pass one that leaves a constraint out, to show that
/// each is needed). A plain proof's go in the clear.
pub fn check_through<C: Channel>(file: &ProofFile, host: &dyn Host, veil: &mut C) -> Result<(), Error> {
    check_and_open(file, host, veil, Transcript::new(PROTOCOL_ID)).map(drop)
}

/// [`check_through`] for the interactive protocol with a fixed verifier
/// ([`Transcript::challenge_tape`]): its challenges ignore the messages,
/// so no proof checked this way is sound. For tests that hold the
/// challenges still (a simulator's transcripts, the exact test of zero
/// knowledge: `docs/zk.md`). Returns the opened points ([`opened_points`]).
pub fn check_on_tape<C: Channel>(
    file: &ProofFile,
    host: &dyn Host,
    veil: &mut C,
) -> Result<Vec<Vec<Gf128>>, Error> {
    check_and_open(file, host, veil, Transcript::challenge_tape(PROTOCOL_ID))
}

/// [`check`], and the points `R` of the [`OPENED_CLAIMS`] claims on the
/// committed table that ring switching reduced (zero-knowledge tests check
/// that the spare random entries hide its `s_u` at them: [`SPARE_ENTRIES`]).
pub fn opened_points(file: &ProofFile, host: &dyn Host) -> Result<Vec<Vec<Gf128>>, Error> {
    check_and_open(file, host, &mut Veil::default(), Transcript::new(PROTOCOL_ID))
}

/// [`check_through`] from `transcript`, returning the opened points.
fn check_and_open<C: Channel>(
    file: &ProofFile,
    host: &dyn Host,
    veil: &mut C,
    mut transcript: Transcript,
) -> Result<Vec<Vec<Gf128>>, Error> {
    let statement = &file.statement;
    statement
        .kind()
        .check_public(statement.inputs())
        .map_err(|e| Error::invalid(Check::Statement, &e))?;
    let circuit = statement.kind().circuit();
    let params =
        batch_params_for(circuit, statement.instances(), file.profile, file.zk).map_err(Error::Malformed)?;
    let shape = params.shape;
    let proof = &file.proof;

    bind_statement(
        &mut transcript,
        file.profile,
        statement,
        &params,
        &proof.commitment,
        host,
    );
    let grind_bits = file.profile.piop_grinding_bits();
    if params.holes.is_some() {
        // Zero knowledge: every message padded, the zerocheck's product
        // masked, the constraints proved on the pads by the opening.
        let zc = zerocheck::verify_masked(shape, &proof.zerocheck, grind_bits, &mut transcript, veil)
            .map_err(|e| Error::invalid(Check::Zerocheck, &e))?;
        let pads = pad_positions(&params);
        after_zerocheck(file, &params, zc, &mut transcript, host, veil, &pads)
    } else {
        let zc = zerocheck::verify(shape, &proof.zerocheck, grind_bits, &mut transcript)
            .map_err(|e| Error::invalid(Check::Zerocheck, &e))?;
        after_zerocheck(file, &params, zc, &mut transcript, host, &mut Clear, &[])
    }
}

/// A zero-knowledge batch's free random entries (empty for a plain one):
/// ring switching's spare ones, then the pads ([`Holes::free_entries`]).
fn free_entries(params: &BatchParams) -> Vec<usize> {
    match (params.holes, params.pcs.mask_run()) {
        (Some(holes), Some(run)) => holes.free_entries(run, params.pcs.level_log_msg(0), params.shape.n()),
        _ => Vec::new(),
    }
}

/// The table entries of a zero-knowledge batch's pads, in order (empty for
/// a plain batch).
pub fn pad_positions(params: &BatchParams) -> Vec<usize> {
    let mut free = free_entries(params);
    free.split_off(SPARE_ENTRIES.min(free.len()))
}

/// The table entries kept to hide ring switching's values
/// ([`SPARE_ENTRIES`]; empty for a plain batch).
pub fn spare_positions(params: &BatchParams) -> Vec<usize> {
    let mut free = free_entries(params);
    free.truncate(SPARE_ENTRIES);
    free
}

/// The protocol after the zerocheck, its claims' values held through
/// `channel`: the lincheck, the proof of work, the wiring check, ring
/// switching and the opening. Returns the opened claims' points.
fn after_zerocheck<C: Channel>(
    file: &ProofFile,
    params: &BatchParams,
    zc: zerocheck::Output<C::Value>,
    transcript: &mut Transcript,
    host: &dyn Host,
    channel: &mut C,
    pads: &[usize],
) -> Result<Vec<Vec<Gf128>>, Error> {
    let (statement, proof, shape) = (&file.statement, &file.proof, params.shape);
    let circuit = statement.kind().circuit();
    let grind_bits = file.profile.piop_grinding_bits();
    let (ab_claim, c_claim) = (LincheckClaim::ab_from(&zc), LincheckClaim::c_from(&zc));
    let views = params.matrix_views(circuit);
    let matrices = ([&*views[0], &*views[1]], [&*views[2]]);
    let lincheck_claims = lincheck::verify_via(
        shape,
        &lincheck_groups(&matrices, &ab_claim, &c_claim),
        &proof.lincheck,
        transcript,
        channel,
    )
    .map_err(|e| Error::invalid(Check::Lincheck, &e))?;
    if !transcript.check_grind(LABEL_POW_PUBLIC, grind_bits, proof.public_nonce) {
        return Err(Error::invalid(
            Check::ProofOfWork,
            &"the nonce before the wiring check is not a valid proof of work",
        ));
    }
    let relations = params.relations(statement);
    let public_claim = wiring::verify_via(
        shape,
        params.p,
        &relations,
        &proof.wiring,
        grind_bits,
        transcript,
        host.public_rows(),
        channel,
    )
    .map_err(|e| Error::invalid(Check::Wiring, &e))?;
    let claims = [
        lincheck_claims[0].to_packed(),
        lincheck_claims[1].to_packed(),
        public_claim.to_packed(),
    ];
    bits::verify_via(
        host.hashes(),
        &params.pcs,
        &proof.commitment,
        &claims,
        &proof.opening,
        transcript,
        channel,
        pads,
    )
    .map_err(|e| Error::invalid(Check::Opening, &e))?;
    Ok(claims.into_iter().map(|c| c.point).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuits::Builtin;
    use alloc::vec;

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
                    let Ok(pcs) =
                        PcsParams::with_bits(shape.l() - 7, profile, pcs_bits(shape, k, profile, false))
                    else {
                        continue;
                    };
                    let params = BatchParams {
                        shape,
                        p: k,
                        pcs,
                        holes: None,
                    };
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
            holes: None,
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
        let level = |log_rows, log_inv_rate, queries, grinding_bits| crate::pcs::LevelParams {
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
