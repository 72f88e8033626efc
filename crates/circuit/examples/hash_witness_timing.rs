//! Times batched BLAKE3 and Keccak-f[1600] witness generation (release
//! mode): `cargo run --release -p starling-circuit --example
//! hash_witness_timing [n]`.

use std::time::Instant;

use starling_circuit::blake3::{Blake3Compression, Blake3Input};
use starling_circuit::keccak::KeccakF1600;

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
    let t0 = Instant::now();
    let sliced = Blake3Compression::batch_public_inputs(n, &inputs);
    let t1 = Instant::now();
    let witness = blake3
        .r1cs()
        .generate_witness(n, &sliced, &[])
        .expect("valid inputs");
    let t2 = Instant::now();
    println!(
        "BLAKE3 N = 2^{n}: input transpose {:?}, witness {:?} ({:.0} compressions/s, {} MiB)",
        t1 - t0,
        t2 - t1,
        count as f64 / (t2 - t1).as_secs_f64(),
        (witness.words().len() * 8) >> 20,
    );
    drop(witness);

    let keccak = KeccakF1600::new();
    let states: Vec<[u64; 25]> = (0..count).map(|_| std::array::from_fn(|_| next())).collect();
    let t0 = Instant::now();
    let sliced = KeccakF1600::batch_public_inputs(n, &states);
    let t1 = Instant::now();
    let witness = keccak
        .r1cs()
        .generate_witness(n, &sliced, &[])
        .expect("valid inputs");
    let t2 = Instant::now();
    println!(
        "Keccak-f[1600] N = 2^{n}: input transpose {:?}, witness {:?} ({:.0} permutations/s, {} MiB)",
        t1 - t0,
        t2 - t1,
        count as f64 / (t2 - t1).as_secs_f64(),
        (witness.words().len() * 8) >> 20,
    );
}
