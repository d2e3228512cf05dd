//! Odd layers looked at forward, and the recount that puts the counters right after them.
//!
//! An odd layer `d` holds positions won in `d`. Unmoving each one counts down the counter of
//! each of its predecessors, and a counter that runs out makes a loss in `d + 1`: a score of
//! predecessors located and counted down for each win. Where the layer is large against the
//! positions still counting, the other way round costs less: each counting position plays its
//! turns into the unit and stops at the first that reaches a position not won in `d` plies or
//! fewer; one whose every turn reaches such a win is lost in `d + 1` (or in its longest exit
//! loss, if that is later), exactly the positions whose counter would have run out. Most
//! positions are settled by their first turn or two. The units whose sides are level are
//! like that early on: in Twelve Men's Morris 5-5, layer 1 wins 20 M of the 69 M positions
//! while 40 M still count, and layer 3 wins 18 M while 12.5 M count.
//!
//! Looking forward leaves the counters as they were, so they no longer say how many
//! successors are not yet won. Only an odd layer that is unmoved reads them, so before the
//! first one after a forward look a recount sets each counting position's counter to its
//! distinct successors in the unit not won in fewer than `d` plies: what it would hold had
//! every earlier odd layer been unmoved. Even layers never read a counter, and the positions
//! still counting at the end are draws whatever their counters say. A recount costs about as
//! much as looking forward from every counting position once, so a unit recounts at most
//! once in a run: after it, odd layers are unmoved.
//!
//! Which way a layer goes is priced from the layer's wins and the positions counting (a count
//! of the cells): unmoving a win costs about [`UNMOVE_COST`] and looking forward from a
//! counting position [`LOOK_COST`] (measured on Twelve Men's Morris 5-5 and 4-6, one thread:
//! 1.1 to 1.4 µs a win against 0.46 to 0.69 µs a position). Layers with few wins against the
//! unit's size are unmoved without the count.
//!
//! Every way writes the same cells. A forward look changes only counting cells, each from
//! the task of its own chunk, and reads only wins, which an odd layer does not change, so a
//! look stopped part way and taken up again (or run again) ends as if it had run in one go;
//! so does a recount, which writes counters only from wins decided before the layer. A
//! checkpoint saved while the counters are stale says so ([`Stage::Stale`]), with what the
//! chunks done of the layer did.
//!
//! [`Stage::Stale`]: crate::unit_checkpoint::Stage::Stale

use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;

use super::forward::MOST_READS;
use super::layer_chunks::ChunkMarks;
use super::lookahead::{Begun, Queue};
use super::{sort_distinct, Observer, Pos, UnitSolver, CHUNK, MAX_INTERNAL};
use crate::cells::{Cell, CANNOT_LOSE};
use crate::domain::Domain;
use crate::error::SolveError;
use crate::value::Packed;

/// How odd layers count their predecessors down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum CountDown {
    /// Whichever way costs less, by a count of the cells (the solver's way).
    #[default]
    Cheaper,
    /// Unmoving the wins, always.
    #[cfg_attr(not(test), allow(dead_code))]
    Backward,
    /// Looking forward in the odd layers up to this distance, then recounting and unmoving
    /// (tests).
    #[cfg(test)]
    ForwardThrough(u32),
}

/// What unmoving one win costs, against [`LOOK_COST`] for looking forward from one counting
/// position (module docs).
const UNMOVE_COST: u64 = 9;
/// See [`UNMOVE_COST`].
const LOOK_COST: u64 = 4;
/// An odd layer with fewer wins than the unit's positions over this is unmoved without
/// counting the cells: looking forward would need under a seventh of the positions counting,
/// and the count reads every cell.
const COUNT_ABOVE: u64 = 16;
/// How many successors a forward look locates when it begins (module `lookahead`).
const FIRST_READS: usize = 4;

/// Whether looking forward from `counting` positions costs less than unmoving `wins`.
fn forward_is_cheaper(wins: u64, counting: u64) -> bool {
    wins.saturating_mul(UNMOVE_COST) > counting.saturating_mul(LOOK_COST)
}

/// Whether `cell` is undecided with a counter: able to lose, and able to arise.
#[inline]
fn is_counting(cell: Cell) -> bool {
    cell.counter != 0 && cell.counter != CANNOT_LOSE
}

/// Whether `cell` is won for its mover in fewer than `d` plies.
#[inline]
fn won_before(cell: Cell, d: u32) -> bool {
    cell.is_decided()
        && Packed(cell.value)
            .plies()
            .is_some_and(|p| p % 2 == 1 && p < d)
}

impl<D: Domain> UnitSolver<'_, D> {
    /// Whether position `q`, whose cell is `cell`, is won for its mover in fewer than `d`
    /// plies, a tail code read through the tail (module `tail`).
    #[inline]
    fn won_before(&self, q: u64, cell: Cell, d: u32) -> bool {
        if !won_before(cell, d) {
            return false;
        }
        match Packed(cell.value).plies() {
            Some(p) if self.tail.is_code(p) => self.tail.plies_of(q).is_some_and(|p| p < d),
            _ => true,
        }
    }

    /// Whether odd layer `d` looks forward rather than unmoving its wins (module docs).
    pub(super) fn looks_forward(&self, d: u32) -> bool {
        debug_assert!(d % 2 == 1, "only odd layers count down");
        let wins = self.layer_counts[d as usize].load(Ordering::Relaxed);
        match self.count_down {
            CountDown::Backward => false,
            #[cfg(test)]
            CountDown::ForwardThrough(last) => d <= last,
            CountDown::Cheaper => {
                wins.saturating_mul(COUNT_ABOVE) >= self.total()
                    && forward_is_cheaper(wins, self.counting())
            }
        }
    }

    /// How many positions are counting.
    fn counting(&self) -> u64 {
        self.count_cells(
            || 0,
            |block| {
                let mut n = 0;
                self.cells
                    .for_each_cell(block, |_, cell| n += u64::from(is_counting(cell)));
                n
            },
            |a, b| a + b,
        )
    }

    /// Odd layer `d` looked at forward: each counting position whose every successor in the
    /// unit is won in `d` plies or fewer is lost. Returns whether every chunk was done.
    #[must_use]
    pub(super) fn odd_layer_forward(&self, d: u32, observer: &dyn Observer) -> bool {
        // Looks end in the order they began, a few positions later (module `lookahead`).
        let end = |look: Begun<Pos<D>>, local: &mut [u64; 256]| {
            if !look.has_turns() {
                return Err(
                    self.inconsistent(look.g, "a counting position has no turn into the unit")
                );
            }
            let some_turn_not_won = self.end_look(&look, MOST_READS, |batch| {
                !batch
                    .iter()
                    .all(|&q| self.won_before(q, self.cells.get(q), d + 1))
            })?;
            if some_turn_not_won {
                return Ok(());
            }
            let mut plies = None;
            self.cells.update(look.g, |cell| {
                // Layers come in order: the longest internal win is `d` or less, so the loss
                // is in one more, unless an exit loses later.
                plies = is_counting(cell).then(|| (d + 1).max(u32::from(cell.value)));
                Some(Cell::decided(self.fitting(plies?)?.0))
            });
            if let Some(plies) = plies {
                self.packed(look.g, plies)?;
                self.decided_at(look.g, plies, local);
            }
            Ok(())
        };
        self.for_each_counting_chunk(observer, |range, counting, local| {
            let mut looks = Queue::new();
            self.visit_marked(range, counting, |m, g, pos| {
                let look = self.begin_look(m, g, pos, FIRST_READS)?;
                looks.push_ending(look, |oldest| end(oldest, local))
            })?;
            looks.end_all(|oldest| end(oldest, local))
        })
    }

    /// Sets the counter of each counting position to its distinct successors in the unit not
    /// won in fewer than `d` plies: the counters odd layer `d` unmoves, after odd layers looked
    /// at forward. Returns whether every chunk was done.
    #[must_use]
    pub(super) fn recount(&self, d: u32, observer: &dyn Observer) -> bool {
        self.for_each_counting(observer, |m, g, pos, _| {
            let mut all: ArrayVec<u64, MAX_INTERNAL> = ArrayVec::new();
            let mut overflow = false;
            self.turns_into_unit(g, m, pos, MOST_READS, MOST_READS, |batch| {
                for &q in batch {
                    overflow |= all.try_push(q).is_err();
                }
                false
            })?;
            if overflow {
                return Err(SolveError::TooManySuccessors {
                    subspace: self.subspace(g),
                    max: MAX_INTERNAL as u32,
                });
            }
            // Two turns reaching one index count once, as the first pass counted them.
            sort_distinct(&mut all);
            let left = all
                .iter()
                .filter(|&&q| !self.won_before(q, self.cells.get(q), d))
                .count();
            let left = u8::try_from(left).expect("at most MAX_INTERNAL successors, under 256");
            if left == 0 {
                return Err(self.inconsistent(g, "a recount finds every successor won"));
            }
            self.cells.update(g, |cell| {
                is_counting(cell).then_some(Cell::counting(left, cell.value))
            });
            Ok(())
        })
    }

    /// Runs `visit(member, combined index, position, counts)` on each counting position of the
    /// unit, chunk by chunk (the chunks done of the pass skipped); returns whether every chunk
    /// was done.
    fn for_each_counting(
        &self,
        observer: &dyn Observer,
        visit: impl Fn(usize, u64, &Pos<D>, &mut [u64; 256]) -> Result<(), SolveError> + Sync,
    ) -> bool {
        self.for_each_counting_chunk(observer, |range, counting, local| {
            self.visit_marked(range, counting, |m, g, pos| visit(m, g, pos, local))
        })
    }

    /// Runs `task(chunk, its counting positions, counts)` on each chunk of the unit (the
    /// chunks done of the pass skipped); returns whether every chunk was done.
    fn for_each_counting_chunk(
        &self,
        observer: &dyn Observer,
        task: impl Fn(std::ops::Range<u64>, &ChunkMarks, &mut [u64; 256]) -> Result<(), SolveError>
            + Sync,
    ) -> bool {
        let chunks = crate::tasks::each_chunk(0..self.total().div_ceil(CHUNK));
        self.for_each_chunk(chunks, |range, local| {
            let mut counting = ChunkMarks::new(range.start);
            self.cells.for_each_cell(range.clone(), |g, cell| {
                if is_counting(cell) {
                    counting.mark(g);
                }
            });
            task(range, &counting, local)?;
            observer.layer_chunk_done();
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::Morris;

    use super::*;
    use crate::checkers::CheckersDomain;
    use crate::morris::MorrisDomain;
    use crate::retro::forward::tests::{assert_all_the_same, solved_each_way, Way};
    use crate::retro::WinSearch;

    /// Unmoved throughout first (the reference), then forward through layer 1, through
    /// layer 3 (each recounting before the next odd layer), forward in every odd layer (never
    /// recounting: the positions left counting are draws), mixed with even layers looked at
    /// forward, and the solver's own choice.
    const WAYS: [Way; 6] = [
        (WinSearch::Backward, CountDown::Backward),
        (WinSearch::Backward, CountDown::ForwardThrough(1)),
        (WinSearch::Backward, CountDown::ForwardThrough(3)),
        (WinSearch::Cheaper, CountDown::ForwardThrough(u32::MAX)),
        (WinSearch::Forward, CountDown::ForwardThrough(5)),
        (WinSearch::Cheaper, CountDown::Cheaper),
    ];

    /// Twelve Men's Morris 3-3 and 4-3 with their memories, and Nine Men's Morris 4-4 (flying
    /// on one side): the same values and distances whichever way odd layers go.
    #[test]
    fn every_way_of_counting_down_writes_the_same_morris_tables() {
        for (preset, target) in [
            ("twelve_mens_morris", "3-3"),
            ("twelve_mens_morris", "4-3"),
            ("nine_mens_morris", "4-4"),
        ] {
            let make = || MorrisDomain::new(Morris::preset(preset).unwrap()).unwrap();
            let dir = tempfile::tempdir().unwrap();
            assert_all_the_same(&solved_each_way(make, target, dir.path(), &WAYS));
        }
    }

    /// Twelve Men's Morris with optional capture, 4-3: each mill may also take nothing, a
    /// quiet turn that unmoving the losses must find backwards (the first way) as looking
    /// forward finds it.
    #[test]
    fn every_way_of_counting_down_writes_the_same_tables_with_optional_capture() {
        let make = || {
            let mut rules = *Morris::preset("twelve_mens_morris").unwrap().rules();
            rules.set("capture", "optional").unwrap();
            MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        assert_all_the_same(&solved_each_way(make, "4-3", dir.path(), &WAYS));
    }

    /// Checkers kings, two against two, whose exits' wins come with distances that the unit's
    /// own layers may better.
    #[test]
    fn every_way_of_counting_down_writes_the_same_checkers_tables() {
        let make = || CheckersDomain::new(Checkers::default());
        let dir = tempfile::tempdir().unwrap();
        assert_all_the_same(&solved_each_way(make, "0202-00", dir.path(), &WAYS));
    }

    /// The figures the costs were measured on (one thread; seconds unmoving against looking
    /// forward): Twelve Men's Morris 5-5 layer 1 (20.2 M wins, 40.4 M counting: 27.9 s against
    /// 18.4 s) and layer 3 (18.3 M, 12.5 M: 21.0 s against 7.3 s) look forward; its layer 5
    /// (2.3 M, 6.0 M: 2.9 s against 3.6 s) and 4-6 layer 1 (30.2 M, 77.2 M: 32.9 s against
    /// 36.8 s) unmove; 4-6 layer 3 (21.9 M, 30.2 M: 26.9 s against 18.6 s) looks forward.
    #[test]
    fn the_measured_layers_go_the_cheaper_way() {
        assert!(forward_is_cheaper(20_224_153, 40_442_261));
        assert!(forward_is_cheaper(18_263_661, 12_502_527));
        assert!(!forward_is_cheaper(2_331_873, 5_987_290));
        assert!(!forward_is_cheaper(30_164_111, 77_234_339));
        assert!(forward_is_cheaper(21_897_483, 30_236_088));
        assert!(!forward_is_cheaper(0, 0));
    }

    #[test]
    fn counting_cells_are_the_undecided_ones_that_can_lose() {
        let won_in = |p: u32| Cell::decided(Packed::decided(p).unwrap().0);
        assert!(is_counting(Cell::counting(3, 0)));
        assert!(is_counting(Cell::counting(1, 6)));
        assert!(!is_counting(Cell::CANNOT_LOSE));
        assert!(!is_counting(Cell::CANNOT_ARISE));
        assert!(!is_counting(won_in(3)));
        assert!(won_before(won_in(3), 5) && !won_before(won_in(5), 5));
        assert!(!won_before(won_in(2), 5), "a loss is no win");
        assert!(!won_before(Cell::counting(2, 0), 5));
    }
}
