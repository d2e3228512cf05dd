//! The placement phase searched on top of the moving-phase databases: the value of a position
//! with men in hand (the empty board above all) under perfect play.
//!
//! Without `mixed_placement` every turn of a side with men in hand places one, so the placement
//! phase is a tree of bounded depth that never repeats. Its leaves are the positions where both
//! hands are empty, valued by a probe of the moving-phase tables; positions where the game ends
//! on the way are valued by the rules. The search is negamax with alpha-beta pruning on the
//! three values loss, draw and win, captures tried first, and a transposition table keyed by the
//! position up to the board's symmetries (the men of the side to move and of the other side in
//! the canonical form of the database index, and both hands). It gives win, draw or loss, not
//! distances.
//!
//! Rules where placement positions can repeat (`mixed_placement`) or remember something
//! (`first_mill_opens`) are refused: their placement phase is solved by the retrograde solver
//! or not at all.

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use perfectplay_core::morris::{MorrisMove, MorrisPosition};
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
        self.search(pos, -1, 1).map(wdl_of)
    }

    /// Each turn of `pos` with its value for the side that plays it, best first (in generation
    /// order among equals).
    pub fn move_values(&self, pos: &MorrisPosition) -> Result<Vec<(MorrisMove, Wdl)>, ProbeError> {
        let game = self.tb.domain().game();
        let mut values = Vec::new();
        let mut moves = Vec::new();
        game.for_each_move(pos, |mv| moves.push(*mv));
        for mv in moves {
            let v = -self.search(&game.play(pos, &mv), -1, 1)?;
            values.push((mv, wdl_of(v)));
        }
        values.sort_by_key(|&(_, w)| std::cmp::Reverse(score(w)));
        Ok(values)
    }

    /// Negamax with alpha-beta on -1, 0, 1: the exact value when it lies strictly between
    /// `alpha` and `beta`, else a bound on the right side of the window.
    fn search(&self, pos: &MorrisPosition, mut alpha: i8, beta: i8) -> Result<i8, ProbeError> {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let game = self.tb.domain().game();
        if let Some(v) = terminal_value(game, pos) {
            return v.map(|v| score(v.wdl));
        }
        let us = pos.side_to_move();
        if pos.in_hand(us) == 0 && pos.in_hand(!us) == 0 {
            self.probes.fetch_add(1, Ordering::Relaxed);
            return self.tb.probe(pos).map(|v: Value| score(v.wdl));
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
        let mut moves: ArrayVec<MorrisMove, 512> = ArrayVec::new();
        let mut overflow = false;
        game.for_each_move(pos, |mv| overflow |= moves.try_push(*mv).is_err());
        if overflow || moves.is_empty() {
            // The rules end a game without turns (`terminal_value` above), so an empty list
            // means rules this search does not know.
            return Err(ProbeError::OutOfScope(format!(
                "a placement position with {} turns",
                if overflow { "more than 512" } else { "no" }
            )));
        }
        // Captures first: they decide most placement fights.
        moves.sort_by_key(|mv| !mv.is_capture());
        let alpha_in = alpha;
        let mut best = -2;
        for mv in &moves {
            let v = -self.search(&game.play(pos, mv), -beta, -alpha)?;
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
