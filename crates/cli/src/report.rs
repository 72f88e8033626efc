//! The JSON objects `verify --json` and `inspect --json` print: one object
//! on one line, snake_case keys, as `bench --json` prints, so that scripts
//! read fields instead of parsing the text lines.

use serde_json::{json, Map, Value};
use starling::{Profile, ProofFile, SecurityReport, Statement};

use crate::{hex, Failure};

/// What a proof says of itself: its statement (kind, N, instances,
/// circuit and public digests), profile, whether it is zero-knowledge
/// (`zk`) and security, each error term
/// as `log2` of its probability (`null` where it is zero, which JSON
/// cannot write as minus infinity), and with `outputs` the lines
/// `--print-outputs` prints.
pub(crate) fn statement(
    statement: &Statement,
    profile: Profile,
    zk: bool,
    security: Option<&SecurityReport>,
    outputs: bool,
) -> Map<String, Value> {
    let mut obj = Map::new();
    obj.insert("kind".into(), json!(statement.kind().name()));
    obj.insert("count".into(), json!(statement.count()));
    obj.insert("instances".into(), json!(statement.instances()));
    obj.insert("circuit".into(), json!(hex(&statement.kind().circuit().digest())));
    obj.insert("public_digest".into(), json!(hex(&statement.public_digest())));
    obj.insert("profile".into(), json!(profile.name()));
    obj.insert("zk".into(), json!(zk));
    if let Some(report) = security {
        obj.insert("security_bits".into(), json!(report.bits()));
        let terms: Map<String, Value> = report
            .terms()
            .iter()
            .map(|t| (t.name.clone(), json!(t.log2_error)))
            .collect();
        obj.insert("security_terms".into(), Value::Object(terms));
    }
    if outputs {
        obj.insert("outputs".into(), json!(statement.output_lines()));
    }
    obj
}

/// `inspect --json`: what the file claims ([`statement`]), its size, and
/// `"verified": false`, since nothing was checked.
pub(crate) fn inspect(bytes: &[u8]) -> Result<Value, Failure> {
    let file = ProofFile::from_bytes(bytes)?;
    let security = starling::security_report(&file).ok();
    let mut obj = statement(&file.statement, file.profile, file.zk, security.as_ref(), true);
    obj.insert("verified".into(), json!(false));
    obj.insert("file_bytes".into(), json!(bytes.len()));
    Ok(Value::Object(obj))
}
