use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::cover::Plain;
use crate::PiopError;

/// Bit `(y, w)` of a witness.
fn bit(shape: Shape, z: &[u64], y: usize, w: usize) -> bool {
    (z[w * shape.words_per_wire() + y / 64] >> (y % 64)) & 1 == 1
}

fn set_bit(shape: Shape, z: &mut [u64], y: usize, w: usize, v: bool) {
    let i = w * shape.words_per_wire() + y / 64;
    z[i] = (z[i] & !(1 << (y % 64))) | (u64::from(v) << (y % 64));
}

/// The values of `run` in each instance as a [`RowFill`] source: one row of
/// `len` bits (`len <= 64`) per instance, zero outside `set`.
fn value_rows(shape: Shape, z: &[u64], run: Wires, set: &Instances) -> Vec<u64> {
    assert!(run.len <= 64);
    let mut rows = vec![0u64; 1 << shape.n()];
    for y in set.members() {
        for j in 0..run.len {
            if bit(shape, z, y, run.base + j) {
                rows[y] |= 1 << j;
            }
        }
    }
    rows
}

/// A witness with the relations of a chain of `steps`: wires 1..9 are
/// "in", 9..17 "out", wire 0 is 1; in(y) = out(y - 1) for 1 <= y < steps.
fn chain_witness(shape: Shape, steps: usize, seed: u64) -> Vec<u64> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let mut z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
    for y in 0..1 << shape.n() {
        set_bit(shape, &mut z, y, 0, true);
    }
    for y in 1..steps {
        for j in 0..8 {
            let v = bit(shape, &z, y - 1, 9 + j);
            set_bit(shape, &mut z, y, 1 + j, v);
        }
    }
    z
}

const IN: Wires = Wires { base: 1, len: 8 };
const OUT: Wires = Wires { base: 9, len: 8 };
const ONE: [u64; 1] = [1];

/// Proves and verifies; returns whether the claim handed to the opening
/// holds for the witness the prover used (false: the opening rejects).
fn accepts(shape: Shape, p: usize, prover: &[Relation<'_>], verifier: &[Relation<'_>], z: &[u64]) -> bool {
    accepts_grinding(shape, p, prover, verifier, z, 0)
}

fn accepts_grinding(
    shape: Shape,
    p: usize,
    prover: &[Relation<'_>],
    verifier: &[Relation<'_>],
    z: &[u64],
    grinding_bits: u32,
) -> bool {
    let (proof, claim) = prove(
        shape,
        p,
        prover,
        z,
        grinding_bits,
        &mut Transcript::new(b"wiring"),
        &mut Plain,
    );
    let bytes = proof.to_bytes();
    assert_eq!(bytes.len(), Proof::num_bytes(shape, p, grinding_bits));
    let decoded = Proof::from_bytes(shape, p, grinding_bits, &bytes).unwrap();
    match verify(
        shape,
        p,
        verifier,
        &decoded,
        grinding_bits,
        &mut Transcript::new(b"wiring"),
    ) {
        Ok(c) => {
            assert_eq!(c, claim, "prover and verifier agree on the claim");
            crate::claims::holds(&c, shape, z)
        }
        Err(_) => false,
    }
}

#[test]
fn a_chain_with_public_ends_verifies_and_every_break_is_caught() {
    let shape = Shape::new(8, 6).unwrap();
    let p = 5;
    let steps = 200;
    let z = chain_witness(shape, steps, 1);
    let start = value_rows(shape, &z, IN, &Instances::single(0));
    let end = value_rows(shape, &z, OUT, &Instances::single(steps - 1));
    let start_fill = |y: usize, w: &mut [u64]| w[0] = start[y];
    let end_fill = |y: usize, w: &mut [u64]| w[0] = end[y];
    let relations = [
        Relation {
            instances: Instances::Range {
                start: 0,
                end: 1 << shape.n(),
            },
            wires: Wires { base: 0, len: 1 },
            from: None,
            values: Values::Constant(ONE.to_vec()),
        },
        Relation {
            instances: Instances::Range { start: 1, end: steps },
            wires: IN,
            from: Some((Source::Previous, OUT)),
            values: Values::Zero,
        },
        Relation {
            instances: Instances::single(0),
            wires: IN,
            from: None,
            values: Values::PerInstance(Box::new(start_fill)),
        },
        Relation {
            instances: Instances::single(steps - 1),
            wires: OUT,
            from: None,
            values: Values::PerInstance(Box::new(end_fill)),
        },
    ];
    assert!(accepts(shape, p, &relations, &relations, &z));
    assert!(accepts_grinding(shape, p, &relations, &relations, &z, 4));
    // Every nonce is checked.
    let (proof, _) = prove(
        shape,
        p,
        &relations,
        &z,
        4,
        &mut Transcript::new(b"wiring"),
        &mut Plain,
    );
    for i in [0, shape.n(), proof.nonces.len() - 1] {
        let mut bad = proof.clone();
        bad.nonces[i] ^= 1;
        assert!(
            verify(shape, p, &relations, &bad, 4, &mut Transcript::new(b"wiring")).is_err(),
            "nonce {i}"
        );
    }
    // A broken link, a wrong start, a wrong end, the constant wire 0 in a
    // padding instance: each makes the claim false.
    for (y, w) in [(57usize, 3usize), (0, 1), (steps - 1, 16), (250, 0), (1, 8)] {
        let mut bad = z.clone();
        set_bit(shape, &mut bad, y, w, !bit(shape, &z, y, w));
        assert!(!accepts(shape, p, &relations, &relations, &bad), "bit ({y}, {w})");
    }
    // Outside every relation (a private wire, a link past the end) nothing is bound.
    for (y, w) in [(57usize, 20usize), (steps + 3, 2)] {
        let mut other = z.clone();
        set_bit(shape, &mut other, y, w, !bit(shape, &z, y, w));
        assert!(
            accepts(shape, p, &relations, &relations, &other),
            "bit ({y}, {w})"
        );
    }
}

#[test]
fn sets_maps_and_constants_bind_what_they_say() {
    let shape = Shape::new(7, 6).unwrap();
    let p = 6;
    let mut r = ChaCha8Rng::seed_from_u64(3);
    let mut z: Vec<u64> = (0..shape.num_words()).map(|_| r.gen()).collect();
    // A tree: instance y < 64 reads wires 40..44 of instance 2y + 1 into
    // its wires 20..24.
    let map: Vec<u32> = (0..128u32).map(|y| (2 * y + 1) % 128).collect();
    for y in 0..64 {
        for j in 0..4 {
            let v = bit(shape, &z, 2 * y + 1, 40 + j);
            set_bit(shape, &mut z, y, 20 + j, v);
        }
    }
    // Wires 50..53 are 0b101 in a scattered set of instances.
    let mut set_bits = vec![0u64; 2];
    for y in [2usize, 9, 64, 77, 126] {
        set_bits[y / 64] |= 1 << (y % 64);
        for (j, v) in [true, false, true].into_iter().enumerate() {
            set_bit(shape, &mut z, y, 50 + j, v);
        }
    }
    let set = Instances::Set(set_bits.into());
    let pattern = [0b101u64];
    let relations = [
        Relation {
            instances: Instances::Range { start: 0, end: 64 },
            wires: Wires { base: 20, len: 4 },
            from: Some((Source::Map(map.into()), Wires { base: 40, len: 4 })),
            values: Values::Zero,
        },
        Relation {
            instances: set.clone(),
            wires: Wires { base: 50, len: 3 },
            from: None,
            values: Values::Constant(pattern.to_vec()),
        },
    ];
    assert!(accepts(shape, p, &relations, &relations, &z));
    for (y, w) in [(10usize, 22usize), (21, 40), (77, 51)] {
        let mut bad = z.clone();
        set_bit(shape, &mut bad, y, w, !bit(shape, &z, y, w));
        assert!(!accepts(shape, p, &relations, &relations, &bad), "bit ({y}, {w})");
    }
    // Not in the set: free.
    let mut other = z.clone();
    set_bit(shape, &mut other, 3, 51, !bit(shape, &z, 3, 51));
    assert!(accepts(shape, p, &relations, &relations, &other));
}

#[test]
fn a_verifier_with_other_values_rejects() {
    let shape = Shape::new(7, 5).unwrap();
    let p = 5;
    let z = chain_witness(shape, 128, 9);
    let all = Instances::Range { start: 0, end: 128 };
    let rows = value_rows(shape, &z, OUT, &all);
    let fill = |y: usize, w: &mut [u64]| w[0] = rows[y];
    let mut other = rows.clone();
    other[97] ^= 1 << 5;
    let other_fill = |y: usize, w: &mut [u64]| w[0] = other[y];
    let rel = |values| {
        [Relation {
            instances: all.clone(),
            wires: OUT,
            from: None,
            values,
        }]
    };
    assert!(accepts(
        shape,
        p,
        &rel(Values::PerInstance(Box::new(fill))),
        &rel(Values::PerInstance(Box::new(fill))),
        &z
    ));
    assert!(!accepts(
        shape,
        p,
        &rel(Values::PerInstance(Box::new(fill))),
        &rel(Values::PerInstance(Box::new(other_fill))),
        &z
    ));
}

#[test]
fn relations_outside_the_public_block_are_refused() {
    let shape = Shape::new(7, 4).unwrap();
    let rel = [Relation {
        instances: Instances::Range { start: 0, end: 128 },
        wires: Wires { base: 14, len: 4 },
        from: None,
        values: Values::Zero,
    }];
    let proof = Proof {
        rounds: vec![QuadraticRound::default(); 7 + 4],
        nonces: Vec::new(),
        z_eval: Gf128::ZERO,
    };
    assert!(verify(shape, 4, &rel, &proof, 0, &mut Transcript::new(b"w")).is_err());
    assert!(verify(shape, 5, &rel, &proof, 0, &mut Transcript::new(b"w")).is_err());
}

#[test]
fn soundness_terms_match_hand_computation() {
    // n = 14, p = 11: batching 26 / 2^128, rounds 50 / 2^128; grinding 8
    // bits divides both by 2^8.
    let t = soundness_terms(Shape::new(14, 15).unwrap(), 11, 0);
    assert!((t[0].1 - (26f64.log2() - 128.0)).abs() < 1e-9);
    assert!((t[1].1 - (50f64.log2() - 128.0)).abs() < 1e-9);
    let t = soundness_terms(Shape::new(14, 15).unwrap(), 11, 8);
    assert!((t[1].1 - (50f64.log2() - 136.0)).abs() < 1e-9);
}

#[test]
fn a_product_lookup_is_the_product_of_two_lookups() {
    let mut r = ChaCha8Rng::seed_from_u64(17);
    for n in [0usize, 1, 5, 8, 11] {
        let a: Vec<Gf128> = (0..n).map(|_| Gf128::new(r.gen())).collect();
        let b: Vec<Gf128> = (0..n).map(|_| Gf128::new(r.gen())).collect();
        let (ea, eb, both) = (EqLookup::new(&a), EqLookup::new(&b), EqLookup::product(&a, &b));
        for y in 0..1usize << n {
            assert_eq!(both.at(y), ea.at(y) * eb.at(y), "n = {n}, y = {y}");
        }
    }
}

#[test]
fn a_lookup_sums_a_set_as_its_members_one_by_one() {
    let mut r = ChaCha8Rng::seed_from_u64(23);
    for n in [0usize, 3, 6, 7, 12, 13, 15] {
        let point: Vec<Gf128> = (0..n).map(|_| Gf128::new(r.gen())).collect();
        let eq = EqLookup::new(&point);
        for density in [0u32, 1, 8, 64] {
            let mut bits = vec![0u64; (1usize << n).div_ceil(64)];
            for y in 0..1usize << n {
                if r.gen_range(0..64) < density {
                    bits[y / 64] |= 1 << (y % 64);
                }
            }
            let one_by_one: Gf128 = Instances::Set(bits.clone().into())
                .members()
                .map(|y| eq.at(y))
                .sum();
            assert_eq!(eq.sum_over(&bits), one_by_one, "n = {n}, density {density}");
        }
    }
}

#[test]
fn a_map_entry_past_the_instances_is_refused_where_a_member_reads_it() {
    let shape = Shape::new(7, 4).unwrap();
    let proof = Proof {
        rounds: vec![QuadraticRound::default(); 7 + 4],
        nonces: Vec::new(),
        z_eval: Gf128::ZERO,
    };
    // Instance 5 reads instance 128, past the 2^7 instances; instance 6,
    // outside the set, would read 300.
    let mut map = vec![0u32; 128];
    map[5] = 128;
    map[6] = 300;
    let rel = |members: &[usize]| {
        let mut bits = vec![0u64; 2];
        members.iter().for_each(|&y| bits[y / 64] |= 1 << (y % 64));
        [Relation {
            instances: Instances::Set(bits.into()),
            wires: Wires { base: 0, len: 4 },
            from: Some((Source::Map(map.clone().into()), Wires { base: 4, len: 4 })),
            values: Values::Zero,
        }]
    };
    let shape_error = |members: &[usize]| {
        matches!(
            verify(shape, 4, &rel(members), &proof, 0, &mut Transcript::new(b"w")),
            Err(PiopError::BadShape(_))
        )
    };
    assert!(shape_error(&[3, 5]));
    assert!(
        !shape_error(&[3, 7]),
        "entries of instances outside the set are not read"
    );
}
