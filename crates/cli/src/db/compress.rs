//! `perfectplay compress`: the tables of a directory compressed into another (or in place).

use perfectplay_core::registry::AnyGame;
use perfectplay_solver::{compress_tables, game_of_tables, CompressedTable};

use super::*;

/// Arguments of `perfectplay compress`.
#[derive(Args, Debug)]
pub(crate) struct CompressArgs {
    /// Directory of the tables (their game and rules are read from their headers).
    #[arg(long, value_name = "DIR")]
    pub(crate) db: PathBuf,
    /// Directory for the compressed tables (created if missing; may be --db itself, whose
    /// plain files are then replaced). Tables compressed there already are kept.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Write results only (KEY.ppdb), not the distance files (KEY.ppdd).
    #[arg(long)]
    pub(crate) wdl_only: bool,
    #[command(flatten)]
    pub(crate) threads: Threads,
    /// No progress lines.
    #[arg(short, long)]
    pub(crate) quiet: bool,
}

/// Compresses every table of `--db` and prints what each became.
pub(crate) fn run_compress(args: &CompressArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (_, game) = game_of_tables(&args.db)?.ok_or_else(|| CliError::NoTables {
        dir: args.db.clone(),
        game: None,
    })?;
    let tables = match game {
        AnyGame::Checkers(game) => compress_game(game, args)?,
        AnyGame::Morris(game) => compress_game(game, args)?,
    };
    writeln!(
        out,
        "{:>12} {:>14} {:>14} {:>12} {:>9} {:>12} {:>9}",
        "subspace", "positions", "plain bytes", "wdl bytes", "pos/byte", "dist bytes", "seconds"
    )?;
    for t in &tables {
        let seconds = if t.kept {
            "kept".to_owned()
        } else {
            format!("{:.2}", t.seconds)
        };
        writeln!(
            out,
            "{:>12} {:>14} {:>14} {:>12} {:>9.1} {:>12} {:>9}",
            t.subspace,
            t.positions,
            t.source_bytes,
            t.wdl.1,
            t.positions as f64 / t.wdl.1 as f64,
            t.distances
                .as_ref()
                .map_or("-".to_owned(), |d| d.1.to_string()),
            seconds
        )?;
    }
    write_totals(out, &tables)
}

fn compress_game<G: Tabled>(
    game: G,
    args: &CompressArgs,
) -> Result<Vec<CompressedTable>, CliError> {
    let tb = game.open_tables(&[&args.db])?;
    let quiet = args.quiet;
    let progress = move |name: &str, size: u64| {
        if !quiet {
            to_stderr!("compressing {name} ({size} positions)");
        }
    };
    Ok(compress_tables(
        &tb,
        None,
        &args.out,
        !args.wdl_only,
        args.threads.checked()?,
        &progress,
    )?)
}

/// The totals line of a set of compressed tables.
pub(super) fn write_totals(
    out: &mut dyn Write,
    tables: &[CompressedTable],
) -> Result<(), CliError> {
    let positions: u64 = tables.iter().map(|t| t.positions).sum();
    let wdl: u64 = tables.iter().map(|t| t.wdl.1).sum();
    // Positions per byte of distances counts only the tables that have them.
    let (with_distances, distances) = tables
        .iter()
        .filter_map(|t| t.distances.as_ref().map(|d| (t.positions, d.1)))
        .fold((0u64, 0u64), |(p, b), (tp, tb)| (p + tp, b + tb));
    let seconds: f64 = tables.iter().map(|t| t.seconds).sum();
    write!(
        out,
        "compressed {} tables, {positions} positions: results {wdl} bytes ({:.1} positions per \
         byte)",
        tables.len(),
        positions as f64 / wdl.max(1) as f64,
    )?;
    if distances > 0 {
        write!(
            out,
            ", distances {distances} bytes ({:.2} positions per byte)",
            with_distances as f64 / distances as f64,
        )?;
    }
    writeln!(out, ", {seconds:.1} s")?;
    Ok(())
}
