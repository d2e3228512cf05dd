//! `perfectplay play`: plays one game between random, human and perfect players and prints it.
//!
//! A perfect player plays from endgame tables (`--db`, repeatable): the game must start in a
//! position the tables hold, and every subspace play can reach from there must have its
//! table (checked before the first move, the missing ones named), so that it never meets a
//! position it cannot value. That rules out the starts of checkers and of the large morris
//! games, whose placement phase the tables do not hold: start those with `--fen` in an
//! ending (the small morris games' whole-game builds hold their starts). With tables given, a
//! human player can type `values` for every legal move's value.
//!
//! Standard output carries the game: the board after each ply (unless `--quiet`), one
//! `ply N color move` line per ply and the result, the number of plies and the final position.
//! Prompts for human players and their input errors go to standard error. The same loop plays
//! every game, through [`CliGame`].

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use clap::Args;
use perfectplay_core::{ByColor, Color, GameState, Outcome};
use perfectplay_solver::Domain;

use crate::choice::{Choice, QuitReason};
use crate::cli_game::CliGame;
use crate::console::Console;
use crate::errors::CliError;
use crate::games::{self, Conversation, GameId, Streams};
use crate::players::{Player, PlayerKind, Tables};
use crate::settings;

/// Arguments of `perfectplay play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Who plays Black.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) black: PlayerKind,
    /// Who plays White.
    #[arg(long, value_enum, value_name = "PLAYER", default_value_t = PlayerKind::Random)]
    pub(crate) white: PlayerKind,
    #[command(flatten)]
    pub(crate) setup: GameSetup,
    /// Stop after this many plies even if the game goes on.
    #[arg(long, value_name = "N")]
    pub(crate) max_plies: Option<u32>,
    /// Touch-move for human players (Construction Checkers): name the piece first, then its
    /// move; a piece named that can be played must be moved, on pain of losing the game, and
    /// naming a piece that cannot be played is warned once, then loses the game (unless said
    /// first with `adjust POINT`).
    #[arg(long)]
    pub(crate) touch_move: bool,
    /// Print only the moves and the result.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Append the game to this file as a game record (PDN for checkers, the same layout for
    /// morris), readable by `perfectplay.pdn` and other PDN tools. A file that holds games
    /// must hold records of this game and rules.
    #[arg(long, value_name = "FILE")]
    pub(crate) save: Option<PathBuf>,
}

/// The options `play` and `match` share: the rules, the starting position, the tables, the seed
/// and the human players' time per move.
#[derive(Args, Debug)]
pub(crate) struct GameSetup {
    /// Seed of the random players and of the perfect players' choice among equal moves (and of
    /// a match's lots).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Endgame tables for perfect players and the `values` command (repeatable: searched in
    /// order).
    #[arg(long, value_name = "DIR")]
    pub(crate) db: Vec<PathBuf>,
    /// Start from this position instead of the start (every game of a match): a PDN FEN for
    /// checkers, a position string for the morris games.
    #[arg(long, value_name = "FEN")]
    pub(crate) fen: Option<String>,
    /// Set a rule option (repeatable); `perfectplay rules GAME` lists them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
    /// Per-move time limit for human players: a late player forfeits the turn.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(crate) move_time: Option<Duration>,
}

impl Default for GameSetup {
    /// The standard rules from the start, no tables, seed 1, no time limit: what the command
    /// line gives when none of these options is named.
    fn default() -> Self {
        Self {
            seed: 1,
            db: Vec::new(),
            fen: None,
            set: Vec::new(),
            move_time: None,
        }
    }
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

/// The longest time limit taken (about 31 years): far past any game, and far from where a
/// deadline would pass the end of the system's clock.
pub(crate) const MAX_TIME_LIMIT: Duration = Duration::from_secs(1_000_000_000);

/// Reads a positive number of seconds, like `5` or `0.5`.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    parse_time(text, "seconds", "5 or 0.5", 1)
}

/// Reads a positive time in `unit`s of `unit_secs` seconds each, up to [`MAX_TIME_LIMIT`];
/// `example` shows one in the message of a text that is no number.
pub(crate) fn parse_time(
    text: &str,
    unit: &str,
    example: &str,
    unit_secs: u32,
) -> Result<Duration, String> {
    let count: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of {unit}, like {example}, found `{text}`"))?;
    if !(count.is_finite() && count > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of {unit}, found `{text}`"
        ));
    }
    let most = MAX_TIME_LIMIT.as_secs() / u64::from(unit_secs);
    if count > most as f64 {
        return Err(format!(
            "the time limit must be at most {most} {unit} (about 31 years), found `{text}`"
        ));
    }
    let limit =
        Duration::try_from_secs_f64(count * f64::from(unit_secs)).map_err(|e| e.to_string())?;
    // A limit that rounds to nothing would forfeit every turn at once.
    if limit < Duration::from_millis(1) {
        return Err(format!(
            "the time limit must be at least a millisecond, found `{text}` {unit}"
        ));
    }
    Ok(limit)
}

/// How the game run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The rules ended it.
    Over(Outcome),
    /// `--max-plies` stopped it after this many plies.
    Stopped(u32),
    /// A human quit or the input ended.
    Abandoned(QuitReason),
    /// This side's clock ran out: it loses.
    Flag(Color),
    /// This side broke the touch-move rule: it loses.
    TouchMove(Color),
}

impl Ending {
    /// The winner, where the game was decided: by the rules or by a clock.
    pub(crate) fn winner(self) -> Option<Color> {
        match self {
            Ending::Over(outcome) => outcome.winner,
            Ending::Flag(loser) | Ending::TouchMove(loser) => Some(!loser),
            Ending::Stopped(_) | Ending::Abandoned(_) => None,
        }
    }

    /// Whether the game reached a result (a win, loss or draw), rather than being cut short.
    pub(crate) fn is_decided(self) -> bool {
        matches!(
            self,
            Ending::Over(_) | Ending::Flag(_) | Ending::TouchMove(_)
        )
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Over(outcome) => write!(f, "{outcome}"),
            Ending::Stopped(plies) => write!(f, "stopped after {plies} plies (game not over)"),
            Ending::Abandoned(reason) => write!(f, "abandoned ({reason})"),
            Ending::Flag(loser) => write!(f, "{} wins ({loser}'s clock ran out)", !*loser),
            Ending::TouchMove(loser) => {
                write!(f, "{} wins ({loser} broke the touch-move rule)", !*loser)
            }
        }
    }
}

/// A chess clock: the time each side has left for the whole game. A side's thinking time is
/// charged after each of its turns; a side whose time is gone loses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    left: ByColor<Duration>,
}

impl Clock {
    /// Both sides start with `each`.
    pub(crate) fn new(each: Duration) -> Clock {
        Clock {
            left: ByColor {
                black: each,
                white: each,
            },
        }
    }

    /// What `side` has left.
    pub(crate) fn left(&self, side: Color) -> Duration {
        self.left[side]
    }

    /// Charges `spent` to `side`; true if its time ran out.
    pub(crate) fn charge(&mut self, side: Color, spent: Duration) -> bool {
        self.left[side] = self.left[side].saturating_sub(spent);
        self.left[side].is_zero()
    }
}

/// How [`play_out`] plays a game.
pub(crate) struct LoopOptions<'a> {
    /// Stop after this many plies.
    pub(crate) max_plies: Option<u32>,
    /// Print the board after each ply.
    pub(crate) boards: bool,
    /// The chess clock, if the game has one.
    pub(crate) clock: Option<&'a mut Clock>,
}

impl Conversation for PlayArgs {
    fn run<G: CliGame>(&self, id: GameId, game: G, io: Streams<'_>) -> Result<(), CliError> {
        play(id, game, self, io.out, io.talk)
    }
}

fn play<G: CliGame>(
    id: GameId,
    game: G,
    args: &PlayArgs,
    out: &mut dyn Write,
    talk: &mut dyn Write,
) -> Result<(), CliError> {
    let first = game.first_to_move();
    let mut state = starting_state(game, args.setup.fen.as_deref())?;
    let any_perfect = [Color::Black, Color::White]
        .into_iter()
        .any(|c| args.player(c) == PlayerKind::Perfect);
    let tables = open_tables(game, &args.setup.db, any_perfect, &state)?;
    let mut players = ByColor {
        black: Player::new(
            args.player(Color::Black),
            args.setup.seed,
            Color::Black,
            tables.as_ref(),
        )?,
        white: Player::new(
            args.player(Color::White),
            args.setup.seed,
            Color::White,
            tables.as_ref(),
        )?,
    };
    // Opened before the game, once everything else is checked, so that a path that cannot be
    // written is refused before anyone plays rather than after (a human's game lost), and a
    // request refused for another reason leaves no empty file.
    let mut record_file = args
        .save
        .as_deref()
        .map(|path| open_record(path, state.game()).map(|file| (path, file)))
        .transpose()?;
    let mut console = Console::new(args.setup.move_time);
    console.touch_move(args.touch_move);

    if !args.quiet {
        let limit = args
            .setup
            .move_time
            .map(|t| format!(", move time {} s", t.as_secs_f64()));
        writeln!(
            out,
            "{}: {first} {}, {} {}, seed {}{}",
            id.name(),
            args.player(first).name(),
            !first,
            args.player(!first).name(),
            args.setup.seed,
            limit.unwrap_or_default()
        )?;
        writeln!(out, "rules: {}", settings::summary(state.game().rule_set()))?;
        writeln!(out, "{}", state.game().diagram(state.position()))?;
    }

    let options = LoopOptions {
        max_plies: args.max_plies,
        boards: !args.quiet,
        clock: None,
    };
    let ending = play_out(
        &mut state,
        &mut players,
        &mut console,
        tables.as_ref(),
        options,
        out,
        talk,
    )?;

    let no_progress = state.no_progress_plies();
    writeln!(out, "result: {ending}")?;
    writeln!(out, "plies: {}", state.ply())?;
    writeln!(
        out,
        "final {}: {}",
        G::POSITION_NAME,
        state.game().write_position(state.position(), no_progress)
    )?;
    out.flush()?;
    // After the result is out, so that a write that fails still leaves the game on screen.
    if let Some((path, file)) = &mut record_file {
        save_record(path, file, &state, args, id).map_err(|source| CliError::Save {
            path: path.to_owned(),
            source,
            played: true,
        })?;
    }
    Ok(())
}

/// The game from its start, or from the position string `fen` (the move rule going on
/// counting from what it records).
pub(crate) fn starting_state<G: CliGame>(
    game: G,
    fen: Option<&str>,
) -> Result<GameState<G>, CliError> {
    Ok(match fen {
        Some(fen) => {
            let (pos, plies) = game.read_position(fen).map_err(Into::<CliError>::into)?;
            GameState::from_position_after(game, pos, plies)
        }
        None => GameState::new(game),
    })
}

/// The tables in `db`, if any are given; with a perfect player among the players, checked to
/// hold `start` and every subspace play can reach from it.
pub(crate) fn open_tables<G: CliGame>(
    game: G,
    db: &[PathBuf],
    any_perfect: bool,
    start: &GameState<G>,
) -> Result<Option<Tables<G>>, CliError> {
    if db.is_empty() {
        return Ok(None);
    }
    let tables = Rc::new(game.open_tables(db)?);
    if any_perfect {
        check_covers::<G>(&tables, start.position())?;
    }
    Ok(Some(tables))
}

/// Plays `state` on until it ends, `max_plies` stop it, a human quits or a clock runs out:
/// one `ply N color move` line per ply to `out` (and the board, with `boards`), the
/// conversation with human players to `talk`.
pub(crate) fn play_out<G: CliGame>(
    state: &mut GameState<G>,
    players: &mut ByColor<Player<G>>,
    console: &mut Console,
    tables: Option<&Tables<G>>,
    mut options: LoopOptions<'_>,
    out: &mut dyn Write,
    talk: &mut dyn Write,
) -> Result<Ending, CliError> {
    loop {
        if let Some(outcome) = state.outcome() {
            return Ok(Ending::Over(outcome));
        }
        if options.max_plies.is_some_and(|max| state.ply() >= max) {
            return Ok(Ending::Stopped(state.ply()));
        }
        out.flush()?;
        let side = state.side_to_move();
        let ply = state.ply() + 1;
        console.limit_to(options.clock.as_ref().map(|c| c.left(side)));
        let thinking = std::time::Instant::now();
        let choice = players[side].choose(state, console, tables, talk)?;
        if let Some(clock) = options.clock.as_deref_mut() {
            if clock.charge(side, thinking.elapsed()) {
                return Ok(Ending::Flag(side));
            }
        }
        match choice {
            Choice::Move(mv) => {
                state.play(&mv)?;
                writeln!(out, "ply {ply} {side} {mv}")?;
            }
            Choice::Forfeit => {
                state.forfeit_turn()?;
                writeln!(out, "ply {ply} {side} forfeits the turn (time limit)")?;
            }
            Choice::Quit(reason) => return Ok(Ending::Abandoned(reason)),
            Choice::BreaksTouchMove => return Ok(Ending::TouchMove(side)),
        }
        if options.boards {
            writeln!(out, "{}", state.game().diagram(state.position()))?;
        }
    }
}

/// The record file `path`, opened to append to (created if missing). A regular file that
/// holds games already must read as records of `game`, so that the game appended leaves it
/// readable; anything else (a pipe, a terminal, `/dev/stdout`) is written to unread, as a
/// read there would wait for input that never comes.
fn open_record<G: CliGame>(path: &std::path::Path, game: &G) -> Result<std::fs::File, CliError> {
    let failed = |source| CliError::Save {
        path: path.to_owned(),
        source,
        played: false,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    if file.metadata().map_err(failed)?.is_file() {
        let mixed = |why: String| CliError::SaveMixed {
            path: path.to_owned(),
            why,
        };
        // Read under a shared lock, so that a record another save is writing, or taking back,
        // is not read half made.
        let locked = lock_record(&file, path, Lock::Shared);
        let bytes = std::fs::read(path);
        if locked {
            let _ = file.unlock();
        }
        let bytes = bytes.map_err(failed)?;
        let text = String::from_utf8(bytes).map_err(|e| mixed(format!("not UTF-8 text: {e}")))?;
        perfectplay_core::record::read_records(game, &text).map_err(|e| mixed(e.to_string()))?;
    }
    Ok(file)
}

/// How a record file is locked: shared to read it, exclusive to write to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lock {
    Shared,
    Exclusive,
}

/// Takes the advisory lock on the record file `file` at `path`; whether it is held. While
/// another save holds the file it waits, saying so; where the lock cannot be had at all (a
/// file system without locks, as some network mounts are) it goes on without, saying so,
/// rather than lose the game.
fn lock_record(file: &std::fs::File, path: &std::path::Path, lock: Lock) -> bool {
    let attempt = match lock {
        Lock::Shared => file.try_lock_shared(),
        Lock::Exclusive => file.try_lock(),
    };
    let failed = match attempt {
        Ok(()) => return true,
        Err(std::fs::TryLockError::WouldBlock) => {
            to_stderr!("waiting for another save to {} to finish", path.display());
            let waited = match lock {
                Lock::Shared => file.lock_shared(),
                Lock::Exclusive => file.lock(),
            };
            match waited {
                Ok(()) => return true,
                Err(e) => e,
            }
        }
        Err(std::fs::TryLockError::Error(e)) => e,
    };
    to_stderr!(
        "cannot lock {} ({failed}): going on without the lock",
        path.display()
    );
    false
}

/// Appends `state` to the record `file`, a blank line after any game already there. A game
/// abandoned or stopped before its end has the result `*`.
fn save_record<G: CliGame>(
    path: &std::path::Path,
    file: &mut std::fs::File,
    state: &GameState<G>,
    args: &PlayArgs,
    id: GameId,
) -> io::Result<()> {
    use std::io::Seek;
    let player = |c: Color| format!("perfectplay {}", args.player(c).name());
    let tags = vec![
        (
            "Event".to_owned(),
            format!("perfectplay play {}", id.name()),
        ),
        ("Date".to_owned(), today()),
        ("Black".to_owned(), player(Color::Black)),
        ("White".to_owned(), player(Color::White)),
    ];
    let text = perfectplay_core::record::write_record(state, &tags, None);
    let regular = file.metadata().is_ok_and(|m| m.is_file());
    // Games saved to one file by several players at once: each record is written, or cut
    // back, whole while the others wait, so that a cut never takes a game another process
    // appended meanwhile. The lock is advisory: writers other than `play --save` are not held
    // back by it.
    let locked = regular && lock_record(file, path, Lock::Exclusive);
    let end = file.seek(std::io::SeekFrom::End(0))?;
    let record = if end > 0 { format!("\n{text}") } else { text };
    let written = file
        .write_all(record.as_bytes())
        .and_then(|()| file.flush());
    if written.is_err() && regular {
        // A record cut short (a full disk) would leave a file no reader reads whole, and every
        // later --save to it refused: the file is cut back to the games it held.
        let _ = file.set_len(end);
    }
    if locked {
        // Closing the file would release the lock too; a failure here changes nothing saved.
        let _ = file.unlock();
    }
    written
}

/// Today's date (UTC) as PDN writes dates: `YYYY.MM.DD`.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    civil_date(days)
}

/// The date `days` after 1970-01-01 (proleptic Gregorian calendar) as `YYYY.MM.DD`.
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Checks that `tables` hold `pos` and every subspace play can reach from it, so that a
/// perfect player never meets a position it cannot value.
fn check_covers<G: CliGame>(tables: &Tables<G>, pos: &G::Position) -> Result<(), CliError> {
    let domain = tables.domain();
    let start = domain.locate(pos).map(|(key, _)| key).map_err(|e| {
        CliError::PerfectPlayer(format!(
            "a perfect player needs the game's position in the tables, which do not hold it \
             ({e}); start from an ending with --fen"
        ))
    })?;
    Ok(tables.check_covers(start)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> PlayArgs {
        PlayArgs {
            game: "checkers".into(),
            black: PlayerKind::Random,
            white: PlayerKind::Random,
            setup: GameSetup::default(),
            save: None,
            max_plies: None,
            quiet: true,
            touch_move: false,
        }
    }

    /// The default arguments with the random players seeded by `seed`.
    fn seeded(seed: u64) -> PlayArgs {
        PlayArgs {
            setup: GameSetup {
                seed,
                ..GameSetup::default()
            },
            ..args()
        }
    }

    fn output(args: &PlayArgs) -> Result<String, CliError> {
        games::converse_quietly(&args.game, &args.setup.set, args)
    }

    #[test]
    fn seconds_parse() {
        assert_eq!(parse_seconds("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_seconds(" 0.25 "), Ok(Duration::from_millis(250)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("inf").is_err());
        assert!(parse_seconds("soon").unwrap_err().contains("`soon`"));
        assert_eq!(parse_seconds("1e9"), Ok(MAX_TIME_LIMIT));
        assert_eq!(parse_seconds("0.001"), Ok(Duration::from_millis(1)));
        for tiny in ["1e-12", "0.0009"] {
            assert!(parse_seconds(tiny)
                .unwrap_err()
                .contains("at least a millisecond"));
        }
        for past in ["1.0000001e9", "9.3e18", "1.8e19", "1e300"] {
            assert!(
                parse_seconds(past)
                    .unwrap_err()
                    .contains("at most 1000000000 seconds"),
                "{past}"
            );
        }
    }

    #[test]
    fn random_games_repeat_with_the_seed() {
        let first = output(&seeded(11)).unwrap();
        assert_eq!(first, output(&seeded(11)).unwrap());
        assert!(first.starts_with("ply 1 black "), "{first}");
        assert!(first.contains("\nresult: "), "{first}");
        assert_ne!(first, output(&seeded(12)).unwrap());
    }

    #[test]
    fn ply_limit_with_adjudication() {
        let set = vec!["ply_limit=10".to_owned(), "adjudication=true".to_owned()];
        let text = output(&PlayArgs {
            setup: GameSetup {
                set,
                ..GameSetup::default()
            },
            ..args()
        })
        .unwrap();
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
        let text = output(&PlayArgs {
            setup: GameSetup {
                fen,
                ..GameSetup::default()
            },
            ..args()
        })
        .unwrap();
        assert_eq!(
            text,
            "result: white wins (too few men left)\nplies: 0\nfinal fen: B:W27:B\n"
        );
        let fen = Some("W:W33:B1".to_owned());
        let err = output(&PlayArgs {
            setup: GameSetup {
                fen,
                ..GameSetup::default()
            },
            ..args()
        })
        .unwrap_err();
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

    fn morris(game: &str) -> PlayArgs {
        PlayArgs {
            game: game.into(),
            ..args()
        }
    }

    #[test]
    fn every_morris_preset_plays() {
        for preset in perfectplay_core::morris::MorrisRules::PRESETS {
            let text = output(&PlayArgs {
                max_plies: Some(60),
                ..morris(preset.id)
            })
            .unwrap();
            assert!(text.starts_with("ply 1 white "), "{}: {text}", preset.id);
            assert!(text.contains("\nresult: "), "{}: {text}", preset.id);
            assert!(text.contains("\nfinal position: "), "{}: {text}", preset.id);
        }
    }

    #[test]
    fn morris_board_header_and_position() {
        let text = output(&PlayArgs {
            quiet: false,
            max_plies: Some(2),
            setup: GameSetup {
                seed: 4,
                ..GameSetup::default()
            },
            ..morris("cowboy_checkers")
        })
        .unwrap();
        assert!(
            text.starts_with(
                "nine_mens_morris: white random, black random, seed 4\nrules: board=24 "
            ),
            "{text}"
        );
        assert!(text.contains("\n7 .-----------.-----------.\n"), "{text}");
        assert!(
            text.contains("in hand: white 8, black 9; black to move"),
            "{text}"
        );
        assert!(text.contains("\nfinal position: "), "{text}");
        assert!(text.trim_end().ends_with(" w 8 8 0 - -"), "{text}");
    }

    #[test]
    fn morris_start_position_and_counter() {
        // A placement is progress: the counter starts again.
        let text = output(&PlayArgs {
            max_plies: Some(1),
            setup: GameSetup {
                fen: Some("WW./.../BB. w 1 1 4".to_owned()),
                ..GameSetup::default()
            },
            ..morris("three_mens_morris")
        })
        .unwrap();
        assert!(text.contains(" b 0 1 0 - -\n"), "{text}");
        // A slide is not: the counter runs on from the position string's.
        let text = output(&PlayArgs {
            max_plies: Some(1),
            setup: GameSetup {
                fen: Some("WWB/B.W/B.. w 0 0 5".to_owned()),
                ..GameSetup::default()
            },
            ..morris("three_mens_morris")
        })
        .unwrap();
        assert!(text.contains(" b 0 0 6 - -\n"), "{text}");
        let text = output(&PlayArgs {
            max_plies: Some(0),
            setup: GameSetup {
                fen: Some(".../.../.../....../.../.../... w 9 9 7".to_owned()),
                ..GameSetup::default()
            },
            ..morris("nine_mens_morris")
        })
        .unwrap();
        assert!(text.ends_with(" w 9 9 7 - -\n"), "{text}");
        let err = output(&PlayArgs {
            setup: GameSetup {
                fen: Some("WWW/.../... w 9 9".to_owned()),
                ..GameSetup::default()
            },
            ..morris("nine_mens_morris")
        })
        .unwrap_err();
        assert!(
            err.to_string().starts_with("invalid morris position"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 2);
    }

    use perfectplay_solver::Tabled;

    /// Three Men's Morris solved whole into a new directory.
    fn three_tables() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let game = perfectplay_core::morris::Morris::preset("three_mens_morris").unwrap();
        let domain = game.domain().unwrap();
        let start = domain.start_key();
        perfectplay_solver::solve(domain, dir.path(), &[start], &Default::default()).unwrap();
        dir
    }

    #[test]
    fn perfect_players_win_what_the_tables_say() {
        let dir = three_tables();
        let perfect = |black, white, seed| PlayArgs {
            black,
            white,
            setup: GameSetup {
                seed,
                db: vec![dir.path().to_owned()],
                ..GameSetup::default()
            },
            ..morris("three_mens_morris")
        };
        // The first player (White) wins the start in nine plies, against anyone.
        let text = output(&perfect(PlayerKind::Perfect, PlayerKind::Perfect, 1)).unwrap();
        assert!(text.contains("result: white wins"), "{text}");
        assert!(text.contains("plies: 9\n"), "{text}");
        for seed in 0..6 {
            let text = output(&perfect(PlayerKind::Random, PlayerKind::Perfect, seed)).unwrap();
            assert!(text.contains("result: white wins"), "seed {seed}: {text}");
        }
    }

    #[test]
    fn perfect_players_need_tables_that_hold_the_game() {
        let err = output(&PlayArgs {
            white: PlayerKind::Perfect,
            ..args()
        })
        .unwrap_err();
        assert!(err.to_string().contains("--white perfect"), "{err}");
        assert_eq!(err.exit_code(), 2);
        let dir = three_tables();
        // Checkers from the start: no table holds 24 pieces.
        let empty = tempfile::tempdir().unwrap();
        let err = output(&PlayArgs {
            black: PlayerKind::Perfect,
            setup: GameSetup {
                db: vec![empty.path().to_owned()],
                ..GameSetup::default()
            },
            ..args()
        })
        .unwrap_err();
        assert!(err.to_string().contains("--fen"), "{err}");
        // A morris ending whose tables are missing, named.
        let err = output(&PlayArgs {
            white: PlayerKind::Perfect,
            setup: GameSetup {
                db: vec![empty.path().to_owned()],
                fen: Some("WWW/.../.../B...../B.B/.../... b 0 0".to_owned()),
                ..GameSetup::default()
            },
            ..morris("nine_mens_morris")
        })
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("needs the tables of 1 subspace missing from"),
            "{err}"
        );
        assert!(err.to_string().ends_with(": 3-3"), "{err}");
        // The values a human with tables asks for.
        let game = perfectplay_core::morris::Morris::preset("three_mens_morris").unwrap();
        let tables: Tables<perfectplay_core::morris::Morris> =
            Rc::new(game.open_tables(&[dir.path()]).unwrap());
        let text = crate::players::move_values::<perfectplay_core::morris::Morris>(
            &tables,
            &perfectplay_core::Game::start_position(&game),
        );
        assert!(text.starts_with("move values: "), "{text}");
        assert!(text.contains("win in 9"), "{text}");
    }

    #[test]
    fn saves_refuse_a_file_of_another_game_before_playing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        let save = |game: PlayArgs, set: &[&str]| {
            output(&PlayArgs {
                save: Some(path.clone()),
                max_plies: Some(5),
                setup: GameSetup {
                    set: set.iter().map(|s| (*s).to_owned()).collect(),
                    ..GameSetup::default()
                },
                ..game
            })
        };
        save(morris("nine_mens_morris"), &[]).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        for (game, set) in [
            (args(), &[][..]),
            (morris("twelve_mens_morris"), &[][..]),
            (morris("nine_mens_morris"), &["flying=none"][..]),
        ] {
            let err = save(game, set).unwrap_err();
            assert!(matches!(err, CliError::SaveMixed { .. }), "{err}");
            assert_eq!(err.exit_code(), 2);
            let text = err.to_string();
            assert!(text.contains("save to another file"), "{text}");
            assert!(
                text.contains("game 1: a record of nine_mens_morris"),
                "{text}"
            );
            assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        }
        // A byte-order mark, line ends of two bytes and comments are records' own; bytes
        // that are no text are refused by name.
        std::fs::write(
            &path,
            format!("\u{feff}{{a comment}}\r\n{}", before.replace('\n', "\r\n")),
        )
        .unwrap();
        save(morris("nine_mens_morris"), &[]).unwrap();
        std::fs::write(&path, b"[Event \"caf\xe9\"]\n*\n").unwrap();
        let err = save(morris("nine_mens_morris"), &[]).unwrap_err();
        assert!(err.to_string().contains("not UTF-8 text"), "{err}");
        // What is not a regular file is written to unread (a read from a pipe or a terminal
        // would wait for input).
        if cfg!(unix) {
            output(&PlayArgs {
                save: Some("/dev/null".into()),
                max_plies: Some(3),
                ..args()
            })
            .unwrap();
        }
        // Text that is no record is refused too, and left as it was.
        std::fs::write(&path, "not a game").unwrap();
        let err = save(morris("nine_mens_morris"), &[]).unwrap_err();
        assert!(
            err.to_string()
                .contains("`not` is not a point of this board"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "not a game");
        // The same game and rules append.
        std::fs::write(&path, &before).unwrap();
        save(morris("nine_mens_morris"), &[]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let game = perfectplay_core::morris::Morris::preset("nine_mens_morris").unwrap();
        assert_eq!(
            perfectplay_core::record::read_records(&game, &text)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn saved_games_read_back_as_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        for seed in [1, 2] {
            output(&PlayArgs {
                save: Some(path.clone()),
                setup: GameSetup {
                    seed,
                    ..GameSetup::default()
                },
                ..args()
            })
            .unwrap();
        }
        output(&PlayArgs {
            max_plies: Some(7),
            save: Some(path.clone()),
            ..args()
        })
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let game = perfectplay_core::checkers::Checkers::default();
        let records = perfectplay_core::record::read_records(&game, &text).unwrap();
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].tag("Black"), Some("perfectplay random"));
        assert_eq!(records[2].state.ply(), 7);
        assert_eq!(
            records[2].result,
            perfectplay_core::record::RecordResult::Unknown
        );
        let first = output(&seeded(1)).unwrap();
        let plies = first.lines().filter(|l| l.starts_with("ply ")).count();
        assert_eq!(records[0].state.ply() as usize, plies);
        let date = today();
        assert!(
            date.len() == 10 && date.starts_with("20") && &date[4..5] == ".",
            "{date}"
        );
    }
}
