//! Prove and verify round trips for several batch sizes and both profiles.

use starling::inputs::random_sha256_inputs;
use starling::{prove_sha256, verify, Profile, ProofFile};

fn round_trip(n: usize, profile: Profile) {
    let inputs = random_sha256_inputs(n, n as u64);
    let proved = prove_sha256(inputs.clone(), profile, &mut |_| {}).expect("proving succeeds");
    let bytes = proved.file.to_bytes();
    let file = ProofFile::from_bytes(&bytes).expect("the file decodes");
    assert_eq!(file, proved.file);
    let verified = verify(&file).expect("the proof verifies");
    assert_eq!(verified.len(), n);
    let target = match profile {
        Profile::Default => 100.0,
        Profile::Secure => 120.0,
    };
    assert!(
        verified.security_bits() >= target,
        "{} bits",
        verified.security_bits()
    );
    for (inp, line) in inputs.iter().zip(verified.output_lines()) {
        let mut state = inp.cv;
        sha2::compress256(&mut state, &[inp.block.into()]);
        let expect: String = state.iter().map(|w| format!("{w:08x}")).collect();
        assert_eq!(line, expect);
    }
}

#[test]
fn one_compression_both_profiles() {
    round_trip(1, Profile::Default);
    round_trip(1, Profile::Secure);
}

#[test]
fn three_compressions_both_profiles() {
    round_trip(3, Profile::Default);
    round_trip(3, Profile::Secure);
}

#[test]
fn sixty_four_compressions_both_profiles() {
    round_trip(64, Profile::Default);
    round_trip(64, Profile::Secure);
}

#[test]
fn a_thousand_and_twenty_four_compressions_both_profiles() {
    round_trip(1024, Profile::Default);
    round_trip(1024, Profile::Secure);
}
