//! The proof system end to end: prover and verifier of a batch statement.
//!
//! Order of messages (DESIGN §2.3): commit to the packed witness; bind the
//! statement and the commitment root; zerocheck of `(A z) ∘ (B z) = C z`;
//! lincheck of its claims on `A z`, `B z` (one point) and `C z` (another);
//! the wiring check (public values, links between instances); ring
//! switching and one batched opening of the three claims on z.

use std::cell::RefCell;
use std::sync::Arc;

use rand::Rng;
use rand_chacha::ChaCha20Rng;
use starling_circuit::layout::{slice_instances, unslice_instances};
use starling_circuit::{a_from_b, Placement, R1cs, R1csWitness, Tables};
use starling_crypto::{Grind, Transcript};
use starling_field::scratch::{self, ScratchVec};
use starling_field::{Gf128, Gf128Slices};
use starling_pcs::bits;
use starling_piop::cover::{Cover, Fold, Padded, Plain};
use starling_piop::lincheck::{self, LincheckClaim};
use starling_piop::{wiring, zerocheck};
use starling_verifier::format;
use starling_verifier::protocol::{
    batch_params_for, bind_statement, lincheck_groups, pad_positions, BatchParams, Proof, LABEL_POW_PUBLIC,
    PROTOCOL_ID,
};
use starling_verifier::zk::veiled::Veil;
use starling_verifier::zk::Holes;
use starling_verifier::Host;

use crate::host::Native;
use crate::kind::{prover_of, Kind};
use crate::tamper::{add_to_random_entries, edit_circuit_wires, matrix_words_into, Cheat};
pub(crate) use crate::tamper::{EvaluationsTamper, MessageCheat, Tamper};
use crate::timings::Phase;
use crate::{Error, Profile, ProofFile, ProveOptions, Randomness, Records, Statement, Timings};

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
/// buffers once instead of once per proof. The buffers (about twice the
/// committed table) stay with the process between proofs.
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
///
/// `options` is a [`Profile`] for a plain proof, or [`ProveOptions`] for a
/// zero-knowledge one ([`ProveOptions::zero_knowledge`]); a kind whose
/// private records are secrets ([`Kind::requires_zero_knowledge`]) is
/// proved with zero knowledge either way.
pub fn prove(
    kind: Arc<dyn Kind>,
    inputs: Records,
    options: impl Into<ProveOptions>,
    progress: &mut dyn FnMut(&Phase),
) -> Result<Proved, Error> {
    prove_private(kind, inputs, Records::new(), options, progress)
}

/// [`prove`] for a kind with private input records ([`Kind::has_private_inputs`]:
/// a signature batch's signatures), one per public record, in order. The
/// proof file carries only the public records and the outputs.
pub fn prove_private(
    kind: Arc<dyn Kind>,
    inputs: Records,
    private: Records,
    options: impl Into<ProveOptions>,
    progress: &mut dyn FnMut(&Phase),
) -> Result<Proved, Error> {
    let ProveOptions { profile, zk } = options.into();
    prove_with(kind, inputs, private, profile, zk, progress, &Tamper::default())
}

/// Proves the statement; with `zk`, laid out for zero knowledge
/// (`batch_params_zk`: random wires from the generator, a hiding opening).
/// A kind that [`Kind::requires_zero_knowledge`] is laid out so without
/// `zk` too, its randomness from the operating system.
pub(crate) fn prove_with(
    kind: Arc<dyn Kind>,
    inputs: Records,
    private: Records,
    profile: Profile,
    zk: Option<Randomness>,
    progress: &mut dyn FnMut(&Phase),
    tamper: &Tamper<'_>,
) -> Result<Proved, Error> {
    let zk = zk.or_else(|| (kind.requires_zero_knowledge() && !tamper.plain).then_some(Randomness::Os));
    crate::inputs::check_not_empty(kind.as_ref(), &inputs)?;
    if inputs.len() as u64 > format::MAX_INSTANCES {
        return Err(Error::Input(format!(
            "at most {} input records per proof",
            format::MAX_INSTANCES
        )));
    }
    kind.shape(&inputs).map_err(Error::Input)?;
    let wants = if kind.has_private_inputs() {
        kind.private_records(&inputs)
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
    let params = batch_params_for(&circuit, instances, profile, zk.is_some()).map_err(Error::Input)?;
    let mut rng = zk.map(Randomness::generator).transpose()?;
    let n = params.shape.n() as u32;
    let r1cs = circuit.r1cs();

    // The witness is written straight into the buffer the PCS commits to,
    // every entry up to the committed table's live length: recycled buffers
    // need no clearing there. Past it (the circuit's unused wires) the
    // buffers are zero and never written, so their pages there take no
    // memory. Its linear forms `a = Az`, `b = Bz` are written after the
    // commitment, over its buffer, for the zerocheck, and the witness again
    // after it ([`Forms::Written`]): the prover holds two tables at a time,
    // not three. The commitment holds only a few rows of its codeword at a
    // time.
    let (table_len, live) = (params.shape.num_words() / 2, params.pcs.live_len());
    let mut packed = scratch::take_field_zero_past(table_len, live);
    let passes = timings.phase("witness", progress, || {
        if let Some(f) = tamper.instances {
            f(&mut rows);
        }
        // Padding instances: all-zero inputs.
        rows.resize((1usize << n) * circuit.input_words(), 0);
        let sliced = slice_instances(1 << n, circuit.input_bits(), &rows);
        let placement = match (params.holes, rng.as_mut()) {
            (Some(holes), Some(rng)) => {
                let mut hole_words = vec![0u64; holes.positions().count() * params.shape.words_per_wire()];
                rng.fill(&mut hole_words[..]);
                add_to_random_entries(
                    holes,
                    params.shape.words_per_wire(),
                    tamper.entries,
                    &mut hole_words,
                )?;
                Some((holes, hole_words))
            }
            _ => None,
        };
        let passes = WitnessPasses {
            r1cs,
            n,
            k: params.shape.k(),
            sliced,
            placement,
        };
        passes.write(Tables {
            z: Some(Gf128::as_u64_words_mut(&mut packed)),
            forms: None,
            b_and_stored: None,
        })?;
        Ok::<_, Error>(passes)
    })?;
    // The instances' rows are in the table now.
    drop(rows);
    let outputs = timings.phase("outputs", progress, || {
        let per_wire = params.shape.words_per_wire();
        let z = Gf128::as_u64_words(&packed);
        // The output wires are consecutive, but a zero-knowledge batch's
        // holes may cut them: gathered wire by wire there.
        let gathered: Vec<u64>;
        let sliced = match params.holes {
            None => {
                let first = r1cs.public_output_wire(0) * per_wire;
                &z[first..first + circuit.output_bits() * per_wire]
            }
            Some(holes) => {
                gathered = (0..circuit.output_bits())
                    .flat_map(|j| {
                        let at = holes.position(r1cs.public_output_wire(j)) * per_wire;
                        z[at..at + per_wire].iter().copied()
                    })
                    .collect();
                &gathered[..]
            }
        };
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
    // A tampered witness's forms are computed from it, as a careless
    // prover's would be, and held from the start; so is `C z`, which for a
    // generated witness is the AND of its forms, row by row.
    let forms = match tamper.witness {
        None => Forms::Written(&passes),
        Some(f) => {
            let per_wire = params.shape.words_per_wire();
            let [mut a, mut b] = [(); 2].map(|_| scratch::take_field(table_len));
            // The edit may reach the table's zero tail.
            packed.wrote_below(table_len);
            let z = Gf128::as_u64_words_mut(&mut packed);
            let [a_words, b_words] = [&mut a, &mut b].map(|v| Gf128::as_u64_words_mut(v));
            let c = match params.holes {
                None => {
                    f(z);
                    r1cs.linear_forms_into(per_wire, z, a_words, b_words);
                    CSource::Table
                }
                Some(holes) => {
                    edit_circuit_wires(holes, r1cs, per_wire, z, f)?;
                    let matrices = params.lincheck_matrices(&circuit);
                    let ([a_matrix, b_matrix], [c_matrix]) = matrices.groups();
                    let mut c = vec![0u64; z.len()];
                    for (m, out) in [(a_matrix, a_words), (b_matrix, b_words), (c_matrix, &mut c[..])] {
                        matrix_words_into(m, per_wire, z, out);
                    }
                    CSource::Given(c)
                }
            };
            Forms::Held { a, b, c }
        }
    };
    let honesty = Honesty {
        message: tamper.message,
        leave_out: tamper.leave_out,
        evaluations: tamper.evaluations,
        fold: tamper.fold,
        tape: tamper.tape,
        simulated: tamper.simulated,
        pads_out: tamper.pads_out,
    };
    prove_statement(statement, &params, packed, forms, honesty, rng, progress, timings)
}

/// What the prover needs to write the witness's tables again: the
/// bit-sliced instance inputs and, with zero knowledge, the random wires'
/// words.
struct WitnessPasses<'a> {
    r1cs: &'a R1cs,
    n: u32,
    /// `log2` of the tables' rows.
    k: usize,
    sliced: Vec<u64>,
    placement: Option<(Holes, Vec<u64>)>,
}

impl WitnessPasses<'_> {
    /// Writes the tables asked for: the same entries every time.
    fn write(&self, tables: Tables<'_>) -> Result<(), Error> {
        let placement = self.placement.as_ref().map(|(holes, hole_words)| Placement {
            holes: *holes,
            k: self.k,
            hole_words,
        });
        self.r1cs
            .generate_tables_into(self.n, &self.sliced, &[], placement, tables)
            .map_err(|e| Error::Internal(format!("witness: {e}")))
    }
}

/// Where the zerocheck's forms `a = A z` and `b = B z` come from.
enum Forms<'a> {
    /// Written after the commitment over the committed table's buffer,
    /// which the table's own pass then takes back after the zerocheck. The
    /// generated witness satisfies the constraints row by row, so `C z` is
    /// the AND of its forms.
    Written(&'a WitnessPasses<'a>),
    /// Held from the start, and `c = C z` from `c`: a tampered witness's.
    Held {
        a: ScratchVec,
        b: ScratchVec,
        c: CSource,
    },
}

/// How the prover departs from the protocol (a cheating prover's tests):
/// a padded message changed, and the zerocheck's evaluations changed (a
/// tampered witness is [`Forms::Held`]).
struct Honesty<'a> {
    message: Option<(usize, MessageCheat)>,
    leave_out: &'a [usize],
    evaluations: Option<EvaluationsTamper<'a>>,
    fold: Option<Fold>,
    tape: bool,
    simulated: Option<&'a [Gf128]>,
    pads_out: Option<&'a RefCell<Vec<Gf128>>>,
}

/// How the zerocheck gets a tampered witness's `c = C z`.
enum CSource {
    /// From the committed table and the addends' rows.
    Table,
    /// Given: a tampered zero-knowledge table's (the circuit's addends do
    /// not name its wires' places).
    Given(Vec<u64>),
}

/// Commits to the witness (bit-packed in `packed`) and proves that it
/// satisfies the circuit (its linear forms `a`, `b`, bit-packed like it,
/// from `forms`) and agrees with `statement`.
#[allow(clippy::too_many_arguments)]
fn prove_statement(
    statement: Statement,
    params: &BatchParams,
    packed: ScratchVec,
    forms: Forms<'_>,
    honesty: Honesty<'_>,
    mut rng: Option<ChaCha20Rng>,
    progress: &mut dyn FnMut(&Phase),
    mut timings: Timings,
) -> Result<Proved, Error> {
    let profile = params.pcs.profile();
    let circuit = statement.kind().circuit().clone();
    let shape = params.shape;

    let mut transcript = if honesty.tape {
        Transcript::challenge_tape(PROTOCOL_ID)
    } else {
        Transcript::new(PROTOCOL_ID)
    };
    let (commitment, prover_data) = timings.phase("commit", progress, || {
        let (commitment, data) = match rng.as_mut() {
            Some(rng) => starling_pcs::commit_hiding(&params.pcs, packed, rng),
            None => starling_pcs::commit(&params.pcs, packed),
        }
        .map_err(|e| Error::Internal(format!("commit: {e}")))?;
        bind_statement(&mut transcript, profile, &statement, params, &commitment, &Native);
        Ok::<_, Error>((commitment, data))
    })?;
    let r1cs = circuit.r1cs();

    // The table's zero tail (the circuit's unused wires) is left out of the
    // zerocheck's passes and the lincheck's folds over the instances.
    let live_words = (2 * params.pcs.live_len())
        .next_multiple_of(shape.words_per_wire())
        .min(2 * prover_data.table().len());
    let grind_bits = profile.piop_grinding_bits();
    // Zero knowledge: every message padded with the pads' values, and the
    // verifier's own pass over each step replayed, through its channel, for
    // the constraints the opening proves (one definition of them).
    let pads = pad_positions(params);
    let mut padded = Padded::new(pads.iter().map(|&x| prover_data.table()[x]).collect());
    if let Some(out) = honesty.pads_out {
        *out.borrow_mut() = pads.iter().map(|&x| prover_data.table()[x]).collect();
    }
    let mut plain = Plain;
    let zk = params.holes.is_some();
    let cover: &mut dyn Cover = if zk { &mut padded } else { &mut plain };
    let mut cheat;
    let cheats = honesty.message.is_some()
        || honesty.evaluations.is_some()
        || honesty.fold.is_some()
        || honesty.simulated.is_some();
    let cover: &mut dyn Cover = if cheats {
        cheat = Cheat::new(
            cover,
            honesty.message,
            honesty.evaluations,
            honesty.fold,
            honesty.simulated,
        );
        &mut cheat
    } else {
        cover
    };
    let mut veil = zk.then(|| Veil::leaving_out(honesty.leave_out));
    let replayed = |t: &Transcript, before: Transcript| -> Result<Transcript, Error> {
        if t.state() != before.state() {
            return Err(Error::Internal(
                "the verifier's replay drew other challenges".into(),
            ));
        }
        Ok(before)
    };
    let before = transcript.clone();
    // The forms, like `z`, are zero past the used wires (no row there has
    // terms). Written here, they take the committed table's buffer, which
    // the table's own pass takes back after the zerocheck (the time of both
    // passes is the zerocheck's).
    let (table_len, live) = (prover_data.table().len(), params.pcs.live_len());
    let written = match forms {
        Forms::Written(passes) => Some(passes),
        Forms::Held { .. } => None,
    };
    // Where `A`'s rows are `B`'s (Keccak-f), the zerocheck reads `a` out of
    // `b` and the few rows of `a` stored beside it: one table, not two (a
    // zero-knowledge table's rows sit around its holes, and it keeps both;
    // a small batch's tables are too short to share a buffer). The opening
    // then folds over the table's own buffer, its weight computed twice
    // and the table written again, so that it holds one table too: 6% of a
    // 2^18 Keccak-f proof's time on two Xeon cores (BENCHMARKS.md), spent
    // only where it lowers the peak (with two tables in the zerocheck, two
    // in the opening are no more).
    let one_table = written
        .filter(|_| !zk && zerocheck::reads_a_from_b(shape, live_words))
        .and_then(|_| a_from_b(r1cs));
    let (zerocheck_proof, zc, prover_data) = timings.phase("zerocheck", progress, || {
        let mut prove = |a: &mut [Gf128], b: &mut [Gf128], c| {
            zerocheck::prove_in_place(
                shape,
                a,
                b,
                c,
                live_words,
                grind_bits,
                &mut transcript,
                &mut *cover,
            )
        };
        match forms {
            Forms::Written(passes) => {
                let (mut b, aside) = prover_data.set_table_aside();
                let (proof, zc) = match one_table {
                    Some(rule) => {
                        let words = rule.stored().len() * shape.words_per_wire();
                        let mut stored = scratch::take_field(words.div_ceil(2));
                        passes.write(Tables {
                            z: None,
                            forms: None,
                            b_and_stored: Some((
                                Gf128::as_u64_words_mut(&mut b),
                                &mut Gf128::as_u64_words_mut(&mut stored)[..words],
                                rule,
                            )),
                        })?;
                        let out = zerocheck::prove_in_place_from_b(
                            shape,
                            rule,
                            &mut stored,
                            &mut b,
                            zerocheck::CWords::AndOfForms,
                            live_words,
                            grind_bits,
                            &mut transcript,
                            &mut *cover,
                        );
                        scratch::recycle_field(stored);
                        out
                    }
                    None => {
                        let mut a = scratch::take_field_zero_past(table_len, live);
                        passes.write(Tables {
                            z: None,
                            forms: Some((Gf128::as_u64_words_mut(&mut a), Gf128::as_u64_words_mut(&mut b))),
                            b_and_stored: None,
                        })?;
                        let out = prove(&mut a, &mut b, zerocheck::CWords::AndOfForms);
                        scratch::recycle_field(a);
                        out
                    }
                };
                // The zerocheck folded the forms in place below the live
                // part: the witness's pass writes every entry there again.
                passes.write(Tables {
                    z: Some(Gf128::as_u64_words_mut(&mut b)),
                    forms: None,
                    b_and_stored: None,
                })?;
                let data = aside
                    .with_table(b)
                    .map_err(|e| Error::Internal(format!("commit: {e}")))?;
                Ok::<_, Error>((proof, zc, data))
            }
            Forms::Held { mut a, mut b, c } => {
                // `c = C z` is read once, by the skip pass, a chunk at a
                // time, computed from the table rather than held as a
                // third vector.
                let z = Gf128::as_u64_words(prover_data.table());
                let fill =
                    |start: usize, out: &mut [u64]| r1cs.c_words_into(shape.words_per_wire(), z, start, out);
                let c = match &c {
                    CSource::Table if r1cs.has_addends() => zerocheck::CWords::Computed(&fill),
                    CSource::Table => zerocheck::CWords::Stored(z),
                    CSource::Given(c) => zerocheck::CWords::Stored(c),
                };
                let (proof, zc) = prove(&mut a, &mut b, c);
                scratch::recycle_field(a);
                scratch::recycle_field(b);
                Ok((proof, zc, prover_data))
            }
        }
    })?;
    let z = Gf128::as_u64_words(prover_data.table());
    let zc_held = match veil.as_mut() {
        Some(v) => {
            let mut t = before;
            let out = zerocheck::verify_masked(shape, &zerocheck_proof, grind_bits, &mut t, v)
                .map_err(|e| Error::Internal(format!("zerocheck replay: {e}")))?;
            replayed(&transcript, t)?;
            Some(out)
        }
        None => None,
    };
    let (ab_claim, c_claim) = (LincheckClaim::ab_from(&zc), LincheckClaim::c_from(&zc));
    let matrices = params.lincheck_matrices(&circuit);
    let before = transcript.clone();
    let (lincheck_proof, lincheck_claims) = timings.phase("lincheck", progress, || {
        lincheck::prove(
            shape,
            &lincheck_groups(&matrices.groups(), &ab_claim, &c_claim),
            &z[..live_words],
            &mut transcript,
            &mut *cover,
        )
    });
    let lincheck_held = match (veil.as_mut(), &zc_held) {
        (Some(v), Some(zc)) => {
            let mut t = before;
            let (ab, c) = (LincheckClaim::ab_from(zc), LincheckClaim::c_from(zc));
            let out = lincheck::verify_via(
                shape,
                &lincheck_groups(&matrices.groups(), &ab, &c),
                &lincheck_proof,
                &mut t,
                v,
            )
            .map_err(|e| Error::Internal(format!("lincheck replay: {e}")))?;
            replayed(&transcript, t)?;
            out
        }
        _ => Vec::new(),
    };
    let public_nonce = transcript.grind(LABEL_POW_PUBLIC, grind_bits);
    let relations = params.relations(&statement);
    let before = transcript.clone();
    let (wiring_proof, public_claim) = timings.phase("wiring", progress, || {
        wiring::prove(
            shape,
            params.p,
            &relations,
            z,
            grind_bits,
            &mut transcript,
            &mut *cover,
        )
    });
    let public_held = match veil.as_mut() {
        Some(v) => {
            let mut t = before;
            let out = wiring::verify_via(
                shape,
                params.p,
                &relations,
                &wiring_proof,
                grind_bits,
                &mut t,
                Native.public_rows(),
                v,
            )
            .map_err(|e| Error::Internal(format!("wiring replay: {e}")))?;
            replayed(&transcript, t)?;
            Some(out)
        }
        None => None,
    };
    // The relations borrow the statement, which the file takes.
    drop(relations);
    let claims = [
        lincheck_claims[0].to_packed(),
        lincheck_claims[1].to_packed(),
        public_claim.to_packed(),
    ];
    // After a zerocheck over one table, the opening's first fold takes the
    // table's buffer and the prover writes the table again
    // (`bits::prove_over`): one table-sized buffer through the opening too.
    let rewriter = written.filter(|_| one_table.is_some());
    let (opening, prover_data) = timings.phase("open", progress, || {
        if let Some(passes) = rewriter {
            let (table, aside) = prover_data.set_table_aside();
            let failed = std::sync::Mutex::new(None);
            let rewrite = |out: &mut [Gf128]| {
                let z = Gf128::as_u64_words_mut(out);
                if let Err(e) = passes.write(Tables {
                    z: Some(z),
                    forms: None,
                    b_and_stored: None,
                }) {
                    *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            };
            let opened = bits::prove_over(&params.pcs, table, aside, &claims, &mut transcript, &rewrite);
            if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
                return (Err(e), None);
            }
            return match opened {
                Ok((proof, data)) => (Ok(proof), Some(data)),
                Err(e) => (Err(Error::Internal(format!("opening: {e}"))), None),
            };
        }
        let opening = match (veil.as_mut(), public_held) {
            (Some(v), Some(public)) => {
                let held = [
                    lincheck_held[0].to_packed(),
                    lincheck_held[1].to_packed(),
                    public.to_packed(),
                ];
                bits::prove_via(
                    &params.pcs,
                    &prover_data,
                    &claims,
                    &held,
                    &mut transcript,
                    v,
                    &pads,
                )
            }
            _ => bits::prove(&params.pcs, &prover_data, &claims, &mut transcript),
        }
        .map_err(|e| Error::Internal(format!("opening: {e}")));
        (opening, Some(prover_data))
    });
    // The proof's large buffers are free now: the table joins the others in
    // the pool, which is dropped unless the process keeps it for its next
    // proof (`scratch::keep_between_uses`).
    if let Some(data) = prover_data {
        scratch::recycle_field(data.into_table());
    }
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
            zk: params.holes.is_some(),
            statement,
            proof,
        },
        timings,
    })
}
