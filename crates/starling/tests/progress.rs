//! The progress hook hears of every prover phase once, in order, with its
//! count, as the phases the proof's timings record.

use starling::kind::Batch;
use starling::kind::SampleInputs;
use starling::{prove, Builtin, Phase, Profile, PROVER_PHASES};

#[test]
fn every_phase_is_reported_once_in_order() {
    let batch = Batch::builtin(Builtin::Blake3);
    let inputs = batch.random_inputs(3, 7);
    let mut heard: Vec<(&str, usize, usize)> = Vec::new();
    let proved = prove(
        std::sync::Arc::new(batch),
        inputs,
        Profile::Default,
        &mut |p: &Phase| heard.push((p.name, p.done, p.total)),
    )
    .unwrap();
    let expected: Vec<(&str, usize, usize)> = PROVER_PHASES
        .iter()
        .enumerate()
        .map(|(i, name)| (*name, i + 1, PROVER_PHASES.len()))
        .collect();
    assert_eq!(heard, expected);
    let timed: Vec<&str> = proved.timings.phases().iter().map(|(name, _)| *name).collect();
    assert_eq!(timed, PROVER_PHASES);
}
