//! Retrograde generation: the positions whose quiet move (a step that neither captures nor
//! crowns) leads to a position, for solvers that work backwards from the end of the game.

use super::geometry::Dir;
use super::position::CheckersPosition;
use super::Checkers;
use crate::{Bitboard, Color};

/// No neighbour in that direction.
const NONE: u8 = u8::MAX;

/// Diagonal directions, as indices of [`NEIGHBOURS`]: towards square 1 (north) first.
const NORTH: [usize; 2] = [0, 1];
const SOUTH: [usize; 2] = [2, 3];
const ALL: [usize; 4] = [0, 1, 2, 3];

/// The neighbour of each square (bit) to the north-west, north-east, south-west and
/// south-east, or [`NONE`]: an unmove reads where a piece came from instead of shifting a
/// bit and testing what is left.
static NEIGHBOURS: [[u8; 4]; 32] = neighbours();

const fn neighbours() -> [[u8; 4]; 32] {
    let dirs = [
        Dir::NorthWest,
        Dir::NorthEast,
        Dir::SouthWest,
        Dir::SouthEast,
    ];
    let mut table = [[NONE; 4]; 32];
    let mut square = 0;
    while square < 32 {
        let mut d = 0;
        while d < 4 {
            let next = dirs[d].step(1 << square);
            if next != 0 {
                table[square][d] = next.trailing_zeros() as u8;
            }
            d += 1;
        }
        square += 1;
    }
    table
}

impl Checkers {
    /// Calls `visit` with every position from which a quiet move leads to `pos`, once per
    /// such move: a man's step forward or a king's step, by the side that is not to move in
    /// `pos`, from a position where that side had no capture where capturing is compulsory
    /// (from any position where it is not: [`super::CheckersRules::mandatory_capture`]).
    /// Captures and crowning change the material and are left out: a retrograde solver
    /// reaches those positions from the smaller material's tables instead.
    ///
    /// ```
    /// use perfectplay_core::checkers::Checkers;
    /// use perfectplay_core::Game;
    ///
    /// let game = Checkers::default();
    /// let start = game.start_position();
    /// // Each of Black's seven opening moves unmoves back to the start.
    /// let mut moves = 0;
    /// game.for_each_move(&start, |mv| {
    ///     let after = game.play(&start, mv);
    ///     let mut back = 0;
    ///     game.for_each_quiet_predecessor(&after, |q| back += usize::from(*q == start));
    ///     assert_eq!(back, 1);
    ///     moves += 1;
    /// });
    /// assert_eq!(moves, 7);
    /// ```
    pub fn for_each_quiet_predecessor<F: FnMut(&CheckersPosition)>(
        &self,
        pos: &CheckersPosition,
        mut visit: F,
    ) {
        let mandatory = self.rules.mandatory_capture;
        let last = !pos.side_to_move();
        let empty = !pos.occupied().0;
        let men = pos.men(last).0;
        // The side that just moved went north (White) or south (Black): its men came from the
        // other way.
        let back = match last {
            Color::White => SOUTH,
            Color::Black => NORTH,
        };
        let mut unmove = |to: u32, dirs: &[usize], king: bool| {
            for &d in dirs {
                let from = NEIGHBOURS[to as usize][d];
                if from == NONE || empty & (1 << from) == 0 {
                    continue;
                }
                let (to_bit, from_bit) = (1u32 << to, 1u32 << from);
                let moved = (pos.pieces(last).0 & !to_bit) | from_bit;
                let kings = if king {
                    (pos.kings(Color::Black).0 | pos.kings(Color::White).0) & !to_bit | from_bit
                } else {
                    pos.kings(Color::Black).0 | pos.kings(Color::White).0
                };
                let (black, white) = match last {
                    Color::Black => (moved, pos.pieces(Color::White).0),
                    Color::White => (pos.pieces(Color::Black).0, moved),
                };
                let Ok(before) = CheckersPosition::from_parts(
                    Bitboard(black),
                    Bitboard(white),
                    Bitboard(kings),
                    last,
                ) else {
                    continue;
                };
                // Where capturing is compulsory a quiet turn was only legal with no capture on.
                if !mandatory || !before.must_capture() {
                    visit(&before);
                }
            }
        };
        for to in Bitboard(men).indices() {
            unmove(u32::from(to), &back, false);
        }
        for to in pos.kings(last).indices() {
            unmove(u32::from(to), &ALL, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::checkers::{CheckersMove, Square};
    use crate::{Game, SplitMix64};

    #[test]
    fn the_neighbours_are_the_diagonal_steps_on_the_diagram() {
        for from in Square::all() {
            for (d, (dr, dc)) in [(-1i8, -1i8), (-1, 1), (1, -1), (1, 1)]
                .into_iter()
                .enumerate()
            {
                let (r, c) = (from.row() as i8 + dr, from.column() as i8 + dc);
                let want = Square::all()
                    .find(|s| s.row() as i8 == r && s.column() as i8 == c)
                    .map_or(NONE, Square::index);
                assert_eq!(NEIGHBOURS[usize::from(from.index())][d], want, "{from} {d}");
            }
        }
    }

    /// Whether `mv` from `pos` keeps the material: no capture and no crowning.
    fn is_quiet(game: &Checkers, pos: &CheckersPosition, mv: &CheckersMove) -> bool {
        let after = game.play(pos, mv);
        let kings =
            |p: &CheckersPosition| p.kings(Color::Black).count() + p.kings(Color::White).count();
        !mv.is_capture() && kings(&after) == kings(pos)
    }

    /// Positions along random games, kings and all, each game until it ends.
    fn positions_of_random_games(game: &Checkers, games: usize) -> Vec<CheckersPosition> {
        let mut rng = SplitMix64::new(5);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = game.start_position();
            for _ in 0..200 {
                out.push(pos);
                let mut moves = Vec::new();
                game.for_each_move(&pos, |mv| moves.push(*mv));
                if moves.is_empty() {
                    break;
                }
                pos = game.play(&pos, &moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn quiet_predecessors_are_exactly_the_positions_whose_quiet_moves_lead_here() {
        check_quiet_predecessors(&Checkers::default());
    }

    #[test]
    fn quiet_predecessors_in_the_basic_game_may_have_had_a_capture() {
        for (mandatory_capture, complete_jumps) in [(false, false), (false, true), (true, false)] {
            let game = Checkers::new(crate::checkers::CheckersRules {
                mandatory_capture,
                complete_jumps,
                ..Default::default()
            });
            check_quiet_predecessors(&game);
        }
        // A quiet unmove into a position with a capture on: legal only in the basic game.
        let after: CheckersPosition = "W:W18:B14,9".parse().unwrap();
        let before: CheckersPosition = "B:W18:B14,5".parse().unwrap();
        assert!(before.must_capture());
        let found = |game: &Checkers| {
            let mut n = 0;
            game.for_each_quiet_predecessor(&after, |q| n += usize::from(*q == before));
            n
        };
        let basic = Checkers::new(crate::checkers::CheckersRules {
            mandatory_capture: false,
            ..Default::default()
        });
        assert_eq!((found(&Checkers::default()), found(&basic)), (0, 1));
    }

    fn check_quiet_predecessors(game: &Checkers) {
        let game = *game;
        let sampled: HashSet<CheckersPosition> =
            positions_of_random_games(&game, 40).into_iter().collect();
        let mut forward = HashSet::new();
        let mut backward = HashSet::new();
        for pos in &sampled {
            game.for_each_move(pos, |mv| {
                let after = game.play(pos, mv);
                if is_quiet(&game, pos, mv) && sampled.contains(&after) {
                    forward.insert((*pos, after));
                }
            });
            game.for_each_quiet_predecessor(pos, |q| {
                // Each predecessor reaches `pos` by exactly one legal quiet move.
                let mut ways = 0;
                game.for_each_move(q, |mv| {
                    ways += usize::from(is_quiet(&game, q, mv) && game.play(q, mv) == *pos);
                });
                assert_eq!(ways, 1, "{q:?} -> {pos:?}");
                if sampled.contains(q) {
                    assert!(backward.insert((*q, *pos)), "{q:?} found twice");
                }
            });
        }
        // Every quiet move between sampled positions is found backwards too.
        assert!(
            forward == backward,
            "{} forwards, {} backwards",
            forward.len(),
            backward.len()
        );
        assert!(forward.len() > 1000, "{}", forward.len());
    }
}
