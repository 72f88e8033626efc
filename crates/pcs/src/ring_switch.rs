//! The prover of ring switching (Diamond–Posen, 2024, Section 3, in the
//! trace form). The protocol, the claims' type, the labels and the
//! verifier are `starling_verifier::pcs::ring_switch`'s (its notes derive
//! the opening weight `w0` and its live prefix); this module computes the
//! prover's bit evaluations and the weight table.
//!
//! The prover works a chunk of `2^12` or `2^14` entries (one value of the
//! high variables) at a time. The `s_u` of up to four claims come from one pass:
//! the bytes of `f[x]` index byte buckets holding the low eq values of all
//! claims, and each chunk's buckets are reduced to 128 sums and scaled by the
//! high eq value, so no full eq table is ever built. `w0` is built by byte
//! tables, one claim and eight byte positions at a time so that the tables
//! stay in L1, and the opening's first sumcheck round is accumulated while
//! each chunk of `w0` is still in cache.

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::bit_matrix::{self, BitSumWeights, SliceMap};
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128Slices;
use starling_field::{backend, Gf128};
use starling_poly::multilinear::eq_table;
use starling_poly::sumcheck_round::QuadraticRound;

pub use starling_verifier::pcs::ring_switch::{
    absorb_claims, check_claims, combined_claim, lambda_sum, transpose_bits, verify, BitEvaluations,
    PackedClaim, VerifierReduction, LABEL_BITS, LABEL_GAMMA, LABEL_R2, MAX_CLAIMS,
};

use crate::sumcheck::RoundSums;
use crate::PcsError;

/// What the prover carries into the opening.
#[derive(Clone, Debug)]
pub struct ProverReduction {
    /// The table of `w0` over `{0,1}^L`.
    pub weights: ScratchVec,
    /// The opening claim `sum_x f(x) w0(x)`.
    pub claim: Gf128,
    /// The opening's first sumcheck round over the table and `weights`
    /// (binding the variable `prove` was given), computed while the weights
    /// were built (absent for a one-entry table).
    pub(crate) first_round: Option<QuadraticRound>,
}

/// Low variables of the prover's chunks: `eq(R, x) = eq(R_lo, x_lo) eq(R_hi, x_hi)`
/// with at most `2^LOG_CHUNK` low entries, and one chunk per `x_hi`.
const LOG_CHUNK: usize = 12;

/// Low variables of the chunks of the bit-evaluation pass, longer than
/// [`LOG_CHUNK`] because each chunk ends with a reduction of all its buckets.
const LOG_BUCKET_CHUNK: usize = 14;

/// Most chunks in one rayon leaf of a bit-evaluation pass: rayon's own
/// splitting left a few leaves per thread, and one thread worked alone
/// through its last for up to 6 ms of BLAKE3's opening on two threads
/// (Zen 3).
const LEAF_CHUNKS: usize = 4;

/// Elements per run of the weight pass (see [`opening_weights`]).
const RUN: usize = 256;

/// Claims whose bit evaluations share one pass over the table.
const GROUP: usize = 4;

/// `s_u = sum_x eq(R, x) bit_u(f[x])` for all 128 `u`.
pub fn bit_evaluations(table: &[Gf128], point: &[Gf128]) -> BitEvaluations {
    assert_eq!(
        table.len(),
        1 << point.len(),
        "table must have 2^len(point) entries"
    );
    bit_evaluations_batch(table, table.len(), &[point])[0]
}

/// The variables a point's `eq` table depends on: up to its last nonzero
/// coordinate. Past them `eq(R, x)` is zero once `x` has a bit set (a factor
/// `1 - x_i` with `x_i = 1`) and is `eq(R_lo, x_lo)` before that, so the
/// point sees only the first `2^vars` entries of the table. The wiring
/// check's claim is such a point: its wire coordinates above the public
/// block are zero, and it sees 1/16 of a SHA-256 table.
fn support_vars(point: &[Gf128]) -> usize {
    point.iter().rposition(|c| !c.is_zero()).map_or(0, |i| i + 1)
}

/// [`bit_evaluations`] for several points, up to [`GROUP`] per pass over the
/// table (entries past `live_len` are zero). Points that see the same prefix
/// of the table ([`support_vars`]) share a pass, which reads only that
/// prefix up to `live_len`.
fn bit_evaluations_batch(table: &[Gf128], live_len: usize, points: &[&[Gf128]]) -> Vec<BitEvaluations> {
    let vars: Vec<usize> = points.iter().map(|p| support_vars(p)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(vars[i]));
    let mut out = vec![[Gf128::ZERO; 128]; points.len()];
    for same in order.chunk_by(|&i, &j| vars[i] == vars[j]) {
        let m = vars[same[0]];
        for group in same.chunks(GROUP) {
            let truncated: Vec<&[Gf128]> = group.iter().map(|&i| &points[i][..m]).collect();
            let table = &table[..1 << m];
            let s = if bit_matrix::accelerated() {
                bit_evaluations_matrix(table, live_len, &truncated)
            } else {
                match group.len() {
                    1 => bit_evaluations_group::<1>(table, live_len, &truncated).to_vec(),
                    2 => bit_evaluations_group::<2>(table, live_len, &truncated).to_vec(),
                    3 => bit_evaluations_group::<3>(table, live_len, &truncated).to_vec(),
                    _ => bit_evaluations_group::<GROUP>(table, live_len, &truncated).to_vec(),
                }
            };
            for (&i, si) in group.iter().zip(s) {
                out[i] = si;
            }
        }
    }
    out
}

/// The entries of `table` a pass in chunks of `2^lo` reads: those before
/// `live_len`, rounded up to whole chunks (past it the entries are zero).
fn live_prefix(table: &[Gf128], live_len: usize, lo: usize) -> &[Gf128] {
    &table[..live_len.next_multiple_of(1 << lo).min(table.len())]
}

/// A field element as two 64-bit halves: XORs of `[Lane; K]` compile to
/// 128-bit vector operations, which `u128` XORs do not.
type Lane = [u64; 2];

fn to_lane(v: Gf128) -> Lane {
    let b = v.to_bits();
    [b as u64, (b >> 64) as u64]
}

fn from_lane(l: Lane) -> u128 {
    u128::from(l[0]) | (u128::from(l[1]) << 64)
}

#[inline(always)]
fn xor_into<const K: usize>(acc: &mut [Lane; K], v: &[Lane; K]) {
    for (a, b) in acc.iter_mut().zip(v) {
        a[0] ^= b[0];
        a[1] ^= b[1];
    }
}

/// A GF(2)-linear map on GF(2^128) as sixteen tables of 256 subset sums
/// (what `starling_field::ByteLinearMap` holds), with the low and high 64
/// bits of every entry in separate tables so that a lookup is one indexed
/// load per half.
struct ByteTables {
    lo: Vec<[u64; 256]>,
    hi: Vec<[u64; 256]>,
}

impl ByteTables {
    /// The map sending bit `v` to `images[v]`.
    fn new(images: &[Gf128; 128]) -> Self {
        let (mut lo, mut hi) = (vec![[0u64; 256]; 16], vec![[0u64; 256]; 16]);
        for ((items, tl), th) in images.chunks_exact(8).zip(&mut lo).zip(&mut hi) {
            for (i, item) in items.iter().enumerate() {
                let half = 1usize << i;
                let v = to_lane(*item);
                for m in 0..half {
                    tl[half + m] = tl[m] ^ v[0];
                    th[half + m] = th[m] ^ v[1];
                }
            }
        }
        ByteTables { lo, hi }
    }

    /// `out[j] += sum over the positions p in `8 * octet .. 8 * octet + 8` of
    /// table p at byte p of `input[j]`.
    #[inline(always)]
    fn add_octet(&self, octet: usize, input: &[[u8; 16]], out: &mut [Gf128]) {
        let (lo, hi) = (
            &self.lo[8 * octet..8 * octet + 8],
            &self.hi[8 * octet..8 * octet + 8],
        );
        for (o, bytes) in out.iter_mut().zip(input) {
            let b = &bytes[8 * octet..8 * octet + 8];
            let mut l = 0u64;
            let mut h = 0u64;
            for i in 0..8 {
                l ^= lo[i][b[i] as usize];
                h ^= hi[i][b[i] as usize];
            }
            *o += Gf128::new(u128::from(l) | (u128::from(h) << 64));
        }
    }
}

/// One bucket: a value per claim, on its own cache line(s).
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Slot<const K: usize>([Lane; K]);

/// Per-thread state of [`bit_evaluations_group`]: byte buckets for the
/// current chunk and the running `s` of every claim.
///
/// Everything lives on the heap: rayon keeps fold state by value in every
/// frame of its split tree and reserves the inlined leaf's locals there too,
/// and with kilobytes per frame deep splits on many threads overflowed the
/// workers' stacks (BENCHMARKS.md: "Threads").
#[derive(Clone)]
struct BitAccumulator<const K: usize> {
    /// Bucket `256 p + b` sums `eq(R_k_lo, x_lo)` (lane `k`) over the
    /// chunk's `x` whose byte `p` is `b`.
    buckets: Vec<Slot<K>>,
    /// Claim `k`'s bit `u` sum of the current chunk at `128 k + u`.
    partial: Vec<u128>,
    /// The running `s` of claim `k`, bit `u`, at `128 k + u`.
    s: Vec<u128>,
}

impl<const K: usize> BitAccumulator<K> {
    fn new() -> Self {
        BitAccumulator {
            buckets: vec![Slot([[0; 2]; K]); 16 * 256],
            partial: vec![0; 128 * K],
            s: vec![0; 128 * K],
        }
    }

    /// Adds one chunk (fixed `x_hi`): buckets of the low eq values by byte,
    /// then per bit `u` the sum of the buckets whose byte has bit `u`, times
    /// `eq(R_hi, x_hi)`.
    fn add_chunk(&mut self, chunk: &[Gf128], eq_lo: &[[Lane; K]], eq_hi: &[u128; K]) {
        // A zero element adds only to the buckets of byte 0, which no sum
        // reads: the zero tail of a circuit's unused wires costs nothing.
        for (f, e) in chunk.iter().zip(eq_lo).filter(|(f, _)| **f != Gf128::ZERO) {
            for (bucket, &byte) in self.buckets.chunks_exact_mut(256).zip(f.to_bytes().iter()) {
                xor_into(&mut bucket[byte as usize].0, e);
            }
        }
        // Sum of bucket[b] over the b with bit i set, for all i, by halving:
        // bit 7 reads the top half, and folding the top half onto the bottom
        // leaves the sums for bits 0..7 unchanged.
        for (p, bucket) in self.buckets.chunks_exact_mut(256).enumerate() {
            for i in (0..8).rev() {
                let half = 1usize << i;
                let (lo, hi) = bucket[..2 * half].split_at_mut(half);
                let mut top = [[0u64; 2]; K];
                for (l, h) in lo.iter_mut().zip(hi.iter()) {
                    xor_into(&mut top, &h.0);
                    xor_into(&mut l.0, &h.0);
                }
                for (k, t) in top.iter().enumerate() {
                    self.partial[128 * k + 8 * p + i] = from_lane(*t);
                }
            }
            bucket.fill(Slot([[0; 2]; K]));
        }
        for (k, (partial, s)) in self
            .partial
            .chunks_exact_mut(128)
            .zip(self.s.chunks_exact_mut(128))
            .enumerate()
        {
            backend::scale_slice(partial, eq_hi[k]);
            for (s, v) in s.iter_mut().zip(partial.iter()) {
                *s ^= *v;
            }
        }
    }

    fn merge(mut self, other: Self) -> Self {
        for (x, y) in self.s.iter_mut().zip(&other.s) {
            *x ^= *y;
        }
        self
    }

    /// The bit sums of each claim.
    fn sums(&self) -> [BitEvaluations; K] {
        core::array::from_fn(|k| core::array::from_fn(|u| Gf128::new(self.s[128 * k + u])))
    }
}

/// Bit evaluations of `K` points in one pass: the bytes of each `f[x]` are
/// read once and index the buckets of all `K` claims together. Reads the
/// table up to `live_len` (whole chunks; the rest is zero).
fn bit_evaluations_group<const K: usize>(
    table: &[Gf128],
    live_len: usize,
    points: &[&[Gf128]],
) -> [BitEvaluations; K] {
    let num_vars = points[0].len();
    let lo = num_vars.min(LOG_BUCKET_CHUNK);
    let mut eq_lo = vec![[[0u64; 2]; K]; 1 << lo];
    let mut eq_hi = vec![[0u128; K]; 1 << (num_vars - lo)];
    for (k, point) in points.iter().enumerate() {
        for (e, v) in eq_lo.iter_mut().zip(eq_table(&point[..lo])) {
            e[k] = to_lane(v);
        }
        for (e, v) in eq_hi.iter_mut().zip(eq_table(&point[lo..])) {
            e[k] = v.to_bits();
        }
    }
    let acc = live_prefix(table, live_len, lo)
        .par_chunks(1 << lo)
        .zip(eq_hi.par_iter())
        .with_max_len(LEAF_CHUNKS)
        .fold(BitAccumulator::<K>::new, |mut acc, (chunk, hi)| {
            acc.add_chunk(chunk, &eq_lo, hi);
            acc
        })
        .reduce(BitAccumulator::<K>::new, BitAccumulator::merge);
    acc.sums()
}

/// Low variables of the chunks of [`bit_evaluations_matrix`]. With 2^13 the
/// split-nibble kernel took 87 ms, not 59, for three claims at L = 22; the
/// GFNI kernels are within 2 ms of their best from 2^11 to 2^13
/// (`bit_matrix_timing`, Zen 4, one thread).
const LOG_MATRIX_CHUNK: usize = 12;

/// Bit evaluations of up to [`GROUP`] points as bit-matrix products
/// (`starling_field::bit_matrix::add_bit_sums`): per chunk (fixed
/// `x_hi`), `sum_{x_lo} bit_u(f[x]) eq(R_lo, x_lo)` for all `u` at once, then
/// times `eq(R_hi, x_hi)`, reading the table up to `live_len` (whole chunks;
/// the rest is zero). Same result as [`bit_evaluations_group`].
fn bit_evaluations_matrix(table: &[Gf128], live_len: usize, points: &[&[Gf128]]) -> Vec<BitEvaluations> {
    let num_vars = points[0].len();
    let lo = num_vars.min(LOG_MATRIX_CHUNK);
    // Each point's tables on rayon: on one thread they held up the pass that
    // follows (0.6 ms on a Zen 1 for 2^16 BLAKE3 compressions).
    let (weights, eq_hi): (Vec<BitSumWeights>, Vec<Vec<Gf128>>) = points
        .par_iter()
        .map(|p| {
            rayon::join(
                || BitSumWeights::new(Gf128::as_u128_slice(&eq_table(&p[..lo]))),
                || eq_table(&p[lo..]),
            )
        })
        .unzip();
    let refs: Vec<&BitSumWeights> = weights.iter().collect();
    let k = points.len();
    let zero = || vec![[0u128; 128]; k];
    let sums = live_prefix(table, live_len, lo)
        .par_chunks(1 << lo)
        .enumerate()
        .with_max_len(LEAF_CHUNKS)
        .fold(zero, |mut acc, (h, chunk)| {
            let mut part = zero();
            bit_matrix::add_bit_sums(Gf128::as_u128_slice(chunk), &refs, &mut part);
            for ((a, p), hi) in acc.iter_mut().zip(part.iter_mut()).zip(&eq_hi) {
                backend::scale_slice(p, hi[h].to_bits());
                for (x, y) in a.iter_mut().zip(p.iter()) {
                    *x ^= *y;
                }
            }
            acc
        })
        .reduce(zero, |mut a, b| {
            for (x, y) in a.iter_mut().zip(&b) {
                for (u, v) in x.iter_mut().zip(y) {
                    *u ^= *v;
                }
            }
            a
        });
    sums.into_iter().map(|s| s.map(Gf128::new)).collect()
}

/// Prover: the bit evaluations to send and the opening weight and claim,
/// with the opening's first round binding variable `first_var` of the table
/// ([`crate::PcsParams::level_log_msg`]`(0)` for the Ligerito opening). The
/// table's entries past `live_len` must be zero (the PCS passes
/// [`crate::PcsParams::live_rows_len`]); the bit evaluations do not read them,
/// and the opening weight is zero there (see the module notes). With
/// `hidden`, the claims' values are not absorbed (a zero-knowledge proof's
/// are veiled, `starling_verifier::pcs::ring_switch::absorb_claims`).
pub fn prove(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    first_var: usize,
    transcript: &mut Transcript,
    hidden: bool,
) -> Result<(Vec<BitEvaluations>, ProverReduction), PcsError> {
    if !table.len().is_power_of_two() {
        return Err(PcsError::BadInput("table length must be a power of two"));
    }
    let num_vars = table.len().trailing_zeros() as usize;
    check_claims(num_vars, live_len, claims)?;
    absorb_claims(transcript, claims, !hidden);
    let points: Vec<&[Gf128]> = claims.iter().map(|c| c.point.as_slice()).collect();
    let s = bit_evaluations_batch(table, live_len, &points);
    for si in &s {
        transcript.absorb_fields(LABEL_BITS, si);
    }
    let r2 = transcript.challenge_fields(LABEL_R2, 7);
    let gammas = transcript.challenge_fields(LABEL_GAMMA, claims.len());
    let (weights, first_round) = opening_weights(table, live_len, claims, &r2, &gammas, first_var);
    let claim = combined_claim(&s, &r2, &gammas);
    Ok((
        s,
        ProverReduction {
            weights,
            claim,
            first_round,
        },
    ))
}

/// The table of `w0(x) = sum_i M_i(eq(R_i, x))` for `x < live_len` and zero
/// past it, where `M_i` is the GF(2)-linear map sending bit `v` to
/// `gamma_i eq(r'', v)`, built a chunk (fixed `x_hi`) at a time; while the
/// chunks are in cache the opening's first round `sum_x f(x) w0(x)` binding
/// variable `first_var` is accumulated too.
fn opening_weights(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    r2: &[Gf128],
    gammas: &[Gf128],
    first_var: usize,
) -> (ScratchVec, Option<QuadraticRound>) {
    if bit_matrix::accelerated() {
        opening_weights_matrix(table, live_len, claims, r2, gammas, first_var)
    } else {
        opening_weights_bytes(table, live_len, claims, r2, gammas, first_var)
    }
}

/// Builds a table like `table` a chunk of `2^lo` entries at a time, `fill(state,
/// h, chunk)` writing chunk `h`, and with it the round binding variable `v`
/// of `sum_x f(x) w(x)`. Where the pairs `x`, `x + 2^v` lie in one chunk each
/// chunk is summed as soon as it is written; otherwise each task writes a
/// chunk of one half of a block of `2^(v + 1)` entries and its partner in
/// the other half and sums them pairwise, so every sum reads entries still
/// in cache. The tasks are single chunks or pairs, never whole blocks: the
/// opening binds level 0's lowest row variable, whose blocks are two rows
/// (BLAKE3 at 2^16 compressions: 50 live blocks of 64, four waves on
/// sixteen threads). Entries from `live_len` on are zero, neither filled
/// nor summed (`table` is zero there too, so they add nothing to the
/// round).
fn weights_with_round<S: Send>(
    table: &[Gf128],
    live_len: usize,
    lo: usize,
    v: usize,
    init: impl Fn() -> S + Sync + Send,
    fill: impl Fn(&mut S, usize, &mut [Gf128]) + Sync + Send,
) -> (ScratchVec, Option<QuadraticRound>) {
    let chunk = 1usize << lo;
    let unit = chunk.max(2 << v).min(table.len());
    // Chunk `h` of the table, cleared past the live length; chunks past it
    // are left as they are, zero.
    let fill_live = |state: &mut S, h: usize, out: &mut [Gf128]| {
        let live = live_len.saturating_sub(h * chunk).min(out.len());
        if live > 0 {
            fill(state, h, out);
            out[live..].fill(Gf128::ZERO);
        }
    };
    // Every live chunk is written by `fill_live`, and the rest is zero:
    // no pass over the whole table, and the pages of its zero tail are
    // never touched.
    let mut weights = scratch::take_field_zero_past(table.len(), live_len);
    let sums = if unit == chunk {
        weights
            .par_chunks_mut(chunk)
            .zip(table.par_chunks(chunk))
            .enumerate()
            .fold(
                || (RoundSums::new(), init()),
                |(mut sums, mut state), (h, (out, f))| {
                    fill_live(&mut state, h, out);
                    if table.len() >= 2 && h * chunk < live_len {
                        sums.add_at(f, out, v);
                    }
                    (sums, state)
                },
            )
            .map(|(sums, _)| sums)
            .reduce(RoundSums::new, RoundSums::merge)
    } else {
        // Chunk `c` of a block's first half and its partner, `half / chunk`
        // chunks on.
        let half = unit / 2;
        let per_half = half / chunk;
        weights
            .par_chunks_mut(unit)
            .zip(table.par_chunks(unit))
            .enumerate()
            .flat_map(|(u, (out, f))| {
                let (o0, o1) = out.split_at_mut(half);
                let (f0, f1) = f.split_at(half);
                let outs = o0.par_chunks_mut(chunk).zip(o1.par_chunks_mut(chunk));
                let ins = f0.par_chunks(chunk).zip(f1.par_chunks(chunk));
                outs.zip(ins)
                    .enumerate()
                    .map(move |(c, pair)| (u * 2 * per_half + c, pair))
            })
            .fold(
                || (RoundSums::new(), init()),
                |(mut sums, mut state), (h, ((a, b), (fa, fb)))| {
                    fill_live(&mut state, h, a);
                    fill_live(&mut state, h + per_half, b);
                    if h * chunk < live_len {
                        sums.add_halves(fa, fb, a, b);
                    }
                    (sums, state)
                },
            )
            .map(|(sums, _)| sums)
            .reduce(RoundSums::new, RoundSums::merge)
    };
    let first_round = (table.len() >= 2).then(|| sums.finish());
    (weights, first_round)
}

/// [`opening_weights`] by byte tables (the path without a bit-matrix kernel).
fn opening_weights_bytes(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    r2: &[Gf128],
    gammas: &[Gf128],
    first_var: usize,
) -> (ScratchVec, Option<QuadraticRound>) {
    let num_vars = table.len().trailing_zeros() as usize;
    let lo = num_vars.min(LOG_CHUNK);
    let eq_r2 = eq_table(r2);
    let maps: Vec<ByteTables> = gammas
        .iter()
        .map(|&gamma| {
            let mut images = [Gf128::ZERO; 128];
            for (img, &e) in images.iter_mut().zip(&eq_r2) {
                *img = gamma * e;
            }
            ByteTables::new(&images)
        })
        .collect();
    let eq_lo: Vec<Vec<u128>> = claims
        .iter()
        .map(|c| eq_table(&c.point[..lo]).iter().map(|e| e.to_bits()).collect())
        .collect();
    let eq_hi: Vec<Vec<Gf128>> = claims.iter().map(|c| eq_table(&c.point[lo..])).collect();
    let run = RUN.min(1 << lo);
    weights_with_round(
        table,
        live_len,
        lo,
        first_var,
        || (vec![0u128; run], vec![[0u8; 16]; run]),
        |(e, bytes), h, out| {
            for (start, out_run) in out.chunks_mut(run).enumerate() {
                let start = start * run;
                // Table-major: one claim and eight byte positions (32 KiB of
                // tables) at a time, so tables and run stay in L1.
                out_run.fill(Gf128::ZERO);
                // A claim whose `eq(R_hi, x_hi)` is zero adds nothing to
                // this chunk (`support_vars`).
                let live = maps
                    .iter()
                    .zip(&eq_lo)
                    .zip(&eq_hi)
                    .filter(|(_, hi_k)| !hi_k[h].is_zero());
                for ((map, lo_k), hi_k) in live {
                    backend::scale_into(e, &lo_k[start..start + run], hi_k[h].to_bits());
                    for (b, x) in bytes.iter_mut().zip(e.iter()) {
                        *b = x.to_le_bytes();
                    }
                    map.add_octet(0, bytes, out_run);
                    map.add_octet(1, bytes, out_run);
                }
            }
        },
    )
}

/// [`opening_weights`] with the maps applied as bit-matrix products
/// (`starling_field::bit_matrix::apply_maps_sum`), all claims of a run
/// together.
fn opening_weights_matrix(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    r2: &[Gf128],
    gammas: &[Gf128],
    first_var: usize,
) -> (ScratchVec, Option<QuadraticRound>) {
    let num_vars = table.len().trailing_zeros() as usize;
    let lo = num_vars.min(LOG_CHUNK);
    let eq_r2 = eq_table(r2);
    // Each claim's tables on rayon, as in `bit_evaluations_matrix`.
    let (maps, (eq_lo, eq_hi)) = rayon::join(
        || {
            gammas
                .par_iter()
                .map(|&gamma| SliceMap::new(&core::array::from_fn(|v| gamma * eq_r2[v])))
                .collect::<Vec<_>>()
        },
        || {
            rayon::join(
                || {
                    claims
                        .par_iter()
                        .map(|c| eq_table(&c.point[..lo]))
                        .collect::<Vec<_>>()
                },
                || {
                    claims
                        .par_iter()
                        .map(|c| eq_table(&c.point[lo..]))
                        .collect::<Vec<_>>()
                },
            )
        },
    );
    let map_refs: Vec<&SliceMap> = maps.iter().collect();
    let run = RUN.min(1 << lo);
    let k = claims.len();
    weights_with_round(
        table,
        live_len,
        lo,
        first_var,
        || vec![vec![0u128; run]; k],
        |e, h, out| {
            // A claim whose `eq(R_hi, x_hi)` is zero adds nothing to this
            // chunk (`support_vars`).
            let live: Vec<usize> = (0..k).filter(|&c| !eq_hi[c][h].is_zero()).collect();
            let maps: Vec<&SliceMap> = live.iter().map(|&c| map_refs[c]).collect();
            for (start, out_run) in out.chunks_mut(run).enumerate() {
                let start = start * run;
                out_run.fill(Gf128::ZERO);
                if live.is_empty() {
                    continue;
                }
                // `e[i]` holds the scaled eq values of the `i`-th live claim.
                for (ek, &c) in e.iter_mut().zip(&live) {
                    let lo_c = Gf128::as_u128_slice(&eq_lo[c][start..start + run]);
                    backend::scale_into(ek, lo_c, eq_hi[c][h].to_bits());
                }
                let inputs: Vec<&[u128]> = e[..live.len()].iter().map(Vec::as_slice).collect();
                bit_matrix::apply_maps_sum(&maps, &inputs, Gf128::as_u128_slice_mut(out_run));
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_poly::multilinear::evaluate;

    fn pseudo_random(n: usize, seed: u128) -> Vec<Gf128> {
        (0..n as u128)
            .map(|i| Gf128::new((i ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835) ^ seed))
            .collect()
    }

    #[test]
    fn grouped_bit_evaluations_match_definition() {
        for num_vars in [0usize, 1, 5, 13, 15] {
            // Zero elements (skipped by the bucket pass), scattered and as a
            // zero tail over the top quarter.
            let mut table = pseudo_random(1 << num_vars, 3);
            let n = table.len();
            for (i, f) in table.iter_mut().enumerate() {
                if i % 5 == 3 || 4 * i >= 3 * n.max(4) {
                    *f = Gf128::ZERO;
                }
            }
            let live_len = if n >= 4 { 3 * n / 4 } else { n };
            // Points whose last coordinates are zero see a prefix of the
            // table (shorter or longer than the live part); the all-zero
            // point sees entry 0 alone.
            let points: Vec<Vec<Gf128>> = (0..8)
                .map(|k| {
                    let mut p = pseudo_random(num_vars, 10 + k);
                    let zeros = [0, 0, 3, 0, 1, 3, num_vars, 2][k as usize].min(num_vars);
                    p[num_vars - zeros..].fill(Gf128::ZERO);
                    p
                })
                .collect();
            let refs: Vec<&[Gf128]> = points.iter().map(Vec::as_slice).collect();
            for count in 1..=refs.len() {
                let s = bit_evaluations_batch(&table, live_len, &refs[..count]);
                for (si, point) in s.iter().zip(&refs) {
                    for u in [0usize, 1, 9, 64, 127] {
                        let bits: Vec<Gf128> = table.iter().map(|f| Gf128::from(f.bit(u))).collect();
                        assert_eq!(si[u], evaluate(&bits, point), "L = {num_vars}, u = {u}");
                    }
                }
            }
        }
    }

    #[test]
    fn matrix_paths_match_byte_paths() {
        for num_vars in [0usize, 3, 6, 12, 14] {
            let table = pseudo_random(1 << num_vars, 7);
            // The last claim's top coordinates are zero: the weight passes
            // skip it where its eq(R_hi, x_hi) is zero.
            let claims: Vec<PackedClaim> = (0..3)
                .map(|k| {
                    let mut point = pseudo_random(num_vars, 60 + k);
                    if k == 2 {
                        point[num_vars / 2..].fill(Gf128::ZERO);
                    }
                    PackedClaim {
                        lambda: pseudo_random(128, 50 + k),
                        point,
                        value: Gf128::ZERO,
                    }
                })
                .collect();
            let points: Vec<&[Gf128]> = claims.iter().map(|c| c.point.as_slice()).collect();
            assert_eq!(
                bit_evaluations_matrix(&table, table.len(), &points).as_slice(),
                bit_evaluations_group::<3>(&table, table.len(), &points).as_slice(),
                "L = {num_vars}"
            );
            let (r2, gammas) = (pseudo_random(7, 70), pseudo_random(3, 71));
            let n = table.len();
            // Live lengths: all, a ragged prefix and half, over a table zero past them.
            for live_len in [n, (n / 3).max(1), n.div_ceil(2)] {
                let mut live_table = table.clone();
                live_table[live_len..].fill(Gf128::ZERO);
                for v in [0, num_vars.saturating_sub(1)] {
                    assert_eq!(
                        opening_weights_matrix(&live_table, live_len, &claims, &r2, &gammas, v),
                        opening_weights_bytes(&live_table, live_len, &claims, &r2, &gammas, v),
                        "L = {num_vars}, live {live_len}, v = {v}"
                    );
                }
            }
        }
    }

    #[test]
    fn fused_first_round_matches_weights() {
        let num_vars = 14;
        // The whole table live, then zero past a live length that ends a
        // chunk, one inside a chunk, and one inside the first half of the
        // table (the round's pairs across the halves read zeros).
        for live_len in [1 << num_vars, 3 << LOG_CHUNK, (3 << LOG_CHUNK) + 1000, 5000] {
            let mut table = pseudo_random(1 << num_vars, 5);
            table[live_len..].fill(Gf128::ZERO);
            check_fused_first_round(&table, live_len);
        }
    }

    fn check_fused_first_round(table: &[Gf128], live_len: usize) {
        let num_vars = table.len().trailing_zeros() as usize;
        // The last claim sees the first 2^13 entries only (top coordinate
        // zero), the one before it the first 2^9 (five zeros): chunks where
        // they add nothing, and one where only the others do.
        let claims: Vec<PackedClaim> = (0..4)
            .map(|k| {
                let mut point = pseudo_random(num_vars, 30 + k);
                point[num_vars - [0, 0, 5, 1][k as usize]..].fill(Gf128::ZERO);
                PackedClaim {
                    lambda: pseudo_random(128, 20 + k),
                    point,
                    value: Gf128::ZERO,
                }
            })
            .collect();
        let (r2, gammas) = (pseudo_random(7, 40), pseudo_random(4, 41));
        let (weights, _) = opening_weights(table, live_len, &claims, &r2, &gammas, 0);
        // Pairs inside a chunk, at its edge, and across chunks.
        for v in [0, 1, 5, LOG_CHUNK - 1, LOG_CHUNK, num_vars - 1] {
            let (w, round) = opening_weights(table, live_len, &claims, &r2, &gammas, v);
            assert_eq!(w, weights, "live {live_len}, v = {v}");
            assert_eq!(
                round,
                Some(crate::sumcheck::product_round_at(table, &weights, v)),
                "live {live_len}, v = {v}"
            );
        }
        assert_eq!(
            crate::sumcheck::product_round_at(table, &weights, 0),
            starling_poly::sumcheck_round::product_round(table, &weights)
        );
        let eq_r2 = eq_table(&r2);
        let edges = [live_len - 1, live_len, live_len + 1];
        for x in [0usize, 1, 4095, 4096, 9999, (1 << num_vars) - 1]
            .into_iter()
            .chain(edges)
        {
            if x >= table.len() {
                continue;
            }
            let mut want = Gf128::ZERO;
            for (c, &gamma) in claims.iter().zip(&gammas).filter(|_| x < live_len) {
                let e = eq_table(&c.point)[x];
                for (v, &ev) in eq_r2.iter().enumerate() {
                    if e.bit(v) {
                        want += gamma * ev;
                    }
                }
            }
            assert_eq!(weights[x], want, "live {live_len}, x = {x}");
        }
    }
}
