//! The games the commands take by id ([`GameId`], from the core's registry), and how a command
//! runs on the chosen game ([`GameTask`]).

use perfectplay_core::registry::{game_ids, AnyGame};
use perfectplay_core::with_family;

use crate::cli_game::CliGame;
use crate::errors::CliError;
use crate::settings;
use std::io::Write;

pub(crate) use perfectplay_core::registry::GameId;

/// A command that runs on whichever game was named: [`run`] builds the game and calls
/// [`GameTask::run`] with it, so the command's code is written once, generic over the game.
pub(crate) trait GameTask {
    /// Runs the command on `game`, the game `id` with the rule settings applied.
    fn run<G: CliGame>(self, id: GameId, game: G) -> Result<(), CliError>;
}

/// Where a command that plays with people writes: its results to `out`, its conversation with
/// human players to `talk`.
pub(crate) struct Streams<'a> {
    pub(crate) out: &'a mut dyn Write,
    pub(crate) talk: &'a mut dyn Write,
}

/// A command that plays a game with people, by its arguments.
pub(crate) trait Conversation {
    /// Runs the command on `game`, the game `id` with the rule settings applied.
    fn run<G: CliGame>(&self, id: GameId, game: G, io: Streams<'_>) -> Result<(), CliError>;
}

/// Runs the conversation `args` on the game named `game` with the `name=value` rule
/// `settings`.
pub(crate) fn converse<'a, A: Conversation>(
    game: &str,
    settings: &[String],
    args: &'a A,
    io: Streams<'a>,
) -> Result<(), CliError> {
    /// A [`Conversation`] with its streams, as a [`GameTask`].
    struct Talk<'a, A>(&'a A, Streams<'a>);
    impl<A: Conversation> GameTask for Talk<'_, A> {
        fn run<G: CliGame>(self, id: GameId, game: G) -> Result<(), CliError> {
            self.0.run(id, game, self.1)
        }
    }
    run(game, settings, Talk(args, io))
}

/// What `args` writes to its results stream when it runs on the game named `game` with rule
/// `settings` (its conversation dropped): for tests.
#[cfg(test)]
pub(crate) fn converse_quietly<A: Conversation>(
    game: &str,
    settings: &[String],
    args: &A,
) -> Result<String, CliError> {
    let (mut out, mut talk) = (Vec::new(), Vec::new());
    let io = Streams {
        out: &mut out,
        talk: &mut talk,
    };
    converse(game, settings, args, io)?;
    Ok(String::from_utf8(out).expect("the commands write text"))
}

/// Builds the game named `game` with the `name=value` rule settings applied and validated, then
/// runs `task` on it.
pub(crate) fn run<T: GameTask>(game: &str, settings: &[String], task: T) -> Result<(), CliError> {
    let id = GameId::parse(game)?;
    let defaults = id.load::<&str, &str>(&[])?;
    with_family!(AnyGame, defaults, g => task.run(id, with_settings(g, settings)?))
}

/// `game` with `settings` applied over its rules, each in turn, so that the first bad setting
/// is the one reported; the combination is checked once all are set.
fn with_settings<G: CliGame>(game: G, settings: &[String]) -> Result<G, CliError> {
    let mut rules = *game.rule_set();
    settings::apply(&mut rules, settings)?;
    Ok(G::with_rules(rules)?)
}

/// The help text of the `GAME` argument, listing every id and alias.
pub(crate) fn game_help() -> String {
    format!(
        "The game: {} (`perfectplay games` describes them)",
        game_ids(true).join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the game a task was run on.
    struct Record<'a>(&'a mut Vec<String>);

    impl GameTask for Record<'_> {
        fn run<G: CliGame>(self, id: GameId, game: G) -> Result<(), CliError> {
            self.0
                .push(format!("{} {} {}", id.name(), game.id(), G::POSITION_NAME));
            Ok(())
        }
    }

    fn record(game: &str, settings: &[&str]) -> Result<String, CliError> {
        let settings: Vec<String> = settings.iter().map(|s| (*s).to_owned()).collect();
        let mut seen = Vec::new();
        run(game, &settings, Record(&mut seen))?;
        Ok(seen.join("\n"))
    }

    #[test]
    fn tasks_run_on_the_named_game_with_its_settings() {
        assert_eq!(record("Checkers", &[]).unwrap(), "checkers checkers fen");
        assert_eq!(
            record("cowboy_checkers", &[]).unwrap(),
            "nine_mens_morris nine_mens_morris position"
        );
        // Rules that match no preset: the game's own id is the family's.
        assert_eq!(
            record("nine_mens_morris", &["flying=none"]).unwrap(),
            "nine_mens_morris morris position"
        );
    }

    #[test]
    fn bad_games_and_settings_are_errors() {
        let err = record("chess", &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown game `chess`; valid games: checkers, nine_mens_morris"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
        // Settings are applied in order: an unknown option before a malformed one is reported.
        let err = record("shah", &["wings=2", "flying"]).unwrap_err();
        assert!(err.to_string().contains("`wings`"), "{err}");
        let err = record("shah", &["flying=4", "flying"]).unwrap_err();
        assert!(err.to_string().contains("name=value"), "{err}");
        let err = record("shah", &["flying=4"]).unwrap_err();
        assert!(err.to_string().starts_with("invalid rules: "), "{err}");
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn the_help_lists_every_id() {
        let help = game_help();
        assert!(
            help.contains("checkers, nine_mens_morris, cowboy_checkers"),
            "{help}"
        );
        assert!(help.contains("three_mens_morris"), "{help}");
    }
}
