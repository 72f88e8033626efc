//! Public values and wiring between instances: linear relations along the
//! instance axis, reduced to one claim on `z` (DESIGN §2.2, "Wiring between
//! instances" and "Private wires").
//!
//! A [`Relation`] says, for every instance `y` of a set and every `j` below
//! the length of a run of wires: `z(y, base + j)`, plus `z(src(y), base' + j)`
//! when it reads another instance, equals a public value (or zero). Binding
//! public values is the first form (the constant wire, a batch's inputs and
//! outputs, a chain's start and end); wiring is the second (a chain's link
//! `in(y) = out(y - 1)`, a tree's `child -> parent`). Every run lies in the
//! public block `[0, 2^p)` of the wires; wires that no relation mentions are
//! private.
//!
//! The check, with `|F| = 2^128`:
//! 1. The verifier draws a coefficient `lambda_t` per relation, an instance
//!    point `rho_y` (`n` coordinates) and a wire point `rho_w`. A run of
//!    `len` wires weighs wire `j` by `e[j] = eq(rho_w, j)` (the first
//!    `ceil(log2 len)` coordinates). All relations hold together with
//!    `sum_t lambda_t sum_{y in I_t} eq(rho_y, y) sum_j e_t[j] (z(y, a_t + j) +
//!    z(src_t(y), b_t + j) - value_t(y, j)) = 0` except with probability
//!    `(1 + n + q) / |F|`, `q` the most wire coordinates.
//! 2. Grouping by run, this is `sum_g sum_y W_g(y) G_g(y) = v`, with
//!    `G_g(y) = sum_j e_g[j] z(y, base_g + j)` (the prover's fold of run `g`,
//!    `starling_piop::wiring::fold_wires`), `W_g` the summed instance weights of the relations on
//!    run `g` (own weights `eq(rho_y, y) [y in I]`, or pulled back through
//!    `src`), and `v` the public side, which the verifier computes.
//! 3. A degree-2 sumcheck over the `n` instance variables leaves
//!    `sum_g W_g(r) G_g(r)` at a point `r`; the verifier evaluates each
//!    `W_g(r)` itself (the `weights` module: `O(n)` for ranges and the shift by one,
//!    `O(N)` for explicit sets and maps).
//! 4. That equals `sum_w M(w) z(r, w)` over the public block with
//!    `M(w) = sum_g W_g(r) e_g[w - base_g]`; a second sumcheck over the `p`
//!    wire variables leaves one claim `z(r, s)` — at instance point `r` and
//!    wire point `(s, 0, .., 0)` — for the batched opening, and the verifier
//!    checks `M(s) z(r, s)` against the last round.
//!
//! The proof is `2 (n + p) + 1` field elements. The old public-value claim
//! is the special case of one relation over all instances and the whole
//! public block, and still costs the verifier one pass over the public
//! values.

mod values;
mod weights;

pub use values::{weigh_values, PublicRows, RowByRow, RowFill, Segment, Values, SEGMENT_WORDS};
pub use weights::{shifted_prefix_sum, EqLookup, Instances, Members, Source, WeightsAt};

use alloc::collections::BTreeSet;
use alloc::vec;
use alloc::vec::Vec;
use core::iter;

use super::claims::{EvalClaim, InstanceWeights};
use super::soundness::log2_error;
use super::{PiopError, Shape};
use crate::codec::{put_fields, Reader};
use crate::poly::{eq_table, next_claim, QuadraticRound};
use crate::zk::veiled::{Channel, Clear};
use crate::{Gf128, Transcript};

/// The coefficient of each relation.
pub const LABEL_LAMBDA: &[u8] = b"wiring/lambda";
/// The instance point `rho_y`.
pub const LABEL_RHO_Y: &[u8] = b"wiring/rho-instance";
/// The wire point `rho_w`.
pub const LABEL_RHO_W: &[u8] = b"wiring/rho-wire";
/// A round of either sumcheck.
pub const LABEL_ROUND: &[u8] = b"wiring/round";
/// A round's challenge.
pub const LABEL_R: &[u8] = b"wiring/r";
/// The proof of work before a round's challenge.
pub const LABEL_POW_R: &[u8] = b"wiring/pow-r";
/// `z(r, s)`.
pub const LABEL_EVAL: &[u8] = b"wiring/eval";

/// `len` consecutive wires from `base`, in every instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wires {
    /// First wire.
    pub base: usize,
    /// Number of wires (at least 1).
    pub len: usize,
}

impl Wires {
    /// Number of wire-point coordinates a run of this length uses.
    pub fn vars(&self) -> usize {
        self.len.next_power_of_two().trailing_zeros() as usize
    }
}

/// For every instance `y` in `instances` and `j < wires.len`:
/// `z(y, wires.base + j) (+ z(src(y), from.base + j)) = values(y, j)`.
/// A statement kind declares its relations as these
/// (`crate::kind::Kind::relations`).
#[derive(Debug)]
pub struct Relation<'a> {
    /// The instances it holds in.
    pub instances: Instances,
    /// The run of wires of instance `y`.
    pub wires: Wires,
    /// A run of the same length read from another instance, if any.
    pub from: Option<(Source, Wires)>,
    /// The right-hand side.
    pub values: Values<'a>,
}

impl Relation<'_> {
    /// The constant wire is 1 in every one of the `2^n` instances (padding
    /// included): the zero witness satisfies the constraint system, so
    /// every kind pins it.
    pub fn constant_wire(n: usize) -> Self {
        Relation {
            instances: Instances::Range {
                start: 0,
                end: 1 << n,
            },
            wires: Wires { base: 0, len: 1 },
            from: None,
            values: Values::Constant(vec![1]),
        }
    }
}

/// A wiring proof: the rounds of the two sumchecks, a proof-of-work nonce
/// before each round's challenge when the profile grinds, and `z(r, s)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// One round per instance variable, then one per public-block wire variable.
    pub rounds: Vec<QuadraticRound>,
    /// One nonce per round when grinding (none at 0 bits).
    pub nonces: Vec<u64>,
    /// `z(r, s)`.
    pub z_eval: Gf128,
}

impl Proof {
    /// Size in bytes of a proof for `shape`, a public block of `2^p` wires
    /// and `grinding_bits` per round.
    pub fn num_bytes(shape: Shape, p: usize, grinding_bits: u32) -> usize {
        let rounds = shape.n() + p;
        16 * (2 * rounds + 1) + if grinding_bits > 0 { 8 * rounds } else { 0 }
    }

    /// The proof as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in &self.rounds {
            put_fields(&mut out, &[r.c0, r.c2]);
        }
        for n in &self.nonces {
            out.extend_from_slice(&n.to_le_bytes());
        }
        put_fields(&mut out, &[self.z_eval]);
        out
    }

    /// Decodes exactly one proof for `shape`, `p` and `grinding_bits`; never panics.
    pub fn from_bytes(shape: Shape, p: usize, grinding_bits: u32, bytes: &[u8]) -> Result<Self, PiopError> {
        let mut reader = Reader::new(bytes);
        let rounds = (0..shape.n() + p)
            .map(|_| {
                Ok(QuadraticRound {
                    c0: reader.field("a wiring round")?,
                    c2: reader.field("a wiring round")?,
                })
            })
            .collect::<Result<Vec<_>, PiopError>>()?;
        let nonces = if grinding_bits > 0 {
            (0..rounds.len())
                .map(|_| reader.u64("a wiring proof-of-work nonce"))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        let z_eval = reader.field("the wiring evaluation")?;
        reader.finish()?;
        Ok(Proof {
            rounds,
            nonces,
            z_eval,
        })
    }
}

/// The challenges of step 1.
pub struct Challenges {
    /// One coefficient per relation.
    pub lambda: Vec<Gf128>,
    /// The instance point.
    pub rho_y: Vec<Gf128>,
    /// The wire point (as many coordinates as the longest run needs).
    pub rho_w: Vec<Gf128>,
}

/// The distinct runs of the relations, each with its wire weights.
pub struct Runs {
    /// The runs.
    pub runs: Vec<Wires>,
    /// For relation `t`: the run index of its own wires and of `from`.
    pub of: Vec<(usize, Option<usize>)>,
}

/// Refuses relations that do not fit `shape` and a public block of `2^p`
/// wires: runs outside the block, a read run of another length, instances
/// or a map's entries past `2^n`.
pub fn check(shape: Shape, p: usize, relations: &[Relation<'_>]) -> Result<(), PiopError> {
    let mut checked = BTreeSet::new();
    if p > shape.k() {
        return Err(PiopError::BadShape(
            "the public block must fit in the wires (p <= k)",
        ));
    }
    for rel in relations {
        let runs = iter::once(rel.wires).chain(rel.from.as_ref().map(|(_, w)| *w));
        for w in runs {
            if w.len == 0 || w.base + w.len > 1 << p {
                return Err(PiopError::BadShape(
                    "a relation's wires must lie in the public block",
                ));
            }
        }
        if rel.from.as_ref().is_some_and(|(_, w)| w.len != rel.wires.len) {
            return Err(PiopError::BadShape(
                "a relation reads a run of the length it writes",
            ));
        }
        if !rel.instances.fits(shape.n()) {
            return Err(PiopError::BadShape("a relation's instances must be below 2^n"));
        }
        // The entries a relation reads (its members'; a map is read nowhere
        // else), so that a check costs what weighing the relation does;
        // once for relations that share their set and map.
        if let Some((Source::Map(map), _)) = &rel.from {
            if let Instances::Set(bits) = &rel.instances {
                if !checked.insert((bits.as_ptr() as usize, map.as_ptr() as usize)) {
                    continue;
                }
            }
            let largest = rel
                .instances
                .members()
                .filter_map(|y| map.get(y))
                .fold(0u32, |m, &x| m.max(x));
            if largest as usize >= 1 << shape.n() {
                return Err(PiopError::BadShape("a relation's map must stay below 2^n"));
            }
        }
    }
    Ok(())
}

/// The relations' distinct runs.
pub fn runs(relations: &[Relation<'_>]) -> Runs {
    let mut runs: Vec<Wires> = Vec::new();
    let mut index = |w: Wires| match runs.iter().position(|&r| r == w) {
        Some(i) => i,
        None => {
            runs.push(w);
            runs.len() - 1
        }
    };
    let of = relations
        .iter()
        .map(|rel| (index(rel.wires), rel.from.as_ref().map(|(_, w)| index(*w))))
        .collect();
    Runs { runs, of }
}

/// Draws the challenges of step 1.
pub fn challenges(shape: Shape, relations: &[Relation<'_>], transcript: &mut Transcript) -> Challenges {
    let q = relations.iter().map(|r| r.wires.vars()).max().unwrap_or(0);
    Challenges {
        lambda: transcript.challenge_fields(LABEL_LAMBDA, relations.len()),
        rho_y: transcript.challenge_fields(LABEL_RHO_Y, shape.n()),
        rho_w: transcript.challenge_fields(LABEL_RHO_W, q),
    }
}

/// `e[j] = eq(rho_w, j)` for `j < run.len`.
pub fn wire_weights(run: Wires, rho_w: &[Gf128]) -> Vec<Gf128> {
    let mut e = eq_table(&rho_w[..run.vars()]);
    e.truncate(run.len);
    e
}

/// `M(w) = sum_g W_g(r) e_g[w - base_g]` over the public block.
pub fn block_weights(runs: &[Wires], weights_at_r: &[Gf128], rho_w: &[Gf128], p: usize) -> Vec<Gf128> {
    let mut m = vec![Gf128::ZERO; 1 << p];
    for (&run, &w) in runs.iter().zip(weights_at_r) {
        for (o, e) in m[run.base..run.base + run.len]
            .iter_mut()
            .zip(wire_weights(run, rho_w))
        {
            *o += w * e;
        }
    }
    m
}

/// Verifies a wiring proof against `relations` (whose values the verifier
/// supplies); on success returns the claim `z(r, s)` for the opening. The
/// public values are weighed [`RowByRow`].
pub fn verify(
    shape: Shape,
    p: usize,
    relations: &[Relation<'_>],
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
) -> Result<EvalClaim, PiopError> {
    verify_with(shape, p, relations, proof, grinding_bits, transcript, &RowByRow)
}

/// [`verify`], weighing the public values with `rows`.
pub fn verify_with(
    shape: Shape,
    p: usize,
    relations: &[Relation<'_>],
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
    rows: &dyn PublicRows,
) -> Result<EvalClaim, PiopError> {
    verify_via(
        shape,
        p,
        relations,
        proof,
        grinding_bits,
        transcript,
        rows,
        &mut Clear,
    )
}

/// [`verify_with`] with the messages reaching the verifier through
/// `channel`; veiled, the final check is a constraint on the pads (the
/// claim itself is public: it comes from the public values).
#[allow(clippy::too_many_arguments)]
pub fn verify_via<C: Channel>(
    shape: Shape,
    p: usize,
    relations: &[Relation<'_>],
    proof: &Proof,
    grinding_bits: u32,
    transcript: &mut Transcript,
    rows: &dyn PublicRows,
    channel: &mut C,
) -> Result<EvalClaim<C::Value>, PiopError> {
    check(shape, p, relations)?;
    let rounds = shape.n() + p;
    let nonces = if grinding_bits > 0 { rounds } else { 0 };
    if proof.rounds.len() != rounds || proof.nonces.len() != nonces {
        return Err(PiopError::WrongLength {
            what: "wiring rounds and nonces",
            expected: rounds + nonces,
            got: proof.rounds.len() + proof.nonces.len(),
        });
    }
    let mut nonce = proof.nonces.iter();
    let mut challenge = |round: &QuadraticRound, transcript: &mut Transcript| {
        transcript.absorb_fields(LABEL_ROUND, &[round.c0, round.c2]);
        if grinding_bits > 0 {
            let n = nonce.next().copied().unwrap_or_default();
            if !transcript.check_grind(LABEL_POW_R, grinding_bits, n) {
                return Err(PiopError::ProofOfWork("a wiring round's challenge"));
            }
        }
        Ok(transcript.challenge_field(LABEL_R))
    };
    let ch = challenges(shape, relations, transcript);
    let runs = runs(relations);
    // The public side of step 2.
    let at_rho = WeightsAt::new(&ch.rho_y, None);
    let mut public = Gf128::ZERO;
    for (rel, &lambda) in relations.iter().zip(&ch.lambda) {
        let e = wire_weights(rel.wires, &ch.rho_w);
        public += lambda * weigh_values(&rel.values, &rel.instances, &at_rho, &e, rows);
    }
    let mut claim = C::Value::from(public);
    let (instance_rounds, wire_rounds) = proof.rounds.split_at(shape.n());
    let mut r = Vec::with_capacity(shape.n());
    for round in instance_rounds {
        let x = challenge(round, transcript)?;
        claim = next_claim(channel.receive(round.c0), channel.receive(round.c2), claim, x);
        r.push(x);
    }
    let at_r = WeightsAt::new(&ch.rho_y, Some(&r));
    let mut weights_at_r = vec![Gf128::ZERO; runs.runs.len()];
    for ((rel, &(own, from)), &lambda) in relations.iter().zip(&runs.of).zip(&ch.lambda) {
        weights_at_r[own] += lambda * at_r.own(&rel.instances);
        if let (Some((source, _)), Some(from)) = (&rel.from, from) {
            weights_at_r[from] += lambda * at_r.source(&rel.instances, source);
        }
    }
    let mut s = Vec::with_capacity(p);
    for round in wire_rounds {
        let x = challenge(round, transcript)?;
        claim = next_claim(channel.receive(round.c0), channel.receive(round.c2), claim, x);
        s.push(x);
    }
    transcript.absorb_field(LABEL_EVAL, proof.z_eval);
    let z_eval = channel.receive(proof.z_eval);
    let eq_s = eq_table(&s);
    let m_at_s: Gf128 = block_weights(&runs.runs, &weights_at_r, &ch.rho_w, p)
        .iter()
        .zip(&eq_s)
        .map(|(a, b)| *a * *b)
        .sum();
    if !channel.require(claim, z_eval.clone() * m_at_s) {
        return Err(PiopError::WiringFinalCheck);
    }
    s.resize(shape.k(), Gf128::ZERO);
    Ok(EvalClaim {
        weights: InstanceWeights::from_point(&r),
        wire_point: s,
        value: z_eval,
    })
}

/// The wiring check's soundness error terms, as `(what, log2 of the error)`.
///
/// * Batching (step 1): if some relation fails at some `(y, j)`, the batched
///   sum is a nonzero polynomial in `(lambda, rho_y, rho_w)` of total degree
///   at most `1 + n + q` (degree 1 in `lambda` and in each coordinate of the
///   multilinear `eq`s), so it vanishes at the random point with probability
///   at most `(1 + n + q) / |F|` (Schwartz–Zippel). `q <= p`.
///   `grinding_bits` of proof of work done by the caller immediately before
///   the challenges divide this term by `2^grinding_bits`.
/// * The two sumchecks: `n + p` rounds of degree 2, `2 / |F|` each
///   (Lund–Fortnow–Karloff–Nisan; Thaler, §4.1), each divided by
///   `2^grinding_bits` when the prover grinds before every round's
///   challenge (a cheating prover pays that much work per try at a lucky
///   challenge; counted in the random-oracle cost model, as every grinding
///   term is). Without it these rounds alone would cost the secure profile a
///   quarter of its 120-bit budget.
pub fn soundness_terms(shape: Shape, p: usize, grinding_bits: u32) -> Vec<(&'static str, f64)> {
    vec![
        (
            "wiring batching point",
            log2_error((1 + shape.n() + p) as f64, 0.0) - grinding_bits as f64,
        ),
        (
            "wiring sumcheck rounds",
            log2_error(2.0 * (shape.n() + p) as f64, 0.0) - grinding_bits as f64,
        ),
    ]
}
