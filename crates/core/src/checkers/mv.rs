//! `CheckersMove`: a simple move or a complete capture sequence, as a value.

use std::fmt;

use super::Square;
use crate::Bitboard;

/// The most pieces one capture can take: every enemy piece.
pub const MAX_JUMPS: usize = 12;

/// A checkers move: a one-square step, or a whole capture sequence with every landing square.
///
/// Two capture moves with the same start, end and captured pieces but different paths (a king
/// circling a block of pieces either way) are different moves: they are written differently and
/// perft counts both, although they lead to the same position.
///
/// ```
/// use perfectplay_core::checkers::{Checkers, CheckersPosition};
/// use perfectplay_core::Game;
/// let game = Checkers::default();
/// let pos = game.start_position();
/// let mv = game.parse_move(&pos, "11-15").unwrap();
/// assert_eq!(mv.to_string(), "11-15");
/// assert!(!mv.is_capture());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CheckersMove {
    from: Square,
    to: Square,
    jumps: u8,
    captured: Bitboard,
    /// Landing square indices, 5 bits each, first jump in the lowest bits.
    path: u64,
}

impl CheckersMove {
    #[inline]
    pub(crate) const fn quiet(from: Square, to: Square) -> CheckersMove {
        CheckersMove {
            from,
            to,
            jumps: 0,
            captured: Bitboard::EMPTY,
            path: 0,
        }
    }

    #[inline]
    pub(crate) const fn capture(
        from: Square,
        to: Square,
        captured: Bitboard,
        path: u64,
        jumps: u8,
    ) -> CheckersMove {
        CheckersMove {
            from,
            to,
            jumps,
            captured,
            path,
        }
    }

    /// Where the moving piece starts.
    #[inline]
    #[must_use]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// Where the moving piece ends.
    #[inline]
    #[must_use]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// Whether the move captures.
    #[inline]
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The squares of the captured pieces.
    #[inline]
    #[must_use]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// The number of jumps (captured pieces); 0 for a simple move.
    #[inline]
    #[must_use]
    pub const fn jump_count(&self) -> usize {
        self.jumps as usize
    }

    /// Every square the piece lands on, in order: the destination for a simple move, each
    /// landing square for a capture.
    pub fn landings(&self) -> impl Iterator<Item = Square> + '_ {
        let simple = (self.jumps == 0).then_some(self.to);
        let jumps = (0..u32::from(self.jumps))
            .map(move |i| Square::from_bit((self.path >> (5 * i)) as u8 & 31));
        simple.into_iter().chain(jumps)
    }

    /// The capture's first `jumps` jumps as a move of its own: where the rules let a capture
    /// stop part way ([`super::CheckersRules::complete_jumps`] off), the move that stops there.
    /// The whole move when `jumps` is 0 or at least its length.
    ///
    /// ```
    /// use perfectplay_core::checkers::CheckersPosition;
    /// let p: CheckersPosition = "W:W27:B23,14".parse().unwrap();
    /// let mv = p.parse_move("27x18x9").unwrap();
    /// assert_eq!(mv.prefix(1).to_string(), "27x18");
    /// assert_eq!(mv.prefix(1).captured().count(), 1);
    /// ```
    #[must_use]
    pub fn prefix(&self, jumps: usize) -> CheckersMove {
        if jumps == 0 || jumps >= self.jump_count() {
            return *self;
        }
        let mut captured = Bitboard::EMPTY;
        let mut at = self.from;
        for to in self.landings().take(jumps) {
            // A jump passes over the square midway between its two ends.
            let row = (at.row() + to.row()) / 2;
            let column = (at.column() + to.column()) / 2;
            let over = Square::all()
                .find(|s| s.row() == row && s.column() == column)
                .expect("a jump passes over a square of the board");
            captured |= over.bitboard();
            at = to;
        }
        let path = self.path & ((1u64 << (5 * jumps)) - 1);
        CheckersMove::capture(self.from, at, captured, path, jumps as u8)
    }
}

impl fmt::Display for CheckersMove {
    /// `11-15` for a simple move, `15x24x31` (every landing square) for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        let sep = if self.is_capture() { 'x' } else { '-' };
        for sq in self.landings() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CheckersMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CheckersMove({self})")
    }
}
