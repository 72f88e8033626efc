//! Committing to a table: encode the interleaved matrix, hash every column.
//!
//! Level 0's rows are the top `k_0` variables of the table: row `r` is the
//! contiguous message `f[r 2^m .. (r + 1) 2^m]`. The rows past the live
//! length (a circuit's zero tail, which is the top of the table) are then
//! whole rows of zeros, which are neither encoded, hashed nor opened: the
//! verifier takes them as zero. Later levels commit a fold whose rows are
//! its low variables, already position-major. Each codeword column (the
//! committed rows' elements at one position) is one Merkle leaf
//! (`merkle::hash_leaf_fields`).
//!
//! A coset of the codeword is made [`COMMIT_ROWS`] rows at a time: the rows
//! are laid out position-major in one small buffer, encoded there in place
//! by the batched NTT (which leaves each position's elements contiguous),
//! and every column's leaf hash advances by those elements
//! (`blake3_multi::PartialHashes`: four elements are one BLAKE3 block, and
//! only each column's 32-byte chaining value is kept in between, SIMD
//! across columns). The buffer crosses memory about once: the rows are
//! gathered into it inside the transform's first pass, and the rest of the
//! transform runs on one block of positions at a time (what the first pass
//! leaves: at most 1 MiB at the sizes Starling commits), whose columns are
//! hashed right after (`AdditiveNtt::forward_head`). A separate layout pass
//! and hashing pass each moved the whole buffer through memory once more.
//! Simulated in `valgrind --tool=cachegrind` (`commit_timing`, the table's
//! making and copy subtracted): one thread committing 2^23 elements with a
//! 2 MiB last-level cache (one core's L2) missed 25.1 million times, now
//! 16.9; sixteen threads committing 2^25 (Keccak-f's level 0 at 2^16
//! permutations) with one shared 32 MiB cache, 138 million times, now 123.
//! On two Zen 1 threads, where the commit is bound by its arithmetic, the
//! time did not change.
//!
//! Nothing codeword-sized is ever allocated: Keccak-f at
//! 2^14 permutations holds 8 MiB of rows and 4 MiB of chaining values
//! instead of two 84 MB buffers of the whole live table. That is what lets
//! the prover compute its linear forms together with the witness, before
//! committing, without raising its peak memory. A level too small for the
//! transform to use several threads well ([`side_by_side_elems`]) is
//! encoded whole, its cosets side by side; a larger one goes
//! [`commit_in_flight`] cosets at a time. Everything runs on rayon.
//!
//! No level keeps its codeword. Level 0's is twice the table or more
//! (hundreds of megabytes at 2^14 hashes), and it is read only twice:
//! hashed here, and a few hundred of its columns opened at the very end.
//! Kept alive through the PIOP in between, it set the prover's peak memory
//! (a Keccak-f proof of 2^14 permutations peaked at 722 MiB with the
//! codeword, the table and the zerocheck's forms all live). So the codeword
//! is hashed coset by coset and dropped, and the opening encodes the
//! message again for the columns it opens ([`CommittedLevel::columns`]):
//! a few rows at a time, gathered from the table inside the transform's
//! first pass as here, and only the parts of the transform those columns
//! depend on (`AdditiveNtt::forward_gathered_at`), about half an encode of
//! the table and no hashing.

use std::sync::atomic::{AtomicUsize, Ordering};

use rand::{CryptoRng, RngCore};
use rayon::prelude::*;
use starling_crypto::blake3_multi::{PartialHashes, GROUP_MESSAGES};
use starling_crypto::merkle::{self, MerkleTree, MultiProof};
use starling_crypto::Digest;
use starling_field::scratch::{self, ScratchVec};
use starling_field::Gf128;
use starling_poly::additive_ntt::AdditiveNtt;
use starling_poly::reed_solomon::ReedSolomon;

use crate::{Commitment, PcsError, PcsParams};

/// Rows encoded and hashed at once when a large level is committed, per
/// four threads (at least once, at most four times): four field elements
/// are one BLAKE3 block of each column's leaf. The NTT is 5-30% slower per
/// product at four or eight rows than at sixteen or more (`ntt_timing 17 4`
/// against `17 16`, Zen 4), but on one thread the commit measured the same
/// at four, eight and sixteen (Keccak-f at 2^14: 158-208, 161-206 and
/// 178-291 ms, three alternating rounds), and four keeps the buffer
/// smallest (8 MiB there; peak RSS 460 MiB against 468 at eight). On
/// sixteen threads of a Xeon four rows made the commit slower than encoding
/// the whole table at once (SHA-256 at 2^16: 73 against 57 ms, Keccak-f 144
/// against 121), so more threads take more rows.
const COMMIT_ROWS: usize = 4;

/// Rows per group when committing a large level on this many threads.
fn commit_rows() -> usize {
    COMMIT_ROWS * (rayon::current_num_threads() / 4).clamp(1, 4)
}

/// Cosets of a large level committed at once, each with a buffer of its own
/// rows and its columns' hashers: enough for [`COMMIT_ELEMS_PER_THREAD`] of
/// row groups per thread, and at least one per eight threads. A coset's
/// rows go group after group, each group a first pass and then a task per
/// block, so each group ends waiting for its slowest block; a second
/// coset's groups fill those waits.
///
/// From sixteen threads, the critical path of the commitment (measured in
/// thread CPU time with a scratch build of rayon that times each fork's
/// halves, sixteen threads on two Zen 1 cores) at 2^16 hashes: SHA-256
/// 39.0-39.5 -> 26.8-31.9 ms, Keccak-f 57.7-58.3 -> 41.0-45.5, BLAKE3
/// 28.2-29.8 -> 21.5-21.6. Its work did not grow (BLAKE3's commit phase
/// 0.432-0.434 s either way there), its peak memory did by a buffer (516
/// -> 556 MB).
///
/// On few threads the groups are what is short: BLAKE3's level 0 at 2^14
/// compressions has 2^15 positions, so four rows are 2^17 elements, and on
/// two threads each group's waits cost a fifth of the commit's time (two
/// threads of an AVX-512 Xeon, `bench`: 18.2-20.4 ms against 31.1-31.7 on
/// one). Both its cosets at once: 15.4-16.4 ms, for 3-6 MB more memory.
/// SHA-256 and Keccak-f there (groups of 2^18 and 2^19 elements) gained
/// less with two cosets (32.4-33.6 -> 29.6-31.0 ms; 55.8-59.1 -> 53.7-55.6,
/// about 1% of the proof) for more memory (7-18 and 14-26 MB, 3-6% of the
/// peak), so they keep one.
fn commit_in_flight(group_elems: usize, cosets: usize) -> usize {
    let threads = rayon::current_num_threads();
    (threads / 8)
        .max((threads * COMMIT_ELEMS_PER_THREAD).div_ceil(group_elems.max(1)))
        .clamp(1, cosets)
}

/// Elements of row groups in flight per thread when a large level is
/// committed ([`commit_in_flight`]): 2 MiB.
const COMMIT_ELEMS_PER_THREAD: usize = 1 << 17;

/// Rows encoded at once when a level's message is encoded again for its
/// queries. The batched NTT is nearly as fast per product at four rows as
/// at sixty-four (2.3 and 2.5 ns at 2^17 positions on Zen 3; 3.7 at one
/// row), and a coset's buffer of four rows is 8 MiB for Keccak-f's 2^17
/// positions.
const REENCODE_ROWS: usize = 4;

/// Fewest elements re-encoded at once where a level has the rows for it.
/// Four of a later level's short rows (2^14 positions at 2^16 hashes) make
/// pruned transforms of 2^16 elements that rayon barely splits: level 1's
/// re-encode took 8.5-16.8 ms on two threads against 10-14.5 on one;
/// sixteen rows at once, 6.2-7.4 against 10.4-11.7 (Zen 4, `open_timing`
/// at L = 24; at L = 22, 2.6-3.6 ms on one thread against 3.7-4.1). A
/// buffer of 4 MiB per row group in flight ([`reencode_lanes`]).
const REENCODE_MIN_ELEMS: usize = 1 << 18;

/// Row groups re-encoded at once ([`LevelCode::columns`]'s lanes), each
/// into its own `group_elems` elements of one buffer: one per four
/// threads, and at least two from two threads on; below
/// [`SMALL_LEVEL_ELEMS`] one per thread. One coset's pruned transform is a
/// first pass and then a few dozen uneven tasks (the blocks holding a
/// query): level 0 of 2^16 BLAKE3 compressions has sixteen per coset, which
/// cannot keep sixteen threads busy, and cosets one after another waited
/// for each other's slowest. On two threads a coset at a time left them
/// waiting too: two at once took the opening phase at 2^14 hashes from
/// 32.2-33.4 to 30.0-31.1 ms (BLAKE3), 61.1-63.3 to 56.6-59.6 (SHA-256) and
/// 106.2-109.0 to 102.8-103.5 (Keccak-f), two threads of an AVX-512 Xeon
/// (`bench`, alternating), with the same peak memory.
fn reencode_lanes(group_elems: usize) -> usize {
    let threads = rayon::current_num_threads();
    if group_elems < SMALL_LEVEL_ELEMS {
        threads
    } else {
        (threads / 4).max(threads.min(2))
    }
}

/// Elements of a re-encoded row group below which the additive NTT runs
/// its transform on one thread (`starling_poly`'s `PAR_MIN_ELEMS`), so that
/// every thread takes a row group of its own ([`reencode_lanes`]; buffers
/// of at most 1 MiB).
const SMALL_LEVEL_ELEMS: usize = 1 << 16;

/// Elements of a level up to which its cosets are committed side by side
/// on rayon, each coset encoded whole, its transform and hashing on one
/// thread with a buffer of its own (4 MiB at most). Below
/// 2^16 the transform runs on one thread anyway, and a later level's
/// cosets one after another left the other threads idle for about 7 ms of a
/// BLAKE3 proof on two threads (Zen 3). Up to 2^18 a transform splits over
/// threads, but poorly: level 1 at 2^16 hashes (sixteen cosets of 2^18) on
/// sixteen threads of a Xeon took the opening of SHA-256 from 174 to 140 ms
/// and BLAKE3's from 137 to 117 (one run each, `bench`). One thread
/// encodes one coset after another and the last in place.
const SIDE_BY_SIDE_ELEMS: usize = 1 << 18;

/// [`SIDE_BY_SIDE_ELEMS`] on this many threads: from eight on, larger
/// levels too. Level 1 at 2^16 Keccak-f permutations (eight cosets of 2^20
/// elements) took 22-28 ms of the opening on sixteen threads of the device
/// Xeon, coset after coset, against 76 on one; side by side, 11.8. Each
/// coset then has its own buffer (16 MiB there).
fn side_by_side_elems() -> usize {
    SIDE_BY_SIDE_ELEMS.max(SIDE_BY_SIDE_ELEMS / 4 * rayon::current_num_threads())
}

/// How a level's message is laid out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Row `r` is the contiguous `message[r 2^log_msg .. (r + 1) 2^log_msg]`
    /// (level 0: the table's top variables), read by the code at index
    /// `p ^ relabel` (a hiding level 0: its rows' mask runs become the
    /// code's lowest coefficients; 0 otherwise).
    RowMajor { relabel: usize },
    /// Position `p` is the contiguous `message[p width .. (p + 1) width]`
    /// (later levels: a fold's low variables).
    PositionMajor,
}

/// Where a level's rows are: the message's, then (a hiding level 0's mask
/// row and salt row) `extra`'s, laid out as the message's.
#[derive(Clone, Copy, Debug)]
struct Source<'a> {
    message: &'a [Gf128],
    layout: Layout,
    /// Rows from [`Source::message_rows`] on.
    extra: &'a [Gf128],
    /// Rows taken from `message`.
    message_rows: usize,
}

impl<'a> Source<'a> {
    /// A level whose rows are all `message`'s.
    fn plain(message: &'a [Gf128], layout: Layout) -> Self {
        Source {
            message,
            layout,
            extra: &[],
            message_rows: usize::MAX,
        }
    }
}

/// A committed level: the shape of its code and the tree of its codeword's
/// columns; the message is kept by the caller (level 0's is the table).
#[derive(Clone, Debug)]
pub(crate) struct LevelCode {
    /// Rows encoded: the message's first `width` rows (the others are zero).
    width: usize,
    /// `log2` of the positions of a row's message.
    log_msg: usize,
    log_inv_rate: usize,
    layout: Layout,
    pub(crate) tree: MerkleTree,
}

impl LevelCode {
    /// Encodes the first `width` rows of `message` (`2^log_msg` positions
    /// each, laid out as `layout` says) at rate `2^-log_inv_rate` and hashes
    /// the codeword's columns: a level too small to split well, each coset
    /// at once, side by side on several threads; a larger one
    /// [`COMMIT_ROWS`] rows at a time (module doc). The Merkle tree keeps
    /// its levels from `kept_from` up (at most a coset's `log_msg`): the
    /// leaves are hashed up to that level as each coset's are made, and
    /// neither they nor the levels between are ever held whole.
    fn commit(
        source: Source<'_>,
        log_msg: usize,
        width: usize,
        log_inv_rate: usize,
        kept_from: usize,
    ) -> Self {
        let kept_from = kept_from.min(log_msg);
        let code = ReedSolomon::new(log_msg, log_inv_rate);
        let n = width << log_msg;
        let cosets = 1usize << log_inv_rate;
        let rows = Rows {
            source,
            log_msg,
            width,
        };
        // Each coset's nodes go straight to their part of the tree's lowest
        // kept level (gathered after, on one thread: 32 ms for the leaves
        // at 2^16 Keccak-f).
        let coset_nodes = 1usize << (log_msg - kept_from);
        let mut nodes = scratch::filled(cosets * coset_nodes, [0u8; 32]);
        if n <= side_by_side_elems() {
            // A job per coset: a few large items (BENCHMARKS.md, Threads). Level 1
            // of 2^14 Keccak-f on two Zen 5 threads: 4.7-5.3 -> 4.6-4.8 ms.
            nodes
                .par_chunks_mut(coset_nodes)
                .with_max_len(1)
                .enumerate()
                .for_each(|(h, out)| rows.coset_nodes(&code, h, width, kept_from, out));
        } else {
            let group = commit_rows().min(width);
            let in_flight = commit_in_flight(group << log_msg, cosets);
            for (batch, outs) in nodes.chunks_mut(in_flight * coset_nodes).enumerate() {
                outs.par_chunks_mut(coset_nodes).enumerate().for_each(|(i, out)| {
                    rows.coset_nodes(&code, batch * in_flight + i, group, kept_from, out)
                });
            }
        }
        LevelCode {
            width,
            log_msg,
            log_inv_rate,
            layout: source.layout,
            tree: MerkleTree::from_level(kept_from, nodes),
        }
    }

    /// The columns at `positions` (strictly increasing) and their Merkle
    /// proof. Where the tree's lower levels were dropped
    /// ([`LEVEL0_TREE_KEPT_FROM`]), the columns of every block of leaves
    /// around the positions are encoded again and hashed to rebuild them:
    /// they share all but the last of the transform's layers with the
    /// queried ones.
    fn open(
        &self,
        source: Source<'_>,
        positions: &[usize],
        lanes_at_most: usize,
    ) -> Result<(Vec<Gf128>, MultiProof), PcsError> {
        let d = self.tree.kept_from();
        if d == 0 {
            let columns = self.columns(source, positions, lanes_at_most);
            return Ok((columns, self.tree.open(positions)));
        }
        let around: Vec<usize> = merkle::opened_blocks(positions, d)
            .into_iter()
            .flat_map(|b| b << d..(b + 1) << d)
            .collect();
        let all = self.columns(source, &around, lanes_at_most);
        let proof = self
            .tree
            .open_with_leaves(positions, &merkle::hash_leaves_fields(&all, self.width))
            .ok_or(PcsError::BadInput("the table opened is not the one committed"))?;
        let columns = positions
            .iter()
            .flat_map(|p| {
                let at = around.binary_search(p).expect("a position inside its block");
                all[at * self.width..(at + 1) * self.width].iter().copied()
            })
            .collect();
        Ok((columns, proof))
    }

    /// The codeword's columns at `positions`, one after another, encoded
    /// again from `message` (the one committed): [`REENCODE_ROWS`] rows at a
    /// time, or enough short rows to make [`REENCODE_MIN_ELEMS`], only as
    /// much of each coset's transform as its queried columns need, and
    /// [`reencode_lanes`] row groups at once.
    fn columns(&self, source: Source<'_>, positions: &[usize], lanes_at_most: usize) -> Vec<Gf128> {
        let msg_len = 1usize << self.log_msg;
        let ntt = AdditiveNtt::new(self.log_msg);
        // The distinct positions each coset is asked for, sorted.
        let wanted: Vec<Vec<usize>> = (0..1usize << self.log_inv_rate)
            .map(|h| {
                let mut in_coset: Vec<usize> = positions
                    .iter()
                    .filter(|&&q| q >> self.log_msg == h)
                    .map(|&q| q & (msg_len - 1))
                    .collect();
                in_coset.sort_unstable();
                in_coset.dedup();
                in_coset
            })
            .collect();
        let group = REENCODE_ROWS
            .max(REENCODE_MIN_ELEMS >> self.log_msg)
            .min(self.width);
        // Each row group of each coset holding a query.
        let tasks: Vec<(usize, usize)> = (0..self.width)
            .step_by(group)
            .flat_map(|first| (0..wanted.len()).map(move |h| (first, h)))
            .filter(|&(_, h)| !wanted[h].is_empty())
            .collect();
        // The tasks' values at their queried positions, position-major, by
        // task: lanes of tasks side by side, each with one buffer of a row
        // group, every lane taking the next task not yet taken until none is
        // left. No lane waits for another before the last tasks, where
        // cosets a row group after another each waited for the group's
        // slowest coset.
        // The lanes' buffers are one: the pool then lends level 0's folded
        // pair table's old buffer (`PairTable::compact`), whose pages are
        // resident, rather than a second coset-sized one from fresh memory.
        let lanes = reencode_lanes(group * msg_len)
            .min(lanes_at_most)
            .min(tasks.len());
        let next = AtomicUsize::new(0);
        let mut bufs = scratch::take_field(lanes * group * msg_len);
        let mut queried: Vec<(usize, Vec<Gf128>)> = bufs
            .par_chunks_mut(group * msg_len)
            .with_max_len(1)
            .flat_map_iter(|buf| {
                let mut done = Vec::new();
                loop {
                    let t = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(first, h)) = tasks.get(t) else { break };
                    let rows = group.min(self.width - first);
                    let coset = &mut buf[..rows * msg_len];
                    self.encode_at(&ntt, source, first, rows, h, &wanted[h], coset);
                    let values = wanted[h]
                        .iter()
                        .flat_map(|&p| &coset[p * rows..][..rows])
                        .copied()
                        .collect();
                    done.push((t, values));
                }
                done
            })
            .collect();
        scratch::recycle_field(bufs);
        queried.sort_unstable_by_key(|&(t, _)| t);
        let mut columns = vec![Gf128::ZERO; self.width * positions.len()];
        for (&(first, h), (_, values)) in tasks.iter().zip(&queried) {
            let rows = group.min(self.width - first);
            for (col, &q) in columns.chunks_exact_mut(self.width).zip(positions) {
                if q >> self.log_msg == h {
                    let at = wanted[h]
                        .binary_search(&(q & (msg_len - 1)))
                        .expect("a queried position");
                    col[first..first + rows].copy_from_slice(&values[at * rows..][..rows]);
                }
            }
        }
        columns
    }

    /// Rows `first .. first + rows` of coset `h` of the codeword, into
    /// `out` position-major, exact at the positions `wanted` (sorted). The
    /// rows are gathered from `message` inside the transform's first pass
    /// (`AdditiveNtt::forward_gathered_at`), as the commitment does, once
    /// per coset: laid out first in a buffer of their own, which every coset
    /// then read, they crossed memory twice more per row group. Simulated
    /// (`valgrind --tool=cachegrind`, sixteen threads, one 32 MiB cache),
    /// `open_timing 24 3 1` missed the last level 274.0 million times
    /// before, 245.5 after; on two Zen 1 threads the opening took 2-3%
    /// longer (`open_timing 24 3 3`: 726-738 ms, then 745-764), for the
    /// second layout.
    #[allow(clippy::too_many_arguments)]
    fn encode_at(
        &self,
        ntt: &AdditiveNtt,
        source: Source<'_>,
        first: usize,
        rows: usize,
        h: usize,
        wanted: &[usize],
        out: &mut [Gf128],
    ) {
        let gather =
            |start: usize, out: &mut [Gf128]| gather_rows(source, self.log_msg, first, rows, start, out);
        ntt.forward_gathered_at(out, rows, (h << self.log_msg) as u64, wanted, &gather);
    }
}

/// The rows a level commits to: the first `width` rows of `message`
/// (`2^log_msg` positions each, laid out as `layout` says).
#[derive(Clone, Copy)]
struct Rows<'a> {
    source: Source<'a>,
    log_msg: usize,
    width: usize,
}

impl Rows<'_> {
    /// The tree's nodes `kept_from` levels above the leaves of codeword
    /// coset `h`, into `out` (the leaves themselves at 0): `group` rows at a
    /// time are laid out position-major and encoded into the coset in
    /// place, and the coset's columns, one Merkle leaf per position, grow by
    /// those rows' elements ([`PartialHashes`]: `16 group` bytes, whole
    /// BLAKE3 blocks for `group` a multiple of four), block by block as the
    /// transform finishes them (module doc). Each coset lays its rows out again
    /// rather than keep a second buffer (Keccak-f at 2^14 permutations: 8
    /// MiB, against about 10 ms of transposing a second time on one thread).
    fn coset_nodes(self, code: &ReedSolomon, h: usize, group: usize, kept_from: usize, out: &mut [Digest]) {
        let positions = 1usize << self.log_msg;
        let mut hashes = PartialHashes::new(&merkle::LEAF_KEY, positions, 16 * self.width);
        // A buffer an earlier phase recycled, or zeroed pages from the
        // allocator: every entry is written, so it needs no clearing.
        let mut buf = scratch::take_field(group * positions);
        for first in (0..self.width).step_by(group) {
            let rows = group.min(self.width - first);
            let coset = &mut buf[..rows * positions];
            // The rows are laid out position-major inside the transform's
            // first pass, and the rest runs block by block, each block
            // (whole groups of the hasher's lanes) hashed as soon as it is
            // finished, while it is in the core's cache.
            let gather = |start: usize, out: &mut [Gf128]| {
                gather_rows(self.source, self.log_msg, first, rows, start, out)
            };
            let log_block = code
                .first_pass_log_block(rows)
                .max(GROUP_MESSAGES.trailing_zeros() as usize)
                .min(self.log_msg);
            code.encode_coset_head(coset, rows, h, log_block, &gather);
            hashes.update_fields_blockwise(coset, 1 << log_block, |index, block| {
                code.encode_coset_tail(block, rows, h, index)
            });
        }
        scratch::recycle_field(buf);
        match kept_from {
            0 => hashes.finish_into(out),
            d if positions >= GROUP_MESSAGES => {
                let block = REDUCED_LEAVES.min(positions).max(1 << d);
                hashes.finish_reduced(block, out, |leaves, nodes| merkle::nodes_above(leaves, d, nodes));
            }
            d => merkle::nodes_above(&hashes.finish(), d, out),
        }
    }
}

/// Writes elements `start .. start + out.len()` of rows `first .. first +
/// rows` of `message` (`2^log_msg` positions each, laid out as `layout`
/// says), laid out position-major (element `p rows + r` is row `first + r`
/// at position `p`), into `out`.
///
/// A transform's first pass calls this for a chunk of each of its
/// sub-blocks in turn, so level 0's rows are read in runs of a few
/// kilobytes (2^14 hashes: 4 KiB of each of four rows for Keccak-f, 8 KiB
/// for SHA-256), dozens of runs apart, which the hardware prefetchers did
/// not follow: the store of this loop was the proof's hottest line (`perf`,
/// 6% of a SHA-256 `bench`'s samples, waiting for the rows' loads). Each run
/// now prefetches the next one of its row
/// ([`starling_field::prefetch`]). One Zen 5 thread, `bench`, alternating:
/// the commit phase of SHA-256 59.9-61.0 -> 55.2-56.9 ms, Keccak-f
/// 112.0-113.4 -> 101.1-107.0, and the opening's re-encode with it
/// (SHA-256's opening 79.7-81.8 -> 76.1-78.3 ms). With the loads no longer
/// waiting, writing one row at a time (16 bytes at a stride of `rows`
/// elements, every line of `out` written `rows` times) was what was left:
/// four rows at a time write whole lines, SHA-256's commit phase 57.8-58.7
/// -> 54.4-55.7 ms, BLAKE3's 30.7-31.3 -> 28.1 (same bench).
fn gather_rows(
    source: Source<'_>,
    log_msg: usize,
    first: usize,
    rows: usize,
    start: usize,
    out: &mut [Gf128],
) {
    let positions = 1usize << log_msg;
    let end = start + out.len();
    debug_assert!(end <= rows * positions);
    let Source {
        message,
        layout,
        extra,
        message_rows,
    } = source;
    match layout {
        Layout::RowMajor { relabel } => {
            let row = |r: usize| {
                let r = first + r;
                if r < message_rows {
                    &message[r << log_msg..][..positions]
                } else {
                    &extra[(r - message_rows) << log_msg..][..positions]
                }
            };
            // Positions `pa .. pb` lie wholly in the range; the elements of
            // the positions cut by its ends go one at a time.
            let pa = start.div_ceil(rows);
            let pb = (end / rows).max(pa);
            for e in (start..(pa * rows).min(end)).chain((pb * rows).max(start)..end) {
                out[e - start] = row(e % rows)[(e / rows) ^ relabel];
            }
            // Whole positions, in runs that the relabelling keeps contiguous
            // (aligned blocks of its lowest set bit), four rows at a time: a
            // store of 64 bytes, a cache line where `rows` is a multiple of
            // four.
            let run = if relabel == 0 {
                positions
            } else {
                1 << relabel.trailing_zeros()
            };
            let mut u = pa;
            while u < pb {
                let v = pb.min((u / run + 1) * run);
                let src = u ^ relabel;
                let body = &mut out[u * rows - start..][..(v - u) * rows];
                let mut r = 0;
                while r + 4 <= rows {
                    let [q0, q1, q2, q3] = [r, r + 1, r + 2, r + 3].map(|q| &row(q)[src..src + (v - u)]);
                    let four = q0.iter().zip(q1).zip(q2).zip(q3);
                    for (o, (((&a, &b), &c), &d)) in body.chunks_exact_mut(rows).zip(four) {
                        o[r..r + 4].copy_from_slice(&[a, b, c, d]);
                    }
                    r += 4;
                }
                for r in r..rows {
                    for (o, &x) in body.chunks_exact_mut(rows).zip(&row(r)[src..src + (v - u)]) {
                        o[r] = x;
                    }
                }
                u = v;
            }
            // The pass asks for each row's next run (as long) once it has
            // worked on every other sub-block's: load it now (with a
            // relabelling, from where its first position is read).
            let (p0, p1) = (start / rows, end.div_ceil(rows));
            if p1 < positions {
                let from = p1 ^ relabel;
                let to = (from + (p1 - p0)).min(from / run * run + run).min(positions);
                for r in 0..rows {
                    starling_field::prefetch::to_l2(&row(r)[from..to]);
                }
            }
        }
        Layout::PositionMajor => {
            let width = message.len() >> log_msg;
            let mut e = start;
            while e < end {
                let (p, r) = (e / rows, e % rows);
                let n = (rows - r).min(end - e);
                out[e - start..][..n].copy_from_slice(&message[p * width + first + r..][..n]);
                e += n;
            }
        }
    }
}

/// A committed level after level 0: its message (a fold of the table, whose
/// rows are its low variables) and its code.
#[derive(Clone, Debug)]
pub(crate) struct CommittedLevel {
    message: Vec<Gf128>,
    pub(crate) code: LevelCode,
}

impl CommittedLevel {
    /// Commits to `message` with `2^log_rows` rows that are its low
    /// variables (position-major) at rate `2^-log_inv_rate`.
    pub(crate) fn new(message: Vec<Gf128>, log_rows: usize, log_inv_rate: usize) -> Self {
        let log_msg = message.len().trailing_zeros() as usize - log_rows;
        let code = LevelCode::commit(
            Source::plain(&message, Layout::PositionMajor),
            log_msg,
            1 << log_rows,
            log_inv_rate,
            0,
        );
        CommittedLevel { message, code }
    }

    /// The codeword's columns at `positions`, one after another.
    pub(crate) fn columns(&self, positions: &[usize]) -> Vec<Gf128> {
        self.code.columns(
            Source::plain(&self.message, Layout::PositionMajor),
            positions,
            usize::MAX,
        )
    }
}

/// Level 0's Merkle tree keeps its levels from this one up: the four below
/// are fifteen sixteenths of its memory (2^18 Keccak-f permutations: 240 of
/// 256 MiB, beside the table through the whole proof), and the opening
/// rebuilds the few nodes it sends from the `2^4` columns around each
/// query ([`LevelCode::open`]).
pub(crate) const LEVEL0_TREE_KEPT_FROM: usize = 4;

/// Leaves a task hashes up to level 0's lowest kept level at a time, in a
/// buffer of its own (64 KiB): the leaves were 128 MiB at 2^18 Keccak-f
/// permutations, built whole and then pruned, the commitment's peak.
const REDUCED_LEAVES: usize = 1 << 11;

/// What the prover keeps after committing: the table and level 0's code.
#[derive(Clone, Debug)]
pub struct ProverData {
    pub(crate) table: ScratchVec,
    pub(crate) level0: LevelCode,
    /// A hiding commitment's mask row `M` then salt row, `2^m` entries each
    /// (empty otherwise).
    extra_rows: Vec<Gf128>,
}

impl ProverData {
    /// Commits to the first `width` rows of `table`, whose rows are its top
    /// `log_rows` variables (the other rows are zero), at rate
    /// `2^-log_inv_rate`.
    fn commit_top_rows(table: ScratchVec, log_rows: usize, width: usize, log_inv_rate: usize) -> Self {
        let log_msg = table.len().trailing_zeros() as usize - log_rows;
        let source = Source::plain(&table, Layout::RowMajor { relabel: 0 });
        let level0 = LevelCode::commit(source, log_msg, width, log_inv_rate, LEVEL0_TREE_KEPT_FROM);
        ProverData {
            table,
            level0,
            extra_rows: Vec::new(),
        }
    }

    /// A hiding commitment ([`commit_hiding`]): the first `data_rows` rows
    /// of `table` (`2^log_msg` entries each), then the mask row and the salt
    /// row from `extra_rows`, every row read at its index XORed with
    /// `relabel`.
    fn commit_hiding_rows(
        table: ScratchVec,
        extra_rows: Vec<Gf128>,
        log_msg: usize,
        data_rows: usize,
        relabel: usize,
        log_inv_rate: usize,
    ) -> Self {
        let source = Source {
            message: &table,
            layout: Layout::RowMajor { relabel },
            extra: &extra_rows,
            message_rows: data_rows,
        };
        let level0 = LevelCode::commit(
            source,
            log_msg,
            data_rows + 2,
            log_inv_rate,
            LEVEL0_TREE_KEPT_FROM,
        );
        ProverData {
            table,
            level0,
            extra_rows,
        }
    }

    /// What the opening reads of the commitment besides the table.
    pub(crate) fn view(&self) -> Level0View<'_> {
        Level0View {
            level0: &self.level0,
            extra_rows: &self.extra_rows,
        }
    }

    /// The committed table.
    pub fn table(&self) -> &[Gf128] {
        &self.table
    }

    /// The committed table, taken back (for `starling_field::scratch`).
    pub fn into_table(self) -> ScratchVec {
        self.table
    }

    /// The committed table's buffer handed back, for a while, with the rest
    /// kept (level 0's tree and extra rows): a prover that can write the
    /// same table again needs no copy of it meanwhile, and uses its memory
    /// for other work. [`TableAside::with_table`] puts it back.
    pub fn set_table_aside(self) -> (ScratchVec, TableAside) {
        let len = self.table.len();
        let aside = TableAside {
            level0: self.level0,
            extra_rows: self.extra_rows,
            len,
        };
        (self.table, aside)
    }

    /// The level-0 codeword's columns at `positions`, one after another.
    #[cfg(test)]
    fn level0_columns(&self, positions: &[usize]) -> Vec<Gf128> {
        self.view().columns(&self.table, positions)
    }
}

/// What the opening reads of a commitment besides its table: level 0's
/// code and a hiding commitment's extra rows. A [`ProverData`] and a
/// [`TableAside`] both give it, so that an opening may hold the table
/// elsewhere for a while (`ligerito`'s `Opening::Over`).
#[derive(Clone, Copy)]
pub(crate) struct Level0View<'a> {
    level0: &'a LevelCode,
    extra_rows: &'a [Gf128],
}

impl<'a> Level0View<'a> {
    /// Level 0's Merkle tree.
    pub(crate) fn tree(&self) -> &'a MerkleTree {
        &self.level0.tree
    }

    /// A hiding commitment's mask row `M` (`None` for a plain one).
    pub(crate) fn mask_row(&self) -> Option<&'a [Gf128]> {
        let len = 1usize << self.level0.log_msg;
        (!self.extra_rows.is_empty()).then(|| &self.extra_rows[..len])
    }

    /// The level-0 codeword's columns at `positions` (strictly increasing)
    /// of the committed `table`, and their Merkle proof; with `one_lane`,
    /// one row group re-encoded at a time (a second group's buffer is 128
    /// MiB at 2^18 Keccak-f permutations, and where the opening holds one
    /// table, `bits::prove_over`, it was the proof's peak).
    pub(crate) fn open(
        &self,
        table: &[Gf128],
        positions: &[usize],
        one_lane: bool,
    ) -> Result<(Vec<Gf128>, MultiProof), PcsError> {
        let lanes_at_most = if one_lane { 1 } else { usize::MAX };
        self.level0.open(self.source(table), positions, lanes_at_most)
    }

    /// The level-0 codeword's columns at `positions`, one after another,
    /// of the committed `table`.
    #[cfg(test)]
    pub(crate) fn columns(&self, table: &[Gf128], positions: &[usize]) -> Vec<Gf128> {
        self.level0.columns(self.source(table), positions, usize::MAX)
    }

    /// Level 0's rows of `table` as the code reads them.
    fn source<'t>(&self, table: &'t [Gf128]) -> Source<'t>
    where
        'a: 't,
    {
        let extra = self.extra_rows.len() >> self.level0.log_msg;
        Source {
            message: table,
            layout: self.level0.layout,
            extra: self.extra_rows,
            message_rows: if extra == 0 {
                usize::MAX
            } else {
                self.level0.width - extra
            },
        }
    }
}

/// [`ProverData`] without its table ([`ProverData::set_table_aside`]).
#[derive(Debug)]
pub struct TableAside {
    level0: LevelCode,
    extra_rows: Vec<Gf128>,
    /// The committed table's length.
    len: usize,
}

impl TableAside {
    /// What the opening reads of the commitment besides the table.
    pub(crate) fn view(&self) -> Level0View<'_> {
        Level0View {
            level0: &self.level0,
            extra_rows: &self.extra_rows,
        }
    }

    /// The prover data again, with `table`, which must hold the committed
    /// table's entries: the opening reads the table and re-encodes its
    /// columns, so another table gives an opening the verifier rejects.
    /// Only its length can be checked here.
    pub fn with_table(self, table: ScratchVec) -> Result<ProverData, PcsError> {
        if table.len() != self.len {
            return Err(PcsError::BadInput("a table set aside comes back another length"));
        }
        Ok(ProverData {
            table,
            level0: self.level0,
            extra_rows: self.extra_rows,
        })
    }
}

/// Commits to `table` (length `2^num_vars`): a `Vec`, or a buffer lent by
/// `starling_field::scratch` that [`ProverData::into_table`] hands back.
pub fn commit(
    params: &PcsParams,
    table: impl Into<ScratchVec>,
) -> Result<(Commitment, ProverData), PcsError> {
    if params.is_hiding() {
        return Err(PcsError::BadInput("hiding parameters: commit with commit_hiding"));
    }
    let table = checked_table(params, table.into())?;
    let l0 = params.levels()[0];
    let data = ProverData::commit_top_rows(table, l0.log_rows, params.level_width(0), l0.log_inv_rate);
    let commitment = Commitment {
        root: data.level0.tree.root(),
    };
    Ok((commitment, data))
}

/// Commits to `table` (length `2^data_vars`) for a hiding opening
/// ([`PcsParams::hiding`]): the mask row and the salt row are drawn from
/// `rng`. The caller has filled every live data row's
/// [`PcsParams::mask_run`] with uniformly random entries (the circuit's mask
/// wires); nothing here can check that, and without it the opening hides
/// nothing.
pub fn commit_hiding(
    params: &PcsParams,
    table: impl Into<ScratchVec>,
    rng: &mut (impl RngCore + CryptoRng),
) -> Result<(Commitment, ProverData), PcsError> {
    let run = params
        .mask_run()
        .ok_or(PcsError::BadInput("commit_hiding needs hiding parameters"))?;
    let table = checked_table(params, table.into())?;
    let m = params.level_log_msg(0);
    let extra_rows: Vec<Gf128> = (0..2usize << m).map(|_| random_element(rng)).collect();
    let data = ProverData::commit_hiding_rows(
        table,
        extra_rows,
        m,
        params.level0_data_rows(),
        run.offset,
        params.levels()[0].log_inv_rate,
    );
    let commitment = Commitment {
        root: data.level0.tree.root(),
    };
    Ok((commitment, data))
}

/// A uniform field element from `rng`.
pub fn random_element(rng: &mut (impl RngCore + CryptoRng)) -> Gf128 {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    Gf128::from_bytes(b)
}

/// `table` if it is the data table's size and zero past level 0's live rows.
fn checked_table(params: &PcsParams, table: ScratchVec) -> Result<ScratchVec, PcsError> {
    let want = 1usize << params.data_vars();
    if table.len() != want {
        return Err(PcsError::TableSize {
            got: table.len(),
            want,
        });
    }
    // Scanned on rayon's threads (the zero tail is 200 MB of Keccak-f's
    // table at 2^16 permutations: 7.8 ms on one Zen 4 thread), in chunks:
    // `position_first` over single elements took 66-76 ms on two.
    let live = params.live_rows_len();
    let tail = &table[live..];
    let nonzero = |v: &Gf128| !v.is_zero();
    if tail.par_chunks(1 << 16).any(|chunk| chunk.iter().any(nonzero)) {
        let i = tail.iter().position(nonzero).expect("a nonzero entry");
        return Err(PcsError::NonzeroPastLive {
            index: live + i,
            live: params.live_len(),
        });
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use starling_crypto::merkle::hash_leaf_fields;

    #[test]
    fn top_rows_are_encoded_row_by_row() {
        // Each row by the single-message encoder (tested against the
        // definition in starling-poly). Widths that are not powers of two, messages long enough for the
        // NTT's passes over memory, and levels past `SIDE_BY_SIDE_ELEMS`, committed `COMMIT_ROWS`
        // rows at a time (47: a last group of three).
        for (log_rows, log_msg, width, rate) in [
            (2, 3, 3, 2),
            (3, 9, 5, 1),
            (6, 12, 45, 1),
            (4, 13, 16, 2),
            (6, 13, 47, 1),
            (5, 15, 12, 2),
        ] {
            let table: Vec<Gf128> = (0..1u128 << (log_rows + log_msg))
                .map(|i| Gf128::new((i + 1).wrapping_mul(0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15)))
                .collect();
            let data = ProverData::commit_top_rows(table.clone().into(), log_rows, width, rate);
            let rows: Vec<Vec<Gf128>> = table
                .chunks_exact(1 << log_msg)
                .take(width)
                .map(|row| ReedSolomon::new(log_msg, rate).encode(row))
                .collect();
            // Every position, in an order that visits the cosets out of turn.
            let len = 1usize << (log_msg + rate);
            let positions: Vec<usize> = (0..len).map(|i| (i * 5 + 3) % len).collect();
            let columns = data.level0_columns(&positions);
            for (col, &q) in columns.chunks_exact(width).zip(&positions) {
                let want: Vec<Gf128> = rows.iter().map(|row| row[q]).collect();
                assert_eq!(col, want.as_slice(), "rows 2^{log_rows}, width {width}, q {q}");
            }
            let leaves: Vec<Digest> = data
                .level0_columns(&(0..len).collect::<Vec<_>>())
                .chunks_exact(width)
                .map(hash_leaf_fields)
                .collect();
            assert_eq!(
                data.level0.tree.root(),
                MerkleTree::from_leaf_hashes(leaves).root()
            );
        }
    }

    /// Pieces of rows laid out position-major, from either layout, against
    /// the definition: pieces that start and end inside a position, a
    /// single element, whole positions, groups of one row and of fifteen.
    #[test]
    fn gathered_rows_are_the_rows_position_major() {
        let log_msg = 5;
        let positions = 1usize << log_msg;
        let width = 24;
        let message: Vec<Gf128> = (0..(width * positions) as u128)
            .map(|i| Gf128::new((i + 9).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            .collect();
        // The same rows position-major: position p of row r at p width + r.
        let transposed: Vec<Gf128> = (0..width * positions)
            .map(|k| message[(k % width) * positions + k / width])
            .collect();
        for (first, rows) in [(0, 1), (3, 4), (9, 15), (0, 24)] {
            for (start, len) in [
                (0, rows * positions),
                (1, 1),
                (rows / 2, 3 * rows + 1),
                (2 * rows - 1, 2),
                (7, 40),
            ] {
                let len = len.min(rows * positions - start);
                for (layout, msg) in [
                    (Layout::RowMajor { relabel: 0 }, &message),
                    (Layout::PositionMajor, &transposed),
                ] {
                    let mut out = vec![Gf128::ONE; len];
                    gather_rows(Source::plain(msg, layout), log_msg, first, rows, start, &mut out);
                    let want: Vec<Gf128> = (start..start + len)
                        .map(|e| message[(first + e % rows) * positions + e / rows])
                        .collect();
                    assert_eq!(
                        out, want,
                        "{layout:?}, rows {first}..+{rows}, elements {start}..+{len}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_root_does_not_depend_on_the_threads() {
        // Four, eight and sixteen rows at a time (`commit_rows`), 47 rows
        // in all: ragged last groups of three, seven and fifteen; from two
        // threads on, both cosets at once (`commit_in_flight`). 2^15
        // positions: past `side_by_side_elems` on sixteen threads.
        let table: Vec<Gf128> = (0..1u128 << 21)
            .map(|i| Gf128::new((i + 3).wrapping_mul(0x9e37_79b9_7f4a_7c15_2545_f491_4f6c_dd1d)))
            .collect();
        let root = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                ProverData::commit_top_rows(table.clone().into(), 6, 47, 1)
                    .level0
                    .tree
                    .root()
            })
        };
        let one = root(1);
        for threads in [2, 8, 16] {
            assert_eq!(root(threads), one, "{threads} threads");
        }
    }

    #[test]
    fn level0_columns_do_not_depend_on_the_threads() {
        // Three row groups of sixteen rows (the last of fifteen,
        // `REENCODE_MIN_ELEMS`), each transform on one thread and split over
        // two, eight and sixteen, in two to four lanes from two threads on
        // (`reencode_lanes`).
        let table: Vec<Gf128> = (0..1u128 << 20)
            .map(|i| Gf128::new((i + 5).wrapping_mul(0x2545_f491_4f6c_dd1d_9e37_79b9_7f4a_7c15)))
            .collect();
        let data = ProverData::commit_top_rows(table.into(), 6, 47, 1);
        let len = 1usize << 15;
        let positions: Vec<usize> = (0..300).map(|i| (i * 7919 + 13) % len).collect();
        let columns = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| data.level0_columns(&positions))
        };
        let one = columns(1);
        let rows: Vec<Vec<Gf128>> = data
            .table()
            .chunks_exact(1 << 14)
            .take(47)
            .map(|row| ReedSolomon::new(14, 1).encode(row))
            .collect();
        for (col, &q) in one.chunks_exact(47).zip(&positions) {
            let want: Vec<Gf128> = rows.iter().map(|row| row[q]).collect();
            assert_eq!(col, want.as_slice(), "q {q}");
        }
        for threads in [2, 8, 16] {
            assert_eq!(columns(threads), one, "{threads} threads");
        }
    }

    #[test]
    fn later_levels_open_their_columns() {
        // Position-major messages of 2^log_rows rows; repeated positions too.
        // Rows are re-encoded four at a time, all sixteen at once, and in two
        // groups of sixteen (`REENCODE_MIN_ELEMS`). The last is committed
        // `COMMIT_ROWS` rows at a time.
        for (log_rows, log_msg, rate) in [(0, 5, 2), (2, 9, 3), (4, 12, 4), (5, 14, 1)] {
            let width = 1usize << log_rows;
            let message: Vec<Gf128> = (0..1u128 << (log_rows + log_msg))
                .map(|i| Gf128::new((i + 7).wrapping_mul(0x9e37_79b9_7f4a_7c15_2545_f491_4f6c_dd1d)))
                .collect();
            let want = ReedSolomon::new(log_msg, rate).encode_batch(&message, width);
            let level = CommittedLevel::new(message, log_rows, rate);
            let len = 1usize << (log_msg + rate);
            let mut positions: Vec<usize> = (0..len).map(|i| (i * 7 + 1) % len).collect();
            positions.extend([3, 3, len - 1]);
            // On sixteen threads four cosets are re-encoded at once.
            for threads in [1, 16] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let columns = pool.install(|| level.columns(&positions));
                for (col, &q) in columns.chunks_exact(width).zip(&positions) {
                    assert_eq!(
                        col,
                        &want[q * width..(q + 1) * width],
                        "rows 2^{log_rows}, q {q}, {threads} threads"
                    );
                }
            }
            let leaves: Vec<Digest> = want.chunks_exact(width).map(hash_leaf_fields).collect();
            assert_eq!(
                level.code.tree.root(),
                MerkleTree::from_leaf_hashes(leaves).root()
            );
        }
    }
}
