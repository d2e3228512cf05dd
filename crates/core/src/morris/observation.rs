//! The morris observation tensor, and the morris implementation of [`ActionGame`].

use super::actions::Stage;
use super::{Morris, MorrisMove, MorrisPosition};
use crate::rl::{ActionGame, ActionStep, IllegalActionError};

/// Planes of the observation, each with one value per point.
const PLANES: usize = 7;

impl ActionGame for Morris {
    type Stage = Stage;

    fn action_count(&self) -> usize {
        Morris::action_count(self)
    }

    fn for_each_legal_action<F: FnMut(usize)>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        visit: F,
    ) {
        Morris::for_each_legal_action(self, pos, stage, visit);
    }

    fn apply_action(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        action: usize,
    ) -> Result<ActionStep<Stage, MorrisMove>, IllegalActionError> {
        Morris::apply_action(self, pos, stage, action)
    }

    fn turn_actions(&self, mv: &MorrisMove) -> Vec<usize> {
        Morris::turn_actions(self, mv)
    }

    fn action_to_string(&self, _pos: &MorrisPosition, _stage: &Stage, action: usize) -> String {
        Morris::action_to_string(self, action)
    }

    /// `[7, n]` for a board of `n` points.
    fn observation_shape(&self) -> Vec<usize> {
        vec![PLANES, self.board().point_count()]
    }

    /// Planes, one value per point, from the point of view of the player to move:
    /// 0 own men, 1 the opponent's men, 2 empty points, 3 own men in hand as a fraction of
    /// the men per side (the same on every point), 4 the opponent's men in hand likewise,
    /// 5 all ones while the player is choosing men to take (after a mill, or Shah's opening
    /// removal), 6 the point the turn's man arrived on while choosing men to take.
    fn write_observation(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32]) {
        let n = self.board().point_count();
        let out = &mut out[..PLANES * n];
        out.fill(0.0);
        let us = pos.side_to_move();
        let men = f32::from(self.rules().men);
        let removing = pos.opening_removal_pending() || matches!(stage, Stage::Removing { .. });
        for p in 0..n {
            let bit = p as u8;
            out[p] = f32::from(u8::from(pos.men(us).contains_index(bit)));
            out[n + p] = f32::from(u8::from(pos.men(!us).contains_index(bit)));
            out[2 * n + p] = f32::from(u8::from(!pos.occupied().contains_index(bit)));
            out[3 * n + p] = f32::from(pos.in_hand(us)) / men;
            out[4 * n + p] = f32::from(pos.in_hand(!us)) / men;
            out[5 * n + p] = f32::from(u8::from(removing));
        }
        if let Stage::Removing { base, .. } = stage {
            if let Some(to) = base.to() {
                out[6 * n + usize::from(to)] = 1.0;
            }
        }
    }
}
