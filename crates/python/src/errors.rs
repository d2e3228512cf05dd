//! The extension's errors, and the one place where they become Python exceptions.
//!
//! Everything below the Python boundary returns [`Error`]; `From<Error> for PyErr` picks the
//! exception class. Each class subclasses `ValueError`, so `except ValueError` catches them all:
//!
//! | error | exception |
//! |---|---|
//! | an unknown game id | `perfectplay.UnknownGameError` |
//! | an unknown rule option, a bad value, an impossible combination | `ValueError` |
//! | a position string that cannot be read, or not a position of the rules | `perfectplay.InvalidPositionError` |
//! | a move that is not legal, or not a move | `perfectplay.IllegalMoveError` |
//! | an action that is not legal (in a state or an env) | `perfectplay.IllegalActionError` |
//! | a probe whose table is in none of the directories, a verification that needs a table the directory lacks | `perfectplay.MissingTableError` (a `KeyError`) |
//! | a position no table holds (half a turn, too many pieces) | `perfectplay.OutOfScopeError` |
//! | a damaged or other-version table, a table entry that is no file (a directory, a FIFO, a broken link), a table changed on disk since it was opened, a closed tablebase, a failed build, a verification that cannot run (its mismatches are reported, not raised) | `perfectplay.TablebaseError` |
//!
//! The exceptions: `State.undo()` with nothing to take back raises `IndexError`, as
//! `list.pop()` does; an argument of the wrong type raises `TypeError`; and a disagreement
//! with the rules engine found by the test suite's `_self_check` raises `AssertionError`. An
//! array of floats or bools where integers are wanted is a `TypeError` too. A call on an
//! object another thread is using (a `VectorEnv`, an array a `copy=False` env is writing)
//! raises `RuntimeError`, and an exception raised by an iterable passed in is raised again
//! as it is.

use perfectplay_core::checkers::{CheckersFenError, CheckersMoveError};
use perfectplay_core::morris::fen::MorrisFenError;
use perfectplay_core::morris::{MorrisMoveError, RulesError};
use perfectplay_core::registry::LoadError;
use perfectplay_core::RuleOptionError;
use perfectplay_core::{IllegalActionError as CoreIllegalAction, PlayError};
use perfectplay_env::Error as EnvError;
use perfectplay_solver::{DbError, OpenError, ProbeError, SolveError};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyAssertionError, PyIndexError, PyKeyError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::types::PyAnyMethods;
use pyo3::{PyErr, Python};
use thiserror::Error;

create_exception!(
    perfectplay,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position, or text that names no legal move.\n\n\
     The state is left unchanged."
);
create_exception!(
    perfectplay,
    IllegalActionError,
    PyValueError,
    "An action that is not legal now; the message names it and lists the legal ones.\n\n\
     In a VectorEnv the message also names the env index; no env is stepped."
);
create_exception!(
    perfectplay,
    InvalidPositionError,
    PyValueError,
    "A position string (FEN) that cannot be read, or describes a position the rules forbid."
);
create_exception!(
    perfectplay,
    MissingTableError,
    PyKeyError,
    "A probe whose table is in none of the tablebase's directories, or a verification that \
     needs a table its directory lacks.\n\n\
     `subspace` names the missing table (the first, where several are), `missing` every one \
     (the message lists at most twelve) and `directories` the directories searched."
);
create_exception!(
    perfectplay,
    OutOfScopeError,
    PyValueError,
    "A position that no table of the tablebase can hold: a turn half made, more pieces than \
     the databases cover, a position that cannot arise in play."
);
create_exception!(
    perfectplay,
    TablebaseError,
    PyValueError,
    "A table that cannot be used (truncated, corrupted, another format version or other \
     rules), a closed tablebase, or a build that failed; the message names the file and the \
     problem."
);
create_exception!(
    perfectplay,
    RecordError,
    PyValueError,
    "A game record (PDN) that cannot be read; the message names the game in the text, the move \
     and the problem."
);
create_exception!(
    perfectplay,
    UnknownGameError,
    PyValueError,
    "A game id that names no game; the message lists the valid ids and aliases."
);

/// What can go wrong in the binding: the environment's errors, and the binding's own (Python
/// values of the wrong type, arguments it checks itself, tablebase calls and builds).
#[derive(Debug, Error)]
pub(crate) enum Error {
    /// An error of the environment.
    #[error(transparent)]
    Env(#[from] EnvError),
    /// A rule option given a Python value that is not a bool, int, str or None.
    #[error("rule option `{name}` takes a bool, int, str or None, not {type_name}")]
    OptionType {
        /// The option.
        name: String,
        /// The Python type of the value given.
        type_name: String,
    },
    /// A bad argument of a binding's call.
    #[error("{0}")]
    BadArgument(String),
    /// An argument of the wrong Python type.
    #[error("{0}")]
    ArgumentType(std::borrow::Cow<'static, str>),
    /// The extension disagrees with the rules engine (found by `_self_check`).
    #[error("{0}")]
    SelfCheck(String),
    /// A build that failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A position outside what the tables hold.
    #[error("position outside the databases: {0}")]
    OutOfScope(String),
    /// A tablebase used wrongly (another game's state, a bad encoded row, ...).
    #[error("{0}")]
    Tablebase(String),
    /// A call after `close()`.
    #[error("the tablebase is closed")]
    TablebaseClosed,
    /// Text that names no action (of the game, or legal in the state).
    #[error("{0}")]
    UnknownAction(String),
    /// A game record that cannot be read.
    #[error(transparent)]
    Record(#[from] perfectplay_core::record::RecordError),
    /// An object that one thread at a time may use, called from a second.
    #[error("{0}")]
    Busy(String),
    /// An exception raised by Python code the binding called (an iterable the caller
    /// passed), raised again as it is.
    #[error("{0}")]
    Python(PyErr),
}

/// Errors of the layers below that the binding meets with `?`, through the environment's.
macro_rules! through_env {
    ($($source:ty),* $(,)?) => {
        $(impl From<$source> for Error {
            fn from(err: $source) -> Self {
                Error::Env(err.into())
            }
        })*
    };
}

through_env!(
    RuleOptionError,
    RulesError,
    CheckersFenError,
    MorrisFenError,
    CheckersMoveError,
    MorrisMoveError,
    PlayError,
    CoreIllegalAction,
    ProbeError,
    DbError,
    OpenError,
);

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        let message = err.to_string();
        match err {
            Error::Env(env) => env_exception(env, message),
            Error::ArgumentType(_) => PyTypeError::new_err(message),
            Error::SelfCheck(_) => PyAssertionError::new_err(message),
            Error::OutOfScope(_) => OutOfScopeError::new_err(message),
            // A verification that needs a table the directory lacks.
            Error::Solve(SolveError::Verifying { source, .. }) => match *source {
                ProbeError::MissingTable { subspace, dirs } => {
                    missing_table(message, subspace, &dirs)
                }
                _ => TablebaseError::new_err(message),
            },
            Error::Solve(_) | Error::Tablebase(_) | Error::TablebaseClosed => {
                TablebaseError::new_err(message)
            }
            Error::OptionType { .. } | Error::BadArgument(_) => PyValueError::new_err(message),
            Error::UnknownAction(_) => IllegalActionError::new_err(message),
            Error::Record(_) => RecordError::new_err(message),
            Error::Busy(_) => PyRuntimeError::new_err(message),
            Error::Python(err) => err,
        }
    }
}

/// The exception of an environment error, whose text is `message`.
fn env_exception(err: EnvError, message: String) -> PyErr {
    match err {
        EnvError::Load(LoadError::UnknownGame(_)) => UnknownGameError::new_err(message),
        EnvError::CheckersFen(_) | EnvError::MorrisFen(_) => InvalidPositionError::new_err(message),
        EnvError::CheckersMove(_)
        | EnvError::MorrisMove(_)
        | EnvError::Play(_)
        | EnvError::WrongFamily { .. }
        | EnvError::MidTurn { .. } => IllegalMoveError::new_err(message),
        EnvError::Action(_)
        | EnvError::ActionAfterEnd { .. }
        | EnvError::ActionOutOfRange { .. }
        | EnvError::EnvAction { .. } => IllegalActionError::new_err(message),
        EnvError::NothingToUndo => PyIndexError::new_err(message),
        EnvError::Probe(ProbeError::MissingTable { subspace, dirs }) => {
            missing_table(message, subspace, &dirs)
        }
        EnvError::MissingTables(tables) => missing_tables(message, tables.missing, &tables.dirs),
        EnvError::Probe(ProbeError::OutOfScope(_) | ProbeError::CannotArise) => {
            OutOfScopeError::new_err(message)
        }
        EnvError::Probe(ProbeError::NotAPosition(_)) => InvalidPositionError::new_err(message),
        EnvError::Probe(_) | EnvError::Db(_) | EnvError::Open(_) => {
            TablebaseError::new_err(message)
        }
        EnvError::Load(_) | EnvError::ActionCount { .. } | EnvError::BadArgument(_) => {
            PyValueError::new_err(message)
        }
    }
}

/// `MissingTableError` for the table `subspace`, searched for in `dirs`.
fn missing_table(message: String, subspace: String, dirs: &[std::path::PathBuf]) -> PyErr {
    missing_tables(message, vec![subspace], dirs)
}

/// `MissingTableError` for the tables `missing` (at least one), searched for in `dirs`.
fn missing_tables(message: String, missing: Vec<String>, dirs: &[std::path::PathBuf]) -> PyErr {
    let subspace = missing.first().cloned().unwrap_or_default();
    let message = if subspace.contains("-h") {
        format!(
            "{message} (men in hand: a placement-phase table, which whole-game builds of the \
             small games make; for Nine Men's Morris and the other large games `perfectplay \
             search` values such positions on the moving-phase tables)"
        )
    } else {
        message
    };
    let err = MissingTableError::new_err(message);
    Python::attach(|py| {
        let value = err.value(py);
        let dirs: Vec<std::ffi::OsString> = dirs.iter().map(|d| d.as_os_str().to_owned()).collect();
        // Attributes for the caller's convenience; the message says it all anyway.
        let _ = value.setattr("subspace", subspace);
        let _ = value.setattr("missing", missing);
        let _ = value.setattr("directories", dirs);
    });
    err
}

/// The result type of the extension's internals.
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;
