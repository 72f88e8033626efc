//! Circuit builder: symbolic linear values, AND rows, and the compiler to
//! [`R1cs`].
//!
//! Values are [`Lin`] forms over already-created wires, so XOR/NOT/constants
//! cost nothing. A wire (a row) is created only by [`CircuitBuilder::and`]
//! and [`CircuitBuilder::and_xor`], [`CircuitBuilder::materialize`], an
//! input, or a public output. An AND row may XOR a linear form into its
//! wire (`z = a · b ⊕ x`), so the wire can hold the value needed next
//! instead of the bare product. Keeping
//! forms symbolic saves committed wires but makes later rows denser; the
//! caller chooses where to materialise (DESIGN §2.2).

use alloc::vec;
use alloc::vec::Vec;

use crate::circuit::lin::Lin;
use crate::circuit::r1cs::{R1cs, SparseRows};
use crate::circuit::word::Word;
use thiserror::Error;

/// Largest supported `k` (wires per instance = 2^k).
pub const MAX_K: u32 = 30;

/// Errors from [`CircuitBuilder::compile`].
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BuildError {
    /// A declared public output was never given a value.
    #[error("public output bit {0} was never set")]
    OutputNotSet(usize),
    /// The circuit needs more than 2^MAX_K wires.
    #[error("circuit needs {0} wires, more than the supported 2^{MAX_K}")]
    TooManyWires(usize),
}

/// A private row created by the builder.
#[derive(Clone, Debug)]
enum Row {
    /// A free private input wire.
    Input,
    /// `z = a · b ⊕ addend` (`b = {0}` and no addend for a materialised
    /// linear value).
    Product(Product),
}

/// A row's right-hand side: `a · b ⊕ addend`.
#[derive(Clone, Debug)]
struct Product {
    a: Lin,
    b: Lin,
    addend: Lin,
}

impl Product {
    /// The row `z = lin` (`lin · 1`).
    fn linear(lin: &Lin) -> Self {
        Product {
            a: lin.clone(),
            b: Lin::one(),
            addend: Lin::zero(),
        }
    }

    /// A padding wire's row: no terms at all (the wire is 0).
    fn padding() -> Self {
        Product {
            a: Lin::zero(),
            b: Lin::zero(),
            addend: Lin::zero(),
        }
    }

    /// `a · b ⊕ x` as a linear form when the product is known without a row
    /// (a constant operand, `a == b`, `a == b ⊕ 1`), else as a new AND row.
    fn and_xor(a: &Lin, b: &Lin, x: &Lin) -> Result<Lin, Product> {
        let known = match (a.as_constant(), b.as_constant()) {
            (Some(false), _) | (_, Some(false)) => Some(Lin::zero()),
            (Some(true), _) => Some(b.clone()),
            (_, Some(true)) => Some(a.clone()),
            _ if a == b => Some(a.clone()),
            _ if a.xor(b).is_one() => Some(Lin::zero()),
            _ => None,
        };
        match known {
            Some(p) => Ok(p.xor(x)),
            None => Err(Product {
                a: a.clone(),
                b: b.clone(),
                addend: x.clone(),
            }),
        }
    }
}

/// Builds one instance of a circuit; see the module docs.
#[derive(Clone, Debug)]
pub struct CircuitBuilder {
    num_public_inputs: u32,
    num_public_outputs: u32,
    p: u32,
    /// Rows of the private wires in creation order (wires from
    /// [`CircuitBuilder::wire_of_row`]).
    rows: Vec<Row>,
    outputs: Vec<Option<Product>>,
    and_rows: usize,
    /// Where the lane being built starts: its public input bit 0 and output
    /// bit 0 ([`CircuitBuilder::set_lane`]).
    lane: (usize, usize),
}

impl CircuitBuilder {
    /// A builder whose public block holds the constant, `num_public_inputs`
    /// input bits and `num_public_outputs` output bits.
    pub fn new(num_public_inputs: usize, num_public_outputs: usize) -> Self {
        let public = 1 + num_public_inputs + num_public_outputs;
        let p = public.next_power_of_two().trailing_zeros();
        assert!(p < MAX_K, "public block too large");
        CircuitBuilder {
            num_public_inputs: num_public_inputs as u32,
            num_public_outputs: num_public_outputs as u32,
            p,
            rows: Vec::new(),
            outputs: vec![None; num_public_outputs],
            and_rows: 0,
            lane: (0, 0),
        }
    }

    /// Makes public input bit `j` and output bit `j` of what is built next
    /// mean bits `input_at + j` and `output_at + j`: the lane of a circuit
    /// that holds several gadgets side by side, each built as if it were
    /// alone ([`crate::circuit::lanes`]).
    pub fn set_lane(&mut self, input_at: usize, output_at: usize) {
        self.lane = (input_at, output_at);
    }

    /// log2 of the public block size.
    pub fn p(&self) -> u32 {
        self.p
    }

    /// Wires created so far (public block included, its unused wires too
    /// until private rows fill them).
    pub fn num_wires_used(&self) -> usize {
        (1usize << self.p).max(self.wire_of_row(self.rows.len()))
    }

    /// Wires of the public values: the constant, the inputs, the outputs.
    fn public_wires(&self) -> usize {
        1 + self.num_public_inputs as usize + self.num_public_outputs as usize
    }

    /// The wire of the `index`-th private row: the public block's unused
    /// wires first, then the wires after it. The prover's work stops at the
    /// last used wire, so the rows filling the public block's gap shorten it
    /// (by 639 wires of 13,375 for BLAKE3).
    fn wire_of_row(&self, index: usize) -> usize {
        let gap = (1usize << self.p) - self.public_wires();
        if index < gap {
            self.public_wires() + index
        } else {
            (1usize << self.p) + index - gap
        }
    }

    /// The private row whose wire is `wire` ([`CircuitBuilder::wire_of_row`]
    /// inverted), if any.
    fn row_of_wire(&self, wire: usize) -> Option<usize> {
        let (public, block) = (self.public_wires(), 1usize << self.p);
        let index = if wire < public {
            return None;
        } else if wire < block {
            wire - public
        } else {
            block - public + wire - block
        };
        (index < self.rows.len()).then_some(index)
    }

    /// AND rows created so far.
    pub fn and_rows(&self) -> usize {
        self.and_rows
    }

    fn push_row(&mut self, row: Row) -> Lin {
        let wire = self.wire_of_row(self.rows.len());
        assert!(wire < (1usize << MAX_K), "too many wires");
        self.rows.push(row);
        Lin::wire(wire as u32)
    }

    /// Public input bit `j`.
    pub fn public_input(&self, j: usize) -> Lin {
        let j = self.lane.0 + j;
        assert!(
            j < self.num_public_inputs as usize,
            "public input {j} out of range"
        );
        Lin::wire(1 + j as u32)
    }

    /// Public input bits `first_bit .. first_bit + W` as a word (bit `i` of
    /// the word is input bit `first_bit + i`).
    pub fn public_input_word<const W: usize>(&self, first_bit: usize) -> Word<W> {
        let first_bit = self.lane.0 + first_bit;
        assert!(first_bit + W <= self.num_public_inputs as usize);
        Word::from_wires(1 + first_bit as u32)
    }

    /// Public input bits `first_bit .. first_bit + W` as a big-endian word:
    /// the `W / 8` bytes at `first_bit / 8` of the input's byte string, each
    /// byte's bit `t` being input bit `8 b + t` (the order every hash kind
    /// uses for its public bytes), read most significant byte first.
    pub fn public_input_word_be<const W: usize>(&self, first_bit: usize) -> Word<W> {
        assert!(self.lane.0 + first_bit + W <= self.num_public_inputs as usize);
        Word::from_bits(core::array::from_fn(|i| {
            self.public_input(first_bit + be_bit(i, W))
        }))
    }

    /// A new private input bit (a free wire after the public block).
    pub fn private_input(&mut self) -> Lin {
        self.push_row(Row::Input)
    }

    /// `W` new private input bits as a word.
    pub fn private_input_word<const W: usize>(&mut self) -> Word<W> {
        Word::from_bits(core::array::from_fn(|_| self.private_input()))
    }

    /// `a AND b`: one new committed wire with row `A = a`, `B = b`, unless
    /// the result is already known (a constant operand, or `a == b`).
    pub fn and(&mut self, a: &Lin, b: &Lin) -> Lin {
        self.and_xor(a, b, &Lin::zero())
    }

    /// `(a AND b) XOR x`: one new committed wire with row `A = a`, `B = b`
    /// and addend `x`, unless the product is already known (then `x` XOR
    /// it, no row). `x` may name only wires created before.
    pub fn and_xor(&mut self, a: &Lin, b: &Lin, x: &Lin) -> Lin {
        match Product::and_xor(a, b, x) {
            Ok(known) => known,
            Err(row) => {
                self.and_rows += 1;
                self.push_row(Row::Product(row))
            }
        }
    }

    /// Gives `lin` its own wire (`z = lin · 1`): one committed bit, no AND.
    /// A constant or a single wire is returned unchanged.
    pub fn materialize(&mut self, lin: &Lin) -> Lin {
        if lin.len() <= 1 {
            return lin.clone();
        }
        self.push_row(Row::Product(Product::linear(lin)))
    }

    /// Sets public output bit `j` to `lin` (row `A = lin`, `B = {0}`).
    pub fn set_public_output(&mut self, j: usize, lin: &Lin) {
        let j = self.lane.1 + j;
        assert!(j < self.outputs.len(), "public output {j} out of range");
        self.outputs[j] = Some(Product::linear(lin));
    }

    /// Sets public output bit `j` to `(a AND b) XOR x`, computed by the
    /// output's own row (an AND row unless the product is known), so the
    /// value needs no private wire of its own.
    pub fn set_public_output_and_xor(&mut self, j: usize, a: &Lin, b: &Lin, x: &Lin) {
        let j = self.lane.1 + j;
        assert!(j < self.outputs.len(), "public output {j} out of range");
        self.outputs[j] = Some(match Product::and_xor(a, b, x) {
            Ok(known) => Product::linear(&known),
            Err(row) => {
                self.and_rows += 1;
                row
            }
        });
    }

    /// Sets public output bits `first_bit .. first_bit + W` to `word`.
    pub fn set_public_output_word<const W: usize>(&mut self, first_bit: usize, word: &Word<W>) {
        for (i, bit) in word.bits().iter().enumerate() {
            self.set_public_output(first_bit + i, bit);
        }
    }

    /// Sets public output bits `first_bit .. first_bit + W` to `word`
    /// written big-endian (see [`CircuitBuilder::public_input_word_be`]).
    pub fn set_public_output_word_be<const W: usize>(&mut self, first_bit: usize, word: &Word<W>) {
        for (i, bit) in word.bits().iter().enumerate() {
            self.set_public_output(first_bit + be_bit(i, W), bit);
        }
    }

    /// Bitwise AND of two words (one AND row per non-trivial bit).
    pub fn and_word<const W: usize>(&mut self, x: &Word<W>, y: &Word<W>) -> Word<W> {
        Word::from_bits(core::array::from_fn(|i| self.and(x.bit(i), y.bit(i))))
    }

    /// Bitwise `(x AND y) XOR z` of words, one AND row per non-trivial bit,
    /// each holding its bit of the result.
    pub fn and_xor_word<const W: usize>(&mut self, x: &Word<W>, y: &Word<W>, z: &Word<W>) -> Word<W> {
        Word::from_bits(core::array::from_fn(|i| {
            self.and_xor(x.bit(i), y.bit(i), z.bit(i))
        }))
    }

    /// Materialises every bit of a word.
    pub fn materialize_word<const W: usize>(&mut self, x: &Word<W>) -> Word<W> {
        Word::from_bits(core::array::from_fn(|i| self.materialize(x.bit(i))))
    }

    /// `x + y mod 2^W` with `W - 1` AND rows (31 for a 32-bit word; fewer
    /// when `y` has constant bits), whose wires are the sum's bits 1 to
    /// `W - 1`: the sum is materialised for free.
    ///
    /// The carry into bit `i + 1` is `c(i+1) = x(i) ⊕ (x(i) ⊕ y(i))·(x(i) ⊕ c(i))`
    /// (`c(1) = x(0)·y(0)`), and bit `i + 1` of the sum is
    /// `x(i+1) ⊕ y(i+1) ⊕ c(i+1)`: the AND row of carry `i + 1` takes
    /// `x(i) ⊕ x(i+1) ⊕ y(i+1)` as its addend, so its wire `w(i)` is sum bit
    /// `i + 1`, and the carry is read back as `w(i) ⊕ x(i+1) ⊕ y(i+1)`. Forms
    /// do not grow along the word; `x` appears three times per bit and `y`
    /// three, so sparse operands keep rows short. The carry out of bit 31 is
    /// not computed.
    pub fn add<const W: usize>(&mut self, x: &Word<W>, y: &Word<W>) -> Word<W> {
        let mut sum: [Lin; W] = core::array::from_fn(|_| Lin::zero());
        sum[0] = x.bit(0).xor(y.bit(0));
        let mut carry = Lin::zero();
        for i in 0..W - 1 {
            let (xi, yi) = (x.bit(i), y.bit(i));
            let next = x.bit(i + 1).xor(y.bit(i + 1));
            // c(1) = x(0)·y(0): the general product with c(0) = 0.
            sum[i + 1] = if i == 0 {
                self.and_xor(xi, yi, &next)
            } else {
                self.and_xor(&xi.xor(yi), &xi.xor(&carry), &xi.xor(&next))
            };
            carry = sum[i + 1].xor(&next);
        }
        Word::from_bits(sum)
    }

    /// `x + c mod 2^W` for a constant `c` (`W - 2` AND rows at most: the
    /// first carry is linear, and each zero low bit of `c` saves one more).
    pub fn add_const<const W: usize>(&mut self, x: &Word<W>, c: u64) -> Word<W> {
        self.add(x, &Word::constant(c))
    }

    /// Compiles to an [`R1cs`]: lays out the public block, places private
    /// rows in its unused wires and after it, pads to a power of two and
    /// records an evaluation order (private rows in creation order, then the
    /// public outputs).
    pub fn compile(self) -> Result<R1cs, BuildError> {
        let public_size = 1usize << self.p;
        let used = self.num_wires_used();
        let num_wires = used.next_power_of_two().max(public_size * 2);
        let k = num_wires.trailing_zeros();
        if k > MAX_K {
            return Err(BuildError::TooManyWires(used));
        }
        let n_in = self.num_public_inputs as usize;
        let outputs = self
            .outputs
            .iter()
            .enumerate()
            .map(|(j, out)| out.as_ref().ok_or(BuildError::OutputNotSet(j)))
            .collect::<Result<Vec<&Product>, _>>()?;
        // Rows go straight into the compressed matrices, wire after wire:
        // the constant, the public inputs and outputs, then the private rows
        // (in creation order: `wire_of_row` increases), padding empty.
        let [mut a, mut b, mut addend] = [(); 3].map(|_| SparseRows::new());
        let mut push = |row: &Product| {
            a.push_row(row.a.terms().iter().copied());
            b.push_row(row.b.terms().iter().copied());
            addend.push_row(row.addend.terms().iter().copied());
        };
        let mut eval_order = Vec::new();
        let mut private_inputs = Vec::new();
        for wire in 0..num_wires {
            let w = wire as u32;
            if wire == 0 {
                push(&Product::linear(&Lin::one()));
            } else if wire <= n_in {
                push(&Product::linear(&Lin::wire(w)));
            } else if let Some(&out) = outputs.get(wire - 1 - n_in) {
                push(out);
            } else {
                match self.row_of_wire(wire).map(|index| &self.rows[index]) {
                    None => push(&Product::padding()),
                    Some(Row::Input) => {
                        push(&Product::linear(&Lin::wire(w)));
                        private_inputs.push(w);
                    }
                    Some(Row::Product(row)) => {
                        push(row);
                        eval_order.push(w);
                    }
                }
            }
        }
        eval_order.extend((0..outputs.len()).map(|j| (1 + n_in + j) as u32));
        Ok(R1cs {
            k,
            p: self.p,
            num_public_inputs: self.num_public_inputs,
            num_public_outputs: self.num_public_outputs,
            private_inputs,
            a,
            b,
            addend,
            eval_order,
            and_rows: self.and_rows,
            prover_cache: Default::default(),
        })
    }
}

/// Where bit `i` of a big-endian word of `width` bits sits among the bits
/// of its bytes, byte `b`'s bit `t` being bit `8 b + t`.
fn be_bit(i: usize, width: usize) -> usize {
    8 * (width / 8 - 1 - i / 8) + i % 8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word_value(r1cs: &R1cs, z: &[bool], first_output_bit: usize) -> u32 {
        (0..32).fold(0, |acc, i| {
            acc | (u32::from(z[r1cs.public_output_wire(first_output_bit + i)]) << i)
        })
    }

    fn input_bits(values: &[u32]) -> Vec<bool> {
        values
            .iter()
            .flat_map(|v| (0..32).map(move |i| (v >> i) & 1 == 1))
            .collect()
    }

    #[test]
    fn add_costs_31_ands_and_is_correct() {
        let mut b = CircuitBuilder::new(64, 64);
        let x: Word = b.public_input_word(0);
        let y: Word = b.public_input_word(32);
        let s = b.add(&x, &y);
        assert_eq!(b.and_rows(), 31);
        let s2 = b.add_const(&x, 0x8000_0001);
        assert_eq!(b.and_rows(), 61);
        b.set_public_output_word(0, &s);
        b.set_public_output_word(32, &s2);
        let r1cs = b.compile().unwrap();
        r1cs.check_structure().unwrap();
        let cases = [
            (0u32, 0u32),
            (u32::MAX, 1),
            (0x7fff_ffff, 0x7fff_ffff),
            (0x1234_5678, 0xfedc_ba98),
        ];
        for (x, y) in cases {
            let z = r1cs.evaluate_instance(&input_bits(&[x, y]), &[]);
            assert!(r1cs.is_satisfied_instance(&z));
            assert_eq!(word_value(&r1cs, &z, 0), x.wrapping_add(y));
            assert_eq!(word_value(&r1cs, &z, 32), x.wrapping_add(0x8000_0001));
        }
    }

    #[test]
    fn private_inputs_and_materialize() {
        let mut b = CircuitBuilder::new(1, 2);
        let x = b.public_input(0);
        let s = b.private_input();
        let m = b.materialize(&x.xor(&s).not());
        let a = b.and(&m, &s);
        assert_eq!(b.and(&a, &Lin::one()), a);
        assert_eq!(b.and(&a, &a.not()), Lin::zero());
        b.set_public_output(0, &m);
        b.set_public_output(1, &a);
        let r1cs = b.compile().unwrap();
        r1cs.check_structure().unwrap();
        assert_eq!(r1cs.and_rows(), 1);
        assert_eq!(r1cs.p(), 2);
        assert_eq!(r1cs.private_input_wires(), &[4]);
        for (x, s) in [(false, false), (false, true), (true, false), (true, true)] {
            let z = r1cs.evaluate_instance(&[x], &[s]);
            assert!(r1cs.is_satisfied_instance(&z));
            assert_eq!(z[r1cs.public_output_wire(0)], !(x ^ s));
            assert_eq!(z[r1cs.public_output_wire(1)], !(x ^ s) & s);
        }
    }

    #[test]
    fn and_xor_rows_hold_product_and_addend() {
        let mut b = CircuitBuilder::new(3, 3);
        let (x, y, w) = (b.public_input(0), b.public_input(1), b.public_input(2));
        let t = b.and_xor(&x, &y.not(), &w.xor(&x));
        // Known products need no row: the addend is XORed in.
        assert_eq!(b.and_xor(&x, &Lin::one(), &w), x.xor(&w));
        assert_eq!(b.and_xor(&x, &x.not(), &w), w);
        b.set_public_output(0, &t);
        b.set_public_output_and_xor(1, &t, &w, &y);
        b.set_public_output_and_xor(2, &Lin::zero(), &w, &y);
        assert_eq!(b.and_rows(), 2);
        let r1cs = b.compile().unwrap();
        r1cs.check_structure().unwrap();
        assert!(r1cs.has_addends());
        for bits in 0..8u8 {
            let [x, y, w] = [0, 1, 2].map(|i| (bits >> i) & 1 == 1);
            let z = r1cs.evaluate_instance(&[x, y, w], &[]);
            assert!(r1cs.is_satisfied_instance(&z));
            let t = (x & !y) ^ w ^ x;
            assert_eq!(z[r1cs.public_output_wire(0)], t);
            assert_eq!(z[r1cs.public_output_wire(1)], (t & w) ^ y);
            assert_eq!(z[r1cs.public_output_wire(2)], y);
            // A wrong output bit breaks its row.
            let mut bad = z.clone();
            bad[r1cs.public_output_wire(1)] ^= true;
            assert!(!r1cs.is_satisfied_instance(&bad));
        }
    }

    #[test]
    fn addends_only_on_and_rows_and_never_on_their_own_wire() {
        let mut b = CircuitBuilder::new(2, 2);
        let (x, y) = (b.public_input(0), b.public_input(1));
        let t = b.and_xor(&x, &y, &x);
        b.set_public_output(0, &t);
        b.set_public_output(1, &x.xor(&y));
        let good = b.compile().unwrap();
        good.check_structure().unwrap();
        let and_wire = t.terms()[0] as usize;
        let linear_wire = good.public_output_wire(1);
        let with_addend = |wire: usize, addend: Vec<u32>| {
            let mut r1cs = good.clone();
            let mut rows = SparseRows::new();
            for i in 0..r1cs.num_wires() {
                let row = if i == wire {
                    &addend[..]
                } else {
                    r1cs.addend.row(i)
                };
                rows.push_row(row.iter().copied());
            }
            r1cs.addend = rows;
            r1cs.check_structure()
        };
        assert!(with_addend(and_wire, vec![1, 2]).is_ok());
        assert!(
            with_addend(and_wire, vec![1, and_wire as u32]).is_err(),
            "names itself"
        );
        assert!(with_addend(linear_wire, vec![1]).is_err(), "not an AND row");
        assert!(with_addend(and_wire, vec![2, 1]).is_err(), "unsorted");
        assert!(with_addend(1, vec![0]).is_err(), "an input row");
    }

    #[test]
    fn unset_output_is_an_error() {
        let b = CircuitBuilder::new(1, 1);
        assert_eq!(b.compile().unwrap_err(), BuildError::OutputNotSet(0));
    }
}
