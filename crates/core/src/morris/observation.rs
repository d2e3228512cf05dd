//! The morris observation tensor.

use super::board::MAX_POINTS;
use super::stage::Stage;
use super::{Morris, MorrisPosition};
#[cfg(target_arch = "x86_64")]
use crate::simd;

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

/// Each byte's eight bits as eight bytes 0 or 1, lowest bit first, read as a little-endian word.
const SPREAD_BYTES: [u64; 256] = crate::bitboard::spread_bytes(8);

/// The 24 bits of `bits` as 24 bytes 0 or 1, lowest bit first, in three little-endian words.
#[inline(always)]
fn spread_24(bits: u32) -> [u64; 3] {
    [0, 8, 16].map(|shift| SPREAD_BYTES[((bits >> shift) & 0xff) as usize])
}

/// Writes bit `i` of `bits` as 0 or 1 into `plane[i]`, eight at a time.
#[inline]
fn write_bit_bytes(plane: &mut [u8], bits: u32) {
    let mut rest = u64::from(bits);
    let mut octets = plane.chunks_exact_mut(8);
    for octet in &mut octets {
        octet.copy_from_slice(&SPREAD_BYTES[(rest & 0xff) as usize].to_le_bytes());
        rest >>= 8;
    }
    let tail = SPREAD_BYTES[(rest & 0xff) as usize].to_le_bytes();
    let remainder = octets.into_remainder();
    let len = remainder.len();
    remainder.copy_from_slice(&tail[..len]);
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
                if simd::has_avx512f() {
                    let (bits, fills, arrived) = self.plane_floats(pos, stage);
                    // SAFETY: the CPU has AVX-512F, checked just now.
                    return unsafe { simd::write_planes_24_avx512(planes, bits, fills, arrived) };
                }
                return self.observe_planes(pos, stage, planes);
            }
        }
        self.observe_planes_of(pos, stage, out, self.board().point_count());
    }

    /// [`Morris::observe`] in bytes, a quarter of the size: the same planes with 0 and 1 for
    /// 0.0 and 1.0, except planes 3 and 4, the men in hand, which hold their number (0 to the
    /// men per side) rather than its fraction of the men per side.
    pub(crate) fn observe_bytes(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [u8]) {
        let (bits, counts, arrived) = self.plane_values(pos, stage);
        let n = self.board().point_count();
        // The 24-point boards: the 168 bytes as 21 words made in registers, so that they go
        // out in a few wide stores (envs write an observation at every step).
        if let (24, Some(out)) = (n, out.first_chunk_mut::<{ PLANES * 24 }>()) {
            let fill = |count: u8| u64::from(count) * 0x0101_0101_0101_0101;
            let [own, theirs, empty] = bits.map(spread_24);
            let [own_hand, their_hand, removing] = counts.map(|c| [fill(c); 3]);
            let arrived = if arrived == 0 {
                [0; 3]
            } else {
                spread_24(arrived)
            };
            let words = [own, theirs, empty, own_hand, their_hand, removing, arrived];
            for (out, word) in out
                .as_chunks_mut::<8>()
                .0
                .iter_mut()
                .zip(words.as_flattened())
            {
                *out = word.to_le_bytes();
            }
            return;
        }
        write_planes(
            &mut out[..PLANES * n],
            n,
            (bits, counts, arrived),
            write_bit_bytes,
        );
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

    /// What the planes show: the bits of planes 0 to 2, the counts behind planes 3 to 5 (the
    /// men in hand of each side, and 1 while choosing men to take) and the bits of plane 6.
    #[inline(always)]
    fn plane_values(&self, pos: &MorrisPosition, stage: &Stage) -> ([u32; 3], [u8; 3], u32) {
        let us = pos.side_to_move();
        let empty = self.board().all_points().without(pos.occupied());
        let (removing, arrived) = match stage {
            Stage::Removing { base, .. } => (true, base.to()),
            Stage::Start => (pos.opening_removal_pending(), None),
        };
        (
            [pos.men(us).0, pos.men(!us).0, empty.0],
            [pos.in_hand(us), pos.in_hand(!us), u8::from(removing)],
            arrived.map_or(0, |point| crate::Bitboard::from_index(point).0),
        )
    }

    /// [`Morris::plane_values`] with the values of planes 3 to 5 as the float observation
    /// shows them: the men in hand as fractions of the men per side.
    #[inline(always)]
    fn plane_floats(&self, pos: &MorrisPosition, stage: &Stage) -> ([u32; 3], [f32; 3], u32) {
        let (bits, [own, theirs, removing], arrived) = self.plane_values(pos, stage);
        let men = self.rules().men;
        (
            bits,
            [
                hand_fraction(own, men),
                hand_fraction(theirs, men),
                f32::from(removing),
            ],
            arrived,
        )
    }

    #[inline(always)]
    fn observe_planes_of(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32], n: usize) {
        let values = self.plane_floats(pos, stage);
        write_planes(&mut out[..PLANES * n], n, values, write_bits);
    }
}

/// Writes the planes of `n` values each into `out`: the bits of planes 0 to 2 and 6 by
/// `write_bits`, the values of planes 3 to 5 on every point.
#[inline(always)]
fn write_planes<V: Copy + Default>(
    out: &mut [V],
    n: usize,
    (bits, fills, arrived): ([u32; 3], [V; 3], u32),
    write_bits: fn(&mut [V], u32),
) {
    let mut planes = out.chunks_exact_mut(n);
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
            plane.fill(V::default());
        } else {
            write_bits(plane, arrived);
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
                        if simd::cpu_has_avx512f() {
                            let mut planes = [[3.0; 24]; PLANES];
                            let (bits, fills, arrived) = game.plane_floats(&pos, &stage);
                            // SAFETY: the CPU has the features, checked just above.
                            unsafe {
                                simd::write_planes_24_avx512(&mut planes, bits, fills, arrived)
                            };
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

    /// The byte observation is the float one with the men in hand counted, on every board
    /// (the 24-point boards take their own path).
    #[test]
    fn byte_observations_are_the_float_ones_with_hands_counted() {
        for id in [
            "three_mens_morris",
            "six_mens_morris",
            "nine_mens_morris",
            "twelve_mens_morris",
            "lasker_morris",
            "morabaraba",
        ] {
            let game = Morris::preset(id).unwrap();
            let n = game.board().point_count();
            let men = f32::from(game.rules().men);
            let mut rng = SplitMix64::new(0x6279_7465);
            for _ in 0..6 {
                let mut state = GameState::new(game);
                while !state.is_over() && state.ply() < 120 {
                    let pos = *state.position();
                    for stage in stages(&game, &pos) {
                        let (mut floats, mut bytes) = (vec![9.0; PLANES * n], vec![9; PLANES * n]);
                        game.observe(&pos, &stage, &mut floats);
                        game.observe_bytes(&pos, &stage, &mut bytes);
                        let want: Vec<u8> = floats
                            .iter()
                            .enumerate()
                            .map(|(i, &v)| match i / n {
                                3 | 4 => (v * men).round() as u8,
                                _ => v as u8,
                            })
                            .collect();
                        assert_eq!(bytes, want, "{id} {stage:?} {}", game.fen(&pos, 0));
                        assert!(bytes.iter().all(|&b| b <= game.rules().men));
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
