//! A fixed action space for reinforcement learning that factors each turn into its placement
//! or move and, when it takes men, one separate removal decision per man.
//!
//! On a board of `n` points there are `n + n * n` actions (600 on the 24-point board):
//!
//! - `p` (`0 <= p < n`): the point `p`: a placement on it, or taking the man on it when the turn
//!   is at a removal (and for Shah's opening removal);
//! - `n + from * n + to` (`from != to`): a slide or flight from `from` to `to`;
//! - `n` (the unused `from == to == 0` slot): pass.
//!
//! A turn that closes a mill is two actions by the same player (three when it takes two men):
//! first the placement or move, then each removal. [`Stage`] says where a player is within the
//! turn; [`Morris::apply_action`] advances it and hands back the whole turn when it is
//! complete. The legal actions are always those that can still complete a legal turn.

use super::{Morris, MorrisMove, MorrisPosition, MoveKind};
use crate::rl::{ActionStep, IllegalActionError};
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

/// What an action led to (morris stages and moves).
pub type MorrisActionStep = ActionStep<Stage, MorrisMove>;

impl Morris {
    /// The size of the action space: `n + n * n` for `n` points.
    #[must_use]
    pub fn action_count(&self) -> usize {
        let n = self.board().point_count();
        n + n * n
    }

    /// The action of a pass.
    #[must_use]
    pub fn pass_action(&self) -> usize {
        self.board().point_count()
    }

    fn base_action(&self, mv: &MorrisMove) -> Option<usize> {
        let n = self.board().point_count();
        match mv.kind() {
            MoveKind::Place { to } => Some(usize::from(to)),
            MoveKind::Move { from, to } => Some(n + usize::from(from) * n + usize::from(to)),
            MoveKind::Pass => Some(n),
            MoveKind::Remove => None,
        }
    }

    /// The actions that play `mv`, in order (at most three).
    #[must_use]
    pub fn turn_actions(&self, mv: &MorrisMove) -> Vec<usize> {
        self.base_action(mv)
            .into_iter()
            .chain(mv.removed().indices().map(usize::from))
            .collect()
    }

    /// Calls `visit` with each legal action at `stage` (an action may be visited more than
    /// once; [`Morris::legal_actions`] collects them without repeats).
    pub fn for_each_legal_action<F: FnMut(usize)>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        match *stage {
            Stage::Start => self.for_each_turn(pos, |mv| {
                let first = self
                    .base_action(mv)
                    .or_else(|| mv.removed().lowest_index().map(usize::from));
                if let Some(a) = first {
                    visit(a);
                }
            }),
            Stage::Removing { base, taken } => self.for_each_turn(pos, |mv| {
                if same_base(mv, &base) && taken.is_subset(mv.removed()) {
                    for r in mv.removed().without(taken).indices() {
                        visit(usize::from(r));
                    }
                }
            }),
        }
    }

    /// The legal actions at `stage`, ascending.
    #[must_use]
    pub fn legal_actions(&self, pos: &MorrisPosition, stage: &Stage) -> Vec<usize> {
        let mut mask = vec![false; self.action_count()];
        self.for_each_legal_action(pos, stage, |a| mask[a] = true);
        mask.iter()
            .enumerate()
            .filter_map(|(a, &legal)| legal.then_some(a))
            .collect()
    }

    /// Applies `action` at `stage`: the next stage of the turn, or the complete turn.
    pub fn apply_action(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        action: usize,
    ) -> Result<MorrisActionStep, IllegalActionError> {
        let n = self.board().point_count();
        let mut found: Option<MorrisActionStep> = None;
        match *stage {
            Stage::Start => self.for_each_turn(pos, |mv| {
                if found.is_some() {
                    return;
                }
                if self.base_action(mv) == Some(action) {
                    found = Some(if mv.removed().is_empty() {
                        ActionStep::Done(*mv)
                    } else {
                        let base = mv.taking(Bitboard::EMPTY);
                        ActionStep::Continue(Stage::Removing {
                            base,
                            taken: Bitboard::EMPTY,
                        })
                    });
                } else if mv.kind() == MoveKind::Remove
                    && action < n
                    && mv.removed() == Bitboard::from_index(action as u8)
                {
                    found = Some(ActionStep::Done(*mv));
                }
            }),
            Stage::Removing { base, taken }
                if action < n && !taken.contains_index(action as u8) =>
            {
                let taken = taken | Bitboard::from_index(action as u8);
                let mut exists = false;
                self.for_each_turn(pos, |mv| {
                    if same_base(mv, &base) && taken.is_subset(mv.removed()) {
                        exists = true;
                        if mv.removed() == taken {
                            found = Some(ActionStep::Done(*mv));
                        }
                    }
                });
                if exists && found.is_none() {
                    found = Some(ActionStep::Continue(Stage::Removing { base, taken }));
                }
            }
            Stage::Removing { .. } => {}
        }
        found.ok_or_else(|| IllegalActionError {
            action,
            text: self.action_to_string(action),
            legal: self.legal_actions(pos, stage),
        })
    }

    /// What `action` means on this board: `d6` (a point: placement or removal), `a1-a4`,
    /// `pass`, or `invalid` outside the action space.
    #[must_use]
    pub fn action_to_string(&self, action: usize) -> String {
        let n = self.board().point_count();
        let name = |p: usize| self.board().name(p as u8);
        if action < n {
            name(action).to_owned()
        } else if action == n {
            "pass".to_owned()
        } else if action < n + n * n {
            let (from, to) = ((action - n) / n, (action - n) % n);
            if from == to {
                "invalid".to_owned()
            } else {
                format!("{}-{}", name(from), name(to))
            }
        } else {
            "invalid".to_owned()
        }
    }
}

fn same_base(mv: &MorrisMove, base: &MorrisMove) -> bool {
    mv.from() == base.from() && mv.to() == base.to() && mv.kind() != MoveKind::Remove
}
