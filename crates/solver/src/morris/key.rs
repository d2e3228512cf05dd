//! `MorrisKey`: a subspace of the morris databases, and its name.

use std::fmt;
use std::num::NonZeroU64;
use std::str::FromStr;

/// A morris subspace: men on the board and in hand of the side to move and of the other side,
/// and under `no_reforming` which sides carry an effective no-re-forming memory.
///
/// Held as one word, a byte a part, so that a key is built, passed and compared in a register:
/// the solver's first pass and the verifier pass keys (in `Option<(MorrisKey, u64)>` and the
/// like) between functions for every successor, and a key written a field at a time and read
/// back whole stalls such reads on store forwarding (BENCHMARKS.md). The bytes run from the
/// most significant in the order keys compare: men in hand of the side to move first (placement
/// subspaces sort after the moving phase), the memories last. A bit above them all is always
/// set, so that the word is never zero and an `Option` of a key (or of a key and an index) is
/// no larger than the key (and the index): it is returned in registers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MorrisKey(NonZeroU64);

/// Where each part's byte lies in a [`MorrisKey`]'s word.
const MOVER_HAND: u32 = 40;
const OTHER_HAND: u32 = 32;
const MOVER: u32 = 24;
const OTHER: u32 = 16;
const MOVER_BARRIER: u32 = 8;
const OTHER_BARRIER: u32 = 0;
/// The bit every key sets.
const MARK: u64 = 1 << 56;

// What the mark is for: an optional key, with an index or alone, fits in two registers.
const _: () = assert!(std::mem::size_of::<Option<(MorrisKey, u64)>>() == 16);
const _: () = assert!(std::mem::size_of::<Option<MorrisKey>>() == 8);

impl MorrisKey {
    #[inline]
    const fn from_word(word: u64) -> MorrisKey {
        match NonZeroU64::new(word | MARK) {
            Some(word) => MorrisKey(word),
            None => unreachable!(),
        }
    }

    #[inline]
    const fn word(self) -> u64 {
        self.0.get()
    }

    /// A moving-phase subspace: `mover` and `other` men on the board, none in hand, no
    /// memories.
    #[must_use]
    #[inline]
    pub const fn moving(mover: u8, other: u8) -> MorrisKey {
        MorrisKey::from_word(((mover as u64) << MOVER) | ((other as u64) << OTHER))
    }

    /// This subspace with `mover_hand` and `other_hand` men in hand.
    #[must_use]
    #[inline]
    pub const fn with_hands(self, mover_hand: u8, other_hand: u8) -> MorrisKey {
        let kept = self.word() & !((0xff << MOVER_HAND) | (0xff << OTHER_HAND));
        MorrisKey::from_word(
            kept | ((mover_hand as u64) << MOVER_HAND) | ((other_hand as u64) << OTHER_HAND),
        )
    }

    /// This subspace with the memories `mover_barrier` and `other_barrier`.
    #[must_use]
    #[inline]
    pub const fn with_barriers(self, mover_barrier: bool, other_barrier: bool) -> MorrisKey {
        let kept = self.word() & !((0xff << MOVER_BARRIER) | (0xff << OTHER_BARRIER));
        MorrisKey::from_word(
            kept | ((mover_barrier as u64) << MOVER_BARRIER)
                | ((other_barrier as u64) << OTHER_BARRIER),
        )
    }

    /// Men of the side to move on the board.
    #[must_use]
    #[inline]
    pub const fn mover(self) -> u8 {
        (self.word() >> MOVER) as u8
    }

    /// Men of the other side on the board.
    #[must_use]
    #[inline]
    pub const fn other(self) -> u8 {
        (self.word() >> OTHER) as u8
    }

    /// Men in hand of the side to move.
    #[must_use]
    #[inline]
    pub const fn mover_hand(self) -> u8 {
        (self.word() >> MOVER_HAND) as u8
    }

    /// Men in hand of the other side.
    #[must_use]
    #[inline]
    pub const fn other_hand(self) -> u8 {
        (self.word() >> OTHER_HAND) as u8
    }

    /// Whether the side to move carries a memory: one of its men may not go back to re-form
    /// the mill it just broke.
    #[must_use]
    #[inline]
    pub const fn mover_barrier(self) -> bool {
        (self.word() >> MOVER_BARRIER) & 1 != 0
    }

    /// Whether the other side carries a memory.
    #[must_use]
    #[inline]
    pub const fn other_barrier(self) -> bool {
        (self.word() >> OTHER_BARRIER) & 1 != 0
    }

    /// The subspace after a turn that keeps the men and the memories: the other side to move.
    #[must_use]
    #[inline]
    pub const fn swapped(self) -> MorrisKey {
        // Each pair of parts trades places: the mover's bytes lie 8 bits above the other's.
        const MOVERS: u64 = (0xff << MOVER_HAND) | (0xff << MOVER) | (0xff << MOVER_BARRIER);
        MorrisKey::from_word(((self.word() & MOVERS) >> 8) | ((self.word() << 8) & MOVERS))
    }

    /// Whether no man is in hand.
    #[must_use]
    #[inline]
    pub const fn is_moving_phase(self) -> bool {
        self.word() & ((0xff << MOVER_HAND) | (0xff << OTHER_HAND)) == 0
    }

    /// Whether a side carries a memory.
    #[must_use]
    #[inline]
    pub const fn has_barriers(self) -> bool {
        self.word() & ((0xff << MOVER_BARRIER) | (0xff << OTHER_BARRIER)) != 0
    }
}

impl fmt::Debug for MorrisKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MorrisKey")
            .field("mover_hand", &self.mover_hand())
            .field("other_hand", &self.other_hand())
            .field("mover", &self.mover())
            .field("other", &self.other())
            .field("mover_barrier", &self.mover_barrier())
            .field("other_barrier", &self.other_barrier())
            .finish()
    }
}

impl fmt::Display for MorrisKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover(), self.other())?;
        if !self.is_moving_phase() {
            write!(f, "-h{}-{}", self.mover_hand(), self.other_hand())?;
        }
        if self.has_barriers() {
            f.write_str("-b")?;
            if self.mover_barrier() {
                f.write_str("m")?;
            }
            if self.other_barrier() {
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
        Ok(MorrisKey::moving(mover, other)
            .with_hands(mover_hand, other_hand)
            .with_barriers(mover_barrier, other_barrier))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type Parts = (u8, u8, u8, u8, bool, bool);

    fn key_of((mover_hand, other_hand, mover, other, mb, ob): Parts) -> MorrisKey {
        MorrisKey::moving(mover, other)
            .with_hands(mover_hand, other_hand)
            .with_barriers(mb, ob)
    }

    fn parts_of(k: MorrisKey) -> Parts {
        (
            k.mover_hand(),
            k.other_hand(),
            k.mover(),
            k.other(),
            k.mover_barrier(),
            k.other_barrier(),
        )
    }

    proptest! {
        /// The word holds each part whole, compares as the parts in order (hands first, the
        /// memories last) and swaps sides part by part.
        #[test]
        fn a_key_is_its_parts(a: Parts, b: Parts) {
            let (ka, kb) = (key_of(a), key_of(b));
            prop_assert_eq!(parts_of(ka), a);
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(ka == kb, a == b);
            let (mh, oh, m, o, mb, ob) = a;
            prop_assert_eq!(parts_of(ka.swapped()), (oh, mh, o, m, ob, mb));
            prop_assert_eq!(ka.is_moving_phase(), mh == 0 && oh == 0);
            prop_assert_eq!(ka.has_barriers(), mb || ob);
            // Setting parts again replaces them rather than mixing old and new bits.
            let (mh2, oh2, _, _, mb2, ob2) = b;
            prop_assert_eq!(
                parts_of(ka.with_hands(mh2, oh2).with_barriers(mb2, ob2)),
                (mh2, oh2, m, o, mb2, ob2)
            );
        }
    }

    #[test]
    fn names_round_trip_and_keep_their_old_form_without_memories() {
        let cases = [
            (MorrisKey::moving(5, 4), "5-4"),
            (MorrisKey::moving(3, 3).with_barriers(true, false), "3-3-bm"),
            (MorrisKey::moving(3, 3).with_barriers(false, true), "3-3-bo"),
            (MorrisKey::moving(4, 3).with_barriers(true, true), "4-3-bmo"),
            (MorrisKey::moving(3, 2).with_hands(6, 6), "3-2-h6-6"),
            (
                MorrisKey::moving(3, 4)
                    .with_barriers(true, true)
                    .with_hands(1, 2),
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
