//! Turn generation: placements, slides and flights, each with every legal choice of men to
//! take, visited one by one without allocation.

use super::mv::MorrisMove;
use super::position::{BarrierSlot, MorrisPosition};
use super::rules::{Capture, DoubleMill, RemovalRule, Trapped};
use super::Morris;
use crate::Bitboard;

impl Morris {
    /// The opponent's men that one removal may take from `theirs`.
    #[inline]
    pub(crate) fn removable(&self, theirs: Bitboard) -> Bitboard {
        match self.rules.removal {
            RemovalRule::Any => theirs,
            RemovalRule::Standard => {
                let outside = theirs.without(self.board.men_in_mills(theirs));
                if outside.any() {
                    outside
                } else {
                    theirs
                }
            }
            RemovalRule::MillImmunity => theirs.without(self.board.men_in_mills(theirs)),
        }
    }

    /// Whether `color`, with `ours` on the board, `hand` men in hand and `empty` points free,
    /// can place, slide or fly (ignoring the no-re-forming memory, which never blocks every
    /// move: see [`Morris::has_base_move`]).
    #[inline]
    fn can_move(&self, ours: Bitboard, hand: u8, empty: Bitboard) -> bool {
        // No men at all (possible only where the rules let a side play on below three, with
        // `lose_below` 0): nothing to move, though a side that few would otherwise fly.
        if empty.is_empty() || (ours.is_empty() && hand == 0) {
            return false;
        }
        if hand > 0 {
            return true;
        }
        self.can_fly(ours, hand) || self.board.slide_targets(ours, empty).any()
    }

    /// Whether a side with `hand` men in hand moves men on the board this turn: once its hand
    /// is empty, or at any turn with mixed placement (Lasker).
    #[inline]
    pub(crate) fn moves_men(&self, hand: u8) -> bool {
        hand == 0 || self.rules.mixed_placement
    }

    /// Whether the man on `man` of a side with `ours` on the board would close a mill of that
    /// side by moving to `point`: the return that a no-re-forming memory forbids.
    #[inline]
    pub(crate) fn reforms_mill(&self, ours: Bitboard, man: u8, point: u8) -> bool {
        let after = ours.without(Bitboard::from_index(man)) | Bitboard::from_index(point);
        self.board.mills_closed_at(point, after) > 0
    }

    #[inline]
    pub(crate) fn can_fly(&self, ours: Bitboard, hand: u8) -> bool {
        self.rules
            .flying
            .is_some_and(|n| ours.count() + u32::from(hand) <= u32::from(n))
    }

    /// Whether the side to move has a placement, slide or flight.
    ///
    /// The no-re-forming memory forbids one move, the man's return to the point it left, and
    /// only when that re-forms a mill. That is never a side's only move: the mill's line runs
    /// through the point left, so one of the man's two mill-mates stands next to it and may
    /// slide in. The count below does not rely on this, and would find such a side trapped.
    pub(crate) fn has_base_move(&self, pos: &MorrisPosition) -> bool {
        let us = pos.side;
        let (ours, hand) = (pos.men(us), pos.in_hand(us));
        let empty = self.board.all_points().without(pos.occupied());
        let sliding_memory = pos
            .barrier(us)
            .filter(|b| hand == 0 && !self.can_fly(ours, hand) && ours.contains_index(b.man));
        if let Some(b) = sliding_memory {
            // Every slide is legal but the man's return: one pass over the men, where the
            // general way below takes two (the retrograde solver asks this of every position
            // of its units, most of which hold a memory).
            let man = Bitboard::from_index(b.man);
            let own = self.board.neighbours(b.man) & empty;
            let others = self.board.slide_targets(ours.without(man), empty);
            return (others | own.without(Bitboard::from_index(b.point))).any()
                || own.contains_index(b.point) && !self.reforms_mill(ours, b.man, b.point);
        }
        if !self.can_move(ours, hand, empty) {
            return false;
        }
        if hand > 0 || pos.barrier(us).is_none() {
            return true;
        }
        let mut any = false;
        self.visit_base_targets(pos, &mut |_, targets| any |= targets.any());
        any
    }

    /// Calls `visit(from, targets)` with the placements of the side to move (`from` is `None`)
    /// and each man's slides or flights: every point of `targets` is a legal destination.
    /// Men with nowhere to go are visited with no targets.
    #[inline]
    pub(crate) fn visit_base_targets<F: FnMut(Option<u8>, Bitboard)>(
        &self,
        pos: &MorrisPosition,
        visit: &mut F,
    ) {
        let us = pos.side;
        let ours = pos.men(us);
        let hand = pos.in_hand(us);
        let empty = self.board.all_points().without(pos.occupied());
        if hand > 0 {
            visit(None, empty);
        }
        if self.moves_men(hand) {
            let fly = self.can_fly(ours, hand);
            let barrier = pos.barrier(us);
            for from in ours.indices() {
                let mut targets = if fly {
                    empty
                } else {
                    self.board.neighbours(from) & empty
                };
                // The no-re-forming memory: the man may not return to re-form its mill.
                if let Some(b) = barrier.filter(|b| {
                    b.man == from
                        && targets.contains_index(b.point)
                        && self.reforms_mill(ours, from, b.point)
                }) {
                    targets = targets.without(Bitboard::from_index(b.point));
                }
                visit(Some(from), targets);
            }
        }
    }

    /// Calls `visit` with each placement, slide or flight of the side to move and the side's
    /// men after it.
    #[inline]
    pub(crate) fn visit_base_moves<F: FnMut(MorrisMove, Bitboard)>(
        &self,
        pos: &MorrisPosition,
        visit: &mut F,
    ) {
        let ours = pos.men(pos.side);
        let shape = self.board.shape();
        self.visit_base_targets(pos, &mut |from, targets| match from {
            None => {
                for to in targets.indices() {
                    visit(
                        MorrisMove::place(shape, to),
                        ours | Bitboard::from_index(to),
                    );
                }
            }
            Some(from) => {
                let left = ours.without(Bitboard::from_index(from));
                for to in targets.indices() {
                    visit(
                        MorrisMove::step(shape, from, to),
                        left | Bitboard::from_index(to),
                    );
                }
            }
        });
    }

    /// Calls `visit` with every legal turn in `pos`, in a fixed order: placements by point, then
    /// slides and flights by starting point and destination, each base move followed by its
    /// choices of men to take. A position over by itself has none.
    pub fn for_each_turn<F: FnMut(&MorrisMove)>(&self, pos: &MorrisPosition, mut visit: F) {
        // A trapped side is not tested for here: it has no base move to visit, so it gets no
        // turn, or its pass where the rules let it pass. The test would go over the men's
        // targets once more, after callers such as the solver, the verifier and a game's end
        // test (`Game::outcome`) went over them for the position already.
        if self.position_outcome_with(pos, || true).is_some() {
            return;
        }
        let theirs = pos.men(!pos.side);
        let shape = self.board.shape();
        if pos.opening_removal {
            let takeable = self.removable(theirs);
            if takeable.is_empty() || self.rules.capture == Capture::Optional {
                visit(&MorrisMove::pass(shape));
            }
            for r in takeable.indices() {
                visit(&MorrisMove::remove_only(shape, Bitboard::from_index(r)));
            }
            return;
        }
        self.visit_bases(pos, |base, takes| {
            self.visit_removals(base, theirs, takes, &mut visit)
        });
    }

    /// Calls `visit` with the turns of [`Morris::for_each_turn`], in its order, leaving out
    /// quiet ones (slides and flights that take nothing) that it counts instead: returns how
    /// many it left out. Some quiet turns may still be visited.
    ///
    /// Where the side to move only moves men on the board (none in hand, no opening removal),
    /// trapping takes nothing, a mill does not end the game and a trapped side does not pass,
    /// only a move onto a point that completes a line of two of the mover's men can take: the
    /// others are counted by their bits, untested. Elsewhere every turn is visited and the
    /// count is 0.
    ///
    /// The retrograde solver counts a position's quiet turns without playing them (each leads
    /// to a position of its own unit); testing each move for a mill there cost a branch the
    /// processor rarely foresees.
    pub fn for_each_turn_counting_quiet<F: FnMut(&MorrisMove)>(
        &self,
        pos: &MorrisPosition,
        mut visit: F,
    ) -> u32 {
        let countable = !pos.opening_removal
            && pos.in_hand(pos.side) == 0
            && !self.rules.trap_captures
            && !self.rules.mill_wins
            && self.rules.trapped != Trapped::Passes;
        if !countable {
            self.for_each_turn(pos, visit);
            return 0;
        }
        if self.position_outcome_with(pos, || true).is_some() {
            return 0;
        }
        let ours = pos.men(pos.side);
        let theirs = pos.men(!pos.side);
        let empty = self.board.all_points().without(pos.occupied());
        // The points a move may close a mill on: the empty point of a line whose other two
        // points are the mover's. A man leaving that line breaks it, so `takes` decides.
        let mut closing = 0;
        for &mill in self.board.mills() {
            let two = (mill & ours.0).count_ones() == 2;
            closing |= if two { mill & empty.0 } else { 0 };
        }
        let closing = Bitboard(closing);
        let shape = self.board.shape();
        let mut quiet = 0;
        self.visit_base_targets(pos, &mut |from, targets| {
            // Placements (`None`) are visited only for a side with men in hand.
            let Some(from) = from else { return };
            quiet += targets.count();
            let left = ours.without(Bitboard::from_index(from));
            for to in (targets & closing).indices() {
                let base = MorrisMove::step(shape, from, to);
                let takes = self.takes(pos, &base, left | Bitboard::from_index(to), false);
                if takes > 0 {
                    // Visited with its removals (and, where capture is optional or nothing
                    // can be taken, as the quiet move it also is).
                    quiet -= 1;
                    self.visit_removals(base, theirs, takes, &mut visit);
                }
            }
        });
        quiet
    }

    /// Calls `visit` with each placement, slide or flight (or the pass of a trapped player who
    /// passes) and the number of men it takes, in the order of [`Morris::for_each_turn`]. The
    /// caller has checked that the game goes on and that no opening removal is due.
    #[inline]
    pub(crate) fn visit_bases<F: FnMut(MorrisMove, u32)>(
        &self,
        pos: &MorrisPosition,
        mut visit: F,
    ) {
        let trapped_before = self.rules.trap_captures && self.trapped(pos, pos.men(pos.side));
        let mut any = false;
        self.visit_base_moves(pos, &mut |base, ours_after| {
            any = true;
            visit(base, self.takes(pos, &base, ours_after, trapped_before));
        });
        if !any && self.rules.trapped == Trapped::Passes {
            visit(MorrisMove::pass(self.board.shape()), 0);
        }
    }

    /// Whether the side not to move could not move if the side to move had `ours` on the board.
    #[inline]
    pub(crate) fn trapped(&self, pos: &MorrisPosition, ours: Bitboard) -> bool {
        let them = !pos.side;
        let empty = self.board.all_points().without(ours | pos.men(them));
        !self.can_move(pos.men(them), pos.in_hand(them), empty)
    }

    /// Calls `visit` with each set of men that `base` (a legal placement or move in `pos`) may
    /// take; once, with the empty set, if it takes none.
    pub(crate) fn visit_removal_sets<F: FnMut(Bitboard)>(
        &self,
        pos: &MorrisPosition,
        base: &MorrisMove,
        mut visit: F,
    ) {
        let takes = self.takes_by(pos, base);
        self.visit_removals(*base, pos.men(!pos.side), takes, &mut |mv: &MorrisMove| {
            visit(mv.removed())
        });
    }

    /// How many men `base` (a legal placement or move in `pos`, without removals) takes.
    #[inline]
    pub(crate) fn takes_by(&self, pos: &MorrisPosition, base: &MorrisMove) -> u32 {
        let us = pos.side;
        let mut ours_after = pos.men(us);
        if let Some(from) = base.from() {
            ours_after = ours_after.without(Bitboard::from_index(from));
        }
        if let Some(to) = base.to() {
            ours_after |= Bitboard::from_index(to);
        }
        let trapped_before = self.rules.trap_captures && self.trapped(pos, pos.men(us));
        self.takes(pos, base, ours_after, trapped_before)
    }

    /// How many men `base` takes.
    #[inline]
    pub(crate) fn takes(
        &self,
        pos: &MorrisPosition,
        base: &MorrisMove,
        ours_after: Bitboard,
        trapped_before: bool,
    ) -> u32 {
        let Some(to) = base.to() else { return 0 };
        if self.rules.mill_wins {
            return 0;
        }
        let placing = base.from().is_none();
        if self.rules.trap_captures && !placing && self.trapped(pos, ours_after) {
            // Only the move that traps takes, once; nothing is taken while they stay trapped.
            return u32::from(!trapped_before);
        }
        if placing && !self.rules.captures_while_placing {
            return 0;
        }
        match self.board.mills_closed_at(to, ours_after) {
            0 => 0,
            1 => 1,
            _ => match self.rules.double_mill {
                DoubleMill::TakeOne => 1,
                DoubleMill::TakeTwo => 2,
            },
        }
    }

    /// Visits `base` with every legal choice of `takes` men from `theirs` (fewer if fewer can be
    /// taken; none if none can), and with none first where capture is optional.
    #[inline]
    fn visit_removals<F: FnMut(&MorrisMove)>(
        &self,
        base: MorrisMove,
        theirs: Bitboard,
        takes: u32,
        visit: &mut F,
    ) {
        if takes == 0 {
            visit(&base);
            return;
        }
        let first = self.removable(theirs);
        if first.is_empty() || self.rules.capture == Capture::Optional {
            visit(&base);
        }
        if first.is_empty() {
            return;
        }
        if takes >= 2 {
            // A pair is legal if one of its two orders is.
            let mut pairs = 0;
            for x in theirs.indices() {
                let bx = Bitboard::from_index(x);
                for y in theirs.indices().filter(|&y| y > x) {
                    let by = Bitboard::from_index(y);
                    let legal = (first.intersects(bx)
                        && self.removable(theirs ^ bx).intersects(by))
                        || (first.intersects(by) && self.removable(theirs ^ by).intersects(bx));
                    if legal {
                        pairs += 1;
                        visit(&base.taking(bx | by));
                    }
                }
            }
            if pairs > 0 {
                return;
            }
        }
        for r in first.indices() {
            visit(&base.taking(Bitboard::from_index(r)));
        }
    }

    /// The position after `mv`, which must be legal in `pos` (copy-make).
    ///
    /// # Panics
    ///
    /// As [`Morris::play_turn_in_place`], for some moves that are not legal in `pos`.
    #[inline]
    #[must_use]
    pub fn play_turn(&self, pos: &MorrisPosition, mv: &MorrisMove) -> MorrisPosition {
        let mut next = *pos;
        self.play_turn_in_place(&mut next, mv);
        next
    }

    /// Plays `mv`, which must be legal in `pos`, on `pos` itself (envs keep one position and
    /// play on it: no copy of it to write and read back).
    ///
    /// # Panics
    ///
    /// In debug builds, for a placement by a side with no man in hand (not legal in `pos`: the
    /// count would wrap). Other illegal moves make a position the rules cannot reach, without
    /// a panic.
    #[inline]
    pub fn play_turn_in_place(&self, pos: &mut MorrisPosition, mv: &MorrisMove) {
        let us = pos.side;
        let them = !us;
        let ours_before = pos.men(us);
        let opening_removal = pos.opening_removal;
        if let Some(to) = mv.to() {
            let mut ours = ours_before | Bitboard::from_index(to);
            match mv.from() {
                Some(from) => ours = ours.without(Bitboard::from_index(from)),
                None => pos.hand[us.index()] -= 1,
            }
            pos.men[us.index()] = ours;
        }
        pos.men[them.index()] = pos.men(them).without(mv.removed());

        if self.rules.no_reforming {
            pos.barrier[us.index()] = BarrierSlot::new(match (mv.from(), mv.to()) {
                (Some(from), Some(to)) if self.board.mills_closed_at(from, ours_before) > 0 => {
                    Some(super::Barrier {
                        man: to,
                        point: from,
                    })
                }
                _ => None,
            });
            // The other side's memory lapses once its man is taken or its point is filled:
            // it can no longer forbid anything, and positions stay canonical.
            if let Some(b) = pos.barrier[them.index()].get() {
                let occupied = pos.men[0] | pos.men[1];
                if !pos.men[them.index()].contains_index(b.man) || occupied.contains_index(b.point)
                {
                    pos.barrier[them.index()] = BarrierSlot::NONE;
                }
            }
        }

        pos.side = them;
        if opening_removal {
            pos.opening_removal = false;
            pos.first_mill = None;
        } else if self.rules.first_mill_opens {
            if let (None, Some(to)) = (mv.from(), mv.to()) {
                if pos.first_mill.is_none()
                    && self.board.mills_closed_at(to, pos.men[us.index()]) > 0
                {
                    pos.first_mill = Some(us);
                }
                if pos.hand == [0, 0] {
                    if let Some(opener) = pos.first_mill {
                        pos.side = opener;
                        pos.opening_removal = true;
                    }
                }
            }
        }
    }

    /// The outcome of `pos` by the position alone: a mill (when mills win), too few men, a full
    /// board (when that is a draw) or no move (when a trapped side loses).
    pub(crate) fn position_outcome(&self, pos: &MorrisPosition) -> Option<crate::Outcome> {
        self.position_outcome_with(pos, || self.has_base_move(pos))
    }

    /// [`Morris::position_outcome`], with `has_move` answering [`Morris::has_base_move`]. It is
    /// asked only where being trapped loses, last; `|| true` leaves that test to a caller that
    /// generates the moves anyway (no move: lost, or a pass).
    #[inline]
    pub(crate) fn position_outcome_with(
        &self,
        pos: &MorrisPosition,
        has_move: impl FnOnce() -> bool,
    ) -> Option<crate::Outcome> {
        use crate::{EndReason, Outcome};
        let us = pos.side;
        let them = !us;
        if self.rules.mill_wins {
            for side in [them, us] {
                if self.board.has_mill(pos.men(side)) {
                    return Some(Outcome::win(side, EndReason::Mill));
                }
            }
        }
        let below = u32::from(self.rules.lose_below);
        for side in [us, them] {
            if pos.total_men(side) < below {
                return Some(Outcome::win(!side, EndReason::NoMen));
            }
        }
        if pos.opening_removal {
            return None;
        }
        let full = self.board.all_points().without(pos.occupied()).is_empty();
        // A full board with no removal to come is drawn where the rules say so, and also where
        // trapped players pass: no man can ever move again (every move needs an empty point),
        // so the sides would pass for ever.
        let dead = self.rules.full_board == super::FullBoard::Draw
            || self.rules.trapped == Trapped::Passes;
        if full && pos.hand == [0, 0] && dead {
            return Some(Outcome::draw(EndReason::BoardFull));
        }
        if self.rules.trapped == Trapped::Loses && !has_move() {
            return Some(Outcome::win(them, EndReason::NoMoves));
        }
        None
    }
}
