//! `AnyGame`: a game of either family, loaded by id with rule options; and [`crate::with_family!`],
//! which runs generic code on whichever family it holds.

use thiserror::Error;

use super::{GameFamily, GameId, UnknownGameError};
use crate::checkers::{Checkers, CheckersRules};
use crate::morris::{Morris, MorrisRules, RulesError};
use crate::{Game, RuleOption, RuleOptionError, RuleSet};

/// Runs `$body` with `$g` bound to the value inside either variant of an enum whose variants
/// are `Checkers(..)` and `Morris(..)`, so that one generic expression serves both families.
///
/// The first argument names the enum (a path is fine); it can be
/// [`AnyGame`](crate::registry::AnyGame), [`AnyMove`](crate::registry::AnyMove), or any enum of
/// the same shape a front defines, such as per-family states.
///
/// ```
/// use perfectplay_core::registry::{AnyGame, GameFamily};
/// use perfectplay_core::{with_family, Game};
///
/// fn start_text<G: GameFamily>(game: &G) -> String {
///     game.write_position(&game.start_position(), 0)
/// }
///
/// let (_, game) = AnyGame::load::<&str, &str>("checkers", &[])?;
/// let fen = with_family!(AnyGame, &game, g => start_text(g));
/// assert!(fen.starts_with("B:W21,22"));
/// # Ok::<(), perfectplay_core::registry::LoadError>(())
/// ```
#[macro_export]
macro_rules! with_family {
    ($($enum:ident)::+, $value:expr, $g:pat => $body:expr) => {
        match $value {
            $($enum)::+::Checkers($g) => $body,
            $($enum)::+::Morris($g) => $body,
        }
    };
}

/// Why a game could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The id names no game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGameError),
    /// A rule option that does not exist, or a value it does not take.
    #[error(transparent)]
    RuleOption(#[from] RuleOptionError),
    /// Options that cannot be played together (morris only).
    #[error("invalid rules: {0}")]
    Rules(#[from] RulesError),
}

/// A game of either family, with its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyGame {
    /// English checkers.
    Checkers(Checkers),
    /// A morris game.
    Morris(Morris),
}

impl AnyGame {
    /// Loads the game `id` (an id or alias, case-insensitive, see [`GameId::parse`]) with each
    /// `(name, value)` rule option set in order over its default rules; returns the game's id
    /// and the game.
    ///
    /// ```
    /// use perfectplay_core::registry::{AnyGame, LoadError};
    /// let (id, game) = AnyGame::load("checkers", &[("ply_limit", "none")])?;
    /// assert_eq!(id.name(), "checkers");
    /// assert!(game.settings().contains(&("ply_limit", "none".to_owned())));
    /// let bad = AnyGame::load("shah", &[("flying", "4")]).unwrap_err();
    /// assert!(matches!(bad, LoadError::Rules(_)));
    /// # Ok::<(), LoadError>(())
    /// ```
    pub fn load<N: AsRef<str>, V: AsRef<str>>(
        id: &str,
        options: &[(N, V)],
    ) -> Result<(GameId, AnyGame), LoadError> {
        let id = GameId::parse(id)?;
        Ok((id, id.load(options)?))
    }

    /// The family of the game: `checkers` or `morris`.
    #[must_use]
    pub fn family(&self) -> &'static str {
        match self {
            AnyGame::Checkers(_) => Checkers::FAMILY,
            AnyGame::Morris(_) => Morris::FAMILY,
        }
    }

    /// The game's id ([`Game::id`]): the preset's id for morris rules that match a preset,
    /// `morris` for others.
    #[must_use]
    pub fn id(&self) -> &'static str {
        with_family!(AnyGame, self, g => g.id())
    }

    /// The family's documented rule options: name, values taken, and what each does.
    #[must_use]
    pub fn rule_options(&self) -> &'static [RuleOption] {
        match self {
            AnyGame::Checkers(_) => <CheckersRules as RuleSet>::OPTIONS,
            AnyGame::Morris(_) => <MorrisRules as RuleSet>::OPTIONS,
        }
    }

    /// Every rule option with its value in this game, as text that [`RuleSet::set`] reads
    /// back.
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        with_family!(AnyGame, self, g => g.settings())
    }
}

impl From<Checkers> for AnyGame {
    fn from(game: Checkers) -> AnyGame {
        AnyGame::Checkers(game)
    }
}

impl From<Morris> for AnyGame {
    fn from(game: Morris) -> AnyGame {
        AnyGame::Morris(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_OPTIONS: &[(&str, &str)] = &[];

    #[test]
    fn every_game_loads_with_its_defaults() {
        for id in GameId::all() {
            let (loaded, game) = AnyGame::load(id.name(), NO_OPTIONS).unwrap();
            assert_eq!(loaded, id);
            assert_eq!(game.id(), id.name());
            assert_eq!(game.family(), id.family());
            assert_eq!(game.rule_options(), id.rule_options());
            for alias in id.aliases() {
                assert_eq!(AnyGame::load(alias, NO_OPTIONS).unwrap(), (id, game));
            }
        }
        let (_, game) = AnyGame::load("checkers", NO_OPTIONS).unwrap();
        assert_eq!(game, AnyGame::Checkers(Checkers::default()));
    }

    #[test]
    fn options_are_set_in_order() {
        let options = [
            ("ply_limit", "10"),
            ("ply_limit", "20"),
            ("adjudication", "yes"),
        ];
        let (_, game) = AnyGame::load("Checkers", &options).unwrap();
        let rules = CheckersRules {
            ply_limit: Some(20),
            adjudication: true,
            ..CheckersRules::default()
        };
        assert_eq!(game, Checkers::new(rules).into());
        let owned = vec![("flying".to_owned(), "none".to_owned())];
        let (id, game) = AnyGame::load("cowboy_checkers", &owned).unwrap();
        assert_eq!(id.name(), "nine_mens_morris");
        let AnyGame::Morris(morris) = game else {
            panic!("not morris: {game:?}")
        };
        assert_eq!(morris.rules().flying, None);
        assert_eq!(game.id(), "morris", "the rules are no preset's");
    }

    #[test]
    fn bad_loads_say_why() {
        let err = AnyGame::load("go", NO_OPTIONS).unwrap_err();
        assert!(
            matches!(&err, LoadError::UnknownGame(e) if e.id == "go"),
            "{err:?}"
        );
        assert!(err.to_string().contains("valid games: checkers, "), "{err}");

        let err = AnyGame::load("checkers", &[("flying_kings", "true")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rule option `flying_kings`; valid options: first_player, \
             threefold_repetition, move_rule, ply_limit, adjudication, mandatory_capture, \
             complete_jumps"
        );
        let err = AnyGame::load("checkers", &[("ply_limit", "soon")]).unwrap_err();
        assert!(matches!(
            err,
            LoadError::RuleOption(RuleOptionError::BadValue { .. })
        ));

        // The first bad option is reported, before the combination is checked.
        let err = AnyGame::load("shah", &[("flying", "4"), ("wings", "2")]).unwrap_err();
        assert!(err.to_string().contains("`wings`"), "{err}");
        let err = AnyGame::load("shah", &[("flying", "4")]).unwrap_err();
        assert_eq!(err, LoadError::Rules(RulesError::Flying(4)), "{err}");
        assert!(err.to_string().starts_with("invalid rules: "), "{err}");
    }

    #[test]
    fn settings_list_every_option() {
        for id in GameId::all() {
            let game = id.load(NO_OPTIONS).unwrap();
            let names: Vec<&str> = game.settings().iter().map(|(n, _)| *n).collect();
            let options: Vec<&str> = game.rule_options().iter().map(|o| o.name).collect();
            assert_eq!(names, options, "{id}");
            // The listed values load the same game back.
            let (_, again) = AnyGame::load(id.name(), &game.settings()).unwrap();
            assert_eq!(again, game, "{id}");
        }
        let twelve = AnyGame::from(Morris::new(MorrisRules::TWELVE_MENS_MORRIS).unwrap());
        assert_eq!(
            twelve.settings(),
            MorrisRules::TWELVE_MENS_MORRIS.settings()
        );
    }
}
