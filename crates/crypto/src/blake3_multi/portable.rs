//! The definition of many-message hashing: every message on its own through
//! `blake3::keyed_hash`. Every other backend must give exactly these
//! digests.

use super::Key;
use crate::Digest;

/// `out[i] = blake3::keyed_hash(key, data[i * len..(i + 1) * len])` for
/// every `i < out.len()`; `data` must hold exactly `out.len() * len` bytes.
pub fn keyed_hash_many(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(len),
        "data must hold exactly one message per output digest"
    );
    for (i, o) in out.iter_mut().enumerate() {
        *o = *blake3::keyed_hash(key, &data[i * len..(i + 1) * len]).as_bytes();
    }
}
