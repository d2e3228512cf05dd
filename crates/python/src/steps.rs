//! Every legal action together with what it leads to, in one pass over the legal moves.
//!
//! The core answers "which actions are legal" ([`ActionGame::for_each_legal_action`]) and
//! "what does this action do" ([`ActionGame::apply_action`]) with a pass over the legal moves
//! each. States and envs ask both questions at every step, so they keep a [`Steps`] table
//! instead: filled by one pass that yields each legal action with its [`ActionStep`], following
//! the encoding of the core's `checkers::actions` and `morris::actions` modules. The test suite
//! checks the table against the core's answers at every step of random games of every game
//! (`_core._self_check`).

use perfectplay_core::checkers::actions::Stage as CheckersStage;
use perfectplay_core::checkers::{Checkers, Move, Position, Square};
use perfectplay_core::morris::actions::Stage as MorrisStage;
use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition, MoveKind};
use perfectplay_core::{ActionStep, Bitboard};

use crate::actions::ActionSet;
use crate::games::Family;

/// The action of a step or jump from `from` towards `to`: `4 * from + direction`, the
/// direction being 0 north-west, 1 north-east, 2 south-west, 3 south-east (north towards
/// square 1).
fn checkers_action(from: Square, to: Square) -> usize {
    let south = to.row() > from.row();
    let east = to.column() > from.column();
    4 * usize::from(from.index()) + 2 * usize::from(south) + usize::from(east)
}

/// Whether `mv` is a capture from `from` whose first `jumps` landings are `landings`.
fn extends(mv: &Move, from: Square, landings: u64, jumps: u8) -> bool {
    mv.from() == from
        && mv.jump_count() > usize::from(jumps)
        && mv
            .landings()
            .take(usize::from(jumps))
            .enumerate()
            .all(|(i, sq)| u64::from(sq.index()) == (landings >> (5 * i)) & 31)
}

/// Each legal checkers action at `stage` with its step (possibly more than once).
pub(crate) fn checkers_steps(pos: &Position, stage: &CheckersStage, steps: &mut Steps<Checkers>) {
    let (track, landings, jumps) = match *stage {
        CheckersStage::Start => (None, 0, 0),
        CheckersStage::Jumping {
            from,
            landings,
            jumps,
        } => (Some(from), landings, jumps),
    };
    pos.for_each_move(|mv| {
        if let Some(from) = track {
            if !extends(mv, from, landings, jumps) {
                return;
            }
        }
        let mut trail = std::iter::once(mv.from())
            .chain(mv.landings())
            .skip(usize::from(jumps));
        let (Some(here), Some(next)) = (trail.next(), trail.next()) else {
            return;
        };
        let action = checkers_action(here, next);
        let done = mv.jump_count() <= usize::from(jumps) + 1;
        steps.offer(action, done, || {
            if done {
                ActionStep::Done(*mv)
            } else {
                ActionStep::Continue(CheckersStage::Jumping {
                    from: mv.from(),
                    landings: landings | (u64::from(next.index()) << (5 * u32::from(jumps))),
                    jumps: jumps + 1,
                })
            }
        });
    });
}

/// Whether `mv` has the placement or move of `base` (and is not a removal-only turn).
fn same_base(mv: &MorrisMove, base: &MorrisMove) -> bool {
    mv.from() == base.from() && mv.to() == base.to() && mv.kind() != MoveKind::Remove
}

/// Each legal morris action at `stage` with its step (possibly more than once).
pub(crate) fn morris_steps(
    game: &Morris,
    pos: &MorrisPosition,
    stage: &MorrisStage,
    steps: &mut Steps<Morris>,
) {
    let n = game.board().point_count();
    match *stage {
        MorrisStage::Start => game.for_each_turn(pos, |mv| {
            let action = match mv.kind() {
                MoveKind::Place { to } => usize::from(to),
                MoveKind::Move { from, to } => n + usize::from(from) * n + usize::from(to),
                MoveKind::Pass => n,
                MoveKind::Remove => {
                    if let Some(point) = mv.removed().lowest_index() {
                        steps.offer(usize::from(point), true, || ActionStep::Done(*mv));
                    }
                    return;
                }
            };
            let done = mv.removed().is_empty();
            steps.offer(action, done, || {
                if done {
                    ActionStep::Done(*mv)
                } else {
                    ActionStep::Continue(MorrisStage::Removing {
                        base: mv.taking(Bitboard::EMPTY),
                        taken: Bitboard::EMPTY,
                    })
                }
            });
        }),
        MorrisStage::Removing { base, taken } => game.for_each_turn(pos, |mv| {
            if !same_base(mv, &base) || !taken.is_subset(mv.removed()) {
                return;
            }
            for point in mv.removed().without(taken).indices() {
                let now = taken | Bitboard::from_index(point);
                let done = mv.removed() == now;
                steps.offer(usize::from(point), done, || {
                    if done {
                        ActionStep::Done(*mv)
                    } else {
                        ActionStep::Continue(MorrisStage::Removing { base, taken: now })
                    }
                });
            }
        }),
    }
}

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
