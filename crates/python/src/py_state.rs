//! Python's `State`, `Move` and `Outcome`.

use std::fmt;

use numpy::{PyArray1, PyArray3, PyArrayDyn, PyArrayMethods};
use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_core::record::{is_tag_name, RecordResult};
use perfectplay_core::ActionGame;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyList};

use crate::errors::Error;
use crate::ints::Int;
use crate::py_game::PyGame;
use perfectplay_core::registry::{AnyGame, AnyMove};
use perfectplay_core::with_family;
use perfectplay_env::actions::MAX_ACTIONS;
use perfectplay_env::state::{Ending, Record, State};

/// A move: one whole turn, such as `11-15`, `15x24x31`, `d6` or `a1-a4xd7`.
///
/// `str(move)` is its standard notation, which `State.apply` reads back. Moves compare equal
/// and hash alike when they are the same turn of the same family.
#[pyclass(module = "perfectplay", name = "Move", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyMove {
    pub(crate) mv: AnyMove,
}

impl fmt::Display for PyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mv.fmt(f)
    }
}

#[pymethods]
impl PyMove {
    /// Whether the move takes one or more of the opponent's pieces.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// The family the move belongs to: `checkers` or `morris`.
    #[getter]
    fn family(&self) -> &'static str {
        self.mv.family()
    }

    fn __str__(&self) -> String {
        self.mv.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.mv.to_string())
    }

    /// The move itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
    /// same object.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The move itself, as for `copy.copy`.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// How a game ended: `winner` (the winning player's index, 0 being the side that moved first,
/// or `None` for a draw or a truncated game), `reason` (one of "no moves", "no men", "mill",
/// "board full", "repetition", "move rule", "adjudication", "ply limit") and `truncated`
/// (whether the ply limit cut the game short without a result).
#[pyclass(module = "perfectplay", name = "Outcome", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyOutcome {
    /// The winning player's index (0 moved first), or `None` for a draw or truncation.
    #[pyo3(get)]
    winner: Option<usize>,
    /// The winner's colour, `"black"` or `"white"`, or `None`.
    #[pyo3(get)]
    winner_color: Option<&'static str>,
    /// Why the game ended: "no moves", "no men", "mill", "board full", "repetition",
    /// "move rule", "adjudication" or "ply limit".
    #[pyo3(get)]
    reason: &'static str,
    /// Whether the ply limit cut the game short (no result: both returns are 0).
    #[pyo3(get)]
    truncated: bool,
}

impl From<Ending> for PyOutcome {
    fn from(e: Ending) -> Self {
        PyOutcome {
            winner: e.winner,
            winner_color: e.winner_color,
            reason: e.reason,
            truncated: e.truncated,
        }
    }
}

#[pymethods]
impl PyOutcome {
    fn __repr__(&self) -> String {
        let winner = self.winner.map_or("None".to_owned(), |w| w.to_string());
        format!(
            "Outcome(winner={winner}, reason={:?}, truncated={})",
            self.reason,
            if self.truncated { "True" } else { "False" }
        )
    }

    /// The outcome itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
    /// same object.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The outcome itself, as for `copy.copy`.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// Python ints for every action, made once: the lists of legal actions share them instead
/// of allocating ints above 256 (which Python does not cache) at every call.
static ACTION_INTS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

fn action_ints(py: Python<'_>) -> &'static [Py<PyAny>] {
    ACTION_INTS.get_or_init(py, || {
        (0..MAX_ACTIONS)
            .map(|a| PyInt::new(py, a).into_any().unbind())
            .collect()
    })
}

/// A game in progress of either family.
#[derive(Clone, Debug)]
pub(crate) enum AnyState {
    /// A checkers game.
    Checkers(State<Checkers>),
    /// A morris game.
    Morris(State<Morris>),
}

/// A game in progress: the position, its history (for repetition, the move rule, the ply limit
/// and `undo`) and, while a turn is made action by action, how far it has got.
///
/// Two interfaces share it. Whole moves: `legal_moves()` and `apply(move)`, in standard
/// notation. Actions, for reinforcement learning: `legal_actions()`, `legal_action_mask()`,
/// `apply_action(a)` and `observation()`, where a turn may take several actions by the same
/// player (a checkers capture is one action per jump; a morris mill's removal is an action of
/// its own). The observation and action encoding are those of `VectorEnv`.
///
/// `current_player()` is 0 for the side that moves first under the rules (Black in checkers,
/// White in morris), 1 for the other, and -4 (`TERMINAL_PLAYER`, pyspiel's terminal id) once
/// the game is over.
#[pyclass(module = "perfectplay", name = "State")]
#[derive(Clone, Debug)]
pub(crate) struct PyState {
    pub(crate) inner: AnyState,
}

pub(crate) fn game_of(inner: &AnyState) -> PyGame {
    match inner {
        AnyState::Checkers(s) => PyGame {
            id: s.id,
            game: AnyGame::Checkers(*s.game()),
        },
        AnyState::Morris(s) => PyGame {
            id: s.id,
            game: AnyGame::Morris(*s.game()),
        },
    }
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        game_of(&self.inner)
    }

    /// The legal moves (whole turns) as `Move` objects; none once the game is over. In the
    /// middle of a turn made with `apply_action`, the turns of the position as it stood at the
    /// start of the turn.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = with_family!(AnyState, &self.inner, s => s.legal_moves());
        let moves = moves.into_iter().map(|mv| PyMove { mv });
        PyList::new(py, moves)
    }

    /// Plays a move, given as a `Move` or in standard notation (`"11-15"`, `"15x31"`, `"d6"`,
    /// `"a1-a4xd7"`). An illegal or unreadable move raises `IllegalMoveError` and leaves the
    /// state unchanged, as does a move while a turn is half made with `apply_action`. A
    /// forfeited turn (`--` in a game record) is played with `forfeit_turn()`.
    // `r#move`: Python callers name the argument `move`, as the stub and the docs do.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(mv) = r#move.cast::<PyMove>() {
            let mv = mv.get().mv;
            with_family!(AnyState, &mut self.inner, s => s.apply_move(&mv)).map_err(Error::from)?;
        } else if let Ok(text) = r#move.extract::<String>() {
            with_family!(AnyState, &mut self.inner, s => s.apply_text(&text))
                .map_err(Error::from)?;
        } else {
            return Err(Error::ArgumentType("apply takes a Move or a str".into()).into());
        }
        Ok(())
    }

    /// Passes the turn without a move, as a player out of time forfeits it (the rule sheets'
    /// time limit; game records write it `--`, and `history()` shows it as `None`). It counts
    /// as a ply without progress. Raises `IllegalMoveError` while a turn is half made with
    /// `apply_action`, and once the game is over.
    fn forfeit_turn(&mut self) -> PyResult<()> {
        with_family!(AnyState, &mut self.inner, s => s.forfeit_turn()).map_err(Error::from)?;
        Ok(())
    }

    /// An independent copy, history included.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    /// Pickles as the game, the position string the game started from, the moves played since
    /// and the actions of a half-made turn: unpickling replays them, so history (repetition,
    /// undo) survives.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, StateRecord)> {
        let restore = py.import("perfectplay._core")?.getattr("_restore_state")?;
        let record = with_family!(AnyState, &self.inner, s => s.record());
        Ok((
            restore,
            (self.game(), record.origin, record.moves, record.actions),
        ))
    }

    /// The game as a game record: PDN for checkers, the same layout for morris (see
    /// `perfectplay.pdn`). `tags` (a dict or a list of pairs) come first, but for `Result`,
    /// `FEN`, `SetUp`, `GameType`, `Game` and `Rules`, which the state writes; `result` is `1-0`
    /// (White wins), `0-1`, `1/2-1/2` or `*`, by default the game's own (`*` while it goes
    /// on). A half-made turn is left out.
    #[pyo3(signature = (tags = None, result = None))]
    fn to_pdn(
        &self,
        tags: Option<&Bound<'_, PyAny>>,
        result: Option<&str>,
    ) -> crate::errors::Result<String> {
        let tags: Vec<(String, String)> = match tags {
            None => Vec::new(),
            Some(t) => {
                let items = if let Ok(d) = t.cast::<pyo3::types::PyDict>() {
                    d.items().into_any()
                } else {
                    t.clone()
                };
                items.extract().map_err(|_| {
                    Error::ArgumentType(
                        "tags: a dict of str to str, or a list of (name, value) pairs".into(),
                    )
                })?
            }
        };
        // As the reader takes them back: a tag name it would refuse is refused here.
        if let Some((name, _)) = tags.iter().find(|(name, _)| !is_tag_name(name)) {
            return Err(Error::BadArgument(format!(
                "tag name {name:?}: a tag name is ASCII letters, digits and _"
            )));
        }
        let result = match result {
            None => None,
            Some(token) => Some(RecordResult::from_token(token).ok_or_else(|| {
                Error::BadArgument(format!(
                    "result {token:?}: one of 1-0 (White wins), 0-1, 1/2-1/2 or *"
                ))
            })?),
        };
        Ok(with_family!(AnyState, &self.inner, s => s.write_record(&tags, result)))
    }

    /// The position string: PDN FEN for checkers, the morris position string (which records
    /// the plies without progress) otherwise. `Game.state_from_fen` reads it back.
    fn fen(&self) -> String {
        with_family!(AnyState, &self.inner, s => s.fen())
    }

    fn __str__(&self) -> String {
        with_family!(AnyState, &self.inner, s => s.diagram())
    }

    fn __repr__(&self) -> String {
        let (id, fen) = with_family!(AnyState, &self.inner, s => (s.id, s.fen()));
        format!("<perfectplay.State {id} {fen:?}>")
    }

    /// The board as an SVG picture (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        with_family!(AnyState, &self.inner, s => s.svg())
    }

    /// The board as pixels: a `(height, width, 3)` uint8 RGB array of the SVG picture drawn at
    /// `scale` times its size over white (Gymnasium's `rgb_array`). Text uses the machine's
    /// fonts; without any, it is left out and the rest is drawn.
    #[pyo3(signature = (scale = 1.0))]
    fn render_rgb<'py>(&self, py: Python<'py>, scale: f32) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let svg = with_family!(AnyState, &self.inner, s => s.svg());
        let image = py
            .detach(|| perfectplay_render::rasterize(&svg, scale))
            .map_err(|e| Error::BadArgument(e.to_string()))?;
        let shape = [image.height as usize, image.width as usize, 3];
        PyArray1::from_vec(py, image.pixels).reshape(shape)
    }

    /// The player to act: 0 (the side that moves first), 1, or -4 (`TERMINAL_PLAYER`) once the
    /// game is over.
    fn current_player(&self) -> i32 {
        with_family!(AnyState, &self.inner, s => s.current_player())
    }

    /// The player the rules have to move: `current_player()` while the game goes on, and once
    /// it is over (where `current_player()` is -4) the side `observation()` is seen from.
    fn player_to_move(&self) -> i32 {
        with_family!(AnyState, &self.inner, s => s.player_to_move())
    }

    /// Whether the game is over: won, drawn, or truncated by the ply limit.
    fn is_terminal(&self) -> bool {
        with_family!(AnyState, &self.inner, s => s.is_terminal())
    }

    /// False: no chance (OpenSpiel's state API, which its algorithms ask).
    fn is_chance_node(&self) -> bool {
        false
    }

    /// False: the players take turns (OpenSpiel's state API).
    fn is_simultaneous_node(&self) -> bool {
        false
    }

    /// Whether a player acts now: the game is not over (OpenSpiel's state API).
    fn is_player_node(&self) -> bool {
        !self.is_terminal()
    }

    /// `[return of player 0, return of player 1]`: 1.0 for a win, -1.0 for a loss, 0.0 for a
    /// draw, a truncated game, or a game still going on.
    fn returns(&self) -> Vec<f32> {
        with_family!(AnyState, &self.inner, s => s.returns()).to_vec()
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        with_family!(AnyState, &self.inner, s => s.ending()).map(PyOutcome::from)
    }

    /// The legal actions, ascending; none once the game is over. With `player` (OpenSpiel's
    /// form, `state.legal_actions(state.current_player())`), none unless that player acts now.
    #[pyo3(signature = (player = None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<Int>,
    ) -> PyResult<Bound<'py, PyList>> {
        if player.is_some_and(|p| p.get::<i32>() != Some(self.current_player())) {
            return Ok(PyList::empty(py));
        }
        let legal = with_family!(AnyState, &mut self.inner, s => s.legal_actions());
        let ints = action_ints(py);
        PyList::new(py, legal.iter().map(|a| ints[a].bind(py)))
    }

    /// A bool array of `num_distinct_actions()`, true at the legal actions.
    fn legal_action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let (count, legal) = with_family!(AnyState, &mut self.inner, s => {
            (s.game().action_count(), s.legal_actions())
        });
        let mut mask = vec![false; count];
        for a in legal.iter() {
            mask[a] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Applies one action. A turn may take several: each jump of a checkers capture, and a
    /// morris placement or move and then each man it takes; the same player acts until the
    /// turn is complete. An illegal action raises `IllegalActionError` (naming it and the
    /// legal ones) and leaves the state unchanged.
    fn apply_action(&mut self, action: Int) -> PyResult<()> {
        let applied = match action.get::<i64>() {
            Some(action) => with_family!(AnyState, &mut self.inner, s => s.apply_action(action)),
            None => Err(with_family!(AnyState, &mut self.inner, s => {
                s.refuse_number(&action.to_string())
            })),
        };
        Ok(applied.map_err(Error::from)?)
    }

    /// A copy of the state with `action` applied.
    fn child(&self, action: Int) -> PyResult<PyState> {
        let mut next = Clone::clone(self);
        next.apply_action(action)?;
        Ok(next)
    }

    /// What `action` means now: `11-15` (a step), `15x24` (one jump), `d6` (a placement, or a
    /// removal after a mill), `a1-a4`, `pass`, or `invalid`.
    fn action_to_string(&self, action: Int) -> String {
        match action.get::<usize>() {
            Some(action) => with_family!(AnyState, &self.inner, s => s.action_to_string(action)),
            None => "invalid".to_owned(),
        }
    }

    /// The legal action that `text` names (`11-15`, `15x24`, `d6`, `a1-a4`, `pass`: what
    /// `action_to_string` writes; case and spaces around it do not matter).
    /// `IllegalActionError` names the legal ones when none matches.
    fn string_to_action(&mut self, text: &str) -> crate::errors::Result<usize> {
        let wanted = text.trim().to_ascii_lowercase();
        with_family!(AnyState, &mut self.inner, s => {
            let legal: Vec<usize> = s.legal_actions().iter().collect();
            let names: Vec<String> = legal.iter().map(|&a| s.action_to_string(a)).collect();
            match names.iter().position(|n| n.eq_ignore_ascii_case(&wanted)) {
                Some(i) => Ok(legal[i]),
                None => Err(Error::UnknownAction(format!(
                    "{text:?} is no legal action here; legal: {}",
                    if names.is_empty() { "none (the game is over)".to_owned() } else { names.join(" ") }
                ))),
            }
        })
    }

    /// The observation flattened: a float32 array of `prod(Game.observation_shape())` values
    /// (OpenSpiel's `observation_tensor`). Observations are seen from `player_to_move()`,
    /// the game over or not; `player`, if given, must be that player (`ValueError`
    /// otherwise).
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<Int>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seen_from = self.player_to_move();
        if let Some(p) = player.filter(|p| p.get::<i32>() != Some(seen_from)) {
            return Err(Error::BadArgument(format!(
                "observations are seen from the player to move ({seen_from}, as player_to_move() \
                 says), not player {p}"
            ))
            .into());
        }
        let observation = self.observation(py)?;
        let len = numpy::PyUntypedArrayMethods::len(&observation);
        observation.reshape([len])
    }

    /// States are equal when they are of the same game (rules included) with the same history:
    /// the same starting position, the same moves since, the same actions of a half-made
    /// turn. `state == state.clone()`; two move orders reaching one position are different
    /// states (repetition counts differ). States change as they are played, so they are not
    /// hashable; hash `fen()` or the history to key a table by them.
    fn __eq__(&self, other: PyRef<'_, PyState>) -> bool {
        game_of(&self.inner) == game_of(&other.inner)
            && with_family!(AnyState, &self.inner, s => s.record())
                == with_family!(AnyState, &other.inner, s => s.record())
    }

    /// The actions that play `move` from the start of a turn, in order. A move that is not
    /// legal there raises `IllegalMoveError`.
    fn move_actions(&self, r#move: &PyMove) -> PyResult<Vec<usize>> {
        Ok(
            with_family!(AnyState, &self.inner, s => s.move_actions(&r#move.mv))
                .map_err(Error::from)?,
        )
    }

    /// The observation tensor (float32, `Game.observation_shape()`), seen from the player to
    /// move. Checkers: planes of own men, own kings, the opponent's men and kings, and the
    /// capturing piece mid-capture, on the 8x8 board turned so that the player to move plays
    /// up. Morris: planes of own men, the opponent's men, empty points, own and the opponent's
    /// men in hand (as a fraction), a plane of ones while choosing men to take, and the point
    /// the turn's man arrived on then.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let shape = with_family!(AnyState, &self.inner, s => s.game().observation_shape());
        let array = PyArrayDyn::<f32>::zeros(py, shape, false);
        {
            let mut view = array.readwrite();
            let out = view.as_slice_mut()?;
            with_family!(AnyState, &self.inner, s => s.write_observation(out));
        }
        Ok(array)
    }

    /// Takes back the last action of a turn being made with `apply_action` (returns `None`),
    /// or else the last ply: a whole move (returns it) or a forfeited turn (returns `None`;
    /// `is_mid_turn()`, asked before, tells the two `None`s apart). Raises `IndexError` at the
    /// start of the history.
    fn undo(&mut self) -> PyResult<Option<PyMove>> {
        let mv = with_family!(AnyState, &mut self.inner, s => s.undo()).map_err(Error::from)?;
        Ok(mv.map(|mv| PyMove { mv }))
    }

    /// The plies played so far, in order: each `Move`, or `None` where a turn was forfeited
    /// (`forfeit_turn`, or `--` in a game record).
    fn history(&self) -> Vec<Option<PyMove>> {
        with_family!(AnyState, &self.inner, s => s.history())
            .into_iter()
            .map(|mv| mv.map(|mv| PyMove { mv }))
            .collect()
    }

    /// The number of plies played so far: whole moves and forfeited turns.
    fn ply(&self) -> u32 {
        with_family!(AnyState, &self.inner, s => s.ply())
    }

    /// Whether a turn is half made with `apply_action` (the same player acts next).
    fn is_mid_turn(&self) -> bool {
        with_family!(AnyState, &self.inner, s => s.is_mid_turn())
    }
}

/// A pickled `State`: game, starting position string, moves, actions of the half-made turn.
type StateRecord = (PyGame, String, Vec<String>, Vec<usize>);

/// Unpickles a `State` by replaying its record; a record that does not replay raises the error
/// of the first step that fails.
#[pyfunction]
pub(crate) fn _restore_state(
    game: PyRef<'_, PyGame>,
    origin: String,
    moves: Vec<String>,
    actions: Vec<usize>,
) -> PyResult<PyState> {
    let record = Record {
        origin,
        moves,
        actions,
    };
    let inner = match game.game {
        AnyGame::Checkers(g) => {
            AnyState::Checkers(State::from_record(game.id, g, &record).map_err(Error::from)?)
        }
        AnyGame::Morris(g) => {
            AnyState::Morris(State::from_record(game.id, g, &record).map_err(Error::from)?)
        }
    };
    Ok(PyState { inner })
}

/// A game read from a record: its tags, its state and its result token.
type ReadRecord = (Vec<(String, String)>, PyState, &'static str);

/// The games of the record `text` read as games of `game`: `(tags, state, result)` each, the
/// result as its token (`1-0` White wins, `0-1` Black wins, `1/2-1/2`, `*`). `RecordError`
/// names the game, the move and the problem.
#[pyfunction]
pub(crate) fn _read_records(
    game: PyRef<'_, PyGame>,
    text: &str,
) -> crate::errors::Result<Vec<ReadRecord>> {
    Ok(match game.game {
        AnyGame::Checkers(g) => State::read_records(game.id, g, text)?
            .into_iter()
            .map(|(tags, s, r)| {
                (
                    tags,
                    PyState {
                        inner: AnyState::Checkers(s),
                    },
                    r.token(),
                )
            })
            .collect(),
        AnyGame::Morris(g) => State::read_records(game.id, g, text)?
            .into_iter()
            .map(|(tags, s, r)| {
                (
                    tags,
                    PyState {
                        inner: AnyState::Morris(s),
                    },
                    r.token(),
                )
            })
            .collect(),
    })
}

/// Checks `state` against the rules engine: its moves replayed through the engine's
/// `GameState` give the same position, counters and outcome, and the legal actions of the
/// position and stage, what each leads to and the observation are the engine's. Raises
/// `AssertionError` at the first difference; the test suite runs it along random games.
#[pyfunction]
pub(crate) fn _self_check(state: &PyState) -> PyResult<()> {
    with_family!(AnyState, &state.inner, s => s.check()).map_err(|e| Error::SelfCheck(e).into())
}
