//! `perfectplay rules`: the rule options of a game and their defaults.

use std::io::Write;

use clap::Args;
use perfectplay_core::checkers::CheckersRules;

use crate::errors::CliError;
use crate::games::GameId;
use crate::settings;

/// Arguments of `perfectplay rules`.
#[derive(Args, Debug)]
pub(crate) struct RulesArgs {
    /// The game: checkers.
    pub(crate) game: String,
}

/// Prints the options (name, expected values, help), then the defaults as `name=value`.
pub(crate) fn run(args: &RulesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match GameId::parse(&args.game)? {
        GameId::Checkers => {
            writeln!(
                out,
                "rule options for checkers (set with `play --set name=value`):"
            )?;
            let options = CheckersRules::OPTIONS;
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
            for (name, value) in settings::values(&CheckersRules::default()) {
                writeln!(out, "  {name}={value}")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_option_and_default() {
        let mut out = Vec::new();
        run(
            &RulesArgs {
                game: "checkers".into(),
            },
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        for o in CheckersRules::OPTIONS {
            assert!(text.contains(o.name) && text.contains(o.help), "{text}");
        }
        assert!(text.contains("  ply_limit=1000\n"), "{text}");
        assert!(text.contains("  first_player=black\n"), "{text}");
    }

    #[test]
    fn unknown_game_is_an_error() {
        let err = run(&RulesArgs { game: "go".into() }, &mut Vec::new()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }
}
