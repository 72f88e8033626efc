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
//! The prover (`starling-pcs`) and [`verify`] share the [`Proof`] type, the
//! labels and this transcript order:
//! params, root, claim; per level: (round, [pow nonce], fold challenge) x k_i,
//! next root or final message, [pow nonce], query positions, leaf hashes,
//! beta_q; then the final rounds.

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

/// Binds the parameters, the commitment and the claimed sum.
pub fn absorb_statement(t: &mut Transcript, params: &PcsParams, c: &Commitment, claim: Gf128) {
    t.absorb_bytes(LABEL_PARAMS, &params.transcript_bytes());
    t.absorb_bytes(LABEL_ROOT, &c.root);
    t.absorb_field(LABEL_CLAIM, claim);
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
