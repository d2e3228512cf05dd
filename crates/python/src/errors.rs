//! The extension's errors, and the one place where they become Python exceptions.
//!
//! Everything below the Python boundary returns [`Error`]; `From<Error> for PyErr` picks the
//! exception class. Each class subclasses `ValueError`, so `except ValueError` catches them all:
//!
//! | error | exception |
//! |---|---|
//! | an unknown game id | `perfectplay.UnknownGameError` |
//! | an unknown rule option, a bad value, an impossible combination | `ValueError` |
//! | a position string that cannot be read | `perfectplay.InvalidPositionError` |
//! | a move that is not legal, or not a move | `perfectplay.IllegalMoveError` |
//! | an action that is not legal (in a state or an env) | `perfectplay.IllegalActionError` |
//! | a probe whose table is in none of the directories | `perfectplay.MissingTableError` (a `KeyError`) |
//! | a position no table holds (half a turn, too many pieces) | `perfectplay.OutOfScopeError` |
//! | a damaged or other-version table, a table entry that is no file (a directory, a FIFO, a broken link), a table changed on disk since it was opened, a closed tablebase, a failed build | `perfectplay.TablebaseError` |
//!
//! The exceptions: `State.undo()` with nothing to take back raises `IndexError`, as
//! `list.pop()` does; an argument of the wrong type raises `TypeError`; and a disagreement
//! with the rules engine found by the test suite's `_self_check` raises `AssertionError`. An
//! array of floats or bools where integers are wanted is a `TypeError` too.

use perfectplay_core::checkers::{MoveInputError, ParseFenError};
use perfectplay_core::morris::fen::MorrisFenError;
use perfectplay_core::morris::{MorrisMoveError, RulesError};
use perfectplay_core::RuleOptionError;
use perfectplay_core::{IllegalActionError as CoreIllegalAction, Outcome, PlayError};
use perfectplay_solver::{DbError, ProbeError, SolveError};
use pyo3::create_exception;
use pyo3::exceptions::{PyAssertionError, PyIndexError, PyKeyError, PyTypeError, PyValueError};
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
    "A probe whose table is in none of the tablebase's directories.\n\n\
     `subspace` names the missing table and `directories` the directories searched."
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
    UnknownGameError,
    PyValueError,
    "A game id that names no game; the message lists the valid ids and aliases."
);

/// Everything that can go wrong below the Python boundary.
#[derive(Debug, Error)]
pub(crate) enum Error {
    /// No game has this id.
    #[error("unknown game `{id}`; valid games: {valid}")]
    UnknownGame {
        /// The id given.
        id: String,
        /// Every id and alias, comma separated.
        valid: String,
    },
    /// An unknown rule option, or a value it does not take.
    #[error(transparent)]
    RuleOption(#[from] RuleOptionError),
    /// A rule option given a Python value that is not a bool, int, str or None.
    #[error("rule option `{name}` takes a bool, int, str or None, not {type_name}")]
    OptionType {
        /// The option.
        name: String,
        /// The Python type of the value given.
        type_name: String,
    },
    /// Morris options that cannot be played together.
    #[error("invalid rules: {0}")]
    Rules(#[from] RulesError),
    /// A checkers FEN that cannot be read.
    #[error(transparent)]
    CheckersFen(#[from] ParseFenError),
    /// A morris position string that cannot be read.
    #[error(transparent)]
    MorrisFen(#[from] MorrisFenError),
    /// A checkers move that cannot be read or is not legal.
    #[error(transparent)]
    CheckersMove(#[from] MoveInputError),
    /// A morris turn that cannot be read or is not legal.
    #[error(transparent)]
    MorrisMove(#[from] MorrisMoveError),
    /// A move refused by the game state (illegal, or the game is over).
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A `Move` of one game given to a state of another family.
    #[error("{mv} is a move of {family}, not of {game}")]
    WrongFamily {
        /// The move.
        mv: String,
        /// The family it belongs to.
        family: &'static str,
        /// The game of the state.
        game: &'static str,
    },
    /// A whole move asked for while a turn is half made with `apply_action`.
    #[error(
        "a turn is half made with apply_action (actions so far: {actions}); finish it with \
         apply_action, or take the actions back with undo, before applying a whole move"
    )]
    MidTurn {
        /// The actions made so far in the turn.
        actions: String,
    },
    /// An action that is not legal now.
    #[error(transparent)]
    Action(#[from] CoreIllegalAction),
    /// An action given after the game ended.
    #[error("action {action} is not legal: the game is over ({outcome})")]
    ActionAfterEnd {
        /// The action.
        action: i64,
        /// How the game ended.
        outcome: Outcome,
    },
    /// An action number outside the action space.
    #[error("action {action} is outside the action space 0..{count}; legal actions: {legal:?}")]
    ActionOutOfRange {
        /// The action.
        action: i64,
        /// The number of actions.
        count: usize,
        /// The legal actions.
        legal: Vec<usize>,
    },
    /// An illegal action in one env of a batch; no env was stepped.
    #[error(
        "env {env}: action {action} ({text}) is not legal now; legal actions: {legal:?}; \
         no env was stepped"
    )]
    EnvAction {
        /// The env's index.
        env: usize,
        /// The action.
        action: i64,
        /// What the action means there.
        text: String,
        /// The env's legal actions.
        legal: Vec<usize>,
    },
    /// A batch of actions of the wrong length.
    #[error("expected one action per env ({expected}), got {found}")]
    ActionCount {
        /// The number of envs.
        expected: usize,
        /// The number of actions given.
        found: usize,
    },
    /// A bad argument: of the batched environment, a build, a sample.
    #[error("{0}")]
    BadArgument(String),
    /// `undo` with nothing to take back.
    #[error("nothing to undo: the state is at the start of its history")]
    NothingToUndo,
    /// An argument of the wrong Python type.
    #[error("{0}")]
    ArgumentType(std::borrow::Cow<'static, str>),
    /// The extension disagrees with the rules engine (found by `_self_check`).
    #[error("{0}")]
    SelfCheck(String),
    /// A probe that failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// A table file that cannot be used.
    #[error(transparent)]
    Db(#[from] DbError),
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
}

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        let message = err.to_string();
        match err {
            Error::UnknownGame { .. } => UnknownGameError::new_err(message),
            Error::CheckersFen(_) | Error::MorrisFen(_) => InvalidPositionError::new_err(message),
            Error::CheckersMove(_)
            | Error::MorrisMove(_)
            | Error::Play(_)
            | Error::WrongFamily { .. }
            | Error::MidTurn { .. } => IllegalMoveError::new_err(message),
            Error::Action(_)
            | Error::ActionAfterEnd { .. }
            | Error::ActionOutOfRange { .. }
            | Error::EnvAction { .. } => IllegalActionError::new_err(message),
            Error::NothingToUndo => PyIndexError::new_err(message),
            Error::ArgumentType(_) => PyTypeError::new_err(message),
            Error::SelfCheck(_) => PyAssertionError::new_err(message),
            Error::Probe(ProbeError::MissingTable { subspace, dirs }) => {
                let message = if subspace.contains("-h") {
                    format!(
                        "{message} (men in hand: a placement-phase table, which whole-game \
                         builds of the small games make; for Nine Men's Morris and the other \
                         large games `perfectplay search` values such positions on the \
                         moving-phase tables)"
                    )
                } else {
                    message
                };
                let err = MissingTableError::new_err(message);
                Python::attach(|py| {
                    let value = err.value(py);
                    let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                    // Attributes for the caller's convenience; the message says it all anyway.
                    let _ = value.setattr("subspace", subspace);
                    let _ = value.setattr("directories", dirs);
                });
                err
            }
            Error::Probe(ProbeError::OutOfScope(_) | ProbeError::CannotArise)
            | Error::OutOfScope(_) => OutOfScopeError::new_err(message),
            Error::Probe(_)
            | Error::Db(_)
            | Error::Solve(_)
            | Error::Tablebase(_)
            | Error::TablebaseClosed => TablebaseError::new_err(message),
            Error::RuleOption(_)
            | Error::OptionType { .. }
            | Error::Rules(_)
            | Error::ActionCount { .. }
            | Error::BadArgument(_) => PyValueError::new_err(message),
        }
    }
}

/// The result type of the extension's internals.
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;
