//! Retrograde generation: the positions and quiet turns (slides, flights, passes) that lead to
//! a position, for solvers that work backwards from the end of the game.
//!
//! Under `no_reforming` positions carry each side's memory of the man that last broke a mill
//! ([`super::Barrier`]); generation works on their canonical form
//! ([`Morris::canonical_memory`]), where memories that can no longer forbid a turn are
//! dropped.

use arrayvec::ArrayVec;

use super::mv::MorrisMove;
use super::position::{Barrier, BarrierSlot, MorrisPosition};
use super::rules::{Capture, Trapped};
use super::Morris;
use crate::{Bitboard, Color};

/// Room for the effective barriers of one side: sliding, at most one per end of a line at one
/// of its men (two per line: at most 80, on the 24-point board with diagonals); flying, at most
/// 3 men times 24 points.
const MAX_BARRIERS: usize = 96;

/// The effective barriers of one side.
type Barriers = ArrayVec<Barrier, MAX_BARRIERS>;

impl Morris {
    /// Whether positions under these rules remember more than the men, the hands and the side
    /// to move: the no-re-forming memory (`no_reforming`) or Shah's first mill
    /// (`first_mill_opens`). Retrograde generation ([`Morris::for_each_quiet_predecessor`])
    /// handles the first, not the second.
    #[must_use]
    pub const fn keeps_memory(&self) -> bool {
        self.rules.no_reforming || self.rules.first_mill_opens
    }

    /// Whether `barrier`, as `color`'s no-re-forming memory in `pos`, is *effective*: it may
    /// still forbid a turn. The rules have `no_reforming`, the man is `color`'s, the point is
    /// empty, `color` may step (no man in hand, or `mixed_placement`), the man can reach the
    /// point (a line joins them, or `color` flies), and arriving there closes a mill of
    /// `color` with its other men. A memory whose point is off the board is never effective.
    #[must_use]
    pub fn is_effective_barrier(
        &self,
        pos: &MorrisPosition,
        color: Color,
        barrier: Barrier,
    ) -> bool {
        let Barrier { man, point } = barrier;
        let ours = pos.men(color);
        let hand = pos.in_hand(color);
        self.rules.no_reforming
            && usize::from(point) < self.board.point_count()
            && ours.contains_index(man)
            && !pos.occupied().contains_index(point)
            && self.moves_men(hand)
            && (self.can_fly(ours, hand) || self.board.neighbours(man).contains_index(point))
            && self.reforms_mill(ours, man, point)
    }

    /// `color`'s no-re-forming memory in `pos` if it is effective, else `None`.
    #[must_use]
    pub fn effective_barrier(&self, pos: &MorrisPosition, color: Color) -> Option<Barrier> {
        pos.barrier(color)
            .filter(|&b| self.is_effective_barrier(pos, color, b))
    }

    /// `pos` with its no-re-forming memories in canonical form: each barrier that is not
    /// effective ([`Morris::is_effective_barrier`]) dropped. A position and its canonical form
    /// have the same turns, outcomes and values, and their successors again share canonical
    /// forms.
    ///
    /// An ineffective barrier of side `c` stays ineffective until `c`'s next turn replaces it:
    /// only the other side plays before then, and its turn can only fill points and take men
    /// of `c`, while `c`'s count (which decides flying) and hand stay as they are or shrink.
    /// Taking men never closes a mill of `c`, a filled point or a taken man stays so (the
    /// engine drops such a memory at once), and a side that could not step still cannot. So
    /// whenever the forbidden move could be tried, it does not exist or re-forms no mill.
    #[must_use]
    pub fn canonical_memory(&self, pos: &MorrisPosition) -> MorrisPosition {
        let mut canonical = *pos;
        for color in Color::ALL {
            canonical.barrier[color.index()] = BarrierSlot::new(self.effective_barrier(pos, color));
        }
        canonical
    }

    /// Every effective barrier `color` could have in `pos`, whatever its memory is now;
    /// with `point`, only those whose point it is.
    fn effective_barriers(
        &self,
        pos: &MorrisPosition,
        color: Color,
        point: Option<u8>,
    ) -> Barriers {
        let ours = pos.men(color);
        let hand = pos.in_hand(color);
        if !self.rules.no_reforming || !self.moves_men(hand) {
            return Barriers::new();
        }
        let empty = self.board.all_points().without(pos.occupied());
        let mut completing = self.completing_points(ours, empty);
        if let Some(p) = point {
            completing &= 1 << p;
        }
        self.barriers_at(ours, self.can_fly(ours, hand), completing)
    }

    /// The points a return could be to: empty, completing a line of two of `ours`. Found line
    /// by line; they are few.
    fn completing_points(&self, ours: Bitboard, empty: Bitboard) -> u32 {
        let mut completing = 0u32;
        for &mill in self.board.mills() {
            let own = mill & ours.0;
            if own.count_ones() == 2 {
                completing |= mill & !own & empty.0;
            }
        }
        completing
    }

    /// [`Morris::completing_points`] of `rest` plus a man on `from` (empty in `empty`), from
    /// `rest_completing`, those of `rest` alone: only the lines through `from` change.
    fn completing_points_with(
        &self,
        rest: Bitboard,
        rest_completing: u32,
        from: u8,
        empty: Bitboard,
    ) -> u32 {
        let at = 1u32 << from;
        // A line of two of `rest` through `from` is closed now: `from` completes nothing.
        let mut completing = rest_completing & !at;
        for &mill in self.board.mills_at(from).iter().filter(|&&m| m != 0) {
            let own = mill & rest.0;
            if own.count_ones() == 1 {
                completing |= mill & !own & !at & empty.0;
            }
        }
        completing
    }

    /// The effective barriers of a side with `ours` (flying or not) whose points are among
    /// `completing`: the men that can reach such a point and would re-form a mill there.
    fn barriers_at(&self, ours: Bitboard, fly: bool, completing: u32) -> Barriers {
        let mut found = Barriers::new();
        self.push_barriers_at(ours, fly, completing, &mut found);
        found
    }

    /// [`Morris::barriers_at`] pushed onto `found`, for a caller that reuses one list: the
    /// list is too large to move around once per predecessor.
    fn push_barriers_at(&self, ours: Bitboard, fly: bool, completing: u32, found: &mut Barriers) {
        // Only the men that can reach a completing point are tried.
        for p in Bitboard(completing).indices() {
            let men = if fly {
                ours
            } else {
                self.board.neighbours(p) & ours
            };
            for man in men.indices() {
                if self.reforms_mill(ours, man, p) {
                    found.push(Barrier { man, point: p });
                }
            }
        }
    }

    /// Calls `visit` with every position `q` and quiet turn `mv` such that `mv` is legal in `q`
    /// and `self.play_turn(&q, &mv) == *pos`, once per pair; under `no_reforming`, every `q`
    /// with canonical memories ([`Morris::canonical_memory`]) such that the canonical forms of
    /// `self.play_turn(&q, &mv)` and `pos` agree.
    ///
    /// A quiet turn neither places nor takes a man: a slide, a flight, or the pass of a trapped
    /// player (with `trapped = passes`). A slide or flight that closes a mill (or, with
    /// `trap_captures`, traps the opponent) is quiet when it takes nothing: under
    /// `mill_immunity` with every opposing man in a mill, when mills win, with
    /// `trap_captures` while the opponent stays trapped, or when it declines an optional
    /// capture. Predecessors are generated whether or
    /// not `pos` itself is over; no `q` is over.
    ///
    /// With `no_reforming`, when the side `s` to move in `pos` waits while the other side `o`
    /// steps from `f` to `t` in `q`:
    /// - `pos` remembers `(t, f)` for `o` exactly when `f` was in a mill of `o` in `q` (such a
    ///   memory is always effective), and nothing for `o` otherwise, or after a pass;
    /// - `pos` remembers for `s` what `q` did, unless that memory's point was `t` (filled, it
    ///   lapses): a `pos` without a memory of `s` comes from a `q` without one, or with any
    ///   effective one pointing at `t`; a memory of `s` pointing at `f` cannot come from `q`,
    ///   where `f` was occupied;
    /// - `q`'s memory of `o` is none or any effective one but the one forbidding `f` to `t`
    ///   (for a pass: any with which `o` has no move left).
    ///
    /// `pos`'s memories are put in canonical form first. Under `first_mill_opens` (Shah) `pos`
    /// must be in the moving phase (no man in hand), where the first-mill memory has been used
    /// up and no position carries it: while placing, a predecessor's first-mill memory is not
    /// a function of `pos`. `pos` must carry no memory the rules do not have. Both are checked
    /// in debug builds only.
    ///
    /// # Panics
    ///
    /// In debug builds, if `pos` has a man in hand under `first_mill_opens`, carries Shah's
    /// first-mill memory or a pending opening removal, or carries a no-re-forming memory
    /// without `no_reforming`; also where its internal cross-checks fail, which they may for
    /// a position [`Morris::validate`] refuses (release builds visit predecessors of no
    /// meaning for one).
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
    /// let pos = MorrisPosition::from_parts_unchecked(white, black, 0, 0, Color::Black);
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
            !self.rules.first_mill_opens || pos.hand == [0, 0],
            "with the first-mill memory, retrograde generation is defined in the moving phase only"
        );
        debug_assert!(
            pos.first_mill.is_none()
                && !pos.opening_removal
                && (self.rules.no_reforming || pos.barrier == [BarrierSlot::NONE; 2]),
            "retrograde generation needs a position without memories the rules lack"
        );
        let pos = &self.canonical_memory(pos);
        let mover = !pos.side;
        let waiting = pos.side;
        // The memories `pos` has: the waiting side's kept from `q`, the mover's just made.
        let kept = pos.barrier(waiting);
        let made = pos.barrier(mover);
        let shape = self.board.shape();
        let mut q = *pos;
        q.side = mover;
        q.barrier[mover.index()] = BarrierSlot::NONE;

        // `visit_bases` offers the pass only to a side with no placement, slide or flight; a
        // pass leaves the mover without a memory.
        if self.rules.trapped == Trapped::Passes && made.is_none() {
            let pass = MorrisMove::pass(shape);
            if !self.has_base_move(&q) && self.position_outcome(&q).is_none() {
                visit(&q, &pass);
            }
            // A memory that forbids the mover's only move would leave it trapped too. On the
            // boards here that cannot arise (a mill-mate can always slide into the point the
            // man left: `has_base_move`), so this finds nothing more, but it does not rely on
            // the board's shape.
            for b in self.effective_barriers(&q, mover, None) {
                let mut barred = q;
                barred.barrier[mover.index()] = BarrierSlot::new(Some(b));
                if !self.has_base_move(&barred) && self.position_outcome(&barred).is_none() {
                    visit(&barred, &pass);
                }
            }
        }

        let hand = pos.in_hand(mover);
        // Hands are unchanged by a step, so a mover that had to place cannot have stepped.
        if !self.moves_men(hand) {
            return;
        }
        let after = pos.men(mover);
        let empty = self.board.all_points().without(pos.occupied());
        // A step keeps the mover's count of men, so it flies in `q` exactly when it could in
        // `pos`; likewise the men a mill could take are the same in every `q`.
        let fly = self.can_fly(after, hand);
        // A turn that earns men took none if none could be taken, or if it declined them.
        let takes_nothing =
            self.rules.capture == Capture::Optional || self.removable(pos.men(pos.side)).is_empty();
        for to in after.indices() {
            let mut sources = if fly {
                empty
            } else {
                self.board.neighbours(to) & empty
            };
            match made {
                Some(b) if b.man != to => continue,
                Some(b) => sources &= Bitboard::from_index(b.point),
                None => {}
            }
            // The waiting side's memory of `pos` pointing at `from` cannot have been in `q`.
            if let Some(b) = kept {
                sources = sources.without(Bitboard::from_index(b.point));
            }
            let rest = after.without(Bitboard::from_index(to));
            // The waiting side's possible memories of `q` point at `to`, empty in every `q` of
            // this `to`: they depend on the waiting side's men alone, not on where the mover
            // came from.
            let waiting_options = match (self.rules.no_reforming, kept) {
                (false, _) => Barriers::new(),
                (true, Some(b)) => Barriers::from_iter([b]),
                (true, None) => {
                    let mut q = q;
                    q.men[mover.index()] = rest;
                    self.effective_barriers(&q, waiting, Some(to))
                }
            };
            // The points that complete a line of the mover's men other than the one on `to`,
            // with `to` empty: those of each `q` follow from them and `from`.
            let rest_completing = if self.rules.no_reforming {
                self.completing_points(rest, empty | Bitboard::from_index(to))
            } else {
                0
            };
            let mut mover_options = Barriers::new();
            for from in sources.indices() {
                let before = rest | Bitboard::from_index(from);
                let breaks =
                    self.rules.no_reforming && self.board.mills_closed_at(from, before) > 0;
                if breaks != made.is_some() {
                    continue;
                }
                q.men[mover.index()] = before;
                q.barrier = [BarrierSlot::NONE; 2];
                // The memories of `q` change neither whether it is over (its mover has this
                // step) nor what the step takes.
                if self.position_outcome(&q).is_some() {
                    continue;
                }
                let base = MorrisMove::step(shape, from, to);
                if !(takes_nothing || self.takes_none(&q, &base, after)) {
                    continue;
                }
                if !self.rules.no_reforming {
                    visit(&q, &base);
                    continue;
                }
                let q_empty =
                    (empty | Bitboard::from_index(to)).without(Bitboard::from_index(from));
                let completing = self.completing_points_with(rest, rest_completing, from, q_empty);
                debug_assert_eq!(completing, self.completing_points(before, q_empty));
                mover_options.clear();
                self.push_barriers_at(before, fly, completing, &mut mover_options);
                debug_assert_eq!(mover_options, self.effective_barriers(&q, mover, None));
                let forbidden = Barrier {
                    man: from,
                    point: to,
                };
                // `None` first (unless the waiting side's memory is kept), then each memory.
                let waiting_none = kept.is_none().then_some(None);
                for w in waiting_none
                    .into_iter()
                    .chain(waiting_options.iter().map(|&b| Some(b)))
                {
                    q.barrier[waiting.index()] = BarrierSlot::new(w);
                    q.barrier[mover.index()] = BarrierSlot::NONE;
                    visit(&q, &base);
                    for &b in mover_options.iter().filter(|&&b| b != forbidden) {
                        q.barrier[mover.index()] = BarrierSlot::new(Some(b));
                        visit(&q, &base);
                    }
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

    use super::super::{Barrier, Morris, MorrisMove, MorrisPosition, MorrisRules, MoveKind};
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

    /// Rules with the no-re-forming memory: the presets, and variations that fly, pass, or
    /// move with men in hand while remembering.
    fn memory_games() -> Vec<(Morris, Expect)> {
        let memories = Expect {
            memories: true,
            ..Expect::default()
        };
        let all = vec![
            (with("twelve_mens_morris", &[]), memories),
            (with("nine_mens_morris_no_flying", &[]), memories),
            (
                with(
                    "six_mens_morris",
                    &[("no_reforming", "true"), ("flying", "3")],
                ),
                Expect {
                    flights: true,
                    ..memories
                },
            ),
            (
                with(
                    "nine_mens_morris_no_flying",
                    &[
                        ("trapped", "passes"),
                        ("removal", "mill_immunity"),
                        ("full_board", "play_on"),
                    ],
                ),
                Expect {
                    passes: true,
                    quiet_mills: true,
                    ..memories
                },
            ),
            (
                with("lasker_morris", &[("no_reforming", "true")]),
                Expect {
                    moves_from_hand: true,
                    flights: true,
                    ..memories
                },
            ),
        ];
        for (game, _) in &all {
            assert!(game.rules().no_reforming && !game.rules().first_mill_opens);
        }
        all
    }

    /// Rules of the options added last: where a capture may be declined (every mill may then
    /// be a quiet turn), and diagonals that make no mills. (Listed last: each game's sample is
    /// seeded by its place in [`all_games`].)
    fn later_option_games() -> Vec<(Morris, Expect)> {
        let quiet_mills = Expect {
            quiet_mills: true,
            ..Expect::default()
        };
        vec![
            (
                with(
                    "nine_mens_morris",
                    &[("capture", "optional"), ("double_mill", "two")],
                ),
                Expect {
                    flights: true,
                    ..quiet_mills
                },
            ),
            (
                with(
                    "morabaraba",
                    &[
                        ("capture", "optional"),
                        ("full_board", "play_on"),
                        ("trapped", "passes"),
                        ("removal", "any"),
                        ("trap_captures", "true"),
                    ],
                ),
                Expect {
                    passes: true,
                    ..quiet_mills
                },
            ),
            (
                with("twelve_mens_morris", &[("capture", "optional")]),
                Expect {
                    memories: true,
                    ..quiet_mills
                },
            ),
            // The nine-man variation read literally: diagonal moves, no diagonal mills.
            (
                with(
                    "nine_mens_morris_no_flying",
                    &[("diagonals", "true"), ("diagonal_mills", "false")],
                ),
                Expect {
                    memories: true,
                    ..Expect::default()
                },
            ),
        ]
    }

    fn all_games() -> Vec<(Morris, Expect)> {
        games()
            .into_iter()
            .chain(memory_games())
            .chain(later_option_games())
            .collect()
    }

    /// Kinds of quiet turn that a game's sample must contain, so that the checks reach them.
    #[derive(Clone, Copy, Debug, Default)]
    struct Expect {
        flights: bool,
        passes: bool,
        moves_from_hand: bool,
        quiet_mills: bool,
        /// Quiet turns that make a memory, and quiet turns from positions where the mover, and
        /// where the waiting side, has an effective memory.
        memories: bool,
    }

    fn is_quiet(mv: &MorrisMove) -> bool {
        !mv.is_capture() && matches!(mv.kind(), MoveKind::Move { .. } | MoveKind::Pass)
    }

    fn below(rng: &mut SplitMix64, n: usize) -> usize {
        rng.below(n).unwrap_or(0)
    }

    /// Every position of a few random games from the start, then random boards (men of each
    /// side on random points, random hands, either side to move, under `no_reforming` random
    /// effective memories) that the rules accept; memories in canonical form.
    fn sample(game: &Morris, seed: u64) -> Vec<MorrisPosition> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let mut moves = super::super::MorrisMoveList::new();
        for _ in 0..12 {
            let mut pos = game.start_position();
            for _ in 0..160 {
                out.push(game.canonical_memory(&pos));
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
            for color in Color::ALL {
                let options = game.effective_barriers(&pos, color, None);
                if !options.is_empty() && below(&mut rng, 3) > 0 {
                    pos.set_barrier(color, Some(options[below(&mut rng, options.len())]));
                }
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
        for (seed, (game, _)) in all_games().into_iter().enumerate() {
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
                    assert_eq!(game.canonical_memory(q), *q, "{}", context());
                    let mut legal = 0;
                    game.for_each_turn(q, |turn| legal += u32::from(turn == mv));
                    assert_eq!(legal, 1, "{}", context());
                    let next = game.canonical_memory(&game.play_turn(q, mv));
                    assert_eq!(next, pos, "{}", context());
                }
            }
        }
    }

    #[test]
    fn every_quiet_turn_is_found_once_from_the_position_it_leads_to() {
        for (seed, (game, expect)) in all_games().into_iter().enumerate() {
            let mut seen = Expect::default();
            let mut made = false;
            let mut mover_memory = false;
            let mut waiting_memory = false;
            let mut quiet = Vec::new();
            for q in sample(&game, 0x636f_6d70_6c00 + seed as u64) {
                quiet.clear();
                game.for_each_turn(&q, |mv| {
                    if is_quiet(mv) {
                        quiet.push(*mv);
                    }
                });
                for (i, mv) in quiet.iter().enumerate() {
                    // The raw successor, its memories as the engine leaves them, or every other
                    // time its canonical form: generation canonicalises first.
                    let raw = game.play_turn(&q, mv);
                    let pos = if i % 2 == 0 {
                        raw
                    } else {
                        game.canonical_memory(&raw)
                    };
                    let mut n = 0;
                    game.for_each_quiet_predecessor(&pos, |p, m| {
                        n += u32::from(*p == q && m == mv)
                    });
                    assert_eq!(n, 1, "{mv} from {}", game.fen(&q, 0));
                    made |= raw.barrier(q.side_to_move()).is_some();
                    mover_memory |= q.barrier(q.side_to_move()).is_some();
                    waiting_memory |= q.barrier(!q.side_to_move()).is_some();
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
            seen.memories = made && mover_memory && waiting_memory;
            assert!(
                seen.memories || !expect.memories,
                "memories missing in {rules}: made {made}, of the mover {mover_memory}, \
                 of the waiting side {waiting_memory}"
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
        let pos = MorrisPosition::from_parts_unchecked(
            men(game, white),
            men(game, black),
            0,
            0,
            Color::Black,
        );
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
    fn a_memory_names_the_step_that_broke_the_mill() {
        let game = with("twelve_mens_morris", &[]);
        let point = |name: &str| game.board().point(name).expect("a point");
        let q0 = MorrisPosition::from_parts_unchecked(
            men(&game, "a4 b4 c4 b2 g7"),
            men(&game, "e5 f4 g1"),
            0,
            0,
            Color::White,
        );
        let broke = MorrisMove::step(game.board().shape(), point("b4"), point("b6"));
        let pos = game.play_turn(&q0, &broke);
        let memory = Barrier {
            man: point("b6"),
            point: point("b4"),
        };
        assert_eq!(pos.barrier(Color::White), Some(memory));
        let found = predecessors(&game, &pos);
        assert!(found.contains(&(q0, broke)));
        for (q, mv) in &found {
            // Only that step made this memory; White's own memory in `q` may be any that does
            // not forbid it.
            assert_eq!((*mv, q.men), (broke, q0.men));
            assert_eq!(q.barrier(Color::Black), None);
            let back = Barrier {
                man: point("b4"),
                point: point("b6"),
            };
            assert_ne!(q.barrier(Color::White), Some(back));
        }
        // Without the memory, b6 came from a point that was in no mill: a7, c5 or d6.
        let mut forgot = pos;
        forgot.set_barrier(Color::White, None);
        let mut sources: Vec<_> = predecessors(&game, &forgot)
            .iter()
            .filter(|(q, mv)| {
                q.barrier(Color::White).is_none()
                    && q.barrier(Color::Black).is_none()
                    && mv.to() == Some(point("b6"))
            })
            .filter_map(|(_, mv)| mv.from().map(|f| game.board().name(f)))
            .collect();
        sources.sort_unstable();
        assert_eq!(sources, ["a7", "c5", "d6"]);
        // With a4 gone the memory can no longer re-form a mill: it is dropped.
        let mut taken = pos;
        taken.men[Color::White.index()] = taken.men(Color::White).without(men(&game, "a4"));
        assert_eq!(game.canonical_memory(&taken).barrier(Color::White), None);
        assert_eq!(game.canonical_memory(&pos), pos);
    }

    #[test]
    fn a_trapped_player_passed() {
        // White's four corner men are hemmed in by black: no slide led here, only white's pass.
        let (white, black) = ("a7 g7 a1 g1", "d7 a4 g4 d1");
        let game = passes();
        let pos = MorrisPosition::from_parts_unchecked(
            men(&game, white),
            men(&game, black),
            0,
            0,
            Color::Black,
        );
        let found = predecessors(&game, &pos);
        let mut q = pos;
        q.side = Color::White;
        assert_eq!(found, [(q, MorrisMove::pass(game.board().shape()))]);
        // Where the trapped side loses instead, the position has no quiet predecessor.
        assert_eq!(count(&with("nine_mens_morris", &[]), white, black), 0);
    }

    #[test]
    fn nobody_passes_on_a_board_full_by_a_draw() {
        // A full board, without a mill of either colour: both sides are trapped, and where
        // they pass (whatever `full_board` says) the game is drawn there, so no pass led to it.
        let full = "BWW/BWB/WBW/WWBWBB/WBB/BWW/BBW b 0 0 0";
        for (full_board, predecessors) in [("play_on", 0), ("draw", 0)] {
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
