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

use super::{
    Batch, Interface, Kind, Membership, Scheme, SignatureScheme, Signatures, SlhDsa, DEFAULT_MAX_LEAF_LEN,
    DEFAULT_PREIMAGE_MAX_LEN,
};
use crate::circuits::{Builtin, StatementCircuit};
use crate::hashes::Hash;
use crate::inputs::decimal;
use crate::Error;

/// Every kind's name, in the order the command line lists them.
pub const KIND_NAMES: [&str; 12] = [
    "sha256",
    "sha512",
    "blake3",
    "keccak-f1600",
    "circuit",
    "digest",
    "chain",
    "merkle-root",
    "signatures",
    "preimage",
    "membership",
    "ring",
];

/// A kind's parameters as the user gave them; `None` where not given.
#[derive(Clone, Copy, Default)]
pub struct KindParams<'a> {
    /// A `circuit` statement's circuit. It is compiled only once the kind is
    /// known to take one, so that a circuit given to another kind is
    /// refused as such before its file is read.
    pub bristol: Option<&'a dyn Fn() -> Result<Arc<StatementCircuit>, Error>>,
    /// The hash of a `digest`, `chain`, `merkle-root`, `preimage`,
    /// `membership` or `ring` statement, by name (a ring's is `sha256`, the
    /// default).
    pub hash: Option<&'a str>,
    /// A `merkle-root` or `membership` statement's tree (`plain`,
    /// `rfc6962`, `bitcoin`) or a `signatures` statement's scheme
    /// (`lms-sha256-m32-h10-w4`, ...).
    pub scheme: Option<&'a str>,
    /// A `preimage` statement's longest message, in decimal (default
    /// [`DEFAULT_PREIMAGE_MAX_LEN`]).
    pub max_len: Option<&'a str>,
    /// An RFC 6962 `membership` statement's longest leaf, in decimal
    /// (default [`DEFAULT_MAX_LEAF_LEN`]).
    pub max_leaf_len: Option<&'a str>,
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
    let hashed = matches!(
        name,
        "digest" | "chain" | "merkle-root" | "preimage" | "membership" | "ring"
    );
    let signed = name == "signatures";
    let treed = matches!(name, "merkle-root" | "membership");
    for (flag, given, taken) in [
        ("bristol", params.bristol.is_some(), name == "circuit"),
        ("hash", params.hash.is_some(), hashed),
        ("scheme", params.scheme.is_some(), treed || signed),
        ("ctx", params.ctx.is_some(), signed),
        ("interface", params.interface.is_some(), signed),
        ("max-len", params.max_len.is_some(), name == "preimage"),
        (
            "max-leaf-len",
            params.max_leaf_len.is_some(),
            name == "membership",
        ),
    ] {
        if given && !taken {
            return Err(input(format!("--{flag} is not a parameter of {name} statements")));
        }
    }
    let hash = || -> Result<Hash, Error> {
        let hash = params
            .hash
            .ok_or_else(|| input(format!("{name} statements need --hash")))?;
        Hash::from_name(hash).ok_or_else(|| {
            let names: Vec<&str> = Hash::ALL.iter().map(|h| h.name()).collect();
            input(format!("--hash: {hash:?} is not {}", names.join(", ")))
        })
    };
    let scheme = || -> Result<Scheme, Error> {
        let scheme = params
            .scheme
            .ok_or_else(|| input(format!("{name} statements need --scheme")))?;
        Scheme::ALL
            .into_iter()
            .find(|s| s.name() == scheme)
            .ok_or_else(|| input(format!("--scheme: {scheme:?} is not plain, rfc6962 or bitcoin")))
    };
    let length = |flag: &str, given: Option<&str>, default: usize| -> Result<usize, Error> {
        given.map_or(Ok(default), |text| {
            decimal(text, "the length").map_err(|e| input(format!("--{flag}: {e}")))
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
        "merkle-root" => merkle_root(hash()?, scheme()?)?,
        "preimage" => {
            let max_len = length("max-len", params.max_len, DEFAULT_PREIMAGE_MAX_LEN)?;
            super::preimage(hash()?, max_len).map_err(input)?
        }
        "membership" => {
            let (hash, scheme) = (hash()?, scheme()?);
            match params.max_leaf_len {
                None => super::membership(hash, scheme).map_err(input)?,
                Some(_) if (hash, scheme) != (Hash::Sha256, Scheme::Rfc6962) => {
                    return Err(input(
                        "--max-leaf-len is a parameter of rfc6962 membership statements only".into(),
                    ))
                }
                given => {
                    let max = length("max-leaf-len", given, DEFAULT_MAX_LEAF_LEN)?;
                    Arc::new(Membership::rfc6962(max).map_err(input)?)
                }
            }
        }
        "ring" => match params.hash {
            None | Some("sha256") => super::ring(),
            Some(other) => {
                return Err(input(format!(
                    "--hash: ring signatures are built with sha256 only, not {other:?}"
                )))
            }
        },
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
        for (name, params, kind) in [
            (
                "preimage",
                KindParams {
                    hash: Some("sha3-256"),
                    max_len: Some("100"),
                    ..KindParams::default()
                },
                "preimage --hash sha3-256 --max-len 100",
            ),
            (
                "preimage",
                params(Some("sha256"), None),
                "preimage --hash sha256 --max-len 64",
            ),
            (
                "membership",
                params(Some("keccak-256"), Some("plain")),
                "membership --hash keccak-256 --scheme plain",
            ),
            (
                "membership",
                KindParams {
                    max_leaf_len: Some("80"),
                    ..params(Some("sha256"), Some("rfc6962"))
                },
                "membership --hash sha256 --scheme rfc6962 --max-leaf-len 80",
            ),
            ("ring", params(None, None), "ring --hash sha256"),
            ("ring", params(Some("sha256"), None), "ring --hash sha256"),
        ] {
            let made = named(name, &params).unwrap();
            assert_eq!(made.name(), kind);
            assert!(made.requires_zero_knowledge(), "{kind}");
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
            ("preimage", None, None, "preimage statements need --hash"),
            (
                "membership",
                Some("sha256"),
                None,
                "membership statements need --scheme",
            ),
            (
                "membership",
                Some("sha256"),
                Some("bitcoin"),
                "membership statements of bitcoin trees do not take sha256",
            ),
            (
                "ring",
                Some("sha512"),
                None,
                "ring signatures are built with sha256 only",
            ),
            (
                "ring",
                None,
                Some("plain"),
                "--scheme is not a parameter of ring statements",
            ),
        ] {
            match named(name, &params(hash, scheme)) {
                Err(Error::Input(m)) => assert!(m.contains(message), "{name}: {m}"),
                other => panic!("{name}: {:?}", other.map(|k| k.name())),
            }
        }
        for (name, given, message) in [
            (
                "digest",
                KindParams {
                    max_len: Some("10"),
                    ..params(Some("sha256"), None)
                },
                "--max-len is not a parameter of digest statements",
            ),
            (
                "preimage",
                KindParams {
                    max_len: Some("ten"),
                    ..params(Some("sha256"), None)
                },
                "--max-len: the length `ten` is not a decimal number",
            ),
            (
                "preimage",
                KindParams {
                    max_len: Some("2000"),
                    ..params(Some("blake3"), None)
                },
                "--max-len 2000 is more than the 1024 bytes",
            ),
            (
                "membership",
                KindParams {
                    max_leaf_len: Some("80"),
                    ..params(Some("sha256"), Some("plain"))
                },
                "--max-leaf-len is a parameter of rfc6962 membership statements only",
            ),
        ] {
            match named(name, &given) {
                Err(Error::Input(m)) => assert!(m.contains(message), "{name}: {m}"),
                other => panic!("{name}: {:?}", other.map(|k| k.name())),
            }
        }
    }
}
