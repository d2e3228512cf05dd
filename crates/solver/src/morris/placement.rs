//! The placement phase searched on top of the moving-phase databases: the value of a position
//! with men in hand (the empty board above all) under perfect play.
//!
//! Without `mixed_placement` every turn of a side with men in hand places one, so the placement
//! phase is a tree of bounded depth that never repeats. Its leaves are the positions where both
//! hands are empty, valued by a probe of the moving-phase tables; positions where the game ends
//! on the way are valued by the rules. The search is negamax with alpha-beta pruning on the
//! three values loss, draw and win, asked as two yes-or-no questions (does the side to move
//! win; if not, does it draw), turns that close a mill tried first, then those blocking the
//! opponent's mill, then those making a two-in-a-line, and a transposition table keyed by the
//! position up to the board's symmetries (the men of the side to move and of the other side in
//! the canonical form of the database index, and both hands), shared by the workers of a
//! parallel search and kept in a file between runs (`transposition`), read for every child
//! before any is searched (enhanced transposition cutoffs). It gives win, draw or loss, not
//! distances.
//!
//! Rules where placement positions can repeat (`mixed_placement`) or remember something
//! (`first_mill_opens`) are refused: their placement phase is solved by the retrograde solver
//! or not at all.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arrayvec::ArrayVec;
use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition};
use perfectplay_core::Game;

use super::transposition::{Bound, SearchHistory, SearchKey, TableOwner, TranspositionTable};
use super::MorrisDomain;
use crate::domain::Domain;
use crate::error::{DbError, ProbeError, SolveError};
use crate::tablebase::{terminal_value, Tablebase};
use crate::value::{Value, Wdl};

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
    table: TranspositionTable,
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

/// The most turns a placement position may have: placements, each with the men it may take.
const MAX_TURNS: usize = 512;

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
        Ok(PlacementSearch {
            tb,
            table: TranspositionTable::new(table_bits).ok_or_else(|| {
                SolveError::SearchTableMemory {
                    bytes: 8 << table_bits.clamp(4, 40),
                    // Named where it is why; an allocation refused otherwise says no more.
                    available: crate::limits::available_memory()
                        .filter(|&free| free < 8 << table_bits.clamp(4, 40)),
                }
            })?,
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

    /// The value of `pos` for the side to move under perfect play. A position these rules
    /// refuse ([`Morris::validate`]) is [`ProbeError::NotAPosition`], as it is for every search
    /// here.
    pub fn value(&self, pos: &MorrisPosition) -> Result<Wdl, ProbeError> {
        self.value_with_threads(pos, 1)
    }

    /// The value of `pos`, searched by `threads` workers sharing the transposition table.
    ///
    /// Two null-window searches: does the side to move win, and if not, does it draw. Each
    /// asks less than the exact value (to refute a win the other side needs one turn that
    /// holds the draw, not its best one), and the second reads the bounds the first stored.
    pub fn value_with_threads(
        &self,
        pos: &MorrisPosition,
        threads: usize,
    ) -> Result<Wdl, ProbeError> {
        self.check_position(pos)?;
        // A fail-low answer of -1 is itself a proof of the loss.
        match self.window_with_threads(pos, 0, 1, threads)? {
            1 => Ok(Wdl::Win),
            -1 => Ok(Wdl::Loss),
            _ => Ok(wdl_of(
                self.window_with_threads(pos, -1, 0, threads)?.min(0),
            )),
        }
    }

    /// The search of `pos` in the window (`alpha`, `beta`) by `threads` workers.
    ///
    /// Every entry of the table is a proven bound on the value of a position (the placement
    /// phase below a position has a fixed depth, so entries never depend on how deep a search
    /// went), so workers may use each other's entries freely and any worker's answer is the
    /// answer. Near the root each worker tries a different move first, so they explore
    /// different subtrees and fill the table for each other; the first to finish stops the
    /// rest.
    fn window_with_threads(
        &self,
        pos: &MorrisPosition,
        alpha: i8,
        beta: i8,
        threads: usize,
    ) -> Result<i8, ProbeError> {
        // Set when one worker has the answer: the others give up. One flag per call, so that
        // calls from several threads at once do not stop each other.
        let stop = AtomicBool::new(false);
        let results: Vec<Result<i8, Halt>> = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads.max(1))
                .map(|worker| {
                    let stop = &stop;
                    scope.spawn(move || {
                        let result = self.search(pos, None, alpha, beta, worker, stop);
                        stop.store(true, Ordering::Relaxed);
                        result
                    })
                })
                .collect();
            let mut results = vec![self.search(pos, None, alpha, beta, 0, &stop)];
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
        // Any worker's answer is the answer; otherwise the first error found. Every worker
        // returns once `stop` is set, and the last to return was not stopped, so there is
        // always one of the two.
        let mut error = None;
        for result in results {
            match result {
                Ok(v) => return Ok(v),
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
        self.move_values_reporting(pos, threads, |_, _| {})
    }

    /// [`PlacementSearch::move_values_with_threads`], telling `found` each turn's value as soon
    /// as it is known (in generation order), so that a search of hours shows its progress.
    pub fn move_values_reporting(
        &self,
        pos: &MorrisPosition,
        threads: usize,
        mut found: impl FnMut(&MorrisMove, Wdl),
    ) -> Result<Vec<(MorrisMove, Wdl)>, ProbeError> {
        self.check_position(pos)?;
        let game = self.tb.domain().game();
        let mut values = Vec::new();
        let mut moves = Vec::new();
        game.for_each_move(pos, |mv| moves.push(*mv));
        for mv in moves {
            let v = self
                .value_with_threads(&game.play(pos, &mv), threads)?
                .flip();
            found(&mv, v);
            values.push((mv, v));
        }
        values.sort_by_key(|&(_, w)| std::cmp::Reverse(score(w)));
        Ok(values)
    }

    /// That `pos` is a position of the rules ([`Morris::validate`]): one made from its parts
    /// with more men in hand than the rules have, or men off the board, would share the
    /// transposition table's entries of other positions.
    fn check_position(&self, pos: &MorrisPosition) -> Result<(), ProbeError> {
        self.tb
            .domain()
            .game()
            .validate(pos)
            .map_err(|e| ProbeError::NotAPosition(e.to_string()))
    }

    /// Negamax with alpha-beta on -1, 0, 1: the exact value when it lies strictly between
    /// `alpha` and `beta`, else a bound on the right side of the window. `key` is `pos`'s key
    /// where the caller has it already.
    fn search(
        &self,
        pos: &MorrisPosition,
        key: Option<SearchKey>,
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
        debug_assert!(
            key.is_none_or(|k| k == self.key(pos)),
            "a key handed down for another position"
        );
        let key = key.unwrap_or_else(|| self.key(pos));
        if let Some((v, bound)) = self.table.lookup(key) {
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
        let mut moves = ArrayVec::new();
        ordered_moves(game, pos, &mut moves)?;
        if worker > 0 && to_place > DIVERSE_ABOVE {
            let first = worker % moves.len();
            moves.swap(0, first);
        }
        let alpha_in = alpha;
        let mut best = -2;
        // The children's keys, where the children have entries (they are not leaves).
        let mut keys: ArrayVec<SearchKey, MAX_TURNS> = ArrayVec::new();
        if to_place >= 2 {
            // Enhanced transposition cutoffs: a child whose entry already proves a cutoff ends
            // the search here, and one whose entry proves it cannot raise alpha is not searched
            // (its bound still counts in the fail-soft value). Leaves have no entries, so the
            // lookups start where the children are not leaves. On Morabaraba positions 16 plies
            // from the leaves this visits 3 to 6 times fewer positions (BENCHMARKS.md).
            //
            // Every child's bucket is asked for before the first is read: each is a cache miss
            // in a table of gigabytes, and asked for together they overlap instead of
            // following one another.
            for mv in &moves {
                let child = self.key(&game.play(pos, mv));
                self.table.prefetch(child);
                keys.push(child);
            }
            let mut kept = 0;
            for i in 0..moves.len() {
                if let Some((v, bound)) = self.table.lookup(keys[i]) {
                    let (at_least, at_most) = match bound {
                        Bound::Exact => (-v, -v),
                        Bound::Lower => (-1, -v),
                        Bound::Upper => (-v, 1),
                    };
                    if at_least >= beta || at_least == 1 {
                        self.hits.fetch_add(1, Ordering::Relaxed);
                        self.table.store(key, at_least, Bound::Lower);
                        return Ok(at_least);
                    }
                    if at_most <= alpha {
                        best = best.max(at_most);
                        continue;
                    }
                }
                moves[kept] = moves[i];
                keys[kept] = keys[i];
                kept += 1;
            }
            moves.truncate(kept);
            keys.truncate(kept);
        }
        for (i, mv) in moves.iter().enumerate() {
            let v = -self.search(
                &game.play(pos, mv),
                keys.get(i).copied(),
                -beta,
                -alpha,
                worker,
                stop,
            )?;
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
        self.table.store(key, best, bound);
        Ok(best)
    }

    /// The position up to symmetry: canonical men of the side to move and of the other side,
    /// then both hands.
    fn key(&self, pos: &MorrisPosition) -> SearchKey {
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let index = self
            .tb
            .domain()
            .index(ours.count() as u8, theirs.count() as u8);
        let (ours, theirs) = index.canonical(ours, theirs);
        SearchKey::new(ours.0, theirs.0, pos.in_hand(us), pos.in_hand(!us))
    }

    /// Who may read this search's saved transposition table.
    fn owner(&self) -> TableOwner {
        let domain = self.tb.domain();
        TableOwner {
            game_id: domain.game_id(),
            rules: domain.rules_text(),
            index_scheme: domain.index_scheme().to_owned(),
        }
    }

    /// Writes the transposition table to `path`, with `history` (what the runs that filled it
    /// did, this one included), so that a later search can go on from it
    /// ([`PlacementSearch::load_table`]). Safe while workers search: every entry written is a
    /// proven bound.
    pub fn save_table(&self, path: &Path, history: &SearchHistory) -> Result<(), DbError> {
        self.table.save(path, &self.owner(), history)
    }

    /// Replaces the transposition table's entries by those saved at `path` by a search of the
    /// same game and rules, and returns what the runs that filled it did. A file that is
    /// damaged, from another format version or of another game or rule set is refused and
    /// leaves the table empty.
    pub fn load_table(&self, path: &Path) -> Result<SearchHistory, DbError> {
        self.table.load(path, &self.owner())
    }

    /// Entries of the transposition table in use.
    #[must_use]
    pub fn table_entries_used(&self) -> u64 {
        self.table.filled()
    }
}

/// The turns of `pos`, likeliest to be best first: those closing a mill, then those blocking a
/// mill the opponent could close next, then those making a line of two that threatens one, then
/// the rest, each group in generation order. Good first moves are what make alpha-beta cut.
fn ordered_moves(
    game: &Morris,
    pos: &MorrisPosition,
    ordered: &mut ArrayVec<MorrisMove, MAX_TURNS>,
) -> Result<(), ProbeError> {
    debug_assert!(ordered.is_empty(), "turns appended to a list in use");
    let rank = turn_rank(game, pos);
    let mut overflow = false;
    game.for_each_move(pos, |mv| overflow |= ordered.try_push(*mv).is_err());
    if overflow || ordered.is_empty() {
        // The rules end a game without turns (`terminal_value` is asked first), so an empty
        // list means rules this search does not know.
        return Err(ProbeError::OutOfScope(format!(
            "a placement position with {} turns",
            if overflow {
                format!("more than {MAX_TURNS}")
            } else {
                "no".to_owned()
            }
        )));
    }
    // A stable insertion sort on the rank, in place: the lists are a few dozen turns, and the
    // list is filled and ordered where the caller keeps it rather than returned, since moving
    // it would copy all its capacity, in every position searched.
    for i in 1..ordered.len() {
        let mv = ordered[i];
        let r = rank(&mv);
        let mut j = i;
        while j > 0 && rank(&ordered[j - 1]) > r {
            ordered[j] = ordered[j - 1];
            j -= 1;
        }
        ordered[j] = mv;
    }
    Ok(())
}

/// The group of a turn of `pos` in [`ordered_moves`]' order: 0 closes a mill, 1 blocks a mill
/// the opponent could close next, 2 makes a line of two with its third point empty, 3 the rest.
fn turn_rank(game: &Morris, pos: &MorrisPosition) -> impl Fn(&MorrisMove) -> u8 {
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
    move |mv: &MorrisMove| -> u8 {
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
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // A fixed seed and no regression file: the same cases on every run.
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x7475_726e),
            ..ProptestConfig::default()
        })]

        /// The in-place order is the generated list's turns grouped by rank, each group in
        /// generation order: what one filtering pass per group gives.
        #[test]
        fn turns_are_grouped_by_rank_in_generation_order(
            seed in any::<u64>(),
            placed in 0usize..24,
        ) {
            let game = Morris::preset("twelve_mens_morris").unwrap();
            let mut pos = game.start_position();
            let mut state = seed | 1;
            for _ in 0..placed {
                let mut turns = Vec::new();
                game.for_each_move(&pos, |mv| turns.push(*mv));
                if turns.is_empty() || terminal_value(&game, &pos).is_some() {
                    break;
                }
                // xorshift64: a fixed playout per seed.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos = game.play(&pos, &turns[(state % turns.len() as u64) as usize]);
            }
            prop_assume!(terminal_value(&game, &pos).is_none());
            let mut generated = Vec::new();
            game.for_each_move(&pos, |mv| generated.push(*mv));
            let rank = turn_rank(&game, &pos);
            let mut expected = Vec::new();
            for group in 0..4 {
                expected.extend(generated.iter().copied().filter(|mv| rank(mv) == group));
            }
            let mut ordered = ArrayVec::new();
            ordered_moves(&game, &pos, &mut ordered).unwrap();
            prop_assert_eq!(ordered.as_slice(), expected.as_slice());
        }
    }
}
