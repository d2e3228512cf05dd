//! Binomial coefficients and the combinatorial number system (colex rank of point sets).
//!
//! A set of points is a `u32` mask, bit `p` standing for point `p`. Among the sets of one size
//! `k`, the colex rank of `{p_0 < p_1 < ... < p_{k-1}}` is `C(p_0, 1) + C(p_1, 2) + ... +
//! C(p_{k-1}, k)`: the ranks of the `k`-subsets of `0..n` are exactly `0..C(n, k)`, and the order
//! they give is the numeric order of the masks. The `_within` variants rank the subsets of an
//! arbitrary point set `space` as if its points were renumbered `0..popcount(space)`.
//!
//! ```
//! use perfectplay_solver::combin::{binomial, colex_rank, colex_unrank, combinations};
//!
//! assert_eq!(binomial(24, 9), 1_307_504);
//! assert_eq!(colex_rank(0b1011), 1);
//! assert_eq!(colex_unrank(1, 3), 0b1011);
//! let sets: Vec<u32> = combinations(4, 2).collect();
//! assert_eq!(sets, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
//! ```

/// The largest `n` of the precomputed table behind [`choose`].
pub const TABLE_MAX: u32 = 32;

/// `C(n, k)`, the number of `k`-subsets of an `n`-set (0 when `k > n`).
///
/// Exact while the result fits a `u64` (every `n` up to 67); use [`choose`] in hot paths.
///
/// # Panics
///
/// In debug builds, if a partial product passes `u128::MAX`, as it does for some `C(n, k)` far
/// past a `u64` (`C(200, 100)`, say); release builds return a wrong value then, as they do for
/// any result past a `u64`.
#[must_use]
pub const fn binomial(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = if k > n - k { n - k } else { k };
    // u128 keeps the running product `r * (n - i)` from overflowing before the exact division.
    let mut r: u128 = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) as u128 / (i + 1) as u128;
        i += 1;
    }
    r as u64
}

const fn build_table() -> [[u64; TABLE_MAX as usize + 1]; TABLE_MAX as usize + 1] {
    let mut table = [[0; TABLE_MAX as usize + 1]; TABLE_MAX as usize + 1];
    let mut n = 0;
    while n <= TABLE_MAX as usize {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
}

static BINOMIALS: [[u64; TABLE_MAX as usize + 1]; TABLE_MAX as usize + 1] = build_table();

/// `C(n, k)` from a precomputed table, for `n, k <= 32` (0 when `k > n`).
///
/// # Panics
///
/// If `n` or `k` exceeds [`TABLE_MAX`].
#[inline]
#[must_use]
pub fn choose(n: u32, k: u32) -> u64 {
    BINOMIALS[n as usize][k as usize]
}

/// The colex rank of `set` among the sets of the same size: `0..C(32, set.count_ones())`, and
/// below `C(n, k)` when every point is below `n`.
///
/// Read a byte at a time from a table of each byte's share (`BYTE_RANKS`): four loads whose
/// rows the counts below each byte pick, instead of a step per point whose loop exit the branch
/// predictor rarely foresees (the indices rank sets of every size, over and over).
#[inline]
#[must_use]
pub fn colex_rank(set: u32) -> u64 {
    let byte = |j: u32| (set >> (8 * j) & 0xff) as usize;
    // The points below each byte, counted independently of each other.
    let below = |j: u32| (set & ((1u32 << (8 * j)) - 1)).count_ones() as usize;
    u64::from(BYTE_RANKS[byte(0)])
        + u64::from(BYTE_RANKS[(BYTE_ROWS[1] + below(1)) * 256 + byte(1)])
        + u64::from(BYTE_RANKS[(BYTE_ROWS[2] + below(2)) * 256 + byte(2)])
        + u64::from(BYTE_RANKS[(BYTE_ROWS[3] + below(3)) * 256 + (set >> 24) as usize])
}

/// [`colex_rank`] a point at a time: the definition, which the table is checked against.
#[cfg(test)]
fn colex_rank_by_points(set: u32) -> u64 {
    let mut rank = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        rank += choose(rest.trailing_zeros(), i);
        rest &= rest - 1;
        i += 1;
    }
    rank
}

/// The first row of [`BYTE_RANKS`] for byte `j` of a set: byte `j` has `8j + 1` rows, one per
/// count of points below it.
const BYTE_ROWS: [usize; 4] = [0, 1, 10, 27];
/// Rows in all.
const BYTE_ROW_COUNT: usize = 52;

/// `BYTE_RANKS[(BYTE_ROWS[j] + below) * 256 + byte]`: what the points of `byte`, as byte `j` of a
/// set with `below` points under it, add to its colex rank: `C(8j + b, below + t)` for the
/// `t`-th point `b` of the byte (from 1). At most `C(32, 16)`, so a `u32` holds it; 53 KB, most
/// of it (bytes 2 and 3) untouched on boards of 24 points or fewer sets.
static BYTE_RANKS: [u32; BYTE_ROW_COUNT * 256] = build_byte_ranks();

const fn build_byte_ranks() -> [u32; BYTE_ROW_COUNT * 256] {
    let binomials = build_table();
    let mut ranks = [0u32; BYTE_ROW_COUNT * 256];
    let mut j = 0;
    while j < 4 {
        let mut below = 0;
        while below <= 8 * j {
            let mut byte = 0;
            while byte < 256 {
                let mut sum = 0u64;
                let mut t = 0;
                let mut b = 0;
                while b < 8 {
                    if byte >> b & 1 != 0 {
                        t += 1;
                        sum += binomials[8 * j + b][below + t];
                    }
                    b += 1;
                }
                assert!(sum <= u32::MAX as u64, "a byte's share fits a u32");
                ranks[(BYTE_ROWS[j] + below) * 256 + byte] = sum as u32;
                byte += 1;
            }
            below += 1;
        }
        j += 1;
    }
    ranks
}

/// The `k`-set whose colex rank is `rank` (the inverse of [`colex_rank`]).
///
/// `rank` must be below `C(32, k)`.
///
/// # Panics
///
/// If `k` exceeds 32. In debug builds, also if `rank` is not below `C(32, k)`; release builds
/// return the `k` highest points then.
#[inline]
#[must_use]
pub fn colex_unrank(rank: u64, k: u32) -> u32 {
    colex_unrank_within(rank, k, u32::MAX)
}

/// The rank of `set`, a subset of `space`, among the subsets of `space` of the same size: the
/// colex rank once the points of `space` are renumbered `0..space.count_ones()` in order.
///
/// # Panics
///
/// In debug builds, if `set` holds a point outside `space`; release builds return a rank that
/// means nothing then.
#[inline]
#[must_use]
pub fn colex_rank_within(set: u32, space: u32) -> u64 {
    debug_assert_eq!(set & !space, 0, "the set lies outside its space");
    #[cfg(target_arch = "x86_64")]
    if perfectplay_core::simd::has_fast_bmi2() {
        // SAFETY: the CPU has BMI2, checked just now.
        return unsafe { crate::simd::colex_rank_within_pext(set, space) };
    }
    colex_rank_within_by_counts(set, space)
}

/// [`colex_rank_within`] on any CPU: each point of the set counts the points of `space` below
/// it.
#[inline]
fn colex_rank_within_by_counts(set: u32, space: u32) -> u64 {
    let mut rank = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        let below = space & ((1 << rest.trailing_zeros()) - 1);
        rank += choose(below.count_ones(), i);
        rest &= rest - 1;
        i += 1;
    }
    rank
}

/// The `k`-subset of `space` whose rank within `space` is `rank` (the inverse of
/// [`colex_rank_within`]); `rank` must be below `C(space.count_ones(), k)`.
///
/// # Panics
///
/// If `k` exceeds `space.count_ones()`. In debug builds, also if `rank` is not below
/// `C(space.count_ones(), k)`; release builds return the `k` highest points of `space` then.
#[inline]
#[must_use]
pub fn colex_unrank_within(rank: u64, k: u32, space: u32) -> u32 {
    debug_assert!(k <= space.count_ones() && rank < choose(space.count_ones(), k));
    let mut rank = rank;
    let mut set = 0;
    let mut rest = space;
    let mut q = space.count_ones();
    for i in (1..=k).rev() {
        // The i-th point is the highest q (counted within `space`) with C(q, i) <= rank; the
        // points only go down, so one sweep from the top of `space` serves every i, and
        // C(i - 1, i) = 0 stops it in time.
        loop {
            q -= 1;
            let point = rest.ilog2();
            rest ^= 1 << point;
            let count = choose(q, i);
            if count <= rank {
                set |= 1 << point;
                rank -= count;
                break;
            }
        }
    }
    set
}

/// Spreads the low bits of `bits` onto the points of `space`: bit `i` of `bits` goes to the
/// `i`-th lowest point of `space` (what the `pdep` instruction does), bits beyond
/// `space.count_ones()` are dropped.
#[inline]
#[must_use]
pub fn deposit(bits: u32, space: u32) -> u32 {
    let mut out = 0;
    let mut rest = space;
    let mut bits = bits;
    while rest != 0 && bits != 0 {
        let lowest = rest & rest.wrapping_neg();
        if bits & 1 != 0 {
            out |= lowest;
        }
        bits >>= 1;
        rest ^= lowest;
    }
    out
}

/// Every `k`-subset of `0..n` (`n <= 32`) as a mask, in colex (numeric) order: the `i`-th set
/// yielded has colex rank `i`.
///
/// # Panics
///
/// If `n` exceeds 32.
#[must_use]
pub fn combinations(n: u32, k: u32) -> Subsets {
    assert!(n <= TABLE_MAX, "at most 32 points");
    subsets_of(u32::MAX.checked_shr(TABLE_MAX - n).unwrap_or(0), k)
}

/// Every `k`-subset of `space` as a mask, in colex (numeric) order: the `i`-th set yielded has
/// rank `i` within `space` (see [`colex_rank_within`]).
#[must_use]
pub fn subsets_of(space: u32, k: u32) -> Subsets {
    Subsets {
        next: lowest_points(space, k),
        space,
        k,
        done: space.count_ones() < k,
    }
}

/// The `k`-subsets of `space` from `first` (one of them) on, in colex order.
pub(crate) fn subsets_of_from(space: u32, k: u32, first: u32) -> Subsets {
    debug_assert!(first & !space == 0 && first.count_ones() == k);
    Subsets {
        next: first,
        space,
        k,
        done: false,
    }
}

/// The `count` lowest points of `space`.
#[inline]
fn lowest_points(space: u32, count: u32) -> u32 {
    let mut rest = space;
    for _ in 0..count {
        rest &= rest.wrapping_sub(1);
    }
    space ^ rest
}

/// Iterator over the `k`-subsets of a point set in colex order, made by [`combinations`] and
/// [`subsets_of`].
#[derive(Clone, Debug)]
pub struct Subsets {
    next: u32,
    space: u32,
    k: u32,
    done: bool,
}

impl Iterator for Subsets {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.done {
            return None;
        }
        let set = self.next;
        // Gosper's hack on the points of `space`: filling the gaps between them with ones lets
        // adding the lowest point carry past the lowest run of chosen points to the next free
        // point of `space`; the points of the run but one then restart from the bottom. A carry
        // out of the top means `set` was the last.
        let lowest = set & set.wrapping_neg();
        let sum = u64::from(set | !self.space) + u64::from(lowest);
        if set == 0 || sum >> 32 != 0 {
            self.done = true;
        } else {
            let ripple = sum as u32 & self.space;
            self.next = ripple | lowest_points(self.space, self.k - ripple.count_ones());
        }
        Some(set)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn binomials_match_known_values_and_the_table() {
        assert_eq!(binomial(0, 0), 1);
        assert_eq!(binomial(5, 7), 0);
        assert_eq!(binomial(24, 12), 2_704_156);
        assert_eq!(binomial(32, 16), 601_080_390);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        for n in 0..=TABLE_MAX {
            for k in 0..=TABLE_MAX {
                assert_eq!(choose(n, k), binomial(n, k), "C({n}, {k})");
            }
        }
    }

    #[test]
    fn combinations_are_the_ranks_in_order() {
        for n in 0..=16 {
            for k in 0..=n + 1 {
                let mut count = 0;
                let mut previous = None;
                for (i, set) in combinations(n, k).enumerate() {
                    assert_eq!(set.count_ones(), k);
                    assert!(u64::from(set) < 1 << n);
                    assert!(previous < Some(set), "increasing");
                    assert_eq!(colex_rank(set), i as u64);
                    assert_eq!(colex_unrank(i as u64, k), set);
                    previous = Some(set);
                    count += 1;
                }
                assert_eq!(count, choose(n, k), "C({n}, {k})");
            }
        }
        assert_eq!(combinations(32, 32).collect::<Vec<_>>(), [u32::MAX]);
        assert_eq!(combinations(32, 31).count(), 32);
        assert_eq!(combinations(32, 0).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn colex_rank_by_bytes_matches_on_sets_of_24_points() {
        // Every 13th set of 24 points, and sets reaching into the top byte.
        for set in (0..1u32 << 24)
            .step_by(13)
            .chain([u32::MAX, 1 << 31, 0xff00_0000])
        {
            assert_eq!(colex_rank(set), colex_rank_by_points(set), "{set:#x}");
        }
    }

    #[test]
    fn ranks_within_a_space_are_dense() {
        let space = 0b1010_0110_1100_0001_0000_0001_1000_0000u32;
        let n = space.count_ones();
        for k in 0..=n {
            let mut seen = vec![false; choose(n, k) as usize];
            // Every subset of `space`, by walking its submasks.
            let mut sub = space;
            loop {
                if sub.count_ones() == k {
                    let rank = colex_rank_within(sub, space);
                    assert!(!std::mem::replace(&mut seen[rank as usize], true));
                    assert_eq!(colex_unrank_within(rank, k, space), sub);
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & space;
            }
            assert!(seen.iter().all(|&s| s), "k = {k}");
        }
    }

    #[test]
    fn subsets_of_a_space_come_in_rank_order() {
        let space = 0b1000_0000_0110_0000_0000_0010_1101_0001u32;
        for k in 0..=space.count_ones() + 1 {
            let sets: Vec<u32> = subsets_of(space, k).collect();
            let expected: Vec<u32> = combinations(space.count_ones(), k)
                .map(|c| deposit(c, space))
                .collect();
            assert_eq!(sets, expected, "k = {k}");
        }
        assert_eq!(subsets_of(0, 0).collect::<Vec<_>>(), [0]);
        assert_eq!(subsets_of(0, 1).count(), 0);
    }

    #[test]
    fn deposit_spreads_bits_in_order() {
        assert_eq!(deposit(0b101, 0b1011_0000), 0b1001_0000);
        assert_eq!(deposit(u32::MAX, 0b1011_0000), 0b1011_0000);
        assert_eq!(deposit(0b1, 0), 0);
    }

    proptest! {
        #[test]
        fn colex_rank_by_bytes_is_the_definition(set in any::<u32>()) {
            prop_assert_eq!(colex_rank(set), colex_rank_by_points(set));
        }

        #[test]
        fn colex_rank_roundtrips(set in any::<u32>()) {
            let k = set.count_ones();
            let rank = colex_rank(set);
            prop_assert!(rank < choose(32, k));
            prop_assert_eq!(colex_unrank(rank, k), set);
        }

        #[test]
        fn colex_unrank_roundtrips(k in 0u32..=32, seed in any::<u64>()) {
            let rank = seed % choose(32, k);
            let set = colex_unrank(rank, k);
            prop_assert_eq!(set.count_ones(), k);
            prop_assert_eq!(colex_rank(set), rank);
        }

        #[test]
        fn rank_within_is_the_rank_of_the_compressed_set(space in any::<u32>(), pick in any::<u32>()) {
            let set = space & pick;
            let k = set.count_ones();
            let n = space.count_ones();
            let rank = colex_rank_within(set, space);
            prop_assert!(rank < choose(n, k));
            prop_assert_eq!(colex_unrank_within(rank, k, space), set);
            // Compressing by brute force: the i-th point of `space` becomes point i.
            let mut compressed = 0;
            for (i, p) in (0..32).filter(|&p| space >> p & 1 != 0).enumerate() {
                if set >> p & 1 != 0 {
                    compressed |= 1 << i;
                }
            }
            prop_assert_eq!(rank, colex_rank(compressed));
        }

        #[test]
        fn both_ways_of_ranking_within_agree(space in any::<u32>(), pick in any::<u32>()) {
            let set = space & pick;
            let by_counts = colex_rank_within_by_counts(set, space);
            #[cfg(target_arch = "x86_64")]
            if perfectplay_core::simd::cpu_has_fast_bmi2() {
                // SAFETY: the CPU has BMI2, checked just now.
                let gathered = unsafe { crate::simd::colex_rank_within_pext(set, space) };
                prop_assert_eq!(gathered, by_counts);
            }
            prop_assert_eq!(colex_rank_within(set, space), by_counts);
        }
    }
}
