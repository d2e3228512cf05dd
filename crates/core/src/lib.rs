//! perfectplay-core: the rules of English checkers and the morris family, move generation,
//! notation and hashing.
//!
//! Each game implements [`Game`]: a rules value with `Copy` positions and moves, legal-move
//! generation into a fixed-capacity list, copy-make [`Game::play`], the outcome of a position
//! and a Zobrist hash with incremental updates. [`GameState`] adds the history-dependent rules
//! (repetition, move rules, ply limit). [`perft`] counts move paths for any game.
//! [`registry`] names every game by id and loads it with rule options; its
//! [`registry::GameFamily`] gives both families one interface for notation, position strings
//! and drawings, which the command line and the Python extension build on.
//!
//! This crate does no file I/O, has no Python and starts no threads.
//!
//! ```
//! use perfectplay_core::checkers::Checkers;
//! use perfectplay_core::{Game, GameState};
//! let mut state = GameState::new(Checkers::default());
//! let mv = state.position().parse_move("11-15").unwrap();
//! state.play(&mv).unwrap();
//! assert_eq!(state.position().fen(), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
//! ```

mod bitboard;
mod color;
mod game;
mod options;
mod perft;
pub mod prefetch;
mod rl;
mod rng;
pub mod simd;
mod state;
#[cfg(test)]
mod svg_layout;

pub mod checkers;
pub mod morris;
pub mod record;
pub mod registry;

pub use bitboard::{Bitboard, Indices};
pub use color::{ByColor, Color};
pub use game::{DrawRules, EndReason, Game, MoveBuffer, Outcome, Player};
pub use options::{differing_settings, RuleOption, RuleOptionError, RuleSet};
pub use perft::{perft, perft_divide, perft_until, MAX_PERFT_DEPTH};
pub use rl::{ActionGame, ActionStep, IllegalActionError};
pub use rng::SplitMix64;
pub use state::{GameState, History, PlayError};
