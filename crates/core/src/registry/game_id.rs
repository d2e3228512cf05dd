//! `GameId`: the games by the ids the fronts take, with their aliases and summaries.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{AnyGame, LoadError};
use crate::checkers::{Checkers, CheckersRules};
use crate::morris::{Morris, MorrisRules, Preset};
use crate::{RuleOption, RuleSet};

/// One line about checkers, as game listings show it.
const CHECKERS_SUMMARY: &str =
    "English checkers: 8x8 board, short kings, mandatory capture, Black moves first";

/// A game id or alias that names no game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown game `{id}`; valid games: {valid}")]
pub struct UnknownGameError {
    /// The id given.
    pub id: String,
    /// Every id and alias, comma separated ([`game_ids`] with aliases).
    pub valid: String,
}

/// A game the fronts can name: English checkers or one of the morris presets.
///
/// ```
/// use perfectplay_core::registry::GameId;
/// let id = GameId::parse("Cowboy_Checkers")?;
/// assert_eq!((id.name(), id.family()), ("nine_mens_morris", "morris"));
/// assert_eq!(id.aliases(), ["cowboy_checkers"]);
/// assert_eq!("checkers".parse::<GameId>()?, GameId::Checkers);
/// # Ok::<(), perfectplay_core::registry::UnknownGameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// English checkers ([`Checkers`]).
    Checkers,
    /// A morris preset ([`MorrisRules::PRESETS`]).
    Morris(&'static Preset),
}

impl GameId {
    /// Every game, in the order listings show them: checkers, then the morris presets.
    pub fn all() -> impl Iterator<Item = GameId> {
        std::iter::once(GameId::Checkers).chain(MorrisRules::PRESETS.iter().map(GameId::Morris))
    }

    /// The canonical id, which [`crate::Game::id`] of the loaded game also returns.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Checkers => "checkers",
            GameId::Morris(preset) => preset.id,
        }
    }

    /// Other ids that name the same game, like `cowboy_checkers`.
    #[must_use]
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            GameId::Checkers => &[],
            GameId::Morris(preset) => preset.aliases,
        }
    }

    /// One line about the game.
    #[must_use]
    pub const fn summary(self) -> &'static str {
        match self {
            GameId::Checkers => CHECKERS_SUMMARY,
            GameId::Morris(preset) => preset.summary,
        }
    }

    /// The family the game belongs to: `checkers` or `morris` ([`super::GameFamily::FAMILY`]).
    #[must_use]
    pub const fn family(self) -> &'static str {
        match self {
            GameId::Checkers => <Checkers as super::GameFamily>::FAMILY,
            GameId::Morris(_) => <Morris as super::GameFamily>::FAMILY,
        }
    }

    /// The game's documented rule options: name, values taken, and what each does.
    #[must_use]
    pub const fn rule_options(self) -> &'static [RuleOption] {
        match self {
            GameId::Checkers => <CheckersRules as RuleSet>::OPTIONS,
            GameId::Morris(_) => <MorrisRules as RuleSet>::OPTIONS,
        }
    }

    /// Reads an id or alias, ignoring case and surrounding space.
    pub fn parse(text: &str) -> Result<GameId, UnknownGameError> {
        let wanted = text.trim().to_ascii_lowercase();
        GameId::all()
            .find(|g| g.name() == wanted || g.aliases().contains(&wanted.as_str()))
            .ok_or_else(|| UnknownGameError {
                id: text.to_owned(),
                valid: game_ids(true).join(", "),
            })
    }

    /// The game with its default rules and then each `(name, value)` option set in order; the
    /// options are checked to work together once all are set.
    pub fn load<N: AsRef<str>, V: AsRef<str>>(
        self,
        options: &[(N, V)],
    ) -> Result<AnyGame, LoadError> {
        Ok(match self {
            GameId::Checkers => AnyGame::Checkers(build(CheckersRules::default(), options)?),
            GameId::Morris(preset) => AnyGame::Morris(build(preset.rules, options)?),
        })
    }
}

/// The game under `rules` with `options` applied.
fn build<G: super::GameFamily, N: AsRef<str>, V: AsRef<str>>(
    mut rules: G::Rules,
    options: &[(N, V)],
) -> Result<G, LoadError> {
    rules.apply(options)?;
    Ok(G::with_rules(rules)?)
}

impl FromStr for GameId {
    type Err = UnknownGameError;

    fn from_str(text: &str) -> Result<GameId, UnknownGameError> {
        GameId::parse(text)
    }
}

impl fmt::Display for GameId {
    /// The canonical id.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every game id in [`GameId::all`] order; with `aliases`, each id is followed by its other
/// names.
#[must_use]
pub fn game_ids(aliases: bool) -> Vec<&'static str> {
    GameId::all()
        .flat_map(|g| {
            let others = if aliases { g.aliases() } else { &[] };
            std::iter::once(g.name()).chain(others.iter().copied())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

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
        assert_eq!(err.id, "chess");
        let text = err.to_string();
        assert!(
            text.starts_with("unknown game `chess`; valid games: checkers, nine_mens_morris"),
            "{text}"
        );
        assert!(
            text.contains("cowboy_checkers") && text.contains("shah"),
            "{text}"
        );
    }

    #[test]
    fn every_game_is_listed_once() {
        let ids = game_ids(true);
        assert_eq!(GameId::all().count(), 1 + MorrisRules::PRESETS.len());
        assert_eq!(game_ids(false).len(), GameId::all().count());
        assert!(ids.len() > game_ids(false).len());
        for id in &ids {
            assert_eq!(ids.iter().filter(|i| i == &id).count(), 1, "{ids:?}");
            assert!(GameId::parse(id).is_ok(), "{id}");
        }
    }

    #[test]
    fn ids_display_and_know_their_family() {
        for id in GameId::all() {
            assert_eq!(id.to_string().parse::<GameId>().unwrap(), id);
            assert!(!id.summary().is_empty());
        }
        assert_eq!(GameId::Checkers.family(), "checkers");
        assert_eq!(GameId::Checkers.rule_options(), CheckersRules::OPTIONS);
        let shah = GameId::parse("shah").unwrap();
        assert_eq!(
            (shah.family(), shah.rule_options()),
            ("morris", MorrisRules::OPTIONS)
        );
    }
}
