//! GF(2)-linear maps GF(2^128) -> GF(2^128) evaluated by byte tables.
//!
//! A linear map is fixed by the images of the 128 basis bits. Splitting the
//! input into 16 bytes and tabulating all 256 combinations per byte turns one
//! application into 16 lookups and XORs, which is how the prover reads
//! weighted bits of field elements in bulk (ring switching, packed bit sums).

pub use starling_verifier::field::subset_sums;

use crate::Gf128;

/// A GF(2)-linear map on GF(2^128), as sixteen 256-entry tables.
#[derive(Clone)]
pub struct ByteLinearMap {
    tables: Vec<[Gf128; 256]>,
}

impl ByteLinearMap {
    /// The map sending basis bit v (the element x^v) to `images[v]`.
    pub fn new(images: &[Gf128; 128]) -> Self {
        let tables = (0..16)
            .map(|byte| subset_sums(&images[8 * byte..8 * byte + 8]))
            .collect();
        ByteLinearMap { tables }
    }

    /// Applies the map.
    #[inline]
    pub fn apply(&self, a: Gf128) -> Gf128 {
        let bytes = a.to_bytes();
        let mut acc = Gf128::ZERO;
        for (table, &b) in self.tables.iter().zip(bytes.iter()) {
            acc += table[b as usize];
        }
        acc
    }
}
