//! The SHAKE256 path-step circuit: its permutation of `S ⊕ B` against the
//! reference Keccak-f, and its check words `E` and `F` and the step
//! successor `J` against their definitions, for 32- and 24-byte nodes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use starling_circuit::keccak::{bytes_from_lanes, lanes_from_bytes, permute_reference};
use starling_circuit::keccak_path_step::{KeccakPathStep, RATE_BYTES, STATE_BYTES};
use starling_circuit::path_step::{PathStepLayout, LEFT_BYTE};

fn bit(bytes: &[u8], i: usize) -> bool {
    bytes[i / 8] >> (i % 8) & 1 == 1
}

/// The constraint counts. A change here changes proving cost: update the
/// numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    for n in [32, 24] {
        let layout = PathStepLayout::shake256(n);
        let r1cs = KeccakPathStep::new(layout).into_r1cs();
        r1cs.check_structure().unwrap();
        println!(
            "Keccak path step, {n}-byte nodes: k={} p={} AND rows={} committed wires={} nnz={}",
            r1cs.k(),
            r1cs.p(),
            r1cs.and_rows(),
            r1cs.committed_wires(),
            r1cs.nnz()
        );
        assert_eq!(r1cs.num_public_inputs(), layout.public_input_bits());
        assert_eq!(r1cs.num_public_outputs(), layout.public_output_bits());
        assert_eq!(r1cs.and_rows(), 38_400 + 16 * n + 6);
    }
}

#[test]
fn outputs_match_the_permutation_and_the_check_definitions() {
    for n in [32, 24] {
        let layout = PathStepLayout::shake256(n);
        let r1cs = KeccakPathStep::new(layout).into_r1cs();
        let mut rng = ChaCha20Rng::seed_from_u64(n as u64);
        for case in 0..8 {
            let mut state = [0u8; STATE_BYTES];
            let mut block = [0u8; RATE_BYTES];
            let mut prev = vec![0u8; n];
            rng.fill(&mut state[..]);
            rng.fill(&mut block[..]);
            rng.fill(&mut prev[..]);
            let dir = case % 2 == 1;
            if case % 4 == 0 {
                block[LEFT_BYTE..LEFT_BYTE + n].copy_from_slice(&prev);
            }
            if case % 4 == 3 {
                block[layout.right_byte()..layout.right_byte() + n].copy_from_slice(&prev);
            }
            if case == 6 {
                // The step number's successor wraps.
                block[LEFT_BYTE] = 0xff;
            }
            let mut inputs = vec![false; layout.public_input_bits()];
            for (i, input) in inputs[..8 * STATE_BYTES].iter_mut().enumerate() {
                *input = bit(&state, i);
            }
            for i in 0..8 * RATE_BYTES {
                inputs[layout.block_offset() + i] = bit(&block, i);
            }
            for i in 0..8 * n {
                inputs[layout.prev_offset() + i] = bit(&prev, i);
            }
            inputs[layout.bit_offset()] = dir;
            let z = r1cs.evaluate_instance(&inputs, &[]);
            assert!(r1cs.is_satisfied_instance(&z));
            let out = |j: usize| z[r1cs.public_output_wire(j)];

            let mut absorbed = state;
            for (s, b) in absorbed.iter_mut().zip(block) {
                *s ^= b;
            }
            let mut lanes = lanes_from_bytes(&absorbed);
            permute_reference(&mut lanes);
            let want = bytes_from_lanes(&lanes);
            for i in 0..8 * STATE_BYTES {
                assert_eq!(out(i), bit(&want, i), "n {n} case {case}: state bit {i}");
            }
            for i in 0..8 * n {
                let e = !dir && (bit(&block, 8 * LEFT_BYTE + i) != bit(&prev, i));
                assert_eq!(out(layout.e_offset() + i), e, "n {n} case {case}: E bit {i}");
                let f = dir && (bit(&block, 8 * layout.right_byte() + i) != bit(&prev, i));
                assert_eq!(out(layout.f_offset() + i), f, "n {n} case {case}: F bit {i}");
            }
            // J, the successor of block byte 22 (mod 256).
            let next = [block[LEFT_BYTE].wrapping_add(1)];
            for t in 0..8 {
                assert_eq!(out(layout.next_offset() + t), bit(&next, t), "J bit {t}");
            }
        }
    }
}
