//! The full opening of bit claims: ring switching, then the Ligerito opening,
//! in one transcript flow. This is what the proof system calls at the end of
//! the PIOP. The proof type and the verifier are `starling-verifier`'s.

use starling_crypto::Transcript;
use starling_field::Gf128;
pub use starling_verifier::pcs::bits::{verify, verify_via, verify_with, Proof, LABEL_PAD_GAMMA};
use starling_verifier::zk::veiled::{Channel, Clear};

use starling_field::scratch::ScratchVec;

use crate::commit::{ProverData, TableAside};
use crate::ligerito::{add_sparse_weights, Opening};
use crate::ring_switch::{self, PackedClaim};
use crate::{ligerito, PcsError, PcsParams};

/// Proves all `claims` about the bits of the committed table.
pub fn prove(
    params: &PcsParams,
    data: &ProverData,
    claims: &[PackedClaim],
    transcript: &mut Transcript,
) -> Result<Proof, PcsError> {
    prove_via(params, data, claims, claims, transcript, &mut Clear, &[])
}

/// [`prove`] when the verifier holds the claims' values through a channel
/// (`starling_verifier::pcs::bits::verify_via`): `claims` with their true
/// values for the prover's work, `held` as the verifier holds them (the
/// values the prover's replay of the verifier produced). Veiled, the
/// claims' checks join the channel's constraints, which are batched into
/// one claim on the pads' entries of the table (`pad_positions`) and
/// proved with the opening.
pub fn prove_via<C: Channel>(
    params: &PcsParams,
    data: &ProverData,
    claims: &[PackedClaim],
    held: &[PackedClaim<C::Value>],
    transcript: &mut Transcript,
    channel: &mut C,
    pad_positions: &[usize],
) -> Result<Proof, PcsError> {
    let (bit_evaluations, red) = ring_switch::prove(
        data.table(),
        params.live_rows_len(),
        claims,
        params.level_log_msg(0),
        transcript,
        !C::PUBLIC,
    )?;
    for (c, s) in held.iter().zip(&bit_evaluations) {
        if !channel.require(
            C::Value::from(ring_switch::lambda_sum(&c.lambda, s)),
            c.value.clone(),
        ) {
            return Err(PcsError::BadInput("a claim the bits do not meet"));
        }
    }
    let (mut weights, mut first_round, mut claim) = (red.weights, red.first_round, red.claim);
    if let Some((coefs, value)) = channel.close(transcript) {
        if coefs.len() > pad_positions.len() {
            return Err(PcsError::BadInput("more pads than the layout holds"));
        }
        let gamma = transcript.challenge_field(LABEL_PAD_GAMMA);
        claim += gamma * value;
        let entries: Vec<(usize, Gf128)> = pad_positions
            .iter()
            .zip(&coefs)
            .map(|(&x, &c)| (x, gamma * c))
            .collect();
        add_sparse_weights(
            data.table(),
            &mut weights,
            &mut first_round,
            &entries,
            params.level_log_msg(0),
        );
    }
    let opening = Opening::Stored { data, weights };
    let (opening, _) = ligerito::prove_with_first_round(
        params,
        opening,
        params.live_rows_len(),
        claim,
        first_round,
        transcript,
    )?;
    Ok(Proof {
        bit_evaluations,
        opening,
    })
}

/// [`prove`] holding one table-sized buffer where it held two: the
/// opening's weight is computed where its first fold reads it, and that
/// fold is written over the committed table's buffer, `table`, set aside
/// from its commitment (`ProverData::set_table_aside`). `rewrite` must
/// write the committed table again, every entry below
/// [`PcsParams::live_len`], into a buffer zero past it: the queries' columns
/// are re-encoded from it, after level 0's folds. Returns the proof and the
/// prover data with that table, which is the committed one only if
/// `rewrite` wrote it (an opening from another table is rejected). The
/// proof is [`prove`]'s, byte for byte. A hiding commitment's opening
/// folds a stored weight ([`prove_via`]).
pub fn prove_over(
    params: &PcsParams,
    table: ScratchVec,
    aside: TableAside,
    claims: &[PackedClaim],
    transcript: &mut Transcript,
    rewrite: &(dyn Fn(&mut [Gf128]) + Sync),
) -> Result<(Proof, ProverData), PcsError> {
    if aside.view().mask_row().is_some() {
        return Err(PcsError::BadInput("a hiding opening folds a stored weight"));
    }
    let (bit_evaluations, weights, claim, first_round) = ring_switch::prove_computed(
        &table,
        params.live_rows_len(),
        claims,
        params.level_log_msg(0),
        transcript,
    )?;
    let opening = Opening::Over {
        table,
        aside: &aside,
        weights,
        rewrite,
    };
    let (opening, table) = ligerito::prove_with_first_round(
        params,
        opening,
        params.live_rows_len(),
        claim,
        first_round,
        transcript,
    )?;
    let table = table.ok_or(PcsError::BadInput("the opening wrote no table again"))?;
    let proof = Proof {
        bit_evaluations,
        opening,
    };
    Ok((proof, aside.with_table(table)?))
}
