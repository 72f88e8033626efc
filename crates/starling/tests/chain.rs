//! Hash chains end to end against the reference crates: `h(N)` for N in
//! {1, 2, 3, 1000} and every hash, verified against the expected start and N.

use sha2::Digest;
use starling::{kind, prove, verify, Expected, Hash, Profile};

/// `h(N)` by the reference crates.
fn reference(hash: Hash, start: [u8; 32], steps: u64) -> [u8; 32] {
    let mut h = start;
    for _ in 0..steps {
        h = match hash {
            Hash::Sha256 => sha2::Sha256::digest(h).into(),
            Hash::Sha3_256 => sha3::Sha3_256::digest(h).into(),
            Hash::Keccak256 => sha3::Keccak256::digest(h).into(),
            Hash::Blake3 => *blake3::hash(&h).as_bytes(),
        };
    }
    h
}

#[test]
fn chains_of_every_hash_match_the_reference_crates() {
    for hash in Hash::ALL {
        for steps in [1u64, 2, 3, 1000] {
            let start: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ steps as u8);
            let k = kind::chain(hash);
            let text = format!("{} {steps}\n", hex::encode(start));
            let expected = Expected::from_inputs_text(k.clone(), &text).unwrap();
            let proved = prove(k, expected.inputs().clone(), Profile::Default, &mut |_| {}).unwrap();
            let verified = verify(&expected, &proved.file.to_bytes()).expect("the chain verifies");
            assert_eq!(verified.count(), steps);
            assert_eq!(
                verified.output_lines(),
                vec![hex::encode(reference(hash, start, steps))],
                "{} steps {steps}",
                hash.name()
            );
        }
    }
}
