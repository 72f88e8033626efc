//! The additive NTT of Lin, Chung and Han ("Novel polynomial basis and its
//! application to Reed–Solomon erasure codes", FOCS 2014), over GF(2)-subspaces
//! of GF(2^128).
//!
//! The subspace basis is `beta_b = x^b` (the element with integer value 2^b), so
//! the evaluation point with integer label `q` is `Gf128::new(q)`. With the
//! subspace vanishing polynomials `W_0(Y) = Y`, `W_{i+1}(Y) = W_i(Y)(W_i(Y) +
//! W_i(beta_i))` and their normalisations `What_i = W_i / W_i(beta_i)`, the
//! novel basis is `X_j(Y) = prod_b What_b(Y)^{j_b}`. Every `What_i` is
//! GF(2)-linear, so `What_i(q)` is the XOR of `What_i(beta_c)` over the set bits
//! `c` of `q`; one 64 x 128 table of those values drives the whole module.
//!
//! A message `p` of `2^m` coefficients is the polynomial `sum_j p_j X_j`. The
//! forward transform on the coset `c + span(beta_0..beta_{m-1})` (`c` a
//! multiple of `2^m`) runs the rounds `i = m-1 .. 0`; in block `u` of round `i`
//! the twiddle is `t = What_i(c + sum_{b>i} u_b beta_b)` and the butterfly is
//! `lo += t * hi; hi += lo`. Afterwards entry `idx` holds `P(c + idx)`.
//!
//! Batched layout: a "position" is a contiguous block of `batch` field
//! elements, and the butterflies act on whole blocks. Transforming `2^k` rows at
//! once this way leaves every column (one position) contiguous, which is what a
//! Merkle leaf of an interleaved code wants.

use std::sync::OnceLock;

use starling_field::{backend, Gf128};

/// Largest supported subspace dimension (`log2` of the evaluation domain).
pub const MAX_LOG_DOMAIN: usize = 62;

/// Number of basis indices `i` for which `What_i` is tabulated.
const TABLE_ROWS: usize = 64;

/// `What_i(beta_c)` for `i < 64` and every `c < 128`.
fn what_table() -> &'static [[Gf128; 128]] {
    static TABLE: OnceLock<Vec<[Gf128; 128]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // w[c] = W_i(beta_c), updated from i to i + 1 by the recurrence.
        let mut w: Vec<Gf128> = (0..128).map(|c| Gf128::new(1u128 << c)).collect();
        let mut table = Vec::with_capacity(TABLE_ROWS);
        for i in 0..TABLE_ROWS {
            let norm = w[i];
            // beta_i is outside span(beta_0..beta_{i-1}), so W_i(beta_i) != 0.
            let inv = norm.inverse().expect("W_i(beta_i) is nonzero");
            let mut row = [Gf128::ZERO; 128];
            for c in 0..128 {
                row[c] = w[c] * inv;
            }
            table.push(row);
            for v in w.iter_mut() {
                *v = *v * (*v + norm);
            }
        }
        table
    })
}

/// `What_i(q)`: the normalised vanishing polynomial of `span(beta_0..beta_{i-1})`
/// at the domain point with integer label `q`.
#[inline]
pub fn normalized_vanishing(i: usize, q: u64) -> Gf128 {
    let row = &what_table()[i];
    // What_i(beta_c) = 0 for c < i, so only the bits from i upwards matter.
    let mut bits = q >> i;
    let mut c = i;
    let mut acc = Gf128::ZERO;
    while bits != 0 {
        let tz = bits.trailing_zeros() as usize;
        c += tz;
        acc += row[c];
        bits >>= tz;
        bits &= !1;
    }
    acc
}

/// `What_i(y)` at an arbitrary field element `y` (by linearity over its bits).
pub fn normalized_vanishing_at(i: usize, y: Gf128) -> Gf128 {
    let row = &what_table()[i];
    (0..128).filter(|&c| y.bit(c)).map(|c| row[c]).sum()
}

/// `X_j(y) = prod_b What_b(y)^{j_b}`, the novel basis polynomial `j` at `y`.
pub fn novel_basis_at(j: u64, y: Gf128) -> Gf128 {
    let mut acc = Gf128::ONE;
    for b in 0..64 {
        if (j >> b) & 1 == 1 {
            acc *= normalized_vanishing_at(b, y);
        }
    }
    acc
}

/// The multilinear extension over `j in {0,1}^m` of
/// `j -> X_j(omega_q)`, evaluated at `point`:
/// `prod_b (1 + u_b + u_b What_b(omega_q))`. This is the MLE of row `q` of the
/// Reed–Solomon generator matrix, which a PCS verifier needs per query.
pub fn generator_row_mle(m: usize, q: u64, point: &[Gf128]) -> Gf128 {
    assert_eq!(point.len(), m, "point must have m coordinates");
    point
        .iter()
        .enumerate()
        .map(|(b, &u)| Gf128::ONE + u * (Gf128::ONE + normalized_vanishing(b, q)))
        .product()
}

/// The table `j -> X_j(omega_q)` for `j < 2^m`: row `q` of the generator matrix.
pub fn generator_row(m: usize, q: u64) -> Vec<Gf128> {
    let mut table = vec![Gf128::ZERO; 1 << m];
    table[0] = Gf128::ONE;
    for b in 0..m {
        let w = normalized_vanishing(b, q);
        let half = 1usize << b;
        let (lo, hi) = table[..2 * half].split_at_mut(half);
        for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
            *h = *l * w;
        }
    }
    table
}

/// Elements per scratch chunk in the butterflies (8 KiB on the stack).
const CHUNK: usize = 512;

/// `lo += t * hi; hi += lo` on two equal-length slices, one backend call per chunk.
fn butterfly(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    if t.is_zero() {
        for (l, h) in lo.iter().zip(hi.iter_mut()) {
            *h += *l;
        }
        return;
    }
    let mut scratch = [0u128; CHUNK];
    for (l, h) in lo.chunks_mut(CHUNK).zip(hi.chunks_mut(CHUNK)) {
        let s = &mut scratch[..l.len()];
        for (d, x) in s.iter_mut().zip(h.iter()) {
            *d = x.to_bits();
        }
        backend::scale_slice(s, t.to_bits());
        for ((a, b), p) in l.iter_mut().zip(h.iter_mut()).zip(s.iter()) {
            *a += Gf128::new(*p);
            *b += *a;
        }
    }
}

/// `hi += t * lo` after `lo += hi`: the transpose of [`butterfly`].
fn butterfly_transposed(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    for (l, h) in lo.iter_mut().zip(hi.iter()) {
        *l += *h;
    }
    scaled_add(hi, lo, t);
}

/// `hi += lo; lo += t * hi`: the inverse of [`butterfly`].
fn butterfly_inverse(lo: &mut [Gf128], hi: &mut [Gf128], t: Gf128) {
    for (l, h) in lo.iter().zip(hi.iter_mut()) {
        *h += *l;
    }
    scaled_add(lo, hi, t);
}

/// `dst += t * src`.
fn scaled_add(dst: &mut [Gf128], src: &[Gf128], t: Gf128) {
    if t.is_zero() {
        return;
    }
    let mut scratch = [0u128; CHUNK];
    for (d, s) in dst.chunks_mut(CHUNK).zip(src.chunks(CHUNK)) {
        let buf = &mut scratch[..d.len()];
        for (b, x) in buf.iter_mut().zip(s.iter()) {
            *b = x.to_bits();
        }
        backend::scale_slice(buf, t.to_bits());
        for (x, p) in d.iter_mut().zip(buf.iter()) {
            *x += Gf128::new(*p);
        }
    }
}

/// Precomputed twiddles for transforms of `2^log_len` positions.
#[derive(Clone, Debug)]
pub struct AdditiveNtt {
    log_len: usize,
    /// `twiddles[i][u] = What_i(u << (i + 1))` for `u < 2^(log_len - 1 - i)`.
    twiddles: Vec<Vec<Gf128>>,
}

impl AdditiveNtt {
    /// Twiddles for messages of `2^log_len` positions.
    pub fn new(log_len: usize) -> Self {
        assert!(log_len <= MAX_LOG_DOMAIN, "transform too large");
        let twiddles = (0..log_len)
            .map(|i| {
                let count = 1usize << (log_len - 1 - i);
                let mut row = vec![Gf128::ZERO; count];
                // Subset sums over the bits of u, by linearity of What_i.
                for bit in 0..(log_len - 1 - i) {
                    let w = normalized_vanishing(i, 1u64 << (bit + i + 1));
                    let half = 1usize << bit;
                    for u in 0..half {
                        row[half + u] = row[u] + w;
                    }
                }
                row
            })
            .collect();
        AdditiveNtt { log_len, twiddles }
    }

    /// `log2` of the number of positions transformed.
    pub fn log_len(&self) -> usize {
        self.log_len
    }

    fn check(&self, data: &[Gf128], batch: usize, coset: u64) -> Vec<Gf128> {
        assert!(batch > 0, "batch must be positive");
        assert_eq!(
            data.len(),
            batch << self.log_len,
            "data length must be batch * 2^log_len"
        );
        assert_eq!(
            coset & ((1u64 << self.log_len) - 1),
            0,
            "coset offset must be a multiple of 2^log_len"
        );
        (0..self.log_len)
            .map(|i| normalized_vanishing(i, coset))
            .collect()
    }

    /// Coefficients in the novel basis to evaluations on `coset + 0..2^log_len`.
    pub fn forward(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.forward_rec(data, batch, self.log_len - 1, 0, &shift);
        }
    }

    fn forward_rec(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        let (lo, hi) = data.split_at_mut(batch << i);
        butterfly(lo, hi, shift[i] + self.twiddles[i][u]);
        if i > 0 {
            self.forward_rec(lo, batch, i - 1, 2 * u, shift);
            self.forward_rec(hi, batch, i - 1, 2 * u + 1, shift);
        }
    }

    /// Evaluations on `coset + 0..2^log_len` back to novel-basis coefficients.
    pub fn inverse(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.inverse_rec(data, batch, self.log_len - 1, 0, &shift);
        }
    }

    fn inverse_rec(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        let (lo, hi) = data.split_at_mut(batch << i);
        if i > 0 {
            self.inverse_rec(lo, batch, i - 1, 2 * u, shift);
            self.inverse_rec(hi, batch, i - 1, 2 * u + 1, shift);
        }
        butterfly_inverse(lo, hi, shift[i] + self.twiddles[i][u]);
    }

    /// The transpose of [`AdditiveNtt::forward`]: maps weights on the
    /// evaluation points to `sum_idx weight[idx] * X_j(coset + idx)` for every `j`.
    pub fn transposed(&self, data: &mut [Gf128], batch: usize, coset: u64) {
        let shift = self.check(data, batch, coset);
        if self.log_len > 0 {
            self.transposed_rec(data, batch, self.log_len - 1, 0, &shift);
        }
    }

    fn transposed_rec(&self, data: &mut [Gf128], batch: usize, i: usize, u: usize, shift: &[Gf128]) {
        let (lo, hi) = data.split_at_mut(batch << i);
        if i > 0 {
            self.transposed_rec(lo, batch, i - 1, 2 * u, shift);
            self.transposed_rec(hi, batch, i - 1, 2 * u + 1, shift);
        }
        butterfly_transposed(lo, hi, shift[i] + self.twiddles[i][u]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `W_i(y)` straight from the definition: the product over the subspace.
    fn vanishing_by_product(i: usize, y: Gf128) -> Gf128 {
        (0..(1u128 << i)).map(|s| y + Gf128::new(s)).product()
    }

    #[test]
    fn table_matches_product_definition() {
        for i in 0..6 {
            let norm = vanishing_by_product(i, Gf128::new(1u128 << i));
            let inv = norm.inverse().unwrap();
            for q in [0u64, 1, 5, 37, 64, 1000, 12345, 1 << 20] {
                let want = vanishing_by_product(i, Gf128::new(q as u128)) * inv;
                assert_eq!(normalized_vanishing(i, q), want, "i = {i}, q = {q}");
            }
            let y = Gf128::new(0x1234_5678_9abc_def0_1357_9bdf_2468_ace0);
            assert_eq!(normalized_vanishing_at(i, y), vanishing_by_product(i, y) * inv);
        }
    }

    #[test]
    fn generator_row_agrees_with_novel_basis() {
        for q in [0u64, 3, 17, 255, 1029] {
            let row = generator_row(6, q);
            for (j, &v) in row.iter().enumerate() {
                assert_eq!(v, novel_basis_at(j as u64, Gf128::new(q as u128)));
            }
        }
    }
}
