//! SLH-DSA (FIPS 205) with SHA-2 at security category 1: the parameter
//! sets `slh-dsa-sha2-128s` and `-128f`, the byte formats, and the
//! verification algorithm (Algorithms 20 and 16-18 with their parts)
//! computed natively over one walk that either hashes plainly or keeps every
//! compression's input row.
//!
//! Every F, H and T call is `SHA-256(PK.seed ‖ 0^48 ‖ ADRSc ‖ data)`
//! truncated to 16 bytes (§11.2.1): its first block is the same for a key,
//! so it is compressed once per key (the "seeded state") and each call costs
//! the compressions of `ADRSc ‖ data` after it. `H_msg` is MGF1-SHA-256 of
//! `R ‖ PK.seed ‖ SHA-256(R ‖ PK.seed ‖ PK.root ‖ M')`.

use super::hashing::{Hasher, Native, Part};
use crate::hashes::Hash;

/// Bytes of a hash value, `n`.
pub const N: usize = 16;
/// Bytes of a public key: `PK.seed ‖ PK.root`.
pub const PUBLIC_KEY_BYTES: usize = 2 * N;
/// Bytes of a compressed address.
pub const ADRS_BYTES: usize = 22;
/// Winternitz chains: `len1 = 32` message digits and `len2 = 3` checksum digits.
pub const WOTS_LEN: usize = 35;
const LEN1: usize = 32;
/// Largest Winternitz digit, `w - 1`.
pub const MAX_DIGIT: u32 = 15;

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

/// An SLH-DSA parameter set with SHA-2 at category 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlhSet {
    /// `SLH-DSA-SHA2-128s`: h = 63, d = 7, h' = 9, a = 12, k = 14.
    Sha2_128s,
    /// `SLH-DSA-SHA2-128f`: h = 66, d = 22, h' = 3, a = 6, k = 33.
    Sha2_128f,
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
    /// Every set.
    pub const ALL: [SlhSet; 2] = [SlhSet::Sha2_128s, SlhSet::Sha2_128f];

    /// `slh-dsa-sha2-128s`, `slh-dsa-sha2-128f`.
    pub fn name(self) -> &'static str {
        match self {
            SlhSet::Sha2_128s => "slh-dsa-sha2-128s",
            SlhSet::Sha2_128f => "slh-dsa-sha2-128f",
        }
    }

    /// Its code in a file's parameters.
    pub fn code(self) -> u8 {
        match self {
            SlhSet::Sha2_128s => 1,
            SlhSet::Sha2_128f => 2,
        }
    }

    /// `(h, d, h', a, k, m)`.
    fn params(self) -> (u32, usize, u32, u32, usize, usize) {
        match self {
            SlhSet::Sha2_128s => (63, 7, 9, 12, 14, 30),
            SlhSet::Sha2_128f => (66, 22, 3, 6, 33, 34),
        }
    }

    /// Hypertree layers `d`.
    pub fn layers(self) -> usize {
        self.params().1
    }

    /// Tree height per layer `h'`.
    pub fn tree_height(self) -> u32 {
        self.params().2
    }

    /// FORS tree height `a`.
    pub fn fors_height(self) -> u32 {
        self.params().3
    }

    /// FORS trees `k`.
    pub fn fors_trees(self) -> usize {
        self.params().4
    }

    /// Digest bytes `m`.
    pub fn digest_bytes(self) -> usize {
        self.params().5
    }

    /// Bytes of a signature: `R`, the FORS signature, the hypertree's.
    pub fn signature_bytes(self) -> usize {
        let (h, d, _, a, k, _) = self.params();
        N + k * (a as usize + 1) * N + (h as usize + d * WOTS_LEN) * N
    }

    /// The FORS indices, `idx_tree` and `idx_leaf` of a digest (Algorithm 20
    /// lines 7-12).
    pub fn split(self, digest: &[u8]) -> (Vec<u32>, u64, u32) {
        let (h, d, hp, a, k, _) = self.params();
        let md_bytes = (k * a as usize).div_ceil(8);
        let tree_bits = h - hp;
        let tree_bytes = (tree_bits as usize).div_ceil(8);
        let leaf_bytes = (h as usize).div_ceil(8 * d);
        let to_int = |b: &[u8]| b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
        let tree = to_int(&digest[md_bytes..md_bytes + tree_bytes]) & ((1u64 << tree_bits) - 1);
        let leaf = to_int(&digest[md_bytes + tree_bytes..md_bytes + tree_bytes + leaf_bytes]) as u32
            & ((1u32 << hp) - 1);
        (base_2b(&digest[..md_bytes], a, k), tree, leaf)
    }

    /// The 35 Winternitz digits of a message (Algorithm 8's `msg` with its
    /// checksum).
    pub fn wots_digits(message: &[u8]) -> Vec<u32> {
        let mut digits = base_2b(message, 4, LEN1);
        let checksum: u32 = digits.iter().map(|&d| MAX_DIGIT - d).sum::<u32>() << 4;
        digits.extend(base_2b(&checksum.to_be_bytes()[2..], 4, WOTS_LEN - LEN1));
        digits
    }

    /// Where the FORS signature's value `j` of tree `i` is (`j = 0` the
    /// secret, then the path).
    fn fors_value(self, i: usize, j: usize) -> std::ops::Range<usize> {
        let start = N + (i * (self.fors_height() as usize + 1) + j) * N;
        start..start + N
    }

    /// Where layer `l`'s XMSS signature value `j` is (chains, then path).
    fn xmss_value(self, l: usize, j: usize) -> std::ops::Range<usize> {
        let fors = N + self.fors_trees() * (self.fors_height() as usize + 1) * N;
        let per_layer = (WOTS_LEN + self.tree_height() as usize) * N;
        let start = fors + l * per_layer + j * N;
        start..start + N
    }

    /// Algorithm 20 on a signature of the right length, every hash through
    /// `hasher`; the digest, each layer's message (the FORS key, then each
    /// tree's root) and the top root, which a valid signature makes the
    /// key's `PK.root`.
    pub fn walk(self, pk: &[u8], message: &[u8], sig: &[u8], hasher: &mut impl Hasher) -> Walked {
        let seed = &pk[..N];
        let seeded = seeded_state(seed);
        let mut inner_msg = sig[..N].to_vec();
        inner_msg.extend(pk);
        inner_msg.extend(message);
        let inner = hasher.hash(&inner_msg, Part::Message, None);
        let mut digest = Vec::with_capacity(64);
        for counter in 0..self.digest_bytes().div_ceil(32) as u32 {
            let mut mgf = sig[..N].to_vec();
            mgf.extend(seed);
            mgf.extend(inner);
            mgf.extend(counter.to_be_bytes());
            digest.extend(hasher.hash(&mgf, Part::Message, None));
        }
        digest.truncate(self.digest_bytes());
        let (indices, mut tree, mut leaf) = self.split(&digest);

        // FORS (Algorithm 17).
        let a = self.fors_height();
        // A call's bytes after the seed block, on the stack: the address
        // and at most `WOTS_LEN` values.
        let call = |hasher: &mut dyn FnMut(&[u8]) -> [u8; 32], adrs: Adrs, data: &[u8]| -> [u8; N] {
            let mut tail = [0u8; ADRS_BYTES + WOTS_LEN * N];
            tail[..ADRS_BYTES].copy_from_slice(&adrs.bytes());
            tail[ADRS_BYTES..ADRS_BYTES + data.len()].copy_from_slice(data);
            hasher(&tail[..ADRS_BYTES + data.len()])[..N]
                .try_into()
                .expect("16 bytes")
        };
        let mut tweak = |tail: &[u8]| hasher.hash_seeded(&seeded, tail);
        let mut roots = Vec::with_capacity(self.fors_trees() * N);
        for (i, &index) in indices.iter().enumerate() {
            let mut adrs = Adrs {
                layer: 0,
                tree,
                kind: FORS_TREE,
                keypair: leaf,
                word2: 0,
                word3: (i as u32) << a | index,
            };
            let mut node = call(&mut tweak, adrs, &sig[self.fors_value(i, 0)]);
            for j in 0..a {
                let auth = &sig[self.fors_value(i, 1 + j as usize)];
                adrs.word2 = j + 1;
                adrs.word3 >>= 1;
                let pair = ordered(&node, auth, (index >> j) & 1 == 0);
                node = call(&mut tweak, adrs, &pair);
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
        let mut node = call(&mut tweak, roots_adrs, &roots);

        // The hypertree (Algorithms 12 and 10 with 8).
        let hp = self.tree_height();
        let mut layer_messages = Vec::with_capacity(self.layers() * N);
        for l in 0..self.layers() {
            layer_messages.extend(node);
            if l > 0 {
                leaf = (tree & ((1 << hp) - 1)) as u32;
                tree >>= hp;
            }
            let mut chain_ends = Vec::with_capacity(WOTS_LEN * N);
            for (c, digit) in Self::wots_digits(&node).into_iter().enumerate() {
                let mut value: [u8; N] = sig[self.xmss_value(l, c)].try_into().expect("16 bytes");
                for j in digit..MAX_DIGIT {
                    let adrs = Adrs {
                        layer: l as u8,
                        tree,
                        kind: WOTS_HASH,
                        keypair: leaf,
                        word2: c as u32,
                        word3: j,
                    };
                    value = call(&mut tweak, adrs, &value);
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
            node = call(&mut tweak, pk_adrs, &chain_ends);
            let mut index = leaf;
            for j in 0..hp {
                let auth = &sig[self.xmss_value(l, WOTS_LEN + j as usize)];
                let adrs = Adrs {
                    layer: l as u8,
                    tree,
                    kind: TREE,
                    keypair: 0,
                    word2: j + 1,
                    word3: index >> 1,
                };
                let pair = ordered(&node, auth, index & 1 == 0);
                node = call(&mut tweak, adrs, &pair);
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
    /// Each layer's message, 16 bytes each.
    pub layer_messages: Vec<u8>,
    /// The root the signature leads to.
    pub root: [u8; N],
}

/// A node and its sibling as `H` takes them: the node first when it is the
/// left child.
fn ordered(node: &[u8; N], sibling: &[u8], left: bool) -> [u8; 2 * N] {
    let mut pair = [0u8; 2 * N];
    let (first, second) = if left {
        (&node[..], sibling)
    } else {
        (sibling, &node[..])
    };
    pair[..N].copy_from_slice(first);
    pair[N..].copy_from_slice(second);
    pair
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

/// SHA-256's state after the block `PK.seed ‖ 0^48` every tweakable hash
/// of a key starts with.
pub fn seeded_state(seed: &[u8]) -> [u8; 32] {
    let mut row = Hash::Sha256.initial_chained();
    row.extend(seed);
    row.resize(96, 0);
    Hash::Sha256.compress(&row).try_into().expect("32 bytes")
}

/// `F`, `H` or `T` on `data` at `adrs`, plainly.
fn tweak(seeded: &[u8; 32], adrs: Adrs, data: &[u8]) -> [u8; N] {
    let mut tail = adrs.bytes().to_vec();
    tail.extend(data);
    Native::default().hash_seeded(seeded, &tail)[..N]
        .try_into()
        .expect("16 bytes")
}

impl SlhSet {
    /// A public key and a valid signature on the message `M'` under it,
    /// from `rng`: random `PK.seed`, `R` and values for the FORS trees and
    /// every hypertree layer but the top one, whose tree is built from
    /// random Winternitz secrets (its root is `PK.root`) and which signs
    /// the layer below's root. Verification accepts it like any other; only
    /// the top tree has secrets, so this is a sample for tests and
    /// benchmarks, not a signer.
    pub fn sample(self, rng: &mut (impl rand::RngCore + ?Sized), message: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let mut seed = [0u8; N];
        rng.fill_bytes(&mut seed);
        let seeded = seeded_state(&seed);
        let top = (self.layers() - 1) as u8;
        let hp = self.tree_height();
        let leaves = 1usize << hp;
        let mut secrets = vec![0u8; leaves * WOTS_LEN * N];
        rng.fill_bytes(&mut secrets);
        let secret = |leaf: usize, c: usize| -> [u8; N] {
            let at = (leaf * WOTS_LEN + c) * N;
            secrets[at..at + N].try_into().expect("16 bytes")
        };
        let chain = |leaf: usize, c: usize, steps: u32| -> [u8; N] {
            let mut value = secret(leaf, c);
            for j in 0..steps {
                let adrs = Adrs {
                    layer: top,
                    tree: 0,
                    kind: WOTS_HASH,
                    keypair: leaf as u32,
                    word2: c as u32,
                    word3: j,
                };
                value = tweak(&seeded, adrs, &value);
            }
            value
        };
        // The top tree, level by level.
        let mut levels: Vec<Vec<[u8; N]>> = vec![(0..leaves)
            .map(|leaf| {
                let ends: Vec<u8> = (0..WOTS_LEN).flat_map(|c| chain(leaf, c, MAX_DIGIT)).collect();
                let adrs = Adrs {
                    layer: top,
                    tree: 0,
                    kind: WOTS_PK,
                    keypair: leaf as u32,
                    word2: 0,
                    word3: 0,
                };
                tweak(&seeded, adrs, &ends)
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
                    tweak(&seeded, adrs, &[pair[0], pair[1]].concat())
                })
                .collect();
            levels.push(level);
        }
        let mut pk = seed.to_vec();
        pk.extend(levels[hp as usize][0]);

        let mut sig = vec![0u8; self.signature_bytes()];
        rng.fill_bytes(&mut sig);
        let walked = self.walk(&pk, message, &sig, &mut Native::default());
        let (_, tree, mut leaf) = self.split(&walked.digest);
        if self.layers() > 1 {
            let below = (hp as usize) * (self.layers() - 1);
            leaf = ((tree >> (below - hp as usize)) & ((1 << hp) - 1)) as u32;
        }
        let top_message = &walked.layer_messages[N * (self.layers() - 1)..];
        for (c, digit) in Self::wots_digits(top_message).into_iter().enumerate() {
            let at = self.xmss_value(self.layers() - 1, c);
            sig[at].copy_from_slice(&chain(leaf as usize, c, digit));
        }
        for j in 0..hp as usize {
            let at = self.xmss_value(self.layers() - 1, WOTS_LEN + j);
            sig[at].copy_from_slice(&levels[j][(leaf as usize >> j) ^ 1]);
        }
        (pk, sig)
    }
}
