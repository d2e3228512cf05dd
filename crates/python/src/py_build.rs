//! Python's `build_tables` and `_tables_game`: databases built from Python, with the GIL
//! released, progress handed to a Python callback, and Ctrl-C honoured between tasks; and the
//! game a directory of tables was built for.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use perfectplay_core::registry::AnyGame;
use perfectplay_env::perfect::parse_subspace;
use perfectplay_env::Error as EnvError;
use perfectplay_solver::checkers::CheckersDomain;
use perfectplay_solver::limits::check_threads;
use perfectplay_solver::morris::MorrisDomain;
use perfectplay_solver::{
    game_of_tables, planned_units, solve, solve_planned_unit, BuildProgress, Domain, PlannedUnit,
    SolveError, SolveOptions, Tabled,
};
use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{Error, Result};
use crate::ints::Int;
use crate::py_game::PyGame;

/// The game whose tables lie in `directory`, from the first table's header
/// ([`game_of_tables`]), or `None` when the directory holds no table.
#[pyfunction]
#[pyo3(name = "_tables_game")]
pub(crate) fn tables_game(directory: PathBuf) -> Result<Option<PyGame>> {
    let game = game_of_tables(&directory).map_err(EnvError::from)?;
    Ok(game.map(|(id, game)| PyGame {
        id: id.name(),
        game,
    }))
}

/// Builds tables of `game` into `out` with the GIL released (see `perfectplay.tablebase.build`).
/// `targets` are subspace names, or `None` with `max_men` (morris), `max_pieces` (checkers)
/// or `whole_game`. `progress`, if given, is called about four times a second with a dict of
/// the build's figures. Ctrl-C stops the build between tasks (the unit in progress is dropped
/// but for its last checkpoint, no half-written file is left) and raises `KeyboardInterrupt`;
/// a rerun resumes. `threads` is
/// checked as on the command line (1 to 4 per CPU unless `force_threads`); another build
/// holding `out`'s build lock is an error naming it, or waited for with `wait`. A unit saves
/// its state (`KEY.ppck`) after `checkpoint_minutes` of work and as often again (`None`:
/// never), and a build takes a unit up from its checkpoint. With `wdl_only` and
/// `unit_distances`, each table's distances within its unit are written beside it (`KEY.ppud`)
/// for `_verify_tables` to prove the results with.
#[pyfunction]
#[pyo3(name = "_build_tables")]
#[pyo3(signature = (game, out, targets = None, max_men = None, max_pieces = None, whole_game = false, threads = None, wdl_only = false, progress = None, force_threads = false, wait = false, compress = false, checkpoint_minutes = Some(30.0), unit_distances = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_tables<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    out: PathBuf,
    targets: Option<Vec<String>>,
    max_men: Option<Int>,
    max_pieces: Option<Int>,
    whole_game: bool,
    threads: Option<Int>,
    wdl_only: bool,
    progress: Option<Bound<'py, PyAny>>,
    force_threads: bool,
    wait: bool,
    compress: bool,
    checkpoint_minutes: Option<f64>,
    unit_distances: bool,
) -> PyResult<Bound<'py, PyList>> {
    let cancel = Arc::new(AtomicBool::new(false));
    let figures = Arc::new(BuildProgress::default());
    let threads = threads
        .map(|t| t.positive("threads"))
        .transpose()?
        .map(|t| check_threads(t, force_threads))
        .transpose()
        .map_err(|e| Error::BadArgument(e.to_string()))?;
    let options = SolveOptions {
        threads,
        wdl_only,
        cancel: Some(Arc::clone(&cancel)),
        report_to: Some(Arc::clone(&figures)),
        wait,
        compress,
        checkpoint_every: checkpoint_interval(checkpoint_minutes)?,
        unit_distances,
    };
    let max_men = max_men.map(|m| m.unsigned("max_men")).transpose()?;
    let max_pieces = max_pieces.map(|m| m.unsigned("max_pieces")).transpose()?;
    let job = BuildJob::new(&game.get().game, targets, max_men, max_pieces, whole_game)?;
    let report = run_interruptibly(
        py,
        "the build",
        &cancel,
        move || job.run(&out, &options),
        || match &progress {
            Some(f) => f.call1((snapshot_dict(py, &figures)?,)).map(drop),
            None => Ok(()),
        },
    )?;
    // The figures at the end, once the build is known to have succeeded.
    if let Some(f) = &progress {
        f.call1((snapshot_dict(py, &figures)?,))?;
    }
    for failure in &report.checkpoint_failures {
        let message = std::ffi::CString::new(format!(
            "a unit checkpoint could not be saved (the unit solved on, and tried again at each interval): {failure}"
        ))
        .unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1)?;
    }
    let (rows, compressed) = (report.subspaces, report.compressed);
    let list = PyList::empty(py);
    for row in rows {
        let d = PyDict::new(py);
        d.set_item("subspace", &row.subspace)?;
        d.set_item("positions", row.positions)?;
        d.set_item("wins", row.stats.wins)?;
        d.set_item("draws", row.stats.draws)?;
        d.set_item("losses", row.stats.losses)?;
        d.set_item("longest_win", row.stats.longest_win)?;
        d.set_item("seconds", row.seconds)?;
        d.set_item("kept", row.kept)?;
        d.set_item("resumed", row.resumed)?;
        if let Some(c) = compressed.iter().find(|c| c.subspace == row.subspace) {
            d.set_item("path", &c.wdl.0)?;
            d.set_item("compressed_bytes", c.bytes())?;
        } else {
            d.set_item("path", row.path)?;
        }
        list.append(d)?;
    }
    Ok(list)
}

/// Runs `work` (a build or a verification told to stop by `cancel`) on its own thread with the
/// GIL released, and every quarter of a second looks at Python's signals (Ctrl-C in a terminal
/// or a notebook, a Ray task cancelled) and calls `between` (progress). A signal, or an error
/// from `between`, sets `cancel`: a build stops at its next task boundary, saves the unit under
/// way (unless told never to) and removes its temporary file, a verification stops at its next
/// chunk; then the signal's exception is raised, with a `RuntimeWarning` first if that save
/// failed or the work ended otherwise in error. `what` names the work in those warnings ("the
/// build").
pub(crate) fn run_interruptibly<T: Send + 'static>(
    py: Python<'_>,
    what: &str,
    cancel: &AtomicBool,
    work: impl FnOnce() -> Result<T> + Send + 'static,
    mut between: impl FnMut() -> PyResult<()>,
) -> PyResult<T> {
    let worker = std::thread::spawn(work);
    let tick = Duration::from_millis(25);
    loop {
        let finished = py.detach(|| {
            for _ in 0..10 {
                if worker.is_finished() {
                    return true;
                }
                std::thread::sleep(tick);
            }
            worker.is_finished()
        });
        if finished {
            break;
        }
        if let Err(stop) = py.check_signals().and_then(|()| between()) {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            // Whatever the build says now, the signal is what is raised: what went wrong on
            // the way out is a warning, and a warning that cannot be given (warnings made
            // errors) is reported as unraisable rather than put in the signal's place.
            let trouble = match py.detach(|| worker.join()) {
                Ok(Ok(_) | Err(Error::Solve(SolveError::Interrupted))) => None,
                Ok(Err(e @ Error::Solve(SolveError::InterruptedUnsaved { .. }))) => {
                    Some(e.to_string())
                }
                Ok(Err(e)) => Some(format!("{what} stopped with an error: {e}")),
                Err(_) => Some(format!("{what} stopped with a panic")),
            };
            if let Some(trouble) = trouble {
                let message = std::ffi::CString::new(trouble).unwrap_or_default();
                if let Err(e) = PyErr::warn(py, &py.get_type::<PyRuntimeWarning>(), &message, 1) {
                    e.write_unraisable(py, None);
                }
            }
            return Err(stop);
        }
    }
    let done = worker
        .join()
        .map_err(|_| Error::Tablebase(format!("{what} stopped with a panic")))?;
    Ok(done?)
}

fn snapshot_dict<'py>(py: Python<'py>, figures: &BuildProgress) -> PyResult<Bound<'py, PyDict>> {
    let s = figures.snapshot();
    let d = PyDict::new(py);
    d.set_item("total", s.total)?;
    d.set_item("finished", s.finished)?;
    d.set_item("unit", s.unit)?;
    d.set_item("unit_positions", s.unit_positions)?;
    d.set_item("unit_initialised", s.unit_initialised)?;
    d.set_item("layer", s.layer)?;
    Ok(d)
}

/// A build request, checked before the work starts.
pub(crate) enum BuildJob {
    Checkers(
        CheckersDomain,
        Vec<perfectplay_solver::checkers::CheckersKey>,
    ),
    Morris(MorrisDomain, Vec<perfectplay_solver::morris::MorrisKey>),
}

impl BuildJob {
    pub(crate) fn new(
        game: &AnyGame,
        targets: Option<Vec<String>>,
        max_men: Option<u8>,
        max_pieces: Option<u8>,
        whole_game: bool,
    ) -> Result<BuildJob> {
        let bad = |why: &str| Error::BadArgument(why.to_owned());
        match game {
            AnyGame::Checkers(g) => {
                if max_men.is_some() || whole_game {
                    return Err(bad(
                        "checkers tables are chosen with max_pieces=N or subspaces=[...]",
                    ));
                }
                let domain = g.domain()?;
                let keys =
                    match (targets, max_pieces) {
                        (Some(names), None) => parse_all(&domain, &names)?,
                        (None, Some(n)) => domain
                            .keys_up_to_checked(n)
                            .map_err(|e| Error::BadArgument(e.to_string()))?,
                        _ => return Err(bad(
                            "say which checkers tables to build: max_pieces=N or subspaces=[...] \
                             (one of them)",
                        )),
                    };
                Ok(BuildJob::Checkers(domain, keys))
            }
            AnyGame::Morris(g) => {
                if max_pieces.is_some() {
                    return Err(bad(
                        "morris tables are chosen with max_men=N, subspaces=[...] or \
                         whole_game=True",
                    ));
                }
                let domain = g.domain()?;
                let keys = match (targets, max_men, whole_game) {
                    (Some(names), None, false) => parse_all(&domain, &names)?,
                    (None, Some(n), false) => domain
                        .moving_keys_checked(n)
                        .map_err(|e| Error::BadArgument(e.to_string()))?,
                    (None, None, true) => vec![domain.start_key()],
                    _ => {
                        return Err(bad(
                            "say which morris tables to build: max_men=N, subspaces=[...] or \
                             whole_game=True (one of them)",
                        ))
                    }
                };
                Ok(BuildJob::Morris(domain, keys))
            }
        }
    }

    fn run(
        self,
        out: &std::path::Path,
        options: &SolveOptions,
    ) -> Result<perfectplay_solver::SolveReport> {
        Ok(match self {
            BuildJob::Checkers(domain, keys) => solve(domain, out, &keys, options),
            BuildJob::Morris(domain, keys) => solve(domain, out, &keys, options),
        }?)
    }
}

impl BuildJob {
    /// The request's plan as data, for a scheduler ([`planned_units`]), its memory that of a
    /// build with `options`.
    pub(crate) fn planned(&self, options: &SolveOptions) -> Vec<PlannedUnit> {
        match self {
            BuildJob::Checkers(domain, keys) => planned_units(domain, keys, options),
            BuildJob::Morris(domain, keys) => planned_units(domain, keys, options),
        }
    }

    /// Builds the unit made of the subspaces `names` on its own ([`solve_planned_unit`]).
    pub(crate) fn run_unit(
        self,
        out: &std::path::Path,
        names: &[String],
        options: &SolveOptions,
    ) -> Result<perfectplay_solver::SolveReport> {
        Ok(match self {
            BuildJob::Checkers(domain, _) => {
                let unit = parse_all(&domain, names)?;
                solve_planned_unit(domain, out, &unit, options)?
            }
            BuildJob::Morris(domain, _) => {
                let unit = parse_all(&domain, names)?;
                solve_planned_unit(domain, out, &unit, options)?
            }
        })
    }
}

pub(crate) fn parse_all<D: Domain>(domain: &D, names: &[String]) -> Result<Vec<D::Key>> {
    let mut keys = Vec::new();
    for name in names {
        match (domain.parse_key(name), domain.keys_named(name)) {
            // A group the game names as a whole (a checkers material): its slices.
            (None, Some(group)) => keys.extend(group),
            _ => keys.push(parse_subspace(domain, name)?),
        }
    }
    Ok(keys)
}

/// `checkpoint_minutes` as the solver takes it: `None` saves no unit checkpoint.
pub(crate) fn checkpoint_interval(minutes: Option<f64>) -> PyResult<Option<Duration>> {
    minutes
        .map(|m| {
            if m.is_finite() && (0.0..=1e9).contains(&m) {
                Ok(Duration::from_secs_f64(m * 60.0))
            } else {
                Err(Error::BadArgument(format!(
                    "checkpoint_minutes must be a number of minutes, 0 or more (or None), not {m}"
                ))
                .into())
            }
        })
        .transpose()
}
