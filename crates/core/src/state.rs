//! `GameState`: a game in progress, with the history that repetition and move rules need.

use thiserror::Error;

use crate::game::{EndReason, Game, Outcome, Player};
use crate::Color;

/// Why a move could not be played in a [`GameState`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
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

#[derive(Clone, Debug)]
struct Ply<G: Game> {
    position: G::Position,
    hash: u64,
    no_progress: u32,
    outcome: Option<Outcome>,
    /// `None` for a forfeited turn.
    mv: Option<G::Move>,
}

/// A game in progress: the current position and everything needed to end it by the rules.
///
/// It applies the history-dependent rules of [`Game::draw_rules`]: repetition (the same
/// position with the same side to move, compared exactly, within the plies since the last
/// progress move), the no-progress counter and the ply limit. [`GameState::undo`] restores the
/// previous ply exactly, counters and outcome included. The hash is updated incrementally with
/// [`Game::hash_after`].
#[derive(Clone, Debug)]
pub struct GameState<G: Game> {
    game: G,
    position: G::Position,
    hash: u64,
    no_progress: u32,
    outcome: Option<Outcome>,
    past: Vec<Ply<G>>,
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
        let hash = game.hash(&position);
        let mut state = GameState {
            game,
            position,
            hash,
            no_progress: no_progress_plies,
            outcome: None,
            past: Vec::new(),
        };
        state.outcome = state.evaluate_outcome();
        state
    }

    /// The rules this game is played by.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &G::Position {
        &self.position
    }

    /// The Zobrist hash of the current position, maintained incrementally.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies played so far (forfeited turns included).
    pub fn ply(&self) -> u32 {
        self.past.len() as u32
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

    /// The legal moves; none once the game is over.
    pub fn legal_moves(&self) -> G::MoveList {
        let mut moves = G::MoveList::default();
        if self.outcome.is_none() {
            self.game.generate_moves(&self.position, &mut moves);
        }
        moves
    }

    /// The moves played so far, in order; `None` marks a forfeited turn.
    pub fn moves(&self) -> impl Iterator<Item = Option<G::Move>> + '_ {
        self.past.iter().map(|p| p.mv)
    }

    /// Plays `mv` if it is legal; otherwise returns an error and changes nothing.
    pub fn play(&mut self, mv: &G::Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        let mut legal = false;
        self.game
            .for_each_move(&self.position, |m| legal |= m == mv);
        if !legal {
            return Err(PlayError::Illegal { mv: mv.to_string() });
        }
        let progress = self.game.is_progress(&self.position, mv);
        let next = self.game.play(&self.position, mv);
        let next_hash = self.game.hash_after(&self.position, self.hash, mv);
        self.advance(next, next_hash, progress, Some(*mv));
        Ok(())
    }

    /// Passes the turn without moving: how a match runner applies a forfeited turn (a per-move
    /// time limit). It counts as a ply without progress.
    pub fn forfeit_turn(&mut self) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        let next = self.game.pass_turn(&self.position);
        let next_hash = self.game.hash(&next);
        self.advance(next, next_hash, false, None);
        Ok(())
    }

    /// Takes back the last ply, restoring the state exactly. Returns `None` at the start.
    pub fn undo(&mut self) -> Option<Option<G::Move>> {
        let last = self.past.pop()?;
        self.position = last.position;
        self.hash = last.hash;
        self.no_progress = last.no_progress;
        self.outcome = last.outcome;
        Some(last.mv)
    }

    fn advance(&mut self, next: G::Position, next_hash: u64, progress: bool, mv: Option<G::Move>) {
        self.past.push(Ply {
            position: self.position,
            hash: self.hash,
            no_progress: self.no_progress,
            outcome: self.outcome,
            mv,
        });
        self.position = next;
        self.hash = next_hash;
        self.no_progress = if progress { 0 } else { self.no_progress + 1 };
        self.outcome = self.evaluate_outcome();
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetitions(&self) -> u32 {
        // Only positions since the last progress move can equal the current one.
        let window = (self.no_progress as usize).min(self.past.len());
        let earlier = &self.past[self.past.len() - window..];
        1 + earlier
            .iter()
            .filter(|p| p.hash == self.hash && p.position == self.position)
            .count() as u32
    }

    fn evaluate_outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.game.outcome(&self.position) {
            return Some(outcome);
        }
        let rules = self.game.draw_rules();
        if let Some(n) = rules.repetitions {
            if self.repetitions() >= u32::from(n) {
                return Some(Outcome::draw(EndReason::Repetition));
            }
        }
        if let Some(limit) = rules.no_progress_plies {
            if self.no_progress >= limit {
                return Some(Outcome::draw(EndReason::MoveRule));
            }
        }
        if let Some(limit) = rules.ply_limit {
            if self.ply() >= limit {
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
