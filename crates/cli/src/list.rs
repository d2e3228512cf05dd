//! `perfectplay games`: every game id, with its aliases and a line about it.

use std::io::Write;

use crate::errors::CliError;
use crate::games::GameId;

/// Prints one line per game: the id, its summary and any aliases.
pub(crate) fn run(out: &mut dyn Write) -> Result<(), CliError> {
    let width = GameId::all().map(|g| g.name().len()).max().unwrap_or(0);
    for id in GameId::all() {
        write!(out, "{:<width$}  {}", id.name(), id.summary())?;
        if !id.aliases().is_empty() {
            write!(out, " (also {})", id.aliases().join(", "))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_each_game_once_with_aliases() {
        let mut out = Vec::new();
        run(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), GameId::all().count(), "{text}");
        assert!(text.starts_with("checkers "), "{text}");
        let nine = text
            .lines()
            .find(|l| l.starts_with("nine_mens_morris "))
            .expect("a line for nine_mens_morris");
        assert!(nine.ends_with("(also cowboy_checkers)"), "{text}");
        assert!(text.contains("\nshah "), "{text}");
    }
}
