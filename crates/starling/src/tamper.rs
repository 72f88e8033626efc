//! The test-only cheating prover's departures from the protocol
//! ([`Tamper`]): what it changes before the commitment (instances,
//! witness words, random entries, the statement), how its cover changes
//! messages ([`Cheat`]), and the challenge tape and simulator hooks of the
//! zero-knowledge tests. A real proof takes `Tamper::default()`, which
//! changes nothing.

use std::cell::RefCell;

use starling_field::Gf128;
use starling_piop::cover::{Cover, Fold};
use starling_verifier::piop::SparseMatrix;
use starling_verifier::zk::Holes;

use crate::{Error, Statement};

/// Changes a test-only cheating prover makes: to the witness words before
/// anything is committed (the linear forms are then recomputed from them),
/// and to the statement it claims. Real proofs change nothing.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tamper<'a> {
    /// Changes the instances' input rows before the witness is generated
    /// (every instance stays a valid run of the circuit, on other inputs).
    pub(crate) instances: Option<WitnessTamper<'a>>,
    /// Changes the witness words, in the circuit's own wire order
    /// (`words_per_wire` words per wire) in either mode: a
    /// zero-knowledge table's random wires are out of its reach, and its
    /// circuit wires are gathered from around them and put back.
    pub(crate) witness: Option<WitnessTamper<'a>>,
    pub(crate) statement: Option<&'a dyn Fn(&mut Statement)>,
    /// A zero-knowledge prover that changes one padded message (by the
    /// order messages take pads) and goes on as if it had not.
    pub(crate) message: Option<(usize, MessageCheat)>,
    /// Checks the prover's replay of the verifier leaves out
    /// (`Veil::leaving_out`): it then proves the claim of a verifier that
    /// leaves them out.
    pub(crate) leave_out: &'a [usize],
    /// A prover that sends other zerocheck evaluations `A'`, `B'` (public
    /// in both modes) than it computed, given those, and goes on from the
    /// ones it sent.
    pub(crate) evaluations: Option<EvaluationsTamper<'a>>,
    /// A plain proof even of a kind that requires zero knowledge, which a
    /// verifier must reject.
    pub(crate) plain: bool,
    /// A prover that changes this fold of the table before its sumcheck,
    /// orthogonally to the sumcheck's weights ([`Cover::fold`]): every round
    /// holds, and only ring switching's check of the fold's claim fails.
    pub(crate) fold: Option<Fold>,
    /// The interactive protocol with a fixed verifier
    /// (`Transcript::challenge_tape`): the exact zero-knowledge test and the
    /// simulator's hold the challenges still.
    pub(crate) tape: bool,
    /// Adds to random entries (pads, spares) of a zero-knowledge table,
    /// each named by its index in the table: a test's choice of the
    /// prover's randomness, made before the linear forms are computed.
    pub(crate) entries: &'a [(usize, Gf128)],
    /// A simulator's messages: the zerocheck's `A'`, `B'`, then every
    /// padded message in order, sent instead of what the prover computes
    /// (which it goes on from).
    pub(crate) simulated: Option<&'a [Gf128]>,
    /// Where the pads' values (the table's entries at `pad_positions`) are
    /// written down.
    pub(crate) pads_out: Option<&'a RefCell<Vec<Gf128>>>,
}

/// A change to the witness words.
pub(crate) type WitnessTamper<'a> = &'a dyn Fn(&mut [u64]);

/// What a cheating prover sends for the zerocheck's evaluations `A'`,
/// `B'`, given those it computed.
pub(crate) type EvaluationsTamper<'a> = &'a dyn Fn([Gf128; 2]) -> [Gf128; 2];

/// How a cheating zero-knowledge prover changes a padded message (only
/// the tests' cheating provers make one).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum MessageCheat {
    /// Adds a value to it.
    Add(Gf128),
    /// Covers it with the message before's pad again.
    ReusePad,
}

/// Adds `entries` (`(table entry, value)`, a test's choice of the
/// randomness: `Tamper::entries`) to the random wires' words.
pub(crate) fn add_to_random_entries(
    holes: Holes,
    per_wire: usize,
    entries: &[(usize, Gf128)],
    hole_words: &mut [u64],
) -> Result<(), Error> {
    if entries.is_empty() {
        return Ok(());
    }
    let positions: Vec<usize> = holes.positions().collect();
    for &(x, d) in entries {
        let word = 2 * x;
        let h = positions
            .binary_search(&(word / per_wire))
            .map_err(|_| Error::Internal(format!("table entry {x} is not a random entry")))?;
        let at = h * per_wire + word % per_wire;
        let bits = d.to_bits();
        hole_words[at] ^= bits as u64;
        hole_words[at + 1] ^= (bits >> 64) as u64;
    }
    Ok(())
}

/// Applies a test's witness edit (`Tamper::witness`, in the circuit's wire
/// order) to a zero-knowledge table: the circuit's used wires are gathered
/// from their places around the random wires, edited and put back. The
/// circuit's unused wires have no place in that table, so an edit that
/// sets one is an error.
pub(crate) fn edit_circuit_wires(
    holes: Holes,
    r1cs: &starling_circuit::R1cs,
    per_wire: usize,
    z: &mut [u64],
    edit: WitnessTamper<'_>,
) -> Result<(), Error> {
    let used = r1cs.used_wires();
    let places = holes.positions_of(used);
    let mut wires = vec![0u64; r1cs.num_wires() * per_wire];
    for (w, &p) in places.iter().enumerate() {
        let p = p as usize;
        wires[w * per_wire..][..per_wire].copy_from_slice(&z[p * per_wire..][..per_wire]);
    }
    edit(&mut wires);
    if wires[used * per_wire..].iter().any(|&x| x != 0) {
        return Err(Error::Internal(
            "a zero-knowledge table has no place for the circuit's unused wires".into(),
        ));
    }
    for (w, &p) in places.iter().enumerate() {
        let p = p as usize;
        z[p * per_wire..][..per_wire].copy_from_slice(&wires[w * per_wire..][..per_wire]);
    }
    Ok(())
}

/// `m z`, for a matrix over the table's wires (`per_wire` words each): a
/// cheating prover's forms of a zero-knowledge table it edited, from the
/// matrices the lincheck proves (the random wires' rows and the moved ones
/// included).
pub(crate) fn matrix_words_into(m: &SparseMatrix, per_wire: usize, z: &[u64], out: &mut [u64]) {
    for (i, word) in out.iter_mut().enumerate() {
        let (wire, j) = (i / per_wire, i % per_wire);
        *word = m
            .row(wire)
            .iter()
            .fold(0, |acc, &c| acc ^ z[c as usize * per_wire + j]);
    }
}

/// A cover that changes message `at` (counting the masks), if any, and
/// the zerocheck's evaluations, if asked, or sends a simulator's values.
pub(crate) struct Cheat<'a> {
    inner: &'a mut dyn Cover,
    taken: usize,
    message: Option<(usize, MessageCheat)>,
    evaluations: Option<EvaluationsTamper<'a>>,
    /// The pad the last message took.
    last_pad: Gf128,
    fold: Option<Fold>,
    simulated: Option<&'a [Gf128]>,
}

impl<'a> Cheat<'a> {
    /// A cover that departs from `inner` as the tamper says.
    pub(crate) fn new(
        inner: &'a mut dyn Cover,
        message: Option<(usize, MessageCheat)>,
        evaluations: Option<EvaluationsTamper<'a>>,
        fold: Option<Fold>,
        simulated: Option<&'a [Gf128]>,
    ) -> Self {
        Cheat {
            inner,
            taken: 0,
            message,
            evaluations,
            last_pad: Gf128::ZERO,
            fold,
            simulated,
        }
    }
}

impl Cover for Cheat<'_> {
    fn masks(&mut self) -> Option<[Gf128; 2]> {
        self.taken += 2;
        self.inner.masks()
    }

    fn cover(&mut self, m: Gf128) -> Gf128 {
        let sent = self.inner.cover(m);
        let pad = sent + m;
        self.taken += 1;
        let out = match self.message {
            Some((at, MessageCheat::Add(delta))) if at == self.taken - 1 => sent + delta,
            Some((at, MessageCheat::ReusePad)) if at == self.taken - 1 => m + self.last_pad,
            _ => sent,
        };
        self.last_pad = pad;
        // A simulator's list counts the masks' places, where `A'`, `B'` are.
        self.simulated.map_or(out, |values| values[self.taken - 1])
    }

    fn evaluations(&mut self, evals: [Gf128; 2]) -> [Gf128; 2] {
        let sent = self.inner.evaluations(evals);
        if let Some(values) = self.simulated {
            return [values[0], values[1]];
        }
        self.evaluations.map_or(sent, |f| f(sent))
    }

    fn fold(&mut self, which: Fold, weights: &[Gf128], values: &mut [Gf128]) {
        self.inner.fold(which, weights, values);
        if self.fold != Some(which) {
            return;
        }
        // `d` on two entries of nonzero weight, `<weights, d> = 0`.
        let mut weighed = weights.iter().enumerate().filter(|(_, w)| !w.is_zero());
        let (Some((i, &wi)), Some((j, &wj))) = (weighed.next(), weighed.next()) else {
            panic!("a fold with two weighed entries");
        };
        values[j] += Gf128::ONE;
        values[i] += wj * wi.inverse().expect("a nonzero weight");
    }
}
