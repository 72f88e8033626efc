//! The path-step circuit: its compression against `sha2::compress256`, and
//! its check words `E` and `F` and the step successor `J` against their
//! definitions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::digest::generic_array::GenericArray;
use starling_circuit::path_step::{PathStepLayout, LEFT_BYTE};
use starling_circuit::sha256_path_step::Sha256PathStep;

fn bit(bytes: &[u8], i: usize) -> bool {
    bytes[i / 8] >> (i % 8) & 1 == 1
}

/// The constraint counts. A change here changes proving cost: update the
/// numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    for (layout, p) in [(PathStepLayout::sha256(32), 11), (PathStepLayout::sha256(24), 11)] {
        let circuit = Sha256PathStep::new(layout);
        let r1cs = circuit.r1cs();
        r1cs.check_structure().unwrap();
        println!(
            "SHA-256 path step, {}-byte nodes: k={} p={} AND rows={} committed wires={} nnz={}",
            layout.node_bytes,
            r1cs.k(),
            r1cs.p(),
            r1cs.and_rows(),
            r1cs.committed_wires(),
            r1cs.nnz()
        );
        assert_eq!((r1cs.k(), r1cs.p()), (15, p));
        assert_eq!(r1cs.num_public_inputs(), layout.public_input_bits());
        assert_eq!(r1cs.num_public_outputs(), layout.public_output_bits());
        assert_eq!(r1cs.and_rows(), 22_573 + 16 * layout.node_bytes + 6);
    }
}

#[test]
fn outputs_match_compress256_and_the_check_definitions() {
    for layout in [PathStepLayout::sha256(32), PathStepLayout::sha256(24)] {
        check_layout(layout);
    }
}

fn check_layout(layout: PathStepLayout) {
    let r1cs = Sha256PathStep::new(layout).into_r1cs();
    let bits = layout.node_bits();
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for case in 0..24 {
        let mut cv = [0u8; 32];
        let mut block = [0u8; 64];
        let mut prev = vec![0u8; layout.node_bytes];
        rng.fill(&mut cv[..]);
        rng.fill(&mut block[..]);
        rng.fill(&mut prev[..]);
        // Some cases satisfy a check, so zero words are seen too.
        let dir = case % 2 == 1;
        if case % 4 == 0 {
            block[LEFT_BYTE..LEFT_BYTE + layout.node_bytes].copy_from_slice(&prev);
        }
        if case % 4 == 3 {
            for t in 0..bits {
                let j = layout.right_block_bit(t);
                block[j / 8] = block[j / 8] & !(1 << (j % 8)) | (bit(&prev, t) as u8) << (j % 8);
            }
        }
        if case == 6 {
            // The step number's successor wraps.
            block[LEFT_BYTE] = 0xff;
        }
        let mut inputs = vec![false; layout.public_input_bits()];
        for (i, input) in inputs[..256].iter_mut().enumerate() {
            *input = bit(&cv, i);
        }
        for i in 0..bits {
            inputs[layout.prev_offset() + i] = bit(&prev, i);
        }
        for i in 0..512 {
            inputs[256 + i] = bit(&block, i);
        }
        inputs[layout.bit_offset()] = dir;
        let z = r1cs.evaluate_instance(&inputs, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        let out = |j: usize| z[r1cs.public_output_wire(j)];

        let mut state: [u32; 8] =
            std::array::from_fn(|w| u32::from_be_bytes(cv[4 * w..4 * w + 4].try_into().unwrap()));
        sha2::compress256(&mut state, &[*GenericArray::from_slice(&block)]);
        let want: Vec<u8> = state.iter().flat_map(|w| w.to_be_bytes()).collect();
        for i in 0..256 {
            assert_eq!(out(i), bit(&want, i), "case {case}: output bit {i}");
        }
        for i in 0..bits {
            let e = !dir && (bit(&block, 8 * LEFT_BYTE + i) != bit(&prev, i));
            assert_eq!(out(layout.e_offset() + i), e, "case {case}: E bit {i}");
            let f = dir && (bit(&block, layout.right_block_bit(i)) != bit(&prev, i));
            assert_eq!(out(layout.f_offset() + i), f, "case {case}: F bit {i}");
        }
        // J, the successor of block byte 22 (mod 256).
        let next = [block[LEFT_BYTE].wrapping_add(1)];
        for t in 0..8 {
            assert_eq!(out(layout.next_offset() + t), bit(&next, t), "J bit {t}");
        }
    }
}
