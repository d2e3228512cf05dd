//! Every legal action of the position and stage a game is at, and the chosen one's step.
//!
//! States and envs ask at every step which actions are legal (for the mask and for sampling)
//! and what the chosen one does, so they keep a [`Steps`] table: the legal actions as a set and
//! their number, filled by [`Family::fill_legal_actions`] (at the start of a morris turn, the
//! whole set built in registers by [`perfectplay_core::morris::Morris::write_start_actions`];
//! otherwise a word at a time from the bit groups of
//! [`perfectplay_core::ActionGame::for_each_legal_action_group`]: morris removals, checkers
//! first steps or first jumps by direction), the chosen action's
//! step worked out alone when it is played
//! ([`perfectplay_core::ActionGame::legal_action_step`]): whether a morris move closes a mill,
//! where a checkers jump goes on, is needed for that one action only. The test suite checks
//! the table against the core's answers at every step of random games of every game
//! (`_core._self_check`).

use perfectplay_core::ActionStep;

use crate::actions::ActionSet;
use crate::games::Family;

/// A step a game's action can lead to.
pub type Step<F> =
    ActionStep<<F as perfectplay_core::ActionGame>::Stage, <F as perfectplay_core::Game>::Move>;

/// The legal actions of one position and stage.
///
/// Sampling takes the `n`-th legal action in ascending order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Steps {
    set: ActionSet,
    /// The number of legal actions.
    count: usize,
}

impl Steps {
    /// Empties the table (no legal action).
    pub fn clear(&mut self) {
        *self = Steps::default();
    }

    /// Fills the table for `pos` at `stage`.
    #[inline]
    pub fn fill<F: Family>(&mut self, game: &F, pos: &F::Position, stage: &F::Stage) {
        self.count = game.fill_legal_actions(pos, stage, &mut self.set);
    }

    /// The legal actions as a set.
    pub fn set(&self) -> &ActionSet {
        &self.set
    }

    /// The number of legal actions.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is no legal action.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `index`-th legal action (below [`Steps::len`]) in ascending order.
    pub fn nth(&self, index: usize) -> u16 {
        self.set.nth(index).unwrap_or(0) as u16
    }

    /// What `action` leads to from `pos` at `stage` (the position and stage the table was
    /// filled for), if it is legal.
    #[inline(always)]
    pub fn get<F: Family>(
        &self,
        game: &F,
        pos: &F::Position,
        stage: &F::Stage,
        action: usize,
    ) -> Option<Step<F>> {
        if !self.set.contains(action) {
            return None;
        }
        game.legal_action_step(pos, stage, action)
    }
}

/// Compares the table with the core's answers for `pos` at `stage`: the same legal actions,
/// and for each the same step as [`perfectplay_core::ActionGame::apply_action`]. Returns the
/// first difference.
pub fn check<F: Family>(game: &F, pos: &F::Position, stage: &F::Stage) -> Result<(), String> {
    let mut steps = Steps::default();
    steps.fill(game, pos, stage);
    // The core's actions with their steps, not its legal actions alone, which a family may
    // generate the way the table is filled.
    let mut core = ActionSet::default();
    game.for_each_action_step(pos, stage, |action, _| {
        core.insert(action);
    });
    if core != *steps.set() {
        return Err(format!(
            "legal actions differ: core {:?}, table {:?}",
            core.iter().collect::<Vec<_>>(),
            steps.set().iter().collect::<Vec<_>>()
        ));
    }
    // The count comes from the family's fill (counted as the set is made), not from the set.
    if steps.len() != core.len() {
        return Err(format!(
            "{} legal actions, the table counts {}",
            core.len(),
            steps.len()
        ));
    }
    for action in core.iter() {
        let want = game
            .apply_action(pos, stage, action)
            .map_err(|e| e.to_string())?;
        let got = steps.get(game, pos, stage, action);
        if got != Some(want) {
            return Err(format!("action {action}: core {want:?}, table {got:?}"));
        }
    }
    Ok(())
}
