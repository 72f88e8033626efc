//! Bristol Fashion circuits compiled to R1CS and run through the batched
//! witness generator, against sha2, FIPS-197 AES-128, integer arithmetic
//! and the plain Bristol evaluator.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::bristol::{be_bytes_from_bits, bits_from_be_bytes, bits_from_u64, u64_from_bits};
use starling_circuit::bristol_compile::{compile_bristol_with, DEFAULT_POLICIES};
use starling_circuit::sha256::cv_to_bytes;
use starling_circuit::{BristolCircuit, BristolR1cs};
use starling_circuit::{BristolWitness, R1csWitness};

fn load(name: &str) -> Option<BristolCircuit> {
    let text = common::read_vector(&format!("bristol/{name}"))?;
    Some(BristolCircuit::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Compiles, checks the structure, and runs `instances` (padded to 128 by
/// repetition) through the batched witness; returns the outputs and checks
/// every instance against the plain Bristol evaluator.
fn run_batch(
    circuit: &BristolCircuit,
    compiled: &BristolR1cs,
    instances: &[Vec<Vec<bool>>],
) -> Vec<Vec<Vec<bool>>> {
    let padded: Vec<Vec<Vec<bool>>> = (0..128).map(|i| instances[i % instances.len()].clone()).collect();
    let witness = compiled.generate_witness(7, &padded).unwrap();
    assert!(compiled.r1cs().is_satisfied(&witness));
    let outputs = compiled.outputs(&witness);
    for (inputs, out) in padded.iter().zip(&outputs) {
        assert_eq!(&circuit.evaluate(inputs).unwrap(), out);
    }
    outputs[..instances.len()].to_vec()
}

fn compiled(circuit: &BristolCircuit) -> BristolR1cs {
    let c = BristolR1cs::new(circuit).unwrap();
    c.r1cs().check_structure().unwrap();
    assert_eq!(c.r1cs().and_rows(), circuit.and_count());
    c
}

#[test]
fn sha256_circuit_matches_compress256() {
    let Some(circuit) = load("sha256.txt") else {
        return;
    };
    let compiled = compiled(&circuit);
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let cases: Vec<([u32; 8], [u8; 64])> = (0..128)
        .map(|_| {
            let mut block = [0u8; 64];
            rng.fill(&mut block[..]);
            (rng.gen(), block)
        })
        .collect();
    // Block, then chaining value, each as its ordinary bytes.
    let instances: Vec<Vec<Vec<bool>>> = cases
        .iter()
        .map(|(cv, block)| vec![bits_from_be_bytes(block), bits_from_be_bytes(&cv_to_bytes(cv))])
        .collect();
    let outputs = run_batch(&circuit, &compiled, &instances);
    for ((cv, block), out) in cases.iter().zip(&outputs) {
        let mut state = *cv;
        sha2::compress256(&mut state, &[*GenericArray::from_slice(block)]);
        assert_eq!(be_bytes_from_bits(&out[0]), cv_to_bytes(&state));
    }
}

#[test]
fn aes_128_matches_fips_197() {
    let Some(circuit) = load("aes_128.txt") else {
        return;
    };
    let compiled = compiled(&circuit);
    // FIPS-197 Appendix C.1 and Appendix B: (key, plaintext, ciphertext).
    let vectors = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "3243f6a8885a308d313198a2e0370734",
            "3925841d02dc09fbdc118597196a0b32",
        ),
    ];
    let instances: Vec<Vec<Vec<bool>>> = vectors
        .iter()
        .map(|(key, pt, _)| {
            vec![
                bits_from_be_bytes(&hex::decode(key).unwrap()),
                bits_from_be_bytes(&hex::decode(pt).unwrap()),
            ]
        })
        .collect();
    let outputs = run_batch(&circuit, &compiled, &instances);
    for ((_, _, ct), out) in vectors.iter().zip(&outputs) {
        assert_eq!(hex::encode(be_bytes_from_bits(&out[0])), *ct);
    }
}

fn random_u64s(rng: &mut ChaCha20Rng) -> Vec<u64> {
    let mut values: Vec<u64> = vec![0, 1, u64::MAX, 1 << 63, 0x7fff_ffff_ffff_ffff];
    values.extend((0..123).map(|_| rng.gen::<u64>()));
    values
}

/// A circuit file and the integer operation it computes.
type BinaryCase = (&'static str, fn(u64, u64) -> u64);
type UnaryCase = (&'static str, fn(u64) -> u64);

#[test]
fn arithmetic_circuits_match_integers() {
    let mut rng = ChaCha20Rng::seed_from_u64(32);
    let binary: [BinaryCase; 3] = [
        ("adder64.txt", u64::wrapping_add),
        ("sub64.txt", u64::wrapping_sub),
        ("mult64.txt", u64::wrapping_mul),
    ];
    for (name, op) in binary {
        let Some(circuit) = load(name) else {
            return;
        };
        let compiled = compiled(&circuit);
        let xs = random_u64s(&mut rng);
        let ys = random_u64s(&mut rng);
        let instances: Vec<Vec<Vec<bool>>> = xs
            .iter()
            .zip(ys.iter().rev())
            .map(|(&x, &y)| vec![bits_from_u64(x, 64), bits_from_u64(y, 64)])
            .collect();
        let outputs = run_batch(&circuit, &compiled, &instances);
        for ((x, y), out) in xs.iter().zip(ys.iter().rev()).zip(&outputs) {
            assert_eq!(u64_from_bits(&out[0]), op(*x, *y), "{name} {x} {y}");
        }
    }
    let unary: [UnaryCase; 2] = [
        ("neg64.txt", u64::wrapping_neg),
        ("zero_equal.txt", |x| u64::from(x == 0)),
    ];
    for (name, op) in unary {
        let Some(circuit) = load(name) else {
            return;
        };
        let compiled = compiled(&circuit);
        let xs = random_u64s(&mut rng);
        let instances: Vec<Vec<Vec<bool>>> = xs.iter().map(|&x| vec![bits_from_u64(x, 64)]).collect();
        let outputs = run_batch(&circuit, &compiled, &instances);
        for (x, out) in xs.iter().zip(&outputs) {
            assert_eq!(u64_from_bits(&out[0]), op(*x), "{name} {x}");
        }
    }
}

#[test]
fn every_gate_kind_compiles() {
    // Inputs a (wire 0) and b (wire 1); the outputs are the last six wires.
    let text = "7 10\n2 1 1\n1 6\n\n\
        2 1 0 1 2 XOR\n\
        1 1 0 3 INV\n\
        4 2 0 1 1 0 4 5 MAND\n\
        2 1 3 1 6 AND\n\
        1 1 2 7 EQW\n\
        1 1 1 8 NOT\n\
        1 1 1 9 EQ\n";
    let circuit = BristolCircuit::parse(text).unwrap();
    let compiled = compiled(&circuit);
    assert_eq!(compiled.r1cs().and_rows(), 3);
    let instances: Vec<Vec<Vec<bool>>> = [(false, false), (false, true), (true, false), (true, true)]
        .iter()
        .map(|&(a, b)| vec![vec![a], vec![b]])
        .collect();
    let outputs = run_batch(&circuit, &compiled, &instances);
    for (inputs, out) in instances.iter().zip(&outputs) {
        let (a, b) = (inputs[0][0], inputs[1][0]);
        assert_eq!(out, &vec![vec![a & b, b & a, !a & b, a ^ b, !b, true]]);
    }
    // Wrong shapes are errors, not panics.
    assert!(compiled.public_input_row(&[vec![true]]).is_none());
    assert!(compiled.generate_witness(7, &instances).is_err());
    assert!(compiled.generate_witness(3, &instances[..]).is_err());
}

/// `(k, p, AND rows, committed wires, nnz)`.
type Counts = (u32, u32, usize, usize, usize);

/// Constraint counts of the compiled reference circuits. A change here
/// changes proving cost: update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let expected: [(&str, Counts); 7] = [
        ("sha256.txt", (16, 11, 22_573, 32_818, 329_478)),
        ("aes_128.txt", (14, 9, 6_400, 10_150, 98_529)),
        ("adder64.txt", (9, 8, 63, 255, 823)),
        ("sub64.txt", (9, 8, 63, 255, 886)),
        ("mult64.txt", (13, 8, 4_033, 4_674, 24_692)),
        ("neg64.txt", (9, 8, 62, 190, 568)),
        ("zero_equal.txt", (8, 7, 63, 128, 320)),
    ];
    let mut mismatches = Vec::new();
    for (name, want) in expected {
        let Some(circuit) = load(name) else {
            return;
        };
        for policy in DEFAULT_POLICIES {
            let r = compile_bristol_with(&circuit, policy).unwrap();
            r.check_structure().unwrap();
            println!(
                "  {name} {policy:?}: k={} committed={} nnz={}",
                r.k(),
                r.committed_wires(),
                r.nnz()
            );
        }
        let r = compiled(&circuit).into_r1cs();
        let got = (r.k(), r.p(), r.and_rows(), r.committed_wires(), r.nnz());
        println!(
            "{name}: k={} p={} AND rows={} committed wires={} nnz={}",
            got.0, got.1, got.2, got.3, got.4
        );
        if got != want {
            mismatches.push(format!("{name}: got {got:?}, expected {want:?}"));
        }
    }
    // Every circuit's counts are printed before any mismatch fails the test.
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

/// Every policy, not only the one [`compile_bristol`] keeps, computes the
/// circuit: products left without a row until their readers are known
/// (addends) and the materialisations differ from policy to policy.
#[test]
fn every_policy_computes_the_circuit() {
    let mut rng = ChaCha20Rng::seed_from_u64(41);
    for name in [
        "sha256.txt",
        "aes_128.txt",
        "adder64.txt",
        "sub64.txt",
        "mult64.txt",
        "neg64.txt",
        "zero_equal.txt",
    ] {
        let Some(circuit) = load(name) else {
            return;
        };
        for policy in DEFAULT_POLICIES {
            let r1cs = compile_bristol_with(&circuit, policy).unwrap();
            r1cs.check_structure().unwrap();
            for _ in 0..4 {
                let inputs: Vec<Vec<bool>> = circuit
                    .input_sizes()
                    .iter()
                    .map(|&n| (0..n).map(|_| rng.gen()).collect())
                    .collect();
                let z = r1cs.evaluate_instance(&inputs.concat(), &[]);
                assert!(r1cs.is_satisfied_instance(&z), "{name} {policy:?}");
                let outputs: Vec<bool> = (0..r1cs.num_public_outputs())
                    .map(|j| z[r1cs.public_output_wire(j)])
                    .collect();
                assert_eq!(
                    outputs,
                    circuit.evaluate(&inputs).unwrap().concat(),
                    "{name} {policy:?}"
                );
            }
        }
    }
}
