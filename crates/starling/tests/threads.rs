//! Proving on many threads: the proof is the same bytes on any number of
//! threads, and the prover's parallel loops fit in small worker stacks.
//!
//! Rayon keeps the state of a parallel fold in every frame of its split
//! tree, and a worker that waits for a stolen half runs other tasks on top of
//! its own stack; a frame of kilobytes then multiplies with the depth of that
//! nesting. On a 16-core machine this overflowed the default 2 MiB worker
//! stacks. Here 32 threads on a machine of any size (oversubscription makes
//! the stealing deep) prove every kind with 128 KiB stacks, a sixteenth of
//! the default, so a frame that grows back is caught here, not on a big
//! machine. `scripts/stress-threads` runs the full-size version through the
//! CLI.

mod common;

use starling::kind::Batch;
use starling::{prove, Profile};

/// Worker stack of the small-stack pool: a sixteenth of rayon's default.
const SMALL_STACK: usize = 128 << 10;

fn proof_bytes_on(pool: &rayon::ThreadPool, batch: &Batch, count: usize) -> Vec<u8> {
    let (kind, inputs) = common::random_batch(batch, count, 77);
    pool.install(|| {
        prove(kind, inputs, Profile::Default, &mut |_| {})
            .expect("an honest proof")
            .file
            .to_bytes()
    })
}

#[test]
fn proofs_are_identical_on_any_thread_count_and_fit_small_stacks() {
    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let many = rayon::ThreadPoolBuilder::new()
        .num_threads(32)
        .stack_size(SMALL_STACK)
        .build()
        .unwrap();
    for batch in common::every_batch() {
        // Enough instances that every phase splits into many tasks.
        let count = 1 << 11;
        let want = proof_bytes_on(&single, &batch, count);
        for round in 0..2 {
            let got = proof_bytes_on(&many, &batch, count);
            assert!(
                got == want,
                "{}: the proof on 32 threads (round {round}) differs from the one on 1",
                starling::Kind::name(&batch)
            );
        }
    }
}
