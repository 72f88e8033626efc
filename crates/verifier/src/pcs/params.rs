//! Parameters of the Ligerito opening: per level the number of row variables
//! folded, the code rate, the number of queries and the grinding bits, chosen
//! from the number of variables and the security profile by
//! [`PcsParams::new`] and never below what [`super::security`] proves.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};

use libm::{ceil, exp2, log2};

use super::security::{
    add_ring_switch_terms, proximity_gap_log2, queries_for, query_log2, random_batching_log2, sumcheck_log2,
    SecurityProfile, SecurityReport, FIELD_BITS,
};
use super::PcsError;

/// Largest number of variables the PCS accepts.
pub const MAX_NUM_VARS: usize = 40;
/// Most elements of a hiding opening's level-0 column: one BLAKE3 chunk
/// (1 KiB), what the prover's many-at-once leaf hashing takes (a plain
/// opening's 64 rows are the most it commits).
pub const MAX_LEVEL0_WIDTH: usize = 64;
/// Fewest data row variables `k` of a hiding opening's level 0: the row
/// rounds and `G` are `2k + 1` linear forms of the rows' `2^k` mask
/// entries `pi_r`, which hide them only if `2^k >= 2k + 1`.
pub const MIN_HIDING_ROW_VARS: usize = 3;
/// Largest grinding difficulty (bits) a proof may ask for.
pub const MAX_GRINDING_BITS: u32 = 30;
/// Largest query count per level.
pub const MAX_QUERIES: usize = 4096;

/// One level of the opening: its matrix has `2^log_rows` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// `k_i`: row variables, folded by the sumcheck at this level (at least 1).
    pub log_rows: usize,
    /// `R_i`: the code has rate `2^-log_inv_rate`.
    pub log_inv_rate: usize,
    /// `t_i`: query positions drawn (with repetition).
    pub queries: usize,
    /// Proof-of-work bits before each fold challenge of this level.
    pub grinding_bits: u32,
    /// Proof-of-work bits before this level's query positions are drawn.
    pub query_grinding_bits: u32,
}

/// Parameters of the PCS for polynomials in `num_vars` variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcsParams {
    num_vars: usize,
    profile: SecurityProfile,
    levels: Vec<LevelParams>,
    /// Table entries that may be nonzero (a prefix; the rest is zero by the
    /// caller's layout). Level 0's rows past it are neither encoded, hashed
    /// nor opened ([`PcsParams::level_width`]). With [`PcsParams::hiding`], a
    /// prefix of the data table.
    live_len: usize,
    /// A hiding opening ([`PcsParams::hiding`]).
    hiding: bool,
}

/// Where a hiding opening needs uniformly random entries in every committed
/// data row of level 0 (`ligerito`'s module notes): the `t + 2` entries
/// `offset .. offset + t + 2` of each row's message, `t` the level's query
/// count. `offset` is the top aligned block of `2^log_block >= t + 2`
/// entries of a row; the code reads the row with its index XORed with
/// `offset`, so those entries are the code's lowest coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskRun {
    /// First entry of the run in a row (a multiple of `2^log_block`).
    pub offset: usize,
    /// `log2` of the aligned block the run starts.
    pub log_block: usize,
    /// `t + 2`: the run's length. The first `t` entries randomise the code,
    /// the last two are the row's entries of the row-round mask
    /// ([`MaskRun::row_mask_entries`]).
    pub len: usize,
}

impl MaskRun {
    /// The two entries of each row the row-round mask weighs: after the
    /// code's `t`. Two, not one: the last data row round and the claim it
    /// leaves are three linear forms of the two half-folded rows, which one
    /// random entry per row (two after the fold) cannot all hide; the test
    /// of the view's span failed with one (`crates/pcs/tests/hiding.rs`).
    pub fn row_mask_entries(&self) -> [usize; 2] {
        [self.offset + self.len - 2, self.offset + self.len - 1]
    }
}

/// Rate of level 0 (prover cost grows with 2^R there: at rate 1/2 the
/// commitment's NTT, codeword memory and leaf hashing are half those at 1/4,
/// for about 100 KB more proof at 2^22 elements) and the rates tried later.
const LEVEL0_LOG_INV_RATE: usize = 1;
/// Below this many message variables rate 1/2 decodes too few errors to be
/// worth it (none at all for a 1-symbol message), so level 0 uses rate 1/4.
const LEVEL0_MIN_LOG_MSG_AT_HALF_RATE: usize = 4;
const LEVEL0_SMALL_LOG_INV_RATE: usize = 2;
/// Rates the later levels may take; the proof size picks among them. Rate
/// 1/16 is not offered: where it was the smallest proof it beat rate 1/8 by
/// 0.4-2 KB, and it doubles the level's encoding, hashing and re-encoding
/// (Keccak-f at 2^14, level 1 of sixteen rows: about 30 ms of a 300 ms
/// opening on one Zen 4 thread).
const LATER_LOG_INV_RATES: [usize; 2] = [2, 3];
/// Row variables of level 0 (1 KiB leaves) and the largest tried later.
const LEVEL0_LOG_ROWS: usize = 6;
/// Proof-of-work bits before every level's queries, in both profiles, up to
/// `2^22` table elements: each bit takes one bit off the query term
/// (random-oracle cost model), so 16 bits save about 38 of level 0's 1 KiB
/// columns (and their Merkle paths) at rate 1/2 for 2^16 BLAKE3 attempts,
/// a few milliseconds. Past `2^22` elements three bits more per two
/// doublings of the table, up to [`MAX_QUERY_GRINDING_BITS`]
/// ([`query_grinding_bits`]).
const QUERY_GRINDING_BITS: u32 = 16;
/// The most query grinding bits, from `2^28` elements on: 2^24 BLAKE3
/// attempts per level, 16 at a time with AVX-512 (about 0.3 s for a
/// proof's four levels on one Zen 5 thread), against a minute and more of
/// proving such a table.
const MAX_QUERY_GRINDING_BITS: u32 = 24;

/// Query grinding bits of a table of `2^num_vars` elements: 16 up to
/// `2^22`, then `16 + 3 (num_vars - 22) / 2`, at most 24. Its cost stays
/// about one percent of the proof's time where it grows (256 LMS
/// signatures, `2^25` elements, 20 bits: 20 ms of 2.8 s on one Zen 5
/// thread), while the queries it saves shrink large proofs (1,024 LMS
/// signatures, `2^27` elements, 23 bits: about 35 KB of 482).
fn query_grinding_bits(num_vars: usize) -> u32 {
    let extra = 3 * num_vars.saturating_sub(22) as u32 / 2;
    (QUERY_GRINDING_BITS + extra).min(MAX_QUERY_GRINDING_BITS)
}
const MAX_LATER_LOG_ROWS: usize = 6;

impl PcsParams {
    /// The parameters Starling uses for `num_vars` variables under `profile`:
    /// the PCS alone reaches [`SecurityProfile::pcs_bits`].
    pub fn new(num_vars: usize, profile: SecurityProfile) -> Result<Self, PcsError> {
        Self::with_bits(num_vars, profile, profile.pcs_bits())
    }

    /// Parameters for `num_vars` variables under `profile` whose own terms
    /// (with ring switching) reach at least `bits`: for a protocol whose other
    /// terms take more than the half of the budget that
    /// [`SecurityProfile::pcs_bits`] leaves them.
    pub fn with_bits(num_vars: usize, profile: SecurityProfile, bits: f64) -> Result<Self, PcsError> {
        if num_vars == 0 || num_vars > MAX_NUM_VARS {
            return Err(PcsError::InvalidParams(format!(
                "num_vars must be in 1..={MAX_NUM_VARS}"
            )));
        }
        Self::with_level0_rows(num_vars, num_vars.min(LEVEL0_LOG_ROWS), profile, bits)
    }

    /// Parameters of a hiding opening (`ligerito`'s module notes) of a data
    /// table of `data_vars` variables, zero from `live_len` on, under
    /// `profile`, whose own terms reach `bits`: the committed polynomial has
    /// one variable more (`T`, the mask row's half), which level 0 folds
    /// last. Level 0 keeps at most [`LEVEL0_LOG_ROWS`] data row variables,
    /// fewer when a row would not hold the [`MaskRun`] or a column (the live
    /// rows, the mask row and the salt) would pass [`MAX_LEVEL0_WIDTH`]; a
    /// table too small for [`MIN_HIDING_ROW_VARS`] row variables that hold the run is refused (a caller
    /// pads it).
    pub fn hiding_with_bits(
        data_vars: usize,
        live_len: usize,
        profile: SecurityProfile,
        bits: f64,
    ) -> Result<Self, PcsError> {
        if data_vars == 0 || data_vars >= MAX_NUM_VARS {
            return Err(PcsError::InvalidParams(format!(
                "a hiding opening takes 1..{MAX_NUM_VARS} data variables"
            )));
        }
        let mut last = None;
        for k in (MIN_HIDING_ROW_VARS..=data_vars.min(LEVEL0_LOG_ROWS)).rev() {
            match Self::hiding_with_rows(data_vars, k, profile, bits).and_then(|p| p.hiding(live_len)) {
                Ok(p) => return Ok(p),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| {
            PcsError::InvalidParams(format!(
                "a table of {data_vars} variables is too small for a hiding opening"
            ))
        }))
    }

    /// Parameters of a hiding opening of a data table of `data_vars`
    /// variables whose level 0 has `k` data row variables, one row live
    /// (a caller that lays its table out around the [`MaskRun`] picks `k`,
    /// then the live length with [`PcsParams::with_live_len`]).
    pub fn hiding_with_rows(
        data_vars: usize,
        k: usize,
        profile: SecurityProfile,
        bits: f64,
    ) -> Result<Self, PcsError> {
        if data_vars == 0 || data_vars >= MAX_NUM_VARS || k > data_vars {
            return Err(PcsError::InvalidParams(format!(
                "a hiding opening takes 1..{MAX_NUM_VARS} data variables, at least its row variables"
            )));
        }
        Self::with_level0_rows(data_vars + 1, k + 1, profile, bits).and_then(|p| p.hiding(1))
    }

    /// [`PcsParams::hiding_with_bits`] at [`SecurityProfile::pcs_bits`].
    pub fn new_hiding(data_vars: usize, live_len: usize, profile: SecurityProfile) -> Result<Self, PcsError> {
        Self::hiding_with_bits(data_vars, live_len, profile, profile.pcs_bits())
    }

    /// These parameters as a hiding opening of a data table zero from
    /// `live_len` on: level 0's last row variable is `T`, whose half of the
    /// table holds the mask row only. Refused when level 0 has fewer than
    /// [`MIN_HIDING_ROW_VARS`] data row variables, a row does not hold the
    /// [`MaskRun`] or a column passes [`MAX_LEVEL0_WIDTH`].
    pub fn hiding(mut self, live_len: usize) -> Result<Self, PcsError> {
        self.hiding = true;
        self.live_len = live_len;
        self.validate()?;
        Ok(self)
    }

    /// Whether the opening hides the table ([`PcsParams::hiding`]).
    pub fn is_hiding(&self) -> bool {
        self.hiding
    }

    /// Variables of the data table: [`PcsParams::num_vars`], less the mask
    /// row's variable `T` of a hiding opening.
    pub fn data_vars(&self) -> usize {
        self.num_vars - usize::from(self.hiding)
    }

    /// Where a hiding opening needs random entries in each data row.
    pub fn mask_run(&self) -> Option<MaskRun> {
        self.hiding.then(|| {
            let len = self.levels[0].queries + 2;
            let log_block = len.next_power_of_two().trailing_zeros() as usize;
            MaskRun {
                offset: (1 << self.level_log_msg(0)) - (1 << log_block),
                log_block,
                len,
            }
        })
    }

    /// Parameters whose level 0 folds `k0` row variables.
    fn with_level0_rows(
        num_vars: usize,
        k0: usize,
        profile: SecurityProfile,
        bits: f64,
    ) -> Result<Self, PcsError> {
        // Pick the shape (rows, rates) of the later levels by estimated proof
        // size, then size queries and grinding for the actual level count.
        let guess = per_term_budget(num_vars, bits, 3);
        let query_grinding = query_grinding_bits(num_vars);
        if !guess.is_finite() {
            return Err(PcsError::InvalidParams(format!(
                "{num_vars} variables cannot reach {bits:.2} bits: the sumcheck and ring switching alone take more"
            )));
        }
        let shape = best_shape(num_vars - k0, guess, query_grinding);
        let r0 = if num_vars - k0 >= LEVEL0_MIN_LOG_MSG_AT_HALF_RATE {
            LEVEL0_LOG_INV_RATE
        } else {
            LEVEL0_SMALL_LOG_INV_RATE
        };
        let mut shapes = vec![(k0, r0)];
        shapes.extend(shape);
        let budget = per_term_budget(num_vars, bits, shapes.len());
        if !budget.is_finite() {
            return Err(PcsError::InvalidParams(format!(
                "{num_vars} variables cannot reach {bits:.2} bits in {} levels",
                shapes.len()
            )));
        }
        let mut levels = Vec::with_capacity(shapes.len());
        let mut remaining = num_vars;
        for &(k, r) in &shapes {
            let m = remaining - k;
            let queries = queries_for(m, r, budget + f64::from(query_grinding));
            let raw = proximity_gap_log2(k, m, r, 0);
            let grinding_bits = ceil(raw - budget).max(0.0) as u32;
            levels.push(LevelParams {
                log_rows: k,
                log_inv_rate: r,
                queries,
                grinding_bits,
                query_grinding_bits: query_grinding,
            });
            remaining = m;
        }
        let params = PcsParams {
            num_vars,
            profile,
            levels,
            live_len: 1 << num_vars,
            hiding: false,
        };
        params.validate()?;
        Ok(params)
    }

    /// These parameters for a table whose entries from `live_len` on are
    /// zero: level 0 commits only the rows that hold entries below it. The
    /// security terms do not change (the committed matrix is the same, with
    /// rows the verifier takes as zero).
    pub fn with_live_len(mut self, live_len: usize) -> Result<Self, PcsError> {
        self.live_len = live_len;
        self.validate()?;
        Ok(self)
    }

    /// Parameters with explicitly chosen levels (validated; the security they
    /// reach is whatever [`PcsParams::security_report`] says).
    pub fn with_levels(
        num_vars: usize,
        profile: SecurityProfile,
        levels: Vec<LevelParams>,
    ) -> Result<Self, PcsError> {
        let p = PcsParams {
            num_vars,
            profile,
            levels,
            live_len: 1 << num_vars,
            hiding: false,
        };
        p.validate()?;
        Ok(p)
    }

    fn validate(&self) -> Result<(), PcsError> {
        let bad = |s: &str| Err(PcsError::InvalidParams(s.to_string()));
        if self.num_vars == 0 || self.num_vars > MAX_NUM_VARS {
            return bad("num_vars out of range");
        }
        if self.levels.is_empty() {
            return bad("at least one level is needed");
        }
        if self.live_len == 0 || self.live_len > 1 << self.data_vars() {
            return bad("the live length must be in 1..=2^num_vars");
        }
        if self.hiding {
            if self.levels[0].log_rows < MIN_HIDING_ROW_VARS + 1 {
                return bad("a hiding opening needs eight data rows at level 0");
            }
            let run = self.mask_run().expect("hiding");
            if run.log_block > self.level_log_msg(0) {
                return bad("a level-0 row does not hold the hiding opening's mask run");
            }
            if self.level_width(0) > MAX_LEVEL0_WIDTH {
                return bad("a hiding opening's level-0 column would pass one leaf chunk");
            }
        }
        let mut remaining = self.num_vars;
        for l in &self.levels {
            if l.log_rows == 0 || l.log_rows > remaining {
                return bad("every level folds at least one and at most the remaining variables");
            }
            remaining -= l.log_rows;
            if l.log_inv_rate == 0 || l.log_inv_rate > 8 || remaining + l.log_inv_rate > 48 {
                return bad("code rate out of range");
            }
            if l.queries == 0 || l.queries > MAX_QUERIES {
                return bad("query count out of range");
            }
            if l.grinding_bits > MAX_GRINDING_BITS || l.query_grinding_bits > MAX_GRINDING_BITS {
                return bad("grinding difficulty too high");
            }
        }
        Ok(())
    }

    /// `L`, the number of variables of the committed polynomial.
    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    /// The security profile.
    pub fn profile(&self) -> SecurityProfile {
        self.profile
    }

    /// The levels, level 0 (the committed table) first.
    pub fn levels(&self) -> &[LevelParams] {
        &self.levels
    }

    /// Index of the first variable of level `i`'s matrix (`v_i`).
    pub fn level_offset(&self, i: usize) -> usize {
        self.levels[..i].iter().map(|l| l.log_rows).sum()
    }

    /// `m_i`: message variables of level `i` (its matrix covers `v_i..L`).
    pub fn level_log_msg(&self, i: usize) -> usize {
        self.num_vars - self.level_offset(i) - self.levels[i].log_rows
    }

    /// `log2` of the codeword length (Merkle depth) of level `i`.
    pub fn level_log_len(&self, i: usize) -> usize {
        self.level_log_msg(i) + self.levels[i].log_inv_rate
    }

    /// Table entries that may be nonzero (a prefix of the table).
    pub fn live_len(&self) -> usize {
        self.live_len
    }

    /// Entries of level 0's rows that may be nonzero ([`PcsParams::level_width`]`(0)`
    /// whole rows): [`PcsParams::live_len`] rounded up to a row. The opening's
    /// weight is zero past it (`ring_switch`'s live length), so the prover
    /// neither builds nor folds the weight of the rows it does not commit.
    pub fn live_rows_len(&self) -> usize {
        self.level0_data_rows() << self.level_log_msg(0)
    }

    /// Level 0's rows of data that may be nonzero: [`PcsParams::live_len`]
    /// in whole rows.
    pub fn level0_data_rows(&self) -> usize {
        self.live_len.div_ceil(1 << self.level_log_msg(0))
    }

    /// Elements of each opened column of level `i`: the rows of its matrix
    /// that may be nonzero. Level 0's rows are the top `k_0` variables of the
    /// table (row `r` is the message `table[r 2^m_0 .. (r + 1) 2^m_0]`), so the
    /// rows past [`PcsParams::live_len`] are zero and left out; every later
    /// level's table is a fold, with all `2^k_i` rows. A hiding opening's
    /// level 0 commits two rows more: the mask row `M` and the salt row.
    pub fn level_width(&self, i: usize) -> usize {
        if i == 0 {
            self.level0_data_rows() + 2 * usize::from(self.hiding)
        } else {
            1 << self.levels[i].log_rows
        }
    }

    /// Variables of the final message sent in the clear.
    pub fn final_log_len(&self) -> usize {
        self.level_log_msg(self.levels.len() - 1)
    }

    /// Bytes binding these parameters into a transcript.
    pub fn transcript_bytes(&self) -> Vec<u8> {
        let mut out = vec![self.num_vars as u8, self.profile.id(), self.levels.len() as u8];
        out.extend_from_slice(&(self.live_len as u64).to_le_bytes());
        for l in &self.levels {
            out.push(l.log_rows as u8);
            out.push(l.log_inv_rate as u8);
            out.extend_from_slice(&(l.queries as u16).to_le_bytes());
            out.push(l.grinding_bits as u8);
            out.push(l.query_grinding_bits as u8);
        }
        // Only a hiding opening's bytes say so: every other proof's
        // transcript is what it was before hiding openings existed.
        if self.hiding {
            out.extend_from_slice(b"hiding");
        }
        out
    }

    /// Every error term of the opening (without ring switching).
    pub fn security_report(&self) -> SecurityReport {
        let mut r = SecurityReport::new();
        r.add(
            format!("opening sumcheck: {} rounds of degree 2", self.num_vars),
            sumcheck_log2(self.num_vars, 2),
        );
        if self.hiding {
            // The claim becomes `V + rho G`: a wrong `V` passes for one `rho`
            // at most (Libra's mask challenge, Xie et al. 2019, Section 4).
            r.add("hiding opening: the row-mask challenge rho", -FIELD_BITS);
        }
        for (i, l) in self.levels.iter().enumerate() {
            let m = self.level_log_msg(i);
            let g = if l.grinding_bits > 0 {
                format!(", {} bits of grinding per fold", l.grinding_bits)
            } else {
                String::new()
            };
            r.add(
                format!(
                    "level {i}: proximity gap of {} folds, RS[2^{m}, rate 2^-{}]{g}",
                    l.log_rows, l.log_inv_rate
                ),
                proximity_gap_log2(l.log_rows, m, l.log_inv_rate, l.grinding_bits),
            );
            let qg = if l.query_grinding_bits > 0 {
                format!(" after {} bits of grinding", l.query_grinding_bits)
            } else {
                String::new()
            };
            r.add(
                format!("level {i}: {} queries{qg}", l.queries),
                query_log2(m, l.log_inv_rate, l.queries) - f64::from(l.query_grinding_bits),
            );
            r.add(
                format!("level {i}: batching of query checks (independent coefficients)"),
                random_batching_log2(),
            );
        }
        r
    }

    /// The opening's terms plus ring switching for `claims` packed claims.
    pub fn security_report_with_ring_switch(&self, claims: usize) -> SecurityReport {
        let mut r = self.security_report();
        add_ring_switch_terms(&mut r, claims);
        r
    }

    /// An estimate of the proof size in bytes (queries assumed distinct).
    pub fn estimated_proof_bytes(&self) -> usize {
        let mut total = 0;
        for (i, l) in self.levels.iter().enumerate() {
            total += level_bytes(
                self.level_log_msg(i),
                l.log_rows,
                self.level_width(i),
                l.log_inv_rate,
                l.queries,
                l.grinding_bits,
                l.query_grinding_bits,
            );
        }
        total + final_bytes(self.final_log_len())
    }
}

/// Error budget (log2) of each gap or query term when the PCS is to reach
/// `bits`: sumcheck and ring switching are taken off first, the rest is split
/// evenly over the two main terms of each level.
fn per_term_budget(num_vars: usize, bits: f64, levels: usize) -> f64 {
    let total = exp2(-bits);
    let mut fixed = SecurityReport::new();
    fixed.add("sumcheck", sumcheck_log2(num_vars, 2));
    add_ring_switch_terms(&mut fixed, 4);
    for _ in 0..levels {
        fixed.add("batching", random_batching_log2());
    }
    let rest = total - exp2(fixed.total_log2_error());
    log2(rest / (2 * levels) as f64)
}

/// Bytes of one level: `k` rounds, columns of `width` elements, paths.
fn level_bytes(log_msg: usize, k: usize, width: usize, r: usize, t: usize, g: u32, qg: u32) -> usize {
    let depth = log_msg + r;
    let paths = (depth as f64 - log2(t as f64)).max(0.0);
    let siblings = (t as f64 * paths) as usize;
    (32 * k + if g > 0 { 8 * k } else { 0 } + if qg > 0 { 8 } else { 0 } + 32 + 8)
        .saturating_add(t.saturating_mul(16 * width))
        .saturating_add(32usize.saturating_mul(siblings))
}

fn final_bytes(log_len: usize) -> usize {
    (16 << log_len) + 32 * log_len
}

/// Shapes `(log_rows, log_inv_rate)` of the levels after level 0 for a message
/// of `vars` variables, minimising the estimated proof size.
fn best_shape(vars: usize, budget: f64, query_grinding: u32) -> Vec<(usize, usize)> {
    // best[v] = (bytes, shape) for a remaining message of v variables.
    let mut best: Vec<(usize, Vec<(usize, usize)>)> = Vec::with_capacity(vars + 1);
    for v in 0..=vars {
        let mut choice = (final_bytes(v), Vec::new());
        for k in 1..=v.min(MAX_LATER_LOG_ROWS) {
            for &r in &LATER_LOG_INV_RATES {
                let m = v - k;
                let t = queries_for(m, r, budget + f64::from(query_grinding));
                let g = ceil(proximity_gap_log2(k, m, r, 0) - budget).max(0.0) as u32;
                let bytes = level_bytes(m, k, 1 << k, r, t, g, query_grinding) + best[m].0;
                if bytes < choice.0 {
                    let mut shape = vec![(k, r)];
                    shape.extend_from_slice(&best[m].1);
                    choice = (bytes, shape);
                }
            }
        }
        best.push(choice);
    }
    best.pop().map(|b| b.1).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_grinding_grows_with_large_tables_only() {
        let bits: Vec<u32> = (20..=30).map(query_grinding_bits).collect();
        assert_eq!(bits, [16, 16, 16, 17, 19, 20, 22, 23, 24, 24, 24]);
        let level0 = |num_vars| {
            PcsParams::with_bits(num_vars, SecurityProfile::Default, 101.0)
                .unwrap()
                .levels()[0]
                .query_grinding_bits
        };
        assert_eq!((level0(22), level0(27)), (16, 23));
    }

    #[test]
    fn parameters_for_more_bits_reach_them_or_are_refused() {
        for bits in [101.5, 121.3, 122.0, 123.0] {
            for l in 1..=36 {
                match PcsParams::with_bits(l, SecurityProfile::Secure, bits) {
                    Ok(p) => {
                        let got = p.security_report_with_ring_switch(4).bits();
                        assert!(got >= bits, "L = {l}: {got} of {bits} bits");
                    }
                    Err(e) => assert!(bits > 121.0, "L = {l}, {bits} bits refused: {e}"),
                }
            }
        }
    }

    #[test]
    fn profiles_meet_their_targets() {
        for profile in [SecurityProfile::Default, SecurityProfile::Secure] {
            for l in 1..=26 {
                let p = PcsParams::new(l, profile).unwrap();
                let bits = p.security_report_with_ring_switch(4).bits();
                assert!(
                    bits >= profile.pcs_bits(),
                    "L = {l}, {profile:?}: {bits} bits\n{}",
                    p.security_report()
                );
            }
        }
    }
}
