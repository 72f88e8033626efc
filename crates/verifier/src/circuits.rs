//! The instance circuits of statements, with what prover and verifier
//! derive from each once: the lincheck matrices, the digest the transcript
//! binds, and the outputs of the all-zero padding instance.
//!
//! The built-in hash circuits ([`Builtin`]) are built once per process. A
//! `circuit` statement carries its Bristol Fashion text in the proof file, so
//! the verifier compiles the very circuit the proof is about.

use alloc::borrow::ToOwned;

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use once_cell::race::OnceBox;

use crate::circuit::bits::{pack_bits, words_for_bits};
use crate::circuit::path_step::{PathStepLayout, LEFT_BYTE};
use crate::circuit::preimage::preimage_block;
use crate::circuit::rfc6962_step::rfc6962_step;
use crate::circuit::{
    blake3_compression, keccak_f1600, sha256_compression, sha512_compression, BristolCircuit, BristolR1cs,
    Gadget, Lanes, R1cs,
};
use crate::hashes::Hash;
use crate::piop::SparseMatrix;

use crate::piop::wiring::Wires;

/// The built-in instance circuits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// SHA-256 compression with feed-forward (`cv + F(cv, block)`): inputs
    /// the chaining value (32 bytes, words big-endian) and the block (64
    /// bytes), output the new chaining value (32 bytes).
    Sha256,
    /// SHA-512 compression with feed-forward, as SHA-256 on 64-bit words:
    /// inputs the chaining value (64 bytes, words big-endian) and the block
    /// (128 bytes), output the new chaining value (64 bytes).
    Sha512,
    /// BLAKE3 compression: inputs cv (32 bytes), block (64), counter (8),
    /// block length (4) and flags (4), all little-endian words; output the
    /// full 16-word state (64 bytes).
    Blake3,
    /// Keccak-f\[1600\]: the 200-byte state in and out (lane `x + 5 y` at
    /// bytes `8 (x + 5 y)..`, little-endian lanes).
    KeccakF1600,
}

impl Builtin {
    /// Every built-in circuit.
    pub const ALL: [Builtin; 4] = [
        Builtin::Sha256,
        Builtin::Sha512,
        Builtin::Blake3,
        Builtin::KeccakF1600,
    ];

    /// Its name (`sha256`, `sha512`, `blake3`, `keccak-f1600`).
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Sha256 => "sha256",
            Builtin::Sha512 => "sha512",
            Builtin::Blake3 => "blake3",
            Builtin::KeccakF1600 => "keccak-f1600",
        }
    }

    /// What one evaluation is called.
    pub fn noun(self) -> &'static str {
        match self {
            Builtin::Sha256 | Builtin::Sha512 | Builtin::Blake3 => "compression",
            Builtin::KeccakF1600 => "permutation",
        }
    }
}

/// The lane circuits built so far, a list that only grows (a handful of
/// entries per process), so that readers never wait.
struct Built {
    groups: Vec<(Gadget, usize)>,
    circuit: Arc<StatementCircuit>,
    next: OnceBox<Built>,
}

/// A Bristol circuit as the user gave it, with its input and output widths.
struct BristolSource {
    text: String,
    input_sizes: Vec<usize>,
    output_sizes: Vec<usize>,
}

/// A compiled statement circuit.
pub struct StatementCircuit {
    builtin: Option<Builtin>,
    name: &'static str,
    r1cs: R1cs,
    a0: SparseMatrix,
    b0: SparseMatrix,
    c0: SparseMatrix,
    digest: [u8; 32],
    zero_input: Vec<u64>,
    padding_output: Vec<u64>,
    bristol: Option<BristolSource>,
}

impl StatementCircuit {
    fn new(
        builtin: Option<Builtin>,
        name: &'static str,
        r1cs: R1cs,
        bristol: Option<BristolSource>,
    ) -> Result<Self, String> {
        if r1cs.num_private_inputs() != 0 {
            return Err("statement circuits have no private inputs".into());
        }
        let matrix = |rows: &crate::circuit::SparseRows| {
            SparseMatrix::from_csr(rows.offsets().to_vec(), rows.indices().to_vec())
                .map_err(|e| e.to_string())
        };
        let (a0, b0) = (matrix(r1cs.a())?, matrix(r1cs.b())?);
        let c0 = matrix(&r1cs.c_rows())?;
        // The all-zero padding instance: its outputs are public values both
        // sides compute.
        let z = r1cs.evaluate_instance(&vec![false; r1cs.num_public_inputs()], &[]);
        let out_bits: Vec<bool> = (0..r1cs.num_public_outputs())
            .map(|j| z[r1cs.public_output_wire(j)])
            .collect();
        let padding_output = pack_bits(&out_bits);
        Ok(StatementCircuit {
            builtin,
            name,
            digest: statement_circuit_digest(name, &r1cs, bristol.as_ref()),
            zero_input: vec![0; words_for_bits(r1cs.num_public_inputs())],
            r1cs,
            a0,
            b0,
            c0,
            padding_output,
            bristol,
        })
    }

    /// A built-in circuit.
    pub fn builtin(which: Builtin) -> Arc<StatementCircuit> {
        static SHA256: OnceBox<Arc<StatementCircuit>> = OnceBox::new();
        static SHA512: OnceBox<Arc<StatementCircuit>> = OnceBox::new();
        static BLAKE3: OnceBox<Arc<StatementCircuit>> = OnceBox::new();
        static KECCAK: OnceBox<Arc<StatementCircuit>> = OnceBox::new();
        let (cell, build): (_, fn() -> R1cs) = match which {
            Builtin::Sha256 => (&SHA256, sha256_compression),
            Builtin::Sha512 => (&SHA512, sha512_compression),
            Builtin::Blake3 => (&BLAKE3, blake3_compression),
            Builtin::KeccakF1600 => (&KECCAK, keccak_f1600),
        };
        cell.get_or_init(|| {
            Box::new(Arc::new(
                StatementCircuit::new(Some(which), which.name(), build(), None)
                    .expect("the built-in circuits are well formed"),
            ))
        })
        .clone()
    }

    /// The instance circuit of `hash`'s preimage statements: one block of a
    /// message of private length ([`crate::circuit::preimage`]), built
    /// once per process. Its name is `preimage-block-` and the hash's.
    pub fn preimage(hash: Hash) -> Arc<StatementCircuit> {
        static CELLS: [OnceBox<Arc<StatementCircuit>>; 5] = [const { OnceBox::new() }; 5];
        let (at, name) = match hash {
            Hash::Sha256 => (0, "preimage-block-sha256"),
            Hash::Sha512 => (1, "preimage-block-sha512"),
            Hash::Sha3_256 => (2, "preimage-block-sha3-256"),
            Hash::Keccak256 => (3, "preimage-block-keccak-256"),
            Hash::Blake3 => (4, "preimage-block-blake3"),
        };
        CELLS[at]
            .get_or_init(|| {
                Box::new(Arc::new(
                    StatementCircuit::new(None, name, preimage_block(hash), None)
                        .expect("the preimage circuits are well formed"),
                ))
            })
            .clone()
    }

    /// The instance circuit of the `membership` statements' `rfc6962`
    /// scheme: one SHA-256 block of a leaf hash or a node of an RFC 6962
    /// path ([`crate::circuit::rfc6962_step`]), built once per process.
    pub fn rfc6962_step() -> Arc<StatementCircuit> {
        static CELL: OnceBox<Arc<StatementCircuit>> = OnceBox::new();
        CELL.get_or_init(|| {
            Box::new(Arc::new(
                StatementCircuit::new(None, "rfc6962-step", rfc6962_step(), None)
                    .expect("the RFC 6962 step circuit is well formed"),
            ))
        })
        .clone()
    }

    /// The instance circuit of `groups`' lanes ([`Lanes`]: `copies`
    /// lanes of each gadget, side by side): the signature statements'
    /// instance circuits (SHA-256 or SHAKE256 path steps for LMS and HSS,
    /// SHA-256 compressions, SHAKE256 sponge steps, or SHA-256 and SHA-512
    /// compressions for SLH-DSA), each built once per process. Its name
    /// says the lanes (`sha256-path-step*5`).
    pub fn lanes(groups: &[(Gadget, usize)]) -> Arc<StatementCircuit> {
        static BUILT: OnceBox<Built> = OnceBox::new();
        let mut at = &BUILT;
        while let Some(built) = at.get() {
            if built.groups == groups {
                return built.circuit.clone();
            }
            at = &built.next;
        }
        let name = groups
            .iter()
            .map(|&(gadget, copies)| format!("{}*{copies}", gadget_name(gadget)))
            .collect::<Vec<_>>()
            .join("+");
        // A handful of lane circuits exist; each name is made once.
        let name: &'static str = Box::leak(name.into_boxed_str());
        let circuit = Arc::new(
            StatementCircuit::new(None, name, Lanes::new(groups).into_r1cs(), None)
                .expect("a lane circuit is well formed"),
        );
        // Appended at the end of the list; if another thread appended
        // first, the walk goes on from its entry (which may be this one).
        let mut new = Box::new(Built {
            groups: groups.to_vec(),
            circuit,
            next: OnceBox::new(),
        });
        loop {
            match at.set(new) {
                Ok(()) => return at.get().expect("just set").circuit.clone(),
                Err(back) => new = back,
            }
            let built = at.get().expect("set by another thread");
            if built.groups == groups {
                return built.circuit.clone();
            }
            at = &built.next;
        }
    }

    /// Compiles a Bristol Fashion circuit. Errors name the offending line.
    ///
    /// The text is untrusted: the parser bounds what it declares (at most
    /// `MAX_BRISTOL_WIRES` wires and `MAX_BRISTOL_PUBLIC_BITS` input and
    /// output bits, every other wire backed by a gate line), so that a short
    /// text cannot make the compiler allocate much more than the text's size.
    pub fn from_bristol(text: &str) -> Result<Arc<StatementCircuit>, String> {
        let parsed = BristolCircuit::parse(text).map_err(|e| e.to_string())?;
        Self::from_parsed_bristol(text, &parsed)
    }

    /// Compiles a circuit [`BristolCircuit::parse`] has read from `text`.
    pub(crate) fn from_parsed_bristol(
        text: &str,
        parsed: &BristolCircuit,
    ) -> Result<Arc<StatementCircuit>, String> {
        // Without inputs the outputs are constants, without outputs nothing
        // is claimed; and with both, every instance costs statement bytes,
        // so that a proof file's N is backed by its length.
        if parsed.input_sizes().iter().sum::<usize>() == 0 || parsed.output_sizes().iter().sum::<usize>() == 0
        {
            return Err("a circuit statement needs at least one input bit and one output bit".into());
        }
        let compiled = BristolR1cs::new(parsed).map_err(|e| e.to_string())?;
        let source = BristolSource {
            text: text.to_owned(),
            input_sizes: compiled.input_sizes().to_vec(),
            output_sizes: compiled.output_sizes().to_vec(),
        };
        Ok(Arc::new(StatementCircuit::new(
            None,
            "circuit",
            compiled.into_r1cs(),
            Some(source),
        )?))
    }

    /// Which built-in circuit this is; `None` for a Bristol circuit.
    pub fn builtin_kind(&self) -> Option<Builtin> {
        self.builtin
    }

    /// The circuit's name: the built-in's, or `circuit`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The compiled constraint system of one instance.
    pub fn r1cs(&self) -> &R1cs {
        &self.r1cs
    }

    /// The lincheck's matrices: `A0` and `B0`, its group at the zerocheck's
    /// sumcheck point, and `C0 = I ⊕ N0`, its group at the batching point.
    pub fn lincheck_matrices(&self) -> ([&SparseMatrix; 2], [&SparseMatrix; 1]) {
        ([&self.a0, &self.b0], [&self.c0])
    }

    /// The circuit's digest: SHA-256 of the circuit's name, the constraint
    /// system's canonical digest and, for a Bristol circuit, the widths of
    /// its input and output values. It identifies what a proof proves (two
    /// Bristol texts that differ only in spacing share it) and is what
    /// `verify --expect` and `starling digest` compare and print.
    pub fn digest(&self) -> [u8; 32] {
        self.digest
    }

    /// Public input bits per instance.
    pub fn input_bits(&self) -> usize {
        self.r1cs.num_public_inputs()
    }

    /// Public output bits per instance.
    pub fn output_bits(&self) -> usize {
        self.r1cs.num_public_outputs()
    }

    /// Words of one input row.
    pub fn input_words(&self) -> usize {
        words_for_bits(self.input_bits())
    }

    /// Words of one output row.
    pub fn output_words(&self) -> usize {
        words_for_bits(self.output_bits())
    }

    /// The all-zero input row (the padding instance's).
    pub fn zero_input(&self) -> &[u64] {
        &self.zero_input
    }

    /// The output row of the all-zero input (the padding instance).
    pub fn padding_output(&self) -> &[u64] {
        &self.padding_output
    }

    /// The Bristol text of a `circuit` statement.
    pub fn bristol_text(&self) -> Option<&str> {
        self.bristol.as_ref().map(|b| b.text.as_str())
    }

    /// Bit widths of a Bristol circuit's inputs, in order.
    pub fn bristol_input_sizes(&self) -> Option<&[usize]> {
        self.bristol.as_ref().map(|b| b.input_sizes.as_slice())
    }

    /// Bit widths of a Bristol circuit's outputs, in order.
    pub fn bristol_output_sizes(&self) -> Option<&[usize]> {
        self.bristol.as_ref().map(|b| b.output_sizes.as_slice())
    }

    /// The wires of input bytes `bytes` (byte `b`, bit `t` is input bit `8 b + t`).
    pub fn input_wires(&self, bytes: Range<usize>) -> Wires {
        self.input_bit_wires(8 * bytes.start..8 * bytes.end)
    }

    /// The wires of output bytes `bytes`.
    pub fn output_wires(&self, bytes: Range<usize>) -> Wires {
        self.output_bit_wires(8 * bytes.start..8 * bytes.end)
    }

    /// The wires of input bits `bits`.
    pub fn input_bit_wires(&self, bits: Range<usize>) -> Wires {
        Wires {
            base: self.r1cs.public_input_wire(bits.start),
            len: bits.len(),
        }
    }

    /// The wires of output bits `bits`.
    pub fn output_bit_wires(&self, bits: Range<usize>) -> Wires {
        Wires {
            base: self.r1cs.public_output_wire(bits.start),
            len: bits.len(),
        }
    }

    /// Bytes of an input row.
    pub fn input_bytes(&self) -> usize {
        self.input_bits().div_ceil(8)
    }

    /// Bytes of an output row.
    pub fn output_bytes(&self) -> usize {
        self.output_bits().div_ceil(8)
    }
}

/// A lane gadget's part of a lane circuit's name.
fn gadget_name(gadget: Gadget) -> String {
    let step = |hash: &str, layout: PathStepLayout| {
        let mut name = if layout.node_bytes == 32 {
            format!("{hash}-path-step")
        } else {
            format!("{hash}-{}-path-step", 8 * layout.node_bytes)
        };
        // LMS nodes keep the names they had before layouts said where
        // `left` is; a plain Merkle node's says it.
        if layout.left_byte != LEFT_BYTE {
            name += &format!("-left{}", layout.left_byte);
        }
        name
    };
    match gadget {
        Gadget::Sha256 => "sha256".into(),
        Gadget::Sha512 => "sha512".into(),
        Gadget::Sha256PathStep(layout) => step("sha256", layout),
        Gadget::KeccakPathStep(layout) => step("shake256", layout),
    }
}

/// See [`StatementCircuit::digest`].
fn statement_circuit_digest(name: &str, r1cs: &R1cs, bristol: Option<&BristolSource>) -> [u8; 32] {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    let put_u64 = |h: &mut sha2::Sha256, x: u64| h.update(x.to_le_bytes());
    let put_sizes = |h: &mut sha2::Sha256, sizes: &[usize]| {
        put_u64(h, sizes.len() as u64);
        for &s in sizes {
            put_u64(h, s as u64);
        }
    };
    for part in [CIRCUIT_DIGEST_TAG, name.as_bytes(), &r1cs.digest()] {
        put_u64(&mut h, part.len() as u64);
        h.update(part);
    }
    let (inputs, outputs) = bristol.map_or((&[][..], &[][..]), |b| (&b.input_sizes[..], &b.output_sizes[..]));
    put_sizes(&mut h, inputs);
    put_sizes(&mut h, outputs);
    h.finalize().into()
}

/// Domain separation of [`StatementCircuit::digest`].
const CIRCUIT_DIGEST_TAG: &[u8] = b"starling/statement-circuit/v1";

impl PartialEq for StatementCircuit {
    fn eq(&self, other: &Self) -> bool {
        self.builtin == other.builtin
            && self.digest == other.digest
            && self.bristol_text() == other.bristol_text()
    }
}

impl Eq for StatementCircuit {}

impl fmt::Debug for StatementCircuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StatementCircuit")
            .field("name", &self.name())
            .field("k", &self.r1cs.k())
            .field("digest", &hex::encode(self.digest))
            .finish()
    }
}
