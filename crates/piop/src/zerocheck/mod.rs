//! The zerocheck's prover. The protocol below, its proof and output types,
//! labels and the verifier are `starling_verifier::piop::zerocheck`'s,
//! re-exported here.
//!
//! Zerocheck for batched R1CS over GF(2), `(A z) ∘ (B z) = C z`, with a
//! univariate skip over the low 6 instance bits.
//!
//! The zerocheck sees three bit vectors of length `2^l`: `a = A z`,
//! `b = B z` and `c = C z` (`C = I ⊕ N`: an AND row's output wire, possibly
//! with a linear form XORed in), and proves `a & b == c`. One `u64` word
//! holds the 64 values of the skip variables (DESIGN §2.3 step 3). For each
//! word `x'` the 64 bits are the values on the skip domain `S` of a
//! polynomial of degree < 64 (`a_hat_{x'}`, see [`crate::skip`]).
//! With `tau'` random in `F^(l-6)`:
//! `P_ab(Y) = sum_{x'} eq(tau', x') a_hat(Y) b_hat(Y)` (degree <= 126) and
//! `P_c(Y) = sum_{x'} eq(tau', x') c_hat(Y)` agree on `S` for a valid witness.
//!
//! Protocol (Gruen, "Some improvements for the PIOP for ZeroCheck", ePrint 2024/108: the univariate skip and the factoring out of `eq`):
//! 1. `P` sends `v_y = P_c(s_y)` (64 values) and `P_ab` on the 63 extra points.
//! 2. `V` draws `r0`; `claim_ab` = the degree-126 interpolant at `r0`,
//!    `claim_c = sum_y L_y(r0) v_y` (a claim on `c`, left to the lincheck).
//! 3. `P` folds `A(x') = a_hat_{x'}(r0)`, `B(x') = b_hat_{x'}(r0)`.
//! 4. Sumcheck over the `l - 6` word variables of `eq(tau', x') A B`, lowest
//!    variable first. Round `j`'s polynomial is `prefix * eq(tau'_j, X) * q_j(X)`
//!    with `q_j` quadratic; `P` sends `q_j(0)` and its `X^2` coefficient, `V`
//!    divides the claim by the known prefix and recovers `q_j(1)`.
//! 5. `P` sends `A(r')`, `B(r')`; `V` checks `claim == eq(tau', r') A(r') B(r')`.
//!
//! `tau'` is drawn with nonzero coordinates so that step 4 can divide by them.
//! Only the skip pass touches the bits; no field vector is longer than `2^(l-6)`.

mod prover;
pub mod reference;

pub(crate) use prover::prepare_tables;
#[cfg(test)]
pub(crate) use prover::{fold_words, gruen_round, live_len, skip_messages, skip_messages_with, sumcheck};
pub use prover::{prove, prove_in_place, CWords};
pub use starling_verifier::piop::zerocheck::*;

#[cfg(test)]
mod tests;
