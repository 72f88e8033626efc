//! Byte encoding of [`Proof`]. Every length is either fixed by the parameters
//! or a small count checked against a bound the parameters give, and every
//! read checks the remaining input first, so decoding untrusted bytes returns
//! an error instead of panicking or allocating without bound.

use alloc::vec::Vec;

use super::{LevelProof, Proof};
use crate::codec::{put_fields, DecodeError, Reader};
use crate::merkle::MultiProof;
use crate::pcs::{PcsError, PcsParams};
use crate::poly::QuadraticRound;

fn read_round(r: &mut Reader<'_>) -> Result<QuadraticRound, DecodeError> {
    Ok(QuadraticRound {
        c0: r.field("a sumcheck round")?,
        c2: r.field("a sumcheck round")?,
    })
}

fn put_round(out: &mut Vec<u8>, r: &QuadraticRound) {
    put_fields(out, &[r.c0, r.c2]);
}

impl Proof {
    /// Serialises the proof; the layout is fixed by the parameters plus two
    /// bounded counts per level (opened column elements, Merkle siblings).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    pub fn write(&self, out: &mut Vec<u8>) {
        if let Some(g) = self.mask_sum {
            put_fields(out, &[g]);
        }
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
            if let Some(n) = l.query_nonce {
                out.extend_from_slice(&n.to_le_bytes());
            }
            // Elements, not columns: the column width is the parameters'.
            out.extend_from_slice(&(l.columns.len() as u32).to_le_bytes());
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
        let mask_sum = if params.is_hiding() {
            Some(r.field("the row-mask sum")?)
        } else {
            None
        };
        let n_levels = params.levels().len();
        let mut levels = Vec::with_capacity(n_levels);
        for (i, lp) in params.levels().iter().enumerate() {
            let rounds = (0..lp.log_rows)
                .map(|_| read_round(r))
                .collect::<Result<Vec<_>, _>>()?;
            let nonces = if lp.grinding_bits > 0 { lp.log_rows } else { 0 };
            let pow_nonces = (0..nonces)
                .map(|_| r.u64("a proof-of-work nonce"))
                .collect::<Result<Vec<_>, _>>()?;
            let next_root = if i + 1 < n_levels {
                Some(r.digest("a level root")?)
            } else {
                None
            };
            let query_nonce = if lp.query_grinding_bits > 0 {
                Some(r.u64("a proof-of-work nonce")?)
            } else {
                None
            };
            let width = params.level_width(i);
            let elements = r.u32("a column element count")? as usize;
            let count = elements / width;
            if count == 0 || count > lp.queries || !elements.is_multiple_of(width) {
                return Err(PcsError::Malformed("column count out of range"));
            }
            let columns = r.fields(elements, "the opened columns")?;
            let siblings = r.u32("a sibling count")? as usize;
            if siblings > count * params.level_log_len(i) {
                return Err(PcsError::Malformed("sibling count out of range"));
            }
            let bytes = r.take(siblings * 32, "the Merkle siblings")?;
            let siblings = bytes
                .chunks_exact(32)
                .map(|c| c.try_into().expect("32-byte chunks"))
                .collect();
            levels.push(LevelProof {
                rounds,
                pow_nonces,
                query_nonce,
                next_root,
                columns,
                merkle: MultiProof { siblings },
            });
        }
        let final_message = r.fields(1 << params.final_log_len(), "the final message")?;
        let final_rounds = (0..params.final_log_len())
            .map(|_| read_round(r))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Proof {
            mask_sum,
            levels,
            final_message,
            final_rounds,
        })
    }
}
