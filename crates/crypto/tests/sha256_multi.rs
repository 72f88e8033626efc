//! One shared harness over every leaf-hashing backend this CPU can use: each
//! must give the digests of the portable definition (and of `hash_leaf`, the
//! `sha2` crate) on random inputs, and the RFC 6962 known answers.

use sha2::{Digest as _, Sha256};
use starling_crypto::merkle::{hash_leaf, hash_node};
use starling_crypto::sha256_multi::{self, hasher_for, Backend, ChunkedLeafHasher};
use starling_crypto::Digest;

/// splitmix64: a small deterministic source of test bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn backends() -> Vec<(Backend, ChunkedLeafHasher)> {
    let found: Vec<_> = Backend::ALL
        .into_iter()
        .filter_map(|b| hasher_for(b).map(|h| (b, h)))
        .collect();
    for b in Backend::ALL {
        if hasher_for(b).is_none() {
            eprintln!("SKIPPED: backend {b:?} is not supported by this CPU");
        }
    }
    found
}

/// Checks every backend (and the dispatching entry point) against
/// `hash_leaf` and `sha2` on `count` leaves of `leaf_len` bytes; `offset`
/// shifts the buffer start so kernels see unaligned data.
fn check(rng: &mut Rng, leaf_len: usize, count: usize, offset: usize) {
    let buf = rng.bytes(offset + leaf_len * count);
    let data = &buf[offset..];
    let want: Vec<Digest> = data
        .chunks(leaf_len.max(1))
        .take(count)
        .map(|c| hash_leaf(&c[..leaf_len]))
        .collect();
    let want = if leaf_len == 0 {
        vec![hash_leaf(&[]); count]
    } else {
        want
    };
    // `hash_leaf` itself against the `sha2` crate on the prefixed bytes.
    for (i, w) in want.iter().enumerate().take(3) {
        let mut msg = vec![0u8];
        msg.extend_from_slice(&data[i * leaf_len..(i + 1) * leaf_len]);
        assert_eq!(<[u8; 32]>::from(Sha256::digest(&msg)), *w);
    }
    for (backend, hasher) in backends() {
        let mut got = vec![[0xffu8; 32]; count];
        hasher(data, leaf_len, &mut got);
        assert_eq!(
            got, want,
            "{backend:?}: leaf_len {leaf_len}, count {count}, offset {offset}"
        );
    }
    let mut got = vec![[0u8; 32]; count];
    sha256_multi::hash_leaves_chunked_into(data, leaf_len, &mut got);
    assert_eq!(got, want, "dispatch: leaf_len {leaf_len}, count {count}");
    if leaf_len > 0 {
        assert_eq!(sha256_multi::hash_leaves_chunked(data, leaf_len), want);
    }
}

#[test]
fn backends_match_portable_on_random_leaves() {
    let mut rng = Rng(1);
    for leaf_len in [0, 1, 15, 16, 55, 56, 63, 64, 119, 120, 1024, 4096] {
        for count in [0, 1, 15, 16, 17, 100] {
            check(&mut rng, leaf_len, count, 0);
        }
    }
}

#[test]
fn backends_match_portable_on_every_short_length() {
    // Every padding layout: the 0x80 byte and the length field in each
    // position of the last one or two blocks, and interior blocks.
    let mut rng = Rng(2);
    for leaf_len in 0..=300 {
        check(&mut rng, leaf_len, 33, leaf_len % 3);
    }
}

#[test]
fn backends_match_portable_on_field_leaf_sizes() {
    // The sizes the PCS uses: 2^k elements of 16 bytes.
    let mut rng = Rng(3);
    for k in 0..=9 {
        check(&mut rng, 16 << k, 48, 1);
    }
}

#[test]
fn backends_reproduce_rfc6962_roots() {
    let dir = match std::env::var_os("STARLING_VECTORS") {
        Some(dir) => std::path::PathBuf::from(dir),
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors"),
    };
    let path = dir.join("merkle/rfc6962_vectors.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
            assert!(
                !ci,
                "vector file {} is required under CI=true: {err}",
                path.display()
            );
            eprintln!(
                "SKIPPED: vector file {} not readable ({err}); set STARLING_VECTORS to the shared vectors folder",
                path.display()
            );
            return;
        }
    };
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let inputs: Vec<Vec<u8>> = json["leaf_inputs_hex"]
        .as_array()
        .expect("leaf inputs")
        .iter()
        .map(|v| hex::decode(v.as_str().expect("hex string")).expect("hex"))
        .collect();
    let roots: Vec<Digest> = json["root_hashes_hex_by_tree_size_1_to_8"]
        .as_array()
        .expect("roots")
        .iter()
        .map(|v| {
            hex::decode(v.as_str().expect("hex string"))
                .expect("hex")
                .try_into()
                .expect("32 bytes")
        })
        .collect();
    assert_eq!(roots.len(), inputs.len());

    // RFC 6962 tree hash: split at the largest power of two below n.
    fn mth(leaves: &[Digest]) -> Digest {
        if leaves.len() == 1 {
            return leaves[0];
        }
        let k = 1 << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
        hash_node(&mth(&leaves[..k]), &mth(&leaves[k..]))
    }

    for (backend, hasher) in backends() {
        // Each input repeated 17 times, so the SIMD kernels hash it in a full
        // group of sixteen as well as in the remainder.
        let leaves: Vec<Digest> = inputs
            .iter()
            .map(|d| {
                let data = d.repeat(17);
                let mut out = [[0u8; 32]; 17];
                hasher(&data, d.len(), &mut out);
                assert!(out.iter().all(|h| *h == out[0]), "{backend:?}");
                out[0]
            })
            .collect();
        for (n, root) in roots.iter().enumerate() {
            assert_eq!(mth(&leaves[..n + 1]), *root, "{backend:?}: tree size {}", n + 1);
        }
    }
}

#[test]
fn node_hashers_match_hash_node() {
    use starling_crypto::merkle::hash_node;
    use starling_crypto::sha256_multi::node_hasher_for;
    let mut rng = Rng(9);
    for count in [0usize, 1, 15, 16, 17, 33, 100] {
        let children: Vec<Digest> = (0..2 * count)
            .map(|_| rng.bytes(32).try_into().expect("32 bytes"))
            .collect();
        let want: Vec<Digest> = children
            .chunks_exact(2)
            .map(|p| hash_node(&p[0], &p[1]))
            .collect();
        // `hash_node` against `sha2` on `0x01 || left || right`.
        for (p, w) in children.chunks_exact(2).zip(&want).take(3) {
            let mut msg = vec![1u8];
            msg.extend_from_slice(&p[0]);
            msg.extend_from_slice(&p[1]);
            assert_eq!(<[u8; 32]>::from(Sha256::digest(&msg)), *w);
        }
        for backend in Backend::ALL {
            let Some(hasher) = node_hasher_for(backend) else {
                eprintln!("SKIPPED: backend {backend:?} is not supported by this CPU");
                continue;
            };
            let mut got = vec![[0xffu8; 32]; count];
            hasher(children.as_flattened(), &mut got);
            assert_eq!(got, want, "{backend:?}: {count} nodes");
        }
        let mut got = vec![[0u8; 32]; count];
        sha256_multi::hash_nodes_into(&children, &mut got);
        assert_eq!(got, want, "dispatch: {count} nodes");
    }
}

#[test]
fn block_compressors_match_sha2() {
    use starling_crypto::sha256_multi::block_compressor_for;
    let mut rng = Rng(11);
    for count in [0usize, 1, 2, 3, 15, 16, 17, 31, 33, 100] {
        // One-block messages of 0 to 55 bytes, padded: the compression from
        // the initial state is their digest.
        let messages: Vec<Vec<u8>> = (0..count).map(|i| rng.bytes(i % 56)).collect();
        let blocks: Vec<[u8; 64]> = messages
            .iter()
            .map(|m| {
                let mut b = [0u8; 64];
                b[..m.len()].copy_from_slice(m);
                b[m.len()] = 0x80;
                b[56..].copy_from_slice(&(m.len() as u64 * 8).to_be_bytes());
                b
            })
            .collect();
        let want: Vec<Digest> = messages.iter().map(|m| Sha256::digest(m).into()).collect();
        for backend in Backend::ALL {
            let Some(compressor) = block_compressor_for(backend) else {
                eprintln!("SKIPPED: backend {backend:?} is not supported by this CPU");
                continue;
            };
            let mut got = vec![[0xffu8; 32]; count];
            compressor(&blocks, &mut got);
            assert_eq!(got, want, "{backend:?}: {count} blocks");
        }
        let mut got = vec![[0u8; 32]; count];
        sha256_multi::compress_blocks_into(&blocks, &mut got);
        assert_eq!(got, want, "dispatch: {count} blocks");
    }
}
