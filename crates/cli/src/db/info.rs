//! `perfectplay info`: the tables of a directory, from their headers, totalled by pieces or
//! men, and the checksum manifest written on request.

use std::collections::BTreeMap;

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
    let mut rows: Vec<(PathBuf, Result<FileHeader, String>, u64)> = Vec::new();
    let entries = std::fs::read_dir(&args.db)
        .map_err(|e| CliError::Db(format!("{}: {e}", args.db.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let extension = path.extension().and_then(|e| e.to_str());
        if extension != Some(EXTENSION) && extension != Some(DISTANCE_EXTENSION) {
            continue;
        }
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        rows.push((path.clone(), header_of(&path), size));
    }
    if rows.is_empty() {
        return Err(CliError::NoTables {
            dir: args.db.clone(),
            game: None,
        });
    }
    rows.sort_by_key(|(path, h, _)| sort_key(h, path));
    let mut games: Vec<(String, String)> = Vec::new();
    for (_, h, _) in &rows {
        if let Ok(FileHeader { header: h, .. }) = h {
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
        "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>20} {:>14} {:>9}",
        "subspace", "positions", "wins", "draws", "losses", "longest", "form", "bytes", "pos/byte"
    )?;
    // Totals by form: files, positions and bytes.
    let mut totals: Vec<(&'static str, u64, u64, u64)> = Vec::new();
    for (path, h, size) in &rows {
        match h {
            Ok(FileHeader { header: h, layout }) => {
                let form = form_name(h.encoding, layout.is_some());
                match totals.iter_mut().find(|t| t.0 == form) {
                    Some(t) => {
                        t.1 += 1;
                        t.2 += h.positions;
                        t.3 += size;
                    }
                    None => totals.push((form, 1, h.positions, *size)),
                }
                writeln!(
                    out,
                    "{:>12} {:>14} {:>14} {:>12} {:>14} {:>8} {:>20} {:>14} {:>9}",
                    h.subspace,
                    h.positions,
                    h.stats.wins,
                    h.stats.draws,
                    h.stats.losses,
                    h.stats.longest_win,
                    form,
                    size,
                    per_byte(h.positions, *size)
                )?;
            }
            Err(e) => writeln!(out, "{:>12} unreadable: {e}", display_name(path))?,
        }
    }
    write_by_material(&rows, out)?;
    for (form, files, positions, bytes) in &totals {
        writeln!(
            out,
            "{form}: {files} tables, {positions} positions, {bytes} bytes ({} positions per byte)",
            per_byte(*positions, *bytes)
        )?;
    }
    let bytes: u64 = totals.iter().map(|t| t.3).sum();
    writeln!(out, "{} files, {bytes} bytes", rows.len())?;
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

/// One line per game and number of pieces (checkers) or men (morris, on the board and in
/// hand): tables, positions, wins, draws and losses (of the side to move), and the longest win
/// in plies. A subspace with both a WDL and a distance file counts once, its longest win from
/// the distance file (a WDL file records none).
fn write_by_material(
    rows: &[(PathBuf, Result<FileHeader, String>, u64)],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut subspaces: BTreeMap<(String, String), (u32, Totals)> = BTreeMap::new();
    for (_, h, _) in rows {
        let Ok(FileHeader { header: h, .. }) = h else {
            continue;
        };
        let material = if let Ok(key) = h.subspace.parse::<CheckersKey>() {
            [
                key.mover_men,
                key.mover_kings,
                key.other_men,
                key.other_kings,
            ]
        } else if let Ok(key) = h.subspace.parse::<MorrisKey>() {
            [key.mover(), key.other(), key.mover_hand(), key.other_hand()]
        } else {
            continue;
        };
        let stats = &h.stats;
        let entry = subspaces
            .entry((h.game_id.clone(), h.subspace.clone()))
            .or_insert((
                // Summed wide: the header's subspace is read as written, any byte a count.
                material.into_iter().map(u32::from).sum(),
                Totals {
                    tables: 1,
                    positions: h.positions,
                    wins: stats.wins,
                    draws: stats.draws,
                    losses: stats.losses,
                    longest: 0,
                },
            ));
        entry.1.longest = entry.1.longest.max(u64::from(stats.longest_win));
    }
    let mut by_material: BTreeMap<(String, u32), Totals> = BTreeMap::new();
    for ((game, _), (material, totals)) in subspaces {
        by_material
            .entry((game, material))
            .or_default()
            .add(&totals);
    }
    let mut game_shown = None;
    for ((game, material), totals) in &by_material {
        let Totals {
            tables,
            positions,
            wins,
            draws,
            losses,
            longest,
        } = totals;
        if game_shown != Some(game) {
            let unit = if game == "checkers" { "pieces" } else { "men" };
            writeln!(out, "{game} by {unit}:")?;
            writeln!(
                out,
                "{:>12} {:>8} {:>14} {:>14} {:>12} {:>14} {:>8}",
                unit, "tables", "positions", "wins", "draws", "losses", "longest"
            )?;
            game_shown = Some(game);
        }
        writeln!(
            out,
            "{material:>12} {tables:>8} {positions:>14} {wins:>14} {draws:>12} {losses:>14} {longest:>8}"
        )?;
    }
    Ok(())
}

/// Tables of one game and material, and what they hold.
#[derive(Default)]
struct Totals {
    tables: u64,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// The longest win in plies.
    longest: u64,
}

impl Totals {
    /// Adds `other`'s tables to these.
    fn add(&mut self, other: &Totals) {
        self.tables += other.tables;
        self.positions += other.positions;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.longest = self.longest.max(other.longest);
    }
}

/// A file's form in words.
fn form_name(encoding: Encoding, compressed: bool) -> &'static str {
    match (encoding, compressed) {
        (Encoding::Distance, false) => "distance",
        (Encoding::Wdl, false) => "wdl",
        (Encoding::Distance, true) => "distance, compressed",
        (Encoding::Wdl, true) => "wdl, compressed",
    }
}

/// Positions per byte, in as many digits as say something.
fn per_byte(positions: u64, bytes: u64) -> String {
    let ratio = positions as f64 / bytes.max(1) as f64;
    if ratio >= 10.0 {
        format!("{ratio:.0}")
    } else {
        format!("{ratio:.2}")
    }
}

fn display_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Tables sort by game, then by their keys' order, then by name.
type SortKey = (u8, String, Option<MorrisKey>, Option<CheckersKey>, String);

fn sort_key(h: &Result<FileHeader, String>, path: &Path) -> SortKey {
    let header = h.as_ref().ok().map(|f| &f.header);
    let subspace = |h: &Header| h.subspace.clone();
    (
        u8::from(h.is_err()),
        header.map(|h| h.game_id.clone()).unwrap_or_default(),
        header.map(subspace).and_then(|s| s.parse().ok()),
        header.map(subspace).and_then(|s| s.parse().ok()),
        display_name(path),
    )
}

/// The headers of a table file, checked for magic, version and length but not for its payload
/// checksum (that reads the whole file: `verify` and every probe do it), and refused where
/// they name another subspace than the file's name does (a copied or renamed table), as every
/// reader of the tables refuses it.
fn header_of(path: &Path) -> Result<FileHeader, String> {
    let read = read_file_headers(path).map_err(|e| e.to_string())?;
    let stem = path.file_stem().map(|s| s.to_string_lossy());
    if stem.as_deref() != Some(read.header.subspace.as_str()) {
        return Err(format!(
            "{}: subspace is `{}`, expected `{}` from the file's name",
            path.display(),
            read.header.subspace,
            stem.unwrap_or_default()
        ));
    }
    Ok(read)
}
