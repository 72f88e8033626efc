//! The verifier side of the opening: scalar and single-threaded.

use alloc::vec::Vec;

use super::*;
use crate::merkle::{self, Hashes, OneByOne};
use crate::pcs::PcsError;
use crate::poly::novel_basis::generator_row_mle;
use crate::poly::{eq_at_index, eq_table, evaluate};
use crate::{Gf128, Transcript};

/// The query checks of one level folded into the weight: `(q, beta_q)`.
struct WeightUpdate {
    offset: usize,
    log_msg: usize,
    /// The code reads the message's index XORed with this (a hiding
    /// opening's level 0), so `G_q`'s coordinates there are complemented.
    relabel: usize,
    terms: Vec<(usize, Gf128)>,
}

/// Checks a proof of `sum_x f(x) w(x) = claim` for the committed `f`, where
/// `weight(P)` returns the multilinear extension of `w` at `P` (length `L`).
pub fn verify(
    params: &PcsParams,
    commitment: &Commitment,
    claim: Gf128,
    weight: &dyn Fn(&[Gf128]) -> Gf128,
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<(), PcsError> {
    verify_with(&OneByOne, params, commitment, claim, weight, proof, transcript)
}

/// [`verify`], with the opened columns' and Merkle nodes' hashes computed
/// by `hashes`.
pub fn verify_with(
    hashes: &dyn Hashes,
    params: &PcsParams,
    commitment: &Commitment,
    claim: Gf128,
    weight: &dyn Fn(&[Gf128]) -> Gf128,
    proof: &Proof,
    transcript: &mut Transcript,
) -> Result<(), PcsError> {
    let levels = params.levels();
    check_shape(params, proof)?;
    absorb_statement(transcript, params, commitment, claim);

    let mut claim = claim;
    // A hiding opening's row mask: `l`, then `G`, then `rho`.
    let row_mask = match (params.mask_run(), proof.mask_sum) {
        (Some(run), Some(g)) => {
            let l = RowForms::draw(transcript, levels[0].log_rows - 1);
            let rho = mask_challenge(transcript, g);
            claim += rho * g;
            Some((run, l, rho))
        }
        (None, None) => None,
        _ => {
            return Err(PcsError::Malformed(
                "the row-mask sum does not match the parameters",
            ))
        }
    };
    let mut point: Vec<Gf128> = Vec::with_capacity(params.num_vars());
    let mut root = commitment.root;
    let mut updates: Vec<WeightUpdate> = Vec::new();

    for (i, (lp, pr)) in levels.iter().zip(&proof.levels).enumerate() {
        let mut s = Vec::with_capacity(lp.log_rows);
        for (r, round) in pr.rounds.iter().enumerate() {
            absorb_round(transcript, round);
            if lp.grinding_bits > 0 {
                let nonce = pr.pow_nonces[r];
                if !transcript.check_grind(LABEL_POW, lp.grinding_bits, nonce) {
                    return Err(PcsError::ProofOfWork { level: i });
                }
            }
            let c = transcript.challenge_field(LABEL_FOLD);
            claim = round.next_claim(claim, c);
            s.push(c);
        }
        point.extend_from_slice(&s);

        let last = i + 1 == levels.len();
        match pr.next_root {
            Some(r) => transcript.absorb_bytes(LABEL_NEXT_ROOT, &r),
            None => transcript.absorb_fields(LABEL_FINAL, &proof.final_message),
        }

        if let Some(nonce) = pr.query_nonce {
            // check_shape guarantees the level grinds here.
            if !transcript.check_grind(LABEL_QUERY_POW, lp.query_grinding_bits, nonce) {
                return Err(PcsError::ProofOfWork { level: i });
            }
        }
        let positions = query_positions(transcript, params, i);
        let width = params.level_width(i);
        if pr.columns.len() != positions.len() * width {
            return Err(PcsError::QueryCount {
                level: i,
                got: pr.columns.len() / width,
                want: positions.len(),
            });
        }
        let leaves = hashes.leaves(&pr.columns, width);
        merkle::verify_with(
            hashes,
            &root,
            params.level_log_len(i),
            &positions,
            &leaves,
            &pr.merkle,
        )
        .map_err(|source| PcsError::Merkle { level: i, source })?;
        absorb_leaf_hashes(transcript, &leaves);

        // c_q = sum_row eq(s, row) column_q[row] = Enc(y_i)[q] for an honest
        // prover; the rows past the column's width are zero. A hiding
        // opening's level 0 ends its columns with `M` (row `2^k`, `k` the
        // data row variables) and the salt, which is not the polynomial's.
        let eq = eq_table(&s);
        let hiding_level = i == 0 && row_mask.is_some();
        let combined: Vec<Gf128> = pr
            .columns
            .chunks_exact(width)
            .map(|col| {
                if hiding_level {
                    let data = width - 2;
                    let rows: Gf128 = col[..data].iter().zip(&eq).map(|(a, b)| *a * *b).sum();
                    rows + col[data] * eq[eq.len() / 2]
                } else {
                    col.iter().zip(&eq).map(|(a, b)| *a * *b).sum()
                }
            })
            .collect();

        // Folded into the claim with independent coefficients, the last
        // level's checks too: with `y_last` in the clear, checking them one by
        // one would cost the verifier an encoding of `y_last` (an NTT of
        // `2^(m + R)` points), the weight costs `O(m)` per query.
        let coefs = transcript.challenge_fields(LABEL_BETA, positions.len());
        for (&c, &b) in combined.iter().zip(&coefs) {
            claim += b * c;
        }
        updates.push(WeightUpdate {
            offset: params.level_offset(i) + lp.log_rows,
            log_msg: params.level_log_msg(i),
            relabel: if hiding_level {
                row_mask.as_ref().map_or(0, |m| m.0.offset)
            } else {
                0
            },
            terms: positions.iter().copied().zip(coefs).collect(),
        });
        if !last {
            // check_shape guarantees the root is present here.
            root = pr.next_root.ok_or(PcsError::Malformed("missing level root"))?;
        }
    }

    for round in &proof.final_rounds {
        absorb_round(transcript, round);
        let c = transcript.challenge_field(LABEL_FOLD);
        claim = round.next_claim(claim, c);
        point.push(c);
    }

    let tail = &point[params.num_vars() - params.final_log_len()..];
    let y = evaluate(&proof.final_message, tail);
    // Level 0's rounds bound the table's top `k_0` variables, every later
    // round the rest from the lowest up: the table's point is the rotation.
    // A hiding opening's last level-0 round bound `T`, above the data table.
    let k0 = levels[0].log_rows;
    let data_rows = k0 - usize::from(row_mask.is_some());
    let table_point: Vec<Gf128> = point[k0..].iter().chain(&point[..data_rows]).copied().collect();
    let mut w = weight(&table_point);
    if let Some((run, l, rho)) = &row_mask {
        // The row mask's weight is `rho l(r)` at entry `pi` of the committed
        // data rows only (the prover's table is zero past them, and so is
        // its weight there).
        let (msg, rows) = table_point.split_at(params.level_log_msg(0));
        for (e, pi) in run.row_mask_entries().into_iter().enumerate() {
            let mask: Gf128 = (0..params.level0_data_rows())
                .map(|r| l.at(e, r) * eq_at_index(rows, r))
                .sum();
            w += *rho * mask * eq_at_index(msg, pi);
        }
        w *= Gf128::ONE + point[data_rows];
    }
    for u in &updates {
        let sub = &point[u.offset..];
        for &(q, b) in &u.terms {
            w += b * generator_row_mle_relabelled(u.log_msg, q as u64, sub, u.relabel);
        }
    }
    if claim != y * w {
        return Err(PcsError::FinalCheck);
    }
    Ok(())
}

/// [`generator_row_mle`] of a code that reads its message at `j ^ relabel`:
/// the MLE of `j -> X_(j ^ relabel)(omega_q)` is the plain one with the
/// coordinates of `relabel`'s set bits complemented.
fn generator_row_mle_relabelled(m: usize, q: u64, point: &[Gf128], relabel: usize) -> Gf128 {
    if relabel == 0 {
        return generator_row_mle(m, q, point);
    }
    let flipped: Vec<Gf128> = point
        .iter()
        .enumerate()
        .map(|(b, &u)| if relabel >> b & 1 == 1 { Gf128::ONE + u } else { u })
        .collect();
    generator_row_mle(m, q, &flipped)
}

fn check_shape(params: &PcsParams, proof: &Proof) -> Result<(), PcsError> {
    let levels = params.levels();
    if proof.levels.len() != levels.len() {
        return Err(PcsError::Malformed("wrong number of levels"));
    }
    for (i, (lp, pr)) in levels.iter().zip(&proof.levels).enumerate() {
        let last = i + 1 == levels.len();
        let nonces = if lp.grinding_bits > 0 { lp.log_rows } else { 0 };
        if pr.rounds.len() != lp.log_rows
            || pr.pow_nonces.len() != nonces
            || pr.query_nonce.is_some() != (lp.query_grinding_bits > 0)
            || pr.next_root.is_some() == last
        {
            return Err(PcsError::Malformed("level shape does not match the parameters"));
        }
    }
    if proof.final_message.len() != 1 << params.final_log_len()
        || proof.final_rounds.len() != params.final_log_len()
    {
        return Err(PcsError::Malformed(
            "final message shape does not match the parameters",
        ));
    }
    Ok(())
}
