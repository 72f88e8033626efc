//! LMS (RFC 8554, NIST SP 800-208) with SHA-256 (`n = m = 32`),
//! SHA-256/192 (SHA-256 truncated to `n = m = 24` bytes, SP 800-208 §4.2),
//! and SHAKE256 with 32- or 24-byte outputs (SP 800-208 §4.3): the
//! parameter sets, the byte formats of public keys and signatures, and the
//! verification algorithm (RFC 8554 Algorithms 4b and 6a) over a
//! [`Hasher`]: plainly, or keeping every compression's input row.
//!
//! Formats (RFC 8554 §5.3 and §5.4): a public key is `u32(lms type) ‖
//! u32(ots type) ‖ I (16) ‖ T[1] (n)`; a signature is `u32(q) ‖ u32(ots
//! type) ‖ C (n) ‖ y[0..p] (n each) ‖ u32(lms type) ‖ path[0..h] (n
//! each)`.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use core::ops::Range;

use crate::circuit::path_step::PathStepLayout;
use crate::circuit::Gadget;

use super::family::check_length;
use super::hashing::{Hasher, Lane, Native, Part, RowHash};

/// The hashes' domain separators (RFC 8554 §3.1.1 and §5.3).
pub const D_PBLC: [u8; 2] = [0x80, 0x80];
/// Of the message hash.
pub const D_MESG: [u8; 2] = [0x81, 0x81];
/// Of a leaf.
pub const D_LEAF: [u8; 2] = [0x82, 0x82];
/// Of an inner node.
pub const D_INTR: [u8; 2] = [0x83, 0x83];

/// Bytes of the prefix `I ‖ u32 ‖ u16` every hash starts with.
pub const PREFIX_BYTES: usize = 22;
/// Bytes of a public key before its root: the typecodes and `I`.
pub const KEY_HEAD_BYTES: usize = 24;

/// An LMS parameter set: the hash, its output bytes `n` (= `m`), tree
/// height `h` and Winternitz width `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LmsSet {
    /// SHA-256 or SHAKE256.
    pub hash: RowHash,
    /// Bytes of a hash value: 32, or 24 (SHA-256/192, SHAKE256/192).
    pub n: u32,
    /// Tree height: 5, 10, 15, 20 or 25.
    pub h: u32,
    /// Winternitz width: 1, 2, 4 or 8.
    pub w: u32,
}

/// Where a value sits in a public key or signature.
fn at(start: usize, len: usize) -> Range<usize> {
    start..start + len
}

fn u32_at(bytes: &[u8], start: usize) -> u32 {
    u32::from_be_bytes(bytes[start..start + 4].try_into().expect("4 bytes"))
}

impl LmsSet {
    /// Every set: SHA-256 then SHAKE256, `n` 32 then 24, then `h` and `w`
    /// ascending.
    pub fn all() -> impl Iterator<Item = LmsSet> {
        [RowHash::Sha256, RowHash::Shake256].into_iter().flat_map(|hash| {
            [32, 24].into_iter().flat_map(move |n| {
                [5, 10, 15, 20, 25]
                    .into_iter()
                    .flat_map(move |h| [1, 2, 4, 8].into_iter().map(move |w| LmsSet { hash, n, h, w }))
            })
        })
    }

    /// `lms-sha256-m{n}-h{h}-w{w}` or `lms-shake-m{n}-h{h}-w{w}`.
    pub fn name(self) -> String {
        let hash = match self.hash {
            RowHash::Sha256 => "sha256",
            RowHash::Shake256 => "shake",
            RowHash::Sha512 => unreachable!("LMS sets hash with SHA-256 or SHAKE256"),
        };
        format!("lms-{hash}-m{}-h{}-w{}", self.n, self.h, self.w)
    }

    /// The SHA-256 set of `n`, `h` and `w`, if there is one.
    pub fn new(n: u32, h: u32, w: u32) -> Option<LmsSet> {
        Self::with_hash(RowHash::Sha256, n, h, w)
    }

    /// The set of `hash`, `n`, `h` and `w`, if there is one.
    pub fn with_hash(hash: RowHash, n: u32, h: u32, w: u32) -> Option<LmsSet> {
        Self::all().find(|s| (s.hash, s.n, s.h, s.w) == (hash, n, h, w))
    }

    /// Which of the four hash families of SP 800-208 the set is: SHA-256,
    /// SHA-256/192, SHAKE256, SHAKE256/192 (0 to 3; its typecodes' order).
    fn family(self) -> u32 {
        let shake = (self.hash == RowHash::Shake256) as u32;
        2 * shake + (self.n == 24) as u32
    }

    /// Bytes of a hash value, `n`.
    pub fn n_bytes(self) -> usize {
        self.n as usize
    }

    /// The LMS typecode (RFC 8554 Table 2: `LMS_SHA256_M32_H5` is 5; SP
    /// 800-208 Table 4: `LMS_SHA256_M24_H5` is 10, `LMS_SHAKE_M32_H5` 15,
    /// `LMS_SHAKE_M24_H5` 20).
    pub fn lms_type(self) -> u32 {
        5 + 5 * self.family() + self.h / 5 - 1
    }

    /// The LM-OTS typecode (RFC 8554 Table 1: `LMOTS_SHA256_N32_W1` is 1;
    /// SP 800-208 Table 3: `LMOTS_SHA256_N24_W1` is 5, `LMOTS_SHAKE_N32_W1`
    /// 9, `LMOTS_SHAKE_N24_W1` 13).
    pub fn ots_type(self) -> u32 {
        1 + 4 * self.family() + self.w.trailing_zeros()
    }

    /// Winternitz chains `p` (RFC 8554 Table 1, SP 800-208 Table 3).
    pub fn p(self) -> usize {
        match (self.n, self.w) {
            (32, 1) => 265,
            (32, 2) => 133,
            (32, 4) => 67,
            (32, _) => 34,
            (_, 1) => 200,
            (_, 2) => 101,
            (_, 4) => 51,
            _ => 26,
        }
    }

    /// The checksum's left shift `ls`.
    fn ls(self) -> u32 {
        match (self.n, self.w) {
            (32, 1) => 7,
            (_, 1) => 8,
            (_, 2) => 6,
            (_, 4) => 4,
            _ => 0,
        }
    }

    /// Where the instance circuit's rows hold what: a SHA-256 compression
    /// or a SHAKE256 sponge step, each with a Merkle path step's check for
    /// `n`-byte nodes.
    pub fn path_step(self) -> PathStepLayout {
        match self.hash {
            RowHash::Sha256 => PathStepLayout::sha256(self.n_bytes()),
            RowHash::Shake256 => PathStepLayout::shake256(self.n_bytes()),
            RowHash::Sha512 => unreachable!("LMS sets hash with SHA-256 or SHAKE256"),
        }
    }

    /// Bytes of an input row of the instance circuit: the chained part,
    /// the block, `P` and the direction bit.
    pub fn row_bytes(self) -> usize {
        self.path_step().public_input_bits().div_ceil(8)
    }

    /// The instance circuit's lanes: path steps, five of SHA-256 (94% of
    /// `2^17` wires) or three of SHAKE256 (96%), so that a batch pads to a
    /// power of two of wires, not of path steps.
    pub fn lanes(self) -> Vec<Lane> {
        let (gadget, copies) = match self.hash {
            RowHash::Shake256 => (Gadget::KeccakPathStep(self.path_step()), 3),
            _ => (Gadget::Sha256PathStep(self.path_step()), 5),
        };
        Lane::groups(&[(self.hash, gadget, copies)])
    }

    /// Bytes of a public key.
    pub fn public_key_bytes(self) -> usize {
        KEY_HEAD_BYTES + self.n_bytes()
    }

    /// Bytes of a chain step's message: the prefix, `u8(j)` and the value.
    pub fn step_bytes(self) -> usize {
        PREFIX_BYTES + 1 + self.n_bytes()
    }

    /// Bytes of the message hash's fixed part (the prefix and `C`), and of
    /// a leaf's message (the prefix and `K`).
    pub fn message_prefix_bytes(self) -> usize {
        PREFIX_BYTES + self.n_bytes()
    }

    /// Compressions of the message hash of a message of `len` bytes.
    pub fn message_blocks(self, len: usize) -> usize {
        self.hash.blocks(self.message_prefix_bytes() + len)
    }

    /// Bytes of an inner node's message: the prefix and two children.
    pub fn node_bytes(self) -> usize {
        PREFIX_BYTES + 2 * self.n_bytes()
    }

    /// The largest digit, `2^w - 1`: a chain's end.
    pub fn max_digit(self) -> u32 {
        (1 << self.w) - 1
    }

    /// Bytes of a signature.
    pub fn signature_bytes(self) -> usize {
        let n = self.n_bytes();
        4 + 4 + n + n * self.p() + 4 + n * self.h as usize
    }

    /// Where `C` is in a signature.
    fn c(self) -> Range<usize> {
        at(8, self.n_bytes())
    }

    /// Where `y[i]` is in a signature.
    fn y(self, i: usize) -> Range<usize> {
        let n = self.n_bytes();
        at(8 + n + n * i, n)
    }

    /// Where the LMS typecode is in a signature.
    fn lms_type_at(self) -> usize {
        self.y(self.p()).start
    }

    /// Where `path[l]` is in a signature.
    fn path(self, l: usize) -> Range<usize> {
        let n = self.n_bytes();
        at(self.lms_type_at() + 4 + n * l, n)
    }

    /// The `p` digits of `Q ‖ Cksm(Q)` (RFC 8554 §4.4 `coef` and
    /// Algorithm 2's checksum), each the step its chain starts at.
    pub fn digits(self, q_rep: &[u8]) -> Vec<u32> {
        let mut digits = Vec::with_capacity(self.p());
        self.each_digit(q_rep, |a| digits.push(a));
        digits
    }

    /// The chain steps a signature with this `Q` takes: `2^w - 1 - a` for
    /// each digit `a` (what a verifier lays out, counted without a list).
    pub fn steps(self, q_rep: &[u8]) -> u32 {
        let mut steps = 0;
        self.each_digit(q_rep, |a| steps += self.max_digit() - a);
        steps
    }

    /// Calls `f` with each of [`LmsSet::digits`], in order: `coef` reads
    /// `w`-bit digits from each byte's most significant bits down.
    fn each_digit(self, q_rep: &[u8], mut f: impl FnMut(u32)) {
        let (w, max) = (self.w, self.max_digit());
        let coefs = |bytes: &[u8], limit: usize, f: &mut dyn FnMut(u32)| {
            let digits = bytes
                .iter()
                .flat_map(|&b| (1..=8 / w).map(move |t| (u32::from(b) >> (8 - w * t)) & max));
            digits.take(limit).for_each(f);
        };
        let message_digits = (8 * self.n_bytes()) / w as usize;
        let mut sum = 0;
        coefs(&q_rep[..self.n_bytes()], message_digits, &mut |a| {
            sum += max - a;
            f(a)
        });
        let checksum = ((sum << self.ls()) as u16).to_be_bytes();
        coefs(&checksum, self.p() - message_digits, &mut f);
    }

    /// Checks a public key's length and typecodes.
    pub fn check_public_key(self, pk: &[u8]) -> Result<(), String> {
        check_length("public key", pk, &self.name(), self.public_key_bytes())?;
        typecode("the public key's LMS", u32_at(pk, 0), self.lms_type())?;
        typecode("the public key's LM-OTS", u32_at(pk, 4), self.ots_type())
    }

    /// Checks a signature's length, typecodes and leaf index.
    pub fn check_signature(self, sig: &[u8]) -> Result<(), String> {
        check_length("signature", sig, &self.name(), self.signature_bytes())?;
        let q = u32_at(sig, 0);
        if u64::from(q) >= 1 << self.h {
            return Err(format!("q = {q} is at or past 2^{} leaves", self.h));
        }
        typecode("the signature's LM-OTS", u32_at(sig, 4), self.ots_type())?;
        typecode(
            "the signature's LMS",
            u32_at(sig, self.lms_type_at()),
            self.lms_type(),
        )
    }

    /// Algorithms 4b and 6a on a signature under the key identifier `id`,
    /// every hash through `hasher` (its output truncated to `n` bytes): the
    /// message representative `Q` and the candidate root `Tc`, `n` bytes
    /// each.
    pub fn candidate(
        self,
        id: &[u8],
        msg: &[u8],
        sig: &[u8],
        hasher: &mut (impl Hasher + ?Sized),
    ) -> (Vec<u8>, Vec<u8>) {
        let n = self.n_bytes();
        let q = u32_at(sig, 0);
        let prefix = |word: u32, tag: &[u8]| -> Vec<u8> {
            let mut m = id.to_vec();
            m.extend(word.to_be_bytes());
            m.extend(tag);
            m
        };
        let mut message = prefix(q, &D_MESG);
        message.extend(&sig[self.c()]);
        message.extend(msg);
        let q_rep = hasher.hash(&message, Part::Message, None)[..n].to_vec();

        let max = self.max_digit();
        let mut public = prefix(q, &D_PBLC);
        let mut step = [0u8; PREFIX_BYTES + 1 + 32];
        let step = &mut step[..self.step_bytes()];
        for (i, &a) in self.digits(&q_rep).iter().enumerate() {
            // A chain step's message: I, q, i and j, then the value.
            step[..PREFIX_BYTES].copy_from_slice(&prefix(q, &(i as u16).to_be_bytes()));
            step[PREFIX_BYTES + 1..].copy_from_slice(&sig[self.y(i)]);
            for j in a..max {
                step[PREFIX_BYTES] = j as u8;
                let next = hasher.hash(step, Part::Rest, None);
                step[PREFIX_BYTES + 1..].copy_from_slice(&next[..n]);
            }
            public.extend(&step[PREFIX_BYTES + 1..]);
        }
        let kc = hasher.hash(&public, Part::Rest, None);

        let mut node = (1u32 << self.h) + q;
        let mut leaf = prefix(node, &D_LEAF);
        leaf.extend(&kc[..n]);
        let mut tmp = hasher.hash(&leaf, Part::Rest, None);
        for l in 0..self.h as usize {
            let right = node & 1 == 1;
            let mut inner = prefix(node >> 1, &D_INTR);
            let sibling = &sig[self.path(l)];
            if right {
                inner.extend(sibling);
                inner.extend(&tmp[..n]);
            } else {
                inner.extend(&tmp[..n]);
                inner.extend(sibling);
            }
            tmp = hasher.hash(&inner, Part::Rest, Some((&tmp[..n], right)));
            node >>= 1;
        }
        (q_rep, tmp[..n].to_vec())
    }

    /// A public key and a valid signature on `msg` under it, from random bytes `fill` writes:
    /// random `I`, `q`, `C`, chain starts and authentication path, and the
    /// root they lead to as the key's `T`. Verification accepts it like any
    /// other; no private key signs for the key's other leaves, so this is a
    /// sample for tests and benchmarks, not a signer.
    pub fn sample(self, fill: &mut dyn FnMut(&mut [u8]), msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let mut sig = vec![0u8; self.signature_bytes()];
        fill(&mut sig);
        let mut q = [0u8; 4];
        fill(&mut q);
        let q = u32::from_le_bytes(q) & ((1u32 << self.h) - 1);
        sig[..4].copy_from_slice(&q.to_be_bytes());
        sig[4..8].copy_from_slice(&self.ots_type().to_be_bytes());
        let lms_at = self.lms_type_at();
        sig[lms_at..lms_at + 4].copy_from_slice(&self.lms_type().to_be_bytes());
        let mut pk = Vec::with_capacity(self.public_key_bytes());
        pk.extend(self.lms_type().to_be_bytes());
        pk.extend(self.ots_type().to_be_bytes());
        let mut id = [0u8; 16];
        fill(&mut id);
        pk.extend(id);
        pk.extend(self.candidate(&id, msg, &sig, &mut Native::new(self.hash)).1);
        (pk, sig)
    }
}

fn typecode(what: &str, found: u32, wanted: u32) -> Result<(), String> {
    if found == wanted {
        Ok(())
    } else {
        Err(format!("{what} typecode is {found}, the scheme's is {wanted}"))
    }
}
