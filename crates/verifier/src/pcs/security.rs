//! The security calculator: every soundness error term of the PCS (and, through
//! [`SecurityReport::add`], of the layers above), with the theorem it comes
//! from, summed into one total.
//!
//! All bounds are provable: each committed code is tested inside its unique
//! decoding radius, so no proximity-gap conjecture is used. The total is the
//! sum of the error probabilities (a union bound over the protocol's bad
//! events), reported as `-log2(sum)` bits. Hash functions are modelled as
//! random oracles; collision terms of the Merkle trees are not listed.
//!
//! A proof-of-work of `g` bits before a challenge makes every attempt at that
//! challenge cost `2^g` hashes, so a term that depends only on that challenge
//! is counted `g` bits smaller (the standard accounting of grinding in
//! Fiat–Shamir'd IOPs, e.g. ethSTARK documentation, Section 6).

use alloc::string::String;
use alloc::vec::Vec;

use libm::{ceil, exp2, floor, log2};

/// GF(2^128): every challenge is a uniform field element.
pub const FIELD_BITS: f64 = 128.0;

/// Which soundness level the parameters must reach (in total, provably).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecurityProfile {
    /// At least 100 bits in total.
    Default,
    /// At least 120 bits in total.
    Secure,
}

impl SecurityProfile {
    /// The bits the whole proof system must reach under this profile.
    pub fn target_bits(self) -> f64 {
        match self {
            SecurityProfile::Default => 100.0,
            SecurityProfile::Secure => 120.0,
        }
    }

    /// The bits the PCS (with ring switching) reaches on its own: one bit more
    /// than the target, which leaves half the error budget to the PIOP terms
    /// (zerocheck, lincheck) added on top.
    pub fn pcs_bits(self) -> f64 {
        self.target_bits() + 1.0
    }

    /// One-byte identifier, bound into the transcript.
    pub fn id(self) -> u8 {
        match self {
            SecurityProfile::Default => 0,
            SecurityProfile::Secure => 1,
        }
    }

    /// Bits of proof of work before each one-shot challenge of the PIOP (the
    /// zerocheck's batching point and skip point, the public-value point).
    /// Their Schwartz–Zippel terms are within a factor 2^7 of 2^-128, so
    /// without it the secure total could not reach 120 bits.
    pub fn piop_grinding_bits(self) -> u32 {
        match self {
            SecurityProfile::Default => 0,
            SecurityProfile::Secure => 8,
        }
    }

    /// The profile with this [`SecurityProfile::id`], if any.
    pub fn from_id(id: u8) -> Option<Self> {
        match id {
            0 => Some(SecurityProfile::Default),
            1 => Some(SecurityProfile::Secure),
            _ => None,
        }
    }

    /// The name users type (`default`, `secure`).
    pub fn name(self) -> &'static str {
        match self {
            SecurityProfile::Default => "default",
            SecurityProfile::Secure => "secure",
        }
    }
}

/// One error term: what it is and `log2` of its probability.
#[derive(Clone, Debug, PartialEq)]
pub struct SecurityTerm {
    /// What the term bounds.
    pub name: String,
    /// `log2` of the error probability (negative; `-inf` for zero).
    pub log2_error: f64,
}

/// A list of error terms and their total.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SecurityReport {
    terms: Vec<SecurityTerm>,
}

impl SecurityReport {
    /// An empty report.
    pub fn new() -> Self {
        SecurityReport::default()
    }

    /// Adds a term with error probability `2^log2_error`.
    pub fn add(&mut self, name: impl Into<String>, log2_error: f64) {
        self.terms.push(SecurityTerm {
            name: name.into(),
            log2_error,
        });
    }

    /// Appends all terms of another report.
    pub fn extend(&mut self, other: &SecurityReport) {
        self.terms.extend(other.terms.iter().cloned());
    }

    /// The terms in the order they were added.
    pub fn terms(&self) -> &[SecurityTerm] {
        &self.terms
    }

    /// `log2` of the sum of all error probabilities.
    pub fn total_log2_error(&self) -> f64 {
        log2_sum(self.terms.iter().map(|t| t.log2_error))
    }

    /// Security in bits: `-log2(sum of the error probabilities)`.
    pub fn bits(&self) -> f64 {
        -self.total_log2_error()
    }
}

impl core::fmt::Display for SecurityReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for t in &self.terms {
            writeln!(f, "{:>8.2} bits  {}", -t.log2_error, t.name)?;
        }
        write!(f, "{:>8.2} bits  total", self.bits())
    }
}

/// `log2(sum_i 2^x_i)`, stable for very negative `x_i`.
pub fn log2_sum(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let max = xs.clone().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + log2(xs.map(|x| exp2(x - max)).sum::<f64>())
}

/// The decoding regime the calculator works in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProximityRegime {
    /// Proximity parameter `e = floor((d - 1) / 2)` (unique decoding radius of
    /// Reed–Solomon codes), gap error `2 * folds * n / |F|`.
    UniqueDecoding,
    /// Proximity parameter `e = floor((d - 1) / 3)` (valid for every linear
    /// code), gap error `2 * folds * e / |F|`.
    ThirdDistance,
}

/// The regime used by the parameter choice and the report.
pub const REGIME: ProximityRegime = ProximityRegime::UniqueDecoding;

/// Block length `n`, and the proximity parameter `e` (in positions) for a
/// Reed–Solomon code with `2^log_msg` symbols and rate `2^-log_inv_rate`.
pub fn proximity_parameter(log_msg: usize, log_inv_rate: usize) -> (f64, f64) {
    let n = exp2((log_msg + log_inv_rate) as f64);
    let k = exp2(log_msg as f64);
    // Minimum distance of an RS code (MDS): d = n - k + 1.
    let d = n - k + 1.0;
    let e = match REGIME {
        ProximityRegime::UniqueDecoding => floor((d - 1.0) / 2.0),
        ProximityRegime::ThirdDistance => floor((d - 1.0) / 3.0),
    };
    (n, e)
}

/// Proximity gap of the `folds`-fold tensor (sumcheck) combination of the rows
/// of an interleaved RS code, with `grinding_bits` of work before each fold.
///
/// Sources: for `e <= (d-1)/3` and any linear code, Diamond–Posen,
/// "Proximity Testing with Logarithmic Randomness" (CiC 2024), Theorem 2:
/// the tensor combination with `folds` random challenges of a word more than
/// `e`-far from the interleaved code is `e`-close with probability at most
/// `2 * folds * e / |F|`. Up to the unique decoding radius of Reed–Solomon
/// codes: Diamond–Gruen, "Proximity Gaps in Interleaved Codes" (2025),
/// Theorem 3.1 (line gaps lift to interleavings) and Corollary 3.7 (tensor
/// gaps for RS codes, through Theorem 3.6 of Arnon–Efron–Reichman), starting
/// from the line gap of BCIKS20 ("Proximity Gaps for Reed–Solomon Codes",
/// JACM 2023) Theorem 4.1, error `n / |F|` per line. We charge
/// `2 * folds * n / |F|`, which is at least what these give and dominates
/// the `(d-1)/3` bound.
pub fn proximity_gap_log2(folds: usize, log_msg: usize, log_inv_rate: usize, grinding_bits: u32) -> f64 {
    if folds == 0 {
        return f64::NEG_INFINITY;
    }
    let (n, e) = proximity_parameter(log_msg, log_inv_rate);
    let bad = match REGIME {
        ProximityRegime::UniqueDecoding => n,
        ProximityRegime::ThirdDistance => e.max(1.0),
    };
    log2(2.0 * folds as f64 * bad) - FIELD_BITS - grinding_bits as f64
}

/// Query soundness of one level: a word `e`-far from the code (relative
/// distance `delta = e / n`) passes `queries` independent uniform column
/// checks with probability at most `(1 - delta)^queries`.
///
/// Source: Ames–Hazay–Ishai–Venkitasubramaniam, "Ligero" (CCS 2017), Lemma 4.2
/// and Section 4's consistency test; Ligerito (Novakovic–Angeris 2025), Section 4.
/// Positions are drawn with repetition, so duplicates still count. With `g`
/// bits of grinding before the positions are drawn the caller counts the
/// term `g` bits smaller (module doc).
pub fn query_log2(log_msg: usize, log_inv_rate: usize, queries: usize) -> f64 {
    let (n, e) = proximity_parameter(log_msg, log_inv_rate);
    queries as f64 * log2(1.0 - e / n)
}

/// Smallest number of queries with [`query_log2`] at most `log2_target`.
///
/// A code that decodes no error at all (`e = 0`) gains nothing from queries;
/// the answer is then `usize::MAX`, which parameter validation refuses.
pub fn queries_for(log_msg: usize, log_inv_rate: usize, log2_target: f64) -> usize {
    let per = -query_log2(log_msg, log_inv_rate, 1);
    if per <= 0.0 {
        return usize::MAX;
    }
    let mut t = ceil(-log2_target / per).max(1.0) as usize;
    while query_log2(log_msg, log_inv_rate, t) > log2_target {
        t += 1;
    }
    t
}

/// A sumcheck of `rounds` rounds with round polynomials of degree `degree`:
/// `rounds * degree / |F|` (Lund–Fortnow–Karloff–Nisan; Thaler, "Proofs,
/// Arguments and Zero-Knowledge", Section 4.1, Schwartz–Zippel per round).
pub fn sumcheck_log2(rounds: usize, degree: usize) -> f64 {
    if rounds == 0 {
        return f64::NEG_INFINITY;
    }
    log2((rounds * degree) as f64) - FIELD_BITS
}

/// Batching checks with independent uniform coefficients: if any check fails,
/// the combination is a nonzero linear form in the coefficients, which
/// vanishes with probability `1 / |F|` (Schwartz–Zippel, degree 1).
pub fn random_batching_log2() -> f64 {
    -FIELD_BITS
}

/// Ring-switching terms for `claims` packed claims, added to `report`.
///
/// Source: Diamond–Posen, "Polylogarithmic Proofs for Multilinears over Binary
/// Towers" (2024), Section 3 (ring switching): a wrong vector of bit
/// evaluations gives a nonzero multilinear in the 7 variables of `r''`, caught
/// except with probability `7 / |F|` (Schwartz–Zippel); batching the claims
/// with independent coefficients `gamma_i` adds `1 / |F|`.
pub fn add_ring_switch_terms(report: &mut SecurityReport, claims: usize) {
    report.add(
        "ring switching: tensor check at r'' (Schwartz-Zippel, 7 variables)",
        sumcheck_log2(1, 7),
    );
    if claims > 1 {
        report.add("ring switching: batching of claims (gamma)", -FIELD_BITS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // RS code with 2^4 symbols at rate 1/4: n = 64, d = 49, e = 24, delta = 3/8.
        let (n, e) = proximity_parameter(4, 2);
        assert_eq!((n, e), (64.0, 24.0));
        // 100 queries: 100 * log2(5/8) = -67.807...
        assert!((query_log2(4, 2, 100) - (-67.807_190_511)).abs() < 1e-6);
        // 3 folds: log2(2 * 3 * 64) - 128 = log2(384) - 128 = -119.415...
        assert!((proximity_gap_log2(3, 4, 2, 0) - (-119.415_037_499)).abs() < 1e-6);
        assert!((proximity_gap_log2(3, 4, 2, 5) - (-124.415_037_499)).abs() < 1e-6);
        // 20 rounds of degree 2: log2(40) - 128.
        assert!((sumcheck_log2(20, 2) - (-122.678_071_905)).abs() < 1e-6);
        // Total of two equal terms is one bit worse.
        let mut r = SecurityReport::new();
        r.add("a", -100.0);
        r.add("b", -100.0);
        assert!((r.bits() - 99.0).abs() < 1e-9);
        assert_eq!(queries_for(4, 2, -67.0), 99);
    }
}
