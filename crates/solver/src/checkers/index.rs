//! The perfect index of a checkers slice.
//!
//! Positions are read with the side to move as Black, moving towards square 32 (higher bits);
//! a position with White to move is turned half a turn (square `n` becomes `33 - n`, bit `i`
//! becomes bit `31 - i`) and its colours swapped. [`Sides`] holds the four piece sets in that
//! frame.
//!
//! Within a slice the index is
//!
//! ```text
//! ((men × C(f, mk) + mover kings) × C(f - mk, ok)) + other kings,   f = 32 - mm - om
//! ```
//!
//! - **men**: the mover's men, then the other side's men, in one dense number. The mover's
//!   men lie on the rows up to its rank `r`, at least one on row `r`: among the colex ranks of
//!   the sets of squares `0..4(r+1)`, those from `C(4r, mm)` on are exactly these, so the
//!   mover's men number is the colex rank less `C(4r, mm)`. The other side's men are ranked the
//!   same way in its own frame (bits reversed) among the squares of its rows the mover's men
//!   leave free; how many sets that leaves depends on the mover's men, so a table of running
//!   totals ([`MenIndex`]) turns the pair into one number. No index is wasted.
//! - **kings**: the mover's kings as a colex rank among the squares the men leave free, then
//!   the other side's kings among the squares still free.
//!
//! Quiet king moves change only the low digits, so a position and its successors mostly lie
//! close together in the table.

use std::sync::OnceLock;

use crate::combin::{choose, colex_rank, colex_rank_within, colex_unrank_within, subsets_of_from};

use super::key::{CheckersKey, MAX_PIECES, MAX_RANK};

/// The four piece sets of a position in the mover's frame: the mover moves towards higher bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sides {
    pub(crate) mover_men: u32,
    pub(crate) mover_kings: u32,
    pub(crate) other_men: u32,
    pub(crate) other_kings: u32,
}

impl Sides {
    /// The slice of these pieces.
    #[inline]
    pub(crate) fn key(&self) -> CheckersKey {
        CheckersKey {
            mover_men: self.mover_men.count_ones() as u8,
            mover_kings: self.mover_kings.count_ones() as u8,
            other_men: self.other_men.count_ones() as u8,
            other_kings: self.other_kings.count_ones() as u8,
            mover_rank: mover_rank(self.mover_men),
            other_rank: mover_rank(self.other_men.reverse_bits()),
        }
    }
}

/// The rank of the most advanced man of `men` (in the frame where men move towards higher
/// bits); 0 without men.
#[inline]
pub(crate) fn mover_rank(men: u32) -> u8 {
    if men == 0 {
        0
    } else {
        (men.ilog2() / 4) as u8
    }
}

/// The squares of ranks `0..rank`.
#[inline]
const fn below_rank(rank: u8) -> u32 {
    match rank {
        0 => 0,
        8.. => u32::MAX,
        r => (1u32 << (4 * r as u32)) - 1,
    }
}

/// The men part of the index for given men counts and ranks.
pub(crate) struct MenIndex {
    mover_men: u32,
    mover_rank: u8,
    other_men: u32,
    other_rank: u8,
    /// `starts[b]`: the men numbers before the mover's `b`-th set; one more entry holds the
    /// total. Men numbers stay below `2^32` up to [`MAX_PIECES`] pieces (a test bounds them),
    /// and half the bytes make the tables of every slice a probe may read more likely cached.
    /// In huge pages ([`crate::arena`]): random probes read one entry each.
    starts: &'static [u32],
}

impl MenIndex {
    fn new(mover_men: u8, mover_rank: u8, other_men: u8, other_rank: u8) -> MenIndex {
        let mut index = MenIndex {
            mover_men: u32::from(mover_men),
            mover_rank,
            other_men: u32::from(other_men),
            other_rank,
            starts: &[],
        };
        let count = index.mover_sets() as usize;
        let first = index.mover_set(0);
        let starts = crate::arena::words(count + 1);
        let mut total = 0u64;
        let movers = subsets_of_from(index.mover_space(), index.mover_men, first).take(count);
        for (mover, start) in movers.zip(&mut starts[1..]) {
            let (space, skipped) = index.other_space(mover);
            total += choose(space.count_ones(), index.other_men) - skipped;
            *start = u32::try_from(total).expect("men numbers fit 32 bits (MAX_PIECES)");
        }
        index.starts = starts;
        index
    }

    /// The squares the mover's men may stand on.
    fn mover_space(&self) -> u32 {
        below_rank(self.mover_rank + 1)
    }

    /// The colex ranks (within the mover's space) below the first set with a man on its rank.
    fn mover_skipped(&self) -> u64 {
        if self.mover_men == 0 {
            0
        } else {
            choose(4 * u32::from(self.mover_rank), self.mover_men)
        }
    }

    /// How many sets the mover's men may form.
    fn mover_sets(&self) -> u64 {
        if self.mover_men == 0 {
            1
        } else {
            choose(4 * u32::from(self.mover_rank) + 4, self.mover_men) - self.mover_skipped()
        }
    }

    /// The mover's `b`-th set of men.
    fn mover_set(&self, b: u64) -> u32 {
        colex_unrank_within(b + self.mover_skipped(), self.mover_men, self.mover_space())
    }

    /// The squares (in the other side's frame, bits reversed) its men may stand on beside the
    /// mover's `mover` men, and how many of their sets leave its rank empty.
    #[inline]
    fn other_space(&self, mover: u32) -> (u32, u64) {
        let space = below_rank(self.other_rank + 1) & !mover.reverse_bits();
        let skipped = if self.other_men == 0 {
            0
        } else {
            choose(
                (space & below_rank(self.other_rank)).count_ones(),
                self.other_men,
            )
        };
        (space, skipped)
    }

    /// The number of men arrangements.
    pub(crate) fn size(&self) -> u64 {
        self.starts.last().copied().map_or(0, u64::from)
    }

    /// The men number of `mover` and `other` (other side's men in the mover's frame).
    #[inline]
    pub(crate) fn rank(&self, mover: u32, other: u32) -> u64 {
        let b = colex_rank(mover) - self.mover_skipped();
        let (space, skipped) = self.other_space(mover);
        u64::from(self.starts[b as usize]) + colex_rank_within(other.reverse_bits(), space)
            - skipped
    }

    /// The men of number `men`: the mover's set's number and the two sets.
    #[inline]
    pub(crate) fn unrank(&self, men: u64) -> (u64, u32, u32) {
        let b = self.starts.partition_point(|&s| u64::from(s) <= men) as u64 - 1;
        let mover = self.mover_set(b);
        let (space, skipped) = self.other_space(mover);
        let other = colex_unrank_within(
            men - u64::from(self.starts[b as usize]) + skipped,
            self.other_men,
            space,
        );
        (b, mover, other.reverse_bits())
    }
}

const COUNTS: usize = MAX_PIECES as usize + 1;
const RANKS: usize = MAX_RANK as usize + 1;

/// The men indices of every count and rank up to [`MAX_PIECES`] pieces, made on first use and
/// shared by the whole process: they depend on nothing but the key.
static MEN_INDICES: [OnceLock<MenIndex>; COUNTS * RANKS * COUNTS * RANKS] =
    [const { OnceLock::new() }; COUNTS * RANKS * COUNTS * RANKS];

/// The men index of `key`, which must be well formed.
#[inline]
pub(crate) fn men_index(key: CheckersKey) -> &'static MenIndex {
    let slot = ((usize::from(key.mover_men) * RANKS + usize::from(key.mover_rank)) * COUNTS
        + usize::from(key.other_men))
        * RANKS
        + usize::from(key.other_rank);
    MEN_INDICES[slot]
        .get_or_init(|| MenIndex::new(key.mover_men, key.mover_rank, key.other_men, key.other_rank))
}

/// The index of one slice.
pub(crate) struct SliceIndex {
    men: &'static MenIndex,
    mover_kings: u32,
    other_kings: u32,
    /// Sets of the mover's kings on the squares the men leave free.
    mover_king_sets: u64,
    /// Sets of the other side's kings on the squares still free.
    other_king_sets: u64,
}

impl SliceIndex {
    /// The index of `key`, which must be well formed.
    #[inline]
    pub(crate) fn new(key: CheckersKey) -> SliceIndex {
        let free = 32 - u32::from(key.mover_men) - u32::from(key.other_men);
        SliceIndex {
            men: men_index(key),
            mover_kings: u32::from(key.mover_kings),
            other_kings: u32::from(key.other_kings),
            mover_king_sets: choose(free, u32::from(key.mover_kings)),
            other_king_sets: choose(
                free.saturating_sub(u32::from(key.mover_kings)),
                u32::from(key.other_kings),
            ),
        }
    }

    /// The number of positions.
    pub(crate) fn size(&self) -> u64 {
        self.men.size() * self.mover_king_sets * self.other_king_sets
    }

    /// The index of `sides`, which must belong to this slice.
    #[inline]
    pub(crate) fn rank(&self, sides: &Sides) -> u64 {
        let men = self.men.rank(sides.mover_men, sides.other_men);
        let free = !(sides.mover_men | sides.other_men);
        let mk = colex_rank_within(sides.mover_kings, free);
        let ok = colex_rank_within(sides.other_kings, free & !sides.mover_kings);
        (men * self.mover_king_sets + mk) * self.other_king_sets + ok
    }

    /// The pieces at `index`, which must be below [`SliceIndex::size`].
    #[inline]
    pub(crate) fn unrank(&self, index: u64) -> Sides {
        let ok = index % self.other_king_sets;
        let rest = index / self.other_king_sets;
        let mk = rest % self.mover_king_sets;
        let (_, mover_men, other_men) = self.men.unrank(rest / self.mover_king_sets);
        let free = !(mover_men | other_men);
        let mover_kings = colex_unrank_within(mk, self.mover_kings, free);
        let other_kings = colex_unrank_within(ok, self.other_kings, free & !mover_kings);
        Sides {
            mover_men,
            mover_kings,
            other_men,
            other_kings,
        }
    }

    /// Calls `visit` with each index of `range` and its pieces, in order, stepping from set to
    /// set instead of unranking each.
    pub(crate) fn walk<F: FnMut(u64, &Sides)>(&self, range: std::ops::Range<u64>, mut visit: F) {
        if range.is_empty() {
            return;
        }
        let mut index = range.start;
        let ok0 = index % self.other_king_sets;
        let rest = index / self.other_king_sets;
        let mk0 = rest % self.mover_king_sets;
        let men0 = rest / self.mover_king_sets;
        let (mut b, _, other0) = self.men.unrank(men0);
        let (mut first_other, mut first_mk, mut first_ok) = (Some(other0), mk0, ok0);
        let men = self.men;
        while b < men.mover_sets() {
            if men.starts[b as usize + 1] == men.starts[b as usize] {
                // The mover's men leave the other side's men no room.
                b += 1;
                continue;
            }
            let mover_men = men.mover_set(b);
            let (space, skipped) = men.other_space(mover_men);
            let start = first_other.take().map_or_else(
                || colex_unrank_within(skipped, men.other_men, space),
                u32::reverse_bits,
            );
            for other in subsets_of_from(space, men.other_men, start) {
                let other_men = other.reverse_bits();
                let free = !(mover_men | other_men);
                let start = colex_unrank_within(first_mk, self.mover_kings, free);
                for mover_kings in subsets_of_from(free, self.mover_kings, start) {
                    let free = free & !mover_kings;
                    let start = colex_unrank_within(first_ok, self.other_kings, free);
                    for other_kings in subsets_of_from(free, self.other_kings, start) {
                        visit(
                            index,
                            &Sides {
                                mover_men,
                                mover_kings,
                                other_men,
                                other_kings,
                            },
                        );
                        index += 1;
                        if index == range.end {
                            return;
                        }
                    }
                    first_ok = 0;
                }
                first_mk = 0;
            }
            b += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> CheckersKey {
        text.parse().unwrap()
    }

    /// Every index of `key` unranks to pieces of the slice that rank back to it, and walking
    /// gives the same pieces in the same order from any start.
    fn check_slice(key: CheckersKey) -> u64 {
        let slice = SliceIndex::new(key);
        let size = slice.size();
        let mut seen = std::collections::HashSet::new();
        for i in 0..size {
            let s = slice.unrank(i);
            assert_eq!(s.key(), key, "{key} {i}");
            let all = [s.mover_men, s.mover_kings, s.other_men, s.other_kings];
            assert_eq!(
                all.iter().map(|b| b.count_ones()).sum::<u32>(),
                all.iter().fold(0, |a, b| a | b).count_ones(),
                "overlap in {key} {i}"
            );
            assert_eq!(
                s.mover_men & 0xF000_0000,
                0,
                "mover man on its crowning row"
            );
            assert_eq!(
                s.other_men & 0x0000_000F,
                0,
                "other man on its crowning row"
            );
            assert_eq!(slice.rank(&s), i, "{key} {i}");
            assert!(seen.insert(s));
        }
        for start in [0, size / 3, size.saturating_sub(1)] {
            let mut next = start;
            slice.walk(start..size, |i, s| {
                assert_eq!(i, next);
                assert_eq!(*s, slice.unrank(i), "{key} walk from {start} at {i}");
                next += 1;
            });
            assert_eq!(next, size.max(start), "{key} walk from {start}");
        }
        size
    }

    #[test]
    fn slices_are_dense_and_walks_agree_with_unranking() {
        for text in [
            "1010-00", "1010-66", "1010-63", "2010-30", "1020-06", "2020-44", "3020-16", "0101-00",
            "1101-60", "0111-03", "2011-52", "1210-25", "3010-60", "2200-10",
        ] {
            check_slice(key(text));
        }
    }

    #[test]
    fn men_numbers_fit_32_bits_up_to_the_most_pieces() {
        // Sets of a side's men with its most advanced one on rank `r`; the other side's men
        // are bounded by their sets with no square taken.
        let sets = |men: u8, r: u8| {
            let (men, r) = (u32::from(men), u32::from(r));
            if men == 0 {
                1
            } else {
                choose(4 * r + 4, men) - choose(4 * r, men)
            }
        };
        let mut largest = 0;
        for mover in 0..=MAX_PIECES {
            for other in 0..=MAX_PIECES - mover {
                for r in 0..=MAX_RANK {
                    for o in 0..=MAX_RANK {
                        largest = largest.max(sets(mover, r) * sets(other, o));
                    }
                }
            }
        }
        assert!(largest < 1 << 32, "{largest}");
        let key = CheckersKey {
            mover_men: 4,
            mover_kings: 0,
            other_men: 4,
            other_kings: 0,
            mover_rank: 6,
            other_rank: 6,
        };
        assert!(SliceIndex::new(key).size() > 1 << 24);
    }

    #[test]
    fn ranks_split_the_men_exactly() {
        // Two men of the side to move, one of the other: summing over ranks counts every
        // arrangement of the men (mover's men off its crowning row, the other's off its own).
        let mut total = 0;
        for r in 0..=MAX_RANK {
            for o in 0..=MAX_RANK {
                let k = CheckersKey {
                    mover_men: 2,
                    mover_kings: 0,
                    other_men: 1,
                    other_kings: 0,
                    mover_rank: r,
                    other_rank: o,
                };
                if k.is_well_formed() {
                    total += SliceIndex::new(k).size();
                }
            }
        }
        // Mover's men on squares 1-28, the other's man on 5-32 and not on them.
        let mut brute = 0;
        for a in 0..28 {
            for b in a + 1..28 {
                brute += (4..32).filter(|&c| c != a && c != b).count() as u64;
            }
        }
        assert_eq!(total, brute);
    }
}
