//! The additive NTT of Lin, Chung and Han ("Novel polynomial basis and its
//! application to Reed–Solomon erasure codes", FOCS 2014), over GF(2)-subspaces
//! of GF(2^128).
//!
//! The subspace basis is `beta_b = x^b` (the element with integer value 2^b), so
//! the evaluation point with integer label `q` is `Gf128::new(q)`. With the
//! subspace vanishing polynomials `W_0(Y) = Y`, `W_{i+1}(Y) = W_i(Y)(W_i(Y) +
//! W_i(beta_i))` and their normalisations `What_i = W_i / W_i(beta_i)`, the
//! novel basis is `X_j(Y) = prod_b What_b(Y)^{j_b}`. Every `What_i` is
//! GF(2)-linear, so `What_i(q)` is the XOR of `What_i(beta_c)` over the set bits
//! `c` of `q`; one 64 x 128 table of those values drives the whole module.
//!
//! A message `p` of `2^m` coefficients is the polynomial `sum_j p_j X_j`. The
//! forward transform on the coset `c + span(beta_0..beta_{m-1})` (`c` a
//! multiple of `2^m`) runs the rounds `i = m-1 .. 0`; in block `u` of round `i`
//! the twiddle is `t = What_i(c + sum_{b>i} u_b beta_b)` and the butterfly is
//! `lo += t * hi; hi += lo`. Afterwards entry `idx` holds `P(c + idx)`.
//!
//! Batched layout: a "position" is a contiguous block of `batch` field
//! elements, and the butterflies act on whole blocks. Transforming `2^k` rows at
//! once this way leaves every column (one position) contiguous, which is what a
//! Merkle leaf of an interleaved code wants.

use starling_field::Gf128Slices;

use rayon::prelude::*;
use starling_field::{backend, Gf128};
pub use starling_verifier::poly::novel_basis::{
    generator_row_mle, normalized_vanishing, normalized_vanishing_at, novel_basis_at,
};

/// Largest supported subspace dimension (`log2` of the evaluation domain).
pub const MAX_LOG_DOMAIN: usize = 62;

/// The table `j -> X_j(omega_q)` for `j < 2^m`: row `q` of the generator matrix.
pub fn generator_row(m: usize, q: u64) -> Vec<Gf128> {
    let mut table = vec![Gf128::ZERO; 1 << m];
    table[0] = Gf128::ONE;
    for b in 0..m {
        let w = normalized_vanishing(b, q);
        let half = 1usize << b;
        let (lo, hi) = table[..2 * half].split_at_mut(half);
        for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
            *h = *l * w;
        }
    }
    table
}

/// `lo += t * hi; hi += lo` on two equal-length slices (one kernel call).
fn butterfly(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    let (lo, hi) = (Gf128::as_u128_slice_mut(lo), Gf128::as_u128_slice_mut(hi));
    if t.is_zero() {
        for (l, h) in lo.iter().zip(hi.iter_mut()) {
            *h ^= *l;
        }
    } else {
        backend::butterfly(lo, hi, t.to_bits());
    }
}

/// [`butterfly`] reading `src_lo`, `src_hi` and writing `lo`, `hi`.
fn butterfly_from(lo: &mut [Gf128], hi: &mut [Gf128], src_lo: &[Gf128], src_hi: &[Gf128], t: Gf128) {
    let (lo, hi) = (Gf128::as_u128_slice_mut(lo), Gf128::as_u128_slice_mut(hi));
    let (src_lo, src_hi) = (Gf128::as_u128_slice(src_lo), Gf128::as_u128_slice(src_hi));
    if t.is_zero() {
        lo.copy_from_slice(src_lo);
        for ((h, &l), &sh) in hi.iter_mut().zip(src_lo).zip(src_hi) {
            *h = l ^ sh;
        }
    } else {
        backend::butterfly_from(lo, hi, src_lo, src_hi, t.to_bits());
    }
}

/// `hi += t * lo` after `lo += hi`: the transpose of [`butterfly`].
fn butterfly_transposed(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    for (l, h) in lo.iter_mut().zip(hi.iter()) {
        *l += *h;
    }
    scaled_add(hi, lo, t);
}

/// `hi += lo; lo += t * hi`: the inverse of [`butterfly`].
fn butterfly_inverse(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    let (lo, hi) = (Gf128::as_u128_slice_mut(lo), Gf128::as_u128_slice_mut(hi));
    backend::butterfly_inverse(lo, hi, t.to_bits());
}

/// `dst += t * src`.
fn scaled_add(dst: &mut [Gf128], src: &[Gf128], t: Gf128) {
    if t.is_zero() {
        return;
    }
    backend::axpy(
        Gf128::as_u128_slice_mut(dst),
        Gf128::as_u128_slice(src),
        t.to_bits(),
    );
}

/// Elements a block may hold to be transformed depth-first: 512 KiB, which
/// stays in a core's L2 cache.
const LOCAL_ELEMS: usize = 1 << 15;

/// Fewest elements a transform hands to rayon at once (a pass split in
/// halves, the live sub-blocks of [`AdditiveNtt::forward_gathered_at`]): below
/// it the work (a few microseconds) does not pay for a task. A later PCS
/// level's re-encode (2^12 positions of four rows, every round of a pruned
/// block a pass) ran three times slower on two threads than on one.
const PAR_MIN_ELEMS: usize = 1 << 16;

/// Elements one step of a multi-round pass works on: a chunk of offsets of
/// each of its `2^r` sub-blocks, 256 KiB together, which stay in L2 for
/// the pass's `r` rounds.
const PASS_STEP_ELEMS: usize = 1 << 14;

/// Offsets per sub-block in one step of an `r`-round pass. Each kernel call
/// of the pass covers this many elements, so it is made as long as the
/// step allows: at 64 (1 KiB, for L1) the calls' setup cost 7-10% of a
/// transform (`ntt_timing 17 4`, one Zen 4 thread: 5.2-5.4 ms -> 4.6-4.7
/// at 1024; `16 16`: 1.23 -> 1.03 ns per product).
fn pass_chunk(r: usize) -> usize {
    PASS_STEP_ELEMS >> r
}

/// Most rounds in one pass (then 128 offsets per sub-block and step).
const MAX_PASS_ROUNDS: usize = 7;

/// Rounds of the first pass over a block of `len` elements at round `i`:
/// the fewest that leave sub-blocks of at most [`LOCAL_ELEMS`], at most
/// [`MAX_PASS_ROUNDS`] and at most the `i + 1` rounds left.
fn pass_rounds(len: usize, i: usize) -> usize {
    let mut r = 1;
    while r < MAX_PASS_ROUNDS && r <= i && len >> r > LOCAL_ELEMS {
        r += 1;
    }
    r
}

/// The sub-blocks of a pass, restricted to a range of offsets.
type Pieces<'p> = Vec<&'p mut [Gf128]>;

/// The positions of a transposed transform's input that may be nonzero,
/// and the position where the current block starts
/// ([`AdditiveNtt::transposed_sparse`]); `None` where any may be.
type Support<'a> = Option<(&'a [usize], usize)>;

/// A multi-round pass over `pieces` (`r` rounds) cut in two ranges of
/// offsets, on a multiple of the step: the offset where they meet and each
/// range's pieces; `None` on one thread or where a half would be too little
/// work. Each task is at least one step of the pass ([`pass_chunk`]
/// offsets of every sub-block) and [`PAR_MIN_ELEMS`] element-rounds. (A
/// task of eight steps and `PAR_MIN_ELEMS` elements, whatever the rounds,
/// cut a re-encode's four rows of 2^17 positions, four rounds over 2^19
/// elements in steps of 1,024 offsets, into eight tasks for sixteen
/// threads.)
fn split_pass<'p>(pieces: &'p mut [&mut [Gf128]], r: usize) -> Option<(usize, Pieces<'p>, Pieces<'p>)> {
    let width = pieces[0].len();
    let chunk = pass_chunk(r);
    if rayon::current_num_threads() == 1 || width < 2 * chunk || pieces.len() * width * r < 2 * PAR_MIN_ELEMS
    {
        return None;
    }
    let mid = (width / 2).div_ceil(chunk) * chunk;
    let (left, right) = pieces.iter_mut().map(|p| p.split_at_mut(mid)).unzip();
    Some((mid, left, right))
}

/// Writes elements `start .. start + out.len()` of a transform's input
/// into `out` ([`AdditiveNtt::forward_head`]).
pub type Gather<'a> = dyn Fn(usize, &mut [Gf128]) + Sync + 'a;

/// Where a transform finds its input.
#[derive(Clone, Copy)]
enum Input<'a> {
    /// Already in the buffer.
    InPlace,
    /// A slice laid out as the buffer (`forward_from`).
    Slice(&'a [Gf128]),
    /// Written piece by piece as the first pass reaches it.
    Gather(&'a Gather<'a>),
}

/// A pass's input: [`Input`] for its sub-blocks, restricted to a range of
/// offsets.
enum PassInput<'a> {
    InPlace,
    /// The sub-blocks' input slices.
    Slices(Vec<&'a [Gf128]>),
    /// Sub-block `g` at offset `k` is input element `g stride + offset + k`.
    Gather {
        gather: &'a Gather<'a>,
        stride: usize,
        offset: usize,
    },
}

impl<'a> PassInput<'a> {
    /// The input of the sub-blocks of `sub` elements of a block that starts
    /// at input element 0.
    fn new(input: Input<'a>, sub: usize) -> Self {
        match input {
            Input::InPlace => PassInput::InPlace,
            Input::Slice(src) => PassInput::Slices(src.chunks(sub).collect()),
            Input::Gather(gather) => PassInput::Gather {
                gather,
                stride: sub,
                offset: 0,
            },
        }
    }

    /// The inputs of offsets `..mid` and `mid..`.
    fn split(&self, mid: usize) -> (Self, Self) {
        match self {
            PassInput::InPlace => (PassInput::InPlace, PassInput::InPlace),
            PassInput::Slices(src) => {
                let (left, right) = src.iter().map(|s| s.split_at(mid)).unzip();
                (PassInput::Slices(left), PassInput::Slices(right))
            }
            &PassInput::Gather {
                gather,
                stride,
                offset,
            } => (
                PassInput::Gather {
                    gather,
                    stride,
                    offset,
                },
                PassInput::Gather {
                    gather,
                    stride,
                    offset: offset + mid,
                },
            ),
        }
    }
}

/// log2 of the twiddles a row builds by doubling; a longer row is written
/// on rayon, this many entries or more per task.
const TWIDDLE_CHUNK_LOG: usize = 12;

/// Round `i`'s twiddles `What_i(u << (i + 1))` for `u < 2^bits`.
///
/// `What_i` is GF(2)-linear, so the first `2^TWIDDLE_CHUNK_LOG` are subset
/// sums built by doubling, and every later entry is the one of its low bits
/// plus `What_i` of its high bits. Round 0's row is half the domain (8 MiB
/// at 2^19 positions), and a proof builds level 0's transform three times
/// (to commit, to re-encode queried columns, for the generator rows of the
/// queries): on the calling thread, 2^16 Keccak-f permutations spent 1.6
/// ms writing its rows each time, up to 9 ms when their pages were fresh,
/// while every other thread waited.
fn twiddle_row(i: usize, bits: usize) -> Vec<Gf128> {
    let low = bits.min(TWIDDLE_CHUNK_LOG);
    let mut first = vec![Gf128::ZERO; 1 << low];
    for bit in 0..low {
        let w = normalized_vanishing(i, 1u64 << (bit + i + 1));
        let half = 1usize << bit;
        for u in 0..half {
            first[half + u] = first[u] + w;
        }
    }
    if low == bits {
        return first;
    }
    let mask = (1usize << low) - 1;
    let mut row = Vec::with_capacity(1 << bits);
    row.par_extend(
        (0..1usize << bits)
            .into_par_iter()
            .with_min_len(1 << low)
            .map_init(
                // The high bits last seen and `What_i` of them.
                || (usize::MAX, Gf128::ZERO),
                |(high, offset), u| {
                    if u & !mask != *high {
                        *high = u & !mask;
                        *offset = normalized_vanishing(i, (*high as u64) << (i + 1));
                    }
                    first[u & mask] + *offset
                },
            ),
    );
    row
}

/// Precomputed twiddles for transforms of `2^log_len` positions.
#[derive(Clone, Debug)]
pub struct AdditiveNtt {
    log_len: usize,
    /// `twiddles[i][u] = What_i(u << (i + 1))` for `u < 2^(log_len - 1 - i)`.
    twiddles: Vec<Vec<Gf128>>,
}

impl AdditiveNtt {
    /// Twiddles for messages of `2^log_len` positions.
    pub fn new(log_len: usize) -> Self {
        assert!(log_len <= MAX_LOG_DOMAIN, "transform too large");
        let twiddles = (0..log_len).map(|i| twiddle_row(i, log_len - 1 - i)).collect();
        AdditiveNtt { log_len, twiddles }
    }

    /// `log2` of the number of positions transformed.
    pub fn log_len(&self) -> usize {
        self.log_len
    }

    fn check(&self, data: &[Gf128], batch: usize, coset: u64) -> Vec<Gf128> {
        assert!(batch > 0, "batch must be positive");
        assert_eq!(
            data.len(),
            batch << self.log_len,
            "data length must be batch * 2^log_len"
        );
        self.shift(coset)
    }

    /// `What_i(coset)` for every round `i`: what the coset adds to each
    /// round's twiddles.
    fn shift(&self, coset: u64) -> Vec<Gf128> {
        assert_eq!(
            coset & ((1u64 << self.log_len) - 1),
            0,
            "coset offset must be a multiple of 2^log_len"
        );
        (0..self.log_len)
            .map(|i| normalized_vanishing(i, coset))
            .collect()
    }

    /// Coefficients in the novel basis to evaluations on `coset + 0..2^log_len`.
    pub fn forward(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.forward_block(data, Input::InPlace, batch, self.log_len - 1, 0, &shift, 0);
        }
    }

    /// [`AdditiveNtt::forward`] of a copy of `src`, written to `out`: the same
    /// result as `out.copy_from_slice(src); self.forward(out, ..)`, with the copy
    /// fused into the first round.
    pub fn forward_from(&self, src: &[Gf128], out: &mut [Gf128], batch: usize, coset: u64) {
        assert_eq!(src.len(), out.len(), "output must match the input length");
        let shift = self.check(out, batch, coset);
        if self.log_len == 0 {
            out.copy_from_slice(src);
            return;
        }
        self.forward_block(out, Input::Slice(src), batch, self.log_len - 1, 0, &shift, 0);
    }

    /// `log2` of the positions of the blocks that the transform's first pass
    /// over memory leaves (each then fits a core's cache or needs one more
    /// pass of its own), or of the whole transform where it fits in cache:
    /// the blocks for [`AdditiveNtt::forward_head`] that make its head that
    /// one pass and each tail a block that one core finishes in its cache.
    pub fn first_pass_log_block(&self, batch: usize) -> usize {
        let len = batch << self.log_len;
        if self.log_len == 0 || len <= LOCAL_ELEMS {
            return self.log_len;
        }
        self.log_len - pass_rounds(len, self.log_len - 1)
    }

    /// The rounds of [`AdditiveNtt::forward`] that mix different blocks of
    /// `2^log_block` positions (rounds `log_len - 1 ..= log_block`), on the
    /// input that `gather` writes into `data` as the first pass reaches it.
    /// After them each block is finished on its own by
    /// [`AdditiveNtt::forward_tail`], in any order and on any thread.
    ///
    /// This is how the commitment encodes rows it lays out anew: the rows
    /// are gathered position-major a few kilobytes at a time, inside the
    /// pass that reads them anyway (rather than in a pass of their own,
    /// which wrote the whole buffer and read it back), and its columns are
    /// hashed block by block as the tails finish them, while they are in
    /// cache (rather than read from memory once more).
    pub fn forward_head(
        &self,
        data: &mut [Gf128],
        batch: usize,
        coset: u64,
        log_block: usize,
        gather: &Gather<'_>,
    ) {
        let shift = self.check(data, batch, coset);
        assert!(log_block <= self.log_len, "blocks larger than the transform");
        if log_block == self.log_len {
            gather(0, data);
            return;
        }
        self.forward_block(
            data,
            Input::Gather(gather),
            batch,
            self.log_len - 1,
            0,
            &shift,
            log_block,
        );
    }

    /// The rest of [`AdditiveNtt::forward`] on block `index` of `2^log_block`
    /// positions (`block`: `batch << log_block` elements) after
    /// [`AdditiveNtt::forward_head`] with the same `log_block`: rounds
    /// `log_block - 1 ..= 0`.
    pub fn forward_tail(&self, block: &mut [Gf128], batch: usize, coset: u64, index: usize) {
        assert!(batch > 0, "batch must be positive");
        assert!(
            block.len().is_multiple_of(batch) && (block.len() / batch).is_power_of_two(),
            "a block is a power of two positions"
        );
        let log_block = (block.len() / batch).trailing_zeros() as usize;
        assert!(
            log_block <= self.log_len && index < 1 << (self.log_len - log_block),
            "block {index} of 2^{log_block} positions is outside the transform"
        );
        let shift = self.shift(coset);
        if log_block > 0 {
            self.forward_block(block, Input::InPlace, batch, log_block - 1, index, &shift, 0);
        }
    }

    /// [`AdditiveNtt::forward`] of the input that `gather` writes (as for
    /// [`AdditiveNtt::forward_head`]: a chunk at a time, inside the first
    /// pass), computed only as far as the evaluations at `positions` need
    /// (sorted, distinct, each below `2^log_len`): those positions of `out`
    /// are exact, the others unspecified.
    ///
    /// A block's first round needs the whole block, but a sub-block holding
    /// none of the positions is never transformed. For a hundred positions
    /// in `2^17` that skips about half the products: every sub-block of the
    /// first six or seven rounds holds one, then the live ones halve per
    /// round. This is how the PCS reads a few hundred columns of a codeword
    /// it did not keep, gathering the rows straight from its table.
    pub fn forward_gathered_at(
        &self,
        out: &mut [Gf128],
        batch: usize,
        coset: u64,
        positions: &[usize],
        gather: &Gather<'_>,
    ) {
        let shift = self.check(out, batch, coset);
        assert!(
            positions.windows(2).all(|w| w[0] < w[1])
                && positions.last().is_none_or(|&p| p >> self.log_len == 0),
            "positions must be sorted, distinct and in the domain"
        );
        if self.log_len == 0 {
            gather(0, out);
            return;
        }
        self.forward_block_at(
            out,
            Input::Gather(gather),
            batch,
            self.log_len - 1,
            0,
            &shift,
            positions,
        );
    }

    /// [`AdditiveNtt::forward_block`] restricted to the sub-blocks that hold
    /// a position of `wanted` (relative to this block, sorted).
    #[allow(clippy::too_many_arguments)]
    fn forward_block_at(
        &self,
        data: &mut [Gf128],
        src: Input<'_>,
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        wanted: &[usize],
    ) {
        if wanted.is_empty() {
            return;
        }
        let len = data.len();
        if len <= LOCAL_ELEMS {
            match src {
                Input::InPlace => {}
                Input::Slice(src) => data.copy_from_slice(src),
                // Only a transform's first block has an input, at 0.
                Input::Gather(gather) => gather(0, data),
            }
            self.forward_rec_at(data, batch, i, u, shift, wanted, 0);
            return;
        }
        let r = pass_rounds(len, i);
        let sub = self.forward_top_rounds(data, src, i, u, r, shift);
        if r <= i {
            // The sub-blocks holding wanted positions, with theirs.
            let sub_positions = sub / batch;
            let mut rest = wanted;
            let mut live: Vec<(usize, &mut [Gf128], Vec<usize>)> = Vec::new();
            for (s, block) in data.chunks_mut(sub).enumerate() {
                let split = rest.partition_point(|&p| p < (s + 1) * sub_positions);
                let (here, after) = rest.split_at(split);
                if !here.is_empty() {
                    live.push((s, block, here.iter().map(|&p| p - s * sub_positions).collect()));
                }
                rest = after;
            }
            let transform_sub = |(s, block, relative): (usize, &mut [Gf128], Vec<usize>)| {
                self.forward_block_at(
                    block,
                    Input::InPlace,
                    batch,
                    i - r,
                    (u << r) | s,
                    shift,
                    &relative,
                )
            };
            if rayon::current_num_threads() > 1 && live.len() > 1 && len >= PAR_MIN_ELEMS {
                live.into_par_iter().with_max_len(1).for_each(transform_sub);
            } else {
                live.into_iter().for_each(transform_sub);
            }
        }
    }

    /// Rounds `i..=last` of the forward transform on block `u` of round `i`
    /// (`batch << (i + 1)` elements), reading the input from `src` if given;
    /// `last` is 0 but for [`AdditiveNtt::forward_head`].
    ///
    /// A block that fits in the core's L2 cache goes depth-first
    /// ([`AdditiveNtt::forward_rec`]). A larger one first runs its top rounds
    /// in one pass over memory ([`AdditiveNtt::forward_pass`]) until its
    /// sub-blocks fit, then transforms the sub-blocks, in parallel on rayon,
    /// each sub-block a job of its own (here, in [`AdditiveNtt::forward_block_at`]
    /// and in the transposed transform): left to itself rayon runs a few per
    /// job, and a thread done early cannot take over the rest of another's,
    /// though the sub-blocks of a partial transform cost what their wanted
    /// positions need and threads do not all run at one speed.
    #[allow(clippy::too_many_arguments)]
    fn forward_block(
        &self,
        data: &mut [Gf128],
        src: Input<'_>,
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        last: usize,
    ) {
        let len = data.len();
        if len <= LOCAL_ELEMS {
            let src = match src {
                Input::Gather(gather) => {
                    // Only a transform's first block has an input, at 0.
                    gather(0, data);
                    Input::InPlace
                }
                other => other,
            };
            if last > 0 {
                debug_assert!(matches!(src, Input::InPlace), "a split transform runs in place");
                self.forward_rounds(data, batch, i, u, shift, last);
                return;
            }
            let Input::Slice(src) = src else {
                self.forward_rec(data, batch, i, u, shift);
                return;
            };
            let (lo, hi) = data.split_at_mut(len / 2);
            let (src_lo, src_hi) = src.split_at(len / 2);
            butterfly_from(lo, hi, src_lo, src_hi, shift[i] + self.twiddles[i][u]);
            if i > 0 {
                self.forward_rec(lo, batch, i - 1, 2 * u, shift);
                self.forward_rec(hi, batch, i - 1, 2 * u + 1, shift);
            }
            return;
        }
        let r = pass_rounds(len, i).min(i + 1 - last);
        let sub = self.forward_top_rounds(data, src, i, u, r, shift);
        if r + last <= i {
            let transform_sub = |(s, block): (usize, &mut [Gf128])| {
                self.forward_block(block, Input::InPlace, batch, i - r, (u << r) | s, shift, last)
            };
            if rayon::current_num_threads() > 1 {
                data.par_chunks_mut(sub)
                    .enumerate()
                    .with_max_len(1)
                    .for_each(transform_sub);
            } else {
                data.chunks_mut(sub).enumerate().for_each(transform_sub);
            }
        }
    }

    /// Rounds `i ..= last` of block `u` of round `i` (in cache), one at a
    /// time over the whole block: the end of a [`AdditiveNtt::forward_head`]
    /// whose blocks are much smaller than the cache.
    fn forward_rounds(
        &self,
        data: &mut [Gf128],
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        last: usize,
    ) {
        for j in (last..=i).rev() {
            let half = batch << j;
            for (g, pair) in data.chunks_mut(2 * half).enumerate() {
                let (lo, hi) = pair.split_at_mut(half);
                butterfly(lo, hi, shift[j] + self.twiddles[j][(u << (i - j)) + g]);
            }
        }
    }

    /// Rounds `i, .., i - r + 1` of block `u` of round `i` in one pass over
    /// `data` (reading `src` in the first); returns the length of
    /// the `2^r` sub-blocks left to transform.
    fn forward_top_rounds(
        &self,
        data: &mut [Gf128],
        src: Input<'_>,
        i: usize,
        u: usize,
        r: usize,
        shift: &[Gf128],
    ) -> usize {
        let sub = data.len() >> r;
        let mut pieces: Pieces<'_> = data.chunks_mut(sub).collect();
        self.forward_pass_par(&mut pieces, &PassInput::new(src, sub), i, u, r, shift);
        sub
    }

    /// [`AdditiveNtt::forward_pass`], with the offsets split between rayon
    /// threads ([`split_pass`]).
    fn forward_pass_par(
        &self,
        pieces: &mut [&mut [Gf128]],
        src: &PassInput<'_>,
        i: usize,
        u: usize,
        r: usize,
        shift: &[Gf128],
    ) {
        let Some((mid, mut left, mut right)) = split_pass(pieces, r) else {
            self.forward_pass(pieces, src, i, u, r, shift);
            return;
        };
        let (src_left, src_right) = src.split(mid);
        rayon::join(
            || self.forward_pass_par(&mut left, &src_left, i, u, r, shift),
            || self.forward_pass_par(&mut right, &src_right, i, u, r, shift),
        );
    }

    /// Rounds `i, .., i - r + 1` of block `u` of round `i`, whose `2^r`
    /// sub-blocks are `pieces` (restricted to the same range of offsets).
    ///
    /// Within those rounds the element at offset `k` of a sub-block only meets
    /// the elements at offset `k` of the others, with twiddles that do not
    /// depend on `k`. So the pass walks the offsets in chunks of
    /// [`pass_chunk`]`(r)` and runs all `r` rounds on one chunk of every
    /// sub-block ([`PASS_STEP_ELEMS`], which stay in cache) before the next:
    /// memory is read and written once for `r` rounds. Round `i` reads
    /// `src`'s slices when given; a gathered input is written into each
    /// chunk just before its rounds.
    fn forward_pass(
        &self,
        pieces: &mut [&mut [Gf128]],
        src: &PassInput<'_>,
        i: usize,
        u: usize,
        r: usize,
        shift: &[Gf128],
    ) {
        debug_assert_eq!(pieces.len(), 1 << r);
        let width = pieces[0].len();
        // Twiddles of the r rounds, in the order the loops below use them.
        let twiddles: Vec<Gf128> = (0..r)
            .flat_map(|j| (0..1usize << j).map(move |g| shift[i - j] + self.twiddles[i - j][(u << j) + g]))
            .collect();
        // Round j's twiddles start at 2^j - 1.
        let tw = |j: usize, g: usize| twiddles[(1usize << j) - 1 + g];
        let mut k0 = 0;
        while k0 < width {
            let k1 = (k0 + pass_chunk(r)).min(width);
            if let &PassInput::Gather {
                gather,
                stride,
                offset,
            } = src
            {
                for (g, piece) in pieces.iter_mut().enumerate() {
                    gather(g * stride + offset + k0, &mut piece[k0..k1]);
                }
            }
            let mut j = 0;
            while j < r {
                let half = 1usize << (r - 1 - j);
                let reads_src = matches!(src, PassInput::Slices(_)) && j == 0;
                if j + 1 < r && !reads_src {
                    // Rounds j and j + 1 together: in group g the quarters
                    // a, a + half/2, a + half, a + 3 half/2 (a < half/2).
                    let quarter = half / 2;
                    for g in 0..1usize << j {
                        let base = 2 * half * g;
                        let (los, his) = pieces[base..base + 2 * half].split_at_mut(half);
                        let (q0s, q1s) = los.split_at_mut(quarter);
                        let (q2s, q3s) = his.split_at_mut(quarter);
                        let (t, t0, t1) = (tw(j, g), tw(j + 1, 2 * g), tw(j + 1, 2 * g + 1));
                        for (((q0, q1), q2), q3) in q0s
                            .iter_mut()
                            .zip(q1s.iter_mut())
                            .zip(q2s.iter_mut())
                            .zip(q3s.iter_mut())
                        {
                            backend::butterfly2(
                                [
                                    Gf128::as_u128_slice_mut(&mut q0[k0..k1]),
                                    Gf128::as_u128_slice_mut(&mut q1[k0..k1]),
                                    Gf128::as_u128_slice_mut(&mut q2[k0..k1]),
                                    Gf128::as_u128_slice_mut(&mut q3[k0..k1]),
                                ],
                                t.to_bits(),
                                t0.to_bits(),
                                t1.to_bits(),
                            );
                        }
                    }
                    j += 2;
                    continue;
                }
                for g in 0..1usize << j {
                    let t = tw(j, g);
                    let base = 2 * half * g;
                    let (los, his) = pieces[base..base + 2 * half].split_at_mut(half);
                    for (a, (lo, hi)) in los.iter_mut().zip(his.iter_mut()).enumerate() {
                        let (lo, hi) = (&mut lo[k0..k1], &mut hi[k0..k1]);
                        match src {
                            PassInput::Slices(src) if j == 0 => butterfly_from(
                                lo,
                                hi,
                                &src[base + a][k0..k1],
                                &src[base + half + a][k0..k1],
                                t,
                            ),
                            _ => butterfly(lo, hi, t),
                        }
                    }
                }
                j += 1;
            }
            k0 = k1;
        }
    }

    /// [`AdditiveNtt::forward_rec`] restricted to the halves that hold a
    /// position of `wanted` (sorted; relative to the block that
    /// [`AdditiveNtt::forward_block_at`] handed down, in which this one
    /// starts at position `base`). Two rounds run together where all four
    /// quarters hold one, as in the full transform; below that, one round
    /// on the whole block, then only its live halves. A few hundred
    /// positions make thousands of these steps, so they take the positions
    /// as sub-slices and allocate nothing.
    #[allow(clippy::too_many_arguments)]
    fn forward_rec_at(
        &self,
        data: &mut [Gf128],
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        wanted: &[usize],
        base: usize,
    ) {
        let half = 1usize << i;
        let below = |at: usize| wanted.partition_point(|&p| p < base + at);
        if i > 0 {
            let cuts = [
                0,
                below(half / 2),
                below(half),
                below(half + half / 2),
                wanted.len(),
            ];
            if cuts.windows(2).all(|w| w[0] < w[1]) {
                let quarter = self.pair_rounds(data, batch, i, u, shift);
                if i > 1 {
                    for (s, q) in data.chunks_mut(quarter).enumerate() {
                        let here = &wanted[cuts[s]..cuts[s + 1]];
                        self.forward_rec_at(q, batch, i - 2, 4 * u + s, shift, here, base + s * half / 2);
                    }
                }
                return;
            }
        }
        let (lo, hi) = data.split_at_mut(batch << i);
        butterfly(lo, hi, shift[i] + self.twiddles[i][u]);
        if i > 0 {
            let (w_lo, w_hi) = wanted.split_at(below(half));
            if !w_lo.is_empty() {
                self.forward_rec_at(lo, batch, i - 1, 2 * u, shift, w_lo, base);
            }
            if !w_hi.is_empty() {
                self.forward_rec_at(hi, batch, i - 1, 2 * u + 1, shift, w_hi, base + half);
            }
        }
    }

    /// Rounds `i..=0` of block `u` of round `i`, depth-first, two rounds at a
    /// time (`backend::butterfly2`: each element loaded and stored once per
    /// two rounds) and the last four in one call
    /// (`backend::butterfly_rounds4`). An odd number of rounds starts with
    /// the one round on the whole block, so the pairs run down to the end:
    /// a single last round was a kernel call per two positions (one vector
    /// each for a code's four rows). Pairing to the end, with the cheaper
    /// multiplier of `mul_x64`, took `ntt_timing`'s 2^10 x 4 in cache from
    /// 1.35 to 1.08 ns per product (one Zen 4 thread).
    fn forward_rec(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        if i == 3 {
            // The last four rounds of the block's sixteen positions in one
            // call (`backend::butterfly_rounds4`).
            let twiddles: [u128; 15] = core::array::from_fn(|k| {
                let j = (k + 1).ilog2() as usize;
                let g = k + 1 - (1 << j);
                (shift[3 - j] + self.twiddles[3 - j][(u << j) + g]).to_bits()
            });
            backend::butterfly_rounds4(Gf128::as_u128_slice_mut(data), batch, &twiddles);
            return;
        }
        if i.is_multiple_of(2) {
            let (lo, hi) = data.split_at_mut(batch << i);
            butterfly(lo, hi, shift[i] + self.twiddles[i][u]);
            if i > 0 {
                self.forward_rec(lo, batch, i - 1, 2 * u, shift);
                self.forward_rec(hi, batch, i - 1, 2 * u + 1, shift);
            }
            return;
        }
        let quarter = self.pair_rounds(data, batch, i, u, shift);
        if i > 1 {
            for (s, q) in data.chunks_mut(quarter).enumerate() {
                self.forward_rec(q, batch, i - 2, 4 * u + s, shift);
            }
        }
    }

    /// Rounds `i` and `i - 1` (`i >= 1`) of block `u` of round `i` in one
    /// `backend::butterfly2` call on its four quarters; returns the length
    /// of a quarter.
    fn pair_rounds(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) -> usize {
        let quarter = batch << (i - 1);
        let t = shift[i] + self.twiddles[i][u];
        let t0 = shift[i - 1] + self.twiddles[i - 1][2 * u];
        let t1 = shift[i - 1] + self.twiddles[i - 1][2 * u + 1];
        let (q01, q23) = data.split_at_mut(2 * quarter);
        let (q0, q1) = q01.split_at_mut(quarter);
        let (q2, q3) = q23.split_at_mut(quarter);
        backend::butterfly2(
            [
                Gf128::as_u128_slice_mut(q0),
                Gf128::as_u128_slice_mut(q1),
                Gf128::as_u128_slice_mut(q2),
                Gf128::as_u128_slice_mut(q3),
            ],
            t.to_bits(),
            t0.to_bits(),
            t1.to_bits(),
        );
        quarter
    }

    /// Evaluations on `coset + 0..2^log_len` back to novel-basis coefficients.
    pub fn inverse(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.inverse_rec(data, batch, self.log_len - 1, 0, &shift);
        }
    }

    fn inverse_rec(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        let (lo, hi) = data.split_at_mut(batch << i);
        if i > 0 {
            self.inverse_rec(lo, batch, i - 1, 2 * u, shift);
            self.inverse_rec(hi, batch, i - 1, 2 * u + 1, shift);
        }
        butterfly_inverse(lo, hi, shift[i] + self.twiddles[i][u]);
    }

    /// The transpose of [`AdditiveNtt::forward`]: maps weights on the
    /// evaluation points to `sum_idx weight[idx] * X_j(coset + idx)` for every `j`.
    pub fn transposed(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.transposed_block(data, batch, self.log_len - 1, 0, &shift, None);
        }
    }

    /// [`AdditiveNtt::transposed`] of weights that are zero outside the
    /// positions `support` (sorted, distinct, each below `2^log_len`): a
    /// block holding none of them stays zero through its rounds and is not
    /// transformed. A PCS's query weights are a few hundred positions of
    /// `2^17`: the rounds on blocks of up to `2^10` positions are then
    /// mostly skipped.
    pub fn transposed_sparse(&self, data: &mut [Gf128], batch: usize, coset: u64, support: &[usize]) {
        let shift = self.check(data, batch, coset);
        assert!(
            support.windows(2).all(|w| w[0] < w[1]) && support.last().is_none_or(|&p| p >> self.log_len == 0),
            "the support must be sorted, distinct and in the domain"
        );
        if self.log_len > 0 {
            self.transposed_block(data, batch, self.log_len - 1, 0, &shift, Some((support, 0)));
        }
    }

    /// The transpose of [`AdditiveNtt::forward_block`] on block `u` of round
    /// `i`: its rounds in the opposite order, each butterfly transposed. A
    /// block in cache goes depth-first ([`AdditiveNtt::transposed_rec`]); a
    /// larger one first transforms its `2^r` sub-blocks (side by side on
    /// rayon), then runs its top `r` rounds in one pass over memory
    /// ([`AdditiveNtt::transposed_pass`]), where one round per pass read and
    /// wrote a query weight's 8 MiB cosets four times (level 0 of 2^16
    /// Keccak-f permutations). With `support`, the positions that may be
    /// nonzero and where this block starts among them: a block without any
    /// is left as it is (zero).
    fn transposed_block(
        &self,
        data: &mut [Gf128],
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        support: Support<'_>,
    ) {
        if support.is_some_and(|(positions, _)| positions.is_empty()) {
            return;
        }
        let len = data.len();
        if len <= LOCAL_ELEMS {
            self.transposed_rec(data, batch, i, u, shift, support);
            return;
        }
        let r = pass_rounds(len, i);
        let sub = len >> r;
        if r <= i {
            // Each sub-block with the positions in it.
            let sub_positions = sub / batch;
            let mut rest = support.map(|(positions, _)| positions);
            let blocks: Vec<(usize, &mut [Gf128], Support<'_>)> = data
                .chunks_mut(sub)
                .enumerate()
                .map(|(s, block)| {
                    let here = support.zip(rest.as_mut()).map(|((_, base), rest)| {
                        let start = base + s * sub_positions;
                        let (here, after) =
                            rest.split_at(rest.partition_point(|&p| p < start + sub_positions));
                        *rest = after;
                        (here, start)
                    });
                    (s, block, here)
                })
                .collect();
            let transform_sub = |(s, block, here): (usize, &mut [Gf128], Support<'_>)| {
                self.transposed_block(block, batch, i - r, (u << r) | s, shift, here)
            };
            if rayon::current_num_threads() > 1 {
                blocks.into_par_iter().with_max_len(1).for_each(transform_sub);
            } else {
                blocks.into_iter().for_each(transform_sub);
            }
        }
        let mut pieces: Pieces<'_> = data.chunks_mut(sub).collect();
        self.transposed_pass_par(&mut pieces, i, u, r, shift);
    }

    /// [`AdditiveNtt::transposed_pass`], with the offsets split between
    /// rayon threads ([`split_pass`]).
    fn transposed_pass_par(
        &self,
        pieces: &mut [&mut [Gf128]],
        i: usize,
        u: usize,
        r: usize,
        shift: &[Gf128],
    ) {
        let Some((_, mut left, mut right)) = split_pass(pieces, r) else {
            self.transposed_pass(pieces, i, u, r, shift);
            return;
        };
        rayon::join(
            || self.transposed_pass_par(&mut left, i, u, r, shift),
            || self.transposed_pass_par(&mut right, i, u, r, shift),
        );
    }

    /// The transpose of [`AdditiveNtt::forward_pass`]: rounds `i - r + 1,
    /// .., i` of block `u` of round `i`, whose `2^r` sub-blocks are `pieces`
    /// (restricted to the same range of offsets), one step of offsets at a
    /// time.
    fn transposed_pass(&self, pieces: &mut [&mut [Gf128]], i: usize, u: usize, r: usize, shift: &[Gf128]) {
        debug_assert_eq!(pieces.len(), 1 << r);
        let width = pieces[0].len();
        let mut k0 = 0;
        while k0 < width {
            let k1 = (k0 + pass_chunk(r)).min(width);
            // Round i - j pairs the sub-blocks `half` apart in each group.
            for j in (0..r).rev() {
                let half = 1usize << (r - 1 - j);
                for g in 0..1usize << j {
                    let t = shift[i - j] + self.twiddles[i - j][(u << j) + g];
                    let base = 2 * half * g;
                    let (los, his) = pieces[base..base + 2 * half].split_at_mut(half);
                    for (lo, hi) in los.iter_mut().zip(his.iter_mut()) {
                        butterfly_transposed(&mut lo[k0..k1], &mut hi[k0..k1], t);
                    }
                }
            }
            k0 = k1;
        }
    }

    /// [`AdditiveNtt::transposed_block`] of a block in cache, depth-first,
    /// on one thread.
    fn transposed_rec(
        &self,
        data: &mut [Gf128],
        batch: usize,
        i: usize,
        u: usize,
        shift: &[Gf128],
        support: Support<'_>,
    ) {
        if support.is_some_and(|(positions, _)| positions.is_empty()) {
            return;
        }
        let half = 1usize << i;
        let halves = support.map(|(positions, base)| {
            let (lo, hi) = positions.split_at(positions.partition_point(|&p| p < base + half));
            ((lo, base), (hi, base + half))
        });
        let (lo, hi) = data.split_at_mut(batch << i);
        if i > 0 {
            self.transposed_rec(lo, batch, i - 1, 2 * u, shift, halves.map(|h| h.0));
            self.transposed_rec(hi, batch, i - 1, 2 * u + 1, shift, halves.map(|h| h.1));
        }
        butterfly_transposed(lo, hi, shift[i] + self.twiddles[i][u]);
    }
}

#[cfg(test)]
mod tests;
