//! What the Python package's cluster build (`perfectplay.cluster`, on Ray) asks of the solver:
//! the plan as data, the directory claimed for the whole build, and one unit built on its own
//! in whichever worker process a task lands.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use perfectplay_solver::{claim_directory, remove_leftovers, BuildLock, LockWait, SolveOptions};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{Error, Result};
use crate::ints::Int;
use crate::py_build::{run_interruptibly, BuildJob};
use crate::py_game::PyGame;

/// The units that building `targets` (or `max_men`, `max_pieces`, `whole_game`, as in
/// `_build_tables`) takes, in an order where each comes after the units it reads: a list of
/// dicts with `subspaces` (names), `reads` (indices of earlier units), `positions` and
/// `working_bytes` (memory to build it; that of WDL-only tables with `wdl_only`, and with
/// their unit distances with `unit_distances` too).
#[pyfunction]
#[pyo3(signature = (game, targets = None, max_men = None, max_pieces = None, whole_game = false, wdl_only = false, unit_distances = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _plan_units<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    targets: Option<Vec<String>>,
    max_men: Option<Int>,
    max_pieces: Option<Int>,
    whole_game: bool,
    wdl_only: bool,
    unit_distances: bool,
) -> PyResult<Bound<'py, PyList>> {
    let max_men = max_men.map(|m| m.unsigned("max_men")).transpose()?;
    let max_pieces = max_pieces.map(|m| m.unsigned("max_pieces")).transpose()?;
    let job = BuildJob::new(&game.get().game, targets, max_men, max_pieces, whole_game)?;
    let options = SolveOptions {
        wdl_only,
        unit_distances,
        ..SolveOptions::default()
    };
    let units = py.detach(|| job.planned(&options));
    let list = PyList::empty(py);
    for unit in units {
        let d = PyDict::new(py);
        d.set_item("subspaces", unit.subspaces)?;
        d.set_item("reads", unit.reads)?;
        d.set_item("positions", unit.positions)?;
        d.set_item("working_bytes", unit.working_bytes)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Builds the unit made of `subspaces` into `out` on its own (the tables of the units it reads
/// must be there, complete): kept if its files are complete and valid. No lock is taken: the
/// driver holds the directory's (`_DirectoryClaim`). Returns a dict: `tables`
/// (`{subspace: positions}`), `solved_positions` (0 when kept), `seconds`, `threads`,
/// `peak_working_bytes` (0 when kept), `resumed` (taken up from a checkpoint),
/// `checkpoints_saved` and `checkpoint_failures`; the GIL is released meanwhile. The unit saves
/// its state after `checkpoint_minutes` of work and as often again (`None`: never), and where it
/// stopped at a signal (Ctrl-C, a Ray task cancelled without force), which is then raised.
/// With `wdl_only` and `unit_distances` each table's unit distances are written beside it.
#[pyfunction]
#[pyo3(signature = (game, out, subspaces, threads = None, wdl_only = false, compress = false, checkpoint_minutes = Some(30.0), unit_distances = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _build_unit<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    out: PathBuf,
    subspaces: Vec<String>,
    threads: Option<Int>,
    wdl_only: bool,
    compress: bool,
    checkpoint_minutes: Option<f64>,
    unit_distances: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads.map(|t| t.positive("threads")).transpose()?;
    let job = BuildJob::new(&game.get().game, Some(subspaces.clone()), None, None, false)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = SolveOptions {
        threads,
        wdl_only,
        unit_distances,
        compress,
        checkpoint_every: crate::py_build::checkpoint_interval(checkpoint_minutes)?,
        cancel: Some(Arc::clone(&cancel)),
        ..SolveOptions::default()
    };
    // Ray cancels a running task (without force) by raising KeyboardInterrupt in it: the unit
    // stops and saves its state as a local build does at Ctrl-C.
    let report = run_interruptibly(
        py,
        "the build",
        &cancel,
        move || job.run_unit(&out, &subspaces, &options),
        || Ok(()),
    )?;
    let d = PyDict::new(py);
    let tables = PyDict::new(py);
    for row in &report.subspaces {
        tables.set_item(&row.subspace, row.positions)?;
    }
    d.set_item("tables", tables)?;
    d.set_item("solved_positions", report.solved_positions)?;
    d.set_item("seconds", report.seconds)?;
    d.set_item("threads", report.threads)?;
    d.set_item("peak_working_bytes", report.peak_working_bytes)?;
    d.set_item("resumed", report.subspaces.iter().any(|r| r.resumed))?;
    d.set_item("checkpoints_saved", report.checkpoints_saved)?;
    d.set_item("checkpoint_failures", &report.checkpoint_failures)?;
    Ok(d)
}

/// A directory claimed by a cluster build's driver: its build lock, held until `release()`
/// (or the object is dropped), with the temporary files of killed writers removed when taken.
#[pyclass(name = "_DirectoryClaim", module = "perfectplay._core")]
pub(crate) struct PyDirectoryClaim {
    out: PathBuf,
    lock: Option<BuildLock>,
}

#[pymethods]
impl PyDirectoryClaim {
    /// Claims `out` (created if missing); another build holding it is an error naming it.
    #[new]
    fn new(py: Python<'_>, out: PathBuf) -> Result<Self> {
        let lock = py
            .detach(|| claim_directory(&out, LockWait::No))
            .map_err(Error::Solve)?;
        Ok(PyDirectoryClaim {
            out,
            lock: Some(lock),
        })
    }

    /// Lets the directory go, first removing the temporary files that killed workers left
    /// (call it once no task writes there any more).
    fn release(&mut self, py: Python<'_>) -> Result<()> {
        if self.lock.is_some() {
            let out = &self.out;
            py.detach(|| remove_leftovers(out))
                .map_err(|e| Error::Solve(e.into()))?;
        }
        self.lock = None;
        Ok(())
    }
}
