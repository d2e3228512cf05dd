//! `GameState`: a game in progress, with the history that repetition and move rules need.

use thiserror::Error;

use crate::game::{EndReason, Game, Outcome, Player};
use crate::Color;

/// Why a move could not be played in a [`GameState`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is already over.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error("illegal move {mv} in this position")]
    Illegal {
        /// The refused move, in the game's notation.
        mv: String,
    },
}

/// What undo restores of an earlier ply.
#[derive(Clone, Debug)]
struct Ply<G: Game> {
    position: G::Position,
    no_progress: u32,
    outcome: Option<Outcome>,
    /// `None` for a forfeited turn.
    mv: Option<G::Move>,
}

/// What a [`GameState`] keeps of its past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// Every ply, so that [`GameState::undo`] and [`GameState::moves`] work: what players,
    /// analysis and the Python `State` use.
    Full,
    /// Only what the ending rules need (the identities of the positions since the last
    /// progress move); no undo and no move list. Batched environments play on and never take
    /// back, and a whole record per ply is a large share of their step (BENCHMARKS.md).
    Window,
}

/// The word and bit of `key` (a position's [`Game::identity`]) in a [`GameState`]'s filter of
/// 256 bits.
#[inline]
fn filter_bit(key: u128) -> (usize, u64) {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let index = (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
    (index / 64, 1 << (index % 64))
}

/// A game in progress: the current position and everything needed to end it by the rules.
///
/// It applies the history-dependent rules of [`Game::draw_rules`]: repetition (the same
/// position with the same side to move, within the plies since the last progress move), the
/// no-progress counter and the ply limit. Positions are compared by their exact
/// [`Game::identity`]; a filter of the identities since the last progress move lets most
/// positions skip the comparisons. [`GameState::undo`] restores the previous ply exactly,
/// counters and outcome included ([`History::Full`], the default).
///
/// [`GameState::play`] checks that the move is legal; [`GameState::play_legal`] plays a move
/// the caller already found legal (an action table) and takes from it whether the new position
/// has a legal move, so that a step generates the moves of each position once.
#[derive(Clone, Debug)]
pub struct GameState<G: Game> {
    game: G,
    /// Where the game started and the plies without progress it had then.
    origin: (G::Position, u32),
    position: G::Position,
    /// The identity of `position`, worked out once per position: the repetition test asks for
    /// it, and so does the next move's history.
    identity: u128,
    no_progress: u32,
    ply: u32,
    outcome: Option<Outcome>,
    /// The identities of the earlier plies' positions: all of them with [`History::Full`],
    /// else those from the last progress move's on (all that repetition needs).
    identities: Vec<u128>,
    /// A filter of the identities of the positions since the last progress move (a superset:
    /// each sets one bit of 256).
    seen: [u64; 4],
    /// Each earlier ply, with [`History::Full`].
    past: Vec<Ply<G>>,
    history: History,
}

impl<G: Game> GameState<G> {
    /// A new game from the starting position.
    pub fn new(game: G) -> Self {
        let start = game.start_position();
        Self::from_position(game, start)
    }

    /// A new game from `position`, with an empty history.
    pub fn from_position(game: G, position: G::Position) -> Self {
        Self::from_position_after(game, position, 0)
    }

    /// A new game from `position`, reached after `no_progress_plies` plies without progress
    /// (as a position string records them), so the move rule counts them. Earlier positions
    /// are unknown, so repetitions count from here.
    pub fn from_position_after(game: G, position: G::Position, no_progress_plies: u32) -> Self {
        let mut state = GameState {
            game,
            origin: (position, no_progress_plies),
            position,
            identity: 0,
            no_progress: no_progress_plies,
            ply: 0,
            outcome: None,
            identities: Vec::new(),
            seen: [0; 4],
            past: Vec::new(),
            history: History::Full,
        };
        state.settle(|_| false);
        state
    }

    /// The same game keeping `history` of its past from here on ([`History::Window`] drops
    /// the undo records kept so far).
    #[must_use]
    pub fn keeping(mut self, history: History) -> Self {
        self.history = history;
        if history == History::Window {
            self.past = Vec::new();
            let window = (self.no_progress as usize).min(self.identities.len());
            self.identities.drain(..self.identities.len() - window);
        }
        self
    }

    /// Starts a new game from `position`, keeping the allocations; `has_moves` says whether
    /// `position` has a legal move (as [`GameState::play_legal`]'s does).
    pub fn restart_at(
        &mut self,
        position: G::Position,
        has_moves: impl FnOnce(&G::Position) -> bool,
    ) {
        self.origin = (position, 0);
        self.position = position;
        self.no_progress = 0;
        self.ply = 0;
        self.identities.clear();
        self.past.clear();
        self.seen = [0; 4];
        self.settle(has_moves);
    }

    /// The rules this game is played by.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Where the game started and the plies without progress it had then.
    pub fn origin(&self) -> (&G::Position, u32) {
        (&self.origin.0, self.origin.1)
    }

    /// The current position.
    pub fn position(&self) -> &G::Position {
        &self.position
    }

    /// The Zobrist hash of the current position.
    pub fn hash(&self) -> u64 {
        self.game.hash(&self.position)
    }

    /// The [`Game::identity`] of the current position.
    pub fn identity(&self) -> u128 {
        self.identity
    }

    /// Plies played so far (forfeited turns included).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Consecutive plies without progress (see [`Game::is_progress`]).
    pub fn no_progress_plies(&self) -> u32 {
        self.no_progress
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.game.side_to_move(&self.position)
    }

    /// The player to move, in turn order.
    pub fn player_to_move(&self) -> Player {
        self.game.player_to_move(&self.position)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended (decided, drawn or truncated).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// What the state keeps of its past.
    pub fn history(&self) -> History {
        self.history
    }

    /// The legal moves; none once the game is over.
    pub fn legal_moves(&self) -> G::MoveList {
        let mut moves = G::MoveList::default();
        if self.outcome.is_none() {
            self.game.generate_moves(&self.position, &mut moves);
        }
        moves
    }

    /// Whether `mv` is legal now (the game is not over and `mv` is among the legal moves).
    pub fn is_legal(&self, mv: &G::Move) -> bool {
        let mut legal = false;
        if self.outcome.is_none() {
            self.game
                .for_each_move(&self.position, |m| legal |= m == mv);
        }
        legal
    }

    /// The moves played so far, in order; `None` marks a forfeited turn. Empty with
    /// [`History::Window`].
    pub fn moves(&self) -> impl Iterator<Item = Option<G::Move>> + '_ {
        self.past.iter().map(|p| p.mv)
    }

    /// Plays `mv` if it is legal; otherwise returns an error and changes nothing.
    pub fn play(&mut self, mv: &G::Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        if !self.is_legal(mv) {
            return Err(PlayError::Illegal { mv: mv.to_string() });
        }
        self.play_legal(mv, |_| false);
        Ok(())
    }

    /// Plays `mv`, which the caller has found legal, unchecked. `has_moves` is called with the
    /// new position and says whether it has a legal move (a caller that fills an action table
    /// there knows at once); `false` has the game's own test decide, so `|_| false` is always
    /// right.
    ///
    /// # Panics
    ///
    /// In debug builds, if `mv` is not legal now ([`GameState::is_legal`]); release builds play
    /// it all the same.
    #[inline]
    pub fn play_legal(&mut self, mv: &G::Move, has_moves: impl FnOnce(&G::Position) -> bool) {
        debug_assert!(self.is_legal(mv), "play_legal with an illegal move {mv}");
        let progress = self.game.is_progress(&self.position, mv);
        let mover = self.game.player_to_move(&self.position);
        self.remember(progress, Some(*mv));
        self.game.play_in_place(&mut self.position, mv);
        debug_assert!(
            progress || self.game.player_to_move(&self.position) != mover,
            "a side moved twice running without progress: repetition assumes the sides alternate"
        );
        // Saturating: a position string may start the count anywhere, and with no move rule
        // nothing ends the game before it would overflow.
        self.no_progress = if progress {
            0
        } else {
            self.no_progress.saturating_add(1)
        };
        self.ply += 1;
        self.settle(has_moves);
    }

    /// Passes the turn without moving: how a match runner applies a forfeited turn (a per-move
    /// time limit). It counts as a ply without progress.
    pub fn forfeit_turn(&mut self) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        self.remember(false, None);
        self.position = self.game.pass_turn(&self.position);
        self.no_progress = self.no_progress.saturating_add(1);
        self.ply += 1;
        self.settle(|_| false);
        Ok(())
    }

    /// Takes back the last ply, restoring the state exactly. Returns `None` at the start, and
    /// always with [`History::Window`].
    pub fn undo(&mut self) -> Option<Option<G::Move>> {
        let last = self.past.pop()?;
        self.identities.pop();
        self.position = last.position;
        self.identity = self.game.identity(&self.position);
        self.no_progress = last.no_progress;
        self.outcome = last.outcome;
        self.ply -= 1;
        // Undoing a progress move brings its earlier positions back into the window.
        let mut seen = [0; 4];
        for &key in self.window() {
            let (word, bit) = filter_bit(key);
            seen[word] |= bit;
        }
        self.seen = seen;
        Some(last.mv)
    }

    /// Asks the processor to bring the end of the history into the cache: where the next
    /// ply's identity goes and the last one recorded, which the next ply's repetition test
    /// reads first (two plies back from the position it leads to). A hint that changes nothing; a batch of games asks it of the next game while it
    /// plays one, because each history is a heap block of its own that no hardware
    /// prefetcher foresees.
    #[inline]
    pub fn prefetch_history(&self) {
        use crate::prefetch::{prefetch_address, Reuse};
        let end = self.identities.as_ptr_range().end;
        prefetch_address(end.cast(), Reuse::Again);
        prefetch_address(end.wrapping_sub(1).cast(), Reuse::Again);
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> u32 {
        let recent = self.window();
        1 + recent
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == self.identity)
            .count() as u32
    }

    /// The identities of the earlier positions that can equal the current one: those since
    /// the last progress move.
    fn window(&self) -> &[u128] {
        let window = (self.no_progress as usize).min(self.identities.len());
        &self.identities[self.identities.len() - window..]
    }

    /// Records the current position in the history before a ply is played from it.
    #[inline]
    fn remember(&mut self, progress: bool, mv: Option<G::Move>) {
        let key = self.identity;
        if progress {
            // No earlier position can repeat.
            self.seen = [0; 4];
            if self.history == History::Window {
                self.identities.clear();
            }
        } else {
            let (word, bit) = filter_bit(key);
            self.seen[word] |= bit;
        }
        self.identities.push(key);
        if self.history == History::Full {
            self.past.push(Ply {
                position: self.position,
                no_progress: self.no_progress,
                outcome: self.outcome,
                mv,
            });
        }
    }

    /// The identity and outcome of a new current position. The position's own outcome comes
    /// first; a position with a legal move has none (a position over by itself has no moves),
    /// so it is asked for only when `has_moves` does not vouch for a move.
    #[inline]
    fn settle(&mut self, has_moves: impl FnOnce(&G::Position) -> bool) {
        self.identity = self.game.identity(&self.position);
        self.outcome = if has_moves(&self.position) {
            self.history_outcome()
        } else {
            self.game
                .outcome(&self.position)
                .or_else(|| self.history_outcome())
        };
    }

    /// The outcome under the history rules: repetition, the move rule, the ply limit.
    #[inline]
    fn history_outcome(&self) -> Option<Outcome> {
        let rules = self.game.draw_rules();
        if let Some(n) = rules.repetitions {
            let key = self.identity;
            let (word, bit) = filter_bit(key);
            // Within the plies since the last progress move the sides alternate (a side moves
            // twice running only in Shah's placement phase, by placements, which are progress;
            // `play_legal` checks it), so only the positions 2, 4, ... plies back can be this
            // one. A plain loop: envs run this after every move, and iterator adapters (rev,
            // skip, step_by, filter) cost more than the comparisons on these short windows.
            let recent = self.window();
            let mut seen = 1;
            let mut i = if self.seen[word] & bit != 0 {
                recent.len()
            } else {
                0
            };
            while i >= 2 {
                i -= 2;
                seen += usize::from(recent[i] == key);
            }
            if seen >= usize::from(n) {
                return Some(Outcome::draw(EndReason::Repetition));
            }
        }
        if let Some(limit) = rules.no_progress_plies {
            if self.no_progress >= limit {
                return Some(Outcome::draw(EndReason::MoveRule));
            }
        }
        if let Some(limit) = rules.ply_limit {
            if self.ply >= limit {
                return Some(
                    self.game
                        .adjudicate(&self.position)
                        .unwrap_or(Outcome::draw(EndReason::PlyLimit)),
                );
            }
        }
        None
    }
}

/// Helpers for the games' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::GameState;
    use crate::game::{Game, Outcome};

    /// Everything that [`GameState::undo`] must restore.
    #[derive(Debug, PartialEq)]
    pub(crate) struct Snapshot<G: Game> {
        pub(crate) position: G::Position,
        pub(crate) hash: u64,
        pub(crate) no_progress: u32,
        pub(crate) outcome: Option<Outcome>,
        pub(crate) ply: u32,
        pub(crate) repetitions: u32,
        pub(crate) moves: Vec<Option<G::Move>>,
        pub(crate) legal: Vec<G::Move>,
    }

    /// The observable state of `state`.
    pub(crate) fn snapshot<G: Game + Clone>(state: &GameState<G>) -> Snapshot<G> {
        Snapshot {
            position: *state.position(),
            hash: state.hash(),
            no_progress: state.no_progress_plies(),
            outcome: state.outcome(),
            ply: state.ply(),
            repetitions: state.repetitions(),
            moves: state.moves().collect(),
            legal: state.legal_moves().to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::checkers::Checkers;
    use crate::morris::{Morris, MorrisRules};
    use crate::SplitMix64;

    /// A uniformly random legal move of `state`.
    fn random_move<G: Game>(state: &GameState<G>, rng: &mut SplitMix64) -> G::Move {
        let moves = state.legal_moves();
        moves[rng.below(moves.len()).unwrap()]
    }

    /// Every position of a few random games of `game`: equal identities, equal positions.
    fn identities_are_exact<G: Game + Copy>(game: G, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        let mut seen: HashMap<u128, G::Position> = HashMap::new();
        for _ in 0..20 {
            let mut state = GameState::new(game);
            while !state.is_over() && state.ply() < 300 {
                let pos = *state.position();
                assert_eq!(state.identity(), game.identity(&pos));
                let earlier = *seen.entry(game.identity(&pos)).or_insert(pos);
                assert_eq!(earlier, pos, "two positions with one identity");
                let mv = random_move(&state, &mut rng);
                state.play(&mv).unwrap();
            }
        }
        assert!(seen.len() > 100);
    }

    #[test]
    fn identities_tell_every_position_apart() {
        for preset in MorrisRules::PRESETS {
            identities_are_exact(Morris::new(preset.rules).unwrap(), 1);
        }
        identities_are_exact(Checkers::default(), 2);
    }

    /// The repetition count the slow way: every earlier position since the last progress
    /// move, compared whole.
    fn repetitions_by_scan<G: Game + Copy>(game: G, start: G::Position, moves: &[G::Move]) -> u32 {
        let mut positions = vec![start];
        let mut since_progress = 0;
        for mv in moves {
            let pos = *positions.last().unwrap();
            since_progress = if game.is_progress(&pos, mv) {
                0
            } else {
                since_progress + 1
            };
            positions.push(game.play(&pos, mv));
        }
        let now = positions.last().unwrap();
        let window = &positions[positions.len() - 1 - since_progress..positions.len() - 1];
        1 + window.iter().filter(|&p| p == now).count() as u32
    }

    /// Random games of `game` played three ways at once: checked, known legal with the
    /// history window alone, and known legal with undo; all three agree on every counter and
    /// outcome, the repetitions agree with a plain scan, and undo walks back through the
    /// same states.
    fn the_histories_agree<G: Game + Copy>(game: G, seed: u64) {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..10 {
            let mut full = GameState::new(game);
            let mut window = GameState::new(game).keeping(History::Window);
            let mut known = GameState::new(game);
            let mut trail = Vec::new();
            let mut moves = Vec::new();
            while !full.is_over() {
                let mv = random_move(&full, &mut rng);
                full.play(&mv).unwrap();
                window.play_legal(&mv, |_| false);
                known.play_legal(&mv, |p| game.count_moves(p) > 0);
                moves.push(mv);
                let now = (
                    full.ply(),
                    full.no_progress_plies(),
                    full.outcome(),
                    full.identity(),
                );
                for other in [&window, &known] {
                    let theirs = (
                        other.ply(),
                        other.no_progress_plies(),
                        other.outcome(),
                        other.identity(),
                    );
                    assert_eq!(now, theirs);
                    assert_eq!(other.repetitions(), full.repetitions());
                }
                assert_eq!(
                    full.repetitions(),
                    repetitions_by_scan(game, game.start_position(), &moves)
                );
                trail.push(now);
            }
            assert_eq!(window.moves().count(), 0);
            assert_eq!(window.undo(), None);
            trail.pop();
            while let Some(now) = trail.pop() {
                assert!(full.undo().is_some());
                assert_eq!(
                    now,
                    (
                        full.ply(),
                        full.no_progress_plies(),
                        full.outcome(),
                        full.identity()
                    )
                );
            }
        }
    }

    #[test]
    fn checked_window_and_known_legal_histories_agree() {
        let short = |mut rules: MorrisRules| {
            rules.ply_limit = Some(200);
            Morris::new(rules).unwrap()
        };
        for preset in MorrisRules::PRESETS {
            the_histories_agree(short(preset.rules), 3);
        }
        let rules = crate::checkers::CheckersRules {
            ply_limit: Some(200),
            ..Default::default()
        };
        the_histories_agree(Checkers::new(rules), 4);
    }

    #[test]
    fn a_count_without_progress_read_from_a_position_string_saturates() {
        let mut rules = MorrisRules::preset("nine_mens_morris").unwrap().rules;
        rules.move_rule = None;
        let game = Morris::new(rules).unwrap();
        // Three men a side, flying: every move is quiet unless it closes a mill.
        let (position, plies) = game
            .parse_fen("WW./.B./B../....../.../..W/..B w 0 0 4294967295")
            .unwrap();
        let mut state = GameState::from_position_after(game, position, plies);
        let quiet = state
            .legal_moves()
            .iter()
            .copied()
            .find(|mv| !game.is_progress(state.position(), mv))
            .expect("a quiet move");
        state.play(&quiet).unwrap();
        assert_eq!(state.no_progress_plies(), u32::MAX);
        state.forfeit_turn().unwrap();
        assert_eq!(state.no_progress_plies(), u32::MAX);
        assert!(!state.is_over());
    }

    #[test]
    fn forfeited_turns_count_as_plies_without_progress_and_undo() {
        let mut state = GameState::new(Checkers::default());
        let start = state.identity();
        state.forfeit_turn().unwrap();
        assert_eq!((state.ply(), state.no_progress_plies()), (1, 1));
        assert_ne!(state.identity(), start, "the other side is to move");
        state.forfeit_turn().unwrap();
        assert_eq!(state.identity(), start);
        assert_eq!(state.repetitions(), 2);
        assert_eq!(state.moves().collect::<Vec<_>>(), [None, None]);
        assert_eq!(state.undo(), Some(None));
        assert_eq!(state.repetitions(), 1);
    }
}
