//! `ActionSet`: a fixed-size bitset of actions, so that collecting legal actions (with the
//! repeats [`ActionGame::for_each_legal_action`] may visit) allocates nothing.

use perfectplay_core::ActionGame;

/// The largest action space an [`ActionSet`] holds: 600 on the 24-point morris board, 128 for
/// checkers.
pub(crate) const MAX_ACTIONS: usize = 640;

const WORDS: usize = MAX_ACTIONS / 64;

/// A set of actions below [`MAX_ACTIONS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ActionSet([u64; WORDS]);

impl ActionSet {
    /// Adds `action`; whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, action: usize) -> bool {
        let (word, bit) = (action / 64, 1u64 << (action % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }

    /// Whether `action` is in the set (false for any action out of range).
    #[inline]
    pub(crate) fn contains(&self, action: usize) -> bool {
        action < MAX_ACTIONS && self.0[action / 64] & (1u64 << (action % 64)) != 0
    }

    /// The actions, ascending.
    pub(crate) fn iter(&self) -> Actions {
        Actions {
            words: self.0,
            word: 0,
            remaining: self.0.iter().map(|w| w.count_ones() as usize).sum(),
        }
    }

    /// The legal actions of `pos` at `stage` in `game`.
    pub(crate) fn legal<G: ActionGame>(game: &G, pos: &G::Position, stage: &G::Stage) -> Self {
        let mut set = ActionSet::default();
        game.for_each_legal_action(pos, stage, |a| {
            set.insert(a);
        });
        set
    }
}

/// The actions of an [`ActionSet`], ascending, with their number known in advance (so that a
/// Python list of them is allocated once).
#[derive(Clone, Debug)]
pub(crate) struct Actions {
    words: [u64; WORDS],
    word: usize,
    remaining: usize,
}

impl Iterator for Actions {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        while self.words[self.word] == 0 {
            self.word += 1;
        }
        let bits = &mut self.words[self.word];
        let bit = bits.trailing_zeros() as usize;
        *bits &= *bits - 1;
        self.remaining -= 1;
        Some(64 * self.word + bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for Actions {}
