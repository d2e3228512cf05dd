//! English checkers (American checkers, straight draughts): 8x8, short kings, mandatory capture.
//!
//! # Rules
//!
//! These are the rules of the sheets in the project's rule collection, as the checkers world
//! plays them:
//!
//! - The 32 dark squares are numbered 1-32 in standard (PDN) order ([`Square`]). Black, the dark
//!   side, starts on 1-12 and moves first; White starts on 21-32.
//! - A man moves one square diagonally forward (Black towards 32, White towards 1); a king one
//!   square diagonally in any direction (short kings, no flying).
//! - A capture jumps an adjacent enemy piece to the empty square directly beyond. Men capture
//!   forward only, kings in all four directions; any piece may jump a king. After a jump the same
//!   piece must go on jumping while it can.
//! - Capturing is mandatory. When several captures exist the player may choose any of them, a
//!   single jump instead of a longer sequence included (no majority rule), but the chosen
//!   sequence must be completed. (The basic game of the Construction Checkers sheet relaxes
//!   both: see below.)
//! - Within one move no piece can be jumped twice; captured pieces stay on the board, blocking
//!   landing squares, until the move is complete; the moving piece's start square counts as empty
//!   during its own sequence (a king may circle back to it).
//! - A man that reaches the far row is crowned and its move ends there, even if as a king it
//!   could jump on.
//! - The side to move with no legal move, having no pieces or all of them blocked, loses.
//!
//! # Draws and variants ([`CheckersRules`])
//!
//! - Threefold repetition: the same position with the same side to move for the third time
//!   (positions compared exactly, not by hash). On by default.
//! - The 40-move rule: 40 moves by each side (80 plies) with no capture and no man moved.
//!   On by default, length configurable.
//! - A ply limit (1000 by default) ends the game as truncated, for reinforcement learning.
//! - The basic game of the Construction Checkers sheet, whose *Advanced Rules* are "Required
//!   Jumps" and "multiple jumps must be completed": `mandatory_capture` off lets a player make a
//!   simple move when a capture is on; `complete_jumps` off lets a capture stop after any jump
//!   (every prefix of a capture path is then a move of its own, written with the squares it
//!   reached, `15x24` beside `15x24x31`; a man that is crowned still stops). Both are on by
//!   default. Perft under them counts each prefix and each simple move as a move.
//! - Who moves first (Black by default). Material adjudication (off by default): when the ply
//!   limit ends the game, more pieces wins, then more kings, else a draw.
//! - A per-move time limit that forfeits the turn (one rule sheet suggests it) belongs to the
//!   match runner: [`crate::GameState::forfeit_turn`] passes the turn, and the `perfectplay play`
//!   command offers `--move-time`. A forfeited turn counts as a ply without progress.
//!
//! # Notation
//!
//! Moves are written `11-15`; captures with every landing square, `15x24x31`; input also takes
//! the short form `15x31` when it names one move ([`notation`]). Positions are PDN FEN strings
//! ([`fen`]). Perft ([`crate::perft`]) counts every capture path separately, the published
//! convention.

pub mod actions;
mod display;
pub mod fen;
mod geometry;
mod movegen;
mod mv;
pub mod notation;
mod position;
mod retro;
mod rules;
mod square;
mod svg;
mod zobrist;

use arrayvec::ArrayVec;

pub use self::mv::{CheckersMove, MAX_JUMPS};
pub use self::notation::{CheckersMoveError, IllegalMoveError, MoveText, ParseCheckersMoveError};
pub use self::position::{CheckersPosition, CheckersPositionError, Piece, Setup};
pub use self::rules::CheckersRules;
pub use self::square::Square;
pub use fen::{CheckersFenError, CheckersFenErrorKind};

use crate::game::{DrawRules, EndReason, Game, Outcome};
use crate::Color;

/// Room for every legal move of any legal position, under any rules.
///
/// Simple moves are at most 12 pieces x 4 directions = 48. Capture paths of one piece stay on
/// one of four 8-square jumping lattices; the test `capacity_bounds_every_capture_set` computes
/// the worst case over every arrangement of enemy pieces: 12 pieces' worth of complete paths
/// stays under 256, and where a capture may stop part way (every prefix a move) and simple
/// moves stand beside captures, 12 pieces' worth of prefixes (51 at most for one piece) plus
/// 48 simple moves is 660.
pub const MOVE_CAPACITY: usize = 672;

/// A fixed-capacity list of checkers moves.
pub type CheckersMoveList = ArrayVec<CheckersMove, MOVE_CAPACITY>;

/// English checkers under a set of [`CheckersRules`]; implements [`Game`].
///
/// ```
/// use perfectplay_core::checkers::Checkers;
/// use perfectplay_core::{perft, Game};
/// let game = Checkers::default();
/// assert_eq!(perft(&game, &game.start_position(), 4), 1469);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checkers {
    rules: CheckersRules,
}

impl Checkers {
    /// The game under `rules`.
    #[must_use]
    pub const fn new(rules: CheckersRules) -> Checkers {
        Checkers { rules }
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &CheckersRules {
        &self.rules
    }

    /// Reads a move against `pos` under these rules; see [`CheckersPosition::parse_move`] and,
    /// for captures that stop part way, [`notation::MoveText::resolve_under`].
    pub fn parse_move(
        &self,
        pos: &CheckersPosition,
        text: &str,
    ) -> Result<CheckersMove, CheckersMoveError> {
        if self.rules.standard_captures() {
            return pos.parse_move(text);
        }
        Ok(text.parse::<MoveText>()?.resolve_under(pos, &self.rules)?)
    }
}

impl Game for Checkers {
    type Position = CheckersPosition;
    type Move = CheckersMove;
    type MoveList = CheckersMoveList;

    fn id(&self) -> &'static str {
        "checkers"
    }

    fn start_position(&self) -> CheckersPosition {
        CheckersPosition::start(self.rules.first_player)
    }

    fn first_to_move(&self) -> Color {
        self.rules.first_player
    }

    #[inline]
    fn side_to_move(&self, pos: &CheckersPosition) -> Color {
        pos.side_to_move()
    }

    #[inline]
    fn generate_moves(&self, pos: &CheckersPosition, moves: &mut CheckersMoveList) {
        moves.clear();
        if self.rules.standard_captures() {
            pos.generate_moves_into(moves);
        } else {
            pos.for_each_move_under(&self.rules, |mv| moves.push(*mv));
        }
    }

    #[inline]
    fn for_each_move<F: FnMut(&CheckersMove)>(&self, pos: &CheckersPosition, visit: F) {
        pos.for_each_move_under(&self.rules, visit);
    }

    #[inline]
    fn count_moves(&self, pos: &CheckersPosition) -> u64 {
        if self.rules.standard_captures() {
            return pos.count_moves();
        }
        let mut n = 0;
        pos.for_each_move_under(&self.rules, |_| n += 1);
        n
    }

    #[inline]
    fn play(&self, pos: &CheckersPosition, mv: &CheckersMove) -> CheckersPosition {
        pos.play(mv)
    }

    fn pass_turn(&self, pos: &CheckersPosition) -> CheckersPosition {
        pos.with_side_to_move(!pos.side_to_move())
    }

    fn outcome(&self, pos: &CheckersPosition) -> Option<Outcome> {
        let side = pos.side_to_move();
        if pos.pieces(side).is_empty() {
            Some(Outcome::win(!side, EndReason::NoMen))
        } else if !pos.has_legal_move() {
            Some(Outcome::win(!side, EndReason::NoMoves))
        } else {
            None
        }
    }

    #[inline]
    fn is_progress(&self, pos: &CheckersPosition, mv: &CheckersMove) -> bool {
        mv.is_capture() || pos.moves_man(mv)
    }

    fn hash(&self, pos: &CheckersPosition) -> u64 {
        pos.zobrist()
    }

    #[inline]
    fn hash_after(&self, pos: &CheckersPosition, hash: u64, mv: &CheckersMove) -> u64 {
        pos.zobrist_after(hash, mv)
    }

    fn identity(&self, pos: &CheckersPosition) -> u128 {
        let (black, white) = (pos.pieces(Color::Black).0, pos.pieces(Color::White).0);
        let kings = pos.kings(Color::Black).0 | pos.kings(Color::White).0;
        u128::from(black)
            | u128::from(white) << 32
            | u128::from(kings) << 64
            | (pos.side_to_move().index() as u128) << 96
    }

    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetitions: self.rules.threefold_repetition.then_some(3),
            no_progress_plies: self.rules.move_rule.map(|moves| moves.saturating_mul(2)),
            ply_limit: self.rules.ply_limit,
        }
    }

    fn adjudicate(&self, pos: &CheckersPosition) -> Option<Outcome> {
        if !self.rules.adjudication {
            return None;
        }
        let key = |c: Color| (pos.pieces(c).count(), pos.kings(c).count());
        let (black, white) = (key(Color::Black), key(Color::White));
        let winner = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome {
            winner,
            reason: EndReason::Adjudication,
        })
    }
}

#[cfg(test)]
mod tests;
