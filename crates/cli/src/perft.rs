//! `perfectplay perft`: counts move paths, times the count and checks it against published
//! figures.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use perfectplay_core::{perft, perft_divide, MAX_PERFT_DEPTH};

use crate::cli_game::CliGame;
use crate::errors::CliError;
use crate::games::{self, GameId, GameTask};
use crate::published::PublishedCounts;

/// Arguments of `perfectplay perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[arg(value_name = "GAME", help = games::game_help())]
    pub(crate) game: String,
    /// Plies to search (1 to 64; in the morris games a ply is a whole turn, removal included).
    #[arg(
        short,
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PERFT_DEPTH))
    )]
    pub(crate) depth: u32,
    /// Start from this position instead of the start: a PDN FEN for checkers
    /// (`B:W21-32:B1-12`), a position string for the morris games
    /// (`.../.../.../....../.../.../... w 9 9`).
    #[arg(long, value_name = "FEN")]
    pub(crate) fen: Option<String>,
    /// Set a rule option (repeatable); `perfectplay rules GAME` lists them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub(crate) set: Vec<String>,
    /// List each first move with its count, then the total.
    #[arg(long, conflicts_with = "up_to")]
    pub(crate) divide: bool,
    /// Count every depth from 1 up to N, one line each.
    #[arg(long)]
    pub(crate) up_to: bool,
    /// Compare with the published counts; exit with status 1 on a mismatch.
    #[arg(long)]
    pub(crate) check: bool,
}

/// Runs the count and prints one summary line per depth.
pub(crate) fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    games::run(&args.game, &args.set, Perft { args, out })
}

/// The count as a [`GameTask`].
struct Perft<'a> {
    args: &'a PerftArgs,
    out: &'a mut dyn Write,
}

impl GameTask for Perft<'_> {
    fn run<G: CliGame>(self, _id: GameId, game: G) -> Result<(), CliError> {
        count(&game, self.args, self.out)
    }
}

fn count<G: CliGame>(game: &G, args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos = match &args.fen {
        Some(fen) => game.read_position(fen).map_err(Into::<CliError>::into)?.0,
        None => game.start_position(),
    };
    let first = if args.up_to { 1 } else { args.depth };
    let depths = first..=args.depth;

    // Refuse an impossible check before spending time on the count.
    let published = if args.check {
        let counts = game
            .published_counts(&pos)
            .ok_or(CliError::NoPublishedCounts {
                hint: G::PUBLISHED_HINT,
            })?;
        if let Some(depth) = depths.clone().find(|&d| counts.get(d).is_none()) {
            return Err(CliError::NoPublishedCount {
                depth,
                max: counts.max_depth(),
            });
        }
        Some(counts)
    } else {
        None
    };

    if args.divide {
        let start = Instant::now();
        let mut rows = perft_divide(game, &pos, args.depth);
        let elapsed = start.elapsed();
        G::sort_moves(&mut rows, |row| &row.0);
        for (mv, count) in &rows {
            writeln!(out, "{mv}: {count}")?;
        }
        let total = rows.iter().map(|&(_, n)| n).sum();
        report(out, args.depth, total, elapsed, published.as_ref())?;
    } else {
        for depth in depths {
            let start = Instant::now();
            let leaves = perft(game, &pos, depth);
            report(out, depth, leaves, start.elapsed(), published.as_ref())?;
        }
    }
    Ok(())
}

/// Prints the summary line of one depth and, with `published`, compares the count.
fn report(
    out: &mut dyn Write,
    depth: u32,
    leaves: u64,
    elapsed: Duration,
    published: Option<&PublishedCounts>,
) -> Result<(), CliError> {
    write!(out, "{}", summary(depth, leaves, elapsed))?;
    let Some(expected) = published.and_then(|p| p.get(depth)) else {
        writeln!(out)?;
        return Ok(());
    };
    if leaves == expected {
        writeln!(out, ", matches published count")?;
        Ok(())
    } else {
        writeln!(out, ", MISMATCH")?;
        out.flush()?;
        Err(CliError::PerftMismatch {
            depth,
            counted: leaves,
            published: expected,
        })
    }
}

/// `perft 5: 7361 leaves in 0.002 s (3.7 M leaves/s)`.
fn summary(depth: u32, leaves: u64, elapsed: Duration) -> String {
    format!(
        "perft {depth}: {leaves} leaves in {:.3} s ({} leaves/s)",
        elapsed.as_secs_f64(),
        rate(leaves, elapsed)
    )
}

/// Leaves per second with a metric prefix, e.g. `154.7 M`; `-` when no time was measured.
fn rate(leaves: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "-".to_owned();
    }
    let per_second = leaves as f64 / secs;
    let (scale, prefix) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|&(scale, _)| per_second >= scale)
        .unwrap_or((1.0, ""));
    let value = per_second / scale;
    if prefix.is_empty() {
        format!("{value:.1}")
    } else {
        format!("{value:.1} {prefix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(depth: u32) -> PerftArgs {
        PerftArgs {
            game: "checkers".into(),
            depth,
            fen: None,
            set: Vec::new(),
            divide: false,
            up_to: false,
            check: false,
        }
    }

    fn output(args: &PerftArgs) -> Result<String, CliError> {
        let mut out = Vec::new();
        run(args, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn summary_line_format() {
        assert_eq!(
            summary(12, 388_623_673, Duration::from_millis(2512)),
            "perft 12: 388623673 leaves in 2.512 s (154.7 M leaves/s)"
        );
        assert_eq!(rate(5, Duration::from_secs(2)), "2.5");
        assert_eq!(rate(5_000, Duration::from_secs(2)), "2.5 k");
        assert_eq!(rate(3_000_000_000, Duration::from_secs(1)), "3.0 G");
        assert_eq!(rate(5, Duration::ZERO), "-");
    }

    #[test]
    fn counts_and_checks_small_depths() {
        let text = output(&PerftArgs {
            check: true,
            up_to: true,
            ..args(4)
        })
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[2].starts_with("perft 3: 302 leaves in "), "{text}");
        assert!(
            lines
                .iter()
                .all(|l| l.ends_with(", matches published count")),
            "{text}"
        );
    }

    #[test]
    fn divide_sorts_moves_and_sums() {
        let text = output(&PerftArgs {
            divide: true,
            ..args(2)
        })
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "9-13: 7");
        assert_eq!(lines[6], "12-16: 7");
        assert!(lines[7].starts_with("perft 2: 49 leaves"), "{text}");
    }

    #[test]
    fn check_needs_published_counts() {
        let err = output(&PerftArgs {
            check: true,
            ..args(17)
        })
        .unwrap_err();
        assert!(
            matches!(err, CliError::NoPublishedCount { depth: 17, max: 16 }),
            "{err}"
        );
        let fen = Some("W:W27:B18,10".to_owned());
        let err = output(&PerftArgs {
            check: true,
            fen,
            ..args(1)
        })
        .unwrap_err();
        assert!(matches!(err, CliError::NoPublishedCounts { .. }), "{err}");
    }

    #[test]
    fn fen_positions_and_errors() {
        let fen = Some("W:W27:B18,10".to_owned());
        let text = output(&PerftArgs { fen, ..args(1) }).unwrap();
        assert!(text.starts_with("perft 1: 2 leaves"), "{text}");
        let fen = Some("B:W21,33:B1".to_owned());
        let err = output(&PerftArgs { fen, ..args(1) }).unwrap_err();
        assert!(err.to_string().starts_with("invalid FEN"), "{err}");
        assert_eq!(err.exit_code(), 2);
    }

    fn morris(game: &str, depth: u32) -> PerftArgs {
        PerftArgs {
            game: game.into(),
            ..args(depth)
        }
    }

    #[test]
    fn morris_counts_and_checks() {
        let text = output(&PerftArgs {
            check: true,
            up_to: true,
            ..morris("cowboy_checkers", 3)
        })
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[1].starts_with("perft 2: 552 leaves in "), "{text}");
        assert!(
            lines
                .iter()
                .all(|l| l.ends_with(", matches published count")),
            "{text}"
        );
        let err = output(&PerftArgs {
            check: true,
            ..morris("twelve_mens_morris", 1)
        })
        .unwrap_err();
        assert!(err.to_string().contains("nine_mens_morris"), "{err}");
        assert_eq!(err.exit_code(), 2);
        let err = output(&PerftArgs {
            check: true,
            ..morris("nine_mens_morris", 5)
        })
        .unwrap_err();
        assert!(
            matches!(err, CliError::NoPublishedCount { depth: 5, max: 4 }),
            "{err}"
        );
    }

    #[test]
    fn morris_divide_sorts_by_text() {
        let text = output(&PerftArgs {
            divide: true,
            ..morris("three_mens_morris", 2)
        })
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 10, "{text}");
        assert_eq!(lines[0], "a1: 8");
        assert_eq!(lines[8], "c3: 8");
        assert!(lines[9].starts_with("perft 2: 72 leaves"), "{text}");
    }

    #[test]
    fn morris_positions_and_settings() {
        let fen = Some("W.B/.../.../....../.../.../... w 8 8".to_owned());
        let text = output(&PerftArgs {
            fen,
            ..morris("nine_mens_morris", 1)
        })
        .unwrap();
        assert!(text.starts_with("perft 1: 22 leaves"), "{text}");
        let fen = Some("W.B w 8 8".to_owned());
        let err = output(&PerftArgs {
            fen,
            ..morris("nine_mens_morris", 1)
        })
        .unwrap_err();
        assert!(
            err.to_string().starts_with("invalid morris position"),
            "{err}"
        );
        let set = vec!["flying=4".to_owned()];
        let err = output(&PerftArgs {
            set,
            ..morris("nine_mens_morris", 1)
        })
        .unwrap_err();
        assert!(matches!(err, CliError::Rules(_)), "{err}");
        let set = vec!["removal=any".to_owned()];
        let text = output(&PerftArgs {
            set,
            ..morris("nine_mens_morris", 2)
        })
        .unwrap();
        assert!(text.starts_with("perft 2: 552 leaves"), "{text}");
    }
}
