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

/// Elements per run of the weight pass (see [`OpeningWeights::fill`]).
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
    let (s, weights, claim) = reduce(table, live_len, claims, transcript, hidden)?;
    let (weights, first_round) = weights.table_with_round(table, first_var);
    Ok((
        s,
        ProverReduction {
            weights,
            claim,
            first_round,
        },
    ))
}

/// [`prove`] without the weight table: the bit evaluations, the opening
/// weight as the rule that computes it, the opening claim and the first
/// round (computed a chunk of weights at a time).
pub(crate) fn prove_computed(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    first_var: usize,
    transcript: &mut Transcript,
) -> Result<(Vec<BitEvaluations>, OpeningWeights, Gf128, Option<QuadraticRound>), PcsError> {
    let (s, weights, claim) = reduce(table, live_len, claims, transcript, false)?;
    let first_round = weights.first_round(table, first_var);
    Ok((s, weights, claim, first_round))
}

/// Ring switching up to the opening: the bit evaluations (absorbed), the
/// opening weight and the opening claim.
fn reduce(
    table: &[Gf128],
    live_len: usize,
    claims: &[PackedClaim],
    transcript: &mut Transcript,
    hidden: bool,
) -> Result<(Vec<BitEvaluations>, OpeningWeights, Gf128), PcsError> {
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
    let weights = OpeningWeights::new(
        table.len(),
        live_len,
        claims,
        &r2,
        &gammas,
        bit_matrix::accelerated(),
    );
    let claim = combined_claim(&s, &r2, &gammas);
    Ok((s, weights, claim))
}

/// `w0(x) = sum_i M_i(eq(R_i, x))` for `x < live_len` and zero past it,
/// where `M_i` is the GF(2)-linear map sending bit `v` to `gamma_i eq(r'',
/// v)`: a rule that fills any run of entries inside one chunk of `2^lo`
/// (one `x_hi`), from the claims' split eq tables and the maps. The table
/// is built from it ([`OpeningWeights::table_with_round`]), or never built:
/// an opening that folds over the committed table computes each entry
/// when its fold reads it ([`OpeningWeights::first_round`],
/// `PairTable::fold_first_over`), twice in all, and holds one table-sized
/// buffer where it held two.
pub(crate) struct OpeningWeights {
    /// The table's length.
    len: usize,
    live_len: usize,
    /// Low variables of a chunk.
    lo: usize,
    maps: Maps,
    /// Claim `i`'s `eq(R_i_lo, .)` and `eq(R_i_hi, .)`.
    eq_lo: Vec<Vec<Gf128>>,
    eq_hi: Vec<Vec<Gf128>>,
}

/// The maps `M_i`: bit-matrix products (`starling_field::bit_matrix`) where
/// a kernel runs them, byte tables otherwise.
enum Maps {
    Bytes(Vec<ByteTables>),
    Matrix(Vec<SliceMap>),
}

impl OpeningWeights {
    fn new(
        len: usize,
        live_len: usize,
        claims: &[PackedClaim],
        r2: &[Gf128],
        gammas: &[Gf128],
        matrix: bool,
    ) -> Self {
        let num_vars = len.trailing_zeros() as usize;
        let lo = num_vars.min(LOG_CHUNK);
        let eq_r2 = eq_table(r2);
        let images = |gamma: Gf128| -> [Gf128; 128] { core::array::from_fn(|v| gamma * eq_r2[v]) };
        // Each claim's tables on rayon, as in `bit_evaluations_matrix`.
        let (maps, (eq_lo, eq_hi)) = rayon::join(
            || match matrix {
                true => Maps::Matrix(gammas.par_iter().map(|&g| SliceMap::new(&images(g))).collect()),
                false => Maps::Bytes(gammas.par_iter().map(|&g| ByteTables::new(&images(g))).collect()),
            },
            || {
                rayon::join(
                    || claims.par_iter().map(|c| eq_table(&c.point[..lo])).collect(),
                    || claims.par_iter().map(|c| eq_table(&c.point[lo..])).collect(),
                )
            },
        );
        OpeningWeights {
            len,
            live_len,
            lo,
            maps,
            eq_lo,
            eq_hi,
        }
    }

    /// Writes entries `start .. start + out.len()`, which lie in one chunk.
    fn fill(&self, start: usize, out: &mut [Gf128]) {
        let live = self.live_len.saturating_sub(start).min(out.len());
        let (out, past) = out.split_at_mut(live);
        past.fill(Gf128::ZERO);
        if out.is_empty() {
            return;
        }
        let chunk = 1usize << self.lo;
        let (h, offset) = (start >> self.lo, start & (chunk - 1));
        debug_assert!(offset + out.len() <= chunk, "a run inside one chunk");
        // A claim whose `eq(R_hi, x_hi)` is zero adds nothing to this chunk
        // (`support_vars`).
        let live: Vec<usize> = (0..self.eq_hi.len())
            .filter(|&c| !self.eq_hi[c][h].is_zero())
            .collect();
        let run = RUN.min(out.len());
        let mut e = vec![vec![0u128; run]; live.len()];
        let mut bytes = vec![[0u8; 16]; run];
        for (i, out_run) in out.chunks_mut(run).enumerate() {
            let (at, n) = (offset + i * run, out_run.len());
            out_run.fill(Gf128::ZERO);
            // `e[k]` holds the scaled eq values of the `k`-th live claim.
            for (ek, &c) in e.iter_mut().zip(&live) {
                let lo_c = Gf128::as_u128_slice(&self.eq_lo[c][at..at + n]);
                backend::scale_into(&mut ek[..n], lo_c, self.eq_hi[c][h].to_bits());
            }
            match &self.maps {
                // Table-major: one claim and eight byte positions (32 KiB of
                // tables) at a time, so tables and run stay in L1.
                Maps::Bytes(maps) => {
                    for (ek, &c) in e.iter().zip(&live) {
                        for (b, x) in bytes.iter_mut().zip(&ek[..n]) {
                            *b = x.to_le_bytes();
                        }
                        maps[c].add_octet(0, &bytes[..n], out_run);
                        maps[c].add_octet(1, &bytes[..n], out_run);
                    }
                }
                Maps::Matrix(maps) if !live.is_empty() => {
                    let maps: Vec<&SliceMap> = live.iter().map(|&c| &maps[c]).collect();
                    let inputs: Vec<&[u128]> = e.iter().map(|ek| &ek[..n]).collect();
                    bit_matrix::apply_maps_sum(&maps, &inputs, Gf128::as_u128_slice_mut(out_run));
                }
                Maps::Matrix(_) => {}
            }
        }
    }

    /// Writes entries `start .. start + out.len()`, chunk by chunk.
    pub(crate) fn fill_runs(&self, start: usize, out: &mut [Gf128]) {
        let chunk = self.chunk();
        let mut at = start;
        let mut rest = out;
        while !rest.is_empty() {
            let n = (chunk - at % chunk).min(rest.len());
            let (run, more) = rest.split_at_mut(n);
            self.fill(at, run);
            (at, rest) = (at + n, more);
        }
    }

    /// Entries filled at a time: a chunk, or less for a small table.
    fn chunk(&self) -> usize {
        1usize << self.lo
    }

    /// The table, and with it the round binding variable `v` of `sum_x
    /// f(x) w(x)` ([`weights_round`]).
    fn table_with_round(&self, table: &[Gf128], v: usize) -> (ScratchVec, Option<QuadraticRound>) {
        // Every live chunk is written, and the rest is zero: no pass over
        // the whole table, and the pages of its zero tail are never touched.
        let mut weights = scratch::take_field_zero_past(self.len, self.live_len);
        let round = weights_round(
            table,
            self.live_len,
            self.chunk(),
            v,
            Some(&mut weights),
            |at, out| self.fill(at, out),
        );
        (weights, round)
    }

    /// The round binding variable `v` of `sum_x f(x) w(x)`, the weights
    /// computed a chunk at a time and dropped.
    pub(crate) fn first_round(&self, table: &[Gf128], v: usize) -> Option<QuadraticRound> {
        weights_round(table, self.live_len, self.chunk(), v, None, |at, out| {
            self.fill(at, out)
        })
    }
}

/// The round binding variable `v` of `sum_x f(x) w(x)`, `w` filled a
/// chunk at a time by `fill(start, chunk)` into `stored` or, without it,
/// into each task's own buffers. Where the pairs `x`, `x + 2^v` lie in one
/// chunk each chunk is summed as soon as it is written; otherwise each task
/// fills a chunk of one half of a block of `2^(v + 1)` entries and its
/// partner in the other half and sums them pairwise, so every sum reads
/// entries still in cache. The tasks are single chunks or pairs, never
/// whole blocks: the opening binds level 0's lowest row variable, whose
/// blocks are two rows (BLAKE3 at 2^16 compressions: 50 live blocks of 64,
/// four waves on sixteen threads). Entries from `live_len` on are zero,
/// neither filled nor summed (`table` is zero there too, so they add
/// nothing to the round).
fn weights_round(
    table: &[Gf128],
    live_len: usize,
    chunk: usize,
    v: usize,
    stored: Option<&mut ScratchVec>,
    fill: impl Fn(usize, &mut [Gf128]) + Sync,
) -> Option<QuadraticRound> {
    let unit = chunk.max(2 << v).min(table.len());
    let half = unit / 2;
    // A chunk from `live_len` on is zero: a stored one is left untouched
    // (its pages too), a task's own buffer is cleared.
    let fill_live = |at: usize, w: &mut [Gf128], clear: bool| {
        if at < live_len {
            fill(at, w);
        } else if clear {
            w.fill(Gf128::ZERO);
        }
    };
    // Chunk `w` at `at`, alone or with its partner `w1` half a unit on.
    let sum = |s: &mut RoundSums, at: usize, w: &mut [Gf128], w1: Option<&mut [Gf128]>, clear: bool| {
        fill_live(at, w, clear);
        match w1 {
            None if table.len() >= 2 => s.add_at(&table[at..at + w.len()], w, v),
            None => {}
            Some(w1) => {
                fill_live(at + half, w1, clear);
                let (f0, f1) = (&table[at..at + w.len()], &table[at + half..at + half + w1.len()]);
                s.add_halves(f0, f1, w, w1);
            }
        }
    };
    let paired = unit != chunk;
    let sums = match stored {
        Some(weights) if !paired => weights
            .par_chunks_mut(chunk)
            .enumerate()
            .filter(|(h, _)| h * chunk < live_len)
            .fold(RoundSums::new, |mut s, (h, w)| {
                sum(&mut s, h * chunk, w, None, false);
                s
            })
            .reduce(RoundSums::new, RoundSums::merge),
        Some(weights) => weights
            .par_chunks_mut(unit)
            .enumerate()
            .flat_map(|(u, out)| {
                let (o0, o1) = out.split_at_mut(half);
                o0.par_chunks_mut(chunk)
                    .zip(o1.par_chunks_mut(chunk))
                    .enumerate()
                    .map(move |(c, pair)| (u * unit + c * chunk, pair))
            })
            .filter(|(at, _)| *at < live_len)
            .fold(RoundSums::new, |mut s, (at, (w, w1))| {
                sum(&mut s, at, w, Some(w1), false);
                s
            })
            .reduce(RoundSums::new, RoundSums::merge),
        None => {
            let starts: Vec<usize> = match paired {
                false => (0..table.len()).step_by(chunk).collect(),
                true => (0..table.len())
                    .step_by(unit)
                    .flat_map(|u| (u..u + half).step_by(chunk))
                    .collect(),
            };
            starts[..starts.partition_point(|&at| at < live_len)]
                .par_iter()
                .fold(
                    || (RoundSums::new(), vec![Gf128::ZERO; 2 * chunk]),
                    |(mut s, mut buf), &at| {
                        let (w, w1) = buf.split_at_mut(chunk);
                        sum(&mut s, at, w, paired.then_some(w1), true);
                        (s, buf)
                    },
                )
                .map(|(s, _)| s)
                .reduce(RoundSums::new, RoundSums::merge)
        }
    };
    (table.len() >= 2).then(|| sums.finish())
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
                    let weights = |matrix| OpeningWeights::new(n, live_len, &claims, &r2, &gammas, matrix);
                    assert_eq!(
                        weights(true).table_with_round(&live_table, v),
                        weights(false).table_with_round(&live_table, v),
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
        let opening_weights = OpeningWeights::new(
            table.len(),
            live_len,
            &claims,
            &r2,
            &gammas,
            bit_matrix::accelerated(),
        );
        let (weights, _) = opening_weights.table_with_round(table, 0);
        // Pairs inside a chunk, at its edge, and across chunks.
        for v in [0, 1, 5, LOG_CHUNK - 1, LOG_CHUNK, num_vars - 1] {
            let (w, round) = opening_weights.table_with_round(table, v);
            assert_eq!(w, weights, "live {live_len}, v = {v}");
            // Computed and dropped a chunk at a time, the same round.
            assert_eq!(
                opening_weights.first_round(table, v),
                round,
                "live {live_len}, v = {v}"
            );
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
