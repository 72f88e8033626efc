//! One shared harness over every many-message hashing backend this CPU can
//! use: each must give the digests of `blake3::keyed_hash` on random keys
//! and messages of every length up to two chunks, in counts that leave
//! groups of lanes ragged, at unaligned offsets; and fed a part at a time
//! ([`PartialHashes`]), in every split into whole blocks, also with parts
//! made block by block.

use starling_crypto::blake3_multi::{self, Backend, Key, PartialHashes, GROUP_MESSAGES};
use starling_crypto::Digest;
use starling_field::Gf128;

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

fn backends() -> Vec<Backend> {
    for b in Backend::ALL {
        if !b.runs_here() {
            eprintln!("SKIPPED: backend {b:?} is not supported by this CPU");
        }
    }
    Backend::ALL.into_iter().filter(|b| b.runs_here()).collect()
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
    for backend in backends() {
        let mut got = vec![[0u8; 32]; count];
        backend.keyed_hash_many(&key, data, len, &mut got);
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

/// Every backend fed `count` messages of `len` bytes in parts of `parts`
/// bytes (the last part what is left), against `blake3`.
fn check_parts(rng: &mut Rng, len: usize, count: usize, parts: &[usize]) {
    let key = rng.key();
    let data = rng.bytes(len * count);
    let want: Vec<Digest> = (0..count)
        .map(|i| *blake3::keyed_hash(&key, &data[i * len..(i + 1) * len]).as_bytes())
        .collect();
    for backend in backends() {
        let mut hashes = PartialHashes::with_backend(backend, &key, count, len);
        let mut at = 0;
        for &part in parts
            .iter()
            .chain(std::iter::once(&(len - parts.iter().sum::<usize>())))
        {
            // The parts of every message side by side, as the commitment feeds them.
            let fed: Vec<u8> = (0..count)
                .flat_map(|i| data[i * len + at..][..part].to_vec())
                .collect();
            hashes.update(&fed, part);
            at += part;
        }
        assert_eq!(
            hashes.finish(),
            want,
            "{backend:?}, {count} messages of {len} bytes in parts {parts:?}"
        );
    }
}

#[test]
fn parts_give_the_whole_messages_digests() {
    let mut rng = Rng(3);
    // Columns of 4-row parts (64 bytes) with every final part size, whole
    // messages, a chunk, and empty messages; counts with ragged groups.
    for count in [1, 15, 16, 17, 33, 64] {
        for len in [0, 1, 63, 64, 65, 128, 640, 648, 700, 1024] {
            check_parts(&mut rng, len, count, &[]);
            let blocks: Vec<usize> = vec![64; len.saturating_sub(1) / 64];
            check_parts(&mut rng, len, count, &blocks);
            if len > 256 {
                check_parts(&mut rng, len, count, &[128, 64]);
            }
        }
    }
    // Enough messages that their chaining values are laid out on several
    // of rayon's jobs (a ragged last group).
    check_parts(&mut rng, 640, 4097, &[64]);
}

/// Parts of field elements made block by block
/// (`update_fields_blockwise`): each block is written by `finish` from its
/// index into a buffer holding other values, and the digests are those of
/// the whole messages. Blocks of one group, of two, and of all messages (a
/// ragged count), between plain parts, on one thread and on three.
#[test]
fn blockwise_parts_give_the_whole_messages_digests() {
    let mut rng = Rng(7);
    for (count, block) in [(64, GROUP_MESSAGES), (64, 2 * GROUP_MESSAGES), (17, 17), (48, 48)] {
        // Twelve elements a message: a plain part of four, a blockwise part
        // of four, and a last blockwise part of four.
        let elems = 12;
        let msgs: Vec<Vec<Gf128>> = (0..count)
            .map(|_| {
                (0..elems)
                    .map(|_| Gf128::new(u128::from(rng.next()) << 64 | u128::from(rng.next())))
                    .collect()
            })
            .collect();
        let key = rng.key();
        let want: Vec<Digest> = msgs
            .iter()
            .map(|m| {
                *blake3::keyed_hash(&key, &m.iter().flat_map(|v| v.to_bytes()).collect::<Vec<u8>>())
                    .as_bytes()
            })
            .collect();
        for backend in backends() {
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let got = pool.install(|| {
                    let mut hashes = PartialHashes::with_backend(backend, &key, count, 16 * elems);
                    let plain: Vec<u8> = msgs
                        .iter()
                        .flat_map(|m| m[..4].iter().flat_map(|v| v.to_bytes()))
                        .collect();
                    hashes.update(&plain, 64);
                    for at in [4, 8] {
                        let mut buf = vec![Gf128::new(7); 4 * count];
                        hashes.update_fields_blockwise(&mut buf, block, |index, out| {
                            for (k, col) in out.chunks_exact_mut(4).enumerate() {
                                col.copy_from_slice(&msgs[index * block + k][at..at + 4]);
                            }
                        });
                    }
                    hashes.finish()
                });
                assert_eq!(
                    got, want,
                    "{backend:?}, {count} messages in blocks of {block}, {threads} threads"
                );
            }
        }
    }
}

#[test]
#[should_panic(expected = "are not whole groups")]
fn blocks_that_split_a_group_are_refused() {
    let mut hashes = PartialHashes::new(&[0; 32], 32, 64);
    hashes.update_fields_blockwise(&mut [Gf128::ZERO; 128], GROUP_MESSAGES / 2, |_, _| {});
}

#[test]
#[should_panic(expected = "whole blocks until the last")]
fn a_part_that_is_not_whole_blocks_is_refused() {
    let mut hashes = PartialHashes::new(&[0; 32], 2, 100);
    hashes.update(&[0u8; 80], 40);
}

#[test]
#[should_panic(expected = "last part is not in yet")]
fn unfinished_messages_have_no_digests() {
    let mut hashes = PartialHashes::new(&[0; 32], 2, 128);
    hashes.update(&[0u8; 128], 64);
    hashes.finish();
}

/// `finish_reduced` hands each block's digests, in order, with its part of
/// the output: here each block's digests XORed into one, and each block's
/// first two bytes of its first digest, for blocks of one group, of two
/// and of all the messages.
#[test]
fn reduced_digests_are_the_digests_block_by_block() {
    let mut rng = Rng(11);
    let (count, len) = (64, 640);
    let key = rng.key();
    let data = rng.bytes(len * count);
    for backend in backends() {
        let fed = || {
            let mut hashes = PartialHashes::with_backend(backend, &key, count, len);
            hashes.update(&data, len);
            hashes
        };
        let want = fed().finish();
        for block in [GROUP_MESSAGES, 2 * GROUP_MESSAGES, count] {
            let mut xors = vec![[0u8; 32]; count / block];
            fed().finish_reduced(block, &mut xors, |digests, out| {
                assert_eq!((digests.len(), out.len()), (block, 1));
                for d in digests {
                    out[0].iter_mut().zip(d).for_each(|(x, y)| *x ^= y);
                }
            });
            let mut firsts = vec![0u8; 2 * count / block];
            fed().finish_reduced(block, &mut firsts, |digests, out| {
                out.copy_from_slice(&digests[0][..2])
            });
            for (b, chunk) in want.chunks(block).enumerate() {
                let mut xor = [0u8; 32];
                for d in chunk {
                    xor.iter_mut().zip(d).for_each(|(x, y)| *x ^= y);
                }
                assert_eq!(xors[b], xor, "{backend:?}, blocks of {block}");
                assert_eq!(
                    firsts[2 * b..2 * b + 2],
                    chunk[0][..2],
                    "{backend:?}, blocks of {block}"
                );
            }
        }
    }
}
