//! Times ring switching (bit evaluations, opening weights and the fused
//! first round) for three claims on a random table, best of five; with
//! `LIVE_ROWS`, only the table's first rows of level 0 are live (a
//! statement's rows stop short of a power of two).
//! Usage: `RAYON_NUM_THREADS=1 cargo run --release -p starling-pcs --example ring_switch_timing -- [L [LIVE_ROWS]]`

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::{ring_switch, PackedClaim, PcsParams, SecurityProfile};

fn main() {
    let l: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(22);
    let live_rows: Option<usize> = std::env::args().nth(2).and_then(|a| a.parse().ok());
    // The opening's first round binds level 0's lowest row variable.
    let first_var = PcsParams::new(l, SecurityProfile::Default)
        .unwrap()
        .level_log_msg(0);
    let live_len = live_rows.map_or(1 << l, |rows| (rows << first_var).min(1 << l));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let table: Vec<Gf128> = (0..1usize << l)
        .map(|i| {
            if i < live_len {
                Gf128::new(rng.gen())
            } else {
                Gf128::ZERO
            }
        })
        .collect();
    let claims: Vec<PackedClaim> = (0..3)
        .map(|_| PackedClaim {
            lambda: (0..128).map(|_| Gf128::new(rng.gen())).collect(),
            point: (0..l).map(|_| Gf128::new(rng.gen())).collect(),
            value: Gf128::ZERO,
        })
        .collect();
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let out = ring_switch::prove(
            &table,
            live_len,
            &claims,
            first_var,
            &mut Transcript::new(b"timing"),
            false,
        )
        .unwrap();
        best = best.min(t.elapsed());
        std::hint::black_box(out);
    }
    println!("L = {l}, {live_len} live entries, 3 claims: ring switch {best:?} (best of 5)");
}
