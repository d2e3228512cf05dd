//! Python's `Game`, `load_game` and `game_ids`, and rule options between Python values and
//! the text the rules read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;

use perfectplay_core::ActionGame;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};

use crate::errors::{Error, Result};
use crate::py_state::{AnyState, PyState};
use perfectplay_core::registry::{self, AnyGame};
use perfectplay_core::with_family;
use perfectplay_env::state::State;
use perfectplay_env::Error as EnvError;

/// The text a rule option's `set` reads for a Python value: `True`/`False`, an int (numpy's
/// integers too), a str, or `None` for "no limit".
fn option_text(name: &str, value: &Bound<'_, PyAny>) -> Result<String> {
    if value.is_none() {
        Ok("none".to_owned())
    } else if let Ok(b) = value.cast::<PyBool>() {
        Ok(b.is_true().to_string())
    } else if is_numpy_bool(value) {
        // `numpy.bool_` (named `bool` since numpy 2) is no subclass of Python's bool.
        Ok(value.is_truthy().unwrap_or(false).to_string())
    } else if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyString>() {
        Ok(value
            .str()
            .map_or_else(|_| String::new(), |s| s.to_string()))
    } else if let Ok(n) = value.extract::<i64>() {
        // An integer of another type (numpy's), read through `__index__`: never a float.
        Ok(n.to_string())
    } else if let Ok(n) = value.extract::<u64>() {
        Ok(n.to_string())
    } else {
        Err(Error::OptionType {
            name: name.to_owned(),
            type_name: value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string()),
        })
    }
}

/// Whether `value` is a numpy boolean scalar (or a 0-d boolean array): what a bool read from an
/// array or a config made with numpy is.
fn is_numpy_bool(value: &Bound<'_, PyAny>) -> bool {
    let scalar = value
        .getattr("ndim")
        .and_then(|n| n.extract::<usize>())
        .is_ok_and(|n| n == 0);
    let kind = value
        .getattr("dtype")
        .and_then(|d| d.getattr("kind"))
        .and_then(|k| k.extract::<String>());
    scalar && kind.is_ok_and(|k| k == "b")
}

/// Rule options given as keyword arguments, as `(name, text)` pairs.
pub(crate) fn options_from_kwargs(
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, String)>> {
    let mut options = Vec::new();
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let name: String = key.extract()?;
            let text = option_text(&name, &value)?;
            options.push((name, text));
        }
    }
    Ok(options)
}

/// A rule option's text value as a Python value: bools and ints as such, `none` as `None`.
fn option_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(match text {
        "true" => PyBool::new(py, true).to_owned().into_any(),
        "false" => PyBool::new(py, false).to_owned().into_any(),
        "none" => py.None().into_bound(py),
        _ => match text.parse::<i64>() {
            Ok(n) => n.into_pyobject(py)?.into_any(),
            Err(_) => PyString::new(py, text).into_any(),
        },
    })
}

/// A game with its rules: English checkers or a morris game, made by `load_game`.
///
/// It makes states (`new_initial_state`, `state_from_fen`) and describes the action space and
/// observation tensor that its states and `VectorEnv` share. Two games are equal when they
/// play alike, the same family under the same rules, whatever id they were loaded by
/// (`load_game("nine_mens_morris", men=12, diagonals=True)` is Morabaraba).
#[pyclass(module = "perfectplay", name = "Game", frozen, eq, hash)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct PyGame {
    pub(crate) id: &'static str,
    pub(crate) game: AnyGame,
}

// The id names how a game was loaded (or, for tables of rules that are no preset's, the
// preset they differ least from): a label, not part of what the game is.
impl PartialEq for PyGame {
    fn eq(&self, other: &PyGame) -> bool {
        self.game == other.game
    }
}

impl Eq for PyGame {}

impl std::hash::Hash for PyGame {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.game.hash(state);
    }
}

impl PyGame {
    /// Loads `id` with rule options.
    pub(crate) fn load(id: &str, options: &[(String, String)]) -> Result<PyGame> {
        let (id, game) = AnyGame::load(id, options).map_err(EnvError::from)?;
        Ok(PyGame {
            id: id.name(),
            game,
        })
    }

    /// The options whose values differ from those of the game loaded without options.
    fn changed_options(&self) -> Vec<(&'static str, String)> {
        let base = PyGame::load(self.id, &[])
            .map(|g| g.settings())
            .unwrap_or_default();
        self.settings()
            .into_iter()
            .filter(|(name, value)| !base.iter().any(|(n, v)| n == name && v == value))
            .collect()
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.game.settings()
    }
}

#[pymethods]
impl PyGame {
    /// The game id, e.g. `checkers` or `nine_mens_morris` (an alias given to `load_game` is
    /// replaced by the id it names).
    #[getter]
    fn id(&self) -> &'static str {
        self.id
    }

    /// The game's family: `checkers` or `morris`.
    #[getter]
    fn family(&self) -> &'static str {
        self.game.family()
    }

    /// Every rule option with its value: bools, ints, strs, and `None` for "no limit".
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.settings() {
            dict.set_item(name, option_value(py, &value)?)?;
        }
        Ok(dict)
    }

    /// Every rule option `load_game` accepts for this game: `(name, values taken, what it
    /// does)`.
    fn rule_options(&self) -> Vec<(&'static str, &'static str, &'static str)> {
        self.game
            .rule_options()
            .iter()
            .map(|o| (o.name, o.expected, o.help))
            .collect()
    }

    /// A new game from the starting position.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: match self.game {
                AnyGame::Checkers(g) => AnyState::Checkers(State::new(self.id, g)),
                AnyGame::Morris(g) => AnyState::Morris(State::new(self.id, g)),
            },
        }
    }

    /// A new game from a position string: PDN FEN for checkers (`B:W21-32:B1-12`), the morris
    /// position string otherwise (`.../.../.../....../.../.../... w 9 9 0 - -`). Raises
    /// `InvalidPositionError` if it cannot be read.
    fn state_from_fen(&self, fen: &str) -> PyResult<PyState> {
        let inner = match self.game {
            AnyGame::Checkers(g) => {
                AnyState::Checkers(State::from_fen(self.id, g, fen).map_err(Error::from)?)
            }
            AnyGame::Morris(g) => {
                AnyState::Morris(State::from_fen(self.id, g, fen).map_err(Error::from)?)
            }
        };
        Ok(PyState { inner })
    }

    /// The size of the action space: every action is below it (128 for checkers, 600 on the
    /// 24-point morris board).
    fn num_distinct_actions(&self) -> usize {
        with_family!(AnyGame, &self.game, g => g.action_count())
    }

    /// The shape of an observation: `(5, 8, 8)` for checkers, `(7, points)` for morris.
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let shape = with_family!(AnyGame, &self.game, g => g.observation_shape());
        PyTuple::new(py, shape)
    }

    /// The number of players: 2.
    fn num_players(&self) -> usize {
        2
    }

    /// OpenSpiel's description of this game (`pyspiel.GameType`, from `perfectplay.openspiel`;
    /// needs `pip install perfectplay[openspiel]`), so that OpenSpiel's algorithms
    /// (`MCTSBot`, `evaluate_bots`, ...) take this game and its states as they are.
    fn get_type<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let bridge = slf.py().import("perfectplay.openspiel")?;
        bridge.call_method1("game_type", (slf,))
    }

    /// The winner's return: 1.0.
    fn max_utility(&self) -> f64 {
        1.0
    }

    /// The loser's return: -1.0.
    fn min_utility(&self) -> f64 {
        -1.0
    }

    /// The sum of both players' returns in every game: 0.0 (zero-sum).
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// What `action` names without a position: `d6`, `a1-a4` or `pass` in morris (as
    /// `State.action_to_string` says it), the piece's square and the next square in the
    /// action's direction in checkers (`11-15`; in a position the same action may be the
    /// jump `11x18`). `IllegalActionError` for a number outside the action space or a checkers
    /// step off the board.
    fn action_to_string(&self, action: crate::ints::Int) -> Result<String> {
        let name = action.get::<usize>().and_then(|a| match &self.game {
            AnyGame::Checkers(g) => g.action_name(a),
            AnyGame::Morris(g) => Some(g.action_to_string(a)).filter(|n| n != "invalid"),
        });
        name.ok_or_else(|| {
            Error::UnknownAction(format!(
                "{action} names no action of {} (actions are 0 to {})",
                self.id,
                self.num_distinct_actions() - 1
            ))
        })
    }

    /// The action that `text` names, as `action_to_string` writes it (checkers also reads the
    /// jump form, `11x18`, as the action towards 15). `IllegalActionError` for text that
    /// names no action. `State.string_to_action` also checks the action is legal there.
    fn string_to_action(&self, text: &str) -> Result<usize> {
        let action = match &self.game {
            AnyGame::Checkers(g) => g.parse_action(text),
            AnyGame::Morris(g) => g.parse_action(text),
        };
        action.ok_or_else(|| {
            let form = match &self.game {
                AnyGame::Checkers(_) => "a step such as 11-15 or a jump such as 11x18",
                AnyGame::Morris(_) => "a point such as d6, a move such as a1-a4, or pass",
            };
            Error::UnknownAction(format!("{text:?} names no action of {}: {form}", self.id))
        })
    }

    /// The names of the board's points (morris) or squares (checkers, `1` to `32`), in index
    /// order: the point of action `p` in morris, and square index `s` of checkers action
    /// `4 * s + d`.
    fn point_names(&self) -> Vec<String> {
        match &self.game {
            AnyGame::Checkers(_) => (1..=32).map(|n| n.to_string()).collect(),
            AnyGame::Morris(g) => {
                let board = g.board();
                (0..board.point_count() as u8)
                    .map(|p| board.name(p).to_owned())
                    .collect()
            }
        }
    }

    /// The mills of a morris board: an int64 array `[mills, 3]` of point indices, each row in
    /// ascending order, the rows in ascending order. `ValueError` for checkers.
    fn mills<'py>(&self, py: Python<'py>) -> Result<Bound<'py, numpy::PyArray2<i64>>> {
        let AnyGame::Morris(g) = &self.game else {
            return Err(Error::BadArgument("checkers has no mills".into()));
        };
        let mut rows: Vec<Vec<i64>> = g
            .board()
            .mills()
            .iter()
            .map(|&set| {
                (0..32)
                    .filter(|p| set >> p & 1 == 1)
                    .map(i64::from)
                    .collect()
            })
            .collect();
        rows.sort();
        numpy::PyArray2::from_vec2(py, &rows).map_err(|e| Error::BadArgument(e.to_string()))
    }

    /// Which points a man may slide between: a bool array `[points, points]`, symmetric, true
    /// where a line joins the two points (morris). For checkers, `[32, 32]`, true where the
    /// squares touch diagonally.
    fn neighbours<'py>(&self, py: Python<'py>) -> Result<Bound<'py, numpy::PyArray2<bool>>> {
        let rows: Vec<Vec<bool>> = match &self.game {
            AnyGame::Morris(g) => {
                let board = g.board();
                let n = board.point_count() as u8;
                (0..n)
                    .map(|p| {
                        (0..n)
                            .map(|q| board.neighbours(p).contains_index(q))
                            .collect()
                    })
                    .collect()
            }
            AnyGame::Checkers(g) => (0..32usize)
                .map(|s| {
                    let near: Vec<usize> = (0..4)
                        .filter_map(|d| g.action_name(4 * s + d))
                        .filter_map(|name| {
                            let to: usize = name.split_once('-')?.1.parse().ok()?;
                            Some(to - 1)
                        })
                        .collect();
                    (0..32).map(|t| near.contains(&t)).collect()
                })
                .collect(),
        };
        numpy::PyArray2::from_vec2(py, &rows).map_err(|e| Error::BadArgument(e.to_string()))
    }

    /// The number of move sequences of `depth` whole moves from `state`'s position (perft,
    /// counting every capture path in checkers), computed without the Python lock. `state`
    /// must be a state of this game under the same rules (`ValueError` otherwise), and `depth`
    /// from 0 to 64. Ctrl-C stops it (`KeyboardInterrupt`).
    fn perft(&self, py: Python<'_>, state: &PyState, depth: crate::ints::Int) -> PyResult<u64> {
        let depth: u32 = depth
            .unsigned::<u32>("depth")
            .ok()
            .filter(|&d| d <= perfectplay_core::MAX_PERFT_DEPTH)
            .ok_or_else(|| {
                Error::BadArgument(format!(
                    "depth must be an integer from 0 to {}, not {depth} (a deeper count \
                     exceeds 64 bits)",
                    perfectplay_core::MAX_PERFT_DEPTH
                ))
            })?;
        let of_state = crate::py_state::game_of(&state.inner);
        if of_state.game != self.game {
            return Err(Error::BadArgument(format!(
                "perft of {}: the state is one of {} (a game counts its own states only)",
                self.__repr__(),
                of_state.__repr__()
            ))
            .into());
        }
        let inner = state.inner.clone();
        // Three plies take moments in every game: counted at once, without a thread's start.
        if depth <= 3 {
            return Ok(py.detach(move || with_family!(AnyState, &inner, s => s.perft(depth))));
        }
        // Deeper, on a thread of its own, so that Ctrl-C (Python's signals, looked at every
        // tenth of a second) stops it: a deep perft can run for hours.
        let stop = Arc::new(AtomicBool::new(false));
        let (sent, mut counted) = std::sync::mpsc::channel();
        let worker = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let _ = sent.send(with_family!(AnyState, &inner, s => s.perft_until(depth, &stop)));
            })
        };
        loop {
            // The receiver goes to the thread without the GIL and back: it is not `Sync`.
            let (received, back) = py.detach(move || {
                let received = counted.recv_timeout(Duration::from_millis(100));
                (received, counted)
            });
            counted = back;
            match received {
                Ok(Some(leaves)) => return Ok(leaves),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        let _ = py.detach(|| worker.join());
                        return Err(signal);
                    }
                }
                // Stopped only by the flag, which is set above alone; or the thread panicked.
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(
                        Error::BadArgument("perft stopped before it finished".into()).into(),
                    )
                }
            }
        }
    }

    /// Pickles as the id and the options that differ from the preset's.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, GameRecord)> {
        let restore = py.import("perfectplay._core")?.getattr("_restore_game")?;
        Ok((restore, (self.id, self.changed_options())))
    }

    fn __repr__(&self) -> String {
        let mut args = vec![format!("{:?}", self.id)];
        for (name, value) in self.changed_options() {
            let value = match value.as_str() {
                "true" => "True".to_owned(),
                "false" => "False".to_owned(),
                "none" => "None".to_owned(),
                v if v.parse::<i64>().is_ok() => v.to_owned(),
                v => format!("{v:?}"),
            };
            args.push(format!("{name}={value}"));
        }
        format!("perfectplay.load_game({})", args.join(", "))
    }
}

/// Loads a game by id or alias, with rule options as keywords.
///
/// `load_game("checkers")`, `load_game("twelve_mens_morris", removal="mill_immunity")`,
/// `load_game("cowboy_checkers", ply_limit=200, flying=None)`. Values are bools, ints, strs, or
/// `None` for "no limit"/"never". An unknown id raises `UnknownGameError` and an unknown option,
/// a bad value or a combination the rules cannot play raises `ValueError`, each naming the
/// valid choices. `game_ids()` lists the ids and `Game.rule_options()` the options.
#[pyfunction]
#[pyo3(signature = (game_id, **rules))]
pub(crate) fn load_game(game_id: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    let options = options_from_kwargs(rules)?;
    Ok(PyGame::load(game_id, &options)?)
}

/// A pickled `Game`: its id and the options that differ from the preset's, as text.
type GameRecord = (&'static str, Vec<(&'static str, String)>);

/// Unpickles a `Game`: `id` with options written as text.
#[pyfunction]
pub(crate) fn _restore_game(id: &str, options: Vec<(String, String)>) -> PyResult<PyGame> {
    Ok(PyGame::load(id, &options)?)
}

/// Every game id: `checkers`, then the morris presets; with `aliases=True`, each followed by
/// its other names (such as `cowboy_checkers`).
#[pyfunction]
#[pyo3(signature = (aliases = false))]
pub(crate) fn game_ids(aliases: bool) -> Vec<&'static str> {
    registry::game_ids(aliases)
}
