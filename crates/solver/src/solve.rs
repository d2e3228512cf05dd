//! Building databases: take the directory's build lock, plan the units, skip the complete ones,
//! solve the rest in parallel, write each file atomically, report.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use xxhash_rust::xxh3::xxh3_64;

use crate::domain::Domain;
use crate::error::{DbError, SolveError};
use crate::format::{to_wdl_payload, write_table, Encoding, Header, Stats, EXTENSION};
use crate::limits::check_threads;
use crate::lock::{BuildLock, LockWait};
use crate::plan::plan;
use crate::retro::{Observer, UnitSolver};
use crate::table::Table;
use crate::tablebase::{expected_for, Tablebase};

/// How to build.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Worker threads; `None` uses every core. `Some(0)` is refused; a front bounds what its
    /// user asks for with [`crate::limits::check_threads`].
    pub threads: Option<usize>,
    /// Write the compact WDL-only form (2 bits per position) instead of distances.
    pub wdl_only: bool,
    /// Draw progress bars on the terminal (standard error).
    pub progress: bool,
    /// Set to stop the build between tasks; the unit in progress is dropped, nothing half
    /// written is left behind.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Live figures of the build, for a caller that shows progress its own way (a notebook).
    pub report_to: Option<Arc<BuildProgress>>,
    /// Wait for another build that holds the directory's [`BuildLock`] to end, instead of
    /// failing with [`SolveError::Locked`] (`cancel` still stops the wait).
    pub wait: bool,
}

/// Live figures of a build, updated by the solver as it goes and read by anyone at any time.
#[derive(Debug, Default)]
pub struct BuildProgress {
    total: AtomicU64,
    finished: AtomicU64,
    unit_positions: AtomicU64,
    unit_initialised: AtomicU64,
    layer: AtomicU32,
    unit: Mutex<String>,
}

/// What [`BuildProgress::snapshot`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Positions of every unit of the build.
    pub total: u64,
    /// Positions of the units finished (or kept from an earlier build).
    pub finished: u64,
    /// The unit being solved (`5-4 + 4-5`), empty between units.
    pub unit: String,
    /// Its positions.
    pub unit_positions: u64,
    /// Its positions through the first (forward) pass.
    pub unit_initialised: u64,
    /// The distance layer being solved after that pass (0 before).
    pub layer: u32,
}

impl BuildProgress {
    /// The figures now (each read on its own: they may be a moment apart).
    #[must_use]
    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            total: self.total.load(Ordering::Relaxed),
            finished: self.finished.load(Ordering::Relaxed),
            unit: self.unit.lock().map(|u| u.clone()).unwrap_or_default(),
            unit_positions: self.unit_positions.load(Ordering::Relaxed),
            unit_initialised: self.unit_initialised.load(Ordering::Relaxed),
            layer: self.layer.load(Ordering::Relaxed),
        }
    }

    fn start_unit(&self, name: &str, positions: u64) {
        if let Ok(mut unit) = self.unit.lock() {
            name.clone_into(&mut unit);
        }
        self.unit_positions.store(positions, Ordering::Relaxed);
        self.unit_initialised.store(0, Ordering::Relaxed);
        self.layer.store(0, Ordering::Relaxed);
    }

    fn finish_unit(&self, positions: u64) {
        if let Ok(mut unit) = self.unit.lock() {
            unit.clear();
        }
        self.finished.fetch_add(positions, Ordering::Relaxed);
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
    /// The largest working memory of one unit, in bytes: its cells (value and counter) and, at
    /// the end, its payloads.
    pub peak_working_bytes: u64,
    /// Positions solved (not kept) in this run.
    pub solved_positions: u64,
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
    std::fs::create_dir_all(out).map_err(|e| DbError::io(out, e))?;
    let on_wait = |holder: &str| {
        if options.progress {
            eprintln!(
                "waiting for the build lock of {}, held by {holder}",
                out.display()
            );
        }
    };
    let wait = if options.wait {
        LockWait::Yes {
            cancel: options.cancel.as_deref(),
            on_wait: &on_wait,
        }
    } else {
        LockWait::No
    };
    let _lock = BuildLock::acquire(out, wait)?;
    remove_leftovers(out)?;
    let tb = Tablebase::open(domain, out)?;
    let units = plan(tb.domain(), targets);
    for &key in units.iter().flatten() {
        tb.domain()
            .check_key(key)
            .map_err(|why| SolveError::Unsupported(format!("subspace {key}: {why}")))?;
    }
    let threads = match options.threads {
        Some(t) => check_threads(t, true)?,
        None => rayon::current_num_threads(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| SolveError::Unsupported(format!("cannot start {threads} threads: {e}")))?;
    let started = Instant::now();
    let bars = Bars::new(options.progress, &tb, &units, options.report_to.clone());
    let mut report = SolveReport {
        subspaces: Vec::new(),
        seconds: 0.0,
        threads,
        peak_working_bytes: 0,
        solved_positions: 0,
    };
    let mut resident = ResidentTables::new();
    for unit in &units {
        if let Some(kept) = kept_files(&tb, unit, options.wdl_only) {
            bars.unit_done(kept.iter().map(|r| r.positions).sum());
            report.subspaces.extend(kept);
            continue;
        }
        let positions: u64 = unit.iter().map(|&k| tb.domain().size(k)).sum();
        let unit_started = Instant::now();
        let bar = bars.unit_bar(unit, positions);
        let solved = pool.install(|| solve_unit(&tb, &mut resident, unit, options, &bar))?;
        bar.finish_and_clear();
        let seconds = unit_started.elapsed().as_secs_f64();
        for mut r in solved {
            r.seconds = seconds;
            report.subspaces.push(r);
        }
        report.solved_positions += positions;
        report.peak_working_bytes = report
            .peak_working_bytes
            .max(positions * UnitSolver::<D>::BYTES_PER_POSITION);
        bars.unit_done(positions);
    }
    bars.finish();
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Removes the temporary files of an earlier build that was killed while writing (the build
/// lock keeps a concurrent build, whose temporary file would go too, out of the directory).
fn remove_leftovers(dir: &Path) -> Result<(), DbError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(&format!(".{EXTENSION}.tmp-")) {
            std::fs::remove_file(entry.path()).map_err(|e| DbError::io(entry.path(), e))?;
        }
    }
    Ok(())
}

/// The reports of a unit whose files are all present, valid and of the requested form.
fn kept_files<D: Domain>(
    tb: &Tablebase<D>,
    unit: &[D::Key],
    wdl_only: bool,
) -> Option<Vec<SubspaceReport>> {
    let mut kept = Vec::new();
    for &key in unit {
        let path = tb.find(key)?;
        let table = Table::open(&path, Some(&tb.expected(key))).ok()?;
        let wanted = if wdl_only {
            Encoding::Wdl
        } else {
            Encoding::Distance
        };
        // A distance table serves a WDL-only request too; not the other way round.
        if table.header().encoding != wanted && table.header().encoding == Encoding::Wdl {
            return None;
        }
        kept.push(SubspaceReport {
            subspace: key.to_string(),
            positions: table.positions(),
            stats: table.header().stats,
            seconds: 0.0,
            kept: true,
            path,
        });
    }
    Some(kept)
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
        let copy = Arc::new(table.resident_copy()?);
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

fn solve_unit<D: Domain>(
    tb: &Tablebase<D>,
    resident: &mut ResidentTables<D::Key>,
    unit: &[D::Key],
    options: &SolveOptions,
    bar: &UnitBar,
) -> Result<Vec<SubspaceReport>, SolveError> {
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
    let solver = UnitSolver::new(domain, unit, exits, options.cancel.as_deref())?;
    let solved = solver.run(bar)?;
    bar.writing();
    let mut reports = Vec::new();
    let dir = &tb.directories()[0];
    for (&key, payload) in unit.iter().zip(solved.payloads) {
        let mut stats = Stats::of_bytes(&payload);
        let positions = payload.len() as u64;
        let (encoding, bytes) = if options.wdl_only {
            stats.longest_win = 0;
            stats.longest_loss = 0;
            (Encoding::Wdl, to_wdl_payload(&payload))
        } else {
            (Encoding::Distance, payload)
        };
        let expected = expected_for(domain, key);
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
            path,
        });
    }
    if options
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
    {
        return Err(SolveError::Interrupted);
    }
    Ok(reports)
}

/// Positions per second, as `1.25 M/s`.
fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.2} M/s", per_second / 1e6)
    } else {
        format!("{:.0} k/s", per_second / 1e3)
    }
}

/// The overall bar and the current unit's bar, or nothing when quiet; and the caller's live
/// figures, if it asked for them.
struct Bars {
    multi: Option<MultiProgress>,
    overall: ProgressBar,
    report_to: Option<Arc<BuildProgress>>,
}

/// The bar of the unit being solved; also the solver's progress observer.
pub(crate) struct UnitBar {
    bar: ProgressBar,
    report_to: Option<Arc<BuildProgress>>,
}

impl Bars {
    fn new<D: Domain>(
        show: bool,
        tb: &Tablebase<D>,
        units: &[Vec<D::Key>],
        report_to: Option<Arc<BuildProgress>>,
    ) -> Bars {
        let total: u64 = units.iter().flatten().map(|&k| tb.domain().size(k)).sum();
        if let Some(progress) = &report_to {
            progress.total.store(total, Ordering::Relaxed);
        }
        if !show {
            return Bars {
                multi: None,
                overall: ProgressBar::hidden(),
                report_to,
            };
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:30}] {human_pos}/{human_len} positions, {elapsed} elapsed, eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        overall.set_prefix("all");
        overall.enable_steady_tick(Duration::from_millis(500));
        Bars {
            multi: Some(multi),
            overall,
            report_to,
        }
    }

    fn unit_bar<K: std::fmt::Display>(&self, unit: &[K], positions: u64) -> UnitBar {
        let name = unit
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" + ");
        if let Some(progress) = &self.report_to {
            progress.start_unit(&name, positions);
        }
        let bar =
            match &self.multi {
                None => ProgressBar::hidden(),
                Some(multi) => {
                    let bar = multi.add(ProgressBar::new(positions));
                    bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix:>12} [{bar:30}] {human_pos}/{human_len} {rate}, eta {eta} {msg}",
                    )
                    .expect("valid template")
                    .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{}", rate(state.per_sec()));
                    })
                    .progress_chars("=> "),
                );
                    bar.set_prefix(name);
                    bar.set_message("initialising");
                    bar
                }
            };
        UnitBar {
            bar,
            report_to: self.report_to.clone(),
        }
    }

    fn unit_done(&self, positions: u64) {
        self.overall.inc(positions);
        if let Some(progress) = &self.report_to {
            progress.finish_unit(positions);
        }
    }

    fn finish(&self) {
        self.overall.finish_and_clear();
    }
}

impl UnitBar {
    fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }

    fn writing(&self) {
        self.bar.set_message("writing");
    }
}

impl Observer for UnitBar {
    fn initialised(&self, n: u64) {
        self.bar.inc(n);
        if let Some(progress) = &self.report_to {
            progress.unit_initialised.fetch_add(n, Ordering::Relaxed);
        }
    }

    fn layer(&self, d: u32, max: u32) {
        if let Some(progress) = &self.report_to {
            progress.layer.store(d, Ordering::Relaxed);
        }
        if !self.bar.is_hidden() {
            self.bar.set_message(format!("layer {d} of at least {max}"));
        }
    }
}
