//! `perfectplay positions`: the subspaces of a game and the positions each indexes.

use super::*;

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
