//! Even layers looked at forward, in part or in whole.
//!
//! An even layer `d` holds positions lost in `d`, and each of their predecessors not yet won
//! sooner wins in `d + 1`. Unmoving every loss finds them, but where the layer is large and
//! few positions are still open, most predecessors it locates are won already. A unit with one
//! side far ahead is like that: in Twelve Men's Morris 5-9, the first pass wins 0.95 G
//! positions of the side with nine men in one ply, layer 1 then loses 0.87 G of the side with
//! five, and unmoving those (each with a score of turns back, memories included) finds only
//! some 0.1 G positions not already won.
//!
//! Such a layer can be looked at the other way: each *open* position (undecided, or won
//! through an exit later than `d + 1`) plays its turns in the unit and stops at the first that
//! reaches a loss of the layer. The two ways mix member by member: the wins of a member come
//! either from looking forward from its open positions, or from unmoving the losses of every
//! member its turns lead to (and a loss unmoved wins for all the members it is a turn away
//! from). A count of the cells before the layer (losses and open positions, member by member)
//! prices each split by the positions it visits, a loss unmoved costing about twice an open
//! position looked at, and takes the cheapest; unmoving every loss where nothing is cheaper,
//! and without the count where the layer is small. In Twelve Men's Morris the members are the
//! two sides' subspaces with and without memories, and the split found is usually by side: the
//! side far ahead looks forward for the few positions it has open, while the losses of the
//! side ahead, few, are unmoved.
//!
//! Every split writes the same cells: an open position with a successor lost in `d` is exactly
//! a predecessor of the layer not yet won in `d + 1` or sooner (one with a loss nearer was won
//! by an earlier layer), losses are only written by odd layers, so an even layer reads them
//! unchanging, and a position won twice, once each way, is won once.
//!
//! Counting down (odd layers) stays backward: a counter must drop once per won successor, and
//! the counters a forward look skipped would be wrong for the layers after.
//!
//! Even layers change no counter and write only wins in `d + 1`, so running one again, any
//! way, from any state part way through one, ends with the same cells. A split layer stopped
//! part way is therefore saved as a layer not begun: its chunks done are not those of a layer
//! that unmoves every loss, which a checkpoint's chunks done stand for.

use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use perfectplay_core::Game;

use super::lookahead::Begun;
use super::{Pos, UnitSolver};
use crate::cells::Cell;
use crate::domain::Domain;
use crate::error::SolveError;
use crate::value::Packed;

/// How even layers find the positions their losses win for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum WinSearch {
    /// Whichever way looks at fewer positions, by a count of the cells (the solver's way).
    #[default]
    Cheaper,
    /// Unmoving the losses, always.
    #[cfg_attr(not(test), allow(dead_code))]
    Backward,
    /// Looking forward from the open positions, always.
    #[cfg_attr(not(test), allow(dead_code))]
    Forward,
    /// Looking forward from every other member a loss is a turn away from, unmoving for the
    /// rest: a mixed split, whatever the counts (tests).
    #[cfg(test)]
    Halves,
}

/// An even layer with fewer losses than the unit's positions over this is unmoved without
/// counting the cells: the count reads every cell, which costs about as much as unmoving one
/// position per thousand.
const COUNT_ABOVE: u64 = 1024;
/// The most successors [`UnitSolver::turns_into_unit`] locates before reading their cells.
pub(super) const MOST_READS: usize = 16;
/// The most successors a forward look locates before reading their cells. It begins with one
/// (where a side is far ahead, nearly every turn of the side behind it is lost, and the first
/// turn settles most looks), read when the look ends (module `lookahead`), then two, then this
/// many at a time: their cache misses overlap, and a loss found among them spares the turns
/// after.
const READS: usize = 4;
/// What unmoving one loss costs, against [`LOOK_COST`] for looking forward from one open
/// position: on Twelve Men's Morris 4-6 (two threads), 0.79 µs a loss (a score of predecessors
/// located, each a cache miss) against 0.34 µs a position (its turns located until one reaches
/// the layer, all of them where none does).
const UNMOVE_COST: u64 = 2;
/// See [`UNMOVE_COST`].
const LOOK_COST: u64 = 1;
/// Units with more members than this choose between all forward and all backward, rather than
/// trying every split.
const MOST_MEMBERS_SPLIT: usize = 12;

/// What the count before an even layer found, member by member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Census {
    /// Positions lost in the layer's distance.
    lost: Vec<u64>,
    /// Open positions: undecided, or won through an exit later than the layer can win them.
    open: Vec<u64>,
}

impl Census {
    fn zero(members: usize) -> Census {
        Census {
            lost: vec![0; members],
            open: vec![0; members],
        }
    }

    fn add(mut self, other: Census) -> Census {
        for (a, b) in self.lost.iter_mut().zip(other.lost) {
            *a += b;
        }
        for (a, b) in self.open.iter_mut().zip(other.open) {
            *a += b;
        }
        self
    }
}

/// How an even layer goes where it does not simply unmove every loss: the members whose
/// losses it unmoves, and those whose open positions look forward.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EvenLayer {
    unmove: Vec<bool>,
    look: Vec<bool>,
}

impl EvenLayer {
    /// Whether the losses of member `m` are unmoved.
    pub(super) fn unmoves(&self, m: usize) -> bool {
        self.unmove[m]
    }
}

/// Whether a position with `cell` may still be won by even layer `d`: undecided (counting, or
/// unable to lose) and able to arise, or won later than `d + 1` (through an exit).
#[inline]
fn is_open(cell: Cell, d: u32) -> bool {
    if cell.is_decided() {
        return Packed(cell.value)
            .plies()
            .is_some_and(|p| p % 2 == 1 && p > d + 1);
    }
    // A drawing exit (`Cell::CANNOT_LOSE`) does not stop a win through the unit.
    cell != Cell::CANNOT_ARISE
}

/// The split of an even layer `way` chooses, from the members each member's turns lead to
/// (`successors`) and the count of the cells; `None`: unmove every loss.
fn choose(successors: &[Vec<usize>], census: &Census, way: WinSearch) -> Option<EvenLayer> {
    let members = successors.len();
    // The members a loss of the layer is one turn away from: the only ones it can win for.
    let reached: Vec<bool> = successors
        .iter()
        .map(|next| next.iter().any(|&s| census.lost[s] > 0))
        .collect();
    // The split looking forward from `look`: the members whose losses are still unmoved (those
    // of the others reached), and its cost.
    let split = |look: Vec<bool>| {
        let mut unmove = vec![false; members];
        for m in (0..members).filter(|&m| reached[m] && !look[m]) {
            for &s in &successors[m] {
                unmove[s] = true;
            }
        }
        let cost = (0..members)
            .map(|m| {
                u64::from(look[m]) * census.open[m] * LOOK_COST
                    + u64::from(unmove[m]) * census.lost[m] * UNMOVE_COST
            })
            .sum::<u64>();
        (cost, EvenLayer { unmove, look })
    };
    let chosen = match way {
        WinSearch::Backward => return None,
        WinSearch::Forward => split(reached.clone()).1,
        #[cfg(test)]
        WinSearch::Halves => split((0..members).map(|m| reached[m] && m % 2 == 0).collect()).1,
        WinSearch::Cheaper => {
            let targets: Vec<usize> = (0..members).filter(|&m| reached[m]).collect();
            let looks: Vec<Vec<bool>> = if targets.len() <= MOST_MEMBERS_SPLIT {
                (0..1u32 << targets.len())
                    .map(|subset| {
                        let mut look = vec![false; members];
                        for (bit, &m) in targets.iter().enumerate() {
                            look[m] = subset >> bit & 1 == 1;
                        }
                        look
                    })
                    .collect()
            } else {
                vec![vec![false; members], reached.clone()]
            };
            // The first of the cheapest: unmoving every loss (the empty split) on a tie.
            looks
                .into_iter()
                .map(split)
                .min_by_key(|(cost, _)| *cost)
                .map(|(_, split)| split)?
        }
    };
    chosen.look.iter().any(|&l| l).then_some(chosen)
}

impl<D: Domain> UnitSolver<'_, D> {
    /// How even layer `d` goes: `None` to unmove every loss, or the split chosen (module
    /// docs).
    pub(super) fn split_even_layer(&self, d: u32) -> Option<EvenLayer> {
        debug_assert!(d.is_multiple_of(2), "only even layers win positions");
        let lost_in_layer = self.layer_counts[d as usize].load(Ordering::Relaxed);
        if self.win_search == WinSearch::Backward
            || self.win_search == WinSearch::Cheaper
                && lost_in_layer.saturating_mul(COUNT_ABOVE) < self.total()
        {
            return None;
        }
        choose(&self.successor_members, &self.census(d), self.win_search)
    }

    /// Counts, member by member, the positions lost in `d` and those open at layer `d`.
    fn census(&self, d: u32) -> Census {
        let lost = Cell::decided(
            Packed::decided(d)
                .expect("layers stay within the encoding")
                .0,
        );
        let members = self.keys.len();
        self.count_cells(
            || Census::zero(members),
            |block| {
                let mut census = Census::zero(members);
                for (m, part) in self.member_parts(block) {
                    self.cells.for_each_cell(part, |_, cell| {
                        census.lost[m] += u64::from(cell == lost);
                        census.open[m] += u64::from(is_open(cell, d));
                    });
                }
                census
            },
            Census::add,
        )
    }

    /// Calls `found` with each position of `range` open at even layer `d` in a member that
    /// `split` looks forward from, in order.
    pub(super) fn for_each_open(
        &self,
        range: std::ops::Range<u64>,
        d: u32,
        split: &EvenLayer,
        mut found: impl FnMut(u64),
    ) {
        for (m, part) in self.member_parts(range) {
            if split.look[m] {
                self.cells.for_each_cell(part, |g, cell| {
                    if is_open(cell, d) {
                        found(g);
                    }
                });
            }
        }
    }

    /// Begins a look forward from `pos` (combined index `g`, member `m`) for a turn into a
    /// loss of the layer: see [`reaches`](Self::reaches).
    pub(super) fn begin_win_look(
        &self,
        m: usize,
        g: u64,
        pos: &Pos<D>,
    ) -> Result<Begun<Pos<D>>, SolveError> {
        self.begin_look(m, g, pos, 1)
    }

    /// Whether some turn of the position `look` was begun from leads to a position of the
    /// unit whose cell is `target`.
    pub(super) fn reaches(&self, look: &Begun<Pos<D>>, target: Cell) -> Result<bool, SolveError> {
        self.end_look(look, READS, |batch| {
            batch.iter().any(|&q| self.cells.get(q) == target)
        })
    }

    /// Locates the successors of `pos` (combined index `g`, member `m`) that the unit holds,
    /// starts fetching each one's cell, and hands their combined indices to `read` in batches:
    /// `first` of them, then twice as many each time, up to `most` (at most [`MOST_READS`]),
    /// so that the cache misses of a batch overlap while an answer found early spares the
    /// turns after it. Stops once `read` returns true, and returns whether it did. Turns that
    /// leave the unit are passed over: the first pass valued them.
    pub(super) fn turns_into_unit(
        &self,
        g: u64,
        m: usize,
        pos: &Pos<D>,
        first: usize,
        most: usize,
        read: impl FnMut(&[u64]) -> bool,
    ) -> Result<bool, SolveError> {
        Ok(self
            .turns_into_unit_from(g, m, pos, 0, first, most, read)?
            .is_some())
    }

    /// [`turns_into_unit`](Self::turns_into_unit) from turn `skip` of `pos` on, in the order
    /// the game generates them (the turns before are passed over, neither played nor
    /// located): returns how many turns had been generated, those skipped included, when
    /// `read` returned true, or `None` if it never did. A look stopped there goes on from
    /// there.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn turns_into_unit_from(
        &self,
        g: u64,
        m: usize,
        pos: &Pos<D>,
        skip: usize,
        first: usize,
        most: usize,
        mut read: impl FnMut(&[u64]) -> bool,
    ) -> Result<Option<usize>, SolveError> {
        debug_assert!(0 < first && first <= most && most <= MOST_READS);
        let game = self.domain.game();
        let quiet_stay = self.quiet_stay[m];
        let mut reads: ArrayVec<u64, MOST_READS> = ArrayVec::new();
        let mut batch = first;
        let mut memo = D::LocateMemo::default();
        let mut generated = 0;
        let mut stopped_after = None;
        let mut error = None;
        game.for_each_move(pos, |mv| {
            if stopped_after.is_some() || error.is_some() {
                return;
            }
            generated += 1;
            if generated <= skip {
                return;
            }
            // A capture leads to a later unit: the first pass valued it.
            if self.domain.lowers_material(pos, mv) {
                debug_assert!(
                    self.domain
                        .subspace_of(&game.play(pos, mv))
                        .and_then(|k| self.member(k))
                        .is_none(),
                    "a capture stays in the unit"
                );
                return;
            }
            let stays = quiet_stay && self.domain.is_quiet_turn(pos, mv);
            // Played on a copy in place: see `verify::recompute`.
            let mut next = *pos;
            game.play_in_place(&mut next, mv);
            if !stays
                && self
                    .domain
                    .subspace_of(&next)
                    .and_then(|k| self.member(k))
                    .is_none()
            {
                return;
            }
            match self.domain.locate_near(&next, &mut memo) {
                Ok((key, index)) => match self.member(key) {
                    Some(s) => {
                        let q = self.offsets[s] + index;
                        self.cells.prefetch(q);
                        reads.push(q);
                        if reads.len() == batch {
                            if read(&reads) {
                                stopped_after = Some(generated);
                            }
                            reads.clear();
                            batch = (2 * batch).min(most);
                        }
                    }
                    None => error = Some(self.inconsistent(g, "a quiet turn leaves the unit")),
                },
                Err(e) => {
                    error = Some(SolveError::Dependency {
                        subspace: self.subspace(g),
                        source: e,
                    })
                }
            }
        });
        match error {
            Some(e) => Err(e),
            None => {
                Ok(stopped_after
                    .or_else(|| (!reads.is_empty() && read(&reads)).then_some(generated)))
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::path::Path;
    use std::sync::atomic::AtomicU32;
    use std::sync::Mutex;

    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::Morris;

    use std::sync::Arc;

    use super::*;
    use crate::checkers::CheckersDomain;
    use crate::morris::MorrisDomain;
    use crate::retro::{CountDown, Observer};
    use crate::table::Table;
    use crate::{solve_planned_unit, SolveOptions, Tablebase};

    /// Records the layers a solver runs.
    #[derive(Default)]
    struct Layers(Mutex<Vec<u32>>, AtomicU32);

    impl Observer for Layers {
        fn initialised(&self, _n: u64) {}
        fn layer(&self, d: u32, _max: u32) {
            self.0.lock().unwrap().push(d);
        }
        fn layer_chunk_done(&self) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// How a test has a unit solved: even layers one way, odd layers one way.
    pub(in crate::retro) type Way = (WinSearch, CountDown);

    /// The unit of `target` (the last of its plan) and the tables of its exits, built first
    /// into `dir` with `options`.
    #[allow(clippy::type_complexity)]
    pub(crate) fn unit_with_exits<D: Domain>(
        make: impl Fn() -> D,
        target: &str,
        dir: &Path,
        options: &SolveOptions,
    ) -> (Vec<D::Key>, Vec<(D::Key, Arc<Table>)>) {
        let domain = make();
        let target = domain.parse_key(target).unwrap();
        let mut units = crate::plan(&domain, &[target]);
        let unit = units.pop().unwrap();
        for before in &units {
            solve_planned_unit(make(), dir, before, options).unwrap();
        }
        let tb = Tablebase::open(make(), dir).unwrap();
        let mut exits = Vec::new();
        for &k in &unit {
            for next in domain.successor_keys(k) {
                if !unit.contains(&next) && exits.iter().all(|(e, _)| *e != next) {
                    if let Ok(table) = tb.table(next) {
                        exits.push((next, table));
                    }
                }
            }
        }
        (unit, exits)
    }

    /// Solves the unit of `target` (the last of its plan), its exits built first into `dir`,
    /// each of `ways`: the payloads (with distances) of each.
    pub(in crate::retro) fn solved_each_way<D: Domain>(
        make: impl Fn() -> D,
        target: &str,
        dir: &Path,
        ways: &[Way],
    ) -> Vec<(Way, Vec<Vec<u8>>)> {
        let options = SolveOptions {
            threads: Some(2),
            ..SolveOptions::default()
        };
        let domain = make();
        let (unit, exits) = unit_with_exits(make, target, dir, &options);
        ways.iter()
            .map(|&way| {
                let layers = Layers::default();
                let solved = UnitSolver::new(&domain, &unit, exits.clone(), None)
                    .unwrap()
                    .with_win_search(way.0)
                    .with_count_down(way.1)
                    .run(&layers, None)
                    .unwrap();
                assert!(
                    layers.0.lock().unwrap().len() > 4,
                    "{target}: too few layers"
                );
                let payloads = (0..unit.len())
                    .map(|m| solved.payload(m).unwrap())
                    .collect();
                (way, payloads)
            })
            .collect()
    }

    /// Solves the unit of `target` each way even layers may go.
    fn solved_every_way<D: Domain>(
        make: impl Fn() -> D,
        target: &str,
        dir: &Path,
    ) -> Vec<(Way, Vec<Vec<u8>>)> {
        let ways = [
            WinSearch::Backward,
            WinSearch::Forward,
            WinSearch::Halves,
            WinSearch::Cheaper,
        ]
        .map(|w| (w, CountDown::Backward));
        solved_each_way(make, target, dir, &ways)
    }

    pub(in crate::retro) fn assert_all_the_same(solved: &[(Way, Vec<Vec<u8>>)]) {
        let (first, expected) = &solved[0];
        assert!(expected.iter().any(|p| p.iter().any(|&b| b != 0)));
        for (way, payloads) in &solved[1..] {
            assert!(payloads == expected, "{way:?} differs from {first:?}");
        }
    }

    /// Two sides of two members each, as a morris unit has them: the side far ahead looks
    /// forward from its few open positions, and the losses of the side behind, the many, are
    /// not unmoved; the few losses of the side ahead are.
    #[test]
    fn the_cheapest_split_looks_forward_where_few_positions_are_open() {
        let successors = vec![vec![2, 3], vec![2], vec![0, 1], vec![0]];
        let census = Census {
            lost: vec![900, 800, 3, 0],
            open: vec![500, 400, 100, 50],
        };
        let chosen = choose(&successors, &census, WinSearch::Cheaper).unwrap();
        assert_eq!(chosen.look, vec![false, false, true, true]);
        assert_eq!(chosen.unmove, vec![false, false, true, true]);
        // Fewer losses (100 to unmove, against 150 open positions to look at): every loss
        // unmoved.
        let few = Census {
            lost: vec![30, 20, 3, 0],
            ..census.clone()
        };
        assert_eq!(choose(&successors, &few, WinSearch::Cheaper), None);
        assert_eq!(choose(&successors, &census, WinSearch::Backward), None);
        // Forward, always: every member a loss is a turn away from looks, nothing is unmoved.
        let forward = choose(&successors, &census, WinSearch::Forward).unwrap();
        assert_eq!(forward.look, vec![true, true, true, true]);
        assert_eq!(forward.unmove, vec![false; 4]);
        // No loss a turn away from members 0 and 1 (member 2's only): they are left alone.
        let one_sided = Census {
            lost: vec![900, 800, 0, 0],
            ..census
        };
        let forward = choose(&successors, &one_sided, WinSearch::Forward).unwrap();
        assert_eq!(forward.look, vec![false, false, true, true]);
    }

    /// Twelve Men's Morris 4-3 with its memories (exits: the 3-3 unit), and 3-3 alone, where
    /// captures end the game: the same values and distances whichever way even layers go.
    #[test]
    fn every_way_writes_the_same_morris_tables() {
        let make = || MorrisDomain::new(Morris::preset("twelve_mens_morris").unwrap()).unwrap();
        for target in ["3-3", "4-3"] {
            let dir = tempfile::tempdir().unwrap();
            assert_all_the_same(&solved_every_way(make, target, dir.path()));
        }
    }

    /// Checkers kings, two against two (exits: the endings with a king fewer, whose wins
    /// reach the unit's positions with distances that its own layers may better).
    #[test]
    fn every_way_writes_the_same_checkers_tables() {
        let make = || CheckersDomain::new(Checkers::default());
        let dir = tempfile::tempdir().unwrap();
        assert_all_the_same(&solved_every_way(make, "0202-00", dir.path()));
    }

    #[test]
    fn open_cells_are_those_an_even_layer_may_still_win() {
        let won_in = |p: u32| Cell::decided(Packed::decided(p).unwrap().0);
        let lost_in = won_in;
        assert!(is_open(Cell::counting(3, 0), 4));
        assert!(is_open(Cell::counting(1, 6), 4));
        assert!(is_open(Cell::CANNOT_LOSE, 4));
        assert!(!is_open(Cell::CANNOT_ARISE, 4));
        assert!(!is_open(won_in(5), 4), "won in d + 1 already");
        assert!(!is_open(won_in(3), 4), "won sooner");
        assert!(is_open(won_in(7), 4), "won later, through an exit");
        assert!(!is_open(lost_in(4), 4));
        assert!(!is_open(lost_in(8), 4));
    }
}
