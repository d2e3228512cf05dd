//! `MorrisPosition`: men on the board and in hand, the side to move, and the rules' memories.

use crate::{Bitboard, Color};

/// A morris position. Which board it lies on, and what its fields mean, comes from the
/// [`super::Morris`] game it belongs to; [`super::Morris::validate`] checks one against its rules.
///
/// Besides the men it holds what the rules remember between turns:
/// - the no-re-forming memory: for each side, the man that just broke one of that side's mills
///   (where it stands now) and the point it left, which it may not move back to, re-forming
///   the mill, on its side's next turn;
/// - Shah's first mill: who closed the first mill while placing, and whether that player's
///   opening removal is the turn to play now.
///
/// The no-capture counter is history, kept by [`crate::GameState`]; the position string
/// ([`super::fen`]) carries it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MorrisPosition {
    pub(crate) men: [Bitboard; 2],
    pub(crate) hand: [u8; 2],
    pub(crate) side: Color,
    pub(crate) barrier: [BarrierSlot; 2],
    pub(crate) first_mill: Option<Color>,
    pub(crate) opening_removal: bool,
}

/// A man that broke its side's mill: it stands on `man` and may not move to `point` (re-forming
/// the mill) on its side's next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Barrier {
    /// Where the man stands.
    pub man: u8,
    /// The point it left.
    pub point: u8,
}

/// One side's no-re-forming memory as a position stores it: the man and the point in one
/// 16-bit word, `u16::MAX` for none, written and read whole. Stored as an `Option<Barrier>`
/// it was written a byte at a time and read back two bytes and one, and a read that spans two
/// smaller writes waits for them to reach the cache (a store-forwarding stall): the solver
/// paid it on every position it located. Points are below 255 on every board, so no barrier
/// is the word of none.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct BarrierSlot(u16);

impl BarrierSlot {
    /// No memory.
    pub(crate) const NONE: BarrierSlot = BarrierSlot(u16::MAX);

    #[inline]
    pub(crate) const fn new(barrier: Option<Barrier>) -> BarrierSlot {
        match barrier {
            Some(Barrier { man, point }) => BarrierSlot(man as u16 | (point as u16) << 8),
            None => BarrierSlot::NONE,
        }
    }

    #[inline]
    pub(crate) const fn get(self) -> Option<Barrier> {
        if self.0 == BarrierSlot::NONE.0 {
            return None;
        }
        Some(Barrier {
            man: self.0 as u8,
            point: (self.0 >> 8) as u8,
        })
    }
}

impl std::fmt::Debug for BarrierSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl MorrisPosition {
    /// An empty board with `men` men in each hand and `first` to move.
    #[must_use]
    pub const fn start(men: u8, first: Color) -> MorrisPosition {
        MorrisPosition {
            men: [Bitboard::EMPTY; 2],
            hand: [men; 2],
            side: first,
            barrier: [BarrierSlot::NONE; 2],
            first_mill: None,
            opening_removal: false,
        }
    }

    /// A position from its parts, with no memories, unchecked: for the solver's hot loops,
    /// which make only sound positions. [`super::Morris::position`] is the same with the check
    /// of [`super::Morris::validate`].
    ///
    /// No function of the game panics on a position the rules refuse (men past the board's
    /// points, two on one point, more men than the rules have), but what it answers for one
    /// means nothing: generated moves, outcomes and hashes are of no position of the game, and
    /// the tablebases refuse it (`perfectplay_solver::ProbeError::NotAPosition`). The one
    /// exception is retrograde generation ([`super::Morris::for_each_quiet_predecessor`]),
    /// whose cross-checks in debug builds may fail on such a position.
    #[must_use]
    pub const fn from_parts_unchecked(
        white: Bitboard,
        black: Bitboard,
        white_hand: u8,
        black_hand: u8,
        side: Color,
    ) -> MorrisPosition {
        let mut pos = MorrisPosition::start(0, side);
        pos.men[Color::White.index()] = white;
        pos.men[Color::Black.index()] = black;
        pos.hand[Color::White.index()] = white_hand;
        pos.hand[Color::Black.index()] = black_hand;
        pos
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// `color`'s men on the board.
    #[inline]
    #[must_use]
    pub const fn men(&self, color: Color) -> Bitboard {
        self.men[color.index()]
    }

    /// `color`'s men still in hand.
    #[inline]
    #[must_use]
    pub const fn in_hand(&self, color: Color) -> u8 {
        self.hand[color.index()]
    }

    /// `color`'s men on the board and in hand.
    #[inline]
    #[must_use]
    pub const fn total_men(&self, color: Color) -> u32 {
        self.men(color).count() + self.hand[color.index()] as u32
    }

    /// Every occupied point.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.men[0].0 | self.men[1].0)
    }

    /// The no-re-forming memory of `color`, if any.
    #[must_use]
    pub const fn barrier(&self, color: Color) -> Option<Barrier> {
        self.barrier[color.index()].get()
    }

    /// Shah: who closed the first mill while placing, until the opening removal is made.
    #[must_use]
    pub const fn first_mill(&self) -> Option<Color> {
        self.first_mill
    }

    /// Shah: whether the turn to play is the opening removal.
    #[must_use]
    pub const fn opening_removal_pending(&self) -> bool {
        self.opening_removal
    }

    /// Sets `color`'s no-re-forming memory (for setting up positions).
    pub fn set_barrier(&mut self, color: Color, barrier: Option<Barrier>) {
        self.barrier[color.index()] = BarrierSlot::new(barrier);
    }

    /// Sets Shah's first-mill memory and whether the opening removal is the turn to play.
    pub fn set_first_mill(&mut self, first_mill: Option<Color>, opening_removal: bool) {
        self.first_mill = first_mill;
        self.opening_removal = opening_removal;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_memory_reads_back_as_set() {
        let mut pos = MorrisPosition::start(9, Color::White);
        assert_eq!(pos.barrier(Color::White), None);
        for man in 0..24 {
            for point in 0..24 {
                let barrier = Some(Barrier { man, point });
                pos.set_barrier(Color::Black, barrier);
                assert_eq!(pos.barrier(Color::Black), barrier);
                assert_eq!(pos.barrier(Color::White), None);
                assert_eq!(
                    format!("{:?}", pos.barrier[Color::Black.index()]),
                    format!("{barrier:?}")
                );
            }
        }
        pos.set_barrier(Color::Black, None);
        assert_eq!(pos, MorrisPosition::start(9, Color::White));
    }
}
