//! The bulk bit-matrix kernels agree with their definitions: on the path
//! this process selected (CI also runs with lower tiers forced) and on every
//! kernel this CPU runs.

use rand::{Rng, SeedableRng};
use starling_field::bit_matrix::{
    add_bit_sums, add_bit_sums_reference, add_bit_sums_with, apply_maps_sum, apply_maps_sum_reference,
    apply_maps_sum_with, BitSumWeights, Kernel, SliceMap,
};
use starling_field::Gf128;

#[test]
fn bit_sums_match_definition() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for len in [
        0usize, 1, 7, 8, 9, 31, 32, 33, 64, 255, 256, 257, 511, 512, 513, 1000, 4096,
    ] {
        let f: Vec<u128> = (0..len).map(|_| rng.gen()).collect();
        let ws: Vec<Vec<u128>> = (0..3).map(|_| (0..len).map(|_| rng.gen()).collect()).collect();
        let prepared: Vec<BitSumWeights> = ws.iter().map(|w| BitSumWeights::new(w)).collect();
        let refs: Vec<&BitSumWeights> = prepared.iter().collect();
        let start: Vec<[u128; 128]> = (0..3).map(|_| core::array::from_fn(|_| rng.gen())).collect();
        let mut got = start.clone();
        add_bit_sums(&f, &refs, &mut got);
        for k in 0..3 {
            let mut want = start[k];
            add_bit_sums_reference(&f, &ws[k], &mut want);
            assert_eq!(got[k], want, "len {len}, weights {k}");
        }
        for kernel in Kernel::available() {
            for count in 1..=3 {
                let mut got = start[..count].to_vec();
                add_bit_sums_with(kernel, &f, &refs[..count], &mut got);
                for k in 0..count {
                    let mut want = start[k];
                    add_bit_sums_reference(&f, &ws[k], &mut want);
                    assert_eq!(got[k], want, "{kernel:?}, len {len}, weights {k} of {count}");
                }
            }
        }
    }
}

#[test]
fn bit_sums_of_single_bits() {
    // One data element with one bit set picks out exactly that weight, at
    // every position of a group of eight and of 32.
    let w: Vec<u128> = (0..64u128)
        .map(|i| (i + 1) * 0x1234_5678_9abc_def0_1111)
        .collect();
    for x in [0usize, 5, 8, 31, 38, 63] {
        for u in [0usize, 1, 7, 8, 63, 64, 100, 127] {
            let mut f = vec![0u128; 64];
            f[x] = 1u128 << u;
            for kernel in Kernel::available() {
                let mut out = [[0u128; 128]];
                add_bit_sums_with(kernel, &f, &[&BitSumWeights::new(&w)], &mut out);
                for (v, o) in out[0].iter().enumerate() {
                    assert_eq!(
                        *o,
                        if v == u { w[x] } else { 0 },
                        "{kernel:?}, x {x}, u {u}, v {v}"
                    );
                }
            }
        }
    }
}

#[test]
fn map_sums_match_definition() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for len in [0usize, 1, 63, 64, 65, 200, 1024] {
        let maps: Vec<SliceMap> = (0..3)
            .map(|_| SliceMap::new(&core::array::from_fn(|_| Gf128::new(rng.gen()))))
            .collect();
        let inputs: Vec<Vec<u128>> = (0..3).map(|_| (0..len).map(|_| rng.gen()).collect()).collect();
        let start: Vec<u128> = (0..len).map(|_| rng.gen()).collect();
        for count in 1..=3 {
            let mrefs: Vec<&SliceMap> = maps[..count].iter().collect();
            let irefs: Vec<&[u128]> = inputs[..count].iter().map(Vec::as_slice).collect();
            let mut want = start.clone();
            apply_maps_sum_reference(&mrefs, &irefs, &mut want);
            let mut got = start.clone();
            apply_maps_sum(&mrefs, &irefs, &mut got);
            assert_eq!(got, want, "len {len}, maps {count}");
            for kernel in Kernel::available() {
                let mut got = start.clone();
                apply_maps_sum_with(kernel, &mrefs, &irefs, &mut got);
                assert_eq!(got, want, "{kernel:?}, len {len}, maps {count}");
            }
        }
    }
}

#[test]
fn slice_map_is_the_linear_map() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    let images: [Gf128; 128] = core::array::from_fn(|_| Gf128::new(rng.gen()));
    let map = SliceMap::new(&images);
    for _ in 0..100 {
        let a: u128 = rng.gen();
        let want: Gf128 = (0..128).filter(|v| (a >> v) & 1 == 1).map(|v| images[v]).sum();
        assert_eq!(map.apply(Gf128::new(a)), want);
    }
}
