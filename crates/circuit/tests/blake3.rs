//! BLAKE3 compression gadget against the blake3 crate and the official test
//! vectors.

mod common;

use blake3::hazmat::HasherExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use starling_circuit::blake3::{
    compress_reference, state_to_bytes, Blake3Compression, Blake3Input, BLAKE3_IV, CHUNK_END, CHUNK_START,
    DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, KEYED_HASH, ROOT,
};
use starling_circuit::R1csWitness;

/// Words of a 32-byte key or chaining value (little-endian).
fn key_words(key: &[u8; 32]) -> [u32; 8] {
    std::array::from_fn(|j| u32::from_le_bytes(key[4 * j..4 * j + 4].try_into().unwrap()))
}

/// A single-block message (at most 64 bytes) as a compression input.
fn one_block(cv: [u32; 8], msg: &[u8], counter: u64, flags: u32) -> Blake3Input {
    assert!(msg.len() <= 64);
    let mut block = [0u8; 64];
    block[..msg.len()].copy_from_slice(msg);
    Blake3Input {
        cv,
        block: Blake3Input::words_from_bytes(&block),
        counter,
        block_len: msg.len() as u32,
        flags: flags | CHUNK_START | CHUNK_END,
    }
}

/// A compression input and the output bytes the blake3 crate gives for it
/// (64 bytes for root outputs, the 32-byte chaining value otherwise).
struct Case {
    input: Blake3Input,
    expected: Vec<u8>,
}

/// A random one-block case reachable through the blake3 crate's API: plain,
/// keyed and derive-key modes, root output blocks at a random counter, and
/// non-root chunk chaining values at a random (possibly > 2^32) chunk counter.
fn random_crate_case(rng: &mut ChaCha20Rng) -> Case {
    let len = rng.gen_range(0..=64usize);
    let mut msg = vec![0u8; len];
    rng.fill(&mut msg[..]);
    let key: [u8; 32] = rng.gen();
    let (mut hasher, cv, mode_flag) = match rng.gen_range(0..3) {
        0 => (blake3::Hasher::new(), BLAKE3_IV, 0),
        1 => (blake3::Hasher::new_keyed(&key), key_words(&key), KEYED_HASH),
        _ => (
            blake3::Hasher::new_from_context_key(&key),
            key_words(&key),
            DERIVE_KEY_MATERIAL,
        ),
    };
    if rng.gen_bool(0.5) || len == 0 {
        hasher.update(&msg);
        let counter = rng.gen_range(0..1u64 << 40);
        let mut reader = hasher.finalize_xof();
        reader.set_position(64 * counter);
        let mut expected = vec![0u8; 64];
        reader.fill(&mut expected);
        Case {
            input: one_block(cv, &msg, counter, mode_flag | ROOT),
            expected,
        }
    } else {
        let counter = rng.gen_range(1..1u64 << 50);
        hasher.set_input_offset(counter * 1024);
        hasher.update(&msg);
        Case {
            input: one_block(cv, &msg, counter, mode_flag),
            expected: hasher.finalize_non_root().to_vec(),
        }
    }
}

/// The constraint counts of the gadget. A change here changes proving cost:
/// update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let gadget = Blake3Compression::new();
    let r1cs = gadget.r1cs();
    r1cs.check_structure().unwrap();
    let max_row = (0..r1cs.num_wires())
        .map(|i| r1cs.a().row(i).len().max(r1cs.b().row(i).len()))
        .max()
        .unwrap();
    println!(
        "BLAKE3: k={} p={} AND rows={} committed wires={} linear rows={} nnz={} (A {} + B {} + N {}), longest row {}",
        r1cs.k(),
        r1cs.p(),
        r1cs.and_rows(),
        r1cs.committed_wires(),
        r1cs.linear_rows(),
        r1cs.nnz(),
        r1cs.a().nnz(),
        r1cs.b().nnz(),
        r1cs.addend().nnz(),
        max_row
    );
    assert_eq!((r1cs.k(), r1cs.p()), (14, 11));
    assert_eq!(r1cs.num_public_inputs(), 896);
    assert_eq!(r1cs.num_public_outputs(), 512);
    assert!(r1cs.and_rows() <= 10_500);
    assert_eq!(r1cs.and_rows(), 10_410);
    assert_eq!(r1cs.committed_wires(), 12_736);
    assert_eq!(r1cs.used_wires(), 12_736);
    assert_eq!(r1cs.linear_rows(), 1_429);
    assert_eq!(r1cs.nnz(), 154_240);
    assert_eq!(max_row, 16);
}

#[test]
fn reference_matches_blake3_crate() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for _ in 0..300 {
        let case = random_crate_case(&mut rng);
        let out = state_to_bytes(&compress_reference(&case.input));
        assert_eq!(
            &out[..case.expected.len()],
            &case.expected[..],
            "{:?}",
            case.input
        );
    }
}

#[test]
fn batch_matches_blake3_crate() {
    let gadget = Blake3Compression::new();
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let cases: Vec<Case> = (0..128).map(|_| random_crate_case(&mut rng)).collect();
    let inputs: Vec<Blake3Input> = cases.iter().map(|c| c.input).collect();
    let witness = gadget.generate_witness(7, &inputs).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    for (case, out) in cases.iter().zip(gadget.output_bytes(&witness)) {
        assert_eq!(
            &out[..case.expected.len()],
            &case.expected[..],
            "{:?}",
            case.input
        );
    }
}

#[test]
fn batch_matches_reference_on_arbitrary_inputs() {
    // Every input bit free: counters, lengths and flags outside what the hash
    // modes use still go through the same compression.
    let gadget = Blake3Compression::new();
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let inputs: Vec<Blake3Input> = (0..256)
        .map(|_| Blake3Input {
            cv: rng.gen(),
            block: rng.gen(),
            counter: rng.gen(),
            block_len: rng.gen(),
            flags: rng.gen(),
        })
        .collect();
    let witness = gadget.generate_witness(8, &inputs).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    for (input, out) in inputs.iter().zip(gadget.outputs(&witness)) {
        assert_eq!(out, compress_reference(input));
    }
}

#[test]
fn bit_sliced_matches_reference_evaluator() {
    let gadget = Blake3Compression::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(14);
    let inputs: Vec<Blake3Input> = (0..128).map(|_| random_crate_case(&mut rng).input).collect();
    let witness = gadget.generate_witness(7, &inputs).unwrap();
    for i in [0usize, 63, 64, 127] {
        let row = Blake3Compression::public_input_row(&inputs[i]);
        let bits: Vec<bool> = (0..896).map(|j| (row[j / 64] >> (j % 64)) & 1 == 1).collect();
        let z = r1cs.evaluate_instance(&bits, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        assert_eq!(witness.instance(i), z, "instance {i}");
    }
}

/// Every official vector whose input fits one block: `hash`, `keyed_hash`
/// and `derive_key` (two compressions: the context string, then the
/// material), each over its whole 131-byte extended output (output blocks
/// at counters 0, 1 and 2).
#[test]
fn official_test_vectors() {
    let Some(text) = common::read_vector("blake3/test_vectors.json") else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let key: [u8; 32] = json["key"].as_str().unwrap().as_bytes().try_into().unwrap();
    let context = json["context_string"].as_str().unwrap().as_bytes();
    let gadget = Blake3Compression::new();
    let run = |inputs: &[Blake3Input]| -> Vec<[u8; 64]> {
        let mut padded = inputs.to_vec();
        padded.resize(128, inputs[0]);
        let witness = gadget.generate_witness(7, &padded).unwrap();
        assert!(gadget.r1cs().is_satisfied(&witness));
        gadget.output_bytes(&witness)[..inputs.len()].to_vec()
    };
    // The derive-key context key: the context string hashed alone.
    assert!(context.len() <= 64);
    let context_key_bytes = run(&[one_block(BLAKE3_IV, context, 0, DERIVE_KEY_CONTEXT | ROOT)])[0];
    let context_key: [u8; 32] = context_key_bytes[..32].try_into().unwrap();

    let mut inputs = Vec::new();
    let mut expected = Vec::new();
    let mut checked = 0;
    for case in json["cases"].as_array().unwrap() {
        let len = case["input_len"].as_u64().unwrap() as usize;
        if len > 64 {
            continue;
        }
        checked += 1;
        let msg: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        for (field, cv, flags) in [
            ("hash", BLAKE3_IV, ROOT),
            ("keyed_hash", key_words(&key), KEYED_HASH | ROOT),
            ("derive_key", key_words(&context_key), DERIVE_KEY_MATERIAL | ROOT),
        ] {
            let want = hex::decode(case[field].as_str().unwrap()).unwrap();
            assert_eq!(want.len(), 131);
            for (counter, chunk) in want.chunks(64).enumerate() {
                inputs.push(one_block(cv, &msg, counter as u64, flags));
                expected.push((format!("{field} len {len} block {counter}"), chunk.to_vec()));
            }
        }
    }
    assert!(checked >= 5, "only {checked} one-block cases in the vectors");
    assert_eq!(one_block(key_words(&key), &[], 0, KEYED_HASH | ROOT).flags, 27);
    assert!(inputs.len() <= 128);
    for (out, (what, want)) in run(&inputs).iter().zip(&expected) {
        assert_eq!(&out[..want.len()], &want[..], "{what}");
    }
    println!(
        "checked {checked} one-block vectors ({} compressions)",
        inputs.len()
    );
}

#[test]
fn wrong_batch_size_is_an_error() {
    let gadget = Blake3Compression::new();
    assert!(gadget.generate_witness(7, &[Blake3Input::default(); 64]).is_err());
}
