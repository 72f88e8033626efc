//! Linkable ring signatures, the prover's side: keys, the ring's root, key
//! images, and a signature's public and private records from the ring's
//! public keys, a secret key, a context and a message (the statement kind
//! is [`crate::kind::Ring`]; the byte formats are in `docs/ring.md`).
//!
//! A signature is a proof file of that kind, proved with
//! [`crate::prove_private`] on the records [`statement`] builds.

#[cfg(test)]
mod sign_timing;
mod tree;

use sha2::Digest as _;

use crate::kind::{Ring, RING_KEY_BYTES as KEY_BYTES, RING_MAX_CONTEXT_LEN};
use crate::{Error, Records};

/// A secret key and its public key.
pub type KeyPair = ([u8; KEY_BYTES], [u8; KEY_BYTES]);

/// The key pair of the secret key `bytes` (32 random bytes):
/// `pk = SHA-256("starling/ring/pk" ‖ sk)`.
pub fn keygen_from(bytes: [u8; KEY_BYTES]) -> KeyPair {
    (bytes, Ring::public_key(&bytes))
}

/// `K = SHA-256("starling/ring/tag" ‖ sk ‖ context)`.
pub fn key_image(sk: &[u8; KEY_BYTES], context: &[u8]) -> [u8; KEY_BYTES] {
    Ring::key_image(sk, context)
}

/// The SHA-256 of a message, which a signature's public record holds.
pub fn message_digest(message: &[u8]) -> [u8; KEY_BYTES] {
    sha2::Sha256::digest(message).into()
}

/// The ring's size as its public record holds it: its leaves, the public
/// keys padded with all-zero leaves to a power of two. An error for an
/// empty ring.
pub fn size(pks: &[[u8; KEY_BYTES]]) -> Result<u64, Error> {
    not_empty(pks)?;
    Ok(pks.len().next_power_of_two() as u64)
}

/// The root of the ring's plain SHA-256 tree (`H(left ‖ right)`, the
/// public keys padded with all-zero leaves to a power of two).
pub fn root(pks: &[[u8; KEY_BYTES]]) -> Result<[u8; KEY_BYTES], Error> {
    not_empty(pks)?;
    // Every leaf's pass gives the root.
    Ok(tree::root_and_path(pks, 0).0)
}

fn not_empty(pks: &[[u8; KEY_BYTES]]) -> Result<(), Error> {
    if pks.is_empty() {
        return Err(Error::Input("the ring has no public keys".into()));
    }
    Ok(())
}

/// A signature's public record and private record: by the secret key `sk`
/// in the ring `pks` (the first leaf that is its public key), in
/// `context` (at most 64 bytes), on `message`. Refused with
/// [`Error::False`] when `sk`'s public key is not in the ring, with
/// [`Error::Input`] for an empty ring or a longer context.
pub fn statement(
    pks: &[[u8; KEY_BYTES]],
    sk: &[u8; KEY_BYTES],
    context: &[u8],
    message: &[u8],
) -> Result<(Records, Records), Error> {
    if context.len() > RING_MAX_CONTEXT_LEN {
        return Err(Error::Input(format!(
            "the context has {} bytes, more than the {RING_MAX_CONTEXT_LEN} a ring signature takes",
            context.len()
        )));
    }
    not_empty(pks)?;
    let pk = Ring::public_key(sk);
    let index = pks.iter().position(|p| *p == pk).ok_or_else(|| {
        Error::False(format!(
            "the secret key's public key {} is not in the ring",
            hex::encode(pk)
        ))
    })?;
    let (root, path) = tree::root_and_path(pks, index);
    let path: Vec<Vec<u8>> = path.iter().map(|node| node.to_vec()).collect();
    let public = Ring::public_record(
        &root,
        size(pks)?,
        &message_digest(message),
        &key_image(sk, context),
        context,
    );
    let private = Ring::private_record(sk, index as u64, &path);
    Ok((
        [public.as_slice()].into_iter().collect(),
        [private.as_slice()].into_iter().collect(),
    ))
}
