//! GF(2^128) against an implementation from outside the project: the GHASH
//! multiplication of the RustCrypto `ghash` crate (NIST SP 800-38D).
//!
//! GCM writes the coefficient of x^i as bit i counted from the most significant
//! bit of byte 0, so our element `a` is the GCM block
//! `a.to_bits().reverse_bits().to_be_bytes()`. One GHASH step from a zero
//! accumulator over one block X with key H is X * H.

use ghash::universal_hash::{KeyInit, UniversalHash};
use ghash::GHash;
use rand::{Rng, SeedableRng};
use starling_field::Gf128;

fn to_gcm(a: Gf128) -> [u8; 16] {
    a.to_bits().reverse_bits().to_be_bytes()
}

fn from_gcm(b: &[u8]) -> Gf128 {
    let mut arr = [0u8; 16];
    arr.copy_from_slice(b);
    Gf128::new(u128::from_be_bytes(arr).reverse_bits())
}

#[test]
fn multiplication_matches_ghash_crate() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for _ in 0..1000 {
        let h = Gf128::new(rng.gen());
        let x = Gf128::new(rng.gen());
        let mut gh = GHash::new(&to_gcm(h).into());
        gh.update_padded(&to_gcm(x));
        let out = gh.finalize();
        assert_eq!(from_gcm(&out), x * h);
    }
}

#[test]
fn gcm_test_case_2_ghash() {
    // NIST GCM spec, test case 2: K = 0^128, P = 0^128.
    // H = 66e94bd4ef8a2c3b884cfa59ca342b2e, C = 0388dace60b6a392f328c2b971b2fe78,
    // GHASH(H, {}, C) = f38cbb1ad69223dcc3457ae5b6b0f885 (the spec's value):
    // X1 = C * H, X2 = (X1 + len) * H with len(A)||len(C) = 0 || 128.
    let h = from_gcm(&hex_bytes("66e94bd4ef8a2c3b884cfa59ca342b2e"));
    let c = from_gcm(&hex_bytes("0388dace60b6a392f328c2b971b2fe78"));
    let len = from_gcm(&hex_bytes("00000000000000000000000000000080"));
    let ours = (c * h + len) * h;
    let mut gh = GHash::new(&to_gcm(h).into());
    gh.update_padded(&to_gcm(c));
    gh.update_padded(&to_gcm(len));
    assert_eq!(from_gcm(&gh.finalize()), ours);
    assert_eq!(
        to_gcm(ours).to_vec(),
        hex_bytes("f38cbb1ad69223dcc3457ae5b6b0f885")
    );
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}
