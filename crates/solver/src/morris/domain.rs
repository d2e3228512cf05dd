//! The morris database scheme: subspaces by men on the board and in hand, the side to move
//! normalised to White, and under `no_reforming` by which sides carry a memory.
//!
//! A subspace [`MorrisKey`] counts the men of the side to move and of the other side, on the
//! board and in hand. Its file name is `5-4` for the moving phase (5 men of the side to move,
//! 4 of the other, none in hand) and `3-2-h6-6` with men in hand. Positions of the side to move
//! Black are read with the colours swapped, so `5-4` holds both "White 5, Black 4, White to
//! move" and "Black 5, White 4, Black to move".
//!
//! The databases value positions by the board and the hands alone: the history rules of
//! [`perfectplay_core::GameState`] (threefold repetition, the move rule, the ply limit) are not
//! part of a database game, and a position from which neither side can force a win is a draw.
//! This is the game the published solutions of Nine Men's Morris solve. Shah's first-mill
//! memory (`first_mill_opens`) lives only while placing: Shah's moving phase is solved like
//! any other, and subspaces with men in hand are refused under it ([`Domain::check_key`]).
//!
//! # The no-re-forming memory
//!
//! Under `no_reforming` (Twelve Men's Morris, its nine-man variation) a position also remembers,
//! for each side, the man that last broke one of that side's mills and the point it left: on
//! the side's next turn that man may not go back if that re-forms the mill. The databases hold
//! the memory in canonical form ([`Morris::canonical_memory`]): a memory `(m, p)` of side `c`
//! is kept only when it can still forbid a turn, that is `m` is a man of `c`, `p` is empty, `m`
//! can step to `p`, and arriving on `p` closes a mill of `c` with its present men. Any other
//! memory is the same as none: until `c`'s next turn replaces it, only the other side plays,
//! and its turn can only fill points (the engine then drops the memory) and take men of `c`,
//! which never makes a mill of `c`. So the forbidden move either does not exist or re-forms
//! nothing whenever it could be tried. The database position is the board, the hands and the
//! two memories in this form; [`Domain::locate`] puts the raw memories of positions from
//! [`Morris::play_turn`] in canonical form first.
//!
//! A subspace then also says which sides carry a memory: [`MorrisKey::mover_barrier`] and
//! [`MorrisKey::other_barrier`], written `-bm`, `-bo` or `-bmo` after the name (`3-3-bmo`).
//! Subspaces without memories keep the names and the perfect index of rules without
//! `no_reforming`.
//!
//! A subspace with memories indexes `board × slots`: `board` the perfect index of the men, and
//! a slot per memory present (the mover's the more significant): the man (its rank among its
//! side's men, lowest point first) times the number of targets, plus the target: the point
//! itself (`0..points`) when that side flies (by the counts of the subspace and the rules'
//! `flying`), else the number of the point among the man's neighbours (lowest first, `0..` the
//! most neighbours of any point: 4 on the 24-point boards, 3 on the 16-point one). A board that
//! symmetries of the board fix carries symmetric memories in several slots; [`Domain::locate`]
//! picks the least index over the symmetries taking the board to its canonical form
//! ([`SubspaceIndex::canonical_symmetries`]). The other slots, and the slots that name no
//! effective memory, are holes ([`Domain::is_hole`]). Subspaces without memories have none.
//!
//! The slots are simple to compute but mostly holes: a side sliding with `a` men multiplies
//! the boards by `4a` on 24 points, and few boards have an effective memory at all. Twelve Men's
//! Morris `3-3-bmo` has 24,426,144 indices for 524 positions, `3-3-bo` 2,035,512 for 8,666.
//! That suits the small subspaces; the large ones would want a denser index of the memories.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use perfectplay_core::morris::{Barrier, DoubleMill, Morris, MorrisPosition, MorrisRules, Trapped};
use perfectplay_core::{Bitboard, Color};

use super::index::{MorrisIndexer, MoverPart, SubspaceIndex};
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

/// A morris subspace: men on the board and in hand of the side to move and of the other side,
/// and under `no_reforming` which sides carry an effective no-re-forming memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MorrisKey {
    /// Men in hand of the side to move (compared first: placement subspaces sort after the
    /// moving phase).
    pub mover_hand: u8,
    /// Men in hand of the other side.
    pub other_hand: u8,
    /// Men of the side to move on the board.
    pub mover: u8,
    /// Men of the other side on the board.
    pub other: u8,
    /// Whether the side to move carries a memory: one of its men may not go back to re-form
    /// the mill it just broke (compared last).
    pub mover_barrier: bool,
    /// Whether the other side carries a memory.
    pub other_barrier: bool,
}

impl MorrisKey {
    /// A moving-phase subspace: `mover` and `other` men on the board, none in hand, no
    /// memories.
    #[must_use]
    pub const fn moving(mover: u8, other: u8) -> MorrisKey {
        MorrisKey {
            mover,
            other,
            mover_hand: 0,
            other_hand: 0,
            mover_barrier: false,
            other_barrier: false,
        }
    }

    /// The subspace after a turn that keeps the men and the memories: the other side to move.
    #[must_use]
    pub const fn swapped(self) -> MorrisKey {
        MorrisKey {
            mover: self.other,
            other: self.mover,
            mover_hand: self.other_hand,
            other_hand: self.mover_hand,
            mover_barrier: self.other_barrier,
            other_barrier: self.mover_barrier,
        }
    }

    /// This subspace with the memories `mover_barrier` and `other_barrier`.
    #[must_use]
    pub const fn with_barriers(self, mover_barrier: bool, other_barrier: bool) -> MorrisKey {
        MorrisKey {
            mover_barrier,
            other_barrier,
            ..self
        }
    }

    /// Whether no man is in hand.
    #[must_use]
    pub const fn is_moving_phase(self) -> bool {
        self.mover_hand == 0 && self.other_hand == 0
    }

    /// Whether a side carries a memory.
    #[must_use]
    pub const fn has_barriers(self) -> bool {
        self.mover_barrier || self.other_barrier
    }
}

impl fmt::Display for MorrisKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover, self.other)?;
        if !self.is_moving_phase() {
            write!(f, "-h{}-{}", self.mover_hand, self.other_hand)?;
        }
        if self.has_barriers() {
            f.write_str("-b")?;
            if self.mover_barrier {
                f.write_str("m")?;
            }
            if self.other_barrier {
                f.write_str("o")?;
            }
        }
        Ok(())
    }
}

/// A subspace name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read subspace `{0}`: expected MEN-MEN (e.g. 5-4) or MEN-MEN-hHAND-HAND \
     (e.g. 2-3-h7-6), then -bm, -bo or -bmo for the memories of the side to move, the other \
     side or both (e.g. 3-3-bo)"
)]
pub struct ParseKeyError(String);

impl FromStr for MorrisKey {
    type Err = ParseKeyError;

    /// Reads `5-4`, `5,4`, `3-2-h6-6` or `3-3-bmo`.
    fn from_str(s: &str) -> Result<MorrisKey, ParseKeyError> {
        let err = || ParseKeyError(s.to_owned());
        let (rest, mover_barrier, other_barrier) = [("-bmo", true, true), ("-bm", true, false)]
            .into_iter()
            .chain([("-bo", false, true)])
            .find_map(|(suffix, m, o)| s.strip_suffix(suffix).map(|rest| (rest, m, o)))
            .unwrap_or((s, false, false));
        let (board, hands) = match rest.split_once("-h") {
            Some((b, h)) => (b, Some(h)),
            None => (rest, None),
        };
        let pair = |t: &str| -> Result<(u8, u8), ParseKeyError> {
            let (a, b) = t.split_once(['-', ',']).ok_or_else(err)?;
            Ok((
                a.trim().parse().map_err(|_| err())?,
                b.trim().parse().map_err(|_| err())?,
            ))
        };
        let (mover, other) = pair(board)?;
        let (mover_hand, other_hand) = match hands {
            Some(h) => pair(h)?,
            None => (0, 0),
        };
        Ok(MorrisKey {
            mover,
            other,
            mover_hand,
            other_hand,
            mover_barrier,
            other_barrier,
        })
    }
}

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
        }
    }
}

/// The database scheme of a morris game under one rule set.
#[derive(Debug)]
pub struct MorrisDomain {
    game: Morris,
    indexer: MorrisIndexer,
    /// Subspace indices by (mover men, other men), built on first use.
    indices: Vec<std::sync::OnceLock<Arc<SubspaceIndex>>>,
    /// The most neighbours of any point: the targets of a memory of a side that slides.
    max_neighbours: u8,
}

/// How a subspace with memories numbers one side's memory: targets per man, and whether the
/// side flies (targets are then the points, else the man's neighbours).
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Targets per man: the points when flying, else the most neighbours of a point.
    targets: u64,
    fly: bool,
}

impl MorrisDomain {
    /// The scheme for `game`. Under Shah's first-mill memory (`first_mill_opens`) only the
    /// moving phase can be solved: see [`Domain::check_key`].
    pub fn new(game: Morris) -> Result<MorrisDomain, SolveError> {
        let board = game.board();
        let points = board.point_count();
        let max_neighbours = (0..points as u8)
            .map(|p| board.neighbours(p).count())
            .max()
            .unwrap_or(0) as u8;
        Ok(MorrisDomain {
            indexer: MorrisIndexer::new(board),
            indices: (0..(points + 1) * (points + 1))
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            max_neighbours,
            game,
        })
    }

    fn points(&self) -> u8 {
        self.game.board().point_count() as u8
    }

    fn memory(&self) -> bool {
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
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let mover = self.game.effective_barrier(pos, us);
        let other = self.game.effective_barrier(pos, !us);
        let (a, b) = (ours.count() as u8, theirs.count() as u8);
        let (hand_a, hand_b) = (pos.in_hand(us), pos.in_hand(!us));
        let key = MorrisKey {
            mover: a,
            other: b,
            mover_hand: hand_a,
            other_hand: hand_b,
            mover_barrier: mover.is_some(),
            other_barrier: other.is_some(),
        };
        // Checked on the parts rather than on `key`, which the compiler would otherwise spill
        // and read back in pieces.
        let parts = (a, b, hand_a, hand_b, mover.is_some(), other.is_some());
        let valid = self.is_valid_parts(parts);
        if !valid || !ours.is_subset(self.game.board().all_points()) {
            return Err(Unlocated::NoSubspace(key));
        }
        Ok((key, mover, other))
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
            key.mover,
            key.other,
            key.mover_hand,
            key.other_hand,
            key.mover_barrier,
            key.other_barrier,
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
        a + hand_a <= rules.men
            && b + hand_b <= rules.men
            && on_board <= points
            && (!barrier_a || can_remember(a, hand_a))
            && (!barrier_b || can_remember(b, hand_b))
    }

    /// Whether every position of `key` is over before it starts: a side below the losing count.
    fn all_over(&self, key: MorrisKey) -> bool {
        let below = self.game.rules().lose_below;
        key.mover + key.mover_hand < below || key.other + key.other_hand < below
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
        MorrisKey {
            mover: 0,
            other: 0,
            mover_hand: men,
            other_hand: men,
            mover_barrier: false,
            other_barrier: false,
        }
    }

    /// The memory slot of a side with `on_board` men and `hand` in hand.
    fn slot(&self, on_board: u8, hand: u8) -> Slot {
        let fly = self
            .game
            .rules()
            .flying
            .is_some_and(|n| u32::from(on_board) + u32::from(hand) <= u32::from(n));
        let targets = if fly {
            self.points()
        } else {
            self.max_neighbours
        };
        Slot {
            targets: u64::from(targets),
            fly,
        }
    }

    /// The memory slots of `key`: the mover's and the other side's, `None` where absent.
    fn slots(&self, key: MorrisKey) -> (Option<Slot>, Option<Slot>) {
        (
            key.mover_barrier
                .then(|| self.slot(key.mover, key.mover_hand)),
            key.other_barrier
                .then(|| self.slot(key.other, key.other_hand)),
        )
    }

    /// Indices per board: the number of ways to fill the memory slots of `key` (1 without).
    fn slots_per_board(&self, key: MorrisKey) -> u64 {
        let (m, o) = self.slots(key);
        m.map_or(1, |s| u64::from(key.mover) * s.targets)
            * o.map_or(1, |s| u64::from(key.other) * s.targets)
    }

    /// The number of `barrier` (a memory of the side with `men`) in its side's slot.
    fn encode(&self, slot: Slot, men: Bitboard, barrier: Barrier) -> u64 {
        let below = |set: Bitboard, p: u8| u64::from((set.0 & ((1u32 << p) - 1)).count_ones());
        let target = if slot.fly {
            u64::from(barrier.point)
        } else {
            below(self.game.board().neighbours(barrier.man), barrier.point)
        };
        below(men, barrier.man) * slot.targets + target
    }

    /// The memory numbered `number` in the slot of the side with `men`, if it names one: a man
    /// and a point it can reach (not necessarily an effective memory).
    fn decode(&self, slot: Slot, men: Bitboard, number: u64) -> Option<Barrier> {
        let nth = |set: Bitboard, n: u64| set.indices().nth(usize::try_from(n).ok()?);
        let man = nth(men, number / slot.targets)?;
        let target = number % slot.targets;
        let point = if slot.fly {
            u8::try_from(target).ok()?
        } else {
            nth(self.game.board().neighbours(man), target)?
        };
        Some(Barrier { man, point })
    }

    /// Sets the memories of `pos` (a board of `key`, White to move) from `slot`, the part of an
    /// index below the board's.
    fn set_barriers(&self, key: MorrisKey, pos: &mut MorrisPosition, slot: u64) {
        let (m, o) = self.slots(key);
        let other_count = o.map_or(1, |s| u64::from(key.other) * s.targets);
        if let Some(s) = m {
            let barrier = self.decode(s, pos.men(Color::White), slot / other_count);
            pos.set_barrier(Color::White, barrier);
        }
        if let Some(s) = o {
            let barrier = self.decode(s, pos.men(Color::Black), slot % other_count);
            pos.set_barrier(Color::Black, barrier);
        }
    }

    /// The least slot over the symmetries `symmetries` (a bitmask, each taking the board of
    /// `key` to `(ours, theirs)`) of the memories `mover` and `other`.
    fn least_slot(
        &self,
        key: MorrisKey,
        symmetries: u32,
        (ours, theirs): (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> u64 {
        let group = self.indexer.symmetries();
        let image = |s: usize, b: Barrier| Barrier {
            man: group.point_image(s, b.man),
            point: group.point_image(s, b.point),
        };
        let (m, o) = self.slots(key);
        let other_count = o.map_or(1, |s| u64::from(key.other) * s.targets);
        let mut least = u64::MAX;
        let mut rest = symmetries;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut slot = 0;
            if let (Some(slot_m), Some(b)) = (m, mover) {
                slot += self.encode(slot_m, ours, image(s, b)) * other_count;
            }
            if let (Some(slot_o), Some(b)) = (o, other) {
                slot += self.encode(slot_o, theirs, image(s, b));
            }
            least = least.min(slot);
        }
        least
    }

    fn board_position(key: MorrisKey, (mover, other): (Bitboard, Bitboard)) -> MorrisPosition {
        MorrisPosition::from_parts(mover, other, key.mover_hand, key.other_hand, Color::White)
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
            "morris-symmetry-classes-memory-slots-v1"
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
        self.index(key.mover, key.other).size() * self.slots_per_board(key)
    }

    fn unrank(&self, key: MorrisKey, index: u64) -> MorrisPosition {
        if !key.has_barriers() {
            let board = self.index(key.mover, key.other).unrank(index);
            return Self::board_position(key, board);
        }
        let slots = self.slots_per_board(key);
        let board = self.index(key.mover, key.other).unrank(index / slots);
        let mut pos = Self::board_position(key, board);
        if key.has_barriers() {
            self.set_barriers(key, &mut pos, index % slots);
        }
        pos
    }

    fn for_each_position<F: FnMut(u64, &MorrisPosition)>(
        &self,
        key: MorrisKey,
        range: std::ops::Range<u64>,
        mut visit: F,
    ) {
        let index = self.index(key.mover, key.other);
        if !key.has_barriers() {
            let start = range.start;
            for (i, board) in index.boards(range).enumerate() {
                visit(start + i as u64, &Self::board_position(key, board));
            }
            return;
        }
        if range.is_empty() {
            return;
        }
        let slots = self.slots_per_board(key);
        let first = range.start / slots;
        let boards = first..range.end.div_ceil(slots);
        for (b, board) in boards.clone().zip(index.boards(boards)) {
            let base = Self::board_position(key, board);
            let at = b * slots;
            for i in range.start.max(at)..range.end.min(at + slots) {
                let mut pos = base;
                self.set_barriers(key, &mut pos, i - at);
                visit(i, &pos);
            }
        }
    }

    /// An index of a subspace with memories is a hole unless its memories are effective and
    /// the position locates back to it (the least of its symmetric forms).
    fn is_hole(&self, key: MorrisKey, index: u64, pos: &MorrisPosition) -> bool {
        if !key.has_barriers() {
            return false;
        }
        let us = pos.side_to_move();
        let effective = |present: bool, color: Color| {
            !present || self.game.effective_barrier(pos, color).is_some()
        };
        if !effective(key.mover_barrier, us) || !effective(key.other_barrier, !us) {
            return true;
        }
        self.locate(pos).ok() != Some((key, index))
    }

    fn subspace_of(&self, pos: &MorrisPosition) -> Option<MorrisKey> {
        self.key_of(pos).ok().map(|(key, ..)| key)
    }

    fn quiet_turns_are_distinct(&self, pos: &MorrisPosition) -> bool {
        // A quiet turn keeps the other side's men where they are, so two successors that are
        // symmetric images of each other need a symmetry that fixes those men.
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let (a, b) = (ours.count() as u8, theirs.count() as u8);
        u32::from(a) + u32::from(b) <= u32::from(self.points())
            && theirs.is_subset(self.game.board().all_points())
            && self.index(b, a).has_trivial_stabilizer(theirs)
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
        let sides =
            side(key.mover, key.mover_hand)? * SIDE_CODES + side(key.other, key.other_hand)?;
        Some((sides * 2 + usize::from(key.mover_barrier)) * 2 + usize::from(key.other_barrier))
    }

    fn locate(&self, pos: &MorrisPosition) -> Result<(MorrisKey, u64), ProbeError> {
        self.locate_near(pos, &mut None)
    }

    type LocateMemo = Option<MoverPart>;

    #[inline]
    fn locate_near(
        &self,
        pos: &MorrisPosition,
        memo: &mut Option<MoverPart>,
    ) -> Result<(MorrisKey, u64), ProbeError> {
        let (key, mover, other) = self.key_of(pos).map_err(Unlocated::into_error)?;
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        // The counts again rather than the key's fields: see `key_of`.
        let index = self.index(ours.count() as u8, theirs.count() as u8);
        // The class of the mover's men depends on their count and points alone, whatever
        // the other side's count.
        let part = match memo {
            Some(part) if part.men() == ours => *part,
            _ => *memo.insert(index.mover_part(ours)),
        };
        let board = index.rank_with(&part, theirs);
        if mover.is_none() && other.is_none() {
            return Ok((key, board));
        }
        let symmetries = index.canonical_symmetries(ours, theirs);
        let group = self.indexer.symmetries();
        let s = symmetries.trailing_zeros() as usize;
        let canonical = (
            Bitboard(group.apply(s, ours.0)),
            Bitboard(group.apply(s, theirs.0)),
        );
        let slot = self.least_slot(key, symmetries, canonical, mover, other);
        Ok((key, board * self.slots_per_board(key) + slot))
    }

    fn successor_keys(&self, key: MorrisKey) -> Vec<MorrisKey> {
        let rules = self.game.rules();
        let most_taken: u8 = if rules.mill_wins {
            0
        } else if rules.double_mill == DoubleMill::TakeTwo {
            2
        } else {
            1
        };
        let moves = key.mover_hand == 0 || rules.mixed_placement;
        // The subspaces after a slide or flight, and after a placement or a pass, before
        // memories.
        let mut steps = Vec::new();
        let mut others = Vec::new();
        let base = key.with_barriers(false, false);
        if moves {
            steps.push(base.swapped());
        }
        if rules.trapped == Trapped::Passes {
            others.push(base.swapped());
        }
        if moves {
            for taken in 1..=most_taken.min(key.other) {
                let mut k = base.swapped();
                k.mover -= taken;
                steps.push(k);
            }
        }
        if key.mover_hand > 0
            && u32::from(key.mover) + u32::from(key.other) < u32::from(self.points())
        {
            let most = if rules.captures_while_placing {
                most_taken
            } else {
                0
            };
            for taken in 0..=most.min(key.other) {
                others.push(MorrisKey {
                    mover: key.other - taken,
                    other: key.mover + 1,
                    mover_hand: key.other_hand,
                    other_hand: key.mover_hand - 1,
                    mover_barrier: false,
                    other_barrier: false,
                });
            }
        }
        // The side that moved remembers only after a slide or flight, and only then; the side
        // that waited keeps its memory or loses it (its point filled, its men taken).
        let mut next = Vec::new();
        let kept: &[bool] = if key.other_barrier && self.memory() {
            &[false, true]
        } else {
            &[false]
        };
        let made: &[bool] = if self.memory() {
            &[false, true]
        } else {
            &[false]
        };
        for (k, made) in steps
            .iter()
            .map(|&k| (k, made))
            .chain(others.iter().map(|&k| (k, &[false][..])))
        {
            for &m in kept {
                for &o in made {
                    next.push(k.with_barriers(m, o));
                }
            }
        }
        next.retain(|&k| self.is_valid_key(k) && !self.all_over(k));
        next.sort();
        next.dedup();
        next
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
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use perfectplay_core::morris::MoveKind;
    use perfectplay_core::Game;

    use super::*;

    /// The preset `id` with `options` (name, value) overridden.
    fn with(id: &str, options: &[(&str, &str)]) -> MorrisDomain {
        let mut rules = MorrisRules::preset(id).expect("a preset").rules;
        for (name, value) in options {
            rules.set(name, value).unwrap();
        }
        MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
    }

    #[test]
    fn every_key_with_at_most_twelve_men_a_side_has_a_slot_of_its_own() {
        let d = with("twelve_mens_morris", &[]);
        let mut taken = vec![false; d.key_slots()];
        let men = 0..=MAX_SIDE_MEN as u8;
        for (mover, mover_hand, other, other_hand) in men.clone().flat_map(|a| {
            let men = men.clone();
            men.clone().flat_map(move |b| {
                let men = men.clone();
                men.clone()
                    .flat_map(move |c| men.clone().map(move |e| (a, b, c, e)))
            })
        }) {
            for (mover_barrier, other_barrier) in
                [(false, false), (false, true), (true, false), (true, true)]
            {
                let key = MorrisKey {
                    mover_hand,
                    other_hand,
                    mover,
                    other,
                    mover_barrier,
                    other_barrier,
                };
                let slot = d.key_slot(key);
                let fits = usize::from(mover + mover_hand) <= MAX_SIDE_MEN
                    && usize::from(other + other_hand) <= MAX_SIDE_MEN;
                assert_eq!(slot.is_some(), fits, "{key}");
                if let Some(slot) = slot {
                    assert!(!taken[slot], "{key}: slot {slot} taken twice");
                    taken[slot] = true;
                }
            }
        }
        assert!(taken.iter().all(|&t| t), "every slot number is used");
    }

    #[test]
    fn names_round_trip_and_keep_their_old_form_without_memories() {
        let cases = [
            (MorrisKey::moving(5, 4), "5-4"),
            (MorrisKey::moving(3, 3).with_barriers(true, false), "3-3-bm"),
            (MorrisKey::moving(3, 3).with_barriers(false, true), "3-3-bo"),
            (MorrisKey::moving(4, 3).with_barriers(true, true), "4-3-bmo"),
            (
                MorrisKey {
                    mover_hand: 6,
                    other_hand: 6,
                    ..MorrisKey::moving(3, 2)
                },
                "3-2-h6-6",
            ),
            (
                MorrisKey {
                    mover_hand: 1,
                    other_hand: 2,
                    ..MorrisKey::moving(3, 4).with_barriers(true, true)
                },
                "3-4-h1-2-bmo",
            ),
        ];
        for (key, name) in cases {
            assert_eq!(key.to_string(), name);
            assert_eq!(name.parse::<MorrisKey>(), Ok(key));
            assert_eq!(key.swapped().swapped(), key);
        }
        assert_eq!(
            MorrisKey::moving(4, 3).with_barriers(true, false).swapped(),
            MorrisKey::moving(3, 4).with_barriers(false, true)
        );
        for bad in ["3-3-b", "3-3-bx", "3-3-bom", "3-bm", "bm"] {
            assert!(bad.parse::<MorrisKey>().is_err(), "{bad}");
        }
    }

    #[test]
    fn memories_belong_to_rules_with_no_reforming() {
        let twelve = with("twelve_mens_morris", &[]);
        let nine = with("nine_mens_morris", &[]);
        let key = MorrisKey::moving(3, 3).with_barriers(true, true);
        assert!(twelve.is_valid_key(key));
        assert!(!nine.is_valid_key(key));
        assert_eq!(nine.parse_key("3-3-bm"), None);
        assert_eq!(
            twelve.parse_key("3-3-bm"),
            Some(key.with_barriers(true, false))
        );
        // Too few men to re-form a mill.
        assert!(!twelve.is_valid_key(MorrisKey::moving(2, 3).with_barriers(true, false)));
        assert_ne!(twelve.index_scheme(), nine.index_scheme());
        // Keys without memories keep their size; a memory of a side that slides has a man
        // and one of at most 4 neighbours.
        let plain = MorrisKey::moving(3, 3);
        assert_eq!(twelve.size(plain), nine.size(plain));
        assert_eq!(twelve.size(key), twelve.size(plain) * 12 * 12);
        assert_eq!(
            twelve.successor_keys(plain),
            [plain, plain.with_barriers(false, true)]
        );
        let shah = MorrisDomain::new(Morris::preset("shah").unwrap()).unwrap();
        assert!(shah.check_key(plain).is_ok());
        let placing = shah.check_key(shah.start_key()).unwrap_err();
        assert!(placing.contains("first_mill_opens"), "{placing}");
    }

    /// A subspace and an index in it.
    type Located = (MorrisKey, u64);

    /// The unit of `keys`: every index is a hole or locates back to itself, every symmetric
    /// image of a position locates alike, every successor lies in a successor key, and the
    /// pairs (predecessor, position) of quiet turns are the same found forwards from every
    /// position and backwards from every position. Returns the indices and the non-holes.
    fn check_unit(domain: &MorrisDomain, keys: &[MorrisKey]) -> (u64, u64) {
        let game = domain.game();
        let group = domain.indexer.symmetries();
        let mut forward = BTreeSet::new();
        let mut backward = BTreeSet::new();
        let (mut indices, mut used) = (0, 0);
        let mut unit_keys = HashSet::new();
        for &key in keys {
            unit_keys.insert(key);
            let successors = domain.successor_keys(key);
            let size = domain.size(key);
            indices += size;
            let mut walked = 0;
            domain.for_each_position(key, 0..size, |index, pos| {
                assert_eq!(index, walked);
                walked += 1;
                assert_eq!(*pos, domain.unrank(key, index), "{key} {index}");
                if domain.is_hole(key, index, pos) {
                    return;
                }
                used += 1;
                assert_eq!(domain.locate(pos).ok(), Some((key, index)));
                assert_eq!(game.canonical_memory(pos), *pos);
                for s in 0..group.len() {
                    let mut image = MorrisPosition::from_parts(
                        Bitboard(group.apply(s, pos.men(Color::White).0)),
                        Bitboard(group.apply(s, pos.men(Color::Black).0)),
                        key.mover_hand,
                        key.other_hand,
                        Color::White,
                    );
                    for color in Color::ALL {
                        image.set_barrier(
                            color,
                            pos.barrier(color).map(|b| Barrier {
                                man: group.point_image(s, b.man),
                                point: group.point_image(s, b.point),
                            }),
                        );
                    }
                    assert_eq!(
                        domain.locate(&image).ok(),
                        Some((key, index)),
                        "{key} symmetry {s}"
                    );
                }
                if game.outcome(pos).is_some() {
                    return;
                }
                game.for_each_move(pos, |mv| {
                    let next = game.play(pos, mv);
                    // The solver values finished successors directly, forwards only.
                    if game.outcome(&next).is_some() {
                        return;
                    }
                    let (k, i) = domain.locate(&next).unwrap();
                    assert!(successors.contains(&k), "{key} leads to {k}");
                    let quiet = !mv.is_capture()
                        && matches!(mv.kind(), MoveKind::Move { .. } | MoveKind::Pass);
                    if quiet {
                        forward.insert(((key, index), (k, i)));
                    }
                });
            });
            assert_eq!(walked, size);
        }
        for &key in keys {
            for index in 0..domain.size(key) {
                let pos = domain.unrank(key, index);
                if domain.is_hole(key, index, &pos) || game.outcome(&pos).is_some() {
                    continue;
                }
                domain.for_each_quiet_predecessor(&pos, |q| {
                    let (k, i) = domain.locate(q).unwrap();
                    assert!(!domain.is_hole(k, i, q));
                    if unit_keys.contains(&k) {
                        backward.insert(((k, i), (key, index)));
                    }
                });
            }
        }
        // Turns from outside the unit are not generated forwards here.
        let show = |pairs: Vec<&(Located, Located)>| {
            pairs
                .iter()
                .take(5)
                .map(|((k, i), (l, j))| {
                    format!(
                        "{k} {i} {} -> {l} {j} {}",
                        game.fen(&domain.unrank(*k, *i), 0),
                        game.fen(&domain.unrank(*l, *j), 0)
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            forward == backward,
            "only forwards:\n{}\nonly backwards:\n{}",
            show(forward.difference(&backward).collect()),
            show(backward.difference(&forward).collect())
        );
        assert!(!forward.is_empty());
        (indices, used)
    }

    /// The keys of `a`-`b` and `b`-`a` with every combination of memories.
    fn unit(domain: &MorrisDomain, a: u8, b: u8) -> Vec<MorrisKey> {
        let mut keys = Vec::new();
        for (x, y) in [(a, b), (b, a)] {
            for m in [false, true] {
                for o in [false, true] {
                    let key = MorrisKey::moving(x, y).with_barriers(m, o);
                    if domain.is_valid_key(key) && !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
        }
        keys
    }

    #[test]
    fn locating_successors_one_after_another_gives_what_locate_gives() {
        let mut rng = perfectplay_core::SplitMix64::new(11);
        for (domain, men) in [
            (
                with("nine_mens_morris", &[]),
                [(3, 3), (4, 7), (7, 4), (9, 8), (6, 6)],
            ),
            (
                with("twelve_mens_morris", &[]),
                [(3, 5), (8, 8), (11, 4), (5, 9), (12, 3)],
            ),
            (
                with("nine_mens_morris", &[("no_reforming", "true")]),
                [(3, 4), (5, 5), (8, 7), (4, 9), (9, 9)],
            ),
        ] {
            // One memo for every successor of every position: a memo of other men is never used.
            let mut memo = None;
            let mut located = 0;
            for (a, b) in men {
                let key = MorrisKey::moving(a, b);
                for _ in 0..200 {
                    let index = rng.next_u64() % domain.size(key);
                    let pos = domain.unrank(key, index);
                    domain.game().for_each_move(&pos, |mv| {
                        let next = domain.game().play(&pos, mv);
                        let want = domain.locate(&next).ok();
                        assert_eq!(domain.locate_near(&next, &mut memo).ok(), want, "{next:?}");
                        located += usize::from(want.is_some());
                    });
                }
            }
            assert!(located > 10_000, "{located} successors located");
        }
    }

    #[test]
    fn memories_index_locate_and_unmove_consistently_on_small_boards() {
        for (domain, a, b) in [
            // The 3x3 grid: the centre has 8 neighbours.
            (with("three_mens_morris", &[("no_reforming", "true")]), 3, 3),
            // Flying: a memory's target is any point.
            (
                with(
                    "three_mens_morris",
                    &[("no_reforming", "true"), ("flying", "3")],
                ),
                3,
                3,
            ),
            (with("six_mens_morris", &[("no_reforming", "true")]), 3, 3),
            (with("six_mens_morris", &[("no_reforming", "true")]), 3, 4),
        ] {
            let keys = unit(&domain, a, b);
            assert_eq!(keys.len(), if a == b { 4 } else { 8 });
            let (indices, used) = check_unit(&domain, &keys);
            assert!(
                0 < used && used <= indices,
                "{}: {a}-{b}: {used} of {indices} indices used",
                domain.game().rules()
            );
        }
    }
}
