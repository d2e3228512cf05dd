//! `perfectplay verify`: every table checked against a fresh pass of the rules, and the checksum manifest.

use super::*;

/// Arguments of `perfectplay verify`.
#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Directory of the tables.
    #[arg(long, value_name = "DIR")]
    pub(crate) db: PathBuf,
    /// Only these subspaces (default: every table in the directory); for checkers also a
    /// material, every slice of it: men and kings of the side to move and of the other side,
    /// e.g. 2110.
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
    /// Compare every value with the tables in this directory instead of recomputing it: a
    /// fast check that the set answers exactly as a set that passed `verify` (a compressed
    /// set against the plain one it came from).
    #[arg(long, value_name = "DIR", conflicts_with = "checksums")]
    pub(crate) against: Option<PathBuf>,
    /// Prove WDL-only tables right with their unit distances (KEY.ppud, written by `solve
    /// --wdl-only --unit-distances`), which every table of the verified one's unit must have:
    /// without them a WDL-only table can only be checked for agreement with its successors.
    #[arg(long, conflicts_with_all = ["checksums", "against"])]
    pub(crate) unit_distances: bool,
    /// Set a rule option (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
}

/// Rechecks every stored value; a mismatch is an error (exit status 1).
pub(crate) fn run_verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let databases = databases(&args.game, &args.set)?;
    if args.checksums {
        let expected = match &databases {
            Databases::Morris(domain) => expected_of_game(domain),
            Databases::Checkers(domain) => expected_of_game(domain),
        };
        return run_checksums(&args.db, &expected, out);
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
) -> Result<(), CliError>
where
    D::Game: Tabled<Domain = D>,
{
    let tb = Tablebase::open(domain, &args.db)?;
    let quiet = args.quiet;
    let progress = move |name: &str, size: u64| {
        if !quiet {
            to_stderr!("verifying {name} ({size} positions)");
        }
    };
    let keys = (!keys.is_empty()).then_some(keys);
    let report = match &args.against {
        None if args.unit_distances => {
            verify_with_unit_distances(&tb, keys, args.threads.checked()?, &progress)?
        }
        None => verify(&tb, keys, args.threads.checked()?, &progress)?,
        Some(dir) => {
            // The reference set, read under the same game and rules.
            let reference = tb.domain().game().open_tables(&[dir])?;
            verify_against(&tb, &reference, keys, args.threads.checked()?, &progress)?
        }
    };
    if report.tables.is_empty() {
        return Err(CliError::NoTables {
            dir: args.db.clone(),
            game: Some(args.game.clone()),
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

/// Compares the tables with the manifest, and checks that those listed and found whole are of
/// the game asked for (`expected`): bytes that match a manifest of another game's tables are
/// no check of this one's. Any difference is an error (exit status 1).
fn run_checksums(
    dir: &Path,
    expected: &perfectplay_solver::format::Expected,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let results = check_manifest(dir)?;
    let mut bad = 0;
    for r in &results {
        let is_table = [EXTENSION, DISTANCE_EXTENSION]
            .iter()
            .any(|e| r.file.ends_with(&format!(".{e}")));
        let other = match (&r.status, is_table) {
            (ChecksumStatus::Match, true) => {
                match perfectplay_solver::format::check_file_header(&dir.join(&r.file), expected) {
                    Err(e @ perfectplay_solver::DbError::Mismatch { .. }) => Some(e),
                    _ => None,
                }
            }
            _ => None,
        };
        let line = match &r.status {
            ChecksumStatus::Match if other.is_some() => {
                let label = match &other {
                    Some(perfectplay_solver::DbError::Mismatch { what: "game", .. }) => {
                        "OF ANOTHER GAME"
                    }
                    Some(perfectplay_solver::DbError::Mismatch { what: "rules", .. }) => {
                        "OF OTHER RULES"
                    }
                    _ => "NOT READ AS THIS GAME'S",
                };
                format!(
                    "{label}: {}",
                    other.as_ref().map(ToString::to_string).unwrap_or_default()
                )
            }
            ChecksumStatus::Match => "ok".to_owned(),
            ChecksumStatus::Mismatch { expected, found } => {
                format!("DIFFERENT: manifest {expected}, file {found}")
            }
            ChecksumStatus::Missing => "MISSING".to_owned(),
            ChecksumStatus::Unlisted => "NOT IN THE MANIFEST".to_owned(),
        };
        bad += u64::from(r.status != ChecksumStatus::Match || other.is_some());
        writeln!(out, "{:>16} {line}", r.file)?;
    }
    writeln!(out, "{} files checked against {MANIFEST}", results.len())?;
    if bad > 0 {
        return Err(CliError::ChecksumsDiffer { files: bad });
    }
    Ok(())
}
