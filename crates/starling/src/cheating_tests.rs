//! A test-only cheating prover: it runs the honest prover on a witness or a
//! statement it has tampered with. Every such proof must be rejected, for
//! every statement kind.

use std::sync::Arc;

use starling_circuit::RowKind;

use crate::kind::{Batch, Kind, SampleInputs};
use crate::protocol::{prove_with, Tamper};
use crate::{
    verify_claimed, Builtin, Error, Profile, Records, Statement, StatementCircuit, DEFAULT_MIN_SECURITY_BITS,
};

const N: usize = 5;
/// Words per wire at the padded size (128 instances).
const WORDS_PER_WIRE: usize = 128 / 64;

/// A small Bristol circuit: 4-bit x, y; outputs x AND y, and x XOR NOT y.
pub(crate) const SMALL_BRISTOL: &str = "12 20\n2 4 4\n2 4 4\n\n\
    2 1 0 4 8 AND\n2 1 1 5 9 AND\n2 1 2 6 10 AND\n2 1 3 7 11 AND\n\
    1 1 4 12 INV\n1 1 5 13 INV\n1 1 6 14 INV\n1 1 7 15 INV\n\
    2 1 0 12 16 XOR\n2 1 1 13 17 XOR\n2 1 2 14 18 XOR\n2 1 3 15 19 XOR\n";

/// Every batch kind with `N` random input records.
fn batches() -> Vec<(Arc<dyn Kind>, Records)> {
    let mut all: Vec<Batch> = Builtin::ALL.into_iter().map(Batch::builtin).collect();
    all.push(Batch::of(StatementCircuit::from_bristol(SMALL_BRISTOL).unwrap()));
    all.into_iter()
        .map(|b| {
            let inputs = b.random_inputs(N, 77);
            (Arc::new(b) as Arc<dyn Kind>, inputs)
        })
        .collect()
}

fn prove_tampered(case: &(Arc<dyn Kind>, Records), tamper: Tamper<'_>) -> Result<(), Error> {
    prove_tampered_private(case, &Records::new(), tamper)
}

/// Proves a statement with private records as a cheating prover does, and
/// verifies the file against the statement it carries.
pub(crate) fn prove_tampered_private(
    (kind, inputs): &(Arc<dyn Kind>, Records),
    private: &Records,
    tamper: Tamper<'_>,
) -> Result<(), Error> {
    let proved = prove_with(
        kind.clone(),
        inputs.clone(),
        private.clone(),
        Profile::Default,
        None,
        &mut |_| {},
        &tamper,
    )?;
    // The file must also survive encoding; rejection must come from verify.
    let file = crate::ProofFile::from_bytes(&proved.file.to_bytes())?;
    verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).map(|_| ())
}

fn with_witness(f: &dyn Fn(&mut [u64])) -> Tamper<'_> {
    Tamper {
        witness: Some(f),
        ..Tamper::default()
    }
}

pub(crate) fn with_instances(f: &dyn Fn(&mut [u64])) -> Tamper<'_> {
    Tamper {
        instances: Some(f),
        ..Tamper::default()
    }
}

pub(crate) fn assert_rejected(result: Result<(), Error>, what: &str, kind: &dyn Kind) {
    match result {
        Err(Error::Rejected(_)) => {}
        other => panic!("{}, {what}: expected a rejection, got {other:?}", kind.name()),
    }
}

fn flip(words: &mut [u64], wire: usize, instance: usize) {
    words[wire * WORDS_PER_WIRE + instance / 64] ^= 1u64 << (instance % 64);
}

fn wires_of(circuit: &StatementCircuit, kind: RowKind) -> Vec<usize> {
    let r1cs = circuit.r1cs();
    (0..r1cs.num_wires())
        .filter(|&i| r1cs.row_kind(i) == kind)
        .collect()
}

#[test]
fn honest_proofs_are_accepted() {
    for b in batches() {
        prove_tampered(&b, Tamper::default()).expect("the honest proof verifies");
    }
}

#[test]
fn wrong_witness_bit_is_rejected() {
    for b in batches() {
        let c = b.0.circuit();
        let and_wires = wires_of(c, RowKind::And);
        // An AND wire early, one in the middle and the last one; a real and a padding instance.
        for (wire, inst) in [
            (and_wires[0], 0),
            (and_wires[and_wires.len() / 2], 3),
            (*and_wires.last().unwrap(), 100),
        ] {
            assert_rejected(
                prove_tampered(&b, with_witness(&|z| flip(z, wire, inst))),
                "flipped AND wire",
                b.0.as_ref(),
            );
        }
        if let Some(&linear) = wires_of(c, RowKind::Linear).first() {
            assert_rejected(
                prove_tampered(&b, with_witness(&|z| flip(z, linear, 1))),
                "flipped linear wire",
                b.0.as_ref(),
            );
        }
    }
}

#[test]
fn wrong_public_values_are_rejected() {
    for b in batches() {
        let c = b.0.circuit().clone();
        let out_bit = c.output_bits() / 2 + 1;
        let flip_output = |st: &mut Statement| st.outputs_mut().flip_bit(2, out_bit);
        // The statement claims a wrong output; the witness is honest.
        let tamper = Tamper {
            statement: Some(&flip_output),
            ..Tamper::default()
        };
        assert_rejected(
            prove_tampered(&b, tamper),
            "wrong output in the statement",
            b.0.as_ref(),
        );
        // The witness agrees with the wrong output.
        let out_wire = c.r1cs().public_output_wire(out_bit);
        let flip_wire = |z: &mut [u64]| flip(z, out_wire, 2);
        let tamper = Tamper {
            witness: Some(&flip_wire),
            statement: Some(&flip_output),
            ..Tamper::default()
        };
        assert_rejected(
            prove_tampered(&b, tamper),
            "wrong output in statement and witness",
            b.0.as_ref(),
        );
        // A wrong input in the statement with an honest witness.
        let flip_input = |st: &mut Statement| st.inputs_mut().flip_bit(4, 0);
        let tamper = Tamper {
            statement: Some(&flip_input),
            ..Tamper::default()
        };
        assert_rejected(
            prove_tampered(&b, tamper),
            "wrong input in the statement",
            b.0.as_ref(),
        );
    }
}

#[test]
fn constant_wire_zero_is_rejected() {
    for c in batches() {
        // The constant wire cleared in one instance, then in all instances.
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| flip(z, 0, 0))),
            "constant wire 0 in one instance",
            c.0.as_ref(),
        );
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| z[..WORDS_PER_WIRE].fill(0))),
            "constant wire 0 everywhere",
            c.0.as_ref(),
        );
        // The all-zero witness satisfies every row; only the public claim can catch it.
        assert_rejected(
            prove_tampered(&c, with_witness(&|z| z.fill(0))),
            "all-zero witness",
            c.0.as_ref(),
        );
    }
}

/// Every hash chain of 6 steps.
fn chains() -> Vec<(Arc<dyn Kind>, Records)> {
    crate::Hash::ALL
        .into_iter()
        .map(|h| {
            let kind: Arc<dyn Kind> = Arc::new(crate::kind::Chain::new(h));
            let inputs: Records = [crate::kind::Chain::record(&vec![7; h.digest_bytes()], 6).as_slice()]
                .into_iter()
                .collect();
            (kind, inputs)
        })
        .collect()
}

/// Flips input bit `bit` of instance `y` among the instance rows.
fn flip_input(rows: &mut [u64], words: usize, y: usize, bit: usize) {
    rows[y * words + bit / 64] ^= 1 << (bit % 64);
}

#[test]
fn broken_links_wrong_chaining_values_and_padding_are_rejected() {
    for chain in chains() {
        prove_tampered(&chain, Tamper::default()).expect("the honest chain verifies");
        let c = chain.0.circuit().clone();
        let words = c.input_words();
        let hash = crate::Hash::from_code(chain.0.params()[0]).unwrap();
        let message = 8 * hash.block_bytes().start;
        // Instance 3 hashes another value than instance 2 produced: every
        // instance is a valid run, only the link is broken.
        let link = |rows: &mut [u64]| flip_input(rows, words, 3, message + 5);
        assert_rejected(
            prove_tampered(&chain, with_instances(&link)),
            "a broken link",
            chain.0.as_ref(),
        );
        // The first step hashes another start.
        let start = |rows: &mut [u64]| flip_input(rows, words, 0, message);
        assert_rejected(
            prove_tampered(&chain, with_instances(&start)),
            "another start",
            chain.0.as_ref(),
        );
        // A wrong chaining value or capacity in a middle step.
        let chained = 8 * hash.chained().start + 3;
        let iv = |rows: &mut [u64]| flip_input(rows, words, 2, chained);
        assert_rejected(
            prove_tampered(&chain, with_instances(&iv)),
            "a wrong chaining value",
            chain.0.as_ref(),
        );
        // Wrong padding in the last step.
        let pad = 8 * (hash.block_bytes().start + 40) + 1;
        let padding = |rows: &mut [u64]| flip_input(rows, words, 5, pad);
        assert_rejected(
            prove_tampered(&chain, with_instances(&padding)),
            "wrong padding",
            chain.0.as_ref(),
        );
        // A wrong end in the statement.
        let end = |st: &mut Statement| st.outputs_mut().flip_bit(0, 9);
        let tamper = Tamper {
            statement: Some(&end),
            ..Tamper::default()
        };
        assert_rejected(prove_tampered(&chain, tamper), "a wrong end", chain.0.as_ref());
    }
}

/// A digest of three messages and a Merkle tree of every scheme.
fn digests_and_trees() -> Vec<(Arc<dyn Kind>, Records)> {
    use crate::kind::{Digest, MerkleRoot, Scheme};
    use crate::Hash;
    let mut all: Vec<(Arc<dyn Kind>, Records)> = Vec::new();
    for h in Hash::ALL {
        let msgs: Vec<Vec<u8>> = [10usize, 150, 300]
            .iter()
            .map(|&l| (0..l).map(|i| i as u8).collect())
            .collect();
        all.push((Arc::new(Digest::new(h)), msgs.iter().map(Vec::as_slice).collect()));
    }
    let leaves: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 32]).collect();
    for scheme in Scheme::ALL {
        let kind = MerkleRoot::new(Hash::Sha256, scheme).unwrap();
        all.push((Arc::new(kind), leaves.iter().map(Vec::as_slice).collect()));
    }
    all
}

#[test]
fn digests_and_trees_reject_wrong_chaining_padding_and_swapped_leaves() {
    for case in digests_and_trees() {
        let kind = case.0.clone();
        prove_tampered(&case, Tamper::default()).expect("the honest proof verifies");
        let hash = crate::Hash::from_code(kind.params()[0]).unwrap();
        let words = kind.circuit().input_words();
        // A wrong chaining value (or capacity) entering the second block.
        let chained = 8 * hash.chained().start + 1;
        let cv = |rows: &mut [u64]| flip_input(rows, words, 1, chained);
        assert_rejected(
            prove_tampered(&case, with_instances(&cv)),
            "a wrong chaining value",
            kind.as_ref(),
        );
        // A wrong byte in the last block's padding (or a leaf's, or a
        // child digest's copy).
        let last = kind.instances(&case.1, &Records::new()) - 1;
        let pad = 8 * (hash.block_bytes().start + 60) + 2;
        let padding = |rows: &mut [u64]| flip_input(rows, words, last, pad);
        assert_rejected(
            prove_tampered(&case, with_instances(&padding)),
            "wrong padding",
            kind.as_ref(),
        );
        // Two inputs swapped in the statement, the witness honest.
        let swap = |st: &mut Statement| {
            let inputs: Vec<Vec<u8>> = st.inputs().iter().map(<[u8]>::to_vec).collect();
            let mut swapped = inputs.clone();
            swapped.swap(0, 1);
            *st.inputs_mut() = swapped.iter().map(Vec::as_slice).collect();
        };
        let tamper = Tamper {
            statement: Some(&swap),
            ..Tamper::default()
        };
        assert_rejected(prove_tampered(&case, tamper), "two inputs swapped", kind.as_ref());
    }
}

#[test]
fn a_single_leaf_tree_proves_no_root_but_the_leaf() {
    for scheme in [crate::kind::Scheme::Plain, crate::kind::Scheme::Bitcoin] {
        let kind = crate::kind::merkle_root(crate::Hash::Sha256, scheme).unwrap();
        let leaf = [0x5au8; 32];
        let case = (kind.clone(), [leaf.as_slice()].into_iter().collect::<Records>());
        prove_tampered(&case, Tamper::default()).expect("the honest proof verifies");
        // The prover claims another root: the statement it proves (and
        // binds into the transcript) has it, the witness is the honest one.
        let other_root = |st: &mut Statement| {
            let mut root = st.outputs().get(0).to_vec();
            root[31] ^= 0x80;
            *st.outputs_mut() = [root.as_slice()].into_iter().collect();
        };
        let tamper = Tamper {
            statement: Some(&other_root),
            ..Tamper::default()
        };
        assert_rejected(
            prove_tampered(&case, tamper),
            "a root other than the leaf",
            kind.as_ref(),
        );
    }
}
