//! The honest-verifier simulator (ZK.md section (d); `docs/zk.md`): from
//! the statement alone and the challenge tape, an accepting transcript.
//!
//! It runs the prover on a made-up witness (a member of another tree, of
//! random leaves; the file carries the real statement) and sends, instead
//! of its padded messages
//! and the public `A'`, `B'`, values drawn uniformly at random before
//! anything else. Every check of a zero-knowledge proof is a linear
//! constraint on the pads, batched with the tape's `xi` into one claim
//! that the opening proves; on the tape that claim is affine over GF(2) in
//! the bits of any one pad (the pad enters its constraint directly and
//! ring switching's `s_u` through its bits), so 129 runs find the pad
//! value that meets it. The opening then proves a true claim on the
//! made-up table, and the verifier on the tape accepts.
//!
//! What the test shows: such a transcript exists for every choice of the
//! messages, and is found without a witness; its messages are uniform by
//! construction. What it does not show: that the simulated transcripts'
//! other parts (the `s_u`, the opening) are distributed as a real proof's.
//! That is the exact coset test, not built (`docs/zk.md`, section 5).

use std::cell::RefCell;
use std::sync::Arc;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::kind::{Membership, SampleMembers};
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
        Some(Randomness::TestSeed([4; 32])),
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

/// A membership statement (one member of a 16-leaf tree), and the
/// simulator's made-up witness: a member of another tree of random leaves,
/// whose statement the prover's file then trades for the real one.
fn statement_and_made_up_witness() -> (Arc<dyn Kind>, Records, [Records; 2]) {
    let membership = Membership::new(Hash::Sha256, Scheme::Plain).unwrap();
    let (public, _private, _leaves) = membership.random_batch(16, 1, 21);
    let (made_up_public, made_up_private, _) = membership.random_batch(16, 1, 22);
    assert_ne!(public, made_up_public);
    (Arc::new(membership), public, [made_up_public, made_up_private])
}

#[test]
fn the_simulator_makes_an_accepting_transcript_from_the_statement_alone() {
    let (kind, public, made_up) = statement_and_made_up_witness();
    let params = batch_params_zk(kind.circuit(), 1, Profile::Default).unwrap();
    // `A'`, `B'` at the masks' places, then every padded message: uniform.
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let sent: Vec<Gf128> = (0..padded_messages(params.shape, params.p))
        .map(|_| Gf128::new(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())))
        .collect();

    // The residual is affine over GF(2) in the bits of the pad it solves
    // for: the first message's (a pad with a nonzero weight in the batched
    // claim, as every used pad has).
    let pad = pad_positions(&params)[2];
    let (first, r0) = run(&kind, &public, &made_up, &sent, (pad, Gf128::ZERO));
    assert!(
        !r0.is_zero(),
        "a made-up witness does not meet the constraints by chance"
    );
    assert!(check_on_tape(&first, &Native, &mut Veil::default()).is_err());
    let columns: Vec<u128> = (0..128)
        .map(|b| (run(&kind, &public, &made_up, &sent, (pad, Gf128::new(1 << b))).1 + r0).to_bits())
        .collect();
    let delta = solve_gf2(&columns, r0.to_bits()).expect("the pad's bits reach every residual");
    let (file, residual) = run(&kind, &public, &made_up, &sent, (pad, Gf128::new(delta)));
    assert!(residual.is_zero());

    // Accepted on the tape, carrying the chosen messages; refused by the
    // real verifier, whose challenges follow the messages.
    check_on_tape(&file, &Native, &mut Veil::default()).expect("the simulated transcript is accepted");
    let zc = &file.proof.zerocheck;
    assert_eq!([zc.a_eval, zc.b_eval], [sent[0], sent[1]]);
    assert_eq!(file.proof.wiring.z_eval, *sent.last().unwrap());
    assert!(crate::verify_claimed(&file, 0.0).is_err());
}

/// `x` with `sum_b x_b columns[b] = target` over GF(2), as bits of a
/// `u128`; `None` when `target` is outside the columns' span.
fn solve_gf2(columns: &[u128], target: u128) -> Option<u128> {
    // Echelon basis: (pivot bit, vector, which columns sum to it).
    let mut basis: Vec<(u32, u128, u128)> = Vec::new();
    let reduce = |basis: &[(u32, u128, u128)], mut v: u128, mut combo: u128| {
        for &(p, b, c) in basis {
            if v >> p & 1 == 1 {
                v ^= b;
                combo ^= c;
            }
        }
        (v, combo)
    };
    for (i, &col) in columns.iter().enumerate() {
        let (v, combo) = reduce(&basis, col, 1 << i);
        if v != 0 {
            basis.push((v.trailing_zeros(), v, combo));
        }
    }
    let (left, combo) = reduce(&basis, target, 0);
    (left == 0).then_some(combo)
}
