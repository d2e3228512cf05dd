//! `CliGame`: what the commands need from a game beyond [`Game`]: its rules by name, position
//! strings, typed moves, the board drawing, a canonical move order and published perft counts.
//!
//! `perft` and `play` are written once, generic over `G: CliGame`; this module holds the few
//! places where checkers and the morris family differ.

use std::cmp::Ordering;
use std::fmt;

use perfectplay_core::checkers::{Checkers, CheckersRules, MoveInputError, Position};
use perfectplay_core::morris::{Morris, MorrisMove, MorrisMoveError, MorrisRules};
use perfectplay_core::Game;

use crate::errors::CliError;
use crate::moves;
use crate::published::{self, PublishedCounts};
use crate::settings::RuleSet;

/// A game as the command line uses it.
pub(crate) trait CliGame: Game + Sized {
    /// The rule options.
    type Rules: RuleSet;
    /// Why typed text is not a legal move.
    type MoveError: fmt::Display;

    /// What position strings are called in the output: `fen`, `position`.
    const POSITION_NAME: &'static str;
    /// How to type a move, for the console's `help`.
    const MOVE_HELP: &'static str;
    /// Which positions have published perft counts, for the error when there are none.
    const PUBLISHED_HINT: &'static str;

    /// The game under `rules`, once they are checked to work together.
    fn with_rules(rules: Self::Rules) -> Result<Self, CliError>;

    /// The rules in force.
    fn rule_set(&self) -> &Self::Rules;

    /// Reads a position string: the position and the plies since the last progress move that
    /// the string records (0 where the format has no such field).
    fn read_position(&self, text: &str) -> Result<(Self::Position, u32), CliError>;

    /// Writes `pos` as a position string, with `no_progress_plies` where the format has room.
    fn write_position(&self, pos: &Self::Position, no_progress_plies: u32) -> String;

    /// Reads a typed move and finds it among the legal moves of `pos`.
    fn read_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The board of `pos` as text, with the side to move.
    fn draw(&self, pos: &Self::Position) -> String;

    /// Orders moves canonically: listings, `perft --divide` and random players use it, so their
    /// output does not depend on the order of move generation.
    fn compare_moves(a: &Self::Move, b: &Self::Move) -> Ordering;

    /// Sorts `items` by their moves (`mv` picks the move of an item) in canonical order.
    fn sort_moves<T>(items: &mut [T], mv: impl Fn(&T) -> &Self::Move) {
        items.sort_by(|a, b| Self::compare_moves(mv(a), mv(b)));
    }

    /// The published perft counts from `pos` under these rules, if there are any.
    fn published_counts(&self, pos: &Self::Position) -> Option<PublishedCounts>;
}

impl CliGame for Checkers {
    type Rules = CheckersRules;
    type MoveError = MoveInputError;

    const POSITION_NAME: &'static str = "fen";
    const MOVE_HELP: &'static str = "type a move like 11-15 or 15x24x31 (or the short form \
                                     15x31), `moves` to list the legal moves, `quit` to stop \
                                     the game";
    const PUBLISHED_HINT: &'static str = "--check needs the start position";

    fn with_rules(rules: CheckersRules) -> Result<Checkers, CliError> {
        Ok(Checkers::new(rules))
    }

    fn rule_set(&self) -> &CheckersRules {
        self.rules()
    }

    fn read_position(&self, text: &str) -> Result<(Position, u32), CliError> {
        Ok((text.parse()?, 0))
    }

    fn write_position(&self, pos: &Position, _no_progress_plies: u32) -> String {
        pos.fen()
    }

    fn read_move(&self, pos: &Position, text: &str) -> Result<Self::Move, MoveInputError> {
        self.parse_move(pos, text)
    }

    fn draw(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn compare_moves(a: &Self::Move, b: &Self::Move) -> Ordering {
        moves::compare_checkers(a, b)
    }

    fn published_counts(&self, pos: &Position) -> Option<PublishedCounts> {
        published::checkers_counts(pos)
    }
}

impl CliGame for Morris {
    type Rules = MorrisRules;
    type MoveError = MorrisMoveError;

    const POSITION_NAME: &'static str = "position";
    const MOVE_HELP: &'static str = "type a turn like d6 (place), a1-a4 (slide or fly), \
                                     a1-a4xd7 (and take d7), xd7 (an opening removal) or pass, \
                                     `moves` to list the legal turns, `quit` to stop the game";
    const PUBLISHED_HINT: &'static str =
        "--check needs nine_mens_morris (or cowboy_checkers) from the empty board";

    fn with_rules(rules: MorrisRules) -> Result<Morris, CliError> {
        Ok(Morris::new(rules)?)
    }

    fn rule_set(&self) -> &MorrisRules {
        self.rules()
    }

    fn read_position(&self, text: &str) -> Result<(Self::Position, u32), CliError> {
        Ok(self.parse_fen(text)?)
    }

    fn write_position(&self, pos: &Self::Position, no_progress_plies: u32) -> String {
        self.fen(pos, no_progress_plies)
    }

    fn read_move(&self, pos: &Self::Position, text: &str) -> Result<MorrisMove, MorrisMoveError> {
        self.parse_move(pos, text)
    }

    fn draw(&self, pos: &Self::Position) -> String {
        self.diagram(pos)
    }

    /// By the text of the turns, as written in standard notation.
    fn compare_moves(a: &MorrisMove, b: &MorrisMove) -> Ordering {
        a.to_string().cmp(&b.to_string())
    }

    fn sort_moves<T>(items: &mut [T], mv: impl Fn(&T) -> &MorrisMove) {
        items.sort_by_cached_key(|item| mv(item).to_string());
    }

    fn published_counts(&self, pos: &Self::Position) -> Option<PublishedCounts> {
        published::morris_counts(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::GameState;

    use super::*;

    fn nine() -> Morris {
        Morris::preset("nine_mens_morris").unwrap()
    }

    #[test]
    fn morris_positions_read_and_write() {
        let game = nine();
        let text = "W.B/.../.../....../.../.../... b 8 8 3 - -";
        let (pos, plies) = game.read_position(text).unwrap();
        assert_eq!(plies, 3);
        assert_eq!(game.write_position(&pos, plies), text);
        let err = game.read_position("W.B b 8 8").unwrap_err();
        assert!(
            err.to_string().starts_with("invalid morris position"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn checkers_positions_have_no_counter() {
        let game = Checkers::default();
        let (pos, plies) = game.read_position("W:W27:B18,10").unwrap();
        assert_eq!(plies, 0);
        assert_eq!(game.write_position(&pos, 7), "W:W27:B10,18");
    }

    #[test]
    fn morris_moves_sort_by_text() {
        let state = GameState::new(Morris::preset("three_mens_morris").unwrap());
        let mut legal = state.legal_moves().to_vec();
        Morris::sort_moves(&mut legal, |m| m);
        let names: Vec<String> = legal.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
        );
        assert_eq!(Morris::compare_moves(&legal[0], &legal[1]), Ordering::Less);
    }

    #[test]
    fn typed_moves_and_drawings() {
        let game = nine();
        let start = game.start_position();
        assert_eq!(game.read_move(&start, "d6").unwrap().to_string(), "d6");
        let err = game.read_move(&start, "a1-a4").unwrap_err();
        assert!(err.to_string().contains("not a legal move"), "{err}");
        assert!(game.draw(&start).ends_with("white to move"));
        let checkers = Checkers::default();
        assert!(checkers
            .read_move(&checkers.start_position(), "11-15")
            .is_ok());
    }

    #[test]
    fn rules_are_validated() {
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        rules.flying = Some(4);
        let err = Morris::with_rules(rules).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("not 4"), "{err}");
        assert_eq!(
            Morris::with_rules(MorrisRules::TWELVE_MENS_MORRIS)
                .unwrap()
                .rule_set(),
            &MorrisRules::TWELVE_MENS_MORRIS
        );
    }
}
