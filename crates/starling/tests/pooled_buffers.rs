//! A process that keeps the prover's buffers between proofs
//! (`starling::keep_buffers_between_proofs`, as `starling bench` and the
//! Python workers do) proves the same bytes as one that starts afresh.
//!
//! The pooled buffers come back with whatever their last borrower left, and
//! the tables take them zero past their live part without clearing there
//! when the pool knows it is zero (`starling_field::scratch`); a buffer that
//! served a table of a longer live part, or the opening's work vectors,
//! must be cleared first. Here every kind's proof is made first in a fresh
//! process state and then again after proofs of other circuits (other live
//! lengths, other sizes, with and without zero knowledge) have used the
//! buffers, in two orders: the bytes must not change. This is its own test
//! binary: keeping buffers is a setting of the whole process.

mod common;

use std::sync::Arc;

use starling::{prove, prove_private, verify_claimed_bytes, Kind, Profile, ProveOptions, Records};

/// A statement, its private records and how it is proved.
type Case = (Arc<dyn Kind>, Records, Records, ProveOptions);

fn cases() -> Vec<Case> {
    let mut all: Vec<Case> = Vec::new();
    // 2^11 instances: every table is large enough to be pooled.
    for (i, batch) in common::every_batch().iter().enumerate() {
        let (kind, inputs) = common::random_batch(batch, 1 << 11, 40 + i as u64);
        all.push((
            kind.clone(),
            inputs.clone(),
            Records::new(),
            Profile::Default.into(),
        ));
        if i % 2 == 0 {
            all.push((kind, inputs, Records::new(), common::zk_options(i as u8)));
        }
    }
    for (i, (kind, public, private)) in common::secret_statements().into_iter().enumerate() {
        all.push((kind, public, private, common::zk_options(100 + i as u8)));
    }
    all
}

fn proof_of((kind, public, private, options): &Case) -> Vec<u8> {
    let proved = if private.is_empty() {
        prove(kind.clone(), public.clone(), *options, &mut |_| {})
    } else {
        prove_private(
            kind.clone(),
            public.clone(),
            private.clone(),
            *options,
            &mut |_| {},
        )
    }
    .expect("an honest proof");
    let bytes = proved.file.to_bytes();
    verify_claimed_bytes(&bytes, 0.0).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
    bytes
}

#[test]
fn kept_buffers_give_the_same_proofs_in_any_order() {
    let cases = cases();
    // Each proof made first with the pool empty (dropped after each).
    let fresh: Vec<Vec<u8>> = cases.iter().map(proof_of).collect();
    starling::keep_buffers_between_proofs();
    let forward: Vec<usize> = (0..cases.len()).collect();
    let interleaved: Vec<usize> = (0..cases.len())
        .rev()
        .step_by(2)
        .chain((0..cases.len()).step_by(2))
        .collect();
    for (order, name) in [(forward, "in order"), (interleaved, "interleaved")] {
        for i in order {
            assert!(
                proof_of(&cases[i]) == fresh[i],
                "{} ({name}): a proof with kept buffers differs from a fresh one",
                cases[i].0.name()
            );
        }
    }
}
