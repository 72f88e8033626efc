//! LMS as a [`Family`]: its parameter set, verification and layout.

use std::sync::Arc;

use super::family::Family;
use super::hashing::Trace;
use super::lms::{LmsSet, PUBLIC_KEY_BYTES};
use super::lms_layout::{message_blocks, Layout};
use crate::circuits::StatementCircuit;
use crate::kind::Relation;
use crate::records::Records;

impl LmsSet {
    /// The set's parameters as a file stores them: the hash (1, SHA-256),
    /// `m`, `h` and `w`.
    pub(super) fn code(self) -> Vec<u8> {
        vec![1, 32, self.h as u8, self.w as u8]
    }

    /// The set [`LmsSet::code`] wrote.
    pub(super) fn from_code(code: &[u8]) -> Option<LmsSet> {
        match code {
            [1, 32, h, w] => LmsSet::new(u32::from(*h), u32::from(*w)),
            _ => None,
        }
    }
}

impl Family for LmsSet {
    fn name(&self) -> String {
        LmsSet::name(*self)
    }

    fn circuit(&self) -> Arc<StatementCircuit> {
        StatementCircuit::sha256_path_step()
    }

    fn public_key_bytes(&self) -> usize {
        PUBLIC_KEY_BYTES
    }

    fn output_bytes(&self) -> usize {
        32
    }

    fn hashed_message_bytes(&self, len: usize) -> usize {
        len
    }

    fn message_blocks(&self, len: usize) -> usize {
        message_blocks(len)
    }

    fn check_public_key(&self, pk: &[u8]) -> Result<(), String> {
        LmsSet::check_public_key(*self, pk)
    }

    fn check_signature(&self, sig: &[u8]) -> Result<(), String> {
        LmsSet::check_signature(*self, sig)
    }

    fn trace(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<Trace, String> {
        LmsSet::trace(*self, pk, msg, sig)
    }

    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8], calls: &mut u64) -> bool {
        LmsSet::verify(*self, pk, msg, sig, calls)
    }

    fn sample(&self, rng: &mut dyn rand::RngCore, msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
        LmsSet::sample(*self, rng, msg)
    }

    fn instances(&self, inputs: &Records, _lens: &[usize], outputs: &Records) -> usize {
        Layout::count(*self, inputs, outputs)
    }

    fn outputs(&self, lens: &[usize], output: &dyn Fn(usize) -> [u8; 32]) -> Records {
        let mut q_reps = Records::new();
        let mut last = 0;
        for &len in lens {
            last += message_blocks(len);
            q_reps.push(&output(last - 1));
        }
        q_reps
    }

    fn relations<'a>(
        &self,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        _lens: &[usize],
        outputs: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>> {
        Arc::new(Layout::new(*self, inputs, outputs)).relations(circuit, inputs, outputs, n)
    }
}
