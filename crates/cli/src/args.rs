//! The command line: every subcommand, flag and value users type.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use starling::kind::{Scheme, DEFAULT_PREIMAGE_MAX_LEN};
use starling::{Hash, Profile};

#[derive(Parser)]
#[command(
    name = "starling",
    version,
    about = "Prove and verify batches of hash computations"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Prove a statement and write the proof file.
    Prove {
        #[command(subcommand)]
        what: ProveWhat,
    },
    /// Verify a proof file. With --expect, the proof must be about exactly
    /// the kind, circuit and inputs expected; without it, any valid proof
    /// of any statement verifies.
    Verify {
        /// The proof file.
        proof: PathBuf,
        /// After OK, print the outputs (one line each, in order, in the
        /// statement kind's text format).
        #[arg(long)]
        print_outputs: bool,
        /// Print one JSON object instead: kind, count, instances, circuit,
        /// public_digest, profile, zk, security_bits, security_terms (name ->
        /// log2 of its error), expected (whether --expect was given),
        /// verdict ("accepted" or "rejected"), and outputs and verify_ms
        /// when accepted or error when rejected (exit codes unchanged; a
        /// file that cannot be read, exit 2, prints no object).
        #[arg(long)]
        json: bool,
        /// The inputs the proof must be about: an inputs file (`-` for
        /// stdin) in the format `prove` reads (for a chain, the line
        /// `START STEPS`; for a Merkle root, the leaves; for preimages, the
        /// digests; for membership, the line `ROOT N SIZE`). Needs --kind.
        #[arg(long, value_name = "FILE", requires = "kind")]
        expect: Option<String>,
        /// The statement kind the proof must be about (with --expect).
        #[arg(long, value_enum, requires = "expect")]
        kind: Option<KindArg>,
        #[command(flatten)]
        params: KindParams,
        /// Refuse proofs with less provable security than this.
        #[arg(long, value_name = "BITS", default_value_t = starling::DEFAULT_MIN_SECURITY_BITS, value_parser = finite_bits)]
        min_security: f64,
    },
    /// Describe a proof file without verifying it: statement, N, digests,
    /// utilisation, profile, zero knowledge, security, section sizes.
    Inspect {
        /// The proof file.
        proof: PathBuf,
        /// Print one JSON object instead: the keys of `verify --json`
        /// (outputs included) but verdict, expected and verify_ms, and
        /// "verified": false and file_bytes.
        #[arg(long)]
        json: bool,
    },
    /// Print the digest of a kind's instance circuit, as `verify` reports
    /// and compares it.
    Digest {
        /// The statement kind (default: circuit, with --bristol).
        #[arg(long, value_enum)]
        kind: Option<KindArg>,
        #[command(flatten)]
        params: KindParams,
    },
    /// Prove and verify inputs made up here and report speed, size and memory.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Linkable ring signatures, hash-based and zero-knowledge: a member of
    /// a ring of public keys signs without saying which (`docs/ring.md`).
    Ring {
        #[command(subcommand)]
        what: RingWhat,
    },
    /// Prove and verify 4,096 SHA-256 compressions from a fixed seed.
    Demo {
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

/// The parameters of a kind: its circuit, hash, scheme or bounds.
#[derive(Args, Default)]
pub(crate) struct KindParams {
    /// The circuit of a `circuit` statement.
    #[arg(long, value_name = "CIRCUIT")]
    pub(crate) bristol: Option<PathBuf>,
    /// The hash of a `digest`, `chain`, `merkle-root`, `preimage`,
    /// `membership` or `ring` (sha256) statement.
    #[arg(long, value_enum)]
    pub(crate) hash: Option<HashArg>,
    /// The tree of a `merkle-root` statement (plain, rfc6962, bitcoin) or a
    /// `membership` one (plain, rfc6962), or the scheme of a `signatures`
    /// statement (lms-sha256-m32-h10-w4, ...).
    #[arg(long)]
    pub(crate) scheme: Option<String>,
    #[command(flatten)]
    pub(crate) slh: SlhArgs,
    #[command(flatten)]
    pub(crate) bounds: Bounds,
}

/// The declared bounds of the kinds with private lengths.
#[derive(Args, Default)]
pub(crate) struct Bounds {
    /// `preimage`: the longest secret message, in bytes (default 64).
    #[arg(long, value_name = "N")]
    pub(crate) max_len: Option<usize>,
    /// `membership --scheme rfc6962`: the longest member leaf, in bytes
    /// (default 64).
    #[arg(long, value_name = "N")]
    pub(crate) max_leaf_len: Option<usize>,
}

/// How SLH-DSA messages are signed.
#[derive(Args, Default)]
pub(crate) struct SlhArgs {
    /// SLH-DSA's context string, in hex (pure interface; default empty).
    #[arg(long, value_name = "HEX")]
    pub(crate) ctx: Option<String>,
    /// SLH-DSA's interface: pure (M' = 0 || |ctx| || ctx || M) or internal
    /// (M' = M, as NIST's ACVP vectors use).
    #[arg(long, value_enum)]
    pub(crate) interface: Option<InterfaceArg>,
}

/// SLH-DSA's interface.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum InterfaceArg {
    Pure,
    Internal,
}

#[derive(Subcommand)]
pub(crate) enum ProveWhat {
    /// N SHA-256 compressions: output = cv + F(cv, block). Input lines:
    /// `CV BLOCK`, 64 and 128 hex digits (big-endian words).
    Sha256(ProveArgs),
    /// N SHA-512 compressions: output = cv + F(cv, block). Input lines:
    /// `CV BLOCK`, 128 and 256 hex digits (big-endian words).
    Sha512(ProveArgs),
    /// N BLAKE3 compressions, the full 16-word output. Input lines:
    /// `CV BLOCK COUNTER BLOCK_LEN FLAGS`, 64 and 128 hex digits
    /// (little-endian words), then three decimals.
    Blake3(ProveArgs),
    /// N Keccak-f[1600] permutations. Input lines: 400 hex digits, the 200
    /// state bytes (lane x+5y at bytes 8(x+5y).., little-endian lanes).
    #[command(name = "keccak-f1600")]
    KeccakF1600(ProveArgs),
    /// N evaluations of a Bristol Fashion circuit. Input lines: the
    /// circuit's input values in order, each the big-endian hex of the
    /// integer whose bit b is the value's wire b, exactly ceil(bits/4) digits.
    Circuit {
        /// The circuit, in Bristol Fashion (gates XOR, AND, INV/NOT, EQ, EQW, MAND).
        #[arg(long, value_name = "CIRCUIT")]
        bristol: PathBuf,
        #[command(flatten)]
        args: ProveArgs,
    },
    /// The digests of N messages (padding and every block proved). Message
    /// lines: hex, `-` for the empty message; up to 1 MiB each (1 KiB for blake3).
    Digest {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// The messages file (`-` for stdin), one message per line.
        #[arg(long, value_name = "FILE")]
        messages: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// h(N) of the chain h(0) = START, h(i+1) = H(h(i)); every link private.
    Chain {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// h(0): 64 hex digits (128 for sha512), a digest's size.
        #[arg(long, value_name = "HEX")]
        start: String,
        /// N.
        #[arg(long, value_name = "N")]
        steps: u64,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The root of a Merkle tree over public leaves; inner nodes private.
    /// Leaf lines: hex (a digest's size for plain and bitcoin, 32 bytes or
    /// 64 for sha512; any length, `-` for empty, for rfc6962).
    #[command(name = "merkle-root")]
    MerkleRoot {
        /// The hash (rfc6962 and bitcoin: sha256).
        #[arg(long, value_enum)]
        hash: HashArg,
        /// How the tree is built.
        #[arg(long, value_enum)]
        scheme: SchemeArg,
        /// The leaves file (`-` for stdin), one leaf per line.
        #[arg(long, value_name = "FILE")]
        leaves: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// N hash-based signatures that verify, the signatures private. Lines:
    /// `PK MSG SIG` in hex (`-` for an empty message). Public: the scheme,
    /// each public key and message, and each message representative Q.
    Signatures {
        /// The scheme: lms-{sha256,shake}-m{32,24}-h{5,10,15,20,25}-w{1,2,4,8},
        /// hss-l{1..8}-<that LMS set>,
        /// slh-dsa-{sha2,shake}-{128,192,256}{s,f}.
        #[arg(long)]
        scheme: String,
        #[command(flatten)]
        slh: SlhArgs,
        /// The signatures file (`-` for stdin), one signature per line.
        #[arg(long, value_name = "FILE")]
        batch: String,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// N digests, each the hash of a secret message of at most --max-len
    /// bytes. Public: the digests; secret: the messages and their lengths.
    /// Always zero-knowledge. Lines: a message in hex (`-` for empty).
    Preimage {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// The secrets file (`-` for stdin), one message per line.
        #[arg(long, value_name = "FILE")]
        secrets: String,
        /// The longest message, in bytes.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_PREIMAGE_MAX_LEN)]
        max_len: usize,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// N members of the Merkle tree whose root is public. Public: the
    /// root, N and the tree's size; secret: the leaves, their indices and
    /// paths. Always zero-knowledge. Member lines: `LEAF INDEX` (the leaf
    /// in hex, `-` for an empty rfc6962 leaf; the index in decimal) with
    /// `--tree`; `LEAF INDEX SIBLING...` (the audit path from the bottom
    /// up, in hex) with `--size`.
    Membership {
        /// The hash (rfc6962: sha256; plain: sha256 or keccak-256).
        #[arg(long, value_enum)]
        hash: HashArg,
        /// How the tree is built.
        #[arg(long, value_enum)]
        scheme: MemberSchemeArg,
        /// The tree's root, in hex: the proof shows the members are its
        /// leaves, and fails to prove if the tree's root is another.
        #[arg(long, value_name = "HEX")]
        root: String,
        /// The members file (`-` for stdin), one member per line.
        #[arg(long, value_name = "FILE")]
        members: String,
        /// The tree's leaves, one per line as `prove merkle-root` reads
        /// them: the members' paths are computed from it.
        #[arg(
            long,
            value_name = "FILE",
            required_unless_present = "size",
            conflicts_with = "size"
        )]
        tree: Option<String>,
        /// The tree's number of leaves, for members given with their
        /// paths (no `--tree`).
        #[arg(long, value_name = "N")]
        size: Option<u64>,
        /// rfc6962: the longest member leaf, in bytes (default 64).
        #[arg(long, value_name = "N")]
        max_leaf_len: Option<usize>,
        #[command(flatten)]
        output: OutputArgs,
    },
}

#[derive(Subcommand)]
pub(crate) enum RingWhat {
    /// Make a secret key: 32 random bytes from the operating system,
    /// written as 64 hex digits and a newline to a new file (mode 0600,
    /// never over an existing one); prints the public key
    /// pk = SHA-256("starling/ring/pk" || sk) in hex.
    Keygen {
        /// The hash (sha256, the only one ring signatures use).
        #[arg(long, value_enum, default_value = "sha256")]
        hash: HashArg,
        /// Where to write the secret key.
        #[arg(long, value_name = "SK")]
        out: PathBuf,
    },
    /// Sign a message as a member of a ring, without saying which: a
    /// zero-knowledge proof that the signer holds the secret key of one of
    /// the ring's public keys, bound to the context and the message, with
    /// the key image K = SHA-256("starling/ring/tag" || sk || context).
    Sign {
        /// The hash (sha256, the only one ring signatures use).
        #[arg(long, value_enum, default_value = "sha256")]
        hash: HashArg,
        /// The ring's public keys, one per line in hex, in the ring's order.
        #[arg(long, value_name = "PKS")]
        ring: PathBuf,
        /// The signer's secret key file (`ring keygen` writes one).
        #[arg(long, value_name = "SK")]
        secret: PathBuf,
        /// The context, in hex (at most 64 bytes; empty: `-`): two
        /// signatures with the same key image in one context are one
        /// member's.
        #[arg(long, value_name = "HEX")]
        context: String,
        /// The message file, signed as its bytes.
        #[arg(long, value_name = "FILE")]
        message: PathBuf,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Verify a ring signature on a message in a context by a member of the
    /// ring (its public keys, or its root); prints the key image K in hex.
    Verify {
        /// The signature file.
        signature: PathBuf,
        /// The ring's public keys, one per line in hex: the root is
        /// computed from them.
        #[arg(
            long,
            value_name = "PKS",
            required_unless_present = "root",
            conflicts_with = "root"
        )]
        ring: Option<PathBuf>,
        /// The ring's root, in hex (the ring's size is the signature's).
        #[arg(long, value_name = "HEX")]
        root: Option<String>,
        /// The context, in hex (empty: `-`).
        #[arg(long, value_name = "HEX")]
        context: String,
        /// The message file.
        #[arg(long, value_name = "FILE")]
        message: PathBuf,
    },
}

#[derive(Subcommand)]
pub(crate) enum BenchWhat {
    /// SHA-256 compressions.
    Sha256(BenchArgs),
    /// SHA-512 compressions.
    Sha512(BenchArgs),
    /// BLAKE3 compressions.
    Blake3(BenchArgs),
    /// Keccak-f[1600] permutations.
    #[command(name = "keccak-f1600")]
    KeccakF1600(BenchArgs),
    /// Digests of N messages of one length.
    Digest {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// Bytes of each message.
        #[arg(long, value_name = "BYTES")]
        msg_len: usize,
        /// Number of messages N.
        #[arg(long)]
        count: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// A hash chain of N steps.
    Chain {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// N.
        #[arg(long)]
        steps: u64,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// A Merkle root over N random leaves (a digest's size; rfc6962: 32 bytes).
    #[command(name = "merkle-root")]
    MerkleRoot {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// How the tree is built.
        #[arg(long, value_enum)]
        scheme: SchemeArg,
        /// Number of leaves N.
        #[arg(long)]
        leaves: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// N preimages: random secret messages of random lengths up to --max-len.
    Preimage {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// The longest message, in bytes (default 64).
        #[arg(long, value_name = "N")]
        max_len: Option<usize>,
        /// Number of messages N.
        #[arg(long)]
        count: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// N members at random indices of a random tree of --leaves leaves.
    Membership {
        /// The hash.
        #[arg(long, value_enum)]
        hash: HashArg,
        /// How the tree is built.
        #[arg(long, value_enum)]
        scheme: MemberSchemeArg,
        /// Leaves of the tree (plain: a power of two).
        #[arg(long)]
        leaves: usize,
        /// Number of members N.
        #[arg(long)]
        count: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// One ring signature in a ring of --leaves random public keys.
    Ring {
        /// Public keys in the ring.
        #[arg(long)]
        leaves: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
    /// N signatures on random messages under fresh keys.
    Signatures {
        /// The scheme: lms-{sha256,shake}-m{32,24}-h{5,10,15,20,25}-w{1,2,4,8},
        /// hss-l{1..8}-<that LMS set>,
        /// slh-dsa-{sha2,shake}-{128,192,256}{s,f}.
        #[arg(long)]
        scheme: String,
        #[command(flatten)]
        slh: SlhArgs,
        /// Number of signatures N.
        #[arg(long)]
        count: usize,
        /// Bytes of each message.
        #[arg(long, value_name = "BYTES", default_value_t = 32)]
        msg_len: usize,
        #[command(flatten)]
        common: BenchCommon,
    },
}

#[derive(Args)]
pub(crate) struct ProveArgs {
    /// Inputs file (`-` for stdin): one instance per line (see above).
    #[arg(long, conflicts_with = "random", required_unless_present = "random")]
    pub(crate) inputs: Option<String>,
    /// Generate N random inputs instead of reading a file.
    #[arg(long, value_name = "N", requires = "seed")]
    pub(crate) random: Option<usize>,
    /// Seed for --random.
    #[arg(long, value_name = "S")]
    pub(crate) seed: Option<u64>,
    #[command(flatten)]
    pub(crate) output: OutputArgs,
}

/// Where a proof goes and how it is made.
#[derive(Args)]
pub(crate) struct OutputArgs {
    /// Where to write the proof.
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Security profile.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    pub(crate) profile: ProfileArg,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Print nothing on success (errors still go to stderr).
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Prove with zero knowledge: the proof shows nothing of the private
    /// values beyond the statement (its randomness from the operating
    /// system). Always on for preimage, membership and ring signatures.
    #[arg(long)]
    pub(crate) zk: bool,
}

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Number of instances N.
    #[arg(long)]
    pub(crate) count: usize,
    #[command(flatten)]
    pub(crate) common: BenchCommon,
}

/// What every benchmark takes.
#[derive(Args)]
pub(crate) struct BenchCommon {
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Proofs timed after the first (which also faults in the memory); the
    /// median is reported. 0 reports the first proof alone.
    #[arg(long, default_value_t = 3)]
    pub(crate) runs: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Security profile.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    pub(crate) profile: ProfileArg,
    /// Prove with zero knowledge (always on for preimage, membership and
    /// ring).
    #[arg(long)]
    pub(crate) zk: bool,
}

/// A statement kind, as `--kind` names it.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum KindArg {
    Sha256,
    Sha512,
    Blake3,
    #[value(name = "keccak-f1600")]
    KeccakF1600,
    Circuit,
    Digest,
    Chain,
    #[value(name = "merkle-root")]
    MerkleRoot,
    Signatures,
    Preimage,
    Membership,
    Ring,
}

/// A hash of the linked kinds.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum HashArg {
    Sha256,
    Sha512,
    #[value(name = "sha3-256")]
    Sha3_256,
    #[value(name = "keccak-256")]
    Keccak256,
    Blake3,
}

impl From<HashArg> for Hash {
    fn from(h: HashArg) -> Hash {
        match h {
            HashArg::Sha256 => Hash::Sha256,
            HashArg::Sha512 => Hash::Sha512,
            HashArg::Sha3_256 => Hash::Sha3_256,
            HashArg::Keccak256 => Hash::Keccak256,
            HashArg::Blake3 => Hash::Blake3,
        }
    }
}

/// A Merkle tree's scheme.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum SchemeArg {
    Plain,
    Rfc6962,
    Bitcoin,
}

/// The tree of a membership statement.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum MemberSchemeArg {
    Plain,
    Rfc6962,
}

impl From<SchemeArg> for Scheme {
    fn from(s: SchemeArg) -> Scheme {
        match s {
            SchemeArg::Plain => Scheme::Plain,
            SchemeArg::Rfc6962 => Scheme::Rfc6962,
            SchemeArg::Bitcoin => Scheme::Bitcoin,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ProfileArg {
    Default,
    Secure,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Default => Profile::Default,
            ProfileArg::Secure => Profile::Secure,
        }
    }
}

/// A number of bits that is a number: `NaN` compares false with every
/// security figure and would turn the floor off.
fn finite_bits(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(bits) if bits.is_finite() => Ok(bits),
        Ok(_) => Err("a finite number of bits".into()),
        Err(e) => Err(e.to_string()),
    }
}
