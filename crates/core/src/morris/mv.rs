//! `MorrisMove`: one whole turn (placement, slide or flight, and what it takes) as a value.

use std::fmt;

use super::board::BoardShape;
use crate::Bitboard;

const NONE: u8 = u8::MAX;

/// What a turn does before any removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A man from hand to an empty point.
    Place {
        /// The point.
        to: u8,
    },
    /// A man from one point to another: a slide along a line, or a flight.
    Move {
        /// Where it starts.
        from: u8,
        /// Where it ends.
        to: u8,
    },
    /// A turn that only takes men: Shah's opening removal.
    Remove,
    /// A trapped player's turn (Shah), or an opening removal with nothing to take.
    Pass,
}

/// A morris turn: a placement, slide or flight, plus the men it takes when it closes a mill
/// (or, in Shah, traps the opponent). Points are indices on the board (see
/// [`super::board::Board`]); the move knows its board's shape, so it displays in standard
/// notation: `d6`, `a1-a4`, `a1-a4xd7`, `d6xb4`, `xd7` (a turn that only takes) and `pass`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MorrisMove {
    shape: BoardShape,
    from: u8,
    to: u8,
    removed: Bitboard,
}

impl MorrisMove {
    /// A placement on `to`, a point of the board. Point 255 (`u8::MAX`) stands for "none" in
    /// a move: a placement on it is a pass.
    #[must_use]
    pub const fn place(shape: BoardShape, to: u8) -> MorrisMove {
        MorrisMove {
            shape,
            from: NONE,
            to,
            removed: Bitboard::EMPTY,
        }
    }

    /// A slide or flight from `from` to `to`, points of the board. Point 255 (`u8::MAX`)
    /// stands for "none": as `from` it makes the move a placement on `to`, as `to` a move that
    /// [`MorrisMove::to`] and [`MorrisMove::from`] answer `None` for, which no game plays.
    #[must_use]
    pub const fn step(shape: BoardShape, from: u8, to: u8) -> MorrisMove {
        MorrisMove {
            shape,
            from,
            to,
            removed: Bitboard::EMPTY,
        }
    }

    /// A turn that only takes the men of `removed`.
    #[must_use]
    pub const fn remove_only(shape: BoardShape, removed: Bitboard) -> MorrisMove {
        MorrisMove {
            shape,
            from: NONE,
            to: NONE,
            removed,
        }
    }

    /// A pass.
    #[must_use]
    pub const fn pass(shape: BoardShape) -> MorrisMove {
        MorrisMove {
            shape,
            from: NONE,
            to: NONE,
            removed: Bitboard::EMPTY,
        }
    }

    /// The same turn, also taking the men of `removed`.
    #[must_use]
    pub const fn taking(mut self, removed: Bitboard) -> MorrisMove {
        self.removed = removed;
        self
    }

    /// What the turn does before removals.
    #[must_use]
    pub const fn kind(&self) -> MoveKind {
        match (self.from, self.to) {
            (NONE, NONE) if self.removed.is_empty() => MoveKind::Pass,
            (NONE, NONE) => MoveKind::Remove,
            (NONE, to) => MoveKind::Place { to },
            (from, to) => MoveKind::Move { from, to },
        }
    }

    /// The point a man leaves, for a slide or flight.
    #[must_use]
    pub const fn from(&self) -> Option<u8> {
        if self.from == NONE || self.to == NONE {
            None
        } else {
            Some(self.from)
        }
    }

    /// The point a man arrives on, for a placement, slide or flight.
    #[must_use]
    pub const fn to(&self) -> Option<u8> {
        if self.to == NONE {
            None
        } else {
            Some(self.to)
        }
    }

    /// The opponent's men the turn takes.
    #[must_use]
    pub const fn removed(&self) -> Bitboard {
        self.removed
    }

    /// Whether the turn takes men.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.removed.any()
    }

    /// The shape of the board the move is on.
    #[must_use]
    pub const fn shape(&self) -> BoardShape {
        self.shape
    }
}

impl fmt::Display for MorrisMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.shape.point_names();
        // A point off the board (a move made by hand, never generated) is shown by number
        // rather than made a panic.
        let name = |f: &mut fmt::Formatter<'_>, p: u8| match names.get(usize::from(p)) {
            Some(name) => f.write_str(name),
            None => write!(f, "#{p}"),
        };
        match self.kind() {
            MoveKind::Pass => return f.write_str("pass"),
            MoveKind::Remove => {}
            MoveKind::Place { to } => name(f, to)?,
            MoveKind::Move { from, to } => {
                name(f, from)?;
                f.write_str("-")?;
                name(f, to)?;
            }
        }
        for point in self.removed.indices() {
            f.write_str("x")?;
            name(f, point)?;
        }
        Ok(())
    }
}

impl fmt::Debug for MorrisMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MorrisMove({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: BoardShape = BoardShape::TwentyFour;

    #[test]
    fn kinds_and_notation() {
        assert_eq!(MorrisMove::place(S, 4).kind(), MoveKind::Place { to: 4 });
        assert_eq!(
            MorrisMove::step(S, 1, 4).kind(),
            MoveKind::Move { from: 1, to: 4 }
        );
        assert_eq!(MorrisMove::pass(S).kind(), MoveKind::Pass);
        assert_eq!(
            MorrisMove::remove_only(S, Bitboard(8)).kind(),
            MoveKind::Remove
        );
        let m = MorrisMove::step(S, 1, 4).taking(Bitboard(1 << 9));
        assert_eq!(
            (m.from(), m.to(), m.removed()),
            (Some(1), Some(4), Bitboard(1 << 9))
        );
        assert_eq!(MorrisMove::place(S, 3).from(), None);
        assert_eq!(m.to_string(), "d7-d6xa4");
        // A point off the board, in a move made by hand, is shown by number.
        assert_eq!(MorrisMove::place(S, 30).to_string(), "#30");
        assert_eq!(
            MorrisMove::step(BoardShape::Nine, 1, 12)
                .taking(Bitboard(1 << 20))
                .to_string(),
            "b3-#12x#20"
        );
        assert_eq!(MorrisMove::place(S, 4).to_string(), "d6");
        assert_eq!(
            MorrisMove::place(S, 4)
                .taking(Bitboard(1 << 10))
                .to_string(),
            "d6xb4"
        );
        assert_eq!(MorrisMove::remove_only(S, Bitboard(8)).to_string(), "xb6");
        assert_eq!(MorrisMove::pass(S).to_string(), "pass");
        assert_eq!(MorrisMove::place(BoardShape::Nine, 4).to_string(), "b2");
        assert_eq!(MorrisMove::place(BoardShape::Sixteen, 4).to_string(), "c4");
    }
}
