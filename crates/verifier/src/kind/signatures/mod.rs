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
//! the instance circuit ([`crate::circuit::sha256_path_step`]).
//!
//! HSS is a stack of such LMS verifications: every level's `Q` is public
//! (a level's `Q` is the same for every signature under the same key below
//! it, so the output records show which lines share their lower keys: a
//! signer's key schedule, not a key), the keys below the top private; see
//! `lms_layout`. SLH-DSA is laid out the same way: its digest (so the FORS
//! indices and the hypertree leaf) and each hypertree layer's message (the
//! FORS key, then each tree's root) are public, the rest private; see
//! `slh_layout`.
//!
//! Schemes: LMS with SHA-256 (`lms-sha256-m32-h{5,10,15,20,25}-w{1,2,4,8}`,
//! RFC 8554), SHA-256/192 (`lms-sha256-m24-...`, NIST SP 800-208) and
//! SHAKE256 (`lms-shake-m32-...`, `lms-shake-m24-...`, SP 800-208), HSS of
//! 1 to 8 levels of one such set (`hss-l{L}-<LMS set>`), and SLH-DSA (FIPS
//! 205) with SHA-2 or SHAKE at every category
//! (`slh-dsa-{sha2,shake}-{128,192,256}{s,f}`), the pure interface with a
//! context string or the internal one.
//! Each family implements `Family`; the kind is the same code for all.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

// The hashing, layout and scheme modules are public for the prover's tests,
// which cheat on exactly the rows a layout gives a role (not an API).
mod family;
#[doc(hidden)]
pub mod hashing;
#[doc(hidden)]
pub mod hss;
#[doc(hidden)]
pub mod lms;
mod lms_family;
#[doc(hidden)]
pub mod lms_layout;
mod placement;
#[doc(hidden)]
pub mod slh_dsa;
mod slh_family;
#[doc(hidden)]
pub mod slh_layout;

use alloc::sync::Arc;
use core::ops::Range;

use family::Family;
use hashing::Lane;
pub use hashing::RowHash as SignatureHash;
pub use hss::Hss;
use hss::Stack;
pub use lms::LmsSet;
use placement::Placement;
pub use slh_dsa::SlhSet;
pub use slh_family::{Interface, SlhDsa};

use super::{bytes_line, Kind, PrivateInputError, Relation, StatementShape, TextFormat};
use crate::circuits::StatementCircuit;
use crate::format::MAX_INSTANCES;
use crate::inputs::{expect_fields, hex_bytes, hex_field};
use crate::records::Records;
use crate::Error;

/// Longest message a signature statement takes (1 MiB).
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// A signature scheme with its parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// LMS (RFC 8554, SP 800-208) with SHA-256, SHA-256/192, SHAKE256 or
    /// SHAKE256/192.
    Lms(LmsSet),
    /// HSS (RFC 8554) of such LMS trees, one set at every level.
    Hss(Hss),
    /// SLH-DSA (FIPS 205) with SHA-2 or SHAKE, with its interface.
    SlhDsa(SlhDsa),
}

impl Scheme {
    /// The scheme with this name, for SLH-DSA with the pure interface and
    /// an empty context; errors list the names there are.
    pub fn from_name(name: &str) -> Result<Scheme, String> {
        if let Some(set) = LmsSet::all().find(|s| s.name() == name) {
            return Ok(Scheme::Lms(set));
        }
        if let Some(hss) = Hss::from_name(name) {
            return Ok(Scheme::Hss(hss));
        }
        if let Some(set) = SlhSet::ALL.into_iter().find(|s| s.name() == name) {
            return Ok(Scheme::SlhDsa(SlhDsa::new(set, Interface::Pure(Vec::new()))?));
        }
        Err(format!(
            "unknown signature scheme {name:?}; there are lms-{{sha256,shake}}-m{{32,24}}-h{{5,10,15,20,25}}-w{{1,2,4,8}}, hss-l{{1..8}}-<that LMS set>, slh-dsa-{{sha2,shake}}-{{128,192,256}}{{s,f}}"
        ))
    }

    /// The scheme's name and, for SLH-DSA, its interface and context as
    /// flags (`slh-dsa-sha2-128s --ctx 00ff`).
    pub fn name(&self) -> String {
        self.family().name()
    }

    fn family(&self) -> Arc<dyn Family> {
        match self {
            Scheme::Lms(set) => Arc::new(Stack::lms(*set)),
            Scheme::Hss(hss) => Arc::new(hss.stack()),
            Scheme::SlhDsa(slh) => Arc::new(slh.clone()),
        }
    }

    fn from_code(code: &[u8]) -> Option<Scheme> {
        match code {
            [1, rest @ ..] => LmsSet::from_code(rest).map(Scheme::Lms),
            [2, rest @ ..] => SlhDsa::from_code(rest).map(Scheme::SlhDsa),
            [3, rest @ ..] => Hss::from_code(rest).map(Scheme::Hss),
            _ => None,
        }
    }

    /// The scheme as a file stores it: the family, then its parameters.
    fn code(&self) -> Vec<u8> {
        let (family, mut rest) = match self {
            Scheme::Lms(set) => (1, set.code()),
            Scheme::SlhDsa(slh) => (2, slh.code()),
            Scheme::Hss(hss) => (3, hss.code()),
        };
        rest.insert(0, family);
        rest
    }
}

/// A batch of signatures under one scheme (the `starling` crate's `kind`
/// module shows one proved and verified).
#[derive(Clone, Debug)]
pub struct Signatures {
    scheme: Scheme,
    family: Arc<dyn Family>,
    /// The family's groups of lanes, and the circuit of those lanes.
    lanes: Vec<Lane>,
    circuit: Arc<StatementCircuit>,
}

impl Signatures {
    /// Signatures under `scheme`.
    pub fn new(scheme: Scheme) -> Self {
        let family = scheme.family();
        let lanes = family.lanes();
        let groups: Vec<_> = lanes.iter().map(|l| (l.gadget, l.copies)).collect();
        let circuit = StatementCircuit::lanes(&groups);
        Signatures {
            scheme,
            family,
            lanes,
            circuit,
        }
    }

    /// The kind a file's parameters name.
    pub fn from_params(params: &[u8]) -> Result<Self, Error> {
        Scheme::from_code(params)
            .map(Signatures::new)
            .ok_or_else(|| Error::Malformed("unknown signature scheme parameters".into()))
    }

    /// The scheme.
    pub fn scheme(&self) -> &Scheme {
        &self.scheme
    }

    fn family(&self) -> &dyn Family {
        self.family.as_ref()
    }

    /// Where virtual instance `v` of group `g` is in a batch of
    /// `instances` instances: its instance and its lane's input bytes.
    #[doc(hidden)]
    pub fn lane_at(&self, instances: usize, g: usize, v: usize) -> (usize, Range<usize>) {
        let (copy, y) = Placement::of_instances(&self.lanes, instances).at(v);
        let lane = &self.lanes[g];
        let at = lane.input_at + copy * lane.input_bytes;
        (y, at..at + lane.input_bytes)
    }

    /// Where a batch's calls are among the lanes.
    fn placement(&self, inputs: &Records, outputs: &Records) -> Placement<'_> {
        let counts = self
            .family()
            .instances(inputs, &self.hashed_lengths(inputs), outputs);
        Placement::new(&self.lanes, &counts)
    }

    fn key_bytes(&self) -> usize {
        self.family().public_key_bytes()
    }

    /// `count` valid signatures on random messages of `msg_len` bytes under
    /// fresh keys (each family's `sample`: random signature values, the key
    /// they lead to), from random bytes `fill` writes: the public records
    /// (`PK ‖ MSG`) and the private ones (the signatures). For tests and
    /// benchmarks (`starling::kind::Sample` draws them from a seed).
    pub fn random_batch_from(
        &self,
        count: usize,
        msg_len: usize,
        fill: &mut dyn FnMut(&mut [u8]),
    ) -> (Records, Records) {
        let (mut public, mut private) = (Records::new(), Records::new());
        let mut msg = vec![0u8; msg_len];
        for _ in 0..count {
            fill(&mut msg);
            let (mut pk, sig) = self.family().sample(fill, &msg);
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
        let family = self.family();
        let (pk, msg) = public.split_at(self.key_bytes());
        family.check_public_key(pk).is_ok()
            && family.check_signature(sig).is_ok()
            && family.verify(pk, msg, sig, calls)
    }

    /// The text of a prover's lines (`PK MSG SIG`) for these records.
    pub fn prover_lines(&self, public: &Records, private: &Records) -> String {
        public
            .iter()
            .zip(private.iter())
            .map(|(p, s)| format!("{} {}\n", self.format_input(p), hex::encode(s)))
            .collect()
    }

    /// A signature's checks and native verification, with its instance rows.
    #[doc(hidden)]
    pub fn trace(&self, public: &[u8], sig: &[u8]) -> Result<hashing::Trace, PrivateInputError> {
        let family = self.family();
        let (pk, msg) = public.split_at(self.key_bytes());
        family
            .check_public_key(pk)
            .map_err(PrivateInputError::Unreadable)?;
        family
            .check_signature(sig)
            .map_err(PrivateInputError::Unreadable)?;
        family
            .trace(pk, msg, sig)
            .map_err(|e| PrivateInputError::False(format!("signature does not verify: {e}")))
    }

    /// The messages' lengths, as the message hashes see them.
    #[doc(hidden)]
    pub fn hashed_lengths(&self, inputs: &Records) -> Vec<usize> {
        inputs
            .iter()
            .map(|r| self.family().hashed_message_bytes(r.len() - self.key_bytes()))
            .collect()
    }
}

impl Signatures {
    /// The public and the private record of a prover's line `PK MSG SIG`
    /// (`starling::kind::KindProver::parse_prover_line`): [`PrivateInputError::Unreadable`]
    /// for a malformed line, [`PrivateInputError::False`] when the signature
    /// does not verify, which no proof can show.
    pub fn parse_signed_line(&self, fields: &[&str]) -> Result<(Vec<u8>, Vec<u8>), PrivateInputError> {
        expect_fields(fields, "PK MSG SIG", 3).map_err(PrivateInputError::Unreadable)?;
        let public = self
            .parse_input(&fields[..2])
            .map_err(PrivateInputError::Unreadable)?;
        let sig = hex_bytes(fields[2], "signature").map_err(PrivateInputError::Unreadable)?;
        self.trace(&public, &sig)?;
        Ok((public, sig))
    }

    /// The prover's instance rows (`starling::kind::KindProver::instance_inputs`):
    /// every instance's circuit input bits, intermediate values computed
    /// natively.
    pub fn instance_rows(&self, inputs: &Records, private: &Records) -> Result<Vec<u64>, Error> {
        // Each group's rows: all message hashes, then the rest in order.
        let mut message_rows = vec![Vec::new(); self.lanes.len()];
        let mut rows = vec![Vec::new(); self.lanes.len()];
        for (s, (public, sig)) in inputs.iter().zip(private.iter()).enumerate() {
            let trace = self.trace(public, sig).map_err(|e| match e {
                PrivateInputError::Unreadable(e) => Error::Input(format!("signature {s}: {e}")),
                PrivateInputError::False(e) => Error::False(format!("signature {s}: {e}")),
            })?;
            for (i, lane) in trace.rows.into_iter().enumerate() {
                message_rows[i].extend(lane.message_rows);
                rows[i].extend(lane.rows);
            }
        }
        for (all, rest) in message_rows.iter_mut().zip(rows) {
            all.extend(rest);
        }
        let counts: Vec<usize> = self
            .lanes
            .iter()
            .zip(&message_rows)
            .map(|(lane, rows)| rows.len() / lane.input_bytes)
            .collect();
        Ok(Placement::new(&self.lanes, &counts).rows(&self.circuit, &message_rows))
    }

    /// The public outputs, from the output rows of every instance
    /// (`starling::kind::KindProver::outputs`).
    pub fn outputs_of_rows(&self, inputs: &Records, instance_outputs: &[u64]) -> Records {
        let instances = instance_outputs.len() / self.circuit.output_words();
        let placement = Placement::of_instances(&self.lanes, instances);
        let output = |g: usize, v: usize| placement.output(&self.circuit, instance_outputs, g, v);
        self.family().outputs(&self.hashed_lengths(inputs), &output)
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
        Some(self.family().output_bytes())
    }

    fn shape(&self, inputs: &Records) -> Result<StatementShape, String> {
        let mut blocks = 0u64;
        for (s, record) in inputs.iter().enumerate() {
            let at = |e: String| format!("signature {s}: {e}");
            if record.len() < self.key_bytes() {
                return Err(at("the record is shorter than a public key".into()));
            }
            let msg = record.len() - self.key_bytes();
            if msg > MAX_MESSAGE_BYTES {
                return Err(at(format!(
                    "the message has {msg} bytes, more than {MAX_MESSAGE_BYTES}"
                )));
            }
            blocks += self
                .family()
                .message_blocks(self.family().hashed_message_bytes(msg)) as u64;
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
            self.family()
                .check_public_key(&record[..self.key_bytes()])
                .map_err(|e| format!("signature {s}: {e}"))?;
        }
        Ok(())
    }

    fn instances(&self, inputs: &Records, outputs: &Records) -> usize {
        self.placement(inputs, outputs).instances()
    }

    fn calls(&self, inputs: &Records, outputs: &Records) -> usize {
        self.family()
            .instances(inputs, &self.hashed_lengths(inputs), outputs)
            .iter()
            .sum()
    }

    fn has_private_inputs(&self) -> bool {
        true
    }

    fn relations<'a>(&'a self, inputs: &'a Records, outputs: &'a Records, n: usize) -> Vec<Relation<'a>> {
        let relations =
            self.family()
                .relations(&self.circuit, inputs, &self.hashed_lengths(inputs), outputs, n);
        self.placement(inputs, outputs)
            .relations(&self.circuit, relations)
    }
}

impl TextFormat for Signatures {
    fn parse_input(&self, fields: &[&str]) -> Result<Vec<u8>, String> {
        if fields.len() == 3 {
            return Err("verify takes no signatures: an expected line is PK MSG".into());
        }
        expect_fields(fields, "PK MSG", 2)?;
        let mut record = hex_field(fields[0], self.key_bytes(), "public key")?;
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

    fn format_input(&self, record: &[u8]) -> String {
        let (pk, msg) = record.split_at(self.key_bytes());
        format!("{} {}", hex::encode(pk), bytes_line(msg))
    }

    fn format_output(&self, record: &[u8]) -> String {
        hex::encode(record)
    }

    fn input_fields(&self, record: &[u8]) -> Vec<(String, Range<usize>)> {
        vec![
            ("public key".into(), 0..self.key_bytes()),
            ("message".into(), self.key_bytes()..record.len()),
        ]
    }
}
