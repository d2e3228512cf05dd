//! `perfectplay probe` and `perfectplay search`: a position's value from the tables, and the search that values positions with men in hand on the moving-phase tables.

use super::*;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Arguments of `perfectplay probe`.
#[derive(Args, Debug)]
pub(crate) struct ProbeArgs {
    #[command(flatten)]
    pub(crate) at: TablePosition,
}

/// Arguments of `perfectplay search` (the tables are those of the moving phase).
#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
    #[command(flatten)]
    pub(crate) at: TablePosition,
    /// Also value every turn of the position.
    #[arg(long)]
    pub(crate) moves: bool,
    /// Transposition table of 2^BITS entries of 8 bytes.
    #[arg(long, value_name = "BITS", default_value_t = 26, value_parser = clap::value_parser!(u32).range(4..=34))]
    pub(crate) table_bits: u32,
    #[command(flatten)]
    pub(crate) threads: Threads,
    /// Copy every table into memory (2 MB pages where the system gives them) before starting:
    /// random reads then skip the page cache's small pages, which pays off for long runs.
    /// Needs as much free memory as the tables' size: refused before anything is copied where
    /// the system has less available.
    #[arg(long)]
    pub(crate) preload: bool,
    /// Keep the transposition table in FILE: read at the start when FILE exists, written every
    /// --checkpoint-minutes, when the search ends and when it is interrupted (Ctrl-C or
    /// SIGTERM; a second one stops it at once). Its entries are proven bounds, so a search that
    /// was stopped goes on from what it had proven. 8 bytes an entry on disk. The search locks
    /// FILE.lock while it runs (a second search of FILE is refused) and removes the temporary
    /// files of killed saves.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Minutes between writes of --checkpoint.
    #[arg(long, value_name = "MINUTES", default_value_t = 10, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub(crate) checkpoint_minutes: u64,
}

/// Where and how often a search saves its transposition table, and what the runs before this
/// one did.
struct Checkpoint<'a> {
    path: &'a Path,
    /// Held until the search has ended and saved: no other search writes the file meanwhile.
    lock: CheckpointLock,
    every: std::time::Duration,
    earlier: SearchHistory,
    /// The signal (SIGINT or SIGTERM) that asked the search to stop, 0 while none has.
    interrupted: Arc<AtomicUsize>,
}

impl Checkpoint<'_> {
    /// What the runs so far did, this one (started at `started`) included.
    fn history(&self, search: &PlacementSearch<'_>, started: Instant) -> SearchHistory {
        self.earlier
            .with_run(search.stats(), started.elapsed().as_secs_f64())
    }

    fn save(&self, search: &PlacementSearch<'_>, started: Instant) -> Result<(), CliError> {
        let begun = Instant::now();
        search.save_table(self.path, &self.history(search, started))?;
        to_stderr!(
            "search: transposition table saved to {} in {:.1} s",
            self.path.display(),
            begun.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

/// Prints the value of a position and of each of its moves.
pub(crate) fn run_probe(args: &ProbeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match databases(&args.at.game, &args.at.set)? {
        Databases::Morris(domain) => {
            let (tb, pos) = args.at.open_morris(domain)?;
            let diagram = tb.domain().game().diagram(&pos);
            print_probe(&tb, &pos, &diagram, out)
        }
        Databases::Checkers(domain) => {
            let (tb, pos) = args.at.open_checkers(domain)?;
            print_probe(&tb, &pos, &pos.to_string(), out)
        }
    }
}

/// The value, distance, moves and principal variation of `pos`, after its `diagram`.
fn print_probe<D: Domain>(
    tb: &Tablebase<D>,
    pos: &<D::Game as Game>::Position,
    diagram: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let game = tb.domain().game();
    let pos = *pos;
    writeln!(out, "{diagram}")?;
    let value: Value = tb.probe(&pos)?;
    let subspace = tb
        .domain()
        .locate(&pos)
        .map_or_else(|_| "-".to_owned(), |(k, _)| k.to_string());
    writeln!(
        out,
        "value: {value} (for {} to move; subspace {subspace})",
        game.side_to_move(&pos)
    )?;
    if let Some(plies) = value.plies {
        writeln!(out, "distance: {plies} plies")?;
    }
    let moves = tb.move_values(&pos)?;
    if moves.is_empty() {
        writeln!(out, "no moves: the game is over")?;
        return Ok(());
    }
    writeln!(out, "moves, best first:")?;
    for m in &moves {
        writeln!(out, "  {:<12} {}", m.mv.to_string(), m.value)?;
    }
    if value.wdl != Wdl::Draw && value.plies.is_some() {
        let line = tb.principal_variation(&pos, 400)?;
        let text: Vec<String> = line.iter().map(ToString::to_string).collect();
        writeln!(out, "principal variation: {}", text.join(" "))?;
    }
    Ok(())
}

/// Values a placement-phase position by searching down to the moving-phase tables.
pub(crate) fn run_search(args: &SearchArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // Checked before the search's table is made: a table of gigabytes is written through
    // before any search starts.
    let threads = args.threads.checked()?.unwrap_or_else(available_cpus);
    let (tb, pos) = args.at.open()?;
    let game = *tb.domain().game();
    // Taken before the search's table is made, so that a second search of the same file is
    // refused at once.
    let held = args
        .checkpoint
        .as_deref()
        .map(hold_checkpoint)
        .transpose()?;
    let search = PlacementSearch::new(&tb, args.table_bits)?;
    let earlier = match &args.checkpoint {
        Some(path) => Some(resume(&search, path, out)?),
        None => None,
    };
    if args.preload {
        preload(&tb)?;
    }
    // Interrupts are caught from here on, once there is a search to save; before, Ctrl-C
    // ends the command at once, losing nothing.
    let checkpoint = match (&args.checkpoint, earlier, held) {
        (Some(path), Some(earlier), Some(lock)) => Some(Checkpoint {
            path,
            lock,
            every: std::time::Duration::from_secs(60 * args.checkpoint_minutes),
            earlier,
            interrupted: watch_interrupts()?.which,
        }),
        _ => None,
    };
    // A table that could not be saved at the end is reported after the values are printed.
    let mut unsaved = None;
    writeln!(out, "{}", game.diagram(&pos))?;
    let started = Instant::now();
    let value = with_search_progress(&search, started, checkpoint.as_ref(), &mut unsaved, || {
        search.value_with_threads(&pos, threads)
    })?;
    writeln!(
        out,
        "value: {} (for {} to move; alpha-beta search of the placement phase on the tables)",
        wdl_word(value),
        pos.side_to_move()
    )?;
    if args.moves {
        let moves =
            with_search_progress(&search, started, checkpoint.as_ref(), &mut unsaved, || {
                search.move_values_reporting(&pos, threads, |mv, w| {
                    to_stderr!(
                        "search: {:.0} s, {mv}: {}",
                        started.elapsed().as_secs_f64(),
                        wdl_word(w)
                    );
                })
            })?;
        writeln!(out, "moves, best first:")?;
        for (mv, w) in moves {
            writeln!(out, "  {:<12} {}", mv.to_string(), wdl_word(w))?;
        }
    }
    let stats = search.stats();
    writeln!(
        out,
        "searched {} positions ({} table probes, {} transposition hits) in {:.1} s",
        stats.nodes,
        stats.probes,
        stats.table_hits,
        started.elapsed().as_secs_f64()
    )?;
    if let Some(checkpoint) = &checkpoint {
        let all = checkpoint.history(&search, started);
        if all.runs > 1 {
            writeln!(
                out,
                "all {} runs: {} positions ({} table probes, {} transposition hits) in {:.1} s",
                all.runs, all.nodes, all.probes, all.table_hits, all.seconds
            )?;
        }
    }
    unsaved.map_or(Ok(()), Err)
}

/// Reads the transposition table an earlier run saved at `path`, if there is one, and returns
/// what the runs that filled it did.
fn resume(
    search: &PlacementSearch<'_>,
    path: &Path,
    out: &mut dyn Write,
) -> Result<SearchHistory, CliError> {
    if !path.exists() {
        return Ok(SearchHistory::default());
    }
    let earlier = search.load_table(path)?;
    writeln!(
        out,
        "resumed from {}: {} entries proven by {} earlier runs ({} positions in {:.1} s)",
        path.display(),
        search.table_entries_used(),
        earlier.runs,
        earlier.nodes,
        earlier.seconds
    )?;
    Ok(earlier)
}

/// Runs `work` while a second thread prints the search's counters to stderr every half minute,
/// so that a search of hours shows it is alive and how fast it goes, and saves the
/// transposition table to `checkpoint` when one is due and once `work` has returned (its
/// entries are proven bounds whether `work` found a value or failed). A failure of that last
/// save goes to `unsaved`, so that the value found is still printed; a failed search is
/// reported first.
fn with_search_progress<T>(
    search: &PlacementSearch<'_>,
    started: Instant,
    checkpoint: Option<&Checkpoint<'_>>,
    unsaved: &mut Option<CliError>,
    work: impl FnOnce() -> Result<T, perfectplay_solver::ProbeError>,
) -> Result<T, CliError> {
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let tick = std::time::Duration::from_millis(200);
            let mut last = Instant::now();
            let mut saved = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(tick);
                if last.elapsed().as_secs() >= 30 {
                    last = Instant::now();
                    let stats = search.stats();
                    let secs = started.elapsed().as_secs_f64();
                    to_stderr!(
                        "search: {:.0} s, {} positions ({:.0}/s), {} probes, {} transposition hits",
                        secs,
                        stats.nodes,
                        stats.nodes as f64 / secs,
                        stats.probes,
                        stats.table_hits
                    );
                }
                if let Some(checkpoint) = checkpoint {
                    let signal = checkpoint.interrupted.load(Ordering::Relaxed);
                    if signal != 0 {
                        // Every entry is a proven bound whatever the workers are doing, so
                        // the table is saved as it stands and the process ends here.
                        stop_interrupted(signal, checkpoint, checkpoint.save(search, started));
                    }
                }
                if let Some(checkpoint) = checkpoint.filter(|c| saved.elapsed() >= c.every) {
                    saved = Instant::now();
                    match checkpoint.save(search, started) {
                        // A failed periodic save loses nothing yet: the search goes on, and
                        // the save at the end reports the error.
                        Err(e) => to_stderr!("search: could not save the transposition table: {e}"),
                        // A signal that came during the save finds the table just written,
                        // which a second save of a few seconds later would barely add to.
                        Ok(()) => match checkpoint.interrupted.load(Ordering::Relaxed) {
                            0 => {}
                            signal => stop_interrupted(signal, checkpoint, Ok(())),
                        },
                    }
                }
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    });
    if let Some(Err(e)) = checkpoint.map(|c| c.save(search, started)) {
        to_stderr!("search: could not save the transposition table: {e}");
        unsaved.get_or_insert(e);
    }
    Ok(result?)
}

/// Ends the process after `signal` (SIGINT or SIGTERM) asked a search to stop and its table
/// was `saved`: with status 128 + the signal when it was, 1 when not. The checkpoint's lock
/// file goes first (`exit` drops nothing; the lock itself goes with the process).
fn stop_interrupted(signal: usize, checkpoint: &Checkpoint<'_>, saved: Result<(), CliError>) -> ! {
    checkpoint.lock.remove_file_before_exit();
    let code = match saved {
        Ok(()) => {
            to_stderr!("search: interrupted; run the same command to go on from the saved table");
            128 + signal as i32
        }
        Err(e) => {
            to_stderr!("search: interrupted, and the table was not saved: {e}");
            1
        }
    };
    std::process::exit(code);
}

/// Takes the lock of the checkpoint `path` for the search, saying on stderr which temporary
/// files of killed saves it removed.
fn hold_checkpoint(path: &Path) -> Result<CheckpointLock, CliError> {
    let held = CheckpointLock::acquire(path)?;
    for stale in held.removed() {
        to_stderr!(
            "search: removed {}, left by a save that was killed before it ended",
            stale.display()
        );
    }
    Ok(held)
}

/// Copies every table of `tb` into memory, saying so on stderr.
fn preload<D: Domain>(tb: &Tablebase<D>) -> Result<(), CliError> {
    let started = Instant::now();
    let bytes = tb.preload()?;
    to_stderr!(
        "preloaded {bytes} bytes of tables in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
