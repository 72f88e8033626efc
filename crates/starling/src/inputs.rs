//! The text form of a statement's public data, read from files and streams:
//! `starling-verifier`'s parser (re-exported here) over anything that is
//! [`BufRead`], and a prover's lines with private fields.

use std::io::{BufRead, Read};

use starling_verifier::inputs;
pub use starling_verifier::inputs::*;

use crate::kind::{prover_of, Kind, PrivateInputError};
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
