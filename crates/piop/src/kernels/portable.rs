//! Portable definitions of the zerocheck prover's kernels.
//!
//! Every other backend in [`super`] computes exactly what these functions
//! compute (tested on random inputs in `super::tests`). The field loops are
//! generic over a [`FieldMul`] so that the x86_64 backend reuses the same
//! loop bodies with an inlined carry-less multiply.

use std::sync::OnceLock;

use starling_field::backend::portable;
use starling_field::Gf8;

/// 64 bytes, aligned for one 512-bit load.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ByteRow(pub(crate) [u8; 64]);

impl ByteRow {
    pub(crate) const ZERO: ByteRow = ByteRow([0; 64]);

    #[inline]
    fn xor_assign(&mut self, other: &ByteRow) {
        for (x, y) in self.0.iter_mut().zip(&other.0) {
            *x ^= *y;
        }
    }
}

/// `ext[j][m]`: byte `e` is `f_hat(embed(64 + e))` (a GF(2^8) value) for a
/// word whose byte `j` is `m` and whose other bytes are zero; byte 63 is 0.
/// XOR-ing the eight rows picked by a word's bytes gives `f_hat` on all 63
/// extra points.
pub(crate) type ExtRows = [[ByteRow; 256]; 8];

/// The [`ExtRows`] of the skip domain in the forms the kernels read.
pub(crate) struct ExtTables {
    /// The values in the AES basis of GF(2^8).
    pub(crate) aes: Box<ExtRows>,
    /// The same values in the tower basis the AVX2 tier multiplies in
    /// (`super::x86_64::tower`).
    #[cfg(target_arch = "x86_64")]
    pub(crate) tower: Box<ExtRows>,
}

impl ExtTables {
    /// Eight zero tables, to fill.
    pub(crate) fn zero_rows() -> Box<ExtRows> {
        vec![[ByteRow::ZERO; 256]; 8]
            .into_boxed_slice()
            .try_into()
            .expect("eight tables")
    }

    pub(crate) fn new(aes: Box<ExtRows>) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let t = super::x86_64::tower::tower();
            let mut tower = Self::zero_rows();
            for (row, src) in tower.iter_mut().flatten().zip(aes.iter().flatten()) {
                row.0 = src.0.map(|x| t.tower_of(x));
            }
            ExtTables { aes, tower }
        }
        #[cfg(not(target_arch = "x86_64"))]
        ExtTables { aes }
    }
}

/// GF(2^8) accumulators of one skip chunk, one row per coordinate `k` of the
/// `eq` weights in the GF(2^8)-basis `1, x, ..., x^15` of F:
/// `ab[k][e] = sum_w g_k(w) * a_hat_w(e) * b_hat_w(e)` and
/// `z[k][y] = sum_w g_k(w) * bit y of z_w`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SkipAcc {
    pub(crate) ab: [ByteRow; 16],
    pub(crate) z: [ByteRow; 16],
}

impl SkipAcc {
    pub(crate) fn new() -> Self {
        SkipAcc {
            ab: [ByteRow::ZERO; 16],
            z: [ByteRow::ZERO; 16],
        }
    }
}

/// The GF(2^8) multiplication table (AES polynomial), 64 KB.
pub(crate) fn gf8_mul_table() -> &'static [[u8; 256]; 256] {
    static TABLE: OnceLock<Box<[[u8; 256]; 256]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u8; 256]; 256]);
        for (x, row) in t.iter_mut().enumerate() {
            for (y, v) in row.iter_mut().enumerate() {
                *v = Gf8(x as u8).product(Gf8(y as u8)).0;
            }
        }
        t
    })
}

/// `f_hat` of a word on the extra points (byte 63 is zero).
#[inline]
pub(crate) fn extra_values(ext: &ExtRows, word: u64) -> ByteRow {
    let mut out = ByteRow::ZERO;
    for (j, tj) in ext.iter().enumerate() {
        out.xor_assign(&tj[((word >> (8 * j)) & 0xff) as usize]);
    }
    out
}

/// Adds one chunk of words to `acc` (see [`SkipAcc`]); `coords[w]` are the
/// GF(2^8) coordinates of word `w`'s `eq` weight.
pub(crate) fn skip_chunk(
    ext: &ExtTables,
    a: &[u64],
    b: &[u64],
    z: &[u64],
    coords: &[[u8; 16]],
    acc: &mut SkipAcc,
) {
    assert!(a.len() == b.len() && b.len() == z.len() && z.len() <= coords.len());
    let mul = gf8_mul_table();
    for ((&wa, &wb), g) in a.iter().zip(b).zip(coords) {
        let (ah, bh) = (extra_values(&ext.aes, wa), extra_values(&ext.aes, wb));
        let mut c = [0u8; 64];
        for ((ce, &x), &y) in c.iter_mut().zip(&ah.0).zip(&bh.0) {
            *ce = mul[x as usize][y as usize];
        }
        for (row, &gk) in acc.ab.iter_mut().zip(g) {
            let gk_row = &mul[gk as usize];
            for (o, &ce) in row.0.iter_mut().zip(&c) {
                *o ^= gk_row[ce as usize];
            }
        }
    }
    skip_z_bits(z, coords, &mut acc.z);
}

/// The `z` part of [`skip_chunk`]: `out[k][y] += sum_w g_k(w) * bit y of z_w`.
pub(crate) fn skip_z_bits(z: &[u64], coords: &[[u8; 16]], out: &mut [ByteRow; 16]) {
    for (&wz, g) in z.iter().zip(coords) {
        let mut bits = wz;
        while bits != 0 {
            let y = bits.trailing_zeros() as usize;
            for (row, &gk) in out.iter_mut().zip(g) {
                row.0[y] ^= gk;
            }
            bits &= bits - 1;
        }
    }
}

/// GF(2^128) arithmetic for the field loops: elements `E` (reduced) and
/// wide values `W` (unreduced 256-bit products and their sums).
pub(crate) trait FieldMul: Copy {
    /// A field element in the backend's registers.
    type E: Copy;
    /// An unreduced 256-bit value.
    type W: Copy;

    /// Loads an element.
    fn load(self, x: &u128) -> Self::E;
    /// The element as a `u128`.
    fn store(self, x: Self::E) -> u128;
    /// `x + y`.
    fn add(self, x: Self::E, y: Self::E) -> Self::E;
    /// The field product.
    fn mul(self, x: Self::E, y: Self::E) -> Self::E;
    /// The zero wide value.
    fn wide_zero(self) -> Self::W;
    /// `acc + x y`, unreduced.
    fn mul_add_wide(self, acc: Self::W, x: Self::E, y: Self::E) -> Self::W;
    /// Reduces a wide value.
    fn reduce(self, w: Self::W) -> Self::E;
}

/// The portable multiplier of `starling_field`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl FieldMul for Portable {
    type E = u128;
    type W = (u128, u128);

    #[inline(always)]
    fn load(self, x: &u128) -> u128 {
        *x
    }
    #[inline(always)]
    fn store(self, x: u128) -> u128 {
        x
    }
    #[inline(always)]
    fn add(self, x: u128, y: u128) -> u128 {
        x ^ y
    }
    #[inline(always)]
    fn mul(self, x: u128, y: u128) -> u128 {
        portable::mul(x, y)
    }
    #[inline(always)]
    fn wide_zero(self) -> (u128, u128) {
        (0, 0)
    }
    #[inline(always)]
    fn mul_add_wide(self, acc: (u128, u128), x: u128, y: u128) -> (u128, u128) {
        let (lo, hi) = portable::clmul128(x, y);
        (acc.0 ^ lo, acc.1 ^ hi)
    }
    #[inline(always)]
    fn reduce(self, w: (u128, u128)) -> u128 {
        portable::reduce(w.0, w.1)
    }
}

/// `sum_y bit y of word * weights[y]` from eight 256-entry byte tables.
#[inline(always)]
pub(crate) fn weigh_with<M: FieldMul>(m: M, tables: &[[u128; 256]; 8], word: u64) -> M::E {
    let mut acc = m.load(&tables[0][(word & 0xff) as usize]);
    for (j, t) in tables.iter().enumerate().skip(1) {
        acc = m.add(acc, m.load(&t[((word >> (8 * j)) & 0xff) as usize]));
    }
    acc
}

/// [`weigh_with`] on `u128`s.
pub(crate) fn weigh(tables: &[[u128; 256]; 8], word: u64) -> u128 {
    weigh_with(Portable, tables, word)
}

/// Running sums `s0 = sum e * x0 y0` and `s2 = sum e * (x0 + x1)(y0 + y1)`,
/// unreduced.
#[derive(Clone, Copy)]
struct WideSums<W> {
    s0: W,
    s2: W,
}

impl<W: Copy> WideSums<W> {
    #[inline(always)]
    fn new<M: FieldMul<W = W>>(m: M) -> Self {
        WideSums {
            s0: m.wide_zero(),
            s2: m.wide_zero(),
        }
    }

    #[inline(always)]
    fn add<M: FieldMul<W = W>>(&mut self, m: M, e: M::E, a: (M::E, M::E), b: (M::E, M::E)) {
        let p0 = m.mul(a.0, b.0);
        let p2 = m.mul(m.add(a.0, a.1), m.add(b.0, b.1));
        self.s0 = m.mul_add_wide(self.s0, e, p0);
        self.s2 = m.mul_add_wide(self.s2, e, p2);
    }

    #[inline(always)]
    fn finish<M: FieldMul<W = W>>(self, m: M) -> (u128, u128) {
        (m.store(m.reduce(self.s0)), m.store(m.reduce(self.s2)))
    }
}

/// Gruen round message of one block of field vectors: returns
/// `(sum_p e_lo[p] A(2p) B(2p), sum_p e_lo[p] A'(p) B'(p))` where
/// `A'(p) = A(2p) + A(2p + 1)`. `a`, `b` hold `2 e_lo.len()` entries.
#[inline(always)]
pub(crate) fn round_with<M: FieldMul>(m: M, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    assert!(a.len() == 2 * e_lo.len() && b.len() == a.len());
    let mut sums = WideSums::new(m);
    for ((pa, pb), e) in a.chunks_exact(2).zip(b.chunks_exact(2)).zip(e_lo) {
        let xa = (m.load(&pa[0]), m.load(&pa[1]));
        let xb = (m.load(&pb[0]), m.load(&pb[1]));
        sums.add(m, m.load(e), xa, xb);
    }
    sums.finish(m)
}

/// Fixes the lowest variable to `r` and computes the next round's block sums
/// in the same pass. `load(i)` gives the `i`-th input pair of `A` and of `B`
/// (`(A(2i), A(2i+1)), (B(2i), B(2i+1))`); outputs `out_a[i] = A(2i) + r
/// (A(2i) + A(2i+1))`, likewise `out_b`, and returns the block sums of the
/// folded vectors as [`round_with`] does (`out_*` hold `2 e_lo.len()`
/// entries).
#[inline(always)]
pub(crate) fn fold_round_with<M: FieldMul, L: Fn(usize) -> ((M::E, M::E), (M::E, M::E))>(
    m: M,
    load: L,
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    assert!(out_a.len() == 2 * e_lo.len() && out_b.len() == out_a.len());
    let r = m.load(&r);
    let fold = |x: (M::E, M::E)| m.add(x.0, m.mul(r, m.add(x.0, x.1)));
    let mut sums = WideSums::new(m);
    for (p, ((oa, ob), e)) in out_a
        .chunks_exact_mut(2)
        .zip(out_b.chunks_exact_mut(2))
        .zip(e_lo)
        .enumerate()
    {
        let (a0, b0) = load(2 * p);
        let (a1, b1) = load(2 * p + 1);
        let fa = (fold(a0), fold(a1));
        let fb = (fold(b0), fold(b1));
        oa[0] = m.store(fa.0);
        oa[1] = m.store(fa.1);
        ob[0] = m.store(fb.0);
        ob[1] = m.store(fb.1);
        sums.add(m, m.load(e), fa, fb);
    }
    sums.finish(m)
}

/// [`round_with`] with the portable multiplier.
pub(crate) fn round_field(a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    round_with(Portable, a, b, e_lo)
}

/// `out[i] = weigh(tables, words[i])`.
pub(crate) fn weigh_words(tables: &[[u128; 256]; 8], words: &[u64], out: &mut [u128]) {
    assert_eq!(words.len(), out.len());
    for (o, &w) in out.iter_mut().zip(words) {
        *o = weigh(tables, w);
    }
}

/// [`weigh_words`] with whole groups of `N` words handed to `group` (a
/// vector kernel) and the rest weighed by the byte tables.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn weigh_in_groups<const N: usize>(
    tables: &[[u128; 256]; 8],
    words: &[u64],
    out: &mut [u128],
    mut group: impl FnMut(&[u64; N], &mut [u128; N]),
) {
    assert_eq!(words.len(), out.len());
    let mut groups_in = words.chunks_exact(N);
    let mut groups_out = out.chunks_exact_mut(N);
    for (wi, wo) in (&mut groups_in).zip(&mut groups_out) {
        group(wi.try_into().expect("N words"), wo.try_into().expect("N outputs"));
    }
    for (o, &w) in groups_out.into_remainder().iter_mut().zip(groups_in.remainder()) {
        *o = weigh(tables, w);
    }
}

/// [`fold_round_with`] on field vectors `a`, `b` (twice as long as the
/// outputs) with the multiplier `m`: each backend's field round calls this
/// inside its own `target_feature` function.
#[inline(always)]
pub(crate) fn fold_field_round_with<M: FieldMul>(
    m: M,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    assert!(a.len() == 2 * out_a.len() && b.len() == a.len());
    let load = |i: usize| {
        (
            (m.load(&a[2 * i]), m.load(&a[2 * i + 1])),
            (m.load(&b[2 * i]), m.load(&b[2 * i + 1])),
        )
    };
    fold_round_with(m, load, r, out_a, out_b, e_lo)
}

/// [`fold_field_round_with`] with the portable multiplier.
pub(crate) fn fold_field_round(
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    fold_field_round_with(Portable, a, b, r, out_a, out_b, e_lo)
}
