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
//! first the placement or move, then each removal. Where capture is optional, the pass action
//! at the removal stage declines the capture, and at Shah's opening removal declines that. [`Stage`] says where a player is within the
//! turn; [`Morris::apply_action`] advances it and hands back the whole turn when it is
//! complete ([`ActionGame`] has the methods). The legal actions are always those that can
//! still complete a legal turn.

use super::rules::Trapped;
use super::{BoardShape, Morris, MorrisMove, MorrisPosition, MoveKind};
use crate::rl::{find_step, ActionGame, ActionStep};
use crate::Bitboard;

pub use super::stage::Stage;

/// What an action led to (morris stages and moves).
pub type MorrisActionStep = ActionStep<Stage, MorrisMove>;

/// `(step / n, step % n)` for a board of `n` points, with `n` known at compile time for
/// each shape: the compiler turns a division by a constant into a multiplication, where a
/// division by a variable is one of the slowest instructions, and every env step makes one.
#[inline(always)]
fn split_step(step: usize, shape: BoardShape) -> (usize, usize) {
    match shape {
        BoardShape::TwentyFour => (step / 24, step % 24),
        BoardShape::Sixteen => (step / 16, step % 16),
        BoardShape::Nine => (step / 9, step % 9),
    }
}

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

    /// The placement, move or pass that `action` names at the start of a turn (Shah's opening
    /// removal aside), if it names one.
    fn action_base(&self, action: usize) -> Option<MorrisMove> {
        let n = self.board().point_count();
        let shape = self.board().shape();
        if action < n {
            Some(MorrisMove::place(shape, action as u8))
        } else if action == n {
            Some(MorrisMove::pass(shape))
        } else if action < n + n * n {
            let (from, to) = split_step(action - n, shape);
            Some(MorrisMove::step(shape, from as u8, to as u8))
        } else {
            None
        }
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

    /// The actions that play `mv`, a legal turn in `pos`, in order (at most three): its
    /// placement or move, then each man it takes, or the pass that declines what it earns.
    /// An illegal move gives actions without a panic, which need not play it.
    #[must_use]
    pub fn turn_actions(&self, pos: &MorrisPosition, mv: &MorrisMove) -> Vec<usize> {
        let mut actions: Vec<usize> = self
            .base_action(mv)
            .into_iter()
            .chain(mv.removed().indices().map(usize::from))
            .collect();
        let declined = mv.removed().is_empty()
            && !matches!(mv.kind(), MoveKind::Pass | MoveKind::Remove)
            && self.takes_by(pos, mv) > 0
            && self.removable(pos.men(!pos.side_to_move())).any();
        if declined {
            actions.push(self.pass_action());
        }
        actions
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
            let (from, to) = split_step(action - n, self.board().shape());
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

impl Morris {
    /// The action `text` names on this board, as [`Morris::action_to_string`] writes it:
    /// `d6` (a point: a placement, or taking the man there), `a1-a4` (a slide or flight) or
    /// `pass`; case and surrounding spaces do not matter. `None` for text naming no action.
    #[must_use]
    pub fn parse_action(&self, text: &str) -> Option<usize> {
        let text = text.trim().to_ascii_lowercase();
        let board = self.board();
        let n = board.point_count();
        if text == "pass" {
            return Some(n);
        }
        match text.split_once('-') {
            None => board.point(&text).map(usize::from),
            Some((from, to)) => {
                let (from, to) = (board.point(from.trim())?, board.point(to.trim())?);
                (from != to).then(|| n + usize::from(from) * n + usize::from(to))
            }
        }
    }
}

impl ActionGame for Morris {
    type Stage = Stage;

    fn action_count(&self) -> usize {
        Morris::action_count(self)
    }

    /// At the start of a turn, one action per placement, move or pass (a turn that takes men
    /// continues to the removal stage) or, for Shah's opening removal, per man that may be
    /// taken; at the removal stage, one per man that may still be taken, and the pass where
    /// the capture may be declined.
    fn for_each_action_step<F: FnMut(usize, MorrisActionStep)>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        match *stage {
            Stage::Start if pos.opening_removal_pending() => self.for_each_turn(pos, |mv| {
                let action = self
                    .base_action(mv)
                    .or_else(|| mv.removed().lowest_index().map(usize::from));
                if let Some(a) = action {
                    visit(a, ActionStep::Done(*mv));
                }
            }),
            Stage::Start => {
                if self.position_outcome(pos).is_some() {
                    return;
                }
                let theirs = pos.men(!pos.side_to_move());
                // Whether a man can be taken at all, worked out once, when a mill first closes.
                let mut can_take = None;
                self.visit_bases(pos, |base, takes| {
                    let Some(a) = self.base_action(&base) else {
                        return;
                    };
                    let step = if takes > 0
                        && *can_take.get_or_insert_with(|| self.removable(theirs).any())
                    {
                        ActionStep::Continue(Stage::Removing {
                            base,
                            taken: Bitboard::EMPTY,
                        })
                    } else {
                        ActionStep::Done(base)
                    };
                    visit(a, step);
                });
            }
            Stage::Removing { base, taken } => self.visit_removal_sets(pos, &base, |removed| {
                if !taken.is_subset(removed) {
                    return;
                }
                // Taking nothing is a legal choice only where capture is optional (at this
                // stage a man can be taken), and only before any is chosen.
                if removed.is_empty() {
                    visit(self.pass_action(), ActionStep::Done(base));
                    return;
                }
                for point in removed.without(taken).indices() {
                    let now = taken | Bitboard::from_index(point);
                    let step = if now == removed {
                        ActionStep::Done(base.taking(removed))
                    } else {
                        ActionStep::Continue(Stage::Removing { base, taken: now })
                    };
                    visit(usize::from(point), step);
                }
            }),
        }
    }

    /// At the start of a turn, the placements, moves and pass alone, without working out what
    /// each takes (which only the chosen one needs: [`ActionGame::legal_action_step`]).
    fn for_each_legal_action<F: FnMut(usize)>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        self.for_each_legal_action_group(pos, stage, |first, mut bits| {
            while bits != 0 {
                visit(first + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        });
    }

    /// At the start of a turn, the placements as one group and each man's slides or flights as
    /// another (a man's destinations are consecutive actions; a man that cannot move makes an
    /// empty group).
    fn for_each_legal_action_group<F: FnMut(usize, u64)>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        if *stage != Stage::Start || pos.opening_removal_pending() {
            self.for_each_action_step(pos, stage, |a, _| visit(a, 1));
            return;
        }
        // Over for a reason other than having no move? With no move, no group is visited,
        // and a pass only where being trapped is not a loss.
        if self.position_outcome_with(pos, || true).is_some() {
            return;
        }
        let n = self.board().point_count();
        let mut any = false;
        // Men with nowhere to go are visited too, as empty groups: whether a man can move is
        // random in play, and a branch on it mispredicted often (envs fill their action
        // tables at every step).
        self.visit_base_targets(pos, &mut |from, targets| {
            any |= targets.any();
            // A man past the board's points (of a position made unchecked) has no actions.
            if from.is_none_or(|f| usize::from(f) < n) {
                visit(
                    from.map_or(0, |f| n + usize::from(f) * n),
                    u64::from(targets.0),
                );
            }
        });
        if !any && self.rules.trapped == Trapped::Passes {
            visit(self.pass_action(), 1);
        }
    }

    /// At the start of a turn, the chosen placement or move alone: whether it closes a mill
    /// that can take a man, as [`ActionGame::for_each_action_step`] decides for every one.
    #[inline(always)]
    fn legal_action_step(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        action: usize,
    ) -> Option<MorrisActionStep> {
        if *stage != Stage::Start || pos.opening_removal_pending() {
            return find_step(self, pos, stage, action);
        }
        let base = self.action_base(action)?;
        let us = pos.side_to_move();
        let takes = self.takes_by(pos, &base);
        Some(if takes > 0 && self.removable(pos.men(!us)).any() {
            ActionStep::Continue(Stage::Removing {
                base,
                taken: Bitboard::EMPTY,
            })
        } else {
            ActionStep::Done(base)
        })
    }

    fn turn_actions(&self, pos: &MorrisPosition, mv: &MorrisMove) -> Vec<usize> {
        Morris::turn_actions(self, pos, mv)
    }

    fn action_to_string(&self, _pos: &MorrisPosition, _stage: &Stage, action: usize) -> String {
        Morris::action_to_string(self, action)
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![super::observation::PLANES, self.board().point_count()]
    }

    fn write_observation(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32]) {
        self.observe(pos, stage, out);
    }

    /// Planes 3 and 4 hold the men in hand, 0 to the men per side, where the float observation
    /// holds their fraction of the men per side.
    fn write_observation_bytes(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [u8]) {
        self.observe_bytes(pos, stage, out);
    }

    fn observation_byte_max(&self) -> u8 {
        self.rules().men.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_names_read_back() {
        for id in crate::morris::ONE_PRESET_PER_BOARD {
            let game = Morris::preset(id).unwrap();
            let mut named = 0;
            for action in 0..game.action_count() + 2 {
                let name = game.action_to_string(action);
                if name == "invalid" {
                    assert_eq!(game.parse_action(&name), None);
                    continue;
                }
                named += 1;
                assert_eq!(game.parse_action(&name), Some(action), "{id} {name}");
                assert_eq!(
                    game.parse_action(&format!(" {} ", name.to_uppercase())),
                    Some(action)
                );
            }
            let n = game.board().point_count();
            assert_eq!(named, n + n * (n - 1) + 1, "{id}: points, steps, pass");
        }
        let game = Morris::preset("nine_mens_morris").unwrap();
        for text in ["", "z9", "a1-a1", "a1-", "-a4", "a1-a4-a7"] {
            assert_eq!(game.parse_action(text), None, "{text:?}");
        }
    }

    #[test]
    fn steps_split_as_by_the_number_of_points() {
        for shape in [
            BoardShape::TwentyFour,
            BoardShape::Sixteen,
            BoardShape::Nine,
        ] {
            let n = shape.points();
            for step in 0..n * n {
                assert_eq!(split_step(step, shape), (step / n, step % n), "{shape:?}");
            }
        }
    }
}
