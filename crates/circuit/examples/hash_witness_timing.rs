//! Times batched witness generation for SHA-256, BLAKE3 and Keccak-f[1600],
//! its linear forms in a second pass, and both in the one pass the prover
//! makes (release mode): `cargo run --release -p starling-circuit --example
//! hash_witness_timing [n]`; `RAYON_NUM_THREADS` sets the threads.

use std::time::{Duration, Instant};

use starling_circuit::blake3::{Blake3Compression, Blake3Input};
use starling_circuit::keccak::KeccakF1600;
use starling_circuit::sha256::Sha256Compression;
use starling_circuit::R1cs;
use starling_circuit::R1csWitness;

/// Times the input transposition, then the witness, its forms after it, and
/// both in one pass, into reused buffers, best of five, and prints them.
fn time_batch(name: &str, unit: &str, r1cs: &R1cs, n: u32, transpose: impl FnOnce() -> Vec<u64>) {
    let t0 = Instant::now();
    let sliced = transpose();
    let transposed = t0.elapsed();
    let len = r1cs.num_wires() << (n - 6);
    let [mut z, mut a, mut b] = [(); 3].map(|_| vec![0u64; len]);
    let (mut witness, mut forms, mut fused) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        let t1 = Instant::now();
        r1cs.generate_witness_into(n, &sliced, &[], &mut z)
            .expect("valid inputs");
        let t2 = Instant::now();
        r1cs.linear_forms_into(1 << (n - 6), &z, &mut a, &mut b);
        let t3 = Instant::now();
        r1cs.generate_witness_and_forms_into(n, &sliced, &[], &mut z, &mut a, &mut b)
            .expect("valid inputs");
        witness = witness.min(t2 - t1);
        forms = forms.min(t3 - t2);
        fused = fused.min(t3.elapsed());
    }
    println!(
        "{name} N = 2^{n}, {} threads: input transpose {transposed:?}, witness {witness:?} ({:.0} {unit}/s, {} MiB), A z and B z after it {forms:?}, both in one pass {fused:?}",
        rayon::current_num_threads(),
        (1u64 << n) as f64 / witness.as_secs_f64(),
        (len * 8) >> 20,
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
