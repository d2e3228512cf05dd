//! `AnyMove`: a move of either family.

use std::fmt;

use super::GameFamily;
use crate::checkers::{Checkers, CheckersMove};
use crate::morris::{Morris, MorrisMove};

/// A move of either family; it displays in the family's standard notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A checkers move.
    Checkers(CheckersMove),
    /// A morris turn.
    Morris(MorrisMove),
}

impl AnyMove {
    /// Whether the move takes a piece.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        match self {
            AnyMove::Checkers(mv) => mv.is_capture(),
            AnyMove::Morris(mv) => mv.is_capture(),
        }
    }

    /// The family the move belongs to: `checkers` or `morris`.
    #[must_use]
    pub const fn family(&self) -> &'static str {
        match self {
            AnyMove::Checkers(_) => Checkers::FAMILY,
            AnyMove::Morris(_) => Morris::FAMILY,
        }
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::with_family!(AnyMove, self, mv => fmt::Display::fmt(mv, f))
    }
}

impl From<CheckersMove> for AnyMove {
    fn from(mv: CheckersMove) -> AnyMove {
        AnyMove::Checkers(mv)
    }
}

impl From<MorrisMove> for AnyMove {
    fn from(mv: MorrisMove) -> AnyMove {
        AnyMove::Morris(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn moves_know_their_family_and_captures() {
        let checkers = Checkers::default();
        let pos = "B:W14:B10".parse().unwrap();
        let jump = AnyMove::from(checkers.parse_move(&pos, "10x17").unwrap());
        assert_eq!((jump.family(), jump.is_capture()), ("checkers", true));
        assert_eq!(jump.to_string(), "10x17");
        let morris = Morris::preset("nine_mens_morris").unwrap();
        let place = AnyMove::from(morris.parse_move(&morris.start_position(), "d6").unwrap());
        assert_eq!((place.family(), place.is_capture()), ("morris", false));
        assert_eq!(place.to_string(), "d6");
        assert_ne!(jump, place);
    }
}
