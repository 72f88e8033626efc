//! Times every bit-matrix kernel this CPU runs on ring switching's shapes:
//! `add_bit_sums` over chunks of `2^chunk` elements with three weight
//! vectors, and `apply_maps_sum` with three maps, each on `2^L` elements,
//! one thread, best of five. The reference is left out.
//! Usage: `cargo run --release -p starling-field --example bit_matrix_timing -- [L] [chunk]`

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use starling_field::bit_matrix::{add_bit_sums_with, apply_maps_sum_with, BitSumWeights, Kernel, SliceMap};
use starling_field::Gf128;

fn best_of_five(mut run: impl FnMut()) -> Duration {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed()
        })
        .min()
        .expect("five runs")
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let l = args.first().copied().unwrap_or(22);
    let chunk = args.get(1).copied().unwrap_or(13).min(l);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let data: Vec<u128> = (0..1usize << l).map(|_| rng.gen()).collect();
    let weights: Vec<BitSumWeights> = (0..3)
        .map(|_| BitSumWeights::new(&(0..1usize << chunk).map(|_| rng.gen()).collect::<Vec<u128>>()))
        .collect();
    let wrefs: Vec<&BitSumWeights> = weights.iter().collect();
    let maps: Vec<SliceMap> = (0..3)
        .map(|_| SliceMap::new(&core::array::from_fn(|_| Gf128::new(rng.gen()))))
        .collect();
    let mrefs: Vec<&SliceMap> = maps.iter().collect();
    let inputs: Vec<Vec<u128>> = (0..3)
        .map(|_| (0..1usize << l).map(|_| rng.gen()).collect())
        .collect();
    let irefs: Vec<&[u128]> = inputs.iter().map(Vec::as_slice).collect();
    let mut out = vec![0u128; 1 << l];
    // The reference is the bit-by-bit definition (seconds at 2^22), not a
    // contender: ring switching has a portable method of its own.
    for kernel in Kernel::available()
        .into_iter()
        .filter(|&k| k != Kernel::Reference)
    {
        let sums = best_of_five(|| {
            let mut acc = vec![[0u128; 128]; 3];
            for c in data.chunks(1 << chunk) {
                add_bit_sums_with(kernel, c, &wrefs, &mut acc);
            }
            std::hint::black_box(acc);
        });
        let applied = best_of_five(|| apply_maps_sum_with(kernel, &mrefs, &irefs, &mut out));
        println!("{kernel:?}: L = {l}, 3 vectors: add_bit_sums (chunks of 2^{chunk}) {sums:?}, apply_maps_sum {applied:?}");
    }
}
