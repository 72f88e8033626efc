//! `starling verify`: a proof file against the statement expected (or
//! against itself), the verdict as a line of text or one JSON object.

use std::io::Write;

use serde_json::{json, Value};
use starling::{Error, Expected, Mismatch, Rejection, Verified};

use crate::args::{KindArg, KindParams};
use crate::{files, hex, report, statement_kind, Failure};

/// What `--expect INPUTS --kind KIND` and the kind's parameters name.
#[derive(Clone, Copy)]
pub(crate) struct Expect<'a> {
    pub(crate) inputs: &'a str,
    pub(crate) kind: KindArg,
    pub(crate) params: &'a KindParams,
}

/// How the verdict is printed.
#[derive(Clone, Copy)]
pub(crate) struct Printing {
    /// `--print-outputs`: the outputs after the OK line.
    pub(crate) outputs: bool,
    /// `--json`: one object instead of lines.
    pub(crate) json: bool,
}

/// The statement a proof is checked against, and the line of the
/// expected-inputs file each record came from, so that a mismatch names
/// the line a user edits (comments and blank lines make line and record
/// numbers differ).
struct ExpectedFile {
    expected: Expected,
    path: String,
    lines: Vec<u64>,
}

/// Verifies the proof `bytes` against the statement `expect` names, or
/// against the statement it carries when there is none, and prints the
/// verdict.
pub(crate) fn run(
    bytes: &[u8],
    expect: Option<Expect<'_>>,
    min_security: f64,
    printing: Printing,
) -> Result<(), Failure> {
    let verdict = verify(bytes, expect, min_security);
    if expect.is_none() && verdict.is_ok() {
        eprintln!(
            "note: without --expect this shows only that the proof proves the statement it carries; compare its kind, circuit and public digests with what you expect"
        );
    }
    match verdict {
        Ok((verified, ms)) if printing.json => {
            let mut obj = report::statement(
                verified.statement(),
                verified.profile(),
                verified.zk(),
                Some(verified.security_report()),
                true,
            );
            obj.insert("shards".into(), json!(verified.shards()));
            obj.insert("verdict".into(), json!("accepted"));
            obj.insert("expected".into(), json!(expect.is_some()));
            obj.insert("verify_ms".into(), json!(ms));
            println!("{}", Value::Object(obj));
            Ok(())
        }
        Ok((verified, ms)) => {
            print_ok(&verified, ms, printing.outputs);
            Ok(())
        }
        // A rejection is a verdict too: the object names it, then the
        // error line and exit code follow as without --json.
        Err(failure) if printing.json && failure.code == 1 => {
            println!("{}", rejected(bytes, &failure.message, expect.is_some()));
            Err(failure)
        }
        Err(failure) => Err(failure),
    }
}

/// The verified statement and the milliseconds verifying took.
fn verify(bytes: &[u8], expect: Option<Expect<'_>>, min_security: f64) -> Result<(Verified, f64), Failure> {
    let start = std::time::Instant::now();
    let verified = match expect {
        Some(expect) => {
            let file = expected(bytes, expect, min_security)?;
            starling::verify(&file.expected, bytes).map_err(|e| with_line(e, &file))?
        }
        None => starling::verify_claimed_bytes(bytes, min_security)?,
    };
    Ok((verified, start.elapsed().as_secs_f64() * 1e3))
}

/// The expectation `expect` names, for the proof `bytes`. The proof's kind
/// is compared first, so that a proof of another kind is rejected as such
/// (exit 1) rather than the inputs read as this kind's.
fn expected(bytes: &[u8], expect: Expect<'_>, min_security: f64) -> Result<ExpectedFile, Failure> {
    let kind = statement_kind(expect.kind, expect.params)?;
    starling::check_kind(kind.as_ref(), bytes)?;
    let (records, lines) = files::read_inputs_with_lines(kind.as_ref(), expect.inputs)?;
    Ok(ExpectedFile {
        expected: Expected::new(kind, records)?.with_min_security_bits(min_security),
        path: files::inputs_name(expect.inputs).to_string(),
        lines,
    })
}

/// `OK ...` and, with `outputs`, the outputs a line each.
fn print_ok(verified: &Verified, ms: f64, outputs: bool) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "OK {} N={} circuit={} public={} profile={} zk={} security={:.1} bits{} verified in {ms:.2} ms",
        verified.kind().name(),
        verified.count(),
        hex(&verified.circuit_digest()),
        hex(&verified.public_digest()),
        verified.profile().name(),
        if verified.zk() { "yes" } else { "no" },
        verified.security_bits(),
        match verified.shards() {
            1 => String::new(),
            k => format!(" shards={k}"),
        },
    );
    if outputs {
        for line in verified.output_lines() {
            let _ = writeln!(out, "{line}");
        }
    }
}

/// The object of a rejected proof: the verdict and the error, then what the
/// file claims, as `inspect` reads it, when it decodes; no outputs, which a
/// rejected proof does not establish.
fn rejected(bytes: &[u8], error: &str, expected: bool) -> Value {
    let mut obj = report::claimed(bytes, false).unwrap_or_default();
    obj.insert("verdict".into(), json!("rejected"));
    obj.insert("expected".into(), json!(expected));
    obj.insert("error".into(), json!(error));
    Value::Object(obj)
}

/// A verification error, the line of the expected-inputs file added when
/// the first input that differs is named.
fn with_line(e: Error, file: &ExpectedFile) -> Failure {
    let line = match &e {
        Error::Rejected(Rejection::Mismatch(Mismatch::Input { index, .. })) => {
            file.lines.get(*index).copied()
        }
        _ => None,
    };
    let mut failure = Failure::from(e);
    if let Some(line) = line {
        failure.message = format!("{} ({}: line {line})", failure.message, file.path);
    }
    failure
}
