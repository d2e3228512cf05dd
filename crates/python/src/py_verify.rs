//! Python's `_verify_tables` (`perfectplay.tablebase.verify`): every stored value of a
//! directory's tables recomputed from its successors, with the GIL released, progress handed
//! to a Python callback, and Ctrl-C honoured between chunks of positions.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use perfectplay_core::registry::AnyGame;
use perfectplay_solver::limits::check_threads;
use perfectplay_solver::{
    verify_tables as verify, Domain, Tablebase, Tabled, VerifyOptions, VerifyReport,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{Error, Result};
use crate::py_build::{parse_all, run_interruptibly};
use crate::py_game::PyGame;

/// What a verification under way has done, for the progress callback.
#[derive(Default)]
struct Figures {
    /// Positions in all the tables to check.
    total: AtomicU64,
    /// Positions checked so far.
    checked: Arc<AtomicU64>,
    /// The table being checked.
    table: Mutex<String>,
}

/// Verifies the tables of `game` in `db` (those of `targets`, subspace names or checkers
/// materials, else every table there) with the GIL released: every stored value recomputed
/// from its successors, and with `unit_distances` WDL-only tables proven right by their unit
/// distances (`KEY.ppud`). `progress`, if given, is called about four times a second with a
/// dict (`total`, `checked`, `table`). Ctrl-C stops it between chunks of positions (nothing is
/// written) and raises `KeyboardInterrupt`. Returns `(tables, seconds)`, a dict per table
/// (`subspace`, `positions`, `mismatches`, `example`). A directory without tables, or a table
/// missing or unusable (the verified one or one its successors lie in), is an error.
#[pyfunction]
#[pyo3(name = "_verify_tables")]
#[pyo3(signature = (game, db, targets = None, threads = None, unit_distances = false, progress = None, force_threads = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify_tables<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyGame>,
    db: PathBuf,
    targets: Option<Vec<String>>,
    threads: Option<crate::ints::Int>,
    unit_distances: bool,
    progress: Option<Bound<'py, PyAny>>,
    force_threads: bool,
) -> PyResult<(Bound<'py, PyList>, f64)> {
    let threads = threads
        .map(|t| t.positive("threads"))
        .transpose()?
        .map(|t| check_threads(t, force_threads))
        .transpose()
        .map_err(|e| Error::BadArgument(e.to_string()))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let figures = Arc::new(Figures::default());
    let options = VerifyOptions {
        threads,
        unit_distances,
        cancel: Some(Arc::clone(&cancel)),
        checked: Some(Arc::clone(&figures.checked)),
        ..VerifyOptions::default()
    };
    let game = game.get().game;
    let shared = Arc::clone(&figures);
    let report = run_interruptibly(
        py,
        "the verification",
        &cancel,
        move || match &game {
            AnyGame::Checkers(g) => run(g.domain()?, &db, targets, &options, &shared),
            AnyGame::Morris(g) => run(g.domain()?, &db, targets, &options, &shared),
        },
        || match &progress {
            Some(f) => f.call1((snapshot(py, &figures)?,)).map(drop),
            None => Ok(()),
        },
    )?;
    if let Some(f) = &progress {
        f.call1((snapshot(py, &figures)?,))?;
    }
    let tables = PyList::empty(py);
    for t in report.tables {
        let d = PyDict::new(py);
        d.set_item("subspace", t.subspace)?;
        d.set_item("positions", t.positions)?;
        d.set_item("mismatches", t.mismatches)?;
        d.set_item("example", t.example)?;
        tables.append(d)?;
    }
    Ok((tables, report.seconds))
}

/// The verification of `targets` (every table in `db` if `None`) in `domain`'s tables.
fn run<D: Domain>(
    domain: D,
    db: &Path,
    targets: Option<Vec<String>>,
    options: &VerifyOptions,
    figures: &Figures,
) -> Result<VerifyReport> {
    let keys = targets
        .map(|names| parse_all(&domain, &names))
        .transpose()?;
    let tb = Tablebase::open(domain, db)?;
    let keys = match keys {
        Some(keys) => keys,
        None => tb.available().into_iter().map(|(k, _)| k).collect(),
    };
    if keys.is_empty() {
        return Err(Error::Tablebase(format!(
            "no tables in {} to verify",
            db.display()
        )));
    }
    let total = keys.iter().map(|&k| tb.domain().size(k)).sum();
    figures.total.store(total, Ordering::Relaxed);
    let on_table = |name: &str, _: u64| *figures.table.lock().expect("lock") = name.to_owned();
    Ok(verify(&tb, Some(&keys), options, &on_table)?)
}

fn snapshot<'py>(py: Python<'py>, figures: &Figures) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("total", figures.total.load(Ordering::Relaxed))?;
    d.set_item("checked", figures.checked.load(Ordering::Relaxed))?;
    d.set_item("table", figures.table.lock().expect("lock").clone())?;
    Ok(d)
}
