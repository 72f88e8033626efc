//! The SHA-256 + SHA-512 pair circuit: each lane against the `sha2` crate's
//! compression, on random inputs, and the constraint counts.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::sha2_pair::{SHA256_INPUT_BYTES, SHA256_OUTPUT_BYTES};
use starling_circuit::Sha2Pair;

fn bits(bytes: &[u8]) -> Vec<bool> {
    bytes
        .iter()
        .flat_map(|b| (0..8).map(move |t| b >> t & 1 == 1))
        .collect()
}

fn be32(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_be_bytes()).collect()
}

fn be64(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_be_bytes()).collect()
}

#[test]
fn lanes_match_sha2() {
    let pair = Sha2Pair::new();
    let r1cs = pair.r1cs();
    r1cs.check_structure().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..3 {
        let cv256: [u32; 8] = rng.gen();
        let block256: [u8; 64] = std::array::from_fn(|_| rng.gen());
        let cv512: [u64; 8] = rng.gen();
        let block512: [u8; 128] = std::array::from_fn(|_| rng.gen());
        let input = [be32(&cv256), block256.to_vec(), be64(&cv512), block512.to_vec()].concat();
        let z = r1cs.evaluate_instance(&bits(&input), &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        let mut s256 = cv256;
        sha2::compress256(&mut s256, &[*GenericArray::from_slice(&block256)]);
        let mut s512 = cv512;
        sha2::compress512(&mut s512, &[*GenericArray::from_slice(&block512)]);
        let want = [be32(&s256), be64(&s512)].concat();
        let got: Vec<bool> = (0..r1cs.num_public_outputs())
            .map(|j| z[r1cs.public_output_wire(j)])
            .collect();
        assert_eq!(got, bits(&want));
        assert_eq!(want.len(), SHA256_OUTPUT_BYTES + 64);
        assert_eq!(input.len(), SHA256_INPUT_BYTES + 192);
    }
}

/// The pair costs the sum of its compressions. A change here changes
/// proving cost: update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let r1cs = Sha2Pair::new().into_r1cs();
    println!(
        "SHA-256 + SHA-512: k={} p={} AND rows={} committed wires={} used wires={} nnz={}",
        r1cs.k(),
        r1cs.p(),
        r1cs.and_rows(),
        r1cs.committed_wires(),
        r1cs.used_wires(),
        r1cs.nnz()
    );
    assert_eq!((r1cs.k(), r1cs.p()), (17, 12));
    assert_eq!(r1cs.and_rows(), 80_520);
    assert_eq!(r1cs.committed_wires(), 83_993);
    assert_eq!(r1cs.used_wires(), 83_993);
    assert_eq!(r1cs.nnz(), 666_414);
}
