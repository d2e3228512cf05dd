//! The index of subspaces with no-re-forming memories: only the memories that can matter are
//! ranked (the scheme is described in [`super`]).
//!
//! A side's memory is *witnessed* by a line: `(point, man, line)` with `point` empty, `man` one
//! of the side's men that can reach it (a neighbour, or any man of a side that flies), and
//! `line` a line through `point`, not through `man`, whose two other points hold the side's
//! men. Every effective memory has a witness, most exactly one. A subspace numbers the
//! *configurations* (one witnessed memory per side that remembers) and takes one
//! representative of each class of configurations under the board's symmetries; a class fixes
//! its men and empty points, and the rest of the board is two combinations over the free
//! points (the side to move's men, then the other side's among the points left). So the index
//! is `offset[class] + rank(mover's free men) * C(free - a', b') + rank(other's free men)`.
//!
//! A position is located through each of its witnesses and each symmetry taking its
//! configuration to the class representative, keeping the least index: a position with two
//! witnesses, or whose configuration some symmetry fixes, has other indices that are holes
//! ([`crate::Domain::is_hole`]: they locate elsewhere).

use perfectplay_core::morris::{Barrier, MorrisPosition};
use perfectplay_core::{Bitboard, Color};

use super::domain::MorrisDomain;
use super::key::MorrisKey;
use crate::combin::{choose, colex_rank_within, colex_unrank_within, subsets_of_from};

/// Most lines through one point (the centre of the 3x3 grid).
const LINES_PER_POINT: usize = 4;

/// No configuration, or a configuration whose fixed points clash.
const NONE: u32 = u32::MAX;

/// The numbers of the memories each side's lines witness (mover, other side), [`NONE`] for
/// none; a side without a memory has the one number 0.
type Witnesses = ([u32; LINES_PER_POINT], [u32; LINES_PER_POINT]);

/// One side's memory with a line that witnesses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Witnessed {
    /// The point the man left (empty).
    point: u8,
    /// Where the man stands.
    man: u8,
    /// The line through `point` that the man's return would complete, as its three points.
    line: u32,
}

impl Witnessed {
    /// The side's men this memory fixes: the man and the line's two other points.
    fn men(self) -> u32 {
        (self.line & !(1 << self.point)) | 1 << self.man
    }
}

/// The witnessed memories of one side, numbered, with the number of each.
#[derive(Debug)]
struct SideConfigs {
    all: Vec<Witnessed>,
    /// `number[(point * points + man) * LINES_PER_POINT + k]`: the number of the memory
    /// witnessed by the `k`-th line through `point` (in the board's order), or [`NONE`].
    number: Vec<u32>,
}

impl SideConfigs {
    fn new(domain: &MorrisDomain, fly: bool) -> SideConfigs {
        let board = domain.game.board();
        let points = board.point_count();
        let mut all = Vec::new();
        let mut number = vec![NONE; points * points * LINES_PER_POINT];
        for point in 0..points as u8 {
            let targets = if fly {
                board.all_points()
            } else {
                board.neighbours(point)
            };
            for man in targets.indices().filter(|&m| m != point) {
                for (k, &line) in board.mills_at(point).iter().enumerate() {
                    if line != 0 && line & 1 << man == 0 {
                        number[(usize::from(point) * points + usize::from(man))
                            * LINES_PER_POINT
                            + k] = all.len() as u32;
                        all.push(Witnessed { point, man, line });
                    }
                }
            }
        }
        SideConfigs { all, number }
    }

    fn number_of(&self, domain: &MorrisDomain, w: Witnessed) -> u32 {
        let board = domain.game.board();
        let points = board.point_count();
        board
            .mills_at(w.point)
            .iter()
            .position(|&l| l == w.line)
            .map_or(NONE, |k| {
                self.number
                    [(usize::from(w.point) * points + usize::from(w.man)) * LINES_PER_POINT + k]
            })
    }

    /// The number of the memory the `k`-th line through `barrier`'s point witnesses for a side
    /// with `men` (a line not through the man that its other men complete), [`NONE`] where it
    /// witnesses none: the one test behind [`SideConfigs::witnesses`] and
    /// [`SideConfigs::only_witness`].
    #[inline]
    fn witness_of<'a>(
        &'a self,
        domain: &'a MorrisDomain,
        men: u32,
        barrier: Barrier,
    ) -> impl Fn(usize) -> u32 + 'a {
        let board = domain.game.board();
        let points = board.point_count();
        let base =
            (usize::from(barrier.point) * points + usize::from(barrier.man)) * LINES_PER_POINT;
        let others = men & !(1 << barrier.man);
        move |k| {
            let line = board.mills_at(barrier.point)[k];
            let rest = line & !(1 << barrier.point);
            if line != 0 && rest & others == rest {
                self.number[base + k]
            } else {
                NONE
            }
        }
    }

    /// The number of the one memory [`SideConfigs::witnesses`] finds, or `None` where it
    /// finds none or several. Worked out in registers, without the array: read back whole just
    /// after it was written a number at a time, the array waited on store forwarding.
    #[inline]
    fn only_witness(&self, domain: &MorrisDomain, men: u32, barrier: Barrier) -> Option<u32> {
        let witness = self.witness_of(domain, men, barrier);
        let mut found = None;
        for k in 0..LINES_PER_POINT {
            let number = witness(k);
            if number != NONE {
                if found.is_some() {
                    return None;
                }
                found = Some(number);
            }
        }
        found
    }

    /// The witnesses of `barrier` for a side with `men`: the lines through its point, not
    /// through the man, that its other men complete.
    fn witnesses(
        &self,
        domain: &MorrisDomain,
        men: u32,
        barrier: Barrier,
    ) -> [u32; LINES_PER_POINT] {
        std::array::from_fn(self.witness_of(domain, men, barrier))
    }
}

/// A class of configurations: what its representative fixes, and the rest of the board.
#[derive(Clone, Copy, Debug)]
struct Class {
    mover_fixed: u32,
    other_fixed: u32,
    /// The points neither fixed as men nor as the memories' empty points.
    free: u32,
    /// `C(free - a', b')`: the other side's placements per placement of the mover's.
    other_ways: u64,
    mover: Option<Barrier>,
    other: Option<Barrier>,
}

/// The index of one subspace with memories.
#[derive(Debug)]
pub(super) struct MemoryIndex {
    mover: Option<SideConfigs>,
    other: Option<SideConfigs>,
    /// Configurations of the other side per configuration of the mover (1 without a memory).
    other_count: usize,
    /// For each configuration (`mover * other_count + other`): its class and the symmetries
    /// (a bitmask) that take it to the class representative; [`NONE`] for a clash.
    configurations: Vec<(u32, u32)>,
    classes: Vec<Class>,
    /// `offsets[c]`: the first index of class `c`; one more entry, the size.
    offsets: Vec<u64>,
    /// Free men of the mover and of the other side.
    rest: (u32, u32),
}

impl MemoryIndex {
    pub(super) fn new(domain: &MorrisDomain, key: MorrisKey) -> MemoryIndex {
        let fly = |men: u8, hand: u8| {
            domain
                .game
                .rules()
                .flying
                .is_some_and(|n| u32::from(men) + u32::from(hand) <= u32::from(n))
        };
        let mover = key
            .mover_barrier()
            .then(|| SideConfigs::new(domain, fly(key.mover(), key.mover_hand())));
        let other = key
            .other_barrier()
            .then(|| SideConfigs::new(domain, fly(key.other(), key.other_hand())));
        let mover_count = mover.as_ref().map_or(1, |s| s.all.len());
        let other_count = other.as_ref().map_or(1, |s| s.all.len());
        let rest = (
            u32::from(key.mover()) - if mover.is_some() { 3 } else { 0 },
            u32::from(key.other()) - if other.is_some() { 3 } else { 0 },
        );
        let mut index = MemoryIndex {
            mover,
            other,
            other_count,
            configurations: vec![(NONE, 0); mover_count * other_count],
            classes: Vec::new(),
            offsets: vec![0],
            rest,
        };
        let group = domain.indexer.symmetries();
        for c in 0..index.configurations.len() {
            let Some(class) = index.class_of(domain, c) else {
                continue;
            };
            let mut least = c;
            let mut symmetries = 0u32;
            for s in 0..group.len() {
                let image = index.image(domain, c, s);
                if image < least {
                    least = image;
                    symmetries = 0;
                }
                if image == least {
                    symmetries |= 1 << s;
                }
            }
            let number = if least == c {
                let size = class.size(rest);
                index.classes.push(class);
                let last = *index.offsets.last().expect("offsets start with 0");
                index.offsets.push(last + size);
                (index.classes.len() - 1) as u32
            } else {
                index.configurations[least].0
            };
            index.configurations[c] = (number, symmetries);
        }
        index
    }

    /// The witnessed memories of configuration `c`.
    fn parts(&self, c: usize) -> (Option<Witnessed>, Option<Witnessed>) {
        (
            self.mover.as_ref().map(|s| s.all[c / self.other_count]),
            self.other.as_ref().map(|s| s.all[c % self.other_count]),
        )
    }

    /// What configuration `c` fixes, or `None` where its points clash.
    fn class_of(&self, domain: &MorrisDomain, c: usize) -> Option<Class> {
        let (m, o) = self.parts(c);
        let mover_fixed = m.map_or(0, Witnessed::men);
        let other_fixed = o.map_or(0, Witnessed::men);
        let empty = m.map_or(0, |w| 1 << w.point) | o.map_or(0, |w| 1 << w.point);
        if mover_fixed & other_fixed != 0 || (mover_fixed | other_fixed) & empty != 0 {
            return None;
        }
        let free = domain.game.board().all_points().0 & !(mover_fixed | other_fixed | empty);
        let left = free.count_ones().checked_sub(self.rest.0)?;
        let barrier = |w: Witnessed| Barrier {
            man: w.man,
            point: w.point,
        };
        Some(Class {
            mover_fixed,
            other_fixed,
            free,
            other_ways: if self.rest.1 <= left {
                choose(left, self.rest.1)
            } else {
                0
            },
            mover: m.map(barrier),
            other: o.map(barrier),
        })
    }

    /// The number of configuration `c`'s image under symmetry `s` (a clash maps to a clash).
    fn image(&self, domain: &MorrisDomain, c: usize, s: usize) -> usize {
        let group = domain.indexer.symmetries();
        let map = |w: Witnessed| Witnessed {
            point: group.point_image(s, w.point),
            man: group.point_image(s, w.man),
            line: group.apply(s, w.line),
        };
        let (m, o) = self.parts(c);
        let mover = match (&self.mover, m) {
            (Some(side), Some(w)) => side.number_of(domain, map(w)) as usize,
            _ => 0,
        };
        let other = match (&self.other, o) {
            (Some(side), Some(w)) => side.number_of(domain, map(w)) as usize,
            _ => 0,
        };
        mover * self.other_count + other
    }

    /// The number of indices.
    pub(super) fn size(&self) -> u64 {
        *self.offsets.last().expect("offsets start with 0")
    }

    /// The least index of the board `(ours, theirs)` with memories `mover` and `other` (each
    /// effective, present exactly where the subspace has a memory).
    pub(super) fn locate(
        &self,
        domain: &MorrisDomain,
        boards: (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> u64 {
        if let Some(number) = self.only_configuration(domain, boards, mover, other) {
            let index = self.rank_in_class(number, boards.0 .0, boards.1 .0);
            debug_assert_eq!(
                self.least_index(domain, boards, self.witnesses(domain, boards, mover, other)),
                index
            );
            return index;
        }
        let witnesses = self.witnesses(domain, boards, mover, other);
        self.least_index(domain, boards, witnesses)
    }

    /// The number of the configuration of the board `(ours, theirs)` with memories `mover`
    /// and `other`, where each side has one witness and only the identity fixes the
    /// configuration (most positions): its index is then its only one, ranked through the
    /// configuration's class by the identity. `None` otherwise. Worked out without the witness
    /// arrays (`SideConfigs::only_witness`).
    #[inline]
    fn only_configuration(
        &self,
        domain: &MorrisDomain,
        (ours, theirs): (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> Option<u32> {
        // A side the subspace gives no memory has the one number 0.
        let only = |side: &Option<SideConfigs>, men: Bitboard, barrier: Option<Barrier>| match (
            side, barrier,
        ) {
            (Some(s), Some(b)) => s.only_witness(domain, men.0, b),
            _ => Some(0),
        };
        let m = only(&self.mover, ours, mover)?;
        let o = only(&self.other, theirs, other)?;
        let (number, symmetries) = self.configurations[m as usize * self.other_count + o as usize];
        // Bit 0: the identity.
        (symmetries == 1).then_some(number)
    }

    /// The index of the board `(ours, theirs)`, taken to the representative of class
    /// `number`'s configuration already, in that class.
    #[inline]
    fn rank_in_class(&self, number: u32, ours: u32, theirs: u32) -> u64 {
        let class = &self.classes[number as usize];
        let a = ours & !class.mover_fixed;
        let b = theirs & !class.other_fixed;
        self.offsets[number as usize]
            + colex_rank_within(a, class.free) * class.other_ways
            + colex_rank_within(b, class.free & !a)
    }

    /// The numbers of the witnessed memories of each side (`[0, NONE, NONE, NONE]` for a side
    /// the subspace gives no memory), [`NONE`] where a line witnesses nothing.
    fn witnesses(
        &self,
        domain: &MorrisDomain,
        (ours, theirs): (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> Witnesses {
        let none = [0, NONE, NONE, NONE];
        let side = |side: &Option<SideConfigs>, men: Bitboard, barrier: Option<Barrier>| match (
            side, barrier,
        ) {
            (Some(s), Some(b)) => s.witnesses(domain, men.0, b),
            _ => none,
        };
        (
            side(&self.mover, ours, mover),
            side(&self.other, theirs, other),
        )
    }

    /// The least index of the board `(ours, theirs)` over the configurations its `witnesses`
    /// make and the symmetries taking each to its class's representative.
    fn least_index(
        &self,
        domain: &MorrisDomain,
        (ours, theirs): (Bitboard, Bitboard),
        (ms, os): Witnesses,
    ) -> u64 {
        let group = domain.indexer.symmetries();
        let mut least = u64::MAX;
        for &m in ms.iter().filter(|&&m| m != NONE) {
            for &o in os.iter().filter(|&&o| o != NONE) {
                let c = m as usize * self.other_count + o as usize;
                let (number, symmetries) = self.configurations[c];
                let mut rest = symmetries;
                while rest != 0 {
                    let s = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let index = self.rank_in_class(
                        number,
                        group.apply(s, ours.0),
                        group.apply(s, theirs.0),
                    );
                    least = least.min(index);
                }
            }
        }
        debug_assert!(least != u64::MAX, "an effective memory has a witness");
        least
    }

    /// Whether `index`, the index of the board `(ours, theirs)` with memories `mover` and
    /// `other` (each effective, present exactly where the subspace has a memory), is a hole:
    /// the position has a smaller index ([`MemoryIndex::locate`]).
    ///
    /// Most positions have one witness a side, and the configuration they witness is fixed by
    /// the identity alone: then their index is their only one, and nothing is ranked.
    pub(super) fn is_hole(
        &self,
        domain: &MorrisDomain,
        boards: (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
        index: u64,
    ) -> bool {
        if self
            .only_configuration(domain, boards, mover, other)
            .is_some()
        {
            debug_assert_eq!(self.locate(domain, boards, mover, other), index);
            return false;
        }
        let witnesses = self.witnesses(domain, boards, mover, other);
        self.least_index(domain, boards, witnesses) != index
    }

    /// The board and memories at `index`: (mover's men, other's men, their memories).
    pub(super) fn unrank(
        &self,
        index: u64,
    ) -> (Bitboard, Bitboard, Option<Barrier>, Option<Barrier>) {
        let number = self.offsets.partition_point(|&o| o <= index) - 1;
        let class = &self.classes[number];
        let local = index - self.offsets[number];
        let a = colex_unrank_within(local / class.other_ways, self.rest.0, class.free);
        let b = colex_unrank_within(local % class.other_ways, self.rest.1, class.free & !a);
        (
            Bitboard(a | class.mover_fixed),
            Bitboard(b | class.other_fixed),
            class.mover,
            class.other,
        )
    }
}

/// What [`MemoryIndex::for_each`] visits: an index, the mover's men, the other side's men, and
/// their memories.
pub(super) type Indexed = (u64, Bitboard, Bitboard, Option<Barrier>, Option<Barrier>);

impl MemoryIndex {
    /// Calls `visit` with every index of `range` in order and what [`MemoryIndex::unrank`]
    /// gives for it, stepping through the combinations instead of unranking each index.
    pub(super) fn for_each(&self, range: std::ops::Range<u64>, mut visit: impl FnMut(Indexed)) {
        let mut i = range.start;
        while i < range.end {
            let number = self.offsets.partition_point(|&o| o <= i) - 1;
            let class = &self.classes[number];
            let end = self.offsets[number + 1].min(range.end);
            let local = i - self.offsets[number];
            let first = colex_unrank_within(local / class.other_ways, self.rest.0, class.free);
            let mut skip = local % class.other_ways;
            'class: for a in subsets_of_from(class.free, self.rest.0, first) {
                let space = class.free & !a;
                let from = colex_unrank_within(skip, self.rest.1, space);
                skip = 0;
                for b in subsets_of_from(space, self.rest.1, from) {
                    visit((
                        i,
                        Bitboard(a | class.mover_fixed),
                        Bitboard(b | class.other_fixed),
                        class.mover,
                        class.other,
                    ));
                    i += 1;
                    if i == end {
                        break 'class;
                    }
                }
            }
        }
    }
}

impl Class {
    fn size(&self, (a, _): (u32, u32)) -> u64 {
        let free = self.free.count_ones();
        if a > free {
            return 0;
        }
        choose(free, a) * self.other_ways
    }
}

impl MorrisDomain {
    /// The position at `index` of `key`, a subspace with memories (White to move).
    pub(super) fn unrank_with_memories(&self, key: MorrisKey, index: u64) -> MorrisPosition {
        let (ours, theirs, mover, other) = self.memory_index(key).unrank(index);
        Self::position_with_memories(key, ours, theirs, mover, other)
    }

    /// The position of `key` with these men and memories (White to move).
    pub(super) fn position_with_memories(
        key: MorrisKey,
        ours: Bitboard,
        theirs: Bitboard,
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> MorrisPosition {
        let mut pos = Self::board_position(key, (ours, theirs));
        pos.set_barrier(Color::White, mover);
        pos.set_barrier(Color::Black, other);
        pos
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::morris::{Morris, MorrisRules};

    use super::*;
    use crate::Domain;

    fn domain(id: &str) -> MorrisDomain {
        let mut rules = MorrisRules::preset(id).unwrap().rules;
        rules.set("no_reforming", "true").unwrap();
        MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
    }

    /// Every index unranks to a position with effective memories that locates to an index
    /// of the same subspace, itself unless a hole; the indices that are no holes are as many
    /// as the positions counted up to symmetry.
    fn check(d: &MorrisDomain, key: MorrisKey) -> (u64, u64) {
        let size = d.size(key);
        let mut kept = 0;
        for i in 0..size {
            let pos = d.unrank(key, i);
            let (k, j) = d.locate(&pos).unwrap();
            assert_eq!(k, key, "{i}");
            assert!(j <= i, "{key} {i} locates after itself: {j}");
            if j == i {
                kept += 1;
                assert!(!d.is_hole(key, i, &pos));
            } else {
                assert!(d.is_hole(key, i, &pos));
                assert_eq!(d.locate(&d.unrank(key, j)).unwrap(), (key, j));
            }
        }
        (size, kept)
    }

    #[test]
    fn stepping_through_a_range_gives_what_unranking_gives() {
        let d = domain("twelve_mens_morris");
        for (m, o) in [(true, false), (false, true), (true, true)] {
            let key = MorrisKey::moving(4, 3).with_barriers(m, o);
            let index = d.memory_index(key);
            let size = index.size();
            for range in [
                0..size,
                1..size.min(700),
                size / 3..size / 3 + 999,
                size - 5..size,
            ] {
                let mut next = range.start;
                index.for_each(range.clone(), |(i, ours, theirs, mover, other)| {
                    assert_eq!(i, next);
                    assert_eq!((ours, theirs, mover, other), index.unrank(i), "{key} {i}");
                    next += 1;
                });
                assert_eq!(next, range.end, "{key} {range:?}");
            }
        }
    }

    /// `SideConfigs::only_witness` is the one number of the array `SideConfigs::witnesses`
    /// gives, where it has one, over positions with one witness and with several.
    #[test]
    fn the_one_witness_is_the_arrays_only_number() {
        let (mut one, mut several) = (0, 0);
        for id in ["twelve_mens_morris", "nine_mens_morris", "six_mens_morris"] {
            let d = domain(id);
            for (a, b) in [(3, 3), (4, 3), (5, 4), (6, 5)] {
                for (m, o) in [(true, false), (false, true), (true, true)] {
                    let key = MorrisKey::moving(a, b).with_barriers(m, o);
                    if !d.is_valid_key(key) {
                        continue;
                    }
                    let index = d.memory_index(key);
                    let size = index.size();
                    for i in (0..size).step_by((size / 3000).max(1) as usize) {
                        let (ours, theirs, mover, other) = index.unrank(i);
                        for (side, men, barrier) in
                            [(&index.mover, ours, mover), (&index.other, theirs, other)]
                        {
                            let (Some(s), Some(barrier)) = (side, barrier) else {
                                continue;
                            };
                            let found: Vec<u32> = s
                                .witnesses(&d, men.0, barrier)
                                .into_iter()
                                .filter(|&w| w != NONE)
                                .collect();
                            // An effective memory has a witness.
                            assert!(!found.is_empty(), "{id} {key} {i}");
                            match found.len() {
                                1 => one += 1,
                                _ => several += 1,
                            }
                            assert_eq!(
                                s.only_witness(&d, men.0, barrier),
                                (found.len() == 1).then(|| found[0]),
                                "{id} {key} {i}"
                            );
                        }
                    }
                }
            }
        }
        assert!(
            one > 0 && several > 0,
            "{one} with one witness, {several} with more"
        );
    }

    #[test]
    fn every_index_unranks_and_locates_back_on_small_boards() {
        for (id, a, b) in [
            ("three_mens_morris", 3, 3),
            ("six_mens_morris", 3, 3),
            ("six_mens_morris", 4, 3),
            ("twelve_mens_morris", 3, 3),
        ] {
            let d = domain(id);
            for (m, o) in [(true, false), (false, true), (true, true)] {
                let key = MorrisKey::moving(a, b).with_barriers(m, o);
                if d.is_valid_key(key) {
                    let (size, kept) = check(&d, key);
                    assert!(kept > 0 && kept <= size, "{id} {key}: {kept} of {size}");
                }
            }
        }
    }
}
