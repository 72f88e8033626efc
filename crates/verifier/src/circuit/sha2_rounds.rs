//! The SHA-2 compression function as a circuit, once for both word widths
//! (FIPS 180-4 §6.2.2 for SHA-256 on 32-bit words, §6.4.2 for SHA-512 on
//! 64-bit words): the two differ only in their word width, rotation
//! amounts, round constants and number of rounds, which a [`Sha2Spec`]
//! names, so the costs and the materialisation choices below hold for both.
//!
//! Cost: every addition is `W - 1` AND rows (fewer when adding the round
//! constant, whose low zero bits need no carry), Ch and Maj one AND per
//! bit: `g ⊕ e(f ⊕ g)` and `a ⊕ (a ⊕ b)(a ⊕ c)`.
//!
//! Materialisation: the AND rows hold the values the circuit reads next
//! (their addends, DESIGN §2.2 as revised): an addition's rows hold the
//! sum's bits 1 to `W - 1`, Ch's and Maj's their result. So the words a, e
//! and the scheduled `W_t` cost one linear row each (bit 0 of a sum), and
//! T1 is a sum like any other.

use alloc::vec::Vec;

use crate::circuit::builder::CircuitBuilder;
use crate::circuit::word::Word;

/// What distinguishes one SHA-2 compression function from another.
pub(crate) struct Sha2Spec {
    /// The round constants `K_t`, one per round (64 or 80).
    pub round_constants: &'static [u64],
    /// Rotations of `Σ0(a)`.
    pub big_sigma0: [u32; 3],
    /// Rotations of `Σ1(e)`.
    pub big_sigma1: [u32; 3],
    /// Two rotations and a shift: `σ0` of the message schedule.
    pub small_sigma0: [u32; 3],
    /// Two rotations and a shift: `σ1` of the message schedule.
    pub small_sigma1: [u32; 3],
}

fn rotations<const W: usize>(x: &Word<W>, r: [u32; 3]) -> Word<W> {
    x.rotr(r[0]).xor(&x.rotr(r[1])).xor(&x.rotr(r[2]))
}

fn rotations_shift<const W: usize>(x: &Word<W>, r: [u32; 3]) -> Word<W> {
    x.rotr(r[0]).xor(&x.rotr(r[1])).xor(&x.shr(r[2]))
}

/// `Ch(e, f, g) = g ⊕ e·(f ⊕ g)`: one AND row per bit, holding the bit.
fn ch<const W: usize>(b: &mut CircuitBuilder, e: &Word<W>, f: &Word<W>, g: &Word<W>) -> Word<W> {
    b.and_xor_word(e, &f.xor(g), g)
}

/// `Maj(a, b, c) = a ⊕ (a ⊕ b)·(a ⊕ c)`: one AND row per bit, holding the
/// bit.
fn maj<const W: usize>(b: &mut CircuitBuilder, x: &Word<W>, y: &Word<W>, z: &Word<W>) -> Word<W> {
    b.and_xor_word(&x.xor(y), &x.xor(z), x)
}

/// Builds the compression function of `spec` into `b`, given the chaining
/// value and block words, and returns the 8 output words (feed-forward
/// included).
pub(crate) fn compress<const W: usize>(
    b: &mut CircuitBuilder,
    spec: &Sha2Spec,
    cv: &[Word<W>; 8],
    block: &[Word<W>; 16],
) -> [Word<W>; 8] {
    let rounds = spec.round_constants.len();
    let mut w: Vec<Word<W>> = block.to_vec();
    for t in 16..rounds {
        // Add the single-wire words first: forms grow with each symbolic sum.
        let s = b.add(&w[t - 16], &w[t - 7]);
        let s = b.add(&rotations_shift(&w[t - 15], spec.small_sigma0), &s);
        let s = b.add(&rotations_shift(&w[t - 2], spec.small_sigma1), &s);
        let s = b.materialize_word(&s);
        w.push(s);
    }
    let [mut a, mut bb, mut c, mut d, mut e, mut f, mut g, mut h] = cv.clone();
    for (t, &k) in spec.round_constants.iter().enumerate() {
        let kw = b.add_const(&w[t], k);
        let ch = ch(b, &e, &f, &g);
        let t1 = b.add(&h, &ch);
        let t1 = b.add(&kw, &t1);
        let t1 = b.add(&rotations(&e, spec.big_sigma1), &t1);
        let maj = maj(b, &a, &bb, &c);
        let t2 = b.add(&rotations(&a, spec.big_sigma0), &maj);
        let new_e = b.add(&d, &t1);
        let new_a = b.add(&t1, &t2);
        h = g;
        g = f;
        f = e;
        e = b.materialize_word(&new_e);
        d = c;
        c = bb;
        bb = a;
        a = b.materialize_word(&new_a);
    }
    let state = [a, bb, c, d, e, f, g, h];
    core::array::from_fn(|j| b.add(&state[j], &cv[j]))
}
