//! The zerocheck prover: one pass over the bits for the skip messages, one
//! pass over the bits for the first sumcheck round, then sumcheck rounds
//! each fused with the fold of the round before.
//!
//! Skip pass. `P_ab(e) = sum_x eq(tau', x) a_hat_x(e) b_hat_x(e)` with
//! GF(2^8)-valued `c_x(e) = a_hat_x(e) b_hat_x(e)`. Split `eq = eq_lo * eq_hi`
//! over chunks of `2^11` words and write `eq_lo(w) = sum_k g_k(w) x^k` with
//! coordinates `g_k(w)` in GF(2^8) (`1, x, ..., x^15` is a GF(2^8)-basis of
//! F because `x` generates F). The inner sums `sum_w g_k(w) c_w(e)` are then
//! GF(2^8) dot products (GFNI: one `gf2p8affineqb` per coordinate and word;
//! for `c` one per coordinate and eight words, on bit-transposed words); per
//! chunk 127 field products by `eq_hi` finish the job. No GF(2^128) product
//! is spent per word.
//!
//! Sumcheck. With `A(w) = sum_y bit y of w * L_y(r0)` (byte tables, or GFNI
//! on 64 byte-transposed words), round 0 reads the bits; the fold at `r_0`
//! reads them again and writes `A`, `B` at half length while computing round
//! 1; each later fold writes the next, half as long, while computing the
//! next round (`eq` split in a low and a high table, Gruen's factoring; the
//! low sums stay unreduced). Every fold runs in place: the fold at `r_0`
//! turns each pair of words into one field element in the same 16 bytes, so
//! the buffers of `a` and `b` themselves serve all rounds and the zerocheck
//! allocates no field vector at all.
//!
//! Zero tail. Wires past a circuit's last used wire are zero in every
//! instance, and with the instance index low in a bit's index they are the top
//! of every vector (39% of BLAKE3's). A stretch where `a`, `b`, `c` are zero
//! adds nothing to any sum above, and folds to zeros, so every pass stops at
//! the live length (the caller's, or [`live_len`] read from the data); the
//! folded vectors are zero past their own live length.

use starling_crypto::Grind;
use starling_field::Gf128Slices;
use std::sync::OnceLock;

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::{ByteLinearMap, Gf128, Gf8};
use starling_poly::multilinear::eq_table;

use super::from_b::{FromB, ReadA};
use super::{GruenRound, Output, Proof};
use super::{LABEL_EVALS, LABEL_P, LABEL_R, LABEL_R0, LABEL_ROUND, LABEL_V};
use crate::cover::{Cover, Plain};
use crate::kernels::{ByteRow, ExtTables, Kernels, SkipAcc, SkipWeights, WordWeights};
use crate::skip::{lagrange_at_extra_points, lagrange_weights, EXTRA_POINTS, SKIP_SIZE};
use crate::{challenge_nonzero_point, Shape};
use starling_verifier::circuit::a_from_b::AFromB;

/// See [`crate::prepare_tables`].
pub(crate) fn prepare_tables() {
    ext_tables();
    coord_maps();
    Kernels::get().prepare_tables();
}

/// The byte tables of `a_hat` on the 63 extra points (see [`ExtTables`]).
pub(crate) fn ext_tables() -> &'static ExtTables {
    static TABLES: OnceLock<ExtTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let ell = lagrange_at_extra_points();
        let mut t = ExtTables::zero_rows();
        for (j, tj) in t.iter_mut().enumerate() {
            for (m, row) in tj.iter_mut().enumerate() {
                for (e, ell_e) in ell.iter().enumerate() {
                    row.0[e] = (0..8)
                        .filter(|bit| (m >> bit) & 1 == 1)
                        .fold(0u8, |acc, bit| acc ^ ell_e[8 * j + bit].0);
                }
            }
        }
        ExtTables::new(t)
    })
}

/// The change of basis between F and its GF(2^8)-coordinates in the basis
/// `1, x, ..., x^15`: coordinate `g_k` is byte `k` of the 16-byte encoding,
/// with bit `i` of it standing for `embed(X^i) x^k`.
pub(crate) struct CoordMaps {
    /// F -> coordinates.
    pub(crate) to_coords: ByteLinearMap,
    /// Coordinates -> F: bit `8 k + i` goes to `embed(X^i) x^k`.
    pub(crate) from_coords: ByteLinearMap,
}

pub(crate) fn coord_maps() -> &'static CoordMaps {
    static MAPS: OnceLock<CoordMaps> = OnceLock::new();
    MAPS.get_or_init(|| {
        let images: [Gf128; 128] =
            core::array::from_fn(|j| Gf8(1 << (j % 8)).embed() * Gf128::new(1u128 << (j / 8)));
        // Gaussian elimination on (image, preimage) pairs until image j is x^j.
        let mut pairs: Vec<(u128, u128)> = images
            .iter()
            .enumerate()
            .map(|(j, im)| (im.to_bits(), 1u128 << j))
            .collect();
        for bit in 0..128 {
            let pivot = (bit..128)
                .find(|&i| (pairs[i].0 >> bit) & 1 == 1)
                .expect("1, x, ..., x^15 is a GF(2^8)-basis of F");
            pairs.swap(bit, pivot);
            let (pi, pp) = pairs[bit];
            for (i, pair) in pairs.iter_mut().enumerate() {
                if i != bit && (pair.0 >> bit) & 1 == 1 {
                    pair.0 ^= pi;
                    pair.1 ^= pp;
                }
            }
        }
        let inverse: [Gf128; 128] = core::array::from_fn(|j| Gf128::new(pairs[j].1));
        CoordMaps {
            to_coords: ByteLinearMap::new(&inverse),
            from_coords: ByteLinearMap::new(&images),
        }
    })
}

/// log2 of the words per skip chunk: the chunk's `eq_lo` coordinates and
/// matrices (`2^11 * 144` bytes) and the extra-point tables (128 KB) stay
/// in L2.
const SKIP_CHUNK_LOG: usize = 11;

/// Most chunks or blocks in one rayon leaf of a pass (each is a few tens of
/// microseconds of work). Left to itself, rayon splits a pass into a few
/// leaves per thread, and the thread that finished first had nothing left
/// to steal while the other worked through its last leaf: 5 ms of one idle
/// thread at the end of BLAKE3's skip pass on two threads (Zen 3).
pub(super) const LEAF_ITEMS: usize = 4;

/// Words per step of the backward scan in [`live_len`].
const TAIL_SCAN_WORDS: usize = 256;

/// Steps per thread in one parallel stride of the backward scan: each
/// stride reads `TAIL_SCAN_STEPS * TAIL_SCAN_WORDS` words (512 KiB) per
/// thread.
const TAIL_SCAN_STEPS: usize = 256;

/// A length past which every one of `vectors` is zero: the end of the last
/// [`TAIL_SCAN_WORDS`]-word block holding a nonzero word, capped at the length.
/// For callers that do not know it from their layout ([`prove`]).
pub(crate) fn live_len(vectors: &[&[u64]]) -> usize {
    vectors.iter().map(|v| live_len_of(v)).max().unwrap_or(0)
}

/// [`live_len`] of one vector. The scan walks back from the end in strides
/// of [`TAIL_SCAN_STEPS`] steps per thread, the steps of a stride read in
/// parallel: a zero tail (a third of BLAKE3's forms) is tens of megabytes,
/// and scanned on one thread it held up every other thread for 6 ms.
fn live_len_of(v: &[u64]) -> usize {
    let steps = v.len().div_ceil(TAIL_SCAN_WORDS);
    let stride = TAIL_SCAN_STEPS * rayon::current_num_threads();
    let nonzero = |i: &usize| {
        let at = i * TAIL_SCAN_WORDS;
        v[at..(at + TAIL_SCAN_WORDS).min(v.len())]
            .iter()
            .fold(0, |acc, &w| acc | w)
            != 0
    };
    let mut end = steps;
    while end > 0 {
        let start = end.saturating_sub(stride);
        if let Some(i) = (start..end).into_par_iter().rev().find_first(nonzero) {
            return ((i + 1) * TAIL_SCAN_WORDS).min(v.len());
        }
        end = start;
    }
    0
}

/// Blocks of `block` entries that hold the first `live` entries.
pub(super) fn live_blocks(live: usize, block: usize) -> usize {
    live.div_ceil(block)
}

/// The skip messages `v_y = P_c(s_y)` and `P_ab` at the 63 extra points, in
/// one pass over the words of `a`, `b`, `c`.
#[cfg(test)]
pub(crate) fn skip_messages(
    shape: Shape,
    a: &[u64],
    b: &[u64],
    c: &[u64],
    tau: &[Gf128],
) -> (Vec<Gf128>, Vec<Gf128>) {
    skip_messages_with(
        Kernels::get(),
        shape,
        a,
        b,
        CWords::Stored(c),
        live_len(&[a, b, c]),
        tau,
    )
}

/// Where the zerocheck reads `c`: stored words, or words computed a chunk
/// at a time. `c` is read only by the skip pass, chunk by chunk; a prover
/// whose `c` is cheap to compute from what it holds (`c = C z` from the
/// committed `z`) need not keep a third table-sized vector beside `a` and
/// `b` (for Keccak-f at 2^14 permutations, 128 MiB).
#[derive(Clone, Copy)]
pub enum CWords<'a> {
    /// All `shape.num_words()` words.
    Stored(&'a [u64]),
    /// `fill(start, out)` writes words `start .. start + out.len()` of `c`;
    /// it is asked only for words below the zerocheck's live length.
    Computed(&'a (dyn Fn(usize, &mut [u64]) + Sync)),
    /// `c = a AND b`, word by word, from the chunks of `a` and `b` the pass
    /// reads anyway. That is `C z` exactly when the witness satisfies the
    /// constraints, as one evaluated row by row does: each row's wire is
    /// `(A z)(B z) ⊕ N z`, so `C z = z ⊕ N z` is the AND of its forms. The
    /// proof is then the one `Computed` from `z` gives, without reading `z`
    /// and the addends' rows again. Were the witness wrong, the zerocheck's
    /// claim on `c` would disagree with `C z`, which the lincheck proves
    /// from the committed `z`: the verifier rejects the proof either way.
    AndOfForms,
}

/// [`skip_messages`] with the kernels given, reading the words below `live`
/// (`a`, `b`, `c` are zero past it).
#[cfg(test)]
pub(crate) fn skip_messages_with(
    kernels: Kernels,
    shape: Shape,
    a: &[u64],
    b: &[u64],
    c: CWords<'_>,
    live: usize,
    tau: &[Gf128],
) -> (Vec<Gf128>, Vec<Gf128>) {
    skip_messages_from(kernels, shape, ABits::Stored(a), b, c, live, tau)
}

/// Where the bit passes read `a`'s words: stored, or out of `b`
/// ([`AFromB`]), a chunk at a time into the pass's own buffer.
#[derive(Clone, Copy)]
pub(crate) enum ABits<'a> {
    Stored(&'a [u64]),
    FromB(ReadA<'a, u64>),
}

impl ABits<'_> {
    /// Words `start .. start + len` of `a`: a slice of the stored ones, or
    /// read into `buf` (which grows to `len`).
    fn words<'b>(&'b self, start: usize, len: usize, buf: &'b mut Vec<u64>) -> &'b [u64] {
        match self {
            ABits::Stored(a) => &a[start..start + len],
            ABits::FromB(read) => {
                buf.resize(len, 0);
                read.fill(start, &mut buf[..len]);
                &buf[..len]
            }
        }
    }
}

/// [`skip_messages_with`] for `a` from where [`ABits`] says.
pub(crate) fn skip_messages_from(
    kernels: Kernels,
    shape: Shape,
    a: ABits<'_>,
    b: &[u64],
    c: CWords<'_>,
    live: usize,
    tau: &[Gf128],
) -> (Vec<Gf128>, Vec<Gf128>) {
    let words = shape.num_words();
    if let ABits::Stored(a) = a {
        assert_eq!(a.len(), words, "witness length");
    }
    assert_eq!(b.len(), words, "witness length");
    if let CWords::Stored(c) = c {
        assert_eq!(c.len(), words, "witness length");
    }
    assert_eq!(tau.len(), shape.word_vars());
    let lo = SKIP_CHUNK_LOG.min(tau.len());
    let eq_lo = eq_table(&tau[..lo]);
    let eq_hi = eq_table(&tau[lo..]);
    let maps = coord_maps();
    let coords: Vec<[u8; 16]> = eq_lo
        .iter()
        .map(|&e| maps.to_coords.apply(e).to_bytes())
        .collect();
    let weights = SkipWeights::new(&kernels, coords);
    let ext = ext_tables();
    let chunk = 1usize << lo;
    let from_coords = |rows: &[ByteRow; 16], pos: usize| {
        let g: [u8; 16] = core::array::from_fn(|k| rows[k].0[pos]);
        maps.from_coords.apply(Gf128::from_bytes(g))
    };
    // The sums, the chunk's byte rows (4 KiB) and a computed chunk of `c`
    // (16 KiB) live on the heap: rayon keeps fold state by value in every
    // frame of its split tree and reserves room for the inlined leaf there
    // too, and on many threads that overflowed the workers' stacks (BENCHMARKS.md:
    // "Threads").
    let c_chunk_len = match c {
        CWords::Stored(_) => 0,
        CWords::Computed(_) | CWords::AndOfForms => chunk,
    };
    let zero = || {
        Box::new((
            SkipAcc::new(),
            [Gf128::ZERO; EXTRA_POINTS],
            [Gf128::ZERO; SKIP_SIZE],
            vec![0u64; c_chunk_len],
            Vec::new(),
        ))
    };
    let sums = eq_hi[..live_blocks(live, chunk)]
        .par_iter()
        .enumerate()
        .with_max_len(LEAF_ITEMS)
        .fold(zero, |mut sums, (h, &e_hi)| {
            let (acc, p, v, c_chunk, a_chunk) = &mut *sums;
            let range = h * chunk..(h + 1) * chunk;
            let a = a.words(range.start, chunk, a_chunk);
            let c = match c {
                CWords::Stored(c) => &c[range.clone()],
                CWords::Computed(fill) => {
                    fill(range.start, c_chunk);
                    &c_chunk[..]
                }
                CWords::AndOfForms => {
                    for ((c, &x), &y) in c_chunk.iter_mut().zip(a).zip(&b[range.clone()]) {
                        *c = x & y;
                    }
                    &c_chunk[..]
                }
            };
            *acc = SkipAcc::new();
            kernels.skip_chunk(ext, a, &b[range], c, &weights, acc);
            for (e, pe) in p.iter_mut().enumerate() {
                *pe += e_hi * from_coords(&acc.ab, e);
            }
            for (y, vy) in v.iter_mut().enumerate() {
                *vy += e_hi * from_coords(&acc.z, y);
            }
            sums
        })
        .reduce(zero, |mut sums, other| {
            let (_, p, v, _, _) = &mut *sums;
            p.iter_mut().zip(other.1).for_each(|(x, y)| *x += y);
            v.iter_mut().zip(other.2).for_each(|(x, y)| *x += y);
            sums
        });
    let (_, p, v, _, _) = *sums;
    (v.to_vec(), p.to_vec())
}

/// `eq(tau_rest, .)` as a low table (raw) and a high table, each about half
/// the variables.
pub(super) fn split_eq(tau_rest: &[Gf128]) -> (Vec<u128>, Vec<Gf128>) {
    let split = tau_rest.len().div_ceil(2);
    let e_lo = eq_table(&tau_rest[..split]).iter().map(|e| e.to_bits()).collect();
    (e_lo, eq_table(&tau_rest[split..]))
}

pub(super) fn add_sums(x: (Gf128, Gf128), y: (Gf128, Gf128)) -> (Gf128, Gf128) {
    (x.0 + y.0, x.1 + y.1)
}

fn scaled(e_hi: Gf128, (s0, s2): (u128, u128)) -> (Gf128, Gf128) {
    (e_hi * Gf128::new(s0), e_hi * Gf128::new(s2))
}

pub(super) fn to_round((q0, q2): (Gf128, Gf128)) -> GruenRound {
    GruenRound { q0, q2 }
}

/// Words weighed at a time into a buffer before the field loop.
pub(super) const SUB_WORDS: usize = 512;

/// The two buffers of weighed words of one rayon task.
pub(super) fn weighed_buffers() -> Box<([u128; SUB_WORDS], [u128; SUB_WORDS])> {
    Box::new(([0; SUB_WORDS], [0; SUB_WORDS]))
}

/// Round 0 read from the bits below `live`: `A(w) = sum_y bit y of w * L_y(r0)`.
pub(crate) fn round_from_bits(
    kernels: Kernels,
    w: &WordWeights,
    a: ABits<'_>,
    b: &[u64],
    live: usize,
    tau_rest: &[Gf128],
) -> GruenRound {
    // Per-task buffers on the heap (BENCHMARKS.md: "Threads").
    let init = || (weighed_buffers(), Vec::new());
    round_by_blocks(b, live, tau_rest, init, |(buffers, a_block), h, cb, e_lo| {
        let ca = a.words(h * cb.len(), cb.len(), a_block);
        let (sa, sb) = &mut **buffers;
        let mut sums = (Gf128::ZERO, Gf128::ZERO);
        for ((wa, wb), el) in ca
            .chunks(SUB_WORDS)
            .zip(cb.chunks(SUB_WORDS))
            .zip(e_lo.chunks(SUB_WORDS / 2))
        {
            let n = wa.len();
            kernels.weigh_words(w, wa, &mut sa[..n]);
            kernels.weigh_words(w, wb, &mut sb[..n]);
            let (s0, s2) = kernels.round_field(&sa[..n], &sb[..n], el);
            sums = add_sums(sums, (Gf128::new(s0), Gf128::new(s2)));
        }
        sums
    })
}

/// A round over `tau_rest` from the blocks of `b` below `live` (zero past
/// it), each with its `eq_hi` factor: `block_sums(state, h, block, e_lo)`
/// gives block `h`'s low sums (its `a` read as it likes), `state` each
/// task's own ([`LEAF_ITEMS`] blocks or fewer per rayon leaf).
pub(super) fn round_by_blocks<T: Sync, S>(
    b: &[T],
    live: usize,
    tau_rest: &[Gf128],
    init: impl Fn() -> S + Sync + Send,
    block_sums: impl Fn(&mut S, usize, &[T], &[u128]) -> (Gf128, Gf128) + Sync + Send,
) -> GruenRound {
    let (e_lo, e_hi) = split_eq(tau_rest);
    let block = 2 * e_lo.len();
    let blocks = live_blocks(live, block);
    to_round(
        b[..blocks * block]
            .par_chunks(block)
            .zip(e_hi[..blocks].par_iter())
            .enumerate()
            .with_max_len(LEAF_ITEMS)
            .map_init(init, |state, (h, (cb, &eh))| {
                let sums = block_sums(state, h, cb, &e_lo);
                (eh * sums.0, eh * sums.1)
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), add_sums),
    )
}

/// The words of `v` (two per entry, the low half first).
pub(super) fn words_of(v: &[u128]) -> &[u64] {
    Gf128::as_u64_words(Gf128::from_u128_slice(v))
}

/// Folds the bit words at `r` in place: entry `i` of `a`, `b` holds words
/// `2i` and `2i + 1` and is overwritten by their fold, `A(w_2i) + r (A(w_2i) +
/// A(w_2i+1))`. Returns the next round's message (over `tau_next`) and the
/// live length of the folded vectors. Reads the words below `live` (the rest
/// are zero); the entries past the returned length are zero on return.
#[allow(clippy::too_many_arguments)]
fn fold_bits_in_place(
    kernels: Kernels,
    w: &WordWeights,
    a: &mut [u128],
    b: &mut [u128],
    live: usize,
    r: Gf128,
    tau_next: &[Gf128],
) -> (GruenRound, usize) {
    let (e_lo, e_hi) = split_eq(tau_next);
    let block = 2 * e_lo.len();
    assert!(b.len() == a.len() && a.len() == block * e_hi.len());
    let out_live = live_blocks(live, 2 * block) * block;
    let round = to_round(
        a[..out_live]
            .par_chunks_mut(block)
            .zip(b[..out_live].par_chunks_mut(block))
            .zip(e_hi.par_iter())
            .with_max_len(LEAF_ITEMS)
            // Per-task buffers on the heap (BENCHMARKS.md: "Threads").
            .map_init(weighed_buffers, |buffers, ((ca, cb), &eh)| {
                let (sa, sb) = &mut **buffers;
                let mut sums = (Gf128::ZERO, Gf128::ZERO);
                // Each sub-chunk's words are weighed into the buffers before
                // its entries, the same bytes, are overwritten.
                for ((oa, ob), el) in ca
                    .chunks_mut(SUB_WORDS / 2)
                    .zip(cb.chunks_mut(SUB_WORDS / 2))
                    .zip(e_lo.chunks(SUB_WORDS / 4))
                {
                    let n = 2 * oa.len();
                    kernels.weigh_words(w, words_of(oa), &mut sa[..n]);
                    kernels.weigh_words(w, words_of(ob), &mut sb[..n]);
                    let (s0, s2) = kernels.fold_field_round(&sa[..n], &sb[..n], r.to_bits(), oa, ob, el);
                    sums = add_sums(sums, (Gf128::new(s0), Gf128::new(s2)));
                }
                (eh * sums.0, eh * sums.1)
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), add_sums),
    );
    // Entries past `out_live` fold zeros; those that held live words are cleared.
    let stale = out_live..live.div_ceil(2).clamp(out_live, a.len());
    clear(&mut a[stale.clone()]);
    clear(&mut b[stale]);
    (round, out_live)
}

/// Zeroes `v` on rayon's threads. A fold's stale inputs are up to a
/// quarter of a table (80 MB of each form at 2^16 Keccak-f permutations,
/// in the first field round), a pass over memory that every other thread
/// waited on.
pub(super) fn clear(v: &mut [u128]) {
    v.par_chunks_mut(1 << 14).for_each(|c| c.fill(0));
}

/// Output entries of the first phase of an in-place fold (folded from a
/// copy of its inputs; see [`fold_field_in_place`]).
pub(super) const IN_PLACE_SEED: usize = 1 << 12;

/// Folds the field vectors `a`, `b` at `r` in place: entry `i` of the folded
/// vectors (half as long) overwrites entry `i`, and the folded halves are
/// `a[..len / 2]`, `b[..len / 2]`. Both are zero from `live` on, and the
/// halves are zero from the returned live length on. Returns the next round's
/// message (over `tau_next`) and that length.
///
/// Output `i` reads inputs `2i` and `2i + 1`, so the outputs in `[s, 2s)` only
/// overwrite inputs of outputs below `s`: after a first phase `[0, s)` folded
/// from a copy, the phases `[s, 2s)`, `[2s, 4s)`, .. each read and write
/// disjoint slices and run in parallel, block by block, exactly as the
/// out-of-place fold would.
pub(super) fn fold_field_in_place(
    kernels: Kernels,
    a: &mut [u128],
    b: &mut [u128],
    live: usize,
    r: Gf128,
    tau_next: &[Gf128],
) -> (GruenRound, usize) {
    let half = a.len() / 2;
    assert!(b.len() == a.len() && 2 * half == a.len());
    let (e_lo, e_hi) = split_eq(tau_next);
    let block = 2 * e_lo.len();
    assert_eq!(half, block * e_hi.len());
    // Outputs past `out_live` fold zeros; the inputs there that were not zero
    // (below `live`) are cleared after the fold.
    let out_live = live_blocks(live, 2 * block) * block;
    // Outputs starting at block `first`, from inputs that do not overlap them.
    let run = |out_a: &mut [u128], out_b: &mut [u128], in_a: &[u128], in_b: &[u128], first: usize| {
        out_a
            .par_chunks_mut(block)
            .zip(out_b.par_chunks_mut(block))
            .zip(in_a.par_chunks(2 * block).zip(in_b.par_chunks(2 * block)))
            .enumerate()
            .map(|(i, ((oa, ob), (ca, cb)))| {
                scaled(
                    e_hi[first + i],
                    kernels.fold_field_round(ca, cb, r.to_bits(), oa, ob, &e_lo),
                )
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), add_sums)
    };
    let seed = IN_PLACE_SEED.max(block).min(out_live);
    let (copy_a, copy_b) = (a[..2 * seed].to_vec(), b[..2 * seed].to_vec());
    let mut sums = run(&mut a[..seed], &mut b[..seed], &copy_a, &copy_b, 0);
    let mut start = seed;
    while start < out_live {
        let end = (2 * start).min(out_live);
        let (lo_a, hi_a) = a.split_at_mut(2 * start);
        let (lo_b, hi_b) = b.split_at_mut(2 * start);
        let part = run(
            &mut lo_a[start..end],
            &mut lo_b[start..end],
            &hi_a[..2 * (end - start)],
            &hi_b[..2 * (end - start)],
            start / block,
        );
        sums = add_sums(sums, part);
        start = end;
    }
    let stale = out_live..live.clamp(out_live, half);
    clear(&mut a[stale.clone()]);
    clear(&mut b[stale]);
    (to_round(sums), out_live)
}

/// The out-of-place fold [`fold_field_in_place`] must agree with.
#[cfg(test)]
pub(crate) fn fold_field(
    kernels: Kernels,
    a: &[u128],
    b: &[u128],
    r: Gf128,
    tau_next: &[Gf128],
    out_a: &mut [u128],
    out_b: &mut [u128],
) -> GruenRound {
    let (e_lo, e_hi) = split_eq(tau_next);
    let block = 2 * e_lo.len();
    to_round(
        out_a
            .par_chunks_mut(block)
            .zip(out_b.par_chunks_mut(block))
            .zip(a.par_chunks(2 * block).zip(b.par_chunks(2 * block)))
            .zip(e_hi.par_iter())
            .map(|(((oa, ob), (ca, cb)), &eh)| {
                scaled(eh, kernels.fold_field_round(ca, cb, r.to_bits(), oa, ob, &e_lo))
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), add_sums),
    )
}

/// In-place fold of copies of `a`, `b`: the folded halves and the round.
#[cfg(test)]
pub(crate) fn fold_field_in_place_copy(
    kernels: Kernels,
    a: &[u128],
    b: &[u128],
    r: Gf128,
    tau_next: &[Gf128],
) -> (Vec<u128>, Vec<u128>, GruenRound) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let live = a.len();
    let (round, _) = fold_field_in_place(kernels, &mut a, &mut b, live, r, tau_next);
    a.truncate(a.len() / 2);
    b.truncate(b.len() / 2);
    (a, b, round)
}

/// `x0 + r (x0 + x1)`.
fn fold_pair(x0: Gf128, x1: Gf128, r: Gf128) -> Gf128 {
    x0 + r * (x0 + x1)
}

/// The masked last round (`docs/zk.md`, section 3): with `A(X) = a0 + a1
/// X` from `A0`, `A1` (and `B` alike), the round's `q` is `(A + X(1+X)
/// rho_A)(B + X(1+X) rho_B)`, which agrees with `A B` at 0 and 1; returns
/// `q(0)` and the `X^2`, `X^3`, `X^4` coefficients.
fn masked_last_round(
    [a0, a1_end]: [Gf128; 2],
    [b0, b1_end]: [Gf128; 2],
    [rho_a, rho_b]: [Gf128; 2],
) -> [Gf128; 4] {
    let (a1, b1) = (a0 + a1_end, b0 + b1_end);
    let (alpha1, beta1) = (a1 + rho_a, b1 + rho_b);
    [
        a0 * b0,
        a0 * rho_b + alpha1 * beta1 + rho_a * b0,
        alpha1 * rho_b + rho_a * beta1,
        rho_a * rho_b,
    ]
}

/// The sumcheck's messages as they are sent: covered, absorbed, each
/// followed by its challenge.
pub(super) struct Sent<'a> {
    transcript: &'a mut Transcript,
    cover: &'a mut dyn Cover,
    rounds: Vec<GruenRound>,
    r_prime: Vec<Gf128>,
    high: Option<[Gf128; 2]>,
}

/// What the sumcheck sends and leaves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Sumcheck {
    /// The rounds as sent.
    pub(crate) rounds: Vec<GruenRound>,
    /// A masked last round's `X^3` and `X^4` coefficients, as sent.
    pub(crate) masked_last: Option<[Gf128; 2]>,
    /// `r'`.
    pub(crate) r_prime: Vec<Gf128>,
    /// `(A(r'), B(r'))`, or `(A', B')` when masked.
    pub(crate) evals: (Gf128, Gf128),
}

impl<'a> Sent<'a> {
    /// Nothing sent yet, of `m` rounds.
    pub(super) fn new(transcript: &'a mut Transcript, cover: &'a mut dyn Cover, m: usize) -> Self {
        Sent {
            transcript,
            cover,
            rounds: Vec::with_capacity(m),
            r_prime: Vec::with_capacity(m),
            high: None,
        }
    }

    pub(super) fn finish(self, evals: (Gf128, Gf128)) -> Sumcheck {
        Sumcheck {
            rounds: self.rounds,
            masked_last: self.high,
            r_prime: self.r_prime,
            evals,
        }
    }

    /// Sends a round; returns its challenge.
    pub(super) fn round(&mut self, round: GruenRound) -> Gf128 {
        let sent = GruenRound {
            q0: self.cover.cover(round.q0),
            q2: self.cover.cover(round.q2),
        };
        self.transcript.absorb_fields(LABEL_ROUND, &[sent.q0, sent.q2]);
        let r = self.transcript.challenge_field(LABEL_R);
        self.rounds.push(sent);
        self.r_prime.push(r);
        r
    }

    /// Sends the masked last round of `A`, `B` (their values at 0 and 1);
    /// returns `A'`, `B'` at its challenge.
    fn masked_round(&mut self, a: [Gf128; 2], b: [Gf128; 2], masks: [Gf128; 2]) -> (Gf128, Gf128) {
        let [q0, c2, c3, c4] = masked_last_round(a, b, masks).map(|x| self.cover.cover(x));
        self.transcript.absorb_fields(LABEL_ROUND, &[q0, c2, c3, c4]);
        let r = self.transcript.challenge_field(LABEL_R);
        self.rounds.push(GruenRound { q0, q2: c2 });
        self.high = Some([c3, c4]);
        self.r_prime.push(r);
        let s = r * (Gf128::ONE + r);
        (
            fold_pair(a[0], a[1], r) + s * masks[0],
            fold_pair(b[0], b[1], r) + s * masks[1],
        )
    }
}

/// The sumcheck over the word variables, given the fold weights `L_y(r0)`:
/// returns the round messages as sent (`cover`), the point `r'` and
/// `(A(r'), B(r'))`. `a` and `b` hold two words per entry (zero from word
/// `live` on) and are folded in place. With `masks`, the last round is
/// masked ([`masked_last_round`]): its `X^3`, `X^4` coefficients are
/// returned too, and the evaluations are `A'`, `B'`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sumcheck(
    kernels: Kernels,
    a: &mut [u128],
    b: &mut [u128],
    live: usize,
    lagrange: &[Gf128; SKIP_SIZE],
    tau: &[Gf128],
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
    masks: Option<[Gf128; 2]>,
) -> Sumcheck {
    let m = tau.len();
    let weighing = WordWeights::new(&kernels, lagrange);
    let mut out = Sent::new(transcript, cover, m);

    if m == 1 {
        let weigh = |w: u64| Gf128::new(crate::kernels::portable::weigh(&weighing.tables, w));
        let ends = |v: &[u128]| [weigh(words_of(v)[0]), weigh(words_of(v)[1])];
        if let Some(masks) = masks {
            let evals = out.masked_round(ends(a), ends(b), masks);
            return out.finish(evals);
        }
        let r = out.round(round_from_bits(
            kernels,
            &weighing,
            ABits::Stored(words_of(a)),
            words_of(b),
            live,
            &tau[1..],
        ));
        let fold = |v: &[u128]| {
            let [x0, x1] = ends(v);
            fold_pair(x0, x1, r)
        };
        return out.finish((fold(a), fold(b)));
    }
    let r = out.round(round_from_bits(
        kernels,
        &weighing,
        ABits::Stored(words_of(a)),
        words_of(b),
        live,
        &tau[1..],
    ));
    let (round, live) = fold_bits_in_place(kernels, &weighing, a, b, live, r, &tau[2..]);
    rounds_from(kernels, a, b, live, round, 1, tau, out, masks)
}

/// The sumcheck's rounds from round `first` on, whose message is `round`:
/// `a`, `b` are the tables of that round (zero from entry `live` on),
/// folded in place.
#[allow(clippy::too_many_arguments)]
pub(super) fn rounds_from(
    kernels: Kernels,
    a: &mut [u128],
    b: &mut [u128],
    mut live: usize,
    mut round: GruenRound,
    first: usize,
    tau: &[Gf128],
    mut out: Sent<'_>,
    masks: Option<[Gf128; 2]>,
) -> Sumcheck {
    let mut len = a.len();
    let mut evals = None;
    for j in first..tau.len() {
        if len == 2 {
            let ends = |v: &[u128]| [Gf128::new(v[0]), Gf128::new(v[1])];
            if let Some(masks) = masks {
                evals = Some(out.masked_round(ends(a), ends(b), masks));
                break;
            }
            let r = out.round(round);
            let f = |v: &[u128]| fold_pair(Gf128::new(v[0]), Gf128::new(v[1]), r);
            evals = Some((f(a), f(b)));
            break;
        }
        let r = out.round(round);
        (round, live) = fold_field_in_place(kernels, &mut a[..len], &mut b[..len], live, r, &tau[j + 2..]);
        len /= 2;
    }
    out.finish(evals.expect("the last round folds to a single value"))
}

/// Proves that `a & b == c` bitwise, for word vectors in the batch layout
/// (`a = A z`, `b = B z`, `c = C z`).
///
/// The caller has absorbed the statement and the commitment into
/// `transcript`. Panics if a vector's length does not match `shape`.
///
/// `grinding_bits` of proof of work precede the draws of `tau'` and `r0`.
/// This copies `a` and `b` to work in and finds their zero tail by reading
/// them (`live_len`); [`prove_in_place`] works in the caller's buffers
/// and takes the tail from the caller.
pub fn prove(
    shape: Shape,
    a: &[u64],
    b: &[u64],
    c: &[u64],
    grinding_bits: u32,
    transcript: &mut Transcript,
) -> (Proof, Output) {
    let copy = |words: &[u64]| {
        let mut v = vec![Gf128::ZERO; words.len().div_ceil(2)];
        Gf128::as_u64_words_mut(&mut v)[..words.len()].copy_from_slice(words);
        v
    };
    assert!(
        a.len() == shape.num_words() && b.len() == a.len(),
        "witness length"
    );
    assert_eq!(c.len(), shape.num_words(), "witness length");
    let (mut a2, mut b2) = (copy(a), copy(b));
    prove_in_place(
        shape,
        &mut a2,
        &mut b2,
        CWords::Stored(c),
        live_len(&[a, b, c]),
        grinding_bits,
        transcript,
        &mut Plain,
    )
}

/// [`prove`] with `a` and `b` given as field-element buffers whose words
/// ([`Gf128::as_u64_words`]) are the forms; the prover folds them in place,
/// so they hold no useful value afterwards. `c` is stored or computed on
/// demand ([`CWords`]); the proof is the same.
///
/// `a`, `b` and `c` are zero from word `live` on, which the caller knows
/// from its layout (a circuit's unused wires): no pass reads `c` there, nor
/// scans `a` and `b` for it (19 ms of a Keccak-f proof of 2^14 permutations
/// on one Zen 4 thread, over the 100 MB of its forms' zero tail). A `live`
/// too short gives a proof that does not verify, never a false one.
#[allow(clippy::too_many_arguments)]
pub fn prove_in_place(
    shape: Shape,
    a: &mut [Gf128],
    b: &mut [Gf128],
    c: CWords<'_>,
    live: usize,
    grinding_bits: u32,
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
) -> (Proof, Output) {
    prove_forms(
        shape,
        AForms::Table(a),
        b,
        c,
        live,
        grinding_bits,
        transcript,
        cover,
    )
}

/// [`prove_in_place`] with `a` read out of `b` by `rule`: `stored` holds the
/// rows of `a` the rule stores, one after another (`shape.words_per_wire()`
/// words each, folded in place too). The prover then holds `b` and those
/// rows, not a second table (`from_b`); the proof is the same.
#[allow(clippy::too_many_arguments)]
pub fn prove_in_place_from_b(
    shape: Shape,
    rule: &AFromB,
    stored: &mut [Gf128],
    b: &mut [Gf128],
    c: CWords<'_>,
    live: usize,
    grinding_bits: u32,
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
) -> (Proof, Output) {
    let forms = AForms::FromB { rule, stored };
    prove_forms(shape, forms, b, c, live, grinding_bits, transcript, cover)
}

/// Where the zerocheck reads `a`: a table of its own, or `b` and the rows
/// of `a` that `rule` stores.
enum AForms<'a> {
    Table(&'a mut [Gf128]),
    FromB {
        rule: &'a AFromB,
        stored: &'a mut [Gf128],
    },
}

#[allow(clippy::too_many_arguments)]
fn prove_forms(
    shape: Shape,
    forms: AForms<'_>,
    b: &mut [Gf128],
    c: CWords<'_>,
    live: usize,
    grinding_bits: u32,
    transcript: &mut Transcript,
    cover: &mut dyn Cover,
) -> (Proof, Output) {
    let kernels = Kernels::get();
    let masks = cover.masks();
    let m = shape.word_vars();
    let tau_nonce = transcript.grind(super::LABEL_POW_TAU, grinding_bits);
    let tau = challenge_nonzero_point(transcript, super::LABEL_TAU, m);

    assert!(live <= shape.num_words(), "live length");
    let (v, p_extra) = {
        let a = match &forms {
            AForms::Table(a) => ABits::Stored(Gf128::as_u64_words(a)),
            AForms::FromB { rule, stored } => ABits::FromB(ReadA::bits(
                rule,
                Gf128::as_u64_words(b),
                Gf128::as_u64_words(stored),
                shape.words_per_wire(),
            )),
        };
        skip_messages_from(kernels, shape, a, Gf128::as_u64_words(b), c, live, &tau)
    };
    let v_sent: Vec<Gf128> = v.iter().map(|&x| cover.cover(x)).collect();
    let p_sent: Vec<Gf128> = p_extra.iter().map(|&x| cover.cover(x)).collect();
    transcript.absorb_fields(LABEL_V, &v_sent);
    transcript.absorb_fields(LABEL_P, &p_sent);
    let r0_nonce = transcript.grind(super::LABEL_POW_R0, grinding_bits);
    let r0 = transcript.challenge_field(LABEL_R0);
    let lagrange = lagrange_weights(r0);
    let c_value: Gf128 = lagrange.iter().zip(&v).map(|(l, x)| *l * *x).sum();

    let b = Gf128::as_u128_slice_mut(b);
    let sumcheck = match forms {
        AForms::Table(a) => {
            let a = Gf128::as_u128_slice_mut(a);
            sumcheck(kernels, a, b, live, &lagrange, &tau, transcript, cover, masks)
        }
        AForms::FromB { rule, stored } => {
            let stored = Gf128::as_u128_slice_mut(stored);
            let words_per_wire = shape.words_per_wire();
            let from_b = FromB {
                rule,
                stored,
                words_per_wire,
            };
            from_b.sumcheck(kernels, b, live, &lagrange, &tau, transcript, cover, masks)
        }
    };
    let Sumcheck {
        rounds,
        masked_last,
        r_prime,
        evals: (a_eval, b_eval),
    } = sumcheck;
    let [a_eval, b_eval] = cover.evaluations([a_eval, b_eval]);
    transcript.absorb_fields(LABEL_EVALS, &[a_eval, b_eval]);
    // The lincheck's claims are on `A` and `B` themselves: masked, `A'`
    // less its mask.
    let (a_true, b_true) = match masks {
        Some([rho_a, rho_b]) => {
            let r = r_prime[m - 1];
            let s = r * (Gf128::ONE + r);
            (a_eval + s * rho_a, b_eval + s * rho_b)
        }
        None => (a_eval, b_eval),
    };

    let proof = Proof {
        pow_nonces: [tau_nonce, r0_nonce],
        v: v_sent,
        p_extra: p_sent,
        rounds,
        masked_last,
        a_eval,
        b_eval,
    };
    let out = Output {
        shape,
        tau_prime: tau,
        r0,
        r_prime,
        a_eval: a_true,
        b_eval: b_true,
        c_value,
    };
    (proof, out)
}

#[cfg(test)]
pub(crate) use test_support::*;

#[cfg(test)]
mod test_support {
    use super::*;
    use crate::claims::weigh_word;

    /// `out[x'] = sum_y weights[y] * bit y of words[x']` (eight byte lookups per word).
    pub(crate) fn fold_words(words: &[u64], weights: &[Gf128; SKIP_SIZE]) -> Vec<Gf128> {
        let tables: Vec<[Gf128; 256]> = (0..8)
            .map(|j| starling_field::subset_sums(&weights[8 * j..8 * j + 8]))
            .collect();
        words.par_iter().map(|&w| weigh_word(&tables, w)).collect()
    }

    /// Round message of `sum_{x} eq(tau_rest, x_{>0}) eq(tau_0, x_0) A B` for the
    /// lowest variable: `q(0)` and the `X^2` coefficient of `q`. `tau_rest` are
    /// the coordinates for the variables above the lowest; `eq` over them is
    /// split into a low and a high table so no table longer than about
    /// `2^(len/2)` is built.
    pub(crate) fn gruen_round(fa: &[Gf128], fb: &[Gf128], tau_rest: &[Gf128]) -> GruenRound {
        let split = tau_rest.len().div_ceil(2);
        let e_lo = eq_table(&tau_rest[..split]);
        let e_hi = eq_table(&tau_rest[split..]);
        let len_lo = e_lo.len();
        debug_assert_eq!(fa.len(), 2 * len_lo * e_hi.len());
        let (q0, q2) = e_hi
            .par_iter()
            .enumerate()
            .map(|(h, &eh)| {
                let base = 2 * h * len_lo;
                let pa = &fa[base..base + 2 * len_lo];
                let pb = &fb[base..base + 2 * len_lo];
                let mut s0 = Gf128::ZERO;
                let mut s2 = Gf128::ZERO;
                for ((ca, cb), &el) in pa.chunks_exact(2).zip(pb.chunks_exact(2)).zip(&e_lo) {
                    s0 += el * (ca[0] * cb[0]);
                    s2 += el * ((ca[0] + ca[1]) * (cb[0] + cb[1]));
                }
                (eh * s0, eh * s2)
            })
            .reduce(|| (Gf128::ZERO, Gf128::ZERO), |x, y| (x.0 + y.0, x.1 + y.1));
        GruenRound { q0, q2 }
    }
}
