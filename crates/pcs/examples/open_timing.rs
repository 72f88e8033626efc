//! Timing of the bit-claim opening alone (ring switching + Ligerito opening),
//! repeated, with a digest of the proof bytes so that speed work can check the
//! output does not change.
//! Usage: `cargo run --release -p starling-pcs --example open_timing -- [L] [claims] [reps]`
//! (set `RAYON_NUM_THREADS=1` for single-threaded numbers).

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::ring_switch::{self, bit_evaluations};
use starling_pcs::{bits, commit, ligerito, PackedClaim, PcsParams, SecurityProfile};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let l: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(22);
    let n_claims: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let reps: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(5);
    let params = PcsParams::new(l, SecurityProfile::Default).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let table: Vec<Gf128> = (0..1usize << l).map(|_| Gf128::new(rng.gen())).collect();
    let (c, data) = commit(&params, table).unwrap();
    let claims: Vec<PackedClaim> = (0..n_claims)
        .map(|_| {
            let point: Vec<Gf128> = (0..l).map(|_| Gf128::new(rng.gen())).collect();
            let lambda: Vec<Gf128> = (0..128).map(|_| Gf128::new(rng.gen())).collect();
            let s = bit_evaluations(data.table(), &point);
            let value = lambda.iter().zip(s.iter()).map(|(a, b)| *a * *b).sum();
            PackedClaim { lambda, point, value }
        })
        .collect();

    let (mut best_rs, mut best_open, mut best_total) = (Duration::MAX, Duration::MAX, Duration::MAX);
    let mut digest = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"bits")).unwrap();
        best_total = best_total.min(t.elapsed());
        digest = Sha256::digest(proof.to_bytes()).to_vec();

        let mut tr = Transcript::new(b"bits");
        let t = Instant::now();
        let (_, red) = ring_switch::prove(
            data.table(),
            params.live_rows_len(),
            &claims,
            params.level_log_msg(0),
            &mut tr,
            false,
        )
        .unwrap();
        best_rs = best_rs.min(t.elapsed());
        let t = Instant::now();
        ligerito::prove(&params, &data, red.weights, red.claim, &mut tr).unwrap();
        best_open = best_open.min(t.elapsed());
    }
    let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"bits")).unwrap();
    let decoded = bits::Proof::from_bytes(&params, claims.len(), &proof.to_bytes()).unwrap();
    bits::verify(&params, &c, &claims, &decoded, &mut Transcript::new(b"bits")).unwrap();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    println!(
        "L = {l}, {n_claims} claims: total {best_total:?} (ring switch {best_rs:?}, ligerito {best_open:?}), proof sha256 {hex}"
    );
}
