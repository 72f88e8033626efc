//! Times batched SHA-256 witness generation (release mode):
//! `cargo run --release -p starling-circuit --example sha256_witness_timing [n]`.

use std::time::Instant;

use starling_circuit::sha256::Sha256Compression;

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(14);
    let count = 1usize << n;
    let gadget = Sha256Compression::new();
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let instances: Vec<([u32; 8], [u8; 64])> = (0..count)
        .map(|_| {
            let cv = std::array::from_fn(|_| next() as u32);
            let block = std::array::from_fn(|_| next() as u8);
            (cv, block)
        })
        .collect();
    let t0 = Instant::now();
    let inputs = Sha256Compression::batch_public_inputs(n, &instances);
    let t1 = Instant::now();
    let witness = gadget
        .r1cs()
        .generate_witness(n, &inputs, &[])
        .expect("valid inputs");
    let t2 = Instant::now();
    let (a, _b) = gadget.r1cs().linear_forms(&witness);
    let t3 = Instant::now();
    println!(
        "N = 2^{n}: input transpose {:?}, witness {:?} ({:.0} compressions/s, {} MiB), linear forms {:?}",
        t1 - t0,
        t2 - t1,
        count as f64 / (t2 - t1).as_secs_f64(),
        (witness.words().len() * 8) >> 20,
        t3 - t2,
    );
    std::hint::black_box(a);
}
