//! `Square`: one of the 32 dark squares, numbered 1-32 in standard (PDN) order.

use std::fmt;

use crate::Bitboard;

/// A playable (dark) square of the checkers board.
///
/// Squares are numbered 1-32 as in every checkers book and PDN: row by row from Black's side,
/// four per row. In the standard diagram (Black at the top) square 1 is b8, 4 is h8, 5 is a7,
/// 29 is a1 and 32 is g1. Internally a square is its bit index `number - 1` in a [`Bitboard`].
///
/// ```
/// use perfectplay_core::checkers::Square;
/// let s = Square::from_number(15).unwrap();
/// assert_eq!(s.number(), 15);
/// assert_eq!(s.to_string(), "15");
/// assert_eq!(s.coordinates(), "e5");
/// assert!(Square::from_number(33).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index` (0-31), if valid.
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 32 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with the standard number `number` (1-32), if valid.
    #[inline]
    #[must_use]
    pub const fn from_number(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square of a bit index known to be below 32 (taken from a `u32`).
    #[inline]
    pub(crate) const fn from_bit(index: u8) -> Square {
        Square(index & 31)
    }

    /// The bit index, 0-31.
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The standard number, 1-32.
    #[inline]
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The single-square set.
    #[inline]
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard::from_index(self.0)
    }

    /// The row counted from Black's side: 0 holds squares 1-4, 7 holds 29-32.
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// The column in the standard diagram, 0 (file a) to 7 (file h).
    #[inline]
    #[must_use]
    pub const fn column(self) -> u8 {
        let k = self.0 % 4;
        if self.row().is_multiple_of(2) {
            2 * k + 1
        } else {
            2 * k
        }
    }

    /// The algebraic name in the standard diagram (Black at the top), e.g. `b8` for square 1.
    #[must_use]
    pub fn coordinates(self) -> String {
        let file = (b'a' + self.column()) as char;
        let rank = 8 - self.row();
        format!("{file}{rank}")
    }

    /// All 32 squares in number order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_match_the_standard_diagram() {
        let name = |n| Square::from_number(n).unwrap().coordinates();
        assert_eq!(name(1), "b8");
        assert_eq!(name(4), "h8");
        assert_eq!(name(5), "a7");
        assert_eq!(name(29), "a1");
        assert_eq!(name(32), "g1");
    }

    #[test]
    fn numbers_round_trip() {
        for s in Square::all() {
            assert_eq!(Square::from_number(s.number()), Some(s));
            assert_eq!(Square::new(s.index()), Some(s));
        }
        assert_eq!(Square::from_number(0), None);
        assert_eq!(Square::new(32), None);
    }
}
