//! The `starling` command.
//!
//! Exit codes: 0 success (the proof verified), 1 the proof was rejected, 2
//! the files or arguments could not be read, 3 an internal error (a bug in
//! Starling). Errors are one line on stderr; there are no backtraces.

mod args;
mod bench;
mod files;
mod interrupt;
mod report;
mod ring;
mod verify;

#[global_allocator]
static ALLOCATOR: starling_alloc::HugePageAlloc = starling_alloc::HugePageAlloc;

use starling::kind::SampleInputs;
use starling_circuit::wording::counted;
use std::path::Path;
use std::process::ExitCode;

use std::sync::Arc;

use clap::{Parser, ValueEnum};
use starling::kind::{Batch, Chain, Membership};
use starling::{Builtin, Error, Hash, Kind, ProveOptions, Randomness, Records, StatementCircuit};

use args::{Bounds, Cli, Command, HashArg, KindArg, KindParams, OutputArgs, ProveArgs, ProveWhat, SlhArgs};

/// Most worker threads `--threads` accepts.
const MAX_THREADS: usize = 1024;

/// Set (to anything) to make the command fail with an internal error at
/// once: how the tests check that a bug exits with code 3.
const FORCE_INTERNAL_ERROR: &str = "STARLING_TEST_INTERNAL_ERROR";

/// A failure with its exit code.
pub(crate) struct Failure {
    pub(crate) code: u8,
    pub(crate) message: String,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let code = match e {
            Error::Rejected(_) | Error::False(_) => 1,
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
    starling_alloc::set_block_policy();
    // A panic is a bug: say so in one line, no backtrace, exit 3.
    std::panic::set_hook(Box::new(|info| eprintln!("error: {}", Error::from_panic(info))));
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

/// Starts rayon's global pool with `threads` threads (rayon's default, all
/// cores or `RAYON_NUM_THREADS`, when `None`), this thread one of them.
///
/// As a worker of the pool, the thread that proves forks every parallel
/// step itself and works on it while the other workers steal the rest;
/// from outside the pool it handed each step to a worker and slept until
/// it was done, two thread switches per step, hundreds per proof. Its
/// buffers stay in the main allocator arena, which the allocator policy
/// (`starling_alloc`) is tuned for. Call before anything uses rayon.
pub(crate) fn set_threads(threads: Option<usize>) -> Result<(), Failure> {
    if let Some(t) = threads {
        if !(1..=MAX_THREADS).contains(&t) {
            return Err(unreadable(format!(
                "--threads must be between 1 and {MAX_THREADS}"
            )));
        }
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .use_current_thread()
        .build_global()
        .map_err(|e| unreadable(format!("cannot start the worker threads: {e}")))
}

/// Checks a batch size given on the command line before anything is
/// allocated for it.
pub(crate) fn check_count(flag: &str, n: usize) -> Result<(), Failure> {
    Ok(starling_bench::check_count(flag, n)?)
}

fn run(cli: Cli) -> Result<(), Failure> {
    if std::env::var_os(FORCE_INTERNAL_ERROR).is_some() {
        panic!("{FORCE_INTERNAL_ERROR} is set");
    }
    // A tier the CPU lacks is a usage error, reported before any kernel
    // would panic on it.
    starling::cpu::requested().map_err(|e| unreadable(e.to_string()))?;
    if !matches!(cli.command, Command::Prove { .. }) {
        interrupt::closed_pipe_ends_quietly();
    }
    match cli.command {
        Command::Prove { what } => prove(what),
        Command::Verify {
            proof,
            print_outputs,
            json,
            expect,
            kind,
            params,
            min_security,
        } => {
            let bytes = files::read_proof(&proof)?;
            let expect = match (&expect, kind) {
                (Some(inputs), Some(kind)) => Some(verify::Expect {
                    inputs,
                    kind,
                    params: &params,
                }),
                _ => None,
            };
            let printing = verify::Printing {
                outputs: print_outputs,
                json,
            };
            verify::run(&bytes, expect, min_security, printing)
        }
        Command::Inspect { proof, json } => {
            let bytes = files::read_proof(&proof)?;
            if json {
                println!("{}", report::inspect(&bytes)?);
            } else {
                print!("{}", starling::inspect(&bytes)?);
            }
            Ok(())
        }
        Command::Digest { kind, params } => {
            let kind = statement_kind(kind.unwrap_or(KindArg::Circuit), &params)?;
            println!("{}", hex(&kind.circuit().digest()));
            Ok(())
        }
        Command::Bench { what } => bench::run(what),
        Command::Ring { what } => ring::run(what),
        Command::Demo { threads } => {
            set_threads(threads)?;
            bench::demo()
        }
    }
}

/// Reads and compiles a Bristol circuit; errors name the file and line.
fn read_bristol(path: &Path) -> Result<Arc<StatementCircuit>, Failure> {
    let text = files::read_circuit_text(path)?;
    StatementCircuit::from_bristol(&text).map_err(|e| unreadable(format!("{}: {e}", path.display())))
}

/// The statement kind `--kind` names, with its parameters: `--bristol` for
/// circuit, `--hash` for the kinds of one hash, `--scheme` for merkle-root,
/// membership and signatures, `--max-len` for preimage, `--max-leaf-len`
/// for rfc6962 membership; a parameter the kind does not take is an error.
pub(crate) fn statement_kind(kind: KindArg, params: &KindParams) -> Result<Arc<dyn Kind>, Failure> {
    let named = Named {
        hash: params.hash,
        scheme: params.scheme.as_deref(),
        slh: &params.slh,
        bounds: &params.bounds,
        bristol: params.bristol.as_deref(),
    };
    kind_named(&value_name(&kind), &named)
}

/// A kind's parameters as the command line took them, `None` (or empty)
/// where not given.
#[derive(Clone, Copy)]
pub(crate) struct Named<'a> {
    pub(crate) hash: Option<HashArg>,
    pub(crate) scheme: Option<&'a str>,
    pub(crate) slh: &'a SlhArgs,
    pub(crate) bounds: &'a Bounds,
    pub(crate) bristol: Option<&'a Path>,
}

impl Default for Named<'_> {
    /// No parameter given.
    fn default() -> Self {
        static NO_SLH: SlhArgs = SlhArgs {
            ctx: None,
            interface: None,
        };
        static NO_BOUNDS: Bounds = Bounds {
            max_len: None,
            max_leaf_len: None,
        };
        Named {
            hash: None,
            scheme: None,
            slh: &NO_SLH,
            bounds: &NO_BOUNDS,
            bristol: None,
        }
    }
}

/// The kind `name` by the library's one mapping of names and parameters to
/// kinds ([`starling::kind::named`], which the Python package shares).
pub(crate) fn kind_named(name: &str, given: &Named<'_>) -> Result<Arc<dyn Kind>, Failure> {
    with_named_params(given, |params| starling::kind::named(name, params))
}

/// Calls `f` with the parameters given as the library names them; the
/// circuit file is read only if `f` asks for the circuit.
pub(crate) fn with_named_params<T>(
    given: &Named<'_>,
    f: impl FnOnce(&starling::kind::KindParams<'_>) -> Result<T, Error>,
) -> Result<T, Failure> {
    let hash = given.hash.map(|h| value_name(&h));
    let interface = given.slh.interface.map(|i| value_name(&i));
    let [max_len, max_leaf_len] =
        [given.bounds.max_len, given.bounds.max_leaf_len].map(|n| n.map(|n| n.to_string()));
    let compile = |path: &Path| read_bristol(path).map_err(|f| Error::Input(f.message));
    let compile_given = given.bristol.map(|path| move || compile(path));
    let params = starling::kind::KindParams {
        bristol: compile_given.as_ref().map(|f| f as &dyn Fn() -> _),
        hash: hash.as_deref(),
        scheme: given.scheme,
        ctx: given.slh.ctx.as_deref(),
        interface: interface.as_deref(),
        max_len: max_len.as_deref(),
        max_leaf_len: max_leaf_len.as_deref(),
    };
    Ok(f(&params)?)
}

/// The name a value of the command line has (`keccak-f1600`, `sha3-256`).
pub(crate) fn value_name(value: &impl ValueEnum) -> String {
    value
        .to_possible_value()
        .expect("every value has a name")
        .get_name()
        .to_string()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn prove(what: ProveWhat) -> Result<(), Failure> {
    // Before the worker threads start, so that they inherit its mask.
    interrupt::watch();
    match what {
        ProveWhat::Sha256(args) => prove_batch(Batch::builtin(Builtin::Sha256), args, None),
        ProveWhat::Sha512(args) => prove_batch(Batch::builtin(Builtin::Sha512), args, None),
        ProveWhat::Blake3(args) => prove_batch(Batch::builtin(Builtin::Blake3), args, None),
        ProveWhat::KeccakF1600(args) => prove_batch(Batch::builtin(Builtin::KeccakF1600), args, None),
        ProveWhat::Circuit { bristol, args } => {
            prove_batch(Batch::of(read_bristol(&bristol)?), args, Some(&bristol))
        }
        ProveWhat::Digest {
            hash,
            messages,
            output,
        } => {
            set_threads(output.threads)?;
            files::check_output_path(&output.out, &files::given_paths(&[&messages]))?;
            let kind = starling::kind::digest(hash.into());
            let records = files::read_inputs(kind.as_ref(), &messages)?;
            write_proof(kind, records, &output)
        }
        ProveWhat::Chain {
            hash,
            start,
            steps,
            output,
        } => {
            set_threads(output.threads)?;
            check_count("--steps", steps as usize)?;
            let kind = starling::kind::chain(hash.into());
            let hash: Hash = hash.into();
            let start = starling::inputs::parse_inputs(kind.as_ref(), &format!("{start} 1"))
                .map_err(|e| unreadable(format!("--start: {e}")))?
                .get(0)[..hash.digest_bytes()]
                .to_vec();
            let records: Records = [Chain::record(&start, steps).as_slice()].into_iter().collect();
            write_proof(kind, records, &output)
        }
        ProveWhat::MerkleRoot {
            hash,
            scheme,
            leaves,
            output,
        } => {
            set_threads(output.threads)?;
            files::check_output_path(&output.out, &files::given_paths(&[&leaves]))?;
            let scheme = value_name(&scheme);
            let named = Named {
                hash: Some(hash),
                scheme: Some(&scheme),
                ..Named::default()
            };
            let kind = kind_named("merkle-root", &named)?;
            let records = files::read_inputs(kind.as_ref(), &leaves)?;
            write_proof(kind, records, &output)
        }
        ProveWhat::Signatures {
            scheme,
            slh,
            batch,
            output,
        } => {
            set_threads(output.threads)?;
            files::check_output_path(&output.out, &files::given_paths(&[&batch]))?;
            let named = Named {
                scheme: Some(&scheme),
                slh: &slh,
                ..Named::default()
            };
            let kind = kind_named("signatures", &named)?;
            let (records, private) = files::read_prover_inputs(kind.as_ref(), &batch)?;
            write_private_proof(kind, records, private, &output)
        }
        ProveWhat::Preimage {
            hash,
            secrets,
            max_len,
            output,
        } => {
            set_threads(output.threads)?;
            files::check_output_path(&output.out, &files::given_paths(&[&secrets]))?;
            let bounds = Bounds {
                max_len: Some(max_len),
                ..Bounds::default()
            };
            let named = Named {
                hash: Some(hash),
                bounds: &bounds,
                ..Named::default()
            };
            let kind = kind_named("preimage", &named)?;
            let (records, private) = files::read_prover_inputs(kind.as_ref(), &secrets)?;
            write_private_proof(kind, records, private, &output)
        }
        ProveWhat::Membership {
            hash,
            scheme,
            root,
            members,
            tree,
            size,
            max_leaf_len,
            output,
        } => {
            set_threads(output.threads)?;
            let inputs: Vec<&str> = [Some(members.as_str()), tree.as_deref()]
                .into_iter()
                .flatten()
                .collect();
            files::check_output_path(&output.out, &files::given_paths(&inputs))?;
            let scheme = value_name(&scheme);
            let bounds = Bounds {
                max_leaf_len,
                ..Bounds::default()
            };
            let named = Named {
                hash: Some(hash),
                scheme: Some(&scheme),
                bounds: &bounds,
                ..Named::default()
            };
            let kind = kind_named("membership", &named)?;
            let membership = (kind.as_ref() as &dyn std::any::Any)
                .downcast_ref::<Membership>()
                .ok_or_else(|| Error::Internal("a membership kind of another type".into()))?;
            let root = starling::inputs::hex_field(&root, Hash::from(hash).digest_bytes(), "--root")
                .map_err(unreadable)?;
            let (records, private) = match (tree, size) {
                (Some(tree), _) => files::read_members(membership, &root, &members, &tree)?,
                (None, Some(size)) => files::read_member_paths(membership, &root, size, &members)?,
                (None, None) => unreachable!("clap requires --tree or --size"),
            };
            write_private_proof(kind, records, private, &output)
        }
    }
}

fn prove_batch(batch: Batch, args: ProveArgs, bristol: Option<&Path>) -> Result<(), Failure> {
    set_threads(args.output.threads)?;
    let mut inputs_paths: Vec<&Path> = bristol.into_iter().collect();
    if let Some(path) = args.inputs.as_deref().filter(|p| *p != "-") {
        inputs_paths.push(Path::new(path));
    }
    files::check_output_path(&args.output.out, &inputs_paths)?;
    let records = match (&args.inputs, args.random) {
        (Some(path), None) => files::read_inputs(&batch, path)?,
        (None, Some(n)) => {
            check_count("--random", n)?;
            batch.random_inputs(n, args.seed.unwrap_or(0))
        }
        _ => {
            return Err(unreadable(
                "give either --inputs FILE or --random N --seed S".into(),
            ))
        }
    };
    write_proof(Arc::new(batch), records, &args.output)
}

/// Proves and writes the file, with the phases and a line of what was
/// done on stderr unless `--quiet`.
fn write_proof(kind: Arc<dyn Kind>, records: Records, output: &OutputArgs) -> Result<(), Failure> {
    write_private_proof(kind, records, Records::new(), output)
}

/// [`write_proof`] with private records: zero-knowledge with `--zk` (and
/// always for a kind that requires it), its randomness the operating
/// system's.
pub(crate) fn write_private_proof(
    kind: Arc<dyn Kind>,
    records: Records,
    private: Records,
    output: &OutputArgs,
) -> Result<(), Failure> {
    let quiet = output.quiet;
    let mut progress = |phase: &starling::Phase| {
        if !quiet {
            eprintln!("{phase}");
        }
    };
    let out = files::ProofOutput::create(&output.out)?;
    let options = ProveOptions {
        profile: output.profile.into(),
        zk: output.zk.then_some(Randomness::Os),
    };
    let proved = starling::prove_private(kind, records, private, options, &mut progress)?;
    let bytes = proved.file.to_bytes();
    out.commit(&bytes)?;
    if quiet {
        return Ok(());
    }
    let st = &proved.file.statement;
    eprintln!(
        "proved {} ({}){}; wrote {} bytes to {} in {:.3} s",
        counted(st.count(), st.kind().noun()),
        st.kind().name(),
        if proved.file.zk { ", zero-knowledge" } else { "" },
        bytes.len(),
        output.out.display(),
        proved.timings.total().as_secs_f64(),
    );
    Ok(())
}
