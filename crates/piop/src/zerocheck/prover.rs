//! The zerocheck prover: one pass over the bits for the skip messages, one
//! pass to fold `a` and `b` at `r0`, then the sumcheck on field vectors of
//! length `2^(l-6)`.

use std::sync::OnceLock;

use rayon::prelude::*;
use starling_crypto::Transcript;
use starling_field::{Gf128, Gf8};
use starling_poly::multilinear::{eq_table, fold_lowest_in_place};

use super::{GruenRound, Output, Proof};
use super::{LABEL_EVALS, LABEL_P, LABEL_R, LABEL_R0, LABEL_ROUND, LABEL_V};
use crate::claims::weigh_word;
use crate::skip::{lagrange_at_extra_points, lagrange_weights, EXTRA_POINTS, SKIP_SIZE};
use crate::{challenge_nonzero_point, Shape};

/// Bit-sliced byte tables of the extra-point values: for byte position `j`
/// and byte value `m`, plane `i` has bit `e - 64` set iff bit `i` of
/// `sum_{t in m} L_{8j+t}(e)` (a GF(2^8) value) is set. XOR-ing the eight rows
/// picked by a word's bytes gives `a_hat` on all 63 extra points at once, as
/// eight 64-lane bit planes.
type PlaneRow = [u64; 8];

fn extra_point_tables() -> &'static [[PlaneRow; 256]; 8] {
    static TABLES: OnceLock<Box<[[PlaneRow; 256]; 8]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let ell = lagrange_at_extra_points();
        let mut t = Box::new([[[0u64; 8]; 256]; 8]);
        for (j, tj) in t.iter_mut().enumerate() {
            for (m, row) in tj.iter_mut().enumerate() {
                for (lane, ell_e) in ell.iter().enumerate() {
                    let mut v = 0u8;
                    for bit in 0..8 {
                        if (m >> bit) & 1 == 1 {
                            v ^= ell_e[8 * j + bit].0;
                        }
                    }
                    for (i, plane) in row.iter_mut().enumerate() {
                        *plane |= (((v >> i) & 1) as u64) << lane;
                    }
                }
            }
        }
        t
    })
}

#[inline]
fn planes_of(tables: &[[PlaneRow; 256]; 8], word: u64) -> PlaneRow {
    let mut p = [0u64; 8];
    for (j, tj) in tables.iter().enumerate() {
        let row = &tj[((word >> (8 * j)) & 0xff) as usize];
        for i in 0..8 {
            p[i] ^= row[i];
        }
    }
    p
}

/// 64 GF(2^8) products at once on bit planes (schoolbook, then reduction
/// modulo the AES polynomial X^8 + X^4 + X^3 + X + 1).
#[inline]
fn bitsliced_gf8_mul(a: &PlaneRow, b: &PlaneRow) -> PlaneRow {
    let mut p = [0u64; 15];
    for i in 0..8 {
        for j in 0..8 {
            p[i + j] ^= a[i] & b[j];
        }
    }
    for d in (8..15).rev() {
        let t = p[d];
        p[d - 8] ^= t;
        p[d - 7] ^= t;
        p[d - 5] ^= t;
        p[d - 4] ^= t;
    }
    let mut out = [0u64; 8];
    out.copy_from_slice(&p[..8]);
    out
}

/// Per-byte buckets of `eq` weights: `ab[8 i + q][m]` sums the weights of the
/// words whose product plane `i` has byte `q` equal to `m`; `z[q][m]` the
/// same for byte `q` of the `z` word.
struct SkipBuckets {
    ab: Vec<[Gf128; 256]>,
    z: Vec<[Gf128; 256]>,
}

impl SkipBuckets {
    fn new() -> Self {
        SkipBuckets {
            ab: vec![[Gf128::ZERO; 256]; 64],
            z: vec![[Gf128::ZERO; 256]; 8],
        }
    }

    fn merge(mut self, other: SkipBuckets) -> SkipBuckets {
        for (x, y) in self
            .ab
            .iter_mut()
            .zip(&other.ab)
            .chain(self.z.iter_mut().zip(&other.z))
        {
            for (u, v) in x.iter_mut().zip(y) {
                *u += *v;
            }
        }
        self
    }

    /// Adds a batch of words: first the products of all words (bit-sliced),
    /// then the bucket updates column by column, so each pass touches one
    /// 4 KB bucket table (L1-resident) instead of 72 scattered ones.
    fn add_words(
        &mut self,
        tables: &[[PlaneRow; 256]; 8],
        a: &[u64],
        b: &[u64],
        z: &[u64],
        weights: &[Gf128],
        products: &mut Vec<PlaneRow>,
    ) {
        products.clear();
        products.extend(
            a.iter()
                .zip(b)
                .map(|(&wa, &wb)| bitsliced_gf8_mul(&planes_of(tables, wa), &planes_of(tables, wb))),
        );
        for (col, buckets) in self.ab.iter_mut().enumerate() {
            let (i, shift) = (col / 8, 8 * (col % 8));
            for (prod, &w) in products.iter().zip(weights) {
                buckets[((prod[i] >> shift) & 0xff) as usize] += w;
            }
        }
        for (q, buckets) in self.z.iter_mut().enumerate() {
            for (&wz, &w) in z.iter().zip(weights) {
                buckets[((wz >> (8 * q)) & 0xff) as usize] += w;
            }
        }
    }

    /// Turns bucket sums into `(v, p_extra)`.
    fn finish(&self) -> (Vec<Gf128>, Vec<Gf128>) {
        // lane_sum(buckets)[t] = sum of buckets[m] over m with bit t set.
        let lane_sum = |buckets: &[Gf128; 256]| {
            let mut out = [Gf128::ZERO; 8];
            for (m, v) in buckets.iter().enumerate() {
                for (t, o) in out.iter_mut().enumerate() {
                    if (m >> t) & 1 == 1 {
                        *o += *v;
                    }
                }
            }
            out
        };
        let mut v = vec![Gf128::ZERO; SKIP_SIZE];
        for q in 0..8 {
            v[8 * q..8 * q + 8].copy_from_slice(&lane_sum(&self.z[q]));
        }
        // P_ab(e) = sum_i embed(x^i) * (weight of words whose product at e has bit i).
        let mut p = vec![Gf128::ZERO; EXTRA_POINTS];
        for i in 0..8 {
            let basis = Gf8(1 << i).embed();
            for q in 0..8 {
                let s = lane_sum(&self.ab[8 * i + q]);
                for (t, st) in s.iter().enumerate() {
                    let lane = 8 * q + t;
                    if lane < EXTRA_POINTS {
                        p[lane] += basis * *st;
                    }
                }
            }
        }
        (v, p)
    }
}

/// Words per parallel task; `eq(tau', x')` is `eq_lo[x' % CHUNK] * eq_hi[x' / CHUNK]`.
const CHUNK_LOG: usize = 12;
/// Words whose products are buffered before the bucket updates.
const BATCH: usize = 512;

/// The skip messages `v_y = P_z(s_y)` and `P_ab` at the 63 extra points, in
/// one pass over the words of `a`, `b`, `z`.
pub(crate) fn skip_messages(
    shape: Shape,
    a: &[u64],
    b: &[u64],
    z: &[u64],
    tau: &[Gf128],
) -> (Vec<Gf128>, Vec<Gf128>) {
    let words = shape.num_words();
    assert!(
        a.len() == words && b.len() == words && z.len() == words,
        "witness length"
    );
    assert_eq!(tau.len(), shape.word_vars());
    let lo = CHUNK_LOG.min(tau.len());
    let eq_lo = eq_table(&tau[..lo]);
    let eq_hi = eq_table(&tau[lo..]);
    let tables = extra_point_tables();
    let chunk = 1usize << lo;
    let buckets = (0..eq_hi.len())
        .into_par_iter()
        .fold(
            || (SkipBuckets::new(), Vec::new(), Vec::new()),
            |(mut acc, mut products, mut weights), h| {
                let e_hi = eq_hi[h];
                for start in (0..chunk).step_by(BATCH) {
                    let end = (start + BATCH).min(chunk);
                    let range = h * chunk + start..h * chunk + end;
                    weights.clear();
                    weights.extend(eq_lo[start..end].iter().map(|&e| e * e_hi));
                    acc.add_words(
                        tables,
                        &a[range.clone()],
                        &b[range.clone()],
                        &z[range],
                        &weights,
                        &mut products,
                    );
                }
                (acc, products, weights)
            },
        )
        .map(|(acc, _, _)| acc)
        .reduce(SkipBuckets::new, SkipBuckets::merge);
    buckets.finish()
}

/// `out[x'] = sum_y weights[y] * bit y of words[x']` (eight byte lookups per word).
pub(crate) fn fold_words(words: &[u64], weights: &[Gf128; SKIP_SIZE]) -> Vec<Gf128> {
    let tables: Vec<[Gf128; 256]> = (0..8)
        .map(|j| starling_field::subset_sums(&weights[8 * j..8 * j + 8]))
        .collect();
    words.par_iter().map(|&w| weigh_word(&tables, w)).collect()
}

/// Round message of `sum_{x} eq(tau_rest, x_{>0}) eq(tau_0, x_0) A B` for the
/// lowest variable: `q(0)` and the `X^2` coefficient of `q`. `tau_rest` are
/// the coordinates for the variables above the lowest; `eq` over them is
/// split into a low and a high table so no table longer than about
/// `2^(len/2)` is built.
pub(crate) fn gruen_round(fa: &[Gf128], fb: &[Gf128], tau_rest: &[Gf128]) -> GruenRound {
    let split = tau_rest.len().div_ceil(2);
    let e_lo = eq_table(&tau_rest[..split]);
    let e_hi = eq_table(&tau_rest[split..]);
    let len_lo = e_lo.len();
    debug_assert_eq!(fa.len(), 2 * len_lo * e_hi.len());
    let (q0, q2) = e_hi
        .par_iter()
        .enumerate()
        .map(|(h, &eh)| {
            let base = 2 * h * len_lo;
            let pa = &fa[base..base + 2 * len_lo];
            let pb = &fb[base..base + 2 * len_lo];
            let mut s0 = Gf128::ZERO;
            let mut s2 = Gf128::ZERO;
            for ((ca, cb), &el) in pa.chunks_exact(2).zip(pb.chunks_exact(2)).zip(&e_lo) {
                s0 += el * (ca[0] * cb[0]);
                s2 += el * ((ca[0] + ca[1]) * (cb[0] + cb[1]));
            }
            (eh * s0, eh * s2)
        })
        .reduce(|| (Gf128::ZERO, Gf128::ZERO), |x, y| (x.0 + y.0, x.1 + y.1));
    GruenRound { q0, q2 }
}

/// Proves that `a & b == z` bitwise, for word vectors in the batch layout.
///
/// The caller has absorbed the statement and the commitment into
/// `transcript`. Panics if a vector's length does not match `shape`.
pub fn prove(shape: Shape, a: &[u64], b: &[u64], z: &[u64], transcript: &mut Transcript) -> (Proof, Output) {
    let m = shape.word_vars();
    let tau = challenge_nonzero_point(transcript, super::LABEL_TAU, m);

    let (v, p_extra) = skip_messages(shape, a, b, z, &tau);
    transcript.absorb_fields(LABEL_V, &v);
    transcript.absorb_fields(LABEL_P, &p_extra);
    let r0 = transcript.challenge_field(LABEL_R0);
    let lagrange = lagrange_weights(r0);
    let z_value: Gf128 = lagrange.iter().zip(&v).map(|(l, x)| *l * *x).sum();

    let mut fa = fold_words(a, &lagrange);
    let mut fb = fold_words(b, &lagrange);
    let mut rounds = Vec::with_capacity(m);
    let mut r_prime = Vec::with_capacity(m);
    for j in 0..m {
        let round = gruen_round(&fa, &fb, &tau[j + 1..]);
        transcript.absorb_fields(LABEL_ROUND, &[round.q0, round.q2]);
        let r = transcript.challenge_field(LABEL_R);
        rounds.push(round);
        r_prime.push(r);
        fold_lowest_in_place(&mut fa, r);
        fold_lowest_in_place(&mut fb, r);
    }
    let (a_eval, b_eval) = (fa[0], fb[0]);
    transcript.absorb_fields(LABEL_EVALS, &[a_eval, b_eval]);

    let proof = Proof {
        v,
        p_extra,
        rounds,
        a_eval,
        b_eval,
    };
    let out = Output {
        shape,
        tau_prime: tau,
        r0,
        r_prime,
        a_eval,
        b_eval,
        z_value,
    };
    (proof, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitsliced_product_matches_gf8() {
        let mut a = [0u64; 8];
        let mut b = [0u64; 8];
        let vals: Vec<(u8, u8)> = (0..64u32)
            .map(|i| ((i * 37 + 11) as u8, (i * 101 + 250) as u8))
            .collect();
        for (lane, (x, y)) in vals.iter().enumerate() {
            for i in 0..8 {
                a[i] |= (((x >> i) & 1) as u64) << lane;
                b[i] |= (((y >> i) & 1) as u64) << lane;
            }
        }
        let p = bitsliced_gf8_mul(&a, &b);
        for (lane, (x, y)) in vals.iter().enumerate() {
            let got: u8 = (0..8).map(|i| (((p[i] >> lane) & 1) as u8) << i).sum();
            assert_eq!(got, (Gf8(*x) * Gf8(*y)).0, "lane {lane}");
        }
    }
}
