//! Legal move generation and bulk move counting, without allocation.
//!
//! Simple moves are generated a direction at a time with shifts. Captures are found square by
//! square with a depth-first search over jump sequences; the search writes into a sink, so the
//! same code fills a move list or only counts (bulk counting for perft). Every capture path is a
//! separate move.
//!
//! The basic game's options ([`CheckersRules::mandatory_capture`] and
//! [`CheckersRules::complete_jumps`] off) take a separate entry point,
//! [`CheckersPosition::for_each_move_under`]: simple moves beside captures, and every prefix of a
//! capture path as a move of its own, reported by the same search with a sink that asks for
//! them ([`CaptureSink::PREFIXES`]), so the standard game's generation pays nothing for them.

use super::geometry::{Dir, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use super::{CheckersMove, CheckersPosition, CheckersRules, Square};
use crate::game::MoveBuffer;
use crate::{Bitboard, Color};

/// Calls `f::<BLACK, ...>(args)` for the side to move `side`: the generators are compiled once
/// for each side, with its directions known at compile time.
macro_rules! by_side {
    ($side:expr, $f:ident($($arg:expr),*)) => {
        by_side!($side, $f::<>($($arg),*))
    };
    ($side:expr, $f:ident::<$($generic:ty),*>($($arg:expr),*)) => {
        match $side {
            Color::Black => $f::<true, $($generic),*>($($arg),*),
            Color::White => $f::<false, $($generic),*>($($arg),*),
        }
    };
}

const BLACK_FORWARD: [Dir; 2] = [Dir::SouthWest, Dir::SouthEast];
const WHITE_FORWARD: [Dir; 2] = [Dir::NorthWest, Dir::NorthEast];

#[inline(always)]
const fn forward(black: bool) -> [Dir; 2] {
    if black {
        BLACK_FORWARD
    } else {
        WHITE_FORWARD
    }
}

#[inline(always)]
const fn backward(black: bool) -> [Dir; 2] {
    forward(!black)
}

/// The position seen from the side to move.
#[derive(Clone, Copy)]
struct Sides {
    men: u32,
    kings: u32,
    enemy: u32,
    empty: u32,
    crown_row: u32,
}

#[inline(always)]
fn sides<const BLACK: bool>(pos: &CheckersPosition) -> Sides {
    let (us, them, crown_row) = if BLACK {
        (pos.black.0, pos.white.0, BLACK_CROWN_ROW)
    } else {
        (pos.white.0, pos.black.0, WHITE_CROWN_ROW)
    };
    Sides {
        men: us & !pos.kings.0,
        kings: us & pos.kings.0,
        enemy: them,
        empty: !(us | them),
        crown_row,
    }
}

/// The squares whose neighbour in `dir` is in `set`.
#[inline(always)]
const fn toward(dir: Dir, set: u32) -> u32 {
    dir.opposite().step(set)
}

/// The side to move's pieces that can make a first jump in `dir`.
#[inline(always)]
fn jumpers_in(dir: Dir, movers: u32, s: &Sides) -> u32 {
    movers & toward(dir, s.enemy & toward(dir, s.empty))
}

/// The squares of the side to move's pieces that can make at least one jump.
#[inline(always)]
fn jumpers<const BLACK: bool>(s: &Sides) -> u32 {
    let movers = s.men | s.kings;
    let [f1, f2] = forward(BLACK);
    let mut found = jumpers_in(f1, movers, s) | jumpers_in(f2, movers, s);
    if s.kings != 0 {
        let [b1, b2] = backward(BLACK);
        found |= jumpers_in(b1, s.kings, s) | jumpers_in(b2, s.kings, s);
    }
    found
}

/// Receives each complete capture sequence found by [`jumps_from`].
trait CaptureSink {
    /// Whether every prefix of a sequence is reported as well, before the sequences that
    /// extend it (a capture that may stop after any jump).
    const PREFIXES: bool = false;
    fn complete(&mut self, from: u8, to: u8, captured: u32, path: u64, jumps: u8);
}

struct Counter(u64);

impl CaptureSink for Counter {
    #[inline(always)]
    fn complete(&mut self, _: u8, _: u8, _: u32, _: u64, _: u8) {
        self.0 += 1;
    }
}

struct Visitor<'a, F>(&'a mut F);

impl<F: FnMut(&CheckersMove)> CaptureSink for Visitor<'_, F> {
    #[inline(always)]
    fn complete(&mut self, from: u8, to: u8, captured: u32, path: u64, jumps: u8) {
        (self.0)(&CheckersMove::capture(
            Square::from_bit(from),
            Square::from_bit(to),
            Bitboard(captured),
            path,
            jumps,
        ));
    }
}

/// A [`Visitor`] that is also told every prefix of a capture sequence.
struct PrefixVisitor<'a, F>(&'a mut F);

impl<F: FnMut(&CheckersMove)> CaptureSink for PrefixVisitor<'_, F> {
    const PREFIXES: bool = true;

    #[inline(always)]
    fn complete(&mut self, from: u8, to: u8, captured: u32, path: u64, jumps: u8) {
        Visitor(self.0).complete(from, to, captured, path, jumps);
    }
}

/// What a jumping piece sees: enemy pieces, empty squares (its own start square included,
/// captured pieces not: they stay on the board until the move is complete) and its crowning row.
struct JumpBoard {
    enemy: u32,
    empty: u32,
    crown_row: u32,
}

/// For each square and direction (in [`Dir`] order): the neighbouring square a jump passes
/// over and the square beyond where it lands; empty where the board ends.
const JUMP_LINES: [[(u32, u32); 4]; 32] = {
    let dirs = [
        Dir::NorthWest,
        Dir::NorthEast,
        Dir::SouthWest,
        Dir::SouthEast,
    ];
    let mut table = [[(0, 0); 4]; 32];
    let mut sq = 0;
    while sq < 32 {
        let mut d = 0;
        while d < 4 {
            let over = dirs[d].step(1 << sq);
            table[sq][d] = (over, dirs[d].step(over));
            d += 1;
        }
        sq += 1;
    }
    table
};

/// Whether a piece standing on `at` can jump again, `captured` pieces being spent.
#[inline(always)]
fn can_jump<const BLACK: bool, const KING: bool>(board: &JumpBoard, at: u8, captured: u32) -> bool {
    let available = board.enemy & !captured;
    let lines = &JUMP_LINES[usize::from(at & 31)];
    let open = |dir: Dir| {
        let (over, beyond) = lines[dir as usize];
        over & available != 0 && beyond & board.empty != 0
    };
    let [f1, f2] = forward(BLACK);
    let [b1, b2] = backward(BLACK);
    open(f1) || open(f2) || (KING && (open(b1) || open(b2)))
}

/// Reports every complete capture sequence that continues from square `at`, reached after
/// `jumps` jumps (at least one jump must be possible there). A man that reaches its crowning
/// row stops. Sequences that end after the next jump are reported without a call, which keeps
/// the common single jump cheap.
#[inline(always)]
fn jumps_from<const BLACK: bool, const KING: bool, S: CaptureSink>(
    board: &JumpBoard,
    from: u8,
    at: u8,
    captured: u32,
    path: u64,
    jumps: u8,
    sink: &mut S,
) {
    let available = board.enemy & !captured;
    let lines = &JUMP_LINES[usize::from(at & 31)];
    let try_dir = |dir: Dir, sink: &mut S| {
        let (over, beyond) = lines[dir as usize];
        if over & available == 0 || beyond & board.empty == 0 {
            return;
        }
        let index = beyond.trailing_zeros() as u8;
        let path = path | (u64::from(index) << (5 * u32::from(jumps)));
        let captured = captured | over;
        let crowned = !KING && beyond & board.crown_row != 0;
        if crowned || !can_jump::<BLACK, KING>(board, index, captured) {
            sink.complete(from, index, captured, path, jumps + 1);
        } else {
            if S::PREFIXES {
                sink.complete(from, index, captured, path, jumps + 1);
            }
            jumps_on::<BLACK, KING, S>(board, from, index, captured, path, jumps + 1, sink);
        }
    };
    for dir in forward(BLACK) {
        try_dir(dir, sink);
    }
    if KING {
        for dir in backward(BLACK) {
            try_dir(dir, sink);
        }
    }
}

/// The recursive step of [`jumps_from`], kept out of line.
#[inline(never)]
fn jumps_on<const BLACK: bool, const KING: bool, S: CaptureSink>(
    board: &JumpBoard,
    from: u8,
    at: u8,
    captured: u32,
    path: u64,
    jumps: u8,
    sink: &mut S,
) {
    jumps_from::<BLACK, KING, S>(board, from, at, captured, path, jumps, sink);
}

#[inline(always)]
fn captures<const BLACK: bool, S: CaptureSink>(s: &Sides, jumpers: u32, sink: &mut S) {
    for index in Bitboard(jumpers).indices() {
        let at = 1u32 << index;
        let board = JumpBoard {
            enemy: s.enemy,
            empty: s.empty | at,
            crown_row: s.crown_row,
        };
        if s.kings & at != 0 {
            jumps_from::<BLACK, true, S>(&board, index, index, 0, 0, 0, sink);
        } else {
            jumps_from::<BLACK, false, S>(&board, index, index, 0, 0, 0, sink);
        }
    }
}

#[inline(always)]
fn quiet_moves<const BLACK: bool, F: FnMut(&CheckersMove)>(s: &Sides, visit: &mut F) {
    let mut emit = |dir: Dir, movers: u32| {
        for from in Bitboard(movers & toward(dir, s.empty)).indices() {
            let to = dir.step(1 << from).trailing_zeros() as u8;
            visit(&CheckersMove::quiet(
                Square::from_bit(from),
                Square::from_bit(to),
            ));
        }
    };
    let [f1, f2] = forward(BLACK);
    emit(f1, s.men | s.kings);
    emit(f2, s.men | s.kings);
    if s.kings != 0 {
        let [b1, b2] = backward(BLACK);
        emit(b1, s.kings);
        emit(b2, s.kings);
    }
}

#[inline(always)]
fn count_quiet<const BLACK: bool>(s: &Sides) -> u64 {
    let movers = s.men | s.kings;
    let [f1, f2] = forward(BLACK);
    let mut n =
        (movers & toward(f1, s.empty)).count_ones() + (movers & toward(f2, s.empty)).count_ones();
    if s.kings != 0 {
        let [b1, b2] = backward(BLACK);
        n += (s.kings & toward(b1, s.empty)).count_ones()
            + (s.kings & toward(b2, s.empty)).count_ones();
    }
    u64::from(n)
}

#[inline(always)]
fn visit_for<const BLACK: bool, F: FnMut(&CheckersMove)>(pos: &CheckersPosition, visit: &mut F) {
    let s = sides::<BLACK>(pos);
    let jumpers = jumpers::<BLACK>(&s);
    if jumpers != 0 {
        captures::<BLACK, _>(&s, jumpers, &mut Visitor(visit));
    } else {
        quiet_moves::<BLACK, F>(&s, visit);
    }
}

/// [`visit_for`] under any capture options: simple moves beside captures unless capturing is
/// mandatory, and every prefix of a capture unless sequences must be completed.
#[inline(always)]
fn visit_under<const BLACK: bool, F: FnMut(&CheckersMove)>(
    pos: &CheckersPosition,
    rules: &CheckersRules,
    visit: &mut F,
) {
    let s = sides::<BLACK>(pos);
    let jumpers = jumpers::<BLACK>(&s);
    if jumpers != 0 {
        if rules.complete_jumps {
            captures::<BLACK, _>(&s, jumpers, &mut Visitor(visit));
        } else {
            captures::<BLACK, _>(&s, jumpers, &mut PrefixVisitor(visit));
        }
    }
    if jumpers == 0 || !rules.mandatory_capture {
        quiet_moves::<BLACK, F>(&s, visit);
    }
}

#[inline(always)]
fn count_for<const BLACK: bool>(pos: &CheckersPosition) -> u64 {
    let s = sides::<BLACK>(pos);
    let jumpers = jumpers::<BLACK>(&s);
    if jumpers != 0 {
        let mut counter = Counter(0);
        captures::<BLACK, _>(&s, jumpers, &mut counter);
        counter.0
    } else {
        count_quiet::<BLACK>(&s)
    }
}

/// The squares of the side to move's pieces with a legal first step in each direction of
/// `dirs`: their first jumps if the side must capture, else their simple moves; both when
/// capturing is optional (`mandatory` false: a piece's jump and step in one direction never
/// coexist, the square beside it being an enemy's or empty).
#[inline(always)]
fn first_steps_for<const BLACK: bool>(
    pos: &CheckersPosition,
    dirs: [Dir; 4],
    mandatory: bool,
) -> [u32; 4] {
    let s = sides::<BLACK>(pos);
    let forward = forward(BLACK);
    let movers = dirs.map(|dir| {
        if forward.contains(&dir) {
            s.men | s.kings
        } else {
            s.kings
        }
    });
    // The first jumps by direction, found once: any of them makes capturing mandatory.
    let jumps: [u32; 4] = std::array::from_fn(|i| jumpers_in(dirs[i], movers[i], &s));
    if mandatory && jumps.iter().any(|&j| j != 0) {
        return jumps;
    }
    std::array::from_fn(|i| jumps[i] | movers[i] & toward(dirs[i], s.empty))
}

#[inline(always)]
fn has_move_for<const BLACK: bool>(pos: &CheckersPosition) -> bool {
    let s = sides::<BLACK>(pos);
    count_quiet::<BLACK>(&s) != 0 || jumpers::<BLACK>(&s) != 0
}

impl CheckersPosition {
    /// Appends every legal move to `list` (which the caller has cleared). Captures are
    /// mandatory: if any exists, only captures are generated.
    ///
    /// # Panics
    ///
    /// Where `list` panics when full (an `ArrayVec` does) and lacks room for every legal move:
    /// a list not cleared first, say.
    #[inline]
    pub fn generate_moves_into<L: MoveBuffer<CheckersMove>>(&self, list: &mut L) {
        self.for_each_move(|mv| list.push_move(*mv));
    }

    /// Calls `visit` with every legal move, in the order of
    /// [`CheckersPosition::generate_moves_into`], without building a list.
    #[inline]
    pub fn for_each_move<F: FnMut(&CheckersMove)>(&self, mut visit: F) {
        by_side!(self.side, visit_for::<F>(self, &mut visit))
    }

    /// Calls `visit` with every legal move under `rules`' capture options: as
    /// [`CheckersPosition::for_each_move`] in the standard game; simple moves beside captures
    /// where capturing is not mandatory; every prefix of a capture path too (`15x24` beside
    /// `15x24x31`, before it) where a capture may stop after any jump.
    ///
    /// ```
    /// use perfectplay_core::checkers::{CheckersPosition, CheckersRules};
    /// let p: CheckersPosition = "W:W27:B23,14".parse().unwrap();
    /// let basic = CheckersRules { mandatory_capture: false, complete_jumps: false, ..CheckersRules::default() };
    /// let mut moves = Vec::new();
    /// p.for_each_move_under(&basic, |mv| moves.push(mv.to_string()));
    /// assert_eq!(moves, ["27x18", "27x18x9", "27-24"]);
    /// ```
    #[inline]
    pub fn for_each_move_under<F: FnMut(&CheckersMove)>(
        &self,
        rules: &CheckersRules,
        mut visit: F,
    ) {
        if rules.standard_captures() {
            return self.for_each_move(visit);
        }
        by_side!(self.side, visit_under::<F>(self, rules, &mut visit))
    }

    /// The number of legal moves, every capture path counted separately, without building them.
    #[inline]
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        by_side!(self.side, count_for(self))
    }

    /// Whether the side to move has a legal move.
    #[inline]
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        by_side!(self.side, has_move_for(self))
    }

    /// For each direction of `dirs`, the squares of the side to move's pieces whose legal
    /// moves start with a step or jump that way (jumps if the side must capture): the first
    /// actions of every legal move, found with shifts alone.
    #[inline]
    #[must_use]
    pub(crate) fn first_steps(&self, dirs: [Dir; 4], mandatory: bool) -> [u32; 4] {
        by_side!(self.side, first_steps_for(self, dirs, mandatory))
    }

    /// Whether the side to move must capture.
    #[inline]
    #[must_use]
    pub fn must_capture(&self) -> bool {
        match self.side {
            Color::Black => jumpers::<true>(&sides::<true>(self)) != 0,
            Color::White => jumpers::<false>(&sides::<false>(self)) != 0,
        }
    }

    /// The position after `mv`, which must be legal here (copy-make).
    #[inline]
    #[must_use]
    pub fn play(&self, mv: &CheckersMove) -> CheckersPosition {
        let from = mv.from().bitboard().0;
        let to = mv.to().bitboard().0;
        let captured = mv.captured().0;
        let mut next = *self;
        let (us, them, crown_row) = match self.side {
            Color::Black => (&mut next.black.0, &mut next.white.0, BLACK_CROWN_ROW),
            Color::White => (&mut next.white.0, &mut next.black.0, WHITE_CROWN_ROW),
        };
        // `from` and `to` coincide when a king circles back to its start square.
        *us = (*us & !from) | to;
        *them &= !captured;
        let kings = &mut next.kings.0;
        if *kings & from != 0 {
            *kings = (*kings & !from) | to;
        } else if to & crown_row != 0 {
            *kings |= to;
        }
        *kings &= !captured;
        next.side = !self.side;
        next
    }

    /// Whether `mv` moves a man (not a king) in this position.
    #[inline]
    #[must_use]
    pub fn moves_man(&self, mv: &CheckersMove) -> bool {
        !self.kings.intersects(mv.from().bitboard())
    }
}
