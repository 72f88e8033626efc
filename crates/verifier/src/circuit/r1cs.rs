//! The compiled constraint system of one instance: R1CS over GF(2) with
//! `C = I ⊕ N`.
//!
//! Every wire `i` of the `K = 2^k` wires is defined by exactly one row,
//! `z[i] = <A_i, z> · <B_i, z> ⊕ <N_i, z>` (DESIGN §2.2): an AND of two
//! XOR-combinations, plus an XOR-combination of other wires (the addend,
//! empty except on AND rows). The addend lets an AND row hold the value the
//! circuit needs next (a sum bit of an addition, Keccak's next state bit)
//! instead of the bare product, which would need another committed wire.
//! Rows are stored sparse (sorted wire indices, XOR-combined; index 0 is the
//! constant wire). The batch relation is `(A z) ∘ (B z) = C z` with
//! `A = I_N ⊗ A0`, `B = I_N ⊗ B0`, `C = I_N ⊗ (I ⊕ N0)`, which the witness
//! generator (`starling-circuit`) evaluates bit-sliced.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::any::Any;
use core::fmt;

use once_cell::race::OnceBox;
use sha2::{Digest, Sha256};

/// Domain tag of [`R1cs::digest`].
pub const R1CS_DIGEST_TAG: &[u8] = b"starling-r1cs-v2";

/// Sparse rows in compressed form: row `i` holds
/// `indices[offsets[i]..offsets[i + 1]]`, sorted and distinct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseRows {
    offsets: Vec<u32>,
    indices: Vec<u32>,
}

impl Default for SparseRows {
    fn default() -> Self {
        Self::new()
    }
}

impl SparseRows {
    /// No rows yet: rows are appended with [`SparseRows::push_row`], written
    /// straight into the compressed form (a `Vec` per row first cost the
    /// compiler hundreds of thousands of allocations for Keccak-f).
    pub fn new() -> Self {
        SparseRows {
            offsets: vec![0],
            indices: Vec::new(),
        }
    }

    /// Appends a row holding `indices`.
    pub fn push_row(&mut self, indices: impl IntoIterator<Item = u32>) {
        self.indices.extend(indices);
        self.offsets
            .push(u32::try_from(self.indices.len()).expect("fewer than 2^32 nonzeros"));
    }

    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The sorted wire indices of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[u32] {
        &self.indices[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Total number of nonzero entries.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Row offsets (length `num_rows + 1`), for consumers that walk the
    /// matrix in compressed form.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// All column indices, row after row.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
}

/// How a wire is defined, read off its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// `A = B = {}`: the wire is 0.
    Padding,
    /// Wire 0: `A = B = {0}`.
    Constant,
    /// A public or private input: `A = {i}`, `B = {0}`.
    Input,
    /// A linear value made into its own wire: `B = {0}`, `A` anything else.
    Linear,
    /// An AND row: `B` is neither `{0}` nor empty; the only kind that may
    /// have an addend.
    And,
}

/// A value a prover derives from an [`R1cs`] and keeps beside it, made the
/// first time it is asked for.
#[derive(Default)]
pub struct ProverCache(OnceBox<Box<dyn Any + Send + Sync>>);

impl ProverCache {
    /// The value, made by `make` the first time.
    pub fn get_or_init(&self, make: impl FnOnce() -> Box<dyn Any + Send + Sync>) -> &(dyn Any + Send + Sync) {
        &**self.0.get_or_init(|| Box::new(make()))
    }
}

impl Clone for ProverCache {
    fn clone(&self) -> Self {
        ProverCache::default()
    }
}

impl PartialEq for ProverCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ProverCache {}

impl fmt::Debug for ProverCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProverCache")
    }
}

/// R1CS of one instance, with its public block and evaluation order.
///
/// Layout of the wires: `[0, 2^p)` is the public block — wire 0 the constant
/// 1, then the public input bits, then the public output bits; private
/// inputs and intermediate wires fill the rest of the block, then the wires
/// from `2^p` on. The wiring check binds only the public values' runs, so a
/// private wire in the block is as private as one after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct R1cs {
    pub(crate) k: u32,
    pub(crate) p: u32,
    pub(crate) num_public_inputs: u32,
    pub(crate) num_public_outputs: u32,
    pub(crate) private_inputs: Vec<u32>,
    pub(crate) a: SparseRows,
    pub(crate) b: SparseRows,
    pub(crate) addend: SparseRows,
    pub(crate) eval_order: Vec<u32>,
    pub(crate) and_rows: usize,
    /// What the prover derives from the rows once (the witness generator's
    /// buffer slots); the verifier never fills it.
    pub(crate) prover_cache: ProverCache,
}

impl R1cs {
    /// The prover's cache of what it derives from this system (its
    /// witness generator's plan, made on first use: a verifier never needs
    /// it, and Keccak-f's took 20 ms of a 100 ms `starling verify` on Zen 1
    /// when every compiled system made one). It takes no part in comparing
    /// or cloning systems.
    pub fn prover_cache(&self) -> &ProverCache {
        &self.prover_cache
    }

    /// True when some row has an addend, so that `C z` differs from `z`.
    pub fn has_addends(&self) -> bool {
        self.addend.nnz() > 0
    }

    /// log2 of the number of wires per instance.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// log2 of the public block size.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// `K = 2^k`, the number of wires per instance.
    pub fn num_wires(&self) -> usize {
        1usize << self.k
    }

    /// Number of public input bits (wires `1..=num_public_inputs`).
    pub fn num_public_inputs(&self) -> usize {
        self.num_public_inputs as usize
    }

    /// Number of public output bits (they follow the public inputs).
    pub fn num_public_outputs(&self) -> usize {
        self.num_public_outputs as usize
    }

    /// Number of private input bits.
    pub fn num_private_inputs(&self) -> usize {
        self.private_inputs.len()
    }

    /// Wire of public input bit `j`.
    pub fn public_input_wire(&self, j: usize) -> usize {
        1 + j
    }

    /// Wire of public output bit `j`.
    pub fn public_output_wire(&self, j: usize) -> usize {
        1 + self.num_public_inputs as usize + j
    }

    /// Wires of the private input bits, in input order.
    pub fn private_input_wires(&self) -> &[u32] {
        &self.private_inputs
    }

    /// The `A` rows (one per wire).
    pub fn a(&self) -> &SparseRows {
        &self.a
    }

    /// The `B` rows (one per wire).
    pub fn b(&self) -> &SparseRows {
        &self.b
    }

    /// The addend rows `N` (one per wire; empty except on AND rows).
    pub fn addend(&self) -> &SparseRows {
        &self.addend
    }

    /// The rows of `C = I ⊕ N`: row `i` is the addend's row with `i` added
    /// (the addend never names its own wire), for the lincheck of `C z`.
    pub fn c_rows(&self) -> SparseRows {
        let mut rows = SparseRows::new();
        for i in 0..self.num_wires() {
            let addend = self.addend.row(i);
            let (below, above) = addend.split_at(addend.partition_point(|&x| (x as usize) < i));
            rows.push_row(
                below
                    .iter()
                    .copied()
                    .chain([i as u32])
                    .chain(above.iter().copied()),
            );
        }
        rows
    }

    /// Wires with a computed row (AND or linear), in an order where every row
    /// reads only the constant, inputs and wires earlier in the order.
    pub fn eval_order(&self) -> &[u32] {
        &self.eval_order
    }

    /// Number of AND rows (B neither `{0}` nor empty).
    pub fn and_rows(&self) -> usize {
        self.and_rows
    }

    /// Nonzero entries of A, B and the addend N together.
    pub fn nnz(&self) -> usize {
        self.a.nnz() + self.b.nnz() + self.addend.nnz()
    }

    /// Wires that are not padding (the constant, inputs, ANDs, linear rows).
    pub fn committed_wires(&self) -> usize {
        (0..self.num_wires())
            .filter(|&i| self.row_kind(i) != RowKind::Padding)
            .count()
    }

    /// Wires up to and including the last one that is not padding: every
    /// wire from here on is zero in every instance (a circuit's zero tail).
    pub fn used_wires(&self) -> usize {
        (0..self.num_wires())
            .rposition(|i| self.row_kind(i) != RowKind::Padding)
            .map_or(0, |i| i + 1)
    }

    /// Number of wires defined by a linear row (`B = {0}`, not an input).
    pub fn linear_rows(&self) -> usize {
        (0..self.num_wires())
            .filter(|&i| self.row_kind(i) == RowKind::Linear)
            .count()
    }

    /// How wire `i` is defined.
    pub fn row_kind(&self, i: usize) -> RowKind {
        let (a, b) = (self.a.row(i), self.b.row(i));
        match (a, b) {
            ([], []) => RowKind::Padding,
            ([0], [0]) if i == 0 => RowKind::Constant,
            ([w], [0]) if *w as usize == i => RowKind::Input,
            (_, [0]) => RowKind::Linear,
            _ => RowKind::And,
        }
    }

    /// SHA-256 over a canonical, length-prefixed encoding of the whole
    /// system: tag, sizes, private input wires, every row of A, B and the
    /// addend, and the evaluation order. Two systems with the same digest are the same.
    pub fn digest(&self) -> [u8; 32] {
        let mut out = DigestWriter::new();
        out.u64(R1CS_DIGEST_TAG.len() as u64);
        out.bytes(R1CS_DIGEST_TAG);
        out.u64(u64::from(self.k));
        out.u64(u64::from(self.p));
        out.u64(u64::from(self.num_public_inputs));
        out.u64(u64::from(self.num_public_outputs));
        out.list(&self.private_inputs);
        for i in 0..self.num_wires() {
            out.list(self.a.row(i));
            out.list(self.b.row(i));
            out.list(self.addend.row(i));
        }
        out.list(&self.eval_order);
        out.finish()
    }

    /// Reference evaluator for one instance (plain bools, row by row); the
    /// bit-sliced generator is tested against it. Input lengths must match
    /// the circuit.
    pub fn evaluate_instance(&self, public_inputs: &[bool], private_inputs: &[bool]) -> Vec<bool> {
        assert_eq!(public_inputs.len(), self.num_public_inputs());
        assert_eq!(private_inputs.len(), self.num_private_inputs());
        let mut z = vec![false; self.num_wires()];
        z[0] = true;
        for (j, &bit) in public_inputs.iter().enumerate() {
            z[self.public_input_wire(j)] = bit;
        }
        for (&wire, &bit) in self.private_inputs.iter().zip(private_inputs) {
            z[wire as usize] = bit;
        }
        for &wire in &self.eval_order {
            let w = wire as usize;
            z[w] = self.row_value(w, &z);
        }
        z
    }

    /// `<A_w, z> · <B_w, z> ⊕ <N_w, z>`: what row `w` says wire `w` is.
    fn row_value(&self, w: usize, z: &[bool]) -> bool {
        let xor = |row: &[u32]| row.iter().fold(false, |x, &i| x ^ z[i as usize]);
        (xor(self.a.row(w)) & xor(self.b.row(w))) ^ xor(self.addend.row(w))
    }

    /// Checks `(A z) ∘ (B z) = C z` and `z[0] = 1` for one instance.
    pub fn is_satisfied_instance(&self, z: &[bool]) -> bool {
        if z.len() != self.num_wires() || !z[0] {
            return false;
        }
        (0..self.num_wires()).all(|w| self.row_value(w, z) == z[w])
    }

    /// Checks the structural invariants the rest of the system relies on:
    /// sizes, the constant and input rows, sorted in-range rows, addends only
    /// on AND rows and never naming their own wire, and that the evaluation
    /// order is topological and covers every computed row exactly
    /// once. Returns a description of the first violation.
    pub fn check_structure(&self) -> Result<(), String> {
        let k_wires = self.num_wires();
        if self.p >= self.k
            || self.a.num_rows() != k_wires
            || self.b.num_rows() != k_wires
            || self.addend.num_rows() != k_wires
        {
            return Err("sizes of p, k and the rows disagree".into());
        }
        let public = 1 + self.num_public_inputs as usize + self.num_public_outputs as usize;
        if public > 1usize << self.p {
            return Err("public values do not fit in 2^p wires".into());
        }
        if self.row_kind(0) != RowKind::Constant {
            return Err("wire 0 is not the constant row".into());
        }
        for j in 0..self.num_public_inputs() {
            if self.row_kind(self.public_input_wire(j)) != RowKind::Input {
                return Err(format!("public input wire {} is not an input row", 1 + j));
            }
        }
        for &w in &self.private_inputs {
            let w = w as usize;
            if w < public || w >= k_wires || self.row_kind(w) != RowKind::Input {
                return Err(format!("private input wire {w} is misplaced or not an input row"));
            }
        }
        for i in 0..k_wires {
            for row in [self.a.row(i), self.b.row(i), self.addend.row(i)] {
                if row.windows(2).any(|w| w[0] >= w[1]) || row.iter().any(|&x| x as usize >= k_wires) {
                    return Err(format!("row {i} is unsorted or out of range"));
                }
            }
            let addend = self.addend.row(i);
            if !addend.is_empty() && (self.row_kind(i) != RowKind::And || addend.contains(&(i as u32))) {
                return Err(format!(
                    "row {i} has an addend but is not an AND row, or names itself"
                ));
            }
        }
        let mut ready = vec![false; k_wires];
        ready[0] = true;
        for j in 0..self.num_public_inputs() {
            ready[self.public_input_wire(j)] = true;
        }
        for &w in &self.private_inputs {
            ready[w as usize] = true;
        }
        for &w in &self.eval_order {
            let w = w as usize;
            if w >= k_wires || ready[w] {
                return Err(format!("wire {w} in the evaluation order is invalid or repeated"));
            }
            if self
                .a
                .row(w)
                .iter()
                .chain(self.b.row(w))
                .chain(self.addend.row(w))
                .any(|&x| !ready[x as usize])
            {
                return Err(format!("wire {w} reads a wire not yet evaluated"));
            }
            ready[w] = true;
        }
        if let Some(i) =
            (0..k_wires).find(|&i| matches!(self.row_kind(i), RowKind::Linear | RowKind::And) && !ready[i])
        {
            return Err(format!("computed wire {i} is missing from the evaluation order"));
        }
        let ands = (0..k_wires).filter(|&i| self.row_kind(i) == RowKind::And).count();
        if ands != self.and_rows {
            return Err("stored AND-row count is wrong".into());
        }
        Ok(())
    }
}

/// The byte stream [`R1cs::digest`] hashes, laid out in a small buffer
/// that is hashed each time it fills. A hasher call per four-byte entry
/// took 10 ms of `starling verify` for Keccak-f's 740,000 entries (Zen 1);
/// the whole stream laid out first (3 MB there) spent much of its time
/// faulting in the pages that held it.
struct DigestWriter {
    hasher: Sha256,
    buf: Vec<u8>,
}

impl DigestWriter {
    /// Bytes held before they are hashed.
    const FLUSH_BYTES: usize = 1 << 16;
    /// Entries of a list laid out between checks of the buffer's length.
    const RUN: usize = 1 << 10;

    fn new() -> Self {
        DigestWriter {
            hasher: Sha256::new(),
            buf: Vec::with_capacity(Self::FLUSH_BYTES + 4 * Self::RUN + 8),
        }
    }

    fn flush_if_full(&mut self) {
        if self.buf.len() >= Self::FLUSH_BYTES {
            self.hasher.update(&self.buf);
            self.buf.clear();
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
        self.flush_if_full();
    }

    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }

    /// The length, then each entry (four bytes, little-endian).
    fn list(&mut self, xs: &[u32]) {
        self.u64(xs.len() as u64);
        for run in xs.chunks(Self::RUN) {
            for x in run {
                self.buf.extend_from_slice(&x.to_le_bytes());
            }
            self.flush_if_full();
        }
    }

    fn finish(mut self) -> [u8; 32] {
        self.hasher.update(&self.buf);
        self.hasher.finalize().into()
    }
}
