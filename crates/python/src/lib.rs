//! `perfectplay._core`: the Python extension of perfectplay, built by maturin into the
//! `perfectplay` package (`python/perfectplay`).
//!
//! - `py_game`: `load_game`, `game_ids` and `Game`;
//! - `py_state`: `State`, `Move` and `Outcome`, an OpenSpiel-like game state over whole
//!   moves and over actions;
//! - `py_env`: `VectorEnv`, many games stepped in parallel into numpy buffers;
//! - `py_tablebase`: `Tablebase` and `Probe`, perfect play from the solver's databases;
//! - `py_build`: `build_tables`, databases built from Python;
//! - `py_verify`: `verify_tables`, databases rechecked from Python;
//! - `py_cli`: `_cli_main`, the command-line tool of `perfectplay-cli` in this process;
//! - `py_cluster`: `_plan_units`, `_build_unit`, `_DirectoryClaim`, for the cluster build;
//! - `errors`: where Rust errors become Python exceptions;
//! - `arrays` and `ints`: integer arrays and arguments from Python converted without loss.
//!
//! A thin binding: the games and their registry are `perfectplay-core`'s, states and the
//! batched environment `perfectplay-env`'s (`State`, `AnyBatch`), tables
//! `perfectplay-solver`'s. What lives here is what only Python needs: the classes and their
//! argument handling, numpy buffers, the GIL released around the work, and the exceptions.

mod arrays;
mod errors;
mod ints;
mod py_build;
mod py_cli;
mod py_cluster;
mod py_env;
mod py_game;
mod py_state;
mod py_tablebase;
mod py_verify;

use pyo3::prelude::*;

/// Large blocks on transparent huge pages, as in the command-line tool: builds, verifications
/// and probes from Python read their tables at random (`perfectplay_solver::HugePageAlloc`).
#[global_allocator]
static ALLOC: perfectplay_solver::HugePageAlloc = perfectplay_solver::HugePageAlloc;

/// The compiled core of perfectplay: games, states, moves and the batched environment.
#[pymodule]
mod _core {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::errors::IllegalActionError;
    #[pymodule_export]
    use crate::errors::IllegalMoveError;
    #[pymodule_export]
    use crate::errors::InvalidPositionError;
    #[pymodule_export]
    use crate::errors::MissingTableError;
    #[pymodule_export]
    use crate::errors::OutOfScopeError;
    #[pymodule_export]
    use crate::errors::RecordError;
    #[pymodule_export]
    use crate::errors::TablebaseError;
    #[pymodule_export]
    use crate::errors::UnknownGameError;
    #[pymodule_export]
    use crate::py_build::build_tables;
    #[pymodule_export]
    use crate::py_build::tables_game;
    #[pymodule_export]
    use crate::py_cli::_cli_main;
    #[pymodule_export]
    use crate::py_cluster::_build_unit;
    #[pymodule_export]
    use crate::py_cluster::_plan_units;
    #[pymodule_export]
    use crate::py_cluster::PyDirectoryClaim;
    #[pymodule_export]
    use crate::py_env::PyVectorEnv;
    #[pymodule_export]
    use crate::py_game::_restore_game;
    #[pymodule_export]
    use crate::py_game::game_ids;
    #[pymodule_export]
    use crate::py_game::load_game;
    #[pymodule_export]
    use crate::py_game::PyGame;
    #[pymodule_export]
    use crate::py_state::_read_records;
    #[pymodule_export]
    use crate::py_state::_restore_state;
    #[pymodule_export]
    use crate::py_state::_self_check;
    #[pymodule_export]
    use crate::py_state::PyMove;
    #[pymodule_export]
    use crate::py_state::PyOutcome;
    #[pymodule_export]
    use crate::py_state::PyState;
    #[pymodule_export]
    use crate::py_tablebase::PyProbe;
    #[pymodule_export]
    use crate::py_tablebase::PyTablebase;
    #[pymodule_export]
    use crate::py_verify::verify_tables;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("TERMINAL_PLAYER", perfectplay_env::state::TERMINAL_PLAYER)?;
        m.add("START_DRAWS", perfectplay_env::batch::START_DRAWS)?;
        m.add("_target_cpu", crate::target_cpu())?;
        Ok(())
    }
}

/// The instruction-set level this module was compiled for, as the compiler saw it: the
/// package's `__init__` loads an `x86-64-v3` build of this module where the CPU has it, and
/// the tests check that the module loaded is the one asked for.
fn target_cpu() -> &'static str {
    if cfg!(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "bmi2",
        target_feature = "fma",
        target_feature = "lzcnt"
    )) {
        "x86-64-v3"
    } else if cfg!(all(
        target_arch = "x86_64",
        target_feature = "sse4.2",
        target_feature = "popcnt"
    )) {
        "x86-64-v2"
    } else {
        std::env::consts::ARCH
    }
}
