//! Field axioms and the GF(2^8) embedding, as properties on random inputs.

use proptest::prelude::*;
use starling_field::{subset_sums, trace, ByteLinearMap, Gf128, Gf8};

fn el() -> impl Strategy<Value = Gf128> {
    any::<u128>().prop_map(Gf128::new)
}

proptest! {
    #[test]
    fn mul_commutes_and_associates(a in el(), b in el(), c in el()) {
        prop_assert_eq!(a * b, b * a);
        prop_assert_eq!((a * b) * c, a * (b * c));
    }

    #[test]
    fn mul_distributes(a in el(), b in el(), c in el()) {
        prop_assert_eq!(a * (b + c), a * b + a * c);
    }

    #[test]
    fn inverse_inverts(a in el()) {
        prop_assume!(!a.is_zero());
        prop_assert_eq!(a * a.inverse().unwrap(), Gf128::ONE);
    }

    #[test]
    fn frobenius_is_additive(a in el(), b in el(), j in 0usize..128) {
        prop_assert_eq!((a + b).frobenius(j), a.frobenius(j) + b.frobenius(j));
    }

    #[test]
    fn embedding_is_a_ring_homomorphism(a in any::<u8>(), b in any::<u8>()) {
        let (a, b) = (Gf8(a), Gf8(b));
        prop_assert_eq!((a * b).embed(), a.embed() * b.embed());
        prop_assert_eq!((a + b).embed(), a.embed() + b.embed());
    }

    #[test]
    fn byte_linear_map_matches_bitwise(a in el(), seed in any::<u128>()) {
        let mut images = [Gf128::ZERO; 128];
        let mut s = Gf128::new(seed | 1);
        for img in images.iter_mut() {
            s = s * s + Gf128::X;
            *img = s;
        }
        let map = ByteLinearMap::new(&images);
        let mut expect = Gf128::ZERO;
        for (v, img) in images.iter().enumerate() {
            if a.bit(v) {
                expect += *img;
            }
        }
        prop_assert_eq!(map.apply(a), expect);
    }
}

#[test]
fn omega_is_a_root() {
    let w = starling_field::Gf8(2).embed();
    let w2 = w * w;
    let w4 = w2 * w2;
    let w8 = w4 * w4;
    assert_eq!(w8 + w4 + w2 * w + w + Gf128::ONE, Gf128::ZERO);
    assert_eq!(Gf8(1).embed(), Gf128::ONE);
}

#[test]
fn small_known_products() {
    // (x+1)^2 = x^2 + 1; x^127 * x = x^128 = x^7 + x^2 + x + 1.
    assert_eq!(Gf128::new(3) * Gf128::new(3), Gf128::new(5));
    assert_eq!(Gf128::new(1 << 127) * Gf128::X, Gf128::new(0x87));
    assert_eq!(Gf8(0x57) * Gf8(0x83), Gf8(0xc1)); // FIPS-197 section 4.2
}

#[test]
fn subset_sums_are_sums() {
    let items: Vec<Gf128> = (1..=8).map(|i| Gf128::new(i * 0x1111)).collect();
    let t = subset_sums(&items);
    for (m, &entry) in t.iter().enumerate() {
        let expect: Gf128 = (0..8).filter(|i| (m >> i) & 1 == 1).map(|i| items[i]).sum();
        assert_eq!(entry, expect);
    }
    let _ = trace::trace(Gf128::ONE);
}
