//! The symmetry group of a morris board.
//!
//! A symmetry is a permutation of the points that maps lines onto lines and mills onto mills, so
//! that it maps every position to an equivalent one (same moves, same mills). The group is
//! found by a backtracking search over point images rather than written down, so every board,
//! present or future, gets its full group: 16 elements for the 24- and 16-point boards (the
//! eight symmetries of the square, each with or without swapping the inner and outer squares),
//! 8 for the 3x3 boards.
//!
//! ```
//! use perfectplay_core::morris::BOARD_24;
//! use perfectplay_solver::morris::symmetry::Symmetries;
//!
//! let group = Symmetries::new(&BOARD_24);
//! assert_eq!(group.len(), 16);
//! let set = 0b1011;
//! for s in 0..group.len() {
//!     assert_eq!(group.apply(group.inverse(s), group.apply(s, set)), set);
//! }
//! ```

use std::fmt;

use perfectplay_core::morris::{Board, MAX_POINTS};

/// Bytes of a point set that the lookup tables cover.
const CHUNKS: usize = 3;
const _: () = assert!(MAX_POINTS <= 8 * CHUNKS, "the tables cover every point");

/// The symmetries of one board, with lookup tables to apply them to point sets.
///
/// Element 0 is the identity; the others follow in lexicographic order of their point images.
pub struct Symmetries {
    board: &'static Board,
    /// `images[s][p]`: where symmetry `s` takes point `p` (points off the board stay put).
    images: Vec<[u8; MAX_POINTS]>,
    /// `tables[s][c][byte]`: the image under `s` of the points `byte << 8c`.
    tables: Vec<[[u32; 256]; CHUNKS]>,
    inverses: Vec<u8>,
    /// `products[a * len + b]`: the symmetry "apply `b`, then `a`".
    products: Vec<u8>,
}

impl Symmetries {
    /// The symmetry group of `board`.
    ///
    /// # Panics
    ///
    /// If the group has more than 256 elements, which no board with lines and mills comes near.
    #[must_use]
    pub fn new(board: &'static Board) -> Symmetries {
        let mut images = automorphisms(board);
        images.sort_unstable();
        assert!(images.len() <= 256, "symmetry numbers fit a byte");
        debug_assert_eq!(
            images[0],
            identity(),
            "the identity is the least permutation"
        );

        let index_of = |perm: &[u8; MAX_POINTS]| {
            images
                .binary_search(perm)
                .expect("the group is closed under composition and inverses") as u8
        };
        let inverses = images
            .iter()
            .map(|perm| {
                let mut inverse = identity();
                for (p, &q) in perm.iter().enumerate() {
                    inverse[usize::from(q)] = p as u8;
                }
                index_of(&inverse)
            })
            .collect();
        let products = images
            .iter()
            .flat_map(|a| {
                images
                    .iter()
                    .map(|b| index_of(&b.map(|p| a[usize::from(p)])))
            })
            .collect();
        let tables = images
            .iter()
            .map(|perm| {
                let mut table = [[0; 256]; CHUNKS];
                for (c, chunk) in table.iter_mut().enumerate() {
                    for (byte, image) in chunk.iter_mut().enumerate() {
                        for bit in 0..8 {
                            let p = 8 * c + bit;
                            if byte >> bit & 1 != 0 && p < MAX_POINTS {
                                *image |= 1 << perm[p];
                            }
                        }
                    }
                }
                table
            })
            .collect();
        Symmetries {
            board,
            images,
            tables,
            inverses,
            products,
        }
    }

    /// The board whose symmetries these are.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The number of symmetries, the identity included.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Always `false`: the identity belongs to every group.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// The image of the point set `set` (points of the board only) under symmetry `s`.
    ///
    /// # Panics
    ///
    /// If `s` is not below [`len`](Self::len). In debug builds, also if `set` holds a point off
    /// the board; release builds drop its points from 24 on then, and leave the others off the
    /// board where they are.
    #[inline]
    #[must_use]
    pub fn apply(&self, s: usize, set: u32) -> u32 {
        debug_assert_eq!(set & !self.board.all_points().0, 0, "points off the board");
        let [t0, t1, t2] = &self.tables[s];
        t0[(set & 0xff) as usize] | t1[(set >> 8 & 0xff) as usize] | t2[(set >> 16 & 0xff) as usize]
    }

    /// The symmetry that undoes `s`.
    ///
    /// # Panics
    ///
    /// If `s` is not below [`len`](Self::len).
    #[inline]
    #[must_use]
    pub fn inverse(&self, s: usize) -> usize {
        usize::from(self.inverses[s])
    }

    /// The symmetry that applies `b` first, then `a`.
    ///
    /// # Panics
    ///
    /// If `a * len + b` is not below `len * len` (`len` being [`len`](Self::len)), so for every
    /// `a` not below `len` (release builds let a product past `usize::MAX` wrap). A `b` not
    /// below `len` with a smaller `a` names another pair's product instead, without a panic.
    #[inline]
    #[must_use]
    pub fn compose(&self, a: usize, b: usize) -> usize {
        usize::from(self.products[a * self.len() + b])
    }

    /// Where symmetry `s` takes `point`.
    ///
    /// # Panics
    ///
    /// If `s` is not below [`len`](Self::len), or `point` is 24 or more. A point past a smaller
    /// board's last one stays where it is.
    #[inline]
    #[must_use]
    pub fn point_image(&self, s: usize, point: u8) -> u8 {
        self.images[s][usize::from(point)]
    }

    /// The point images of symmetry `s`, one per point of the board.
    ///
    /// # Panics
    ///
    /// If `s` is not below [`len`](Self::len).
    #[must_use]
    pub fn permutation(&self, s: usize) -> &[u8] {
        &self.images[s][..self.board.point_count()]
    }
}

impl fmt::Debug for Symmetries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Symmetries")
            .field("board", &self.board)
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

fn identity() -> [u8; MAX_POINTS] {
    std::array::from_fn(|p| p as u8)
}

/// Every permutation of the board's points that preserves both the lines and the mills.
fn automorphisms(board: &'static Board) -> Vec<[u8; MAX_POINTS]> {
    let n = board.point_count();
    let neighbours: Vec<u32> = (0..n as u8).map(|p| board.neighbours(p).0).collect();
    // Assigning points in breadth-first order means every point after the first of its
    // component has an assigned neighbour, whose image's neighbours are its only candidates.
    let mut order = Vec::with_capacity(n);
    let mut seen = 0u32;
    for root in 0..n {
        if seen >> root & 1 != 0 {
            continue;
        }
        seen |= 1 << root;
        order.push(root);
        let mut next = order.len() - 1;
        while next < order.len() {
            let p = order[next];
            next += 1;
            let mut fresh = neighbours[p] & !seen;
            seen |= fresh;
            while fresh != 0 {
                order.push(fresh.trailing_zeros() as usize);
                fresh &= fresh - 1;
            }
        }
    }
    // A mill is checked as soon as its last point (in search order) has an image.
    let depth_of = {
        let mut depth_of = [0; MAX_POINTS];
        for (d, &p) in order.iter().enumerate() {
            depth_of[p] = d;
        }
        depth_of
    };
    let mut mills_done: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &mill in board.mills() {
        let last = (0..n)
            .filter(|&p| mill >> p & 1 != 0)
            .max_by_key(|&p| depth_of[p]);
        mills_done[depth_of[last.expect("a mill has points")]].push(mill);
    }
    let mills_through: Vec<usize> = (0..n)
        .map(|p| board.mills().iter().filter(|&&m| m >> p & 1 != 0).count())
        .collect();
    let mut search = Search {
        board,
        order,
        neighbours,
        mills_through,
        mills_done,
        image: identity(),
        used: 0,
        found: Vec::new(),
    };
    search.extend(0);
    search.found
}

struct Search {
    board: &'static Board,
    order: Vec<usize>,
    neighbours: Vec<u32>,
    mills_through: Vec<usize>,
    mills_done: Vec<Vec<u32>>,
    image: [u8; MAX_POINTS],
    /// The images given so far.
    used: u32,
    found: Vec<[u8; MAX_POINTS]>,
}

impl Search {
    fn extend(&mut self, depth: usize) {
        if depth == self.order.len() {
            self.found.push(self.image);
            return;
        }
        let p = self.order[depth];
        // Where p's assigned neighbours went: p's image must be joined to exactly those images
        // among the used points.
        let mut mapped_neighbours = 0u32;
        for &q in &self.order[..depth] {
            if self.neighbours[p] >> q & 1 != 0 {
                mapped_neighbours |= 1 << self.image[q];
            }
        }
        let mut candidates = match mapped_neighbours {
            0 => self.board.all_points().0,
            m => self.neighbours[m.trailing_zeros() as usize],
        } & !self.used;
        while candidates != 0 {
            let q = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if self.neighbours[q].count_ones() != self.neighbours[p].count_ones()
                || self.mills_through[q] != self.mills_through[p]
                || self.neighbours[q] & self.used != mapped_neighbours
            {
                continue;
            }
            self.image[p] = q as u8;
            self.used |= 1 << q;
            if self.mills_done[depth].iter().all(|&mill| {
                let image = (0..MAX_POINTS)
                    .filter(|&r| mill >> r & 1 != 0)
                    .fold(0, |acc, r| acc | 1 << self.image[r]);
                self.board.mills().contains(&image)
            }) {
                self.extend(depth + 1);
            }
            self.used &= !(1 << q);
            self.image[p] = p as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::morris::{
        BOARD_16, BOARD_24, BOARD_24_DIAGONALS, BOARD_24_DIAGONAL_MOVES, BOARD_9,
        BOARD_9_DIAGONAL_MOVES, BOARD_9_ORTHOGONAL,
    };
    use perfectplay_core::Bitboard;
    use proptest::prelude::*;

    use super::*;

    const BOARDS: [(&Board, usize); 7] = [
        (&BOARD_24, 16),
        (&BOARD_24_DIAGONALS, 16),
        (&BOARD_24_DIAGONAL_MOVES, 16),
        (&BOARD_16, 16),
        (&BOARD_9, 8),
        (&BOARD_9_DIAGONAL_MOVES, 8),
        (&BOARD_9_ORTHOGONAL, 8),
    ];

    #[test]
    fn group_sizes() {
        for (board, size) in BOARDS {
            let group = Symmetries::new(board);
            assert_eq!(group.len(), size, "{board:?}");
            assert!(!group.is_empty());
            assert_eq!(group.permutation(0), &identity()[..board.point_count()]);
        }
    }

    #[test]
    fn symmetries_preserve_lines_and_mills() {
        for (board, _) in BOARDS {
            let group = Symmetries::new(board);
            let n = board.point_count() as u8;
            for s in 0..group.len() {
                let mut images = group.permutation(s).to_vec();
                images.sort_unstable();
                assert_eq!(images, (0..n).collect::<Vec<_>>(), "a permutation");
                for p in 0..n {
                    let expected = Bitboard(group.apply(s, board.neighbours(p).0));
                    assert_eq!(board.neighbours(group.point_image(s, p)), expected);
                }
                let mut mills: Vec<u32> =
                    board.mills().iter().map(|&m| group.apply(s, m)).collect();
                let mut original = board.mills().to_vec();
                mills.sort_unstable();
                original.sort_unstable();
                assert_eq!(mills, original, "{board:?} symmetry {s}");
            }
        }
    }

    #[test]
    fn the_group_is_closed_and_inverses_undo() {
        for (board, _) in BOARDS {
            let group = Symmetries::new(board);
            let n = board.point_count() as u8;
            for a in 0..group.len() {
                let inverse = group.inverse(a);
                assert_eq!(group.compose(a, inverse), 0);
                assert_eq!(group.compose(inverse, a), 0);
                for b in 0..group.len() {
                    let ab = group.compose(a, b);
                    for p in 0..n {
                        let twice = group.point_image(a, group.point_image(b, p));
                        assert_eq!(group.point_image(ab, p), twice);
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn apply_maps_each_point(seed in any::<u32>()) {
            for (board, _) in BOARDS {
                let group = Symmetries::new(board);
                let set = seed & board.all_points().0;
                for s in 0..group.len() {
                    let image = Bitboard(set)
                        .indices()
                        .fold(0, |acc, p| acc | 1 << group.point_image(s, p));
                    prop_assert_eq!(group.apply(s, set), image);
                    prop_assert_eq!(group.apply(group.inverse(s), image), set);
                }
            }
        }
    }
}
