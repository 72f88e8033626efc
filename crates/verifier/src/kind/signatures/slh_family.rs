//! SLH-DSA as a [`Family`]: a parameter set with the interface the
//! messages are signed through.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use alloc::sync::Arc;

use super::family::{check_length, Family};
use super::hashing::{Lane, Native, Trace};
use super::slh_dsa::SlhSet;
use super::slh_layout::{self, message_blocks, Layout};

use crate::circuits::StatementCircuit;
use crate::kind::Relation;
use crate::records::Records;

/// How a message becomes the `M'` SLH-DSA signs (FIPS 205 §10.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Interface {
    /// The pure interface with a context string of at most 255 bytes:
    /// `M' = 0 ‖ |ctx| ‖ ctx ‖ M`.
    Pure(Vec<u8>),
    /// The internal interface: `M' = M` (as NIST's ACVP vectors use it).
    Internal,
}

/// An SLH-DSA parameter set with its interface.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlhDsa {
    set: SlhSet,
    interface: Interface,
}

impl SlhDsa {
    /// `set` through `interface`; errors when a context is longer than 255
    /// bytes.
    pub fn new(set: SlhSet, interface: Interface) -> Result<Self, String> {
        if let Interface::Pure(ctx) = &interface {
            if ctx.len() > 255 {
                return Err(format!("the context has {} bytes, more than 255", ctx.len()));
            }
        }
        Ok(SlhDsa { set, interface })
    }

    /// The parameter set.
    pub fn set(&self) -> SlhSet {
        self.set
    }

    /// `M'` of a message.
    pub fn prepared(&self, msg: &[u8]) -> Vec<u8> {
        match &self.interface {
            Interface::Pure(ctx) => [&[0, ctx.len() as u8][..], ctx, msg].concat(),
            Interface::Internal => msg.to_vec(),
        }
    }

    /// The parameters as a file stores them: the set, the interface (0
    /// pure, 1 internal) and the context's length and bytes.
    pub fn code(&self) -> Vec<u8> {
        let mut out = vec![self.set.code()];
        match &self.interface {
            Interface::Pure(ctx) => {
                out.extend([0, ctx.len() as u8]);
                out.extend(ctx);
            }
            Interface::Internal => out.push(1),
        }
        out
    }

    /// The scheme [`SlhDsa::code`] wrote.
    pub fn from_code(code: &[u8]) -> Option<SlhDsa> {
        let (&set, rest) = code.split_first()?;
        let set = SlhSet::ALL.into_iter().find(|s| s.code() == set)?;
        let interface = match rest {
            [1] => Interface::Internal,
            [0, len, ctx @ ..] if ctx.len() == *len as usize => Interface::Pure(ctx.to_vec()),
            _ => return None,
        };
        SlhDsa::new(set, interface).ok()
    }
}

impl Family for SlhDsa {
    fn name(&self) -> String {
        match &self.interface {
            Interface::Pure(ctx) if ctx.is_empty() => self.set.name().into(),
            Interface::Pure(ctx) => format!("{} --ctx {}", self.set.name(), hex::encode(ctx)),
            Interface::Internal => format!("{} --interface internal", self.set.name()),
        }
    }

    fn lanes(&self) -> Vec<Lane> {
        slh_layout::lanes(self.set)
    }

    fn public_key_bytes(&self) -> usize {
        self.set.public_key_bytes()
    }

    fn output_bytes(&self) -> usize {
        self.set.digest_bytes() + self.set.n() * self.set.layers()
    }

    fn hashed_message_bytes(&self, len: usize) -> usize {
        match &self.interface {
            Interface::Pure(ctx) => len + 2 + ctx.len(),
            Interface::Internal => len,
        }
    }

    fn message_blocks(&self, len: usize) -> usize {
        message_blocks(self.set, len)
    }

    fn check_public_key(&self, pk: &[u8]) -> Result<(), String> {
        check_length("public key", pk, self.set.name(), self.set.public_key_bytes())
    }

    fn check_signature(&self, sig: &[u8]) -> Result<(), String> {
        check_length("signature", sig, self.set.name(), self.set.signature_bytes())
    }

    fn trace(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<Trace, String> {
        let mut trace = Trace::of(&slh_layout::lanes(self.set));
        let walked = self.set.walk(pk, &self.prepared(msg), sig, &mut trace);
        if walked.root[..] != pk[self.set.n()..] {
            return Err("the root it leads to is not the public key's".into());
        }
        trace.output = [walked.digest, walked.layer_messages].concat();
        Ok(trace)
    }

    fn verify(&self, pk: &[u8], msg: &[u8], sig: &[u8], calls: &mut u64) -> bool {
        let mut native = Native::new(self.set.f_hash());
        let walked = self.set.walk(pk, &self.prepared(msg), sig, &mut native);
        *calls += native.calls;
        walked.root[..] == pk[self.set.n()..]
    }

    fn sample(&self, fill: &mut dyn FnMut(&mut [u8]), msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
        self.set.sample(fill, &self.prepared(msg))
    }

    fn instances(&self, _inputs: &Records, lens: &[usize], outputs: &Records) -> Vec<usize> {
        slh_layout::count(self.set, lens, outputs)
    }

    fn outputs(&self, lens: &[usize], output: &dyn Fn(usize, usize) -> [u8; 64]) -> Records {
        slh_layout::outputs(self.set, lens, output)
    }

    fn relations<'a>(
        &self,
        circuit: &StatementCircuit,
        inputs: &'a Records,
        lens: &[usize],
        outputs: &'a Records,
        n: usize,
    ) -> Vec<Relation<'a>> {
        let messages: Vec<Vec<u8>> = inputs
            .iter()
            .map(|r| self.prepared(&r[self.set.public_key_bytes()..]))
            .collect();
        Arc::new(Layout::new(self.set, inputs, lens, outputs)).relations(
            circuit,
            inputs,
            Arc::new(messages),
            outputs,
            n,
        )
    }
}
