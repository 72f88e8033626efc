//! The WebAssembly half of the npm package `starling-verify`: one function,
//! [`verify`], that checks a proof as `starling verify` does, with or
//! without an expected statement. It takes and returns only plain values;
//! the JavaScript half (`core.js`) checks the caller's arguments, names the
//! errors and shapes the result.

use std::cell::RefCell;
use std::sync::Arc;

use starling_verifier::inputs::parse_inputs;
use starling_verifier::kind::{named, KindParams};
use starling_verifier::{check_kind, Error, Expected, Portable, StatementCircuit, Verified};
use wasm_bindgen::prelude::*;

/// What one call of [`verify`] found: on success the verified statement's
/// fields, otherwise `error` (`StarlingRejected`, `StarlingUnreadable` or
/// `Error`) and `message`, the words the command line prints after
/// `error: `.
#[wasm_bindgen(getter_with_clone)]
#[derive(Default)]
pub struct Outcome {
    /// The error's name; `None` when the proof verified.
    pub error: Option<String>,
    /// What failed, as the command line says it.
    pub message: String,
    /// The kind's name as the command line prints it (`digest --hash sha256`).
    pub kind: String,
    /// N, in the kind's unit (a number: exact up to 2^53).
    pub count: f64,
    /// The digest of the kind's instance circuit, in hex.
    pub circuit: String,
    /// The digest of every public value the proof binds, in hex.
    #[wasm_bindgen(js_name = publicDigest)]
    pub public_digest: String,
    /// Whether the proof is zero-knowledge.
    pub zk: bool,
    /// Provable security of the proof, in bits.
    #[wasm_bindgen(js_name = securityBits)]
    pub security_bits: f64,
    /// The outputs, one line each, as `--print-outputs` prints them.
    pub outputs: Vec<String>,
    /// How many shard proofs the file holds: 1 for a proof, K for a bundle
    /// of K shards (`starling verify` prints `shards=K` for a bundle); a
    /// number, as `count` is.
    pub shards: f64,
}

/// The expected statement as the JavaScript half passes it: `kind` and
/// `inputs` both given or both absent (checked there), a parameter given
/// only where the caller gave it.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn verify(
    proof: &[u8],
    kind: Option<String>,
    inputs: Option<String>,
    bristol: Option<String>,
    hash: Option<String>,
    scheme: Option<String>,
    ctx: Option<String>,
    interface: Option<String>,
    max_len: Option<String>,
    max_leaf_len: Option<String>,
    min_security_bits: f64,
) -> Outcome {
    let result = match (kind, inputs) {
        (Some(kind), Some(inputs)) => {
            let params = Params {
                bristol: bristol.as_deref(),
                hash: hash.as_deref(),
                scheme: scheme.as_deref(),
                ctx: ctx.as_deref(),
                interface: interface.as_deref(),
                max_len: max_len.as_deref(),
                max_leaf_len: max_leaf_len.as_deref(),
            };
            verify_expected(proof, &kind, &inputs, &params, min_security_bits)
        }
        _ => starling_verifier::verify_claimed_bytes_with(proof, min_security_bits, &Portable),
    };
    match result {
        Ok(verified) => accepted(&verified),
        Err(e) => failed(e),
    }
}

/// The kind parameters as given, by the command line's names.
struct Params<'a> {
    bristol: Option<&'a str>,
    hash: Option<&'a str>,
    scheme: Option<&'a str>,
    ctx: Option<&'a str>,
    interface: Option<&'a str>,
    max_len: Option<&'a str>,
    max_leaf_len: Option<&'a str>,
}

/// `starling verify PROOF --expect INPUTS --kind KIND ...`: the proof's kind
/// is compared first, so that a proof of another kind is rejected as such
/// rather than the inputs read as this kind's.
fn verify_expected(
    proof: &[u8],
    kind: &str,
    inputs: &str,
    params: &Params<'_>,
    min_security_bits: f64,
) -> Result<Verified, Error> {
    let compile = |text: &str| -> Result<Arc<StatementCircuit>, Error> {
        StatementCircuit::from_bristol(text).map_err(|e| Error::Input(format!("the circuit: {e}")))
    };
    let compile_given = params.bristol.map(|text| move || compile(text));
    let kind = named(
        kind,
        &KindParams {
            bristol: compile_given.as_ref().map(|f| f as &dyn Fn() -> _),
            hash: params.hash,
            scheme: params.scheme,
            ctx: params.ctx,
            interface: params.interface,
            max_len: params.max_len,
            max_leaf_len: params.max_leaf_len,
        },
    )?;
    check_kind(kind.as_ref(), proof)?;
    let records = parse_inputs(kind.as_ref(), inputs)?;
    let expected = Expected::new(kind, records)?.with_min_security_bits(min_security_bits);
    starling_verifier::verify(&expected, proof)
}

fn accepted(v: &Verified) -> Outcome {
    Outcome {
        kind: v.kind().name(),
        count: v.count() as f64,
        circuit: hex(&v.circuit_digest()),
        public_digest: hex(&v.public_digest()),
        zk: v.zk(),
        security_bits: v.security_bits(),
        outputs: v.output_lines(),
        shards: v.shards() as f64,
        ..Outcome::default()
    }
}

/// The error's name split as the command line's exit codes split it: 1 is
/// `StarlingRejected`, 2 `StarlingUnreadable`, 3 (a bug) plain `Error`.
fn failed(e: Error) -> Outcome {
    let name = match e {
        Error::Rejected(_) | Error::False(_) => "StarlingRejected",
        Error::Input(_) | Error::Malformed(_) => "StarlingUnreadable",
        Error::Internal(_) => "Error",
    };
    Outcome {
        error: Some(name.into()),
        message: e.to_string(),
        ..Outcome::default()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

thread_local! {
    /// The message of the last panic, for [`take_panic`].
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps each panic's message and place for [`take_panic`]: a panic aborts
/// the WebAssembly call (a `RuntimeError: unreachable` in JavaScript), which
/// says nothing of where.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = Error::from_panic(info).to_string();
        PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

/// The last panic's message, as the command line prints it, once.
#[wasm_bindgen(js_name = takePanic)]
pub fn take_panic() -> Option<String> {
    PANIC.with(|p| p.borrow_mut().take())
}
