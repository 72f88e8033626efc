//! A portable software SHA-256 compression function (FIPS 180-4 §6.2.2),
//! used only as the benchmark's yardstick for "native hashing" without SHA-NI.
//!
//! It is tested against the `sha2` crate. Written for speed: the message
//! schedule lives in a 16-word ring and the 64 rounds are unrolled by a macro,
//! so the compiler keeps the state in registers.

use starling_circuit::sha256::K;

/// `state = state + F(state, block)`: one SHA-256 compression with feed-forward.
// The unrolled schedule also stores the last words, which no round reads.
#[allow(unused_assignments)]
#[inline(never)]
pub fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 16];
    for (i, word) in w.iter_mut().enumerate() {
        *word = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    macro_rules! round {
        ($i:expr) => {{
            let wi = if $i < 16 {
                w[$i & 15]
            } else {
                let w15 = w[($i + 1) & 15];
                let w2 = w[($i + 14) & 15];
                let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
                let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
                let v = w[$i & 15]
                    .wrapping_add(s0)
                    .wrapping_add(w[($i + 9) & 15])
                    .wrapping_add(s1);
                w[$i & 15] = v;
                v
            };
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = g ^ (e & (f ^ g));
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[$i])
                .wrapping_add(wi);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
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
        }};
    }
    macro_rules! eight {
        ($base:expr) => {
            round!($base);
            round!($base + 1);
            round!($base + 2);
            round!($base + 3);
            round!($base + 4);
            round!($base + 5);
            round!($base + 6);
            round!($base + 7);
        };
    }
    eight!(0);
    eight!(8);
    eight!(16);
    eight!(24);
    eight!(32);
    eight!(40);
    eight!(48);
    eight!(56);

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
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let mut state: [u32; 8] = rng.gen();
            let mut block = [0u8; 64];
            rng.fill(&mut block[..]);
            let mut expect = state;
            sha2::compress256(&mut expect, &[block.into()]);
            compress(&mut state, &block);
            assert_eq!(state, expect);
        }
    }
}
