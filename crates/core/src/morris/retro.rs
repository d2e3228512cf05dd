//! Retrograde generation: the positions and quiet turns (slides, flights, passes) that lead to
//! a position, for solvers that work backwards from the end of the game.

use super::mv::MorrisMove;
use super::position::MorrisPosition;
use super::rules::Trapped;
use super::Morris;
use crate::Bitboard;

impl Morris {
    /// Whether positions under these rules remember more than the men, the hands and the side
    /// to move: the no-re-forming memory (`no_reforming`) or Shah's first mill
    /// (`first_mill_opens`). Retrograde generation ([`Morris::for_each_quiet_predecessor`])
    /// needs rules without memories.
    #[must_use]
    pub const fn keeps_memory(&self) -> bool {
        self.rules.no_reforming || self.rules.first_mill_opens
    }

    /// Calls `visit` with every position `q` and quiet turn `mv` such that `mv` is legal in `q`
    /// and `self.play_turn(&q, &mv) == *pos`, once per pair.
    ///
    /// A quiet turn neither places nor takes a man: a slide, a flight, or the pass of a trapped
    /// player (with `trapped = passes`). A slide or flight that closes a mill (or, with
    /// `trap_captures`, traps the opponent) is quiet when it takes nothing: under
    /// `mill_immunity` with every opposing man in a mill, when mills win, or with
    /// `trap_captures` while the opponent stays trapped. Predecessors are generated whether or
    /// not `pos` itself is over; no `q` is over.
    ///
    /// The rules must keep no memory (`!self.keeps_memory()`) and `pos` must carry none: a
    /// predecessor's memory is not a function of `pos`. Both are checked in debug builds only.
    ///
    /// ```
    /// use perfectplay_core::morris::{Morris, MorrisPosition};
    /// use perfectplay_core::{Bitboard, Color, Game};
    /// let game = Morris::preset("nine_mens_morris").unwrap();
    /// let b = game.board();
    /// let at = |names: &[&str]| {
    ///     Bitboard(names.iter().map(|n| 1 << b.point(n).unwrap()).sum())
    /// };
    /// // White, with three men, flew last: any of its men may have come from any empty point.
    /// let white = at(&["a7", "g7", "a1"]);
    /// let black = at(&["b6", "d5", "f2", "b2"]);
    /// let pos = MorrisPosition::from_parts(white, black, 0, 0, Color::Black);
    /// let mut n = 0;
    /// game.for_each_quiet_predecessor(&pos, |q, mv| {
    ///     assert_eq!(game.play(q, mv), pos);
    ///     n += 1;
    /// });
    /// assert_eq!(n, 3 * 17);
    /// ```
    pub fn for_each_quiet_predecessor<F: FnMut(&MorrisPosition, &MorrisMove)>(
        &self,
        pos: &MorrisPosition,
        mut visit: F,
    ) {
        debug_assert!(
            !self.keeps_memory(),
            "retrograde generation needs rules without memories"
        );
        debug_assert!(
            pos.barrier == [None; 2] && pos.first_mill.is_none() && !pos.opening_removal,
            "retrograde generation needs a position without memories"
        );
        let mover = !pos.side;
        let shape = self.board.shape();
        let mut q = *pos;
        q.side = mover;

        // `visit_bases` offers the pass only to a side with no placement, slide or flight.
        if self.rules.trapped == Trapped::Passes
            && !self.has_base_move(&q)
            && self.position_outcome(&q).is_none()
        {
            visit(&q, &MorrisMove::pass(shape));
        }

        let hand = pos.in_hand(mover);
        // Hands are unchanged by a step, so a mover that had to place cannot have stepped.
        if hand > 0 && !self.rules.mixed_placement {
            return;
        }
        let after = pos.men(mover);
        let empty = self.board.all_points().without(pos.occupied());
        // A step keeps the mover's count of men, so it flies in `q` exactly when it could in
        // `pos`; likewise the men a mill could take are the same in every `q`.
        let fly = self.can_fly(after, hand);
        let takes_nothing = self.removable(pos.men(pos.side)).is_empty();
        for to in after.indices() {
            let sources = if fly {
                empty
            } else {
                self.board.neighbours(to) & empty
            };
            let rest = after.without(Bitboard::from_index(to));
            for from in sources.indices() {
                q.men[mover.index()] = rest | Bitboard::from_index(from);
                if self.position_outcome(&q).is_some() {
                    continue;
                }
                let base = MorrisMove::step(shape, from, to);
                if takes_nothing || self.takes_none(&q, &base, after) {
                    visit(&q, &base);
                }
            }
        }
    }

    /// Whether `base`, a slide or flight in `q` that leaves the mover with `after`, takes no
    /// man, by the count that [`Morris::visit_bases`] gives it.
    fn takes_none(&self, q: &MorrisPosition, base: &MorrisMove, after: Bitboard) -> bool {
        let trapped_before = self.rules.trap_captures && self.trapped(q, q.men(q.side));
        self.takes(q, base, after, trapped_before) == 0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::{Morris, MorrisMove, MorrisPosition, MorrisRules, MoveKind};
    use crate::game::Game;
    use crate::{Bitboard, Color, SplitMix64};

    /// The preset `id` with `options` (name, value) overridden.
    fn with(id: &str, options: &[(&str, &str)]) -> Morris {
        let mut rules = MorrisRules::preset(id).expect("a preset").rules;
        for (name, value) in options {
            rules.set(name, value).unwrap();
        }
        Morris::new(rules).unwrap()
    }

    /// Nine Men's Morris where a trapped player passes, trapping takes a man, a double mill
    /// takes two and men in mills are never taken.
    fn passes() -> Morris {
        with(
            "nine_mens_morris",
            &[
                ("trapped", "passes"),
                ("double_mill", "two"),
                ("removal", "mill_immunity"),
                ("trap_captures", "true"),
            ],
        )
    }

    /// Rules without memories, each with what its random positions must include.
    fn games() -> Vec<(Morris, Expect)> {
        let none = Expect::default();
        let flights = Expect {
            flights: true,
            ..none
        };
        let passes_too = Expect {
            passes: true,
            ..none
        };
        let all = vec![
            (with("nine_mens_morris", &[]), flights),
            (
                with("lasker_morris", &[]),
                Expect {
                    moves_from_hand: true,
                    ..flights
                },
            ),
            (with("morabaraba", &[]), flights),
            (with("six_mens_morris", &[]), none),
            (
                with("three_mens_morris", &[]),
                Expect {
                    quiet_mills: true,
                    ..none
                },
            ),
            (
                passes(),
                Expect {
                    quiet_mills: true,
                    ..flights
                },
            ),
            (
                with(
                    "six_mens_morris",
                    &[("trapped", "passes"), ("trap_captures", "true")],
                ),
                passes_too,
            ),
            (
                with(
                    "morabaraba",
                    &[
                        ("full_board", "play_on"),
                        ("trapped", "passes"),
                        ("removal", "any"),
                    ],
                ),
                passes_too,
            ),
            (
                with(
                    "lasker_morris",
                    &[
                        ("trapped", "passes"),
                        ("removal", "mill_immunity"),
                        ("captures_while_placing", "false"),
                    ],
                ),
                Expect {
                    moves_from_hand: true,
                    ..flights
                },
            ),
        ];
        for (game, _) in &all {
            assert!(!game.keeps_memory(), "{}", game.rules());
        }
        all
    }

    /// Kinds of quiet turn that a game's sample must contain, so that the checks reach them.
    #[derive(Clone, Copy, Debug, Default)]
    struct Expect {
        flights: bool,
        passes: bool,
        moves_from_hand: bool,
        quiet_mills: bool,
    }

    fn is_quiet(mv: &MorrisMove) -> bool {
        !mv.is_capture() && matches!(mv.kind(), MoveKind::Move { .. } | MoveKind::Pass)
    }

    fn below(rng: &mut SplitMix64, n: usize) -> usize {
        rng.below(n).unwrap_or(0)
    }

    /// Every position of a few random games from the start, then random boards (men of each
    /// side on random points, random hands, either side to move) that the rules accept.
    fn sample(game: &Morris, seed: u64) -> Vec<MorrisPosition> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let mut moves = super::super::MorrisMoveList::new();
        for _ in 0..12 {
            let mut pos = game.start_position();
            for _ in 0..160 {
                out.push(pos);
                game.generate_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = game.play_turn(&pos, &moves[below(&mut rng, moves.len())]);
            }
        }
        let rules = game.rules();
        while out.len() < 4000 {
            let side = if below(&mut rng, 2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut pos = MorrisPosition::start(0, side);
            let mut free = game.board().all_points();
            for color in Color::ALL {
                // From one man short of losing (positions that are over) to a full set.
                let low = usize::from(rules.lose_below.saturating_sub(1));
                let total = low + below(&mut rng, usize::from(rules.men) + 1 - low);
                let hand = if below(&mut rng, 2) == 0 {
                    0
                } else {
                    below(&mut rng, total + 1)
                };
                for _ in 0..(total - hand).min(free.count() as usize) {
                    let point = free
                        .indices()
                        .nth(below(&mut rng, free.count() as usize))
                        .expect("a free point");
                    pos.men[color.index()] |= Bitboard::from_index(point);
                    free = free.without(Bitboard::from_index(point));
                }
                pos.hand[color.index()] = hand as u8;
            }
            if game.validate(&pos).is_ok() {
                out.push(pos);
            }
        }
        out
    }

    fn predecessors(game: &Morris, pos: &MorrisPosition) -> Vec<(MorrisPosition, MorrisMove)> {
        let mut out = Vec::new();
        game.for_each_quiet_predecessor(pos, |q, mv| out.push((*q, *mv)));
        out
    }

    #[test]
    fn every_predecessor_leads_to_the_position_by_a_legal_quiet_turn() {
        for (seed, (game, _)) in games().into_iter().enumerate() {
            for pos in sample(&game, 0x7265_7472_6f00 + seed as u64) {
                let found = predecessors(&game, &pos);
                let distinct: HashSet<_> = found.iter().collect();
                assert_eq!(distinct.len(), found.len(), "{}", game.fen(&pos, 0));
                for (q, mv) in &found {
                    let context =
                        || format!("{mv} from {} to {}", game.fen(q, 0), game.fen(&pos, 0));
                    assert!(is_quiet(mv), "{}", context());
                    assert_eq!(q.side_to_move(), !pos.side_to_move(), "{}", context());
                    assert!(game.validate(q).is_ok(), "{}", context());
                    let mut legal = 0;
                    game.for_each_turn(q, |turn| legal += u32::from(turn == mv));
                    assert_eq!(legal, 1, "{}", context());
                    assert_eq!(game.play_turn(q, mv), pos, "{}", context());
                }
            }
        }
    }

    #[test]
    fn every_quiet_turn_is_found_once_from_the_position_it_leads_to() {
        for (seed, (game, expect)) in games().into_iter().enumerate() {
            let mut seen = Expect::default();
            let mut quiet = Vec::new();
            for q in sample(&game, 0x636f_6d70_6c00 + seed as u64) {
                quiet.clear();
                game.for_each_turn(&q, |mv| {
                    if is_quiet(mv) {
                        quiet.push(*mv);
                    }
                });
                for mv in &quiet {
                    let pos = game.play_turn(&q, mv);
                    let mut n = 0;
                    game.for_each_quiet_predecessor(&pos, |p, m| {
                        n += u32::from(*p == q && m == mv)
                    });
                    assert_eq!(n, 1, "{mv} from {}", game.fen(&q, 0));
                    if let MoveKind::Move { from, to } = mv.kind() {
                        seen.flights |= !game.board().neighbours(from).contains_index(to);
                        seen.moves_from_hand |= q.in_hand(q.side_to_move()) > 0;
                        let mills = game.board().mills_closed_at(to, pos.men(q.side_to_move()));
                        seen.quiet_mills |= mills > 0;
                    } else {
                        seen.passes = true;
                    }
                }
            }
            let rules = game.rules();
            assert!(seen.flights || !expect.flights, "no flight in {rules}");
            assert!(seen.passes || !expect.passes, "no pass in {rules}");
            assert!(
                seen.moves_from_hand || !expect.moves_from_hand,
                "no move with men in hand in {rules}"
            );
            assert!(
                seen.quiet_mills || !expect.quiet_mills,
                "no mill that takes nothing in {rules}"
            );
        }
    }

    /// The men on the named points.
    fn men(game: &Morris, names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| Bitboard::from_index(game.board().point(n).expect("a point")))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }

    fn count(game: &Morris, white: &str, black: &str) -> usize {
        let pos =
            MorrisPosition::from_parts(men(game, white), men(game, black), 0, 0, Color::Black);
        predecessors(game, &pos).len()
    }

    #[test]
    fn a_turn_that_would_have_taken_a_man_is_not_quiet() {
        let game = with("nine_mens_morris", &[]);
        // White flies with three men: 3 men times 17 empty points they may have left.
        assert_eq!(count(&game, "a7 g7 a1", "b6 d5 f2 b2"), 3 * 17);
        // Each of white's men closes the mill a7-d7-g7 on arriving, taking a black man.
        assert_eq!(count(&game, "a7 d7 g7", "b6 d5 f2 b2"), 0);
        // Black's men all stand in a mill: standard removal takes one of them anyway...
        assert_eq!(count(&game, "a7 d7 g7", "b6 d6 f6"), 0);
        // ...mill immunity does not, so closing the mill was quiet.
        let immune = with("nine_mens_morris", &[("removal", "mill_immunity")]);
        assert_eq!(count(&immune, "a7 d7 g7", "b6 d6 f6"), 3 * 18);
    }

    #[test]
    fn a_trapped_player_passed() {
        // White's four corner men are hemmed in by black: no slide led here, only white's pass.
        let (white, black) = ("a7 g7 a1 g1", "d7 a4 g4 d1");
        let game = passes();
        let pos =
            MorrisPosition::from_parts(men(&game, white), men(&game, black), 0, 0, Color::Black);
        let found = predecessors(&game, &pos);
        let mut q = pos;
        q.side = Color::White;
        assert_eq!(found, [(q, MorrisMove::pass(game.board().shape()))]);
        // Where the trapped side loses instead, the position has no quiet predecessor.
        assert_eq!(count(&with("nine_mens_morris", &[]), white, black), 0);
    }

    #[test]
    fn nobody_passes_on_a_board_full_by_a_draw() {
        // A full board, without a mill of either colour: both sides are trapped.
        let full = "BWW/BWB/WBW/WWBWBB/WBB/BWW/BBW b 0 0 0";
        for (full_board, predecessors) in [("play_on", 1), ("draw", 0)] {
            let game = with(
                "morabaraba",
                &[("trapped", "passes"), ("full_board", full_board)],
            );
            let (pos, _) = game.parse_fen(full).unwrap();
            let mut n = 0;
            game.for_each_quiet_predecessor(&pos, |_, mv| {
                assert_eq!(mv.kind(), MoveKind::Pass);
                n += 1;
            });
            assert_eq!(n, predecessors, "full_board={full_board}");
        }
    }
}
