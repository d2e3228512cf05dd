//! `perfectplay info`: the tables of a directory, from their headers, and the checksum manifest written on request.

use super::*;

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
