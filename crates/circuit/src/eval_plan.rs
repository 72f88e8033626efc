//! Where bit-sliced evaluation keeps its wires: one buffer slot per wire,
//! from the step that computes it to the last step that reads it, then
//! reused.
//!
//! The witness generator evaluates a block of `L` words of every wire at a
//! time and writes each wire's `L` words to its row of the batch tables
//! (rows are `N/8` bytes apart). Holding every wire of the block made its
//! buffer `2^k · 8L` bytes (8 MiB for Keccak-f's `2^16` wires at `L =
//! 16`), so blocks stayed narrow and each page of the three tables the pass
//! writes was visited once per 128 bytes: on the device Xeon that pass ran
//! at about 1.2 GB/s. Few wires are alive at once (a round's state and what
//! is computed from it: 2,466 of SHA-256's 32,768 wires, 3,041 of
//! Keccak-f's 65,536), so slots keep the buffer small and let the blocks
//! widen (`witness::generator_lanes`).

use crate::a_from_b::AFromB;
use crate::r1cs::{R1cs, SparseRows};
use std::sync::OnceLock;

/// The plan of `r1cs`, made the first time it is asked for and kept in the
/// system's prover cache: a verifier never needs it, and Keccak-f's took
/// 20 ms of a 100 ms `starling verify` (Zen 1) when every compiled system
/// made one. It is derived from the system's rows, which do not change once
/// compiled.
pub(crate) fn plan(r1cs: &R1cs) -> &EvalPlan {
    r1cs.prover_cache()
        .get_or_init(|| {
            let loaded: Vec<u32> = (0..=r1cs.num_public_inputs() as u32)
                .chain(r1cs.private_input_wires().iter().copied())
                .collect();
            Box::new(EvalPlan::new(
                r1cs.num_wires(),
                [r1cs.a(), r1cs.b(), r1cs.addend()],
                &loaded,
                r1cs.eval_order(),
            ))
        })
        .downcast_ref()
        .expect("the prover cache holds the plan")
}

/// Slot assignment and the rows rewritten over slots, for
/// [`crate::R1cs`]'s evaluation order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalPlan {
    /// Slots the buffer needs: the most wires alive at once.
    pub(crate) slots: usize,
    /// The wires read from the inputs (the constant, the public inputs, the
    /// private inputs, in that order), each with its slot: the constant's is
    /// filled with ones, the others with their input rows.
    pub(crate) loaded: Vec<(u32, u32)>,
    /// The loaded wires' `A` and `B` rows over slots (their forms).
    pub(crate) loaded_a: SparseRows,
    /// See `loaded_a`.
    pub(crate) loaded_b: SparseRows,
    /// The evaluation order, each wire with the slot it is written to.
    pub(crate) steps: Vec<(u32, u32)>,
    /// The steps' `A`, `B` and addend rows over slots.
    pub(crate) a: SparseRows,
    /// See `a`.
    pub(crate) b: SparseRows,
    /// See `a`.
    pub(crate) addend: SparseRows,
    /// Where the zerocheck reads `a` out of `b` ([`crate::witness::a_from_b`]),
    /// made when first asked for.
    pub(crate) a_from_b: OnceLock<Option<AFromB>>,
}

/// No step reads the wire.
const UNREAD: u32 = u32::MAX;

impl EvalPlan {
    /// The plan for wires `0..num_wires` with rows `a`, `b`, `addend`,
    /// `loaded` wires set before evaluation, and `eval_order`, which must be
    /// topological (each row reads only loaded or earlier wires).
    ///
    /// Slots freed by a step's last readers go on a stack and the next wire
    /// takes the top one, so the slots in use stay few and recently touched.
    pub(crate) fn new(
        num_wires: usize,
        [a, b, addend]: [&SparseRows; 3],
        loaded: &[u32],
        eval_order: &[u32],
    ) -> Self {
        // The last step that reads each wire: 0 for the loaded wires' forms,
        // `i + 1` for the `i`-th evaluated wire.
        let mut last_read = vec![UNREAD; num_wires];
        for &w in loaded {
            for &t in a.row(w as usize).iter().chain(b.row(w as usize)) {
                last_read[t as usize] = 0;
            }
        }
        for (i, &w) in eval_order.iter().enumerate() {
            let step = u32::try_from(i + 1).expect("fewer than 2^32 steps");
            let w = w as usize;
            for &t in a.row(w).iter().chain(b.row(w)).chain(addend.row(w)) {
                last_read[t as usize] = step;
            }
        }

        let mut slot_of = vec![UNREAD; num_wires];
        let mut free: Vec<u32> = Vec::new();
        let mut slots = 0u32;
        let mut take = |free: &mut Vec<u32>| {
            free.pop().unwrap_or_else(|| {
                slots += 1;
                slots - 1
            })
        };
        // Appends `row` rewritten over slots to `out`.
        let push_over_slots = |out: &mut SparseRows, slot_of: &[u32], row: &[u32]| {
            out.push_row(row.iter().map(|&t| {
                let s = slot_of[t as usize];
                assert_ne!(s, UNREAD, "wire {t} is read before it is set");
                s
            }))
        };
        // Frees the slots of the wires in `rows` whose last reader is `step`.
        let release = |slot_of: &mut [u32], free: &mut Vec<u32>, rows: &[&[u32]], step: u32| {
            for &t in rows.iter().flat_map(|r| r.iter()) {
                let t = t as usize;
                if last_read[t] == step && slot_of[t] != UNREAD {
                    free.push(slot_of[t]);
                    slot_of[t] = UNREAD;
                }
            }
        };

        let loaded: Vec<(u32, u32)> = loaded
            .iter()
            .map(|&w| {
                let s = take(&mut free);
                slot_of[w as usize] = s;
                (w, s)
            })
            .collect();
        let loaded_rows = |m: &SparseRows| {
            let mut rows = SparseRows::new();
            for &(w, _) in &loaded {
                push_over_slots(&mut rows, &slot_of, m.row(w as usize));
            }
            rows
        };
        let (loaded_a, loaded_b) = (loaded_rows(a), loaded_rows(b));
        for &(w, s) in &loaded {
            if last_read[w as usize] == UNREAD || last_read[w as usize] == 0 {
                free.push(s);
                slot_of[w as usize] = UNREAD;
            }
        }

        let mut steps = Vec::with_capacity(eval_order.len());
        let [mut step_a, mut step_b, mut step_n] = [(); 3].map(|_| SparseRows::new());
        for (i, &w) in eval_order.iter().enumerate() {
            let step = (i + 1) as u32;
            let rows = [a.row(w as usize), b.row(w as usize), addend.row(w as usize)];
            push_over_slots(&mut step_a, &slot_of, rows[0]);
            push_over_slots(&mut step_b, &slot_of, rows[1]);
            push_over_slots(&mut step_n, &slot_of, rows[2]);
            // The step reads its terms before it writes, so its output may
            // take a slot its own terms free.
            release(&mut slot_of, &mut free, &rows, step);
            let s = take(&mut free);
            steps.push((w, s));
            if last_read[w as usize] == UNREAD {
                free.push(s);
            } else {
                slot_of[w as usize] = s;
            }
        }
        EvalPlan {
            slots: slots as usize,
            loaded,
            loaded_a,
            loaded_b,
            steps,
            a: step_a,
            b: step_b,
            addend: step_n,
            a_from_b: OnceLock::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{blake3_compression, keccak_f1600, sha256_compression, sha512_compression, R1cs};

    /// Replays the plan, tracking which wire each slot holds, and checks
    /// that every row it reads over slots names exactly the wires of the
    /// system's row.
    fn check_plan(r1cs: &R1cs) {
        let plan = super::plan(r1cs);
        let mut holds = vec![u32::MAX; plan.slots];
        let wires_of = |holds: &[u32], slots: &[u32]| {
            let mut wires: Vec<u32> = slots.iter().map(|&s| holds[s as usize]).collect();
            wires.sort_unstable();
            wires
        };
        for &(w, s) in &plan.loaded {
            holds[s as usize] = w;
        }
        for (i, &(w, _)) in plan.loaded.iter().enumerate() {
            assert_eq!(wires_of(&holds, plan.loaded_a.row(i)), r1cs.a().row(w as usize));
            assert_eq!(wires_of(&holds, plan.loaded_b.row(i)), r1cs.b().row(w as usize));
        }
        assert_eq!(plan.steps.len(), r1cs.eval_order().len());
        for (i, (&(w, s), &order)) in plan.steps.iter().zip(r1cs.eval_order()).enumerate() {
            assert_eq!(w, order, "steps follow the evaluation order");
            let w = w as usize;
            assert_eq!(
                wires_of(&holds, plan.a.row(i)),
                r1cs.a().row(w),
                "A row of wire {w}"
            );
            assert_eq!(
                wires_of(&holds, plan.b.row(i)),
                r1cs.b().row(w),
                "B row of wire {w}"
            );
            assert_eq!(
                wires_of(&holds, plan.addend.row(i)),
                r1cs.addend().row(w),
                "addend of wire {w}"
            );
            holds[s as usize] = w as u32;
        }
    }

    #[test]
    fn every_read_finds_its_wire_and_few_slots_are_needed() {
        for (name, r1cs) in [
            ("SHA-256", sha256_compression()),
            ("SHA-512", sha512_compression()),
            ("BLAKE3", blake3_compression()),
            ("Keccak-f", keccak_f1600()),
        ] {
            check_plan(&r1cs);
            let slots = super::plan(&r1cs).slots;
            assert!(
                slots * 4 < r1cs.num_wires(),
                "{name}: {slots} slots of {} wires",
                r1cs.num_wires()
            );
        }
    }
}
