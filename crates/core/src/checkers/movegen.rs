//! Legal move generation and bulk move counting, without allocation.
//!
//! Simple moves are generated a direction at a time with shifts. Captures are found square by
//! square with a depth-first search over jump sequences; the search writes into a sink, so the
//! same code fills a move list or only counts (bulk counting for perft). Every capture path is a
//! separate move.

use super::geometry::{Dir, BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use super::{Move, Position, Square};
use crate::game::MoveBuffer;
use crate::{Bitboard, Color};

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
fn sides<const BLACK: bool>(pos: &Position) -> Sides {
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

/// The squares of the side to move's pieces that can make at least one jump.
#[inline(always)]
fn jumpers<const BLACK: bool>(s: &Sides) -> u32 {
    let mut found = 0;
    let mut scan = |dir: Dir, movers: u32| {
        let landing = dir.step(dir.step(movers) & s.enemy) & s.empty;
        let back = dir.opposite();
        found |= back.step(back.step(landing));
    };
    for dir in forward(BLACK) {
        scan(dir, s.men | s.kings);
    }
    for dir in backward(BLACK) {
        scan(dir, s.kings);
    }
    found
}

/// Receives each complete capture sequence found by [`extend_jumps`].
trait CaptureSink {
    fn complete(&mut self, from: u8, to: u8, captured: u32, path: u64, jumps: u8);
}

struct Counter(u64);

impl CaptureSink for Counter {
    #[inline(always)]
    fn complete(&mut self, _: u8, _: u8, _: u32, _: u64, _: u8) {
        self.0 += 1;
    }
}

struct Collector<'a, L>(&'a mut L);

impl<L: MoveBuffer<Move>> CaptureSink for Collector<'_, L> {
    #[inline(always)]
    fn complete(&mut self, from: u8, to: u8, captured: u32, path: u64, jumps: u8) {
        self.0.push_move(Move::capture(
            Square::from_bit(from),
            Square::from_bit(to),
            Bitboard(captured),
            path,
            jumps,
        ));
    }
}

/// What a jumping piece sees: enemy pieces, empty squares (its own start square included,
/// captured pieces not: they stay on the board until the move is complete) and its crowning row.
struct JumpBoard {
    enemy: u32,
    empty: u32,
    crown_row: u32,
}

/// Extends a capture sequence that has reached `at` after `jumps` jumps, reporting every
/// complete sequence. A man that reaches its crowning row stops there.
#[inline]
fn extend_jumps<const BLACK: bool, const KING: bool, S: CaptureSink>(
    board: &JumpBoard,
    from: u8,
    at: u32,
    captured: u32,
    path: u64,
    jumps: u8,
    sink: &mut S,
) {
    let available = board.enemy & !captured;
    let mut extended = false;
    let mut try_dir = |dir: Dir, sink: &mut S| {
        let over = dir.step(at) & available;
        if over == 0 {
            return;
        }
        let landing = dir.step(over) & board.empty;
        if landing == 0 {
            return;
        }
        extended = true;
        let index = landing.trailing_zeros() as u8;
        let path = path | (u64::from(index) << (5 * u32::from(jumps)));
        if !KING && landing & board.crown_row != 0 {
            sink.complete(from, index, captured | over, path, jumps + 1);
        } else {
            extend_jumps::<BLACK, KING, S>(board, from, landing, captured | over, path, jumps + 1, sink);
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
    if !extended && jumps > 0 {
        sink.complete(from, at.trailing_zeros() as u8, captured, path, jumps);
    }
}

#[inline(always)]
fn captures<const BLACK: bool, S: CaptureSink>(s: &Sides, jumpers: u32, sink: &mut S) {
    for index in Bitboard(jumpers).indices() {
        let at = 1u32 << index;
        let board = JumpBoard { enemy: s.enemy, empty: s.empty | at, crown_row: s.crown_row };
        if s.kings & at != 0 {
            extend_jumps::<BLACK, true, S>(&board, index, at, 0, 0, 0, sink);
        } else {
            extend_jumps::<BLACK, false, S>(&board, index, at, 0, 0, 0, sink);
        }
    }
}

#[inline(always)]
fn quiet_moves<const BLACK: bool, L: MoveBuffer<Move>>(s: &Sides, list: &mut L) {
    let mut emit = |dir: Dir, movers: u32| {
        let back = dir.opposite();
        for to in Bitboard(dir.step(movers) & s.empty).indices() {
            let from = back.step(1 << to).trailing_zeros() as u8;
            list.push_move(Move::quiet(Square::from_bit(from), Square::from_bit(to)));
        }
    };
    for dir in forward(BLACK) {
        emit(dir, s.men | s.kings);
    }
    for dir in backward(BLACK) {
        emit(dir, s.kings);
    }
}

#[inline(always)]
fn count_quiet<const BLACK: bool>(s: &Sides) -> u64 {
    let movers = s.men | s.kings;
    let [f1, f2] = forward(BLACK);
    let [b1, b2] = backward(BLACK);
    u64::from(
        (f1.step(movers) & s.empty).count_ones()
            + (f2.step(movers) & s.empty).count_ones()
            + (b1.step(s.kings) & s.empty).count_ones()
            + (b2.step(s.kings) & s.empty).count_ones(),
    )
}

#[inline(always)]
fn generate_for<const BLACK: bool, L: MoveBuffer<Move>>(pos: &Position, list: &mut L) {
    let s = sides::<BLACK>(pos);
    let jumpers = jumpers::<BLACK>(&s);
    if jumpers != 0 {
        captures::<BLACK, _>(&s, jumpers, &mut Collector(list));
    } else {
        quiet_moves::<BLACK, L>(&s, list);
    }
}

#[inline(always)]
fn count_for<const BLACK: bool>(pos: &Position) -> u64 {
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

#[inline(always)]
fn has_move_for<const BLACK: bool>(pos: &Position) -> bool {
    let s = sides::<BLACK>(pos);
    count_quiet::<BLACK>(&s) != 0 || jumpers::<BLACK>(&s) != 0
}

impl Position {
    /// Appends every legal move to `list` (which the caller has cleared). Captures are
    /// mandatory: if any exists, only captures are generated.
    #[inline]
    pub fn generate_moves_into<L: MoveBuffer<Move>>(&self, list: &mut L) {
        match self.side {
            Color::Black => generate_for::<true, L>(self, list),
            Color::White => generate_for::<false, L>(self, list),
        }
    }

    /// The number of legal moves, every capture path counted separately, without building them.
    #[inline]
    #[must_use]
    pub fn count_moves(&self) -> u64 {
        match self.side {
            Color::Black => count_for::<true>(self),
            Color::White => count_for::<false>(self),
        }
    }

    /// Whether the side to move has a legal move.
    #[inline]
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        match self.side {
            Color::Black => has_move_for::<true>(self),
            Color::White => has_move_for::<false>(self),
        }
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
    pub fn play(&self, mv: &Move) -> Position {
        let from = mv.from().bitboard().0;
        let to = mv.to().bitboard().0;
        let captured = mv.captured().0;
        let mut next = *self;
        let (us, them, crown_row) = match self.side {
            Color::Black => (&mut next.black.0, &mut next.white.0, BLACK_CROWN_ROW),
            Color::White => (&mut next.white.0, &mut next.black.0, WHITE_CROWN_ROW),
        };
        *us ^= from | to;
        *them &= !captured;
        let kings = &mut next.kings.0;
        if *kings & from != 0 {
            *kings ^= from | to;
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
    pub fn moves_man(&self, mv: &Move) -> bool {
        !self.kings.intersects(mv.from().bitboard())
    }
}
