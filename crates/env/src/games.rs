//! The two families behind one interface for the environment: [`Family`] is the core's
//! [`GameFamily`] (rules by name, notation, position strings, pictures; loaded by id through
//! [`perfectplay_core::registry::AnyGame`]) and [`ActionGame`] (actions, observations), with
//! the fastest way to fill an [`ActionSet`].
//!
//! Everything the environment does is written once, generic over `F: Family`, and reached
//! from an enum of the two families through [`perfectplay_core::with_family!`].

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::actions::Stage;
use perfectplay_core::morris::{Morris, MorrisPosition};
use perfectplay_core::registry::GameFamily;
use perfectplay_core::ActionGame;

use crate::actions::ActionSet;
use crate::error::Error;

/// A game family as the environment plays it.
pub trait Family:
    GameFamily<MoveError: Into<Error>, PositionError: Into<Error>>
    + ActionGame<Position: Send + Sync, Stage: Send + Sync, Move: Send + Sync>
    + Copy
    + Send
    + Sync
    + 'static
{
    /// Makes `set` the legal actions of `pos` at `stage`, as
    /// [`ActionGame::for_each_legal_action_group`] visits them, and returns their number.
    fn fill_legal_actions(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        set: &mut ActionSet,
    ) -> usize {
        visit_legal_actions(self, pos, stage, set)
    }
}

/// Makes `set` the legal actions of `pos` at `stage` as
/// [`ActionGame::for_each_legal_action_group`] visits them, and returns their number.
fn visit_legal_actions<G: ActionGame>(
    game: &G,
    pos: &G::Position,
    stage: &G::Stage,
    set: &mut ActionSet,
) -> usize {
    *set = ActionSet::default();
    game.for_each_legal_action_group(pos, stage, |first, bits| {
        set.insert_group(first, bits);
    });
    set.len()
}

impl Family for Checkers {}

impl Family for Morris {
    fn fill_legal_actions(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        set: &mut ActionSet,
    ) -> usize {
        // At the start of a turn the set is built in registers, in a pass of fixed length (envs
        // fill a set at every step, and the visit's loop over the men mispredicted).
        self.write_start_actions(pos, stage, set.words_mut())
            .unwrap_or_else(|| visit_legal_actions(self, pos, stage, set))
    }
}
