//! A test-only cheating prover: it runs the honest prover on a witness or a
//! statement it has tampered with. Every such proof must be rejected, for
//! every statement kind, with zero knowledge and without: every cheat of
//! every suite is proved in both modes ([`prove_tampered_private`]), and
//! the two verdicts must agree.

use std::sync::Arc;

use starling_circuit::RowKind;
use starling_verifier::protocol::batch_params_zk;

use crate::kind::{prover_of, Batch, Kind, SampleInputs};
use crate::protocol::{prove_with, EvaluationsTamper, Proved, Tamper};
use crate::{
    verify_claimed, Builtin, Error, Profile, ProofFile, Randomness, Records, Statement, StatementCircuit,
    DEFAULT_MIN_SECURITY_BITS,
};
use starling_verifier::Gf128;

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

/// How a test proves a statement: without zero knowledge, or with it, from
/// a fixed test seed (so that a failure reproduces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Plain,
    ZeroKnowledge,
}

impl Mode {
    pub(crate) const BOTH: [Mode; 2] = [Mode::Plain, Mode::ZeroKnowledge];

    /// The prover's randomness in this mode.
    pub(crate) fn randomness(self) -> Option<Randomness> {
        match self {
            Mode::Plain => None,
            Mode::ZeroKnowledge => Some(Randomness::TestSeed([6; 32])),
        }
    }

    /// Whether the statement can be proved in this mode: without zero
    /// knowledge, one whose kind does not require it (a verifier refuses a
    /// plain proof of one that does); with it, one whose batch has a
    /// zero-knowledge layout (a circuit too small for one has none).
    /// Records the prover refuses are tried in every mode: each must refuse
    /// them alike.
    fn fits(self, kind: &dyn Kind, inputs: &Records, private: &Records) -> bool {
        let circuit = kind.circuit();
        if self == Mode::Plain {
            return !kind.requires_zero_knowledge();
        }
        prover_of(kind)
            .instance_inputs(inputs, private)
            .map_or(true, |rows| {
                batch_params_zk(circuit, rows.len() / circuit.input_words(), Profile::Default).is_ok()
            })
    }
}

/// Proves the statement with `zk`'s randomness (plainly for `None`),
/// departing from the protocol as `tamper` says (nothing, for
/// `Tamper::default()`): where every test that picks its mode proves.
pub(crate) fn prove_in(
    zk: Option<Randomness>,
    kind: &Arc<dyn Kind>,
    inputs: &Records,
    private: &Records,
    tamper: &Tamper<'_>,
) -> Result<Proved, Error> {
    prove_with(
        kind.clone(),
        inputs.clone(),
        private.clone(),
        Profile::Default,
        zk,
        &mut |_| {},
        tamper,
    )
}

fn prove_tampered(case: &(Arc<dyn Kind>, Records), tamper: Tamper<'_>) -> Result<(), Error> {
    prove_tampered_private(case, &Records::new(), tamper)
}

/// Proves a statement with private records as a cheating prover does, in
/// both modes ([`prove_tampered_in`]).
pub(crate) fn prove_tampered_private(
    case: &(Arc<dyn Kind>, Records),
    private: &Records,
    tamper: Tamper<'_>,
) -> Result<(), Error> {
    prove_tampered_in(&Mode::BOTH, case, private, &tamper)
}

/// Proves a statement with private records as a cheating prover does in
/// each of `modes` the statement fits, verifies each file against the
/// statement it carries, and returns the verdict. The verdicts must agree
/// (a rejection may name another check: with zero knowledge, the final
/// checks are constraints the opening proves); verdicts that differ are an
/// error that names both, so that a cheat one mode lets through fails the
/// test whatever it expects.
pub(crate) fn prove_tampered_in(
    modes: &[Mode],
    (kind, inputs): &(Arc<dyn Kind>, Records),
    private: &Records,
    tamper: &Tamper<'_>,
) -> Result<(), Error> {
    let verdict = |mode: Mode| -> Result<(), Error> {
        let proved = prove_in(mode.randomness(), kind, inputs, private, tamper)?;
        // The file must also survive encoding; rejection must come from verify.
        let file = ProofFile::from_bytes(&proved.file.to_bytes())?;
        assert_eq!(file.zk, mode == Mode::ZeroKnowledge, "a proof made {mode:?}");
        verify_claimed(&file, DEFAULT_MIN_SECURITY_BITS).map(|_| ())
    };
    let mut verdicts = modes
        .iter()
        .filter(|m| m.fits(kind.as_ref(), inputs, private))
        .map(|&m| (m, verdict(m)));
    let (first_mode, first) = verdicts.next().expect("a mode the statement fits");
    for (mode, other) in verdicts {
        let agree = match (&first, &other) {
            (Ok(()), Ok(())) => true,
            (Err(a), Err(b)) => std::mem::discriminant(a) == std::mem::discriminant(b),
            _ => false,
        };
        if !agree {
            return Err(Error::Internal(format!(
                "the modes disagree: {first_mode:?} gives {first:?}, {mode:?} gives {other:?}"
            )));
        }
    }
    first
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
    let mut zero_knowledge = 0;
    for b in batches() {
        prove_tampered(&b, Tamper::default()).expect("the honest proof verifies");
        // A witness edit that changes nothing: the forms recomputed from
        // the table (around a zero-knowledge table's random wires) are the
        // honest ones.
        prove_tampered(&b, with_witness(&|_| {})).expect("the unchanged witness verifies");
        zero_knowledge += usize::from(Mode::ZeroKnowledge.fits(b.0.as_ref(), &b.1, &Records::new()));
    }
    // Every batch but the small Bristol circuit is proved in both modes.
    assert_eq!(zero_knowledge, batches().len() - 1);
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

/// `A'` and `B'` scaled by `x` and by its inverse: the product `A' B'` the
/// zerocheck's final check compares is the same.
pub(crate) fn scaled_evaluations([a, b]: [Gf128; 2]) -> [Gf128; 2] {
    let x = Gf128::new(0x5a);
    [a * x, b * x.inverse().expect("a nonzero scale")]
}

/// A prover that sends other zerocheck evaluations `A'`, `B'` than its
/// table's and goes on from them (with zero knowledge they are the masked
/// last round's, public: `docs/zk.md`, section 3). One changed breaks the
/// zerocheck's final check `claim = A' B'`; both scaled keep the product,
/// so only the lincheck's claims on `A z` and `B z` catch them.
#[test]
fn a_wrong_public_product_is_rejected() {
    let one_more_a = |[a, b]: [Gf128; 2]| [a + Gf128::ONE, b];
    let one_more_b = |[a, b]: [Gf128; 2]| [a, b + Gf128::ONE];
    let cheats: [(&str, EvaluationsTamper); 3] = [
        ("A' changed", &one_more_a),
        ("B' changed", &one_more_b),
        ("A' and B' scaled, their product kept", &scaled_evaluations),
    ];
    for b in batches() {
        for (what, change) in cheats {
            let tamper = Tamper {
                evaluations: Some(change),
                ..Tamper::default()
            };
            assert_rejected(prove_tampered(&b, tamper), what, b.0.as_ref());
        }
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
