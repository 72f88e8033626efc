//! The honest-verifier simulator (ZK.md section (d); `docs/zk.md`
//! section 5): from the statement alone and the challenge tape, an
//! accepting transcript.
//!
//! It runs the prover on a made-up witness (a member of another tree, of
//! random leaves; the file carries the real statement) and sends, instead
//! of its padded messages and the public `A'`, `B'`, values drawn
//! uniformly at random before anything else. Every check of a
//! zero-knowledge proof is a linear constraint on the pads, batched with
//! the tape's `xi` into one claim that the opening proves; on the tape that
//! claim is affine over GF(2) in the bits of any one pad (the pad enters
//! its constraint directly and ring switching's `s_u` through its bits),
//! so 129 runs find the pad value that meets it. The opening then proves a
//! true claim on the made-up table, and the verifier on the tape accepts.
//!
//! Here: such a transcript exists for every choice of the messages and is
//! found without a witness, and a classifier and per-section statistics
//! cannot tell simulated transcripts from real ones. That a simulated
//! transcript lands in the real views' coset is the exact test's
//! (`exact_zk_tests`, ignored: it takes minutes).

use std::cell::RefCell;
use std::sync::Arc;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::exact_zk_tests::Gf2Basis;
use crate::kind::{Membership, SampleMembers};
use crate::privacy_tests::{assert_at_chance, sections};
use crate::protocol::{prove_with, Tamper};
use crate::{Hash, Kind, Native, Profile, ProofFile, Randomness, Records, Statement};
use starling_verifier::kind::Scheme;
use starling_verifier::protocol::{batch_params_zk, check_on_tape, pad_positions, padded_messages};
use starling_verifier::zk::veiled::{Channel, Veil, Veiled};
use starling_verifier::{Gf128, Transcript};

/// A [`Veil`] that keeps the batched claim it closes with.
#[derive(Default)]
struct Capture {
    veil: Veil,
    closed: Option<(Vec<Gf128>, Gf128)>,
}

impl Channel for Capture {
    type Value = Veiled;
    const PUBLIC: bool = false;

    fn receive(&mut self, sent: Gf128) -> Veiled {
        self.veil.receive(sent)
    }

    fn mask(&mut self) -> Option<Veiled> {
        self.veil.mask()
    }

    fn require(&mut self, lhs: Veiled, rhs: Veiled) -> bool {
        self.veil.require(lhs, rhs)
    }

    fn close(&mut self, transcript: &mut Transcript) -> Option<(Vec<Gf128>, Gf128)> {
        self.closed = self.veil.close(transcript);
        self.closed.clone()
    }
}

/// The simulator's run: the made-up witness, the chosen messages, `delta`
/// added to table entry `pad`. Returns the file and the batched claim's
/// residual `sum_i coefs_i pad_i + value` (zero when the claim holds).
fn run(
    kind: &Arc<dyn Kind>,
    public: &Records,
    [made_up_public, made_up_private]: &[Records; 2],
    sent: &[Gf128],
    (pad, delta): (usize, Gf128),
    seed: u8,
) -> (ProofFile, Gf128) {
    let pads = RefCell::new(Vec::new());
    let real = |s: &mut Statement| {
        *s = Statement::new(s.kind().clone(), public.clone(), s.outputs().clone()).expect("the statement");
    };
    let tamper = Tamper {
        statement: Some(&real),
        tape: true,
        simulated: Some(sent),
        entries: &[(pad, delta)],
        pads_out: Some(&pads),
        ..Tamper::default()
    };
    let file = prove_with(
        kind.clone(),
        made_up_public.clone(),
        made_up_private.clone(),
        Profile::Default,
        Some(Randomness::TestSeed([seed; 32])),
        &mut |_| {},
        &tamper,
    )
    .expect("the simulator's run makes a file")
    .file;
    let mut capture = Capture::default();
    // The verifier closes its constraints before the opening, which fails
    // while the claim does not hold.
    let _ = check_on_tape(&file, &Native, &mut capture);
    let (coefs, value) = capture.closed.expect("the verifier reaches the opening");
    let residual = coefs
        .iter()
        .zip(pads.borrow().iter())
        .map(|(c, p)| *c * *p)
        .sum::<Gf128>()
        + value;
    (file, residual)
}

/// A membership statement: one member of a 16-leaf tree.
fn statement() -> (Arc<dyn Kind>, Records) {
    let membership = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let (public, _private, _leaves) = membership.random_batch(16, 1, 21);
    (Arc::new(membership), public)
}

/// The simulator for one statement: its made-up witness, the pad it
/// solves for, and how each bit of that pad moves the batched claim's
/// residual (the same for every choice of messages and randomness: the
/// pad's weight in the claim and its `eq` weights in the `s_u` are the
/// tape's).
pub(crate) struct Simulator {
    kind: Arc<dyn Kind>,
    public: Records,
    made_up: [Records; 2],
    pub(crate) messages: usize,
    pad: usize,
    /// How each bit of the pad moves the residual.
    columns: Gf2Basis,
}

impl Simulator {
    /// The simulator of a statement of one member of a 16-leaf SHA-256
    /// tree. Its made-up witness: a member of another tree, of random
    /// leaves, whose statement the file then trades for the real one.
    pub(crate) fn new(kind: Arc<dyn Kind>, public: Records) -> Self {
        let membership = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
        let (made_up_public, made_up_private, _) = membership.random_batch(16, 1, 22);
        assert_ne!(public, made_up_public);
        let made_up = [made_up_public, made_up_private];
        let params = batch_params_zk(kind.circuit(), 1, Profile::Default).unwrap();
        // The first message's pad: a nonzero weight in the batched claim,
        // as every used pad has.
        let pad = pad_positions(&params)[2];
        let messages = padded_messages(params.shape, params.p);
        let sent = uniform(messages, 0);
        let residual = |delta: u128| run(&kind, &public, &made_up, &sent, (pad, Gf128::new(delta)), 1).1;
        let r0 = residual(0);
        let columns: Vec<Vec<u128>> = (0..128)
            .map(|b| vec![(residual(1 << b) + r0).to_bits()])
            .collect();
        let columns = Gf2Basis::new(&columns);
        Simulator {
            kind,
            public,
            made_up,
            messages,
            pad,
            columns,
        }
    }

    /// A transcript sending `sent` (`A'`, `B'` at the masks' places, then
    /// every padded message), the prover's randomness from `seed`.
    pub(crate) fn transcript(&self, sent: &[Gf128], seed: u8) -> ProofFile {
        let (_, r0) = run(
            &self.kind,
            &self.public,
            &self.made_up,
            sent,
            (self.pad, Gf128::ZERO),
            seed,
        );
        let delta = self
            .columns
            .solve(vec![r0.to_bits()])
            .expect("the pad's bits reach every residual")[0];
        let (file, residual) = run(
            &self.kind,
            &self.public,
            &self.made_up,
            sent,
            (self.pad, Gf128::new(delta)),
            seed,
        );
        assert!(residual.is_zero());
        file
    }
}

/// `count` uniform field elements from `seed`.
pub(crate) fn uniform(count: usize, seed: u64) -> Vec<Gf128> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| Gf128::new(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())))
        .collect()
}

#[test]
fn the_simulator_makes_an_accepting_transcript_from_the_statement_alone() {
    let (kind, public) = statement();
    let simulator = Simulator::new(kind, public);
    let sent = uniform(simulator.messages, 23);
    let (unsolved, r0) = run(
        &simulator.kind,
        &simulator.public,
        &simulator.made_up,
        &sent,
        (simulator.pad, Gf128::ZERO),
        2,
    );
    assert!(
        !r0.is_zero(),
        "a made-up witness does not meet the constraints by chance"
    );
    assert!(check_on_tape(&unsolved, &Native, &mut Veil::default()).is_err());
    let file = simulator.transcript(&sent, 2);
    // Accepted on the tape, carrying the chosen messages; refused by the
    // real verifier, whose challenges follow the messages.
    check_on_tape(&file, &Native, &mut Veil::default()).expect("the simulated transcript is accepted");
    let zc = &file.proof.zerocheck;
    assert_eq!([zc.a_eval, zc.b_eval], [sent[0], sent[1]]);
    assert_eq!(file.proof.wiring.z_eval, *sent.last().unwrap());
    assert!(crate::verify_claimed(&file, 0.0).is_err());
}

/// Transcripts per side: the classifier is tested on 200, so chance is
/// 50% with a standard deviation of 3.5%.
const TRANSCRIPTS: usize = 200;

/// On the tape, real proofs of the statement (its witness, fresh
/// randomness each) and simulated ones (fresh messages and randomness
/// each): each section's bits and a classifier on all of them cannot tell
/// them apart (the bounds of `privacy_tests`, whose plain proofs show the
/// statistics' power).
#[test]
fn simulated_transcripts_look_like_real_ones() {
    let (kind, public) = statement();
    let simulator = Simulator::new(kind, public);
    let membership = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let (public, private, _) = membership.random_batch(16, 1, 21);
    assert_eq!(public, simulator.public);
    let real: Vec<[Vec<u8>; 6]> = (0..TRANSCRIPTS)
        .map(|i| {
            let tamper = Tamper {
                tape: true,
                ..Tamper::default()
            };
            let mut seed = [7u8; 32];
            seed[..8].copy_from_slice(&(i as u64).to_le_bytes());
            let file = prove_with(
                simulator.kind.clone(),
                public.clone(),
                private.clone(),
                Profile::Default,
                Some(Randomness::TestSeed(seed)),
                &mut |_| {},
                &tamper,
            )
            .expect("a member proves")
            .file;
            sections(&file)
        })
        .collect();
    let simulated: Vec<[Vec<u8>; 6]> = (0..TRANSCRIPTS)
        .map(|i| sections(&simulator.transcript(&uniform(simulator.messages, 100 + i as u64), 100 + i as u8)))
        .collect();
    assert_at_chance(&[real, simulated], "simulated transcripts and real proofs");
}
