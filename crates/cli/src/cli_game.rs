//! `CliGame`: what the commands need from a game beyond the core's [`GameFamily`]: what its
//! position strings are called, how to type a move, a canonical move order and published perft
//! counts.
//!
//! `perft` and `play` are written once, generic over `G: CliGame`; rules by name, notation,
//! position strings and the board drawing come from [`GameFamily`], and this module holds the
//! few places where the command line itself treats checkers and the morris family differently.

use std::cmp::Ordering;

use perfectplay_core::checkers::{Checkers, CheckersMove, CheckersPosition};
use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition};
use perfectplay_core::registry::GameFamily;
use perfectplay_solver::Tabled;

use crate::errors::CliError;
use crate::published::{self, PublishedCounts};

/// A game as the command line uses it. A position string that cannot be read is a command
/// error as it stands, so the family's error converts into [`CliError`].
pub(crate) trait CliGame: GameFamily<PositionError: Into<CliError>> + Tabled {
    /// What position strings are called in the output: `fen`, `position`.
    const POSITION_NAME: &'static str;
    /// How to type a move, for the console's `help`.
    const MOVE_HELP: &'static str;
    /// Which positions have published perft counts, for the error when there are none.
    const PUBLISHED_HINT: &'static str;

    /// Orders moves canonically: listings, `perft --divide` and random players use it, so their
    /// output does not depend on the order of move generation.
    fn compare_moves(a: &Self::Move, b: &Self::Move) -> Ordering;

    /// Sorts `items` by their moves (`mv` picks the move of an item) in canonical order.
    fn sort_moves<T>(items: &mut [T], mv: impl Fn(&T) -> &Self::Move) {
        items.sort_by(|a, b| Self::compare_moves(mv(a), mv(b)));
    }

    /// The published perft counts from `pos` under these rules, if there are any.
    fn published_counts(&self, pos: &Self::Position) -> Option<PublishedCounts>;

    /// The square or point of the piece `mv` moves, as typed (`11`, `a1`): what a player
    /// touches under the touch-move rule. None for a turn that moves no piece on the board (a
    /// morris placement, a pass or an opening removal).
    fn touched(&self, mv: &Self::Move) -> Option<String>;

    /// Whether `text` names a square or point of the board.
    fn is_point(&self, text: &str) -> bool;

    /// Whether a piece of either side stands on the square or point `text` names in `pos`.
    fn has_piece(&self, pos: &Self::Position, text: &str) -> bool;
}

impl CliGame for Checkers {
    const POSITION_NAME: &'static str = "fen";
    const MOVE_HELP: &'static str = "type a move like 11-15 or 15x24x31 (or the short form \
                                     15x31), `moves` to list the legal moves, `quit` to stop \
                                     the game";
    const PUBLISHED_HINT: &'static str =
        "--check needs the standard captures (mandatory_capture and complete_jumps on) and a \
         listed position such as the start";

    /// By start square, then by the landing squares in turn.
    fn compare_moves(a: &CheckersMove, b: &CheckersMove) -> Ordering {
        a.from()
            .cmp(&b.from())
            .then_with(|| a.landings().cmp(b.landings()))
    }

    fn published_counts(&self, pos: &CheckersPosition) -> Option<PublishedCounts> {
        published::checkers_counts(self, pos)
    }

    fn touched(&self, mv: &CheckersMove) -> Option<String> {
        Some(mv.from().number().to_string())
    }

    fn is_point(&self, text: &str) -> bool {
        text.parse::<u8>()
            .is_ok_and(|n| perfectplay_core::checkers::Square::from_number(n).is_some())
    }

    fn has_piece(&self, pos: &CheckersPosition, text: &str) -> bool {
        text.parse::<u8>()
            .ok()
            .and_then(perfectplay_core::checkers::Square::from_number)
            .is_some_and(|square| pos.piece_at(square).is_some())
    }
}

impl CliGame for Morris {
    const POSITION_NAME: &'static str = "position";
    const MOVE_HELP: &'static str = "type a turn like d6 (place), a1-a4 (slide or fly), \
                                     a1-a4xd7 (and take d7), xd7 (an opening removal) or pass, \
                                     `moves` to list the legal turns, `quit` to stop the game; \
                                     with capture=optional a mill written without x takes \
                                     nothing";
    const PUBLISHED_HINT: &'static str =
        "--check needs nine_mens_morris (or cowboy_checkers) from the empty board";

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

    fn touched(&self, mv: &MorrisMove) -> Option<String> {
        mv.from().map(|point| self.board().name(point).to_owned())
    }

    fn is_point(&self, text: &str) -> bool {
        let board = self.board();
        (0..board.point_count() as u8).any(|point| board.name(point) == text)
    }

    fn has_piece(&self, pos: &MorrisPosition, text: &str) -> bool {
        self.board()
            .point(text)
            .is_some_and(|point| pos.occupied().contains_index(point))
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::{Game, GameState};

    use super::*;

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
    fn checkers_moves_sort_by_squares() {
        let pos = Checkers::default().start_position();
        let (a, b) = (
            pos.parse_move("9-14").unwrap(),
            pos.parse_move("10-14").unwrap(),
        );
        assert_eq!(Checkers::compare_moves(&a, &b), Ordering::Less);
        let c = pos.parse_move("9-13").unwrap();
        assert_eq!(Checkers::compare_moves(&a, &c), Ordering::Greater);
    }

    #[test]
    fn bad_position_strings_are_bad_input() {
        let err: CliError = Morris::preset("nine_mens_morris")
            .unwrap()
            .read_position("W.B b 8 8")
            .unwrap_err()
            .into();
        assert!(
            err.to_string().starts_with("invalid morris position"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
        let err: CliError = Checkers::default()
            .read_position("B:W33:B1")
            .unwrap_err()
            .into();
        assert_eq!(err.exit_code(), 2);
    }
}
