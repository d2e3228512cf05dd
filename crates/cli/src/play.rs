//! `perfectplay play`: plays one game between random and human players and prints it.
//!
//! Standard output carries the game: the board after each ply (unless `--quiet`), one
//! `ply N color move` line per ply and the result. Prompts for human players and their input
//! errors go to standard error.

use std::fmt;
use std::io::Write;
use std::time::Duration;

use clap::Args;
use perfectplay_core::checkers::{Checkers, CheckersRules, Position};
use perfectplay_core::{ByColor, Color, GameState, Outcome};

use crate::console::Console;
use crate::errors::CliError;
use crate::games::GameId;
use crate::players::{Choice, Player, PlayerKind, QuitReason};
use crate::settings;

/// Arguments of `perfectplay play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The game: checkers.
    pub(crate) game: String,
    /// Who plays Black.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) black: PlayerKind,
    /// Who plays White.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) white: PlayerKind,
    /// Seed of the random players.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Start from this position (PDN FEN) instead of the start.
    #[arg(long, value_name = "FEN")]
    pub(crate) fen: Option<String>,
    /// Set a rule option (repeatable); `perfectplay rules checkers` lists them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
    /// Per-move time limit for human players: a late player forfeits the turn.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(crate) move_time: Option<Duration>,
    /// Stop after this many plies even if the game goes on.
    #[arg(long, value_name = "N")]
    pub(crate) max_plies: Option<u32>,
    /// Print only the moves and the result.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

impl PlayArgs {
    /// Who plays `color`.
    fn player(&self, color: Color) -> PlayerKind {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// Reads a positive number of seconds, like `5` or `0.5`.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, like 5 or 0.5, found `{text}`"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of seconds, found `{text}`"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

/// How the game run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The rules ended it.
    Over(Outcome),
    /// `--max-plies` stopped it after this many plies.
    Stopped(u32),
    /// A human quit or the input ended.
    Abandoned(QuitReason),
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Over(outcome) => write!(f, "{outcome}"),
            Ending::Stopped(plies) => write!(f, "stopped after {plies} plies (game not over)"),
            Ending::Abandoned(reason) => write!(f, "abandoned ({reason})"),
        }
    }
}

/// Plays the game: the record goes to `out`, the conversation with human players to `talk`.
pub(crate) fn run(
    args: &PlayArgs,
    out: &mut dyn Write,
    talk: &mut dyn Write,
) -> Result<(), CliError> {
    match GameId::parse(&args.game)? {
        GameId::Checkers => play_checkers(args, out, talk),
    }
}

fn play_checkers(
    args: &PlayArgs,
    out: &mut dyn Write,
    talk: &mut dyn Write,
) -> Result<(), CliError> {
    let mut rules = CheckersRules::default();
    settings::apply(&mut rules, &args.set)?;
    let game = Checkers::new(rules);
    let mut state = match &args.fen {
        Some(fen) => GameState::from_position(game, fen.parse::<Position>()?),
        None => GameState::new(game),
    };
    let mut players = ByColor::new_with(|c| Player::new(args.player(c), args.seed, c));
    let mut console = Console::new(args.move_time);

    if !args.quiet {
        let limit = args
            .move_time
            .map(|t| format!(", move time {} s", t.as_secs_f64()));
        writeln!(
            out,
            "checkers: black {}, white {}, seed {}{}",
            args.black.name(),
            args.white.name(),
            args.seed,
            limit.unwrap_or_default()
        )?;
        writeln!(out, "rules: {}", settings::summary(&rules))?;
        writeln!(out, "{}", state.position())?;
    }

    let ending = loop {
        if let Some(outcome) = state.outcome() {
            break Ending::Over(outcome);
        }
        if args.max_plies.is_some_and(|max| state.ply() >= max) {
            break Ending::Stopped(state.ply());
        }
        out.flush()?;
        let side = state.side_to_move();
        let ply = state.ply() + 1;
        match players[side].choose(&state, &mut console, talk)? {
            Choice::Move(mv) => {
                state.play(&mv)?;
                writeln!(out, "ply {ply} {side} {mv}")?;
            }
            Choice::Forfeit => {
                state.forfeit_turn()?;
                writeln!(out, "ply {ply} {side} forfeits the turn (time limit)")?;
            }
            Choice::Quit(reason) => break Ending::Abandoned(reason),
        }
        if !args.quiet {
            writeln!(out, "{}", state.position())?;
        }
    };

    writeln!(out, "result: {ending}")?;
    writeln!(out, "plies: {}", state.ply())?;
    writeln!(out, "final fen: {}", state.position().fen())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> PlayArgs {
        PlayArgs {
            game: "checkers".into(),
            black: PlayerKind::Random,
            white: PlayerKind::Random,
            seed: 1,
            fen: None,
            set: Vec::new(),
            move_time: None,
            max_plies: None,
            quiet: true,
        }
    }

    fn output(args: &PlayArgs) -> Result<String, CliError> {
        let mut out = Vec::new();
        run(args, &mut out, &mut Vec::new())?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn seconds_parse() {
        assert_eq!(parse_seconds("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_seconds(" 0.25 "), Ok(Duration::from_millis(250)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("inf").is_err());
        assert!(parse_seconds("soon").unwrap_err().contains("`soon`"));
    }

    #[test]
    fn random_games_repeat_with_the_seed() {
        let first = output(&PlayArgs { seed: 11, ..args() }).unwrap();
        assert_eq!(first, output(&PlayArgs { seed: 11, ..args() }).unwrap());
        assert!(first.starts_with("ply 1 black "), "{first}");
        assert!(first.contains("\nresult: "), "{first}");
        assert_ne!(first, output(&PlayArgs { seed: 12, ..args() }).unwrap());
    }

    #[test]
    fn ply_limit_with_adjudication() {
        let set = vec!["ply_limit=10".to_owned(), "adjudication=true".to_owned()];
        let text = output(&PlayArgs { set, ..args() }).unwrap();
        assert!(text.contains("(adjudication)\nplies: 10\n"), "{text}");
    }

    #[test]
    fn max_plies_stops_the_game() {
        let text = output(&PlayArgs {
            max_plies: Some(4),
            ..args()
        })
        .unwrap();
        assert!(
            text.contains("result: stopped after 4 plies (game not over)"),
            "{text}"
        );
        assert_eq!(text.lines().filter(|l| l.starts_with("ply ")).count(), 4);
    }

    #[test]
    fn a_finished_position_ends_at_once() {
        let fen = Some("B:W27:B".to_owned());
        let text = output(&PlayArgs { fen, ..args() }).unwrap();
        assert_eq!(
            text,
            "result: white wins (too few men left)\nplies: 0\nfinal fen: B:W27:B\n"
        );
        let fen = Some("W:W33:B1".to_owned());
        let err = output(&PlayArgs { fen, ..args() }).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn the_board_is_shown_unless_quiet() {
        let text = output(&PlayArgs {
            quiet: false,
            max_plies: Some(1),
            ..args()
        })
        .unwrap();
        assert!(
            text.starts_with("checkers: black random, white random, seed 1\n"),
            "{text}"
        );
        assert!(text.contains("black to move"), "{text}");
        assert!(text.contains("white to move"), "{text}");
    }
}
