//! What a benchmark proves, from the names users type: the kind (through
//! [`starling::kind::named`], as everything else that names kinds), its
//! size, and inputs made up from [`SEED`]: public ones, and for the kinds
//! with secrets (preimages, members, a ring signature) private ones.

use std::any::Any;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use starling::format::MAX_INSTANCES;
use starling::kind::{
    Chain, KindParams, Membership, Preimage, SampleMembers, SamplePreimages, Scheme, Signatures,
    MAX_SIGNED_MESSAGE_BYTES,
};
use starling::{Error, Hash, Kind, Records};

use crate::SEED;

/// Bytes of each signed message when the benchmark is not told.
pub const SIGNED_MESSAGE_BYTES: usize = 32;

/// A benchmark's size, by the command line's flags; `None` where not given.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sizes {
    /// `--count`: instances of a batch, messages, signatures.
    pub count: Option<usize>,
    /// `--msg-len`: bytes of each message (digests, signatures).
    pub msg_len: Option<usize>,
    /// `--steps`: a chain's N.
    pub steps: Option<u64>,
    /// `--leaves`: a Merkle tree's N, a membership statement's tree, a
    /// ring's public keys.
    pub leaves: Option<usize>,
}

/// A statement to benchmark, with its inputs.
pub enum Target {
    /// A kind and its public inputs (batches, digests, chains, Merkle
    /// roots), and the hash its report names.
    Inputs {
        kind: Arc<dyn Kind>,
        inputs: Records,
        hash: &'static str,
    },
    /// `count` signatures on random messages of `msg_len` bytes under fresh
    /// keys, made when the benchmark runs (with their native verification).
    Signatures {
        kind: Signatures,
        count: usize,
        msg_len: usize,
    },
    /// A kind with secrets, its public and private records, and the hash
    /// its calls compute.
    Secrets {
        kind: Arc<dyn Kind>,
        inputs: Records,
        private: Records,
        hash: Hash,
    },
}

impl Target {
    /// The hash the report names: the one the statement's calls compute.
    pub(crate) fn hash_name(&self) -> &'static str {
        match self {
            Target::Inputs { hash, .. } => hash,
            Target::Signatures { .. } => "sha256",
            Target::Secrets { hash, .. } => hash.name(),
        }
    }
}

/// Checks a batch size given by `flag` before anything is allocated for it.
pub fn check_count(flag: &str, n: usize) -> Result<(), Error> {
    if n == 0 || n as u64 > MAX_INSTANCES {
        return Err(Error::Input(format!(
            "{flag} must be between 1 and {MAX_INSTANCES}"
        )));
    }
    Ok(())
}

/// The benchmark of kind `name` with `params` at `sizes`: batches of a
/// built-in compression function take `--count`; digests `--count` and
/// `--msg-len`; chains `--steps`; Merkle roots `--leaves`; signatures
/// `--count` and `--msg-len` (default [`SIGNED_MESSAGE_BYTES`]); preimages
/// `--count` (their `--max-len` is the kind's); membership `--count`
/// members of a tree of `--leaves`; a ring signature a ring of `--leaves`.
pub fn target(name: &str, params: &KindParams<'_>, sizes: &Sizes) -> Result<Target, Error> {
    let kind = starling::kind::named(name, params)?;
    let takes: &[&str] = match name {
        "digest" | "signatures" => &["--count", "--msg-len"],
        "chain" => &["--steps"],
        "merkle-root" | "ring" => &["--leaves"],
        "membership" => &["--count", "--leaves"],
        _ => &["--count"],
    };
    for (flag, given) in [
        ("--count", sizes.count.is_some()),
        ("--msg-len", sizes.msg_len.is_some()),
        ("--steps", sizes.steps.is_some()),
        ("--leaves", sizes.leaves.is_some()),
    ] {
        if given && !takes.contains(&flag) {
            return Err(Error::Input(format!(
                "{flag} is not a parameter of {name} benchmarks"
            )));
        }
    }
    let needs = |flag: &str, size: Option<usize>| {
        size.ok_or_else(|| Error::Input(format!("{name} benchmarks need {flag}")))
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(SEED);
    let mut random_bytes = |n: usize, size: usize| -> Vec<Vec<u8>> {
        (0..n).map(|_| (0..size).map(|_| rng.gen()).collect()).collect()
    };
    let hash = || {
        params
            .hash
            .and_then(Hash::from_name)
            .ok_or_else(|| Error::Internal("a kind with a hash was made without one".into()))
    };
    let (inputs, hash): (Records, &'static str) = match name {
        "signatures" => {
            let count = needs("--count", sizes.count)?;
            check_count("--count", count)?;
            let msg_len = sizes.msg_len.unwrap_or(SIGNED_MESSAGE_BYTES);
            if msg_len > MAX_SIGNED_MESSAGE_BYTES {
                return Err(Error::Input(format!(
                    "--msg-len: signed messages are at most {MAX_SIGNED_MESSAGE_BYTES} bytes"
                )));
            }
            // The concrete kind, for its random batches and native verifier.
            let kind = starling::kind::named_signatures(
                params.scheme.unwrap_or_default(),
                params.ctx,
                params.interface,
            )?;
            return Ok(Target::Signatures { kind, count, msg_len });
        }
        "digest" => {
            let hash = hash()?;
            let count = needs("--count", sizes.count)?;
            check_count("--count", count)?;
            let msg_len = needs("--msg-len", sizes.msg_len)?;
            if msg_len > hash.max_message() {
                return Err(Error::Input(format!(
                    "--msg-len: {} messages are at most {} bytes",
                    hash.name(),
                    hash.max_message()
                )));
            }
            let messages = random_bytes(count, msg_len);
            (messages.iter().map(Vec::as_slice).collect(), hash.name())
        }
        "chain" => {
            let hash = hash()?;
            let steps = sizes
                .steps
                .ok_or_else(|| Error::Input("chain benchmarks need --steps".into()))?;
            check_count("--steps", steps as usize)?;
            let start = vec![0x42u8; hash.digest_bytes()];
            let record = Chain::record(&start, steps);
            ([record.as_slice()].into_iter().collect(), hash.name())
        }
        "merkle-root" => {
            let hash = hash()?;
            let leaves = needs("--leaves", sizes.leaves)?;
            check_count("--leaves", leaves)?;
            // Plain and bitcoin leaves are a digest's size; rfc6962 takes 32 bytes.
            let leaves = random_bytes(leaves, kind.input_size().unwrap_or(32));
            (leaves.iter().map(Vec::as_slice).collect(), hash.name())
        }
        "preimage" => {
            let count = needs("--count", sizes.count)?;
            check_count("--count", count)?;
            let (inputs, private) = concrete::<Preimage>(&kind)?.random_batch(count, SEED);
            return Ok(secrets(kind, inputs, private, hash()?));
        }
        "membership" => {
            let (count, leaves) = (needs("--count", sizes.count)?, needs("--leaves", sizes.leaves)?);
            check_count("--count", count)?;
            check_count("--leaves", leaves)?;
            let membership = concrete::<Membership>(&kind)?;
            if membership.scheme() == Scheme::Plain && !leaves.is_power_of_two() {
                return Err(Error::Input(format!(
                    "--leaves: a plain Merkle tree needs a power of two of leaves, not {leaves}"
                )));
            }
            let (inputs, private, _) = membership.random_batch(leaves, count, SEED);
            return Ok(secrets(kind, inputs, private, hash()?));
        }
        "ring" => {
            let leaves = needs("--leaves", sizes.leaves)?;
            check_count("--leaves", leaves)?;
            let keys: Vec<_> = (0..leaves)
                .map(|_| starling::ring::keygen_from(rng.gen()))
                .collect();
            let pks: Vec<[u8; 32]> = keys.iter().map(|k| k.1).collect();
            let signer = &keys[rng.gen_range(0..leaves)].0;
            let (inputs, private) =
                starling::ring::statement(&pks, signer, b"bench", b"a benchmark's message")?;
            return Ok(secrets(kind, inputs, private, Hash::Sha256));
        }
        _ => {
            let which = kind
                .circuit()
                .builtin_kind()
                .ok_or_else(|| Error::Input(format!("{name} statements have no benchmark")))?;
            let count = needs("--count", sizes.count)?;
            check_count("--count", count)?;
            (crate::batch_inputs(which, count), which.name())
        }
    };
    Ok(Target::Inputs { kind, inputs, hash })
}

/// The benchmark of a kind with secrets.
fn secrets(kind: Arc<dyn Kind>, inputs: Records, private: Records, hash: Hash) -> Target {
    Target::Secrets {
        kind,
        inputs,
        private,
        hash,
    }
}

/// The kind [`starling::kind::named`] made, as its type (for its samples).
fn concrete<T: Kind>(kind: &Arc<dyn Kind>) -> Result<&T, Error> {
    let any: &dyn Any = kind.as_ref();
    any.downcast_ref::<T>()
        .ok_or_else(|| Error::Internal(format!("{} is not of the type its name makes", kind.name())))
}
