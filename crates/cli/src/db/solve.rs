//! `perfectplay solve`: builds the tables a request needs, with progress bars, and reports them.

use super::*;

use std::sync::atomic::Ordering;

/// Arguments of `perfectplay solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Directory for the tables (created if missing); complete tables already there are kept.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Morris: every moving-phase subspace with at most N men of each side on the board.
    #[arg(long, value_name = "N", conflicts_with_all = ["subspace", "whole_game", "max_pieces"])]
    pub(crate) max_men: Option<u8>,
    /// Checkers: every slice with 2 to N pieces on the board.
    #[arg(long, value_name = "N", conflicts_with_all = ["subspace", "whole_game"])]
    pub(crate) max_pieces: Option<u8>,
    /// One subspace (and what it depends on). Morris: men of the side to move and of the
    /// other side, e.g. 5,4; with men in hand 3-2-h6-6. Checkers: men and kings of each side
    /// and the ranks of their most advanced men, e.g. 2110-53, or a material, every slice of
    /// it: 2110.
    #[arg(long, value_name = "KEY", conflicts_with = "whole_game")]
    pub(crate) subspace: Vec<String>,
    /// The whole game, placement included: every subspace reachable from the start. The default
    /// for games of at most 6 men; larger games default to every moving-phase subspace.
    #[arg(long)]
    pub(crate) whole_game: bool,
    #[command(flatten)]
    pub(crate) threads: Threads,
    /// If another build holds the directory's lock, wait for it to end instead of failing.
    #[arg(long)]
    pub(crate) wait: bool,
    /// Write results only (2 bits per position) instead of distances (1 byte).
    #[arg(long)]
    pub(crate) wdl_only: bool,
    /// Compress each table once built (see `perfectplay compress`): results in KEY.ppdb,
    /// distances (unless --wdl-only) in KEY.ppdd.
    #[arg(long)]
    pub(crate) compress: bool,
    /// Save a unit's state (KEY.ppck in the output directory, 2 bytes a position) after this
    /// many minutes of solving it, and again each time as many more have passed, so that a
    /// build stopped in the middle of a long unit takes it up from there when run again, with
    /// the same tables; 0 saves at every chance (after each segment of the first pass and each
    /// layer). SIGINT or SIGTERM saves the unit where it stopped, whatever the interval (a
    /// second signal ends the build at once). A checkpoint that does not fit the tables now
    /// beside it stops the build until it is deleted.
    #[arg(long, value_name = "MINUTES", default_value = "30", value_parser = parse_minutes)]
    pub(crate) checkpoint_every: f64,
    /// With --wdl-only, also write each table's unit distances (KEY.ppud, a byte a position,
    /// uncompressed; those past 253 plies in KEY.ppud.long), the proof that `verify
    /// --unit-distances` checks: a WDL-only table alone can only be checked for agreement with
    /// its successors. Delete them once verified.
    #[arg(long, requires = "wdl_only")]
    pub(crate) unit_distances: bool,
    /// Save no unit checkpoints, not even when stopped (one already there is still taken up).
    #[arg(long, conflicts_with = "checkpoint_every")]
    pub(crate) no_checkpoints: bool,
    /// No progress bars (the summary is still printed).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Set a rule option (repeatable); `perfectplay rules GAME` lists them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

/// Minutes as `--checkpoint-every` takes them: a number from 0 to a billion.
fn parse_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m.is_finite() && (0.0..=1e9).contains(&m) => Ok(m),
        _ => Err(format!(
            "`{text}` is not a number of minutes from 0 to 1000000000"
        )),
    }
}

/// Builds the requested tables and prints the summary table.
pub(crate) fn run_solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // SIGINT or SIGTERM stops the build between two of its tasks: complete tables stay, and
    // the unit under way is saved where it stopped (unless --no-checkpoints).
    let interrupts = watch_interrupts()?;
    let stopped = |e: SolveError| match (e, interrupts.which.load(Ordering::Relaxed)) {
        (SolveError::Interrupted, signal) if signal != 0 => CliError::Stopped {
            signal: signal as i32,
            saved: !args.no_checkpoints,
        },
        (e, _) => CliError::Solve(e),
    };
    let options = SolveOptions {
        threads: args.threads.checked()?,
        wdl_only: args.wdl_only,
        cancel: Some(Arc::clone(&interrupts.raised)),
        report_to: (!args.quiet).then(|| Arc::new(BuildProgress::default())),
        wait: args.wait,
        compress: args.compress,
        checkpoint_every: (!args.no_checkpoints)
            .then(|| std::time::Duration::from_secs_f64(args.checkpoint_every * 60.0)),
        unit_distances: args.unit_distances,
    };
    let domain = match databases(&args.game, &args.set)? {
        Databases::Morris(domain) => domain,
        Databases::Checkers(domain) => {
            if args.max_men.is_some() || args.whole_game {
                return Err(CliError::BadSubspace(
                    "checkers tables are chosen with --max-pieces N or --subspace KEY".into(),
                ));
            }
            let targets = if args.subspace.is_empty() {
                let n = args.max_pieces.ok_or_else(|| {
                    CliError::BadSubspace(
                        "say which checkers tables to build: --max-pieces N (2 to 8) or \
                         --subspace KEY"
                            .into(),
                    )
                })?;
                domain.keys_up_to_checked(n)?
            } else {
                parse_checkers_keys(&domain, &args.subspace)?
            };
            let report = build(domain, &args.out, &targets, &options).map_err(stopped)?;
            return write_report(out, &report);
        }
    };
    if args.max_pieces.is_some() {
        return Err(CliError::BadSubspace(
            "morris tables are chosen with --max-men N, --subspace or --whole-game".into(),
        ));
    }
    let men = domain.game().rules().men;
    let targets = if !args.subspace.is_empty() {
        parse_keys(&domain, &args.subspace)?
    } else if args.whole_game || (args.max_men.is_none() && men <= 6) {
        vec![domain.start_key()]
    } else {
        domain.moving_keys_checked(args.max_men.unwrap_or(men))?
    };
    let report = build(domain, &args.out, &targets, &options).map_err(stopped)?;
    write_report(out, &report)?;
    Ok(())
}

/// Solves, with bars on standard error while it runs when `options` asks for figures.
fn build<D: Domain>(
    domain: D,
    out: &Path,
    targets: &[D::Key],
    options: &SolveOptions,
) -> Result<SolveReport, SolveError> {
    match &options.report_to {
        Some(figures) => progress::with_bars(figures, out, || solve(domain, out, targets, options)),
        None => solve(domain, out, targets, options),
    }
}

fn write_report(out: &mut dyn Write, report: &SolveReport) -> Result<(), CliError> {
    writeln!(
        out,
        "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>9}",
        "subspace", "positions", "wins", "draws", "losses", "longest", "seconds"
    )?;
    for s in &report.subspaces {
        let seconds = if s.kept {
            "kept".to_owned()
        } else {
            format!("{:.2}", s.seconds)
        };
        writeln!(
            out,
            "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>9}",
            s.subspace,
            s.positions,
            s.stats.wins,
            s.stats.draws,
            s.stats.losses,
            s.stats.longest_win,
            seconds
        )?;
    }
    let positions: u64 = report.subspaces.iter().map(|s| s.positions).sum();
    writeln!(
        out,
        "{} tables, {positions} positions; solved {} in {:.2} s with {} threads ({:.0} positions/s, {:.0} per thread); peak working memory {} bytes (one unit's cells and one subspace's payload)",
        report.subspaces.len(),
        report.solved_positions,
        report.seconds,
        report.threads,
        report.positions_per_second(),
        report.positions_per_second() / report.threads as f64,
        report.peak_working_bytes,
    )?;
    let resumed: Vec<&str> = report
        .subspaces
        .iter()
        .filter(|s| s.resumed)
        .map(|s| s.subspace.as_str())
        .collect();
    if !resumed.is_empty() {
        writeln!(out, "taken up from checkpoints: {}", resumed.join(", "))?;
    }
    if report.checkpoints_saved > 0 {
        writeln!(out, "unit checkpoints saved: {}", report.checkpoints_saved)?;
    }
    for failure in &report.checkpoint_failures {
        to_stderr!("perfectplay: warning: a unit checkpoint could not be saved (the unit solved on, and tried again at each interval): {failure}");
    }
    if !report.compressed.is_empty() {
        super::compress::write_totals(out, &report.compressed)?;
    }
    Ok(())
}
