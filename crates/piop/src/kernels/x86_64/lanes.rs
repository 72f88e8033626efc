//! The zerocheck's field loops on several elements per register, written
//! once for every register width: [`Lanes`] is what a width provides (the
//! AVX-512 tier's four elements in a `__m512i`, the AVX2 tier's two in a
//! `__m256i` where the CPU has 256-bit VPCLMULQDQ), and [`round`] and
//! [`fold_round`] are the loops. Elements past the last full register go
//! through the one-at-a-time PCLMULQDQ loops of [`super::Clmul`], so every
//! width returns exactly what the portable definitions do.
//!
//! The functions here are `#[inline(always)]`: each width calls them from
//! a `#[target_feature]` wrapper, which is where its instructions get
//! enabled. For the same reason the loops hold no closures around wide
//! instructions: a closure is a function of its own, without the wrapper's
//! features, and every intrinsic in it would become a call.

use super::super::portable::{fold_round_with, round_with, FieldMul};
use super::Clmul;

/// One register width of field elements, in the in-memory layout of `u128`
/// (element `k` in 128-bit lane `k`).
pub(crate) trait Lanes: Copy {
    /// A register of [`Lanes::N`] elements.
    type V: Copy;
    /// Elements per register.
    const N: usize;

    /// Loads the first `N` elements of `x` (panics if there are fewer).
    fn load(self, x: &[u128]) -> Self::V;
    /// Stores `v` to the first `N` elements of `x` (panics if there are fewer).
    fn store(self, x: &mut [u128], v: Self::V);
    /// `x` in every lane.
    fn splat(self, x: u128) -> Self::V;
    /// Zero in every lane.
    fn zero(self) -> Self::V;
    /// Lane-wise sum.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise unreduced products: (low, middle, high), as
    /// [`Clmul::mul_add_wide`] forms them.
    fn mul_wide(self, x: Self::V, y: Self::V) -> (Self::V, Self::V, Self::V);
    /// Lane-wise [`Clmul::reduce`].
    fn reduce(self, w: (Self::V, Self::V, Self::V)) -> Self::V;
    /// From `2 N` consecutive elements (`u` then `v`), the `N` at even and
    /// the `N` at odd positions.
    fn split_pairs(self, u: Self::V, v: Self::V) -> (Self::V, Self::V);
    /// The sum of the lanes.
    fn lane_sum(self, v: Self::V) -> u128;
}

#[inline(always)]
fn xor3<L: Lanes>(l: L, a: (L::V, L::V, L::V), b: (L::V, L::V, L::V)) -> (L::V, L::V, L::V) {
    (l.xor(a.0, b.0), l.xor(a.1, b.1), l.xor(a.2, b.2))
}

/// Adds the round terms of `N` pairs, given as even and odd elements, to
/// the unreduced sums `e A(2p) B(2p)` and `e A'(p) B'(p)`.
#[inline(always)]
fn add_pairs<L: Lanes>(
    l: L,
    sums: &mut [(L::V, L::V, L::V); 2],
    e: L::V,
    (ae, ao): (L::V, L::V),
    (be, bo): (L::V, L::V),
) {
    let p0 = l.reduce(l.mul_wide(ae, be));
    let p2 = l.reduce(l.mul_wide(l.xor(ae, ao), l.xor(be, bo)));
    sums[0] = xor3(l, sums[0], l.mul_wide(e, p0));
    sums[1] = xor3(l, sums[1], l.mul_wide(e, p2));
}

/// [`super::super::portable::round_field`], `N` pairs at a time.
#[inline(always)]
pub(crate) fn round<L: Lanes>(l: L, m: Clmul, a: &[u128], b: &[u128], e_lo: &[u128]) -> (u128, u128) {
    assert!(a.len() == 2 * e_lo.len() && b.len() == a.len());
    let n = L::N;
    let zero = l.zero();
    let mut sums = [(zero, zero, zero); 2];
    let groups = e_lo.len() / n;
    for g in 0..groups {
        let sa = l.split_pairs(l.load(&a[2 * n * g..]), l.load(&a[2 * n * g + n..]));
        let sb = l.split_pairs(l.load(&b[2 * n * g..]), l.load(&b[2 * n * g + n..]));
        add_pairs(l, &mut sums, l.load(&e_lo[n * g..]), sa, sb);
    }
    let (t0, t2) = round_with(m, &a[2 * n * groups..], &b[2 * n * groups..], &e_lo[n * groups..]);
    (
        l.lane_sum(l.reduce(sums[0])) ^ t0,
        l.lane_sum(l.reduce(sums[1])) ^ t2,
    )
}

/// `2 N` folded outputs from the first `4 N` inputs of `src`, as two
/// registers: `x_2i + r (x_2i + x_2i+1)`.
#[inline(always)]
fn fold_4n<L: Lanes>(l: L, r: L::V, src: &[u128]) -> (L::V, L::V) {
    let n = L::N;
    let (ev, od) = l.split_pairs(l.load(src), l.load(&src[n..]));
    let (ev2, od2) = l.split_pairs(l.load(&src[2 * n..]), l.load(&src[3 * n..]));
    (
        l.xor(ev, l.reduce(l.mul_wide(r, l.xor(ev, od)))),
        l.xor(ev2, l.reduce(l.mul_wide(r, l.xor(ev2, od2)))),
    )
}

/// [`super::super::portable::fold_field_round`], `2 N` outputs at a time.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fold_round<L: Lanes>(
    l: L,
    m: Clmul,
    a: &[u128],
    b: &[u128],
    r: u128,
    out_a: &mut [u128],
    out_b: &mut [u128],
    e_lo: &[u128],
) -> (u128, u128) {
    assert!(out_a.len() == 2 * e_lo.len() && out_b.len() == out_a.len());
    assert!(a.len() == 2 * out_a.len() && b.len() == a.len());
    let n = L::N;
    let rv = l.splat(r);
    let zero = l.zero();
    let mut sums = [(zero, zero, zero); 2];
    let groups = e_lo.len() / n;
    for g in 0..groups {
        let fa = fold_4n(l, rv, &a[4 * n * g..]);
        let fb = fold_4n(l, rv, &b[4 * n * g..]);
        l.store(&mut out_a[2 * n * g..], fa.0);
        l.store(&mut out_a[2 * n * g + n..], fa.1);
        l.store(&mut out_b[2 * n * g..], fb.0);
        l.store(&mut out_b[2 * n * g + n..], fb.1);
        add_pairs(
            l,
            &mut sums,
            l.load(&e_lo[n * g..]),
            l.split_pairs(fa.0, fa.1),
            l.split_pairs(fb.0, fb.1),
        );
    }
    // The tail, one element at a time (a closure is fine here: no wide
    // instructions run in it).
    let (a, b) = (&a[4 * n * groups..], &b[4 * n * groups..]);
    let load = |i: usize| {
        (
            (m.load(&a[2 * i]), m.load(&a[2 * i + 1])),
            (m.load(&b[2 * i]), m.load(&b[2 * i + 1])),
        )
    };
    let (t0, t2) = fold_round_with(
        m,
        load,
        r,
        &mut out_a[2 * n * groups..],
        &mut out_b[2 * n * groups..],
        &e_lo[n * groups..],
    );
    (
        l.lane_sum(l.reduce(sums[0])) ^ t0,
        l.lane_sum(l.reduce(sums[1])) ^ t2,
    )
}
