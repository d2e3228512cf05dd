//! Building databases: take the directory's build lock, plan the units, skip the complete ones,
//! solve the rest in parallel, write each file atomically, report.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use xxhash_rust::xxh3::xxh3_64;

use crate::domain::Domain;
use crate::error::{DbError, SolveError};
use crate::format::{write_table, Encoding, Header, Stats, DISTANCE_EXTENSION, EXTENSION};
use crate::limits::worker_pool;
use crate::lock::{BuildLock, LockWait};
use crate::plan::plan;
use crate::retro::{Observer, UnitSolver};
use crate::table::Table;
use crate::tablebase::{expected_for, Tablebase};
use crate::unit_checkpoint::{
    remove_checkpoint_at, Checkpoints, UnitIdentity, CHECKPOINT_EXTENSION,
};

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Worker threads; `None` uses every core. `Some(0)` is refused; a front bounds what its
    /// user asks for with [`crate::limits::check_threads`].
    pub threads: Option<usize>,
    /// Write the compact WDL-only form (2 bits per position) instead of distances.
    pub wdl_only: bool,
    /// Set to stop the build between tasks: the unit in progress is saved where it stopped
    /// (unless [`SolveOptions::checkpoint_every`] is `None`; its last checkpoint, if any, stays
    /// then), nothing half written is left behind, and the build returns
    /// [`SolveError::Interrupted`] ([`SolveError::InterruptedUnsaved`] if that save failed).
    /// Once set it must stay set until the build returns.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Live figures of the build, for a caller that shows progress (the solver draws nothing).
    pub report_to: Option<Arc<BuildProgress>>,
    /// Wait for another build that holds the directory's [`BuildLock`] to end, instead of
    /// failing with [`SolveError::Locked`] (`cancel` still stops the wait).
    pub wait: bool,
    /// Compress each table once its unit is built (or found kept in plain form), in place
    /// ([`crate::compress_table`]): the result file, and the distance file unless `wdl_only`.
    /// A plain file lives only until its unit is done, so a build never needs the disk of the
    /// plain set.
    pub compress: bool,
    /// Save a unit's solving state (`KEY.ppck` in the output directory, 2 bytes a position)
    /// once this long has passed since it started or was last saved, at the next point where
    /// the state is whole; a later build takes the unit up from there, with the same tables
    /// as a build in one go; and when [`SolveOptions::cancel`] stops the unit, where it stopped.
    /// `None`: never save, not even when stopped; a checkpoint already there is still taken up.
    pub checkpoint_every: Option<Duration>,
    /// With `wdl_only`, also write each table's unit distances (`KEY.ppud`, a byte a position,
    /// uncompressed: see [`crate::format::unit_distance_scheme`]; those past the byte, which a
    /// WDL-only unit solves on to, in `KEY.ppud.long`: see [`crate::long_distances`]), so that
    /// [`crate::verify_with_unit_distances`] can prove the results right. A WDL-only table
    /// alone can only be checked for agreement with its successors, which a cycle of positions
    /// wrongly stored as won and lost would pass. Ignored without `wdl_only` (distance tables
    /// are their own proof), and for units whose tables are kept from before.
    pub unit_distances: bool,
}

/// Live figures of a build, updated by the solver as it goes and read by anyone at any time:
/// the solver draws nothing itself, so a front shows progress its own way from
/// [`BuildProgress::snapshot`] (the command line's bars, Python's tqdm).
#[derive(Debug, Default)]
pub struct BuildProgress {
    total: AtomicU64,
    finished: AtomicU64,
    unit_number: AtomicU64,
    unit_positions: AtomicU64,
    unit_initialised: AtomicU64,
    layer: AtomicU32,
    longest_known: AtomicU32,
    stage: AtomicU8,
    done: AtomicBool,
    unit: Mutex<String>,
    waited_for: Mutex<String>,
}

/// What the unit being solved is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnitStage {
    /// The first (forward) pass: every position valued from its exits or counted.
    #[default]
    Initialising,
    /// The distance layers, one after another ([`ProgressSnapshot::layer`]).
    Layers,
    /// The unit's tables being written.
    Writing,
}

impl UnitStage {
    fn from_u8(n: u8) -> UnitStage {
        match n {
            1 => UnitStage::Layers,
            2 => UnitStage::Writing,
            _ => UnitStage::Initialising,
        }
    }
}

/// What [`BuildProgress::snapshot`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Positions of every unit of the build (0 until the build holds its lock and has planned).
    pub total: u64,
    /// Positions of the units finished (or kept from an earlier build).
    pub finished: u64,
    /// How many units have been started: it changes with each unit, so a reader that looks
    /// now and then knows a new unit from the last one even when their names are alike.
    pub unit_number: u64,
    /// The unit being solved (`5-4 + 4-5`), empty between units.
    pub unit: String,
    /// Its positions.
    pub unit_positions: u64,
    /// Its positions through the first (forward) pass.
    pub unit_initialised: u64,
    /// What it is doing.
    pub stage: UnitStage,
    /// The distance layer being solved after that pass (0 before, and for the first layer).
    pub layer: u32,
    /// The longest distance known so far in the unit: the layers go on at least that far.
    pub longest_known: u32,
    /// The holder of the directory's build lock (as [`crate::BuildLock`] describes it) that
    /// this build waited for, empty if it did not wait.
    pub waited_for: String,
    /// The build has ended, done, failed or cancelled.
    pub done: bool,
}

impl BuildProgress {
    /// The figures now (each read on its own: they may be a moment apart).
    #[must_use]
    pub fn snapshot(&self) -> ProgressSnapshot {
        // Read before the name, which the solver sets before the number: a new number comes
        // with its unit's name (or a later one).
        let unit_number = self.unit_number.load(Ordering::Acquire);
        ProgressSnapshot {
            total: self.total.load(Ordering::Relaxed),
            finished: self.finished.load(Ordering::Relaxed),
            unit_number,
            unit: self.unit.lock().map(|u| u.clone()).unwrap_or_default(),
            unit_positions: self.unit_positions.load(Ordering::Relaxed),
            unit_initialised: self.unit_initialised.load(Ordering::Relaxed),
            stage: UnitStage::from_u8(self.stage.load(Ordering::Relaxed)),
            layer: self.layer.load(Ordering::Relaxed),
            longest_known: self.longest_known.load(Ordering::Relaxed),
            waited_for: self
                .waited_for
                .lock()
                .map(|w| w.clone())
                .unwrap_or_default(),
            done: self.done.load(Ordering::Acquire),
        }
    }

    /// A new build with these figures (a caller may hand the same figures to builds in turn):
    /// every figure back to its start.
    fn begin(&self) {
        for figure in [
            &self.total,
            &self.finished,
            &self.unit_number,
            &self.unit_positions,
            &self.unit_initialised,
        ] {
            figure.store(0, Ordering::Relaxed);
        }
        self.layer.store(0, Ordering::Relaxed);
        self.longest_known.store(0, Ordering::Relaxed);
        self.stage.store(0, Ordering::Relaxed);
        self.done.store(false, Ordering::Relaxed);
        for text in [&self.unit, &self.waited_for] {
            if let Ok(mut text) = text.lock() {
                text.clear();
            }
        }
    }

    fn waiting_for(&self, holder: &str) {
        if let Ok(mut waited_for) = self.waited_for.lock() {
            holder.clone_into(&mut waited_for);
        }
    }

    fn start_unit(&self, name: &str, positions: u64) {
        if let Ok(mut unit) = self.unit.lock() {
            name.clone_into(&mut unit);
        }
        self.unit_positions.store(positions, Ordering::Relaxed);
        self.unit_initialised.store(0, Ordering::Relaxed);
        self.layer.store(0, Ordering::Relaxed);
        self.longest_known.store(0, Ordering::Relaxed);
        self.stage
            .store(UnitStage::Initialising as u8, Ordering::Relaxed);
        self.unit_number.fetch_add(1, Ordering::Release);
    }

    fn writing(&self) {
        self.stage
            .store(UnitStage::Writing as u8, Ordering::Relaxed);
    }

    fn finish_unit(&self, positions: u64) {
        if let Ok(mut unit) = self.unit.lock() {
            unit.clear();
        }
        self.finished.fetch_add(positions, Ordering::Relaxed);
    }
}

impl Observer for BuildProgress {
    fn initialised(&self, n: u64) {
        self.unit_initialised.fetch_add(n, Ordering::Relaxed);
    }

    fn layer(&self, d: u32, max: u32) {
        self.longest_known.store(max, Ordering::Relaxed);
        self.layer.store(d, Ordering::Relaxed);
        self.stage.store(UnitStage::Layers as u8, Ordering::Relaxed);
    }
}

/// Marks the figures done when the build returns, however it returns.
struct Ends<'a>(&'a BuildProgress);

impl Drop for Ends<'_> {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
    }
}

/// One subspace of a build.
#[derive(Clone, Debug, PartialEq)]
pub struct SubspaceReport {
    /// The subspace, as its file name stem.
    pub subspace: String,
    /// Indices in the table.
    pub positions: u64,
    /// Counts and longest distances.
    pub stats: Stats,
    /// Seconds spent on the unit this subspace was solved in (0 when an existing file was
    /// kept).
    pub seconds: f64,
    /// Whether a complete, valid file was already there and kept.
    pub kept: bool,
    /// Whether its unit was taken up from a checkpoint of an earlier build
    /// ([`SolveOptions::checkpoint_every`]).
    pub resumed: bool,
    /// The file.
    pub path: PathBuf,
}

/// What a build did.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// Every subspace the request needed, in solving order.
    pub subspaces: Vec<SubspaceReport>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// The largest working memory of one unit, in bytes: its cells (value and counter) and, as
    /// each subspace is written, that subspace's payload.
    pub peak_working_bytes: u64,
    /// Positions solved (not kept) in this run.
    pub solved_positions: u64,
    /// The tables compressed by this run ([`SolveOptions::compress`]).
    pub compressed: Vec<crate::CompressedTable>,
    /// Checkpoints this run saved ([`SolveOptions::checkpoint_every`]).
    pub checkpoints_saved: u32,
    /// Why saving a unit's checkpoint failed (a full disk, say), the last failure of each unit
    /// where one did: such a unit solves on and tries again at the next interval, so the build
    /// succeeds, but a build stopped in it before a save succeeded would take that unit up
    /// from its last whole checkpoint or start it over.
    pub checkpoint_failures: Vec<String>,
}

impl SolveReport {
    /// Positions solved per second of wall time in this run.
    #[must_use]
    pub fn positions_per_second(&self) -> f64 {
        self.solved_positions as f64 / self.seconds.max(1e-9)
    }
}

/// Builds the tables `targets` need into `out` (created if missing): every unit in dependency
/// order, keeping complete valid files from earlier runs. The build holds `out`'s
/// [`BuildLock`] throughout: another build there is an error ([`SolveError::Locked`], naming
/// it) or, with [`SolveOptions::wait`], waited for.
pub fn solve<D: Domain>(
    domain: D,
    out: &Path,
    targets: &[D::Key],
    options: &SolveOptions,
) -> Result<SolveReport, SolveError> {
    let figures = options.report_to.clone().unwrap_or_default();
    figures.begin();
    let _ends = Ends(&figures);
    let on_wait = |holder: &str| figures.waiting_for(holder);
    let wait = if options.wait {
        LockWait::Yes {
            cancel: options.cancel.as_deref(),
            on_wait: &on_wait,
        }
    } else {
        LockWait::No
    };
    // Rules the tables cannot hold are refused before the directory is made or locked.
    let units = plan(&domain, targets);
    check_keys(&domain, &units)?;
    let _lock = claim_directory(out, wait)?;
    let tb = Tablebase::open(domain, out)?;
    build_units(&tb, out, &units, options, &figures)
}

/// Refuses units with a subspace the database scheme cannot hold under the domain's rules.
fn check_keys<D: Domain>(domain: &D, units: &[Vec<D::Key>]) -> Result<(), SolveError> {
    for &key in units.iter().flatten() {
        domain
            .check_key(key)
            .map_err(|why| SolveError::Unsupported(format!("subspace {key}: {why}")))?;
    }
    Ok(())
}

/// Builds one unit of a plan into `out` on its own, for schedulers that hand units out to
/// workers themselves (the Python package's cluster build): a unit whose files are complete
/// and valid is kept, else it is solved from the tables of the units it reads, which must be
/// complete. No lock is taken here: the scheduler holds the directory's
/// ([`claim_directory`]) for the whole build and runs each unit once at a time, after the
/// units it reads. Files are written as by [`solve`] (temporary name, renamed when complete),
/// so a worker killed in the middle leaves no half table.
pub fn solve_planned_unit<D: Domain>(
    domain: D,
    out: &Path,
    unit: &[D::Key],
    options: &SolveOptions,
) -> Result<SolveReport, SolveError> {
    check_unit(&domain, unit)?;
    let figures = options.report_to.clone().unwrap_or_default();
    figures.begin();
    let _ends = Ends(&figures);
    let tb = Tablebase::open(domain, out)?;
    build_units(&tb, out, &[unit.to_vec()], options, &figures)
}

/// That `unit` is one whole unit of the plan, each subspace once: a subspace listed twice
/// would be solved as two, each half of its positions' updates going to one copy, and a part
/// of a unit lacks the positions its turns lead to.
fn check_unit<D: Domain>(domain: &D, unit: &[D::Key]) -> Result<(), SolveError> {
    let Some(&first) = unit.first() else {
        return Err(SolveError::Unsupported("a unit of no subspace".to_owned()));
    };
    check_keys(domain, &[unit.to_vec()])?;
    let mut listed = unit.to_vec();
    listed.sort();
    if let Some(twice) = listed.windows(2).find(|w| w[0] == w[1]) {
        return Err(SolveError::Unsupported(format!(
            "subspace {} is listed twice in the unit",
            twice[0]
        )));
    }
    // The plan of `first` ends with the unit that holds it.
    let mut whole = crate::plan::plan(domain, &[first])
        .pop()
        .unwrap_or_default();
    whole.sort();
    if whole != listed {
        let names = |keys: &[D::Key]| {
            keys.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(SolveError::Unsupported(format!(
            "subspaces {} are not one unit of the plan: the unit of {first} is {}",
            names(&listed),
            names(&whole)
        )));
    }
    Ok(())
}

/// Builds `units` into `out` in their order, each after the ones before it (see
/// [`UnitWork::build`]), and reports. Its callers have refused keys the scheme cannot hold
/// ([`check_keys`]) before they opened or locked anything.
fn build_units<D: Domain>(
    tb: &Tablebase<D>,
    out: &Path,
    units: &[Vec<D::Key>],
    options: &SolveOptions,
    figures: &BuildProgress,
) -> Result<SolveReport, SolveError> {
    refuse_foreign_tables(tb, units)?;
    let (pool, threads) = worker_pool(options.threads)?;
    let started = Instant::now();
    let total: u64 = units.iter().flatten().map(|&k| tb.domain().size(k)).sum();
    figures.total.store(total, Ordering::Relaxed);
    let mut report = SolveReport {
        subspaces: Vec::new(),
        seconds: 0.0,
        threads,
        peak_working_bytes: 0,
        solved_positions: 0,
        compressed: Vec::new(),
        checkpoints_saved: 0,
        checkpoint_failures: Vec::new(),
    };
    let mut work = UnitWork {
        tb,
        out,
        options,
        pool: &pool,
        figures,
    };
    let mut resident = ResidentTables::new();
    for unit in units {
        work.build(unit, &mut resident, &mut report)?;
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Takes `out`'s build lock for a scheduler that builds units with [`solve_planned_unit`]
/// (created if missing) and removes the temporary files of earlier killed builds: hold the lock
/// until every unit is done.
pub fn claim_directory(out: &Path, wait: LockWait<'_>) -> Result<BuildLock, SolveError> {
    crate::format::create_output_dir(out)?;
    let lock = BuildLock::acquire(out, wait)?;
    remove_leftovers(out)?;
    Ok(lock)
}

/// A unit of a plan as a scheduler sees it ([`planned_units`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedUnit {
    /// Its subspaces, by name.
    pub subspaces: Vec<String>,
    /// The units (indices into the plan, all earlier) whose tables its turns lead to: they
    /// must be complete before it is built.
    pub reads: Vec<usize>,
    /// Positions in its tables.
    pub positions: u64,
    /// Memory it takes to build, in bytes: its working cells (2 bytes a position), the
    /// payload of its largest subspace (a byte a position, a quarter byte WDL-only without
    /// unit distances) and the
    /// in-memory copies of the tables it reads, each once (a byte a position, a quarter byte
    /// WDL-only).
    pub working_bytes: u64,
}

/// The plan for `targets` ([`plan`]) as data for a scheduler: each unit with the units it
/// reads and its size, in an order where every unit comes after those it reads; the memory of a
/// build with `options` (of WDL-only tables with [`SolveOptions::wdl_only`], whose unit
/// distances, [`SolveOptions::unit_distances`], take the largest subspace's payload back to a
/// byte a position).
pub fn planned_units<D: Domain>(
    domain: &D,
    targets: &[D::Key],
    options: &SolveOptions,
) -> Vec<PlannedUnit> {
    let wdl_only = options.wdl_only;
    let units = plan(domain, targets);
    let unit_of: HashMap<D::Key, usize> = units
        .iter()
        .enumerate()
        .flat_map(|(i, unit)| unit.iter().map(move |&k| (k, i)))
        .collect();
    units
        .iter()
        .enumerate()
        .map(|(i, unit)| {
            let mut reads = Vec::new();
            let mut exits = Vec::new();
            for &key in unit {
                for next in domain.successor_keys(key) {
                    let Some(&j) = unit_of.get(&next) else {
                        continue;
                    };
                    if j != i && !reads.contains(&j) {
                        reads.push(j);
                    }
                    if j != i && !exits.contains(&next) {
                        exits.push(next);
                    }
                }
            }
            reads.sort_unstable();
            let positions: u64 = unit.iter().map(|&k| domain.size(k)).sum();
            let largest = unit.iter().map(|&k| domain.size(k)).max().unwrap_or(0);
            let exit_positions: u64 = exits.iter().map(|&k| domain.size(k)).sum();
            let exit_bytes = if wdl_only {
                exit_positions.div_ceil(4)
            } else {
                exit_positions
            };
            PlannedUnit {
                subspaces: unit.iter().map(ToString::to_string).collect(),
                reads,
                positions,
                working_bytes: UnitSolver::<D>::working_bytes(
                    positions,
                    largest,
                    payload_in_two_bits(options),
                ) + exit_bytes,
            }
        })
        .collect()
}

/// Whether a subspace's payload is made in the 2-bit form of WDL-only tables: unit distances
/// are written from a byte payload, as distance tables are.
fn payload_in_two_bits(options: &SolveOptions) -> bool {
    options.wdl_only && !options.unit_distances
}

/// Whether the build has been told to stop.
fn cancelled(options: &SolveOptions) -> bool {
    options
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
}

/// What building a unit needs, for [`solve`] and [`solve_planned_unit`] alike.
struct UnitWork<'a, D: Domain> {
    tb: &'a Tablebase<D>,
    out: &'a Path,
    options: &'a SolveOptions,
    pool: &'a rayon::ThreadPool,
    figures: &'a BuildProgress,
}

impl<D: Domain> UnitWork<'_, D> {
    /// Keeps `unit`'s complete files or solves it, compresses it if asked, and adds it to
    /// `report`.
    fn build(
        &mut self,
        unit: &[D::Key],
        resident: &mut ResidentTables<D::Key>,
        report: &mut SolveReport,
    ) -> Result<(), SolveError> {
        let (tb, options) = (self.tb, self.options);
        // A stop between two units begins no other: loading a large unit's exits and its
        // checkpoint takes minutes, after which its state would only be saved again as it was.
        if cancelled(options) {
            return Err(SolveError::Interrupted);
        }
        if let Some(kept) = kept_files(tb, unit, options.wdl_only)? {
            // A build stopped between writing the tables and removing the checkpoint.
            remove_checkpoint(self.out, unit)?;
            self.figures
                .finish_unit(kept.iter().map(|r| r.positions).sum());
            report.subspaces.extend(kept);
            if options.compress {
                compress_unit(tb, unit, self.out, options, self.pool, report)?;
            }
            return Ok(());
        }
        let positions: u64 = unit.iter().map(|&k| tb.domain().size(k)).sum();
        let unit_started = Instant::now();
        self.figures.start_unit(&unit_name(unit), positions);
        let figures = self.figures;
        let solved = self
            .pool
            .install(|| solve_unit(tb, resident, unit, options, figures))?;
        let seconds = unit_started.elapsed().as_secs_f64();
        report.checkpoints_saved += solved.checkpoints_saved;
        report.checkpoint_failures.extend(
            solved
                .checkpoint_failure
                .map(|why| format!("{}: {why}", unit_name(unit))),
        );
        for mut r in solved.tables {
            r.seconds = seconds;
            r.resumed = solved.resumed;
            report.subspaces.push(r);
        }
        report.solved_positions += positions;
        let largest = unit.iter().map(|&k| tb.domain().size(k)).max().unwrap_or(0);
        report.peak_working_bytes = report
            .peak_working_bytes
            .max(UnitSolver::<D>::working_bytes(
                positions,
                largest,
                payload_in_two_bits(options),
            ));
        if options.compress {
            compress_unit(tb, unit, self.out, options, self.pool, report)?;
        }
        self.figures.finish_unit(positions);
        Ok(())
    }
}

/// Removes the temporary files of an earlier build that was killed while writing (the build
/// lock keeps a concurrent build, whose temporary file would go too, out of the directory).
/// A scheduler that holds the lock ([`claim_directory`]) calls it once no worker writes.
pub fn remove_leftovers(dir: &Path) -> Result<(), DbError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))?;
    let long = format!(
        "{}{}",
        crate::format::UNIT_DISTANCE_EXTENSION,
        crate::long_distances::LONG_DISTANCE_SUFFIX
    );
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let leftover = [
            EXTENSION,
            DISTANCE_EXTENSION,
            CHECKPOINT_EXTENSION,
            crate::format::UNIT_DISTANCE_EXTENSION,
            long.as_str(),
        ]
        .iter()
        .any(|ext| name.contains(&format!(".{ext}.tmp-")));
        if name.starts_with('.') && leftover {
            match std::fs::remove_file(entry.path()) {
                // Renamed or removed by its writer since the listing: not left over.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                other => other.map_err(|e| DbError::io(entry.path(), e))?,
            }
        }
    }
    Ok(())
}

/// Compresses the plain tables of `unit` in `out` in place.
fn compress_unit<D: Domain>(
    tb: &Tablebase<D>,
    unit: &[D::Key],
    out: &Path,
    options: &SolveOptions,
    pool: &rayon::ThreadPool,
    report: &mut SolveReport,
) -> Result<(), SolveError> {
    for &key in unit {
        // Each table is compressed whole or not at all: a stop between two leaves the rest
        // plain, to be compressed by the next build.
        if cancelled(options) {
            return Err(SolveError::Interrupted);
        }
        let path = out.join(crate::format::file_name(&key.to_string()));
        let table = Table::open(&path, Some(&tb.expected(key)))?;
        if table.layout().is_some() {
            continue;
        }
        let done = pool
            .install(|| crate::compress_table(tb.domain(), key, &table, out, !options.wdl_only))?;
        report.compressed.push(done);
    }
    Ok(())
}

/// Refuses a build into a directory that holds, where any of `units` would be written, a table
/// of another game or other rules: before the first unit, so that nothing is written beside it
/// and nothing of it is overwritten. Headers alone are read (a few kilobytes a table): the
/// tables kept are opened whole, payload checksum and all, when their unit comes.
fn refuse_foreign_tables<D: Domain>(
    tb: &Tablebase<D>,
    units: &[Vec<D::Key>],
) -> Result<(), SolveError> {
    for &key in units.iter().flatten() {
        if let Some(path) = tb.find(key) {
            refuse_foreign_table(&path, &tb.expected(key))?;
        }
    }
    Ok(())
}

/// [`SolveError::ForeignTable`] where the file at `path` is a table of another game or other
/// rules than `expected` (its header alone read); anything else about it (missing, damaged,
/// of another form) is left to the caller, which writes over it.
pub(crate) fn refuse_foreign_table(
    path: &Path,
    expected: &crate::format::Expected,
) -> Result<(), SolveError> {
    match crate::format::check_file_header(path, expected) {
        Err(
            e @ DbError::Mismatch {
                what: "game" | "rules",
                ..
            },
        ) => Err(SolveError::ForeignTable(e)),
        _ => Ok(()),
    }
}

/// The reports of a unit whose files are all present, valid and of the requested form; `None`
/// where one is missing or unusable (the unit is built again over it), and an error where one
/// is a table of another game or other rules (someone else's, never overwritten).
fn kept_files<D: Domain>(
    tb: &Tablebase<D>,
    unit: &[D::Key],
    wdl_only: bool,
) -> Result<Option<Vec<SubspaceReport>>, SolveError> {
    let wanted = if wdl_only {
        Encoding::Wdl
    } else {
        Encoding::Distance
    };
    // Foreign tables were refused when the build began (`refuse_foreign_tables`); one met
    // here was put there since.
    let mut kept = Vec::new();
    for &key in unit {
        let Some(path) = tb.find(key) else {
            return Ok(None);
        };
        let table = match Table::open(&path, Some(&tb.expected(key))) {
            Ok(table) => table,
            Err(
                e @ DbError::Mismatch {
                    what: "game" | "rules",
                    ..
                },
            ) => return Err(SolveError::ForeignTable(e)),
            Err(_) => return Ok(None),
        };
        // A distance table serves a WDL-only request too; not the other way round.
        if table.header().encoding != wanted && table.header().encoding == Encoding::Wdl {
            return Ok(None);
        }
        kept.push(SubspaceReport {
            subspace: key.to_string(),
            positions: table.positions(),
            stats: table.header().stats,
            seconds: 0.0,
            kept: true,
            resumed: false,
            path,
        });
    }
    Ok(Some(kept))
}

/// The bytes of resident copies kept from one unit to the next.
const RESIDENT_BUDGET: u64 = 2 << 30;

/// Resident copies of the tables that units read through their exits
/// ([`Table::resident_copy`]), kept from unit to unit within [`RESIDENT_BUDGET`]: the many
/// small units of a checkers build read the same tables again and again.
struct ResidentTables<K> {
    tables: HashMap<K, (Arc<Table>, u64)>,
    /// Units served so far: the age of each table's last use.
    clock: u64,
}

impl<K: Copy + Eq + std::hash::Hash + std::fmt::Display> ResidentTables<K> {
    fn new() -> Self {
        ResidentTables {
            tables: HashMap::new(),
            clock: 0,
        }
    }

    /// The resident copy of `next`'s table, which `key`'s turns lead to.
    fn get<D: Domain<Key = K>>(
        &mut self,
        tb: &Tablebase<D>,
        key: K,
        next: K,
    ) -> Result<Arc<Table>, SolveError> {
        if let Some((table, used)) = self.tables.get_mut(&next) {
            *used = self.clock;
            return Ok(Arc::clone(table));
        }
        let table = tb.table(next).map_err(|e| SolveError::Dependency {
            subspace: key.to_string(),
            source: e,
        })?;
        // A compressed table is read in its plain form: the solver reads exits at random, and
        // must find the positions it left out valued.
        let copy = Arc::new(match table.layout() {
            None => table.resident_copy()?,
            Some(_) => crate::compress::inflate(tb, next, &table)?,
        });
        self.tables.insert(next, (Arc::clone(&copy), self.clock));
        Ok(copy)
    }

    /// Drops the least recently used copies the unit about to be solved (`exits`) does not
    /// read until the rest fit the budget.
    fn trim(&mut self, exits: &[(K, Arc<Table>)]) {
        self.clock += 1;
        let mut bytes: u64 = self
            .tables
            .values()
            .map(|(t, _)| t.payload().len() as u64)
            .sum();
        let mut idle: Vec<(u64, K, u64)> = self
            .tables
            .iter()
            .filter(|(k, _)| !exits.iter().any(|(e, _)| e == *k))
            .map(|(k, (t, used))| (*used, *k, t.payload().len() as u64))
            .collect();
        idle.sort_by_key(|&(used, _, _)| used);
        for (_, k, size) in idle {
            if bytes <= RESIDENT_BUDGET {
                break;
            }
            self.tables.remove(&k);
            bytes -= size;
        }
    }
}

/// What solving a unit gave.
struct SolvedUnit {
    tables: Vec<SubspaceReport>,
    /// Taken up from a checkpoint.
    resumed: bool,
    checkpoints_saved: u32,
    checkpoint_failure: Option<String>,
}

/// The checkpoint of `unit` in `dir`, whatever its content.
fn checkpoint_path<K: std::fmt::Display>(dir: &Path, unit: &[K]) -> PathBuf {
    let first = unit.first().map(ToString::to_string).unwrap_or_default();
    Checkpoints::path_in(dir, &first)
}

/// Removes `unit`'s checkpoint in `dir`, if any.
fn remove_checkpoint<K: std::fmt::Display>(dir: &Path, unit: &[K]) -> Result<(), DbError> {
    remove_checkpoint_at(&checkpoint_path(dir, unit))
}

fn solve_unit<D: Domain>(
    tb: &Tablebase<D>,
    resident: &mut ResidentTables<D::Key>,
    unit: &[D::Key],
    options: &SolveOptions,
    figures: &BuildProgress,
) -> Result<SolvedUnit, SolveError> {
    let domain = tb.domain();
    let mut exits: Vec<(D::Key, Arc<Table>)> = Vec::new();
    let mut exits_have_distances = true;
    for &key in unit {
        for next in domain.successor_keys(key) {
            if unit.contains(&next) || exits.iter().any(|(k, _)| *k == next) {
                continue;
            }
            let table = resident.get(tb, key, next)?;
            exits_have_distances &= table.has_distances();
            exits.push((next, table));
        }
    }
    resident.trim(&exits);
    if !exits_have_distances && !options.wdl_only {
        return Err(SolveError::Unsupported(format!(
            "{}: a table it depends on is WDL-only; distances need distance tables \
             (rebuild them without --wdl-only, or build this one with --wdl-only)",
            unit[0]
        )));
    }
    let dir = &tb.directories()[0];
    let path = checkpoint_path(dir, unit);
    // Without saves, a unit runs its first pass in one go, unless it has a checkpoint to take
    // up (saving never, so `Duration::MAX`).
    let mut checkpoints = (options.checkpoint_every.is_some() || path.exists()).then(|| {
        Checkpoints::new(
            path,
            UnitIdentity::of(domain, unit, &exits),
            options.checkpoint_every.unwrap_or(Duration::MAX),
        )
    });
    if cancelled(options) {
        return Err(SolveError::Interrupted);
    }
    let mut solver = UnitSolver::new(domain, unit, exits, options.cancel.as_deref())?;
    if options.wdl_only {
        // Its tables hold no distance: one past the byte is no reason to stop.
        solver = solver.with_long_distances();
    }
    let solved = solver.run(figures, checkpoints.as_mut())?;
    figures.writing();
    let mut reports = Vec::new();
    for (member, &key) in unit.iter().enumerate() {
        let positions = domain.size(key);
        let expected = expected_for(domain, key);
        // Written before the table: a unit whose tables are all there (kept by a later run)
        // has all its unit distances too, until they are deleted once verified.
        if options.wdl_only && options.unit_distances {
            let (payload, long) = solved.unit_distances(member, crate::value::MAX_DISTANCE);
            let header = Header {
                game_id: expected.game_id.clone(),
                rules: expected.rules.clone(),
                index_scheme: crate::format::unit_distance_scheme(&expected.index_scheme),
                subspace: key.to_string(),
                encoding: Encoding::Distance,
                positions,
                stats: Stats::of_bytes(&payload),
                payload_checksum: xxh3_64(&payload),
            };
            crate::format::write_unit_distances(dir, &header, &payload)?;
            crate::long_distances::write_long_distances(
                dir,
                &header.subspace,
                positions,
                header.payload_checksum,
                &long,
            )?;
        }
        let (encoding, stats, bytes) = if options.wdl_only {
            let (histogram, bytes) = solved.wdl_payload(member);
            let mut stats = Stats::of_histogram(&histogram);
            stats.longest_win = 0;
            stats.longest_loss = 0;
            (Encoding::Wdl, stats, bytes)
        } else {
            let payload = solved.payload(member)?;
            (Encoding::Distance, Stats::of_bytes(&payload), payload)
        };
        let header = Header {
            game_id: expected.game_id,
            rules: expected.rules,
            index_scheme: expected.index_scheme,
            subspace: key.to_string(),
            encoding,
            positions,
            stats,
            payload_checksum: xxh3_64(&bytes),
        };
        let path = write_table(dir, &header, &bytes)?;
        reports.push(SubspaceReport {
            subspace: key.to_string(),
            positions: header.positions,
            stats,
            seconds: 0.0,
            kept: false,
            resumed: false,
            path,
        });
    }
    if cancelled(options) {
        return Err(SolveError::Interrupted);
    }
    let Some(checkpoints) = checkpoints else {
        return Ok(SolvedUnit {
            tables: reports,
            resumed: false,
            checkpoints_saved: 0,
            checkpoint_failure: None,
        });
    };
    checkpoints.remove()?;
    Ok(SolvedUnit {
        tables: reports,
        resumed: checkpoints.resumed().is_some(),
        checkpoints_saved: checkpoints.saves(),
        checkpoint_failure: checkpoints.failure().map(str::to_owned),
    })
}

/// A unit's name: its subspaces, `5-4 + 4-5`.
fn unit_name<K: std::fmt::Display>(unit: &[K]) -> String {
    unit.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" + ")
}

#[cfg(test)]
mod progress_tests {
    use super::*;

    #[test]
    fn figures_handed_to_a_new_build_start_again() {
        let figures = BuildProgress::default();
        figures.begin();
        figures.total.store(500, Ordering::Relaxed);
        figures.waiting_for("pid 7");
        figures.start_unit("5-4 + 4-5", 300);
        figures.finish_unit(300);
        figures.start_unit("5-5", 200);
        figures.done.store(true, Ordering::Relaxed);
        assert_ne!(figures.snapshot(), ProgressSnapshot::default());
        figures.begin();
        assert_eq!(figures.snapshot(), ProgressSnapshot::default());
    }
}
