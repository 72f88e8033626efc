//! The JSON objects `verify --json` and `inspect --json` print: one object
//! on one line, snake_case keys, as `bench --json` prints, so that scripts
//! read fields instead of parsing the text lines.

use serde_json::{json, Map, Value};
use starling::bundle::{self, Bundle};
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

/// What a proof file or a bundle claims ([`statement`], the outputs with
/// `outputs`), read without verifying it. A bundle's statement is its
/// shards' join, and it adds `shards`: each shard's `first` unit of N,
/// `count`, `public_digest`, `instances` and `bytes`.
pub(crate) fn claimed(bytes: &[u8], outputs: bool) -> Result<Map<String, Value>, Failure> {
    if !bundle::is_bundle(bytes) {
        let file = ProofFile::from_bytes(bytes)?;
        let security = starling::security_report(&file).ok();
        return Ok(statement(
            &file.statement,
            file.profile,
            file.zk,
            security.as_ref(),
            outputs,
        ));
    }
    let b = Bundle::decode(bytes, None)?;
    let joined = b.joined()?;
    let mut obj = statement(
        &joined,
        b.profile,
        b.zk,
        b.security_report().ok().as_ref(),
        outputs,
    );
    let shards: Vec<Value> = b
        .entries
        .iter()
        .zip(&b.shards)
        .zip(&b.shard_bytes)
        .map(|((e, file), size)| {
            json!({
                "first": e.first,
                "count": e.count,
                "public_digest": hex(&e.public_digest),
                "instances": file.statement.instances(),
                "bytes": size,
            })
        })
        .collect();
    obj.insert("shards".into(), Value::Array(shards));
    Ok(obj)
}

/// `inspect --json`: what the file claims ([`claimed`]), its size, and
/// `"verified": false`, since nothing was checked.
pub(crate) fn inspect(bytes: &[u8]) -> Result<Value, Failure> {
    let mut obj = claimed(bytes, true)?;
    obj.insert("verified".into(), json!(false));
    obj.insert("file_bytes".into(), json!(bytes.len()));
    Ok(Value::Object(obj))
}
