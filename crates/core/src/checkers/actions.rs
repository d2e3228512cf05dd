//! The checkers action space for reinforcement learning: one action per step, a capture being
//! one action per jump, and the observation tensor.
//!
//! There are 128 actions: `4 * s + d` moves the piece on square index `s` (square number
//! `s + 1`) in direction `d` (0 north-west, 1 north-east, 2 south-west, 3 south-east, north
//! being towards square 1, Black's side), one square for a simple move or over the neighbour for
//! a jump. A capture of several pieces is one action per jump by the same player, the piece
//! being fixed after the first; [`Stage`] records the jumps made so far. Actions are absolute
//! (the same for both colours); observations are seen from the player to move.
//!
//! Where a capture may stop part way ([`super::CheckersRules::complete_jumps`] off) there is a
//! 129th action, [`STOP`] (`stop`): legal after a jump from which the piece could jump on, it ends
//! the turn there. A jump after which the piece cannot go on (none left to take, or a man
//! crowned) ends the turn by itself, as in the standard game, so a whole capture takes the same
//! actions under both rules. Where capturing is optional
//! ([`super::CheckersRules::mandatory_capture`] off) a turn may begin with a step or a jump, each
//! the action of its piece and direction (a piece's step and jump one way never coexist: the
//! square beside it holds an enemy or nothing). The observation needs no more than the standard
//! game's: the fifth plane shows the piece in the middle of a capture, and the rules are the
//! game's.

use super::geometry::Dir;
use super::{Checkers, CheckersMove, CheckersPosition, CheckersRules, Square};
use crate::rl::{ActionGame, ActionStep};
use crate::Bitboard;

const DIRS: [Dir; 4] = [
    Dir::NorthWest,
    Dir::NorthEast,
    Dir::SouthWest,
    Dir::SouthEast,
];

/// The action that ends a capture part way, where the rules allow it
/// ([`CheckersRules::complete_jumps`] off): one past the 128 moving actions.
pub const STOP: usize = 128;

/// Where the player to move is within a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Stage {
    /// Nothing chosen yet.
    #[default]
    Start,
    /// Part of a capture is made: the piece from `from` has landed on `landings` (in order).
    Jumping {
        /// Where the capturing piece started.
        from: Square,
        /// The landing squares so far, 5 bits each, first in the lowest bits.
        landings: u64,
        /// How many jumps are made.
        jumps: u8,
    },
}

impl Stage {
    /// Where the capturing piece stands now, while jumping.
    ///
    /// # Panics
    ///
    /// In debug builds, if the stage is [`Stage::Jumping`] with `jumps` 0 or above 13 (the
    /// arithmetic overflows); release builds return an arbitrary square then.
    #[must_use]
    pub fn current_square(&self) -> Option<Square> {
        match *self {
            Stage::Start => None,
            Stage::Jumping {
                landings, jumps, ..
            } => Some(Square::from_bit(
                (landings >> (5 * u32::from(jumps - 1))) as u8 & 31,
            )),
        }
    }
}

/// Each byte's bits spread four apart: bit `j` of the byte becomes bit `4 * j`.
const SPREAD_BY_FOUR: [u64; 256] = crate::bitboard::spread_bytes(4);

/// The direction of the step (one square) or jump (two) from `a` to `b`.
fn direction(a: Square, b: Square) -> Option<usize> {
    let (a, b) = (a.bitboard().0, b.bitboard().0);
    DIRS.iter()
        .position(|d| d.step(a) == b || d.step(d.step(a)) == b)
}

fn action(from: Square, to: Square) -> usize {
    4 * usize::from(from.index()) + direction(from, to).unwrap_or(0)
}

/// The squares the move visits, start included.
fn trail(mv: &CheckersMove) -> impl Iterator<Item = Square> + '_ {
    std::iter::once(mv.from()).chain(mv.landings())
}

/// Whether `mv` is a capture from `from` whose first `jumps` landings are `landings`.
fn extends(mv: &CheckersMove, from: Square, landings: u64, jumps: u8) -> bool {
    mv.from() == from
        && mv.jump_count() > usize::from(jumps)
        && mv
            .landings()
            .take(usize::from(jumps))
            .enumerate()
            .all(|(i, sq)| u64::from(sq.index()) == (landings >> (5 * i)) & 31)
}

impl Checkers {
    /// Whether a capture may stop part way: the action space has [`STOP`].
    #[inline]
    fn may_stop(&self) -> bool {
        !self.rules().complete_jumps
    }

    /// The rules with every capture completed: the moves whose steps are the actions (a capture
    /// stopped part way is the [`STOP`] action after some of them).
    #[inline]
    fn whole_captures(&self) -> CheckersRules {
        CheckersRules {
            complete_jumps: true,
            ..*self.rules()
        }
    }

    /// The name of `action` without a position: the piece's square and the square one step
    /// in the action's direction (`11-15`); `stop` for [`STOP`] where the rules have it; `None`
    /// where the step leaves the board or the number is past the actions. In a position the
    /// same action is a jump (`11x18`) where an enemy piece stands on that square.
    #[must_use]
    pub fn action_name(&self, action: usize) -> Option<String> {
        if action == STOP && self.may_stop() {
            return Some("stop".to_owned());
        }
        if action >= 128 {
            return None;
        }
        let from = Square::from_bit((action / 4) as u8);
        let to = DIRS[action % 4].step(from.bitboard().0);
        let to = Square::new(Bitboard(to).lowest_index()?)?;
        Some(format!("{from}-{to}"))
    }

    /// The action a step or a jump names, without a position: `11-15` and `11x18` both name
    /// the piece on 11 going towards 15. `None` for text that names no action (squares that
    /// are not one step or one jump apart, numbers off the board, other text).
    #[must_use]
    pub fn parse_action(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        if self.may_stop() && text.eq_ignore_ascii_case("stop") {
            return Some(STOP);
        }
        let (from, to) = text.split_once(['-', 'x', 'X'])?;
        let square = |t: &str| Square::from_number(t.trim().parse().ok()?);
        let (from, to) = (square(from)?, square(to)?);
        let dir = direction(from, to)?;
        let jump = DIRS[dir].step(DIRS[dir].step(from.bitboard().0)) == to.bitboard().0;
        // A jump is written with `x`, a step with `-`: `11x15` names nothing.
        let written_as_jump = text.contains(['x', 'X']);
        (jump == written_as_jump).then_some(4 * usize::from(from.index()) + dir)
    }
}

impl ActionGame for Checkers {
    type Stage = Stage;

    fn action_count(&self) -> usize {
        128 + usize::from(self.may_stop())
    }

    fn for_each_action_step<F: FnMut(usize, ActionStep<Stage, CheckersMove>)>(
        &self,
        pos: &CheckersPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        let (landings, jumps) = match *stage {
            Stage::Start => (0, 0),
            Stage::Jumping {
                landings, jumps, ..
            } => (landings, jumps),
        };
        let mut stop = None;
        pos.for_each_move_under(&self.whole_captures(), |mv| {
            if let Stage::Jumping { from, .. } = *stage {
                if !extends(mv, from, landings, jumps) {
                    return;
                }
                if stop.is_none() && self.may_stop() {
                    stop = Some(mv.prefix(usize::from(jumps)));
                }
            }
            let mut squares = trail(mv).skip(usize::from(jumps));
            let (Some(here), Some(next)) = (squares.next(), squares.next()) else {
                return;
            };
            let step = if mv.jump_count() <= usize::from(jumps) + 1 {
                ActionStep::Done(*mv)
            } else {
                let landings = landings | (u64::from(next.index()) << (5 * u32::from(jumps)));
                ActionStep::Continue(Stage::Jumping {
                    from: mv.from(),
                    landings,
                    jumps: jumps + 1,
                })
            };
            visit(action(here, next), step);
        });
        if let Some(mv) = stop {
            visit(STOP, ActionStep::Done(mv));
        }
    }

    /// At the start of a turn, the first steps (or first jumps) in each direction as bit
    /// groups, found with shifts; within a capture, one group per action.
    fn for_each_legal_action_group<F: FnMut(usize, u64)>(
        &self,
        pos: &CheckersPosition,
        stage: &Stage,
        mut visit: F,
    ) {
        if *stage != Stage::Start {
            self.for_each_action_step(pos, stage, |a, _| visit(a, 1));
            return;
        }
        let squares = pos.first_steps(DIRS, self.rules().mandatory_capture);
        let mut words = [0u64; 2];
        for (dir, &from) in squares.iter().enumerate() {
            // Action 4 * square + direction: the squares spread four bits apart.
            for (k, word) in words.iter_mut().enumerate() {
                let half = from >> (16 * k);
                let spread = SPREAD_BY_FOUR[(half & 0xff) as usize]
                    | SPREAD_BY_FOUR[(half >> 8 & 0xff) as usize] << 32;
                *word |= spread << dir;
            }
        }
        visit(0, words[0]);
        visit(64, words[1]);
    }

    /// At the start of a turn, a step (no capture on, or capturing optional and no enemy piece
    /// beside) is the simple move itself; a jump's step (the whole capture, or the stage after
    /// its first jump) is looked for among the captures.
    fn legal_action_step(
        &self,
        pos: &CheckersPosition,
        stage: &Stage,
        action: usize,
    ) -> Option<ActionStep<Stage, CheckersMove>> {
        if *stage == Stage::Start && action < 128 {
            let from = Square::new(u8::try_from(action / 4).ok()?)?;
            let to = DIRS.get(action % 4)?.step(from.bitboard().0);
            let stepping = !pos.must_capture()
                || (!self.rules().mandatory_capture
                    && !pos.pieces(!pos.side_to_move()).intersects(Bitboard(to)));
            if stepping {
                let to = Square::new(Bitboard(to).lowest_index()?)?;
                return Some(ActionStep::Done(CheckersMove::quiet(from, to)));
            }
        }
        crate::rl::find_step(self, pos, stage, action)
    }

    /// One action per step or jump; a capture that stops where the piece could jump on ends
    /// with [`STOP`].
    fn turn_actions(&self, pos: &CheckersPosition, mv: &CheckersMove) -> Vec<usize> {
        let squares: Vec<Square> = trail(mv).collect();
        let mut actions: Vec<usize> = squares.windows(2).map(|w| action(w[0], w[1])).collect();
        if self.may_stop() && mv.is_capture() {
            let mut goes_on = false;
            pos.for_each_move_under(&self.whole_captures(), |whole| {
                goes_on |=
                    whole.jump_count() > mv.jump_count() && whole.prefix(mv.jump_count()) == *mv;
            });
            if goes_on {
                actions.push(STOP);
            }
        }
        actions
    }

    /// `11-15` for a step, `15x24` for a jump (over an enemy piece), `stop` for [`STOP`],
    /// `invalid` off the board.
    fn action_to_string(&self, pos: &CheckersPosition, stage: &Stage, action_id: usize) -> String {
        if action_id == STOP && self.may_stop() {
            return "stop".to_owned();
        }
        if action_id >= 128 {
            return "invalid".to_owned();
        }
        let from = Square::from_bit((action_id / 4) as u8);
        let dir = DIRS[action_id % 4];
        let over = dir.step(from.bitboard().0);
        if over == 0 {
            return "invalid".to_owned();
        }
        let enemy = pos.pieces(!pos.side_to_move()).0;
        let jumping = matches!(stage, Stage::Jumping { .. });
        if over & enemy != 0 || jumping {
            match Bitboard(dir.step(over)).lowest_index() {
                Some(to) => format!("{from}x{}", Square::from_bit(to)),
                None => "invalid".to_owned(),
            }
        } else {
            format!("{from}-{}", Square::from_bit(over.trailing_zeros() as u8))
        }
    }

    /// `[5, 8, 8]`: planes of own men, own kings, the opponent's men, the opponent's kings, and
    /// the piece in the middle of a capture; rows and columns of the 8x8 board turned so that
    /// the player to move plays up the board (row 7 is its own back row).
    fn observation_shape(&self) -> Vec<usize> {
        vec![5, 8, 8]
    }

    fn write_observation(&self, pos: &CheckersPosition, stage: &Stage, out: &mut [f32]) {
        write_planes(pos, stage, out, 1.0);
    }

    /// Every value is 0 or 1, as in the float observation.
    fn write_observation_bytes(&self, pos: &CheckersPosition, stage: &Stage, out: &mut [u8]) {
        write_planes(pos, stage, out, 1);
    }

    fn observation_byte_max(&self) -> u8 {
        1
    }
}

/// Writes the observation planes of `pos` at `stage` into `out`: `one` where a plane holds
/// the square, zero elsewhere.
fn write_planes<V: Copy + Default>(pos: &CheckersPosition, stage: &Stage, out: &mut [V], one: V) {
    let out = &mut out[..5 * 64];
    out.fill(V::default());
    let us = pos.side_to_move();
    // White already plays up the standard diagram; Black sees it turned half a turn.
    let cell = |sq: Square| {
        let (r, c) = (usize::from(sq.row()), usize::from(sq.column()));
        if us == crate::Color::White {
            8 * r + c
        } else {
            8 * (7 - r) + (7 - c)
        }
    };
    let planes = [pos.men(us), pos.kings(us), pos.men(!us), pos.kings(!us)];
    for (plane, set) in planes.iter().enumerate() {
        for index in set.indices() {
            out[64 * plane + cell(Square::from_bit(index))] = one;
        }
    }
    if let Some(sq) = stage.current_square() {
        out[64 * 4 + cell(sq)] = one;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::CheckersMoveList;
    use crate::{Color, Game};

    #[test]
    fn action_names_read_back_and_jumps_name_the_same_action() {
        let game = Checkers::default();
        let mut named = 0;
        for action in 0..130 {
            let Some(name) = game.action_name(action) else {
                continue;
            };
            named += 1;
            assert_eq!(game.parse_action(&name), Some(action), "{name}");
            // The jump in the same direction, where it stays on the board.
            let from = Square::from_bit((action / 4) as u8);
            let dir = DIRS[action % 4];
            if let Some(to) = Bitboard(dir.step(dir.step(from.bitboard().0))).lowest_index() {
                let jump = format!("{from}x{}", Square::from_bit(to));
                assert_eq!(game.parse_action(&jump), Some(action), "{jump}");
                let wrong = format!("{from}-{}", Square::from_bit(to));
                assert_eq!(game.parse_action(&wrong), None, "{wrong}");
            }
        }
        // Corner and edge squares have fewer than four neighbours.
        assert_eq!(named, 98);
        for text in ["", "11", "11-12", "11x15", "0-4", "33-29", "a-b", "11--15"] {
            assert_eq!(game.parse_action(text), None, "{text:?}");
        }
    }

    /// Every move reachable by following legal actions from the start of a turn.
    fn moves_by_actions(
        game: &Checkers,
        pos: &CheckersPosition,
        stage: Stage,
        out: &mut Vec<CheckersMove>,
    ) {
        for a in game.legal_actions(pos, &stage) {
            match game
                .apply_action(pos, &stage, a)
                .expect("a legal action applies")
            {
                ActionStep::Done(mv) => out.push(mv),
                ActionStep::Continue(next) => moves_by_actions(game, pos, next, out),
            }
        }
    }

    fn check(fen: &str) {
        check_under(&Checkers::default(), fen);
    }

    fn check_under(game: &Checkers, fen: &str) {
        let game = *game;
        let pos: CheckersPosition = fen.parse().unwrap();
        let mut legal = CheckersMoveList::new();
        game.generate_moves(&pos, &mut legal);
        let mut reached = Vec::new();
        moves_by_actions(&game, &pos, Stage::Start, &mut reached);
        let names = |v: &[CheckersMove]| {
            let mut n: Vec<String> = v.iter().map(ToString::to_string).collect();
            n.sort();
            n
        };
        assert_eq!(names(&reached), names(&legal), "{fen}");
        for mv in &legal {
            let mut stage = Stage::Start;
            let actions = game.turn_actions(&pos, mv);
            let stops = actions.iter().filter(|&&a| a == STOP).count();
            assert!(stops <= 1 && (stops == 0 || actions.last() == Some(&STOP)));
            assert_eq!(actions.len(), mv.jump_count().max(1) + stops);
            for (i, &a) in actions.iter().enumerate() {
                match game.apply_action(&pos, &stage, a).unwrap() {
                    ActionStep::Continue(next) => stage = next,
                    ActionStep::Done(done) => {
                        assert_eq!(i + 1, actions.len());
                        assert_eq!(done, *mv);
                    }
                }
            }
        }
    }

    #[test]
    fn action_paths_reach_exactly_the_legal_moves() {
        check("B:W21-32:B1-12");
        check("W:W21-32:B1-12");
        check("B:W14,15,22,23:BK10");
        check("W:W27:B23,14");
        check("B:W6,7,8,14,15,16,22,23,24:BK10");
        check("W:W14,15,22,23,25,27,K2:B5,6,9,10,12,18,19,K30");
    }

    #[test]
    fn byte_observations_are_the_float_ones() {
        let game = Checkers::default();
        for fen in [
            "B:W21-32:B1-12",
            "W:W27:B23,14",
            "W:W14,15,22,23,25,27,K2:B5,6,9,10,12,18,19,K30",
        ] {
            let pos: CheckersPosition = fen.parse().unwrap();
            let mut stages = vec![Stage::Start];
            game.for_each_action_step(&pos, &Stage::Start, |_, step| {
                if let ActionStep::Continue(next) = step {
                    stages.push(next);
                }
            });
            for stage in stages {
                let (mut floats, mut bytes) = ([7.0; 320], [7; 320]);
                game.write_observation(&pos, &stage, &mut floats);
                game.write_observation_bytes(&pos, &stage, &mut bytes);
                assert_eq!(bytes.map(f32::from), floats, "{fen} {stage:?}");
                assert!(bytes.iter().any(|&b| b == game.observation_byte_max()));
            }
        }
    }

    /// Every action of the groups at `stage`, ascending, once.
    fn grouped(game: &Checkers, pos: &CheckersPosition, stage: &Stage) -> Vec<usize> {
        let mut set = std::collections::BTreeSet::new();
        game.for_each_legal_action_group(pos, stage, |first, mut bits| {
            while bits != 0 {
                set.insert(first + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        });
        set.into_iter().collect()
    }

    /// The standard game and the three relaxations of its capture rules.
    fn every_capture_rule() -> Vec<Checkers> {
        [(true, true), (false, true), (true, false), (false, false)]
            .into_iter()
            .map(|(mandatory_capture, complete_jumps)| {
                Checkers::new(CheckersRules {
                    mandatory_capture,
                    complete_jumps,
                    ..CheckersRules::default()
                })
            })
            .collect()
    }

    #[test]
    fn action_paths_reach_exactly_the_legal_moves_under_every_capture_rule() {
        for game in every_capture_rule() {
            for fen in [
                "B:W21-32:B1-12",
                "B:W14,15,22,23:BK10",
                "W:W27:B23,14",
                "B:W6,7,8,14,15,16,22,23,24:BK10",
                "W:W14,15,22,23,25,27,K2:B5,6,9,10,12,18,19,K30",
                "W:WK15:B11,18,19,26,27",
                "B:W18,27,28,K10,K15:B12,16,20,K22,K25,K29",
            ] {
                check_under(&game, fen);
            }
        }
    }

    #[test]
    fn a_capture_stops_part_way_with_the_stop_action() {
        let basic = Checkers::new(CheckersRules {
            complete_jumps: false,
            ..CheckersRules::default()
        });
        assert_eq!(basic.action_count(), 129);
        assert_eq!(Checkers::default().action_count(), 128);
        assert_eq!(basic.parse_action("stop"), Some(STOP));
        assert_eq!(Checkers::default().parse_action("stop"), None);
        assert_eq!(basic.action_name(STOP).as_deref(), Some("stop"));
        let pos: CheckersPosition = "W:W27:B23,14".parse().unwrap();
        let first = basic.parse_action("27x18").unwrap();
        assert_eq!(basic.legal_actions(&pos, &Stage::Start), vec![first]);
        let ActionStep::Continue(stage) = basic.apply_action(&pos, &Stage::Start, first).unwrap()
        else {
            panic!("the man on 18 can jump on")
        };
        let on = basic.parse_action("18x9").unwrap();
        assert_eq!(basic.legal_actions(&pos, &stage), vec![on, STOP]);
        assert_eq!(basic.action_to_string(&pos, &stage, STOP), "stop");
        let Ok(ActionStep::Done(stopped)) = basic.apply_action(&pos, &stage, STOP) else {
            panic!("stop ends the turn")
        };
        assert_eq!(stopped.to_string(), "27x18");
        assert_eq!(basic.turn_actions(&pos, &stopped), vec![first, STOP]);
        let whole = basic.parse_move(&pos, "27x18x9").unwrap();
        assert_eq!(basic.turn_actions(&pos, &whole), vec![first, on]);
        // The standard game has no stop: the capture goes on.
        let standard = Checkers::default();
        let ActionStep::Continue(stage) =
            standard.apply_action(&pos, &Stage::Start, first).unwrap()
        else {
            panic!("the capture goes on")
        };
        assert_eq!(standard.legal_actions(&pos, &stage), vec![on]);
        assert!(standard.apply_action(&pos, &stage, STOP).is_err());
    }

    #[test]
    fn optional_captures_begin_with_a_step_or_a_jump() {
        let basic = Checkers::new(CheckersRules {
            mandatory_capture: false,
            ..CheckersRules::default()
        });
        let pos: CheckersPosition = "W:W27:B23,14".parse().unwrap();
        let legal = basic.legal_actions(&pos, &Stage::Start);
        let names: Vec<String> = legal
            .iter()
            .map(|&a| basic.action_to_string(&pos, &Stage::Start, a))
            .collect();
        assert_eq!(names, ["27x18", "27-24"]);
        let step = basic.parse_action("27-24").unwrap();
        assert_eq!(
            basic.legal_action_step(&pos, &Stage::Start, step),
            Some(ActionStep::Done(basic.parse_move(&pos, "27-24").unwrap()))
        );
        assert!(Checkers::default()
            .apply_action(&pos, &Stage::Start, step)
            .is_err());
    }

    #[test]
    fn groups_and_steps_on_demand_agree_with_the_steps_of_every_move() {
        for game in every_capture_rule() {
            groups_and_steps_agree(&game);
        }
    }

    fn groups_and_steps_agree(game: &Checkers) {
        let game = *game;
        let mut rng = crate::SplitMix64::new(9);
        let mut stages_seen = [0; 2];
        for _ in 0..60 {
            let mut pos = game.start_position();
            let mut stage = Stage::Start;
            for _ in 0..300 {
                let legal = game.legal_actions(&pos, &stage);
                assert_eq!(
                    grouped(&game, &pos, &stage),
                    legal,
                    "{} {stage:?}",
                    pos.fen()
                );
                for &a in &legal {
                    let want = game.apply_action(&pos, &stage, a).unwrap();
                    assert_eq!(game.legal_action_step(&pos, &stage, a), Some(want), "{a}");
                }
                stages_seen[usize::from(stage != Stage::Start)] += 1;
                let Some(&action) = rng.pick(&legal) else {
                    break;
                };
                match game.apply_action(&pos, &stage, action).unwrap() {
                    ActionStep::Continue(next) => stage = next,
                    ActionStep::Done(mv) => {
                        pos = game.play(&pos, &mv);
                        stage = Stage::Start;
                    }
                }
            }
        }
        assert!(
            stages_seen[1] > 20,
            "captures of several jumps: {stages_seen:?}"
        );
        for fen in [
            "B:W14,15,22,23:BK10",
            "W:W14,15,22,23,25,27,K2:B5,6,9,10,12,18,19,K30",
        ] {
            let pos: CheckersPosition = fen.parse().unwrap();
            assert_eq!(
                grouped(&game, &pos, &Stage::Start),
                game.legal_actions(&pos, &Stage::Start)
            );
        }
    }

    #[test]
    fn illegal_actions_are_refused_with_the_legal_ones() {
        let game = Checkers::default();
        let pos = game.start_position();
        let err = game.apply_action(&pos, &Stage::Start, 0).unwrap_err();
        assert_eq!(err.legal, game.legal_actions(&pos, &Stage::Start));
        assert_eq!(err.legal.len(), 7);
        assert!(game.apply_action(&pos, &Stage::Start, 500).is_err());
        assert_eq!(
            game.action_to_string(&pos, &Stage::Start, 4 * 10 + 3),
            "11-16"
        );
        assert_eq!(game.action_to_string(&pos, &Stage::Start, 0), "invalid");
        let jump: CheckersPosition = "W:W27:B23,14".parse().unwrap();
        assert_eq!(game.action_to_string(&jump, &Stage::Start, 4 * 26), "27x18");
    }

    #[test]
    fn observations_are_seen_from_the_player_to_move() {
        let game = Checkers::default();
        let shape = game.observation_shape();
        assert_eq!(shape, vec![5, 8, 8]);
        let mut black = vec![0.0; 320];
        let mut white = vec![0.0; 320];
        let start = game.start_position();
        game.write_observation(&start, &Stage::Start, &mut black);
        game.write_observation(
            &start.with_side_to_move(Color::White),
            &Stage::Start,
            &mut white,
        );
        // The start is symmetric under a half turn and a change of colours.
        assert_eq!(black, white);
        assert_eq!(black[..64].iter().sum::<f32>(), 12.0);
        // Own men fill the bottom three rows, the opponent's the top three.
        assert_eq!(black[40..64].iter().sum::<f32>(), 12.0);
        assert_eq!(black[64 * 2..64 * 2 + 24].iter().sum::<f32>(), 12.0);
        let mid: CheckersPosition = "B:W14,15,22,23:BK10".parse().unwrap();
        let mut obs = vec![0.0; 320];
        let first = game.legal_actions(&mid, &Stage::Start)[0];
        let ActionStep::Continue(stage) = game.apply_action(&mid, &Stage::Start, first).unwrap()
        else {
            panic!("a four-jump capture continues")
        };
        game.write_observation(&mid, &stage, &mut obs);
        assert_eq!(obs[64 * 4..].iter().sum::<f32>(), 1.0);
        assert_eq!(obs[64..128].iter().sum::<f32>(), 1.0, "one own king");
    }
}
