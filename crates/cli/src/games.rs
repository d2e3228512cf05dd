//! `GameId`: the games the commands know, by their id on the command line.

use crate::errors::CliError;

/// A game the command line can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameId {
    /// English checkers ([`perfectplay_core::checkers::Checkers`]).
    Checkers,
}

impl GameId {
    /// Every game, in the order help texts list them.
    pub(crate) const ALL: [GameId; 1] = [GameId::Checkers];

    /// The id as typed on the command line; the same as the game's `Game::id`.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            GameId::Checkers => "checkers",
        }
    }

    /// Reads an id (case-insensitive); an unknown one is an error listing the valid ids.
    pub(crate) fn parse(text: &str) -> Result<GameId, CliError> {
        let wanted = text.trim().to_ascii_lowercase();
        GameId::ALL
            .into_iter()
            .find(|g| g.name() == wanted)
            .ok_or_else(|| CliError::UnknownGame {
                id: text.to_owned(),
                valid: GameId::ALL.map(GameId::name).join(", "),
            })
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::Game;

    use super::*;

    #[test]
    fn names_match_the_core_ids() {
        assert_eq!(GameId::Checkers.name(), Checkers::default().id());
    }

    #[test]
    fn parse_accepts_known_ids_and_lists_them_otherwise() {
        assert_eq!(GameId::parse("checkers").unwrap(), GameId::Checkers);
        assert_eq!(GameId::parse(" Checkers ").unwrap(), GameId::Checkers);
        let err = GameId::parse("chess").unwrap_err();
        assert!(err.to_string().contains("valid games: checkers"), "{err}");
    }
}
