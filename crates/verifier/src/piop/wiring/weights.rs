//! The instance-axis weights of the wiring check as multilinear extensions
//! the verifier evaluates at a point (the prover's tables of them are
//! `starling_piop::wiring`'s).
//!
//! A relation over a set of instances `I` weighs instance `y` by
//! `eq(rho, y) [y in I]`; the instance it reads from (`y - 1`, or `map[y]`)
//! gets the pull-back of those weights. The verifier needs each weight's
//! multilinear extension at the sumcheck's point `r`:
//! `sum_y eq(r, y) eq(rho, y) [y in I]` and
//! `sum_{y in I} eq(rho, y) eq(r, src(y))`. For a range of instances and the
//! shift by one, both are digit sums over `n` bits ([`shifted_prefix_sum`],
//! O(n)), so a chain of any length costs the verifier `O(n)`; an explicit set
//! or map costs `O(N)`, which kinds with irregular layouts pay anyway while
//! reading their public data.

use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::ops::Range;

use crate::field::dot;
use crate::poly::eq_table;
use crate::Gf128;

/// A set of instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instances {
    /// `start..end`.
    Range {
        /// First instance.
        start: usize,
        /// One past the last instance.
        end: usize,
    },
    /// The instances whose bit is set (bit `y % 64` of word `y / 64`).
    /// Shared: a layout's relations often hold on one set, and the
    /// verifier weighs a set it has seen once.
    Set(Arc<[u64]>),
}

impl Instances {
    /// The single instance `y`.
    pub fn single(y: usize) -> Self {
        Instances::Range { start: y, end: y + 1 }
    }

    /// Whether the set has no instance.
    pub fn is_empty(&self) -> bool {
        match self {
            Instances::Range { start, end } => start >= end,
            Instances::Set(bits) => bits.iter().all(|&w| w == 0),
        }
    }

    /// Whether `y` is in the set.
    pub fn contains(&self, y: usize) -> bool {
        match self {
            Instances::Range { start, end } => (*start..*end).contains(&y),
            Instances::Set(bits) => bits.get(y / 64).is_some_and(|w| (w >> (y % 64)) & 1 == 1),
        }
    }

    /// Whether every instance of the set is below `2^n`.
    pub fn fits(&self, n: usize) -> bool {
        match self {
            Instances::Range { start, end } => start <= end && *end <= 1 << n,
            Instances::Set(bits) => bits.len() <= (1usize << n).div_ceil(64),
        }
    }

    /// The members in increasing order.
    pub fn members(&self) -> Members<'_> {
        match self {
            Instances::Range { start, end } => Members(MemberWalk::Range(*start..*end)),
            Instances::Set(bits) => Members::of_bits(bits),
        }
    }
}

/// The members of an [`Instances`], in increasing order: a set's are found
/// a word at a time by its lowest set bit (the verifier walks every member
/// of the large sets of a signature batch's relations several times).
pub struct Members<'a>(MemberWalk<'a>);

enum MemberWalk<'a> {
    Range(Range<usize>),
    Bits {
        words: &'a [u64],
        /// The word `word` holds the not yet visited bits of.
        at: usize,
        word: u64,
    },
}

impl<'a> Members<'a> {
    /// The members of a set given as bits (bit `y % 64` of word `y / 64`).
    fn of_bits(words: &'a [u64]) -> Self {
        Members(MemberWalk::Bits {
            words,
            at: 0,
            word: words.first().copied().unwrap_or(0),
        })
    }
}

impl Iterator for Members<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match &mut self.0 {
            MemberWalk::Range(range) => range.next(),
            MemberWalk::Bits { words, at, word } => {
                while *word == 0 {
                    *at += 1;
                    *word = *words.get(*at)?;
                }
                let y = 64 * *at + word.trailing_zeros() as usize;
                *word &= *word - 1;
                Some(y)
            }
        }
    }
}

/// Which instance a relation's second wire run is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Instance `y - 1` (a chain, the blocks of one message).
    Previous,
    /// Instance `map[y]` (a tree, or any layout the statement lists): only
    /// the entries of the relation's instances are read (and must be below
    /// `2^n`); a member past the map's end reads nothing. Shared: a
    /// layout's relations often read through one map.
    Map(Arc<[u32]>),
}

impl Source {
    /// The instance `y` reads from, if any.
    pub fn of(&self, y: usize) -> Option<usize> {
        match self {
            Source::Previous => y.checked_sub(1),
            Source::Map(map) => map.get(y).map(|&x| x as usize),
        }
    }
}

/// `eq(a, x) eq(b, x + d)` summed over `x < limit` with `x + d < 2^n`, where
/// `a` and `b` have `n` coordinates (`b = None` weighs by 1 instead).
///
/// A digit recursion from the lowest bit: the state is the carry of `x + d`
/// and whether the low bits of `x` so far are below those of `limit`. O(n).
pub fn shifted_prefix_sum(a: &[Gf128], b: Option<&[Gf128]>, d: u64, limit: u64) -> Gf128 {
    let n = a.len();
    debug_assert!(n < 64 && b.is_none_or(|b| b.len() == n));
    if d >> n != 0 {
        // x + d >= 2^n for every x.
        return Gf128::ZERO;
    }
    if limit >= 1u64 << n {
        // Every x qualifies: the limit is no constraint past the top bit.
        return shifted_prefix_sum_unbounded(a, b, d);
    }
    // state[carry][less]
    let mut state = [[Gf128::ZERO; 2]; 2];
    state[0][0] = Gf128::ONE;
    for i in 0..n {
        let (di, li) = ((d >> i) & 1, (limit >> i) & 1);
        let mut next = [[Gf128::ZERO; 2]; 2];
        for (carry, row) in state.iter().enumerate() {
            for (less, &v) in row.iter().enumerate() {
                if v.is_zero() {
                    continue;
                }
                for x in 0..2u64 {
                    let s = x + di + carry as u64;
                    let out = s & 1;
                    let new_less = x < li || (x == li && less == 1);
                    let w = bit_weight(a[i], x) * b.map_or(Gf128::ONE, |b| bit_weight(b[i], out));
                    next[(s >> 1) as usize][usize::from(new_less)] += v * w;
                }
            }
        }
        state = next;
    }
    // No carry out of the top bit (x + d < 2^n), and x below the limit.
    state[0][1]
}

/// [`shifted_prefix_sum`] without a limit.
fn shifted_prefix_sum_unbounded(a: &[Gf128], b: Option<&[Gf128]>, d: u64) -> Gf128 {
    let mut state = [Gf128::ONE, Gf128::ZERO];
    for (i, &ai) in a.iter().enumerate() {
        let di = (d >> i) & 1;
        let mut next = [Gf128::ZERO; 2];
        for (carry, &v) in state.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            for x in 0..2u64 {
                let s = x + di + carry as u64;
                let w = bit_weight(ai, x) * b.map_or(Gf128::ONE, |b| bit_weight(b[i], s & 1));
                next[(s >> 1) as usize] += v * w;
            }
        }
        state = next;
    }
    state[0]
}

/// `eq(t, bit)`: `t` for 1, `1 + t` for 0.
fn bit_weight(t: Gf128, bit: u64) -> Gf128 {
    if bit == 1 {
        t
    } else {
        Gf128::ONE + t
    }
}

/// `eq(point, y)` for any `y`, from two tables of half the variables each:
/// `O(2^(n/2))` memory, one product per lookup. The verifier's `O(N)` sums
/// use it so that they do not hold `N` field elements.
pub struct EqLookup {
    low_bits: usize,
    low: Vec<Gf128>,
    /// `low_prefix[i]`: the sum of `low[..i]`, so that a run of members
    /// that share their high coordinates sums in two reads.
    low_prefix: Vec<Gf128>,
    high: Vec<Gf128>,
}

impl EqLookup {
    /// The lookup of `eq(point, .)`.
    pub fn new(point: &[Gf128]) -> Self {
        let low_bits = point.len() / 2;
        Self::of_tables(
            low_bits,
            eq_table(&point[..low_bits]),
            eq_table(&point[low_bits..]),
        )
    }

    fn of_tables(low_bits: usize, low: Vec<Gf128>, high: Vec<Gf128>) -> Self {
        let mut low_prefix = Vec::with_capacity(low.len() + 1);
        let mut sum = Gf128::ZERO;
        low_prefix.push(sum);
        for &e in &low {
            sum += e;
            low_prefix.push(sum);
        }
        EqLookup {
            low_bits,
            low,
            low_prefix,
            high,
        }
    }

    /// `eq(a, y) eq(b, y)` for any `y`, one product per lookup: a
    /// coordinate's factor is `a_i b_i` where `y` has a 1 and
    /// `(1 + a_i)(1 + b_i)` where it has a 0.
    pub fn product(a: &[Gf128], b: &[Gf128]) -> Self {
        debug_assert_eq!(a.len(), b.len());
        let low_bits = a.len() / 2;
        let table = |range: Range<usize>| {
            let mut table = vec![Gf128::ONE];
            for i in range {
                let (one, zero) = (a[i] * b[i], (Gf128::ONE + a[i]) * (Gf128::ONE + b[i]));
                // Entries with this coordinate's bit set follow those without.
                let with: Vec<Gf128> = table.iter().map(|&e| e * one).collect();
                table.iter_mut().for_each(|e| *e *= zero);
                table.extend(with);
            }
            table
        };
        Self::of_tables(low_bits, table(0..low_bits), table(low_bits..a.len()))
    }

    /// The factor of `y`'s low coordinates.
    pub fn low(&self, y: usize) -> Gf128 {
        self.low[y & ((1 << self.low_bits) - 1)]
    }

    /// The group of instances that share `y`'s high coordinates.
    pub fn group(&self, y: usize) -> usize {
        y >> self.low_bits
    }

    /// The factor of a group's high coordinates.
    pub fn high(&self, group: usize) -> Gf128 {
        self.high[group]
    }

    pub fn at(&self, y: usize) -> Gf128 {
        self.low[y & ((1 << self.low_bits) - 1)] * self.high[y >> self.low_bits]
    }

    /// The sum over the members of a set (bit `y % 64` of word `y / 64`).
    /// Members that share their high coordinates share a factor: their low
    /// factors are added first, a run of consecutive members as the
    /// difference of two prefix sums, so a set costs two reads a run (the
    /// sets of a signature batch are long runs: a chain's steps, a lane's
    /// calls of one kind) and one product per `2^low_bits` instances.
    pub fn sum_over(&self, bits: &[u64]) -> Gf128 {
        if self.low_bits < 6 {
            return Members::of_bits(bits).map(|y| self.at(y)).sum();
        }
        let words_per_high = 1usize << (self.low_bits - 6);
        bits.chunks(words_per_high)
            .zip(&self.high)
            .filter(|(words, _)| words.iter().any(|&w| w != 0))
            .map(|(words, &high)| high * run_sums(&self.low_prefix, words))
            .sum()
    }
}

/// The sum of `terms[i]` over the members `i` of a group's words (bit
/// `i % 64` of word `i / 64`), from `prefix`, the prefix sums of `terms`:
/// two reads per run of consecutive members.
fn run_sums(prefix: &[Gf128], words: &[u64]) -> Gf128 {
    let mut sum = Gf128::ZERO;
    for (w, &word) in words.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            let start = word.trailing_zeros() as usize;
            let end = start + (!(word >> start)).trailing_zeros() as usize;
            sum += prefix[64 * w + end] + prefix[64 * w + start];
            word = if end == 64 { 0 } else { word & (!0u64 << end) };
        }
    }
    sum
}

/// `sum_{y in set, y > 0} eq(rho, y) eq(r, y - 1)` in two reads a run of
/// members: in a group of `2^low_bits` instances that share their high
/// coordinates, `y - 1` shares them too except at the group's first
/// instance (whose predecessor is the last of the group before), so the
/// low factors `rho_low[i] r_low[i - 1]` sum by prefix sums and a group
/// costs one product of the high factors. What a relation that reads the
/// instance before over an explicit set (a lane's calls) costs the verifier.
struct PreviousLookup {
    /// Prefix sums of `rho_low[i] r_low[i - 1]` (`i >= 1`; 0 at `i = 0`).
    low_prefix: Vec<Gf128>,
    /// `rho_high[h] r_high[h]`.
    high: Vec<Gf128>,
    /// `eq(rho, y) eq(r, y - 1)` at a group's first instance `y = h 2^low_bits`
    /// (0 for the first group).
    first: Vec<Gf128>,
    words_per_group: usize,
}

impl PreviousLookup {
    /// `None` for groups smaller than a word of the set.
    fn new(rho: &EqLookup, r: &EqLookup) -> Option<Self> {
        debug_assert_eq!(rho.low_bits, r.low_bits);
        if rho.low_bits < 6 {
            return None;
        }
        let last = r.low.len() - 1;
        let mut low_prefix = vec![Gf128::ZERO, Gf128::ZERO];
        let mut sum = Gf128::ZERO;
        for i in 1..rho.low.len() {
            sum += rho.low[i] * r.low[i - 1];
            low_prefix.push(sum);
        }
        let high = rho.high.iter().zip(&r.high).map(|(&a, &b)| a * b).collect();
        let corner = rho.low[0] * r.low[last];
        let first = (0..rho.high.len())
            .map(|h| match h {
                0 => Gf128::ZERO,
                _ => corner * rho.high[h] * r.high[h - 1],
            })
            .collect();
        Some(PreviousLookup {
            low_prefix,
            high,
            first,
            words_per_group: 1 << (rho.low_bits - 6),
        })
    }

    fn sum_over(&self, bits: &[u64]) -> Gf128 {
        bits.chunks(self.words_per_group)
            .enumerate()
            .filter(|(_, words)| words.iter().any(|&w| w != 0))
            .map(|(h, words)| {
                let starts_group = words[0] & 1 == 1;
                let first = if starts_group { self.first[h] } else { Gf128::ZERO };
                self.high[h] * run_sums(&self.low_prefix, words) + first
            })
            .sum()
    }
}

/// The verifier's weights of relations at the instance point `rho` and,
/// after the instance sumcheck, at its point `r`, with the lookups every
/// relation over an explicit set or map shares, made once.
pub struct WeightsAt<'a> {
    rho: &'a [Gf128],
    /// Weights of shared sets (and maps) already computed, by the
    /// addresses of what they depend on: a layout's relations on one set,
    /// split by the wires they bind, are weighed once. (An address names
    /// one set while the relations that hold it live, which is as long as
    /// `self` is used.)
    memo: RefCell<BTreeMap<(usize, usize), Gf128>>,
    eq_rho: EqLookup,
    /// `r`, `eq(r, .)` and `eq(rho, .) eq(r, .)`.
    at_r: Option<(&'a [Gf128], EqLookup, EqLookup)>,
    /// The instance before's weights over a set, where groups are whole words.
    previous: Option<PreviousLookup>,
}

impl<'a> WeightsAt<'a> {
    /// Weights at `rho` alone (`r = None`: weighing by 1 on the `r` side),
    /// or at `rho` and `r` (of the same length).
    pub fn new(rho: &'a [Gf128], r: Option<&'a [Gf128]>) -> Self {
        let eq_rho = EqLookup::new(rho);
        let at_r = r.map(|r| (r, EqLookup::new(r), EqLookup::product(rho, r)));
        let previous = at_r
            .as_ref()
            .and_then(|(_, eq_r, _)| PreviousLookup::new(&eq_rho, eq_r));
        WeightsAt {
            rho,
            memo: RefCell::new(BTreeMap::new()),
            eq_rho,
            at_r,
            previous,
        }
    }

    /// `compute()`, or what it gave before for this shared set and source
    /// (`0` for a set's own weight, `1` for the instance before, a map's
    /// address). Ranges cost `O(n)` and are not kept.
    fn memoized(&self, set: &Instances, source: usize, compute: impl FnOnce() -> Gf128) -> Gf128 {
        let Instances::Set(bits) = set else {
            return compute();
        };
        let key = (Arc::as_ptr(bits) as *const u64 as usize, source);
        if let Some(&weight) = self.memo.borrow().get(&key) {
            return weight;
        }
        let weight = compute();
        self.memo.borrow_mut().insert(key, weight);
        weight
    }

    /// `eq(rho, .)`.
    pub fn eq_rho(&self) -> &EqLookup {
        &self.eq_rho
    }

    /// `sum_{y in set} eq(rho, y) eq(r, y)`, or `sum_{y in set} eq(rho, y)`
    /// without `r`: the weight of a relation's own wires.
    pub fn own(&self, set: &Instances) -> Gf128 {
        self.memoized(set, 0, || self.own_of(set))
    }

    fn own_of(&self, set: &Instances) -> Gf128 {
        let r = self.at_r.as_ref().map(|(r, _, _)| *r);
        match set {
            Instances::Range { start, end } => {
                shifted_prefix_sum(self.rho, r, 0, *end as u64)
                    + shifted_prefix_sum(self.rho, r, 0, *start as u64)
            }
            Instances::Set(bits) => match &self.at_r {
                Some((_, _, both)) => both.sum_over(bits),
                None => self.eq_rho.sum_over(bits),
            },
        }
    }

    /// `sum_{y in set} eq(rho, y) eq(r, src(y))`: the weight, at `r`, of the
    /// wires a relation reads from another instance. Panics without `r`.
    pub fn source(&self, set: &Instances, source: &Source) -> Gf128 {
        let key = match source {
            Source::Previous => 1,
            Source::Map(map) => Arc::as_ptr(map) as *const u32 as usize,
        };
        self.memoized(set, key, || self.source_of(set, source))
    }

    fn source_of(&self, set: &Instances, source: &Source) -> Gf128 {
        let (r, eq_r, _) = self.at_r.as_ref().expect("a point r");
        match (set, source) {
            (Instances::Range { start, end }, Source::Previous) => {
                // y = x + 1 for x in [max(start, 1) - 1, end - 1).
                let (lo, hi) = ((*start).max(1) - 1, end.saturating_sub(1));
                if lo >= hi {
                    return Gf128::ZERO;
                }
                shifted_prefix_sum(r, Some(self.rho), 1, hi as u64)
                    + shifted_prefix_sum(r, Some(self.rho), 1, lo as u64)
            }
            (Instances::Set(bits), Source::Previous) if self.previous.is_some() => {
                self.previous.as_ref().map_or(Gf128::ZERO, |p| p.sum_over(bits))
            }
            _ => {
                let pairs = set.members().filter_map(|y| source.of(y).map(|x| (y, x)));
                pair_sum(&self.eq_rho, eq_r, pairs)
            }
        }
    }
}

/// Pairs [`pair_sum`] weighs with one dot product at most.
const PAIR_CHUNK: usize = 256;

/// `sum eq(a, y) eq(b, x)` over `pairs` `(y, x)` (both lookups over points
/// of one length). Consecutive pairs whose `y` and `x` share their high
/// coordinates share the factor `a.high[y_h] b.high[x_h]`; their low factors
/// are summed as one dot product (a vector kernel), so a pair costs two
/// table reads rather than three products. The pairs of a signature batch's
/// relations come in long such stretches: the instance before, or every
/// call of a signature reading its message's instance.
fn pair_sum(a: &EqLookup, b: &EqLookup, pairs: impl Iterator<Item = (usize, usize)>) -> Gf128 {
    debug_assert_eq!(a.low_bits, b.low_bits);
    let shift = a.low_bits;
    let mask = (1usize << shift) - 1;
    let (mut low_a, mut low_b) = ([Gf128::ZERO; PAIR_CHUNK], [Gf128::ZERO; PAIR_CHUNK]);
    let (mut len, mut high) = (0, (0, 0));
    let mut sum = Gf128::ZERO;
    let stretch = |len: usize, high: (usize, usize), low_a: &[Gf128], low_b: &[Gf128]| {
        a.high[high.0] * b.high[high.1] * dot(&low_a[..len], &low_b[..len])
    };
    for (y, x) in pairs {
        let h = (y >> shift, x >> shift);
        if len == PAIR_CHUNK || (len > 0 && h != high) {
            sum += stretch(len, high, &low_a, &low_b);
            len = 0;
        }
        high = h;
        low_a[len] = a.low[y & mask];
        low_b[len] = b.low[x & mask];
        len += 1;
    }
    if len > 0 {
        sum += stretch(len, high, &low_a, &low_b);
    }
    sum
}
