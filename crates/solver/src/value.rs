//! The value of a position for the side to move, and its one-byte and two-bit encodings.
//!
//! A decisive game ends with the loser to move in a position that is over (no move, too few
//! men, the opponent's mill): such a position is a loss in 0 plies. Every win is then an odd
//! number of plies and every loss an even number, so one byte holds the distance and the result
//! follows from its parity:
//!
//! | byte      | meaning                                                                |
//! |-----------|------------------------------------------------------------------------|
//! | 0         | draw (includes every position that can only repeat)                    |
//! | 1..=254   | distance `d = byte - 1` plies to the end; odd: win, even: loss           |
//! | 255       | a position that cannot arise in play (the side to move has already won) |
//!
//! The distance is measured under optimal play: the winner takes the shortest road to the
//! end, the loser the longest. The compact form keeps two bits per position: 0 draw, 1 win,
//! 2 loss, 3 cannot arise.

use std::fmt;

/// Win, draw or loss, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// The result as an integer in {-1, 0, 1}.
    #[must_use]
    pub const fn signum(self) -> i8 {
        match self {
            Wdl::Loss => -1,
            Wdl::Draw => 0,
            Wdl::Win => 1,
        }
    }

    /// The same result seen from the other side.
    #[must_use]
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// The longest distance one byte holds.
pub const MAX_DISTANCE: u32 = 253;

/// A position's value: its result and, for a decided position read from a distance table, the
/// number of plies to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// Plies to the end under optimal play; `None` for draws and in WDL-only tables.
    pub plies: Option<u32>,
}

impl Value {
    /// A draw.
    pub const DRAW: Value = Value {
        wdl: Wdl::Draw,
        plies: None,
    };

    /// A decided value `plies` from the end: a win if odd, a loss if even.
    #[must_use]
    pub const fn decided(plies: u32) -> Value {
        Value {
            wdl: if plies % 2 == 1 { Wdl::Win } else { Wdl::Loss },
            plies: Some(plies),
        }
    }

    /// A value with its result only.
    #[must_use]
    pub const fn wdl_only(wdl: Wdl) -> Value {
        Value { wdl, plies: None }
    }

    /// The value of the position before a move that leads to a position of value `self`.
    #[must_use]
    pub fn before(self) -> Value {
        Value {
            wdl: self.wdl.flip(),
            plies: self.plies.map(|p| p + 1),
        }
    }

    /// Whether `self` is better than `other` for the side to move: a better result, or a
    /// quicker win, or a slower loss ([`Value::rank_key`]).
    #[must_use]
    pub fn better_than(self, other: Value) -> bool {
        self.rank_key() > other.rank_key()
    }

    /// A key that orders values from worst to best for the side to move: by result, then a
    /// quicker win or a slower loss. A win whose distance is not known ranks below every win
    /// whose distance is (it may take any number of plies), and a loss whose distance is not
    /// known above every known loss: where tables hold results only and the rules value the
    /// moves that end the game, the move that wins at once is a best move, and the move that
    /// loses at once is not. Values without a distance and of one result rank alike.
    #[must_use]
    pub fn rank_key(self) -> (Wdl, i64) {
        // Past every distance a `u32` holds.
        let unknown = i64::from(u32::MAX) + 1;
        let plies = self.plies.map_or(unknown, i64::from);
        match self.wdl {
            Wdl::Win => (Wdl::Win, -plies),
            Wdl::Draw => (Wdl::Draw, 0),
            Wdl::Loss => (Wdl::Loss, plies),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.wdl, self.plies) {
            (Wdl::Draw, _) => f.write_str("draw"),
            (wdl, Some(p)) => write!(f, "{wdl} in {p}"),
            (wdl, None) => write!(f, "{wdl}"),
        }
    }
}

/// A stored byte: what the payload of a distance table holds for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Packed(pub u8);

impl Packed {
    /// A draw.
    pub const DRAW: Packed = Packed(0);
    /// A position that cannot arise in play.
    pub const CANNOT_ARISE: Packed = Packed(255);

    /// The byte for a decided position `plies` from the end, if it fits.
    #[inline]
    #[must_use]
    pub const fn decided(plies: u32) -> Option<Packed> {
        if plies <= MAX_DISTANCE {
            Some(Packed(plies as u8 + 1))
        } else {
            None
        }
    }

    /// The distance of a decided byte.
    #[inline]
    #[must_use]
    pub const fn plies(self) -> Option<u32> {
        match self.0 {
            0 | 255 => None,
            b => Some(b as u32 - 1),
        }
    }

    /// The value; `None` for a position that cannot arise.
    #[inline]
    #[must_use]
    pub const fn value(self) -> Option<Value> {
        match self.0 {
            0 => Some(Value::DRAW),
            255 => None,
            b => Some(Value::decided(b as u32 - 1)),
        }
    }

    /// The two-bit code of the compact form.
    #[inline]
    #[must_use]
    pub const fn wdl_code(self) -> u8 {
        match self.0 {
            0 => 0,
            255 => 3,
            b if (b - 1) % 2 == 1 => 1,
            _ => 2,
        }
    }
}

/// The value of a two-bit code; `None` for a position that cannot arise.
#[inline]
#[must_use]
pub const fn wdl_from_code(code: u8) -> Option<Value> {
    match code & 3 {
        0 => Some(Value::DRAW),
        1 => Some(Value::wdl_only(Wdl::Win)),
        2 => Some(Value::wdl_only(Wdl::Loss)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_through_its_value() {
        for b in 0..=255u8 {
            let packed = Packed(b);
            match packed.value() {
                None => assert_eq!(b, 255),
                Some(v) if v.wdl == Wdl::Draw => assert_eq!(b, 0),
                Some(v) => {
                    let plies = v.plies.unwrap();
                    assert_eq!(Packed::decided(plies), Some(packed));
                    assert_eq!(v.wdl == Wdl::Win, plies % 2 == 1);
                    assert_eq!(wdl_from_code(packed.wdl_code()).unwrap().wdl, v.wdl);
                }
            }
        }
        assert_eq!(Packed::decided(MAX_DISTANCE + 1), None);
    }

    #[test]
    fn values_order_quick_wins_first_and_slow_losses_last() {
        let win1 = Value::decided(1);
        let win5 = Value::decided(5);
        let loss2 = Value::decided(2);
        let loss8 = Value::decided(8);
        assert!(win1.better_than(win5));
        assert!(win5.better_than(Value::DRAW));
        assert!(Value::DRAW.better_than(loss8));
        assert!(loss8.better_than(loss2));
        // Without a distance: below every known win, above every known loss.
        let (win, loss) = (Value::wdl_only(Wdl::Win), Value::wdl_only(Wdl::Loss));
        let win_far = Value::decided(u32::MAX);
        assert!(win1.better_than(win) && win_far.better_than(win));
        assert!(win.better_than(Value::DRAW) && Value::DRAW.better_than(loss));
        assert!(loss.better_than(loss8) && loss.better_than(Value::decided(u32::MAX - 1)));
        assert!(!win.better_than(win) && !loss.better_than(loss));
        assert_eq!(loss2.before(), Value::decided(3));
        assert_eq!(Value::DRAW.before(), Value::DRAW);
    }
}
