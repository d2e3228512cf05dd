//! perfectplay-env: games as a learning environment, stepped action by action.
//!
//! - [`batch::Batch`] (and [`AnyBatch`] for either family, made from a game id): many games
//!   stepped together, in parallel on a thread pool ([`pool`]), each env with its own seeded
//!   random streams, writing observations, legal-action masks, players, rewards and end flags
//!   into buffers the caller owns ([`batch::Buffers`]), so that a step allocates nothing;
//!   opponents (random, or perfect play from the solver's tables) and endgame starts drawn
//!   from a table's subspace ([`perfect`]).
//! - [`state::Session`]: one game in progress, with the actions of the turn being made, undo
//!   and a record that rebuilds it exactly (what Python's `State` wraps).
//! - [`track::Track`]: the game under both: position, stage within the turn, the history the
//!   ending rules need, and the legal actions ([`steps::Steps`], over an [`actions::ActionSet`]).
//! - [`games`]: the two families behind one interface ([`games::Family`]), and games loaded by
//!   id with rule options.
//!
//! Results depend on the seeds and the calls made, never on the number of threads. The Python
//! package (`crates/python`) is a thin binding over this crate.

pub mod actions;
pub mod batch;
mod error;
pub mod games;
mod lanes;
pub mod perfect;
pub mod pool;
mod simd;
pub mod state;
pub mod steps;
pub mod track;
mod vector;

pub use error::{Error, Result};
pub use vector::{AnyBatch, BatchSpec, OpponentKind};
