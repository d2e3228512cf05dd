//! Fixed action spaces and observation tensors: how reinforcement learning sees a game.
//!
//! A turn of either family may take several decisions: a checkers capture is one action per
//! jump, a morris turn that closes a mill is its placement or move and then one action per man
//! taken. Between them the same player acts again, and a [`ActionGame::Stage`] value says where
//! within the turn that player is. Actions are small integers in `0..action_count()`;
//! observations are `f32` tensors of a fixed shape, seen from the player to move.

use std::fmt;
use std::hash::Hash;

use thiserror::Error;

use crate::game::Game;

/// What an action led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionStep<S, M> {
    /// The turn goes on: the same player acts again, at this stage.
    Continue(S),
    /// The turn is complete: play this move.
    Done(M),
}

/// An action that is not legal now.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("action {action} ({text}) is not legal now; legal actions: {legal:?}")]
pub struct IllegalActionError {
    /// The action.
    pub action: usize,
    /// What it means, in the game's notation.
    pub text: String,
    /// The legal actions.
    pub legal: Vec<usize>,
}

/// The step of `action` among all the steps at `stage`: a completed move over a later stage
/// where both are offered, as [`ActionGame::for_each_action_step`] specifies.
pub(crate) fn find_step<G: ActionGame + ?Sized>(
    game: &G,
    pos: &G::Position,
    stage: &G::Stage,
    action: usize,
) -> Option<ActionStep<G::Stage, G::Move>> {
    let mut found = None;
    game.for_each_action_step(pos, stage, |a, step| {
        if a == action && (found.is_none() || matches!(step, ActionStep::Done(_))) {
            found = Some(step);
        }
    });
    found
}

/// A game with a fixed action space and an observation tensor.
pub trait ActionGame: Game {
    /// Where the player to move is within a turn; `Default` is the start of a turn.
    type Stage: Copy + Default + Eq + Hash + fmt::Debug;

    /// The number of actions; every action is below it.
    fn action_count(&self) -> usize;

    /// Calls `visit` with each legal action at `stage` and what it leads to, in one pass. An
    /// action may be visited more than once (with the same step, or, where a turn could end
    /// there, a [`ActionStep::Done`] that takes precedence).
    fn for_each_action_step<F: FnMut(usize, ActionStep<Self::Stage, Self::Move>)>(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        visit: F,
    );

    /// Calls `visit` with each legal action at `stage` (possibly more than once).
    fn for_each_legal_action<F: FnMut(usize)>(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        mut visit: F,
    ) {
        self.for_each_action_step(pos, stage, |a, _| visit(a));
    }

    /// Calls `visit(first, bits)` with groups of legal actions at `stage`: each set bit `i` of
    /// `bits` is the legal action `first + i`. Every legal action is in some group (possibly
    /// in more than one; a group may be empty), so a caller can fill a bitset a word at a
    /// time; the default makes a group of each action. A game that overrides
    /// [`ActionGame::for_each_legal_action`] in terms of groups must override this too (the
    /// defaults call each other).
    fn for_each_legal_action_group<F: FnMut(usize, u64)>(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        mut visit: F,
    ) {
        self.for_each_legal_action(pos, stage, |a| visit(a, 1));
    }

    /// What `action` leads to, for an action known to be legal at `stage` (one that
    /// [`ActionGame::for_each_legal_action`] visits). Games override it to work out one action's
    /// step without the others'; the default looks for it among them all. It does not check
    /// legality: for an action that is not legal the answer is `None` or some step (never a
    /// panic), so callers check first, or use [`ActionGame::apply_action`].
    fn legal_action_step(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        action: usize,
    ) -> Option<ActionStep<Self::Stage, Self::Move>> {
        find_step(self, pos, stage, action)
    }

    /// The legal actions at `stage`, ascending, without repeats.
    fn legal_actions(&self, pos: &Self::Position, stage: &Self::Stage) -> Vec<usize> {
        let mut mask = vec![false; self.action_count()];
        self.for_each_legal_action(pos, stage, |a| {
            // Past the actions only for a position made unchecked, which the rules refuse.
            if let Some(legal) = mask.get_mut(a) {
                *legal = true;
            }
        });
        mask.iter()
            .enumerate()
            .filter_map(|(a, &legal)| legal.then_some(a))
            .collect()
    }

    /// Applies `action` at `stage`: the next stage of the turn, or the complete move.
    fn apply_action(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        action: usize,
    ) -> Result<ActionStep<Self::Stage, Self::Move>, IllegalActionError> {
        find_step(self, pos, stage, action).ok_or_else(|| IllegalActionError {
            action,
            text: self.action_to_string(pos, stage, action),
            legal: self.legal_actions(pos, stage),
        })
    }

    /// The actions that play `mv`, legal in `pos`, from the start of a turn, in order.
    fn turn_actions(&self, pos: &Self::Position, mv: &Self::Move) -> Vec<usize>;

    /// What `action` means in `pos` at `stage`, e.g. `11-15`, `15x24` (one jump) or `d6`.
    fn action_to_string(&self, pos: &Self::Position, stage: &Self::Stage, action: usize) -> String;

    /// The shape of the observation tensor.
    fn observation_shape(&self) -> Vec<usize>;

    /// Writes the observation of `pos` at `stage`, seen from the player to move, into `out`
    /// (whose length is the product of [`ActionGame::observation_shape`]).
    ///
    /// # Panics
    ///
    /// The games of this crate panic if `out` is shorter than that product, and in debug
    /// builds may panic at a `stage` that no legal action of `pos` leads to.
    fn write_observation(&self, pos: &Self::Position, stage: &Self::Stage, out: &mut [f32]);

    /// Writes the observation of `pos` at `stage` as bytes, a quarter of the size (what a
    /// batch of many envs writes and moves at every step): the same tensor with 0 and 1 for
    /// 0.0 and 1.0; a game whose float observation holds other values says what its bytes
    /// hold there (morris: the men in hand as counts), all at most
    /// [`ActionGame::observation_byte_max`].
    ///
    /// # Panics
    ///
    /// As [`ActionGame::write_observation`].
    fn write_observation_bytes(&self, pos: &Self::Position, stage: &Self::Stage, out: &mut [u8]);

    /// The largest value [`ActionGame::write_observation_bytes`] writes.
    fn observation_byte_max(&self) -> u8;
}
