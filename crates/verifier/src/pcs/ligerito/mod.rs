//! The Ligerito-style opening (Novakovic–Angeris, "Ligerito: A Small and
//! Concretely Fast Polynomial Commitment Scheme", 2025): one sumcheck over all
//! `L` variables of `sum_x f(x) w(x) = v`: level 0's rows (the table's top
//! `k_0` variables, lowest first), then every other variable from the lowest
//! up.
//!
//! Level `i` folds its `k_i` row variables with sumcheck rounds; the folded
//! table `y_i` is committed as level `i + 1`'s matrix (or, at the last level,
//! sent in the clear). Queried columns of level `i`'s codeword, combined with
//! `eq(s_i, row)`, must equal `Enc(y_i)[q] = <G_q, y_i>`; these checks are
//! folded into the running claim with independent random coefficients
//! `beta_q`, which adds `sum_q beta_q G_q` to the weight; the last level's
//! checks too, against `y_last` in the clear, so the verifier never encodes
//! it. After the last level the sumcheck runs to the end, and the verifier
//! checks the final claim against `y_last(R_tail) * w(R)` with
//! `w(R) = w_0(R) + sum beta_q G_q(R_level)`.
//!
//! # The hiding opening
//!
//! With [`PcsParams::hiding`] the opening reveals nothing about the table
//! beyond the claim, which must then be public (after ZK.md, `../shared`,
//! b.2 step 8; CFW26 and VEIL for the ideas):
//!
//! - **A zero-knowledge code at level 0.** Each data row holds uniformly
//!   random entries in its [`params::MaskRun`], and the code reads a row with
//!   its index XORed with the run's offset, so they are the novel-basis
//!   coefficients `0 .. t`: `X_j` has degree `j`, so at any `t` distinct
//!   positions the row's symbols are an invertible (Vandermonde) image of
//!   them, uniform whatever the rest of the row holds. At most `t` distinct
//!   positions are opened (the level's query count).
//! - **A mask row `M` and the variable `T`.** The committed polynomial has
//!   one variable more, the top one: its `T = 1` half is the uniformly
//!   random row `M` in row 0 and zeros, and the weight is zero there, so
//!   the claim is unchanged. Level 0 folds the data row variables, then `T`:
//!   the fold `y_1 = (1 + s_T) F(s) + s_T eq(s, 0) M` is uniform and
//!   independent of the data, and every later level and the final message
//!   are plain Ligerito on it.
//! - **Masked row rounds.** Before the rounds the verifier draws an affine
//!   forms `l_0`, `l_1` of the data row bits, the prover sends
//!   `G = sum_r l_0(r) pi_r + l_1(r) pi'_r` (`pi_r`, `pi'_r` the last two
//!   entries of row `r`'s mask run), the verifier draws a nonzero `rho`, and
//!   the opening proves `claim + rho G` for the weight
//!   `w + rho (l_0 ⊗ e_pi + l_1 ⊗ e_pi')`: both coefficients of every row
//!   round then carry fresh randomness (in characteristic 2 a mask summed
//!   over the hypercube would cancel; this one has full support). ZK.md
//!   has one such entry per row; the last round then leaks (see
//!   [`params::MaskRun::row_mask_entries`]).
//! - **Salted leaves.** Level 0 commits one row more, the salt row (random,
//!   not part of the polynomial), so the hashes of unopened columns cannot
//!   be recomputed from a guessed table.
//!
//! The verifier's changes: `l`, `G`, `rho`; level 0's columns carry the data
//! rows, `M` and the salt; the `T` round is an ordinary round; the query
//! weights of level 0 read the relabelled index; the final weight is
//! `(1 + s_T) (w(P) + rho sum_e (sum_r l_e(r) eq(P_rows, r)) eq(P_msg, pi_e))`,
//! the sum over the committed data rows `r` (the prover's weight is zero
//! past them, as its table is).
//!
//! The prover (`starling-pcs`) and [`verify`] share the [`Proof`] type, the
//! labels and this transcript order:
//! params, root, claim, [hiding: `l`, `G`, `rho`]; per level: (round, [pow
//! nonce], fold challenge) x k_i, next root or final message, [pow nonce],
//! query positions, leaf hashes, beta_q; then the final rounds.

mod encoding;
mod verify;

pub use verify::{verify, verify_with};

use alloc::vec;
use alloc::vec::Vec;

use crate::merkle::MultiProof;
use crate::pcs::{Commitment, PcsParams};
use crate::poly::QuadraticRound;
use crate::{Digest, Gf128, Transcript};

/// What one level of the opening sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelProof {
    /// The `k_i` sumcheck rounds folding the rows.
    pub rounds: Vec<QuadraticRound>,
    /// One proof-of-work nonce per round when the level grinds, else empty.
    pub pow_nonces: Vec<u64>,
    /// The proof-of-work nonce before the query positions, when the level
    /// grinds there.
    pub query_nonce: Option<u64>,
    /// Root of the next level's commitment (absent at the last level).
    pub next_root: Option<Digest>,
    /// The opened columns at the distinct queried positions, in increasing
    /// position order, [`PcsParams::level_width`] elements each (`2^k_i`,
    /// but at level 0 only the rows that may be nonzero).
    pub columns: Vec<Gf128>,
    /// Merkle multi-opening of those columns.
    pub merkle: MultiProof,
}

/// A Ligerito opening proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// A hiding opening's `G`, the row mask's sum (absent otherwise).
    pub mask_sum: Option<Gf128>,
    /// One entry per level.
    pub levels: Vec<LevelProof>,
    /// The last level's folded table, in the clear.
    pub final_message: Vec<Gf128>,
    /// The sumcheck rounds over the final message's variables.
    pub final_rounds: Vec<QuadraticRound>,
}

impl Proof {
    /// Serialised size of each part, in bytes.
    pub fn size_breakdown(&self) -> Vec<(&'static str, usize)> {
        let rounds: usize =
            self.levels.iter().map(|l| l.rounds.len()).sum::<usize>() + self.final_rounds.len();
        let nonces: usize = self
            .levels
            .iter()
            .map(|l| l.pow_nonces.len() + usize::from(l.query_nonce.is_some()))
            .sum();
        let roots = self.levels.iter().filter(|l| l.next_root.is_some()).count();
        let columns: usize = self.levels.iter().map(|l| l.columns.len()).sum();
        let siblings: usize = self.levels.iter().map(|l| l.merkle.siblings.len()).sum();
        vec![
            ("row-mask sum", 16 * usize::from(self.mask_sum.is_some())),
            ("sumcheck rounds", 32 * rounds),
            ("proof-of-work nonces", 8 * nonces),
            ("level roots", 32 * roots),
            ("opened columns", 16 * columns),
            ("Merkle siblings", 32 * siblings),
            ("final message", 16 * self.final_message.len()),
            ("length fields", 6 * self.levels.len()),
        ]
    }
}

pub const LABEL_PARAMS: &[u8] = b"pcs/params";
pub const LABEL_ROOT: &[u8] = b"pcs/root";
pub const LABEL_CLAIM: &[u8] = b"pcs/claim";
pub const LABEL_ROUND: &[u8] = b"pcs/round";
pub const LABEL_POW: &[u8] = b"pcs/pow";
pub const LABEL_FOLD: &[u8] = b"pcs/fold";
pub const LABEL_NEXT_ROOT: &[u8] = b"pcs/level-root";
pub const LABEL_FINAL: &[u8] = b"pcs/final-message";
pub const LABEL_QUERY: &[u8] = b"pcs/query";
pub const LABEL_QUERY_POW: &[u8] = b"pcs/query-pow";
pub const LABEL_LEAVES: &[u8] = b"pcs/leaf-hashes";
pub const LABEL_BETA: &[u8] = b"pcs/beta";
pub const LABEL_ROW_FORM: &[u8] = b"pcs/hiding-row-form";
pub const LABEL_MASK_SUM: &[u8] = b"pcs/hiding-mask-sum";
pub const LABEL_RHO: &[u8] = b"pcs/hiding-rho";

/// Binds the parameters, the commitment and the claimed sum.
pub fn absorb_statement(t: &mut Transcript, params: &PcsParams, c: &Commitment, claim: Gf128) {
    t.absorb_bytes(LABEL_PARAMS, &params.transcript_bytes());
    t.absorb_bytes(LABEL_ROOT, &c.root);
    t.absorb_field(LABEL_CLAIM, claim);
}

/// A hiding opening's two affine forms `l_e(r) = c_e0 + sum_i c_e(i+1) r_i`
/// of the `k` data row bits, one for each of a row's two row-mask entries
/// ([`crate::pcs::params::MaskRun::row_mask_entries`]).
#[derive(Clone, Debug)]
pub struct RowForms {
    coefs: Vec<Gf128>,
}

impl RowForms {
    /// Draws the forms of `k` row bits.
    pub fn draw(t: &mut Transcript, k: usize) -> Self {
        RowForms {
            coefs: t.challenge_fields(LABEL_ROW_FORM, 2 * (k + 1)),
        }
    }

    /// `l_e(r)` for row `r`.
    pub fn at(&self, e: usize, r: usize) -> Gf128 {
        let k1 = self.coefs.len() / 2;
        let c = &self.coefs[e * k1..][..k1];
        c[0] + c[1..]
            .iter()
            .enumerate()
            .filter(|(b, _)| r >> b & 1 == 1)
            .map(|(_, x)| *x)
            .sum::<Gf128>()
    }
}

/// A hiding opening's `rho` after `G`: uniform and nonzero (zero would leave
/// the row rounds unmasked), drawn again while zero.
pub fn mask_challenge(t: &mut Transcript, mask_sum: Gf128) -> Gf128 {
    t.absorb_field(LABEL_MASK_SUM, mask_sum);
    loop {
        let rho = t.challenge_field(LABEL_RHO);
        if !rho.is_zero() {
            return rho;
        }
    }
}

pub fn absorb_round(t: &mut Transcript, r: &QuadraticRound) {
    t.absorb_fields(LABEL_ROUND, &[r.c0, r.c2]);
}

/// The distinct query positions of level `i`, increasing.
pub fn query_positions(t: &mut Transcript, params: &PcsParams, i: usize) -> Vec<usize> {
    let bound = 1usize << params.level_log_len(i);
    let mut q = t.challenge_indices(LABEL_QUERY, bound, params.levels()[i].queries);
    q.sort_unstable();
    q.dedup();
    q
}

pub fn absorb_leaf_hashes(t: &mut Transcript, hashes: &[Digest]) {
    t.absorb_bytes(LABEL_LEAVES, hashes.concat().as_slice());
}
