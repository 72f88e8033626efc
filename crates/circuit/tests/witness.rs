//! Batched witness generation: satisfiability, tampering, linear forms,
//! private inputs and input validation.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use starling_circuit::blake3::Blake3Compression;
use starling_circuit::keccak::KeccakF1600;
use starling_circuit::layout::{slice_instances, unslice_instances};
use starling_circuit::sha256::Sha256Compression;
use starling_circuit::R1csWitness;
use starling_circuit::{CircuitBuilder, R1cs, Tables, WitnessError, Word};

/// out = (x + s) AND (y rotr 3), with x, y public and s private.
fn small_circuit() -> R1cs {
    let mut b = CircuitBuilder::new(64, 32);
    let x: Word = b.public_input_word(0);
    let y: Word = b.public_input_word(32);
    let s: Word = b.private_input_word();
    let sum = b.add(&x, &s);
    let sum = b.materialize_word(&sum);
    let out = b.and_word(&sum, &y.rotr(3));
    b.set_public_output_word(0, &out);
    let r1cs = b.compile().unwrap();
    r1cs.check_structure().unwrap();
    r1cs
}

#[test]
fn private_inputs_and_outputs_roundtrip() {
    let r1cs = small_circuit();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let n = 8;
    let count = 1usize << n;
    let xy: Vec<u64> = (0..count).map(|_| rng.gen()).collect();
    let s: Vec<u64> = (0..count).map(|_| u64::from(rng.gen::<u32>())).collect();
    let witness = r1cs
        .generate_witness(
            n,
            &slice_instances(count, 64, &xy),
            &slice_instances(count, 32, &s),
        )
        .unwrap();
    assert!(r1cs.is_satisfied(&witness));
    let outs = unslice_instances(count, 32, r1cs.public_outputs(&witness));
    for i in 0..count {
        let (x, y) = (xy[i] as u32, (xy[i] >> 32) as u32);
        let want = x.wrapping_add(s[i] as u32) & y.rotate_right(3);
        assert_eq!(outs[i], u64::from(want), "instance {i}");
    }
    assert_eq!(
        r1cs.public_inputs(&witness),
        slice_instances(count, 64, &xy).as_slice()
    );
}

#[test]
fn linear_forms_are_consistent() {
    let gadget = Sha256Compression::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    let instances: Vec<([u32; 8], [u8; 64])> = (0..128)
        .map(|_| {
            let mut block = [0u8; 64];
            rng.fill(&mut block[..]);
            (std::array::from_fn(|_| rng.gen()), block)
        })
        .collect();
    let witness = gadget.generate_witness(7, &instances).unwrap();
    let [a, b, c] = r1cs.linear_forms(&witness);
    assert!(r1cs.has_addends());
    assert!(a.iter().zip(&b).zip(&c).all(|((a, b), c)| a & b == *c));
    // Spot-check against the scalar rows.
    for (instance, wire) in [(0usize, 0usize), (5, 1), (77, 3000), (127, 20000), (64, 32767)] {
        let zi = witness.instance(instance);
        let form = |row: &[u32]| row.iter().fold(false, |x, &i| x ^ zi[i as usize]);
        let want_c = zi[wire] ^ form(r1cs.addend().row(wire));
        let idx = instance + 128 * wire;
        for (got, want) in [
            (&a, form(r1cs.a().row(wire))),
            (&b, form(r1cs.b().row(wire))),
            (&c, want_c),
        ] {
            assert_eq!((got[idx / 64] >> (idx % 64)) & 1 == 1, want);
        }
    }
}

#[test]
fn flipping_any_kind_of_bit_breaks_satisfiability() {
    let r1cs = small_circuit();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let n = 7;
    let xy: Vec<u64> = (0..128).map(|_| rng.gen()).collect();
    let s: Vec<u64> = (0..128).map(|_| u64::from(rng.gen::<u32>())).collect();
    let witness = r1cs
        .generate_witness(n, &slice_instances(128, 64, &xy), &slice_instances(128, 32, &s))
        .unwrap();
    assert!(r1cs.is_satisfied(&witness));
    // Constant wire, public input, public output, padding, private input,
    // AND wire, materialised wire, last wire.
    let private = r1cs.private_input_wires()[0] as usize;
    let wires = [
        0,
        1,
        65,
        100,
        private,
        private + 33,
        r1cs.eval_order()[40] as usize,
        r1cs.num_wires() - 1,
    ];
    for wire in wires {
        for instance in [0usize, 63, 64, 127] {
            let mut bad = witness.clone();
            let idx = instance + 128 * wire;
            bad.words_mut()[idx / 64] ^= 1 << (idx % 64);
            // Flipping an input changes the row of some later wire; any other
            // flip breaks the wire's own row.
            assert!(
                !r1cs.is_satisfied(&bad),
                "flip of wire {wire} instance {instance} accepted"
            );
        }
    }
    // The all-zero witness satisfies A z ∘ B z = z but not z[0] = 1.
    let zero = starling_circuit::BatchWitness::from_words(r1cs.k(), n, vec![0; witness.words().len()]);
    assert!(!r1cs.is_satisfied(&zero));
}

#[test]
fn bad_batch_inputs_are_errors() {
    let r1cs = small_circuit();
    assert_eq!(
        r1cs.generate_witness(6, &[], &[]).unwrap_err(),
        WitnessError::BadLogInstances(6)
    );
    assert!(matches!(
        r1cs.generate_witness(7, &[0; 10], &[0; 64]),
        Err(WitnessError::InputLength { expected: 128, .. })
    ));
    assert!(matches!(
        r1cs.generate_witness(7, &[0; 128], &[0; 63]),
        Err(WitnessError::InputLength { expected: 64, .. })
    ));
}

#[test]
fn lane_widths_agree() {
    // On one thread, N = 2^7 .. 2^14 give the generator blocks of 2, 4, 8,
    // 16, 32 and 64 words (its buffer is small for this circuit) and the
    // checker blocks of 2 to 16; the first 128 instances must come out the
    // same in every batch size.
    let r1cs = small_circuit();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let xy: Vec<u64> = (0..1 << 14).map(|_| rng.gen()).collect();
    let s: Vec<u64> = (0..1 << 14).map(|_| u64::from(rng.gen::<u32>())).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let mut first: Option<Vec<u64>> = None;
    for n in 7..=14u32 {
        let count = 1usize << n;
        let w = pool
            .install(|| {
                r1cs.generate_witness(
                    n,
                    &slice_instances(count, 64, &xy[..count]),
                    &slice_instances(count, 32, &s[..count]),
                )
            })
            .unwrap();
        assert!(r1cs.is_satisfied(&w));
        let outs = unslice_instances(count, 32, r1cs.public_outputs(&w));
        match &first {
            None => first = Some(outs[..128].to_vec()),
            Some(f) => assert_eq!(&outs[..128], f.as_slice()),
        }
    }
}

/// Random bit-sliced public and private inputs of `small_circuit` for `2^n`
/// instances.
fn small_circuit_inputs(seed: u64, n: u32) -> (Vec<u64>, Vec<u64>) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let count = 1usize << n;
    let xy: Vec<u64> = (0..count).map(|_| rng.gen()).collect();
    let s: Vec<u64> = (0..count).map(|_| u64::from(rng.gen::<u32>())).collect();
    (slice_instances(count, 64, &xy), slice_instances(count, 32, &s))
}

#[test]
fn witness_and_forms_are_the_same_on_any_number_of_threads() {
    // N = 2^14: 256 words per wire. The generator cuts them into four
    // blocks of 64 words, one per range, on one and on three threads, into
    // eight ranges of one 32-word block on eight, and into thirty-two of one
    // 8-word block on thirty-two (past the sixteen ranges the split once
    // stopped at); the two-pass forms into four ranges of four 16-word
    // blocks on one thread and sixteen of one on three, eight and
    // thirty-two.
    let r1cs = small_circuit();
    let n = 14;
    let (public, private) = small_circuit_inputs(9, n);
    let generate = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let witness = r1cs.generate_witness(n, &public, &private).unwrap();
            let [a, b, c] = r1cs.linear_forms(&witness);
            (witness, a, b, c)
        })
    };
    let (witness, a, b, c) = generate(1);
    assert!(r1cs.is_satisfied(&witness));
    // Every row is an AND of its two forms (the constant's are both ones,
    // padding's both zero), the addition's with an addend.
    assert!(r1cs.has_addends() && c != witness.words());
    for ((&c, &x), &y) in c.iter().zip(&a).zip(&b) {
        assert_eq!(x & y, c);
    }
    for threads in [3, 8, 32] {
        assert_eq!(
            generate(threads),
            (witness.clone(), a.clone(), b.clone(), c.clone()),
            "{threads} threads"
        );
    }
}

#[test]
fn digest_is_stable_and_sensitive() {
    let a = small_circuit();
    assert_eq!(a.digest(), small_circuit().digest());
    let sha = Sha256Compression::new();
    assert_ne!(a.digest(), sha.r1cs().digest());
    assert_eq!(sha.r1cs().digest(), Sha256Compression::new().r1cs().digest());
}

#[test]
fn buffers_given_to_the_generator_and_the_forms_need_no_clearing() {
    // Every entry below the zero tail is written, padding rows included:
    // buffers full of ones end up the witness there; the tail is never
    // touched. The forms' pass writes every entry.
    let r1cs = small_circuit();
    let n = 9;
    let (public, private) = small_circuit_inputs(12, n);
    let witness = r1cs.generate_witness(n, &public, &private).unwrap();
    let tail = r1cs.used_wires() * witness.words_per_wire();
    let mut words = ones_but_tail(witness.words().len(), tail);
    r1cs.generate_witness_into(n, &public, &private, &mut words)
        .unwrap();
    assert_written_below_tail("small", &words, witness.words(), tail);
    let [a, b, _] = r1cs.linear_forms(&witness);
    let (mut a2, mut b2) = (vec![u64::MAX; a.len()], vec![u64::MAX; b.len()]);
    r1cs.linear_forms_into(witness.words_per_wire(), witness.words(), &mut a2, &mut b2);
    assert!(a2 == a && b2 == b);
}

/// A word the generator never writes.
const UNTOUCHED: u64 = 0x5a5a_5a5a_5a5a_5a5a;

/// `len` words: all ones below `tail`, [`UNTOUCHED`] from there on.
fn ones_but_tail(len: usize, tail: usize) -> Vec<u64> {
    let mut v = vec![u64::MAX; len];
    v[tail..].fill(UNTOUCHED);
    v
}

/// `got` is `want` below `tail` and untouched from there on (where `want`
/// is zero).
fn assert_written_below_tail(what: &str, got: &[u64], want: &[u64], tail: usize) {
    assert!(tail < got.len(), "{what}: the circuit has a zero tail");
    assert!(got[..tail] == want[..tail], "{what}: below the tail");
    assert!(want[tail..].iter().all(|&w| w == 0), "{what}: the tail is zero");
    assert!(
        got[tail..].iter().all(|&w| w == UNTOUCHED),
        "{what}: the tail untouched"
    );
}

#[test]
fn c_words_of_any_range_are_those_of_c() {
    // SHA-256's additions have addends, so `c` differs from `z`; ranges
    // start and end inside wires and span several.
    let sha = Sha256Compression::new();
    let r1cs = sha.r1cs();
    let instances: Vec<([u32; 8], [u8; 64])> = (0..512u32).map(|i| ([i; 8], [i as u8; 64])).collect();
    let witness = sha.generate_witness(9, &instances).unwrap();
    let [a, b, c] = r1cs.linear_forms(&witness);
    assert!(r1cs.has_addends() && c != witness.words());
    assert!(r1cs.is_satisfied(&witness));
    assert!(a.iter().zip(&b).zip(&c).all(|((a, b), c)| a & b == *c));
    let w = witness.words_per_wire();
    for (start, len) in [
        (0, 1),
        (3, 5),
        (8 * 100 + 7, 8 * 3 + 2),
        (8 * 1234, 8),
        (c.len() - 9, 9),
    ] {
        let mut out = vec![u64::MAX; len];
        r1cs.c_words_into(w, witness.words(), start, &mut out);
        assert_eq!(out, c[start..start + len], "{start} + {len}");
    }
}

/// The fused pass, and the witness and forms passes apart, against the
/// witness and then its forms.
fn check_fused(what: &str, r1cs: &R1cs, n: u32, public: &[u64], private: &[u64]) {
    let witness = r1cs.generate_witness(n, public, private).unwrap();
    let [a, b, _] = r1cs.linear_forms(&witness);
    // Buffers full of ones: every entry below the zero tail must be
    // written, and none past it.
    let tail = r1cs.used_wires() * witness.words_per_wire();
    let [mut z2, mut a2, mut b2] = [(); 3].map(|_| ones_but_tail(a.len(), tail));
    r1cs.generate_witness_and_forms_into(n, public, private, &mut z2, &mut a2, &mut b2)
        .unwrap();
    assert_written_below_tail(&format!("{what}, n = {n}: witness"), &z2, witness.words(), tail);
    assert_written_below_tail(&format!("{what}, n = {n}: a"), &a2, &a, tail);
    assert_written_below_tail(&format!("{what}, n = {n}: b"), &b2, &b, tail);
    // The witness alone, then the forms alone (a prover holding two tables
    // at a time): the same entries, the tails untouched.
    let [mut z3, mut a3, mut b3] = [(); 3].map(|_| ones_but_tail(a.len(), tail));
    let alone = Tables {
        z: Some(&mut z3),
        forms: None,
        b_and_stored: None,
    };
    r1cs.generate_tables_into(n, public, private, None, alone)
        .unwrap();
    let forms = Tables {
        z: None,
        forms: Some((&mut a3, &mut b3)),
        b_and_stored: None,
    };
    r1cs.generate_tables_into(n, public, private, None, forms)
        .unwrap();
    assert_written_below_tail(
        &format!("{what}, n = {n}: witness alone"),
        &z3,
        witness.words(),
        tail,
    );
    assert_written_below_tail(&format!("{what}, n = {n}: a alone"), &a3, &a, tail);
    assert_written_below_tail(&format!("{what}, n = {n}: b alone"), &b3, &b, tail);
}

#[test]
fn witness_and_forms_in_one_pass_are_those_of_two() {
    // Blocks of two, four and sixteen words (n = 7, 8, 10), and at 2^14 a
    // range of sixteen blocks per task; every built-in hash's circuit
    // (their inputs: any bits) and one with private inputs.
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let circuits = [
        ("SHA-256", Sha256Compression::new().r1cs().clone()),
        ("BLAKE3", Blake3Compression::new().r1cs().clone()),
        ("Keccak-f", KeccakF1600::new().r1cs().clone()),
    ];
    for n in [7, 8, 10] {
        for (what, r1cs) in &circuits {
            let public: Vec<u64> = (0..r1cs.num_public_inputs() << (n - 6))
                .map(|_| rng.gen())
                .collect();
            check_fused(what, r1cs, n, &public, &[]);
        }
    }
    for n in [7, 10, 14] {
        let (public, private) = small_circuit_inputs(14, n);
        check_fused("small", &small_circuit(), n, &public, &private);
    }
}

#[test]
fn the_fused_pass_refuses_forms_of_the_wrong_length() {
    let r1cs = small_circuit();
    let (public, private) = small_circuit_inputs(15, 7);
    let len = r1cs.num_wires() << 1;
    let [mut z, mut a, mut b] = [len, len, len - 1].map(|l| vec![0u64; l]);
    assert_eq!(
        r1cs.generate_witness_and_forms_into(7, &public, &private, &mut z, &mut a, &mut b),
        Err(WitnessError::OutputLength {
            got: len - 1,
            expected: len
        })
    );
}
