//! perfectplay-solver: retrograde analysis, endgame databases and perfect-play queries.
//!
//! # Databases
//!
//! A game's positions are split into **subspaces** ([`Domain::Key`]): for morris, the men of the
//! side to move and of the other side on the board and in hand ([`morris::MorrisKey`]), the side
//! to move normalised by swapping colours; for checkers, the men and kings of each side and the
//! rank of each side's most advanced man ([`checkers::CheckersKey`]), the side to move
//! normalised by turning the board. Each subspace has a dense perfect index with the
//! board's symmetries folded out ([`morris::index`]). One file per subspace holds one value per
//! index ([`format`](mod@format)): win, draw or loss for the side to move and the distance to the end in
//! plies under optimal play, one byte ([`value`]), or the compact WDL-only form, two bits.
//! [`compress_table`] and [`compress_tables`] write the compressed form (format version 2,
//! [`compressed`]): results and distances in separate files, blocks of Huffman-coded runs, and
//! in checkers no entry for positions where the side to move must capture
//! ([`Domain::omits`]); every reader below reads either form.
//!
//! # Building
//!
//! [`solve`] plans the subspaces a request needs ([`plan`]): captures lead to fewer men and
//! placements to fewer men in hand, so those are solved first, and a subspace is solved together
//! with its colour-swapped partner when quiet moves alternate between them (a *unit*). Each unit
//! is solved by retrograde analysis in parallel over index ranges (rayon): the method and its
//! determinism are described in [`retro`]. Working memory at peak is **2 bytes
//! per position of a unit and 1 per position of its largest subspace**: a 2-byte cell per
//! position while it is solved (its value and a successor counter), then, beside the cells, the
//! 1-byte payload of one subspace at a time as each is written (with `wdl_only`, only its
//! 2-bit form, a quarter byte, unless unit distances are written too, a byte a position);
//! [`SolveReport::peak_working_bytes`] reports it and a test
//! checks it. To that add which chunks of the unit hold positions of each distance (a bit per
//! 16,384 positions and distance, 2 MB per billion positions), the index
//! tables (under 40 MB for the largest Nine Men's Morris subspace) and a copy of each table the
//! unit's exits lead to, held in huge pages for its random reads; copies are kept for later
//! units up to 2 GiB in all (beyond what the current unit reads). Files are
//! written under a temporary name and renamed when complete; a rerun keeps complete valid files.
//! Within a unit, [`SolveOptions::checkpoint_every`] saves the solving state now and then
//! (`KEY.ppck`, 2 bytes a position, module `unit_checkpoint`), and [`SolveOptions::cancel`]
//! saves it where it stopped: a build stopped or killed in the middle of a unit of hours takes
//! it up from the last save, with the same bytes as a build in one go.
//! The bytes written do not depend on the number of threads. One build at a time writes into a
//! directory: it holds the directory's [`BuildLock`] (an `flock` on `.lock`, released by the
//! kernel however the process ends), and a second build fails naming the holder or, with
//! [`SolveOptions::wait`], waits. Thread counts and the men or pieces a front asks for are
//! checked by [`limits`] and the domains ([`morris::MorrisDomain::moving_keys_checked`],
//! [`checkers::CheckersDomain::keys_up_to_checked`]), the same for every front.
//!
//! # Probing and verifying
//!
//! [`Tablebase`] opens tables lazily (memory-mapped, read-only, every checksum checked on
//! first use) from one or more directories and answers [`Tablebase::probe`],
//! [`Tablebase::best_moves`] and [`Tablebase::principal_variation`]; it is `Send + Sync`.
//! Many positions at once go through [`Tablebase::probe_batch_with`] (or
//! [`Tablebase::probe_batch`]), which overlaps their random reads instead of waiting for each
//! in turn (figures in BENCHMARKS.md). [`Tablebase::preload`] copies the tables
//! into huge pages for the fastest random probes, at the cost of their size in memory.
//! [`verify`] recomputes every stored value from its successors by forward generation.
//!
//! Every reader checks the tables it read after its reads ([`Table::check_recent`]): a table
//! file cut short or written in place by another program after it was opened fails the query
//! with [`DbError::Changed`] instead of answering from the new bytes, and a read of a mapped
//! page past the file's new end, which raises `SIGBUS`, is caught by a fault handler that
//! turns the map into zero pages (`mapping`) instead of ending the process. A table renamed
//! over an open one (a rebuild) does not disturb it: the open map keeps the old file.
//!
//! ```no_run
//! use perfectplay_core::morris::Morris;
//! use perfectplay_core::Game;
//! use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
//! use perfectplay_solver::{solve, SolveOptions, Tablebase};
//!
//! let game = Morris::preset("nine_mens_morris")?;
//! let out = std::path::Path::new("solver-data/nine_mens_morris");
//! solve(MorrisDomain::new(game)?, out, &[MorrisKey::moving(4, 3)], &SolveOptions::default())?;
//! let tb = Tablebase::open(MorrisDomain::new(game)?, out)?;
//! let (pos, _) = game.parse_fen("WWW/.../.../..W.../.../.../BBB b 0 0")?;
//! println!("{}", tb.probe(&pos)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//!
//! [`DbError`] is a file that cannot be used (I/O, bad magic, other version, wrong length,
//! checksum, other game or rules); [`ProbeError`] a query the tables cannot answer (missing
//! table, position out of scope); [`RequestError`] a request refused before any work (a thread
//! count, a number of men or pieces out of range); [`SolveError`] a build or verification
//! that could not finish.

pub mod any;
mod arena;
mod cells;
pub mod checkers;
pub mod checksums;
pub mod combin;
mod compress;
pub mod compressed;
mod domain;
mod error;
pub mod format;
mod huge_alloc;
pub mod limits;
mod lock;
pub mod long_distances;
mod mapping;
pub mod morris;
mod plan;
use perfectplay_core::prefetch;
pub mod retro;
pub mod rows;
mod simd;
mod solve;
mod table;
mod tablebase;
mod tabled;
mod tasks;
mod touched;
mod unit_checkpoint;
pub mod value;
mod verify;

pub use any::{tables_refuse, AnyPosition, AnyTablebase, RowsError, RulesMismatch};
pub use compress::{compress_table, compress_tables, inflate, CompressedTable};
pub use domain::Domain;
pub use error::{DbError, MissingTables, ProbeError, RequestError, SolveError};
pub use huge_alloc::{HugePageAlloc, ADVISED_FROM};
pub use lock::{BuildLock, LockWait, LOCK_FILE};
pub use plan::plan;
pub use solve::{
    claim_directory, planned_units, remove_leftovers, solve, solve_planned_unit, BuildProgress,
    PlannedUnit, ProgressSnapshot, SolveOptions, SolveReport, SubspaceReport, UnitStage,
};
pub use table::{Table, CHECK_INTERVAL};
pub use tablebase::{expected_of_game, MoveValue, Tablebase};
pub use tabled::{game_of_tables, OpenError, Tabled};
pub use unit_checkpoint::CHECKPOINT_EXTENSION;
pub use value::{Value, Wdl};
pub use verify::{
    verify, verify_against, verify_tables, verify_with_unit_distances,
    verify_with_unit_distances_within, verify_within, VerifiedTable, VerifyOptions, VerifyReport,
};
