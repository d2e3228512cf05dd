//! `Bitboard`: a set of up to 32 board points packed into a `u32`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// For each byte, its eight bits spread `stride` apart: bit `j` of the byte becomes bit
/// `stride * j` (`stride` at most 8), for writing a set's bits into wider lanes by table.
pub(crate) const fn spread_bytes(stride: u32) -> [u64; 256] {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte] |= 1 << (stride * bit);
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

/// A set of board points, one bit per point.
///
/// Both families fit: checkers uses the 32 dark squares, the morris boards at most 24 points.
/// Which bit means which point is up to the board that uses it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 bits set.
    pub const FULL: Bitboard = Bitboard(u32::MAX);

    /// The set holding only bit `index` (`index < 32`). Indices come from a board's points, all
    /// below 32; a larger one (from a position or memory made unchecked) is taken modulo 32,
    /// as the shift instruction does, without a panic in any build.
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Bitboard {
        Bitboard(1u32.wrapping_shl(index as u32))
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds at least one point.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of points in the set.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether bit `index` is set (never for an index of 32 or more).
    #[inline]
    #[must_use]
    pub const fn contains_index(self, index: u8) -> bool {
        index < 32 && self.0 >> index & 1 != 0
    }

    /// Whether the two sets share a point.
    #[inline]
    #[must_use]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every point of `self` is in `other`.
    #[inline]
    #[must_use]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// The index of the lowest set bit, if any.
    #[inline]
    #[must_use]
    pub const fn lowest_index(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The set with its lowest point removed.
    #[inline]
    #[must_use]
    pub const fn without_lowest(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_sub(1))
    }

    /// The set without the points of `other`.
    #[inline]
    #[must_use]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Iterates over the set bit indices, lowest first.
    #[inline]
    pub fn indices(self) -> Indices {
        Indices(self.0)
    }
}

/// Iterator over the set bit indices of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Indices(u32);

impl Iterator for Indices {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(index)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Indices {}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#010x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_past_the_bits_never_panic() {
        assert_eq!(Bitboard::from_index(40), Bitboard::from_index(8));
        assert!(!Bitboard::FULL.contains_index(32));
        assert!(!Bitboard::FULL.contains_index(255));
        assert!(Bitboard::FULL.contains_index(31));
    }

    #[test]
    fn indices_are_ascending_and_exact() {
        let b = Bitboard(0b1010_0001) | Bitboard::from_index(31);
        let v: Vec<u8> = b.indices().collect();
        assert_eq!(v, vec![0, 5, 7, 31]);
        assert_eq!(b.indices().len(), 4);
        assert_eq!(b.count(), 4);
    }

    #[test]
    fn set_operations() {
        let a = Bitboard(0b1100);
        let b = Bitboard(0b0110);
        assert_eq!(a & b, Bitboard(0b0100));
        assert_eq!(a | b, Bitboard(0b1110));
        assert_eq!(a ^ b, Bitboard(0b1010));
        assert_eq!(a.without(b), Bitboard(0b1000));
        assert!(Bitboard(0b0100).is_subset(a));
        assert!(!b.is_subset(a));
        assert_eq!(a.lowest_index(), Some(2));
        assert_eq!(a.without_lowest(), Bitboard(0b1000));
        assert_eq!(Bitboard::EMPTY.lowest_index(), None);
    }
}
