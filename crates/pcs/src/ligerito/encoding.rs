//! Byte encoding of [`Proof`]. Every length is either fixed by the parameters
//! or a small count checked against a bound the parameters give, and every
//! read checks the remaining input first, so decoding untrusted bytes returns
//! an error instead of panicking or allocating without bound.

use starling_crypto::merkle::MultiProof;
use starling_crypto::Digest;
use starling_field::Gf128;
use starling_poly::sumcheck_round::QuadraticRound;

use super::{LevelProof, Proof};
use crate::params::PcsParams;
use crate::PcsError;

/// A cursor over untrusted bytes.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], PcsError> {
        if n > self.bytes.len() {
            return Err(PcsError::Malformed("proof is truncated"));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    pub(crate) fn field(&mut self) -> Result<Gf128, PcsError> {
        let mut a = [0u8; 16];
        a.copy_from_slice(self.take(16)?);
        Ok(Gf128::from_bytes(a))
    }

    /// `n` field elements; the input length is checked before allocating.
    pub(crate) fn fields(&mut self, n: usize) -> Result<Vec<Gf128>, PcsError> {
        let bytes = self.take(n.checked_mul(16).ok_or(PcsError::Malformed("length overflow"))?)?;
        Ok(bytes
            .chunks_exact(16)
            .map(|c| {
                let mut a = [0u8; 16];
                a.copy_from_slice(c);
                Gf128::from_bytes(a)
            })
            .collect())
    }

    fn digest(&mut self) -> Result<Digest, PcsError> {
        let mut d = [0u8; 32];
        d.copy_from_slice(self.take(32)?);
        Ok(d)
    }

    fn u64(&mut self) -> Result<u64, PcsError> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(a))
    }

    fn u16(&mut self) -> Result<u16, PcsError> {
        let mut a = [0u8; 2];
        a.copy_from_slice(self.take(2)?);
        Ok(u16::from_le_bytes(a))
    }

    fn u32(&mut self) -> Result<u32, PcsError> {
        let mut a = [0u8; 4];
        a.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(a))
    }

    fn round(&mut self) -> Result<QuadraticRound, PcsError> {
        Ok(QuadraticRound {
            c0: self.field()?,
            c2: self.field()?,
        })
    }

    pub(crate) fn finish(self) -> Result<(), PcsError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(PcsError::Malformed("trailing bytes after the proof"))
        }
    }
}

pub(crate) fn put_fields(out: &mut Vec<u8>, v: &[Gf128]) {
    for x in v {
        out.extend_from_slice(&x.to_bytes());
    }
}

fn put_round(out: &mut Vec<u8>, r: &QuadraticRound) {
    put_fields(out, &[r.c0, r.c2]);
}

impl Proof {
    /// Serialises the proof; the layout is fixed by the parameters plus two
    /// bounded counts per level (distinct queries, Merkle siblings).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        for l in &self.levels {
            for r in &l.rounds {
                put_round(out, r);
            }
            for n in &l.pow_nonces {
                out.extend_from_slice(&n.to_le_bytes());
            }
            if let Some(root) = &l.next_root {
                out.extend_from_slice(root);
            }
            let count = l.columns.len() >> l.rounds.len();
            out.extend_from_slice(&(count as u16).to_le_bytes());
            put_fields(out, &l.columns);
            out.extend_from_slice(&(l.merkle.siblings.len() as u32).to_le_bytes());
            for s in &l.merkle.siblings {
                out.extend_from_slice(s);
            }
        }
        put_fields(out, &self.final_message);
        for r in &self.final_rounds {
            put_round(out, r);
        }
    }

    /// Decodes a proof for `params`; never panics on any input.
    pub fn from_bytes(params: &PcsParams, bytes: &[u8]) -> Result<Proof, PcsError> {
        let mut r = Reader::new(bytes);
        let p = Proof::read(params, &mut r)?;
        r.finish()?;
        Ok(p)
    }

    pub(crate) fn read(params: &PcsParams, r: &mut Reader<'_>) -> Result<Proof, PcsError> {
        let n_levels = params.levels().len();
        let mut levels = Vec::with_capacity(n_levels);
        for (i, lp) in params.levels().iter().enumerate() {
            let rounds = (0..lp.log_rows)
                .map(|_| r.round())
                .collect::<Result<Vec<_>, _>>()?;
            let nonces = if lp.grinding_bits > 0 { lp.log_rows } else { 0 };
            let pow_nonces = (0..nonces).map(|_| r.u64()).collect::<Result<Vec<_>, _>>()?;
            let next_root = if i + 1 < n_levels { Some(r.digest()?) } else { None };
            let count = r.u16()? as usize;
            if count == 0 || count > lp.queries {
                return Err(PcsError::Malformed("column count out of range"));
            }
            let columns = r.fields(count << lp.log_rows)?;
            let siblings = r.u32()? as usize;
            if siblings > count * params.level_log_len(i) {
                return Err(PcsError::Malformed("sibling count out of range"));
            }
            let bytes = r.take(siblings * 32)?;
            let siblings = bytes
                .chunks_exact(32)
                .map(|c| {
                    let mut d = [0u8; 32];
                    d.copy_from_slice(c);
                    d
                })
                .collect();
            levels.push(LevelProof {
                rounds,
                pow_nonces,
                next_root,
                columns,
                merkle: MultiProof { siblings },
            });
        }
        let final_message = r.fields(1 << params.final_log_len())?;
        let final_rounds = (0..params.final_log_len())
            .map(|_| r.round())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Proof {
            levels,
            final_message,
            final_rounds,
        })
    }
}
