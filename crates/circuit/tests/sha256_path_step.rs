//! The path-step circuit: its compression against `sha2::compress256`, and
//! its check words `E` and `F` against their definitions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::sha256_path_step::{
    right_block_bit, Sha256PathStep, BIT_OFFSET, E_OFFSET, F_OFFSET, LEFT_BYTE, PREV_OFFSET,
    PUBLIC_INPUT_BITS, PUBLIC_OUTPUT_BITS,
};

fn bit(bytes: &[u8], i: usize) -> bool {
    bytes[i / 8] >> (i % 8) & 1 == 1
}

/// The constraint counts. A change here changes proving cost: update the
/// numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let circuit = Sha256PathStep::new();
    let r1cs = circuit.r1cs();
    r1cs.check_structure().unwrap();
    println!(
        "SHA-256 path step: k={} p={} AND rows={} committed wires={} nnz={}",
        r1cs.k(),
        r1cs.p(),
        r1cs.and_rows(),
        r1cs.committed_wires(),
        r1cs.nnz()
    );
    assert_eq!((r1cs.k(), r1cs.p()), (15, 11));
    assert_eq!(r1cs.num_public_inputs(), PUBLIC_INPUT_BITS);
    assert_eq!(r1cs.num_public_outputs(), PUBLIC_OUTPUT_BITS);
    assert_eq!(r1cs.and_rows(), 22_573 + 512);
}

#[test]
fn outputs_match_compress256_and_the_check_definitions() {
    let r1cs = Sha256PathStep::new().into_r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for case in 0..24 {
        let mut cv = [0u8; 32];
        let mut block = [0u8; 64];
        let mut prev = [0u8; 32];
        rng.fill(&mut cv[..]);
        rng.fill(&mut block[..]);
        rng.fill(&mut prev[..]);
        // Some cases satisfy a check, so zero words are seen too.
        let dir = case % 2 == 1;
        if case % 4 == 0 {
            block[LEFT_BYTE..LEFT_BYTE + 32].copy_from_slice(&prev);
        }
        if case % 4 == 3 {
            for t in 0..256 {
                let j = right_block_bit(t);
                block[j / 8] = block[j / 8] & !(1 << (j % 8)) | (bit(&prev, t) as u8) << (j % 8);
            }
        }
        let mut inputs = vec![false; PUBLIC_INPUT_BITS];
        for i in 0..256 {
            inputs[i] = bit(&cv, i);
            inputs[PREV_OFFSET + i] = bit(&prev, i);
        }
        for i in 0..512 {
            inputs[256 + i] = bit(&block, i);
        }
        inputs[BIT_OFFSET] = dir;
        let z = r1cs.evaluate_instance(&inputs, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        let out = |j: usize| z[r1cs.public_output_wire(j)];

        let mut state: [u32; 8] =
            std::array::from_fn(|w| u32::from_be_bytes(cv[4 * w..4 * w + 4].try_into().unwrap()));
        sha2::compress256(&mut state, &[*GenericArray::from_slice(&block)]);
        let want: Vec<u8> = state.iter().flat_map(|w| w.to_be_bytes()).collect();
        for i in 0..256 {
            assert_eq!(out(i), bit(&want, i), "case {case}: output bit {i}");
            let e = !dir && (bit(&block, 8 * LEFT_BYTE + i) != bit(&prev, i));
            assert_eq!(out(E_OFFSET + i), e, "case {case}: E bit {i}");
            let f = dir && (bit(&block, right_block_bit(i)) != bit(&prev, i));
            assert_eq!(out(F_OFFSET + i), f, "case {case}: F bit {i}");
        }
    }
}
