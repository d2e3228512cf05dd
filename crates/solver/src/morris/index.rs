//! The perfect index of the boards of one subspace.
//!
//! A subspace holds the boards with `a` men of the side to move ("mover") and `b` men of the
//! other side; men in hand are not part of it. Boards related by a symmetry of the board (see
//! [`Symmetries`]) share one index, and the indices are dense: `0..size`, one per class of
//! symmetric boards.
//!
//! # How
//!
//! The mover's men decide most of it. Each `a`-set of points belongs to an orbit under the
//! group, represented by its least member (the canonical set); a table over the colex ranks of
//! all `a`-sets gives the orbit's class number and a symmetry taking the set to the canonical
//! one. Once the mover is canonical, the other side's men are free among the remaining points,
//! so a class whose canonical set only the identity fixes (almost all of them) owns a block of
//! `C(n - a, b)` indices, the colex rank of the other men among the free points. The rare
//! classes that other symmetries fix too (a nontrivial stabilizer) keep only the other-side sets
//! that are least under the stabilizer, in a sorted list searched by binary search. Offsets over the
//! classes join the blocks: index = `offset[class] + local`.
//!
//! # Memory
//!
//! The table of one mover count `a` takes 4 bytes and a bit per `a`-set plus 8 bytes per
//! class (about `C(n, a) / 16` classes on the 16-symmetry boards) and is shared by every
//! subspace with that `a`. A subspace adds 16 bytes per class plus 4 per kept other-side set
//! of the symmetric classes, and for ranking those classes 12 bytes (a bitmap word and a
//! running count) per 64 of their `C(n - a, b)` ranks; the kept lists dominate, since a class
//! fixed by one reflection keeps about half of its sets. On 24 points:
//!
//! | table          | indices     | classes | bytes                                   |
//! |----------------|-------------|---------|-----------------------------------------|
//! | movers `a = 9` |             | 82,880  | 6,056,496 (1,307,504 sets)              |
//! | movers `a = 12`|             | 170,854 | 12,521,480 (2,704,156 sets)             |
//! | `(9, 9)`       | 409,106,740 | 82,880  | 26,713,328 own, 32,769,824 with movers  |
//! | `(8, 9)`       | 525,979,400 | 46,879  | 43,842,908 own, 47,251,760 with movers  |
//!
//! Sizes exceed `C(24, a) C(24 - a, b) / 16` by the symmetric boards: by 0.8% for `(3, 3)`,
//! 0.03% for `(9, 9)`. The `subspace_sizes_on_24_points` test checks these figures.
//!
//! ```
//! use perfectplay_core::morris::BOARD_24;
//! use perfectplay_core::Bitboard;
//! use perfectplay_solver::morris::index::MorrisIndexer;
//!
//! let indexer = MorrisIndexer::new(&BOARD_24);
//! let subspace = indexer.subspace(3, 2);
//! // a7 d7 g7 against a1 d1, and the same board turned half a turn: g1 d1 a1 against g7 d7.
//! let a = subspace.rank(Bitboard(0b111), Bitboard(0b11 << 21));
//! let b = subspace.rank(Bitboard(0b111 << 21), Bitboard(0b110));
//! assert_eq!(a, b);
//! assert!(a < subspace.size());
//! let (mover, other) = subspace.unrank(a);
//! assert_eq!(subspace.rank(mover, other), a);
//! ```

use std::fmt;
use std::iter::FusedIterator;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use perfectplay_core::morris::Board;
use perfectplay_core::Bitboard;

use super::symmetry::Symmetries;
use crate::combin::{
    binomial, colex_rank, colex_rank_within, colex_unrank_within, combinations, subsets_of,
    subsets_of_from, Subsets,
};

/// The number of boards (before symmetry) with `a` and `b` men on `points` points:
/// `C(points, a) * C(points - a, b)`.
///
/// # Panics
///
/// In debug builds, if the count does not fit a `u64` (or a factor overflows, as in
/// [`binomial`]); release builds return a wrong count then.
#[must_use]
pub fn count_boards(points: u32, a: u32, b: u32) -> u64 {
    if a > points {
        return 0;
    }
    binomial(points, a) * binomial(points - a, b)
}

/// Bits of a mover-table entry that hold the symmetry; the class number sits above them.
const SYMMETRY_BITS: u32 = 5;
const SYMMETRY_MASK: u32 = (1 << SYMMETRY_BITS) - 1;
/// A mover-table entry not filled in yet.
const UNSET: u32 = u32::MAX;

/// The classes of the `a`-sets of points under the symmetries.
struct MoverTable {
    /// By colex rank of an `a`-set: its class `<< SYMMETRY_BITS`, or-ed with a symmetry that takes
    /// it to the class's canonical set.
    entries: Vec<u32>,
    /// The canonical (least) set of each class, ascending.
    canonical: Vec<u32>,
    /// The symmetries that fix each class's canonical set, bit `s` for symmetry `s`.
    stabilizer: Vec<u32>,
    /// Bit `r`: some symmetry other than the identity fixes the `a`-set of colex rank `r`.
    /// The solver asks this of nearly every position it generates turns or turns back for; a
    /// bit array a 32nd the size of `entries` mostly stays in the cache where `entries` and
    /// `stabilizer` would not.
    symmetric: Vec<u64>,
}

impl MoverTable {
    fn build(symmetries: &Symmetries, a: u32) -> MoverTable {
        let n = symmetries.board().point_count() as u32;
        let total = binomial(n, a);
        assert!(
            total < 1 << (32 - SYMMETRY_BITS),
            "class numbers fit an entry"
        );
        let mut entries = vec![UNSET; total as usize];
        let mut canonical = Vec::new();
        let mut stabilizer = Vec::new();
        // Sets come in increasing order, so the first one met of each orbit is its least member;
        // filling in the whole orbit then leaves only canonical sets unset when reached.
        for (rank, set) in combinations(n, a).enumerate() {
            if entries[rank] != UNSET {
                continue;
            }
            let class = canonical.len() as u32;
            let mut fixing = 0;
            for s in 0..symmetries.len() {
                let image = symmetries.apply(s, set);
                if image == set {
                    fixing |= 1 << s;
                }
                let entry = &mut entries[colex_rank(image) as usize];
                if *entry == UNSET {
                    *entry = class << SYMMETRY_BITS | symmetries.inverse(s) as u32;
                }
            }
            canonical.push(set);
            stabilizer.push(fixing);
        }
        // The sets of one orbit have stabilizers of one size (conjugate subgroups).
        let mut symmetric = vec![0u64; entries.len().div_ceil(64)];
        for (rank, &entry) in entries.iter().enumerate() {
            if stabilizer[(entry >> SYMMETRY_BITS) as usize] != 1 {
                symmetric[rank / 64] |= 1 << (rank % 64);
            }
        }
        MoverTable {
            entries,
            canonical,
            stabilizer,
            symmetric,
        }
    }

    fn heap_bytes(&self) -> usize {
        4 * (self.entries.len() + self.canonical.len() + self.stabilizer.len())
            + 8 * self.symmetric.len()
    }
}

/// The mover's men of a board and their class under the symmetries, as
/// [`SubspaceIndex::mover_part`] works them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverPart {
    mover: u32,
    class: usize,
    symmetry: usize,
    canonical: u32,
}

impl MoverPart {
    /// The mover's men it was worked out for.
    #[inline]
    #[must_use]
    pub fn men(&self) -> Bitboard {
        Bitboard(self.mover)
    }
}

/// The perfect index of one subspace: the boards with `a` men of the side to move and `b` of the
/// other side, up to symmetry. Made by [`MorrisIndexer::subspace`].
pub struct SubspaceIndex {
    symmetries: Arc<Symmetries>,
    movers: Arc<MoverTable>,
    a: u32,
    b: u32,
    all_points: u32,
    /// The first index of each class, and the size last.
    offsets: Vec<u64>,
    /// The indices of a class whose canonical set only the identity fixes, the most any class
    /// has: `C(points - a, b)`.
    block: u64,
    /// For each `k`, the class holding index `k * block`: unranking starts there and steps
    /// over the few (smaller, symmetric) classes before its index instead of a binary search.
    class_at_block: Vec<u32>,
    /// For each class, where its kept other-side ranks start in `kept` (empty unless symmetric);
    /// the end of `kept` last.
    kept_start: Vec<u32>,
    /// The ranks (within the free points) of the other-side sets kept by symmetric classes,
    /// ascending within each class.
    kept: Vec<u32>,
    /// For each class, where its bitmap of kept ranks starts in `kept_bits` (in words).
    bits_start: Vec<u32>,
    /// Bit `r` of a symmetric class's bitmap is set when the other-side set of rank `r` is
    /// kept: ranking is then a word read and a population count instead of a binary search.
    kept_bits: Vec<u64>,
    /// For each word of `kept_bits`, the kept ranks of its class before it.
    bits_before: Vec<u32>,
}

impl SubspaceIndex {
    fn build(symmetries: Arc<Symmetries>, movers: Arc<MoverTable>, a: u32, b: u32) -> Self {
        let all_points = symmetries.board().all_points().0;
        let free = all_points.count_ones() - a;
        let block = binomial(free, b);
        let classes = movers.canonical.len();
        let mut offsets = Vec::with_capacity(classes + 1);
        let mut kept_start = Vec::with_capacity(classes + 1);
        let mut kept = Vec::new();
        let mut bits_start = Vec::with_capacity(classes + 1);
        let mut kept_bits: Vec<u64> = Vec::new();
        let mut bits_before: Vec<u32> = Vec::new();
        let mut size = 0;
        for (&mover, &fixing) in movers.canonical.iter().zip(&movers.stabilizer) {
            offsets.push(size);
            kept_start.push(u32::try_from(kept.len()).expect("kept ranks fit a u32"));
            bits_start.push(u32::try_from(kept_bits.len()).expect("bitmap words fit a u32"));
            if fixing == 1 {
                size += block;
                continue;
            }
            let space = !mover & all_points;
            let before = kept.len();
            let first_word = kept_bits.len();
            kept_bits.resize(first_word + block.div_ceil(64) as usize, 0);
            for (rank, other) in subsets_of(space, b).enumerate() {
                if is_least(&symmetries, fixing, other) {
                    kept.push(rank as u32);
                    kept_bits[first_word + rank / 64] |= 1 << (rank % 64);
                }
            }
            let mut count = 0u32;
            for &word in &kept_bits[first_word..] {
                bits_before.push(count);
                count += word.count_ones();
            }
            size += (kept.len() - before) as u64;
        }
        offsets.push(size);
        kept_start.push(u32::try_from(kept.len()).expect("kept ranks fit a u32"));
        bits_start.push(u32::try_from(kept_bits.len()).expect("bitmap words fit a u32"));
        let mut class_at_block = Vec::with_capacity(size.div_ceil(block) as usize);
        let mut class = 0;
        for k in 0..size.div_ceil(block) {
            while offsets[class + 1] <= k * block {
                class += 1;
            }
            class_at_block.push(u32::try_from(class).expect("class numbers fit a u32"));
        }
        SubspaceIndex {
            symmetries,
            movers,
            a,
            b,
            all_points,
            offsets,
            block,
            class_at_block,
            kept_start,
            kept,
            bits_start,
            kept_bits,
            bits_before,
        }
    }

    /// The number of indices: the boards of the subspace up to symmetry.
    #[inline]
    #[must_use]
    pub fn size(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// The men on the board: `(mover, other)`.
    #[must_use]
    pub fn men(&self) -> (u32, u32) {
        (self.a, self.b)
    }

    /// The board of this subspace.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.symmetries.board()
    }

    /// The number of classes of the mover's men under the symmetries.
    #[must_use]
    pub fn mover_classes(&self) -> usize {
        self.movers.canonical.len()
    }

    /// Heap bytes of this subspace's own tables.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        8 * (self.offsets.len() + self.kept_bits.len())
            + 4 * (self.class_at_block.len()
                + self.kept_start.len()
                + self.kept.len()
                + self.bits_start.len()
                + self.bits_before.len())
    }

    /// Heap bytes of the mover table, shared by every subspace with the same mover count.
    #[must_use]
    pub fn mover_table_bytes(&self) -> usize {
        self.movers.heap_bytes()
    }

    /// The class of `mover`, a symmetry taking it to the class's canonical set, and that set.
    #[inline]
    fn mover_class(&self, mover: Bitboard) -> (usize, usize, u32) {
        debug_assert_eq!(mover.count(), self.a, "mover count");
        debug_assert!(mover.is_subset(Bitboard(self.all_points)));
        let entry = self.movers.entries[colex_rank(mover.0) as usize];
        let class = (entry >> SYMMETRY_BITS) as usize;
        (
            class,
            (entry & SYMMETRY_MASK) as usize,
            self.movers.canonical[class],
        )
    }

    /// What ranking needs of the mover's men alone, worked out once for several boards with
    /// the same mover's men (the successors of one position by its quiet turns): see
    /// [`rank_with`](Self::rank_with).
    ///
    /// # Panics
    ///
    /// In debug builds, if `mover` does not hold exactly `a` men, all on the board (`(a, b)`
    /// being [`men`](Self::men)). Release builds panic if it holds `a` men with one off the
    /// board; where it holds another number they may panic or give the part of other men.
    #[inline]
    #[must_use]
    pub fn mover_part(&self, mover: Bitboard) -> MoverPart {
        let (class, symmetry, canonical) = self.mover_class(mover);
        MoverPart {
            mover: mover.0,
            class,
            symmetry,
            canonical,
        }
    }

    /// The same as [`rank`](Self::rank) of `(part's men, other)`, without looking up the
    /// mover's class again (a table of up to 5 MB that misses the caches).
    ///
    /// # Panics
    ///
    /// In debug builds, if `part` is not this subspace's part of its men, or if `other` does
    /// not hold exactly `b` men (`(a, b)` being [`men`](Self::men)) on the board and clear of
    /// the mover's. Release builds check none of it: they may then return the index of another
    /// board or one past [`size`](Self::size), or panic.
    #[inline]
    #[must_use]
    pub fn rank_with(&self, part: &MoverPart, other: Bitboard) -> u64 {
        debug_assert!(part.mover & other.0 == 0, "men share a point");
        debug_assert_eq!(
            (part.class, part.symmetry, part.canonical),
            self.mover_class(Bitboard(part.mover)),
            "a part of another subspace"
        );
        self.rank_parts(part.class, part.symmetry, part.canonical, other)
    }

    /// The canonical form of the other side's men once the mover's are canonical: `other` moved
    /// by symmetry `s`, then the least image under the class's stabilizer.
    #[inline]
    fn canonical_other(&self, class: usize, s: usize, other: Bitboard) -> u32 {
        debug_assert_eq!(other.count(), self.b, "other count");
        debug_assert!(other.is_subset(Bitboard(self.all_points)));
        let other = self.symmetries.apply(s, other.0);
        match self.movers.stabilizer[class] {
            1 => other,
            fixing => least_image(&self.symmetries, fixing, other),
        }
    }

    fn kept(&self, class: usize) -> &[u32] {
        &self.kept[self.kept_start[class] as usize..self.kept_start[class + 1] as usize]
    }

    /// The index of the board with `mover`'s men for the side to move and `other`'s for the
    /// other side; every symmetric image of the board has the same index.
    ///
    /// The sets must be disjoint, on the board, and hold `a` and `b` men.
    ///
    /// # Panics
    ///
    /// In debug builds, if they are not. Release builds panic if `mover` holds `a` men with one
    /// off the board, and otherwise check nothing: they may return the index of another board
    /// or one past [`size`](Self::size), or panic.
    #[inline]
    #[must_use]
    pub fn rank(&self, mover: Bitboard, other: Bitboard) -> u64 {
        debug_assert!(!mover.intersects(other), "men share a point");
        let (class, s, canonical) = self.mover_class(mover);
        self.rank_parts(class, s, canonical, other)
    }

    #[inline]
    fn rank_parts(&self, class: usize, s: usize, canonical: u32, other: Bitboard) -> u64 {
        let other = self.canonical_other(class, s, other);
        let local = colex_rank_within(other, !canonical & self.all_points);
        if self.movers.stabilizer[class] == 1 {
            return self.offsets[class] + local;
        }
        let word = self.bits_start[class] as usize + (local / 64) as usize;
        let below = self.kept_bits[word] & ((1u64 << (local % 64)) - 1);
        debug_assert!(
            self.kept_bits[word] >> (local % 64) & 1 == 1,
            "canonical sets are kept"
        );
        self.offsets[class] + u64::from(self.bits_before[word]) + u64::from(below.count_ones())
    }

    /// Whether only the identity among the board's symmetries maps `mover`, a set of `a`
    /// points, to itself.
    ///
    /// # Panics
    ///
    /// In debug builds, if `mover` does not hold exactly `a` men, all on the board (`(a, b)`
    /// being [`men`](Self::men)); release builds may then panic or answer for other men.
    #[inline]
    #[must_use]
    pub fn has_trivial_stabilizer(&self, mover: Bitboard) -> bool {
        debug_assert_eq!(mover.count(), self.a, "mover count");
        debug_assert!(mover.is_subset(Bitboard(self.all_points)));
        let rank = colex_rank(mover.0) as usize;
        self.movers.symmetric[rank / 64] >> (rank % 64) & 1 == 0
    }

    /// The canonical board of index `index` (below [`size`](Self::size)): `(mover, other)`.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`size`](Self::size).
    #[must_use]
    pub fn unrank(&self, index: u64) -> (Bitboard, Bitboard) {
        debug_assert!(index < self.size(), "index out of range");
        let mut class = self.class_at_block[(index / self.block) as usize] as usize;
        while self.offsets[class + 1] <= index {
            class += 1;
        }
        let local = index - self.offsets[class];
        let within = match self.movers.stabilizer[class] {
            1 => local,
            _ => u64::from(self.kept(class)[local as usize]),
        };
        let canonical = self.movers.canonical[class];
        let other = colex_unrank_within(within, self.b, !canonical & self.all_points);
        (Bitboard(canonical), Bitboard(other))
    }

    /// The canonical boards of the indices `range`, in order: the same as [`unrank`] of each,
    /// but a few nanoseconds a board instead of a search and an unranking.
    ///
    /// [`unrank`]: Self::unrank
    ///
    /// # Panics
    ///
    /// If `range` reaches past [`size`](Self::size).
    #[must_use]
    pub fn boards(&self, range: Range<u64>) -> Boards<'_> {
        assert!(range.end <= self.size(), "range past the subspace");
        let remaining = range.end.saturating_sub(range.start);
        // An empty range never reads its class, which may be past the last.
        let start = if remaining == 0 { 0 } else { range.start };
        let class = self
            .offsets
            .partition_point(|&o| o <= start)
            .saturating_sub(1);
        let local = start - self.offsets[class];
        let space = !self.movers.canonical[class] & self.all_points;
        let others = if remaining > 0 && self.movers.stabilizer[class] == 1 {
            subsets_of_from(space, self.b, colex_unrank_within(local, self.b, space))
        } else {
            subsets_of(0, 1)
        };
        Boards {
            index: self,
            remaining,
            class,
            local,
            others,
        }
    }

    /// The representative of the board's class, the board that [`unrank`](Self::unrank)
    /// returns for its index.
    ///
    /// # Panics
    ///
    /// As [`rank`](Self::rank): in debug builds, if the sets are not disjoint, on the board and
    /// of `a` and `b` men; release builds panic if `mover` holds `a` men with one off the
    /// board, and otherwise may panic or return a board of another class.
    #[must_use]
    pub fn canonical(&self, mover: Bitboard, other: Bitboard) -> (Bitboard, Bitboard) {
        debug_assert!(!mover.intersects(other), "men share a point");
        let (class, s, canonical) = self.mover_class(mover);
        let other = self.canonical_other(class, s, other);
        (Bitboard(canonical), Bitboard(other))
    }

    /// Every symmetry that takes the board to its [`canonical`](Self::canonical) form, as a
    /// bitmask (bit `s` for symmetry `s` of [`symmetries`](Self::symmetries)): at least one,
    /// and as many as the canonical board has symmetries fixing it. Whatever rides on the
    /// board (the no-re-forming memories) maps to the canonical board through any of them,
    /// and through all of them to every form that board can carry it in.
    ///
    /// # Panics
    ///
    /// As [`canonical`](Self::canonical); release builds may return symmetries of another
    /// board where the sets are not as it asks.
    #[must_use]
    pub fn canonical_symmetries(&self, mover: Bitboard, other: Bitboard) -> u32 {
        debug_assert!(!mover.intersects(other), "men share a point");
        let (class, s, _) = self.mover_class(mover);
        let fixing = self.movers.stabilizer[class];
        if fixing == 1 {
            return 1 << s;
        }
        // The symmetries taking `mover` to its canonical set are `t` after `s`, for `t` fixing
        // that set; of those, the ones taking `other` to its least image.
        let moved = self.symmetries.apply(s, other.0);
        let least = least_image(&self.symmetries, fixing, moved);
        let mut found = 0;
        let mut rest = fixing;
        while rest != 0 {
            let t = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.symmetries.apply(t, moved) == least {
                found |= 1 << self.symmetries.compose(t, s);
            }
        }
        found
    }

    /// The board's symmetries.
    #[must_use]
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }
}

/// Iterator over the canonical boards of a range of indices, made by [`SubspaceIndex::boards`].
#[derive(Clone, Debug)]
pub struct Boards<'a> {
    index: &'a SubspaceIndex,
    remaining: u64,
    class: usize,
    /// The next board's index within its class.
    local: u64,
    /// The other side's sets of the current class, when it keeps all of them.
    others: Subsets,
}

impl Iterator for Boards<'_> {
    type Item = (Bitboard, Bitboard);

    #[inline]
    fn next(&mut self) -> Option<(Bitboard, Bitboard)> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let index = self.index;
        let movers = &*index.movers;
        if self.local == index.offsets[self.class + 1] - index.offsets[self.class] {
            self.class += 1;
            self.local = 0;
            let space = !movers.canonical[self.class] & index.all_points;
            self.others = subsets_of(space, index.b);
        }
        let mover = movers.canonical[self.class];
        let other = if movers.stabilizer[self.class] == 1 {
            self.others.next().expect("a class holds its block")
        } else {
            let within = u64::from(index.kept(self.class)[self.local as usize]);
            colex_unrank_within(within, index.b, !mover & index.all_points)
        };
        self.local += 1;
        Some((Bitboard(mover), Bitboard(other)))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let remaining = usize::try_from(self.remaining).ok();
        (remaining.unwrap_or(usize::MAX), remaining)
    }
}

impl FusedIterator for Boards<'_> {}

impl fmt::Debug for SubspaceIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubspaceIndex")
            .field("board", self.board())
            .field("men", &self.men())
            .field("size", &self.size())
            .finish_non_exhaustive()
    }
}

/// The least image of `set` under the symmetries of the bitmask `group`.
#[inline]
fn least_image(symmetries: &Symmetries, group: u32, set: u32) -> u32 {
    let mut least = set;
    // The identity (bit 0) leaves `set` as it is.
    let mut rest = group & !1;
    while rest != 0 {
        least = least.min(symmetries.apply(rest.trailing_zeros() as usize, set));
        rest &= rest - 1;
    }
    least
}

/// Whether no symmetry of the bitmask `group` takes `set` to a smaller set.
#[inline]
fn is_least(symmetries: &Symmetries, group: u32, set: u32) -> bool {
    let mut rest = group & !1;
    while rest != 0 {
        if symmetries.apply(rest.trailing_zeros() as usize, set) < set {
            return false;
        }
        rest &= rest - 1;
    }
    true
}

/// The perfect indices of the subspaces of one board, built on first use and kept.
///
/// Safe to share between threads: each table is built once, by whichever thread asks first.
pub struct MorrisIndexer {
    symmetries: Arc<Symmetries>,
    /// By mover count `a`.
    movers: Vec<OnceLock<Arc<MoverTable>>>,
    /// By `a * (points + 1) + b`.
    subspaces: Vec<OnceLock<Arc<SubspaceIndex>>>,
}

impl MorrisIndexer {
    /// An indexer for `board`; it computes the board's symmetries now, the tables later.
    ///
    /// # Panics
    ///
    /// If the board has more than 32 symmetries (none has more than 16).
    #[must_use]
    pub fn new(board: &'static Board) -> MorrisIndexer {
        let symmetries = Symmetries::new(board);
        assert!(
            symmetries.len() <= 1 << SYMMETRY_BITS,
            "symmetry numbers fit their bits"
        );
        let n = board.point_count();
        MorrisIndexer {
            symmetries: Arc::new(symmetries),
            movers: (0..=n).map(|_| OnceLock::new()).collect(),
            subspaces: (0..(n + 1) * (n + 1)).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.symmetries.board()
    }

    /// The board's symmetries.
    #[must_use]
    pub fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }

    /// The index of the boards with `a` men of the side to move and `b` of the other side.
    ///
    /// # Panics
    ///
    /// If `a + b` exceeds the number of points.
    #[must_use]
    pub fn subspace(&self, a: u32, b: u32) -> Arc<SubspaceIndex> {
        let n = self.board().point_count();
        assert!((a + b) as usize <= n, "{a} + {b} men do not fit {n} points");
        let slot = &self.subspaces[a as usize * (n + 1) + b as usize];
        Arc::clone(slot.get_or_init(|| {
            let movers = self.movers[a as usize]
                .get_or_init(|| Arc::new(MoverTable::build(&self.symmetries, a)));
            Arc::new(SubspaceIndex::build(
                Arc::clone(&self.symmetries),
                Arc::clone(movers),
                a,
                b,
            ))
        }))
    }
}

impl fmt::Debug for MorrisIndexer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MorrisIndexer")
            .field("board", self.board())
            .field("symmetries", &self.symmetries.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use perfectplay_core::morris::{
        BOARD_16, BOARD_24, BOARD_24_DIAGONALS, BOARD_9, BOARD_9_ORTHOGONAL,
    };
    use proptest::prelude::*;

    use super::*;

    static INDEXER_24: LazyLock<MorrisIndexer> = LazyLock::new(|| MorrisIndexer::new(&BOARD_24));

    fn assert_roundtrip(subspace: &SubspaceIndex, index: u64) {
        let (mover, other) = subspace.unrank(index);
        let (a, b) = subspace.men();
        assert_eq!((mover.count(), other.count()), (a, b));
        assert!(!mover.intersects(other));
        assert!((mover | other).is_subset(subspace.board().all_points()));
        assert_eq!(subspace.rank(mover, other), index, "{subspace:?}");
        assert_eq!(subspace.canonical(mover, other), (mover, other));
    }

    #[test]
    fn trivial_stabilizers_are_those_no_other_symmetry_fixes() {
        for board in [&BOARD_24_DIAGONALS, &BOARD_24, &BOARD_9] {
            let indexer = MorrisIndexer::new(board);
            let group = indexer.symmetries();
            let n = board.point_count() as u32;
            for a in [1, 3, 4, n / 2] {
                let subspace = indexer.subspace(a, 0);
                let mut symmetric = 0;
                for set in combinations(n, a) {
                    let fixed = (1..group.len()).any(|s| group.apply(s, set) == set);
                    symmetric += usize::from(fixed);
                    assert_eq!(
                        subspace.has_trivial_stabilizer(Bitboard(set)),
                        !fixed,
                        "{set:#x} of {a} on {n} points"
                    );
                }
                assert!(symmetric > 0, "some {a}-sets on {n} points are symmetric");
            }
        }
    }

    /// Every board of the subspace, by mover set and free-point rank.
    fn for_each_board(board: &Board, a: u32, b: u32, mut f: impl FnMut(Bitboard, Bitboard)) {
        let n = board.point_count() as u32;
        for mover in combinations(n, a) {
            for other in subsets_of(!mover & board.all_points().0, b) {
                f(Bitboard(mover), Bitboard(other));
            }
        }
    }

    /// The number of orbits of boards under the group, by Burnside's lemma: the average over
    /// the symmetries of the boards each one fixes, which are the boards made of whole cycles.
    fn orbits(symmetries: &Symmetries, a: u32, b: u32) -> u64 {
        let n = symmetries.board().point_count();
        let (a, b) = (a as usize, b as usize);
        let mut total = 0;
        for s in 0..symmetries.len() {
            let mut cycles = Vec::new();
            let mut seen = 0u32;
            for p in 0..n as u8 {
                let mut length = 0;
                let mut q = p;
                while seen >> q & 1 == 0 {
                    seen |= 1 << q;
                    length += 1;
                    q = symmetries.point_image(s, q);
                }
                if length > 0 {
                    cycles.push(length);
                }
            }
            // ways[i][j]: cycle choices giving i mover and j other points.
            let mut ways = vec![vec![0u64; b + 1]; a + 1];
            ways[0][0] = 1;
            for &len in &cycles {
                for i in (0..=a).rev() {
                    for j in (0..=b).rev() {
                        let mover = if i >= len { ways[i - len][j] } else { 0 };
                        let other = if j >= len { ways[i][j - len] } else { 0 };
                        ways[i][j] += mover + other;
                    }
                }
            }
            total += ways[a][b];
        }
        assert_eq!(total % symmetries.len() as u64, 0);
        total / symmetries.len() as u64
    }

    #[test]
    fn indexer_is_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<MorrisIndexer>();
        shareable::<SubspaceIndex>();
    }

    #[test]
    fn every_index_roundtrips_on_the_small_boards() {
        for board in [&BOARD_9, &BOARD_9_ORTHOGONAL, &BOARD_16] {
            let indexer = MorrisIndexer::new(board);
            let n = board.point_count() as u32;
            for a in 0..=n {
                for b in 0..=n - a {
                    let subspace = indexer.subspace(a, b);
                    for index in 0..subspace.size() {
                        assert_roundtrip(&subspace, index);
                    }
                }
            }
        }
    }

    #[test]
    fn every_index_roundtrips_with_few_men_on_24_points() {
        for board in [&BOARD_24, &BOARD_24_DIAGONALS] {
            let indexer = MorrisIndexer::new(board);
            for a in 0..=3 {
                for b in 0..=3 {
                    let subspace = indexer.subspace(a, b);
                    for index in 0..subspace.size() {
                        assert_roundtrip(&subspace, index);
                    }
                }
            }
        }
    }

    #[test]
    fn sampled_indices_roundtrip_in_large_subspaces() {
        for (a, b) in [(5, 5), (9, 9), (8, 9), (0, 12), (12, 12)] {
            let subspace = INDEXER_24.subspace(a, b);
            let size = subspace.size();
            let step = (size / 20_000).max(1);
            for index in (0..size).step_by(step as usize).chain(size - 100..size) {
                assert_roundtrip(&subspace, index);
            }
        }
    }

    #[test]
    fn boards_iterate_the_unranked_boards_in_order() {
        for board in [&BOARD_9, &BOARD_16] {
            let indexer = MorrisIndexer::new(board);
            let n = board.point_count() as u32;
            for a in 0..=n {
                for b in 0..=n - a {
                    let subspace = indexer.subspace(a, b);
                    let size = subspace.size();
                    let all: Vec<_> = subspace.boards(0..size).collect();
                    let expected: Vec<_> = (0..size).map(|i| subspace.unrank(i)).collect();
                    assert_eq!(all, expected, "{subspace:?}");
                    for start in [size / 3, size / 2 + 1, size - 1, size] {
                        let tail: Vec<_> = subspace.boards(start..size).collect();
                        assert_eq!(tail, expected[start as usize..], "{subspace:?} {start}");
                    }
                }
            }
        }
        let subspace = INDEXER_24.subspace(9, 9);
        let start = subspace.size() / 2;
        for (i, board) in (start..).zip(subspace.boards(start..start + 100_000)) {
            assert_eq!(subspace.unrank(i), board);
        }
        assert_eq!(subspace.boards(5..5).count(), 0);
    }

    #[test]
    fn every_board_of_the_small_boards_has_a_rank_and_every_rank_a_board() {
        for board in [&BOARD_9, &BOARD_9_ORTHOGONAL, &BOARD_16] {
            let indexer = MorrisIndexer::new(board);
            let group = indexer.symmetries();
            let n = board.point_count() as u32;
            for a in 0..=n {
                for b in 0..=n - a {
                    let subspace = indexer.subspace(a, b);
                    let mut hit = vec![false; subspace.size() as usize];
                    for_each_board(board, a, b, |mover, other| {
                        let index = subspace.rank(mover, other);
                        hit[index as usize] = true;
                        // The images of the 43 million boards of the 16 points are left to
                        // the property tests.
                        let images = if n == 9 { group.len() } else { 0 };
                        for s in 0..images {
                            let image = (group.apply(s, mover.0), group.apply(s, other.0));
                            let image = subspace.rank(Bitboard(image.0), Bitboard(image.1));
                            assert_eq!(image, index, "{subspace:?} symmetry {s}");
                        }
                    });
                    assert!(hit.iter().all(|&h| h), "{subspace:?}");
                }
            }
        }
    }

    #[test]
    fn sizes_are_the_numbers_of_orbits() {
        for board in [
            &BOARD_9,
            &BOARD_9_ORTHOGONAL,
            &BOARD_16,
            &BOARD_24,
            &BOARD_24_DIAGONALS,
        ] {
            let indexer = MorrisIndexer::new(board);
            let n = board.point_count() as u32;
            let most = n.min(5);
            for a in 0..=most {
                for b in 0..=most.min(n - a) {
                    let size = indexer.subspace(a, b).size();
                    assert_eq!(
                        size,
                        orbits(indexer.symmetries(), a, b),
                        "{board:?} {a} {b}"
                    );
                }
            }
        }
        for (a, b) in [(9, 9), (8, 9), (12, 12)] {
            let size = INDEXER_24.subspace(a, b).size();
            assert_eq!(size, orbits(INDEXER_24.symmetries(), a, b), "{a} {b}");
        }
    }

    #[test]
    fn subspace_sizes_on_24_points() {
        for (a, b) in [(3, 3), (5, 5), (9, 9), (8, 9)] {
            let subspace = INDEXER_24.subspace(a, b);
            let boards = count_boards(24, a, b);
            let size = subspace.size();
            assert!(size * 16 >= boards, "no class is larger than the group");
            assert!(
                size as f64 * 16.0 / boards as f64 <= 1.02,
                "few boards are symmetric"
            );
        }
        // The figures of the table in the module's documentation.
        let figures = |a, b| {
            let subspace = INDEXER_24.subspace(a, b);
            (
                subspace.size(),
                subspace.mover_classes(),
                subspace.heap_bytes(),
                subspace.mover_table_bytes(),
            )
        };
        assert_eq!(figures(9, 9), (409_106_740, 82_880, 26_713_328, 6_056_496));
        assert_eq!(figures(8, 9), (525_979_400, 46_879, 43_842_908, 3_408_852));
        assert_eq!(INDEXER_24.subspace(12, 0).mover_table_bytes(), 12_521_480);
        assert_eq!(INDEXER_24.subspace(12, 0).mover_classes(), 170_854);
    }

    /// A random board of one of a spread of subspaces: all the small ones and a few large ones
    /// (building every subspace would dominate the test's time).
    fn position() -> impl Strategy<Value = (Vec<u8>, u32, u32)> {
        let men = prop_oneof![
            (0u32..=4, 0u32..=4),
            prop::sample::select(vec![(5, 5), (9, 9), (8, 9), (9, 8), (7, 3), (3, 7), (9, 6)]),
        ];
        (Just((0..24).collect::<Vec<u8>>()).prop_shuffle(), men)
            .prop_map(|(points, (a, b))| (points, a, b))
    }

    static INDEXER_16: LazyLock<MorrisIndexer> = LazyLock::new(|| MorrisIndexer::new(&BOARD_16));

    /// Checks that every image of the board made of the first `a` and next `b` of `points`
    /// has its index, and that the canonical board is one of them.
    fn check_images(
        indexer: &MorrisIndexer,
        points: &[u8],
        a: u32,
        b: u32,
    ) -> Result<(), TestCaseError> {
        let set = |men: &[u8]| men.iter().fold(0u32, |acc, &p| acc | 1 << p);
        let mover = set(&points[..a as usize]);
        let other = set(&points[a as usize..(a + b) as usize]);
        let subspace = indexer.subspace(a, b);
        let group = indexer.symmetries();
        let index = subspace.rank(Bitboard(mover), Bitboard(other));
        prop_assert!(index < subspace.size());
        let canonical = subspace.canonical(Bitboard(mover), Bitboard(other));
        prop_assert_eq!(subspace.unrank(index), canonical);
        let mut in_orbit = false;
        for s in 0..group.len() {
            let image = (
                Bitboard(group.apply(s, mover)),
                Bitboard(group.apply(s, other)),
            );
            prop_assert_eq!(subspace.rank(image.0, image.1), index);
            in_orbit |= image == canonical;
        }
        prop_assert!(in_orbit, "the canonical board is an image of the board");
        Ok(())
    }

    #[test]
    fn canonical_symmetries_are_exactly_those_reaching_the_canonical_board() {
        for board in [&BOARD_9, &BOARD_16] {
            let indexer = MorrisIndexer::new(board);
            let group = indexer.symmetries();
            let n = board.point_count() as u32;
            for (a, b) in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 2), (3, 4)] {
                if a + b > n {
                    continue;
                }
                let subspace = indexer.subspace(a, b);
                for_each_board(board, a, b, |mover, other| {
                    let canonical = subspace.canonical(mover, other);
                    let mut expected = 0;
                    for s in 0..group.len() {
                        let image = (group.apply(s, mover.0), group.apply(s, other.0));
                        if (Bitboard(image.0), Bitboard(image.1)) == canonical {
                            expected |= 1 << s;
                        }
                    }
                    assert_ne!(expected, 0);
                    assert_eq!(subspace.canonical_symmetries(mover, other), expected);
                });
            }
        }
    }

    proptest! {
        #[test]
        fn symmetric_images_share_an_index((points, a, b) in position()) {
            check_images(&INDEXER_24, &points, a, b)?;
        }

        #[test]
        fn symmetric_images_share_an_index_on_16_points(
            points in Just((0..16).collect::<Vec<u8>>()).prop_shuffle(),
            a in 0u32..=8,
            b in 0u32..=8,
        ) {
            check_images(&INDEXER_16, &points, a, b)?;
        }
    }
}
