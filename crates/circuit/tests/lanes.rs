//! Circuits of several lanes: each lane against its gadget's own circuit
//! (the same outputs on the same inputs, shifted), and the constraint
//! counts of the lane circuits the signature statements use.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use starling_circuit::path_step::PathStepLayout;
use starling_circuit::{
    Gadget, KeccakPathStep, Lanes, R1cs, Sha256Compression, Sha256PathStep, Sha512Compression,
};

fn alone(gadget: Gadget) -> R1cs {
    match gadget {
        Gadget::Sha256 => Sha256Compression::new().into_r1cs(),
        Gadget::Sha512 => Sha512Compression::new().into_r1cs(),
        Gadget::Sha256PathStep(layout) => Sha256PathStep::new(layout).into_r1cs(),
        Gadget::KeccakPathStep(layout) => KeccakPathStep::new(layout).into_r1cs(),
    }
}

fn outputs(r1cs: &R1cs, inputs: &[bool]) -> Vec<bool> {
    let z = r1cs.evaluate_instance(inputs, &[]);
    assert!(r1cs.is_satisfied_instance(&z));
    (0..r1cs.num_public_outputs())
        .map(|j| z[r1cs.public_output_wire(j)])
        .collect()
}

/// A lane circuit's outputs on random inputs are its lanes' own circuits'
/// outputs on their slices of them.
fn check(groups: &[(Gadget, usize)]) {
    let lanes = Lanes::new(groups).into_r1cs();
    lanes.check_structure().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(groups.len() as u64);
    let inputs: Vec<bool> = (0..lanes.num_public_inputs()).map(|_| rng.gen()).collect();
    let got = outputs(&lanes, &inputs);
    let (mut input_at, mut output_at) = (0, 0);
    for &(gadget, copies) in groups {
        let own = alone(gadget);
        for _ in 0..copies {
            let (i, o) = (gadget.input_bits(), gadget.output_bits());
            assert_eq!(
                got[output_at..output_at + o],
                outputs(&own, &inputs[input_at..input_at + i]),
                "{gadget:?}"
            );
            input_at += gadget.input_stride();
            output_at += gadget.output_stride();
        }
    }
    assert_eq!((input_at, output_at), (inputs.len(), got.len()));
    assert_eq!(lanes.num_public_inputs() % 8, 0);
}

#[test]
fn every_lane_computes_its_gadget() {
    check(&[(Gadget::Sha256, 2), (Gadget::Sha512, 1)]);
    check(&[(Gadget::Sha256PathStep(PathStepLayout::sha256(24)), 3)]);
    check(&[(Gadget::KeccakPathStep(PathStepLayout::shake256(32)), 2)]);
}

/// The lane circuits of the signature statements. A change here changes
/// proving cost: update the numbers only on purpose.
#[test]
fn snapshot_constraint_counts() {
    let count = |groups: &[(Gadget, usize)]| {
        let r1cs = Lanes::new(groups).into_r1cs();
        println!(
            "{groups:?}: k={} p={} AND rows={} used wires={} nnz={}",
            r1cs.k(),
            r1cs.p(),
            r1cs.and_rows(),
            r1cs.used_wires(),
            r1cs.nnz()
        );
        (r1cs.k(), r1cs.p(), r1cs.and_rows(), r1cs.used_wires())
    };
    let lms = Gadget::Sha256PathStep(PathStepLayout::sha256(32));
    let shake = Gadget::KeccakPathStep(PathStepLayout::shake256(32));
    // (k, p, AND rows, used wires): the sum of the lanes' rows and wires.
    assert_eq!(count(&[(lms, 5)]), (17, 14, 115_455, 122_816));
    assert_eq!(count(&[(shake, 3)]), (17, 14, 116_754, 125_635));
    assert_eq!(count(&[(Gadget::Sha256, 5)]), (17, 13, 112_865, 118_866));
    assert_eq!(
        count(&[(Gadget::Sha256, 8), (Gadget::Sha512, 1)]),
        (18, 14, 238_531, 250_404)
    );
}
