//! `starling ring`: linkable ring signatures (`docs/ring.md`). A secret key
//! is 32 random bytes from the operating system in a file only its owner
//! reads; a signature is a proof file of the `ring` kind, zero-knowledge as
//! that kind requires, made by the same code as every proof
//! ([`crate::write_private_proof`]) from the records
//! `starling::ring::statement` builds, and checked by `starling::verify`
//! against the record a verifier builds from the ring, the context and the
//! message. Only the key image K is taken from the signature: it is what
//! `verify` reports.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use starling::kind::{Ring, RING_KEY_BYTES};
use starling::{Error, Expected, Kind, Mismatch, ProofFile, Rejection};

use crate::args::{HashArg, OutputArgs, RingWhat};
use crate::{files, hex, kind_named, set_threads, unreadable, write_private_proof, Failure, Named};

/// Runs `starling ring ...`.
pub(crate) fn run(what: RingWhat) -> Result<(), Failure> {
    match what {
        RingWhat::Keygen { hash, out } => keygen(hash, &out),
        RingWhat::Sign {
            hash,
            ring,
            secret,
            context,
            message,
            output,
        } => sign(hash, &ring, &secret, &context, &message, &output),
        RingWhat::Verify {
            signature,
            ring,
            root,
            context,
            message,
        } => verify(&signature, Members::from_flags(ring, root)?, &context, &message),
    }
}

/// The ring kind for `--hash`: the library refuses every hash but SHA-256
/// in its own words.
fn ring_kind(hash: HashArg) -> Result<Arc<dyn Kind>, Failure> {
    let named = Named {
        hash: Some(hash),
        ..Named::default()
    };
    kind_named("ring", &named)
}

/// `ring keygen`: a fresh secret key into a new file that only its owner
/// can read, and its public key on stdout.
fn keygen(hash: HashArg, out: &Path) -> Result<(), Failure> {
    ring_kind(hash)?;
    let mut sk = [0u8; RING_KEY_BYTES];
    getrandom::fill(&mut sk).map_err(|e| {
        Failure::from(Error::Internal(format!(
            "the operating system's random generator: {e}"
        )))
    })?;
    write_new_secret(out, format!("{}\n", hex(&sk)).as_bytes())?;
    println!("{}", hex(&starling::ring::keygen_from(sk).1));
    Ok(())
}

/// Writes `bytes` to `path`, which must not exist yet, readable and
/// writable by its owner alone: a key is never written over another (which
/// would lose it) nor through a link planted at its name.
fn write_new_secret(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::AlreadyExists {
            "it exists already, and a secret key is never written over (move it away, or choose another --out)"
                .to_string()
        } else {
            e.to_string()
        };
        unreadable(format!("cannot write {}: {why}", path.display()))
    })?;
    if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
        let _ = std::fs::remove_file(path);
        return Err(unreadable(format!("cannot write {}: {e}", path.display())));
    }
    Ok(())
}

/// `ring sign`: the signature of `message` in `context` by the key in
/// `secret`, a member of the ring in `ring`.
fn sign(
    hash: HashArg,
    ring: &Path,
    secret: &Path,
    context: &str,
    message: &Path,
    output: &OutputArgs,
) -> Result<(), Failure> {
    set_threads(output.threads)?;
    let kind = ring_kind(hash)?;
    files::check_output_path(&output.out, &[ring, secret, message])?;
    let pks = files::read_ring_keys(ring)?;
    let sk = files::read_secret_key(secret)?;
    let context = read_context(context)?;
    let message = files::read_message(message)?;
    let (public, private) =
        starling::ring::statement(&pks, &sk, &context, &message).map_err(|e| match e {
            Error::False(m) => Failure {
                code: 1,
                message: format!("{}: {m} {}", secret.display(), ring.display()),
            },
            Error::Input(m) => unreadable(format!("--context: {m}")),
            e => e.into(),
        })?;
    write_private_proof(kind, public, private, output)
}

/// The ring a verifier checks a signature against.
enum Members {
    /// Its public keys: the root and size are computed from them.
    Keys(PathBuf),
    /// Its root, in hex; the size is the signature's.
    Root(String),
}

impl Members {
    /// `--ring` or `--root` (clap takes exactly one).
    fn from_flags(ring: Option<PathBuf>, root: Option<String>) -> Result<Members, Failure> {
        match (ring, root) {
            (Some(path), None) => Ok(Members::Keys(path)),
            (None, Some(root)) => Ok(Members::Root(root)),
            _ => Err(unreadable("give either --ring PKS or --root HEX".into())),
        }
    }

    /// The ring's root and size (padded leaves); `claimed` is the size the
    /// signature names, which a root alone does not fix.
    fn root_and_size(&self, claimed: u64) -> Result<(Vec<u8>, u64), Failure> {
        match self {
            Members::Keys(path) => {
                let pks = files::read_ring_keys(path)?;
                let root = starling::ring::root(&pks)?;
                Ok((root.to_vec(), starling::ring::size(&pks)?))
            }
            Members::Root(text) => {
                let root = starling::inputs::hex_field(text, RING_KEY_BYTES, "--root").map_err(unreadable)?;
                Ok((root, claimed))
            }
        }
    }
}

/// `ring verify`: checks the signature against the ring, the context and
/// the message, and prints its key image.
fn verify(signature: &Path, members: Members, context: &str, message: &Path) -> Result<(), Failure> {
    let kind = starling::kind::ring();
    let bytes = files::read_proof(signature)?;
    starling::check_kind(kind.as_ref(), &bytes)?;
    let file = ProofFile::from_bytes(&bytes)?;
    let claimed = file.statement.inputs().get(0);
    let field = |name: &str| {
        kind.input_fields(claimed)
            .into_iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, range)| claimed.get(range))
            .ok_or_else(|| Failure::from(Error::Malformed(format!("the signature has no {name}"))))
    };
    let size = u64::from_le_bytes(
        field("size")?
            .try_into()
            .map_err(|_| Failure::from(Error::Malformed("the ring's size is not 8 bytes".into())))?,
    );
    let key_image = field("key image")?.to_vec();
    let (root, size) = members.root_and_size(size)?;
    let context = read_context(context)?;
    let digest = starling::ring::message_digest(&files::read_message(message)?);
    let record = Ring::public_record(&root, size, &digest, &key_image, &context);
    let expected = Expected::new(kind, [record.as_slice()].into_iter().collect())?;
    let start = Instant::now();
    let verified = starling::verify(&expected, &bytes).map_err(signature_rejected)?;
    eprintln!(
        "OK ring signature by a member of the ring {} ({size} leaves), zk={}, security={:.1} bits, verified in {:.2} ms; key image:",
        hex(&root),
        if verified.zk() { "yes" } else { "no" },
        verified.security_bits(),
        start.elapsed().as_secs_f64() * 1e3
    );
    println!("{}", hex(&key_image));
    Ok(())
}

/// The context from `--context`: hex, `-` for the empty one.
fn read_context(text: &str) -> Result<Vec<u8>, Failure> {
    starling::inputs::hex_bytes(text, "--context").map_err(unreadable)
}

/// A rejection of a signature, in the words of what differs: the ring, the
/// message or the context the verifier gave is not the one it was made
/// for.
fn signature_rejected(e: Error) -> Failure {
    let other = match &e {
        Error::Rejected(Rejection::Mismatch(Mismatch::Input { field, .. })) => match field.as_str() {
            "root" | "size" => "ring",
            "message digest" => "message",
            "context length" | "context" => "context",
            _ => return e.into(),
        },
        _ => return e.into(),
    };
    Failure {
        code: 1,
        message: format!("signature rejected: it was made for another {other}"),
    }
}
