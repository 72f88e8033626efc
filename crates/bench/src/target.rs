//! What a benchmark proves, from the names users type: the kind (through
//! [`starling::kind::named`], as everything else that names kinds), its
//! size, and inputs made up from [`SEED`].

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use starling::format::MAX_INSTANCES;
use starling::kind::{Chain, KindParams, Signatures, MAX_SIGNED_MESSAGE_BYTES};
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
    /// `--leaves`: a Merkle tree's N.
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
}

impl Target {
    /// The hash the report names: the one the statement's calls compute.
    pub(crate) fn hash_name(&self) -> &'static str {
        match self {
            Target::Inputs { hash, .. } => hash,
            Target::Signatures { .. } => "sha256",
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
/// `--count` and `--msg-len` (default [`SIGNED_MESSAGE_BYTES`]).
pub fn target(name: &str, params: &KindParams<'_>, sizes: &Sizes) -> Result<Target, Error> {
    let kind = starling::kind::named(name, params)?;
    let takes: &[&str] = match name {
        "digest" | "signatures" => &["--count", "--msg-len"],
        "chain" => &["--steps"],
        "merkle-root" => &["--leaves"],
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
