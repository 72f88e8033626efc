//! Zerocheck proving time on random valid data, best of five.
//!
//! `RAYON_NUM_THREADS=1 cargo run --release -p starling-piop --example zerocheck_timing -- 14 15`

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_piop::{zerocheck, Shape};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (n, k) = (
        args.first().copied().unwrap_or(14),
        args.get(1).copied().unwrap_or(15),
    );
    let shape = Shape::new(n, k).expect("shape");
    let mut r = ChaCha8Rng::seed_from_u64(1);
    let words = shape.num_words();
    let a: Vec<u64> = (0..words).map(|_| r.gen()).collect();
    let b: Vec<u64> = (0..words).map(|_| r.gen()).collect();
    let z: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x & y).collect();
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let out = zerocheck::prove(shape, &a, &b, &z, 0, &mut Transcript::new(b"timing"));
        best = best.min(t.elapsed());
        std::hint::black_box(out);
    }
    println!("n = {n}, k = {k}: zerocheck prove {best:?} (best of 5)");
}
