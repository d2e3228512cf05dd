//! The morris observation tensor.

use super::actions::Stage;
use super::board::MAX_POINTS;
use super::{Morris, MorrisPosition};

/// Planes of the observation, each with one value per point.
pub(crate) const PLANES: usize = 7;

/// `HAND_FRACTIONS[men][hand]` is `hand / men` as [`Morris::observe`] shows men in hand: the
/// same division, done once here (envs write an observation at every step, and the division's
/// latency held up the stores of the planes).
const HAND_FRACTIONS: [[f32; MAX_POINTS + 1]; MAX_POINTS + 1] = {
    let mut table = [[0.0; MAX_POINTS + 1]; MAX_POINTS + 1];
    let mut men = 1;
    while men <= MAX_POINTS {
        let mut hand = 0;
        while hand <= MAX_POINTS {
            table[men][hand] = hand as f32 / men as f32;
            hand += 1;
        }
        men += 1;
    }
    table
};

/// `hand / men` as a value of the observation.
#[inline(always)]
fn hand_fraction(hand: u8, men: u8) -> f32 {
    // (No men per side is refused by the rules; its row would not be the division's NaN.)
    match HAND_FRACTIONS
        .get(usize::from(men))
        .filter(|_| men > 0)
        .and_then(|row| row.get(usize::from(hand)))
    {
        Some(&fraction) => fraction,
        None => f32::from(hand) / f32::from(men),
    }
}

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

/// Whether the CPU has what [`write_planes_24_avx512`] needs (std caches the answers, so each
/// check is a load and a test).
#[cfg(target_arch = "x86_64")]
fn has_avx512_planes() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// Writes the 24-point observation: `bits` as planes 0 to 2, `fills` as planes 3 to 5, and
/// `arrived` as plane 6. The 168 values are written as ten and a half vectors of 16 end to
/// end, whatever planes each holds (so 11 stores, where a plane at a time takes 21): the bit
/// planes' values as masked moves of ones, the fills as broadcasts, blended where a vector
/// holds the end of one plane and the start of the next.
///
/// # Safety
///
/// The CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn write_planes_24_avx512(
    planes: &mut [[f32; 24]; PLANES],
    bits: [u32; 3],
    fills: [f32; 3],
    arrived: u32,
) {
    use std::arch::x86_64::{
        _mm512_mask_blend_ps, _mm512_mask_storeu_ps, _mm512_maskz_mov_ps, _mm512_set1_ps,
        _mm512_storeu_ps,
    };
    const { assert!(PLANES == 7) };
    let out = planes.as_flattened_mut().as_mut_ptr();
    // Values 0..64 are planes 0 and 1 and the start of plane 2, as bits.
    let head = u64::from(bits[0]) | u64::from(bits[1]) << 24 | u64::from(bits[2]) << 48;
    let ones = |lanes: u64| _mm512_maskz_mov_ps(lanes as u16, _mm512_set1_ps(1.0));
    let [own, theirs, removing] = fills.map(|fill| _mm512_set1_ps(fill));
    // Lanes 8..16 of a vector: the second of two planes that meet in its middle.
    const SECOND_HALF: u16 = 0xff00;
    let vectors = [
        ones(head),
        ones(head >> 16),
        ones(head >> 32),
        ones(head >> 48),
        // The end of plane 2 (values 64..72), then plane 3 begins.
        _mm512_mask_blend_ps(SECOND_HALF, ones(u64::from(bits[2] >> 16)), own),
        own,
        theirs,
        // The end of plane 4 (112..120), then plane 5 begins.
        _mm512_mask_blend_ps(SECOND_HALF, theirs, removing),
        removing,
        ones(u64::from(arrived)),
    ];
    // SAFETY: the ten stores write values 16 * i .. 16 * i + 16 for i in 0..10, and the masked
    // store values 160..168 alone: all within the 168 values of `planes` (unaligned stores
    // are allowed; a masked store touches no byte outside its mask). The CPU feature is the
    // caller's promise. Tested against the general observation
    // (`the_24_point_observation_is_the_general_one`).
    unsafe {
        for (i, vector) in vectors.into_iter().enumerate() {
            _mm512_storeu_ps(out.add(16 * i), vector);
        }
        _mm512_mask_storeu_ps(out.add(160), 0xff, ones(u64::from(arrived >> 16)));
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
                #[cfg(target_arch = "x86_64")]
                if has_avx512_planes() {
                    let (bits, fills, arrived) = self.plane_values(pos, stage);
                    // SAFETY: the CPU has AVX-512F, checked just now.
                    return unsafe { write_planes_24_avx512(planes, bits, fills, arrived) };
                }
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

    /// What the planes show: the bits of planes 0 to 2, the values of planes 3 to 5 and the
    /// bits of plane 6.
    #[inline(always)]
    fn plane_values(&self, pos: &MorrisPosition, stage: &Stage) -> ([u32; 3], [f32; 3], u32) {
        let us = pos.side_to_move();
        let empty = self.board().all_points().without(pos.occupied());
        let men = self.rules().men;
        let (removing, arrived) = match stage {
            Stage::Removing { base, .. } => (true, base.to()),
            Stage::Start => (pos.opening_removal_pending(), None),
        };
        (
            [pos.men(us).0, pos.men(!us).0, empty.0],
            [
                hand_fraction(pos.in_hand(us), men),
                hand_fraction(pos.in_hand(!us), men),
                f32::from(u8::from(removing)),
            ],
            arrived.map_or(0, |point| 1 << point),
        )
    }

    #[inline(always)]
    fn observe_planes_of(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32], n: usize) {
        let (bits, fills, arrived) = self.plane_values(pos, stage);
        let mut planes = out[..PLANES * n].chunks_exact_mut(n);
        // The values first: a zip takes its first iterator's next item before it finds the
        // second one ended.
        for (bits, plane) in bits.into_iter().zip(planes.by_ref()) {
            write_bits(plane, bits);
        }
        for (fill, plane) in fills.into_iter().zip(planes.by_ref()) {
            plane.fill(fill);
        }
        if let Some(plane) = planes.next() {
            // Outside a removal (nearly always), no table look-ups.
            if arrived == 0 {
                plane.fill(0.0);
            } else {
                write_bits(plane, arrived);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::{ActionGame, ActionStep};
    use crate::{Game, GameState, SplitMix64};

    #[test]
    fn hand_fractions_are_the_division() {
        for men in 0..=30u8 {
            for hand in 0..=men {
                let want = f32::from(hand) / f32::from(men);
                assert_eq!(
                    hand_fraction(hand, men).to_bits(),
                    want.to_bits(),
                    "{hand}/{men}"
                );
            }
        }
    }

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
                        // Each path that `observe` may take, whatever this CPU has.
                        let mut planes = [[5.0; 24]; PLANES];
                        game.observe_planes(&pos, &stage, &mut planes);
                        assert_eq!(planes.as_flattened(), general.as_slice(), "plain path");
                        #[cfg(target_arch = "x86_64")]
                        if has_avx512_planes() {
                            let mut planes = [[3.0; 24]; PLANES];
                            let (bits, fills, arrived) = game.plane_values(&pos, &stage);
                            // SAFETY: the CPU has the features, checked just above.
                            unsafe { write_planes_24_avx512(&mut planes, bits, fills, arrived) };
                            assert_eq!(planes.as_flattened(), general.as_slice(), "AVX-512");
                        }
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
