//! `CheckersDomain`: the checkers database scheme for the solver.

use perfectplay_core::checkers::{Checkers, CheckersPosition, CheckersRules};
use perfectplay_core::{Bitboard, Color};
use rayon::prelude::*;

use super::index::{Sides, SliceIndex};
use super::key::{CheckersKey, MAX_PIECES, MAX_RANK};
use crate::domain::Domain;
use crate::error::{ProbeError, RequestError};

const COUNTS: usize = MAX_PIECES as usize + 1;
const RANKS: usize = MAX_RANK as usize + 1;

/// The ways to split at most [`MAX_PIECES`] pieces into the four counts of a key:
/// `C(MAX_PIECES + 4, 4)`.
const COUNT_CODES: usize = 495;

/// A dense number for each four counts of a key with at most [`MAX_PIECES`] pieces, by
/// `((mover_men * COUNTS + mover_kings) * COUNTS + other_men) * COUNTS + other_kings`; `u16::MAX`
/// for more pieces. Slots numbered this way are 13 times fewer than the mixed-radix numbers of
/// every four counts, so a tablebase's slots stay within the second-level cache (random probes
/// across thousands of tables read one slot each).
static COUNT_CODE: [u16; COUNTS * COUNTS * COUNTS * COUNTS] = count_codes();

const fn count_codes() -> [u16; COUNTS * COUNTS * COUNTS * COUNTS] {
    let mut codes = [u16::MAX; COUNTS * COUNTS * COUNTS * COUNTS];
    let mut next = 0;
    let mut i = 0;
    while i < codes.len() {
        let pieces = i / (COUNTS * COUNTS * COUNTS)
            + i / (COUNTS * COUNTS) % COUNTS
            + i / COUNTS % COUNTS
            + i % COUNTS;
        if pieces <= MAX_PIECES as usize {
            codes[i] = next;
            next += 1;
        }
        i += 1;
    }
    assert!(
        next as usize == COUNT_CODES,
        "COUNT_CODES is C(MAX_PIECES + 4, 4)"
    );
    codes
}

/// Slot numbers of well-formed keys: the counts' code and the two ranks in mixed radix.
const KEY_SLOTS: usize = COUNT_CODES * RANKS * RANKS;

/// `rules` as the databases see them: the standard game's but for the capture options. The
/// history rules, who moves first and adjudication at the ply limit change no position's
/// value, so tables serve every setting of them. Two rule sets share tables exactly when this
/// gives the same for both.
#[must_use]
pub fn database_rules(rules: &CheckersRules) -> CheckersRules {
    CheckersRules {
        mandatory_capture: rules.mandatory_capture,
        complete_jumps: rules.complete_jumps,
        ..CheckersRules::default()
    }
}

/// The checkers database scheme: slices by material and the ranks of the most advanced men
/// ([`CheckersKey`]), the side to move normalised by turning the board, a perfect index per
/// slice (the private `index` module).
///
/// The databases value positions by the pieces alone: the history rules of
/// [`perfectplay_core::GameState`] (threefold repetition, the 40-move rule, the ply limit) are
/// not part of the database game, and a position from which neither side can force a win is a
/// draw. The capture options
/// ([`perfectplay_core::checkers::CheckersRules::mandatory_capture`] and `complete_jumps`) do change the game: their tables record them in the
/// header's rules and open only under the same options. Where capturing is optional, positions
/// with a capture on have simple moves too and are stored, not left out
/// ([`Domain::omission`]).
pub struct CheckersDomain {
    game: Checkers,
}

impl CheckersDomain {
    /// The scheme for `game`.
    #[must_use]
    pub fn new(game: Checkers) -> CheckersDomain {
        CheckersDomain { game }
    }

    /// The slice and index of `pos`, or its key where no table holds it.
    #[inline(always)]
    fn located(&self, pos: &CheckersPosition) -> Result<(CheckersKey, u64), CheckersKey> {
        let sides = sides_of(pos);
        let key = sides.key();
        if !self.is_database_key(key) {
            return Err(key);
        }
        Ok((key, self.slice(key).rank(&sides)))
    }

    /// Whether `key` names a table: well formed, and both sides have a piece (a side without
    /// pieces to move has lost; the other side without pieces cannot arise).
    #[must_use]
    pub fn is_database_key(&self, key: CheckersKey) -> bool {
        key.is_well_formed() && key.mover_pieces() > 0 && key.other_pieces() > 0
    }

    /// Every table with `2..=max_pieces` pieces that holds a position, in key order.
    #[must_use]
    pub fn keys_up_to(&self, max_pieces: u8) -> Vec<CheckersKey> {
        let mut keys: Vec<CheckersKey> = all_keys(max_pieces.min(MAX_PIECES))
            .filter(|&k| self.is_database_key(k) && self.size(k) > 0)
            .collect();
        keys.sort();
        keys
    }

    /// Every slice with positions of `material` (men and kings of the side to move, then of
    /// the other side), in build order; none past [`MAX_PIECES`].
    pub fn material_slices(&self, material: [u8; 4]) -> Vec<CheckersKey> {
        let pieces = material.iter().map(|&n| u16::from(n)).sum::<u16>();
        let Ok(pieces) = u8::try_from(pieces) else {
            return Vec::new();
        };
        if pieces > MAX_PIECES {
            return Vec::new();
        }
        let mut keys = self.keys_up_to(pieces);
        keys.retain(|k| [k.mover_men, k.mover_kings, k.other_men, k.other_kings] == material);
        keys
    }

    /// [`keys_up_to`](Self::keys_up_to) of a count asked for by a user: refused unless it is
    /// between 2 and [`MAX_PIECES`].
    pub fn keys_up_to_checked(&self, max_pieces: u8) -> Result<Vec<CheckersKey>, RequestError> {
        if !(2..=MAX_PIECES).contains(&max_pieces) {
            return Err(RequestError::MaxPieces {
                requested: max_pieces,
                min: 2,
                max: MAX_PIECES,
            });
        }
        Ok(self.keys_up_to(max_pieces))
    }

    /// The number of arrangements of exactly `pieces` pieces on the board, a side possibly
    /// without any: the sizes of every slice, those where a side has nothing included. This is
    /// the published count of checkers positions by pieces (side to move not counted). The
    /// scheme's slices stop at [`MAX_PIECES`]: past it the count is 0, not the game's.
    #[must_use]
    pub fn arrangements(&self, pieces: u8) -> u64 {
        all_keys(pieces.min(MAX_PIECES))
            .filter(|k| k.pieces() == pieces)
            .map(|k| SliceIndex::new(k).size())
            .sum()
    }

    /// The tables of exactly `pieces` pieces: how many hold positions, their positions in all,
    /// and the largest unit (a slice and its colour-swapped partner, solved together). None
    /// past [`MAX_PIECES`].
    #[must_use]
    pub fn tables_of(&self, pieces: u8) -> TableSizes {
        let keys: Vec<CheckersKey> = all_keys(pieces.min(MAX_PIECES))
            .filter(|&k| k.pieces() == pieces && self.size(k) > 0)
            .collect();
        let unit = |k: CheckersKey| {
            if k == k.swapped() {
                self.size(k)
            } else {
                self.size(k) + self.size(k.swapped())
            }
        };
        TableSizes {
            tables: keys.len() as u64,
            positions: keys.iter().map(|&k| self.size(k)).sum(),
            largest_unit: keys.iter().map(|&k| unit(k)).max().unwrap_or(0),
        }
    }

    /// Enumerates every index of every slice of exactly `pieces` pieces (a side without pieces
    /// included), in parallel: counts the indices whose arrangement is a legal position of
    /// its slice that indexes back to it. For a perfect index that is every index, and the
    /// total is the published count ([`PUBLISHED_ARRANGEMENTS`]). Nothing is enumerated past
    /// [`MAX_PIECES`].
    #[must_use]
    pub fn enumerate_arrangements(&self, pieces: u8) -> Enumeration {
        const CHUNK: u64 = 1 << 16;
        let jobs: Vec<(CheckersKey, u64)> = all_keys(pieces.min(MAX_PIECES))
            .filter(|k| k.pieces() == pieces)
            .flat_map(|k| {
                let size = self.slice(k).size();
                (0..size.div_ceil(CHUNK)).map(move |c| (k, c * CHUNK))
            })
            .collect();
        let (indices, legal) = jobs
            .par_iter()
            .map(|&(key, start)| {
                let slice = self.slice(key);
                let end = (start + CHUNK).min(slice.size());
                let mut legal = 0u64;
                slice.walk(start..end, |i, s| {
                    let ok = CheckersPosition::from_parts(
                        Bitboard(s.mover_men | s.mover_kings),
                        Bitboard(s.other_men | s.other_kings),
                        Bitboard(s.mover_kings | s.other_kings),
                        Color::Black,
                    )
                    .is_ok()
                        && s.key() == key
                        && slice.rank(s) == i;
                    legal += u64::from(ok);
                });
                (end - start, legal)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        Enumeration { indices, legal }
    }

    /// Calls `visit` with every arrangement of slice `key` (a side may have no pieces), in
    /// index order, as a position with the side to move of the slice as Black.
    pub fn for_each_arrangement<F: FnMut(u64, &CheckersPosition)>(
        &self,
        key: CheckersKey,
        mut visit: F,
    ) {
        if !key.is_well_formed() {
            return;
        }
        let slice = SliceIndex::new(key);
        slice.walk(0..slice.size(), |i, s| visit(i, &to_position(s)));
    }

    #[inline]
    fn slice(&self, key: CheckersKey) -> SliceIndex {
        SliceIndex::new(key)
    }
}

/// The published numbers of checkers arrangements by pieces on the board, 1 to 10 (Schaeffer
/// et al., "Checkers is solved", Science 2007; OEIS A055213): positions without the side to
/// move, a side possibly without pieces.
pub const PUBLISHED_ARRANGEMENTS: [u64; 10] = [
    120,
    6_972,
    261_224,
    7_092_774,
    148_688_232,
    2_503_611_964,
    34_779_531_480,
    406_309_208_481,
    4_048_627_642_976,
    34_778_882_769_216,
];

/// The tables of one number of pieces ([`CheckersDomain::tables_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSizes {
    /// Tables holding at least one position.
    pub tables: u64,
    /// Positions in them (both sides with pieces, the side to move normalised).
    pub positions: u64,
    /// Positions of the largest unit solved at once.
    pub largest_unit: u64,
}

/// What [`CheckersDomain::enumerate_arrangements`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Indices of the slices enumerated.
    pub indices: u64,
    /// Indices holding a legal arrangement of their slice that indexes back to them.
    pub legal: u64,
}

/// Every well-formed key with at most `max` pieces, sides without pieces included.
fn all_keys(max: u8) -> impl Iterator<Item = CheckersKey> {
    let counts = move || 0..=max;
    counts().flat_map(move |mm| {
        counts().flat_map(move |mk| {
            counts().flat_map(move |om| {
                counts().flat_map(move |ok| {
                    (0..=MAX_RANK).flat_map(move |mr| {
                        (0..=MAX_RANK).filter_map(move |or| {
                            let key = CheckersKey {
                                mover_men: mm,
                                mover_kings: mk,
                                other_men: om,
                                other_kings: ok,
                                mover_rank: mr,
                                other_rank: or,
                            };
                            (key.pieces() <= max && key.is_well_formed()).then_some(key)
                        })
                    })
                })
            })
        })
    })
}

/// Why no table holds the positions of `key`, which is not a database key.
#[cold]
fn not_in_a_table(key: CheckersKey) -> ProbeError {
    // The side that has just moved has no pieces first: no move leaves its own side without
    // one, whether or not the side to move has any.
    if key.other_pieces() == 0 {
        ProbeError::CannotArise
    } else if key.mover_pieces() == 0 {
        ProbeError::OutOfScope("the side to move has no pieces: the game is over".into())
    } else {
        // Legal positions with both sides on the board give well-formed keys up to
        // MAX_PIECES pieces.
        ProbeError::OutOfScope(format!(
            "{} pieces on the board: the checkers databases index at most {MAX_PIECES}",
            key.pieces()
        ))
    }
}

/// The pieces of `pos` in the frame of its side to move: White to move reads the board turned
/// half a turn, colours swapped.
#[inline]
fn sides_of(pos: &CheckersPosition) -> Sides {
    let us = pos.side_to_move();
    let part = |b: Bitboard| match us {
        Color::Black => b.0,
        Color::White => b.0.reverse_bits(),
    };
    Sides {
        mover_men: part(pos.men(us)),
        mover_kings: part(pos.kings(us)),
        other_men: part(pos.men(!us)),
        other_kings: part(pos.kings(!us)),
    }
}

/// The position of `sides` with the side to move as Black.
#[inline]
fn to_position(s: &Sides) -> CheckersPosition {
    CheckersPosition::from_parts(
        Bitboard(s.mover_men | s.mover_kings),
        Bitboard(s.other_men | s.other_kings),
        Bitboard(s.mover_kings | s.other_kings),
        Color::Black,
    )
    .expect("the index only yields legal arrangements")
}

impl Domain for CheckersDomain {
    // Checkers successors share no part of the index worth keeping.
    type LocateMemo = ();

    type Game = Checkers;
    type Key = CheckersKey;

    fn game(&self) -> &Checkers {
        &self.game
    }

    fn game_id(&self) -> String {
        "checkers".to_owned()
    }

    fn rules_text(&self) -> String {
        // The history rules are not part of the database game; the capture options are, named
        // as `name=value` words (which `game_of_tables` reads back) where they differ from the
        // standard game, whose text stays as its tables were first built with.
        let rules = self.game.rules();
        if rules.standard_captures() {
            return "english checkers: 8x8, short kings, men capture forward only, capture \
                    mandatory (any sequence), crowning ends the move; no repetition, move rule \
                    or ply limit"
                .to_owned();
        }
        format!(
            "english checkers: 8x8, short kings, men capture forward only, crowning ends the \
             move; no repetition, move rule or ply limit; mandatory_capture={} complete_jumps={}",
            rules.mandatory_capture, rules.complete_jumps
        )
    }

    fn index_scheme(&self) -> &'static str {
        "checkers-men-leading-rank-kings-v1"
    }

    fn parse_key(&self, text: &str) -> Option<CheckersKey> {
        text.parse().ok().filter(|&k| self.is_database_key(k))
    }

    fn keys_named(&self, text: &str) -> Option<Vec<CheckersKey>> {
        match super::parse_material(text) {
            Some(material) => Some(self.material_slices(material)).filter(|k| !k.is_empty()),
            None => self.parse_key(text).map(|key| vec![key]),
        }
    }

    fn size(&self, key: CheckersKey) -> u64 {
        if self.is_database_key(key) {
            self.slice(key).size()
        } else {
            0
        }
    }

    fn unrank(&self, key: CheckersKey, index: u64) -> CheckersPosition {
        to_position(&self.slice(key).unrank(index))
    }

    fn for_each_position<F: FnMut(u64, &CheckersPosition)>(
        &self,
        key: CheckersKey,
        range: std::ops::Range<u64>,
        mut visit: F,
    ) {
        self.slice(key)
            .walk(range, |i, sides| visit(i, &to_position(sides)));
    }

    fn subspace_of(&self, pos: &CheckersPosition) -> Option<CheckersKey> {
        let key = sides_of(pos).key();
        self.is_database_key(key).then_some(key)
    }

    /// Positions where the side to move must capture, as checkers databases have long left
    /// them out (Chinook, Cake, KingsRow): every turn there is a capture, into a subspace of
    /// fewer pieces, and a quarter of all positions are such (BENCHMARKS.md).
    ///
    /// Where capturing is optional such positions have simple moves too, within the slice:
    /// nothing is left out.
    fn omission(&self) -> Option<&'static str> {
        self.game
            .rules()
            .mandatory_capture
            .then_some("checkers-captures-1")
    }

    #[inline]
    fn omits(&self, pos: &CheckersPosition) -> bool {
        self.game.rules().mandatory_capture && pos.must_capture()
    }

    fn quiet_turns_are_distinct(&self, _pos: &CheckersPosition) -> bool {
        // No symmetry is folded out and a quiet turn moves one piece one step: two of them
        // never give the same board.
        true
    }

    fn quiet_predecessors_are_distinct(&self, _pos: &CheckersPosition) -> bool {
        // As forward: no symmetry is folded out, and different steps back give different
        // boards.
        true
    }

    fn key_slots(&self) -> usize {
        KEY_SLOTS
    }

    #[inline]
    fn key_slot(&self, key: CheckersKey) -> Option<usize> {
        key.is_well_formed().then(|| {
            let counts = [
                key.mover_men,
                key.mover_kings,
                key.other_men,
                key.other_kings,
            ];
            let c = counts
                .iter()
                .fold(0, |acc, &n| acc * COUNTS + usize::from(n));
            (usize::from(COUNT_CODE[c]) * RANKS + usize::from(key.mover_rank)) * RANKS
                + usize::from(key.other_rank)
        })
    }

    #[inline]
    fn locate(&self, pos: &CheckersPosition) -> Result<(CheckersKey, u64), ProbeError> {
        self.located(pos).map_err(not_in_a_table)
    }

    #[inline]
    fn try_locate_near(&self, pos: &CheckersPosition, _: &mut ()) -> Option<(CheckersKey, u64)> {
        self.located(pos).ok()
    }

    fn successor_keys(&self, key: CheckersKey) -> Vec<CheckersKey> {
        let (mm, mk, mr) = (key.mover_men, key.mover_kings, key.mover_rank);
        // The mover's men, kings and rank after a quiet turn and after a capture: a man only
        // moves forward (its rank grows) or is crowned (the rest keep their ranks or less).
        let mut quiet = vec![(mm, mk, mr)];
        let mut capture = vec![(mm, mk, mr)];
        if mm > 0 {
            if mr < MAX_RANK {
                quiet.push((mm, mk, mr + 1));
            }
            capture.extend((mr + 1..=MAX_RANK).map(|r| (mm, mk, r)));
            let crowned = (0..=mr).map(|r| (mm - 1, mk + 1, if mm == 1 { 0 } else { r }));
            if mr == MAX_RANK {
                quiet.extend(crowned.clone());
            }
            capture.extend(crowned);
        }
        let (om, ok, or) = (key.other_men, key.other_kings, key.other_rank);
        let mut next = Vec::new();
        for &(m, k, r) in &quiet {
            next.push(CheckersKey {
                mover_men: om,
                mover_kings: ok,
                other_men: m,
                other_kings: k,
                mover_rank: or,
                other_rank: r,
            });
        }
        for left_men in 0..=om {
            for left_kings in 0..=ok {
                if left_men + left_kings == om + ok {
                    continue;
                }
                for left_rank in 0..=if left_men == 0 { 0 } else { or } {
                    for &(m, k, r) in &capture {
                        next.push(CheckersKey {
                            mover_men: left_men,
                            mover_kings: left_kings,
                            other_men: m,
                            other_kings: k,
                            mover_rank: left_rank,
                            other_rank: r,
                        });
                    }
                }
            }
        }
        next.retain(|&k| self.size(k) > 0);
        next.sort();
        next.dedup();
        next
    }

    fn for_each_quiet_predecessor<F: FnMut(&CheckersPosition)>(
        &self,
        pos: &CheckersPosition,
        visit: F,
    ) {
        self.game.for_each_quiet_predecessor(pos, visit);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use perfectplay_core::Game;

    use super::*;

    fn domain() -> CheckersDomain {
        CheckersDomain::new(Checkers::default())
    }

    #[test]
    fn tables_are_shared_across_every_rule_but_the_capture_options() {
        let standard = CheckersRules::default();
        let mut other = standard;
        for (name, value) in [
            ("first_player", "white"),
            ("ply_limit", "60"),
            ("move_rule", "none"),
            ("threefold_repetition", "false"),
            ("adjudication", "true"),
        ] {
            other.set(name, value).unwrap();
        }
        assert_eq!(database_rules(&other), database_rules(&standard));
        for name in ["mandatory_capture", "complete_jumps"] {
            let mut basic = standard;
            basic.set(name, "false").unwrap();
            assert_ne!(database_rules(&basic), database_rules(&standard), "{name}");
        }
    }

    #[test]
    fn a_material_names_every_slice_of_it() {
        let d = domain();
        let named = d.keys_named("1011").unwrap();
        let every: Vec<_> = d
            .keys_up_to(3)
            .into_iter()
            .filter(|k| k.to_string().starts_with("1011-"))
            .collect();
        assert!(every.len() > 1, "{every:?}");
        assert_eq!(named, every);
        assert_eq!(
            d.keys_named("0403").unwrap(),
            vec!["0403-00".parse().unwrap()]
        );
        assert_eq!(
            d.keys_named("1011-10").unwrap(),
            vec!["1011-10".parse().unwrap()]
        );
        // One side without pieces, more than eight pieces, not four digits.
        for text in ["0070", "3330", "9999", "101", "10110", "1O11", ""] {
            assert_eq!(d.keys_named(text), None, "{text}");
        }
        assert_eq!(super::super::parse_material("2110"), Some([2, 1, 1, 0]));
    }

    #[test]
    fn every_well_formed_key_has_a_slot_of_its_own() {
        let d = domain();
        let mut taken = vec![false; d.key_slots()];
        for key in all_keys(MAX_PIECES) {
            let slot = d.key_slot(key).expect("a well-formed key has a slot");
            assert!(!taken[slot], "{key}: slot {slot} taken twice");
            taken[slot] = true;
        }
        let too_many = CheckersKey {
            mover_men: 0,
            mover_kings: 5,
            other_men: 0,
            other_kings: 4,
            mover_rank: 0,
            other_rank: 0,
        };
        assert_eq!(d.key_slot(too_many), None);
    }

    #[test]
    fn arrangements_match_the_published_counts_up_to_four_pieces_by_enumeration() {
        let d = domain();
        let published = [120u64, 6_972, 261_224, 7_092_774];
        for (n, &want) in (1u8..).zip(&published) {
            let mut seen = 0u64;
            for key in all_keys(n).filter(|k| k.pieces() == n) {
                let mut next = 0;
                d.for_each_arrangement(key, |i, pos| {
                    assert_eq!(i, next);
                    next += 1;
                    assert_eq!(CheckersPosition::from_setup(&pos.to_setup()), Ok(*pos));
                    assert_eq!(sides_of(pos).key(), key);
                    if d.is_database_key(key) {
                        assert_eq!(d.locate(pos).ok(), Some((key, i)), "{key} {i}");
                    }
                });
                seen += next;
            }
            assert_eq!(seen, want, "{n} pieces");
            assert_eq!(d.arrangements(n), want, "{n} pieces");
            assert_eq!(
                d.enumerate_arrangements(n),
                Enumeration {
                    indices: want,
                    legal: want
                }
            );
        }
        // Five and more: the slices' sizes (the CLI's `positions` command enumerates them).
        for n in 1..=MAX_PIECES {
            assert_eq!(
                d.arrangements(n),
                PUBLISHED_ARRANGEMENTS[usize::from(n) - 1],
                "{n} pieces"
            );
        }
    }

    #[test]
    fn positions_with_white_to_move_read_the_turned_board() {
        let d = domain();
        let game = Checkers::default();
        let black = perfectplay_core::checkers::fen::parse("B:W18,K3:B14,K30").unwrap();
        let white = perfectplay_core::checkers::fen::parse("W:WK3,18:B14,K30").unwrap();
        // The same pieces with the other side to move, and the turned position with colours
        // swapped: square n becomes 33 - n.
        let turned = perfectplay_core::checkers::fen::parse("B:W19,K3:B15,K30").unwrap();
        let (kb, _) = d.locate(&black).unwrap();
        let (kw, iw) = d.locate(&white).unwrap();
        assert_eq!(kb.swapped(), kw);
        assert_eq!(d.locate(&turned).unwrap(), (kw, iw));
        assert_eq!(d.unrank(kw, iw), turned);
        assert!(game.outcome(&turned).is_none());
    }

    #[test]
    fn out_of_scope_positions_are_refused_with_a_reason() {
        let d = domain();
        let start = Checkers::default().start_position();
        let e = d.locate(&start).unwrap_err();
        assert!(e.to_string().contains("24 pieces"), "{e}");
        let lone = perfectplay_core::checkers::fen::parse("W:W18:B").unwrap();
        assert!(matches!(d.locate(&lone), Err(ProbeError::CannotArise)));
        let empty = perfectplay_core::checkers::fen::parse("B:W:B").unwrap();
        assert!(matches!(d.locate(&empty), Err(ProbeError::CannotArise)));
        assert!(d.parse_key("1000-00").is_none());
        assert!(d.parse_key("1010-00").is_some());
    }

    /// Within the unit of `key` and its partner, the quiet turns found forwards from every
    /// position are exactly those found backwards, and every other turn leads to a successor
    /// key (or ends the game).
    fn check_unit(d: &CheckersDomain, key: CheckersKey) {
        let game = d.game();
        let unit: HashSet<CheckersKey> = [key, key.swapped()].into_iter().collect();
        let mut forward = BTreeSet::new();
        let mut backward = BTreeSet::new();
        for &k in &unit {
            let successors = d.successor_keys(k);
            d.for_each_position(k, 0..d.size(k), |i, pos| {
                assert_eq!(d.locate(pos).ok(), Some((k, i)));
                game.for_each_move(pos, |mv| {
                    let next = game.play(pos, mv);
                    if game.outcome(&next).is_some() && d.subspace_of(&next).is_none() {
                        return;
                    }
                    let (nk, ni) = d.locate(&next).unwrap();
                    assert!(successors.contains(&nk), "{k} leads to {nk} by {mv}");
                    if unit.contains(&nk) {
                        assert!(!mv.is_capture(), "a capture stays in {k}");
                        assert!(forward.insert(((k, i), (nk, ni))), "two turns meet");
                    }
                });
                let mut located = HashSet::new();
                d.for_each_quiet_predecessor(pos, |q| {
                    let (pk, pi) = d.locate(q).unwrap();
                    let first = located.insert((pk, pi));
                    assert!(first || !d.quiet_predecessors_are_distinct(pos), "{k} {i}");
                    if unit.contains(&pk) {
                        assert!(backward.insert(((pk, pi), (k, i))));
                    }
                });
            });
        }
        assert_eq!(forward, backward, "{key}");
    }

    #[test]
    fn quiet_turns_unmove_exactly() {
        let d = domain();
        for text in [
            "0101-00", "1010-33", "1010-66", "1001-50", "0201-00", "1101-20", "2010-41", "1011-06",
            "1110-55", "2020-33",
        ] {
            check_unit(&d, text.parse().unwrap());
        }
    }

    #[test]
    fn quiet_turns_unmove_exactly_where_captures_may_be_declined() {
        let d = CheckersDomain::new(Checkers::new(perfectplay_core::checkers::CheckersRules {
            mandatory_capture: false,
            complete_jumps: false,
            ..Default::default()
        }));
        for text in [
            "1010-33", "1001-50", "1101-20", "2010-41", "1110-55", "2020-33",
        ] {
            check_unit(&d, text.parse().unwrap());
        }
    }

    #[test]
    fn successor_keys_lead_to_smaller_or_more_advanced_slices() {
        let d = domain();
        for key in d.keys_up_to(5) {
            for next in d.successor_keys(key) {
                let advanced = next.pieces() < key.pieces()
                    || next == key.swapped()
                    || (next.pieces() == key.pieces()
                        && next.mover_rank + next.other_rank > key.mover_rank + key.other_rank)
                    || next.mover_kings + next.other_kings > key.mover_kings + key.other_kings;
                assert!(advanced, "{key} -> {next}");
            }
        }
    }
}
