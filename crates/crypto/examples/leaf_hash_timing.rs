//! Leaf hashing timing for the level-0 commitment (release mode):
//! `2^log_leaves` leaves of `leaf_elems` field elements, SHA-256
//! (`merkle::hash_leaf_fields`, SHA-NI when the CPU has it), the many-leaf
//! hasher (`sha256_multi::hash_leaves_chunked`, AVX-512 sixteen leaves at a
//! time when the CPU has it; `STARLING_FORCE_PORTABLE=1` forces the portable
//! path) and BLAKE3 on the same bytes, single-threaded.
//! Usage: `cargo run --release -p starling-crypto --example leaf_hash_timing -- [log_leaves] [leaf_elems]`

use std::time::Instant;

use starling_crypto::merkle::hash_leaf_fields;
use starling_crypto::sha256_multi;
use starling_field::Gf128;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log_leaves: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(18);
    let leaf: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
    let data: Vec<Gf128> = (0..(leaf << log_leaves) as u128)
        .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834)))
        .collect();
    let mb = (data.len() * 16) as f64 / 1e6;
    for rep in 0..3 {
        let t = Instant::now();
        let h: Vec<_> = data.chunks(leaf).map(hash_leaf_fields).collect();
        let sha = t.elapsed();
        let t = Instant::now();
        let multi = sha256_multi::hash_leaves_chunked(Gf128::slice_as_bytes(&data), leaf * 16);
        let sha_multi = t.elapsed();
        assert_eq!(multi, h, "multi-buffer digests differ");
        let t = Instant::now();
        let b: Vec<_> = data
            .chunks(leaf)
            .map(|c| {
                let mut h = blake3::Hasher::new();
                h.update(&[0u8]);
                for v in c {
                    h.update(&v.to_bytes());
                }
                *h.finalize().as_bytes()
            })
            .collect();
        let blake = t.elapsed();
        let t = Instant::now();
        let b2: Vec<_> = data
            .chunks(leaf)
            .map(|c| {
                let bytes: Vec<u8> = std::iter::once(0u8)
                    .chain(c.iter().flat_map(|v| v.to_bytes()))
                    .collect();
                *blake3::hash(&bytes).as_bytes()
            })
            .collect();
        let blake_one = t.elapsed();
        println!(
            "rep {rep}: {} leaves x {} B: sha256 {sha:?} ({:.0} MB/s), sha256_multi [{:?}] {sha_multi:?} ({:.0} MB/s), blake3 {blake:?} ({:.0} MB/s), blake3 one-shot incl. copy {blake_one:?} [{} {} {}]",
            h.len(),
            leaf * 16,
            mb / sha.as_secs_f64(),
            sha256_multi::backend(),
            mb / sha_multi.as_secs_f64(),
            mb / blake.as_secs_f64(),
            h[0][0],
            b[0][0],
            b2[0][0]
        );
    }
}
