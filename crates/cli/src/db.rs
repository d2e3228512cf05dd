//! `perfectplay solve | probe | search | verify | info | compress | positions`: building, querying and
//! checking endgame databases, a command per module; here what they share (the game's tables
//! and position named on the command line, thread counts, subspace names).

mod compress;
mod info;
mod positions;
mod probe;
mod progress;
mod solve;
mod verify;

pub(crate) use compress::{run_compress, CompressArgs};
pub(crate) use info::{run_info, InfoArgs};
pub(crate) use positions::{run_positions, PositionsArgs};
pub(crate) use probe::{run_probe, run_search, ProbeArgs, SearchArgs};
pub(crate) use solve::{run_solve, SolveArgs};
pub(crate) use verify::{run_verify, VerifyArgs};

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
use perfectplay_solver::format::{
    read_file_headers, Encoding, FileHeader, Header, DISTANCE_EXTENSION, EXTENSION,
};
use perfectplay_solver::limits::{available_cpus, check_threads};
use perfectplay_solver::morris::{
    CheckpointLock, MorrisDomain, MorrisKey, PlacementSearch, SearchHistory,
};
use perfectplay_solver::{
    expected_of_game, solve, verify, verify_against, verify_with_unit_distances, BuildProgress,
    Domain, SolveError, SolveOptions, SolveReport, Tablebase, Tabled, Value, Wdl,
};

use crate::errors::CliError;
use crate::games::{self, GameId};
use crate::settings;

/// SIGINT and SIGTERM caught instead of ending the process, so that a command can save its
/// work first (`solve` its unit under way, `search` its transposition table); a second SIGINT
/// or SIGTERM ends the process at once.
struct Interrupts {
    /// Raised by the first signal.
    raised: Arc<std::sync::atomic::AtomicBool>,
    /// The signal that came first, 0 while none has.
    which: Arc<std::sync::atomic::AtomicUsize>,
}

/// Starts catching SIGINT and SIGTERM ([`Interrupts`]).
fn watch_interrupts() -> Result<Interrupts, CliError> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let raised = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let which = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for signal in [SIGINT, SIGTERM] {
        // The order matters: the shutdown checks the flag before this signal raises it.
        signal_hook::flag::register_conditional_shutdown(
            signal,
            128 + signal,
            Arc::clone(&raised),
        )?;
        signal_hook::flag::register(signal, Arc::clone(&raised))?;
        signal_hook::flag::register_usize(signal, Arc::clone(&which), signal as usize)?;
    }
    Ok(Interrupts { raised, which })
}

/// The thread count of `solve`, `verify`, `search` and `compress`.
#[derive(Args, Debug)]
pub(crate) struct Threads {
    /// Worker threads (default: every core); at most 4 per CPU without --force-threads.
    #[arg(long, value_name = "T")]
    pub(crate) threads: Option<usize>,
    /// Allow more than 4 threads per CPU (up to 4096).
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
        self.open_morris(morris_domain(&self.game, &self.set)?)
    }

    /// The tables of `domain`'s morris game in every directory, and the position.
    fn open_morris(
        &self,
        domain: MorrisDomain,
    ) -> Result<(Tablebase<MorrisDomain>, MorrisPosition), CliError> {
        let game = *domain.game();
        let pos = match &self.fen {
            Some(fen) => game.parse_fen(fen)?.0,
            None => game.start_position(),
        };
        Ok((self.tablebase(domain)?, pos))
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
        Ok((self.tablebase(domain)?, pos))
    }

    fn tablebase<D: Domain>(&self, domain: D) -> Result<Tablebase<D>, CliError> {
        Ok(Tablebase::with_directories(domain, &self.db)?)
    }
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
    let mut keys = Vec::new();
    for t in texts {
        if let Some(counts) = perfectplay_solver::checkers::parse_material(t) {
            keys.extend(material_slices(domain, t, counts)?);
            continue;
        }
        let key: CheckersKey = t
            .parse()
            .map_err(|e: ParseCheckersKeyError| CliError::BadSubspace(e.to_string()))?;
        if domain.size(key) == 0 {
            return Err(CliError::BadSubspace(format!(
                "checkers slice {key} holds no position with both sides on the board"
            )));
        }
        keys.push(key);
    }
    Ok(keys)
}

/// Every slice of the material `counts` (named `text`), in build order.
fn material_slices(
    domain: &CheckersDomain,
    text: &str,
    counts: [u8; 4],
) -> Result<Vec<CheckersKey>, CliError> {
    let pieces: u8 = counts.iter().sum();
    if pieces > perfectplay_solver::checkers::MAX_PIECES {
        return Err(CliError::BadSubspace(format!(
            "checkers material {text} has {pieces} pieces; the tables go up to {}",
            perfectplay_solver::checkers::MAX_PIECES
        )));
    }
    let slices = domain.material_slices(counts);
    if slices.is_empty() {
        return Err(CliError::BadSubspace(format!(
            "checkers material {text} holds no position with both sides on the board"
        )));
    }
    Ok(slices)
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

fn wdl_word(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}
