//! The files a command reads and writes: every read has a size bound and a
//! clear error past it (a proof, a circuit, an inputs text, stdin), and a
//! proof is written to a temporary file that is renamed into place, so a
//! failure or an interruption never leaves half a proof behind.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use starling::bundle::{BUNDLE_MAGIC, MAX_BUNDLE_BYTES};
use starling::format::{MAGIC, MAX_CIRCUIT_TEXT_BYTES, MAX_FILE_BYTES};
use starling::kind::{Membership, RING_KEY_BYTES};
use starling::{Error, Kind, Records};

use crate::{interrupt, unreadable, Failure};

/// Bytes read at a time from a file whose size is not known in advance.
const CHUNK: usize = 1 << 16;

fn open(path: &Path) -> Result<File, Failure> {
    File::open(path).map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))
}

/// Reads the rest of `file` (named `path` in messages) up to `limit` bytes
/// in all, with `start` already read; a longer file is an error, found
/// before reading past the limit. `check` sees every chunk as it arrives.
fn read_rest(
    mut file: File,
    path: &Path,
    mut out: Vec<u8>,
    limit: u64,
    what: &str,
    check: &dyn Fn(&[u8]) -> Result<(), String>,
) -> Result<Vec<u8>, Failure> {
    let too_large = || {
        unreadable(format!(
            "{} is larger than {limit} bytes, the most read for {what}",
            path.display()
        ))
    };
    if let Ok(meta) = file.metadata() {
        if meta.is_file() && meta.len() > limit {
            return Err(too_large());
        }
        // A regular file's size, within the limit, is room reserved at once
        // (growing by chunks copied a 7 MB proof several times over).
        if meta.is_file() {
            out.reserve((meta.len() as usize).saturating_sub(out.len()));
        }
    }
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = file
            .read(&mut chunk)
            .map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))?;
        if n == 0 {
            return Ok(out);
        }
        if (out.len() + n) as u64 > limit {
            return Err(too_large());
        }
        check(&chunk[..n]).map_err(|e| unreadable(format!("{}: {e}", path.display())))?;
        out.extend_from_slice(&chunk[..n]);
    }
}

/// A proof file's or a bundle's bytes. The magic is checked before the
/// rest is read, so that a stream of something else fails at once.
pub(crate) fn read_proof(path: &Path) -> Result<Vec<u8>, Failure> {
    let mut file = open(path)?;
    let mut magic = Vec::with_capacity(MAGIC.len());
    (&mut file)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut magic)
        .map_err(|e| unreadable(format!("cannot read {}: {e}", path.display())))?;
    let (limit, what) = match magic.as_slice() {
        m if m == MAGIC => (MAX_FILE_BYTES, "a proof file"),
        m if m == BUNDLE_MAGIC => (MAX_BUNDLE_BYTES, "a bundle"),
        _ => {
            return Err(unreadable(format!(
                "unreadable proof: {} is not a Starling proof file or bundle (bad magic)",
                path.display()
            )))
        }
    };
    read_rest(file, path, magic, limit, what, &|_| Ok(()))
}

/// A Bristol circuit's text. A circuit is ASCII text, so a NUL byte (of a
/// device or a binary file) stops the read at once.
pub(crate) fn read_circuit_text(path: &Path) -> Result<String, Failure> {
    let no_nul = |chunk: &[u8]| {
        if chunk.contains(&0) {
            Err("contains a NUL byte; a Bristol circuit is text".to_string())
        } else {
            Ok(())
        }
    };
    let bytes = read_rest(
        open(path)?,
        path,
        Vec::new(),
        MAX_CIRCUIT_TEXT_BYTES as u64,
        "a circuit",
        &no_nul,
    )?;
    String::from_utf8(bytes).map_err(|e| {
        unreadable(format!(
            "{}: byte {} is not UTF-8 text",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// An inputs text (`-` for stdin), read a line at a time by
/// `starling::inputs`, which bounds lines, instances and size.
fn open_inputs(path: &str) -> Result<Box<dyn BufRead>, Failure> {
    if path == "-" {
        Ok(Box::new(std::io::stdin().lock()))
    } else {
        Ok(Box::new(BufReader::new(open(Path::new(path))?)))
    }
}

/// How messages name an inputs file: its path, `stdin` for `-`.
pub(crate) fn inputs_name(path: &str) -> &str {
    if path == "-" {
        "stdin"
    } else {
        path
    }
}

/// An error about the inputs file `path`, as `FILE: line N: ...`, with its
/// exit code (a line whose signature does not verify stays 1).
fn in_inputs(path: &str, e: Error) -> Failure {
    let mut failure = Failure::from(e);
    failure.message = format!("{}: {}", inputs_name(path), failure.message);
    failure
}

/// The input records of `kind` in the inputs file `path` (`-` for stdin).
pub(crate) fn read_inputs(kind: &dyn Kind, path: &str) -> Result<Records, Failure> {
    starling::inputs::read_inputs(kind, open_inputs(path)?).map_err(|e| in_inputs(path, e))
}

/// [`read_inputs`], with each record's line number.
pub(crate) fn read_inputs_with_lines(kind: &dyn Kind, path: &str) -> Result<(Records, Vec<u64>), Failure> {
    starling::inputs::read_inputs_with_lines(kind, open_inputs(path)?).map_err(|e| in_inputs(path, e))
}

/// The public and private records of a prover's inputs file.
pub(crate) fn read_prover_inputs(kind: &dyn Kind, path: &str) -> Result<(Records, Records), Failure> {
    starling::inputs::read_prover_inputs(kind, open_inputs(path)?).map_err(|e| in_inputs(path, e))
}

/// A ring's public keys from the file `path`, one a line
/// (`starling::inputs::read_ring_keys`); errors name the file and line.
pub(crate) fn read_ring_keys(path: &Path) -> Result<Vec<[u8; RING_KEY_BYTES]>, Failure> {
    // Unbuffered: the reader has its own 1 MiB buffer.
    starling::inputs::read_ring_keys(open(path)?).map_err(|e| in_file(path, e))
}

/// A secret key from the file `path` (64 hex digits); errors name the
/// file and line.
pub(crate) fn read_secret_key(path: &Path) -> Result<[u8; RING_KEY_BYTES], Failure> {
    let reader = BufReader::new(open(path)?);
    starling::inputs::read_secret_key(reader).map_err(|e| in_file(path, e))
}

/// The bytes of a message file, signed or checked as they are, up to
/// [`MAX_FILE_BYTES`].
pub(crate) fn read_message(path: &Path) -> Result<Vec<u8>, Failure> {
    read_rest(
        open(path)?,
        path,
        Vec::new(),
        MAX_FILE_BYTES,
        "a message",
        &|_| Ok(()),
    )
}

/// An error about the file `path`, as `FILE: ...`, with its exit code.
fn in_file(path: &Path, e: Error) -> Failure {
    let mut failure = Failure::from(e);
    failure.message = format!("{}: {}", path.display(), failure.message);
    failure
}

/// A membership prover's records from its members file and the tree's
/// leaves (`-` for stdin, one of them at most): errors name the file
/// they are about, and the line. The library names a member by its line
/// and says `the tree: ` before what it could not read of the tree; what
/// else it refuses is the tree's (its shape, its leaves, its root).
pub(crate) fn read_members(
    kind: &Membership,
    root: &[u8],
    members: &str,
    tree: &str,
) -> Result<(Records, Records), Failure> {
    if members == "-" && tree == "-" {
        return Err(unreadable(
            "--members and --tree cannot both be stdin; give one as a file".into(),
        ));
    }
    starling::inputs::read_members(kind, root, open_inputs(members)?, open_inputs(tree)?).map_err(|e| {
        let mut failure = Failure::from(e);
        let message = &failure.message;
        failure.message = match message.strip_prefix("the tree: ") {
            Some(rest) => format!("{}: {rest}", inputs_name(tree)),
            None if message.starts_with("line ") || message.starts_with("no members") => {
                format!("{}: {message}", inputs_name(members))
            }
            None => format!("{}: {message}", inputs_name(tree)),
        };
        failure
    })
}

/// A membership prover's records from its members file (`-` for stdin),
/// each member with its path in a tree of `size` leaves: errors name the
/// file and the line, or `--size` for a size no tree has.
pub(crate) fn read_member_paths(
    kind: &Membership,
    root: &[u8],
    size: u64,
    members: &str,
) -> Result<(Records, Records), Failure> {
    starling::inputs::read_member_paths(kind, root, size, open_inputs(members)?).map_err(|e| {
        let mut failure = Failure::from(e);
        failure.message = match failure.message.strip_prefix("the size: ") {
            Some(rest) => format!("--size {size}: {rest}"),
            None => format!("{}: {}", inputs_name(members), failure.message),
        };
        failure
    })
}

/// The paths among inputs given as `paths` that name files, stdin's `-`
/// left out: those `--out` must not name.
pub(crate) fn given_paths<'a>(paths: &[&'a str]) -> Vec<&'a Path> {
    paths
        .iter()
        .filter(|p| **p != "-")
        .map(|p| Path::new(*p))
        .collect()
}

/// True when `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Refuses an output path that names one of the command's input files.
pub(crate) fn check_output_path(out: &Path, inputs: &[&Path]) -> Result<(), Failure> {
    match inputs.iter().find(|i| same_file(out, i)) {
        Some(i) => Err(unreadable(format!(
            "--out {} is the same file as the input {}; choose another output path",
            out.display(),
            i.display()
        ))),
        None => Ok(()),
    }
}

/// Where a proof is written: a temporary file beside `--out`, renamed over
/// it once the whole proof is in it, so that `--out` holds either its old
/// contents or the whole new file. The temporary file is created before
/// proving, so that an `--out` that cannot be written fails at once, not
/// after a proof of minutes; it is removed when the command fails, and on
/// SIGINT or SIGTERM ([`crate::interrupt`]). It has a name no one can
/// guess and is created only if nothing is there, so a link planted at
/// its name is never written through.
pub(crate) struct ProofOutput {
    path: PathBuf,
    tmp: PathBuf,
    file: File,
}

impl ProofOutput {
    /// Creates the temporary file for `path`, which must be a regular file
    /// or missing.
    pub(crate) fn create(path: &Path) -> Result<ProofOutput, Failure> {
        check_replaceable(path)?;
        let name = path
            .file_name()
            .ok_or_else(|| unreadable(format!("cannot write {}: not a file name", path.display())))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{:016x}.tmp", unpredictable()));
        let tmp = path.with_file_name(tmp_name);
        let create = || {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
        };
        let file = interrupt::step(create, Some((&tmp, path))).map_err(|e| cannot_write(path, e))?;
        Ok(ProofOutput {
            path: path.to_path_buf(),
            tmp,
            file,
        })
    }

    /// Writes `bytes` and renames the file over `--out`.
    pub(crate) fn commit(mut self, bytes: &[u8]) -> Result<(), Failure> {
        let written = self.file.write_all(bytes).and_then(|()| self.file.sync_all());
        written.map_err(|e| cannot_write(&self.path, e))?;
        // Checked again: the file may have been replaced while proving.
        check_replaceable(&self.path)?;
        interrupt::step(|| std::fs::rename(&self.tmp, &self.path), None)
            .map_err(|e| cannot_write(&self.path, e))
    }
}

impl Drop for ProofOutput {
    /// Removes the temporary file unless it was renamed into place.
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
        interrupt::forget();
    }
}

fn cannot_write(path: &Path, e: std::io::Error) -> Failure {
    unreadable(format!("cannot write {}: {e}", path.display()))
}

/// `path` must be a regular file or missing: a rename would replace a
/// device, a FIFO or a symlink (as root, deleting a device node).
fn check_replaceable(path: &Path) -> Result<(), Failure> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => Err(unreadable(format!(
            "--out {} is not a regular file (a device, FIFO, link or folder); write the proof to a file",
            path.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(cannot_write(path, e)),
    }
}

/// 64 bits no other process can predict: the standard library seeds each
/// `RandomState` from the operating system's randomness.
fn unpredictable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.finish()
}
