//! SHA-512 compression gadget against `sha2::compress512` and the FIPS 180-4
//! examples.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::sha512::{cv_to_bytes, Sha512Compression, SHA512_IV};
use starling_circuit::R1csWitness;

fn reference(cv: &[u64; 8], block: &[u8; 128]) -> [u64; 8] {
    let mut state = *cv;
    sha2::compress512(&mut state, &[*GenericArray::from_slice(block)]);
    state
}

fn random_instances(rng: &mut ChaCha20Rng, count: usize) -> Vec<([u64; 8], [u8; 128])> {
    (0..count)
        .map(|_| {
            let mut block = [0u8; 128];
            rng.fill(&mut block[..]);
            (std::array::from_fn(|_| rng.gen()), block)
        })
        .collect()
}

/// The constraint counts of the gadget. A change here changes proving cost:
/// update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let gadget = Sha512Compression::new();
    let r1cs = gadget.r1cs();
    r1cs.check_structure().unwrap();
    println!(
        "SHA-512: k={} p={} AND rows={} committed wires={} linear rows={} nnz={} (A {} + B {} + N {})",
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
    assert_eq!((r1cs.k(), r1cs.p()), (16, 12));
    assert_eq!(r1cs.num_public_inputs(), 1536);
    assert_eq!(r1cs.num_public_outputs(), 512);
    // 80 rounds of 7 additions and 2 bitwise ANDs, 64 scheduled words of 3
    // additions, 8 feed-forward additions: under 1,100·63 + 160·64.
    assert_eq!(r1cs.and_rows(), 57_947);
    assert_eq!(r1cs.committed_wires(), 60_220);
    assert_eq!(r1cs.used_wires(), 60_220);
    // a and e of every round and each scheduled word (bit 0 of a sum), and
    // the 512 output bits.
    assert_eq!(r1cs.linear_rows(), 736);
    assert_eq!(r1cs.nnz(), 478_117);
}

#[test]
fn batch_matches_compress512() {
    let gadget = Sha512Compression::new();
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
    let gadget = Sha512Compression::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let instances = random_instances(&mut rng, 128);
    let witness = gadget.generate_witness(7, &instances).unwrap();
    for i in [0usize, 63, 64, 127] {
        let row = Sha512Compression::public_input_row(&instances[i].0, &instances[i].1);
        let bits: Vec<bool> = (0..1536).map(|j| (row[j / 64] >> (j % 64)) & 1 == 1).collect();
        let z = r1cs.evaluate_instance(&bits, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        assert_eq!(witness.instance(i), z, "instance {i}");
    }
}

#[test]
fn a_wrong_output_bit_breaks_the_witness() {
    let gadget = Sha512Compression::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let instances = random_instances(&mut rng, 1);
    let row = Sha512Compression::public_input_row(&instances[0].0, &instances[0].1);
    let bits: Vec<bool> = (0..1536).map(|j| (row[j / 64] >> (j % 64)) & 1 == 1).collect();
    let mut z = r1cs.evaluate_instance(&bits, &[]);
    z[r1cs.public_output_wire(300)] ^= true;
    assert!(!r1cs.is_satisfied_instance(&z));
}

/// Pads a message into SHA-512 blocks (FIPS 180-4 §5.1.2: `0x80`, zeros,
/// the 128-bit big-endian bit length).
fn pad(msg: &[u8]) -> Vec<[u8; 128]> {
    let mut bytes = msg.to_vec();
    bytes.push(0x80);
    while bytes.len() % 128 != 112 {
        bytes.push(0);
    }
    bytes.extend_from_slice(&((msg.len() as u128) * 8).to_be_bytes());
    bytes.chunks_exact(128).map(|c| c.try_into().unwrap()).collect()
}

/// The FIPS 180-4 examples (the NIST "Example Algorithm" pages for SHA-512):
/// "abc" in one block, the 112-byte message in two, and the empty message.
const EXAMPLES: [(&str, &str); 3] = [
    (
        "abc",
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
         2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ),
    (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno\
         ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018\
         501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ),
    (
        "",
        "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
         47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
    ),
];

/// Every block of every example is an instance; a later block's chaining
/// value is the circuit's own output for the block before it.
#[test]
fn fips_180_4_examples() {
    let gadget = Sha512Compression::new();
    let mut instances = Vec::new();
    let mut last = Vec::new();
    for (msg, _) in EXAMPLES {
        let mut cv = SHA512_IV;
        for block in pad(msg.as_bytes()) {
            instances.push((cv, block));
            cv = reference(&cv, &block);
        }
        last.push(instances.len() - 1);
    }
    assert_eq!(instances.len(), 4);
    let used = instances.len();
    instances.resize(128, ([0; 8], [0; 128]));
    let witness = gadget.generate_witness(7, &instances).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    let digests = gadget.output_bytes(&witness);
    for y in 1..used {
        if !last.contains(&(y - 1)) {
            assert_eq!(cv_to_bytes(&instances[y].0), digests[y - 1], "chaining into {y}");
        }
    }
    for ((msg, md), y) in EXAMPLES.iter().zip(&last) {
        assert_eq!(hex::encode(digests[*y]), *md, "{msg:?}");
    }
}

#[test]
fn cv_bytes_are_big_endian() {
    assert_eq!(
        &cv_to_bytes(&SHA512_IV)[..8],
        &[0x6a, 0x09, 0xe6, 0x67, 0xf3, 0xbc, 0xc9, 0x08]
    );
}
