//! The wiring check's prover: public values and links between instances
//! reduced to one claim on `z` (DESIGN §2.2, "Wiring between instances" and
//! "Private wires"). The protocol, its relation and proof types, labels,
//! soundness terms and verifier are `starling_verifier::piop::wiring`'s
//! (its notes give the steps), re-exported here; [`Weighed`] is the
//! native verifier's weighing of the public values.

mod fold;
mod values;
mod weights;

pub use fold::{fold_wires, fold_wires_reference};
pub use starling_verifier::piop::wiring::*;
pub use values::Weighed;

use rayon::prelude::*;
use starling_crypto::Grind;
use starling_crypto::Transcript;

use crate::cover::{Cover, Fold};
use starling_field::{scratch, Gf128};
use starling_poly::multilinear::{eq_table, fold_lowest_in_place};
use starling_poly::sumcheck_round::{fold_pairs, pairs_round, product_round, QuadraticRound};

use crate::claims::{fold_instances, EvalClaim, InstanceWeights};
use crate::Shape;
use weights::{add_own_weights, add_source_weights};

/// Proves that the witness words `z` satisfy `relations`; returns the proof
/// and the claim `z(r, s)` for the opening. The caller has bound the
/// statement (which fixes the relations) in the transcript. Panics on
/// relations that do not fit `shape` and `p` (a prover-side bug).
pub fn prove(
    shape: Shape,
    p: usize,
    relations: &[Relation<'_>],
    z: &[u64],
    grinding_bits: u32,
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
) -> (Proof, EvalClaim) {
    check(shape, p, relations).expect("relations that fit the shape");
    let ch = challenges(shape, relations, transcript);
    let runs = runs(relations);
    // Step 2: the folds G_g and the weights W_g.
    let eq_rho = eq_table(&ch.rho_y);
    // The runs side by side, each split over instances too, so that threads
    // done with one run's tasks take another's.
    let mut tables: Vec<(Vec<Gf128>, Vec<Gf128>)> = runs
        .runs
        .par_iter()
        .map(|&run| {
            let g = fold_wires(shape, z, run.base, &wire_weights(run, &ch.rho_w));
            (scratch::filled(1 << shape.n(), Gf128::ZERO), g)
        })
        .collect();
    for ((rel, &(own, from)), &lambda) in relations.iter().zip(&runs.of).zip(&ch.lambda) {
        add_own_weights(&rel.instances, &eq_rho, lambda, &mut tables[own].0);
        if let (Some((source, _)), Some(from)) = (&rel.from, from) {
            add_source_weights(&rel.instances, source, &eq_rho, lambda, &mut tables[from].0);
        }
    }
    // Step 3: the instance sumcheck.
    let mut rounds = Vec::with_capacity(shape.n() + p);
    let mut nonces = Vec::new();
    let mut challenge = |round: QuadraticRound, transcript: &mut Transcript, cover: &mut dyn Cover| {
        let sent = QuadraticRound {
            c0: cover.cover(round.c0),
            c2: cover.cover(round.c2),
        };
        transcript.absorb_fields(LABEL_ROUND, &[sent.c0, sent.c2]);
        if grinding_bits > 0 {
            nonces.push(transcript.grind(LABEL_POW_R, grinding_bits));
        }
        rounds.push(sent);
        transcript.challenge_field(LABEL_R)
    };
    let mut r = Vec::with_capacity(shape.n());
    for _ in 0..shape.n() {
        let x = challenge(pairs_round(&tables), transcript, cover);
        fold_pairs(&mut tables, x);
        r.push(x);
    }
    // Step 4: the wire sumcheck over the public block.
    let weights_at_r: Vec<Gf128> = tables.iter().map(|(w, _)| w[0]).collect();
    let mut m = block_weights(&runs.runs, &weights_at_r, &ch.rho_w, p);
    let instance_weights = InstanceWeights::from_point(&r);
    let mut zr = fold_instances(shape, &z[..shape.words_per_wire() << p], &instance_weights);
    cover.fold(Fold::Wiring, &m, &mut zr);
    let mut s = Vec::with_capacity(p);
    for _ in 0..p {
        let x = challenge(product_round(&m, &zr), transcript, cover);
        fold_lowest_in_place(&mut m, x);
        fold_lowest_in_place(&mut zr, x);
        s.push(x);
    }
    let z_eval = zr[0];
    let z_sent = cover.cover(z_eval);
    transcript.absorb_field(LABEL_EVAL, z_sent);
    s.resize(shape.k(), Gf128::ZERO);
    let claim = EvalClaim {
        weights: instance_weights,
        wire_point: s,
        value: z_eval,
    };
    (
        Proof {
            rounds,
            nonces,
            z_eval: z_sent,
        },
        claim,
    )
}

#[cfg(test)]
mod tests;
