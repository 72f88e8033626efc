//! Reed–Solomon codes over GF(2^128) on the additive-NTT domains of
//! [`crate::additive_ntt`].
//!
//! A message of `2^m` novel-basis coefficients is encoded at rate `2^-R` as its
//! evaluations at the `2^(m+R)` points with integer labels `0..2^(m+R)`; the
//! codeword is the `2^R` cosets `h * 2^m + span(beta_0..beta_{m-1})` one after the
//! other, so position `q` holds `P(omega_q)` with `omega_q = Gf128::new(q)`.
//! In the batched form every position is a block of `batch` elements (one per
//! row of an interleaved code) and a codeword position is a contiguous column.
//! The cosets are independent, so a caller may encode them in parallel with
//! [`ReedSolomon::encode_coset`].

use starling_field::Gf128;

use crate::additive_ntt::{novel_basis_at, AdditiveNtt, Gather, MAX_LOG_DOMAIN};

/// A Reed–Solomon code with `2^log_msg` message symbols and rate `2^-log_inv_rate`.
#[derive(Clone, Debug)]
pub struct ReedSolomon {
    log_msg: usize,
    log_inv_rate: usize,
    ntt: AdditiveNtt,
}

impl ReedSolomon {
    /// The code; `log_msg + log_inv_rate` must not exceed [`MAX_LOG_DOMAIN`].
    pub fn new(log_msg: usize, log_inv_rate: usize) -> Self {
        assert!(log_msg + log_inv_rate <= MAX_LOG_DOMAIN, "code too long");
        ReedSolomon {
            log_msg,
            log_inv_rate,
            ntt: AdditiveNtt::new(log_msg),
        }
    }

    /// `log2` of the message length.
    pub fn log_msg(&self) -> usize {
        self.log_msg
    }

    /// `log2` of the inverse rate.
    pub fn log_inv_rate(&self) -> usize {
        self.log_inv_rate
    }

    /// `log2` of the block length.
    pub fn log_len(&self) -> usize {
        self.log_msg + self.log_inv_rate
    }

    /// Writes coset `coset` (of `2^log_inv_rate`) of the batched encoding of
    /// `message` into `out` (both `batch * 2^log_msg` long).
    pub fn encode_coset(&self, message: &[Gf128], batch: usize, coset: usize, out: &mut [Gf128]) {
        assert!(coset < 1 << self.log_inv_rate, "coset index out of range");
        assert_eq!(out.len(), message.len(), "output must match the message length");
        self.ntt
            .forward_from(message, out, batch, (coset as u64) << self.log_msg);
    }

    /// `log2` of the positions per block for
    /// [`ReedSolomon::encode_coset_head`] that leaves the head one pass over
    /// memory ([`AdditiveNtt::first_pass_log_block`]).
    pub fn first_pass_log_block(&self, batch: usize) -> usize {
        self.ntt.first_pass_log_block(batch)
    }

    /// [`ReedSolomon::encode_coset`] of the message that `gather` writes
    /// into `data` ([`Gather`]), up to where its blocks of `2^log_block`
    /// positions are independent ([`AdditiveNtt::forward_head`]);
    /// [`ReedSolomon::encode_coset_tail`] then finishes each block.
    pub fn encode_coset_head(
        &self,
        data: &mut [Gf128],
        batch: usize,
        coset: usize,
        log_block: usize,
        gather: &Gather<'_>,
    ) {
        assert!(coset < 1 << self.log_inv_rate, "coset index out of range");
        self.ntt
            .forward_head(data, batch, (coset as u64) << self.log_msg, log_block, gather);
    }

    /// Finishes block `index` of a coset after
    /// [`ReedSolomon::encode_coset_head`] ([`AdditiveNtt::forward_tail`]).
    pub fn encode_coset_tail(&self, block: &mut [Gf128], batch: usize, coset: usize, index: usize) {
        assert!(coset < 1 << self.log_inv_rate, "coset index out of range");
        self.ntt
            .forward_tail(block, batch, (coset as u64) << self.log_msg, index);
    }

    /// The batched encoding: `2^(log_msg + log_inv_rate)` positions of `batch` elements.
    pub fn encode_batch(&self, message: &[Gf128], batch: usize) -> Vec<Gf128> {
        let mut out = vec![Gf128::ZERO; message.len() << self.log_inv_rate];
        for (h, chunk) in out.chunks_mut(message.len()).enumerate() {
            self.encode_coset(message, batch, h, chunk);
        }
        out
    }

    /// The encoding of a single message.
    pub fn encode(&self, message: &[Gf128]) -> Vec<Gf128> {
        self.encode_batch(message, 1)
    }

    /// The transpose of [`ReedSolomon::encode`]: for weights `b` on the
    /// codeword positions, returns `j -> sum_q b[q] X_j(omega_q)`, i.e.
    /// `sum_q b[q] * (row q of the generator matrix)`.
    pub fn encode_transposed(&self, weights: &[Gf128]) -> Vec<Gf128> {
        let n = 1usize << self.log_msg;
        assert_eq!(
            weights.len(),
            n << self.log_inv_rate,
            "weights must cover the codeword"
        );
        let mut acc = vec![Gf128::ZERO; n];
        let mut buf = vec![Gf128::ZERO; n];
        for (h, chunk) in weights.chunks(n).enumerate() {
            if chunk.iter().all(|w| w.is_zero()) {
                continue;
            }
            buf.copy_from_slice(chunk);
            self.ntt.transposed(&mut buf, 1, (h as u64) << self.log_msg);
            for (a, b) in acc.iter_mut().zip(&buf) {
                *a += *b;
            }
        }
        acc
    }
}

/// Reference encoder: evaluates `sum_j p_j X_j` at every point directly.
pub fn naive_encode(message: &[Gf128], log_inv_rate: usize) -> Vec<Gf128> {
    assert!(
        message.len().is_power_of_two(),
        "message length must be a power of two"
    );
    let n = message.len() << log_inv_rate;
    (0..n as u64)
        .map(|q| {
            let y = Gf128::new(q as u128);
            message
                .iter()
                .enumerate()
                .map(|(j, &p)| p * novel_basis_at(j as u64, y))
                .sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::additive_ntt::{generator_row, generator_row_mle};
    use crate::multilinear::evaluate;
    use proptest::prelude::*;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    fn random_vec(rng: &mut StdRng, n: usize) -> Vec<Gf128> {
        (0..n).map(|_| Gf128::new(rng.gen())).collect()
    }

    #[test]
    fn fast_encoding_matches_naive() {
        let mut rng = StdRng::seed_from_u64(1);
        for (m, r) in [(0, 0), (0, 2), (1, 1), (3, 2), (5, 1), (6, 3)] {
            let msg = random_vec(&mut rng, 1 << m);
            let code = ReedSolomon::new(m, r);
            assert_eq!(code.encode(&msg), naive_encode(&msg, r), "m = {m}, R = {r}");
        }
    }

    #[test]
    fn batched_encoding_encodes_each_row() {
        let mut rng = StdRng::seed_from_u64(2);
        let (m, r, batch) = (4, 2, 8);
        let msg = random_vec(&mut rng, batch << m);
        let code = ReedSolomon::new(m, r);
        let cw = code.encode_batch(&msg, batch);
        for row in 0..batch {
            let row_msg: Vec<Gf128> = (0..1 << m).map(|j| msg[j * batch + row]).collect();
            let row_cw = code.encode(&row_msg);
            for (q, &v) in row_cw.iter().enumerate() {
                assert_eq!(cw[q * batch + row], v);
            }
        }
    }

    #[test]
    fn codeword_is_low_degree() {
        // A codeword of a rate-1/4 code agrees with the polynomial through its
        // first 2^m points: re-encoding the inverse of coset 0 gives it back.
        let mut rng = StdRng::seed_from_u64(3);
        let m = 5;
        let msg = random_vec(&mut rng, 1 << m);
        let code = ReedSolomon::new(m, 2);
        let cw = code.encode(&msg);
        let mut first = cw[..1 << m].to_vec();
        AdditiveNtt::new(m).inverse(&mut first, 1, 0);
        assert_eq!(first, msg);
    }

    #[test]
    fn transposed_matches_generator_rows() {
        let mut rng = StdRng::seed_from_u64(4);
        let (m, r) = (4, 2);
        let code = ReedSolomon::new(m, r);
        let weights = random_vec(&mut rng, 1 << (m + r));
        let got = code.encode_transposed(&weights);
        let mut want = vec![Gf128::ZERO; 1 << m];
        for (q, &w) in weights.iter().enumerate() {
            for (a, g) in want.iter_mut().zip(generator_row(m, q as u64)) {
                *a += w * g;
            }
        }
        assert_eq!(got, want);
    }

    #[test]
    fn generator_row_mle_matches_table() {
        let mut rng = StdRng::seed_from_u64(5);
        let m = 5;
        for q in [0u64, 1, 31, 32, 77, 127] {
            let point = random_vec(&mut rng, m);
            assert_eq!(
                generator_row_mle(m, q, &point),
                evaluate(&generator_row(m, q), &point)
            );
            // On the hypercube it is the generator entry X_j(omega_q).
            let j = 0b10110usize;
            let bits: Vec<Gf128> = (0..m).map(|b| Gf128::from((j >> b) & 1 == 1)).collect();
            assert_eq!(
                generator_row_mle(m, q, &bits),
                novel_basis_at(j as u64, Gf128::new(q as u128))
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn encoding_is_linear(seed in any::<u64>(), c in any::<u128>()) {
            let mut rng = StdRng::seed_from_u64(seed);
            let code = ReedSolomon::new(4, 2);
            let a = random_vec(&mut rng, 16);
            let b = random_vec(&mut rng, 16);
            let c = Gf128::new(c);
            let comb: Vec<Gf128> = a.iter().zip(&b).map(|(x, y)| *x + c * *y).collect();
            let (ea, eb, ec) = (code.encode(&a), code.encode(&b), code.encode(&comb));
            for q in 0..ec.len() {
                prop_assert_eq!(ec[q], ea[q] + c * eb[q]);
            }
        }

        #[test]
        fn inverse_undoes_forward(seed in any::<u64>(), coset in 0u64..8) {
            let mut rng = StdRng::seed_from_u64(seed);
            let ntt = AdditiveNtt::new(5);
            let orig = random_vec(&mut rng, 2 << 5);
            let mut data = orig.clone();
            ntt.forward(&mut data, 2, coset << 5);
            ntt.inverse(&mut data, 2, coset << 5);
            prop_assert_eq!(data, orig);
        }
    }
}
