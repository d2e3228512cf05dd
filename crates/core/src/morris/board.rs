//! The morris boards as data: points, lines (adjacency) and mills, precomputed into tables.

use std::fmt;

use crate::Bitboard;

/// The most points on any board (the 24-point board).
pub const MAX_POINTS: usize = 24;
/// The most mills on any board (the 24-point board with diagonals).
pub const MAX_MILLS: usize = 20;
/// Entries of the per-point tables: one per bit of a [`Bitboard`], so that any man of an
/// unchecked position ([`super::MorrisPosition::from_parts_unchecked`]) indexes them (those past
/// the board's points are empty) and nothing panics on one.
const POINT_SLOTS: usize = 32;
const _: () = assert!(MAX_POINTS <= POINT_SLOTS && POINT_SLOTS == u32::BITS as usize);
/// The mills through a point that is not on the board.
const NO_MILLS: [u32; 4] = [0; 4];

/// Which board a game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardShape {
    /// Three concentric squares joined at the side midpoints (Nine and Twelve Men's Morris).
    TwentyFour,
    /// Two concentric squares joined at the side midpoints (Six Men's Morris).
    Sixteen,
    /// A 3x3 grid (Three Men's Morris).
    Nine,
}

impl BoardShape {
    /// The number of points.
    #[must_use]
    pub const fn points(self) -> usize {
        self.point_names().len()
    }

    /// The points' names in index order (see [`Board`]).
    #[must_use]
    pub const fn point_names(self) -> &'static [&'static str] {
        match self {
            BoardShape::TwentyFour => &NAMES_24,
            BoardShape::Sixteen => &NAMES_16,
            BoardShape::Nine => &NAMES_9,
        }
    }
}

/// A board: its named points, which points are joined by a line, and its mills.
///
/// Point `i` is bit `i` of a [`Bitboard`]. Points are numbered in reading order (top row first,
/// left to right) of their coordinates:
///
/// - 24 points, the 7x7 grid of the literature and mill programs:
///   `a7 d7 g7 / b6 d6 f6 / c5 d5 e5 / a4 b4 c4 e4 f4 g4 / c3 d3 e3 / b2 d2 f2 / a1 d1 g1`.
///   16 mills (the 12 sides of the three squares and the 4 lines joining their midpoints); with
///   diagonals, the corner lines `a7-b6-c5`, `g7-f6-e5`, `a1-b2-c3`, `g1-f2-e3` are lines and
///   mills too (20 mills).
/// - 16 points, a 5x5 grid: `a5 c5 e5 / b4 c4 d4 / a3 b3 d3 e3 / b2 c2 d2 / a1 c1 e1`. 8 mills (the
///   sides of the two squares); the midpoints are joined by lines that are not mills.
/// - 9 points, a 3x3 grid: `a3 b3 c3 / a2 b2 c2 / a1 b1 c1`. 8 lines (rows, columns and the two
///   diagonals), each a mill; without diagonals, 6.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    shape: BoardShape,
    diagonals: bool,
    diagonal_mills: bool,
    names: &'static [&'static str],
    neighbours: [u32; POINT_SLOTS],
    mills: [u32; MAX_MILLS],
    mill_count: u8,
    /// The mills through each point, as up to four masks (unused slots are 0).
    mills_at: [[u32; 4]; POINT_SLOTS],
}

const NAMES_24: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];
const NAMES_16: [&str; 16] = [
    "a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3", "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1",
];
const NAMES_9: [&str; 9] = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];

/// Mills of the 24-point board by point index: the square sides, then the midpoint lines.
const MILLS_24: [[u8; 3]; 16] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [9, 10, 11],
    [12, 13, 14],
    [15, 16, 17],
    [18, 19, 20],
    [21, 22, 23],
    [0, 9, 21],
    [3, 10, 18],
    [6, 11, 15],
    [1, 4, 7],
    [16, 19, 22],
    [8, 12, 17],
    [5, 13, 20],
    [2, 14, 23],
];
const DIAGONALS_24: [[u8; 3]; 4] = [[0, 3, 6], [2, 5, 8], [21, 18, 15], [23, 20, 17]];
const MILLS_16: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [10, 11, 12],
    [13, 14, 15],
    [0, 6, 13],
    [3, 7, 10],
    [5, 8, 12],
    [2, 9, 15],
];
/// Lines of the 16-point board that are not mills: the midpoint connectors.
const LINKS_16: [[u8; 2]; 4] = [[1, 4], [6, 7], [8, 9], [11, 14]];
const LINES_9: [[u8; 3]; 6] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
];
const DIAGONALS_9: [[u8; 3]; 2] = [[0, 4, 8], [2, 4, 6]];

/// Joins points `a` and `b` by a line in `neighbours`, both ways.
const fn join(neighbours: &mut [u32; POINT_SLOTS], a: u8, b: u8) {
    neighbours[a as usize] |= 1 << b;
    neighbours[b as usize] |= 1 << a;
}

impl Board {
    const fn build(
        shape: BoardShape,
        diagonals: bool,
        names: &'static [&'static str],
        mill_lines: &[&[[u8; 3]]],
        links: &[[u8; 2]],
    ) -> Board {
        Board::build_with_lines(shape, diagonals, names, mill_lines, &[], links)
    }

    /// A board whose `plain_lines` join their points as lines do but make no mills.
    const fn build_with_lines(
        shape: BoardShape,
        diagonals: bool,
        names: &'static [&'static str],
        mill_lines: &[&[[u8; 3]]],
        plain_lines: &[[u8; 3]],
        links: &[[u8; 2]],
    ) -> Board {
        let mut board = Board {
            shape,
            diagonals,
            diagonal_mills: diagonals && plain_lines.is_empty(),
            names,
            neighbours: [0; POINT_SLOTS],
            mills: [0; MAX_MILLS],
            mill_count: 0,
            mills_at: [[0; 4]; POINT_SLOTS],
        };
        let mut g = 0;
        while g < mill_lines.len() {
            let group = mill_lines[g];
            let mut m = 0;
            while m < group.len() {
                let [a, b, c] = group[m];
                let mask = (1 << a) | (1 << b) | (1 << c);
                board.mills[board.mill_count as usize] = mask;
                board.mill_count += 1;
                join(&mut board.neighbours, a, b);
                join(&mut board.neighbours, b, c);
                let points = [a, b, c];
                let mut p = 0;
                while p < 3 {
                    let slots = &mut board.mills_at[points[p] as usize];
                    let mut s = 0;
                    while slots[s] != 0 {
                        s += 1;
                    }
                    slots[s] = mask;
                    p += 1;
                }
                m += 1;
            }
            g += 1;
        }
        let mut l = 0;
        while l < plain_lines.len() {
            let [a, b, c] = plain_lines[l];
            join(&mut board.neighbours, a, b);
            join(&mut board.neighbours, b, c);
            l += 1;
        }
        let mut l = 0;
        while l < links.len() {
            let [a, b] = links[l];
            join(&mut board.neighbours, a, b);
            l += 1;
        }
        board
    }

    /// The board for `shape`, with diagonal lines if `diagonals` (24 and 9 points only), which
    /// make mills too if `diagonal_mills` (otherwise they are for moving only).
    /// `diagonal_mills` is ignored without diagonals.
    #[must_use]
    pub fn get(shape: BoardShape, diagonals: bool, diagonal_mills: bool) -> Option<&'static Board> {
        match (shape, diagonals, diagonal_mills) {
            (BoardShape::TwentyFour, false, _) => Some(&BOARD_24),
            (BoardShape::TwentyFour, true, true) => Some(&BOARD_24_DIAGONALS),
            (BoardShape::TwentyFour, true, false) => Some(&BOARD_24_DIAGONAL_MOVES),
            (BoardShape::Sixteen, false, _) => Some(&BOARD_16),
            (BoardShape::Sixteen, true, _) => None,
            (BoardShape::Nine, true, true) => Some(&BOARD_9),
            (BoardShape::Nine, true, false) => Some(&BOARD_9_DIAGONAL_MOVES),
            (BoardShape::Nine, false, _) => Some(&BOARD_9_ORTHOGONAL),
        }
    }

    /// The board's shape.
    #[must_use]
    pub const fn shape(&self) -> BoardShape {
        self.shape
    }

    /// Whether the diagonal lines are part of the board.
    #[must_use]
    pub const fn has_diagonals(&self) -> bool {
        self.diagonals
    }

    /// Whether the diagonal lines make mills (false on a board without them).
    #[must_use]
    pub const fn has_diagonal_mills(&self) -> bool {
        self.diagonal_mills
    }

    /// The number of points.
    #[inline]
    #[must_use]
    pub const fn point_count(&self) -> usize {
        self.names.len()
    }

    /// Every point.
    #[inline]
    #[must_use]
    pub const fn all_points(&self) -> Bitboard {
        Bitboard((1u32 << self.names.len()) - 1)
    }

    /// The name of point `index`, e.g. `d6`; `?` for an index not below
    /// [`Board::point_count`] (a point of another board, or of a position made unchecked:
    /// [`Board::point`] gives indices from names), which no position string reads back.
    #[must_use]
    pub fn name(&self, index: u8) -> &'static str {
        self.names.get(usize::from(index)).copied().unwrap_or("?")
    }

    /// The steps between the outer square's corners on the board's grid (files `a` to `g` on
    /// the 24-point boards: 6; 4 on the 16-point board, 2 on the 9-point one): what drawings
    /// of the board scale by.
    #[must_use]
    pub fn grid_span(&self) -> u8 {
        match self.point_count() {
            24 => 6,
            16 => 4,
            _ => 2,
        }
    }

    /// Where point `index` is on the board's grid: its file and rank counted from `a` and `1`.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`Board::point_count`] (a point of another board; [`Board::point`]
    /// gives indices from names).
    #[must_use]
    pub fn grid_position(&self, index: u8) -> (u8, u8) {
        let name = self.names[usize::from(index)].as_bytes();
        (name[0] - b'a', name[1] - b'1')
    }

    /// The index of the point called `name`.
    #[must_use]
    pub fn point(&self, name: &str) -> Option<u8> {
        self.names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as u8)
    }

    /// The points joined to `index` by a line (none for an index past the board's points).
    #[inline]
    #[must_use]
    pub fn neighbours(&self, index: u8) -> Bitboard {
        Bitboard(
            self.neighbours
                .get(usize::from(index))
                .copied()
                .unwrap_or(0),
        )
    }

    /// Each point's neighbours (as [`Board::neighbours`]), 0 past the board's last point.
    #[inline]
    #[must_use]
    pub(crate) fn neighbour_table(&self) -> &[u32; MAX_POINTS] {
        match self.neighbours.first_chunk() {
            Some(table) => table,
            None => unreachable!("MAX_POINTS <= POINT_SLOTS is asserted at compile time"),
        }
    }

    /// Every mill, as the set of its three points.
    #[must_use]
    pub fn mills(&self) -> &[u32] {
        &self.mills[..usize::from(self.mill_count)]
    }

    /// The mills through point `index` (up to four: the centre of the 3x3 grid), as point
    /// sets; unused slots are 0, and every slot is 0 for an index past the board's points.
    #[inline]
    #[must_use]
    pub fn mills_at(&self, index: u8) -> &[u32; 4] {
        self.mills_at.get(usize::from(index)).unwrap_or(&NO_MILLS)
    }

    /// The number of mills through `index` that `men` (which hold `index`) complete: 0 for
    /// an index past the board's points.
    #[inline]
    #[must_use]
    pub fn mills_closed_at(&self, index: u8, men: Bitboard) -> u32 {
        self.mills_at(index)
            .iter()
            .map(|&m| u32::from(m != 0 && m & men.0 == m))
            .sum()
    }

    /// The men of `men` that stand in a complete mill of `men`.
    #[must_use]
    pub fn men_in_mills(&self, men: Bitboard) -> Bitboard {
        let mut inside = 0;
        for &mill in self.mills() {
            if mill & men.0 == mill {
                inside |= mill;
            }
        }
        Bitboard(inside)
    }

    /// Whether `men` complete at least one mill.
    #[must_use]
    pub fn has_mill(&self, men: Bitboard) -> bool {
        self.mills().iter().any(|&mill| mill & !men.0 == 0)
    }

    /// The empty points next to some man of `men` (`empty` being the empty points); a man
    /// past the board's last point reaches nothing.
    #[inline]
    #[must_use]
    pub fn slide_targets(&self, men: Bitboard, empty: Bitboard) -> Bitboard {
        let mut reach = 0;
        for index in men.indices() {
            reach |= self.neighbours[usize::from(index)];
        }
        Bitboard(reach & empty.0)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({:?}, diagonals: {}, diagonal mills: {})",
            self.shape, self.diagonals, self.diagonal_mills
        )
    }
}

/// The 24-point board of Nine Men's Morris.
pub static BOARD_24: Board =
    Board::build(BoardShape::TwentyFour, false, &NAMES_24, &[&MILLS_24], &[]);
/// The 24-point board with the corner diagonals (Twelve Men's Morris, Morabaraba).
pub static BOARD_24_DIAGONALS: Board = Board::build(
    BoardShape::TwentyFour,
    true,
    &NAMES_24,
    &[&MILLS_24, &DIAGONALS_24],
    &[],
);
/// The 24-point board with the corner diagonals as lines to move along that make no mills
/// (the twelve-man sheet's nine-man variation read literally).
pub static BOARD_24_DIAGONAL_MOVES: Board = Board::build_with_lines(
    BoardShape::TwentyFour,
    true,
    &NAMES_24,
    &[&MILLS_24],
    &DIAGONALS_24,
    &[],
);
/// The 16-point board of Six Men's Morris.
pub static BOARD_16: Board = Board::build(
    BoardShape::Sixteen,
    false,
    &NAMES_16,
    &[&MILLS_16],
    &LINKS_16,
);
/// The 9-point board of Three Men's Morris, diagonals included.
pub static BOARD_9: Board = Board::build(
    BoardShape::Nine,
    true,
    &NAMES_9,
    &[&LINES_9, &DIAGONALS_9],
    &[],
);
/// The 9-point board whose diagonals are lines to move along that make no mills.
pub static BOARD_9_DIAGONAL_MOVES: Board = Board::build_with_lines(
    BoardShape::Nine,
    true,
    &NAMES_9,
    &[&LINES_9],
    &DIAGONALS_9,
    &[],
);
/// The 9-point board with rows and columns only.
pub static BOARD_9_ORTHOGONAL: Board =
    Board::build(BoardShape::Nine, false, &NAMES_9, &[&LINES_9], &[]);

#[cfg(test)]
mod tests {
    use super::*;

    /// Point coordinates (file, rank) from the names.
    fn coords(board: &Board, i: u8) -> (i32, i32) {
        let b = board.name(i).as_bytes();
        (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
    }

    #[test]
    fn counts_match_the_boards() {
        let cases = [
            (&BOARD_24, 24, 16, 32),
            (&BOARD_24_DIAGONALS, 24, 20, 40),
            (&BOARD_24_DIAGONAL_MOVES, 24, 16, 40),
            (&BOARD_16, 16, 8, 20),
            (&BOARD_9, 9, 8, 16),
            (&BOARD_9_DIAGONAL_MOVES, 9, 6, 16),
            (&BOARD_9_ORTHOGONAL, 9, 6, 12),
        ];
        for (board, points, mills, edges) in cases {
            assert_eq!(board.point_count(), points, "{board:?}");
            assert_eq!(board.mills().len(), mills, "{board:?}");
            let degree: u32 = (0..points as u8).map(|i| board.neighbours(i).count()).sum();
            assert_eq!(degree, 2 * edges, "{board:?}");
        }
    }

    #[test]
    fn diagonal_moves_boards_move_as_the_diagonal_boards_and_mill_as_the_plain_ones() {
        for (moves, diagonal, plain) in [
            (&BOARD_24_DIAGONAL_MOVES, &BOARD_24_DIAGONALS, &BOARD_24),
            (&BOARD_9_DIAGONAL_MOVES, &BOARD_9, &BOARD_9_ORTHOGONAL),
        ] {
            assert!(moves.has_diagonals() && !moves.has_diagonal_mills());
            assert!(diagonal.has_diagonal_mills() && !plain.has_diagonal_mills());
            assert_eq!(moves.neighbour_table(), diagonal.neighbour_table());
            assert_eq!(moves.mills(), plain.mills());
            for p in 0..moves.point_count() as u8 {
                let all = moves.all_points();
                assert_eq!(
                    moves.mills_closed_at(p, all),
                    plain.mills_closed_at(p, all),
                    "{moves:?} {p}"
                );
            }
        }
    }

    #[test]
    fn mills_are_straight_lines_and_lines_join_neighbours() {
        for board in [
            &BOARD_24,
            &BOARD_24_DIAGONALS,
            &BOARD_24_DIAGONAL_MOVES,
            &BOARD_16,
            &BOARD_9,
            &BOARD_9_DIAGONAL_MOVES,
            &BOARD_9_ORTHOGONAL,
        ] {
            for &mill in board.mills() {
                let pts: Vec<(i32, i32)> =
                    Bitboard(mill).indices().map(|i| coords(board, i)).collect();
                let (dx1, dy1) = (pts[1].0 - pts[0].0, pts[1].1 - pts[0].1);
                let (dx2, dy2) = (pts[2].0 - pts[0].0, pts[2].1 - pts[0].1);
                assert_eq!(
                    dx1 * dy2 - dy1 * dx2,
                    0,
                    "{board:?} mill {mill:#x} is not straight"
                );
            }
            for i in 0..board.point_count() as u8 {
                for j in board.neighbours(i).indices() {
                    assert!(
                        board.neighbours(j).contains_index(i),
                        "adjacency is symmetric"
                    );
                    let ((x1, y1), (x2, y2)) = (coords(board, i), coords(board, j));
                    let (dx, dy) = ((x2 - x1).abs(), (y2 - y1).abs());
                    assert!(
                        dx == 0 || dy == 0 || dx == dy,
                        "{} {}",
                        board.name(i),
                        board.name(j)
                    );
                }
            }
        }
    }

    #[test]
    fn names_and_neighbours_of_the_24_point_board() {
        let b = &BOARD_24;
        let n = |s: &str| b.point(s).unwrap();
        let names = |set: Bitboard| -> Vec<&str> { set.indices().map(|i| b.name(i)).collect() };
        assert_eq!(names(b.neighbours(n("d6"))), ["d7", "b6", "f6", "d5"]);
        assert_eq!(names(b.neighbours(n("a1"))), ["a4", "d1"]);
        assert_eq!(
            names(BOARD_24_DIAGONALS.neighbours(n("b6"))),
            ["a7", "d6", "c5", "b4"]
        );
        assert_eq!(b.point("G1"), Some(23));
        assert_eq!(b.point("h1"), None);
        assert_eq!(b.mills_at(n("a7")).iter().filter(|&&m| m != 0).count(), 2);
        assert_eq!(
            BOARD_24_DIAGONALS
                .mills_at(n("a7"))
                .iter()
                .filter(|&&m| m != 0)
                .count(),
            3
        );
    }
}
