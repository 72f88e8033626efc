//! Native hashing on this machine, the yardstick a benchmark reports its
//! prover against: one call of the compression function (or permutation)
//! at a time, portable code and the fastest code the machine has, and for
//! signatures a native verifier of the same batch.

use starling::kind::SampleInputs;
use std::hint::black_box;
use std::time::Instant;

use starling::kind::{Batch, Signatures};
use starling::{Builtin, Records};
use starling_circuit::blake3::{compress_reference, Blake3Input};

use crate::{native_sha256, native_sha512, SEED};

/// Best-of-5 nanoseconds per call of `f` on each of `items`.
fn best_ns<T: Clone>(items: &[T], f: impl Fn(&mut T)) -> f64 {
    let rounds = (200_000 / items.len().max(1)).max(1);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..rounds {
            for item in items {
                let mut x = item.clone();
                f(&mut x);
                black_box(x);
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (rounds * items.len()) as f64;
        best = best.min(ns);
    }
    best
}

/// Native cost of one call of the compression function (or permutation),
/// in ns.
pub(crate) struct NativeCost {
    /// Plain portable code: the yardstick Flock's figures use.
    pub(crate) portable: f64,
    /// The SHA extensions (SHA-NI, ARMv8 SHA2), for SHA-256 where the CPU
    /// has them.
    pub(crate) hw: Option<f64>,
    /// The fastest code this machine has for one call at a time.
    pub(crate) best: f64,
}

/// Native cost of one call of the compression function (or permutation)
/// `which`, on random inputs. Every kind is measured by the calls it proves,
/// so the figures of batches, digests, chains and trees compare.
pub(crate) fn ns_per_call(which: Builtin) -> NativeCost {
    let sample = Batch::builtin(which).random_inputs(4096, SEED);
    let sample = sample.iter();
    match which {
        Builtin::Sha256 => {
            // A record is the cv (words big-endian) then the block.
            let items: Vec<([u32; 8], [u8; 64])> = sample
                .map(|r| {
                    let cv =
                        std::array::from_fn(|w| u32::from_be_bytes(r[4 * w..4 * w + 4].try_into().unwrap()));
                    (cv, r[32..96].try_into().unwrap())
                })
                .collect();
            let portable = best_ns(&items, |(cv, block)| native_sha256::compress(cv, block));
            // `sha2` picks the SHA extensions at run time where the CPU has
            // them, its portable code otherwise.
            let sha2 = best_ns(&items, |(cv, block)| sha2::compress256(cv, &[(*block).into()]));
            let hw = starling::cpu::has_sha_extensions().then_some(sha2);
            NativeCost {
                portable,
                hw,
                best: portable.min(sha2),
            }
        }
        Builtin::Sha512 => {
            // A record is the cv (words big-endian) then the block.
            let items: Vec<([u64; 8], [u8; 128])> = sample
                .map(|r| {
                    let cv =
                        std::array::from_fn(|w| u64::from_be_bytes(r[8 * w..8 * w + 8].try_into().unwrap()));
                    (cv, r[64..192].try_into().unwrap())
                })
                .collect();
            let portable = best_ns(&items, |(cv, block)| native_sha512::compress(cv, block));
            // `sha2` uses AVX2 for the message schedule where the CPU has
            // it (no x86-64 CPU we measure has SHA-512 instructions).
            let sha2 = best_ns(&items, |(cv, block)| sha2::compress512(cv, &[(*block).into()]));
            NativeCost {
                portable,
                hw: None,
                best: portable.min(sha2),
            }
        }
        Builtin::Blake3 => {
            // The portable baseline is the plain compression function; the
            // best is the `blake3` crate with its Rust SIMD code for one
            // block (SSE4.1 on x86-64; see Cargo.toml): one keyed hash of a
            // 64-byte message is exactly one compression (cv = key, flags
            // CHUNK_START | CHUNK_END | ROOT | KEYED_HASH).
            let items: Vec<Blake3Input> = sample
                .map(|r| {
                    let word = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap());
                    Blake3Input {
                        cv: std::array::from_fn(|i| word(&r[4 * i..4 * i + 4])),
                        block: std::array::from_fn(|i| word(&r[32 + 4 * i..36 + 4 * i])),
                        counter: u64::from(word(&r[96..100])) | u64::from(word(&r[100..104])) << 32,
                        block_len: word(&r[104..108]),
                        flags: word(&r[108..112]),
                    }
                })
                .collect();
            let portable = best_ns(&items, |input| {
                black_box(compress_reference(input));
            });
            let keyed: Vec<([u8; 32], [u8; 64])> = items
                .iter()
                .map(|x| {
                    let bytes = |w: &[u32]| w.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
                    (
                        bytes(&x.cv).try_into().unwrap(),
                        bytes(&x.block).try_into().unwrap(),
                    )
                })
                .collect();
            let simd = best_ns(&keyed, |(key, block)| {
                black_box(blake3::keyed_hash(key, block));
            });
            NativeCost {
                portable,
                hw: None,
                best: portable.min(simd),
            }
        }
        Builtin::KeccakF1600 => {
            let items: Vec<[u64; 25]> = sample
                .map(|r| std::array::from_fn(|i| u64::from_le_bytes(r[8 * i..8 * i + 8].try_into().unwrap())))
                .collect();
            // The `keccak` crate's permutation is the fastest one-at-a-time
            // code on x86-64 (there is no wider instruction for one state).
            let portable = best_ns(&items, keccak::f1600);
            NativeCost {
                portable,
                hw: None,
                best: portable,
            }
        }
    }
}

/// What a native verifier of a signature batch costs on this machine.
pub struct NativeVerification {
    /// Compression calls it makes for the whole batch.
    pub compressions: u64,
    /// Best-of-5 nanoseconds per signature.
    pub ns: f64,
}

/// Verifies every signature natively, best of five rounds.
pub(crate) fn verification(kind: &Signatures, public: &Records, private: &Records) -> NativeVerification {
    let mut compressions = 0;
    let mut best = f64::INFINITY;
    for round in 0..5 {
        let mut calls = 0;
        let start = Instant::now();
        for (p, s) in public.iter().zip(private.iter()) {
            assert!(
                black_box(kind.verify_natively(p, s, &mut calls)),
                "a sampled signature verifies"
            );
        }
        best = best.min(start.elapsed().as_nanos() as f64 / public.len() as f64);
        if round == 0 {
            compressions = calls;
        }
    }
    NativeVerification {
        compressions,
        ns: best,
    }
}
