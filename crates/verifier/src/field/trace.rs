//! The absolute trace Tr: GF(2^128) -> GF(2) and the dual of the polynomial basis.
//!
//! Every GF(2)-linear functional on GF(2^128) is `a -> Tr(d * a)` for exactly
//! one `d`. For the functional "coefficient of x^v" that `d` is `dual_basis()[v]`:
//! `Tr(dual_basis()[v] * x^u) = [u == v]`. Ring switching (Diamond–Posen) uses
//! this to write "bit v of a field element" as the polynomial
//! `sum_j (d_v a)^(2^j)`, which a verifier can evaluate at points off the
//! hypercube.

use alloc::boxed::Box;
use alloc::vec;

use once_cell::race::OnceBox;

use super::Gf128;

/// Tr(a) = a + a^2 + a^4 + ... + a^(2^127), computed the slow way.
fn trace_slow(a: Gf128) -> bool {
    let mut acc = Gf128::ZERO;
    let mut p = a;
    for _ in 0..128 {
        acc += p;
        p = p.square();
    }
    debug_assert!(acc.to_bits() <= 1);
    acc == Gf128::ONE
}

/// Bit u set iff Tr(x^u) = 1; trace is linear so Tr(a) = parity(a & mask).
fn trace_mask() -> u128 {
    static MASK: OnceBox<u128> = OnceBox::new();
    *MASK.get_or_init(|| {
        Box::new({
            let mut m = 0u128;
            for u in 0..128 {
                if trace_slow(Gf128::new(1u128 << u)) {
                    m |= 1u128 << u;
                }
            }
            m
        })
    })
}

/// The absolute trace of `a`, an element of GF(2).
#[inline]
pub fn trace(a: Gf128) -> bool {
    (a.to_bits() & trace_mask()).count_ones() & 1 == 1
}

/// The dual basis `d_0..d_127` of the polynomial basis under the trace form.
pub fn dual_basis() -> &'static [Gf128; 128] {
    static DUAL: OnceBox<[Gf128; 128]> = OnceBox::new();
    DUAL.get_or_init(|| {
        Box::new({
            // Row w of T is the functional u -> Tr(x^(u+w)), a 128-bit mask. We
            // want D with D * T = I; Gauss-Jordan on [T | I].
            let mut t = [0u128; 128];
            let mut inv = [0u128; 128];
            for w in 0..128 {
                let xw = Gf128::new(1u128 << w);
                let mut row = 0u128;
                for u in 0..128 {
                    if trace(xw * Gf128::new(1u128 << u)) {
                        row |= 1u128 << u;
                    }
                }
                t[w] = row;
                inv[w] = 1u128 << w;
            }
            for col in 0..128 {
                let pivot = (col..128)
                    .find(|&r| (t[r] >> col) & 1 == 1)
                    .expect("the trace form is non-degenerate");
                t.swap(col, pivot);
                inv.swap(col, pivot);
                for r in 0..128 {
                    if r != col && (t[r] >> col) & 1 == 1 {
                        t[r] ^= t[col];
                        inv[r] ^= inv[col];
                    }
                }
            }
            // Now inv * T = I, i.e. row v of inv lists the w with d_v = sum x^w.
            // T is symmetric, so T^-1 is too, and rows or columns give the same d_v.
            let mut d = [Gf128::ZERO; 128];
            for v in 0..128 {
                d[v] = Gf128::new(inv[v]);
            }
            d
        })
    })
}

/// The Frobenius conjugates of the dual basis: entry `[j][v]` is
/// `d_v^(2^j)`, so that `sum_v e_v d_v^(2^j)` is one dot product of
/// the weights `e` with row `j`. Built once per process, on the heap (256
/// KiB, never on the stack: a small target's stack is smaller).
pub fn dual_basis_conjugates() -> &'static [[Gf128; 128]; 128] {
    static CONJUGATES: OnceBox<[[Gf128; 128]; 128]> = OnceBox::new();
    CONJUGATES.get_or_init(|| {
        let mut rows: Box<[[Gf128; 128]; 128]> = vec![[Gf128::ZERO; 128]; 128]
            .into_boxed_slice()
            .try_into()
            .expect("128 rows");
        for (v, &d) in dual_basis().iter().enumerate() {
            let mut p = d;
            for row in rows.iter_mut() {
                row[v] = p;
                p = p.square();
            }
        }
        rows
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjugates_are_squares_of_the_row_above() {
        let (d, c) = (dual_basis(), dual_basis_conjugates());
        for v in [0usize, 1, 77, 127] {
            assert_eq!(c[0][v], d[v]);
            for j in 1..128 {
                assert_eq!(c[j][v], c[j - 1][v].square(), "{j} {v}");
            }
        }
    }

    #[test]
    fn trace_matches_definition() {
        let mut a = Gf128::new(0x1234_5678_9abc_def0_0fed_cba9_8765_4321);
        for _ in 0..20 {
            assert_eq!(trace(a), trace_slow(a));
            a = a * a + Gf128::X;
        }
    }

    #[test]
    fn dual_basis_extracts_bits() {
        let d = dual_basis();
        let mut a = Gf128::new(0xdead_beef_0123_4567_89ab_cdef_f00d_cafe);
        for _ in 0..8 {
            for (v, &dv) in d.iter().enumerate() {
                assert_eq!(trace(dv * a), a.bit(v), "bit {v}");
            }
            a = a * a + Gf128::ONE;
        }
    }
}
