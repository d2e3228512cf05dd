//! `MorrisDomain`: the morris database scheme for the solver.

use std::sync::Arc;

use perfectplay_core::morris::fen::MorrisPositionError;
use perfectplay_core::morris::{
    Barrier, Morris, MorrisMove, MorrisPosition, MorrisRules, MoveKind,
};
use perfectplay_core::{Bitboard, Color};

use super::index::{MorrisIndexer, MoverPart, SubspaceIndex};
use super::key::MorrisKey;
use super::memories::MemoryIndex;
use crate::domain::Domain;
use crate::error::{ProbeError, RequestError, SolveError};

/// The most men a side has on any morris board (half the points of the 24-point boards).
const MAX_SIDE_MEN: usize = 12;

/// The ways a side's men split between the board and the hand: `(13 * 14) / 2`.
const SIDE_CODES: usize = 91;

/// A dense number for each side's men on the board and in hand, at most [`MAX_SIDE_MEN`] in
/// all; `u8::MAX` for more. Tablebase slots numbered by them stay few (33,124): probes read
/// their table's slot without the lock and map of unnumbered keys.
static SIDE_CODE: [[u8; MAX_SIDE_MEN + 1]; MAX_SIDE_MEN + 1] = side_codes();

const fn side_codes() -> [[u8; MAX_SIDE_MEN + 1]; MAX_SIDE_MEN + 1] {
    let mut codes = [[u8::MAX; MAX_SIDE_MEN + 1]; MAX_SIDE_MEN + 1];
    let mut next = 0;
    let mut board = 0;
    while board <= MAX_SIDE_MEN {
        let mut hand = 0;
        while board + hand <= MAX_SIDE_MEN {
            codes[board][hand] = next;
            next += 1;
            hand += 1;
        }
        board += 1;
    }
    assert!(next as usize == SIDE_CODES, "SIDE_CODES counts the splits");
    codes
}

/// Slot numbers of morris keys: both sides' codes and the two memories.
const KEY_SLOTS: usize = SIDE_CODES * SIDE_CODES * 4;

/// `rules` with the history rules (repetition, move rule, ply limit) at fixed values: they do
/// not change database values, so tables serve every setting of them. Two rule sets share
/// tables exactly when this gives the same for both.
#[must_use]
pub fn without_history(rules: &MorrisRules) -> MorrisRules {
    MorrisRules {
        threefold_repetition: true,
        move_rule: None,
        ply_limit: None,
        ..*rules
    }
}

/// A key's fields: men and men in hand of the side to move and the other, and whether each
/// remembers a broken mill.
type KeyParts = (u8, u8, u8, u8, bool, bool);

/// Why a position has no subspace (made into a [`ProbeError`] only when reported).
enum Unlocated {
    /// It remembers something these rules do not.
    Memory,
    /// Its counts make no subspace of these rules.
    NoSubspace(MorrisKey),
    /// Men stand off the board or two on one point: a position made unchecked, which would
    /// rank as another.
    NotAPosition,
}

impl Unlocated {
    fn into_error(self) -> ProbeError {
        match self {
            Unlocated::Memory => ProbeError::OutOfScope(
                "the position carries a memory of earlier turns (no re-forming, first mill) \
                 that these rules do not have"
                    .into(),
            ),
            Unlocated::NoSubspace(key) => {
                ProbeError::OutOfScope(format!("subspace {key} does not exist under these rules"))
            }
            Unlocated::NotAPosition => {
                ProbeError::NotAPosition(MorrisPositionError::BadMen.to_string())
            }
        }
    }
}

/// The database scheme of a morris game under one rule set.
#[derive(Debug)]
pub struct MorrisDomain {
    pub(super) game: Morris,
    pub(super) indexer: MorrisIndexer,
    /// Subspace indices by (mover men, other men), built on first use.
    indices: Vec<std::sync::OnceLock<Arc<SubspaceIndex>>>,
    /// The indices of subspaces with memories, by key slot, built on first use.
    memory_indices: Vec<std::sync::OnceLock<Arc<MemoryIndex>>>,
}

impl MorrisDomain {
    /// The scheme for `game`. Under Shah's first-mill memory (`first_mill_opens`) only the
    /// moving phase can be solved: see [`Domain::check_key`].
    pub fn new(game: Morris) -> Result<MorrisDomain, SolveError> {
        let board = game.board();
        let points = board.point_count();
        let memory_slots = if game.rules().no_reforming {
            KEY_SLOTS
        } else {
            0
        };
        Ok(MorrisDomain {
            indexer: MorrisIndexer::new(board),
            indices: (0..(points + 1) * (points + 1))
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            memory_indices: (0..memory_slots)
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            game,
        })
    }

    pub(super) fn points(&self) -> u8 {
        self.game.board().point_count() as u8
    }

    pub(super) fn memory(&self) -> bool {
        self.game.rules().no_reforming
    }

    /// The subspace of `pos` and its effective memories (mover's, other's), or why no subspace
    /// holds it; nothing is allocated, as the solver asks this of every successor. Inlined, and
    /// checked on the parts, so that the key is never stored field by field and read back
    /// whole: a load spanning several smaller stores waits until they reach the cache.
    #[inline(always)]
    fn key_of(
        &self,
        pos: &MorrisPosition,
    ) -> Result<(MorrisKey, Option<Barrier>, Option<Barrier>), Unlocated> {
        let raw_barrier =
            pos.barrier(Color::White).is_some() || pos.barrier(Color::Black).is_some();
        if (raw_barrier && !self.memory())
            || pos.first_mill().is_some()
            || pos.opening_removal_pending()
        {
            return Err(Unlocated::Memory);
        }
        let us = pos.side_to_move();
        let mover = self.game.effective_barrier(pos, us);
        let other = self.game.effective_barrier(pos, !us);
        self.key_with(pos, mover, other)
    }

    /// [`MorrisDomain::key_of`] for a position whose effective memories are `mover` and
    /// `other` (the side to move's and the other side's), already worked out, and that carries
    /// no memory these rules lack: the caller knows both.
    #[inline(always)]
    fn key_with(
        &self,
        pos: &MorrisPosition,
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> Result<(MorrisKey, Option<Barrier>, Option<Barrier>), Unlocated> {
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let (a, b) = (ours.count() as u8, theirs.count() as u8);
        let (hand_a, hand_b) = (pos.in_hand(us), pos.in_hand(!us));
        let key = MorrisKey::moving(a, b)
            .with_hands(hand_a, hand_b)
            .with_barriers(mover.is_some(), other.is_some());
        // Checked on the parts, already in registers, rather than read back out of `key`.
        let parts = (a, b, hand_a, hand_b, mover.is_some(), other.is_some());
        let valid = self.is_valid_parts(parts);
        // A few bit operations, so that no caller (the solver's own positions included) can
        // rank men off the board or on one point as another position.
        let on_board =
            (ours | theirs).is_subset(self.game.board().all_points()) && !ours.intersects(theirs);
        if !(valid && on_board) {
            return Err(if on_board {
                Unlocated::NoSubspace(key)
            } else {
                Unlocated::NotAPosition
            });
        }
        Ok((key, mover, other))
    }

    /// The subspace and index of `pos` ([`Domain::locate_near`]), or why no subspace holds it.
    #[inline(always)]
    fn locate_parts(
        &self,
        pos: &MorrisPosition,
        memo: &mut Option<MoverPart>,
    ) -> Result<(MorrisKey, u64), Unlocated> {
        let located = self.key_of(pos)?;
        self.locate_keyed(pos, located, memo)
    }

    /// The index of `pos` in its subspace, from [`MorrisDomain::key_of`]'s answer.
    #[inline(always)]
    fn locate_keyed(
        &self,
        pos: &MorrisPosition,
        (key, mover, other): (MorrisKey, Option<Barrier>, Option<Barrier>),
        memo: &mut Option<MoverPart>,
    ) -> Result<(MorrisKey, u64), Unlocated> {
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        if mover.is_some() || other.is_some() {
            let memories = self.memory_index(key);
            return Ok((key, memories.locate(self, (ours, theirs), mover, other)));
        }
        // The counts again rather than read back out of the key: see `key_of`.
        let index = self.index(ours.count() as u8, theirs.count() as u8);
        // The class of the mover's men depends on their count and points alone, whatever
        // the other side's count.
        let part = match memo {
            Some(part) if part.men() == ours => *part,
            _ => *memo.insert(index.mover_part(ours)),
        };
        Ok((key, index.rank_with(&part, theirs)))
    }

    /// Whether no symmetry of the board but the identity maps `men` to itself, for a board
    /// with `others` as the other side's men (`false` where they make no subspace).
    fn fixed_by_identity_only(&self, men: Bitboard, others: Bitboard) -> bool {
        let (a, b) = (men.count() as u8, others.count() as u8);
        u32::from(a) + u32::from(b) <= u32::from(self.points())
            && men.is_subset(self.game.board().all_points())
            && self.index(a, b).has_trivial_stabilizer(men)
    }

    /// The index of `key`, a valid subspace with memories.
    #[inline]
    pub(super) fn memory_index(&self, key: MorrisKey) -> &MemoryIndex {
        let slot = self.key_slot(key).expect("a valid key has a slot");
        self.memory_indices[slot].get_or_init(|| Arc::new(MemoryIndex::new(self, key)))
    }

    pub(crate) fn index(&self, mover: u8, other: u8) -> &SubspaceIndex {
        let points = usize::from(self.points()) + 1;
        let slot = usize::from(mover) * points + usize::from(other);
        self.indices[slot].get_or_init(|| self.indexer.subspace(u32::from(mover), u32::from(other)))
    }

    /// Whether `key` can hold positions of this game: counts within the rules and the board,
    /// and memories only under `no_reforming`, for a side that may step and has the men for a
    /// mill (the man that broke it and two more), with an empty point to go back to.
    #[inline]
    #[must_use]
    pub fn is_valid_key(&self, key: MorrisKey) -> bool {
        self.is_valid_parts((
            key.mover(),
            key.other(),
            key.mover_hand(),
            key.other_hand(),
            key.mover_barrier(),
            key.other_barrier(),
        ))
    }

    /// [`MorrisDomain::is_valid_key`] on a key's fields, in its order.
    #[inline]
    fn is_valid_parts(&self, (a, b, hand_a, hand_b, barrier_a, barrier_b): KeyParts) -> bool {
        let rules = self.game.rules();
        let on_board = u32::from(a) + u32::from(b);
        let points = u32::from(self.points());
        let room = on_board < points;
        let can_remember = |men: u8, hand: u8| {
            rules.no_reforming && men >= 3 && (hand == 0 || rules.mixed_placement) && room
        };
        // Summed wide: a key read from a name may hold any byte.
        let men = u32::from(rules.men);
        u32::from(a) + u32::from(hand_a) <= men
            && u32::from(b) + u32::from(hand_b) <= men
            && on_board <= points
            && (!barrier_a || can_remember(a, hand_a))
            && (!barrier_b || can_remember(b, hand_b))
    }

    /// Whether every position of `key` is over before it starts: a side below the losing count.
    pub(super) fn all_over(&self, key: MorrisKey) -> bool {
        let below = self.game.rules().lose_below;
        let below = u32::from(below);
        u32::from(key.mover()) + u32::from(key.mover_hand()) < below
            || u32::from(key.other()) + u32::from(key.other_hand()) < below
    }

    /// The moving-phase subspaces with at most `max_men` men per side, smallest first, without
    /// memories (those with memories are among what they lead to).
    #[must_use]
    pub fn moving_keys(&self, max_men: u8) -> Vec<MorrisKey> {
        let rules = self.game.rules();
        let low = rules.lose_below.max(1);
        let mut keys = Vec::new();
        for mover in low..=max_men.min(rules.men) {
            for other in low..=max_men.min(rules.men) {
                let key = MorrisKey::moving(mover, other);
                if self.is_valid_key(key) && !self.all_over(key) {
                    keys.push(key);
                }
            }
        }
        keys
    }

    /// [`moving_keys`](Self::moving_keys) of a count asked for by a user: refused unless it
    /// is between the fewest men a side plays with and the men of each side.
    pub fn moving_keys_checked(&self, max_men: u8) -> Result<Vec<MorrisKey>, RequestError> {
        let rules = self.game.rules();
        let min = rules.lose_below.max(1);
        if !(min..=rules.men).contains(&max_men) {
            return Err(RequestError::MaxMen {
                game: self.game_id(),
                requested: max_men,
                min,
                max: rules.men,
            });
        }
        Ok(self.moving_keys(max_men))
    }

    /// The subspace of the start position: the whole game is everything it leads to.
    #[must_use]
    pub fn start_key(&self) -> MorrisKey {
        let men = self.game.rules().men;
        MorrisKey::moving(0, 0).with_hands(men, men)
    }

    pub(super) fn board_position(
        key: MorrisKey,
        (mover, other): (Bitboard, Bitboard),
    ) -> MorrisPosition {
        MorrisPosition::from_parts_unchecked(
            mover,
            other,
            key.mover_hand(),
            key.other_hand(),
            Color::White,
        )
    }
}

impl Domain for MorrisDomain {
    type Game = Morris;
    type Key = MorrisKey;

    fn game(&self) -> &Morris {
        &self.game
    }

    fn game_id(&self) -> String {
        let rules = without_history(self.game.rules());
        MorrisRules::PRESETS
            .iter()
            .find(|p| without_history(&p.rules) == rules)
            .map_or("morris", |p| p.id)
            .to_owned()
    }

    fn rules_text(&self) -> String {
        without_history(self.game.rules()).to_string()
    }

    fn index_scheme(&self) -> &'static str {
        if self.memory() {
            "morris-symmetry-classes-memory-witnesses-v2"
        } else {
            "morris-symmetry-classes-v1"
        }
    }

    fn check_key(&self, key: MorrisKey) -> Result<(), String> {
        if self.game.rules().first_mill_opens && !key.is_moving_phase() {
            return Err(
                "while placing, positions under first_mill_opens (Shah) remember who \
                        closed the first mill, which the database index does not hold: only \
                        the moving phase can be solved (--max-men or moving subspaces)"
                    .to_owned(),
            );
        }
        Ok(())
    }

    fn parse_key(&self, text: &str) -> Option<MorrisKey> {
        text.parse().ok().filter(|&k| self.is_valid_key(k))
    }

    fn size(&self, key: MorrisKey) -> u64 {
        if !self.is_valid_key(key) {
            return 0;
        }
        if key.has_barriers() {
            return self.memory_index(key).size();
        }
        self.index(key.mover(), key.other()).size()
    }

    fn unrank(&self, key: MorrisKey, index: u64) -> MorrisPosition {
        if key.has_barriers() {
            return self.unrank_with_memories(key, index);
        }
        let board = self.index(key.mover(), key.other()).unrank(index);
        Self::board_position(key, board)
    }

    fn for_each_position<F: FnMut(u64, &MorrisPosition)>(
        &self,
        key: MorrisKey,
        range: std::ops::Range<u64>,
        mut visit: F,
    ) {
        if key.has_barriers() {
            self.memory_index(key)
                .for_each(range, |(i, ours, theirs, mover, other)| {
                    visit(
                        i,
                        &Self::position_with_memories(key, ours, theirs, mover, other),
                    );
                });
            return;
        }
        let start = range.start;
        let index = self.index(key.mover(), key.other());
        for (i, board) in index.boards(range).enumerate() {
            visit(start + i as u64, &Self::board_position(key, board));
        }
    }

    /// An index of a subspace with memories is a hole unless the position locates back to it
    /// (its least index over witnesses and symmetries). The memories of a position unranked
    /// from a key are effective by construction (each class fixes a man that can reach the
    /// point it left, a neighbour or any man of a side that flies, and the two men of the line
    /// it would re-form), so they are not tested again here but in debug builds.
    fn is_hole(&self, key: MorrisKey, index: u64, pos: &MorrisPosition) -> bool {
        if !key.has_barriers() {
            return false;
        }
        let us = pos.side_to_move();
        debug_assert_eq!(
            (
                self.game.effective_barrier(pos, us),
                self.game.effective_barrier(pos, !us)
            ),
            (pos.barrier(us), pos.barrier(!us)),
            "an unranked position's memories are effective"
        );
        debug_assert_eq!(
            (pos.barrier(us).is_some(), pos.barrier(!us).is_some()),
            (key.mover_barrier(), key.other_barrier()),
            "an unranked position has the memories of its key"
        );
        // The memories are effective and present exactly where the key has them: the
        // position locates to this key, at the least of its memory index's indices.
        self.memory_index(key).is_hole(
            self,
            (pos.men(us), pos.men(!us)),
            pos.barrier(us),
            pos.barrier(!us),
            index,
        )
    }

    fn subspace_of(&self, pos: &MorrisPosition) -> Option<MorrisKey> {
        self.key_of(pos).ok().map(|(key, ..)| key)
    }

    fn quiet_turns_are_distinct(&self, pos: &MorrisPosition) -> bool {
        // A quiet turn keeps the other side's men where they are, so two successors that are
        // symmetric images of each other need a symmetry that fixes those men.
        let us = pos.side_to_move();
        self.fixed_by_identity_only(pos.men(!us), pos.men(us))
    }

    #[inline]
    fn is_quiet_turn(&self, _pos: &MorrisPosition, mv: &MorrisMove) -> bool {
        matches!(mv.kind(), MoveKind::Move { .. } | MoveKind::Pass) && !mv.is_capture()
    }

    #[inline]
    fn lowers_material(&self, _pos: &MorrisPosition, mv: &MorrisMove) -> bool {
        mv.is_capture()
    }

    #[inline]
    fn for_each_turn_counting_quiet<F: FnMut(&MorrisMove)>(
        &self,
        pos: &MorrisPosition,
        visit: F,
    ) -> u32 {
        self.game.for_each_turn_counting_quiet(pos, visit)
    }

    fn quiet_successor_keys(&self, key: MorrisKey) -> Option<Vec<MorrisKey>> {
        Some(self.subspaces_after_quiet(key))
    }

    fn quiet_predecessors_are_distinct(&self, pos: &MorrisPosition) -> bool {
        // Two predecessors with one index are symmetric images of each other, memories
        // included (the index is perfect up to symmetry), by a symmetry that fixes the men of
        // the side to move in `pos`: a turn back leaves them where they are. Only the identity
        // fixes most sets of men, and no two turns back give the same position.
        let us = pos.side_to_move();
        self.fixed_by_identity_only(pos.men(us), pos.men(!us))
    }

    fn key_slots(&self) -> usize {
        KEY_SLOTS
    }

    #[inline]
    fn key_slot(&self, key: MorrisKey) -> Option<usize> {
        let side = |board: u8, hand: u8| {
            SIDE_CODE
                .get(usize::from(board))
                .and_then(|row| row.get(usize::from(hand)))
                .copied()
                .filter(|&code| code != u8::MAX)
                .map(usize::from)
        };
        let sides = side(key.mover(), key.mover_hand())? * SIDE_CODES
            + side(key.other(), key.other_hand())?;
        Some((sides * 2 + usize::from(key.mover_barrier())) * 2 + usize::from(key.other_barrier()))
    }

    fn locate(&self, pos: &MorrisPosition) -> Result<(MorrisKey, u64), ProbeError> {
        // Men off the board or two on one point ([`MorrisPosition::from_parts_unchecked`]) are
        // refused by `key_with`, on every path.
        self.locate_near(pos, &mut None)
    }

    fn check_position(&self, pos: &MorrisPosition) -> Result<(), ProbeError> {
        self.game
            .validate(pos)
            .map_err(|e| ProbeError::NotAPosition(e.to_string()))
    }

    type LocateMemo = Option<MoverPart>;

    #[inline]
    fn locate_near(
        &self,
        pos: &MorrisPosition,
        memo: &mut Option<MoverPart>,
    ) -> Result<(MorrisKey, u64), ProbeError> {
        self.locate_parts(pos, memo).map_err(Unlocated::into_error)
    }

    #[inline]
    fn try_locate_near(
        &self,
        pos: &MorrisPosition,
        memo: &mut Option<MoverPart>,
    ) -> Option<(MorrisKey, u64)> {
        self.locate_parts(pos, memo).ok()
    }

    fn successor_keys(&self, key: MorrisKey) -> Vec<MorrisKey> {
        self.subspaces_after(key)
    }

    /// The generator gives each predecessor its memories in canonical form, only effective
    /// ones ([`Morris::for_each_quiet_predecessor`]): they are taken as they are rather than
    /// checked again (checked in debug builds).
    #[inline]
    fn locate_predecessor(&self, pos: &MorrisPosition) -> Result<(MorrisKey, u64), ProbeError> {
        debug_assert_eq!(
            *pos,
            self.game.canonical_memory(pos),
            "a canonical predecessor"
        );
        let us = pos.side_to_move();
        self.key_with(pos, pos.barrier(us), pos.barrier(!us))
            .and_then(|located| self.locate_keyed(pos, located, &mut None))
            .map_err(Unlocated::into_error)
    }

    fn for_each_quiet_predecessor<F: FnMut(&MorrisPosition)>(
        &self,
        pos: &MorrisPosition,
        mut visit: F,
    ) {
        self.game.for_each_quiet_predecessor(pos, |q, _| visit(q));
    }
}

#[cfg(test)]
mod tests;
