//! Keccak-f[1600] gadget against the Keccak team's intermediate values and
//! the keccak crate.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use starling_circuit::keccak::{
    bytes_from_lanes, lanes_from_bytes, permute_reference, rho_offsets, round_constants, KeccakF1600, LANES,
};
use starling_circuit::R1csWitness;

/// The constraint counts of the gadget. A change here changes proving cost:
/// update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let gadget = KeccakF1600::new();
    let r1cs = gadget.r1cs();
    r1cs.check_structure().unwrap();
    let max_row = (0..r1cs.num_wires())
        .map(|i| r1cs.a().row(i).len().max(r1cs.b().row(i).len()))
        .max()
        .unwrap();
    println!(
        "Keccak-f[1600]: k={} p={} AND rows={} committed wires={} linear rows={} nnz={} (A {} + B {} + N {}), longest row {}",
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
    assert_eq!((r1cs.k(), r1cs.p()), (16, 12));
    assert_eq!(r1cs.num_public_inputs(), 1600);
    assert_eq!(r1cs.num_public_outputs(), 1600);
    assert_eq!(r1cs.and_rows(), 38_400);
    assert_eq!(r1cs.committed_wires(), 40_001);
    assert_eq!(r1cs.used_wires(), 40_001);
    assert_eq!(r1cs.linear_rows(), 0);
    assert_eq!(r1cs.nnz(), 543_448);
    assert_eq!(max_row, 12);
}

fn random_states(rng: &mut ChaCha20Rng, count: usize) -> Vec<[u64; LANES]> {
    (0..count).map(|_| std::array::from_fn(|_| rng.gen())).collect()
}

#[test]
fn reference_matches_keccak_crate() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    for mut state in random_states(&mut rng, 50) {
        let mut want = state;
        keccak::f1600(&mut want);
        permute_reference(&mut state);
        assert_eq!(state, want);
    }
}

#[test]
fn batch_matches_keccak_crate() {
    let gadget = KeccakF1600::new();
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    let states = random_states(&mut rng, 128);
    let witness = gadget.generate_witness(7, &states).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    for (state, out) in states.iter().zip(gadget.outputs(&witness)) {
        let mut want = *state;
        keccak::f1600(&mut want);
        assert_eq!(out, want);
    }
}

#[test]
fn bit_sliced_matches_reference_evaluator() {
    let gadget = KeccakF1600::new();
    let r1cs = gadget.r1cs();
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    let states = random_states(&mut rng, 128);
    let witness = gadget.generate_witness(7, &states).unwrap();
    for i in [0usize, 127] {
        let bits: Vec<bool> = (0..1600)
            .map(|j| (states[i][j / 64] >> (j % 64)) & 1 == 1)
            .collect();
        let z = r1cs.evaluate_instance(&bits, &[]);
        assert!(r1cs.is_satisfied_instance(&z));
        assert_eq!(witness.instance(i), z, "instance {i}");
    }
}

/// The 200 bytes on the line after `header`, for each occurrence.
fn states_after(text: &str, header: &str) -> Vec<[u8; 200]> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == header)
        .map(|(i, _)| {
            let bytes: Vec<u8> = lines[i + 1]
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            bytes.try_into().expect("200 state bytes")
        })
        .collect()
}

#[test]
fn keccak_team_intermediate_values() {
    let Some(text) = common::read_vector("keccak/KeccakF-1600-IntermediateValues.txt") else {
        return;
    };
    // The constants this implementation derives, against the file's tables.
    for (i, rc) in round_constants().iter().enumerate() {
        let line = format!("RC[{i:02}][0][0] = {rc:016X}");
        assert!(text.contains(&line), "missing `{line}`");
    }
    let offsets = rho_offsets();
    for y in 0..5 {
        for x in 0..5 {
            let line = format!("RhoOffset[{x}][{y}] = {:>2}", offsets[x + 5 * y]);
            assert!(text.contains(&line), "missing `{line}`");
        }
    }
    // The zero state, then its output permuted again.
    let inputs = states_after(&text, "Input of permutation:");
    let outputs = states_after(&text, "State after permutation:");
    assert_eq!((inputs.len(), outputs.len()), (2, 2));
    assert_eq!(inputs[0], [0u8; 200]);
    assert_eq!(inputs[1], outputs[0]);
    let gadget = KeccakF1600::new();
    let states: Vec<[u64; LANES]> = (0..128).map(|i| lanes_from_bytes(&inputs[i % 2])).collect();
    let witness = gadget.generate_witness(7, &states).unwrap();
    assert!(gadget.r1cs().is_satisfied(&witness));
    for (i, out) in gadget.outputs(&witness).iter().enumerate() {
        assert_eq!(bytes_from_lanes(out), outputs[i % 2], "instance {i}");
    }
}

#[test]
fn lane_byte_order() {
    let mut bytes = [0u8; 200];
    bytes[8] = 0x01; // lane (1, 0), bit 0
    bytes[15] = 0x80; // lane (1, 0), bit 63
    let lanes = lanes_from_bytes(&bytes);
    assert_eq!(lanes[1], 0x8000_0000_0000_0001);
    assert_eq!(bytes_from_lanes(&lanes), bytes);
}
