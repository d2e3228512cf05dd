//! The `perfectplay` binary: the tool of [`perfectplay_cli`] on the process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(perfectplay_cli::main_with_args(std::env::args_os()))
}
