//! Statement kinds by the names users type. The command line (`--kind` and
//! its parameter flags) and the Python package (`kind=` and its keywords)
//! both build their kinds here, so they accept the same names and
//! parameters and refuse the same combinations in the same words. Messages
//! name a parameter as the command line's flag (`--hash`), which is also
//! the Python keyword without its dashes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use alloc::sync::Arc;

use super::{Batch, Interface, Kind, Scheme, SignatureScheme, Signatures, SlhDsa};
use crate::circuits::{Builtin, StatementCircuit};
use crate::hashes::Hash;
use crate::Error;

/// Every kind's name, in the order the command line lists them.
pub const KIND_NAMES: [&str; 9] = [
    "sha256",
    "sha512",
    "blake3",
    "keccak-f1600",
    "circuit",
    "digest",
    "chain",
    "merkle-root",
    "signatures",
];

/// A kind's parameters as the user gave them; `None` where not given.
#[derive(Clone, Copy, Default)]
pub struct KindParams<'a> {
    /// A `circuit` statement's circuit. It is compiled only once the kind is
    /// known to take one, so that a circuit given to another kind is
    /// refused as such before its file is read.
    pub bristol: Option<&'a dyn Fn() -> Result<Arc<StatementCircuit>, Error>>,
    /// The hash of a `digest`, `chain` or `merkle-root` statement, by name.
    pub hash: Option<&'a str>,
    /// A `merkle-root` statement's tree (`plain`, `rfc6962`, `bitcoin`) or a
    /// `signatures` statement's scheme (`lms-sha256-m32-h10-w4`, ...).
    pub scheme: Option<&'a str>,
    /// SLH-DSA's context string, in hex (pure interface only).
    pub ctx: Option<&'a str>,
    /// SLH-DSA's interface: `pure` or `internal`.
    pub interface: Option<&'a str>,
}

/// The statement kind `name` with its parameters; a parameter the kind does
/// not take, or a missing or unknown one, is an [`Error::Input`].
pub fn named(name: &str, params: &KindParams<'_>) -> Result<Arc<dyn Kind>, Error> {
    let name = KIND_NAMES.into_iter().find(|k| *k == name).ok_or_else(|| {
        input(format!(
            "{name:?} is not a statement kind ({})",
            KIND_NAMES.join(", ")
        ))
    })?;
    let hashed = matches!(name, "digest" | "chain" | "merkle-root");
    let signed = name == "signatures";
    for (flag, given, taken) in [
        ("bristol", params.bristol.is_some(), name == "circuit"),
        ("hash", params.hash.is_some(), hashed),
        ("scheme", params.scheme.is_some(), name == "merkle-root" || signed),
        ("ctx", params.ctx.is_some(), signed),
        ("interface", params.interface.is_some(), signed),
    ] {
        if given && !taken {
            return Err(input(format!("--{flag} is not a parameter of {name} statements")));
        }
    }
    let hash = || -> Result<Hash, Error> {
        let hash = params
            .hash
            .ok_or_else(|| input("digest, chain and merkle-root statements need --hash".into()))?;
        Hash::from_name(hash).ok_or_else(|| {
            let names: Vec<&str> = Hash::ALL.iter().map(|h| h.name()).collect();
            input(format!("--hash: {hash:?} is not {}", names.join(", ")))
        })
    };
    Ok(match name {
        "sha256" => Arc::new(Batch::builtin(Builtin::Sha256)),
        "sha512" => Arc::new(Batch::builtin(Builtin::Sha512)),
        "blake3" => Arc::new(Batch::builtin(Builtin::Blake3)),
        "keccak-f1600" => Arc::new(Batch::builtin(Builtin::KeccakF1600)),
        "circuit" => {
            let compile = params
                .bristol
                .ok_or_else(|| input("a circuit statement needs --bristol CIRCUIT".into()))?;
            Arc::new(Batch::of(compile()?))
        }
        "digest" => super::digest(hash()?),
        "chain" => super::chain(hash()?),
        "merkle-root" => {
            let scheme = params
                .scheme
                .ok_or_else(|| input("merkle-root statements need --scheme".into()))?;
            let scheme = Scheme::ALL
                .into_iter()
                .find(|s| s.name() == scheme)
                .ok_or_else(|| input(format!("--scheme: {scheme:?} is not plain, rfc6962 or bitcoin")))?;
            merkle_root(hash()?, scheme)?
        }
        _ => {
            let scheme = params
                .scheme
                .ok_or_else(|| input("signatures statements need --scheme".into()))?;
            Arc::new(named_signatures(scheme, params.ctx, params.interface)?)
        }
    })
}

/// A Merkle root kind, or why the scheme does not take the hash.
fn merkle_root(hash: Hash, scheme: Scheme) -> Result<Arc<dyn Kind>, Error> {
    super::merkle_root(hash, scheme).ok_or_else(|| {
        input(format!(
            "{} trees are not built with {}",
            scheme.name(),
            hash.name()
        ))
    })
}

/// A signatures kind from its scheme's name and, for SLH-DSA, the context
/// (hex) and interface: what [`named`] makes of `signatures`, as the
/// concrete type (for its random batches and native verifier).
pub fn named_signatures(
    scheme: &str,
    ctx: Option<&str>,
    interface: Option<&str>,
) -> Result<Signatures, Error> {
    let scheme = SignatureScheme::from_name(scheme).map_err(|e| input(format!("--scheme: {e}")))?;
    let scheme = match scheme {
        SignatureScheme::SlhDsa(slh_dsa) => {
            let ctx = match ctx {
                Some(text) => decode_hex(text).map_err(|e| input(format!("--ctx: {e}")))?,
                None => Vec::new(),
            };
            let interface = match interface {
                Some("internal") if !ctx.is_empty() => {
                    return Err(input("--ctx is a parameter of the pure interface only".into()))
                }
                Some("internal") => Interface::Internal,
                Some("pure") | None => Interface::Pure(ctx),
                Some(other) => return Err(input(format!("--interface: {other:?} is not pure or internal"))),
            };
            SignatureScheme::SlhDsa(
                SlhDsa::new(slh_dsa.set(), interface).map_err(|e| input(format!("--ctx: {e}")))?,
            )
        }
        other if ctx.is_some() || interface.is_some() => {
            return Err(input(format!(
                "--ctx and --interface are parameters of SLH-DSA, not of {}",
                other.name()
            )))
        }
        other => other,
    };
    Ok(Signatures::new(scheme))
}

/// Bytes from hex digits (an even number of them).
fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    if text.len() % 2 == 1 {
        return Err("an odd number of hex digits".into());
    }
    hex::decode(text).map_err(|_| format!("{text:?} is not hex"))
}

fn input(message: String) -> Error {
    Error::Input(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params<'a>(hash: Option<&'a str>, scheme: Option<&'a str>) -> KindParams<'a> {
        KindParams {
            hash,
            scheme,
            ..KindParams::default()
        }
    }

    #[test]
    fn names_make_the_kinds_they_name() {
        for (name, hash, scheme, kind) in [
            ("sha256", None, None, "sha256"),
            ("keccak-f1600", None, None, "keccak-f1600"),
            ("digest", Some("sha3-256"), None, "digest --hash sha3-256"),
            ("chain", Some("blake3"), None, "chain --hash blake3"),
            (
                "merkle-root",
                Some("sha256"),
                Some("rfc6962"),
                "merkle-root --hash sha256 --scheme rfc6962",
            ),
        ] {
            let made = named(name, &params(hash, scheme)).unwrap();
            assert_eq!(made.name(), kind);
        }
        let circuit =
            || StatementCircuit::from_bristol("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n").map_err(Error::Input);
        let with_circuit = KindParams {
            bristol: Some(&circuit),
            ..KindParams::default()
        };
        assert!(named("circuit", &with_circuit).is_ok());
    }

    #[test]
    fn wrong_parameters_are_refused_by_flag() {
        for (name, hash, scheme, message) in [
            (
                "sha256",
                Some("sha256"),
                None,
                "--hash is not a parameter of sha256 statements",
            ),
            (
                "chain",
                Some("sha256"),
                Some("plain"),
                "--scheme is not a parameter of chain statements",
            ),
            ("digest", None, None, "need --hash"),
            ("digest", Some("md5"), None, "--hash: \"md5\" is not"),
            ("merkle-root", Some("sha256"), None, "need --scheme"),
            (
                "merkle-root",
                Some("sha512"),
                Some("bitcoin"),
                "bitcoin trees are not built with sha512",
            ),
            ("sha-256", None, None, "is not a statement kind"),
            ("signatures", None, Some("lms-nope"), "--scheme:"),
        ] {
            match named(name, &params(hash, scheme)) {
                Err(Error::Input(m)) => assert!(m.contains(message), "{name}: {m}"),
                other => panic!("{name}: {:?}", other.map(|k| k.name())),
            }
        }
    }
}
