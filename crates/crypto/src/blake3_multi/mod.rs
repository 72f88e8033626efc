//! Many keyed BLAKE3 hashes of equal-length messages at once: Merkle leaves
//! and inner nodes ([`crate::merkle`]) and proof-of-work attempts
//! ([`crate::pow`]).
//!
//! [`keyed_hash_many`] hashes every consecutive `len`-byte message of a
//! buffer under one key, with the digests of `blake3::keyed_hash`. A message
//! of at most [`MAX_LANE_LEN`] bytes is one BLAKE3 chunk, a chain of at most
//! sixteen compressions, so messages of one length run in lockstep, one per
//! 32-bit lane of a vector register: sixteen with AVX-512, eight with AVX2,
//! four with NEON. `lanes` holds the compression written once over a lane
//! type; each instruction set supplies the type (`x86_64/avx512.rs`,
//! `x86_64/avx2.rs`, `aarch64/neon.rs`). The `blake3` crate, one message at
//! a time, is the definition (`portable`), the backend of the portable tier
//! and of longer messages; `tests/blake3_multi.rs` checks every backend this
//! CPU runs against it.
//!
//! Why BLAKE3 and not SHA-256 for the commitments: seven rounds of adds,
//! xors and rotations per 64-byte block against SHA-256's 64 rounds and
//! message schedule. Zen 4, one thread, 2^18 leaves of 640 bytes (Keccak-f's
//! level-0 columns at 2^14 permutations, `leaf_hash_timing`): SHA-256
//! sixteen lanes at a time with AVX-512 took 58-68 ms, this 34-45 ms with
//! AVX-512 and 48-57 with AVX2 (the `blake3` crate one leaf at a time: 175).

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod aarch64;
mod lanes;
mod portable;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86_64;

use starling_field::cpu::{self, Tier};

use crate::Digest;

/// A BLAKE3 key.
pub type Key = [u8; 32];

/// Longest message the SIMD backends take: one BLAKE3 chunk. Longer
/// messages go to the `blake3` crate one at a time.
pub const MAX_LANE_LEN: usize = 1024;

/// Which implementation of many-message hashing is in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The `blake3` crate, one message at a time, any CPU.
    Portable,
    /// x86_64 AVX2, eight messages per pass.
    Avx2,
    /// x86_64 AVX-512F, sixteen messages per pass.
    Avx512,
    /// aarch64 NEON, four messages per pass.
    Neon,
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 4] = [Backend::Portable, Backend::Avx2, Backend::Avx512, Backend::Neon];

    /// The backend `tier` uses.
    pub fn for_tier(tier: Tier) -> Backend {
        match tier {
            Tier::Portable => Backend::Portable,
            Tier::Avx2 => Backend::Avx2,
            Tier::Avx512 => Backend::Avx512,
            Tier::Neon => Backend::Neon,
        }
    }
}

/// `(key, data, len, out)`: `out[i]` is the keyed hash of
/// `data[i * len..(i + 1) * len]`; panics unless `data.len() == out.len() *
/// len`.
pub type Hasher = fn(&Key, &[u8], usize, &mut [Digest]);

/// The hasher of `backend`, or `None` when this CPU lacks its instructions.
/// Ignores the process's tier (tests use it to reach every backend).
pub fn hasher_for(backend: Backend) -> Option<Hasher> {
    match backend {
        Backend::Portable => Some(portable::keyed_hash_many),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if Tier::Avx2.runs_here() => Some(x86_64::keyed_hash_many_avx2),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if Tier::Avx512.runs_here() => Some(x86_64::keyed_hash_many_avx512),
        #[cfg(target_arch = "aarch64")]
        Backend::Neon if Tier::Neon.runs_here() => Some(aarch64::keyed_hash_many_neon),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The backend of the process's tier.
pub fn backend() -> Backend {
    Backend::for_tier(cpu::tier())
}

/// `out[i] = blake3::keyed_hash(key, data[i * len..(i + 1) * len])`, many
/// at a time where the CPU allows. Panics unless `data.len() == out.len() *
/// len`.
pub fn keyed_hash_many(key: &Key, data: &[u8], len: usize, out: &mut [Digest]) {
    assert_eq!(
        Some(data.len()),
        out.len().checked_mul(len),
        "data must hold exactly one message per output digest"
    );
    let hasher = hasher_for(backend()).unwrap_or(portable::keyed_hash_many);
    hasher(key, data, len, out);
}
