//! Hash chains end to end against the reference crates: `h(N)` for N in
//! {1, 2, 3, 1000} and every hash, verified against the expected start and N.
//! The values are a digest's size: 32 bytes, 64 for SHA-512.

use sha2::Digest;
use starling::{kind, prove, verify, Expected, Hash, Profile};

/// `h(N)` by the reference crates.
fn reference(hash: Hash, start: &[u8], steps: u64) -> Vec<u8> {
    let mut h = start.to_vec();
    for _ in 0..steps {
        h = match hash {
            Hash::Sha256 => sha2::Sha256::digest(&h).to_vec(),
            Hash::Sha512 => sha2::Sha512::digest(&h).to_vec(),
            Hash::Sha3_256 => sha3::Sha3_256::digest(&h).to_vec(),
            Hash::Keccak256 => sha3::Keccak256::digest(&h).to_vec(),
            Hash::Blake3 => blake3::hash(&h).as_bytes().to_vec(),
        };
    }
    h
}

#[test]
fn chains_of_every_hash_match_the_reference_crates() {
    for hash in Hash::ALL {
        for steps in [1u64, 2, 3, 1000] {
            let start: Vec<u8> = (0..hash.digest_bytes())
                .map(|i| (i as u8).wrapping_mul(31) ^ steps as u8)
                .collect();
            let k = kind::chain(hash);
            let text = format!("{} {steps}\n", hex::encode(&start));
            let expected = Expected::from_inputs_text(k.clone(), &text).unwrap();
            let proved = prove(k, expected.inputs().clone(), Profile::Default, &mut |_| {}).unwrap();
            let verified = verify(&expected, &proved.file.to_bytes()).expect("the chain verifies");
            assert_eq!(verified.count(), steps);
            assert_eq!(
                verified.output_lines(),
                vec![hex::encode(reference(hash, &start, steps))],
                "{} steps {steps}",
                hash.name()
            );
        }
    }
}
