//! The `starling` command.
//!
//! Exit codes: 0 success, 1 the proof was rejected, 2 the files or arguments
//! could not be read. Errors are one line on stderr; there are no panics or
//! backtraces on bad input.

mod bench;
mod native_sha256;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use starling::{Error, Profile, ProofFile};

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
        /// After OK, print the N outputs (one hex line each, in input order).
        #[arg(long)]
        print_outputs: bool,
    },
    /// Describe a proof file: statement, N, profile, security, section sizes.
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
    /// N SHA-256 compressions: output = cv + F(cv, block).
    Sha256(ProveArgs),
}

#[derive(Subcommand)]
enum BenchWhat {
    /// SHA-256 compressions.
    Sha256(BenchArgs),
}

#[derive(Args)]
struct ProveArgs {
    /// Inputs file (`-` for stdin): one `CV BLOCK` per line in hex.
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
    /// Number of compressions.
    #[arg(long)]
    count: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Security profile.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default)]
    profile: ProfileArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum ProfileArg {
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
struct Failure {
    code: u8,
    message: String,
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

fn unreadable(message: String) -> Failure {
    Failure { code: 2, message }
}

fn main() -> ExitCode {
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
        Command::Prove {
            what: ProveWhat::Sha256(args),
        } => prove_sha256(args),
        Command::Verify { proof, print_outputs } => verify(&proof, print_outputs),
        Command::Inspect { proof } => inspect(&proof),
        Command::Bench {
            what: BenchWhat::Sha256(args),
        } => {
            set_threads(args.threads)?;
            bench::sha256(&args)
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

fn prove_sha256(args: ProveArgs) -> Result<(), Failure> {
    set_threads(args.threads)?;
    let inputs = match (&args.inputs, args.random) {
        (Some(path), None) => starling::inputs::parse_sha256_inputs(&read_input_text(path)?)?,
        (None, Some(n)) => {
            if n == 0 {
                return Err(unreadable("--random: N must be at least 1".into()));
            }
            starling::inputs::random_sha256_inputs(n, args.seed.unwrap_or(0))
        }
        _ => {
            return Err(unreadable(
                "give either --inputs FILE or --random N --seed S".into(),
            ))
        }
    };
    let n = inputs.len();
    let mut progress = |msg: &str| eprintln!("{msg}");
    let proved = starling::prove_sha256(inputs, args.profile.into(), &mut progress)?;
    let bytes = proved.file.to_bytes();
    std::fs::write(&args.out, &bytes)
        .map_err(|e| unreadable(format!("cannot write {}: {e}", args.out.display())))?;
    eprintln!(
        "proved {n} SHA-256 compressions in {:.3} s; wrote {} bytes to {}",
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
        verified.kind_name(),
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
