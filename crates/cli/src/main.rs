//! The `starling` command.
//!
//! Exit codes: 0 success (the proof verified), 1 the proof was rejected, 2
//! the files or arguments could not be read, 3 an internal error (a bug in
//! Starling). Errors are one line on stderr; there are no backtraces.

mod allocator;
mod bench;
mod files;
mod native_sha256;

#[global_allocator]
static ALLOCATOR: allocator::PrefaultingAlloc = allocator::PrefaultingAlloc;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use starling::format::MAX_INSTANCES;
use starling::{Error, Expected, Profile, ProofFile, StatementCircuit, StatementKind, Verified};

/// Most worker threads `--threads` accepts.
const MAX_THREADS: usize = 1024;

/// Set (to anything) to make the command fail with an internal error at
/// once: how the tests check that a bug exits with code 3.
const FORCE_INTERNAL_ERROR: &str = "STARLING_TEST_INTERNAL_ERROR";

#[derive(Parser)]
#[command(
    name = "starling",
    version,
    about = "Prove and verify batches of hash computations"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Prove a batch of computations and write the proof file.
    Prove {
        #[command(subcommand)]
        what: ProveWhat,
    },
    /// Verify a proof file. With --expect, the proof must be about exactly
    /// the kind, circuit, N and inputs expected; without it, any valid proof
    /// of any statement verifies.
    Verify {
        /// The proof file.
        proof: PathBuf,
        /// After OK, print the N outputs (one line each, in input order, in
        /// the statement kind's text format).
        #[arg(long)]
        print_outputs: bool,
        /// The inputs the proof must be about: an inputs file (`-` for
        /// stdin) in the format `prove` reads. Needs --kind.
        #[arg(long, value_name = "FILE", requires = "kind")]
        expect: Option<String>,
        /// The statement kind the proof must be about (with --expect).
        #[arg(long, value_enum, requires = "expect")]
        kind: Option<KindArg>,
        /// The circuit the proof must be about (with --kind circuit).
        #[arg(long, value_name = "CIRCUIT", requires = "expect")]
        bristol: Option<PathBuf>,
        /// Refuse proofs with less provable security than this.
        #[arg(long, value_name = "BITS", default_value_t = starling::DEFAULT_MIN_SECURITY_BITS)]
        min_security: f64,
    },
    /// Describe a proof file without verifying it: statement, N, digests,
    /// utilisation, profile, security, section sizes.
    Inspect {
        /// The proof file.
        proof: PathBuf,
    },
    /// Print the digest of a circuit, as `verify` reports and compares it.
    Digest {
        /// The statement kind (default: circuit, with --bristol).
        #[arg(long, value_enum)]
        kind: Option<KindArg>,
        /// The circuit, for a `circuit` statement.
        #[arg(long, value_name = "CIRCUIT")]
        bristol: Option<PathBuf>,
    },
    /// Prove and verify random inputs and report speed, size and memory.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Prove and verify 4,096 SHA-256 compressions from a fixed seed.
    Demo {
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(Subcommand)]
enum ProveWhat {
    /// N SHA-256 compressions: output = cv + F(cv, block). Input lines:
    /// `CV BLOCK`, 64 and 128 hex digits (big-endian words).
    Sha256(ProveArgs),
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
}

#[derive(Subcommand)]
enum BenchWhat {
    /// SHA-256 compressions.
    Sha256(BenchArgs),
    /// BLAKE3 compressions.
    Blake3(BenchArgs),
    /// Keccak-f[1600] permutations.
    #[command(name = "keccak-f1600")]
    KeccakF1600(BenchArgs),
}

#[derive(Args)]
struct ProveArgs {
    /// Inputs file (`-` for stdin): one instance per line (see above).
    #[arg(long, conflicts_with = "random", required_unless_present = "random")]
    inputs: Option<String>,
    /// Generate N random inputs instead of reading a file.
    #[arg(long, value_name = "N", requires = "seed")]
    random: Option<usize>,
    /// Seed for --random.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Where to write the proof.
    #[arg(long)]
    out: PathBuf,
    /// Security profile.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    profile: ProfileArg,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Number of instances N.
    #[arg(long)]
    pub(crate) count: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
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
}

/// A statement kind, as `--kind` names it.
#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Sha256,
    Blake3,
    #[value(name = "keccak-f1600")]
    KeccakF1600,
    Circuit,
}

impl From<KindArg> for StatementKind {
    fn from(k: KindArg) -> StatementKind {
        match k {
            KindArg::Sha256 => StatementKind::Sha256,
            KindArg::Blake3 => StatementKind::Blake3,
            KindArg::KeccakF1600 => StatementKind::KeccakF1600,
            KindArg::Circuit => StatementKind::Circuit,
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

/// A failure with its exit code.
pub(crate) struct Failure {
    pub(crate) code: u8,
    pub(crate) message: String,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let code = match e {
            Error::Rejected(_) => 1,
            Error::Input(_) | Error::Malformed(_) => 2,
            Error::Internal(_) => 3,
        };
        Failure {
            code,
            message: e.to_string(),
        }
    }
}

/// Exit code 2: input that could not be read, or bad usage.
pub(crate) fn unreadable(message: String) -> Failure {
    Failure { code: 2, message }
}

fn main() -> ExitCode {
    allocator::keep_freed_blocks();
    // A panic is a bug: say so in one line, no backtrace, exit 3.
    std::panic::set_hook(Box::new(|info| {
        let payload = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "error: {}",
            Error::Internal(format!("{}{at}", payload.replace('\n', " ")))
        );
    }));
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(f)) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
        Err(_) => ExitCode::from(3),
    }
}

fn set_threads(threads: Option<usize>) -> Result<(), Failure> {
    if let Some(t) = threads {
        if !(1..=MAX_THREADS).contains(&t) {
            return Err(unreadable(format!(
                "--threads must be between 1 and {MAX_THREADS}"
            )));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| unreadable(format!("cannot start {t} threads: {e}")))?;
    }
    Ok(())
}

/// Checks a batch size given on the command line before anything is
/// allocated for it.
pub(crate) fn check_count(flag: &str, n: usize) -> Result<(), Failure> {
    if n == 0 || n as u64 > MAX_INSTANCES {
        return Err(unreadable(format!(
            "{flag} must be between 1 and {MAX_INSTANCES}"
        )));
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    if std::env::var_os(FORCE_INTERNAL_ERROR).is_some() {
        panic!("{FORCE_INTERNAL_ERROR} is set");
    }
    match cli.command {
        Command::Prove { what } => {
            let (circuit, args, bristol) = match what {
                ProveWhat::Sha256(args) => (builtin(StatementKind::Sha256), args, None),
                ProveWhat::Blake3(args) => (builtin(StatementKind::Blake3), args, None),
                ProveWhat::KeccakF1600(args) => (builtin(StatementKind::KeccakF1600), args, None),
                ProveWhat::Circuit { bristol, args } => (read_bristol(&bristol)?, args, Some(bristol)),
            };
            prove(&circuit, args, bristol.as_deref())
        }
        Command::Verify {
            proof,
            print_outputs,
            expect,
            kind,
            bristol,
            min_security,
        } => {
            let expected = match (expect, kind) {
                (Some(inputs), Some(kind)) => {
                    Some(expected(&inputs, kind.into(), bristol.as_deref(), min_security)?)
                }
                _ => None,
            };
            verify(&proof, expected.as_ref(), min_security, print_outputs)
        }
        Command::Inspect { proof } => {
            print!("{}", starling::inspect(&files::read_proof(&proof)?)?);
            Ok(())
        }
        Command::Digest { kind, bristol } => {
            let kind = kind.map_or(StatementKind::Circuit, StatementKind::from);
            println!("{}", hex(&statement_circuit(kind, bristol.as_deref())?.digest()));
            Ok(())
        }
        Command::Bench { what } => {
            let (kind, args) = match what {
                BenchWhat::Sha256(args) => (StatementKind::Sha256, args),
                BenchWhat::Blake3(args) => (StatementKind::Blake3, args),
                BenchWhat::KeccakF1600(args) => (StatementKind::KeccakF1600, args),
            };
            check_count("--count", args.count)?;
            set_threads(args.threads)?;
            bench::run(&builtin(kind), &args)
        }
        Command::Demo { threads } => {
            set_threads(threads)?;
            bench::demo()
        }
    }
}

fn builtin(kind: StatementKind) -> Arc<StatementCircuit> {
    StatementCircuit::builtin(kind).expect("a built-in hash kind")
}

/// Reads and compiles a Bristol circuit; errors name the file and line.
fn read_bristol(path: &Path) -> Result<Arc<StatementCircuit>, Failure> {
    let text = files::read_circuit_text(path)?;
    StatementCircuit::from_bristol(&text).map_err(|e| unreadable(format!("{}: {e}", path.display())))
}

/// The circuit of `kind`: built in, or the Bristol file for `circuit`.
fn statement_circuit(kind: StatementKind, bristol: Option<&Path>) -> Result<Arc<StatementCircuit>, Failure> {
    match (StatementCircuit::builtin(kind), bristol) {
        (Some(circuit), None) => Ok(circuit),
        (None, Some(path)) => read_bristol(path),
        (Some(_), Some(_)) => Err(unreadable(format!(
            "--bristol is for circuit statements, not {}",
            kind.name()
        ))),
        (None, None) => Err(unreadable("a circuit statement needs --bristol CIRCUIT".into())),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn prove(circuit: &Arc<StatementCircuit>, args: ProveArgs, bristol: Option<&Path>) -> Result<(), Failure> {
    set_threads(args.threads)?;
    let mut inputs_paths: Vec<&Path> = bristol.into_iter().collect();
    if let Some(path) = args.inputs.as_deref().filter(|p| *p != "-") {
        inputs_paths.push(Path::new(path));
    }
    files::check_output_path(&args.out, &inputs_paths)?;
    let (count, rows) = match (&args.inputs, args.random) {
        (Some(path), None) => starling::inputs::read_inputs(circuit, files::open_inputs(path)?)?,
        (None, Some(n)) => {
            check_count("--random", n)?;
            (
                n,
                starling::inputs::random_inputs(circuit, n, args.seed.unwrap_or(0)),
            )
        }
        _ => {
            return Err(unreadable(
                "give either --inputs FILE or --random N --seed S".into(),
            ))
        }
    };
    let mut progress = |msg: &str| eprintln!("{msg}");
    let proved = starling::prove(circuit, count, rows, args.profile.into(), &mut progress)?;
    let bytes = proved.file.to_bytes();
    files::write_atomically(&args.out, &bytes)?;
    let kind = circuit.kind();
    eprintln!(
        "proved {count} {} {}; wrote {} bytes to {} in {:.3} s",
        kind.name(),
        if count == 1 {
            kind.instance_noun().to_string()
        } else {
            format!("{}s", kind.instance_noun())
        },
        bytes.len(),
        args.out.display(),
        proved.timings.total().as_secs_f64(),
    );
    Ok(())
}

/// The statement `verify --expect` checks the proof against.
fn expected(
    inputs: &str,
    kind: StatementKind,
    bristol: Option<&Path>,
    min_security: f64,
) -> Result<Expected, Failure> {
    let circuit = statement_circuit(kind, bristol)?;
    let (count, rows) = starling::inputs::read_inputs(&circuit, files::open_inputs(inputs)?)
        .map_err(|e| unreadable(format!("{inputs}: {e}")))?;
    Ok(Expected::new(circuit, count, rows)?.with_min_security_bits(min_security))
}

fn verify(
    path: &Path,
    expected: Option<&Expected>,
    min_security: f64,
    print_outputs: bool,
) -> Result<(), Failure> {
    let bytes = files::read_proof(path)?;
    let start = std::time::Instant::now();
    let verified: Verified = match expected {
        Some(expected) => starling::verify(expected, &bytes)?,
        None => starling::verify_claimed(&ProofFile::from_bytes(&bytes)?, min_security)?,
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "OK {} N={} circuit={} public={} profile={} security={:.1} bits verified in {ms:.2} ms",
        verified.kind().name(),
        verified.len(),
        hex(&verified.circuit_digest()),
        hex(&verified.public_digest()),
        verified.profile().name(),
        verified.security_bits(),
    );
    if expected.is_none() {
        eprintln!(
            "note: without --expect this shows only that the proof proves the statement it carries; compare its kind, circuit and public digests with what you expect"
        );
    }
    if print_outputs {
        for line in verified.output_lines() {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(())
}
