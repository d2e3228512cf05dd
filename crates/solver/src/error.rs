//! Errors, one type per layer: a bad file ([`DbError`]), a failed query ([`ProbeError`]), a
//! request refused before any work ([`RequestError`]), a failed build or verification
//! ([`SolveError`]).

use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// A database file that cannot be used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DbError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The file does not start with the database magic number.
    #[error("{path}: not a perfectplay database (bad magic number)")]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another version of the format.
    #[error(
        "{path}: database format version {found}, this program reads versions 1 to {expected}"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The newest version this program reads and writes.
        expected: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error(
        "{path}: file is {actual} bytes, its header promises {expected} (truncated or damaged)"
    )]
    Length {
        /// The file.
        path: PathBuf,
        /// The length the header implies.
        expected: u64,
        /// The length on disk.
        actual: u64,
    },
    /// The header or payload does not match its checksum, or the header cannot be decoded.
    #[error("{path}: corrupted: {detail}")]
    Corrupted {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The path names something other than a regular file: a directory, a FIFO, a device, a
    /// socket, or a symbolic link to nothing.
    #[error("{path}: is {kind}, not a table file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// The file changed on disk after it was opened (another program wrote to it in place or
    /// cut it short): values read from it since may be wrong and were not returned.
    #[error("{path}: changed on disk since it was opened ({detail}); open the tables again")]
    Changed {
        /// The file.
        path: PathBuf,
        /// What changed.
        detail: String,
    },
    /// The file is intact but belongs to another game, rule set, index or subspace.
    #[error("{path}: {what} is `{found}`, expected `{expected}`")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// Which header field differs.
        what: &'static str,
        /// What the file holds.
        found: String,
        /// What was asked for.
        expected: String,
    },
}

impl DbError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> DbError {
        DbError::Io {
            path: path.into(),
            source,
        }
    }

    /// The same error again, for each of several results it spoils (an I/O error keeps its
    /// kind and message).
    #[must_use]
    pub fn duplicate(&self) -> DbError {
        let path = |p: &PathBuf| p.clone();
        match self {
            DbError::Io { path: p, source } => DbError::Io {
                path: path(p),
                source: io::Error::new(source.kind(), source.to_string()),
            },
            DbError::BadMagic { path: p } => DbError::BadMagic { path: path(p) },
            DbError::Version {
                path: p,
                found,
                expected,
            } => DbError::Version {
                path: path(p),
                found: *found,
                expected: *expected,
            },
            DbError::Length {
                path: p,
                expected,
                actual,
            } => DbError::Length {
                path: path(p),
                expected: *expected,
                actual: *actual,
            },
            DbError::Corrupted { path: p, detail } => DbError::Corrupted {
                path: path(p),
                detail: detail.clone(),
            },
            DbError::NotAFile { path: p, kind } => DbError::NotAFile {
                path: path(p),
                kind,
            },
            DbError::Changed { path: p, detail } => DbError::Changed {
                path: path(p),
                detail: detail.clone(),
            },
            DbError::Mismatch {
                path: p,
                what,
                found,
                expected,
            } => DbError::Mismatch {
                path: path(p),
                what,
                found: found.clone(),
                expected: expected.clone(),
            },
        }
    }

    pub(crate) fn corrupted(path: impl Into<PathBuf>, detail: impl Into<String>) -> DbError {
        DbError::Corrupted {
            path: path.into(),
            detail: detail.into(),
        }
    }
}

/// A query the databases cannot answer.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ProbeError {
    /// The subspace of the position has no table in the directories searched.
    #[error("no table for subspace {subspace} in {}", display_dirs(.dirs))]
    MissingTable {
        /// The subspace, as its file name stem.
        subspace: String,
        /// The directories searched.
        dirs: Vec<PathBuf>,
    },
    /// The position lies outside what the databases of this game cover.
    #[error("position outside the databases: {0}")]
    OutOfScope(String),
    /// The position cannot arise in play (e.g. the side to move has already won).
    #[error("the position cannot arise in play")]
    CannotArise,
    /// Not a position of the rules at all: one made unchecked from its parts with men off the
    /// board or two on one point, say (`Morris::validate` names what is wrong).
    #[error("not a position of these rules: {0}")]
    NotAPosition(String),
    /// The databases' own consistency check failed: a bug in the solver or a domain, reported
    /// instead of an answer that could be wrong.
    #[error("internal inconsistency: {0}")]
    Inconsistent(String),
    /// Reading the tables into memory ([`crate::Tablebase::preload`]) would take more memory
    /// than the system has available without swapping (or than the budget given).
    #[error(
        "reading the tables into memory takes {needed} bytes, more than the {available} bytes \
         of memory available: probe them where they lie (without preloading)"
    )]
    NotEnoughMemory {
        /// The bytes the copies would take.
        needed: u64,
        /// The memory available: the system's without swapping, or the budget given to
        /// [`crate::Tablebase::preload_within`].
        available: u64,
    },
    /// The table exists but cannot be used.
    #[error(transparent)]
    Db(#[from] DbError),
}

fn display_dirs(dirs: &[PathBuf]) -> String {
    if dirs.is_empty() {
        return "no directory".to_owned();
    }
    dirs.iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A request refused before any work starts, with the same message whichever front made it
/// ([`crate::limits`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestError {
    /// Zero threads.
    #[error("0 threads: at least 1 is needed")]
    NoThreads,
    /// More threads than the bound of [`crate::limits::check_threads`], not forced.
    #[error(
        "{requested} threads is more than {} per CPU (this machine has {cpus} CPUs: at most \
         {max} threads without --force-threads on the command line or force_threads=True from \
         Python)",
        crate::limits::THREADS_PER_CPU
    )]
    TooManyThreads {
        /// The count asked for.
        requested: usize,
        /// The CPUs available.
        cpus: usize,
        /// The most allowed without forcing.
        max: usize,
    },
    /// More threads than [`crate::limits::MAX_FORCED_THREADS`] (or 4 per CPU, where that is
    /// more), forced or not.
    #[error(
        "{requested} threads is more than any build may start: at most {most}, even with \
         --force-threads or force_threads=True"
    )]
    FarTooManyThreads {
        /// The count asked for.
        requested: usize,
        /// The most any request may ask for on this machine.
        most: usize,
    },
    /// A morris build of a number of men a side the game's moving phase does not have.
    #[error(
        "{game} has {min} to {max} men a side on the board in the moving phase, not {requested}"
    )]
    MaxMen {
        /// The game.
        game: String,
        /// The count asked for.
        requested: u8,
        /// The fewest men a side may have and still play.
        min: u8,
        /// The men of each side.
        max: u8,
    },
    /// A checkers build of a number of pieces the databases do not hold.
    #[error("the checkers databases hold {min} to {max} pieces, not {requested}")]
    MaxPieces {
        /// The count asked for.
        requested: u8,
        /// The fewest pieces of a table (one a side).
        min: u8,
        /// The most pieces of a table.
        max: u8,
    },
}

/// A build (or a verification) that could not finish.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A file could not be read or written.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A table the subspace depends on is missing or unusable.
    #[error("while solving {subspace}: {source}")]
    Dependency {
        /// The subspace being solved.
        subspace: String,
        /// What went wrong reading its dependency.
        source: ProbeError,
    },
    /// A table being compressed is unusable.
    #[error("while compressing {subspace}: {source}")]
    Compressing {
        /// The subspace being compressed.
        subspace: String,
        /// What went wrong reading its table (boxed, as in `Verifying`).
        source: Box<ProbeError>,
    },
    /// A table being verified, or one its successors lie in, is missing or unusable.
    #[error("while verifying {subspace}: {source}")]
    Verifying {
        /// The subspace being verified.
        subspace: String,
        /// What went wrong reading it or a table it depends on (boxed: two variants of this
        /// size would leave no niche for the others and grow every result by a word).
        source: Box<ProbeError>,
    },
    /// Another build holds the directory's build lock ([`crate::BuildLock`]).
    #[error(
        "another build is writing into this directory: {holder} (lock file {}); wait for it \
         with --wait on the command line or wait=True from Python",
        lock.display()
    )]
    Locked {
        /// The lock file.
        lock: PathBuf,
        /// Who holds it, as the holder wrote it: pid, host, command line, start time.
        holder: String,
    },
    /// A request refused before any work started.
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The output directory holds a table of another game or other rules where the build
    /// would write one: it is refused rather than overwritten.
    #[error(
        "{0}: the directory holds tables of another game or other rules; write into another \
         directory, or remove them first"
    )]
    ForeignTable(DbError),
    /// The rules cannot be solved by this database scheme.
    #[error("cannot build databases for these rules: {0}")]
    Unsupported(String),
    /// The worker threads could not be started (the system refused them).
    #[error("cannot start {threads} worker threads: {why}")]
    ThreadPool {
        /// How many were asked for.
        threads: usize,
        /// What the system said.
        why: String,
    },
    /// A subspace asked for does not exist in this game.
    #[error("no subspace {0} in this game")]
    NoSuchSubspace(String),
    /// A distance does not fit the one-byte encoding.
    #[error("subspace {subspace}: a distance exceeds {max} plies, the most one byte holds")]
    DistanceOverflow {
        /// The subspace.
        subspace: String,
        /// The largest distance the format stores.
        max: u32,
    },
    /// A position has more successors within its unit than the counter holds.
    #[error("subspace {subspace}: a position has more than {max} successors in its unit")]
    TooManySuccessors {
        /// The subspace.
        subspace: String,
        /// The counter's capacity.
        max: u32,
    },
    /// The working memory of a unit could not be had.
    #[error("subspace {subspace}: cannot map {bytes} bytes of working memory: {source}")]
    Memory {
        /// The first subspace of the unit.
        subspace: String,
        /// The bytes asked for.
        bytes: u64,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The placement search's transposition table could not be had.
    #[error(
        "cannot allocate the search's transposition table of {bytes} bytes{} (ask for fewer \
         table bits)",
        available.map_or(String::new(), |free| format!(": the system has {free} bytes available"))
    )]
    SearchTableMemory {
        /// The bytes asked for.
        bytes: u64,
        /// The memory the system had available without swapping, where it says.
        available: Option<u64>,
    },
    /// Another placement search holds the checkpoint file's lock
    /// ([`crate::morris::CheckpointLock`]).
    #[error(
        "another search is using the checkpoint {}: {holder} (lock file {}); wait for it to \
         end, or give this search a checkpoint file of its own",
        checkpoint.display(),
        lock.display()
    )]
    CheckpointInUse {
        /// The checkpoint file.
        checkpoint: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// Who holds it, as the holder wrote it: pid, host, command line, start time.
        holder: String,
    },
    /// A path that cannot serve as a placement search's checkpoint file.
    #[error("cannot keep a search checkpoint at {}: {reason}", checkpoint.display())]
    CheckpointPath {
        /// The path given.
        checkpoint: PathBuf,
        /// Why not.
        reason: String,
    },
    /// A unit's checkpoint (module `unit_checkpoint`) cannot be taken up: damaged, from
    /// another format version, or made for other rules or from other tables.
    #[error("cannot resume from a unit checkpoint: {source} (delete the file to solve the unit from its start)")]
    UnitCheckpoint {
        /// What is wrong with it, naming the file.
        source: DbError,
    },
    /// The build was cancelled; complete files stay, the unit in progress left no half table
    /// behind, only its checkpoint: saved where it stopped, unless it was told never to save.
    /// Or a verification was cancelled ([`crate::VerifyOptions::cancel`]), which writes nothing.
    #[error("interrupted")]
    Interrupted,
    /// The build was cancelled, and the unit under way could not be saved where it stopped (a
    /// full disk): it goes on from its last whole checkpoint, if it has one.
    #[error(
        "interrupted, and the unit under way could not be saved: {source} (it goes on from \
         its last checkpoint, if it has one)"
    )]
    InterruptedUnsaved {
        /// Why the save failed, naming the file.
        source: DbError,
    },
    /// The solver's own consistency check failed: a bug, reported instead of a wrong table.
    #[error("internal inconsistency in {subspace}: {detail}")]
    Inconsistent {
        /// The subspace.
        subspace: String,
        /// What was found.
        detail: String,
    },
}

/// The tables that play from a subspace can reach and no directory has.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error(
    "perfect play from subspace {start} needs the tables of {} subspace{} missing from {}: {}",
    missing.len(),
    if missing.len() == 1 { "" } else { "s" },
    show_dirs(dirs),
    show_subspaces(missing)
)]
pub struct MissingTables {
    /// The subspace play starts in.
    pub start: String,
    /// The subspaces without a table, in the order a build would make them (never empty).
    pub missing: Vec<String>,
    /// The directories searched.
    pub dirs: Vec<PathBuf>,
}

/// The most missing subspaces a message lists by name: a whole game's hundreds on one line
/// say less than the first few and a count (the field holds them all).
const LISTED_SUBSPACES: usize = 12;

/// Subspaces as a message lists them: the first [`LISTED_SUBSPACES`], then how many more.
fn show_subspaces(names: &[String]) -> String {
    if names.len() <= LISTED_SUBSPACES {
        return names.join(", ");
    }
    format!(
        "{}, and {} more",
        names[..LISTED_SUBSPACES].join(", "),
        names.len() - LISTED_SUBSPACES
    )
}

/// Directories as a message names them.
fn show_dirs(dirs: &[PathBuf]) -> String {
    if dirs.is_empty() {
        return "no directory".to_owned();
    }
    let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_missing_tables_is_cut_to_a_count() {
        let missing = |n: usize| MissingTables {
            start: "9-9".to_owned(),
            missing: (0..n).map(|i| format!("k{i}")).collect(),
            dirs: vec![PathBuf::from("t")],
        };
        let all = missing(12).to_string();
        assert!(all.ends_with("missing from t: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11"));
        let cut = missing(500).to_string();
        assert!(cut.contains("needs the tables of 500 subspaces"), "{cut}");
        assert!(cut.ends_with("k10, k11, and 488 more"), "{cut}");
    }
}
