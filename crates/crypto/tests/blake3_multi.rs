//! One shared harness over every many-message hashing backend this CPU can
//! use: each must give the digests of `blake3::keyed_hash` on random keys
//! and messages of every length up to two chunks, in counts that leave
//! groups of lanes ragged, at unaligned offsets.

use starling_crypto::blake3_multi::{self, hasher_for, Backend, Hasher, Key};
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

    fn key(&mut self) -> Key {
        self.bytes(32).try_into().expect("32 bytes")
    }
}

fn backends() -> Vec<(Backend, Hasher)> {
    for b in Backend::ALL {
        if hasher_for(b).is_none() {
            eprintln!("SKIPPED: backend {b:?} is not supported by this CPU");
        }
    }
    Backend::ALL
        .into_iter()
        .filter_map(|b| hasher_for(b).map(|h| (b, h)))
        .collect()
}

/// Every backend and the dispatching entry point against `blake3` on
/// `count` messages of `len` bytes, the buffer shifted by `offset`.
fn check(rng: &mut Rng, len: usize, count: usize, offset: usize) {
    let key = rng.key();
    let buf = rng.bytes(offset + len * count);
    let data = &buf[offset..];
    let want: Vec<Digest> = (0..count)
        .map(|i| *blake3::keyed_hash(&key, &data[i * len..(i + 1) * len]).as_bytes())
        .collect();
    for (backend, hasher) in backends() {
        let mut got = vec![[0u8; 32]; count];
        hasher(&key, data, len, &mut got);
        assert_eq!(
            got, want,
            "{backend:?}, {count} messages of {len} bytes at offset {offset}"
        );
    }
    let mut got = vec![[0u8; 32]; count];
    blake3_multi::keyed_hash_many(&key, data, len, &mut got);
    assert_eq!(got, want, "dispatch, {count} messages of {len} bytes");
}

#[test]
fn every_length_up_to_two_chunks() {
    let mut rng = Rng(1);
    for len in 0..=2 * blake3_multi::MAX_LANE_LEN + 1 {
        // One group of sixteen lanes and a ragged rest for every backend.
        let count = if len % 7 == 0 { 35 } else { 17 };
        check(&mut rng, len, count, len % 5);
    }
}

#[test]
fn the_lengths_starling_hashes() {
    // Merkle nodes (64), proof-of-work attempts (40), level-0 columns of
    // 40, 47 and 50 rows and whole chunks, in counts of every remainder.
    let mut rng = Rng(2);
    for len in [40, 64, 640, 752, 800, 1024] {
        for count in 0..40 {
            check(&mut rng, len, count, 0);
        }
    }
}

#[test]
#[should_panic(expected = "one message per output digest")]
fn a_buffer_of_the_wrong_length_is_refused() {
    let mut out = [[0u8; 32]; 2];
    blake3_multi::keyed_hash_many(&[0; 32], &[0u8; 63], 32, &mut out);
}
