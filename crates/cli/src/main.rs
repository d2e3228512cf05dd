//! The `perfectplay` binary: the tool of [`perfectplay_cli`] on the process's arguments.

use std::process::ExitCode;

/// Large blocks on transparent huge pages: builds and verifications read their tables at
/// random (`perfectplay_solver::HugePageAlloc`).
#[global_allocator]
static ALLOC: perfectplay_solver::HugePageAlloc = perfectplay_solver::HugePageAlloc;

fn main() -> ExitCode {
    ExitCode::from(perfectplay_cli::main_with_args(std::env::args_os()))
}
