//! The morris observation tensor.

use super::actions::Stage;
use super::{Morris, MorrisPosition};

/// Planes of the observation, each with one value per point.
pub(crate) const PLANES: usize = 7;

/// Each value of four bits as four floats, lowest bit first.
const NIBBLES: [[f32; 4]; 16] = {
    let mut table = [[0.0; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut bit = 0;
        while bit < 4 {
            if n & (1 << bit) != 0 {
                table[n][bit] = 1.0;
            }
            bit += 1;
        }
        n += 1;
    }
    table
};

/// Writes bit `i` of `bits` as 0.0 or 1.0 into `plane[i]`, four at a time.
#[inline]
fn write_bits(plane: &mut [f32], bits: u32) {
    let mut rest = bits;
    let mut quads = plane.chunks_exact_mut(4);
    for quad in &mut quads {
        quad.copy_from_slice(&NIBBLES[(rest & 15) as usize]);
        rest >>= 4;
    }
    let tail = NIBBLES[(rest & 15) as usize];
    for (value, bit) in quads.into_remainder().iter_mut().zip(tail) {
        *value = bit;
    }
}

impl Morris {
    /// The observation, shape `[7, n]` for a board of `n` points: planes, one value per point,
    /// from the point of view of the player to move: 0 own men, 1 the opponent's men, 2 empty
    /// points, 3 own men in hand as a fraction of the men per side (the same on every point),
    /// 4 the opponent's men in hand likewise, 5 all ones while the player is choosing men to
    /// take (after a mill, or Shah's opening removal), 6 the point the turn's man arrived on
    /// while choosing men to take.
    pub(crate) fn observe(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32]) {
        // The 24-point boards with the plane length known at compile time: the compiler then
        // writes each plane in a few wide stores (envs write an observation at every step).
        if let Ok(planes) = <&mut [[f32; 24]; PLANES]>::try_from(out.as_chunks_mut::<24>().0) {
            if self.board().point_count() == 24 {
                return self.observe_planes(pos, stage, planes);
            }
        }
        self.observe_planes_of(pos, stage, out, self.board().point_count());
    }

    #[inline(always)]
    fn observe_planes<const N: usize>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        planes: &mut [[f32; N]; PLANES],
    ) {
        self.observe_planes_of(pos, stage, planes.as_flattened_mut(), N);
    }

    #[inline(always)]
    fn observe_planes_of(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32], n: usize) {
        let us = pos.side_to_move();
        let empty = self.board().all_points().without(pos.occupied());
        let mut planes = out[..PLANES * n].chunks_exact_mut(n);
        for bits in [pos.men(us), pos.men(!us), empty] {
            if let Some(plane) = planes.next() {
                write_bits(plane, bits.0);
            }
        }
        let men = f32::from(self.rules().men);
        let (removing, arrived) = match stage {
            Stage::Removing { base, .. } => (true, base.to()),
            Stage::Start => (pos.opening_removal_pending(), None),
        };
        let fills = [
            f32::from(pos.in_hand(us)) / men,
            f32::from(pos.in_hand(!us)) / men,
            f32::from(u8::from(removing)),
        ];
        for fill in fills {
            if let Some(plane) = planes.next() {
                plane.fill(fill);
            }
        }
        if let Some(plane) = planes.next() {
            match arrived {
                Some(point) => write_bits(plane, 1 << point),
                // Outside a removal (nearly always), no table look-ups.
                None => plane.fill(0.0),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::{ActionGame, ActionStep};
    use crate::{Game, GameState, SplitMix64};

    /// The stages of `pos`: the start of the turn, and the removal stages its actions reach.
    fn stages(game: &Morris, pos: &MorrisPosition) -> Vec<Stage> {
        let mut stages = vec![Stage::Start];
        game.for_each_action_step(pos, &Stage::Start, |_, step| {
            if let ActionStep::Continue(next) = step {
                stages.push(next);
            }
        });
        stages
    }

    #[test]
    fn the_24_point_observation_is_the_general_one() {
        for id in ["nine_mens_morris", "twelve_mens_morris", "lasker_morris"] {
            let game = Morris::preset(id).unwrap();
            let len = PLANES * 24;
            let mut rng = SplitMix64::new(0x6f62_7365);
            for _ in 0..10 {
                let mut state = GameState::new(game);
                while !state.is_over() && state.ply() < 150 {
                    let pos = *state.position();
                    for stage in stages(&game, &pos) {
                        let (mut fast, mut general) = (vec![9.0; len], vec![7.0; len]);
                        game.observe(&pos, &stage, &mut fast);
                        game.observe_planes_of(&pos, &stage, &mut general, 24);
                        assert_eq!(fast, general, "{id} {stage:?} {}", game.fen(&pos, 0));
                    }
                    let moves = state.legal_moves();
                    let pick = rng.below(moves.len()).unwrap();
                    state.play(&moves[pick]).unwrap();
                }
            }
        }
    }

    #[test]
    fn planes_after_one_placement_are_seen_from_the_side_to_move() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let start = game.start_position();
        let d6 = game.parse_move(&start, "d6").unwrap();
        let pos = game.play(&start, &d6);
        let point = usize::from(d6.to().unwrap());
        let mut out = vec![9.0; PLANES * 24];
        game.observe(&pos, &Stage::Start, &mut out);
        let plane = |p: usize| &out[24 * p..24 * (p + 1)];
        let only_d6: Vec<f32> = (0..24).map(|i| f32::from(u8::from(i == point))).collect();
        let all_but_d6: Vec<f32> = only_d6.iter().map(|v| 1.0 - v).collect();
        assert_eq!(
            plane(0),
            [0.0; 24],
            "Black, to move, has no man on the board"
        );
        assert_eq!(plane(1), only_d6.as_slice());
        assert_eq!(plane(2), all_but_d6.as_slice());
        assert_eq!(plane(3), [1.0; 24], "nine of nine in hand");
        assert_eq!(plane(4), [8.0 / 9.0; 24]);
        assert_eq!(plane(5), [0.0; 24]);
        assert_eq!(plane(6), [0.0; 24]);
    }

    #[test]
    fn at_a_removal_the_last_planes_show_it_and_the_arriving_man() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let mut pos = game.start_position();
        for text in ["a7", "a1", "d7", "d1"] {
            let mv = game.parse_move(&pos, text).unwrap();
            pos = game.play(&pos, &mv);
        }
        let g7 = game.board().point("g7").unwrap();
        let step = game
            .apply_action(&pos, &Stage::Start, usize::from(g7))
            .unwrap();
        let ActionStep::Continue(stage) = step else {
            panic!("g7 closes a mill: {step:?}");
        };
        let mut out = vec![9.0; PLANES * 24];
        game.observe(&pos, &stage, &mut out);
        let only_g7: Vec<f32> = (0..24).map(|i| f32::from(u8::from(i == g7))).collect();
        assert_eq!(&out[24 * 5..24 * 6], [1.0; 24]);
        assert_eq!(&out[24 * 6..], only_g7.as_slice());
    }
}
