//! `GameId`: the games the commands know, by their id on the command line, and how a command
//! runs on the chosen game.

use perfectplay_core::checkers::{Checkers, CheckersRules};
use perfectplay_core::morris::{Morris, MorrisRules, Preset};

use crate::cli_game::CliGame;
use crate::errors::CliError;
use crate::settings;

/// One line about checkers, as `perfectplay games` lists it.
const CHECKERS_SUMMARY: &str =
    "English checkers: 8x8 board, short kings, mandatory capture, Black moves first";

/// A game the command line can name: checkers or one of the morris presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameId {
    /// English checkers ([`perfectplay_core::checkers::Checkers`]).
    Checkers,
    /// A morris preset ([`perfectplay_core::morris::MorrisRules::PRESETS`]).
    Morris(&'static Preset),
}

/// A command that runs on whichever game was named: [`GameId::run`] builds the game and calls
/// [`GameTask::run`] with it, so the command's code is written once, generic over the game.
pub(crate) trait GameTask {
    /// Runs the command on `game`, the game `id` with the rule settings applied.
    fn run<G: CliGame>(self, id: GameId, game: G) -> Result<(), CliError>;
}

impl GameId {
    /// Every game, in the order help texts list them: checkers, then the morris presets.
    pub(crate) fn all() -> impl Iterator<Item = GameId> {
        std::iter::once(GameId::Checkers).chain(MorrisRules::PRESETS.iter().map(GameId::Morris))
    }

    /// The id as typed on the command line; for the morris presets, the preset's id.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            GameId::Checkers => "checkers",
            GameId::Morris(preset) => preset.id,
        }
    }

    /// Other ids that name the same game, like `cowboy_checkers`.
    pub(crate) const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameId::Checkers => &[],
            GameId::Morris(preset) => preset.aliases,
        }
    }

    /// One line about the game.
    pub(crate) const fn summary(self) -> &'static str {
        match self {
            GameId::Checkers => CHECKERS_SUMMARY,
            GameId::Morris(preset) => preset.summary,
        }
    }

    /// Reads an id or alias (case-insensitive); an unknown one is an error listing the valid
    /// ids.
    pub(crate) fn parse(text: &str) -> Result<GameId, CliError> {
        let wanted = text.trim().to_ascii_lowercase();
        GameId::all()
            .find(|g| g.name() == wanted || g.aliases().contains(&wanted.as_str()))
            .ok_or_else(|| CliError::UnknownGame {
                id: text.to_owned(),
                valid: valid_ids(),
            })
    }

    /// Builds the game with the `name=value` rule settings applied and validated, then runs
    /// `task` on it.
    pub(crate) fn run<T: GameTask>(self, settings: &[String], task: T) -> Result<(), CliError> {
        match self {
            GameId::Checkers => {
                task.run(self, build::<Checkers>(CheckersRules::default(), settings)?)
            }
            GameId::Morris(preset) => task.run(self, build::<Morris>(preset.rules, settings)?),
        }
    }
}

/// The game under `rules` with `settings` applied.
fn build<G: CliGame>(mut rules: G::Rules, settings: &[String]) -> Result<G, CliError> {
    settings::apply(&mut rules, settings)?;
    G::with_rules(rules)
}

/// Every id and alias, comma separated.
pub(crate) fn valid_ids() -> String {
    GameId::all()
        .flat_map(|g| std::iter::once(g.name()).chain(g.aliases().iter().copied()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The help text of the `GAME` argument, listing every id.
pub(crate) fn game_help() -> String {
    format!(
        "The game: {} (`perfectplay games` describes them)",
        valid_ids()
    )
}

#[cfg(test)]
mod tests {
    use perfectplay_core::Game;

    use super::*;

    #[test]
    fn names_match_the_core_ids() {
        assert_eq!(GameId::Checkers.name(), Checkers::default().id());
        for preset in MorrisRules::PRESETS {
            let game = Morris::new(preset.rules).unwrap();
            assert_eq!(GameId::Morris(preset).name(), game.id());
        }
    }

    #[test]
    fn parse_accepts_ids_and_aliases_and_lists_them_otherwise() {
        assert_eq!(GameId::parse("checkers").unwrap(), GameId::Checkers);
        assert_eq!(GameId::parse(" Checkers ").unwrap(), GameId::Checkers);
        let nine = GameId::parse("nine_mens_morris").unwrap();
        assert_eq!(nine.name(), "nine_mens_morris");
        assert_eq!(GameId::parse("Cowboy_Checkers").unwrap(), nine);
        assert_eq!(GameId::parse("lasker").unwrap().name(), "lasker_morris");
        let err = GameId::parse("chess").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("valid games: checkers, nine_mens_morris"),
            "{text}"
        );
        assert!(
            text.contains("cowboy_checkers") && text.contains("shah"),
            "{text}"
        );
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn every_game_is_listed_once() {
        let ids = valid_ids();
        assert_eq!(GameId::all().count(), 1 + MorrisRules::PRESETS.len());
        for id in ids.split(", ") {
            assert_eq!(ids.split(", ").filter(|&i| i == id).count(), 1, "{ids}");
            assert!(GameId::parse(id).is_ok(), "{id}");
        }
        assert!(game_help().contains("three_mens_morris"));
    }
}
