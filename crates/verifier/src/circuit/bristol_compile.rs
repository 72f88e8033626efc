//! Compiles a Bristol Fashion circuit into the builder, so that any Boolean
//! circuit can be proved in batches like the built-in gadgets.
//!
//! Every input bit is public (the inputs concatenated in file order: bit `b`
//! of input `i` is public input bit `offset(i) + b`), and so is every output
//! bit, in the same way. XOR, INV/NOT, EQ and EQW are free: they only combine
//! linear forms. Each AND (and each lane of a MAND) is one AND row, unless an
//! operand is constant.
//!
//! Addends: an AND gate's output gets its row only when something other
//! than one linear gate reads it; until then the XORs, INVs and EQWs applied
//! to it join the row's addend (`C = I ⊕ N`), so the row holds, say, the
//! next carry of an adder rather than the bare product, which would need
//! the carry to be kept as a growing form or a wire of its own.
//!
//! Materialisation: a form that is XORed further keeps growing, so a gate
//! output whose form exceeds a length limit gets its own wire, and so does a
//! shorter form that several gates read. Which limits are best depends on the
//! circuit (AES is mostly XOR, SHA-256 mostly additions), so
//! [`compile_bristol`] builds a few candidate policies and keeps the cheapest
//! by [`compile_cost`]: the used wires (the prover's work on the table stops
//! at the last of them) with the nonzeros as a lesser term. These limits are
//! a plain heuristic: the Bristol SHA-256 (22,573 ANDs, like the hand-built
//! gadget) compiles to 32,818 committed wires and 329,478 nonzeros (39,624
//! and 502,242 before the addends), where the gadget, placing its values by
//! hand (its adders' rows hold sum bits, not carries), has 23,774.

use alloc::vec;
use alloc::vec::Vec;

use crate::circuit::bits::words_for_bits;
use crate::circuit::bristol::{BristolCircuit, BristolGate};
use crate::circuit::builder::{BuildError, CircuitBuilder, MAX_K};
use crate::circuit::lin::Lin;
use crate::circuit::r1cs::R1cs;

/// When a gate's linear output gets its own wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaterializePolicy {
    /// Materialise any form with more terms than this.
    pub max_terms: usize,
    /// Materialise a form read by two or more gates when it has more terms
    /// than this.
    pub max_shared_terms: usize,
}

/// The policies [`compile_bristol`] tries, from sparsest forms to fewest
/// wires.
pub const DEFAULT_POLICIES: [MaterializePolicy; 4] = [
    MaterializePolicy {
        max_terms: 8,
        max_shared_terms: 2,
    },
    MaterializePolicy {
        max_terms: 16,
        max_shared_terms: 4,
    },
    MaterializePolicy {
        max_terms: 32,
        max_shared_terms: 8,
    },
    MaterializePolicy {
        max_terms: 64,
        max_shared_terms: 64,
    },
];

/// Calls `f` on every wire a gate reads.
fn for_each_read(gate: &BristolGate, mut f: impl FnMut(u32)) {
    match gate {
        BristolGate::Xor { a, b, .. } | BristolGate::And { a, b, .. } => {
            f(*a);
            f(*b);
        }
        BristolGate::Inv { a, .. } | BristolGate::Eqw { a, .. } => f(*a),
        BristolGate::Eq { .. } => {}
        BristolGate::Mand { ins, .. } => ins.iter().for_each(|&w| f(w)),
    }
}

/// An AND gate's output not yet given a row: `a · b ⊕ addend`. While only
/// one gate reads it and that gate is linear (XOR, INV, EQW), the gate's
/// output joins the addend instead, so the row, once made, holds the value
/// the circuit reads next (a carry, a sum bit) rather than the bare product
/// (`C = I ⊕ N`, DESIGN §2.2 as revised).
#[derive(Clone, Debug)]
struct Pending {
    a: Lin,
    b: Lin,
    addend: Lin,
}

impl Pending {
    /// Makes the row: one AND row (none if the product is known) whose wire
    /// holds the value.
    fn realize(&self, b: &mut CircuitBuilder) -> Lin {
        b.and_xor(&self.a, &self.b, &self.addend)
    }
}

/// What a Bristol wire holds during compilation.
#[derive(Clone, Debug)]
enum Value {
    /// A linear form over the wires made so far.
    Linear(Lin),
    /// A product whose row is not made yet.
    Product(Pending),
}

/// The symbolic value of every Bristol wire during compilation, with the
/// number of reads each still has to serve (so shared forms are known and
/// forms are dropped after their last read).
struct WireForms {
    forms: Vec<Option<Value>>,
    reads_left: Vec<u32>,
}

impl WireForms {
    /// The value of wire `w`, which the validated circuit has set.
    fn read(&mut self, w: u32) -> Value {
        let w = w as usize;
        self.reads_left[w] -= 1;
        let form = if self.reads_left[w] == 0 {
            self.forms[w].take()
        } else {
            self.forms[w].clone()
        };
        form.expect("a validated circuit reads only wires already set")
    }

    /// The value of wire `w` as a linear form, its row made if it had none.
    fn read_linear(&mut self, b: &mut CircuitBuilder, w: u32) -> Lin {
        match self.read(w) {
            Value::Linear(lin) => lin,
            Value::Product(p) => p.realize(b),
        }
    }

    /// Sets a linear gate output, materialising it as the policy says.
    fn set_linear(&mut self, b: &mut CircuitBuilder, policy: MaterializePolicy, out: u32, lin: Lin) {
        let shared = self.reads_left[out as usize] >= 2;
        let dense = lin.len() > policy.max_terms || (shared && lin.len() > policy.max_shared_terms);
        self.forms[out as usize] = Some(Value::Linear(if dense { b.materialize(&lin) } else { lin }));
    }

    /// Sets a gate output that is a product: left without a row while
    /// exactly one gate (or the output list) reads it and its addend is
    /// short, else given its row now.
    fn set_product(&mut self, b: &mut CircuitBuilder, policy: MaterializePolicy, out: u32, p: Pending) {
        let sole_reader = self.reads_left[out as usize] == 1;
        self.forms[out as usize] = Some(if sole_reader && p.addend.len() <= policy.max_terms {
            Value::Product(p)
        } else {
            Value::Linear(p.realize(b))
        });
    }

    /// Sets the output of a gate that XORs `lin` (and `not`) into wire
    /// `a`'s value: a product takes it into its addend.
    fn set_xor(
        &mut self,
        b: &mut CircuitBuilder,
        policy: MaterializePolicy,
        out: u32,
        value: Value,
        lin: &Lin,
    ) {
        match value {
            Value::Linear(x) => self.set_linear(b, policy, out, x.xor(lin)),
            Value::Product(mut p) => {
                p.addend = p.addend.xor(lin);
                self.set_product(b, policy, out, p);
            }
        }
    }
}

/// Compiles with one materialisation policy.
pub fn compile_bristol_with(circuit: &BristolCircuit, policy: MaterializePolicy) -> Result<R1cs, BuildError> {
    let num_inputs: usize = circuit.input_sizes().iter().sum();
    let num_outputs: usize = circuit.output_sizes().iter().sum();
    let public = 1 + num_inputs + num_outputs;
    if public > 1usize << (MAX_K - 1) {
        return Err(BuildError::TooManyWires(public));
    }
    let num_wires = circuit.num_wires();
    let first_output = num_wires - num_outputs;
    let mut wires = WireForms {
        forms: vec![None; num_wires],
        reads_left: vec![0u32; num_wires],
    };
    for gate in circuit.gates() {
        for_each_read(gate, |w| wires.reads_left[w as usize] += 1);
    }
    for count in &mut wires.reads_left[first_output..] {
        *count += 1;
    }
    let mut b = CircuitBuilder::new(num_inputs, num_outputs);
    for j in 0..num_inputs {
        wires.forms[j] = Some(Value::Linear(b.public_input(j)));
    }
    for gate in circuit.gates() {
        // At most three new wires per output of the gate (the rows of two
        // products it reads and its own); stop before the builder's limit
        // instead of panicking in it.
        let most = b.num_wires_used() + 3 * gate_outputs(gate);
        if most >= 1usize << MAX_K {
            return Err(BuildError::TooManyWires(most));
        }
        match gate {
            BristolGate::Xor { a, b: y, out } => {
                let (va, vy) = (wires.read(*a), wires.read(*y));
                // A product takes the other operand into its addend; of two
                // products, one gets its row first.
                let (value, lin) = match (va, vy) {
                    (Value::Product(p), Value::Linear(l)) | (Value::Linear(l), Value::Product(p)) => {
                        (Value::Product(p), l)
                    }
                    (Value::Linear(x), Value::Linear(l)) => (Value::Linear(x), l),
                    (Value::Product(p), Value::Product(q)) => (Value::Product(p), q.realize(&mut b)),
                };
                wires.set_xor(&mut b, policy, *out, value, &lin);
            }
            BristolGate::Inv { a, out } => {
                let value = wires.read(*a);
                wires.set_xor(&mut b, policy, *out, value, &Lin::one());
            }
            BristolGate::Eqw { a, out } => {
                let value = wires.read(*a);
                wires.set_xor(&mut b, policy, *out, value, &Lin::zero());
            }
            BristolGate::Eq { value, out } => {
                wires.forms[*out as usize] = Some(Value::Linear(Lin::constant(*value)));
            }
            BristolGate::And { a, b: y, out } => {
                let x = wires.read_linear(&mut b, *a);
                let y = wires.read_linear(&mut b, *y);
                let p = Pending {
                    a: x,
                    b: y,
                    addend: Lin::zero(),
                };
                wires.set_product(&mut b, policy, *out, p);
            }
            BristolGate::Mand { ins, outs } => {
                let m = outs.len();
                let operands: Vec<Lin> = ins.iter().map(|&w| wires.read_linear(&mut b, w)).collect();
                for (i, &out) in outs.iter().enumerate() {
                    let p = Pending {
                        a: operands[i].clone(),
                        b: operands[m + i].clone(),
                        addend: Lin::zero(),
                    };
                    wires.set_product(&mut b, policy, out, p);
                }
            }
        }
    }
    for j in 0..num_outputs {
        // An output no gate reads keeps its product for the output's own row.
        match wires.forms[first_output + j]
            .as_ref()
            .expect("a validated circuit sets every output")
        {
            Value::Linear(lin) => b.set_public_output(j, lin),
            Value::Product(p) => b.set_public_output_and_xor(j, &p.a, &p.b, &p.addend),
        }
    }
    b.compile()
}

fn gate_outputs(gate: &BristolGate) -> usize {
    match gate {
        BristolGate::Mand { outs, .. } => outs.len(),
        _ => 1,
    }
}

/// Nonzeros that cost the prover about as much as one used wire, in
/// [`compile_cost`]. A wire costs commit, zerocheck and opening work in
/// every instance; a nonzero costs the linear forms and the lincheck,
/// which read the forms' terms at 64 instances a word. Measured on the
/// built-in gadgets (2^14 instances, one Zen 4 thread): 2,048 fewer wires
/// for 144,078 more nonzeros made SHA-256 10% faster, 3,200 fewer for
/// 70,166 more made Keccak-f 5% faster, 1,600 fewer for 86,278 more gained
/// nothing, and 1,536 fewer for 20 million more made SHA-256 three times
/// slower.
pub const NONZEROS_PER_WIRE: usize = 64;

/// The prover's cost of a compiled circuit, in nonzeros: the used wires
/// (the prover's work stops at the last of them) at [`NONZEROS_PER_WIRE`]
/// each, plus the nonzeros of `A` and `B`.
pub fn compile_cost(r1cs: &R1cs) -> usize {
    r1cs.used_wires() * NONZEROS_PER_WIRE + r1cs.nnz()
}

/// Compiles a parsed Bristol Fashion circuit to an [`R1cs`] with every input
/// and output public, trying each of [`DEFAULT_POLICIES`] and keeping the
/// cheapest by [`compile_cost`] (the first of equals).
pub fn compile_bristol(circuit: &BristolCircuit) -> Result<R1cs, BuildError> {
    let mut best: Option<R1cs> = None;
    for policy in DEFAULT_POLICIES {
        let r1cs = compile_bristol_with(circuit, policy)?;
        let better = match &best {
            None => true,
            Some(b) => compile_cost(&r1cs) < compile_cost(b),
        };
        if better {
            best = Some(r1cs);
        }
    }
    Ok(best.expect("at least one policy"))
}

/// A compiled Bristol circuit with its input and output shapes, and helpers
/// to lay out batches.
#[derive(Clone, Debug)]
pub struct BristolR1cs {
    r1cs: R1cs,
    input_sizes: Vec<usize>,
    output_sizes: Vec<usize>,
}

impl BristolR1cs {
    /// Compiles `circuit` with [`compile_bristol`].
    pub fn new(circuit: &BristolCircuit) -> Result<Self, BuildError> {
        Ok(BristolR1cs {
            r1cs: compile_bristol(circuit)?,
            input_sizes: circuit.input_sizes().to_vec(),
            output_sizes: circuit.output_sizes().to_vec(),
        })
    }

    /// The compiled constraint system.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// Consumes the wrapper, returning its constraint system.
    pub fn into_r1cs(self) -> R1cs {
        self.r1cs
    }

    /// Bit widths of the circuit's inputs, in order.
    pub fn input_sizes(&self) -> &[usize] {
        &self.input_sizes
    }

    /// Bit widths of the circuit's outputs, in order.
    pub fn output_sizes(&self) -> &[usize] {
        &self.output_sizes
    }

    /// Packed public input bits of one evaluation (`inputs[i][b]` = bit `b`
    /// of input `i`), or `None` if the shapes do not match the circuit.
    pub fn public_input_row(&self, inputs: &[Vec<bool>]) -> Option<Vec<u64>> {
        if inputs.len() != self.input_sizes.len()
            || inputs.iter().zip(&self.input_sizes).any(|(v, &s)| v.len() != s)
        {
            return None;
        }
        let total = self.r1cs.num_public_inputs();
        let mut row = vec![0u64; words_for_bits(total)];
        for (j, &bit) in inputs.iter().flatten().enumerate() {
            row[j / 64] |= u64::from(bit) << (j % 64);
        }
        Some(row)
    }
}
