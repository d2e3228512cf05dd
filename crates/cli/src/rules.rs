//! `perfectplay rules`: a game's rule options and their values in that game.

use std::io::Write;

use clap::Args;

use crate::errors::CliError;
use crate::games::{self, GameId};

/// Arguments of `perfectplay rules`.
#[derive(Args, Debug)]
pub(crate) struct RulesArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
}

/// Prints the game and its summary, the options (name, expected values, help), then the game's
/// values as `name=value`.
pub(crate) fn run(args: &RulesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let id = GameId::parse(&args.game)?;
    let game = id.load::<&str, &str>(&[])?;
    write!(out, "{}", id.name())?;
    if !id.aliases().is_empty() {
        write!(out, " (also {})", id.aliases().join(", "))?;
    }
    writeln!(out, ": {}", id.summary())?;
    writeln!(
        out,
        "rule options (set with `--set name=value` on play, match, perft, solve, probe, search and verify):"
    )?;
    let options = id.rule_options();
    let name_width = options.iter().map(|o| o.name.len()).max().unwrap_or(0);
    let expected_width = options.iter().map(|o| o.expected.len()).max().unwrap_or(0);
    for o in options {
        writeln!(
            out,
            "  {:<name_width$}  {:<expected_width$}  {}",
            o.name, o.expected, o.help
        )?;
    }
    writeln!(out, "defaults:")?;
    for (name, value) in game.settings() {
        writeln!(out, "  {name}={value}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::CheckersRules;
    use perfectplay_core::morris::MorrisRules;

    use super::*;

    fn output(game: &str) -> Result<String, CliError> {
        let mut out = Vec::new();
        run(&RulesArgs { game: game.into() }, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn lists_every_option_and_default() {
        let text = output("checkers").unwrap();
        assert!(text.starts_with("checkers: English checkers"), "{text}");
        for o in CheckersRules::OPTIONS {
            assert!(text.contains(o.name) && text.contains(o.help), "{text}");
        }
        assert!(text.contains("  ply_limit=1000\n"), "{text}");
        assert!(text.contains("  first_player=black\n"), "{text}");
    }

    #[test]
    fn morris_presets_show_their_values() {
        let text = output("cowboy_checkers").unwrap();
        assert!(
            text.starts_with("nine_mens_morris (also cowboy_checkers): 9 men, flying at 3"),
            "{text}"
        );
        for o in MorrisRules::OPTIONS {
            assert!(text.contains(o.name) && text.contains(o.help), "{text}");
        }
        assert!(text.contains("  flying=3\n  removal=standard\n"), "{text}");
        let text = output("shah").unwrap();
        assert!(text.contains("  trapped=passes\n"), "{text}");
        assert!(text.contains("  no_reforming=true\n"), "{text}");
    }

    #[test]
    fn unknown_game_is_an_error() {
        let err = output("go").unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
