//! The game abstraction shared by both families: positions, moves, outcomes.
//!
//! A [`Game`] value carries a game's rules; positions and moves are plain `Copy` values. Hot
//! loops (perft, the solver, batched environments) are generic over `G: Game`, so every call is
//! statically dispatched and move generation writes into a caller-provided fixed-capacity list.
//! [`crate::GameState`] adds what depends on history (repetition, the no-progress counter, the
//! ply limit) on top.

use std::fmt;
use std::hash::Hash;

use arrayvec::ArrayVec;

use crate::Color;

/// A fixed-capacity move list that move generators fill.
///
/// Implemented for [`ArrayVec`]; a game picks a capacity that no legal position can exceed.
pub trait MoveBuffer<M>: Default + std::ops::Deref<Target = [M]> {
    /// Appends a move. The capacity is chosen so that this cannot overflow for any position
    /// that passes validation; a list that is full (only a position made unchecked, which the
    /// rules refuse, fills it) keeps the moves it has.
    fn push_move(&mut self, mv: M);
    /// Removes every move.
    fn clear_moves(&mut self);
}

impl<M, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    #[inline]
    fn push_move(&mut self, mv: M) {
        // The same test `push` makes, without its panic.
        let _full = self.try_push(mv);
    }

    #[inline]
    fn clear_moves(&mut self) {
        self.clear();
    }
}

/// The players in turn order: `First` is the side that moves first under the game's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The side that makes the first move (player 0).
    First,
    /// The other side (player 1).
    Second,
}

impl Player {
    /// `0` for the first player, `1` for the second.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// The side to move has no legal move (its pieces are all blocked).
    NoMoves,
    /// The loser has too few pieces left to play on (none, in checkers).
    NoMen,
    /// A mill won the game outright (Three Men's Morris).
    Mill,
    /// Placement filled the board and the rules call that a draw.
    BoardFull,
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// Too many plies without progress (checkers: no capture and no man moved).
    MoveRule,
    /// The ply limit was reached and the rules decide the game by material.
    Adjudication,
    /// The ply limit was reached: the game is cut short, not decided (a truncation).
    PlyLimit,
}

impl EndReason {
    /// A short lower-case description.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no legal moves",
            EndReason::NoMen => "too few men left",
            EndReason::Mill => "mill",
            EndReason::BoardFull => "board full",
            EndReason::Repetition => "threefold repetition",
            EndReason::MoveRule => "move rule",
            EndReason::Adjudication => "adjudication",
            EndReason::PlyLimit => "ply limit",
        }
    }
}

/// How a game ended: who won, if anyone, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw or a truncated game.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    #[must_use]
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw (or truncation) without a winner.
    #[must_use]
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// Whether the game was cut short by the ply limit rather than decided: reinforcement
    /// learning calls this truncation, as opposed to termination.
    #[must_use]
    pub const fn is_truncation(&self) -> bool {
        matches!(self.reason, EndReason::PlyLimit)
    }

    /// The score for `color`: `1` for a win, `-1` for a loss, `0` otherwise.
    #[must_use]
    pub fn score(&self, color: Color) -> i8 {
        match self.winner {
            Some(w) if w == color => 1,
            Some(_) => -1,
            None => 0,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(w) => write!(f, "{w} wins ({})", self.reason.describe()),
            None if self.is_truncation() => write!(f, "unfinished ({})", self.reason.describe()),
            None => write!(f, "draw ({})", self.reason.describe()),
        }
    }
}

/// The history-dependent ending rules of a game; each is off when `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DrawRules {
    /// Occurrences of the same position (same side to move) that draw; 3 for threefold.
    pub repetitions: Option<u8>,
    /// Consecutive plies without progress that draw (80 for the checkers 40-move rule).
    pub no_progress_plies: Option<u32>,
    /// Plies after which the game stops: adjudicated if the game supports it, else truncated.
    pub ply_limit: Option<u32>,
}

/// A deterministic two-player game of perfect information, as a rules value.
///
/// Positions are `Copy` values and [`Game::play`] is copy-make: the caller keeps the old
/// position, which is the undo. Everything here depends on the position alone; what depends on
/// the history of a game lives in [`crate::GameState`].
pub trait Game {
    /// A position: the pieces, the side to move and whatever else the rules need.
    type Position: Copy + Eq + Hash + fmt::Debug;
    /// A move as a value.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display;
    /// The fixed-capacity list [`Game::generate_moves`] fills.
    type MoveList: MoveBuffer<Self::Move>;

    /// The game's identifier, e.g. `checkers`.
    fn id(&self) -> &'static str;

    /// The starting position.
    fn start_position(&self) -> Self::Position;

    /// The colour that moves first under these rules.
    fn first_to_move(&self) -> Color;

    /// The side to move in `pos`.
    fn side_to_move(&self, pos: &Self::Position) -> Color;

    /// The player to move in `pos`, numbered in turn order.
    fn player_to_move(&self, pos: &Self::Position) -> Player {
        if self.side_to_move(pos) == self.first_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Replaces the contents of `moves` with every legal move in `pos`. A position that is over
    /// by itself (see [`Game::outcome`]) has none.
    fn generate_moves(&self, pos: &Self::Position, moves: &mut Self::MoveList);

    /// Calls `visit` with every legal move, in the order of [`Game::generate_moves`]. Games
    /// override it to skip the list (perft uses it).
    fn for_each_move<F: FnMut(&Self::Move)>(&self, pos: &Self::Position, mut visit: F) {
        let mut moves = Self::MoveList::default();
        self.generate_moves(pos, &mut moves);
        moves.iter().for_each(&mut visit);
    }

    /// The number of legal moves, as [`Game::generate_moves`] would produce them. Games
    /// override it with a faster count (bulk counting in perft).
    fn count_moves(&self, pos: &Self::Position) -> u64 {
        let mut moves = Self::MoveList::default();
        self.generate_moves(pos, &mut moves);
        moves.len() as u64
    }

    /// The position after `mv`, which must be legal in `pos`.
    fn play(&self, pos: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// Plays `mv`, which must be legal in `pos`, on `pos` itself: what [`Game::play`] returns,
    /// without a copy where a game plays in place.
    #[inline]
    fn play_in_place(&self, pos: &mut Self::Position, mv: &Self::Move) {
        *pos = self.play(pos, mv);
    }

    /// The position with the turn passed to the other side and nothing moved. Used by match
    /// runners when a player forfeits a turn (a per-move time limit); not a legal move unless
    /// the rules say so.
    fn pass_turn(&self, pos: &Self::Position) -> Self::Position;

    /// The outcome if `pos` is over by itself (no legal move, too few men), else `None`.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;

    /// Whether `mv` makes progress: it cannot be undone (a capture, a man's move in checkers),
    /// so it resets the no-progress counter and no earlier position can repeat.
    fn is_progress(&self, pos: &Self::Position, mv: &Self::Move) -> bool;

    /// The Zobrist hash of `pos`, computed from scratch.
    fn hash(&self, pos: &Self::Position) -> u64;

    /// The position packed into 128 bits, every field whole: equal identities are equal
    /// positions and unequal ones unequal, so that repetition compares identities alone.
    fn identity(&self, pos: &Self::Position) -> u128;

    /// The hash of `play(pos, mv)`, given `hash == self.hash(pos)`, for a search that keeps a
    /// hash along its line. Games override this with an incremental update.
    fn hash_after(&self, pos: &Self::Position, hash: u64, mv: &Self::Move) -> u64 {
        let _ = hash;
        self.hash(&self.play(pos, mv))
    }

    /// The history-dependent ending rules.
    fn draw_rules(&self) -> DrawRules;

    /// How the game is decided when it reaches the ply limit, if the rules adjudicate;
    /// `None` means the game is truncated instead.
    fn adjudicate(&self, pos: &Self::Position) -> Option<Outcome> {
        let _ = pos;
        None
    }
}
