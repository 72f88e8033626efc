//! The `starling` command.
//!
//! Exit codes: 0 success, 1 the proof was rejected, 2 the files or arguments
//! could not be read. Errors are one line on stderr; there are no panics or
//! backtraces on bad input.

mod allocator;
mod bench;
mod native_sha256;

#[global_allocator]
static ALLOCATOR: allocator::PrefaultingAlloc = allocator::PrefaultingAlloc;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use starling::{Error, Profile, ProofFile, StatementCircuit, StatementKind};

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
    /// Verify a proof file.
    Verify {
        /// The proof file.
        proof: PathBuf,
        /// After OK, print the N outputs (one line each, in input order, in
        /// the statement kind's text format).
        #[arg(long)]
        print_outputs: bool,
    },
    /// Describe a proof file: statement, N, utilisation, profile, security,
    /// section sizes.
    Inspect {
        /// The proof file.
        proof: PathBuf,
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
        };
        Failure {
            code,
            message: e.to_string(),
        }
    }
}

pub(crate) fn unreadable(message: String) -> Failure {
    Failure { code: 2, message }
}

fn main() -> ExitCode {
    allocator::keep_freed_blocks();
    // A panic is a bug; if one ever happens, say so in one line, no backtrace.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error: {info}");
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
        Err(_) => ExitCode::from(1),
    }
}

fn set_threads(threads: Option<usize>) -> Result<(), Failure> {
    if let Some(t) = threads {
        if t == 0 {
            return Err(unreadable("--threads must be at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| unreadable(format!("cannot start {t} threads: {e}")))?;
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Prove { what } => {
            let (circuit, args) = match what {
                ProveWhat::Sha256(args) => (builtin(StatementKind::Sha256), args),
                ProveWhat::Blake3(args) => (builtin(StatementKind::Blake3), args),
                ProveWhat::KeccakF1600(args) => (builtin(StatementKind::KeccakF1600), args),
                ProveWhat::Circuit { bristol, args } => (read_bristol(&bristol)?, args),
            };
            prove(&circuit, args)
        }
        Command::Verify { proof, print_outputs } => verify(&proof, print_outputs),
        Command::Inspect { proof } => inspect(&proof),
        Command::Bench { what } => {
            let (kind, args) = match what {
                BenchWhat::Sha256(args) => (StatementKind::Sha256, args),
                BenchWhat::Blake3(args) => (StatementKind::Blake3, args),
                BenchWhat::KeccakF1600(args) => (StatementKind::KeccakF1600, args),
            };
            set_threads(args.threads)?;
            bench::run(&builtin(kind), &args)
        }
        Command::Demo { threads } => {
            set_threads(threads)?;
            bench::demo()
        }
    }
}

fn read_input_text(path: &str) -> Result<String, Failure> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| unreadable(format!("cannot read stdin: {e}")))?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| unreadable(format!("cannot read {path}: {e}")))
    }
}

fn builtin(kind: StatementKind) -> Arc<StatementCircuit> {
    StatementCircuit::builtin(kind).expect("a built-in hash kind")
}

/// Reads and compiles a Bristol circuit; errors name the file and line.
fn read_bristol(path: &PathBuf) -> Result<Arc<StatementCircuit>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))?;
    StatementCircuit::from_bristol(&text).map_err(|e| unreadable(format!("{}: {e}", path.display())))
}

fn prove(circuit: &Arc<StatementCircuit>, args: ProveArgs) -> Result<(), Failure> {
    set_threads(args.threads)?;
    let (count, rows) = match (&args.inputs, args.random) {
        (Some(path), None) => starling::inputs::parse_inputs(circuit, &read_input_text(path)?)?,
        (None, Some(n)) => {
            if n == 0 {
                return Err(unreadable("--random: N must be at least 1".into()));
            }
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
    std::fs::write(&args.out, &bytes)
        .map_err(|e| unreadable(format!("cannot write {}: {e}", args.out.display())))?;
    let kind = circuit.kind();
    eprintln!(
        "proved {count} {} {}s in {:.3} s; wrote {} bytes to {}",
        kind.name(),
        kind.instance_noun(),
        proved.timings.total().as_secs_f64(),
        bytes.len(),
        args.out.display()
    );
    Ok(())
}

fn read_proof(path: &PathBuf) -> Result<ProofFile, Failure> {
    let bytes =
        std::fs::read(path).map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))?;
    Ok(ProofFile::from_bytes(&bytes)?)
}

fn verify(path: &PathBuf, print_outputs: bool) -> Result<(), Failure> {
    let file = read_proof(path)?;
    let start = std::time::Instant::now();
    let verified = starling::verify(&file)?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "OK {} N={} profile={} security={:.1} bits verified in {ms:.2} ms",
        verified.kind().name(),
        verified.len(),
        verified.profile().name(),
        verified.security_bits()
    );
    if print_outputs {
        for line in verified.output_lines() {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(())
}

fn inspect(path: &PathBuf) -> Result<(), Failure> {
    let file = read_proof(path)?;
    print!("{}", starling::inspect(&file));
    Ok(())
}
