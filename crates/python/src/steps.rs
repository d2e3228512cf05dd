//! Every legal action, and what each leads to, for the position and stage a game is at.
//!
//! States and envs ask at every step which actions are legal (for the mask and for sampling)
//! and what the chosen one does, so they keep a [`Steps`] table. A family fills it in one of
//! two ways ([`Family::STEPS_ON_DEMAND`]): checkers with every action's step, in one pass of
//! the core's [`perfectplay_core::ActionGame::for_each_action_step`] (a jump's step falls out
//! of generating it); morris with the actions alone, the chosen action's step worked out when
//! it is played ([`perfectplay_core::ActionGame::legal_action_step`]), since most of a morris
//! step's cost is whether it closes a mill, which only the chosen action needs. The test suite
//! checks the table against the core's answers at every step of random games of every game
//! (`_core._self_check`).

use perfectplay_core::ActionStep;

use crate::actions::ActionSet;
use crate::games::Family;

/// A step a game's action can lead to.
pub(crate) type Step<F> =
    ActionStep<<F as perfectplay_core::ActionGame>::Stage, <F as perfectplay_core::Game>::Move>;

/// The legal actions of one position and stage, and (filled eagerly) their steps.
///
/// Sampling takes the `n`-th legal action: in generation order when steps are filled eagerly,
/// in ascending order when they are worked out on demand (the order morris generates them in
/// at the start of a turn; at a removal with two men to take, the pairs come in another order).
#[derive(Clone, Debug)]
pub(crate) struct Steps<F: Family> {
    set: ActionSet,
    /// The number of legal actions.
    count: usize,
    /// Filled eagerly: the legal actions in generation order, each once.
    order: Vec<u16>,
    /// Filled eagerly: the step of each action of `order`.
    steps: Vec<Step<F>>,
}

impl<F: Family> Default for Steps<F> {
    fn default() -> Self {
        Steps {
            set: ActionSet::default(),
            count: 0,
            order: Vec::new(),
            steps: Vec::new(),
        }
    }
}

impl<F: Family> Steps<F> {
    /// Empties the table (no legal action).
    pub(crate) fn clear(&mut self) {
        self.set = ActionSet::default();
        self.count = 0;
        self.order.clear();
        self.steps.clear();
    }

    /// Fills the table for `pos` at `stage`.
    pub(crate) fn fill(&mut self, game: &F, pos: &F::Position, stage: &F::Stage) {
        self.clear();
        if F::STEPS_ON_DEMAND {
            let set = &mut self.set;
            game.for_each_legal_action_group(pos, stage, |first, bits| {
                set.insert_group(first, bits);
            });
            self.count = self.set.len();
        } else {
            game.for_each_action_step(pos, stage, |action, step| {
                self.offer(action, matches!(step, ActionStep::Done(_)), step);
            });
            self.count = self.order.len();
        }
    }

    /// Adds `action` with its step. An action offered more than once keeps its first step,
    /// unless a later one completes the move: the completed move wins, as in the core.
    #[inline(always)]
    fn offer(&mut self, action: usize, done: bool, step: Step<F>) {
        if self.set.insert(action) {
            self.order.push(action as u16);
            self.steps.push(step);
        } else if done {
            if let Some(i) = self.order.iter().position(|&a| usize::from(a) == action) {
                self.steps[i] = step;
            }
        }
    }

    /// The legal actions as a set.
    pub(crate) fn set(&self) -> &ActionSet {
        &self.set
    }

    /// The number of legal actions.
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// Whether there is no legal action.
    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `index`-th legal action (below [`Steps::len`]) in the sampling order.
    pub(crate) fn nth(&self, index: usize) -> u16 {
        if F::STEPS_ON_DEMAND {
            self.set.nth(index).unwrap_or(0) as u16
        } else {
            self.order[index]
        }
    }

    /// What `action` leads to from `pos` at `stage` (the position and stage the table was
    /// filled for), if it is legal.
    pub(crate) fn get(
        &self,
        game: &F,
        pos: &F::Position,
        stage: &F::Stage,
        action: usize,
    ) -> Option<Step<F>> {
        if !self.set.contains(action) {
            return None;
        }
        if F::STEPS_ON_DEMAND {
            return game.legal_action_step(pos, stage, action);
        }
        self.order
            .iter()
            .position(|&a| usize::from(a) == action)
            .map(|i| self.steps[i])
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
        let got = steps.get(game, pos, stage, action);
        if got != Some(want) {
            return Err(format!("action {action}: core {want:?}, table {got:?}"));
        }
    }
    Ok(())
}
