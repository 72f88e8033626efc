//! BLAKE3 compression as a circuit (BLAKE3 paper, §2.2, "Compression
//! function"): the full 16-word output state, as used for chaining values
//! (first 8 words) and for extended root output (all 16).
//!
//! Public inputs, in this order: the chaining value (8 words), the block (16
//! words, read little-endian from its 64 bytes), the counter as `t0` (low
//! word) and `t1` (high word), the block length and the flags: 28 words,
//! 896 bits. Public output: the 16 words `v[i] ⊕ v[i+8]` (i < 8) and
//! `v[i+8] ⊕ cv[i]`. Bit `i` of a word (value `(w >> i) & 1`) is bit
//! `32·word + i` of its group.
//!
//! Cost: the 7 rounds run 8 G functions of 6 additions each; XOR and the
//! rotations are free, every addition of two variable words is 31 AND rows
//! (10,416 in all). The first round adds into the constant IV words
//! `v[8..12]`; the carries up to the lowest set bit of a constant are linear,
//! which saves six rows: 10,410.
//!
//! Materialisation: every addition's AND rows hold the sum's bits 1 to 31
//! (their addends, DESIGN §2.2 as revised), so the sums `a'`, `c'`, `a''`,
//! `c''` cost no wire but bit 0. The XOR-rotate words `d'`, `b'`, ... stay
//! symbolic, and any bit of a word leaving a step of G with more than
//! `MAX_TERMS` = 8 terms is materialised (bit 0 of the sums, which gathers
//! terms from round to round, most of all): 1,429 linear rows, 12,736
//! committed wires with 154,240 nonzeros, which fits `K = 2^14` (the
//! public block's 1,409 values and 10,410 AND rows leave 4,565 wires).
//! Bounds of 2, 4, 6 and 12 terms give 15,577 / 13,756 / 13,011 / 12,455
//! wires and 100,686 / 117,920 / 136,748 / 189,234 nonzeros; 8 ran 1-2%
//! faster than 6 (one Zen 4 thread, three alternating rounds: 57.2k, 56.0k,
//! 55.1k against 56.6k, 54.7k, 54.6k per second), about where one wire
//! costs as much prover time as 64 nonzeros (see
//! `bristol_compile::NONZEROS_PER_WIRE`). Before the addends, `d'`, `b'`,
//! `d''` and `b''` had to be materialised whole (18,987 wires, `K = 2^15`),
//! and the proof of 2^14 compressions ran at 35.7k per second against
//! 49.9k with the addends (one Zen 4 thread, alternating runs).

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::r1cs::R1cs;
use crate::circuit::word::Word;

/// The BLAKE3 IV (the SHA-256 IV).
pub const BLAKE3_IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Message word order of the next round: word `i` of round `r + 1` is word
/// `MSG_PERMUTATION[i]` of round `r`.
const MSG_PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

/// Flag: first block of a chunk.
pub const CHUNK_START: u32 = 1;
/// Flag: last block of a chunk.
pub const CHUNK_END: u32 = 2;
/// Flag: parent node.
pub const PARENT: u32 = 4;
/// Flag: root output.
pub const ROOT: u32 = 8;
/// Flag: keyed hashing.
pub const KEYED_HASH: u32 = 16;
/// Flag: key derivation, context string.
pub const DERIVE_KEY_CONTEXT: u32 = 32;
/// Flag: key derivation, key material.
pub const DERIVE_KEY_MATERIAL: u32 = 64;

/// Public input bits: cv (256), block (512), t0, t1, block length, flags.
pub const PUBLIC_INPUT_BITS: usize = 28 * 32;
/// Public output bits: the 16-word output state.
pub const OUTPUT_BITS: usize = 16 * 32;
/// Words of 64 bits per instance of the packed public input.
pub const PUBLIC_INPUT_WORDS: usize = PUBLIC_INPUT_BITS / 64;

/// One call of the compression function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Blake3Input {
    /// Input chaining value (or key words, or the IV).
    pub cv: [u32; 8],
    /// The 16 message words (little-endian from the block bytes).
    pub block: [u32; 16],
    /// Chunk counter (or output block counter for root output).
    pub counter: u64,
    /// Number of message bytes in the block (0..=64).
    pub block_len: u32,
    /// Domain flags.
    pub flags: u32,
}

impl Blake3Input {
    /// The 16 message words of a 64-byte block (little-endian).
    pub fn words_from_bytes(block: &[u8; 64]) -> [u32; 16] {
        core::array::from_fn(|j| {
            u32::from_le_bytes([block[4 * j], block[4 * j + 1], block[4 * j + 2], block[4 * j + 3]])
        })
    }

    /// The 28 public input words, in circuit order.
    pub fn public_words(&self) -> [u32; 28] {
        let mut words = [0u32; 28];
        words[..8].copy_from_slice(&self.cv);
        words[8..24].copy_from_slice(&self.block);
        words[24] = self.counter as u32;
        words[25] = (self.counter >> 32) as u32;
        words[26] = self.block_len;
        words[27] = self.flags;
        words
    }
}

/// Plain BLAKE3 compression (the definition the circuit is tested against):
/// the 16-word output state.
pub fn compress_reference(input: &Blake3Input) -> [u32; 16] {
    fn g(v: &mut [u32; 16], (a, b, c, d): (usize, usize, usize, usize), x: u32, y: u32) {
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
        v[d] = (v[d] ^ v[a]).rotate_right(16);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(12);
        v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
        v[d] = (v[d] ^ v[a]).rotate_right(8);
        v[c] = v[c].wrapping_add(v[d]);
        v[b] = (v[b] ^ v[c]).rotate_right(7);
    }
    let words = input.public_words();
    let mut v = [0u32; 16];
    v[..8].copy_from_slice(&input.cv);
    v[8..12].copy_from_slice(&BLAKE3_IV[..4]);
    v[12..].copy_from_slice(&words[24..]);
    let mut m = input.block;
    for round in 0..7 {
        for (j, &abcd) in G_INDICES.iter().enumerate() {
            g(&mut v, abcd, m[2 * j], m[2 * j + 1]);
        }
        if round < 6 {
            m = core::array::from_fn(|i| m[MSG_PERMUTATION[i]]);
        }
    }
    core::array::from_fn(|i| {
        if i < 8 {
            v[i] ^ v[i + 8]
        } else {
            v[i] ^ input.cv[i - 8]
        }
    })
}

/// State indices `(a, b, c, d)` of the eight G calls of a round: four
/// columns, then four diagonals.
const G_INDICES: [(usize, usize, usize, usize); 8] = [
    (0, 4, 8, 12),
    (1, 5, 9, 13),
    (2, 6, 10, 14),
    (3, 7, 11, 15),
    (0, 5, 10, 15),
    (1, 6, 11, 12),
    (2, 7, 8, 13),
    (3, 4, 9, 14),
];

/// `a + b + m` where `m` is a message word.
fn add3(b: &mut CircuitBuilder, a: &Word, bw: &Word, m: &Word) -> Word {
    let s = b.add(m, bw);
    b.add(&s, a)
}

/// Most terms a bit of a word leaving a step of G may keep; denser bits are
/// materialised (see the module docs for the measurements behind it).
const MAX_TERMS: usize = 8;

/// `w` with every bit of more than [`MAX_TERMS`] terms given its own wire.
fn bound_terms(b: &mut CircuitBuilder, w: Word) -> Word {
    Word::from_bits(core::array::from_fn(|i| {
        let bit = w.bit(i);
        if bit.len() > MAX_TERMS {
            b.materialize(bit)
        } else {
            bit.clone()
        }
    }))
}

/// One G call on the symbolic state. Every sum is materialised by its own
/// AND rows (bit 0 excepted); the XOR-rotate words stay symbolic, and any
/// bit of more than [`MAX_TERMS`] terms is materialised.
fn g_gadget(
    b: &mut CircuitBuilder,
    v: &mut [Word; 16],
    (ia, ib, ic, id): (usize, usize, usize, usize),
    mx: &Word,
    my: &Word,
) {
    let (a, bw, c, d) = (v[ia].clone(), v[ib].clone(), v[ic].clone(), v[id].clone());

    let a1 = add3(b, &a, &bw, mx);
    let a1 = bound_terms(b, a1);
    let d1 = bound_terms(b, d.xor(&a1).rotr(16));
    let c1 = b.add(&c, &d1);
    let c1 = bound_terms(b, c1);
    let b1 = bound_terms(b, bw.xor(&c1).rotr(12));

    let a2 = add3(b, &a1, &b1, my);
    let a2 = bound_terms(b, a2);
    let d2 = bound_terms(b, d1.xor(&a2).rotr(8));
    let c2 = b.add(&c1, &d2);
    let c2 = bound_terms(b, c2);
    let b2 = bound_terms(b, b1.xor(&c2).rotr(7));

    v[ia] = a2;
    v[ib] = b2;
    v[ic] = c2;
    v[id] = d2;
}

/// Builds the compression function into `b`, given the chaining value, the
/// block words and the words `t0, t1, block_len, flags`, and returns the 16
/// output words.
pub fn compress_gadget(
    b: &mut CircuitBuilder,
    cv: &[Word; 8],
    block: &[Word; 16],
    counter_block_len_flags: &[Word; 4],
) -> [Word; 16] {
    let mut v: [Word; 16] = core::array::from_fn(|i| match i {
        0..=7 => cv[i].clone(),
        8..=11 => Word::constant(u64::from(BLAKE3_IV[i - 8])),
        _ => counter_block_len_flags[i - 12].clone(),
    });
    let mut m = block.clone();
    for round in 0..7 {
        for (j, &abcd) in G_INDICES.iter().enumerate() {
            let (mx, my) = (m[2 * j].clone(), m[2 * j + 1].clone());
            g_gadget(b, &mut v, abcd, &mx, &my);
        }
        if round < 6 {
            m = core::array::from_fn(|i| m[MSG_PERMUTATION[i]].clone());
        }
    }
    core::array::from_fn(|i| {
        if i < 8 {
            v[i].xor(&v[i + 8])
        } else {
            v[i].xor(&cv[i - 8])
        }
    })
}

/// Builds and compiles the compression circuit.
fn build() -> R1cs {
    let mut b = CircuitBuilder::new(PUBLIC_INPUT_BITS, OUTPUT_BITS);
    let cv: [Word; 8] = core::array::from_fn(|j| b.public_input_word(32 * j));
    let block: [Word; 16] = core::array::from_fn(|j| b.public_input_word(256 + 32 * j));
    let rest: [Word; 4] = core::array::from_fn(|j| b.public_input_word(768 + 32 * j));
    let out = compress_gadget(&mut b, &cv, &block, &rest);
    for (j, word) in out.iter().enumerate() {
        b.set_public_output_word(32 * j, word);
    }
    b.compile().expect("every BLAKE3 output is set")
}

/// The 16 output words as 64 bytes (words little-endian).
pub fn state_to_bytes(state: &[u32; 16]) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The compiled BLAKE3 compression constraint system.
pub fn blake3_compression() -> R1cs {
    build()
}
