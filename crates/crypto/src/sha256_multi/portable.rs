//! The definition of many-leaf hashing: every leaf on its own through
//! [`hash_leaf`] (the `sha2` crate, SHA-NI when the CPU has it). Every other
//! backend must give exactly these digests.

use crate::merkle::{hash_leaf, hash_node, SHA256_IV};
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

/// `out[i] = hash_node(left, right)` for the 64-byte pairs
/// `children[64 i..64 i + 64] = left || right`.
pub fn hash_nodes(children: &[u8], out: &mut [Digest]) {
    assert_eq!(
        Some(children.len()),
        out.len().checked_mul(64),
        "children must hold exactly two digests per output"
    );
    for (o, pair) in out.iter_mut().zip(children.chunks_exact(64)) {
        let (l, r) = pair.split_at(32);
        *o = hash_node(l.try_into().expect("32 bytes"), r.try_into().expect("32 bytes"));
    }
}

/// `out[i]`: the state after one compression of the (already padded) block
/// `blocks[i]` from SHA-256's initial state, as a digest (words
/// big-endian). For a one-block message that is its SHA-256 digest.
pub fn compress_blocks(blocks: &[[u8; 64]], out: &mut [Digest]) {
    assert_eq!(blocks.len(), out.len(), "one output digest per block");
    for (block, o) in blocks.iter().zip(out) {
        let mut state = SHA256_IV;
        sha2::compress256(&mut state, &[(*block).into()]);
        for (chunk, word) in o.chunks_exact_mut(4).zip(state) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
    }
}
