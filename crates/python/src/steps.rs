//! Every legal action together with what it leads to, in one pass over the legal moves.
//!
//! States and envs ask at every step both which actions are legal and what each does, so they
//! keep a [`Steps`] table, filled by one pass of the core's
//! [`perfectplay_core::ActionGame::for_each_action_step`]. The test suite checks the table
//! against the core's answers at every step of random games of every game
//! (`_core._self_check`).

use perfectplay_core::ActionStep;

use crate::actions::ActionSet;
use crate::games::Family;

/// A step a game's action can lead to.
pub(crate) type Step<F> =
    ActionStep<<F as perfectplay_core::ActionGame>::Stage, <F as perfectplay_core::Game>::Move>;

/// The legal actions of one position and stage, each with its step.
#[derive(Clone, Debug)]
pub(crate) struct Steps<F: Family> {
    set: ActionSet,
    /// In generation order, each action once.
    list: Vec<(u16, Step<F>)>,
}

impl<F: Family> Default for Steps<F> {
    fn default() -> Self {
        Steps {
            set: ActionSet::default(),
            list: Vec::new(),
        }
    }
}

impl<F: Family> Steps<F> {
    /// Empties the table (no legal action).
    pub(crate) fn clear(&mut self) {
        self.set = ActionSet::default();
        self.list.clear();
    }

    /// Fills the table for `pos` at `stage`.
    pub(crate) fn fill(&mut self, game: &F, pos: &F::Position, stage: &F::Stage) {
        self.clear();
        game.fill_steps(pos, stage, self);
    }

    /// Adds `action`, leading to `step()` (a completed move if `done`). An action offered
    /// more than once keeps its first step, unless a later one completes the move: the
    /// completed move wins, as in the core.
    #[inline(always)]
    pub(crate) fn offer(&mut self, action: usize, done: bool, step: impl FnOnce() -> Step<F>) {
        if self.set.insert(action) {
            self.list.push((action as u16, step()));
        } else if done {
            let step = step();
            if let Some(entry) = self
                .list
                .iter_mut()
                .find(|(a, _)| usize::from(*a) == action)
            {
                entry.1 = step;
            }
        }
    }

    /// The legal actions as a set.
    pub(crate) fn set(&self) -> &ActionSet {
        &self.set
    }

    /// The legal actions in generation order.
    pub(crate) fn actions(&self) -> impl Iterator<Item = u16> + '_ {
        self.list.iter().map(|(a, _)| *a)
    }

    /// The number of legal actions.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there is no legal action.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The `index`-th legal action in generation order.
    pub(crate) fn nth(&self, index: usize) -> u16 {
        self.list[index].0
    }

    /// What `action` leads to, if it is legal.
    pub(crate) fn get(&self, action: usize) -> Option<Step<F>> {
        if !self.set.contains(action) {
            return None;
        }
        self.list
            .iter()
            .find(|(a, _)| usize::from(*a) == action)
            .map(|(_, step)| *step)
    }
}

/// Compares the table with the core's answers for `pos` at `stage`: the same legal actions,
/// and for each the same step as [`perfectplay_core::ActionGame::apply_action`]. Returns the
/// first difference.
pub(crate) fn check<F: Family>(
    game: &F,
    pos: &F::Position,
    stage: &F::Stage,
) -> Result<(), String> {
    let mut steps = Steps::<F>::default();
    steps.fill(game, pos, stage);
    let core = ActionSet::legal(game, pos, stage);
    if core != *steps.set() {
        return Err(format!(
            "legal actions differ: core {:?}, table {:?}",
            core.iter().collect::<Vec<_>>(),
            steps.set().iter().collect::<Vec<_>>()
        ));
    }
    let shape = game.observation_shape();
    let mut want = vec![0.0; shape.iter().product()];
    let mut got = vec![1.0; want.len()];
    game.write_observation(pos, stage, &mut want);
    game.observe(pos, stage, &mut got);
    if want != got {
        return Err(format!("observations differ: core {want:?}, fast {got:?}"));
    }
    for action in core.iter() {
        let want = game
            .apply_action(pos, stage, action)
            .map_err(|e| e.to_string())?;
        let got = steps.get(action);
        if got != Some(want) {
            return Err(format!("action {action}: core {want:?}, table {got:?}"));
        }
    }
    Ok(())
}
