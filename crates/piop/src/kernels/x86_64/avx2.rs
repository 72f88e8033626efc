//! The AVX2 tier's zerocheck kernels: the skip chunk, GF(2^8) arithmetic on
//! 32 bytes at a time without GFNI, the weighing of words by split-nibble
//! tables, and, where the CPU has 256-bit VPCLMULQDQ, the field loops two
//! lanes wide ([`super::lanes`] on a `__m256i`). See [`super`] for why the
//! `unsafe` blocks are sound.
//!
//! Per word the skip chunk needs `c = a_hat * b_hat` on the 64 extra points
//! (a product of two variable bytes, taken in the tower basis of
//! [`super::tower`]: three GF(16) products by logarithm tables) and then,
//! for each of the 16 coordinates `g_k` of the word's weight, `g_k * c` (a
//! product by a constant byte: split-nibble `vpshufb` tables, `g x` for the
//! low nibble and `g (x << 4)` for the high one, which also map `c` back
//! from the tower basis). A first pass over a block of words writes each
//! word's nibbles of `c` to a buffer; then one pass per four coordinates
//! streams the buffer with its eight accumulator vectors in registers. The
//! bits of `z` are taken eight words at a time, bit-transposed so that byte
//! `y` holds bit `y` of each of the eight words: one split-nibble product
//! per coordinate then adds the group's coordinates at every set bit (the
//! tables [`super::super::SkipWeights::group_nibbles`], fixed for the
//! proof).

use core::arch::x86_64::*;
use std::sync::OnceLock;

use starling_field::bit_matrix::avx2::transpose_lanes;
use starling_field::cpu::Tier;

use super::super::portable::{
    gf8_mul_table, skip_z_bits, weigh_in_groups, ByteRow, ExtRows, ExtTables, FieldMul, SkipAcc,
};
use super::super::{NibbleTables, SkipWeights};
use super::lanes::{self, Lanes};
use super::tower::tower;
use super::Clmul;

/// Proof that the CPU supports AVX2.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The token, under the AVX2 tier.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx2 && tier.runs_here()).then_some(Avx2(()))
    }

    /// Same result as [`super::super::portable::skip_chunk`].
    pub(crate) fn skip_chunk(
        self,
        ext: &ExtTables,
        a: &[u64],
        b: &[u64],
        z: &[u64],
        w: &SkipWeights,
        acc: &mut SkipAcc,
    ) {
        assert!(a.len() == b.len() && b.len() == z.len() && z.len() <= w.coords.len());
        let groups = z.len() / 8;
        assert!(groups <= w.group_nibbles.len());
        // SAFETY: the token proves AVX2 is present; lengths were checked.
        unsafe { skip_chunk_avx2(ext, a, b, z, &w.coords, &w.group_nibbles, acc) };
        skip_z_bits(&z[8 * groups..], &w.coords[8 * groups..], &mut acc.z);
    }

    /// Same result as [`super::super::portable::weigh_words`]; `nibbles` are
    /// the split-nibble form of `tables` (used for whole groups of 32 words,
    /// `tables` for the rest).
    pub(crate) fn weigh_words(
        self,
        tables: &[[u128; 256]; 8],
        nibbles: &NibbleTables,
        words: &[u64],
        out: &mut [u128],
    ) {
        weigh_in_groups::<32>(tables, words, out, |wi, wo| {
            // SAFETY: the token proves AVX2 is present.
            unsafe { weigh32_avx2(nibbles, wi, wo) }
        });
    }
}

/// Per GF(2^8) constant `g`: `g x` for the tower-basis bytes `x < 16`, then
/// `g (x << 4)`, both in the AES basis.
pub(crate) fn constant_tables() -> &'static [[u8; 32]; 256] {
    static TABLES: OnceLock<Box<[[u8; 32]; 256]>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (mul, t) = (gf8_mul_table(), tower());
        let mut rows = Box::new([[0u8; 32]; 256]);
        for (g, row) in rows.iter_mut().enumerate() {
            for x in 0..16 {
                row[x] = mul[g][t.aes_of(x as u8) as usize];
                row[16 + x] = mul[g][t.aes_of((x << 4) as u8) as usize];
            }
        }
        rows
    })
}

/// Words per block of the first pass: their nibbles (128 bytes a word) stay
/// in L1 while the coordinate passes stream them.
const BLOCK: usize = 32;

/// Low and high nibbles of 64 bytes, each as two 32-byte halves: of `c` for
/// one word, or of the bit-transposed `z` of eight words.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Nibbles {
    lo: [__m256i; 2],
    hi: [__m256i; 2],
}

impl Nibbles {
    #[inline(always)]
    fn of(x: [__m256i; 2]) -> Self {
        // SAFETY: only reached from functions with avx2 enabled.
        unsafe {
            let low = _mm256_set1_epi8(0x0f);
            Nibbles {
                lo: x.map(|v| _mm256_and_si256(v, low)),
                hi: x.map(|v| _mm256_and_si256(_mm256_srli_epi16::<4>(v), low)),
            }
        }
    }
}

#[inline(always)]
pub(super) fn load_half(row: &ByteRow, h: usize) -> __m256i {
    // SAFETY: `row` is 64 readable bytes, 64-byte aligned, and `h < 2`;
    // the callers enable avx2.
    unsafe { _mm256_load_si256(row.0.as_ptr().add(32 * h).cast()) }
}

/// `f_hat` of `word` on the extra points (in the basis of `ext`), as two
/// halves.
#[inline(always)]
pub(super) fn extra_values(ext: &ExtRows, word: u64) -> [__m256i; 2] {
    // SAFETY: only reached from functions with avx2 enabled.
    unsafe {
        let first = &ext[0][(word & 0xff) as usize];
        let mut acc = [load_half(first, 0), load_half(first, 1)];
        for (j, tj) in ext.iter().enumerate().skip(1) {
            let row = &tj[((word >> (8 * j)) & 0xff) as usize];
            acc[0] = _mm256_xor_si256(acc[0], load_half(row, 0));
            acc[1] = _mm256_xor_si256(acc[1], load_half(row, 1));
        }
        acc
    }
}

/// The 16-byte tables of a tower-basis product, broadcast to both lanes.
#[derive(Clone, Copy)]
struct TowerTables {
    log: __m256i,
    exp: __m256i,
    lambda_times: __m256i,
}

impl TowerTables {
    #[inline(always)]
    fn new() -> Self {
        let t = tower();
        // SAFETY: each load reads one 16-byte table; avx2 is enabled by the
        // callers.
        let load = |x: &[u8; 16]| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(x.as_ptr().cast())) };
        TowerTables {
            log: load(&t.log),
            exp: load(&t.exp),
            lambda_times: load(&t.lambda_times),
        }
    }

    /// Byte-wise product of two vectors of tower-basis bytes (see
    /// [`super::tower`]; `tower_mul` is the definition).
    #[inline(always)]
    fn mul(self, x: __m256i, y: __m256i) -> __m256i {
        // SAFETY: only reached from functions with avx2 enabled.
        unsafe {
            let low = _mm256_set1_epi8(0x0f);
            let fifteen = _mm256_set1_epi8(15);
            let halves = |v: __m256i| {
                (
                    _mm256_and_si256(v, low),
                    _mm256_and_si256(_mm256_srli_epi16::<4>(v), low),
                )
            };
            let log = |v: __m256i| _mm256_shuffle_epi8(self.log, v);
            // exp(log u + log v mod 15); a zero's logarithm keeps bit 7 set.
            let gf16 = |u: __m256i, v: __m256i| {
                let s = _mm256_add_epi8(log(u), log(v));
                _mm256_shuffle_epi8(self.exp, _mm256_min_epu8(s, _mm256_sub_epi8(s, fifteen)))
            };
            let ((l1, h1), (l2, h2)) = (halves(x), halves(y));
            let m0 = gf16(l1, l2);
            let m1 = gf16(h1, h2);
            let m2 = gf16(_mm256_xor_si256(l1, h1), _mm256_xor_si256(l2, h2));
            let high = _mm256_xor_si256(m2, m0);
            let low_part = _mm256_xor_si256(m0, _mm256_shuffle_epi8(self.lambda_times, m1));
            // `high` is below 16 in every byte: the 16-bit shift stays inside.
            _mm256_or_si256(_mm256_slli_epi16::<4>(high), low_part)
        }
    }
}

/// One step of the 8x8 bit transpose inside each qword (bytes are rows):
/// swaps the bits that `mask` selects with those `SHIFT` places above.
#[inline(always)]
fn delta_swap<const SHIFT: i32>(x: __m256i, mask: i64) -> __m256i {
    // SAFETY: only reached from functions with avx2 enabled.
    unsafe {
        let t = _mm256_and_si256(
            _mm256_xor_si256(x, _mm256_srli_epi64::<SHIFT>(x)),
            _mm256_set1_epi64x(mask),
        );
        _mm256_xor_si256(x, _mm256_xor_si256(t, _mm256_slli_epi64::<SHIFT>(t)))
    }
}

/// Bit `t` of byte `y` of the result is bit `y` of `words[t]`.
#[inline(always)]
pub(super) fn bit_transpose8(words: &[u64]) -> [__m256i; 2] {
    assert!(words.len() >= 8);
    // SAFETY: the two loads read `words[..8]`; avx2 is enabled by the callers.
    unsafe {
        let interleave = _mm256_loadu_si256(INTERLEAVE_WORDS.as_ptr().cast());
        let r0 = _mm256_shuffle_epi8(_mm256_loadu_si256(words.as_ptr().cast()), interleave);
        let r1 = _mm256_shuffle_epi8(_mm256_loadu_si256(words[4..].as_ptr().cast()), interleave);
        // 16-bit unit j: byte j of words (0, 1) | (4, 5), and (2, 3) | (6, 7).
        let p = _mm256_permute2x128_si256::<0x20>(r0, r1);
        let q = _mm256_permute2x128_si256::<0x31>(r0, r1);
        // Qword j: byte j of the eight words, in order. (Plain calls, not
        // `array::map`: a closure does not inherit the caller's target
        // features, and the intrinsics in it became calls.)
        [
            transpose_qword_bits(_mm256_unpacklo_epi16(p, q)),
            transpose_qword_bits(_mm256_unpackhi_epi16(p, q)),
        ]
    }
}

/// The qwords of `u` in order ([`bit_transpose8`]'s unpacked halves), each
/// 8x8 bit-transposed.
#[inline(always)]
fn transpose_qword_bits(u: __m256i) -> __m256i {
    // SAFETY: only reached from functions with avx2 enabled.
    let x = unsafe { _mm256_shuffle_epi32::<0xd8>(_mm256_permute4x64_epi64::<0xd8>(u)) };
    let x = delta_swap::<7>(x, 0x00aa_00aa_00aa_00aa);
    let x = delta_swap::<14>(x, 0x0000_cccc_0000_cccc);
    delta_swap::<28>(x, 0x0000_0000_f0f0_f0f0)
}

#[target_feature(enable = "avx2")]
fn skip_chunk_avx2(
    ext: &ExtTables,
    a: &[u64],
    b: &[u64],
    z: &[u64],
    coords: &[[u8; 16]],
    group_nibbles: &[[[u8; 32]; 16]],
    acc: &mut SkipAcc,
) {
    let tables = constant_tables();
    let tower = TowerTables::new();
    let zero = Nibbles::of([_mm256_setzero_si256(); 2]);
    let mut words = [zero; BLOCK];
    let mut groups = [zero; BLOCK / 8];
    let mut start = 0;
    while start < z.len() {
        let n = BLOCK.min(z.len() - start);
        for (i, o) in words[..n].iter_mut().enumerate() {
            let w = start + i;
            let (ah, bh) = (extra_values(&ext.tower, a[w]), extra_values(&ext.tower, b[w]));
            *o = Nibbles::of([tower.mul(ah[0], bh[0]), tower.mul(ah[1], bh[1])]);
        }
        let whole = n / 8;
        for (g, o) in groups[..whole].iter_mut().enumerate() {
            *o = Nibbles::of(bit_transpose8(&z[start + 8 * g..]));
        }
        let (word_coords, group_tables) = (&coords[start..start + n], &group_nibbles[start / 8..]);
        for k in (0..16).step_by(4) {
            // g_k(w) c_w, by the table of a product by g_k(w).
            add_products(
                &words[..n],
                |i, j| &tables[word_coords[i][k + j] as usize],
                k,
                &mut acc.ab,
            );
            // The group's g_k at every set bit of z: bytes of bits y.
            add_products(&groups[..whole], |i, j| &group_tables[i][k + j], k, &mut acc.z);
        }
        start += n;
    }
}

/// Adds `sum_i table_i(j) * x_i` to `rows[k + j]` for `j < 4`, where
/// `table_i(j)` is the split-nibble table (low nibbles, then high) of a
/// GF(2)-linear map on bytes and `x_i` the nibbles of `items[i]`.
#[inline(always)]
fn add_products<'t>(
    items: &[Nibbles],
    table: impl Fn(usize, usize) -> &'t [u8; 32],
    k: usize,
    rows: &mut [ByteRow; 16],
) {
    // SAFETY: only reached from functions with avx2 enabled; every load is
    // of 16 in-bounds bytes of a 32-byte table, or of an accumulator row.
    unsafe {
        let mut sums: [[__m256i; 2]; 4] =
            core::array::from_fn(|j| [load_half(&rows[k + j], 0), load_half(&rows[k + j], 1)]);
        for (i, x) in items.iter().enumerate() {
            for (j, sum) in sums.iter_mut().enumerate() {
                let row = table(i, j).as_ptr();
                let lo = _mm256_broadcastsi128_si256(_mm_loadu_si128(row.cast()));
                let hi = _mm256_broadcastsi128_si256(_mm_loadu_si128(row.add(16).cast()));
                for ((s, &xl), &xh) in sum.iter_mut().zip(&x.lo).zip(&x.hi) {
                    let p = _mm256_xor_si256(_mm256_shuffle_epi8(lo, xl), _mm256_shuffle_epi8(hi, xh));
                    *s = _mm256_xor_si256(*s, p);
                }
            }
        }
        store_rows(rows, k, &sums);
    }
}

#[inline(always)]
fn store_rows(rows: &mut [ByteRow; 16], k: usize, sums: &[[__m256i; 2]; 4]) {
    for (j, sum) in sums.iter().enumerate() {
        for (h, &v) in sum.iter().enumerate() {
            // SAFETY: 32 in-bounds, 32-byte aligned bytes of a row; avx2 is
            // enabled by the callers.
            unsafe { _mm256_store_si256(rows[k + j].0.as_mut_ptr().add(32 * h).cast(), v) };
        }
    }
}

/// Within each 128-bit lane, the bytes of its two words interleaved: 16-bit
/// unit `j` holds byte `j` of the first word, then byte `j` of the second.
const INTERLEAVE_WORDS: [u8; 32] = {
    let mut idx = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        idx[i] = ((i % 16) / 2 + 8 * (i % 2)) as u8;
        i += 1;
    }
    idx
};

/// The word whose byte sits at position `16 l + q` of a byte plane of
/// [`weigh32_avx2`]: lane `l` of register `q / 2` after loading four words
/// per register, the first or second word of that lane.
const fn plane_word(pos: usize) -> usize {
    let (lane, q) = (pos / 16, pos % 16);
    4 * (q / 2) + 2 * lane + q % 2
}

/// `out[i] = sum_y bit y of words[i] * weights[y]` for 32 words, with the
/// weights as split-nibble tables: transpose the words to byte planes
/// ([`byte_planes`]), split each plane into its two nibble planes, add one
/// `vpshufb` per (nibble plane, output byte), and transpose the 16
/// output-byte planes back to elements ([`store_byte_planes`]).
#[target_feature(enable = "avx2")]
fn weigh32_avx2(nibbles: &NibbleTables, words: &[u64; 32], out: &mut [u128; 32]) {
    // SAFETY: every load is of in-bounds bytes of `nibbles`; avx2 is enabled
    // on this function.
    unsafe {
        // Byte j of every word, split into its nibbles 2 j and 2 j + 1.
        let low = _mm256_set1_epi8(0x0f);
        let mut idx = [_mm256_setzero_si256(); 16];
        for (j, plane) in byte_planes(words).into_iter().enumerate() {
            idx[2 * j] = _mm256_and_si256(plane, low);
            idx[2 * j + 1] = _mm256_and_si256(_mm256_srli_epi16::<4>(plane), low);
        }
        // y[o] byte q: byte o of the sum of plane_word(q)'s weights; eight
        // output bytes at a time keep the sums in registers.
        let mut y = [_mm256_setzero_si256(); 16];
        for half in 0..2 {
            let mut acc = [_mm256_setzero_si256(); 8];
            for (p, &x) in idx.iter().enumerate() {
                for (oo, acc_o) in acc.iter_mut().enumerate() {
                    let t = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                        nibbles[p][8 * half + oo].as_ptr().cast(),
                    ));
                    *acc_o = _mm256_xor_si256(*acc_o, _mm256_shuffle_epi8(t, x));
                }
            }
            y[8 * half..8 * half + 8].copy_from_slice(&acc);
        }
        store_byte_planes(y, out);
    }
}

/// The byte planes of 32 words: plane `j` holds byte `j` of every word, the
/// word at position `q` being [`plane_word`]`(q)`.
#[inline(always)]
pub(super) fn byte_planes(words: &[u64; 32]) -> [__m256i; 8] {
    // SAFETY: every load is of in-bounds bytes of `words` or the index
    // constant; only reached from functions with avx2 enabled.
    unsafe {
        let interleave = _mm256_loadu_si256(INTERLEAVE_WORDS.as_ptr().cast());
        let mut s = [_mm256_setzero_si256(); 8];
        for (k, sk) in s.iter_mut().enumerate() {
            *sk = _mm256_shuffle_epi8(_mm256_loadu_si256(words[4 * k..].as_ptr().cast()), interleave);
        }
        // a[2 m + g]: 32-bit units (s[2m], s[2m+1]) for bytes 4 g + u.
        let mut a = [_mm256_setzero_si256(); 8];
        for m in 0..4 {
            a[2 * m] = _mm256_unpacklo_epi16(s[2 * m], s[2 * m + 1]);
            a[2 * m + 1] = _mm256_unpackhi_epi16(s[2 * m], s[2 * m + 1]);
        }
        // b[4 q + 2 g + f]: 64-bit units (s[4q..4q+4]) for bytes 4 g + 2 f + u.
        let mut b = [_mm256_setzero_si256(); 8];
        for q in 0..2 {
            for g in 0..2 {
                let (x, y) = (a[4 * q + g], a[4 * q + 2 + g]);
                b[4 * q + 2 * g] = _mm256_unpacklo_epi32(x, y);
                b[4 * q + 2 * g + 1] = _mm256_unpackhi_epi32(x, y);
            }
        }
        let mut planes = [_mm256_setzero_si256(); 8];
        for i in 0..4 {
            let (x, y) = (b[i], b[4 + i]);
            planes[2 * i] = _mm256_unpacklo_epi64(x, y);
            planes[2 * i + 1] = _mm256_unpackhi_epi64(x, y);
        }
        planes
    }
}

/// Writes the sums whose bytes `y` holds (`y[o]` byte `q`: byte `o` of the
/// sum for [`plane_word`]`(q)`) to `out`, element by element.
#[inline(always)]
pub(super) fn store_byte_planes(y: [__m256i; 16], out: &mut [u128; 32]) {
    // SAFETY: every store is of 16 in-bounds bytes of `out`; only reached
    // from functions with avx2 enabled.
    unsafe {
        // Column q, lane l: the sum for plane_word(16 l + q), bytes in order.
        transpose_lanes(y, |q, col| {
            _mm_storeu_si128(
                out[plane_word(q)..].as_mut_ptr().cast(),
                _mm256_castsi256_si128(col),
            );
            _mm_storeu_si128(
                out[plane_word(16 + q)..].as_mut_ptr().cast(),
                _mm256_extracti128_si256::<1>(col),
            );
        });
    }
}

/// Proof that the CPU runs the AVX2 tier and has 256-bit VPCLMULQDQ (Zen 3,
/// Ice Lake and later), which the tier itself does not include.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vpclmul256(());

impl Vpclmul256 {
    /// The token, under the AVX2 tier on a CPU with 256-bit VPCLMULQDQ.
    pub(crate) fn new(tier: Tier) -> Option<Self> {
        (tier == Tier::Avx2 && tier.runs_here() && starling_field::cpu::has_vpclmulqdq_256())
            .then_some(Vpclmul256(()))
    }

    /// Same result as [`super::super::portable::round_field`].
    pub(crate) fn round_field(self, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
        // SAFETY: the token proves the target features are present.
        unsafe { round_field_vpclmul256(Clmul(()), a, b, e_lo) }
    }

    /// Same result as [`super::super::portable::fold_field_round`].
    pub(crate) fn fold_field_round(
        self,
        a: &[u128],
        b: &[u128],
        r: u128,
        out_a: &mut [u128],
        out_b: &mut [u128],
        e_lo: &[u128],
    ) -> (u128, u128) {
        // SAFETY: as in `round_field`.
        unsafe { fold_field_round_vpclmul256(Clmul(()), a, b, r, out_a, out_b, e_lo) }
    }
}

/// Two elements in a `__m256i`, for [`lanes`].
#[derive(Clone, Copy)]
struct Ymm(());

impl Lanes for Ymm {
    type V = __m256i;
    const N: usize = 2;

    // SAFETY (every method): only reached from the `#[target_feature]`
    // wrappers below, which enable avx2 and vpclmulqdq; memory is touched
    // through slices whose lengths are checked first.
    #[inline(always)]
    fn load(self, x: &[u128]) -> __m256i {
        assert!(x.len() >= 2);
        unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, x: &mut [u128], v: __m256i) {
        assert!(x.len() >= 2);
        unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn splat(self, x: u128) -> __m256i {
        unsafe { _mm256_broadcastsi128_si256(Clmul(()).load(&x)) }
    }
    #[inline(always)]
    fn zero(self) -> __m256i {
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn mul_wide(self, x: __m256i, y: __m256i) -> (__m256i, __m256i, __m256i) {
        unsafe {
            let lo = _mm256_clmulepi64_epi128::<0x00>(x, y);
            let hi = _mm256_clmulepi64_epi128::<0x11>(x, y);
            let mid = _mm256_xor_si256(
                _mm256_clmulepi64_epi128::<0x01>(x, y),
                _mm256_clmulepi64_epi128::<0x10>(x, y),
            );
            (lo, mid, hi)
        }
    }
    #[inline(always)]
    fn reduce(self, (lo, mid, hi): (__m256i, __m256i, __m256i)) -> __m256i {
        unsafe {
            let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(mid));
            let hi = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(mid));
            let p = _mm256_set_epi64x(0, 0x87, 0, 0x87);
            let t = _mm256_clmulepi64_epi128::<0x01>(hi, p);
            let lo = _mm256_xor_si256(lo, _mm256_bslli_epi128::<8>(t));
            let h0 = _mm256_xor_si256(hi, _mm256_bsrli_epi128::<8>(t));
            _mm256_xor_si256(lo, _mm256_clmulepi64_epi128::<0x00>(h0, p))
        }
    }
    #[inline(always)]
    fn split_pairs(self, u: __m256i, v: __m256i) -> (__m256i, __m256i) {
        unsafe {
            (
                _mm256_permute2x128_si256::<0x20>(u, v),
                _mm256_permute2x128_si256::<0x31>(u, v),
            )
        }
    }
    #[inline(always)]
    fn lane_sum(self, v: __m256i) -> u128 {
        unsafe {
            let x = _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            Clmul(()).store(x)
        }
    }
}

#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
fn round_field_vpclmul256(m: Clmul, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    lanes::round(Ymm(()), m, a, b, e_lo)
}

#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
#[allow(clippy::too_many_arguments)]
fn fold_field_round_vpclmul256(
    m: Clmul,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    lanes::fold_round(Ymm(()), m, a, b, r, out_a, out_b, e_lo)
}

#[cfg(test)]
mod tests {
    use super::super::tower::{lambda, tower_mul};
    use super::*;

    #[target_feature(enable = "avx2")]
    fn products(x: &[u8; 32], y: &[u8; 32]) -> [u8; 32] {
        let mut out = [0u8; 32];
        // SAFETY: the loads and the store touch the three 32-byte arrays.
        unsafe {
            let p = TowerTables::new().mul(
                _mm256_loadu_si256(x.as_ptr().cast()),
                _mm256_loadu_si256(y.as_ptr().cast()),
            );
            _mm256_storeu_si256(out.as_mut_ptr().cast(), p);
        }
        out
    }

    #[test]
    fn tower_products_match_the_definition() {
        if Avx2::new(Tier::Avx2).is_none() {
            eprintln!("skipped: no AVX2");
            return;
        }
        let lambda = lambda();
        for x in 0..=255u8 {
            for ys in (0..=255u8).collect::<Vec<_>>().chunks(32) {
                let y: [u8; 32] = ys.try_into().expect("32 bytes");
                // SAFETY: AVX2 is present (checked above).
                let got = unsafe { products(&[x; 32], &y) };
                for (g, &yi) in got.iter().zip(&y) {
                    assert_eq!(*g, tower_mul(lambda, x, yi), "{x} * {yi}");
                }
            }
        }
    }
}
