//! The placement phase searched on top of the moving-phase databases: the value of a position
//! with men in hand (the empty board above all) under perfect play.
//!
//! Without `mixed_placement` every turn of a side with men in hand places one, so the placement
//! phase is a tree of bounded depth that never repeats. Its leaves are the positions where both
//! hands are empty, valued by a probe of the moving-phase tables; positions where the game ends
//! on the way are valued by the rules. The search is negamax with alpha-beta pruning on the
//! three values loss, draw and win, turns that close a mill tried first, then those blocking
//! the opponent's mill, then those making a two-in-a-line, and a transposition table keyed by
//! the position up to the board's symmetries (the men of the side to move and of the other
//! side in the canonical form of the database index, and both hands), shared by the workers
//! of a parallel search. It gives win, draw or loss, not distances.
//!
//! Rules where placement positions can repeat (`mixed_placement`) or remember something
//! (`first_mill_opens`) are refused: their placement phase is solved by the retrograde solver
//! or not at all.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arrayvec::ArrayVec;
use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition};
use perfectplay_core::Game;

use super::MorrisDomain;
use crate::domain::Domain;
use crate::error::{ProbeError, SolveError};
use crate::tablebase::{terminal_value, Tablebase};
use crate::value::{Value, Wdl};

/// A bound in a transposition-table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact = 1,
    /// The value is at least the one stored.
    Lower = 2,
    /// The value is at most the one stored.
    Upper = 3,
}

/// Bits of an entry below the key: the value plus one, and the bound.
const DATA_BITS: u32 = 4;

/// What a search visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions searched (leaves and finished positions included).
    pub nodes: u64,
    /// Leaves valued by a table probe.
    pub probes: u64,
    /// Positions answered by the transposition table.
    pub table_hits: u64,
}

/// Searches placement positions on top of a [`Tablebase`] of the moving phase.
pub struct PlacementSearch<'a> {
    tb: &'a Tablebase<MorrisDomain>,
    entries: Vec<AtomicU64>,
    shift: u32,
    nodes: AtomicU64,
    probes: AtomicU64,
    hits: AtomicU64,
}

/// Why a search returned without a value.
enum Halt {
    Probe(ProbeError),
    /// Another worker finished first.
    Stopped,
}

impl From<ProbeError> for Halt {
    fn from(e: ProbeError) -> Self {
        Halt::Probe(e)
    }
}

/// Below this many men left to place, every worker orders moves alike: diversity only pays near
/// the root, where a subtree is big enough for the others to use its transposition entries.
const DIVERSE_ABOVE: u8 = 10;

impl<'a> PlacementSearch<'a> {
    /// A search reading `tb`, with a transposition table of `2^table_bits` entries (8 bytes
    /// each). Refuses rules whose placement phase is not a tree of plain positions.
    pub fn new(tb: &'a Tablebase<MorrisDomain>, table_bits: u32) -> Result<Self, SolveError> {
        let rules = tb.domain().game().rules();
        if rules.mixed_placement {
            return Err(SolveError::Unsupported(
                "with mixed_placement, placement positions can repeat: solve them with the \
                 retrograde solver instead of searching"
                    .to_owned(),
            ));
        }
        if rules.first_mill_opens {
            return Err(SolveError::Unsupported(
                "first_mill_opens positions remember who closed the first mill while placing, \
                 which the search's positions do not hold"
                    .to_owned(),
            ));
        }
        if tb.domain().game().board().point_count() > 24 || rules.men > 15 {
            return Err(SolveError::Unsupported(
                "the search's table keys hold boards of up to 24 points and hands of up to 15 men"
                    .to_owned(),
            ));
        }
        let bits = table_bits.clamp(4, 40);
        Ok(PlacementSearch {
            tb,
            entries: (0..1u64 << bits).map(|_| AtomicU64::new(0)).collect(),
            shift: 64 - bits,
            nodes: AtomicU64::new(0),
            probes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        })
    }

    /// What the searches so far visited.
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes.load(Ordering::Relaxed),
            probes: self.probes.load(Ordering::Relaxed),
            table_hits: self.hits.load(Ordering::Relaxed),
        }
    }

    /// The value of `pos` for the side to move under perfect play.
    pub fn value(&self, pos: &MorrisPosition) -> Result<Wdl, ProbeError> {
        self.value_with_threads(pos, 1)
    }

    /// The value of `pos`, searched by `threads` workers sharing the transposition table.
    ///
    /// Every entry of the table is a proven bound on the value of a position (the placement
    /// phase below a position has a fixed depth, so entries never depend on how deep a search
    /// went), so workers may use each other's entries freely and any worker's answer is the
    /// value. Near the root each worker tries a different move first, so they explore
    /// different subtrees and fill the table for each other; the first to finish stops the
    /// rest.
    pub fn value_with_threads(
        &self,
        pos: &MorrisPosition,
        threads: usize,
    ) -> Result<Wdl, ProbeError> {
        // Set when one worker has the answer: the others give up. One flag per call, so that
        // calls from several threads at once do not stop each other.
        let stop = AtomicBool::new(false);
        let results: Vec<Result<i8, Halt>> = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads.max(1))
                .map(|worker| {
                    let stop = &stop;
                    scope.spawn(move || {
                        let result = self.search(pos, -1, 1, worker, stop);
                        stop.store(true, Ordering::Relaxed);
                        result
                    })
                })
                .collect();
            let mut results = vec![self.search(pos, -1, 1, 0, &stop)];
            stop.store(true, Ordering::Relaxed);
            for helper in helpers {
                // A worker only returns values; a panic in one is a bug worth passing on.
                results.push(
                    helper
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p)),
                );
            }
            results
        });
        // Any worker's value is the value; otherwise the first error found. Every worker
        // returns once `stop` is set, and the last to return was not stopped, so there is
        // always one of the two.
        let mut error = None;
        for result in results {
            match result {
                Ok(v) => return Ok(wdl_of(v)),
                Err(Halt::Probe(e)) => {
                    error.get_or_insert(e);
                }
                Err(Halt::Stopped) => {}
            }
        }
        Err(error.unwrap_or_else(|| {
            ProbeError::OutOfScope("the search stopped without a value".to_owned())
        }))
    }

    /// Each turn of `pos` with its value for the side that plays it, best first (in generation
    /// order among equals).
    pub fn move_values(&self, pos: &MorrisPosition) -> Result<Vec<(MorrisMove, Wdl)>, ProbeError> {
        self.move_values_with_threads(pos, 1)
    }

    /// [`PlacementSearch::move_values`], each turn searched by `threads` workers.
    pub fn move_values_with_threads(
        &self,
        pos: &MorrisPosition,
        threads: usize,
    ) -> Result<Vec<(MorrisMove, Wdl)>, ProbeError> {
        let game = self.tb.domain().game();
        let mut values = Vec::new();
        let mut moves = Vec::new();
        game.for_each_move(pos, |mv| moves.push(*mv));
        for mv in moves {
            let v = self.value_with_threads(&game.play(pos, &mv), threads)?;
            values.push((mv, v.flip()));
        }
        values.sort_by_key(|&(_, w)| std::cmp::Reverse(score(w)));
        Ok(values)
    }

    /// Negamax with alpha-beta on -1, 0, 1: the exact value when it lies strictly between
    /// `alpha` and `beta`, else a bound on the right side of the window.
    fn search(
        &self,
        pos: &MorrisPosition,
        mut alpha: i8,
        beta: i8,
        worker: usize,
        stop: &AtomicBool,
    ) -> Result<i8, Halt> {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let game = self.tb.domain().game();
        if let Some(v) = terminal_value(game, pos) {
            return Ok(score(v?.wdl));
        }
        let us = pos.side_to_move();
        let to_place = pos.in_hand(us) + pos.in_hand(!us);
        if to_place == 0 {
            self.probes.fetch_add(1, Ordering::Relaxed);
            return Ok(self.tb.probe(pos).map(|v: Value| score(v.wdl))?);
        }
        if stop.load(Ordering::Relaxed) {
            return Err(Halt::Stopped);
        }
        let key = self.key(pos);
        if let Some((v, bound)) = self.lookup(key) {
            let usable = match bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta || v == 1,
                Bound::Upper => v <= alpha || v == -1,
            };
            if usable {
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(v);
            }
        }
        let mut moves = ordered_moves(game, pos)?;
        if worker > 0 && to_place > DIVERSE_ABOVE {
            let first = worker % moves.len();
            moves.swap(0, first);
        }
        let alpha_in = alpha;
        let mut best = -2;
        for mv in &moves {
            let v = -self.search(&game.play(pos, mv), -beta, -alpha, worker, stop)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta || best == 1 {
                break;
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, best, bound);
        Ok(best)
    }

    /// The position up to symmetry: canonical men of the side to move and of the other side,
    /// then both hands.
    fn key(&self, pos: &MorrisPosition) -> u64 {
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let index = self
            .tb
            .domain()
            .index(ours.count() as u8, theirs.count() as u8);
        let (ours, theirs) = index.canonical(ours, theirs);
        u64::from(ours.0)
            | u64::from(theirs.0) << 24
            | u64::from(pos.in_hand(us)) << 48
            | u64::from(pos.in_hand(!us)) << 52
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift;
        &self.entries[hash as usize]
    }

    fn lookup(&self, key: u64) -> Option<(i8, Bound)> {
        let entry = self.slot(key).load(Ordering::Relaxed);
        if entry >> DATA_BITS != key {
            return None;
        }
        let bound = match entry & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(((entry >> 2 & 3) as i8 - 1, bound))
    }

    fn store(&self, key: u64, value: i8, bound: Bound) {
        let data = ((value + 1) as u64) << 2 | bound as u64;
        self.slot(key)
            .store(key << DATA_BITS | data, Ordering::Relaxed);
    }
}

/// The turns of `pos`, likeliest to be best first: those closing a mill, then those blocking a
/// mill the opponent could close next, then those making a line of two that threatens one, then
/// the rest, each group in generation order. Good first moves are what make alpha-beta cut.
fn ordered_moves(
    game: &Morris,
    pos: &MorrisPosition,
) -> Result<ArrayVec<MorrisMove, 512>, ProbeError> {
    let board = game.board();
    let us = pos.side_to_move();
    let (ours, theirs) = (pos.men(us).0, pos.men(!us).0);
    let empty = board.all_points().0 & !(ours | theirs);
    // Empty points that would complete a mill of the opponent, and empty points that would
    // give us two men of a mill whose third point is empty.
    let mut blocks = 0u32;
    let mut builds = 0u32;
    for &mill in board.mills() {
        let free = mill & empty;
        if mill & theirs != 0 && (mill & theirs).count_ones() == 2 && free != 0 {
            blocks |= free;
        }
        if (mill & ours).count_ones() == 1 && free.count_ones() == 2 {
            builds |= free;
        }
    }
    let rank = |mv: &MorrisMove| -> u8 {
        let to = mv.to().map_or(0, |t| 1u32 << t);
        if mv.is_capture() {
            0
        } else if to & blocks != 0 {
            1
        } else if to & builds != 0 {
            2
        } else {
            3
        }
    };
    let mut all: ArrayVec<MorrisMove, 512> = ArrayVec::new();
    let mut overflow = false;
    game.for_each_move(pos, |mv| overflow |= all.try_push(*mv).is_err());
    if overflow || all.is_empty() {
        // The rules end a game without turns (`terminal_value` is asked first), so an empty
        // list means rules this search does not know.
        return Err(ProbeError::OutOfScope(format!(
            "a placement position with {} turns",
            if overflow { "more than 512" } else { "no" }
        )));
    }
    let mut ordered = ArrayVec::new();
    for group in 0..4 {
        ordered.extend(all.iter().copied().filter(|mv| rank(mv) == group));
    }
    Ok(ordered)
}

fn score(wdl: Wdl) -> i8 {
    match wdl {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

fn wdl_of(v: i8) -> Wdl {
    match v.signum() {
        1 => Wdl::Win,
        0 => Wdl::Draw,
        _ => Wdl::Loss,
    }
}
