//! The definition of many-leaf hashing: every leaf on its own through
//! [`hash_leaf`] (the `sha2` crate, SHA-NI when the CPU has it). Every other
//! backend must give exactly these digests.

use crate::merkle::hash_leaf;
use crate::Digest;

/// `out[i] = hash_leaf(data[i * leaf_len..(i + 1) * leaf_len])` for every
/// `i < out.len()`; `data` must hold exactly `out.len() * leaf_len` bytes.
pub fn hash_leaves_chunked(data: &[u8], leaf_len: usize, out: &mut [Digest]) {
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(leaf_len),
        "data must hold exactly one leaf per output digest"
    );
    for (i, o) in out.iter_mut().enumerate() {
        *o = hash_leaf(&data[i * leaf_len..(i + 1) * leaf_len]);
    }
}
