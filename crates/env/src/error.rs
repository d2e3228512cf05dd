//! The environment's errors: one enum for everything below the fronts. The Python binding
//! turns each variant into its exception class; a Rust caller matches on them.

use perfectplay_core::checkers::{CheckersFenError, CheckersMoveError};
use perfectplay_core::morris::fen::MorrisFenError;
use perfectplay_core::morris::{MorrisMoveError, RulesError};
use perfectplay_core::registry::{LoadError, UnknownGameError};
use perfectplay_core::RuleOptionError;
use perfectplay_core::{IllegalActionError, Outcome, PlayError};
use perfectplay_solver::{DbError, OpenError, ProbeError};
use thiserror::Error;

/// Everything that can go wrong in the environment: loading a game, reading positions and
/// moves, playing actions in a state or a batch, opening the tables of a perfect opponent.
///
/// Unlike the other crates' error enums this one is not `#[non_exhaustive]`: the Python
/// binding matches it exhaustively, so that a new variant cannot reach Python without its
/// exception class being chosen.
#[derive(Debug, Error)]
pub enum Error {
    /// A game that could not be loaded: an unknown id, an unknown rule option or a value it
    /// does not take, morris options that cannot be played together.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A checkers FEN that cannot be read.
    #[error(transparent)]
    CheckersFen(#[from] CheckersFenError),
    /// A morris position string that cannot be read.
    #[error(transparent)]
    MorrisFen(#[from] MorrisFenError),
    /// A checkers move that cannot be read or is not legal.
    #[error(transparent)]
    CheckersMove(#[from] CheckersMoveError),
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
         apply_action, or take the actions back with undo, before a whole move or a forfeit"
    )]
    MidTurn {
        /// The actions made so far in the turn.
        actions: String,
    },
    /// An action that is not legal now.
    #[error(transparent)]
    Action(#[from] IllegalActionError),
    /// An action given after the game ended.
    #[error("action {action} is not legal: the game is over ({outcome})")]
    ActionAfterEnd {
        /// The action, as given (any integer: see [`crate::state::State::refuse_number`]).
        action: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// An action number outside the action space.
    #[error("action {action} is outside the action space 0..{count}; legal actions: {legal:?}")]
    ActionOutOfRange {
        /// The action, as given (any integer: see [`crate::state::State::refuse_number`]).
        action: String,
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
    /// Perfect play from a start needs tables that the directories lack.
    #[error(transparent)]
    MissingTables(#[from] perfectplay_solver::MissingTables),
    /// `undo` with nothing to take back.
    #[error("nothing to undo: the state is at the start of its history")]
    NothingToUndo,
    /// A probe that failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// A table file that cannot be used.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The tables of a game that could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
}

/// The causes of a [`LoadError`], as environment errors.
macro_rules! through_load {
    ($($source:ty),*) => {
        $(impl From<$source> for Error {
            fn from(err: $source) -> Self {
                Error::Load(err.into())
            }
        })*
    };
}

through_load!(UnknownGameError, RuleOptionError, RulesError);

/// The result type of the environment.
pub type Result<T, E = Error> = std::result::Result<T, E>;
