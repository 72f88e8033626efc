//! The 128x128 bit transpose, which ring switching applies to the prover's
//! 128 bit evaluations (`t_v = sum_u bit_v(s_u) x^u`).

/// The 128x128 bit transpose: bit `v` of `out[u]` is bit `u` of `rows[v]`.
/// Seven rounds, each swapping the off-diagonal blocks of side `k` (64, 32,
/// .., 1) inside every block of side `2 k`.
pub fn transpose128(rows: &[u128; 128]) -> [u128; 128] {
    let mut x = *rows;
    // The columns whose bit k is clear.
    let mut clear = u128::from(u64::MAX);
    let mut k = 64;
    while k > 0 {
        for r in (0..128).filter(|r| r & k == 0) {
            let t = ((x[r] >> k) ^ x[r + k]) & clear;
            x[r] ^= t << k;
            x[r + k] ^= t;
        }
        k /= 2;
        clear ^= clear << k;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose128_matches_definition() {
        let mut x = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        let rows: [u128; 128] = core::array::from_fn(|_| {
            x = x
                .wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
                .rotate_left(29)
                ^ 0x5555;
            x
        });
        let t = transpose128(&rows);
        for (u, tu) in t.iter().enumerate() {
            for (v, rv) in rows.iter().enumerate() {
                assert_eq!((tu >> v) & 1, (rv >> u) & 1, "u {u}, v {v}");
            }
        }
    }
}
