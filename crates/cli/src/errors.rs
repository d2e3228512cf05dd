//! `CliError`: everything that can stop a command, with its exit code.

use std::io;

use perfectplay_core::checkers::CheckersFenError;
use perfectplay_core::morris::fen::MorrisFenError;
use perfectplay_core::morris::RulesError;
use perfectplay_core::registry::{LoadError, UnknownGameError};
use perfectplay_core::{PlayError, RuleOptionError};
use thiserror::Error;

/// Why a command failed. The message is one line; [`CliError::exit_code`] says how to exit.
#[derive(Debug, Error)]
pub(crate) enum CliError {
    /// The game id names no game.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGameError),
    /// A checkers FEN string that could not be read.
    #[error(transparent)]
    Fen(#[from] CheckersFenError),
    /// A morris position string that could not be read.
    #[error(transparent)]
    MorrisFen(#[from] MorrisFenError),
    /// A rule option that could not be set.
    #[error(transparent)]
    RuleOption(#[from] RuleOptionError),
    /// Rule settings that cannot be played together.
    #[error("invalid rules: {0}")]
    Rules(#[from] RulesError),
    /// A game that could not be loaded for a reason the variants above do not name.
    #[error(transparent)]
    Load(LoadError),
    /// A `--set` argument without `=`.
    #[error("expected a rule setting like name=value, found `{text}`; valid options: {valid}")]
    BadSetting {
        /// The argument given.
        text: String,
        /// The valid option names, comma separated.
        valid: String,
    },
    /// `--check` on a position with no published counts.
    #[error("no published perft counts for this position; {hint}")]
    NoPublishedCounts {
        /// Which positions have counts.
        hint: &'static str,
    },
    /// `--check` at a depth the published table does not reach.
    #[error("no published perft count for depth {depth}; the table covers depths 1 to {max}")]
    NoPublishedCount {
        /// The depth asked for.
        depth: u32,
        /// The deepest published depth.
        max: u32,
    },
    /// A perft count that differs from the published one.
    #[error("perft {depth}: counted {counted} leaves but the published count is {published}")]
    PerftMismatch {
        /// The depth.
        depth: u32,
        /// What this build counted.
        counted: u64,
        /// What was published.
        published: u64,
    },
    /// A random player found no legal move in a game that is not over.
    #[error("no legal move to choose from")]
    NoLegalMove,
    /// The game refused a move or a forfeit.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// Reading input or writing output failed.
    #[error("input/output error: {0}")]
    Io(#[from] io::Error),
    /// The game record file of `play --save` cannot be opened or written.
    #[error(
        "cannot save the game to {}: {source}{}",
        path.display(),
        if *played { " (the game above was played; its record is not saved)" } else { "" }
    )]
    Save {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: io::Error,
        /// Whether the game was played first (the file opened, a write failing).
        played: bool,
    },
    /// The game record file of `play --save` holds games that a reader of this game's records
    /// refuses (another game or rules, or text that is no record): appending would leave a
    /// file no reader reads whole.
    #[error(
        "cannot save the game to {}: a file holds records of one game and rules, and this \
         one does not read as records of the game played ({why}); save to another file",
        path.display()
    )]
    SaveMixed {
        /// The file.
        path: std::path::PathBuf,
        /// What reading the file as records of the game played found.
        why: String,
    },
    /// `search` asked of checkers, which has no placement phase.
    #[error(
        "checkers has no placement phase to search: `perfectplay probe checkers` answers its \
         positions from the tables"
    )]
    NoPlacement,
    /// A command for checkers only.
    #[error("`{command}` is for checkers (the morris databases count their positions in `info`)")]
    CheckersOnly {
        /// The command.
        command: &'static str,
    },
    /// Enumerated positions that differ from the published count.
    #[error("{pieces} pieces: enumerated {counted} positions, published {published}")]
    PositionCountMismatch {
        /// Pieces on the board.
        pieces: u8,
        /// What the enumeration found.
        counted: u64,
        /// What was published.
        published: u64,
    },
    /// A subspace argument that names no subspace.
    #[error("{0}")]
    BadSubspace(String),
    /// A perfect player without the tables it needs.
    #[error("{0}")]
    PerfectPlayer(String),
    /// A perfect player whose tables miss subspaces play can reach.
    #[error(transparent)]
    MissingTables(#[from] perfectplay_solver::MissingTables),
    /// A directory without tables.
    #[error(
        "no {}tables (*.ppdb) in {}",
        game.as_deref().map(|g| format!("{g} ")).unwrap_or_default(),
        dir.display()
    )]
    NoTables {
        /// The directory.
        dir: std::path::PathBuf,
        /// The game whose tables were looked for, where one was.
        game: Option<String>,
    },
    /// A database directory or file that cannot be used.
    #[error("{0}")]
    Db(String),
    /// A database file that is damaged, missing or for other rules.
    #[error(transparent)]
    DbFile(#[from] perfectplay_solver::DbError),
    /// A game's tables that cannot be opened.
    #[error(transparent)]
    Open(#[from] perfectplay_solver::OpenError),
    /// A query the tables cannot answer.
    #[error(transparent)]
    Probe(#[from] perfectplay_solver::ProbeError),
    /// A build or verification that could not finish.
    #[error(transparent)]
    Solve(#[from] perfectplay_solver::SolveError),
    /// A thread count, or a number of men or pieces, out of range.
    #[error(transparent)]
    Request(#[from] perfectplay_solver::RequestError),
    /// Tables whose headers cannot be read (`info` prints the others first).
    #[error("{count} of the tables in {} are unreadable", dir.display())]
    UnreadableTables {
        /// How many.
        count: usize,
        /// The directory.
        dir: std::path::PathBuf,
    },
    /// Tables whose bytes differ from the checksum manifest, or that are of another game.
    #[error("{files} files differ from the checksum manifest or are of another game or rules")]
    ChecksumsDiffer {
        /// How many.
        files: u64,
    },
    /// A build stopped by a signal (SIGINT or SIGTERM), its complete tables kept.
    #[error(
        "stopped by {}: the complete tables are kept, and {}",
        signal_name(*signal),
        if *saved {
            "the unit under way, if any, is saved where it stopped (KEY.ppck in the output \
             directory); run the same command to take it up"
        } else {
            "the unit under way is not saved (--no-checkpoints): the same command solves it \
             again from its start, or from a checkpoint it had"
        }
    )]
    Stopped {
        /// The signal's number.
        signal: i32,
        /// Whether the unit under way was saved.
        saved: bool,
    },
    /// Verification found stored values that disagree with their successors.
    #[error("verification failed: {mismatches} positions disagree with their successors")]
    VerifyFailed {
        /// How many.
        mismatches: u64,
    },
}

/// The name of a signal the command line catches.
fn signal_name(signal: i32) -> String {
    match signal {
        signal_hook::consts::SIGINT => "SIGINT".to_owned(),
        signal_hook::consts::SIGTERM => "SIGTERM".to_owned(),
        n => format!("signal {n}"),
    }
}

impl From<LoadError> for CliError {
    fn from(e: LoadError) -> CliError {
        match e {
            LoadError::UnknownGame(e) => e.into(),
            LoadError::RuleOption(e) => e.into(),
            LoadError::Rules(e) => e.into(),
            other => CliError::Load(other),
        }
    }
}

impl CliError {
    /// `2` for bad input (arguments, position strings, rule settings), 128 + the signal for a
    /// command stopped by one with its work saved, `1` for everything else.
    pub(crate) fn exit_code(&self) -> u8 {
        use perfectplay_solver::SolveError;
        match self {
            // A build or search these rules cannot have, a subspace the game lacks, a count
            // out of bounds: refused before any work, as bad input is.
            CliError::Solve(
                SolveError::Unsupported(_) | SolveError::NoSuchSubspace(_) | SolveError::Request(_),
            ) => 2,
            CliError::UnknownGame(_)
            | CliError::Fen(_)
            | CliError::MorrisFen(_)
            | CliError::RuleOption(_)
            | CliError::Rules(_)
            | CliError::Load(_)
            | CliError::BadSetting { .. }
            | CliError::NoPublishedCounts { .. }
            | CliError::NoPublishedCount { .. }
            | CliError::NoPlacement
            | CliError::CheckersOnly { .. }
            | CliError::BadSubspace(_)
            | CliError::PerfectPlayer(_)
            | CliError::MissingTables(_)
            | CliError::Request(_)
            | CliError::Save { played: false, .. }
            | CliError::SaveMixed { .. }
            | CliError::Probe(perfectplay_solver::ProbeError::NotAPosition(_)) => 2,
            CliError::PerftMismatch { .. }
            | CliError::PositionCountMismatch { .. }
            | CliError::NoLegalMove
            | CliError::Play(_)
            | CliError::Io(_)
            | CliError::Save { played: true, .. }
            | CliError::NoTables { .. }
            | CliError::Db(_)
            | CliError::DbFile(_)
            | CliError::Open(_)
            | CliError::Probe(_)
            | CliError::Solve(_)
            | CliError::VerifyFailed { .. }
            | CliError::UnreadableTables { .. }
            | CliError::ChecksumsDiffer { .. } => 1,
            // As a shell reports a process the signal ended.
            CliError::Stopped { signal, .. } => u8::try_from(128 + signal).unwrap_or(1),
        }
    }

    /// Whether this is a write to a closed pipe (`perfectplay ... | head`), which ends the
    /// command quietly.
    pub(crate) fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_exits_with_two() {
        let fen = "B:W33:B1"
            .parse::<perfectplay_core::checkers::CheckersPosition>()
            .unwrap_err();
        assert_eq!(CliError::from(fen).exit_code(), 2);
        let game = perfectplay_core::morris::Morris::preset("shah").unwrap();
        let morris = game.parse_fen("W w 12 12").unwrap_err();
        assert_eq!(CliError::from(morris).exit_code(), 2);
        let unchecked = perfectplay_solver::ProbeError::NotAPosition("two men on a7".into());
        assert_eq!(CliError::from(unchecked).exit_code(), 2);
        let rules = CliError::from(RulesError::Flying(4));
        assert_eq!(rules.exit_code(), 2);
        assert!(rules.to_string().starts_with("invalid rules: "), "{rules}");
        let unknown = CliError::from(UnknownGameError {
            id: "chess".into(),
            valid: "checkers".into(),
        });
        assert_eq!(unknown.exit_code(), 2);
        assert_eq!(
            unknown.to_string(),
            "unknown game `chess`; valid games: checkers"
        );
        let mismatch = CliError::PerftMismatch {
            depth: 3,
            counted: 301,
            published: 302,
        };
        assert_eq!(mismatch.exit_code(), 1);
    }

    #[test]
    fn broken_pipe_is_recognised() {
        assert!(CliError::from(io::Error::from(io::ErrorKind::BrokenPipe)).is_broken_pipe());
        assert!(!CliError::NoLegalMove.is_broken_pipe());
    }
}
