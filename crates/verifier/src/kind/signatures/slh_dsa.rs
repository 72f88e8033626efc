//! SLH-DSA (FIPS 205): the twelve parameter sets
//! (`slh-dsa-{sha2,shake}-{128,192,256}{s,f}`), the byte formats, and the
//! verification algorithm (Algorithms 20 and 16-18 with their parts)
//! computed natively over one walk that either hashes plainly or keeps every
//! compression's (permutation's) input row.
//!
//! SHA-2 at category 1 (§11.2.1): every F, H and T call is
//! `SHA-256(PK.seed ‖ 0^48 ‖ ADRSc ‖ data)` truncated to `n` bytes: its
//! first block is the same for a key, so it is compressed once per key (the
//! "seeded state") and each call costs the compressions of `ADRSc ‖ data`
//! after it. `H_msg` is MGF1-SHA-256 of
//! `R ‖ PK.seed ‖ SHA-256(R ‖ PK.seed ‖ PK.root ‖ M')`. At categories 3 and
//! 5 (§11.2.2) F stays so, while H and T are
//! `SHA-512(PK.seed ‖ 0^(128-n) ‖ ADRSc ‖ data)` (their own seeded state,
//! a SHA-512 one) and `H_msg` is the same construction with SHA-512: such a
//! set hashes with two functions, [`SlhSet::f_hash`] and
//! [`SlhSet::h_hash`].
//!
//! SHAKE (§11.1): F, H and T are `SHAKE256(PK.seed ‖ ADRS ‖ data)` with the
//! full 32-byte address, `H_msg` is `SHAKE256(R ‖ PK.seed ‖ PK.root ‖ M')`
//! squeezed to `m` bytes; every call's input up to `T`'s fits one 136-byte
//! block.

use alloc::vec;
use alloc::vec::Vec;

use super::hashing::{Hasher, Native, Part, RowHash};
use crate::hashes::Hash;

/// Bytes of a compressed address (SHA-2).
pub const ADRS_BYTES: usize = 22;
/// Bytes of a full address (SHAKE).
pub const FULL_ADRS_BYTES: usize = 32;
/// Largest Winternitz digit, `w - 1`.
pub const MAX_DIGIT: u32 = 15;
/// Winternitz checksum digits `len2`, at every `n` here.
const LEN2: usize = 3;

/// Address types (FIPS 205 §4.2).
pub const WOTS_HASH: u8 = 0;
/// WOTS+ public key compression.
pub const WOTS_PK: u8 = 1;
/// Hypertree inner node.
pub const TREE: u8 = 2;
/// FORS tree node.
pub const FORS_TREE: u8 = 3;
/// FORS roots compression.
pub const FORS_ROOTS: u8 = 4;

/// An SLH-DSA parameter set (FIPS 205 Table 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlhSet {
    /// `SLH-DSA-SHA2-128s`: n = 16, h = 63, d = 7, h' = 9, a = 12, k = 14.
    Sha2_128s,
    /// `SLH-DSA-SHA2-128f`: n = 16, h = 66, d = 22, h' = 3, a = 6, k = 33.
    Sha2_128f,
    /// `SLH-DSA-SHAKE-128s`: as SHA2-128s, with SHAKE256.
    Shake128s,
    /// `SLH-DSA-SHAKE-128f`: as SHA2-128f, with SHAKE256.
    Shake128f,
    /// `SLH-DSA-SHAKE-192s`: n = 24, h = 63, d = 7, h' = 9, a = 14, k = 17.
    Shake192s,
    /// `SLH-DSA-SHAKE-192f`: n = 24, h = 66, d = 22, h' = 3, a = 8, k = 33.
    Shake192f,
    /// `SLH-DSA-SHAKE-256s`: n = 32, h = 64, d = 8, h' = 8, a = 14, k = 22.
    Shake256s,
    /// `SLH-DSA-SHAKE-256f`: n = 32, h = 68, d = 17, h' = 4, a = 9, k = 35.
    Shake256f,
    /// `SLH-DSA-SHA2-192s`: as SHAKE-192s, with SHA-256 and SHA-512.
    Sha2_192s,
    /// `SLH-DSA-SHA2-192f`: as SHAKE-192f, with SHA-256 and SHA-512.
    Sha2_192f,
    /// `SLH-DSA-SHA2-256s`: as SHAKE-256s, with SHA-256 and SHA-512.
    Sha2_256s,
    /// `SLH-DSA-SHA2-256f`: as SHAKE-256f, with SHA-256 and SHA-512.
    Sha2_256f,
}

/// A compressed address (FIPS 205 §11.2): layer, tree, type and three words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adrs {
    /// Layer.
    pub layer: u8,
    /// Tree address (the low 64 bits).
    pub tree: u64,
    /// Type.
    pub kind: u8,
    /// Key pair address (or 0).
    pub keypair: u32,
    /// Chain address or tree height.
    pub word2: u32,
    /// Hash address or tree index.
    pub word3: u32,
}

impl Adrs {
    /// The full address, 32 bytes (FIPS 205 §4.2): layer, tree, type and
    /// the three words, big-endian words.
    pub fn full(&self) -> [u8; FULL_ADRS_BYTES] {
        let mut out = [0u8; FULL_ADRS_BYTES];
        out[3] = self.layer;
        out[8..16].copy_from_slice(&self.tree.to_be_bytes());
        out[19] = self.kind;
        out[20..24].copy_from_slice(&self.keypair.to_be_bytes());
        out[24..28].copy_from_slice(&self.word2.to_be_bytes());
        out[28..32].copy_from_slice(&self.word3.to_be_bytes());
        out
    }

    /// `ADRSc`, 22 bytes.
    pub fn bytes(&self) -> [u8; ADRS_BYTES] {
        let mut out = [0u8; ADRS_BYTES];
        out[0] = self.layer;
        out[1..9].copy_from_slice(&self.tree.to_be_bytes());
        out[9] = self.kind;
        out[10..14].copy_from_slice(&self.keypair.to_be_bytes());
        out[14..18].copy_from_slice(&self.word2.to_be_bytes());
        out[18..22].copy_from_slice(&self.word3.to_be_bytes());
        out
    }
}

impl SlhSet {
    /// Every set, in the order of their codes (the sets added later last).
    pub const ALL: [SlhSet; 12] = [
        SlhSet::Sha2_128s,
        SlhSet::Sha2_128f,
        SlhSet::Shake128s,
        SlhSet::Shake128f,
        SlhSet::Shake192s,
        SlhSet::Shake192f,
        SlhSet::Shake256s,
        SlhSet::Shake256f,
        SlhSet::Sha2_192s,
        SlhSet::Sha2_192f,
        SlhSet::Sha2_256s,
        SlhSet::Sha2_256f,
    ];

    /// `slh-dsa-sha2-128s`, ..., `slh-dsa-shake-256f`.
    pub fn name(self) -> &'static str {
        match self {
            SlhSet::Sha2_128s => "slh-dsa-sha2-128s",
            SlhSet::Sha2_128f => "slh-dsa-sha2-128f",
            SlhSet::Shake128s => "slh-dsa-shake-128s",
            SlhSet::Shake128f => "slh-dsa-shake-128f",
            SlhSet::Shake192s => "slh-dsa-shake-192s",
            SlhSet::Shake192f => "slh-dsa-shake-192f",
            SlhSet::Shake256s => "slh-dsa-shake-256s",
            SlhSet::Shake256f => "slh-dsa-shake-256f",
            SlhSet::Sha2_192s => "slh-dsa-sha2-192s",
            SlhSet::Sha2_192f => "slh-dsa-sha2-192f",
            SlhSet::Sha2_256s => "slh-dsa-sha2-256s",
            SlhSet::Sha2_256f => "slh-dsa-sha2-256f",
        }
    }

    /// Its code in a file's parameters.
    pub fn code(self) -> u8 {
        1 + Self::ALL.iter().position(|&s| s == self).expect("a set") as u8
    }

    /// The hash of its `F` calls (chain steps, FORS leaves): SHA-256 for
    /// every SHA-2 set.
    pub fn f_hash(self) -> RowHash {
        match self {
            SlhSet::Shake128s
            | SlhSet::Shake128f
            | SlhSet::Shake192s
            | SlhSet::Shake192f
            | SlhSet::Shake256s
            | SlhSet::Shake256f => RowHash::Shake256,
            _ => RowHash::Sha256,
        }
    }

    /// The hash of its `H`, `T` and `H_msg` calls: SHA-512 for the SHA-2
    /// sets at 192 and 256 bits, else [`SlhSet::f_hash`].
    pub fn h_hash(self) -> RowHash {
        match self {
            SlhSet::Sha2_192s | SlhSet::Sha2_192f | SlhSet::Sha2_256s | SlhSet::Sha2_256f => RowHash::Sha512,
            _ => self.f_hash(),
        }
    }

    /// The hashes it calls, each once: `F`'s, then `H`'s if it differs.
    pub fn hashes(self) -> Vec<RowHash> {
        let mut hashes = vec![self.f_hash()];
        if self.h_hash() != self.f_hash() {
            hashes.push(self.h_hash());
        }
        hashes
    }

    /// `(n, h, d, h', a, k, m)`.
    fn params(self) -> (usize, u32, usize, u32, u32, usize, usize) {
        match self {
            SlhSet::Sha2_128s | SlhSet::Shake128s => (16, 63, 7, 9, 12, 14, 30),
            SlhSet::Sha2_128f | SlhSet::Shake128f => (16, 66, 22, 3, 6, 33, 34),
            SlhSet::Sha2_192s | SlhSet::Shake192s => (24, 63, 7, 9, 14, 17, 39),
            SlhSet::Sha2_192f | SlhSet::Shake192f => (24, 66, 22, 3, 8, 33, 42),
            SlhSet::Sha2_256s | SlhSet::Shake256s => (32, 64, 8, 8, 14, 22, 47),
            SlhSet::Sha2_256f | SlhSet::Shake256f => (32, 68, 17, 4, 9, 35, 49),
        }
    }

    /// Bytes of a hash value, `n`.
    pub fn n(self) -> usize {
        self.params().0
    }

    /// Bytes of a public key: `PK.seed ‖ PK.root`.
    pub fn public_key_bytes(self) -> usize {
        2 * self.n()
    }

    /// Winternitz chains: `len1 = 2n` message digits and `len2 = 3`
    /// checksum digits.
    pub fn wots_len(self) -> usize {
        2 * self.n() + LEN2
    }

    /// Where an `F`, `H` or `T` call's data starts in the bytes its rows
    /// hash: after `ADRSc` (SHA-2; the seed block is compressed already),
    /// after `PK.seed ‖ ADRS` (SHAKE).
    pub fn data_at(self) -> usize {
        match self.f_hash() {
            RowHash::Shake256 => self.n() + FULL_ADRS_BYTES,
            _ => ADRS_BYTES,
        }
    }

    /// Blocks of an `H` or `T` call on `data` bytes (after the seed block,
    /// for SHA-2). An `F` call is one block.
    pub fn tweak_blocks(self, data: usize) -> usize {
        let hash = self.h_hash();
        match hash {
            RowHash::Shake256 => hash.blocks(self.data_at() + data),
            _ => hash.blocks(hash.block_bytes() + ADRS_BYTES + data) - 1,
        }
    }

    /// Hypertree layers `d`.
    pub fn layers(self) -> usize {
        self.params().2
    }

    /// Tree height per layer `h'`.
    pub fn tree_height(self) -> u32 {
        self.params().3
    }

    /// FORS tree height `a`.
    pub fn fors_height(self) -> u32 {
        self.params().4
    }

    /// FORS trees `k`.
    pub fn fors_trees(self) -> usize {
        self.params().5
    }

    /// Digest bytes `m`.
    pub fn digest_bytes(self) -> usize {
        self.params().6
    }

    /// Bytes of a signature: `R`, the FORS signature, the hypertree's.
    pub fn signature_bytes(self) -> usize {
        let (n, h, d, _, a, k, _) = self.params();
        n + k * (a as usize + 1) * n + (h as usize + d * self.wots_len()) * n
    }

    /// The FORS indices, `idx_tree` and `idx_leaf` of a digest (Algorithm 20
    /// lines 7-12).
    pub fn split(self, digest: &[u8]) -> (Vec<u32>, u64, u32) {
        let (_, h, d, hp, a, k, _) = self.params();
        let md_bytes = (k * a as usize).div_ceil(8);
        let tree_bits = h - hp;
        let tree_bytes = (tree_bits as usize).div_ceil(8);
        let leaf_bytes = (h as usize).div_ceil(8 * d);
        let to_int = |b: &[u8]| b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
        // SLH-DSA-SHAKE-256f's tree index has all 64 bits.
        let tree_mask = u64::MAX >> (64 - tree_bits);
        let tree = to_int(&digest[md_bytes..md_bytes + tree_bytes]) & tree_mask;
        let leaf = to_int(&digest[md_bytes + tree_bytes..md_bytes + tree_bytes + leaf_bytes]) as u32
            & ((1u32 << hp) - 1);
        (base_2b(&digest[..md_bytes], a, k), tree, leaf)
    }

    /// The `len` Winternitz digits of an `n`-byte message (Algorithm 8's
    /// `msg` with its checksum).
    pub fn wots_digits(message: &[u8]) -> Vec<u32> {
        let len1 = 2 * message.len();
        let mut digits = base_2b(message, 4, len1);
        let checksum: u32 = digits.iter().map(|&d| MAX_DIGIT - d).sum::<u32>() << 4;
        digits.extend(base_2b(&checksum.to_be_bytes()[2..], 4, LEN2));
        digits
    }

    /// Where the FORS signature's value `j` of tree `i` is (`j = 0` the
    /// secret, then the path).
    fn fors_value(self, i: usize, j: usize) -> core::ops::Range<usize> {
        let n = self.n();
        let start = n + (i * (self.fors_height() as usize + 1) + j) * n;
        start..start + n
    }

    /// Where layer `l`'s XMSS signature value `j` is (chains, then path).
    fn xmss_value(self, l: usize, j: usize) -> core::ops::Range<usize> {
        let n = self.n();
        let fors = n + self.fors_trees() * (self.fors_height() as usize + 1) * n;
        let per_layer = (self.wots_len() + self.tree_height() as usize) * n;
        let start = fors + l * per_layer + j * n;
        start..start + n
    }

    /// `F` (`hash` is [`SlhSet::f_hash`]), `H` or `T` (`hash` is
    /// [`SlhSet::h_hash`]) on `data` at `adrs` under the key whose seed is
    /// `seed` (and, for SHA-2, whose seeded state of `hash` is `seeded`),
    /// through `hasher`: `n` bytes.
    fn tweak(
        self,
        hasher: &mut (impl Hasher + ?Sized),
        hash: RowHash,
        seed: &[u8],
        seeded: &Seeded,
        adrs: Adrs,
        data: &[u8],
    ) -> Vec<u8> {
        // The bytes the rows hash, on the stack: the address (after the
        // seed, for SHAKE) and at most `len` values.
        let mut tail = [0u8; 32 + FULL_ADRS_BYTES + 67 * 32];
        let at = self.data_at();
        match hash {
            RowHash::Shake256 => {
                tail[..self.n()].copy_from_slice(seed);
                tail[self.n()..at].copy_from_slice(&adrs.full());
            }
            _ => tail[..ADRS_BYTES].copy_from_slice(&adrs.bytes()),
        }
        tail[at..at + data.len()].copy_from_slice(data);
        let tail = &tail[..at + data.len()];
        let mut out = match hash {
            RowHash::Shake256 => hasher.hash_long(hash, tail, Part::Rest, None, self.n()),
            _ => hasher.hash_seeded(hash, seeded.of(hash), tail),
        };
        out.truncate(self.n());
        out
    }

    /// `H_msg(R, PK.seed, PK.root, M')`, `m` bytes (§11.1, §11.2.1).
    fn message_hash(
        self,
        hasher: &mut (impl Hasher + ?Sized),
        r: &[u8],
        pk: &[u8],
        message: &[u8],
    ) -> Vec<u8> {
        let mut inner_msg = r.to_vec();
        inner_msg.extend(pk);
        inner_msg.extend(message);
        let hash = self.h_hash();
        match hash {
            RowHash::Shake256 => hasher.hash_long(hash, &inner_msg, Part::Message, None, self.digest_bytes()),
            _ => {
                let out = hash.digest_bytes();
                let inner = hasher.hash_long(hash, &inner_msg, Part::Message, None, out);
                let mut digest = Vec::with_capacity(2 * out);
                for counter in 0..self.digest_bytes().div_ceil(out) as u32 {
                    let mut mgf = r.to_vec();
                    mgf.extend(&pk[..self.n()]);
                    mgf.extend(&inner);
                    mgf.extend(counter.to_be_bytes());
                    digest.extend(hasher.hash_long(hash, &mgf, Part::Message, None, out));
                }
                digest.truncate(self.digest_bytes());
                digest
            }
        }
    }

    /// Algorithm 20 on a signature of the right length, every hash through
    /// `hasher`; the digest, each layer's message (the FORS key, then each
    /// tree's root) and the top root, which a valid signature makes the
    /// key's `PK.root`.
    pub fn walk(self, pk: &[u8], message: &[u8], sig: &[u8], hasher: &mut impl Hasher) -> Walked {
        let n = self.n();
        let seed = &pk[..n];
        let seeded = Seeded::new(self, seed);
        let digest = self.message_hash(hasher, &sig[..n], pk, message);
        let (indices, mut tree, mut leaf) = self.split(&digest);

        // FORS (Algorithm 17).
        let a = self.fors_height();
        let (f, h) = (self.f_hash(), self.h_hash());
        let mut call =
            |hash: RowHash, adrs: Adrs, data: &[u8]| self.tweak(hasher, hash, seed, &seeded, adrs, data);
        let mut roots = Vec::with_capacity(self.fors_trees() * n);
        for (i, &index) in indices.iter().enumerate() {
            let mut adrs = Adrs {
                layer: 0,
                tree,
                kind: FORS_TREE,
                keypair: leaf,
                word2: 0,
                word3: (i as u32) << a | index,
            };
            let mut node = call(f, adrs, &sig[self.fors_value(i, 0)]);
            for j in 0..a {
                let auth = &sig[self.fors_value(i, 1 + j as usize)];
                adrs.word2 = j + 1;
                adrs.word3 >>= 1;
                let pair = ordered(&node, auth, (index >> j) & 1 == 0);
                node = call(h, adrs, &pair);
            }
            roots.extend(node);
        }
        let roots_adrs = Adrs {
            layer: 0,
            tree,
            kind: FORS_ROOTS,
            keypair: leaf,
            word2: 0,
            word3: 0,
        };
        let mut node = call(h, roots_adrs, &roots);

        // The hypertree (Algorithms 12 and 10 with 8).
        let hp = self.tree_height();
        let mut layer_messages = Vec::with_capacity(self.layers() * n);
        for l in 0..self.layers() {
            layer_messages.extend(&node);
            if l > 0 {
                leaf = (tree & ((1 << hp) - 1)) as u32;
                tree >>= hp;
            }
            let mut chain_ends = Vec::with_capacity(self.wots_len() * n);
            for (c, digit) in Self::wots_digits(&node).into_iter().enumerate() {
                let mut value = sig[self.xmss_value(l, c)].to_vec();
                for j in digit..MAX_DIGIT {
                    let adrs = Adrs {
                        layer: l as u8,
                        tree,
                        kind: WOTS_HASH,
                        keypair: leaf,
                        word2: c as u32,
                        word3: j,
                    };
                    value = call(f, adrs, &value);
                }
                chain_ends.extend(value);
            }
            let pk_adrs = Adrs {
                layer: l as u8,
                tree,
                kind: WOTS_PK,
                keypair: leaf,
                word2: 0,
                word3: 0,
            };
            node = call(h, pk_adrs, &chain_ends);
            let mut index = leaf;
            for j in 0..hp {
                let auth = &sig[self.xmss_value(l, self.wots_len() + j as usize)];
                let adrs = Adrs {
                    layer: l as u8,
                    tree,
                    kind: TREE,
                    keypair: 0,
                    word2: j + 1,
                    word3: index >> 1,
                };
                let pair = ordered(&node, auth, index & 1 == 0);
                node = call(h, adrs, &pair);
                index >>= 1;
            }
        }
        Walked {
            digest,
            layer_messages,
            root: node,
        }
    }
}

/// What a verification walk computes.
pub struct Walked {
    /// `H_msg`'s output.
    pub digest: Vec<u8>,
    /// Each layer's message, `n` bytes each.
    pub layer_messages: Vec<u8>,
    /// The root the signature leads to.
    pub root: Vec<u8>,
}

/// A node and its sibling as `H` takes them: the node first when it is the
/// left child.
fn ordered(node: &[u8], sibling: &[u8], left: bool) -> Vec<u8> {
    if left {
        [node, sibling].concat()
    } else {
        [sibling, node].concat()
    }
}

/// Big-endian `b`-bit digits of `x` (FIPS 205 Algorithm 4).
pub fn base_2b(x: &[u8], b: u32, out_len: usize) -> Vec<u32> {
    let (mut at, mut bits, mut total) = (0usize, 0u32, 0u64);
    (0..out_len)
        .map(|_| {
            while bits < b {
                total = (total << 8) | u64::from(x[at]);
                at += 1;
                bits += 8;
            }
            bits -= b;
            ((total >> bits) & ((1 << b) - 1)) as u32
        })
        .collect()
}

/// SHA-2's state (`sha2` is SHA-256 or SHA-512) after the block
/// `PK.seed ‖ 0..` every tweakable hash of a key with it starts with.
pub fn seeded_state(sha2: RowHash, seed: &[u8]) -> Vec<u8> {
    let hash = match sha2 {
        RowHash::Sha256 => Hash::Sha256,
        RowHash::Sha512 => Hash::Sha512,
        RowHash::Shake256 => panic!("SHAKE256 calls are not seeded"),
    };
    let mut row = hash.initial_chained();
    row.extend(seed);
    row.resize(sha2.state_bytes() + sha2.block_bytes(), 0);
    hash.compress(&row)
}

/// A key's seeded states, one per SHA-2 hash its set calls (none for
/// SHAKE).
pub struct Seeded(Vec<(RowHash, Vec<u8>)>);

impl Seeded {
    /// The seeded states of the key whose seed is `seed`.
    pub fn new(set: SlhSet, seed: &[u8]) -> Self {
        Seeded(
            set.hashes()
                .into_iter()
                .filter(|&hash| hash != RowHash::Shake256)
                .map(|hash| (hash, seeded_state(hash, seed)))
                .collect(),
        )
    }

    /// The state of `hash`.
    pub fn of(&self, hash: RowHash) -> &[u8] {
        &self.0.iter().find(|(h, _)| *h == hash).expect("a seeded hash").1
    }
}

impl SlhSet {
    /// A public key and a valid signature on the message `M'` under it,
    /// from random bytes `fill` writes: random `PK.seed`, `R` and values for the FORS trees and
    /// every hypertree layer but the top one, whose tree is built from
    /// random Winternitz secrets (its root is `PK.root`) and which signs
    /// the layer below's root. Verification accepts it like any other; only
    /// the top tree has secrets, so this is a sample for tests and
    /// benchmarks, not a signer.
    pub fn sample(self, fill: &mut dyn FnMut(&mut [u8]), message: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let n = self.n();
        let mut seed = vec![0u8; n];
        fill(&mut seed);
        let seeded = Seeded::new(self, &seed);
        let tweak = |hash: RowHash, adrs: Adrs, data: &[u8]| {
            let mut native = Native::new(hash);
            self.tweak(&mut native, hash, &seed, &seeded, adrs, data)
        };
        let (f, h) = (self.f_hash(), self.h_hash());
        let top = (self.layers() - 1) as u8;
        let hp = self.tree_height();
        let leaves = 1usize << hp;
        let wots_len = self.wots_len();
        let mut secrets = vec![0u8; leaves * wots_len * n];
        fill(&mut secrets);
        let chain = |leaf: usize, c: usize, steps: u32| -> Vec<u8> {
            let at = (leaf * wots_len + c) * n;
            let mut value = secrets[at..at + n].to_vec();
            for j in 0..steps {
                let adrs = Adrs {
                    layer: top,
                    tree: 0,
                    kind: WOTS_HASH,
                    keypair: leaf as u32,
                    word2: c as u32,
                    word3: j,
                };
                value = tweak(f, adrs, &value);
            }
            value
        };
        // The top tree, level by level.
        let mut levels: Vec<Vec<Vec<u8>>> = vec![(0..leaves)
            .map(|leaf| {
                let ends: Vec<u8> = (0..wots_len).flat_map(|c| chain(leaf, c, MAX_DIGIT)).collect();
                let adrs = Adrs {
                    layer: top,
                    tree: 0,
                    kind: WOTS_PK,
                    keypair: leaf as u32,
                    word2: 0,
                    word3: 0,
                };
                tweak(h, adrs, &ends)
            })
            .collect()];
        for height in 1..=hp {
            let below = levels.last().expect("a level");
            let level = below
                .chunks_exact(2)
                .enumerate()
                .map(|(index, pair)| {
                    let adrs = Adrs {
                        layer: top,
                        tree: 0,
                        kind: TREE,
                        keypair: 0,
                        word2: height,
                        word3: index as u32,
                    };
                    tweak(h, adrs, &[&pair[0][..], &pair[1]].concat())
                })
                .collect();
            levels.push(level);
        }
        let mut pk = seed.clone();
        pk.extend(&levels[hp as usize][0]);

        let mut sig = vec![0u8; self.signature_bytes()];
        fill(&mut sig);
        let walked = self.walk(&pk, message, &sig, &mut Native::new(f));
        let (_, tree, mut leaf) = self.split(&walked.digest);
        if self.layers() > 1 {
            let below = (hp as usize) * (self.layers() - 1);
            leaf = ((tree >> (below - hp as usize)) & ((1 << hp) - 1)) as u32;
        }
        let top_message = &walked.layer_messages[n * (self.layers() - 1)..];
        for (c, digit) in Self::wots_digits(top_message).into_iter().enumerate() {
            let at = self.xmss_value(self.layers() - 1, c);
            sig[at].copy_from_slice(&chain(leaf as usize, c, digit));
        }
        for j in 0..hp as usize {
            let at = self.xmss_value(self.layers() - 1, wots_len + j);
            sig[at].copy_from_slice(&levels[j][(leaf as usize >> j) ^ 1]);
        }
        (pk, sig)
    }
}
