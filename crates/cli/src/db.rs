//! `perfectplay solve | probe | verify | info`: building, querying and checking endgame
//! databases.

mod progress;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use perfectplay_core::checkers::{Checkers, CheckersRules};
use perfectplay_core::morris::{Morris, MorrisPosition, MorrisRules};
use perfectplay_core::Game;
use perfectplay_solver::checkers::{
    CheckersDomain, CheckersKey, ParseCheckersKeyError, MAX_PIECES, PUBLISHED_ARRANGEMENTS,
};
use perfectplay_solver::checksums::{check_manifest, write_manifest, ChecksumStatus, MANIFEST};
use perfectplay_solver::format::{read_file_header, Header, EXTENSION};
use perfectplay_solver::limits::{available_cpus, check_threads};
use perfectplay_solver::morris::{MorrisDomain, MorrisKey, PlacementSearch};
use perfectplay_solver::{
    solve, verify, BuildProgress, Domain, SolveError, SolveOptions, SolveReport, Tablebase, Tabled,
    Value, Wdl,
};

use crate::errors::CliError;
use crate::games::{self, GameId};
use crate::settings;

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
    /// and the ranks of their most advanced men, e.g. 2110-53.
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
    /// No progress bars (the summary is still printed).
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Set a rule option (repeatable); `perfectplay rules GAME` lists them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

/// The thread count of `solve`, `verify` and `search`.
#[derive(Args, Debug)]
pub(crate) struct Threads {
    /// Worker threads (default: every core); at most 4 per CPU without --force-threads.
    #[arg(long, value_name = "T")]
    pub(crate) threads: Option<usize>,
    /// Allow more than 4 threads per CPU.
    #[arg(long, requires = "threads")]
    pub(crate) force_threads: bool,
}

impl Threads {
    /// The count asked for, checked as the Python package checks it.
    fn checked(&self) -> Result<Option<usize>, CliError> {
        Ok(self
            .threads
            .map(|t| check_threads(t, self.force_threads))
            .transpose()?)
    }
}

/// A position and the tables to read it with: what `probe` and `search` share.
#[derive(Args, Debug)]
pub(crate) struct TablePosition {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Directory of the tables (repeatable: searched in order).
    #[arg(long, value_name = "DIR", required = true)]
    pub(crate) db: Vec<PathBuf>,
    /// The position (default: the start). Morris: `.../.../.../....../.../.../... w 9 9`;
    /// checkers: `W:W18,K3:B14,K30`.
    #[arg(long, value_name = "FEN")]
    pub(crate) fen: Option<String>,
    /// Set a rule option (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

impl TablePosition {
    /// The morris tables of every directory, and the position.
    fn open(&self) -> Result<(Tablebase<MorrisDomain>, MorrisPosition), CliError> {
        let domain = morris_domain(&self.game, &self.set)?;
        let game = *domain.game();
        let pos = match &self.fen {
            Some(fen) => game.parse_fen(fen)?.0,
            None => game.start_position(),
        };
        Ok((self.tablebase(&game)?, pos))
    }

    /// The checkers tables of every directory, and the position.
    fn open_checkers(
        &self,
        domain: CheckersDomain,
    ) -> Result<
        (
            Tablebase<CheckersDomain>,
            perfectplay_core::checkers::CheckersPosition,
        ),
        CliError,
    > {
        let pos = match &self.fen {
            Some(fen) => perfectplay_core::checkers::fen::parse(fen)?,
            None => domain.game().start_position(),
        };
        Ok((self.tablebase(domain.game())?, pos))
    }

    fn tablebase<G: Tabled>(&self, game: &G) -> Result<Tablebase<G::Domain>, CliError> {
        Ok(game.open_tables(&self.db)?)
    }
}

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
    /// Needs as much free memory as the tables' size.
    #[arg(long)]
    pub(crate) preload: bool,
}

/// Arguments of `perfectplay verify`.
#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Directory of the tables.
    #[arg(long, value_name = "DIR")]
    pub(crate) db: PathBuf,
    /// Only these subspaces (default: every table in the directory).
    #[arg(long, value_name = "KEY")]
    pub(crate) subspace: Vec<String>,
    #[command(flatten)]
    pub(crate) threads: Threads,
    /// No progress lines.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Compare every table's SHA-256 with the directory's CHECKSUMS manifest instead (written
    /// by `perfectplay info --write-checksums`).
    #[arg(long, conflicts_with = "subspace")]
    pub(crate) checksums: bool,
    /// Set a rule option (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

/// Arguments of `perfectplay positions`.
#[derive(Args, Debug)]
pub(crate) struct PositionsArgs {
    /// The game: checkers.
    #[arg(value_name = "GAME")]
    pub(crate) game: String,
    /// Count the positions of 1 to N pieces.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub(crate) max_pieces: u8,
    /// Only sum the slices' sizes, without enumerating (instant, up to 8 pieces).
    #[arg(long)]
    pub(crate) sizes_only: bool,
}

/// Arguments of `perfectplay info`.
#[derive(Args, Debug)]
pub(crate) struct InfoArgs {
    /// Directory of the tables.
    #[arg(long, value_name = "DIR")]
    pub(crate) db: PathBuf,
    /// Also write the CHECKSUMS manifest (SHA-256 of every table) into the directory (not when
    /// a table is unreadable).
    #[arg(long)]
    pub(crate) write_checksums: bool,
}

/// A game's database scheme, as the commands take it from the command line.
enum Databases {
    Checkers(CheckersDomain),
    Morris(MorrisDomain),
}

/// The game named by `game` with `set` applied, and its database scheme.
fn databases(game: &str, set: &[String]) -> Result<Databases, CliError> {
    match GameId::parse(game)? {
        GameId::Morris(preset) => {
            let mut rules: MorrisRules = preset.rules;
            settings::apply(&mut rules, set)?;
            Ok(Databases::Morris(Morris::new(rules)?.domain()?))
        }
        GameId::Checkers => {
            // The options are history rules the database game does without; they are still
            // checked, so a typo is not ignored.
            let mut rules = CheckersRules::default();
            settings::apply(&mut rules, set)?;
            Ok(Databases::Checkers(Checkers::new(rules).domain()?))
        }
    }
}

/// The morris game named by `game` with `set` applied, and its database scheme.
fn morris_domain(game: &str, set: &[String]) -> Result<MorrisDomain, CliError> {
    match databases(game, set)? {
        Databases::Morris(domain) => Ok(domain),
        Databases::Checkers(_) => Err(CliError::NoPlacement),
    }
}

fn parse_checkers_keys(
    domain: &CheckersDomain,
    texts: &[String],
) -> Result<Vec<CheckersKey>, CliError> {
    texts
        .iter()
        .map(|t| {
            let key: CheckersKey = t
                .parse()
                .map_err(|e: ParseCheckersKeyError| CliError::BadSubspace(e.to_string()))?;
            if domain.size(key) == 0 {
                return Err(CliError::BadSubspace(format!(
                    "checkers slice {key} holds no position with both sides on the board"
                )));
            }
            Ok(key)
        })
        .collect()
}

fn parse_keys(domain: &MorrisDomain, texts: &[String]) -> Result<Vec<MorrisKey>, CliError> {
    texts
        .iter()
        .map(|t| {
            let key: MorrisKey =
                t.parse()
                    .map_err(|e: perfectplay_solver::morris::ParseKeyError| {
                        CliError::BadSubspace(e.to_string())
                    })?;
            if domain.size(key) == 0 && !domain.is_valid_key(key) {
                return Err(CliError::BadSubspace(format!(
                    "subspace {key} does not exist in {}",
                    domain.game_id()
                )));
            }
            Ok(key)
        })
        .collect()
}

/// Builds the requested tables and prints the summary table.
pub(crate) fn run_solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let options = SolveOptions {
        threads: args.threads.checked()?,
        wdl_only: args.wdl_only,
        cancel: None,
        report_to: (!args.quiet).then(|| Arc::new(BuildProgress::default())),
        wait: args.wait,
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
            let report = build(domain, &args.out, &targets, &options)?;
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
    let report = build(domain, &args.out, &targets, &options)?;
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
        "{} tables, {positions} positions; solved {} in {:.2} s with {} threads ({:.0} positions/s, {:.0} per thread); peak working memory {} bytes (3 per position of the largest unit)",
        report.subspaces.len(),
        report.solved_positions,
        report.seconds,
        report.threads,
        report.positions_per_second(),
        report.positions_per_second() / report.threads as f64,
        report.peak_working_bytes,
    )?;
    Ok(())
}

/// Prints the value of a position and of each of its moves.
pub(crate) fn run_probe(args: &ProbeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match databases(&args.at.game, &args.at.set)? {
        Databases::Morris(_) => {
            let (tb, pos) = args.at.open()?;
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
    let (tb, pos) = args.at.open()?;
    let game = *tb.domain().game();
    let search = PlacementSearch::new(&tb, args.table_bits)?;
    if args.preload {
        preload(&tb)?;
    }
    writeln!(out, "{}", game.diagram(&pos))?;
    let started = Instant::now();
    let threads = args.threads.checked()?.unwrap_or_else(available_cpus);
    let value = with_search_progress(&search, started, || {
        search.value_with_threads(&pos, threads)
    })?;
    writeln!(
        out,
        "value: {} (for {} to move; alpha-beta search of the placement phase on the tables)",
        wdl_word(value),
        pos.side_to_move()
    )?;
    if args.moves {
        let moves = with_search_progress(&search, started, || {
            search.move_values_with_threads(&pos, threads)
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
    Ok(())
}

/// Runs `work` while a second thread prints the search's counters to stderr every half minute,
/// so that a search of hours shows it is alive and how fast it goes.
fn with_search_progress<T>(
    search: &PlacementSearch<'_>,
    started: Instant,
    work: impl FnOnce() -> T,
) -> T {
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let tick = std::time::Duration::from_millis(200);
            let mut last = Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(tick);
                if last.elapsed().as_secs() >= 30 {
                    last = Instant::now();
                    let stats = search.stats();
                    let secs = started.elapsed().as_secs_f64();
                    eprintln!(
                        "search: {:.0} s, {} positions ({:.0}/s), {} probes, {} transposition hits",
                        secs,
                        stats.nodes,
                        stats.nodes as f64 / secs,
                        stats.probes,
                        stats.table_hits
                    );
                }
            }
        });
        let result = work();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        result
    })
}

/// Copies every table of `tb` into memory, saying so on stderr.
fn preload<D: Domain>(tb: &Tablebase<D>) -> Result<(), CliError> {
    let started = Instant::now();
    let bytes = tb.preload()?;
    eprintln!(
        "preloaded {bytes} bytes of tables in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn wdl_word(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

/// Enumerates every index of the checkers slices by pieces and compares the legal positions
/// found with the published counts; a difference is an error (exit status 1).
pub(crate) fn run_positions(args: &PositionsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let Databases::Checkers(domain) = databases(&args.game, &[])? else {
        return Err(CliError::CheckersOnly {
            command: "positions",
        });
    };
    if !(1..=MAX_PIECES).contains(&args.max_pieces) {
        return Err(CliError::BadSubspace(format!(
            "--max-pieces {}: the checkers index covers 1 to {MAX_PIECES} pieces",
            args.max_pieces
        )));
    }
    writeln!(
        out,
        "{:>6} {:>16} {:>16} {:>16} {:>9} {:>7} {:>16} {:>14}",
        "pieces",
        "indices",
        "legal",
        "published",
        "seconds",
        "tables",
        "table positions",
        "largest unit"
    )?;
    for pieces in 1..=args.max_pieces {
        let started = Instant::now();
        let found = if args.sizes_only {
            let n = domain.arrangements(pieces);
            perfectplay_solver::checkers::Enumeration {
                indices: n,
                legal: n,
            }
        } else {
            domain.enumerate_arrangements(pieces)
        };
        let published = PUBLISHED_ARRANGEMENTS[usize::from(pieces) - 1];
        let tables = domain.tables_of(pieces);
        let legal = if args.sizes_only {
            "-".to_owned()
        } else {
            found.legal.to_string()
        };
        writeln!(
            out,
            "{pieces:>6} {:>16} {legal:>16} {published:>16} {:>9.2} {:>7} {:>16} {:>14}",
            found.indices,
            started.elapsed().as_secs_f64(),
            tables.tables,
            tables.positions,
            tables.largest_unit,
        )?;
        if found.legal != published || found.indices != published {
            return Err(CliError::PositionCountMismatch {
                pieces,
                counted: found.legal,
                published,
            });
        }
    }
    writeln!(
        out,
        "{}",
        if args.sizes_only {
            "the slices' sizes add up to the published counts (not enumerated)"
        } else {
            "every index holds a distinct legal position, and the counts are the published ones"
        }
    )?;
    Ok(())
}

/// Rechecks every stored value; a mismatch is an error (exit status 1).
pub(crate) fn run_verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let databases = databases(&args.game, &args.set)?;
    if args.checksums {
        return run_checksums(&args.db, out);
    }
    match databases {
        Databases::Morris(domain) => {
            let keys = parse_keys(&domain, &args.subspace)?;
            verify_tables(domain, &keys, args, out)
        }
        Databases::Checkers(domain) => {
            let keys = parse_checkers_keys(&domain, &args.subspace)?;
            verify_tables(domain, &keys, args, out)
        }
    }
}

fn verify_tables<D: Domain>(
    domain: D,
    keys: &[D::Key],
    args: &VerifyArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let tb = Tablebase::open(domain, &args.db)?;
    let quiet = args.quiet;
    let progress = move |name: &str, size: u64| {
        if !quiet {
            eprintln!("verifying {name} ({size} positions)");
        }
    };
    let keys = (!keys.is_empty()).then_some(keys);
    let report = verify(&tb, keys, args.threads.checked()?, &progress)?;
    if report.tables.is_empty() {
        return Err(CliError::NoTables {
            dir: args.db.clone(),
        });
    }
    let mut bad = 0;
    let mut positions = 0;
    for t in &report.tables {
        positions += t.positions;
        if t.mismatches == 0 {
            writeln!(out, "{:>12} {:>14} positions ok", t.subspace, t.positions)?;
        } else {
            bad += t.mismatches;
            writeln!(
                out,
                "{:>12} {:>14} positions, {} MISMATCHES, first: {}",
                t.subspace,
                t.positions,
                t.mismatches,
                t.example.as_deref().unwrap_or("")
            )?;
        }
    }
    writeln!(
        out,
        "verified {} tables, {positions} positions in {:.2} s",
        report.tables.len(),
        report.seconds
    )?;
    if bad > 0 {
        return Err(CliError::VerifyFailed { mismatches: bad });
    }
    Ok(())
}

/// Compares the tables with the manifest; any difference is an error (exit status 1).
fn run_checksums(dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let results = check_manifest(dir)?;
    let mut bad = 0;
    for r in &results {
        let line = match &r.status {
            ChecksumStatus::Match => "ok".to_owned(),
            ChecksumStatus::Mismatch { expected, found } => {
                format!("DIFFERENT: manifest {expected}, file {found}")
            }
            ChecksumStatus::Missing => "MISSING".to_owned(),
            ChecksumStatus::Unlisted => "NOT IN THE MANIFEST".to_owned(),
        };
        bad += u64::from(r.status != ChecksumStatus::Match);
        writeln!(out, "{:>16} {line}", r.file)?;
    }
    writeln!(out, "{} files checked against {MANIFEST}", results.len())?;
    if bad > 0 {
        return Err(CliError::ChecksumsDiffer { files: bad });
    }
    Ok(())
}

/// Prints the summary table of the tables in a directory from their headers; any unreadable
/// table makes it an error (exit status 1) once every row is printed.
pub(crate) fn run_info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut rows: Vec<(PathBuf, Result<Header, String>, u64)> = Vec::new();
    let entries = std::fs::read_dir(&args.db)
        .map_err(|e| CliError::Db(format!("{}: {e}", args.db.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
            continue;
        }
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        rows.push((path.clone(), header_of(&path), size));
    }
    if rows.is_empty() {
        return Err(CliError::NoTables {
            dir: args.db.clone(),
        });
    }
    rows.sort_by_key(|(path, h, _)| sort_key(h, path));
    let mut games: Vec<(String, String)> = Vec::new();
    for (_, h, _) in &rows {
        if let Ok(h) = h {
            if !games.iter().any(|(g, r)| *g == h.game_id && *r == h.rules) {
                games.push((h.game_id.clone(), h.rules.clone()));
            }
        }
    }
    for (g, r) in &games {
        writeln!(out, "game: {g}\nrules: {r}")?;
    }
    writeln!(
        out,
        "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>9} {:>14}",
        "subspace", "positions", "wins", "draws", "losses", "longest", "form", "bytes"
    )?;
    let (mut positions, mut bytes) = (0u64, 0u64);
    for (path, h, size) in &rows {
        match h {
            Ok(h) => {
                positions += h.positions;
                bytes += size;
                let form = match h.encoding {
                    perfectplay_solver::format::Encoding::Distance => "distance",
                    perfectplay_solver::format::Encoding::Wdl => "wdl",
                };
                writeln!(
                    out,
                    "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>9} {:>14}",
                    h.subspace,
                    h.positions,
                    h.stats.wins,
                    h.stats.draws,
                    h.stats.losses,
                    h.stats.longest_win,
                    form,
                    size
                )?;
            }
            Err(e) => writeln!(out, "{:>12} unreadable: {e}", display_name(path))?,
        }
    }
    writeln!(
        out,
        "{} tables, {positions} positions, {bytes} bytes",
        rows.len()
    )?;
    let unreadable = rows.iter().filter(|(_, h, _)| h.is_err()).count();
    if unreadable > 0 {
        // A manifest records a reference build; one of damaged files would certify them.
        return Err(CliError::UnreadableTables {
            count: unreadable,
            dir: args.db.clone(),
        });
    }
    if args.write_checksums {
        let path = write_manifest(&args.db)?;
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

fn display_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Tables sort by game, then by their keys' order, then by name.
type SortKey = (u8, String, Option<MorrisKey>, Option<CheckersKey>, String);

fn sort_key(h: &Result<Header, String>, path: &Path) -> SortKey {
    let header = h.as_ref().ok();
    let subspace = |h: &Header| h.subspace.clone();
    (
        u8::from(h.is_err()),
        header.map(|h| h.game_id.clone()).unwrap_or_default(),
        header.map(subspace).and_then(|s| s.parse().ok()),
        header.map(subspace).and_then(|s| s.parse().ok()),
        display_name(path),
    )
}

/// The header of a table file, checked for magic, version and length but not for its payload
/// checksum (that reads the whole file: `verify` and every probe do it).
fn header_of(path: &Path) -> Result<Header, String> {
    read_file_header(path).map_err(|e| e.to_string())
}
