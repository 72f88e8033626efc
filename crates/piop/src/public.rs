//! Binding the public values: the verifier evaluates their multilinear
//! extension itself and the proof carries one more claim on `z`
//! (DESIGN §2.5, first item).
//!
//! The public wires are the aligned block `[0, 2^p)` of every instance (wire 0
//! the constant 1). Their table over all instances, `pub(inst, w)`, is a
//! multilinear in `n + p` variables. With `(rho_inst, rho_pub)` from the
//! transcript, `v = sum_{inst, w} eq(rho_inst, inst) eq(rho_pub, w) pub(inst, w)`
//! equals the evaluation of `z` at instance point `rho_inst` and wire point
//! `(rho_pub, 0, ..., 0)`, because `eq(0, bit)` is 1 exactly on bit 0 and so
//! keeps only the wires below `2^p`. If the witness disagrees with the
//! public table anywhere, the two multilinears differ and agree at the random
//! point with probability at most `(n + p) / |F|`.

use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_poly::multilinear::eq_table;

use starling_field::backend;

use crate::claims::{EvalClaim, InstanceWeights};
use crate::kernels::Kernels;
use crate::soundness::log2_error;
use crate::zerocheck::Weighing;
use crate::{PiopError, Shape};

const LABEL_RHO_INST: &[u8] = b"public/rho-instance";
const LABEL_RHO_PUB: &[u8] = b"public/rho-wire";

fn check(shape: Shape, p: usize, words: usize) -> Result<(), PiopError> {
    if p > shape.k() {
        return Err(PiopError::BadShape(
            "the public block must fit in the wires (p <= k)",
        ));
    }
    if words != shape.words_per_wire() << p {
        return Err(PiopError::WrongLength {
            what: "public table words",
            expected: shape.words_per_wire() << p,
            got: words,
        });
    }
    Ok(())
}

/// Writes the public table of one group of 64 instances: called with the
/// group index `g` and `2^p` words, it sets word `w` to the bits of public
/// wire `w` of instances `64 g .. 64 g + 63` (bit `i` = instance `64 g + i`).
pub type GroupFill<'a> = &'a mut dyn FnMut(usize, &mut [u64]);

/// `sum_{inst, w < 2^p} eq(rho_inst, inst) eq(rho_pub, w) pub(inst, w)`,
/// with the table given one group of 64 instances at a time, so that nobody
/// needs to hold it whole.
///
/// Cost: per word one weighing by the low instance weights (the GFNI kernel
/// of the lincheck's fold, or byte tables) and one product with the field
/// backend, per group one more product; no threads.
pub fn evaluate_by_groups(
    shape: Shape,
    p: usize,
    fill: GroupFill<'_>,
    rho_inst: &[Gf128],
    rho_pub: &[Gf128],
) -> Result<Gf128, PiopError> {
    if p > shape.k() {
        return Err(PiopError::BadShape(
            "the public block must fit in the wires (p <= k)",
        ));
    }
    if rho_inst.len() != shape.n() || rho_pub.len() != p {
        return Err(PiopError::BadShape("public point must have n + p coordinates"));
    }
    let weights = InstanceWeights::from_point(rho_inst);
    let kernels = Kernels::get();
    let weighing = Weighing::new(&weights.low);
    let eq_hi = eq_table(&weights.point_hi);
    let eq_pub: Vec<u128> = eq_table(rho_pub).iter().map(|e| e.to_bits()).collect();
    let mut words = vec![0u64; 1 << p];
    let mut weighed = vec![0u128; 1 << p];
    let mut acc = vec![0u128; 1 << p];
    let mut v = Gf128::ZERO;
    for (g, &e) in eq_hi.iter().enumerate() {
        words.fill(0);
        fill(g, &mut words);
        kernels.weigh_words(&weighing.tables, &weighing.mats, &words, &mut weighed);
        acc.fill(0);
        backend::mul_add_slices(&mut acc, &weighed, &eq_pub);
        v += e * Gf128::new(acc.iter().fold(0, |x, y| x ^ y));
    }
    Ok(v)
}

/// [`evaluate_by_groups`] over a whole table: `public_words` holds, for each
/// public wire in order, the `N / 64` words of its instance bits (the first
/// `(N/64) 2^p` words of an honest `z`).
pub fn evaluate(
    shape: Shape,
    p: usize,
    public_words: &[u64],
    rho_inst: &[Gf128],
    rho_pub: &[Gf128],
) -> Result<Gf128, PiopError> {
    check(shape, p, public_words.len())?;
    evaluate_by_groups(shape, p, &mut table_fill(shape, public_words), rho_inst, rho_pub)
}

/// The [`GroupFill`] of a whole table.
fn table_fill(shape: Shape, public_words: &[u64]) -> impl FnMut(usize, &mut [u64]) + '_ {
    let per_wire = shape.words_per_wire();
    move |g, words| {
        for (w, word) in words.iter_mut().enumerate() {
            *word = public_words[w * per_wire + g];
        }
    }
}

/// Draws `(rho_inst, rho_pub)` and returns the claim on `z` that binds the
/// public table, given one group at a time: instance point `rho_inst`, wire
/// point `(rho_pub, 0, .., 0)`. Prover and verifier call it alike (the public
/// table is known to both).
pub fn claim_by_groups(
    shape: Shape,
    p: usize,
    fill: GroupFill<'_>,
    transcript: &mut Transcript,
) -> Result<EvalClaim, PiopError> {
    if p > shape.k() {
        return Err(PiopError::BadShape(
            "the public block must fit in the wires (p <= k)",
        ));
    }
    let rho_inst = transcript.challenge_fields(LABEL_RHO_INST, shape.n());
    let rho_pub = transcript.challenge_fields(LABEL_RHO_PUB, p);
    let value = evaluate_by_groups(shape, p, fill, &rho_inst, &rho_pub)?;
    let mut wire_point = rho_pub;
    wire_point.resize(shape.k(), Gf128::ZERO);
    Ok(EvalClaim {
        weights: InstanceWeights::from_point(&rho_inst),
        wire_point,
        value,
    })
}

/// [`claim_by_groups`] over a whole table laid out as for [`evaluate`].
pub fn claim(
    shape: Shape,
    p: usize,
    public_words: &[u64],
    transcript: &mut Transcript,
) -> Result<EvalClaim, PiopError> {
    check(shape, p, public_words.len())?;
    claim_by_groups(shape, p, &mut table_fill(shape, public_words), transcript)
}

/// The public-value claim's soundness error terms, as `(what, log2 of the error)`.
///
/// * A witness that disagrees with the public table: the difference of the
///   two multilinears in `n + p` variables is nonzero and has total degree at
///   most `n + p`, so it vanishes at the random point with probability at
///   most `(n + p) / |F|` (Schwartz–Zippel).
///
/// `grinding_bits` of proof of work done by the caller immediately before
/// [`claim`] draws the point divide the term by `2^grinding_bits`.
pub fn soundness_terms(shape: Shape, p: usize, grinding_bits: u32) -> Vec<(&'static str, f64)> {
    vec![(
        "public point",
        log2_error((shape.n() + p) as f64, 0.0) - grinding_bits as f64,
    )]
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use starling_poly::multilinear::eq_eval;

    use super::*;

    fn bits(v: usize, len: usize) -> Vec<Gf128> {
        (0..len).map(|i| Gf128::from((v >> i) & 1 == 1)).collect()
    }

    #[test]
    fn evaluation_matches_brute_force() {
        let shape = Shape::new(8, 4).unwrap();
        let p = 2;
        let mut r = ChaCha8Rng::seed_from_u64(1);
        let table: Vec<u64> = (0..shape.words_per_wire() << p).map(|_| r.gen()).collect();
        let rho_inst: Vec<Gf128> = (0..8).map(|_| Gf128::new(r.gen())).collect();
        let rho_pub: Vec<Gf128> = (0..p).map(|_| Gf128::new(r.gen())).collect();
        let mut want = Gf128::ZERO;
        for w in 0..1usize << p {
            for inst in 0..256usize {
                let word = table[inst / 64 + shape.words_per_wire() * w];
                if (word >> (inst % 64)) & 1 == 1 {
                    want += eq_eval(&rho_inst, &bits(inst, 8)) * eq_eval(&rho_pub, &bits(w, p));
                }
            }
        }
        assert_eq!(evaluate(shape, p, &table, &rho_inst, &rho_pub).unwrap(), want);
    }

    #[test]
    fn claim_binds_every_public_bit() {
        let shape = Shape::new(7, 3).unwrap();
        let p = 2;
        let mut r = ChaCha8Rng::seed_from_u64(2);
        let z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
        let table = &z[..shape.words_per_wire() << p];
        let claim = claim(shape, p, table, &mut Transcript::new(b"pub")).unwrap();
        assert!(claim.holds_for(shape, &z));
        assert_eq!(claim.wire_point[p..], [Gf128::ZERO]);
        // A witness differing from the table in any public bit fails the claim;
        // a change outside the public block does not matter.
        for (word, bit) in [(0usize, 0u32), (3, 63), (5, 17)] {
            let mut bad = z.clone();
            bad[word] ^= 1 << bit;
            assert!(!claim.holds_for(shape, &bad), "public word {word} bit {bit}");
        }
        let mut outside = z.clone();
        outside[shape.words_per_wire() << p] ^= 1;
        assert!(claim.holds_for(shape, &outside));
    }

    #[test]
    fn bad_shapes_are_errors() {
        let shape = Shape::new(7, 2).unwrap();
        let mut t = Transcript::new(b"pub");
        assert!(claim(shape, 3, &[0; 16], &mut t).is_err());
        assert!(claim(shape, 1, &[0; 3], &mut t).is_err());
        assert!(evaluate(shape, 1, &[0; 4], &[Gf128::ZERO; 6], &[Gf128::ZERO]).is_err());
    }

    #[test]
    fn soundness_term_matches_hand_computation() {
        // n = 14, p = 9: 23 / 2^128, log2 23 = 4.523561956.
        let t = soundness_terms(Shape::new(14, 15).unwrap(), 9, 0);
        assert!((t[0].1 - (4.523561956 - 128.0)).abs() < 1e-6);
    }
}
