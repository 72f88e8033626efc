//! Signature batches: N hash-based signatures that verify, the signatures
//! private.
//!
//! Public: the scheme with its parameters, and per signature its public key
//! and message (the input record `PK ‖ MSG`) and its message representative
//! `Q` (the output record). Private: the signature and everything computed
//! from it. A prover's line is `PK MSG SIG` in hex (`-` for an empty
//! message), a verifier's expected line `PK MSG`.
//!
//! Why `Q` is public: verification routes data by the digits of `Q` and its
//! checksum (where each Winternitz chain starts). With `Q` public the
//! chains' lengths are public, every chain step is a compression with a
//! public place, and a batch proves about the compressions a native
//! verifier makes (1.0x instead of the 1.9x of fixed chain slots with a
//! select gadget). `Q` is a hash of the private randomizer `C`, the leaf
//! index and the message: it says which signature was aggregated to whoever
//! holds that signature, and nothing about the signature to anyone else
//! (finding `C` from it is a preimage search). The leaf index and the
//! authentication path stay private: the path's directions are checked by
//! the instance circuit ([`starling_circuit::sha256_path_step`]).
//!
//! Schemes: LMS with SHA-256 and `n = m = 32`
//! (`lms-sha256-m32-h{5,10,15,20,25}-w{1,2,4,8}`, RFC 8554).

mod lms;
mod lms_layout;
#[cfg(test)]
mod tests;

use std::ops::Range;
use std::sync::Arc;

pub use lms::LmsSet;

use super::{bytes_line, extend_bytes_of, Kind, PrivateInputError, Relation, StatementShape};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::inputs::{expect_fields, hex_bytes, hex_field};
use crate::records::Records;
use crate::Error;
use lms::{PUBLIC_KEY_BYTES, ROW_BYTES};
use lms_layout::{message_blocks, Layout};

/// Longest message a signature statement takes (1 MiB).
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// A signature scheme with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// LMS (RFC 8554) with SHA-256, `n = m = 32`.
    Lms(LmsSet),
}

impl Scheme {
    /// Every scheme.
    pub fn all() -> impl Iterator<Item = Scheme> {
        LmsSet::all().map(Scheme::Lms)
    }

    /// The name users type (`lms-sha256-m32-h10-w4`).
    pub fn name(self) -> String {
        match self {
            Scheme::Lms(set) => set.name(),
        }
    }

    /// The scheme with this name; errors list the names there are.
    pub fn from_name(name: &str) -> Result<Scheme, String> {
        Self::all().find(|s| s.name() == name).ok_or_else(|| {
            format!(
                "unknown signature scheme {name:?}; there are lms-sha256-m32-h{{5,10,15,20,25}}-w{{1,2,4,8}}"
            )
        })
    }

    /// The scheme as a file stores it: family, hash, `m`, then `h` and `w`.
    fn code(self) -> Vec<u8> {
        match self {
            Scheme::Lms(set) => vec![1, 1, 32, set.h as u8, set.w as u8],
        }
    }

    fn from_code(code: &[u8]) -> Option<Scheme> {
        match code {
            [1, 1, 32, h, w] => LmsSet::new(u32::from(*h), u32::from(*w)).map(Scheme::Lms),
            _ => None,
        }
    }
}

/// A batch of signatures under one scheme.
#[derive(Clone, Debug)]
pub struct Signatures {
    scheme: Scheme,
    circuit: Arc<StatementCircuit>,
}

impl Signatures {
    /// Signatures under `scheme`.
    pub fn new(scheme: Scheme) -> Self {
        Signatures {
            scheme,
            circuit: StatementCircuit::sha256_path_step(),
        }
    }

    /// The kind a file's parameters name.
    pub(crate) fn from_params(params: &[u8]) -> Result<Self, Error> {
        Scheme::from_code(params)
            .map(Signatures::new)
            .ok_or_else(|| Error::Malformed("unknown signature scheme parameters".into()))
    }

    /// `count` valid signatures on random messages of `msg_len` bytes under
    /// fresh keys ([`LmsSet::sample`]): the public records (`PK ‖ MSG`) and
    /// the private ones (the signatures), reproducible from `seed`.
    pub fn random_batch(&self, count: usize, msg_len: usize, seed: u64) -> (Records, Records) {
        use rand::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut public, mut private) = (Records::new(), Records::new());
        let mut msg = vec![0u8; msg_len];
        for _ in 0..count {
            rng.fill_bytes(&mut msg);
            let (mut pk, sig) = self.set().sample(&mut rng, &msg);
            pk.extend(&msg);
            public.push(&pk);
            private.push(&sig);
        }
        (public, private)
    }

    /// Verifies one signature natively with the fastest SHA-256 this
    /// machine has, adding its compression calls to `calls`: the native
    /// verifier benchmarks compare with. `public` is its record `PK ‖ MSG`.
    pub fn verify_natively(&self, public: &[u8], sig: &[u8], calls: &mut u64) -> bool {
        let set = self.set();
        set.check_signature(sig).is_ok()
            && set.verify(
                &public[..PUBLIC_KEY_BYTES],
                &public[PUBLIC_KEY_BYTES..],
                sig,
                calls,
            )
    }

    /// The text of a prover's lines (`PK MSG SIG`) for these records.
    pub fn prover_lines(&self, public: &Records, private: &Records) -> String {
        public
            .iter()
            .zip(private.iter())
            .map(|(p, s)| format!("{} {}\n", self.format_input(p), hex::encode(s)))
            .collect()
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    fn set(&self) -> LmsSet {
        match self.scheme {
            Scheme::Lms(set) => set,
        }
    }

    /// A signature's check and native verification, with its instance rows.
    fn trace(&self, public: &[u8], sig: &[u8]) -> Result<lms::Trace, PrivateInputError> {
        let set = self.set();
        set.check_public_key(&public[..PUBLIC_KEY_BYTES])
            .map_err(PrivateInputError::Unreadable)?;
        set.check_signature(sig).map_err(PrivateInputError::Unreadable)?;
        set.trace(&public[..PUBLIC_KEY_BYTES], &public[PUBLIC_KEY_BYTES..], sig)
            .map_err(|e| PrivateInputError::False(format!("signature does not verify: {e}")))
    }
}

impl Kind for Signatures {
    fn name(&self) -> String {
        format!("signatures --scheme {}", self.scheme.name())
    }

    fn code(&self) -> u8 {
        8
    }

    fn params(&self) -> Vec<u8> {
        self.scheme.code()
    }

    fn circuit(&self) -> &Arc<StatementCircuit> {
        &self.circuit
    }

    fn noun(&self) -> &'static str {
        "signature"
    }

    fn input_size(&self) -> Option<usize> {
        None
    }

    fn output_size(&self) -> Option<usize> {
        Some(32)
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        let mut blocks = 0u64;
        for (s, record) in inputs.iter().enumerate() {
            let at = |e: String| format!("signature {s}: {e}");
            if record.len() < PUBLIC_KEY_BYTES {
                return Err(at("the record is shorter than a public key".into()));
            }
            let msg = record.len() - PUBLIC_KEY_BYTES;
            if msg > MAX_MESSAGE_BYTES {
                return Err(at(format!(
                    "the message has {msg} bytes, more than {MAX_MESSAGE_BYTES}"
                )));
            }
            blocks += message_blocks(msg) as u64;
        }
        if blocks > MAX_INSTANCES {
            return Err(format!(
                "the messages have {blocks} blocks, more than the {MAX_INSTANCES} one proof holds"
            ));
        }
        Ok(StatementShape {
            count: inputs.len() as u64,
            outputs: inputs.len(),
        })
    }

    fn check_public(&self, inputs: &Records) -> Result<(), String> {
        for (s, record) in inputs.iter().enumerate() {
            self.set()
                .check_public_key(&record[..PUBLIC_KEY_BYTES])
                .map_err(|e| format!("signature {s}: {e}"))?;
        }
        Ok(())
    }

    fn instances(&self, inputs: &Records, outputs: &Records) -> usize {
        Layout::count(self.set(), inputs, outputs)
    }

    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        if fields.len() == 3 {
            return Err("verify takes no signatures: an expected line is PK MSG".into());
        }
        expect_fields(fields, "PK MSG", 2)?;
        let mut record = hex_field(fields[0], PUBLIC_KEY_BYTES, "public key")?;
        let msg = hex_bytes(fields[1], "message")?;
        if msg.len() > MAX_MESSAGE_BYTES {
            return Err(format!(
                "the message has {} bytes, more than {MAX_MESSAGE_BYTES}",
                msg.len()
            ));
        }
        record.extend(msg);
        Ok(record)
    }

    fn has_private_inputs(&self) -> bool {
        true
    }

    fn parse_prover_line(&self, fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        expect_fields(fields, "PK MSG SIG", 3).map_err(PrivateInputError::Unreadable)?;
        let public = self
            .parse_input(&fields[..2])
            .map_err(PrivateInputError::Unreadable)?;
        let sig = hex_bytes(fields[2], "signature").map_err(PrivateInputError::Unreadable)?;
        self.trace(&public, &sig)?;
        Ok((public, sig))
    }

    fn format_input(&self, record: &[u8]) -> String {
        format!(
            "{} {}",
            hex::encode(&record[..PUBLIC_KEY_BYTES]),
            bytes_line(&record[PUBLIC_KEY_BYTES..])
        )
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        vec![
            ("public key".into(), 0..PUBLIC_KEY_BYTES),
            ("message".into(), PUBLIC_KEY_BYTES..record.len()),
        ]
    }

    fn instance_inputs(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        let mut message_rows = Vec::new();
        let mut rows = Vec::new();
        for (s, (public, sig)) in inputs.iter().zip(private.iter()).enumerate() {
            let trace = self.trace(public, sig).map_err(|e| match e {
                PrivateInputError::Unreadable(e) => Error::Input(format!("signature {s}: {e}")),
                PrivateInputError::False(e) => Error::False(format!("signature {s}: {e}")),
            })?;
            message_rows.extend(trace.message_rows);
            rows.extend(trace.rows);
        }
        message_rows.extend(rows);
        let words = self.circuit.input_words();
        let mut packed = vec![0u64; message_rows.len() / ROW_BYTES * words];
        for (row, bytes) in packed
            .chunks_exact_mut(words)
            .zip(message_rows.chunks_exact(ROW_BYTES))
        {
            super::fill_row(row, bytes);
        }
        Ok(packed)
    }

    fn outputs(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        let words = self.circuit.output_words();
        let mut out = Records::new();
        let mut bytes = Vec::new();
        let mut last = 0;
        for record in inputs.iter() {
            last += message_blocks(record.len() - PUBLIC_KEY_BYTES);
            bytes.clear();
            extend_bytes_of(
                &mut bytes,
                &instance_outputs[(last - 1) * words..last * words],
                32,
            );
            out.push(&bytes);
        }
        out
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        Arc::new(Layout::new(self.set(), inputs, outputs)).relations(&self.circuit, inputs, outputs, n)
    }
}
