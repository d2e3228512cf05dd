//! The bodies of the fuzz targets in `fuzz/`: each takes the fuzzer's bytes, feeds them to one
//! reader of outside input and panics when an invariant fails.
//!
//! They live here, in plain Rust, so that `cargo test` replays every input kept under
//! `fuzz/regressions/<target>/` on a stable toolchain (`tests/regressions.rs`); the cargo-fuzz
//! targets only call them. Each target checks more than that nothing panics: what a reader
//! accepts writes back to text or bytes that read back to the same thing, and what it resolves
//! (a move) is legal where it was read.

use std::sync::atomic::{AtomicU64, Ordering};

use perfectplay_core::morris::Morris;

mod checkers;
mod morris;
mod records;
mod solver;

pub use checkers::{checkers_fen, checkers_move};
pub use morris::{morris_fen, morris_move};
pub use records::records;
pub use solver::{checksums, probe_rows, search_table, table, table_bytes, TableBytes};

/// A target's checks of one input.
pub type Check = fn(&[u8]);

/// Inputs whose reader accepted them, so that their checks ran in full (a target returns
/// quietly on input its reader refuses, which is most of what a fuzzer makes).
static ACCEPTED: AtomicU64 = AtomicU64::new(0);

/// Counts an input its reader accepted: the targets call it once the reading succeeded.
fn accepted() {
    ACCEPTED.fetch_add(1, Ordering::Relaxed);
}

/// How many inputs the targets' readers have accepted in this process: a replay of kept
/// seeds checks that each one was, since a reader that came to refuse everything would
/// otherwise pass every check.
pub fn accepted_inputs() -> u64 {
    ACCEPTED.load(Ordering::Relaxed)
}

/// Every target by name, as `fuzz/fuzz_targets/` and `fuzz/regressions/` name them.
pub const TARGETS: [(&str, Check); 9] = [
    ("checkers_fen", checkers_fen),
    ("checkers_move", checkers_move),
    ("morris_fen", morris_fen),
    ("morris_move", morris_move),
    ("records", records),
    ("table", table),
    ("checksums", checksums),
    ("probe_rows", probe_rows),
    ("search_table", search_table),
];

/// The morris rule sets the targets read positions under, chosen by an input's first byte:
/// together they have every board, flying, Lasker's placing while moving, the no-re-forming
/// memory (twelve men) and Shah's first mill.
const MORRIS_PRESETS: [&str; 6] = [
    "nine_mens_morris",
    "twelve_mens_morris",
    "three_mens_morris",
    "six_mens_morris",
    "lasker_morris",
    "shah",
];

/// The morris game that `selector` picks.
fn morris_game(selector: u8) -> Morris {
    let id = MORRIS_PRESETS[usize::from(selector) % MORRIS_PRESETS.len()];
    Morris::preset(id).expect("a preset")
}

/// `data` as text split at its first line break into a position and a move; without a line
/// break, the whole is the move and the position is the start.
fn position_and_move(data: &[u8]) -> Option<(Option<&str>, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    Some(match text.split_once('\n') {
        Some((position, mv)) => (Some(position), mv),
        None => (None, text),
    })
}
