//! Timing of commit / open / verify (run with `--release`; set
//! `RAYON_NUM_THREADS=1` for single-threaded numbers).
//! Usage: `cargo run --release -p starling-pcs --example pcs_timing -- [L] [default|secure]`

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_crypto::Transcript;
use starling_field::Gf128;
use starling_pcs::ring_switch::bit_evaluations;
use starling_pcs::{bits, commit, ligerito, PackedClaim, PcsParams, SecurityProfile};
use starling_poly::multilinear::{eq_eval, eq_table, evaluate};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let l: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(22);
    let profile = match args.get(2).map(String::as_str) {
        Some("secure") => SecurityProfile::Secure,
        _ => SecurityProfile::Default,
    };
    let params = PcsParams::new(l, profile).unwrap();
    println!("L = {l}, {profile:?}, levels: {:?}", params.levels());
    println!("{}", params.security_report_with_ring_switch(2));

    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let table: Vec<Gf128> = (0..1usize << l).map(|_| Gf128::new(rng.gen())).collect();
    let point: Vec<Gf128> = (0..l).map(|_| Gf128::new(rng.gen())).collect();
    let value = evaluate(&table, &point);

    let t = Instant::now();
    let (c, data) = commit(&params, table).unwrap();
    let t_commit = t.elapsed();

    let t = Instant::now();
    let proof = ligerito::prove(
        &params,
        &data,
        eq_table(&point),
        value,
        &mut Transcript::new(b"bench"),
    )
    .unwrap();
    let t_open = t.elapsed();
    let bytes = proof.to_bytes();

    let t = Instant::now();
    let decoded = ligerito::Proof::from_bytes(&params, &bytes).unwrap();
    let weight = |p: &[Gf128]| eq_eval(&point, p);
    ligerito::verify(
        &params,
        &c,
        value,
        &weight,
        &decoded,
        &mut Transcript::new(b"bench"),
    )
    .unwrap();
    let t_verify = t.elapsed();

    println!("commit {t_commit:?}, open {t_open:?}, verify {t_verify:?}");
    println!("proof {} bytes", bytes.len());
    for (name, size) in proof.size_breakdown() {
        println!("  {size:>8} {name}");
    }

    // Ring switching + opening for two bit claims.
    let claims: Vec<PackedClaim> = (0..2)
        .map(|_| {
            let point: Vec<Gf128> = (0..l).map(|_| Gf128::new(rng.gen())).collect();
            let lambda: Vec<Gf128> = (0..128).map(|_| Gf128::new(rng.gen())).collect();
            let s = bit_evaluations(data.table(), &point);
            let value = lambda.iter().zip(s.iter()).map(|(a, b)| *a * *b).sum();
            PackedClaim { lambda, point, value }
        })
        .collect();
    let t = Instant::now();
    let proof = bits::prove(&params, &data, &claims, &mut Transcript::new(b"bits")).unwrap();
    let t_open_bits = t.elapsed();
    let bytes = proof.to_bytes();
    let t = Instant::now();
    let decoded = bits::Proof::from_bytes(&params, claims.len(), &bytes).unwrap();
    bits::verify(&params, &c, &claims, &decoded, &mut Transcript::new(b"bits")).unwrap();
    let t_verify_bits = t.elapsed();
    println!(
        "bits (2 claims): open {t_open_bits:?}, verify {t_verify_bits:?}, proof {} bytes",
        bytes.len()
    );
}
