//! `Stage`: where the player to move is within a turn that the action space splits into
//! several actions (see [`super::actions`]). Apart from the actions themselves so that the
//! observation, which shows the stage, and the actions, which include the observation, depend
//! on it one way.

use super::MorrisMove;
use crate::Bitboard;

/// Where the player to move is within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Stage {
    /// Nothing chosen yet.
    #[default]
    Start,
    /// The placement or move is chosen and men are to be taken.
    Removing {
        /// The placement or move, without removals.
        base: MorrisMove,
        /// The men chosen so far.
        taken: Bitboard,
    },
}
