//! perfectplay-solver: retrograde analysis and endgame databases.

mod bytes;
pub mod combin;
mod domain;
mod error;
pub mod format;
pub mod morris;
mod plan;
mod retro;
mod solve;
mod table;
mod tablebase;
pub mod value;
mod verify;

pub use domain::Domain;
pub use error::{DbError, ProbeError, SolveError};
pub use plan::plan;
pub use solve::{solve, SolveOptions, SolveReport, SubspaceReport};
pub use table::Table;
pub use tablebase::{MoveValue, Tablebase};
pub use value::{Value, Wdl};
pub use verify::{verify, VerifiedTable, VerifyReport};
