//! Python's `Tablebase` and `Probe`: perfect play read from endgame databases (the solver's
//! `AnyTablebase`), with the GIL released around the reads.
//!
//! A `Tablebase` belongs to one game under one rule set, up to the history rules (repetition,
//! move rule, ply limit), which databases do without: a position that can only repeat is a
//! draw. It reads the tables of one or more directories, each table mapped on the first probe
//! that needs it. Probing is thread-safe and releases the GIL.
//!
//! # Encoded positions
//!
//! `probe_batch` and `encode` use one row of four `uint32` per position:
//!
//! | family | column 0 | column 1 | column 2 | column 3 |
//! |---|---|---|---|---|
//! | morris | White's men (bit *i*: point *i*) | Black's men | White's men in hand + 256 x Black's | player to move |
//! | checkers | Black's pieces (bit *i*: square *i* + 1) | White's pieces | kings of both | player to move |
//!
//! The player to move is 0 for the side that moves first (White in morris, Black in checkers)
//! and 1 for the other, as `State.current_player()` numbers them.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use perfectplay_core::morris::MorrisPosition;
use perfectplay_core::SplitMix64;
use perfectplay_solver::any::{self, tables_refuse, AnyPosition, AnyTablebase, RowsError};
use perfectplay_solver::limits::{available_cpus, check_threads};
use perfectplay_solver::morris::{CheckpointLock, PlacementSearch, SearchHistory};
use perfectplay_solver::rows::{Row, RowError};
use perfectplay_solver::{ProbeError, Value};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrays::exact_integers;
use crate::errors::{Error, Result};
use crate::ints::Int;
use crate::py_game::PyGame;
use crate::py_state::{AnyState, PyMove, PyState};
use perfectplay_core::registry::AnyGame;
use perfectplay_core::with_family;
use perfectplay_env::perfect::{draw_position, parse_subspace};
use perfectplay_env::state::State;
use perfectplay_env::Error as EnvError;

/// What `probe_batch` returns: values and distances.
type WdlAndPlies<'py> = (Bound<'py, PyArray1<i8>>, Bound<'py, PyArray1<i32>>);

/// The longest principal variation asked for (a draw goes on to the limit).
const MAX_LINE: usize = 100_000;
/// The most states one `sample_states` call draws.
const MAX_SAMPLES: usize = 10_000_000;
/// What a drawn state takes beyond its Rust value: the Python object's header and the list's
/// pointer to it.
const STATE_OBJECT_BYTES: usize = 64;

/// What a probe found: the value for the side to move.
///
/// `wdl` is 1 (win), 0 (draw) or -1 (loss) for the side to move; `plies` is the number of
/// plies to the end of the game under optimal play (the winner the shortest way, the loser the
/// longest), or `None` for a draw or a table stored without distances (WDL-only), where
/// only what the rules decide has one: 0 for a game over, 1 for a move that ends it.
/// `Probe(wdl, plies=None)` makes one by hand, as its `repr` writes it (and as unpickling
/// does); a probe pickles and copies as the plain data it is.
#[pyclass(module = "perfectplay", name = "Probe", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyProbe {
    /// 1, 0 or -1: win, draw or loss for the side to move.
    #[pyo3(get)]
    wdl: i8,
    /// Plies to the end under optimal play; `None` for a draw or a WDL-only table (but for
    /// what the rules decide: 0 for a game over, 1 for a move that ends it).
    #[pyo3(get)]
    plies: Option<u32>,
}

impl From<Value> for PyProbe {
    fn from(v: Value) -> Self {
        PyProbe {
            wdl: any::wdl_number(v.wdl),
            plies: v.plies,
        }
    }
}

#[pymethods]
impl PyProbe {
    /// `"win"`, `"draw"` or `"loss"`.
    #[getter]
    fn result(&self) -> &'static str {
        match self.wdl {
            1 => "win",
            0 => "draw",
            _ => "loss",
        }
    }

    fn __str__(&self) -> String {
        match self.plies {
            Some(p) if self.wdl != 0 => format!("{} in {p}", self.result()),
            _ => self.result().to_owned(),
        }
    }

    fn __repr__(&self) -> String {
        let plies = self.plies.map_or("None".to_owned(), |p| p.to_string());
        format!("Probe(wdl={}, plies={plies})", self.wdl)
    }

    // `wdl` 1, 0 or -1, `plies` an int of 0 or more or `None` (the class's docs say it).
    #[new]
    #[pyo3(signature = (wdl, plies = None))]
    fn new(wdl: Int, plies: Option<Int>) -> Result<PyProbe> {
        let wdl = wdl
            .get::<i8>()
            .filter(|w| (-1..=1).contains(w))
            .ok_or_else(|| Error::BadArgument(format!("wdl must be 1, 0 or -1, not {wdl}")))?;
        let plies = plies.map(|p| p.unsigned("plies")).transpose()?;
        Ok(PyProbe { wdl, plies })
    }

    /// Pickles as `Probe(wdl, plies)`: a probe is plain data, so results can come back from
    /// worker processes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, pyo3::types::PyType>, (i8, Option<u32>)) {
        let probe = slf.get();
        (slf.get_type(), (probe.wdl, probe.plies))
    }

    /// The probe itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
    /// same object.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The probe itself, as for `copy.copy`.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// Endgame tables of one game, read from one or more directories.
///
/// Made by `perfectplay.tablebase.open(...)`. Probes take a `State` (at the start of a turn) or
/// a position string of the tablebase's game. A position whose table is in none of the
/// directories raises `MissingTableError` (a `KeyError`) naming the subspace and the
/// directories; a position no table can hold (a turn half made, more pieces than the
/// databases cover) raises `OutOfScopeError`; a damaged, truncated or other-version file
/// raises `TablebaseError`. Use it from any number of threads; `close()` (or a `with` block)
/// lets the tables go.
#[pyclass(module = "perfectplay", name = "Tablebase", frozen)]
pub(crate) struct PyTablebase {
    game: PyGame,
    inner: RwLock<Option<Arc<AnyTablebase>>>,
    dirs: RwLock<Vec<PathBuf>>,
}

impl PyTablebase {
    /// The directories searched, in order.
    pub(crate) fn dirs(&self) -> Vec<PathBuf> {
        self.dirs.read().map(|d| d.clone()).unwrap_or_default()
    }

    fn tables(&self) -> Result<Arc<AnyTablebase>> {
        self.inner
            .read()
            .map_err(|_| Error::Tablebase("the tablebase's lock was poisoned".to_owned()))?
            .clone()
            .ok_or(Error::TablebaseClosed)
    }

    /// The rows of `states` (states or position strings), end to end.
    fn encoded_rows(&self, states: &Bound<'_, PyAny>) -> Result<Vec<u32>> {
        let mut flat = Vec::new();
        for state in states
            .try_iter()
            .map_err(|_| Error::ArgumentType("encode takes an iterable of states".into()))?
        {
            // An exception the iterable raised (a bad position string in a generator,
            // KeyboardInterrupt) goes on as it is.
            let state = state.map_err(Error::Python)?;
            flat.extend(encode_row(&self.game.game, self.position_of(&state)?)?);
        }
        Ok(flat)
    }

    /// The states of a `probe_batch`: rows for those a row holds, the others apart. With
    /// `half_turns`, a state whose turn is half made is one of the others (it gets the
    /// default, as `get` gives it) rather than an error.
    fn gathered(&self, states: &Bound<'_, PyAny>, half_turns: bool) -> Result<Gathered> {
        let mut gathered = Gathered::default();
        for (i, state) in states
            .try_iter()
            .map_err(|_| Error::ArgumentType("probe_batch takes an iterable of states".into()))?
            .enumerate()
        {
            let state = state.map_err(Error::Python)?;
            gathered.count = i + 1;
            let pos = match self.position_of(&state) {
                Err(Error::OutOfScope(_)) if half_turns => {
                    gathered.others.push((i, None));
                    continue;
                }
                other => other?,
            };
            match any::encode(&self.game.game, pos) {
                Ok(row) => {
                    gathered.rows.extend(row);
                    gathered.row_of.push(i);
                }
                Err(RowError::Memory) => gathered.others.push((i, Some(pos))),
                Err(other) => return Err(Error::Tablebase(other.to_string())),
            }
        }
        Ok(gathered)
    }

    /// Probes gathered states: the rows in one batch, the others one by one; each value and
    /// distance at its state's place, or the first state's error.
    fn probe_gathered(
        &self,
        py: Python<'_>,
        gathered: &Gathered,
        missing: Option<i8>,
    ) -> Result<(Vec<i8>, Vec<i32>)> {
        let tables = self.tables()?;
        let game = self.game.game;
        let n = gathered.row_of.len();
        let (mut row_wdl, mut row_plies) = (vec![0i8; n], vec![-1i32; n]);
        let mut failure: Option<(usize, Error)> = None;
        let batch = py.detach(|| {
            perfectplay_env::pool::run(|| {
                tables.probe_rows(&game, &gathered.rows, missing, &mut row_wdl, &mut row_plies)
            })
        });
        match batch {
            Ok(()) => {}
            Err(RowsError::Probe { at, source }) => {
                failure = Some((gathered.row_of[at], Error::from(source)));
            }
            Err(other) => return Err(Error::Tablebase(other.to_string())),
        }
        let (mut wdl, mut plies) = (vec![0i8; gathered.count], vec![-1i32; gathered.count]);
        for (row, &i) in gathered.row_of.iter().enumerate() {
            (wdl[i], plies[i]) = (row_wdl[row], row_plies[row]);
        }
        for &(i, pos) in &gathered.others {
            if failure.as_ref().is_some_and(|(at, _)| *at < i) {
                break;
            }
            let found = match pos {
                Some(pos) => py.detach(|| tables.probe(pos)),
                None => Err(ProbeError::OutOfScope("a turn is half made".to_owned())),
            };
            match any::row_value(found, missing) {
                Ok(row) => (wdl[i], plies[i]) = row,
                Err(e) => {
                    failure = Some((i, Error::from(e)));
                    break;
                }
            }
        }
        match failure {
            Some((_, e)) => Err(e),
            None => Ok((wdl, plies)),
        }
    }

    /// The position of `state` (a `State` or a position string), checked to be of this game.
    fn position_of(&self, state: &Bound<'_, PyAny>) -> Result<AnyPosition> {
        if let Ok(text) = state.cast::<PyString>() {
            let text = text.to_string();
            return Ok(match &self.game.game {
                AnyGame::Checkers(_) => {
                    AnyPosition::Checkers(perfectplay_core::checkers::fen::parse(&text)?)
                }
                AnyGame::Morris(g) => AnyPosition::Morris(g.parse_fen(&text)?.0),
            });
        }
        let Ok(state) = state.cast::<PyState>() else {
            return Err(Error::ArgumentType(
                "a tablebase probes a State or a position string".into(),
            ));
        };
        let state = state.borrow();
        let of_state = crate::py_state::game_of(&state.inner);
        if let Some(why) = tables_refuse(&self.game.game, &of_state.game) {
            let agree = match why {
                any::RulesMismatch::Rules { .. } => {
                    " (the rules must agree, up to repetition, the move rule and the ply limit; \
                     in checkers, up to who moves first and adjudication too)"
                }
                _ => "",
            };
            return Err(Error::Tablebase(format!(
                "a state of {} cannot be probed in tables of {}: {why}{agree}",
                of_state.id, self.game.id,
            )));
        }
        if with_family!(AnyState, &state.inner, s => s.is_mid_turn()) {
            return Err(Error::OutOfScope(
                "a turn is half made with apply_action: probe at the start of a turn".to_owned(),
            ));
        }
        Ok(match &state.inner {
            AnyState::Checkers(s) => AnyPosition::Checkers(*s.position()),
            AnyState::Morris(s) => AnyPosition::Morris(*s.position()),
        })
    }
}

impl PyTablebase {
    /// Runs `work` on a placement search of these (morris) tables and the position of `state`
    /// with the GIL released, the search's table read from `checkpoint` first when the file
    /// exists and written to it afterwards, whether `work` succeeded or not (its entries are
    /// proven bounds either way).
    fn with_search<T: Send>(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        table_bits: Int,
        threads: Option<Int>,
        checkpoint: Option<PathBuf>,
        work: impl FnOnce(
                &PlacementSearch<'_>,
                &MorrisPosition,
                usize,
            ) -> std::result::Result<T, ProbeError>
            + Send,
    ) -> Result<T> {
        let table_bits = table_bits
            .get::<u32>()
            .filter(|b| (4..=34).contains(b))
            .ok_or_else(|| {
                Error::BadArgument(format!(
                    "table_bits must be 4 to 34 (2**table_bits entries of 8 bytes), not {table_bits}"
                ))
            })?;
        let threads = match threads {
            Some(t) => {
                let t = t.positive("threads")?;
                check_threads(t, false).map_err(|e| Error::BadArgument(e.to_string()))?
            }
            None => available_cpus(),
        };
        let AnyPosition::Morris(pos) = self.position_of(state)? else {
            return Err(Error::BadArgument(
                "checkers has no placement phase to search: probe its positions instead".to_owned(),
            ));
        };
        let tables = self.tables()?;
        let AnyTablebase::Morris(tb) = &*tables else {
            unreachable!("a tablebase's positions are of its own family")
        };
        let (result, unsaved) = py.detach(|| -> Result<_> {
            // Held for the call: no other search writes the file meanwhile.
            let _held = checkpoint
                .as_deref()
                .map(CheckpointLock::acquire)
                .transpose()?;
            let search = PlacementSearch::new(tb, table_bits)?;
            let earlier = match &checkpoint {
                Some(path) if path.exists() => search.load_table(path)?,
                _ => SearchHistory::default(),
            };
            let started = std::time::Instant::now();
            let result = work(&search, &pos, threads);
            let unsaved = checkpoint.as_ref().and_then(|path| {
                let history = earlier.with_run(search.stats(), started.elapsed().as_secs_f64());
                search.save_table(path, &history).err()
            });
            Ok((result, unsaved))
        })?;
        let value = result?;
        if let Some(e) = unsaved {
            // The value is worth more than the table: it is returned, and the failure told.
            let message = std::ffi::CString::new(format!(
                "the search's transposition table was not saved: {e}"
            ))
            .unwrap_or_default();
            PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
                &message,
                1,
            )
            .map_err(|e| Error::Tablebase(e.to_string()))?;
        }
        Ok(value)
    }
}

/// Runs `$body` with `$tb` the tables and `$pos` the position of the same family.
macro_rules! with_tables {
    ($tables:expr, $position:expr, |$tb:ident, $pos:ident| $body:expr) => {
        match (&*$tables, $position) {
            (AnyTablebase::Checkers($tb), AnyPosition::Checkers($pos)) => $body.map(|v| {
                v.into_iter()
                    .map(perfectplay_core::registry::AnyMove::Checkers)
                    .collect()
            }),
            (AnyTablebase::Morris($tb), AnyPosition::Morris($pos)) => $body.map(|v| {
                v.into_iter()
                    .map(perfectplay_core::registry::AnyMove::Morris)
                    .collect()
            }),
            _ => unreachable!("a tablebase's positions are of its own family"),
        }
    };
}

#[pymethods]
impl PyTablebase {
    /// Tables of `game` in `directories` (one directory, or several searched in order).
    /// Nothing is read until a probe needs it; a directory that does not exist raises
    /// `TablebaseError`.
    #[new]
    #[pyo3(signature = (game, directories, distances = true))]
    fn new(
        game: &Bound<'_, PyGame>,
        directories: &Bound<'_, PyAny>,
        distances: bool,
    ) -> PyResult<PyTablebase> {
        // None yet is fine: `add_directory` adds them.
        let directories = directory_list(directories, "directories", "", true)?;
        let game = *game.get();
        let tb = PyTablebase {
            game,
            inner: RwLock::new(None),
            dirs: RwLock::new(Vec::new()),
        };
        let mut tables = AnyTablebase::open(&game.game, &directories)
            .map_err(|e| Error::from(EnvError::from(e)))?;
        if !distances {
            tables = tables.results_only();
        }
        *tb.inner.write().map_err(|_| Error::TablebaseClosed)? = Some(Arc::new(tables));
        *tb.dirs.write().map_err(|_| Error::TablebaseClosed)? = directories;
        Ok(tb)
    }

    /// The game the tables are of.
    #[getter]
    fn game(&self) -> PyGame {
        self.game
    }

    /// The directories searched, in order.
    #[getter]
    fn directories(&self) -> Vec<std::ffi::OsString> {
        // As `os.fsdecode` gives them: a name that is no UTF-8 comes back as the same bytes.
        self.dirs
            .read()
            .map(|d| d.iter().map(|p| p.as_os_str().to_owned()).collect())
            .unwrap_or_default()
    }

    /// Adds a directory to search after the others.
    fn add_directory(&self, directory: PathBuf) -> Result<()> {
        // Both locks held throughout, so that concurrent calls each add their directory.
        let mut inner = self.inner.write().map_err(|_| Error::TablebaseClosed)?;
        let mut dirs = self.dirs.write().map_err(|_| Error::TablebaseClosed)?;
        if inner.is_none() {
            return Err(Error::TablebaseClosed);
        }
        let mut wanted = dirs.clone();
        wanted.push(directory);
        *inner = Some(Arc::new(
            AnyTablebase::open(&self.game.game, &wanted).map_err(EnvError::from)?,
        ));
        *dirs = wanted;
        Ok(())
    }

    /// Why these tables cannot value positions of `game` (a `Game`), naming the rules that
    /// differ among those the tables read; `None` where they can. The history rules
    /// (repetition, the move rule, the ply limit) and, in checkers, who moves first and
    /// adjudication are read by no table: games that differ only there share tables.
    fn rules_mismatch(&self, game: PyRef<'_, PyGame>) -> Option<String> {
        tables_refuse(&self.game.game, &game.game).map(|why| why.to_string())
    }

    /// The subspaces with a table in some directory, sorted (`5-4`, `2110-53`, ...).
    fn subspaces(&self) -> Result<Vec<String>> {
        let tables = self.tables()?;
        let mut names: Vec<String> = match &*tables {
            AnyTablebase::Checkers(tb) => {
                tb.available().iter().map(|(k, _)| k.to_string()).collect()
            }
            AnyTablebase::Morris(tb) => tb.available().iter().map(|(k, _)| k.to_string()).collect(),
        };
        names.sort();
        Ok(names)
    }

    /// The value of the position for the side to move.
    fn probe(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> Result<PyProbe> {
        let pos = self.position_of(state)?;
        let tables = self.tables()?;
        let value = py.detach(|| tables.probe(pos))?;
        Ok(value.into())
    }

    /// Like `probe`, but `default` where the tables do not hold the position: its table is
    /// missing, or no table holds it (more pieces than the databases cover, a turn half
    /// made), as python-chess's `get_wdl` answers. A state of another game, a closed
    /// tablebase or a damaged table still raise.
    #[pyo3(signature = (state, default = None))]
    fn get(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        default: Option<Py<PyAny>>,
    ) -> Result<Option<Py<PyAny>>> {
        let pos = match self.position_of(state) {
            Ok(pos) => pos,
            Err(Error::OutOfScope(_)) => return Ok(default),
            Err(e) => return Err(e),
        };
        let tables = self.tables()?;
        match py.detach(|| tables.probe(pos)) {
            Ok(v) => Ok(Some(
                Py::new(py, PyProbe::from(v))
                    .map_err(|e| Error::Tablebase(e.to_string()))?
                    .into_any(),
            )),
            // What Python raises as MissingTableError or OutOfScopeError.
            Err(e) if any::is_not_held(&e) => Ok(default),
            Err(e) => Err(e.into()),
        }
    }

    /// Every legal move with the value it keeps for the side playing it, best first (the
    /// quickest win, then draws, then the slowest loss): a list of `(Move, Probe)`.
    fn move_values(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> Result<Vec<(PyMove, PyProbe)>> {
        let pos = self.position_of(state)?;
        let tables = self.tables()?;
        let values = py.detach(|| -> std::result::Result<_, ProbeError> {
            Ok(match (&*tables, pos) {
                (AnyTablebase::Checkers(tb), AnyPosition::Checkers(p)) => tb
                    .move_values(&p)?
                    .into_iter()
                    .map(|m| (perfectplay_core::registry::AnyMove::Checkers(m.mv), m.value))
                    .collect::<Vec<_>>(),
                (AnyTablebase::Morris(tb), AnyPosition::Morris(p)) => tb
                    .move_values(&p)?
                    .into_iter()
                    .map(|m| (perfectplay_core::registry::AnyMove::Morris(m.mv), m.value))
                    .collect(),
                _ => unreachable!("a tablebase's positions are of its own family"),
            })
        })?;
        Ok(values
            .into_iter()
            .map(|(mv, v)| (PyMove { mv }, PyProbe::from(v)))
            .collect())
    }

    /// The value of a morris position with men in hand (the start above all) for the side to
    /// move, by an alpha-beta search of the placement phase whose leaves are probes of these
    /// moving-phase tables: a `Probe` without `plies` (the search gives win, draw or loss).
    ///
    /// `table_bits` sets the transposition table (2**table_bits entries of 8 bytes, 4 to 34),
    /// `threads` the workers (default: every core). With `checkpoint` (a path) the table is
    /// read from that file when it exists and written to it when the search returns, its
    /// value found or not: its entries are proven bounds, so a later call goes on from what
    /// this one proved, and `search_moves` can start from `search`'s bounds (the file
    /// `perfectplay search --checkpoint` writes). The call saves nothing while it runs and does
    /// not see Ctrl-C: a search of hours is better run as `perfectplay search --checkpoint`,
    /// which saves every few minutes and on Ctrl-C. The call holds the checkpoint's lock (the
    /// file's name with `.lock` added) while it runs: a checkpoint another search is using, or
    /// one whose directory is missing or cannot take the lock file, is a `TablebaseError` before
    /// any search; the temporary files a killed save left beside it are removed. A table that
    /// cannot be written at the end is a `RuntimeWarning`, the value still returned. Checkers
    /// has no placement phase
    /// (`ValueError`); rules whose placement positions can repeat are refused
    /// (`TablebaseError`).
    #[pyo3(signature = (state, *, table_bits = Int::Fits(22), threads = None, checkpoint = None))]
    fn search(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        table_bits: Int,
        threads: Option<Int>,
        checkpoint: Option<PathBuf>,
    ) -> Result<PyProbe> {
        let wdl = self.with_search(py, state, table_bits, threads, checkpoint, |s, p, t| {
            s.value_with_threads(p, t)
        })?;
        Ok(PyProbe {
            wdl: any::wdl_number(wdl),
            plies: None,
        })
    }

    /// Every turn of a morris position with men in hand with the value it keeps for the side
    /// playing it, best first, by the search of `search` (same arguments): a list of
    /// `(Move, Probe)`, each `Probe` without `plies`.
    #[pyo3(signature = (state, *, table_bits = Int::Fits(22), threads = None, checkpoint = None))]
    fn search_moves(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        table_bits: Int,
        threads: Option<Int>,
        checkpoint: Option<PathBuf>,
    ) -> Result<Vec<(PyMove, PyProbe)>> {
        let values = self.with_search(py, state, table_bits, threads, checkpoint, |s, p, t| {
            s.move_values_with_threads(p, t)
        })?;
        Ok(values
            .into_iter()
            .map(|(mv, wdl)| {
                let mv = PyMove {
                    mv: perfectplay_core::registry::AnyMove::Morris(mv),
                };
                let value = PyProbe {
                    wdl: any::wdl_number(wdl),
                    plies: None,
                };
                (mv, value)
            })
            .collect())
    }

    /// The moves that keep the position's value, best first (all equally good).
    fn best_moves(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> Result<Vec<PyMove>> {
        let pos = self.position_of(state)?;
        let tables = self.tables()?;
        let moves: Vec<perfectplay_core::registry::AnyMove> = py.detach(|| {
            with_tables!(tables, pos, |tb, p| tb
                .best_moves(&p)
                .map(|v| v.into_iter().map(|m| m.mv).collect::<Vec<_>>()))
        })?;
        Ok(moves.into_iter().map(|mv| PyMove { mv }).collect())
    }

    /// A line of best moves to the end of the game, or of `max_plies` moves for a draw (or a
    /// WDL-only table).
    #[pyo3(signature = (state, max_plies = Int::Fits(400)))]
    fn principal_variation(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        max_plies: Int,
    ) -> Result<Vec<PyMove>> {
        let max_plies: usize = max_plies.unsigned("max_plies")?;
        if max_plies > MAX_LINE {
            return Err(Error::BadArgument(format!(
                "max_plies={max_plies}: at most {MAX_LINE}"
            )));
        }
        let pos = self.position_of(state)?;
        let tables = self.tables()?;
        let moves: Vec<perfectplay_core::registry::AnyMove> =
            py.detach(|| with_tables!(tables, pos, |tb, p| tb.principal_variation(&p, max_plies)))?;
        Ok(moves.into_iter().map(|mv| PyMove { mv }).collect())
    }

    /// `count` states (at most ten million) drawn uniformly, with `seed`, from the indices of
    /// subspace `subspace` (`"4-3"`, `"2110-53"`) whose positions are not over: endgame
    /// starts for training and testing. An index stands for a position and its symmetric
    /// copies, and the state is the copy the index stores; the morris index also holds
    /// positions that no game reaches. The side to move has the first count of men (or
    /// pieces): White in morris, Black in checkers.
    #[pyo3(signature = (subspace, count = Int::Fits(1), seed = Int::Fits(0)))]
    fn sample_states(
        &self,
        py: Python<'_>,
        subspace: &str,
        count: Int,
        seed: Int,
    ) -> Result<Vec<PyState>> {
        let (count, seed): (usize, u64) = (count.unsigned("count")?, seed.unsigned("seed")?);
        if count > MAX_SAMPLES {
            return Err(Error::BadArgument(format!(
                "count={count}: at most {MAX_SAMPLES} states a call"
            )));
        }
        // Each state is a Python object too: refused whole rather than failing part way.
        let bytes = count.saturating_mul(std::mem::size_of::<PyState>() + STATE_OBJECT_BYTES);
        if let Some(free) = perfectplay_solver::limits::available_memory() {
            if bytes as u64 > free {
                return Err(Error::BadArgument(format!(
                    "count={count} states would take some {bytes} bytes, more than the {free} \
                     bytes of memory free: draw them in smaller calls"
                )));
            }
        }
        let tables = self.tables()?;
        let mut rng = SplitMix64::new(seed);
        let id = self.game.id;
        let mut states = Vec::new();
        // Ctrl-C ends a long draw (a subspace of few positions not over draws many times for
        // each state).
        let stoppable = |i: usize| {
            if i % 1024 == 1023 {
                py.check_signals().map_err(Error::Python)
            } else {
                Ok(())
            }
        };
        match (&*tables, &self.game.game) {
            (AnyTablebase::Checkers(tb), AnyGame::Checkers(g)) => {
                let key = parse_subspace(tb.domain(), subspace)?;
                for i in 0..count {
                    stoppable(i)?;
                    let pos = draw_position(tb.domain(), key, &mut rng)
                        .ok_or_else(|| nothing_to_draw(subspace))?;
                    states.push(PyState {
                        inner: AnyState::Checkers(State::at(id, *g, pos)),
                    });
                }
            }
            (AnyTablebase::Morris(tb), AnyGame::Morris(g)) => {
                let key = parse_subspace(tb.domain(), subspace)?;
                for i in 0..count {
                    stoppable(i)?;
                    let pos = draw_position(tb.domain(), key, &mut rng)
                        .ok_or_else(|| nothing_to_draw(subspace))?;
                    states.push(PyState {
                        inner: AnyState::Morris(State::at(id, *g, pos)),
                    });
                }
            }
            _ => unreachable!("a tablebase's game is of its tables' family"),
        }
        Ok(states)
    }

    /// Encodes states (or position strings) as rows of four `uint32` (see the module docs):
    /// what `probe_batch` reads.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        states: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyArray2<u32>>> {
        // Encoding needs the game alone, yet a closed tablebase answers nothing, as documented.
        self.tables()?;
        let flat = self.encoded_rows(states)?;
        let n = flat.len() / 4;
        PyArray1::from_vec(py, flat)
            .reshape([n, 4])
            .map_err(|e| Error::Tablebase(e.to_string()))
    }

    /// Probes many positions at once, in parallel with the GIL released. `positions` is an `[N, 4]`
    /// array of encoded positions (see `encode`; any integer dtype whose values fit `uint32`: a
    /// value that does not raises `TablebaseError` naming its row and field, and a float or bool
    /// array `TypeError`) or an iterable of states or position strings (a list, or an array of
    /// strings or objects; those whose position no row holds, a morris memory, are probed one by
    /// one). Returns `(wdl, plies)`: `int8` values 1, 0, -1 for the side to move and `int32` plies
    /// to the end (-1 for draws and WDL-only tables, but for what the rules decide). The first
    /// position that cannot be probed raises its error; a table changed on disk while the batch
    /// read it raises `TablebaseError`.
    ///
    /// `default` (an int from -128 to 127 other than the results -1, 0 and 1, such as -2) is the
    /// `wdl` of positions the tables do not hold (a missing table, more pieces than the
    /// databases cover, a state whose turn is half made), with plies -1, instead of an error:
    /// `wdl != default` is then the mask of positions found, as `get` would find them. Rows that
    /// are not positions, a closed tablebase and damaged tables still raise.
    #[pyo3(signature = (positions, default = None))]
    fn probe_batch<'py>(
        &self,
        py: Python<'py>,
        positions: &Bound<'py, PyAny>,
        default: Option<Int>,
    ) -> Result<WdlAndPlies<'py>> {
        let missing = default
            .map(|d| match d.get::<i8>() {
                // A result's own value would hide which positions were found.
                Some(-1..=1) => Err(Error::BadArgument(format!(
                    "default={d} is a result (-1, 0 and 1 are loss, draw and win): pick another \
                     int8, such as -2, so that wdl != default marks the positions found"
                ))),
                Some(value) => Ok(value),
                None => Err(Error::BadArgument(format!(
                    "default is an int8 result: -128 to 127 (such as -2), not {d}"
                ))),
            })
            .transpose()?;
        // Arrays (numpy's, or anything with a dtype `numpy.asarray` reads, such as a tensor)
        // are encoded rows; an array of position strings or of states (numpy dtype kinds U,
        // S, O) is an iterable of positions, as a list is.
        let positions_one_by_one = match positions.getattr("dtype") {
            Err(_) => true,
            Ok(dtype) => dtype
                .getattr("kind")
                .and_then(|kind| kind.extract::<String>())
                .is_ok_and(|kind| matches!(kind.as_str(), "U" | "S" | "O")),
        };
        if positions_one_by_one {
            let gathered = self.gathered(positions, missing.is_some())?;
            let (wdl, plies) = self.probe_gathered(py, &gathered, missing)?;
            return Ok((PyArray1::from_vec(py, wdl), PyArray1::from_vec(py, plies)));
        }
        // Copied: another Python thread may write to the caller's array while the GIL is
        // released. Any integer dtype whose values fit; nothing wrapped or truncated.
        let (rows, shape) = exact_integers::<u32>(positions, "encoded positions", |at, v| {
            Error::Tablebase(format!(
                "encoded positions: row {}, field {}, is {v}: fields are 0 to {}",
                at / 4,
                at % 4,
                u32::MAX
            ))
        })?;
        if shape.len() != 2 || shape[1] != 4 {
            return Err(Error::Tablebase(format!(
                "encoded positions are an [N, 4] array (rows of 4 uint32), not shape {shape:?}"
            )));
        }
        let tables = self.tables()?;
        let game = self.game.game;
        let n = shape[0];
        let mut wdl = vec![0i8; n];
        let mut plies = vec![-1i32; n];
        py.detach(|| {
            perfectplay_env::pool::run(|| {
                tables.probe_rows(&game, &rows, missing, &mut wdl, &mut plies)
            })
        })
        .map_err(|e| match e {
            RowsError::Probe { source, .. } => Error::from(source),
            other => Error::Tablebase(other.to_string()),
        })?;
        Ok((PyArray1::from_vec(py, wdl), PyArray1::from_vec(py, plies)))
    }

    /// Checks now that no table read so far changed on disk since it was opened (probes look
    /// once a tenth of a second per table); raises `TablebaseError` naming the file if one
    /// did.
    fn check_tables(&self, py: Python<'_>) -> Result<()> {
        let tables = self.tables()?;
        py.detach(|| match &*tables {
            AnyTablebase::Checkers(tb) => tb.check_tables(),
            AnyTablebase::Morris(tb) => tb.check_tables(),
        })
        .map_err(Error::from)
    }

    /// Lets the tables go; every later call raises `TablebaseError`.
    fn close(&self) {
        if let Ok(mut inner) = self.inner.write() {
            *inner = None;
        }
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.inner.read().map_or(true, |i| i.is_none())
    }

    fn __enter__(slf: Py<Self>, py: Python<'_>) -> Result<Py<Self>> {
        slf.borrow(py).tables()?;
        Ok(slf)
    }

    fn __exit__(
        &self,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _tb: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __repr__(&self) -> String {
        let dirs: Vec<String> = self
            .directories()
            .iter()
            .map(|d| format!("{d:?}"))
            .collect();
        format!(
            "Tablebase({:?}, [{}]{})",
            self.game.id,
            dirs.join(", "),
            if self.closed() { ", closed" } else { "" }
        )
    }
}

fn nothing_to_draw(subspace: &str) -> Error {
    Error::BadArgument(format!(
        "subspace {subspace}: every position of it is already over"
    ))
}

/// The most directories a list of them may name: far more than any search path holds, and a
/// bound on what an endless iterable is read for.
const MAX_DIRECTORIES: usize = 1 << 16;

/// The directories of argument `what`: one path (`str`, `bytes` or `os.PathLike`) or an
/// iterable of them, none only where `none_too`. `also` lists what else the argument takes,
/// for the message.
pub(crate) fn directory_list(
    value: &Bound<'_, PyAny>,
    what: &str,
    also: &str,
    none_too: bool,
) -> PyResult<Vec<PathBuf>> {
    let py = value.py();
    let fsdecode = py.import("os")?.getattr("fsdecode")?;
    // A `PathBuf`, not a `String`: bytes that are no UTF-8 come back from `fsdecode` as
    // surrogate escapes, which only the file-system encoding turns back into the same bytes.
    let path =
        |v: &Bound<'_, PyAny>| -> PyResult<PathBuf> { fsdecode.call1((v,))?.extract::<PathBuf>() };
    let is_path = value.is_instance_of::<PyString>()
        || value.is_instance_of::<pyo3::types::PyBytes>()
        || value.hasattr("__fspath__")?;
    if is_path {
        return Ok(vec![path(value)?]);
    }
    let refused = || {
        PyErr::from(Error::ArgumentType(
            format!(
                "{what} takes {also}a directory (str, bytes or os.PathLike) or an iterable of \
                 directories"
            )
            .into(),
        ))
    };
    let mut dirs = Vec::new();
    for d in value.try_iter().map_err(|_| refused())? {
        // An exception the iterable raised (KeyboardInterrupt) goes on as it is; an item that
        // is no path is the argument's type error.
        let d = d?;
        if dirs.len() == MAX_DIRECTORIES {
            return Err(Error::BadArgument(format!(
                "{what}: more than {MAX_DIRECTORIES} directories (an endless iterable?)"
            ))
            .into());
        }
        dirs.push(path(&d).map_err(|e| {
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
                refused()
            } else {
                e
            }
        })?);
    }
    if dirs.is_empty() && !none_too {
        return Err(Error::BadArgument(format!("{what}: an empty list of directories")).into());
    }
    Ok(dirs)
}

/// The states of a `probe_batch` call, gathered: see [`PyTablebase::gathered`].
#[derive(Default)]
struct Gathered {
    /// The rows of the states a row holds, four words each.
    rows: Vec<u32>,
    /// The state each row is of (its place in the call).
    row_of: Vec<usize>,
    /// The states no row holds, in order: a position with a memory (probed alone), or a turn
    /// half made (`None`).
    others: Vec<(usize, Option<AnyPosition>)>,
    /// How many states there are.
    count: usize,
}

/// The row of `pos` ([`any::encode`]): a morris position that remembers something has none
/// (out of scope: its memory is part of its value).
fn encode_row(game: &AnyGame, pos: AnyPosition) -> Result<Row> {
    any::encode(game, pos).map_err(|e| match e {
        RowError::Memory => Error::OutOfScope(format!("{e}: probe this position with probe()")),
        other => Error::Tablebase(other.to_string()),
    })
}
