//! `_cli_main`: the `perfectplay` command-line tool, run inside the Python process (the
//! package's console script and `python -m perfectplay`).

use pyo3::prelude::*;

/// Runs the command-line tool on `argv` (the program's name first) with the process's
/// standard streams and returns its exit status. The GIL is released while it runs.
#[pyfunction]
pub(crate) fn _cli_main(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.detach(|| perfectplay_cli::main_with_args(argv))
}
