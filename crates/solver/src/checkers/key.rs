//! `CheckersKey`: a slice of the checkers databases, and its name.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// The most pieces of the scheme: every count of a key is a single digit, and the men index of
/// the largest slices stays small.
pub const MAX_PIECES: u8 = 8;

/// The highest rank a man can stand on: rank 7 is its crowning row.
pub const MAX_RANK: u8 = 6;

/// The counts of a checkers material written as four digits, the way a slice's name begins:
/// men and kings of the side to move, then of the other side (`2110`).
#[must_use]
pub fn parse_material(text: &str) -> Option<[u8; 4]> {
    let digits: [u8; 4] = text.as_bytes().try_into().ok()?;
    digits
        .iter()
        .all(u8::is_ascii_digit)
        .then(|| digits.map(|d| d - b'0'))
}

/// A checkers slice: the men and kings of the side to move and of the other side, and the rank
/// of each side's most advanced man.
///
/// Ranks count rows from a side's own back row: 0 is the row a side starts on, 6 the row before
/// its crowning row. A side without men has rank 0. Keys order by the number of pieces first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersKey {
    /// Men of the side to move.
    pub mover_men: u8,
    /// Kings of the side to move.
    pub mover_kings: u8,
    /// Men of the other side.
    pub other_men: u8,
    /// Kings of the other side.
    pub other_kings: u8,
    /// Rank of the side to move's most advanced man.
    pub mover_rank: u8,
    /// Rank of the other side's most advanced man.
    pub other_rank: u8,
}

impl CheckersKey {
    /// Pieces on the board.
    ///
    /// # Panics
    ///
    /// In debug builds, if the four counts sum past 255; release builds wrap the sum.
    #[must_use]
    pub const fn pieces(self) -> u8 {
        self.mover_men + self.mover_kings + self.other_men + self.other_kings
    }

    /// Pieces of the side to move.
    ///
    /// # Panics
    ///
    /// In debug builds, if its men and kings sum past 255; release builds wrap the sum.
    #[must_use]
    pub const fn mover_pieces(self) -> u8 {
        self.mover_men + self.mover_kings
    }

    /// Pieces of the other side.
    ///
    /// # Panics
    ///
    /// In debug builds, if its men and kings sum past 255; release builds wrap the sum.
    #[must_use]
    pub const fn other_pieces(self) -> u8 {
        self.other_men + self.other_kings
    }

    /// The same slice seen by the other side: the key after a turn that changes neither side's
    /// material nor its most advanced man.
    #[must_use]
    pub const fn swapped(self) -> CheckersKey {
        CheckersKey {
            mover_men: self.other_men,
            mover_kings: self.other_kings,
            other_men: self.mover_men,
            other_kings: self.mover_kings,
            mover_rank: self.other_rank,
            other_rank: self.mover_rank,
        }
    }

    /// Whether the counts and ranks describe arrangements that exist: at most
    /// [`MAX_PIECES`] pieces, at most 12 per side, ranks at most [`MAX_RANK`], a side without
    /// men at rank 0, and room for a side's men on the ranks up to its most advanced one. Any
    /// counts are answered, however large: each side's are checked before they are summed.
    #[must_use]
    pub const fn is_well_formed(self) -> bool {
        side_is_well_formed(self.mover_men, self.mover_kings, self.mover_rank)
            && side_is_well_formed(self.other_men, self.other_kings, self.other_rank)
            && self.pieces() <= MAX_PIECES
    }

    fn order(self) -> [u8; 7] {
        [
            self.pieces(),
            self.mover_men,
            self.mover_kings,
            self.other_men,
            self.other_kings,
            self.mover_rank,
            self.other_rank,
        ]
    }
}

/// Whether one side's counts and rank exist; never overflows, whatever the counts.
const fn side_is_well_formed(men: u8, kings: u8, rank: u8) -> bool {
    men <= 12
        && kings <= 12 - men
        && rank <= MAX_RANK
        && (men > 0 || rank == 0)
        && men <= 4 * (rank + 1)
}

impl PartialOrd for CheckersKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CheckersKey {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl fmt::Display for CheckersKey {
    /// `2110-53`: men and kings of the side to move, men and kings of the other side, then the
    /// ranks of the most advanced men.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}-{}{}",
            self.mover_men,
            self.mover_kings,
            self.other_men,
            self.other_kings,
            self.mover_rank,
            self.other_rank
        )
    }
}

/// A slice name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read checkers slice `{0}`: expected four digits (men and kings of the side to move, \
     men and kings of the other side), a dash and two digits (the rank 0-6 of each side's most \
     advanced man, 0 for a side without men), e.g. 2110-53, at most {MAX_PIECES} pieces"
)]
pub struct ParseCheckersKeyError(String);

impl FromStr for CheckersKey {
    type Err = ParseCheckersKeyError;

    fn from_str(s: &str) -> Result<CheckersKey, ParseCheckersKeyError> {
        let err = || ParseCheckersKeyError(s.to_owned());
        let (counts, ranks) = s.trim().split_once('-').ok_or_else(err)?;
        let digits = |t: &str, n: usize| -> Result<Vec<u8>, ParseCheckersKeyError> {
            let d: Vec<u8> = t
                .chars()
                .map(|c| c.to_digit(10).map(|d| d as u8))
                .collect::<Option<_>>()
                .ok_or_else(err)?;
            if d.len() == n {
                Ok(d)
            } else {
                Err(err())
            }
        };
        let c = digits(counts, 4)?;
        let r = digits(ranks, 2)?;
        let key = CheckersKey {
            mover_men: c[0],
            mover_kings: c[1],
            other_men: c[2],
            other_kings: c[3],
            mover_rank: r[0],
            other_rank: r[1],
        };
        if key.is_well_formed() {
            Ok(key)
        } else {
            Err(err())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        let key = CheckersKey {
            mover_men: 2,
            mover_kings: 1,
            other_men: 1,
            other_kings: 0,
            mover_rank: 5,
            other_rank: 3,
        };
        assert_eq!(key.to_string(), "2110-53");
        assert_eq!("2110-53".parse::<CheckersKey>(), Ok(key));
        assert_eq!(key.swapped().to_string(), "1021-35");
        for bad in [
            "", "2110", "211-53", "2110-5", "2110-73", "0110-53", "5400-00", "21a0-53",
        ] {
            let e = bad.parse::<CheckersKey>().unwrap_err();
            assert!(e.to_string().contains("e.g. 2110-53"), "{bad}: {e}");
        }
    }

    #[test]
    fn keys_order_by_pieces_first() {
        let four: CheckersKey = "0202-00".parse().unwrap();
        let three: CheckersKey = "2010-66".parse().unwrap();
        assert!(four > three);
    }

    #[test]
    fn counts_past_a_byte_s_sum_are_not_well_formed() {
        let lone = CheckersKey {
            mover_men: 4,
            mover_kings: 0,
            other_men: 0,
            other_kings: 1,
            mover_rank: 0,
            other_rank: 0,
        };
        assert!(lone.is_well_formed());
        // 4 + 254 wraps to 2 in a byte: each side is checked before the sum.
        for (mover_kings, other_kings) in [(254, 0), (0, 255), (255, 255), (13, 0)] {
            let key = CheckersKey {
                mover_kings,
                other_kings,
                ..lone
            };
            assert!(!key.is_well_formed(), "{mover_kings} {other_kings}");
        }
    }
}
