//! Keccak-f\[1600\] as a circuit (FIPS 202, §3.2–3.3): the 24-round
//! permutation, 1600-bit state in, 1600-bit state out.
//!
//! State layout, for the public input and the public output alike: lane
//! `(x, y)` is the 64-bit little-endian word at bytes `8(x + 5y) ..
//! 8(x + 5y) + 7` of the 200-byte state, and public bit `64(x + 5y) + z` is
//! bit `z` of that lane — bit `b` of byte `j` is bit `8j + b`, the bit order
//! of FIPS 202's string-to-state conversion.
//!
//! Cost: θ, ρ, π and ι are linear and free; χ is one AND row per state bit
//! and round, `a ⊕ (a₁ ⊕ 1)·a₂`: 1,600 × 24 = 38,400 AND rows.
//!
//! Layout: nothing but the AND rows is committed. Each row's addend (`C =
//! I ⊕ N`, DESIGN §2.2 as revised) carries `a` and ι's constant, so the row
//! holds the new state bit itself, and the state is a single wire per bit
//! after every round; the last round's rows are the public outputs' own.
//! θ makes every bit the XOR of 11 state bits; to keep rows short, the row
//! of bit `(x, 0, z)` holds its column's parity `C[x][z]` instead (its
//! addend also takes the column's other four bits), so θ's effect `D` is
//! two wires and a θ output three (seven for `y = 0`). That is the public
//! block (2^12 wires, 3,201 used) and 36,800 private AND rows: 40,001
//! committed wires with 543,448 nonzeros. Before the addends the state had
//! to be materialised by linear rows (60,481 wires, 687,372 nonzeros);
//! with addends but θ's effects `D` materialised each round (47,681
//! wires, 356,568 nonzeros) the proof of 2^14 permutations was 10% slower
//! than with the parities (one Zen 4 thread, alternating runs: 14.6k /
//! 15.2k against 16.2k / 17.2k per second): the prover's work on the table
//! stops at its last live row, so every wire costs commit, zerocheck and
//! opening time.

use alloc::vec;
use alloc::vec::Vec;

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::lin::Lin;
use crate::circuit::r1cs::R1cs;

/// Bits of the Keccak-f\[1600\] state.
pub const STATE_BITS: usize = 1600;
/// Lanes of the state.
pub const LANES: usize = 25;
/// Rounds of Keccak-f\[1600\].
pub const ROUNDS: usize = 24;

/// Index of lane `(x, y)` (both taken mod 5).
fn lane(x: usize, y: usize) -> usize {
    (x % 5) + 5 * (y % 5)
}

/// The ρ rotation offsets, from FIPS 202 Algorithm 2: walk `(x, y) ← (y,
/// 2x + 3y)` from `(1, 0)`, the `t`-th lane rotated by `(t + 1)(t + 2)/2`.
pub fn rho_offsets() -> [u32; LANES] {
    let mut offsets = [0u32; LANES];
    let (mut x, mut y) = (1usize, 0usize);
    for t in 0..24u32 {
        offsets[lane(x, y)] = ((t + 1) * (t + 2) / 2) % 64;
        (x, y) = (y, (2 * x + 3 * y) % 5);
    }
    offsets
}

/// The ι round constants, from FIPS 202 Algorithms 5 and 6: bit `2^j − 1`
/// of round `i`'s constant is `rc(j + 7i)`, the output of the LFSR with
/// polynomial `x^8 + x^6 + x^5 + x^4 + 1`.
pub fn round_constants() -> [u64; ROUNDS] {
    let rc = |t: usize| -> u64 {
        let mut r: u16 = 1;
        for _ in 0..t % 255 {
            r <<= 1;
            if r & 0x100 != 0 {
                r ^= 0x171;
            }
        }
        u64::from(r & 1)
    };
    core::array::from_fn(|i| (0..7).fold(0u64, |acc, j| acc | (rc(j + 7 * i) << ((1 << j) - 1))))
}

/// Plain Keccak-f\[1600\] on 25 lanes (the definition the circuit follows).
pub fn permute_reference(state: &mut [u64; LANES]) {
    let offsets = rho_offsets();
    for rc in round_constants() {
        let c: [u64; 5] = core::array::from_fn(|x| (0..5).fold(0, |acc, y| acc ^ state[lane(x, y)]));
        let mut b = [0u64; LANES];
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                let a = state[lane(x, y)] ^ d;
                b[lane(y, 2 * x + 3 * y)] = a.rotate_left(offsets[lane(x, y)]);
            }
        }
        for y in 0..5 {
            for x in 0..5 {
                state[lane(x, y)] = b[lane(x, y)] ^ (!b[lane(x + 1, y)] & b[lane(x + 2, y)]);
            }
        }
        state[0] ^= rc;
    }
}

/// Index of bit `z` of lane `(x, y)` in the 1600-bit state.
fn bit(x: usize, y: usize, z: usize) -> usize {
    64 * lane(x, y) + (z % 64)
}

/// The state between rounds: its 1600 bits, and θ's column parities
/// `C[x][z]` (index `64 x + z`) when they are single wires.
struct State {
    bits: Vec<Lin>,
    parities: Option<Vec<Lin>>,
}

/// One round; on the last round (`last` is `Some(keep)`) the new state's
/// bits are the public outputs' own rows, except bits `0..keep`, which get
/// private AND rows (returned in the state's first `keep` bits, the rest
/// empty) copied to their outputs, so that other rows can read them.
///
/// χ and ι make each new bit one AND row with the θ-ρ-π output `a` (and ι's
/// constant) as its addend. In each column `(x, z)` the rows of `y = 1..4`
/// hold their bits, and the row of `y = 0` holds the column's parity
/// instead (its addend also takes the other four bits), so the next round's
/// θ effects `D[x][z] = C[x−1][z] ⊕ C[x+1][z−1]` are two wires and bit
/// `(x, 0, z)` is the parity plus the other four.
fn round_gadget(b: &mut CircuitBuilder, s: &State, rc: u64, last: Option<usize>) -> State {
    let offsets = rho_offsets();
    // θ
    let c: Vec<Lin> = s.parities.clone().unwrap_or_else(|| {
        (0..320)
            .map(|i| {
                let (x, z) = (i / 64, i % 64);
                (0..5).fold(Lin::zero(), |acc, y| acc.xor(&s.bits[bit(x, y, z)]))
            })
            .collect()
    });
    let d: Vec<Lin> = (0..320)
        .map(|i| {
            let (x, z) = (i / 64, i % 64);
            c[((x + 4) % 5) * 64 + z].xor(&c[((x + 1) % 5) * 64 + (z + 63) % 64])
        })
        .collect();
    // θ, ρ and π: lane (x, y) goes to (y, 2x + 3y), rotated left.
    let mut after_pi = vec![Lin::zero(); STATE_BITS];
    for x in 0..5 {
        for y in 0..5 {
            let r = offsets[lane(x, y)] as usize;
            for z in 0..64 {
                let a = s.bits[bit(x, y, z)].xor(&d[x * 64 + z]);
                after_pi[bit(y, 2 * x + 3 * y, z + r)] = a;
            }
        }
    }
    // χ and ι
    let mut bits = vec![Lin::zero(); STATE_BITS];
    let mut parities = vec![Lin::zero(); 320];
    for x in 0..5 {
        for z in 0..64 {
            let row = |y: usize| {
                let mut addend = after_pi[bit(x, y, z)].clone();
                if x == 0 && y == 0 && (rc >> z) & 1 == 1 {
                    addend = addend.not();
                }
                (
                    after_pi[bit(x + 1, y, z)].not(),
                    after_pi[bit(x + 2, y, z)].clone(),
                    addend,
                )
            };
            if let Some(keep) = last {
                for y in 0..5 {
                    let (p, q, addend) = row(y);
                    let j = bit(x, y, z);
                    if j < keep {
                        bits[j] = b.and_xor(&p, &q, &addend);
                        b.set_public_output(j, &bits[j]);
                    } else {
                        b.set_public_output_and_xor(j, &p, &q, &addend);
                    }
                }
                continue;
            }
            let mut others = Lin::zero();
            for y in 1..5 {
                let (p, q, addend) = row(y);
                bits[bit(x, y, z)] = b.and_xor(&p, &q, &addend);
                others = others.xor(&bits[bit(x, y, z)]);
            }
            let (p, q, addend) = row(0);
            let parity = b.and_xor(&p, &q, &addend.xor(&others));
            bits[bit(x, 0, z)] = parity.xor(&others);
            parities[64 * x + z] = parity;
        }
    }
    State {
        bits,
        parities: Some(parities),
    }
}

/// Builds Keccak-f\[1600\] into `b` from the 1600 state bits (index
/// `64(x + 5y) + z`) and sets the public outputs to the permuted state.
pub fn permute_gadget(b: &mut CircuitBuilder, state: &[Lin]) {
    permute_gadget_keeping(b, state, 0);
}

/// [`permute_gadget`], and the permuted state's bits `0..keep` as private
/// wires that later rows may read (outputs are evaluated after every
/// private row, so no row reads an output): `keep` private wires more, the
/// outputs of those bits their copies. `keep = 0` builds exactly
/// [`permute_gadget`]'s rows.
pub fn permute_gadget_keeping(b: &mut CircuitBuilder, state: &[Lin], keep: usize) -> Vec<Lin> {
    assert_eq!(state.len(), STATE_BITS);
    assert!(keep <= STATE_BITS);
    let mut s = State {
        bits: state.to_vec(),
        parities: None,
    };
    for (round, rc) in round_constants().into_iter().enumerate() {
        s = round_gadget(b, &s, rc, (round + 1 == ROUNDS).then_some(keep));
    }
    s.bits.truncate(keep);
    s.bits
}

/// Builds and compiles the permutation circuit.
fn build() -> R1cs {
    let mut b = CircuitBuilder::new(STATE_BITS, STATE_BITS);
    let state: Vec<Lin> = (0..STATE_BITS).map(|j| b.public_input(j)).collect();
    permute_gadget(&mut b, &state);
    b.compile().expect("every Keccak output is set")
}

/// The 25 lanes of a 200-byte state (lanes little-endian).
pub fn lanes_from_bytes(bytes: &[u8; 200]) -> [u64; LANES] {
    core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

/// The 200 bytes of a state given as 25 lanes.
pub fn bytes_from_lanes(lanes: &[u64; LANES]) -> [u8; 200] {
    let mut out = [0u8; 200];
    for (chunk, l) in out.chunks_exact_mut(8).zip(lanes) {
        chunk.copy_from_slice(&l.to_le_bytes());
    }
    out
}

/// The compiled Keccak-f\[1600\] constraint system.
pub fn keccak_f1600() -> R1cs {
    build()
}
