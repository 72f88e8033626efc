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
        let most_stored = r1cs.used_wires() / MOST_STORED;
        // Each nonempty `B` row by the hash of its sorted terms, the first
        // wire of each hash first; a match is checked term by term.
        let mut b_rows: Vec<(u64, u32)> = (0..b.num_rows())
            .filter(|&w| !b.row(w).is_empty())
            .map(|w| (row_hash(&sorted(b.row(w))), w as u32))
            .collect();
        b_rows.sort_unstable();
        let find = |row: &[u32]| -> Option<u32> {
            let h = row_hash(row);
            let first = b_rows.partition_point(|&(x, _)| x < h);
            b_rows[first..]
                .iter()
                .take_while(|&&(x, _)| x == h)
                .map(|&(_, s)| s)
                .find(|&s| sorted(b.row(s as usize)) == row)
        };
        let mut stored = Vec::new();
        let mut rows = Vec::with_capacity(a.num_rows());
        for w in 0..a.num_rows() {
            let row = sorted(a.row(w));
            let found = if row.is_empty() {
                ARow::Zero
            } else if let Some(s) = find(&row) {
                ARow::Like(s)
            } else {
                // The row with the constant wire toggled.
                let toggled: Vec<u32> = match row.first() {
                    Some(0) => row[1..].to_vec(),
                    _ => core::iter::once(0).chain(row.iter().copied()).collect(),
                };
                match find(&toggled) {
                    Some(s) => ARow::Complement(s),
                    None if stored.len() < most_stored => {
                        stored.push(w as u32);
                        ARow::Stored(stored.len() as u32 - 1)
                    }
                    // More rows than worth storing: `a` is kept whole.
                    None => return None,
                }
            };
            rows.push(found);
        }
        Some(AFromB { rows, stored })
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

/// A row's terms, sorted.
fn sorted(row: &[u32]) -> Vec<u32> {
    let mut r = row.to_vec();
    r.sort_unstable();
    r
}

/// A hash of sorted terms (FNV-1a over the terms' bytes); equal rows hash
/// equal, and a match is checked term by term.
fn row_hash(row: &[u32]) -> u64 {
    row.iter()
        .flat_map(|t| t.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |h, byte| {
            (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
}
