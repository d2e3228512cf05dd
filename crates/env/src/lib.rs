//! perfectplay-env: games as a learning environment, stepped action by action.
//!
//! - [`batch::Batch`] (and [`AnyBatch`] for either family, made from a loaded game and a
//!   [`BatchSpec`]): many games
//!   stepped together, in parallel on a thread pool ([`pool`]), each env with its own seeded
//!   random streams, writing observations, legal-action masks, players, rewards and end flags
//!   into buffers the caller owns ([`batch::Buffers`]: float or byte observations, a bool or
//!   a bit per action in the masks), so that a step allocates nothing;
//!   opponents (random, or perfect play from the solver's tables) and endgame starts drawn
//!   from a table's subspace ([`perfect`]).
//! - [`state::State`]: one game in progress, with the actions of the turn being made, undo
//!   and a record that rebuilds it exactly (what Python's `State` wraps).
//! - [`action_state::ActionState`]: the game under both: the core's `GameState` (position and
//!   the history the ending rules need), the stage within the turn, and the legal actions
//!   ([`steps::Steps`], over an [`actions::ActionSet`]).
//! - [`games`]: the two families behind one interface ([`games::Family`]); games are loaded by
//!   id with rule options through the core's `registry`.
//!
//! A game in progress is a state at every level: `GameState` (whole moves, core),
//! `ActionState` (action by action), `State` (with the half-made turn, for Python's `State`).
//!
//! Results depend on the seeds and the calls made, never on the number of threads. The Python
//! package (`crates/python`) is a thin binding over this crate.

pub mod action_state;
pub mod actions;
pub mod batch;
mod error;
pub mod games;
mod lanes;
mod passes;
pub mod perfect;
pub mod pool;
mod simd;
pub mod state;
pub mod steps;
mod vector;

pub use batch::Reseed;
pub use error::{Error, Result};
pub use vector::{AnyBatch, BatchSpec, OpponentKind};
