//! Verify time of proof files, without process start-up, file reading or
//! building the circuit: `cargo run --release -p starling --example
//! verify_timing -- PROOF...` prints, per file, the fastest of 100
//! `verify_claimed` calls on the decoded file and the median of 100
//! decode-and-verify calls. For comparing verify time across sizes (a chain
//! of 2^10 steps against one of 2^20), where `starling verify`'s figure
//! also holds the circuit's construction.

use std::time::Instant;

use starling::{verify_claimed, ProofFile};

const RUNS: usize = 100;

fn times_ms(mut f: impl FnMut()) -> Vec<f64> {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let file = ProofFile::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let verify = times_ms(|| {
            verify_claimed(&file, 0.0).expect("a valid proof");
        });
        let decode_verify = times_ms(|| {
            let file = ProofFile::from_bytes(&bytes).expect("a proof file");
            verify_claimed(&file, 0.0).expect("a valid proof");
        });
        println!(
            "{path}: N={} verify {:.2} ms (fastest of {RUNS}), decode and verify {:.2} ms (median)",
            file.statement.count(),
            verify[0],
            decode_verify[RUNS / 2]
        );
    }
}
