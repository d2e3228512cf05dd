//! `perfectplay`: the command-line tool for perft, playing games and their rule options, and
//! endgame databases (solve, probe, verify, info), for English checkers and the morris family.
//!
//! The tool is this library's [`main_with_args`]: the `perfectplay` binary calls it with its
//! arguments, and the Python package calls the same function (its `perfectplay` console script
//! and `python -m perfectplay`), so both ways in are one program.

/// `eprintln!` that goes on where standard error cannot be written (`2>&1 | head` closed,
/// `2>/dev/full`): a message lost there is no reason to stop a command, and `eprintln!` would
/// panic, or, in a search's progress thread, leave an interrupted search running.
macro_rules! to_stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod check_output;
mod choice;
mod cli_game;
mod console;
mod db;
mod errors;
mod games;
mod list;
mod matches;
mod moves;
mod perft;
mod play;
mod players;
mod published;
mod rules;
mod settings;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::{Parser, Subcommand};

use crate::check_output::CheckOutput;
use crate::errors::CliError;
use crate::games::{Conversation, Streams};

/// Perfect play for English checkers and the morris family: move-path counts and games on the
/// command line.
#[derive(Parser, Debug)]
#[command(name = "perfectplay", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move paths of a given length (perft), timed, optionally checked.
    Perft(perft::PerftArgs),
    /// Play a game between random, human and perfect (tablebase) players.
    Play(play::PlayArgs),
    /// Play a match of several games between two players: colours kept, alternated or drawn
    /// by lot, an optional chess clock, a score table.
    Match(matches::MatchArgs),
    /// List a game's rule options and their defaults.
    Rules(rules::RulesArgs),
    /// List the games, with their aliases.
    Games,
    /// Build endgame databases by retrograde analysis (resumable).
    Solve(db::SolveArgs),
    /// Look up a position in the databases: its value, distance and every move's value.
    Probe(db::ProbeArgs),
    /// Value a placement-phase position (default: the start) by an alpha-beta search down to
    /// the moving-phase tables.
    Search(db::SearchArgs),
    /// Recheck every stored value against its successors; exit status 1 on any mismatch.
    Verify(db::VerifyArgs),
    /// Summarise the tables in a directory from their headers.
    Info(db::InfoArgs),
    /// Compress the tables of a directory (results and distances in separate files).
    Compress(db::CompressArgs),
    /// Enumerate the checkers database index by pieces and compare with the published counts.
    Positions(db::PositionsArgs),
}

/// Runs the tool on `args` (the program's name first, as in `std::env::args_os`) with the
/// process's standard streams, and returns its exit status: 0, 1 for a failed check or an
/// error, 2 for a usage error, 128 + the signal for a build or search stopped by SIGINT or
/// SIGTERM (its work saved).
pub fn main_with_args<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let status = u8::try_from(e.exit_code()).unwrap_or(2);
            return match e.print() {
                // Help that could not be written (`--help > /dev/full`) is no success; a
                // reader that left early (`--help | head`) is.
                Err(failed) if status == 0 && failed.kind() != io::ErrorKind::BrokenPipe => {
                    to_stderr!("perfectplay: error: input/output error: {failed}");
                    1
                }
                _ => status,
            };
        }
    };
    match run(&cli) {
        Ok(()) => 0,
        Err(e) if e.is_broken_pipe() => 0,
        Err(e) => {
            to_stderr!("perfectplay: error: {e}");
            e.exit_code()
        }
    }
}

/// [`games::converse`] with results to `out` and the conversation on standard error.
fn converse<A: Conversation>(
    game: &str,
    settings: &[String],
    args: &A,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let talk = &mut io::stderr();
    games::converse(game, settings, args, Streams { out, talk })
}

/// Runs the chosen subcommand with standard output and standard error.
fn run(cli: &Cli) -> Result<(), CliError> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // Checks run on to their verdict when the reader leaves early (`check_output`).
    match &cli.command {
        Command::Perft(args) if args.check => perft::run(args, &mut CheckOutput::new(&mut out)),
        Command::Verify(args) => db::run_verify(args, &mut CheckOutput::new(&mut out)),
        Command::Info(args) => db::run_info(args, &mut CheckOutput::new(&mut out)),
        Command::Positions(args) => db::run_positions(args, &mut CheckOutput::new(&mut out)),
        Command::Perft(args) => perft::run(args, &mut out),
        // Play and match talk with human players on standard error.
        Command::Play(args) => converse(&args.game, &args.setup.set, args, &mut out),
        Command::Match(args) => converse(&args.game, &args.setup.set, args, &mut out),
        Command::Rules(args) => rules::run(args, &mut out),
        Command::Games => list::run(&mut out),
        Command::Solve(args) => db::run_solve(args, &mut out),
        Command::Probe(args) => db::run_probe(args, &mut out),
        Command::Search(args) => db::run_search(args, &mut out),
        Command::Compress(args) => db::run_compress(args, &mut out),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;
    use crate::players::PlayerKind;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("perfectplay").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn perft_arguments() {
        let cli = parse(&["perft", "checkers", "--depth", "5", "--divide", "--check"]).unwrap();
        let Command::Perft(args) = cli.command else {
            panic!("not perft")
        };
        assert_eq!((args.game.as_str(), args.depth), ("checkers", 5));
        assert!(args.divide && args.check && !args.up_to && args.fen.is_none());
        let cli = parse(&[
            "perft", "shah", "-d", "2", "--set", "men=9", "--set", "flying=3",
        ]);
        let Command::Perft(args) = cli.unwrap().command else {
            panic!("not perft")
        };
        assert_eq!(args.set, ["men=9", "flying=3"]);
        assert!(
            parse(&["perft", "checkers"]).is_err(),
            "the depth is required"
        );
        assert!(
            parse(&["perft", "checkers", "-d", "0"]).is_err(),
            "depth 0 is refused"
        );
        assert!(parse(&["perft", "checkers", "-d", "3", "--divide", "--up-to"]).is_err());
    }

    #[test]
    fn games_and_help() {
        assert!(matches!(parse(&["games"]).unwrap().command, Command::Games));
        assert!(parse(&["games", "extra"]).is_err());
        let help = Cli::command()
            .find_subcommand_mut("perft")
            .unwrap()
            .render_help()
            .to_string();
        assert!(
            help.contains("checkers, nine_mens_morris, cowboy_checkers"),
            "{help}"
        );
    }

    #[test]
    fn play_arguments() {
        let cli = parse(&[
            "play",
            "checkers",
            "--black",
            "human",
            "--seed",
            "9",
            "--set",
            "ply_limit=10",
            "--set",
            "adjudication=true",
            "--move-time",
            "1.5",
            "--max-plies",
            "20",
            "-q",
        ])
        .unwrap();
        let Command::Play(args) = cli.command else {
            panic!("not play")
        };
        assert_eq!(
            (args.black, args.white),
            (PlayerKind::Human, PlayerKind::Random)
        );
        assert_eq!(args.setup.seed, 9);
        assert_eq!(args.setup.set, ["ply_limit=10", "adjudication=true"]);
        assert_eq!(
            args.setup.move_time,
            Some(std::time::Duration::from_millis(1500))
        );
        assert_eq!(args.max_plies, Some(20));
        assert!(args.quiet);
    }

    #[test]
    fn play_defaults() {
        let Command::Play(args) = parse(&["play", "checkers"]).unwrap().command else {
            panic!("not play")
        };
        assert_eq!(
            (args.black, args.white, args.setup.seed),
            (PlayerKind::Random, PlayerKind::Random, 1)
        );
        assert!(!args.quiet && args.setup.set.is_empty() && args.setup.move_time.is_none());
        assert!(parse(&["play", "checkers", "--white", "genius"]).is_err());
        assert!(parse(&["play", "checkers", "--move-time", "0"]).is_err());
    }
}
