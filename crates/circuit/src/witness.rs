//! Bit-sliced batched witness generation and checking.
//!
//! The batch witness of `N = 2^n` instances is a bit vector of length
//! `2^(k+n)`, bit index `instance + N * wire`, stored as `u64` words in the
//! layout of [`crate::layout`]: word `wire * (N/64) + instance / 64`. Rows are
//! evaluated on whole words, 64 instances at a time.
//!
//! For locality the batch is cut into blocks of `L` consecutive words of
//! each wire (`64·L` instances). The generator evaluates a block in a
//! compact buffer with a slot per live wire (`crate::eval_plan`) and
//! writes each wire's `L` words to its place as it computes them; the
//! checker and the two-pass forms gather every wire's block into a buffer
//! of `K` entries. Blocks are independent: each rayon task takes one range
//! of blocks (about four per thread), and the witness is the same whatever
//! the number of threads.

use crate::a_from_b::{AFromB, ARow};
use crate::columns::{column_parts, part_words, ColumnPart};
use crate::eval_plan::plan;
use crate::r1cs::{R1cs, RowKind};
use crate::streaming;
use crate::xor_row::XorRow;
use rayon::prelude::*;
use starling_verifier::zk::Holes;
use std::ops::Deref;
use std::sync::Mutex;
use thiserror::Error;

/// Smallest supported `n` (log2 of the instance count).
pub const MIN_LOG_INSTANCES: u32 = 7;
/// Largest supported `n`.
pub const MAX_LOG_INSTANCES: u32 = 40;

/// Errors from batched witness generation.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WitnessError {
    /// `n` is outside the supported range.
    #[error("log2 of the instance count is {0}; it must be between {MIN_LOG_INSTANCES} and {MAX_LOG_INSTANCES} (pad the batch)")]
    BadLogInstances(u32),
    /// An input matrix has the wrong number of words.
    #[error("{what} has {got} words, expected {expected} ({bits} bits × N/64 words)")]
    InputLength {
        /// Which input.
        what: &'static str,
        /// Words given.
        got: usize,
        /// Words expected.
        expected: usize,
        /// Bits per instance.
        bits: usize,
    },
    /// The buffer given for the witness has the wrong number of words.
    #[error("the witness buffer has {got} words, expected {expected}")]
    OutputLength {
        /// Words given.
        got: usize,
        /// Words expected.
        expected: usize,
    },
}

/// The witness of a batch: `2^k` wires × `2^n` instances, bit-sliced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchWitness {
    k: u32,
    n: u32,
    words: Vec<u64>,
}

impl BatchWitness {
    /// Wraps raw words (length `2^(k+n) / 64`).
    pub fn from_words(k: u32, n: u32, words: Vec<u64>) -> Self {
        assert!(n >= 6, "at least 64 instances");
        assert_eq!(words.len(), 1usize << (k + n - 6), "witness length");
        BatchWitness { k, n, words }
    }

    /// log2 of the number of wires per instance.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// log2 of the number of instances.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Number of instances `N`.
    pub fn num_instances(&self) -> usize {
        1usize << self.n
    }

    /// `N / 64`: words per wire.
    pub fn words_per_wire(&self) -> usize {
        1usize << (self.n - 6)
    }

    /// All words; bit `instance + N * wire`.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Mutable words (for tests that tamper with a witness).
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Consumes the witness, returning its words.
    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// The `N/64` words of one wire.
    pub fn wire_words(&self, wire: usize) -> &[u64] {
        let w = self.words_per_wire();
        &self.words[wire * w..(wire + 1) * w]
    }

    /// Value of `wire` in `instance`.
    pub fn bit(&self, instance: usize, wire: usize) -> bool {
        let idx = instance + (wire << self.n);
        (self.words[idx / 64] >> (idx % 64)) & 1 == 1
    }

    /// Wire values of one instance.
    pub fn instance(&self, instance: usize) -> Vec<bool> {
        (0..1usize << self.k).map(|w| self.bit(instance, w)).collect()
    }
}

/// Where the zerocheck may read `r1cs`'s form `a` out of its form `b`
/// ([`AFromB::of`]), found once per system and kept in its prover cache.
pub fn a_from_b(r1cs: &R1cs) -> Option<&AFromB> {
    plan(r1cs).a_from_b.get_or_init(|| AFromB::of(r1cs)).as_ref()
}

/// One task's column range of the forms `a` and `b`, row by row.
type FormRows<'a> = (ColumnPart<'a>, ColumnPart<'a>);

/// The tables one witness pass writes ([`R1csWitness::generate_tables_into`]):
/// the witness `z`, its linear forms `a = A z` and `b = B z`, or all three.
/// Each is a batch-layout buffer (`N/64` words a row) of the circuit's wires,
/// or of a [`Placement`]'s `2^k` rows.
///
/// One pass over all three is the fastest; a prover short of memory writes
/// `z` alone to commit to it, then the forms for the zerocheck over `z`'s
/// buffer, then `z` again: two tables at a time instead of three, for two
/// more passes (the witness phase is a few percent of a proof).
#[derive(Debug, Default)]
pub struct Tables<'a> {
    /// The witness `z`.
    pub z: Option<&'a mut [u64]>,
    /// The forms `a` and `b`.
    pub forms: Option<(&'a mut [u64], &'a mut [u64])>,
    /// The form `b`, and of `a` only the rows an [`AFromB`] stores, one
    /// after another (`N/64` words each): the zerocheck reads the others
    /// out of `b`. Not with a [`Placement`].
    pub b_and_stored: Option<(&'a mut [u64], &'a mut [u64], &'a AFromB)>,
}

impl Tables<'_> {
    /// The buffers of whole tables given, `z` first.
    fn buffers(&mut self) -> Vec<&mut [u64]> {
        let forms = self.forms.as_mut().map(|(a, b)| [&mut **a, &mut **b]);
        let b = self.b_and_stored.as_mut().map(|(b, _, _)| &mut **b);
        self.z
            .as_deref_mut()
            .into_iter()
            .chain(forms.into_iter().flatten())
            .chain(b)
            .collect()
    }
}

/// Words [`zero_rows`] clears per task: large enough that a task's stores
/// stream, small enough to spread a few rows over the threads.
const ZERO_TASK_WORDS: usize = 1 << 15;

/// Clears the `rows` (wire indices, increasing) of a batch-layout buffer,
/// on rayon, by non-temporal stores.
///
/// The rows are padding wires the buffers may hold stale values in: the
/// generator's below the zero tail (a circuit's few padding wires among
/// its used ones, a zero-knowledge layout's free rows), every empty row of
/// the forms' pass. The zero tail itself (39% of Keccak-f's wires, 22-27%
/// of SHA-256's and BLAKE3's, one run each) the generator leaves alone:
/// the prover's buffers are zero there. Plain stores read every line
/// first; runs of adjacent rows are cleared as one range, cut into tasks of
/// [`ZERO_TASK_WORDS`] words.
fn zero_rows(buf: &mut [u64], words_per_wire: usize, rows: &[usize]) {
    debug_assert!(rows.is_sorted(), "rows in order");
    let mut ranges: Vec<&mut [u64]> = Vec::new();
    let (mut rest, mut at) = (buf, 0);
    let mut i = 0;
    while i < rows.len() {
        // The run of adjacent rows starting at `rows[i]`.
        let first = rows[i];
        let mut end = first + 1;
        i += 1;
        while i < rows.len() && rows[i] == end {
            end += 1;
            i += 1;
        }
        let (_, tail) = std::mem::take(&mut rest).split_at_mut((first - at) * words_per_wire);
        let (run, tail) = tail.split_at_mut((end - first) * words_per_wire);
        ranges.extend(run.chunks_mut(ZERO_TASK_WORDS));
        (rest, at) = (tail, end);
    }
    ranges.into_par_iter().for_each(|range| {
        streaming::zero(range);
        streaming::finish();
    });
}

/// Words per block: `min(16, N/64)`.
///
/// A block gathers or scatters `8 L` contiguous bytes of every wire's row
/// (rows are `N/8` bytes apart), so wider blocks mean fewer scattered
/// accesses per byte. Sixteen (two cache lines per wire) beat eight on Zen 5
/// (2^14 hashes, one thread: SHA-256's forms 29-50 -> 20-40 ms, Keccak-f's
/// 56 -> 46 ms and its witness 45 -> 37 ms); 32 was slower again.
fn block_lanes(words_per_wire: usize) -> usize {
    words_per_wire.min(16)
}

/// Bytes the witness generator's buffer may take per task before its
/// blocks narrow: the largest block width whose slots fit is used.
const GENERATOR_BUFFER_BYTES: usize = 1 << 20;

/// Words per block of the witness generator for a system whose plan needs
/// `slots` slots: the widest of 16, 32 and 64 (runs of 128 to 512 bytes of
/// each row of the three tables it writes, per visit) whose buffer fits in
/// [`GENERATOR_BUFFER_BYTES`], 16 where none does, and narrower where a
/// thread would be left without a block.
///
/// The buffer holds only the live wires ([`crate::eval_plan::EvalPlan`]),
/// 2,466 / 2,453 / 3,041 slots for SHA-256 / BLAKE3 / Keccak-f, so 32
/// words is 0.6-0.8 MiB. Wider blocks visit each page of the tables fewer
/// times. The witness phase of `starling bench --count 16384 --threads 1`
/// on the device Xeon (family 6 model 207), ms, two calls, 16 words with
/// plain stores of the witness (the code before) -> 32 / 64 words with
/// non-temporal stores: SHA-256 170 / 181 -> 98 / 86 at 32, 69 / 71 at 64;
/// Keccak-f 329 / 299 -> 180 / 205 at 32, 176 / 199 at 64. On Zen 4
/// (`hash_witness_timing 14`, one thread, the fused pass, three runs)
/// 32 words were best: 16 / 32 / 64 words SHA-256 36-38 / 29-31 / 28-31,
/// BLAKE3 19-20 / 15-16 / 19-20, Keccak-f 66-81 / 65-75 / 83-92 ms (before:
/// 38-41, 20, 73-78). With plain stores 64 words were twice as slow as 16
/// on Zen 4 (each store first reads its line).
fn generator_lanes(words_per_wire: usize, slots: usize) -> usize {
    let per_thread = (words_per_wire / rayon::current_num_threads()).max(1);
    let fitting = [64, 32, 16]
        .into_iter()
        .find(|&lanes| slots * lanes * 8 <= GENERATOR_BUFFER_BYTES)
        .unwrap_or(16);
    (1usize << per_thread.ilog2()).min(fitting)
}

/// What the prover does with an [`R1cs`] over a batch: generate the
/// bit-sliced witness of `2^n` instances, its linear forms, check it, read
/// its public values. (The system itself is `starling_verifier::circuit`'s.)
pub trait R1csWitness {
    /// Generates the batch witness of `N = 2^n` instances (`n >= 7`).
    ///
    /// Inputs are bit-sliced matrices: `public_inputs[j * (N/64) + w]` holds
    /// public input bit `j` of instances `64w .. 64w + 63`, and likewise for
    /// `private_inputs` (bit `j` = the `j`-th private input wire). Build them
    /// with [`crate::layout::slice_instances`].
    fn generate_witness(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
    ) -> Result<BatchWitness, WitnessError>;

    /// [`R1csWitness::generate_witness`] writing the witness words into `words`,
    /// which must be exactly `2^(k + n) / 64` long: the prover passes the
    /// buffer it then commits, so nothing is copied. Every entry up to the
    /// zero tail (the rows past the last used wire, zero in every instance)
    /// is written (padding rows with zeros), so the buffer needs no
    /// clearing first; the tail is never touched, and must be zero already:
    /// the prover's buffers are fresh pages there, which then cost no memory.
    fn generate_witness_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        words: &mut [u64],
    ) -> Result<(), WitnessError>;

    /// [`R1csWitness::generate_witness_into`] that also writes the linear forms
    /// `a = A z` and `b = B z` ([`R1csWitness::linear_forms_into`]'s) into `a` and
    /// `b`, as long as `words`, in the same pass: every AND and linear row
    /// computes its two forms to evaluate its wire anyway, and the inputs'
    /// and the constant's are read from the block while it is in cache. The
    /// prover then never reads the witness back for them (a second pass over
    /// every wire's rows, 58-112 ms of a Keccak-f proof of 2^14 permutations
    /// on one Zen 4 thread). Every entry of the three buffers is written, up
    /// to their zero tail, which must be zero already (as
    /// [`R1csWitness::generate_witness_into`]'s).
    fn generate_witness_and_forms_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        words: &mut [u64],
        a: &mut [u64],
        b: &mut [u64],
    ) -> Result<(), WitnessError>;

    /// The witness, its forms, or both ([`Tables`]), every entry of each up
    /// to the zero tail (as [`R1csWitness::generate_witness_into`]'s).
    ///
    /// With a `placement` (a zero-knowledge batch), wire `w` goes to row
    /// `placement.holes.position(w)` of buffers of `2^k` rows, and each of
    /// the holes' rows, in order, takes its words of `hole_words`
    /// (`words_per_wire` each, the prover's random bits) as a free input:
    /// `z = a`, `b = 1` (the constant). Every other row is zero: written so
    /// up to the end of the last block of wires and holes, and past it left
    /// as it is, which must be zero already.
    fn generate_tables_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        placement: Option<Placement<'_>>,
        tables: Tables<'_>,
    ) -> Result<(), WitnessError>;

    /// The linear forms `a = A z`, `b = B z` and `c = C z` for every wire of
    /// every instance, in the witness layout (so `a & b == c` for a valid
    /// witness).
    fn linear_forms(&self, witness: &BatchWitness) -> [Vec<u64>; 3];

    /// [`R1csWitness::linear_forms`]' `a` and `b` of the witness `words`
    /// (`words_per_wire` words per wire) into `a` and `b`, which must be as
    /// long as `words`. Every entry is written (rows with no terms, the
    /// padding, with zeros), so the buffers need no clearing first. Runs on
    /// rayon, a range of columns per task.
    fn linear_forms_into(&self, words_per_wire: usize, words: &[u64], a: &mut [u64], b: &mut [u64]);

    /// Words `start .. start + out.len()` of `c = C z` (the witness layout:
    /// word `wire * words_per_wire + j`) into `out`: each wire's words XOR
    /// the same words of the wires its addend names. The prover's
    /// zerocheck asks for `c` one chunk at a time, so that no third
    /// table-sized vector is ever held.
    fn c_words_into(&self, words_per_wire: usize, words: &[u64], start: usize, out: &mut [u64]);

    /// True iff `(A z) ∘ (B z) = C z` and the constant wire is 1 in every
    /// instance of the batch.
    fn is_satisfied(&self, witness: &BatchWitness) -> bool;

    /// The public output matrix of a batch (same layout as the inputs:
    /// `out[j * (N/64) + w]`). Outputs are consecutive wires, so this is a
    /// slice of the witness.
    fn public_outputs<'a>(&self, witness: &'a BatchWitness) -> &'a [u64];

    /// The public input matrix of a batch, as stored in the witness.
    fn public_inputs<'a>(&self, witness: &'a BatchWitness) -> &'a [u64];
}

impl R1csWitness for R1cs {
    fn generate_witness(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
    ) -> Result<BatchWitness, WitnessError> {
        let words_per_wire = Batch(self).check_batch_inputs(n, public_inputs, private_inputs)?;
        let mut words = vec![0u64; self.num_wires() * words_per_wire];
        let mut tables = Tables {
            z: Some(&mut words),
            forms: None,
            b_and_stored: None,
        };
        Batch(self).generate(words_per_wire, public_inputs, private_inputs, &mut tables, None);
        Ok(BatchWitness {
            k: self.k(),
            n,
            words,
        })
    }

    fn generate_witness_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        words: &mut [u64],
    ) -> Result<(), WitnessError> {
        let tables = Tables {
            z: Some(words),
            forms: None,
            b_and_stored: None,
        };
        self.generate_tables_into(n, public_inputs, private_inputs, None, tables)
    }

    fn generate_witness_and_forms_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        words: &mut [u64],
        a: &mut [u64],
        b: &mut [u64],
    ) -> Result<(), WitnessError> {
        let tables = Tables {
            z: Some(words),
            forms: Some((a, b)),
            b_and_stored: None,
        };
        self.generate_tables_into(n, public_inputs, private_inputs, None, tables)
    }

    fn generate_tables_into(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
        placement: Option<Placement<'_>>,
        mut tables: Tables<'_>,
    ) -> Result<(), WitnessError> {
        let words_per_wire = Batch(self).check_batch_inputs(n, public_inputs, private_inputs)?;
        let rows = placement.map_or(self.num_wires(), |p| 1 << p.k);
        for got in tables.buffers().iter().map(|t| t.len()) {
            if got != rows * words_per_wire {
                return Err(WitnessError::OutputLength {
                    got,
                    expected: rows * words_per_wire,
                });
            }
        }
        if let Some(placement) = placement {
            let holes = placement.holes.positions().count();
            if placement.hole_words.len() != holes * words_per_wire {
                return Err(WitnessError::InputLength {
                    what: "random wires",
                    got: placement.hole_words.len(),
                    expected: holes * words_per_wire,
                    bits: holes,
                });
            }
        }
        Batch(self).generate(
            words_per_wire,
            public_inputs,
            private_inputs,
            &mut tables,
            placement.as_ref(),
        );
        if let Some(placement) = placement {
            for (h, random) in placement
                .holes
                .positions()
                .zip(placement.hole_words.chunks_exact(words_per_wire))
            {
                let row = h * words_per_wire..(h + 1) * words_per_wire;
                if let Some(z) = tables.z.as_mut() {
                    z[row.clone()].copy_from_slice(random);
                }
                if let Some((a, b)) = tables.forms.as_mut() {
                    a[row.clone()].copy_from_slice(random);
                    b[row].fill(u64::MAX);
                }
            }
        }
        Ok(())
    }

    fn linear_forms(&self, witness: &BatchWitness) -> [Vec<u64>; 3] {
        assert_eq!(witness.k, self.k(), "witness is for a different circuit size");
        let [mut a, mut b, mut c] = [(); 3].map(|_| vec![0u64; witness.words.len()]);
        self.linear_forms_into(witness.words_per_wire(), &witness.words, &mut a, &mut b);
        self.c_words_into(witness.words_per_wire(), &witness.words, 0, &mut c);
        [a, b, c]
    }

    fn linear_forms_into(&self, words_per_wire: usize, words: &[u64], a: &mut [u64], b: &mut [u64]) {
        assert_eq!(words.len(), self.num_wires() * words_per_wire, "witness length");
        assert!(a.len() == words.len() && b.len() == words.len(), "form lengths");
        let (live, empty): (Vec<usize>, Vec<usize>) =
            (0..self.num_wires()).partition(|&w| !(self.a().row(w).is_empty() && self.b().row(w).is_empty()));
        zero_rows(a, words_per_wire, &empty);
        zero_rows(b, words_per_wire, &empty);
        match block_lanes(words_per_wire) {
            1 => Batch(self).forms_blocks::<1>(words_per_wire, &live, words, a, b),
            2 => Batch(self).forms_blocks::<2>(words_per_wire, &live, words, a, b),
            4 => Batch(self).forms_blocks::<4>(words_per_wire, &live, words, a, b),
            8 => Batch(self).forms_blocks::<8>(words_per_wire, &live, words, a, b),
            _ => Batch(self).forms_blocks::<16>(words_per_wire, &live, words, a, b),
        }
    }

    fn c_words_into(&self, words_per_wire: usize, words: &[u64], start: usize, out: &mut [u64]) {
        assert_eq!(words.len(), self.num_wires() * words_per_wire, "witness length");
        assert!(start + out.len() <= words.len(), "c word range");
        let (mut at, mut rest) = (start, out);
        while !rest.is_empty() {
            let (wire, j) = (at / words_per_wire, at % words_per_wire);
            let (dst, tail) = rest.split_at_mut((words_per_wire - j).min(rest.len()));
            let len = dst.len();
            let row = |w: usize| &words[w * words_per_wire + j..][..len];
            dst.copy_from_slice(row(wire));
            for &i in self.addend().row(wire) {
                dst.iter_mut().zip(row(i as usize)).for_each(|(d, s)| *d ^= s);
            }
            at += dst.len();
            rest = tail;
        }
    }

    fn is_satisfied(&self, witness: &BatchWitness) -> bool {
        if witness.k != self.k() {
            return false;
        }
        match block_lanes(witness.words_per_wire()) {
            1 => Batch(self).satisfied_blocks::<1>(witness),
            2 => Batch(self).satisfied_blocks::<2>(witness),
            4 => Batch(self).satisfied_blocks::<4>(witness),
            8 => Batch(self).satisfied_blocks::<8>(witness),
            _ => Batch(self).satisfied_blocks::<16>(witness),
        }
    }

    fn public_outputs<'a>(&self, witness: &'a BatchWitness) -> &'a [u64] {
        let w = witness.words_per_wire();
        let first = self.public_output_wire(0);
        &witness.words[first * w..(first + self.num_public_outputs()) * w]
    }

    fn public_inputs<'a>(&self, witness: &'a BatchWitness) -> &'a [u64] {
        let w = witness.words_per_wire();
        &witness.words[w..(1 + self.num_public_inputs()) * w]
    }
}

/// An [`R1cs`] as the witness generator reads it.
struct Batch<'a>(&'a R1cs);

impl Deref for Batch<'_> {
    type Target = R1cs;

    fn deref(&self) -> &R1cs {
        self.0
    }
}

/// Where a zero-knowledge batch's witness goes
/// ([`R1csWitness::generate_placed_witness_and_forms_into`]).
#[derive(Clone, Copy, Debug)]
pub struct Placement<'a> {
    /// The random wires, the circuit's around them.
    pub holes: Holes,
    /// `log2` of the buffers' rows.
    pub k: usize,
    /// The random wires' words, hole after hole.
    pub hole_words: &'a [u64],
}

impl Batch<'_> {
    fn check_batch_inputs(
        &self,
        n: u32,
        public_inputs: &[u64],
        private_inputs: &[u64],
    ) -> Result<usize, WitnessError> {
        if !(MIN_LOG_INSTANCES..=MAX_LOG_INSTANCES).contains(&n) {
            return Err(WitnessError::BadLogInstances(n));
        }
        let words_per_wire = 1usize << (n - 6);
        for (what, got, bits) in [
            (
                "public input matrix",
                public_inputs.len(),
                self.num_public_inputs(),
            ),
            (
                "private input matrix",
                private_inputs.len(),
                self.num_private_inputs(),
            ),
        ] {
            let expected = bits * words_per_wire;
            if got != expected {
                return Err(WitnessError::InputLength {
                    what,
                    got,
                    expected,
                    bits,
                });
            }
        }
        Ok(words_per_wire)
    }

    /// The first row of the buffers' zero tail, which the generator never
    /// writes: past the last used wire, or, placed around holes, past the
    /// last block of wires and holes. Every instance's entries there are
    /// zero, and the prover's buffers come zero there (so that their pages
    /// are never touched); it is where the commitment's live part ends
    /// (`batch_params`, `zk_layout`).
    fn zero_tail_row(&self, holes: Option<Holes>) -> usize {
        holes.map_or(self.used_wires(), |h| h.live_wires())
    }

    /// The [`Tables`] asked for, in blocks of [`generator_lanes`] words.
    fn generate(
        &self,
        words_per_wire: usize,
        public_inputs: &[u64],
        private_inputs: &[u64],
        tables: &mut Tables<'_>,
        placement: Option<&Placement<'_>>,
    ) {
        let inputs = [public_inputs, private_inputs];
        let place = placement.map(|p| p.holes);
        match generator_lanes(words_per_wire, plan(self).slots) {
            1 => self.generate_blocks::<1>(words_per_wire, inputs, tables, place),
            2 => self.generate_blocks::<2>(words_per_wire, inputs, tables, place),
            4 => self.generate_blocks::<4>(words_per_wire, inputs, tables, place),
            8 => self.generate_blocks::<8>(words_per_wire, inputs, tables, place),
            16 => self.generate_blocks::<16>(words_per_wire, inputs, tables, place),
            32 => self.generate_blocks::<32>(words_per_wire, inputs, tables, place),
            _ => self.generate_blocks::<64>(words_per_wire, inputs, tables, place),
        }
    }

    /// The [`Tables`] asked for (every entry of each below the zero tail),
    /// by non-temporal stores ([`streaming`]): nothing reads them until the
    /// commit and the zerocheck.
    fn generate_blocks<const L: usize>(
        &self,
        words_per_wire: usize,
        inputs: [&[u64]; 2],
        tables: &mut Tables<'_>,
        holes: Option<Holes>,
    ) {
        // Padding wires are never evaluated: their rows of the output (and
        // of the forms: they have no terms) are cleared here, up to the
        // buffers' zero tail ([`zero_tail_row`]), which is left untouched.
        // Placed around holes, every row no wire and no hole takes is
        // padding.
        let place = |w: usize| holes.map_or(w, |h| h.position(w));
        let tail = self.zero_tail_row(holes);
        let padding: Vec<usize> = match holes {
            None => (0..tail)
                .filter(|&w| self.row_kind(w) == RowKind::Padding)
                .collect(),
            Some(h) => {
                let mut taken = vec![false; tail];
                for w in (0..self.num_wires()).filter(|&w| self.row_kind(w) != RowKind::Padding) {
                    taken[h.position(w)] = true;
                }
                for p in h.positions() {
                    taken[p] = true;
                }
                (0..tail).filter(|&p| !taken[p]).collect()
            }
        };
        for table in tables.buffers() {
            zero_rows(table, words_per_wire, &padding);
        }
        // Each task owns one range of columns (words of every wire) and
        // evaluates its blocks in order in its own buffer.
        let part = part_words(words_per_wire, L);
        let parts = words_per_wire.div_ceil(part);
        let z_parts: Vec<Option<ColumnPart<'_>>> = match tables.z.as_deref_mut() {
            Some(z) => column_parts(z, words_per_wire, part)
                .into_iter()
                .map(Some)
                .collect(),
            None => (0..parts).map(|_| None).collect(),
        };
        let form_parts: Vec<Option<FormRows<'_>>> = match tables.forms.as_mut() {
            Some((a, b)) => column_parts(a, words_per_wire, part)
                .into_iter()
                .zip(column_parts(b, words_per_wire, part))
                .map(Some)
                .collect(),
            None => (0..parts).map(|_| None).collect(),
        };
        // `b` whole, and the rows of `a` stored by their index there.
        let (b_parts, derive): (Vec<Option<FormRows<'_>>>, _) = match tables.b_and_stored.as_mut() {
            Some((b, stored, derive)) => {
                assert!(holes.is_none(), "a placed table keeps both forms");
                let parts = column_parts(b, words_per_wire, part)
                    .into_iter()
                    .zip(column_parts(stored, words_per_wire, part))
                    .map(Some)
                    .collect();
                (parts, Some(&**derive))
            }
            None => ((0..parts).map(|_| None).collect(), None),
        };
        // Slot buffers (every slot is written before it is read), one per
        // thread at work: a range takes one and gives it back, so a
        // thread's next range mostly finds its own, warm in cache (a fresh
        // buffer per range cost 2^16 SHA-256's witness phase 6 ms more).
        let buffers: Mutex<Vec<Vec<[u64; L]>>> = Mutex::new(Vec::new());
        let pool = || buffers.lock().unwrap_or_else(|e| e.into_inner());
        z_parts
            .into_par_iter()
            .zip(form_parts.into_par_iter().zip(b_parts))
            .enumerate()
            // A range per rayon job: left to itself rayon ran a few ranges
            // per job, which no idle thread could take over (2^16
            // Keccak-f on two threads: in each of three traced proofs one
            // thread sat idle for the last 10-15 ms of the pass).
            .with_max_len(1)
            .for_each(|(p, (mut rows, (mut forms, mut b_forms)))| {
                let mut buf = pool().pop().unwrap_or_else(|| vec![[0u64; L]; plan(self).slots]);
                let xor = XorRow::<L>::for_this_cpu();
                for at in (0..part).step_by(L) {
                    let mut put = |wire: usize, z: &[u64; L], a: &[u64; L], b: &[u64; L]| {
                        let row = place(wire);
                        if let Some(z_rows) = rows.as_mut() {
                            streaming::copy(&mut z_rows.row(row)[at..at + L], z);
                        }
                        if let Some((a_rows, b_rows)) = forms.as_mut() {
                            streaming::copy(&mut a_rows.row(row)[at..at + L], a);
                            streaming::copy(&mut b_rows.row(row)[at..at + L], b);
                        }
                        if let (Some((b_rows, stored_rows)), Some(derive)) = (b_forms.as_mut(), derive) {
                            streaming::copy(&mut b_rows.row(row)[at..at + L], b);
                            if let ARow::Stored(i) = derive.row(wire) {
                                streaming::copy(&mut stored_rows.row(i as usize)[at..at + L], a);
                            }
                        }
                    };
                    self.evaluate_block(p * part + at, words_per_wire, inputs, &mut buf, xor, &mut put);
                }
                streaming::finish();
                pool().push(buf);
            });
    }

    /// Evaluates words `block .. block + L` of every live wire in the
    /// buffer's slots ([`crate::eval_plan::EvalPlan`]), handing each wire's
    /// value and forms `a` and `b` to `put`.
    fn evaluate_block<const L: usize>(
        &self,
        block: usize,
        words_per_wire: usize,
        [public_inputs, private_inputs]: [&[u64]; 2],
        buf: &mut [[u64; L]],
        xor: XorRow<L>,
        put: &mut impl FnMut(usize, &[u64; L], &[u64; L], &[u64; L]),
    ) {
        let plan = plan(self);
        // The plan loads the constant, then the public inputs, then the
        // private inputs, in order (`EvalPlan::loaded`): one source each.
        debug_assert_eq!(
            plan.loaded.len(),
            1 + self.num_public_inputs() + self.num_private_inputs()
        );
        let sources = std::iter::once(None)
            .chain(
                (0..self.num_public_inputs())
                    .map(|j| Some(&public_inputs[j * words_per_wire + block..][..L])),
            )
            .chain(
                (0..self.num_private_inputs())
                    .map(|j| Some(&private_inputs[j * words_per_wire + block..][..L])),
            );
        for (&(_, slot), source) in plan.loaded.iter().zip(sources) {
            match source {
                Some(words) => buf[slot as usize].copy_from_slice(words),
                None => buf[slot as usize] = [u64::MAX; L],
            }
        }
        for (i, &(wire, slot)) in plan.loaded.iter().enumerate() {
            let a = xor.apply(buf, plan.loaded_a.row(i));
            let b = xor.apply(buf, plan.loaded_b.row(i));
            put(wire as usize, &buf[slot as usize], &a, &b);
        }
        for (i, &(wire, slot)) in plan.steps.iter().enumerate() {
            let a = xor.apply(buf, plan.a.row(i));
            let b = xor.apply(buf, plan.b.row(i));
            let n = xor.apply(buf, plan.addend.row(i));
            let z = std::array::from_fn(|l| (a[l] & b[l]) ^ n[l]);
            buf[slot as usize] = z;
            put(wire as usize, &z, &a, &b);
        }
    }

    /// Words `block .. block + L` of the first `buf.len()` wires into `buf`.
    fn gather_block<const L: usize>(
        words: &[u64],
        words_per_wire: usize,
        block: usize,
        buf: &mut [[u64; L]],
    ) {
        for (wire, lanes) in buf.iter_mut().enumerate() {
            lanes.copy_from_slice(&words[wire * words_per_wire + block..][..L]);
        }
    }

    /// The forms of the `live` rows (those with terms).
    fn forms_blocks<const L: usize>(
        &self,
        words_per_wire: usize,
        live: &[usize],
        words: &[u64],
        a: &mut [u64],
        b: &mut [u64],
    ) {
        let part = part_words(words_per_wire, L);
        // Rows read only wires up to the last used one: the zero tail (38% of
        // Keccak-f's wires) is not gathered.
        let used = self.used_wires();
        column_parts(a, words_per_wire, part)
            .into_par_iter()
            .zip(column_parts(b, words_per_wire, part))
            .enumerate()
            .for_each(|(p, (mut a_rows, mut b_rows))| {
                let mut buf = vec![[0u64; L]; used];
                let xor = XorRow::<L>::for_this_cpu();
                for at in (0..part).step_by(L) {
                    Self::gather_block(words, words_per_wire, p * part + at, &mut buf);
                    for &wire in live {
                        streaming::copy(
                            &mut a_rows.row(wire)[at..at + L],
                            &xor.apply(&buf, self.a().row(wire)),
                        );
                        streaming::copy(
                            &mut b_rows.row(wire)[at..at + L],
                            &xor.apply(&buf, self.b().row(wire)),
                        );
                    }
                }
                streaming::finish();
            });
    }

    fn satisfied_blocks<const L: usize>(&self, witness: &BatchWitness) -> bool {
        let words_per_wire = witness.words_per_wire();
        let mut buf = vec![[0u64; L]; self.num_wires()];
        let xor = XorRow::<L>::for_this_cpu();
        for block in (0..words_per_wire).step_by(L) {
            Self::gather_block(&witness.words, words_per_wire, block, &mut buf);
            if buf[0] != [u64::MAX; L] {
                return false;
            }
            for (wire, z) in buf.iter().enumerate() {
                let a = xor.apply(&buf, self.a().row(wire));
                let b = xor.apply(&buf, self.b().row(wire));
                let n = xor.apply(&buf, self.addend().row(wire));
                if (0..L).any(|l| (a[l] & b[l]) ^ n[l] != z[l]) {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exactly the named rows are cleared: runs of adjacent rows, single
    /// rows, the first and the last, and runs longer than one task.
    #[test]
    fn zero_rows_clears_exactly_the_named_rows() {
        for (words_per_wire, rows) in [
            (2usize, vec![0usize, 1, 2, 5, 7, 8, 15]),
            (4, vec![3]),
            (6, vec![]),
            (1 << 12, (3..17).chain([20, 22, 23]).collect()),
        ] {
            let wires = 16.max(rows.last().map_or(0, |&r| r + 1));
            let mut buf: Vec<u64> = (1..=(wires * words_per_wire) as u64).collect();
            zero_rows(&mut buf, words_per_wire, &rows);
            for (wire, row) in buf.chunks_exact(words_per_wire).enumerate() {
                let cleared = rows.contains(&wire);
                assert!(
                    row.iter().all(|&w| (w == 0) == cleared),
                    "wire {wire} of {wires}, {words_per_wire} words each"
                );
            }
        }
    }
}
