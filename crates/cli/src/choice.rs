//! What a player does on its turn, and why a game was abandoned: what the players and the
//! console hand back to the game loop.

use std::fmt;

use perfectplay_core::Color;

/// What a player does on its turn, with moves of type `M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice<M> {
    /// Plays this legal move.
    Move(M),
    /// Lets the time limit pass: the turn is forfeited.
    Forfeit,
    /// Stops the game.
    Quit(QuitReason),
    /// Loses the game at once by breaking the touch-move rule.
    BreaksTouchMove,
}

/// Why a game was abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QuitReason {
    /// The human playing this side typed `quit`.
    Quit(Color),
    /// Standard input ended while a human was to move.
    EndOfInput,
}

impl fmt::Display for QuitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuitReason::Quit(color) => write!(f, "{color} quit"),
            QuitReason::EndOfInput => f.write_str("input ended"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quit_reasons_read_well() {
        assert_eq!(QuitReason::Quit(Color::White).to_string(), "white quit");
        assert_eq!(QuitReason::EndOfInput.to_string(), "input ended");
    }
}
