//! The prover side of the opening.

use rayon::prelude::*;
use starling_crypto::merkle::hash_leaves_fields;
use starling_crypto::Grind;
use starling_crypto::Transcript;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128;
use starling_poly::additive_ntt::AdditiveNtt;
use starling_poly::sumcheck_round::QuadraticRound;

use super::*;
use crate::commit::{CommittedLevel, ProverData, TableAside};
use crate::params::MaskRun;
use crate::ring_switch::OpeningWeights;
use crate::sumcheck::{product_round_at, PairTable};
use crate::{Commitment, PcsError, PcsParams};

/// The opening's tables: before the first fold the message is the committed
/// table and the weight its own vector, both zero from entry `live` on;
/// after it, the two are interleaved.
enum Tables<'a> {
    Start {
        table: &'a [Gf128],
        w: ScratchVec,
        live: usize,
    },
    /// The table's own buffer, which the first fold writes over, and the
    /// weight as the rule that computes it ([`Opening::Over`]).
    Over {
        table: ScratchVec,
        w: OpeningWeights,
        live: usize,
    },
    Folded(PairTable),
}

impl Tables<'_> {
    /// The round binding variable `v`.
    fn round(&self, v: usize) -> QuadraticRound {
        match self {
            Tables::Start { table, w, .. } => product_round_at(table, w, v),
            Tables::Over { table, w, .. } => w
                .first_round(table, v)
                .expect("an opened table has two entries or more"),
            Tables::Folded(p) => p.round_at(v),
        }
    }

    /// Folds variable `v`; with `with_round`, may also return the next round.
    fn fold(self, r: Gf128, v: usize, with_round: bool) -> (Self, Option<QuadraticRound>) {
        match self {
            Tables::Start { table, w, live } => {
                let (p, next) = PairTable::fold_first_at(table, w, live, r, v, with_round);
                (Tables::Folded(p), next)
            }
            Tables::Over { table, w, live } => {
                let (p, next) = PairTable::fold_first_over(table, &w, live, r, v, with_round);
                (Tables::Folded(p), next)
            }
            Tables::Folded(mut p) => {
                let next = p.fold_at(r, v, with_round);
                (Tables::Folded(p), next)
            }
        }
    }

    /// The folded tables: a hiding opening's level 0 folds at least one
    /// data row variable before `T` ([`PcsParams::hiding`]).
    fn folded(&mut self) -> &mut PairTable {
        match self {
            Tables::Folded(p) => p,
            Tables::Start { .. } | Tables::Over { .. } => {
                unreachable!("a data row variable is folded before T")
            }
        }
    }

    /// [`PairTable::compact`], once level 0's rows are folded.
    fn compact(&mut self) {
        if let Tables::Folded(p) = self {
            p.compact();
        }
    }

    fn message(&self) -> Vec<Gf128> {
        match self {
            Tables::Start { table, .. } => table.to_vec(),
            Tables::Over { table, .. } => table.to_vec(),
            Tables::Folded(p) => p.message(),
        }
    }

    fn add_to_weights(&mut self, add: &[Gf128]) {
        match self {
            Tables::Start { w, live, .. } => {
                for (a, x) in w.iter_mut().zip(add) {
                    *a += *x;
                }
                // The weight may now be nonzero wherever `add` is.
                *live = (*live).max(add.len());
                w.wrote_below(add.len());
            }
            Tables::Over { .. } => unreachable!("level 0's rows are folded before any weight is added"),
            Tables::Folded(p) => p.add_to_weights(add),
        }
    }
}

/// `sum_q coefs[q] G_q`, with `G_q` row `q` of the generator matrix of the
/// level's code (message `2^m`, query positions increasing and distinct):
/// the transposed NTT of the sparse query weights (`transposed_sparse`:
/// the blocks holding no query are skipped), one coset at a time, the
/// cosets in parallel, summed into the first coset's buffer. This is
/// `ReedSolomon::encode_transposed` split over rayon.
///
/// The buffers come from `starling_field::scratch` and are cleared on
/// rayon's threads: a zeroed allocation per coset and one for the sum
/// (8 MiB each for level 0 of 2^16 Keccak-f permutations) were cleared on
/// one thread, and this step took 13.4 ms of the opening on sixteen
/// threads of the device Xeon against 27.8 on one.
fn generator_rows(m: usize, positions: &[usize], coefs: &[Gf128]) -> ScratchVec {
    let n = 1usize << m;
    // Per coset: its index, the weights, and the positions they sit at.
    let mut cosets: Vec<(usize, Vec<(usize, Gf128)>)> = Vec::new();
    for (&q, &c) in positions.iter().zip(coefs) {
        let h = q >> m;
        if cosets.last().map(|(last, _)| *last) != Some(h) {
            cosets.push((h, Vec::new()));
        }
        if let Some((_, weights)) = cosets.last_mut() {
            weights.push((q & (n - 1), c));
        }
    }
    let ntt = AdditiveNtt::new(m);
    // `n` zeros in a pooled buffer, cleared on rayon's threads.
    let zeros = || {
        let mut buf = scratch::take_field(n);
        buf.par_chunks_mut(1 << 12).for_each(|c| c.fill(Gf128::ZERO));
        buf
    };
    let mut parts: Vec<ScratchVec> = cosets
        .par_iter()
        .map(|(h, weights)| {
            let mut buf = zeros();
            for &(p, c) in weights {
                buf[p] = c;
            }
            let support: Vec<usize> = weights.iter().map(|&(p, _)| p).collect();
            ntt.transposed_sparse(&mut buf, 1, (*h as u64) << m, &support);
            buf
        })
        .collect();
    if parts.is_empty() {
        return zeros();
    }
    let mut sum = parts.swap_remove(0);
    sum.par_chunks_mut(1 << 12).enumerate().for_each(|(c, out)| {
        let start = c << 12;
        for part in &parts {
            for (a, g) in out.iter_mut().zip(&part[start..]) {
                *a += *g;
            }
        }
    });
    parts.into_iter().for_each(scratch::recycle_field);
    sum
}

/// A hiding opening's row mask (`ligerito`'s module notes): draws `l_0`,
/// `l_1`, sends `G = sum_r l_0(r) pi_r + l_1(r) pi'_r`, draws `rho`, adds
/// `rho l_e(r)` to the weight at each data row's two row-mask entries (and
/// their part to the first round, [`add_sparse_weights`]), and returns `G`.
fn mask_rows(
    params: &PcsParams,
    run: MaskRun,
    data: &ProverData,
    weights: &mut ScratchVec,
    first_round: &mut Option<QuadraticRound>,
    transcript: &mut Transcript,
) -> Gf128 {
    let k = params.levels()[0].log_rows - 1;
    let m = params.level_log_msg(0);
    let l = RowForms::draw(transcript, k);
    let rows = params.level0_data_rows();
    let entries = run.row_mask_entries();
    let at = |e: usize, r: usize| (r << m) + entries[e];
    let g: Gf128 = (0..2)
        .flat_map(|e| (0..rows).map(move |r| (e, r)))
        .map(|(e, r)| l.at(e, r) * data.table[at(e, r)])
        .sum();
    let rho = mask_challenge(transcript, g);
    let added: Vec<(usize, Gf128)> = (0..2)
        .flat_map(|e| (0..rows).map(move |r| (e, r)))
        .map(|(e, r)| (at(e, r), rho * l.at(e, r)))
        .collect();
    add_sparse_weights(&data.table, weights, first_round, &added, m);
    if let Some(last) = added.iter().map(|&(x, _)| x).max() {
        weights.wrote_below(last + 1);
    }
    g
}

/// Adds `w` to `weights[x]` for each `(x, w)` of `added` (distinct
/// entries), and to `first_round`, the round binding variable `v` of the
/// table `f` and the weights, their part: pairs `x0`, `x1 = x0 + 2^v`
/// contribute `c0 += f(x0) dw(x0)`, `c2 += (f(x0) + f(x1)) (dw(x0) +
/// dw(x1))`, the round's sums being linear in the weight.
pub(crate) fn add_sparse_weights(
    f: &[Gf128],
    weights: &mut [Gf128],
    first_round: &mut Option<QuadraticRound>,
    added: &[(usize, Gf128)],
    v: usize,
) {
    for &(x, w) in added {
        weights[x] += w;
    }
    if let Some(round) = first_round.as_mut() {
        let mut pairs: std::collections::BTreeMap<usize, [Gf128; 2]> = std::collections::BTreeMap::new();
        for &(x, w) in added {
            pairs.entry(x & !(1 << v)).or_insert([Gf128::ZERO; 2])[x >> v & 1] += w;
        }
        let (mut c0, mut c2) = (Gf128::ZERO, Gf128::ZERO);
        for (x0, [d0, d1]) in pairs {
            let (f0, f1) = (f[x0], f[x0 | 1 << v]);
            c0 += f0 * d0;
            c2 += (f0 + f1) * (d0 + d1);
        }
        *round = *round + QuadraticRound { c0, c2 };
    }
}

/// Proves `sum_x f(x) weights[x] = claim` for the committed `f`; `weights`
/// is a `Vec` or a buffer lent by `starling_field::scratch` (it goes back
/// to the pool).
pub fn prove(
    params: &PcsParams,
    data: &ProverData,
    weights: impl Into<ScratchVec>,
    claim: Gf128,
    transcript: &mut Transcript,
) -> Result<Proof, PcsError> {
    let weights = weights.into();
    let live = weights.len();
    let opening = Opening::Stored { data, weights };
    prove_with_first_round(params, opening, live, claim, None, transcript).map(|(proof, _)| proof)
}

/// How the opening holds the committed table and the weight.
pub(crate) enum Opening<'a> {
    /// The table read where it is, the weight a table of its own.
    Stored {
        data: &'a ProverData,
        weights: ScratchVec,
    },
    /// The weight computed where the first fold reads it, and that fold
    /// written over the table's own buffer (`PairTable::fold_first_over`):
    /// the opening holds one table-sized buffer where it held two. Once
    /// level 0's rows are folded, `rewrite` writes the table again, every
    /// entry below its live length, into a buffer zero past it: the
    /// queries' columns are re-encoded from it, and the opening hands it
    /// back. A plain commitment's only.
    Over {
        table: ScratchVec,
        aside: &'a TableAside,
        weights: OpeningWeights,
        rewrite: &'a (dyn Fn(&mut [Gf128]) + Sync),
    },
}

/// [`prove`] for weights that are zero from entry `weights_live` on (ring
/// switching's, past level 0's live rows: the folds then skip the blocks
/// that fold zeros), given the first round (binding variable
/// [`PcsParams::level_log_msg`]`(0)`, the lowest row variable of level 0)
/// when the caller already has it: ring switching computes it while building
/// the weights.
pub(crate) fn prove_with_first_round(
    params: &PcsParams,
    opening: Opening<'_>,
    weights_live: usize,
    claim: Gf128,
    first_round: Option<QuadraticRound>,
    transcript: &mut Transcript,
) -> Result<(Proof, Option<ScratchVec>), PcsError> {
    let n = 1usize << params.data_vars();
    let (view, table_len) = match &opening {
        Opening::Stored { data, weights } => {
            if weights.len() != n {
                return Err(PcsError::BadInput("weight table length must be 2^num_vars"));
            }
            (data.view(), data.table.len())
        }
        Opening::Over { table, aside, .. } => (aside.view(), table.len()),
    };
    if table_len != n {
        return Err(PcsError::TableSize {
            got: table_len,
            want: n,
        });
    }
    let commitment = Commitment {
        root: view.tree().root(),
    };
    absorb_statement(transcript, params, &commitment, claim);
    let levels = params.levels();
    let mut first_round = first_round;
    // Both tables are zero from `live` on.
    let live = weights_live.max(params.live_len());
    // The table the queries' columns come from: the committed one, or, over
    // it, the one written again after level 0's folds.
    let (mut tables, held, rewrite) = match opening {
        Opening::Stored { data, mut weights } => {
            let mask_sum = match (params.mask_run(), view.mask_row()) {
                (Some(run), Some(_)) => Some(mask_rows(
                    params,
                    run,
                    data,
                    &mut weights,
                    &mut first_round,
                    transcript,
                )),
                (None, None) => None,
                _ => {
                    return Err(PcsError::BadInput(
                        "the commitment and the parameters disagree on hiding",
                    ))
                }
            };
            let tables = Tables::Start {
                table: &data.table,
                w: weights,
                live,
            };
            (tables, Some((&data.table[..], mask_sum)), None)
        }
        Opening::Over {
            table,
            weights,
            rewrite,
            ..
        } => {
            if params.mask_run().is_some() || view.mask_row().is_some() {
                return Err(PcsError::BadInput("a hiding opening folds a stored weight"));
            }
            let tables = Tables::Over {
                table,
                w: weights,
                live,
            };
            (tables, None, Some(rewrite))
        }
    };
    let (held, mask_sum) = held.map_or((None, None), |(t, m)| (Some(t), m));
    let mut again: Option<ScratchVec> = None;
    // The round message of the current tables, when a fold already computed it.
    let mut pending = first_round;
    let mut next_level: Option<CommittedLevel> = None;
    let mut level_proofs = Vec::with_capacity(levels.len());

    for (i, lp) in levels.iter().enumerate() {
        let current = next_level.take();
        let mut rounds = Vec::with_capacity(lp.log_rows);
        let mut pow_nonces = Vec::new();
        // Level 0's rows are the table's top variables (`commit`): each of its
        // rounds binds the lowest of them, variable `m_0`. Later levels' rows
        // are the low variables of their tables.
        let v = if i == 0 { params.level_log_msg(0) } else { 0 };
        // A hiding opening's level 0 folds `T` last, against the mask row.
        let mask = if i == 0 { view.mask_row() } else { None };
        let table_rows = lp.log_rows - usize::from(mask.is_some());
        let mut s_rows = Vec::with_capacity(lp.log_rows);
        for j in 0..lp.log_rows {
            if let (Some(m), true) = (mask, j == table_rows) {
                // `e = eq(s, 0)` over the data row variables.
                let e: Gf128 = s_rows.iter().map(|&x| Gf128::ONE + x).product();
                let round = tables.folded().mask_row_round(m, e);
                absorb_round(transcript, &round);
                if lp.grinding_bits > 0 {
                    pow_nonces.push(transcript.grind(LABEL_POW, lp.grinding_bits));
                }
                let s = transcript.challenge_field(LABEL_FOLD);
                tables.folded().fold_mask_row(m, e, s);
                rounds.push(round);
                continue;
            }
            let round = pending.take().unwrap_or_else(|| tables.round(v));
            absorb_round(transcript, &round);
            if lp.grinding_bits > 0 {
                let nonce = transcript.grind(LABEL_POW, lp.grinding_bits);
                pow_nonces.push(nonce);
            }
            let s = transcript.challenge_field(LABEL_FOLD);
            s_rows.push(s);
            // The next round of this level reads the tables just folded; the
            // level's last fold is followed by the weight update instead (or
            // by the `T` round).
            let (folded, next) = tables.fold(s, v, j + 1 < table_rows);
            tables = folded;
            pending = next;
            rounds.push(round);
        }

        if i == 0 {
            tables.compact();
            if let Some(rewrite) = rewrite {
                let mut table = scratch::take_field_zero_past(n, params.live_len());
                rewrite(&mut table);
                again = Some(table);
            }
        }
        let folded = tables.message();
        let last = i + 1 == levels.len();
        let next_root = if last {
            transcript.absorb_fields(LABEL_FINAL, &folded);
            None
        } else {
            let nl = levels[i + 1];
            let committed = CommittedLevel::new(folded, nl.log_rows, nl.log_inv_rate);
            let root = committed.code.tree.root();
            transcript.absorb_bytes(LABEL_NEXT_ROOT, &root);
            next_level = Some(committed);
            Some(root)
        };

        let query_nonce =
            (lp.query_grinding_bits > 0).then(|| transcript.grind(LABEL_QUERY_POW, lp.query_grinding_bits));
        let positions = query_positions(transcript, params, i);
        let (columns, merkle) = match &current {
            Some(level) => (level.columns(&positions), level.code.tree.open(&positions)),
            None => {
                let table = held
                    .or(again.as_deref())
                    .expect("the table is held or written again");
                view.open(table, &positions, again.is_some())?
            }
        };
        let hashes = hash_leaves_fields(&columns, params.level_width(i));
        absorb_leaf_hashes(transcript, &hashes);

        // Every level's query checks, the last one's included, join the
        // weight: the verifier then never encodes the final message.
        let coefs = transcript.challenge_fields(LABEL_BETA, positions.len());
        let m = params.level_log_msg(i);
        let mut rows = generator_rows(m, &positions, &coefs);
        if let (Some(run), true) = (params.mask_run(), i == 0) {
            // Level 0's code read each row at `p ^ offset`: `G_q` over the
            // folded message is relabelled the same way.
            let plain = rows.to_vec();
            for (p, x) in rows.iter_mut().enumerate() {
                *x = plain[p ^ run.offset];
            }
        }
        tables.add_to_weights(&rows);
        scratch::recycle_field(rows);
        level_proofs.push(LevelProof {
            rounds,
            pow_nonces,
            query_nonce,
            next_root,
            columns,
            merkle,
        });
    }

    let final_message = tables.message();
    let final_len = params.final_log_len();
    let mut final_rounds = Vec::with_capacity(final_len);
    for j in 0..final_len {
        let round = pending.take().unwrap_or_else(|| tables.round(0));
        absorb_round(transcript, &round);
        let s = transcript.challenge_field(LABEL_FOLD);
        let (folded, next) = tables.fold(s, 0, j + 1 < final_len);
        tables = folded;
        pending = next;
        final_rounds.push(round);
    }
    let proof = Proof {
        mask_sum,
        levels: level_proofs,
        final_message,
        final_rounds,
    };
    Ok((proof, again))
}
