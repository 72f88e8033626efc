//! Encode / hash timing for the level-0 commitment (release mode).
use std::time::Instant;

use starling_crypto::merkle::{hash_leaf_fields, MerkleTree};
use starling_field::Gf128;
use starling_poly::reed_solomon::ReedSolomon;

fn main() {
    let l: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(22);
    let (k, r) = (6, 2);
    let table: Vec<Gf128> = (0..1u128 << l)
        .map(|i| Gf128::new(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .collect();
    let code = ReedSolomon::new(l - k, r);
    let t = Instant::now();
    let cw = code.encode_batch(&table, 1 << k);
    println!("encode {:?}", t.elapsed());
    let t = Instant::now();
    let leaves: Vec<_> = cw.chunks(1 << k).map(hash_leaf_fields).collect();
    println!("leaf hashes {:?}", t.elapsed());
    let t = Instant::now();
    let tree = MerkleTree::from_leaf_hashes(leaves);
    println!("tree {:?} {:?}", t.elapsed(), &tree.root()[..4]);
}
