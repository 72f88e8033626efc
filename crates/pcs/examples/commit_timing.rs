//! Timing of the commitment to a random table of `2^L` elements (the
//! prover's `commit` phase: level 0 encoded and its columns hashed), best of
//! `reps`, with the root so that speed work can check it does not change.
//! `reps = 0` makes the table and stops, for tools that count the whole
//! process (`valgrind --tool=cachegrind`) to subtract.
//! Usage: `cargo run --release -p starling-pcs --example commit_timing -- [L] [reps]`
//! (set `RAYON_NUM_THREADS=1` for single-threaded numbers).

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_field::{scratch, Gf128};
use starling_pcs::{commit, PcsParams, SecurityProfile};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let l: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(22);
    let reps: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let params = PcsParams::new(l, SecurityProfile::Default).unwrap();
    let level0 = params.levels()[0];
    println!(
        "L = {l}: level 0 has {} rows of 2^{} positions at rate 2^-{}, {} threads",
        1usize << level0.log_rows,
        params.level_log_msg(0),
        level0.log_inv_rate,
        rayon::current_num_threads()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let table: Vec<Gf128> = (0..1usize << l).map(|_| Gf128::new(rng.gen())).collect();
    let mut best = Duration::MAX;
    for _ in 0..reps {
        // On a cache line, as the prover's tables are.
        let mut copy = scratch::take_field(table.len());
        copy.copy_from_slice(&table);
        let t = Instant::now();
        let (c, _data) = commit(&params, copy).unwrap();
        best = best.min(t.elapsed());
        let root: String = c.root[..8].iter().map(|b| format!("{b:02x}")).collect();
        println!("commit {:?}, root {root}", t.elapsed());
    }
    if reps > 0 {
        println!("best {best:?}");
    }
}
