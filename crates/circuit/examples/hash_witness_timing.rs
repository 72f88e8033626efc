//! Times batched witness generation for SHA-256, BLAKE3 and Keccak-f[1600],
//! and the linear forms the prover computes from it (release mode): `cargo run --release -p starling-circuit --example
//! hash_witness_timing [n]`.

use std::time::Instant;

use starling_circuit::blake3::{Blake3Compression, Blake3Input};
use starling_circuit::keccak::KeccakF1600;
use starling_circuit::sha256::Sha256Compression;
use starling_circuit::R1cs;

/// Times the input transposition and the witness of one batch and prints them.
fn time_batch(name: &str, unit: &str, r1cs: &R1cs, n: u32, transpose: impl FnOnce() -> Vec<u64>) {
    let t0 = Instant::now();
    let sliced = transpose();
    let t1 = Instant::now();
    let witness = r1cs.generate_witness(n, &sliced, &[]).expect("valid inputs");
    let t2 = Instant::now();
    let forms = r1cs.linear_forms(&witness);
    let t3 = Instant::now();
    assert_eq!(forms.0.len(), witness.words().len());
    println!(
        "{name} N = 2^{n}: input transpose {:?}, witness {:?} ({:.0} {unit}/s, {} MiB), A z and B z {:?}",
        t1 - t0,
        t2 - t1,
        (1u64 << n) as f64 / (t2 - t1).as_secs_f64(),
        (witness.words().len() * 8) >> 20,
        t3 - t2,
    );
}

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(14);
    let count = 1usize << n;
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };

    let sha = Sha256Compression::new();
    let instances: Vec<([u32; 8], [u8; 64])> = (0..count)
        .map(|_| {
            (
                std::array::from_fn(|_| next() as u32),
                std::array::from_fn(|_| next() as u8),
            )
        })
        .collect();
    time_batch("SHA-256", "compressions", sha.r1cs(), n, || {
        Sha256Compression::batch_public_inputs(n, &instances)
    });

    let blake3 = Blake3Compression::new();
    let inputs: Vec<Blake3Input> = (0..count)
        .map(|_| Blake3Input {
            cv: std::array::from_fn(|_| next() as u32),
            block: std::array::from_fn(|_| next() as u32),
            counter: next(),
            block_len: 64,
            flags: 11,
        })
        .collect();
    time_batch("BLAKE3", "compressions", blake3.r1cs(), n, || {
        Blake3Compression::batch_public_inputs(n, &inputs)
    });

    let keccak = KeccakF1600::new();
    let states: Vec<[u64; 25]> = (0..count).map(|_| std::array::from_fn(|_| next())).collect();
    time_batch("Keccak-f[1600]", "permutations", keccak.r1cs(), n, || {
        KeccakF1600::batch_public_inputs(n, &states)
    });
}
