//! Every fast backend agrees with the portable definition on random inputs.

use rand::{Rng, SeedableRng};
use starling_field::backend::{self, portable};
use starling_field::cpu::{self, Tier};
use starling_field::Gf128Slices;

#[test]
fn mul_x64_is_the_product_by_x64() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let edges = [
        0,
        1,
        u128::MAX,
        1 << 63,
        1 << 64,
        1 << 127,
        u128::MAX << 64,
        u64::MAX as u128,
    ];
    let random = (0..10_000).map(|_| rng.gen::<u128>()).collect::<Vec<_>>();
    for s in edges.into_iter().chain(random) {
        assert_eq!(portable::mul_x64(s), portable::mul(s, 1 << 64), "s = {s:#x}");
    }
}

#[test]
fn slice_kernels_match_scalar() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let a: Vec<u128> = (0..257).map(|_| rng.gen()).collect();
    let b: Vec<u128> = (0..257).map(|_| rng.gen()).collect();
    let s: u128 = rng.gen();
    let mut v = a.clone();
    backend::scale_slice(&mut v, s);
    let expect: Vec<u128> = a.iter().map(|x| portable::mul(*x, s)).collect();
    assert_eq!(v, expect);
    // Dot products against the sum of reduced products, ragged lengths.
    for len in [0, 1, 255, 256, 257] {
        let expect = a[..len]
            .iter()
            .zip(&b[..len])
            .fold(0, |acc, (x, y)| acc ^ portable::mul(*x, *y));
        assert_eq!(backend::dot(&a[..len], &b[..len]), expect, "length {len}");
    }
}

/// The shared harness: every kernel of `k` against the portable definition,
/// on random inputs of lengths around the vector widths (tails included).
fn check_kernels_against_portable(k: &backend::Kernels, seed: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut vec = |n: usize| -> Vec<u128> { (0..n).map(|_| rng.gen()).collect() };
    for n in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 257] {
        let (a, b, c, d) = (vec(n), vec(n), vec(n), vec(n));
        let mut s = vec(1)[0];
        if n == 7 {
            s = 0;
        }
        if n == 9 {
            s = u128::MAX;
        }

        assert_eq!((k.dot)(&b, &c), portable::dot(&b, &c), "{:?} dot n = {n}", k.name);
        let reduced_each = b
            .iter()
            .zip(&c)
            .fold(0, |acc, (&x, &y)| acc ^ portable::mul(x, y));
        assert_eq!(portable::dot(&b, &c), reduced_each, "portable dot n = {n}");

        let (mut got, mut want) = (a.clone(), a.clone());
        (k.scale_slice)(&mut got, s);
        portable::scale_slice(&mut want, s);
        assert_eq!(got, want, "{:?} scale_slice n = {n}", k.name);

        let (mut got, mut want) = (b.clone(), b.clone());
        (k.scale_into)(&mut got, &a, s);
        portable::scale_into(&mut want, &a, s);
        assert_eq!(got, want, "{:?} scale_into n = {n}", k.name);
        let mut scaled = a.clone();
        portable::scale_slice(&mut scaled, s);
        assert_eq!(want, scaled, "portable scale_into n = {n}");

        let (mut got, mut want) = (a.clone(), a.clone());
        (k.axpy)(&mut got, &b, s);
        portable::axpy(&mut want, &b, s);
        assert_eq!(got, want, "{:?} axpy n = {n}", k.name);

        let (mut gl, mut gh, mut wl, mut wh) = (a.clone(), b.clone(), a.clone(), b.clone());
        (k.butterfly)(&mut gl, &mut gh, s);
        portable::butterfly(&mut wl, &mut wh, s);
        assert_eq!((gl, gh), (wl, wh), "{:?} butterfly n = {n}", k.name);

        let (mut gl, mut gh, mut wl, mut wh) = (a.clone(), b.clone(), a.clone(), b.clone());
        (k.butterfly_inverse)(&mut gl, &mut gh, s);
        portable::butterfly_inverse(&mut wl, &mut wh, s);
        assert_eq!((gl, gh), (wl, wh), "{:?} butterfly_inverse n = {n}", k.name);

        let (mut gl, mut gh, mut wl, mut wh) = (a.clone(), b.clone(), a.clone(), b.clone());
        (k.butterfly_from)(&mut gl, &mut gh, &c, &d, s);
        portable::butterfly_from(&mut wl, &mut wh, &c, &d, s);
        assert_eq!((&gl, &gh), (&wl, &wh), "{:?} butterfly_from n = {n}", k.name);
        // In place it is the butterfly.
        let (mut gl, mut gh) = (c.clone(), d.clone());
        portable::butterfly(&mut gl, &mut gh, s);
        assert_eq!((gl, gh), (wl, wh), "butterfly_from n = {n} vs butterfly");

        check_folds(k, [&a, &b, &c, &d], s);
    }
}

/// The fold and round-sum kernels of `k` against the portable ones, and the
/// portable ones against their definitions by products, on the halves
/// `[f0, f1, w0, w1]` (equal lengths) and the challenge `r`.
fn check_folds(k: &backend::Kernels, halves: [&[u128]; 4], r: u128) {
    let [f0, f1, w0, w1] = halves;
    let n = f0.len();
    let folded = |lo: &[u128], hi: &[u128]| -> Vec<u128> {
        lo.iter()
            .zip(hi)
            .map(|(&l, &h)| l ^ portable::mul(l ^ h, r))
            .collect()
    };

    let (mut got, mut want) = (vec![0; n], vec![0; n]);
    (k.fold)(&mut got, f0, f1, r);
    portable::fold(&mut want, f0, f1, r);
    assert_eq!(got, want, "{:?} fold n = {n}", k.name);
    assert_eq!(want, folded(f0, f1), "portable fold n = {n}");

    let (mut got, mut want) = (vec![0; 2 * n], vec![0; 2 * n]);
    (k.fold_interleaving)(&mut got, halves, r);
    portable::fold_interleaving(&mut want, halves, r);
    assert_eq!(got, want, "{:?} fold_interleaving n = {n}", k.name);
    let (ff, fw) = (folded(f0, f1), folded(w0, w1));
    let interleaved: Vec<u128> = ff.iter().zip(&fw).flat_map(|(&x, &y)| [x, y]).collect();
    assert_eq!(want, interleaved, "portable fold_interleaving n = {n}");

    let got = (k.round_sums)(halves);
    let want = portable::round_sums(halves);
    assert_eq!(got, want, "{:?} round_sums n = {n}", k.name);
    let s0 = f0
        .iter()
        .zip(w0)
        .fold(0, |acc, (&x, &y)| acc ^ portable::mul(x, y));
    let s2 = (0..n).fold(0, |acc, j| acc ^ portable::mul(f0[j] ^ f1[j], w0[j] ^ w1[j]));
    assert_eq!(want, [s0, s2], "portable round_sums n = {n}");

    // Interleaved: `lo = [f0[0], w0[0], f0[1], w0[1], ..]`, `hi` likewise of
    // `f1` and `w1`; the same sums.
    let lo: Vec<u128> = f0.iter().zip(w0).flat_map(|(&x, &y)| [x, y]).collect();
    let hi: Vec<u128> = f1.iter().zip(w1).flat_map(|(&x, &y)| [x, y]).collect();
    let got = (k.round_sums_interleaved)(&lo, &hi);
    let want = portable::round_sums_interleaved(&lo, &hi);
    assert_eq!(got, want, "{:?} round_sums_interleaved n = {n}", k.name);
    assert_eq!(want, [s0, s2], "portable round_sums_interleaved n = {n}");
}

#[test]
fn every_available_backend_matches_portable() {
    for (i, &t) in Tier::ALL.iter().enumerate() {
        let variants = backend::variants_for(t);
        if variants.is_empty() {
            eprintln!("skipped: this CPU cannot run the {t} tier");
        }
        for (j, k) in variants.into_iter().enumerate() {
            check_kernels_against_portable(k, 100 + 10 * i as u64 + j as u64);
        }
    }
}

#[test]
fn selected_kernels_match_portable() {
    let k = backend::kernels();
    assert_eq!(k.name, backend::kernels_for(cpu::tier()).unwrap().name);
    check_kernels_against_portable(k, 7);
}

#[test]
fn butterfly_inverse_undoes_butterfly() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    let lo: Vec<u128> = (0..37).map(|_| rng.gen()).collect();
    let hi: Vec<u128> = (0..37).map(|_| rng.gen()).collect();
    let t: u128 = rng.gen();
    let (mut l, mut h) = (lo.clone(), hi.clone());
    backend::butterfly(&mut l, &mut h, t);
    backend::butterfly_inverse(&mut l, &mut h, t);
    assert_eq!((l, h), (lo, hi));
}

#[test]
fn slice_views_round_trip() {
    use starling_field::Gf128;
    let v: Vec<Gf128> = (0..5u128)
        .map(|i| Gf128::new(i * 0x0123_4567_89ab_cdef_0011_2233_4455_6677))
        .collect();
    let raw = Gf128::as_u128_slice(&v);
    assert!(raw.iter().zip(&v).all(|(r, g)| *r == g.to_bits()));
    assert_eq!(Gf128::from_u128_slice(raw), &v[..]);
    #[cfg(target_endian = "little")]
    {
        let bytes: Vec<u8> = v.iter().flat_map(|g| g.to_bytes()).collect();
        assert_eq!(Gf128::slice_as_bytes(&v), &bytes[..]);
        let words: Vec<u64> = v
            .iter()
            .flat_map(|g| [g.to_bits() as u64, (g.to_bits() >> 64) as u64])
            .collect();
        assert_eq!(Gf128::as_u64_words(&v), &words[..]);
        let mut w = v.clone();
        Gf128::as_u64_words_mut(&mut w)[3] = 5;
        assert_eq!(w[1], Gf128::new(v[1].to_bits() as u64 as u128 | (5u128 << 64)));
    }
    let mut w = v.clone();
    Gf128::as_u128_slice_mut(&mut w)[2] = 9;
    assert_eq!(w[2], Gf128::new(9));
    Gf128::from_u128_slice_mut(Gf128::as_u128_slice_mut(&mut w))[3] = Gf128::ONE;
    assert_eq!(w[3], Gf128::ONE);
}

#[test]
fn requested_tier_is_respected() {
    match cpu::requested() {
        Ok(Some(t)) => assert_eq!(cpu::tier(), t),
        Ok(None) => assert_eq!(cpu::tier(), Tier::best()),
        Err(e) => panic!("{e}"),
    }
}

/// `f` applied to a copy of the four quarters `q`.
fn on_quarters(q: &[Vec<u128>], f: impl FnOnce([&mut [u128]; 4])) -> Vec<Vec<u128>> {
    let mut out = q.to_vec();
    let [a, b, c, d] = &mut out[..] else {
        unreachable!("four quarters")
    };
    f([a, b, c, d]);
    out
}

#[test]
fn butterfly2_matches_portable() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(77);
    for n in [0usize, 1, 2, 3, 4, 5, 6, 7, 16, 46, 63, 64] {
        let q: Vec<Vec<u128>> = (0..4).map(|_| (0..n).map(|_| rng.gen()).collect()).collect();
        let (t, t0, t1): (u128, u128, u128) = (rng.gen(), rng.gen(), rng.gen());
        let want = on_quarters(&q, |x| portable::butterfly2(x, t, t0, t1));
        // The definition is two rounds of plain butterflies.
        let plain = on_quarters(&q, |[a, b, c, d]| {
            portable::butterfly(a, c, t);
            portable::butterfly(b, d, t);
            portable::butterfly(a, b, t0);
            portable::butterfly(c, d, t1);
        });
        assert_eq!(want, plain, "n = {n}");
        let got = on_quarters(&q, |x| backend::butterfly2(x, t, t0, t1));
        assert_eq!(got, want, "dispatch, n = {n}");
        #[cfg(target_arch = "x86_64")]
        if Tier::Avx512.runs_here() {
            // SAFETY: the tier that includes the features runs here.
            let got = on_quarters(&q, |x| unsafe { backend::avx512::butterfly2(x, t, t0, t1) });
            assert_eq!(got, want, "avx512, n = {n}");
        }
        #[cfg(target_arch = "x86_64")]
        if Tier::Avx2.runs_here() && cpu::has_vpclmulqdq_256() {
            // SAFETY: the AVX2 tier runs here, and 256-bit VPCLMULQDQ was checked.
            let got = on_quarters(&q, |x| unsafe { backend::avx2_vpclmul::butterfly2(x, t, t0, t1) });
            assert_eq!(got, want, "avx2 with vpclmulqdq, n = {n}");
        }
        #[cfg(target_arch = "x86_64")]
        if Tier::Avx2.runs_here() {
            // SAFETY: the AVX2 tier, which includes pclmulqdq, runs here.
            let got = on_quarters(&q, |x| unsafe { backend::avx2::butterfly2(x, t, t0, t1) });
            assert_eq!(got, want, "avx2 with pclmulqdq, n = {n}");
        }
    }
}

#[test]
fn butterfly_rounds4_matches_portable() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(78);
    for batch in [1usize, 2, 3, 4, 5, 8, 46] {
        let data: Vec<u128> = (0..16 * batch).map(|_| rng.gen()).collect();
        let mut twiddles: [u128; 15] = core::array::from_fn(|_| rng.gen());
        if batch == 2 {
            twiddles[4] = 0;
        }
        let mut want = data.clone();
        portable::butterfly_rounds4(&mut want, batch, &twiddles);
        let mut got = data.clone();
        backend::butterfly_rounds4(&mut got, batch, &twiddles);
        assert_eq!(got, want, "dispatch, batch {batch}");
        #[cfg(target_arch = "x86_64")]
        if batch == 4 && Tier::Avx512.runs_here() {
            let mut got = data.clone();
            let block: &mut [[u128; 4]; 16] = got.as_chunks_mut::<4>().0.try_into().unwrap();
            // SAFETY: the tier that includes the features runs here.
            unsafe { backend::avx512::butterfly_rounds4(block, &twiddles) };
            assert_eq!(got, want, "avx512");
        }
    }
}

/// What a native verifier installs computes the verifier's definitions.
#[test]
fn the_kernels_installed_in_the_verifier_compute_its_definitions() {
    use starling_field::Gf128;
    use starling_verifier::field as verifier;
    backend::install_in_verifier();
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for n in [0usize, 1, 7, 64, 257] {
        let a: Vec<Gf128> = (0..n).map(|_| Gf128::new(rng.gen())).collect();
        let b: Vec<Gf128> = (0..n).map(|_| Gf128::new(rng.gen())).collect();
        assert_eq!(verifier::dot(&a, &b), verifier::dot_here(&a, &b), "dot, n = {n}");
        let s = Gf128::new(rng.gen());
        let (mut fast, mut here) = (vec![Gf128::ZERO; n], vec![Gf128::ZERO; n]);
        verifier::scale_into(&mut fast, &a, s);
        verifier::scale_into_here(&mut here, &a, s);
        assert_eq!(fast, here, "scale_into, n = {n}");
    }
}
