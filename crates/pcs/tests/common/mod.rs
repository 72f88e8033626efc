#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use starling_field::Gf128;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

pub fn random_vec(rng: &mut ChaCha8Rng, n: usize) -> Vec<Gf128> {
    (0..n).map(|_| Gf128::new(rng.gen())).collect()
}

pub fn dot(a: &[Gf128], b: &[Gf128]) -> Gf128 {
    a.iter().zip(b).map(|(x, y)| *x * *y).sum()
}
