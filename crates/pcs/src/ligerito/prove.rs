//! The prover side of the opening.

use starling_crypto::merkle::hash_leaf_fields;
use starling_crypto::{Digest, Transcript};
use starling_field::Gf128;
use starling_poly::reed_solomon::ReedSolomon;

use super::*;
use crate::commit::{CommittedLevel, ProverData};
use crate::pow;
use crate::sumcheck::{fold, fold_in_place, product_round};
use crate::PcsError;

/// Proves `sum_x f(x) weights[x] = claim` for the committed `f`.
pub fn prove(
    params: &PcsParams,
    data: &ProverData,
    weights: Vec<Gf128>,
    claim: Gf128,
    transcript: &mut Transcript,
) -> Result<Proof, PcsError> {
    let n = 1usize << params.num_vars();
    if data.table.len() != n {
        return Err(PcsError::TableSize {
            got: data.table.len(),
            want: n,
        });
    }
    if weights.len() != n {
        return Err(PcsError::BadInput("weight table length must be 2^num_vars"));
    }
    let commitment = Commitment {
        root: data.level0.tree.root(),
    };
    absorb_statement(transcript, params, &commitment, claim);

    let levels = params.levels();
    let mut w = weights;
    let mut folded: Vec<Gf128> = Vec::new();
    let mut started = false;
    let mut next_level: Option<CommittedLevel> = None;
    let mut level_proofs = Vec::with_capacity(levels.len());

    for (i, lp) in levels.iter().enumerate() {
        let current = next_level.take();
        let level = current.as_ref().unwrap_or(&data.level0);
        let mut rounds = Vec::with_capacity(lp.log_rows);
        let mut pow_nonces = Vec::new();
        for _ in 0..lp.log_rows {
            let round = if started {
                product_round(&folded, &w)
            } else {
                product_round(&data.table, &w)
            };
            absorb_round(transcript, &round);
            if lp.grinding_bits > 0 {
                let nonce = pow::grind(&transcript.state(), lp.grinding_bits);
                transcript.absorb_u64(LABEL_POW, nonce);
                pow_nonces.push(nonce);
            }
            let s = transcript.challenge_field(LABEL_FOLD);
            if started {
                fold_in_place(&mut folded, s);
            } else {
                folded = fold(&data.table, s);
                started = true;
            }
            fold_in_place(&mut w, s);
            rounds.push(round);
        }

        let last = i + 1 == levels.len();
        let next_root = if last {
            transcript.absorb_fields(LABEL_FINAL, &folded);
            None
        } else {
            let nl = levels[i + 1];
            let committed = CommittedLevel::new(&folded, nl.log_rows, nl.log_inv_rate);
            let root = committed.tree.root();
            transcript.absorb_bytes(LABEL_NEXT_ROOT, &root);
            next_level = Some(committed);
            Some(root)
        };

        let positions = query_positions(transcript, params, i);
        let mut columns = Vec::with_capacity(positions.len() << lp.log_rows);
        let mut hashes: Vec<Digest> = Vec::with_capacity(positions.len());
        for &q in &positions {
            let col = level.column(q);
            hashes.push(hash_leaf_fields(col));
            columns.extend_from_slice(col);
        }
        let merkle = level.tree.open(&positions);
        absorb_leaf_hashes(transcript, &hashes);

        if !last {
            let coefs = transcript.challenge_fields(LABEL_BETA, positions.len());
            let m = params.level_log_msg(i);
            let code = ReedSolomon::new(m, lp.log_inv_rate);
            let mut sparse = vec![Gf128::ZERO; 1 << code.log_len()];
            for (&q, &c) in positions.iter().zip(&coefs) {
                sparse[q] = c;
            }
            for (a, g) in w.iter_mut().zip(code.encode_transposed(&sparse)) {
                *a += g;
            }
        }
        level_proofs.push(LevelProof {
            rounds,
            pow_nonces,
            next_root,
            columns,
            merkle,
        });
    }

    let final_message = folded.clone();
    let mut final_rounds = Vec::with_capacity(params.final_log_len());
    for _ in 0..params.final_log_len() {
        let round = product_round(&folded, &w);
        absorb_round(transcript, &round);
        let s = transcript.challenge_field(LABEL_FOLD);
        fold_in_place(&mut folded, s);
        fold_in_place(&mut w, s);
        final_rounds.push(round);
    }
    Ok(Proof {
        levels: level_proofs,
        final_message,
        final_rounds,
    })
}
