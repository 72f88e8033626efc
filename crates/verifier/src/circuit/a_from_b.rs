//! Where a circuit's form `a = A z` repeats its form `b = B z`, so that a
//! prover short of memory keeps `b` and reads `a` out of it.
//!
//! Keccak-f's χ rows are the case: row `(x, y, z)` ANDs `¬π[x+1]` with
//! `π[x+2]`, so its `A` row is the `B` row of `(x−1, y, z)` plus the
//! constant wire. Over the bit-sliced tables that is `a = ¬b` at another
//! row, word for word; over the zerocheck's folds of them, `b`'s fold there
//! plus the fold of the all-ones word, a constant (folds are affine). 38,400
//! of Keccak-f's 40,001 used rows are such; the other 1,601 (the inputs'
//! and the constant's) are stored beside `b`, about 4% of a table.

use super::r1cs::R1cs;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// How a wire's row of `a` is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ARow {
    /// Zero (a row without terms).
    Zero,
    /// `b`'s row of this wire.
    Like(u32),
    /// `b`'s row of this wire, complemented: the `A` row is that `B` row
    /// plus the constant wire 0, which is 1 in every instance.
    Complement(u32),
    /// Row `i` of the stored rows.
    Stored(u32),
}

/// Every wire's [`ARow`], and the wires whose `a` rows are stored, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AFromB {
    rows: Vec<ARow>,
    stored: Vec<u32>,
}

/// `a` is read out of `b` only where at most this fraction of the used
/// wires need their rows stored: elsewhere (SHA-256: 99% of them) both forms
/// are kept whole.
const MOST_STORED: usize = 8;

impl AFromB {
    /// The rule for `r1cs`, when it stores at most an eighth of the used
    /// wires' `a` rows.
    pub fn of(r1cs: &R1cs) -> Option<Self> {
        let (a, b) = (r1cs.a(), r1cs.b());
        let sorted = |row: &[u32]| {
            let mut r = row.to_vec();
            r.sort_unstable();
            r
        };
        // The first wire of each distinct nonempty `B` row.
        let mut b_rows: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
        for w in 0..b.num_rows() {
            let row = sorted(b.row(w));
            if !row.is_empty() {
                b_rows.entry(row).or_insert(w as u32);
            }
        }
        let mut stored = Vec::new();
        let rows: Vec<ARow> = (0..a.num_rows())
            .map(|w| {
                let row = sorted(a.row(w));
                if row.is_empty() {
                    return ARow::Zero;
                }
                if let Some(&s) = b_rows.get(&row) {
                    return ARow::Like(s);
                }
                // The row with the constant wire toggled.
                let toggled = match row.first() {
                    Some(0) => row[1..].to_vec(),
                    _ => core::iter::once(0).chain(row.iter().copied()).collect(),
                };
                match b_rows.get(&toggled) {
                    Some(&s) => ARow::Complement(s),
                    None => {
                        stored.push(w as u32);
                        ARow::Stored(stored.len() as u32 - 1)
                    }
                }
            })
            .collect();
        (stored.len() * MOST_STORED <= r1cs.used_wires()).then_some(AFromB { rows, stored })
    }

    /// Wire `w`'s row of `a`.
    pub fn row(&self, w: usize) -> ARow {
        self.rows[w]
    }

    /// The wires whose `a` rows are stored, in the order they are stored.
    pub fn stored(&self) -> &[u32] {
        &self.stored
    }
}
