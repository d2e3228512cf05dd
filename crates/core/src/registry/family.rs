//! `GameFamily`: what a front needs from a game family beyond [`Game`], in one trait.

use std::error::Error;

use super::AnyMove;
use crate::morris::RulesError;
use crate::{Game, RuleSet};

/// A game family as the fronts use it: its rules by name, move notation, position strings,
/// drawings, and its moves as [`AnyMove`]s.
///
/// Front code is written once over `G: GameFamily`; [`crate::with_family!`] reaches it from an
/// [`super::AnyGame`]. Every reading method returns the family's own error type, so a front can
/// tell a bad position from a bad move and keep the core's messages.
///
/// ```
/// use perfectplay_core::checkers::Checkers;
/// use perfectplay_core::registry::GameFamily;
/// use perfectplay_core::Game;
/// let game = Checkers::default();
/// let (pos, no_progress) = game.read_position("W:W27:B18,10")?;
/// assert_eq!((game.write_position(&pos, no_progress), no_progress), ("W:W27:B10,18".into(), 0));
/// let mv = game.parse_move(&game.start_position(), "11-15")?;
/// assert_eq!(Checkers::wrap_move(mv).to_string(), "11-15");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait GameFamily: Game + Sized {
    /// The family's name: `checkers` or `morris`.
    const FAMILY: &'static str;

    /// The rule options, set by name.
    type Rules: RuleSet;
    /// Why text is not a legal move: it cannot be read, or names no legal move.
    type MoveError: Error + Send + Sync + 'static;
    /// Why text is not a position: it cannot be read, or describes one the rules forbid.
    type PositionError: Error + Send + Sync + 'static;

    /// The game under `rules`, once they are checked to work together (checkers rules always
    /// do).
    fn with_rules(rules: Self::Rules) -> Result<Self, RulesError>;

    /// The rules in force.
    fn rule_set(&self) -> &Self::Rules;

    /// Every rule option with its value, as text that [`RuleSet::set`] reads back.
    fn settings(&self) -> Vec<(&'static str, String)> {
        self.rule_set().values()
    }

    /// Reads a move in standard notation and finds it among the legal moves of `pos`.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// Reads a position string: the position and the plies without progress it records (0
    /// where the format has no such field, as in checkers FEN).
    fn read_position(&self, text: &str) -> Result<(Self::Position, u32), Self::PositionError>;

    /// The position string of `pos`, reached after `no_progress` plies without progress (written
    /// where the format has room for it: morris strings do, checkers FEN does not).
    fn write_position(&self, pos: &Self::Position, no_progress: u32) -> String;

    /// The board of `pos` as ASCII text, ending with the side to move.
    fn diagram(&self, pos: &Self::Position) -> String;

    /// The board of `pos` as an SVG picture.
    fn svg(&self, pos: &Self::Position) -> String;

    /// The move as a move of either family.
    fn wrap_move(mv: Self::Move) -> AnyMove;

    /// The move, if it belongs to this family.
    fn unwrap_move(mv: &AnyMove) -> Option<Self::Move>;
}
