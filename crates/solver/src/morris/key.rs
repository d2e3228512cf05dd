//! `MorrisKey`: a subspace of the morris databases, and its name.

use std::fmt;
use std::str::FromStr;

/// A morris subspace: men on the board and in hand of the side to move and of the other side,
/// and under `no_reforming` which sides carry an effective no-re-forming memory.
///
/// Aligned to eight bytes, so that a key is copied as one word: the solver's first pass and
/// verifier pass keys (in `Option<(MorrisKey, u64)>` and the like) between functions for every
/// successor, and a six-byte key, written a field at a time and read back whole, stalled such
/// reads on store forwarding (BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(align(8))]
pub struct MorrisKey {
    /// Men in hand of the side to move (compared first: placement subspaces sort after the
    /// moving phase).
    pub mover_hand: u8,
    /// Men in hand of the other side.
    pub other_hand: u8,
    /// Men of the side to move on the board.
    pub mover: u8,
    /// Men of the other side on the board.
    pub other: u8,
    /// Whether the side to move carries a memory: one of its men may not go back to re-form
    /// the mill it just broke (compared last).
    pub mover_barrier: bool,
    /// Whether the other side carries a memory.
    pub other_barrier: bool,
}

impl MorrisKey {
    /// A moving-phase subspace: `mover` and `other` men on the board, none in hand, no
    /// memories.
    #[must_use]
    pub const fn moving(mover: u8, other: u8) -> MorrisKey {
        MorrisKey {
            mover,
            other,
            mover_hand: 0,
            other_hand: 0,
            mover_barrier: false,
            other_barrier: false,
        }
    }

    /// The subspace after a turn that keeps the men and the memories: the other side to move.
    #[must_use]
    pub const fn swapped(self) -> MorrisKey {
        MorrisKey {
            mover: self.other,
            other: self.mover,
            mover_hand: self.other_hand,
            other_hand: self.mover_hand,
            mover_barrier: self.other_barrier,
            other_barrier: self.mover_barrier,
        }
    }

    /// This subspace with the memories `mover_barrier` and `other_barrier`.
    #[must_use]
    pub const fn with_barriers(self, mover_barrier: bool, other_barrier: bool) -> MorrisKey {
        MorrisKey {
            mover_barrier,
            other_barrier,
            ..self
        }
    }

    /// Whether no man is in hand.
    #[must_use]
    pub const fn is_moving_phase(self) -> bool {
        self.mover_hand == 0 && self.other_hand == 0
    }

    /// Whether a side carries a memory.
    #[must_use]
    pub const fn has_barriers(self) -> bool {
        self.mover_barrier || self.other_barrier
    }
}

impl fmt::Display for MorrisKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover, self.other)?;
        if !self.is_moving_phase() {
            write!(f, "-h{}-{}", self.mover_hand, self.other_hand)?;
        }
        if self.has_barriers() {
            f.write_str("-b")?;
            if self.mover_barrier {
                f.write_str("m")?;
            }
            if self.other_barrier {
                f.write_str("o")?;
            }
        }
        Ok(())
    }
}

/// A subspace name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read subspace `{0}`: expected MEN-MEN (e.g. 5-4) or MEN-MEN-hHAND-HAND \
     (e.g. 2-3-h7-6), then -bm, -bo or -bmo for the memories of the side to move, the other \
     side or both (e.g. 3-3-bo)"
)]
pub struct ParseKeyError(String);

impl FromStr for MorrisKey {
    type Err = ParseKeyError;

    /// Reads `5-4`, `5,4`, `3-2-h6-6` or `3-3-bmo`.
    fn from_str(s: &str) -> Result<MorrisKey, ParseKeyError> {
        let err = || ParseKeyError(s.to_owned());
        let (rest, mover_barrier, other_barrier) = [("-bmo", true, true), ("-bm", true, false)]
            .into_iter()
            .chain([("-bo", false, true)])
            .find_map(|(suffix, m, o)| s.strip_suffix(suffix).map(|rest| (rest, m, o)))
            .unwrap_or((s, false, false));
        let (board, hands) = match rest.split_once("-h") {
            Some((b, h)) => (b, Some(h)),
            None => (rest, None),
        };
        let pair = |t: &str| -> Result<(u8, u8), ParseKeyError> {
            let (a, b) = t.split_once(['-', ',']).ok_or_else(err)?;
            Ok((
                a.trim().parse().map_err(|_| err())?,
                b.trim().parse().map_err(|_| err())?,
            ))
        };
        let (mover, other) = pair(board)?;
        let (mover_hand, other_hand) = match hands {
            Some(h) => pair(h)?,
            None => (0, 0),
        };
        Ok(MorrisKey {
            mover,
            other,
            mover_hand,
            other_hand,
            mover_barrier,
            other_barrier,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_keep_their_old_form_without_memories() {
        let cases = [
            (MorrisKey::moving(5, 4), "5-4"),
            (MorrisKey::moving(3, 3).with_barriers(true, false), "3-3-bm"),
            (MorrisKey::moving(3, 3).with_barriers(false, true), "3-3-bo"),
            (MorrisKey::moving(4, 3).with_barriers(true, true), "4-3-bmo"),
            (
                MorrisKey {
                    mover_hand: 6,
                    other_hand: 6,
                    ..MorrisKey::moving(3, 2)
                },
                "3-2-h6-6",
            ),
            (
                MorrisKey {
                    mover_hand: 1,
                    other_hand: 2,
                    ..MorrisKey::moving(3, 4).with_barriers(true, true)
                },
                "3-4-h1-2-bmo",
            ),
        ];
        for (key, name) in cases {
            assert_eq!(key.to_string(), name);
            assert_eq!(name.parse::<MorrisKey>(), Ok(key));
            assert_eq!(key.swapped().swapped(), key);
        }
        assert_eq!(
            MorrisKey::moving(4, 3).with_barriers(true, false).swapped(),
            MorrisKey::moving(3, 4).with_barriers(false, true)
        );
        for bad in ["3-3-b", "3-3-bx", "3-3-bom", "3-bm", "bm"] {
            assert!(bad.parse::<MorrisKey>().is_err(), "{bad}");
        }
    }
}
