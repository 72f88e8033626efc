//! LMS and HSS as a [`Family`]: a [`Stack`] of LMS levels, its
//! verification and layout.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;

use super::family::Family;
use super::hashing::{Lane, RowHash, Trace};
use super::hss::{Hss, Stack};
use super::lms::LmsSet;
use super::lms_layout::Layout;
use crate::circuits::StatementCircuit;
use crate::kind::Relation;
use crate::records::Records;

impl LmsSet {
    /// The set's parameters as a file stores them: the hash (1 SHA-256, 2
    /// SHAKE256; truncated to `m`), `m`, `h` and `w`.
    pub fn code(self) -> Vec<u8> {
        let hash = match self.hash {
            RowHash::Sha256 => 1,
            RowHash::Shake256 => 2,
            RowHash::Sha512 => unreachable!("LMS sets hash with SHA-256 or SHAKE256"),
        };
        vec![hash, self.n as u8, self.h as u8, self.w as u8]
    }

    /// The set [`LmsSet::code`] wrote.
    pub fn from_code(code: &[u8]) -> Option<LmsSet> {
        let hash = match code.first()? {
            1 => RowHash::Sha256,
            2 => RowHash::Shake256,
            _ => return None,
        };
        match code[1..] {
            [n, h, w] => LmsSet::with_hash(hash, u32::from(n), u32::from(h), u32::from(w)),
            _ => None,
        }
    }
}

impl Hss {
    /// The scheme as a file stores it: the levels, then the LMS set's code.
    pub fn code(self) -> Vec<u8> {
        [vec![self.levels() as u8], self.set().code()].concat()
    }

    /// The scheme [`Hss::code`] wrote.
    pub fn from_code(code: &[u8]) -> Option<Hss> {
        let (&levels, set) = code.split_first()?;
        Hss::new(u32::from(levels), LmsSet::from_code(set)?)
    }
}

impl Stack {
    /// Blocks of the message hashes of a signature on `len` bytes: the
    /// upper levels' on a public key, the last level's on the message.
    fn message_blocks(self, len: usize) -> usize {
        let set = self.set;
        (self.levels as usize - 1) * set.message_blocks(set.public_key_bytes()) + set.message_blocks(len)
    }
}

impl Family for Stack {
    fn name(&self) -> String {
        Stack::name(*self)
    }

    fn lanes(&self) -> Vec<Lane> {
        self.set.lanes()
    }

    fn public_key_bytes(&self) -> usize {
        Stack::public_key_bytes(*self)
    }

    fn output_bytes(&self) -> usize {
        self.set.n_bytes() * self.levels as usize
    }

    fn hashed_message_bytes(&self, len: usize) -> usize {
        len
    }

    fn message_blocks(&self, len: usize) -> usize {
        Stack::message_blocks(*self, len)
    }

    fn check_public_key(&self, pk: &[u8]) -> Result<(), String> {
        Stack::check_public_key(*self, pk)
    }

    fn check_signature(&self, sig: &[u8]) -> Result<(), String> {
        Stack::check_signature(*self, sig)
    }

    fn trace(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<Trace, String> {
        Stack::trace(*self, pk, msg, sig)
    }

    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8], calls: &mut u64) -> bool {
        Stack::verify(*self, pk, msg, sig, calls)
    }

    fn sample(&self, fill: &mut dyn FnMut(&mut [u8]), msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
        Stack::sample(*self, fill, msg)
    }

    fn instances(&self, inputs: &Records, _lens: &[usize], outputs: &Records) -> Vec<usize> {
        vec![Layout::count(*self, inputs, outputs)]
    }

    fn outputs(&self, lens: &[usize], output: &dyn Fn(usize, usize) -> [u8; 64]) -> Records {
        let set = self.set;
        let upper = set.message_blocks(set.public_key_bytes());
        let mut q_reps = Records::new();
        let mut last = 0;
        for &len in lens {
            let mut record = Vec::with_capacity(set.n_bytes() * self.levels as usize);
            for j in 0..self.levels {
                last += if j + 1 < self.levels {
                    upper
                } else {
                    set.message_blocks(len)
                };
                record.extend(&output(0, last - 1)[..set.n_bytes()]);
            }
            q_reps.push(&record);
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
