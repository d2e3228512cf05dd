//! `CheckersPosition`: the pieces and the side to move; `Setup`: an unvalidated arrangement.

use thiserror::Error;

use super::geometry::{BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use super::Square;
use crate::{Bitboard, Color};

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Whether it has been crowned.
    pub king: bool,
}

/// A board arrangement and side to move, not necessarily legal.
///
/// Validate it into a [`CheckersPosition`] with [`CheckersPosition::from_setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    /// Black's men.
    pub black_men: Bitboard,
    /// Black's kings.
    pub black_kings: Bitboard,
    /// White's men.
    pub white_men: Bitboard,
    /// White's kings.
    pub white_kings: Bitboard,
    /// The side to move; `None` reads as Black.
    pub side_to_move: Option<Color>,
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CheckersPositionError {
    /// Two pieces on one square.
    #[error("square {0} holds more than one piece")]
    Overlap(Square),
    /// A man on the row where it would have been crowned.
    #[error("a {color} man on square {square} stands on its crowning row and should be a king")]
    ManOnCrowningRow {
        /// The man's colour.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A king marked on a square that holds no piece.
    #[error("square {0} is marked as a king but holds no piece")]
    KingWithoutPiece(Square),
    /// More pieces than a side starts with.
    #[error("{color} has {count} pieces; a side has at most 12")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
}

/// A legal checkers position: pieces on the 32 squares and the side to move.
///
/// Every position keeps these invariants: no square holds two pieces, no man stands on its
/// crowning row, and each side has at most 12 pieces. A side may have no pieces at all (it has
/// then lost, if it is to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersPosition {
    pub(crate) black: Bitboard,
    pub(crate) white: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
}

impl CheckersPosition {
    /// The standard starting position: Black on 1-12, White on 21-32, `first` to move.
    #[must_use]
    pub const fn start(first: Color) -> CheckersPosition {
        CheckersPosition {
            black: Bitboard(0x0000_0FFF),
            white: Bitboard(0xFFF0_0000),
            kings: Bitboard::EMPTY,
            side: first,
        }
    }

    /// Validates a setup.
    pub fn from_setup(setup: &Setup) -> Result<CheckersPosition, CheckersPositionError> {
        let parts = [
            setup.black_men,
            setup.black_kings,
            setup.white_men,
            setup.white_kings,
        ];
        let mut seen = Bitboard::EMPTY;
        for part in parts {
            if let Some(i) = (seen & part).lowest_index() {
                return Err(CheckersPositionError::Overlap(Square::from_bit(i)));
            }
            seen |= part;
        }
        for (color, men, row) in [
            (Color::Black, setup.black_men, BLACK_CROWN_ROW),
            (Color::White, setup.white_men, WHITE_CROWN_ROW),
        ] {
            if let Some(i) = (men & Bitboard(row)).lowest_index() {
                return Err(CheckersPositionError::ManOnCrowningRow {
                    color,
                    square: Square::from_bit(i),
                });
            }
        }
        let black = setup.black_men | setup.black_kings;
        let white = setup.white_men | setup.white_kings;
        for (color, pieces) in [(Color::Black, black), (Color::White, white)] {
            if pieces.count() > 12 {
                return Err(CheckersPositionError::TooManyPieces {
                    color,
                    count: pieces.count(),
                });
            }
        }
        Ok(CheckersPosition {
            black,
            white,
            kings: setup.black_kings | setup.white_kings,
            side: setup.side_to_move.unwrap_or(Color::Black),
        })
    }

    /// A position from its pieces: `black` and `white` every piece of each side, `kings` the
    /// crowned ones among them. The checks of [`CheckersPosition::from_setup`] plus that every
    /// king is a piece, a few bit operations: databases build positions with it in their hot
    /// loops.
    pub fn from_parts(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<CheckersPosition, CheckersPositionError> {
        if let Some(i) = (black & white).lowest_index() {
            return Err(CheckersPositionError::Overlap(Square::from_bit(i)));
        }
        if let Some(i) = kings.without(black | white).lowest_index() {
            return Err(CheckersPositionError::KingWithoutPiece(Square::from_bit(i)));
        }
        let pos = CheckersPosition {
            black,
            white,
            kings,
            side,
        };
        for (color, row) in [
            (Color::Black, BLACK_CROWN_ROW),
            (Color::White, WHITE_CROWN_ROW),
        ] {
            if let Some(i) = (pos.men(color) & Bitboard(row)).lowest_index() {
                return Err(CheckersPositionError::ManOnCrowningRow {
                    color,
                    square: Square::from_bit(i),
                });
            }
            if pos.pieces(color).count() > 12 {
                return Err(CheckersPositionError::TooManyPieces {
                    color,
                    count: pos.pieces(color).count(),
                });
            }
        }
        Ok(pos)
    }

    /// The position as a setup.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            black_men: self.men(Color::Black),
            black_kings: self.kings(Color::Black),
            white_men: self.men(Color::White),
            white_kings: self.kings(Color::White),
            side_to_move: Some(self.side),
        }
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// All of `color`'s pieces.
    #[inline]
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// `color`'s uncrowned men.
    #[inline]
    #[must_use]
    pub const fn men(&self, color: Color) -> Bitboard {
        self.pieces(color).without(self.kings)
    }

    /// `color`'s kings.
    #[inline]
    #[must_use]
    pub const fn kings(&self, color: Color) -> Bitboard {
        Bitboard(self.pieces(color).0 & self.kings.0)
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.black.0 | self.white.0)
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let b = square.bitboard();
        let king = self.kings.intersects(b);
        if self.black.intersects(b) {
            Some(Piece {
                color: Color::Black,
                king,
            })
        } else if self.white.intersects(b) {
            Some(Piece {
                color: Color::White,
                king,
            })
        } else {
            None
        }
    }

    /// The same pieces with `side` to move.
    #[must_use]
    pub const fn with_side_to_move(mut self, side: Color) -> CheckersPosition {
        self.side = side;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[u8]) -> Bitboard {
        squares.iter().fold(Bitboard::EMPTY, |b, &n| {
            b | Square::from_number(n).unwrap().bitboard()
        })
    }

    #[test]
    fn start_position_has_twelve_men_each() {
        let p = CheckersPosition::start(Color::Black);
        assert_eq!(
            p.men(Color::Black),
            bb(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        );
        assert_eq!(p.men(Color::White).count(), 12);
        assert!(p.men(Color::White).contains_index(31));
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(CheckersPosition::from_setup(&p.to_setup()), Ok(p));
    }

    #[test]
    fn setup_errors_name_the_problem() {
        let overlap = Setup {
            black_men: bb(&[10]),
            white_kings: bb(&[10]),
            ..Setup::default()
        };
        assert_eq!(
            CheckersPosition::from_setup(&overlap),
            Err(CheckersPositionError::Overlap(
                Square::from_number(10).unwrap()
            ))
        );
        let crowned = Setup {
            white_men: bb(&[3]),
            ..Setup::default()
        };
        assert_eq!(
            CheckersPosition::from_setup(&crowned),
            Err(CheckersPositionError::ManOnCrowningRow {
                color: Color::White,
                square: Square::from_number(3).unwrap()
            })
        );
        assert_eq!(
            CheckersPosition::from_parts(bb(&[1]), bb(&[30]), bb(&[9]), Color::White),
            Err(CheckersPositionError::KingWithoutPiece(
                Square::from_number(9).unwrap()
            ))
        );
        let p =
            CheckersPosition::from_parts(bb(&[1, 29]), bb(&[30]), bb(&[29]), Color::White).unwrap();
        assert_eq!(CheckersPosition::from_setup(&p.to_setup()), Ok(p));
        assert!(matches!(
            CheckersPosition::from_parts(bb(&[29]), bb(&[30]), bb(&[]), Color::White),
            Err(CheckersPositionError::ManOnCrowningRow { .. })
        ));
        let crowd = Setup {
            black_kings: bb(&(1..=13).collect::<Vec<_>>()),
            ..Setup::default()
        };
        assert!(matches!(
            CheckersPosition::from_setup(&crowd),
            Err(CheckersPositionError::TooManyPieces {
                color: Color::Black,
                count: 13
            })
        ));
    }
}
