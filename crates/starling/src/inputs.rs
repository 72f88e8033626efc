//! The text form of a statement's public data, read from files and streams:
//! `starling-verifier`'s parser (re-exported here) over anything that is
//! [`BufRead`], a prover's lines with private fields, a membership
//! prover's members with the tree they are in, and a ring signature's
//! public keys and secret key (`docs/ring.md`).

use std::io::{BufRead, Read};

use starling_verifier::inputs;
pub use starling_verifier::inputs::*;

use crate::kind::{prover_of, Kind, Membership, MerkleRoot, PrivateInputError, RING_KEY_BYTES};
use crate::{Error, Records};

/// A [`BufRead`] as the parser's [`LineSource`].
struct Lines<R>(R);

impl<R: BufRead> LineSource for Lines<R> {
    fn read_line(&mut self, buf: &mut Vec<u8>, limit: usize) -> Result<usize, String> {
        self.0
            .by_ref()
            .take(limit as u64)
            .read_until(b'\n', buf)
            .map_err(|e| format!("cannot read: {e}"))
    }
}

/// Reads an inputs text for `kind` from `reader` a line at a time (a file,
/// stdin), as [`inputs::read_inputs`] does: lines past [`MAX_LINE_BYTES`],
/// texts past [`MAX_INPUT_BYTES`] and more than `MAX_INSTANCES` records are
/// errors as soon as they are seen, so memory stays proportional to the
/// records read.
pub fn read_inputs(kind: &dyn Kind, reader: impl BufRead) -> Result<Records, Error> {
    inputs::read_inputs(kind, Lines(reader))
}

/// [`read_inputs`], with the line number of every record, in order: what a
/// message about a record names for its reader, since comments and blank
/// lines make line and record numbers differ.
pub fn read_inputs_with_lines(kind: &dyn Kind, reader: impl BufRead) -> Result<(Records, Vec<u64>), Error> {
    inputs::read_inputs_with_lines(kind, Lines(reader))
}

/// Reads a prover's inputs text for `kind` as [`read_inputs`] does: the
/// public records and, for a kind that [`Kind::has_private_inputs`] (a
/// signature batch's `PK MSG SIG`), the private ones, one each a line. A
/// line whose statement is false (a signature that does not verify) is
/// [`Error::False`], naming the line.
pub fn read_prover_inputs(kind: &dyn Kind, reader: impl BufRead) -> Result<(Records, Records), Error> {
    if !kind.has_private_inputs() {
        return Ok((read_inputs(kind, reader)?, Records::new()));
    }
    let (mut records, mut private) = (Records::new(), Records::new());
    read_lines(Lines(reader), |_, fields| {
        let (record, secret) = prover_of(kind).parse_prover_line(fields).map_err(|e| match e {
            PrivateInputError::Unreadable(e) => Error::Input(e),
            PrivateInputError::False(e) => Error::False(e),
        })?;
        records.push(&record);
        private.push(&secret);
        Ok(())
    })?;
    Ok((checked(kind, records)?, private))
}

/// Reads a membership prover's inputs: `members`, one `LEAF INDEX` line
/// each (the leaf in hex, `-` for an empty RFC 6962 leaf), and `tree`, the
/// tree's leaves as the `merkle-root` kind reads them (one a line), from
/// which each member's path is computed. Returns the public record (the
/// tree's root, N and its size) and the members' private records. The
/// tree's root must be `root` (what the statement claims), and each
/// member's leaf the tree's leaf at its index: otherwise [`Error::False`],
/// naming the member's line.
pub fn read_members(
    kind: &Membership,
    root: &[u8],
    members: impl BufRead,
    tree: impl BufRead,
) -> Result<(Records, Records), Error> {
    let merkle = MerkleRoot::new(kind.hash(), kind.scheme()).ok_or_else(|| {
        Error::Input(format!(
            "{} trees are not built with {}",
            kind.scheme().name(),
            kind.hash().name()
        ))
    })?;
    let leaves = read_inputs(&merkle, tree).map_err(|e| match e {
        Error::Input(e) => Error::Input(format!("the tree: {e}")),
        e => e,
    })?;
    let (mut read, mut lines) = (Vec::new(), Vec::new());
    read_lines(Lines(members), |number, fields| {
        read.push(kind.parse_member_line(fields).map_err(Error::Input)?);
        lines.push(number);
        Ok(())
    })?;
    let (public, private) = kind.members_of_tree(&leaves, &read, &|m| format!("line {}", lines[m]))?;
    checked(kind, public.clone())?;
    let claimed = &public.get(0)[..kind.hash().digest_bytes()];
    if claimed != root {
        return Err(Error::False(format!(
            "the tree's root is {}, not the root {}",
            hex::encode(claimed),
            hex::encode(root)
        )));
    }
    Ok((public, private))
}

/// Reads a membership prover's members with their paths: one `LEAF INDEX
/// SIBLING...` line each ([`Membership::parse_path_line`]) in a tree of
/// `size` leaves whose root is `root` (what the statement claims). What a
/// prover holding audit paths, not the whole tree, proves, and what the
/// shards of a sharded membership statement are. Returns the public record
/// (`root`, N, `size`) and the members' private records; a member whose
/// path does not lead to `root` is [`Error::False`], naming its line, and a
/// size no tree has an error that starts `the size: `.
pub fn read_member_paths(
    kind: &Membership,
    root: &[u8],
    size: u64,
    members: impl BufRead,
) -> Result<(Records, Records), Error> {
    // The size first, so that no line is read against an impossible tree;
    // its errors say they are about it.
    let shape = |n| {
        checked(
            kind,
            [Membership::public_record(root, n, size).as_slice()]
                .into_iter()
                .collect(),
        )
    };
    shape(1).map_err(|e| match e {
        Error::Input(e) => Error::Input(format!("the size: {e}")),
        e => e,
    })?;
    let mut private = Records::new();
    read_lines(Lines(members), |_, fields| {
        let record = kind.parse_path_line(size, fields).map_err(Error::Input)?;
        if kind.reached(size, &record).map_err(Error::Input)? != root {
            return Err(Error::False("its path does not lead to the root".into()));
        }
        private.push(&record);
        Ok(())
    })?;
    Ok((shape(private.len() as u64)?, private))
}

/// Bytes [`read_ring_keys`] reads at a time.
const RING_READ_BUFFER: usize = 1 << 20;

/// Reads a ring's public keys (`--ring PKS`, `docs/ring.md`): one a line,
/// 64 hex digits, in the ring's order; blank lines and comments as in every
/// inputs text, and every error names its line; an empty ring is one.
/// A line of exactly the digits and `\n` is decoded as read; any other goes
/// through the fields of [`read_lines`]. `reader` is read through a buffer
/// of 1 MiB, so it is best given unbuffered (a file, stdin): 2^20 keys are
/// 65 MiB, and 8 KiB reads took 4-5 ms more of the 45.
pub fn read_ring_keys(reader: impl Read) -> Result<Vec<[u8; RING_KEY_BYTES]>, Error> {
    let reader = std::io::BufReader::with_capacity(RING_READ_BUFFER, reader);
    let keys = core::cell::RefCell::new(Vec::new());
    let canonical = |line: &[u8]| match line.split_last() {
        Some((b'\n', digits)) => hex_digits(digits)
            .map(|key| keys.borrow_mut().push(key))
            .is_some(),
        _ => false,
    };
    read_lines_or_whole(Lines(reader), canonical, |_, fields| {
        expect_fields(fields, "PK", 1).map_err(Error::Input)?;
        keys.borrow_mut()
            .push(hex_array(fields[0], "public key").map_err(Error::Input)?);
        Ok(())
    })?;
    let keys = keys.into_inner();
    if keys.is_empty() {
        return Err(Error::Input("the ring has no public keys".into()));
    }
    Ok(keys)
}

/// Reads a secret key file: one line of 64 hex digits (`starling ring
/// keygen` writes them and a newline).
pub fn read_secret_key(reader: impl BufRead) -> Result<[u8; RING_KEY_BYTES], Error> {
    let mut key = None;
    read_lines(Lines(reader), |_, fields| {
        if key.is_some() {
            return Err(Error::Input("a secret key file holds one key".into()));
        }
        expect_fields(fields, "SK", 1).map_err(Error::Input)?;
        key = Some(hex_array(fields[0], "secret key").map_err(Error::Input)?);
        Ok(())
    })?;
    key.ok_or_else(|| Error::Input("no secret key: the file is empty".into()))
}
