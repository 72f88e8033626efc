//! Leaf hashing timing for the level-0 commitment (release mode):
//! `2^log_leaves` leaves of `leaf_elems` field elements through
//! `blake3_multi::keyed_hash_many` (keyed BLAKE3 many leaves at a time: sixteen
//! with AVX-512, eight with AVX2, four with NEON; `STARLING_CPU_TIER` picks
//! the tier) and through `PartialHashes` four elements of every leaf at a
//! time (as the commitment feeds them), against the `blake3` crate one leaf
//! at a time and SHA-256 one
//! leaf at a time (the `sha2` crate, SHA-NI where the CPU has it), on one
//! thread.
//! Usage: `cargo run --release -p starling-crypto --example leaf_hash_timing -- [log_leaves] [leaf_elems]`

use starling_field::Gf128Slices;
use std::time::{Duration, Instant};

use sha2::{Digest as _, Sha256};
use starling_crypto::blake3_multi::{self, PartialHashes};
use starling_crypto::merkle;
use starling_field::Gf128;

fn rate(mb: f64, t: Duration) -> String {
    format!("{t:.1?} ({:.0} MB/s)", mb / t.as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log_leaves: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(18);
    let leaf: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40);
    let data: Vec<Gf128> = (0..(leaf << log_leaves) as u128)
        .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)))
        .collect();
    let bytes = Gf128::slice_as_bytes(&data);
    let mb = bytes.len() as f64 / 1e6;
    for rep in 0..3 {
        let t = Instant::now();
        let mut many = vec![[0u8; 32]; 1 << log_leaves];
        blake3_multi::keyed_hash_many(&merkle::LEAF_KEY, bytes, leaf * 16, &mut many);
        let many_t = t.elapsed();
        // As the commitment feeds them: four elements of every leaf at a time.
        let parts: Vec<Vec<u8>> =
            data.chunks(leaf)
                .fold(vec![Vec::new(); leaf.div_ceil(4)], |mut parts, col| {
                    for (p, four) in parts.iter_mut().zip(col.chunks(4)) {
                        p.extend_from_slice(Gf128::slice_as_bytes(four));
                    }
                    parts
                });
        let t = Instant::now();
        let mut partial = PartialHashes::new(&merkle::LEAF_KEY, 1 << log_leaves, leaf * 16);
        for p in &parts {
            partial.update(p, p.len() >> log_leaves);
        }
        let partial = partial.finish();
        let parts_t = t.elapsed();
        assert_eq!(many, partial, "digests fed in parts differ");
        let t = Instant::now();
        let one: Vec<_> = data.chunks(leaf).map(merkle::hash_leaf_fields).collect();
        let one_t = t.elapsed();
        assert_eq!(many, one, "many-leaf digests differ");
        let t = Instant::now();
        let sha: Vec<[u8; 32]> = bytes
            .chunks(leaf * 16)
            .map(|c| Sha256::digest(c).into())
            .collect();
        let sha_t = t.elapsed();
        println!(
            "rep {rep}: {} leaves x {} B: many [{:?}] {}, in parts of 64 B {}, blake3 one at a time {}, sha256 one at a time {} [{} {}]",
            many.len(),
            leaf * 16,
            blake3_multi::backend(),
            rate(mb, many_t),
            rate(mb, parts_t),
            rate(mb, one_t),
            rate(mb, sha_t),
            many[0][0],
            sha[0][0],
        );
    }
}
