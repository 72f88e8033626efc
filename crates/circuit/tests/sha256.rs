//! SHA-256 compression gadget against `sha2::compress256` and NIST vectors.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::sha256::{cv_to_bytes, Sha256Compression, SHA256_IV};
use starling_circuit::R1csWitness;

fn reference(cv: &[u32; 8], block: &[u8; 64]) -> [u32; 8] {
    let mut state = *cv;
    sha2::compress256(&mut state, &[*GenericArray::from_slice(block)]);
    state
}

fn random_instances(rng: &mut ChaCha20Rng, count: usize) -> Vec<([u32; 8], [u8; 64])> {
    (0..count)
        .map(|_| {
            let mut block = [0u8; 64];
            rng.fill(&mut block[..]);
            (std::array::from_fn(|_| rng.gen()), block)
        })
        .collect()
}

/// The constraint counts of the gadget. A change here changes proving cost:
/// update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let gadget = Sha256Compression::new();
    let r1cs = gadget.r1cs();
    r1cs.check_structure().unwrap();
    println!(
        "SHA-256: k={} p={} AND rows={} committed wires={} linear rows={} nnz={} (A {} + B {} + N {})",
        r1cs.k(),
        r1cs.p(),
        r1cs.and_rows(),
        r1cs.committed_wires(),
        r1cs.linear_rows(),
        r1cs.nnz(),
        r1cs.a().nnz(),
        r1cs.b().nnz(),
        r1cs.addend().nnz()
    );
    assert_eq!((r1cs.k(), r1cs.p()), (15, 11));
    assert_eq!(r1cs.num_public_inputs(), 768);
    assert_eq!(r1cs.num_public_outputs(), 256);
    assert!(r1cs.and_rows() <= 22_700);
    assert_eq!(r1cs.and_rows(), 22_573);
    assert_eq!(r1cs.committed_wires(), 23_774);
    assert_eq!(r1cs.used_wires(), 23_774);
    assert_eq!(r1cs.linear_rows(), 432);
    assert_eq!(r1cs.nnz(), 188_299);
}

#[test]
fn batch_matches_compress256() {
    let gadget = Sha256Compression::new();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for n in [7u32, 8] {
        let instances = random_instances(&mut rng, 1 << n);
        let witness = gadget.generate_witness(n, &instances).unwrap();
        assert!(gadget.r1cs().is_satisfied(&witness));
        let outputs = gadget.outputs(&witness);
        for ((cv, block), out) in instances.iter().zip(&outputs) {
            assert_eq!(*out, reference(cv, block));
        }
    }
}

#[test]
fn bit_sliced_matches_reference_evaluator() {
    let gadget = Sha256Compression::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let instances = random_instances(&mut rng, 128);
    let witness = gadget.generate_witness(7, &instances).unwrap();
    for i in [0usize, 63, 64, 127] {
        let row = Sha256Compression::public_input_row(&instances[i].0, &instances[i].1);
        let bits: Vec<bool> = (0..768).map(|j| (row[j / 64] >> (j % 64)) & 1 == 1).collect();
        let z = r1cs.evaluate_instance(&bits, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        assert_eq!(witness.instance(i), z, "instance {i}");
    }
}

/// Pads a message of at most 55 bytes into one block.
fn pad_one_block(msg: &[u8]) -> [u8; 64] {
    assert!(msg.len() <= 55);
    let mut block = [0u8; 64];
    block[..msg.len()].copy_from_slice(msg);
    block[msg.len()] = 0x80;
    block[56..].copy_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    block
}

#[test]
fn nist_short_messages() {
    let Some(text) = common::read_vector("sha256/SHA2_SHA256ShortMsg.rsp") else {
        return;
    };
    let mut cases = Vec::new();
    let mut len_bits = None;
    let mut msg = None;
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("Len = ") {
            len_bits = Some(v.parse::<usize>().unwrap());
        } else if let Some(v) = line.strip_prefix("Msg = ") {
            msg = Some(hex::decode(v).unwrap());
        } else if let Some(v) = line.strip_prefix("MD = ") {
            let len = len_bits.take().unwrap();
            let mut m = msg.take().unwrap();
            m.truncate(len / 8);
            assert_eq!(len % 8, 0, "byte-oriented vectors only");
            if len <= 447 {
                let md: [u8; 32] = hex::decode(v).unwrap().try_into().unwrap();
                cases.push((pad_one_block(&m), md));
            }
        }
    }
    assert!(cases.len() >= 50, "found only {} one-block messages", cases.len());
    // Pad the batch to 128 instances by repeating the cases.
    let instances: Vec<([u32; 8], [u8; 64])> =
        (0..128).map(|i| (SHA256_IV, cases[i % cases.len()].0)).collect();
    let gadget = Sha256Compression::new();
    let witness = gadget.generate_witness(7, &instances).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    let digests = gadget.output_bytes(&witness);
    for (i, digest) in digests.iter().enumerate() {
        assert_eq!(*digest, cases[i % cases.len()].1, "message {}", i % cases.len());
    }
    println!("checked {} NIST one-block messages", cases.len());
}

#[test]
fn cv_bytes_are_big_endian() {
    assert_eq!(&cv_to_bytes(&SHA256_IV)[..4], &[0x6a, 0x09, 0xe6, 0x67]);
}
