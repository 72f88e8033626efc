//! The native half of the Python package `starling` (`starling._starling`):
//! prove and verify through the `starling` crate, with the GIL released and
//! on a rayon pool of the caller's size. The Python half
//! (`python/starling/__init__.py`) turns records into inputs text, reads
//! circuit files and wraps the results; this half takes and returns only
//! plain values. What sharded proving (`python/starling/dask.py`) needs of
//! the library is here too: reading a statement before it is cut, the
//! starts of a chain's segments, a check of each shard as it comes back,
//! and the bundle of the shards.

/// The prover's allocator, for this extension's own allocations: large
/// blocks on huge pages, which the command line's proofs have too (a
/// fifth of a cold proof's time went to 4 KiB page faults without them).
#[global_allocator]
static ALLOCATOR: starling_alloc::HugePageAlloc = starling_alloc::HugePageAlloc;

mod errors;
mod params;
mod pool;
mod progress;

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use starling::kind::{Batch, Membership, SampleInputs, TextFormat};
use starling::{inputs, Error, Expected, Hash, Kind, ProveOptions, Randomness, Records, Verified};

use errors::{to_py, Unreadable};
use params::{kind_named, profile_named, with_kind_params};

/// Proves the statement `kind` (with `params`) makes of the inputs text, on
/// `threads` worker threads, and returns the proof file's bytes; with `zk`
/// (and always for a kind that requires it) a zero-knowledge proof, its
/// randomness the operating system's. With `source` the errors reading the
/// text are named as [`from_source`] says, as [`check_inputs`] names them:
/// `python -m starling` proves a whole statement without reading it first.
#[pyfunction]
#[pyo3(signature = (kind, inputs, params, profile, zk, threads, progress, source=None))]
#[allow(clippy::too_many_arguments)]
fn prove<'py>(
    py: Python<'py>,
    kind: &str,
    inputs: &str,
    params: HashMap<String, String>,
    profile: &str,
    zk: bool,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
    source: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = ProveOptions {
        profile: profile_named(profile)?,
        zk: zk.then_some(Randomness::Os),
    };
    let kind = kind_named(kind, &params).map_err(to_py)?;
    let mut report = progress::Reporter::new(progress);
    let bytes = py.detach(|| {
        pool::run(threads, || {
            let (records, private) =
                prover_records(kind.as_ref(), inputs, &params).map_err(|e| from_source(source, e))?;
            let proved =
                starling::prove_private(kind, records, private, options, &mut |phase| report.phase(phase))?;
            Ok(proved.file.to_bytes())
        })
    });
    report.finish()?;
    Ok(PyBytes::new(py, &bytes.map_err(to_py)?))
}

/// The public and private records of the prover's inputs text for `kind`:
/// a membership statement's from `root` (hex) in `params` and either its
/// members (`LEAF INDEX` lines) and `tree` (the leaves' text), as `starling
/// prove membership` reads them, or the members with their paths (`LEAF
/// INDEX SIBLING...` lines) in a tree of `size` leaves; any other kind's
/// from the text alone.
fn prover_records(
    kind: &dyn Kind,
    inputs: &str,
    params: &HashMap<String, String>,
) -> Result<(Records, Records), Error> {
    if let Some(membership) = (kind as &dyn Any).downcast_ref::<Membership>() {
        let root = params
            .get("root")
            .ok_or_else(|| Error::Input("membership statements are proved with a `root`".into()))?;
        let root = inputs::hex_field(root, membership.hash().digest_bytes(), "root").map_err(Error::Input)?;
        return match (params.get("tree"), params.get("size")) {
            (Some(tree), None) => inputs::read_members(membership, &root, inputs.as_bytes(), tree.as_bytes()),
            (None, Some(size)) => {
                let size = inputs::decimal(size, "size").map_err(Error::Input)?;
                inputs::read_member_paths(membership, &root, size, inputs.as_bytes())
            }
            (Some(_), Some(_)) => Err(Error::Input(
                "membership statements are proved with a `tree`, or a `size` and the members' paths, not both".into(),
            )),
            (None, None) => Err(Error::Input(
                "membership statements are proved with a `tree` (or a `size` and the members' paths)".into(),
            )),
        };
    }
    if kind.has_private_inputs() {
        inputs::read_prover_inputs(kind, inputs.as_bytes())
    } else {
        Ok((inputs::parse_inputs(kind, inputs)?, Records::new()))
    }
}

/// What a verified proof shows: kind name, N, circuit digest, public
/// digest (both hex), profile, whether it is zero-knowledge, security
/// bits, output lines, and how many shard proofs it holds (1 for a proof
/// file, K for a bundle of K shards).
type VerifiedTuple = (String, u64, String, String, String, bool, f64, Vec<String>, usize);

/// Verifies `proof` against the statement `kind` (with `params`) makes of
/// the expected inputs text, as `starling verify --expect` does: the
/// proof's kind is compared first, so a proof of another kind is rejected as
/// such rather than the inputs read as that kind's.
#[pyfunction]
#[pyo3(signature = (proof, kind, inputs, params, min_security, threads))]
fn verify(
    py: Python<'_>,
    proof: &[u8],
    kind: &str,
    inputs: &str,
    params: HashMap<String, String>,
    min_security: f64,
    threads: Option<usize>,
) -> PyResult<VerifiedTuple> {
    let kind = kind_named(kind, &params).map_err(to_py)?;
    verify_against(py, proof, kind, min_security, threads, |k| {
        inputs::parse_inputs(k, inputs)
    })
}

/// Verifies `proof` against the statement of `kind` on the records `read`
/// makes, on `threads` worker threads: the proof's kind is compared
/// first, so a proof of another kind is rejected as such rather than the
/// inputs read as that kind's.
fn verify_against(
    py: Python<'_>,
    proof: &[u8],
    kind: Arc<dyn Kind>,
    min_security: f64,
    threads: Option<usize>,
    read: impl FnOnce(&dyn Kind) -> Result<Records, Error> + Send,
) -> PyResult<VerifiedTuple> {
    let verified = py.detach(|| {
        pool::run(threads, || {
            starling::check_kind(kind.as_ref(), proof)?;
            let records = read(kind.as_ref())?;
            let expected = Expected::new(kind, records)?.with_min_security_bits(min_security);
            starling::verify(&expected, proof)
        })
    });
    Ok(verified_tuple(verified.map_err(to_py)?))
}

/// What `v` shows, as Python's `Verified` is made from it.
fn verified_tuple(v: Verified) -> VerifiedTuple {
    (
        v.kind().name(),
        v.count(),
        hex(&v.circuit_digest()),
        hex(&v.public_digest()),
        v.profile().name().to_string(),
        v.zk(),
        v.security_bits(),
        v.output_lines(),
        v.shards(),
    )
}

/// Reads the prover's inputs text for `kind` (with `params`) as `prove`
/// does, with its errors, and returns the number of its records, which
/// shards slice (a membership statement's members; any other kind's input
/// records): a statement is read whole, so that its errors name its own
/// lines (and say what is wrong with it as a whole), before it is cut into
/// shards. With `source` its errors are named as [`from_source`] says.
#[pyfunction]
#[pyo3(signature = (kind, inputs, params, source))]
fn check_inputs(
    py: Python<'_>,
    kind: &str,
    inputs: &str,
    params: HashMap<String, String>,
    source: Option<&str>,
) -> PyResult<usize> {
    let kind = kind_named(kind, &params).map_err(to_py)?;
    let read = py.detach(|| prover_records(kind.as_ref(), inputs, &params));
    let (public, private) = read.map_err(|e| to_py(from_source(source, e)))?;
    let is_membership = (kind.as_ref() as &dyn Any).is::<Membership>();
    Ok(if is_membership {
        private.len()
    } else {
        public.len()
    })
}

/// `e`, an error reading the prover's inputs text, as the command line says
/// it of the text read from `source` (a file's name, `stdin`): the errors
/// about the text start with it; those about the kind, or a membership
/// statement's tree or size (`the tree: ...`, `the size: ...`), do not.
fn from_source(source: Option<&str>, e: Error) -> Error {
    match (source, e) {
        (Some(name), Error::Input(m)) if !m.starts_with("the tree: ") && !m.starts_with("the size: ") => {
            Error::Input(format!("{name}: {m}"))
        }
        (Some(name), Error::False(m)) => Error::False(format!("{name}: {m}")),
        (_, e) => e,
    }
}

/// Verifies `proof` against the statement the *prover's* inputs text
/// makes (a signature batch's `PK MSG SIG` lines, a preimage's secret
/// messages, a membership statement's members and tree): how a client
/// checks a shard a worker sent back, holding only what it gave the
/// worker.
#[pyfunction]
#[pyo3(signature = (proof, kind, inputs, params, min_security, threads))]
fn check_proved(
    py: Python<'_>,
    proof: &[u8],
    kind: &str,
    inputs: &str,
    params: HashMap<String, String>,
    min_security: f64,
    threads: Option<usize>,
) -> PyResult<VerifiedTuple> {
    let kind = kind_named(kind, &params).map_err(to_py)?;
    verify_against(py, proof, kind, min_security, threads, |k| {
        prover_records(k, inputs, &params).map(|(records, _)| records)
    })
}

/// The bundle of the shard proofs `proofs`, in order
/// (`starling::bundle::assemble`).
#[pyfunction]
fn bundle<'py>(py: Python<'py>, proofs: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py.detach(|| {
        let proofs: Vec<&[u8]> = proofs.iter().map(Vec::as_slice).collect();
        starling::bundle::assemble(&proofs)
    });
    Ok(PyBytes::new(py, &bytes.map_err(to_py)?))
}

/// [`check_inputs`] for a membership statement (`LEAF INDEX` lines and
/// `tree` in `params`, or the members' paths and `size`, as
/// [`prover_records`] reads them): the tree's size and the members with
/// their paths, one `LEAF INDEX SIBLING...` line each in their order, what
/// the statement's shards prove, none of them holding the tree. The tree is
/// read once, for the check and the paths together: at 2^20 leaves, 3 s.
#[pyfunction]
#[pyo3(signature = (kind, inputs, params, source))]
fn member_paths(
    py: Python<'_>,
    kind: &str,
    inputs: &str,
    params: HashMap<String, String>,
    source: Option<&str>,
) -> PyResult<(u64, Vec<String>)> {
    let kind = kind_named(kind, &params).map_err(to_py)?;
    let membership = (kind.as_ref() as &dyn Any)
        .downcast_ref::<Membership>()
        .ok_or_else(|| Unreadable::new_err(format!("{} statements have no members", kind.name())))?;
    let lines = py.detach(|| {
        let (public, private) =
            prover_records(membership, inputs, &params).map_err(|e| from_source(source, e))?;
        let size = membership
            .size_of(public.get(0))
            .expect("a checked public record");
        let lines = private.iter().map(|member| membership.path_line(size, member));
        Ok((size, lines.collect::<Result<Vec<_>, _>>().map_err(Error::Input)?))
    });
    lines.map_err(to_py)
}

/// `text` cut into consecutive pieces of `sizes` records each (a record is
/// a line [`inputs::record_text`] finds one in): each cut falls just
/// before the first record of the next piece, so blank and comment lines
/// between two pieces end the first, and the pieces joined are `text`.
/// The sizes must add up to the text's records; a text that ends before a
/// cut is a bug in the caller, which counted them.
#[pyfunction]
fn cut_records<'t>(py: Python<'_>, text: &'t str, sizes: Vec<usize>) -> PyResult<Vec<&'t str>> {
    py.detach(|| cut_at_records(text, &sizes)).map_err(to_py)
}

fn cut_at_records<'t>(text: &'t str, sizes: &[usize]) -> Result<Vec<&'t str>, Error> {
    let mut pieces = Vec::with_capacity(sizes.len());
    let mut cuts = sizes
        .iter()
        .take(sizes.len().saturating_sub(1))
        .scan(0, |records, size| {
            *records += size;
            Some(*records)
        });
    let mut next_cut = cuts.next();
    let (mut piece_start, mut records) = (0, 0);
    for line in text.split_inclusive('\n') {
        let Some(cut) = next_cut else {
            break;
        };
        if inputs::record_text(line).is_some() {
            if records == cut {
                let at = line.as_ptr() as usize - text.as_ptr() as usize;
                pieces.push(&text[piece_start..at]);
                piece_start = at;
                next_cut = cuts.next();
            }
            records += 1;
        }
    }
    if let Some(cut) = next_cut {
        return Err(Error::Internal(format!(
            "the inputs text ends at record {records}, before a cut at {cut}"
        )));
    }
    pieces.push(&text[piece_start..]);
    Ok(pieces)
}

/// h(`steps`) of the chain h(0) = `start` (hex), h(i+1) = H(h(i)), in hex:
/// where a chain's segment after `steps` steps starts.
#[pyfunction]
fn chain_end(py: Python<'_>, hash: &str, start: &str, steps: u64) -> PyResult<String> {
    let hash = Hash::from_name(hash)
        .ok_or_else(|| Unreadable::new_err(format!("--hash: {hash:?} is not a hash")))?;
    let mut link = inputs::hex_field(start, hash.digest_bytes(), "the start").map_err(Unreadable::new_err)?;
    py.detach(|| {
        for _ in 0..steps {
            link = hash.digest(&link);
        }
    });
    Ok(hex(&link))
}

/// The inputs text of the `count` records `starling prove KIND --random
/// COUNT --seed SEED` proves: a batch's inputs from a seed, a line each.
#[pyfunction]
#[pyo3(signature = (kind, count, seed, params))]
fn random_inputs(
    py: Python<'_>,
    kind: &str,
    count: usize,
    seed: u64,
    params: HashMap<String, String>,
) -> PyResult<String> {
    let kind = random_kind(kind, count, &params)?;
    let batch = (kind.as_ref() as &dyn Any)
        .downcast_ref::<Batch>()
        .expect("random_kind gives a batch");
    Ok(py.detach(|| {
        let records = batch.random_inputs(count, seed);
        records.iter().map(|r| batch.format_input(r) + "\n").collect()
    }))
}

/// Refuses what [`random_inputs`] would refuse, without making the text:
/// `python -m starling` checks its flags at once, and makes the text
/// (seconds at millions of records) once its cluster is starting.
#[pyfunction]
fn check_random(kind: &str, count: usize, params: HashMap<String, String>) -> PyResult<()> {
    random_kind(kind, count, &params).map(|_| ())
}

/// The batch kind `kind` names with `params`, if `--random COUNT` can make
/// `count` of its inputs.
fn random_kind(kind: &str, count: usize, params: &HashMap<String, String>) -> PyResult<Arc<dyn Kind>> {
    let kind = kind_named(kind, params).map_err(to_py)?;
    if !(kind.as_ref() as &dyn Any).is::<Batch>() {
        return Err(Unreadable::new_err(format!(
            "--random makes inputs of a batch, not of {} statements",
            kind.name()
        )));
    }
    starling_bench::check_count("--random", count).map_err(to_py)?;
    Ok(kind)
}

/// Runs the benchmark `starling bench` runs for `kind` (with `params`) at
/// `sizes` (`count`, `msg_len`, `steps`, `leaves`), zero-knowledge with
/// `zk`, on `threads` worker threads, and returns the object `--json`
/// prints, as JSON text.
#[pyfunction]
#[pyo3(name = "bench", signature = (kind, params, sizes, runs, profile, zk, threads))]
#[allow(clippy::too_many_arguments)]
fn benchmark(
    py: Python<'_>,
    kind: &str,
    params: HashMap<String, String>,
    sizes: HashMap<String, u64>,
    runs: usize,
    profile: &str,
    zk: bool,
    threads: Option<usize>,
) -> PyResult<String> {
    let options = starling_bench::Options {
        runs,
        profile: profile_named(profile)?,
        zk,
    };
    let size = |name: &str| sizes.get(name).map(|&n| n as usize);
    let sizes = starling_bench::Sizes {
        count: size("count"),
        msg_len: size("msg_len"),
        steps: sizes.get("steps").copied(),
        leaves: size("leaves"),
    };
    let report = py.detach(|| {
        pool::run(threads, || {
            let target = with_kind_params(&params, |p| starling_bench::target(kind, p, &sizes))?;
            starling_bench::run(target, &options)
        })
    });
    Ok(report.map_err(to_py)?.to_json().to_string())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Makes every later proof of this process keep its large buffers for the
/// next one ([`starling::keep_buffers_between_proofs`]): a Dask worker
/// proves shard after shard, and mapping a proof's buffers again for each
/// (page faults) costs about as much as the proof on our machines.
#[pyfunction]
fn keep_buffers_between_proofs() {
    starling::keep_buffers_between_proofs();
}

/// `starling._starling`: see the package's README.
#[pymodule]
fn _starling(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(benchmark, m)?)?;
    m.add_function(wrap_pyfunction!(check_inputs, m)?)?;
    m.add_function(wrap_pyfunction!(check_proved, m)?)?;
    m.add_function(wrap_pyfunction!(bundle, m)?)?;
    m.add_function(wrap_pyfunction!(chain_end, m)?)?;
    m.add_function(wrap_pyfunction!(check_random, m)?)?;
    m.add_function(wrap_pyfunction!(cut_records, m)?)?;
    m.add_function(wrap_pyfunction!(member_paths, m)?)?;
    m.add_function(wrap_pyfunction!(random_inputs, m)?)?;
    m.add_function(wrap_pyfunction!(keep_buffers_between_proofs, m)?)?;
    m.add("DEFAULT_MIN_SECURITY_BITS", starling::DEFAULT_MIN_SECURITY_BITS)?;
    m.add("KIND_NAMES", starling::kind::KIND_NAMES.to_vec())?;
    m.add("MAX_SHARDS", starling::bundle::MAX_SHARDS)?;
    Ok(())
}
