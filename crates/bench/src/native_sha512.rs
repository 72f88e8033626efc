//! A portable software SHA-512 compression function (FIPS 180-4 §6.4.2),
//! used only as the benchmark's yardstick for "native hashing" in plain
//! code, as `native_sha256` is for SHA-256: the `sha2` crate picks AVX2 for
//! SHA-512's message schedule at run time, which is measured as the best
//! native code instead.
//!
//! It is tested against the `sha2` crate. The message schedule lives in a
//! 16-word ring, as in `native_sha256`; the rounds are a plain loop.

use starling_circuit::sha512::K;

/// `state = state + F(state, block)`: one SHA-512 compression with feed-forward.
#[inline(never)]
pub fn compress(state: &mut [u64; 8], block: &[u8; 128]) {
    let mut w: [u64; 16] =
        std::array::from_fn(|i| u64::from_be_bytes(block[8 * i..8 * i + 8].try_into().expect("8 bytes")));
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for (i, k) in K.iter().enumerate() {
        let wi = if i < 16 {
            w[i]
        } else {
            let w15 = w[(i + 1) & 15];
            let w2 = w[(i + 14) & 15];
            let s0 = w15.rotate_right(1) ^ w15.rotate_right(8) ^ (w15 >> 7);
            let s1 = w2.rotate_right(19) ^ w2.rotate_right(61) ^ (w2 >> 6);
            let v = w[i & 15]
                .wrapping_add(s0)
                .wrapping_add(w[(i + 9) & 15])
                .wrapping_add(s1);
            w[i & 15] = v;
            v
        };
        let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
        let ch = g ^ (e & (f ^ g));
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(*k)
            .wrapping_add(wi);
        let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
        let maj = (a & b) | (c & (a | b));
        let t2 = s0.wrapping_add(maj);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn matches_sha2_crate() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for _ in 0..200 {
            let mut state: [u64; 8] = rng.gen();
            let mut block = [0u8; 128];
            rng.fill(&mut block[..]);
            let mut expect = state;
            sha2::compress512(&mut expect, &[block.into()]);
            compress(&mut state, &block);
            assert_eq!(state, expect);
        }
    }
}
