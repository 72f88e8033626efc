//! Every fast backend agrees with the portable definition on random inputs.

use rand::{Rng, SeedableRng};
use starling_field::backend::{self, portable};

#[test]
fn selected_backend_matches_portable() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for _ in 0..10_000 {
        let a: u128 = rng.gen();
        let b: u128 = rng.gen();
        assert_eq!(backend::mul(a, b), portable::mul(a, b));
    }
    // Edge values.
    for &a in &[0u128, 1, u128::MAX, 1 << 127, (1 << 127) | 1] {
        for &b in &[0u128, 1, u128::MAX, 1 << 127, 0x87] {
            assert_eq!(backend::mul(a, b), portable::mul(a, b));
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn clmul_matches_portable_when_available() {
    if !std::arch::is_x86_feature_detected!("pclmulqdq") {
        eprintln!("skipped: this CPU has no PCLMULQDQ");
        return;
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    for _ in 0..10_000 {
        let a: u128 = rng.gen();
        let b: u128 = rng.gen();
        // SAFETY: the feature was detected just above.
        let fast = unsafe { backend::clmul::mul(a, b) };
        assert_eq!(fast, portable::mul(a, b));
    }
}

#[test]
fn slice_kernels_match_scalar() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let a: Vec<u128> = (0..257).map(|_| rng.gen()).collect();
    let b: Vec<u128> = (0..257).map(|_| rng.gen()).collect();
    let mut acc: Vec<u128> = (0..257).map(|_| rng.gen()).collect();
    let expect: Vec<u128> = acc
        .iter()
        .zip(&a)
        .zip(&b)
        .map(|((c, x), y)| c ^ portable::mul(*x, *y))
        .collect();
    backend::mul_add_slices(&mut acc, &a, &b);
    assert_eq!(acc, expect);
    let s: u128 = rng.gen();
    let mut v = a.clone();
    backend::scale_slice(&mut v, s);
    let expect: Vec<u128> = a.iter().map(|x| portable::mul(*x, s)).collect();
    assert_eq!(v, expect);
}

#[test]
fn forced_portable_is_respected() {
    if backend::portable_forced() {
        assert_eq!(backend::backend(), backend::Backend::Portable);
    }
}
