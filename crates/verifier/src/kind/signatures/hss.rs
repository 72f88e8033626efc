//! HSS (RFC 8554 §6): `L` levels of LMS trees, every level with one
//! parameter set here, and the stack of LMS verifications a public key and
//! signature name, plain LMS being the stack of one bare level.
//!
//! Formats (RFC 8554 §6.2): an HSS public key is `u32(L) ‖ LMS public key`;
//! an HSS signature is `u32(L - 1) ‖ signed_pub_key[0] ‖ … ‖
//! signed_pub_key[L - 2] ‖ sig[L - 1]`, where `signed_pub_key[j]` is level
//! `j`'s LMS signature on level `j + 1`'s public key followed by that key.
//! Verification (Algorithm 10) checks each level's signature under the key
//! above it, the last one on the message.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::family::check_length;
use super::hashing::{Hasher, Native, Trace};
use super::lms::{LmsSet, KEY_HEAD_BYTES};

/// Most levels an HSS key has (RFC 8554 §6).
pub const MAX_LEVELS: u32 = 8;

/// HSS with `levels` levels, each an LMS tree of `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hss {
    levels: u32,
    set: LmsSet,
}

impl Hss {
    /// `levels` levels (1 to 8) of `set`.
    pub fn new(levels: u32, set: LmsSet) -> Option<Hss> {
        (1..=MAX_LEVELS).contains(&levels).then_some(Hss { levels, set })
    }

    /// Levels `L`.
    pub fn levels(self) -> u32 {
        self.levels
    }

    /// Every level's LMS set.
    pub fn set(self) -> LmsSet {
        self.set
    }

    /// `hss-l{L}-<LMS set name>`.
    pub fn name(self) -> String {
        format!("hss-l{}-{}", self.levels, self.set.name())
    }

    /// The scheme this name names, if it is one.
    pub fn from_name(name: &str) -> Option<Hss> {
        let (levels, set) = name.strip_prefix("hss-l")?.split_once('-')?;
        let set = LmsSet::all().find(|s| s.name() == set)?;
        Hss::new(levels.parse().ok()?, set)
    }

    pub fn stack(self) -> Stack {
        Stack {
            set: self.set,
            levels: self.levels,
            hss: true,
        }
    }
}

/// A stack of LMS levels as a public key and signature hold them: a bare
/// LMS key and signature (one level, `hss` false) or HSS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub set: LmsSet,
    pub levels: u32,
    pub hss: bool,
}

/// One level's public key, message and LMS signature.
pub struct Level<'a> {
    pub key: &'a [u8],
    pub msg: &'a [u8],
    pub sig: &'a [u8],
}

impl Stack {
    /// Plain LMS.
    pub fn lms(set: LmsSet) -> Stack {
        Stack {
            set,
            levels: 1,
            hss: false,
        }
    }

    /// The scheme's name.
    pub fn name(self) -> String {
        if self.hss {
            Hss::new(self.levels, self.set).expect("a valid HSS").name()
        } else {
            self.set.name()
        }
    }

    /// Where the top level's LMS key starts in a public key.
    pub fn key_at(self) -> usize {
        if self.hss {
            4
        } else {
            0
        }
    }

    /// Bytes of a public key.
    pub fn public_key_bytes(self) -> usize {
        self.key_at() + self.set.public_key_bytes()
    }

    /// Bytes of a signed public key: a level's signature and the key below.
    fn signed_key_bytes(self) -> usize {
        self.set.signature_bytes() + self.set.public_key_bytes()
    }

    /// Bytes of a signature.
    pub fn signature_bytes(self) -> usize {
        self.key_at() + (self.levels as usize - 1) * self.signed_key_bytes() + self.set.signature_bytes()
    }

    /// `what` about level `j`, prefixed with the level when there are more
    /// than one.
    fn at_level(self, j: usize, what: String) -> String {
        if self.levels > 1 {
            format!("level {j}: {what}")
        } else {
            what
        }
    }

    /// Checks a public key's length, level count and typecodes.
    pub fn check_public_key(self, pk: &[u8]) -> Result<(), String> {
        check_length("public key", pk, &self.name(), self.public_key_bytes())?;
        if self.hss {
            let levels = u32::from_be_bytes(pk[..4].try_into().expect("4 bytes"));
            if levels != self.levels {
                return Err(format!(
                    "the public key has {levels} levels, the scheme's have {}",
                    self.levels
                ));
            }
        }
        self.set.check_public_key(&pk[self.key_at()..])
    }

    /// Checks a signature's length, its count of signed keys, and each
    /// level's typecodes and leaf index and the typecodes of the keys it
    /// signs.
    pub fn check_signature(self, sig: &[u8]) -> Result<(), String> {
        check_length("signature", sig, &self.name(), self.signature_bytes())?;
        if self.hss {
            let signed = u32::from_be_bytes(sig[..4].try_into().expect("4 bytes"));
            if signed != self.levels - 1 {
                return Err(format!(
                    "the signature has {signed} signed public keys, the scheme's have {}",
                    self.levels - 1
                ));
            }
        }
        let levels = self.split(&[], &[], sig);
        for (j, level) in levels.iter().enumerate() {
            self.set
                .check_signature(level.sig)
                .map_err(|e| self.at_level(j, e))?;
            if j > 0 {
                self.set
                    .check_public_key(level.key)
                    .map_err(|e| self.at_level(j, format!("the signed key: {e}")))?;
            }
        }
        Ok(())
    }

    /// The levels of a checked signature on `msg` under the LMS key `top`:
    /// level 0 under `top`, each later one under the key the one above
    /// signs, the last on `msg`.
    pub fn split<'a>(self, top: &'a [u8], msg: &'a [u8], sig: &'a [u8]) -> Vec<Level<'a>> {
        let mut key = top;
        let mut rest = &sig[self.key_at()..];
        let mut levels = Vec::with_capacity(self.levels as usize);
        for _ in 1..self.levels {
            let (level_sig, after) = rest.split_at(self.set.signature_bytes());
            let (next, after) = after.split_at(self.set.public_key_bytes());
            levels.push(Level {
                key,
                msg: next,
                sig: level_sig,
            });
            key = next;
            rest = after;
        }
        levels.push(Level { key, msg, sig: rest });
        levels
    }

    /// Every level's message representative `Q`, each level's hashes
    /// through `hasher`; errors name the level whose root is not its key's.
    fn walk(self, pk: &[u8], msg: &[u8], sig: &[u8], hasher: &mut impl Hasher) -> Result<Vec<u8>, String> {
        let mut q_reps = Vec::with_capacity(32 * self.levels as usize);
        for (j, level) in self.split(&pk[self.key_at()..], msg, sig).iter().enumerate() {
            let (q_rep, root) =
                self.set
                    .candidate(&level.key[8..KEY_HEAD_BYTES], level.msg, level.sig, hasher);
            if root != level.key[KEY_HEAD_BYTES..] {
                let whose = if j == 0 {
                    "the public key's"
                } else {
                    "the key level above signs"
                };
                return Err(self.at_level(j, format!("the root it leads to is not {whose}")));
            }
            q_reps.extend(q_rep);
        }
        Ok(q_reps)
    }

    /// Verifies a checked signature, computing every compression's input
    /// row (all levels' message hashes, then the rest of each level in
    /// order) and the output record, every level's `Q`. Errors say what
    /// failed.
    pub fn trace(self, pk: &[u8], msg: &[u8], sig: &[u8]) -> Result<Trace, String> {
        let mut trace = Trace::of(&self.set.lanes());
        trace.output = self.walk(pk, msg, sig, &mut trace)?;
        Ok(trace)
    }

    /// Whether a checked signature verifies, computed plainly (the native
    /// verifier benchmarks compare with), adding its compressions to
    /// `calls`.
    pub fn verify(self, pk: &[u8], msg: &[u8], sig: &[u8], calls: &mut u64) -> bool {
        let mut native = Native::new(self.set.hash);
        let valid = self.walk(pk, msg, sig, &mut native).is_ok();
        *calls += native.calls;
        valid
    }

    /// A public key and a valid signature on `msg`, from random bytes `fill` writes: a sampled
    /// LMS key and signature per level ([`LmsSet::sample`]), the bottom
    /// one on `msg`, each one above on the key below.
    pub fn sample(self, fill: &mut dyn FnMut(&mut [u8]), msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let (mut key, mut sig) = self.set.sample(fill, msg);
        for _ in 1..self.levels {
            let (above, above_sig) = self.set.sample(fill, &key);
            sig = [above_sig, key, sig].concat();
            key = above;
        }
        if self.hss {
            key.splice(0..0, self.levels.to_be_bytes());
            sig.splice(0..0, (self.levels - 1).to_be_bytes());
        }
        (key, sig)
    }
}
