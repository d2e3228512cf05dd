//! Board geometry on the 32-bit layout: one diagonal step in each direction as shifts.
//!
//! Bit `i` is square `i + 1`. Rows alternate between two offsets, so a diagonal step is a shift
//! by 4 and, depending on the row's parity, by 3 or 5; masks drop the squares that would leave
//! the board at the side edges. Shifts past either end drop bits, which is what the top and
//! bottom edges need. "South" is towards square 32 (Black's forward direction).

/// Rows 0, 2, 4, 6 (squares 1-4, 9-12, 17-20, 25-28): their squares sit on files b, d, f, h.
const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows 1, 3, 5, 7: files a, c, e, g.
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Squares on file a (5, 13, 21, 29).
const FILE_A: u32 = 0x1010_1010;
/// Squares on file h (4, 12, 20, 28).
const FILE_H: u32 = 0x0808_0808;

/// Black's crowning row: squares 29-32.
pub(crate) const BLACK_CROWN_ROW: u32 = 0xF000_0000;
/// White's crowning row: squares 1-4.
pub(crate) const WHITE_CROWN_ROW: u32 = 0x0000_000F;

/// A diagonal direction in the standard diagram (Black at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    NorthWest,
    NorthEast,
    SouthWest,
    SouthEast,
}

impl Dir {
    #[cfg(test)]
    pub(crate) const ALL: [Dir; 4] = [
        Dir::NorthWest,
        Dir::NorthEast,
        Dir::SouthWest,
        Dir::SouthEast,
    ];

    /// Moves every square of `b` one step in this direction, dropping those that leave the board.
    #[inline(always)]
    pub(crate) const fn step(self, b: u32) -> u32 {
        match self {
            Dir::SouthWest => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !FILE_A) << 3),
            Dir::SouthEast => ((b & EVEN_ROWS & !FILE_H) << 5) | ((b & ODD_ROWS) << 4),
            Dir::NorthWest => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !FILE_A) >> 5),
            Dir::NorthEast => ((b & EVEN_ROWS & !FILE_H) >> 3) | ((b & ODD_ROWS) >> 4),
        }
    }

    #[inline(always)]
    pub(crate) const fn opposite(self) -> Dir {
        match self {
            Dir::NorthWest => Dir::SouthEast,
            Dir::NorthEast => Dir::SouthWest,
            Dir::SouthWest => Dir::NorthEast,
            Dir::SouthEast => Dir::NorthWest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::Square;

    /// Steps computed from (row, column) coordinates, the slow obvious way.
    fn reference_step(dir: Dir, sq: Square) -> Option<Square> {
        let (dr, dc): (i8, i8) = match dir {
            Dir::NorthWest => (-1, -1),
            Dir::NorthEast => (-1, 1),
            Dir::SouthWest => (1, -1),
            Dir::SouthEast => (1, 1),
        };
        let r = sq.row() as i8 + dr;
        let c = sq.column() as i8 + dc;
        if !(0..8).contains(&r) || !(0..8).contains(&c) {
            return None;
        }
        Square::all().find(|s| s.row() as i8 == r && s.column() as i8 == c)
    }

    #[test]
    fn shifts_agree_with_coordinates() {
        for dir in Dir::ALL {
            for sq in Square::all() {
                let got = dir.step(sq.bitboard().0);
                let want = reference_step(dir, sq).map_or(0, |s| s.bitboard().0);
                assert_eq!(got, want, "{dir:?} from {sq}");
                if want != 0 {
                    assert_eq!(dir.opposite().step(got), sq.bitboard().0);
                }
            }
        }
    }
}
