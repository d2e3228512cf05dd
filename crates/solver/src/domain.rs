//! What the solver needs to know about a game: how its positions split into subspaces, how each
//! subspace is indexed, and how to step backwards.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use perfectplay_core::Game;

use crate::error::ProbeError;

/// A game family's database scheme: the subspaces, their perfect indices and their order.
///
/// Positions are normalised so that the side to move is always the same colour; a subspace
/// key and an index within it name one position up to the board's symmetries.
pub trait Domain: Send + Sync {
    /// The game.
    type Game: Game + Sync;
    /// A subspace: its `Display` is the file name stem, parsed back by [`Domain::parse_key`].
    type Key: Copy + Eq + Ord + Hash + Debug + Display + Send + Sync;

    /// The game with its rules.
    fn game(&self) -> &Self::Game;

    /// The game's id as headers record it (`nine_mens_morris`).
    fn game_id(&self) -> String;

    /// The rules as text; a table is only read under exactly these rules.
    fn rules_text(&self) -> String;

    /// The name and version of the indexing scheme; a table is only read under the same one.
    fn index_scheme(&self) -> &'static str;

    /// The key written as `text`, if it names a subspace of this game.
    fn parse_key(&self, text: &str) -> Option<Self::Key>;

    /// The subspaces `text` names: one key ([`Domain::parse_key`]), or a group a game names
    /// as a whole (a checkers material, every slice of it), in build order. `None` if it names
    /// none.
    fn keys_named(&self, text: &str) -> Option<Vec<Self::Key>> {
        self.parse_key(text).map(|key| vec![key])
    }

    /// The number of indices of subspace `key`.
    fn size(&self, key: Self::Key) -> u64;

    /// The canonical position at `index` of `key`.
    ///
    /// # Panics
    ///
    /// The domains of this crate panic where `index` is not below [`Domain::size`] of a `key`
    /// that names a subspace, but for the checkers domain in release builds, which may then
    /// return another arrangement instead. With a key that names none (size 0) they may panic
    /// or return positions.
    fn unrank(&self, key: Self::Key, index: u64) -> <Self::Game as Game>::Position;

    /// Calls `visit` with each index of `range` in `key` and its canonical position, in order.
    /// Full passes use this; a domain overrides it when walking is cheaper than unranking.
    ///
    /// # Panics
    ///
    /// As [`Domain::unrank`], where `range` ends past [`Domain::size`] of `key`: the morris
    /// domain panics then (for a key with memories, only where `range` is not empty); the
    /// checkers domain visits only the indices below the size, and panics where `range` starts
    /// at or past it (release builds may instead visit nothing).
    fn for_each_position<F: FnMut(u64, &<Self::Game as Game>::Position)>(
        &self,
        key: Self::Key,
        range: std::ops::Range<u64>,
        mut visit: F,
    ) {
        for index in range {
            visit(index, &self.unrank(key, index));
        }
    }

    /// Why subspace `key` cannot be solved under these rules, if it cannot (checked for every
    /// subspace of a plan before any work starts).
    fn check_key(&self, key: Self::Key) -> Result<(), String> {
        let _ = key;
        Ok(())
    }

    /// Whether `index` of `key` (whose position is `pos`, from [`Domain::unrank`]) is a hole:
    /// an index scheme with room to spare (e.g. for the rules' memories) has indices whose
    /// position is stored under another index, or is not a position at all. Holes are stored as
    /// "cannot arise" and never probed. A perfect index has none.
    fn is_hole(&self, key: Self::Key, index: u64, pos: &<Self::Game as Game>::Position) -> bool {
        let _ = (key, index, pos);
        false
    }

    /// The subspace of `pos` without its index, or `None` where [`Domain::locate`] fails; the
    /// solver asks this of every successor, so it must be cheap and allocate nothing.
    fn subspace_of(&self, pos: &<Self::Game as Game>::Position) -> Option<Self::Key> {
        self.locate(pos).ok().map(|(key, _)| key)
    }

    /// Whether no two different quiet turns from `pos` (turns that keep the material) lead to
    /// the same subspace and index. When they cannot, the solver counts a position's
    /// successors in its unit without locating them. `false` is always safe.
    ///
    /// The solver relies on turns between the subspaces of one unit being quiet: material only
    /// goes down, so a turn that changes it cannot lead back.
    fn quiet_turns_are_distinct(&self, pos: &<Self::Game as Game>::Position) -> bool {
        let _ = pos;
        false
    }

    /// Whether turn `mv` of `pos` is quiet (it keeps the material), so that its successor lies
    /// in one of [`Domain::quiet_successor_keys`] of `pos`'s subspace. Where every one of those
    /// is in the unit being solved and [`Domain::quiet_turns_are_distinct`] holds, the solver's
    /// first pass counts such a turn without playing it. `false` (the default) is always safe:
    /// the turn is played and its successor's subspace looked up.
    fn is_quiet_turn(
        &self,
        pos: &<Self::Game as Game>::Position,
        mv: &<Self::Game as Game>::Move,
    ) -> bool {
        let _ = (pos, mv);
        false
    }

    /// Whether turn `mv` of `pos` lowers the material (a capture), so that its successor lies
    /// in a later unit: material never goes up, so no turn leads back to the unit, and the
    /// solver's layers pass such a turn over unplayed. `false` (the default) is always safe:
    /// the turn is played and its successor's subspace looked up.
    fn lowers_material(
        &self,
        pos: &<Self::Game as Game>::Position,
        mv: &<Self::Game as Game>::Move,
    ) -> bool {
        let _ = (pos, mv);
        false
    }

    /// Calls `visit` with the turns of `pos` as [`Game::for_each_move`] does, leaving out quiet
    /// turns ([`Domain::is_quiet_turn`]) that it counts instead: returns how many it left out.
    /// Some quiet turns may still be visited. The solver's first pass calls it where it would
    /// count every quiet turn unplayed, so that a domain can count them without generating
    /// each. The default visits every turn and counts none.
    fn for_each_turn_counting_quiet<F: FnMut(&<Self::Game as Game>::Move)>(
        &self,
        pos: &<Self::Game as Game>::Position,
        visit: F,
    ) -> u32 {
        self.game().for_each_move(pos, visit);
        0
    }

    /// Every subspace a quiet turn ([`Domain::is_quiet_turn`]) from a position of `key` can
    /// lead to, or `None` (the default) where the domain does not say. Over-approximations are
    /// safe: a unit missing one of them plays its quiet turns.
    fn quiet_successor_keys(&self, key: Self::Key) -> Option<Vec<Self::Key>> {
        let _ = key;
        None
    }

    /// Whether no two different quiet turns lead back from `pos` to predecessors of the same
    /// subspace and index. When they cannot, the solver counts a won position down in each of
    /// its predecessors without sorting them to find repeats. `false` is always safe.
    fn quiet_predecessors_are_distinct(&self, pos: &<Self::Game as Game>::Position) -> bool {
        let _ = pos;
        false
    }

    /// The name of the rule [`Domain::omits`] applies, if any: compressed tables record it, and
    /// are read only by a domain applying the same rule. `None` (the default): every position
    /// is stored.
    fn omission(&self) -> Option<&'static str> {
        None
    }

    /// Whether compressed tables leave `pos` out: its value is the best of its successors',
    /// which a reader finds by a search that ends, because each of those successors lies in a
    /// smaller subspace (in checkers, a position where the side to move must capture). The
    /// index of such a position holds whatever compresses best.
    fn omits(&self, pos: &<Self::Game as Game>::Position) -> bool {
        let _ = pos;
        false
    }

    /// How many dense slot numbers [`Domain::key_slot`] uses: a tablebase keeps one lock-free
    /// slot per number for the tables it has opened. 0 (the default) keeps tables in a map
    /// behind a lock instead.
    fn key_slots(&self) -> usize {
        0
    }

    /// The slot number of `key`, below [`Domain::key_slots`], or `None` to use the map.
    fn key_slot(&self, key: Self::Key) -> Option<usize> {
        let _ = key;
        None
    }

    /// The subspace and index of `pos`; an error if the databases do not cover it, and
    /// [`ProbeError::NotAPosition`] for a position the rules refuse that would otherwise rank
    /// as another (one that is also out of scope for another reason, a memory the rules lack,
    /// may be refused for that instead: [`Domain::check_position`] makes the whole check).
    fn locate(&self, pos: &<Self::Game as Game>::Position) -> Result<(Self::Key, u64), ProbeError>;

    /// [`ProbeError::NotAPosition`] where `pos` is not a position of the rules (the whole
    /// check, where [`Domain::locate`] makes only the part it needs): what queries of a
    /// position's moves ask first. Positions that cannot be made unchecked pass.
    fn check_position(&self, pos: &<Self::Game as Game>::Position) -> Result<(), ProbeError> {
        let _ = pos;
        Ok(())
    }

    /// [`Domain::locate`] of a position that [`Domain::for_each_quiet_predecessor`] gave: the
    /// same answer. A domain whose generator gives positions already in the form that locating
    /// brings them to (a morris position's memories, only those that can still forbid a turn)
    /// overrides it to skip that work.
    fn locate_predecessor(
        &self,
        pos: &<Self::Game as Game>::Position,
    ) -> Result<(Self::Key, u64), ProbeError> {
        self.locate(pos)
    }

    /// What consecutive [`Domain::locate_near`] calls share, kept by the caller.
    type LocateMemo: Default;

    /// The same answer as [`Domain::locate`], sooner where `pos` shares a part with the
    /// position `memo` last located: the successors of one position by its quiet turns, located
    /// one after another, all leave the same men to the side to move.
    fn locate_near(
        &self,
        pos: &<Self::Game as Game>::Position,
        memo: &mut Self::LocateMemo,
    ) -> Result<(Self::Key, u64), ProbeError> {
        let _ = memo;
        self.locate(pos)
    }

    /// [`Domain::locate_near`]'s answer where it is one, `None` where it is an error, without
    /// making the error (its message is text): for a caller that asks it of every successor
    /// and values the positions no table holds another way.
    fn try_locate_near(
        &self,
        pos: &<Self::Game as Game>::Position,
        memo: &mut Self::LocateMemo,
    ) -> Option<(Self::Key, u64)> {
        self.locate_near(pos, memo).ok()
    }

    /// Every subspace a turn from a position of `key` can lead to, when that position is not
    /// over: `key`'s own partner for quiet moves, and the subspaces after captures or
    /// placements. Over-approximations only cost solving more.
    fn successor_keys(&self, key: Self::Key) -> Vec<Self::Key>;

    /// Calls `visit` with every position from which one legal turn that keeps the material
    /// (no capture, no placement, no promotion) leads to `pos`, once per such turn.
    fn for_each_quiet_predecessor<F: FnMut(&<Self::Game as Game>::Position)>(
        &self,
        pos: &<Self::Game as Game>::Position,
        visit: F,
    );
}
