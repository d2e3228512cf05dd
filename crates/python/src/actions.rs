//! `ActionSet`: a fixed-size bitset of actions, so that collecting legal actions (with the
//! repeats [`perfectplay_core::ActionGame::for_each_legal_action`] may visit, or a group at a
//! time) allocates nothing.

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

    /// Adds the actions `first + i` for each set bit `i` of `bits` (those not below
    /// [`MAX_ACTIONS`] are dropped).
    #[inline]
    pub(crate) fn insert_group(&mut self, first: usize, bits: u64) {
        let (word, shift) = (first / 64, first % 64);
        if let Some(w) = self.0.get_mut(word) {
            *w |= bits << shift;
        }
        if shift > 0 {
            if let Some(w) = self.0.get_mut(word + 1) {
                *w |= bits >> (64 - shift);
            }
        }
    }

    /// The number of actions in the set.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The `index`-th action in ascending order, if there are more than `index`.
    #[inline]
    pub(crate) fn nth(&self, mut index: usize) -> Option<usize> {
        for (w, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if index < ones {
                let mut bits = word;
                for _ in 0..index {
                    bits &= bits - 1;
                }
                return Some(64 * w + bits.trailing_zeros() as usize);
            }
            index -= ones;
        }
        None
    }

    /// Writes the set as a mask: `mask[a]` is whether `a` is in the set (actions not below
    /// `mask.len()` are left out).
    #[inline]
    pub(crate) fn write_mask(&self, mask: &mut [bool]) {
        // The 24-point morris boards, whose envs write a mask per env at every step: each
        // word's 64 values are cleared and marked as one block of known length, with no call
        // to `memset` and no bounds check per action but in the last, short block.
        if let Ok(mask) = <&mut [bool; 600]>::try_from(&mut *mask) {
            let (blocks, tail) = mask.as_chunks_mut::<64>();
            for (block, &word) in blocks.iter_mut().zip(&self.0) {
                *block = [false; 64];
                let mut bits = word;
                while bits != 0 {
                    block[(bits.trailing_zeros() & 63) as usize] = true;
                    bits &= bits - 1;
                }
            }
            tail.fill(false);
            let mut bits = self.0.get(blocks.len()).copied().unwrap_or(0);
            while bits != 0 {
                if let Some(m) = tail.get_mut(bits.trailing_zeros() as usize) {
                    *m = true;
                }
                bits &= bits - 1;
            }
            return;
        }
        mask.fill(false);
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                if let Some(m) = mask.get_mut(64 * w + bits.trailing_zeros() as usize) {
                    *m = true;
                }
                bits &= bits - 1;
            }
        }
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
            remaining: self.len(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_straddle_words_and_nth_counts_in_ascending_order() {
        let mut set = ActionSet::default();
        set.insert_group(24 + 2 * 24, 0b1010_0000_0000_0000_0000_0001);
        set.insert_group(3, 0b101);
        set.insert_group(MAX_ACTIONS - 2, 0b1111);
        let want = [3, 5, 72, 72 + 21, 72 + 23, MAX_ACTIONS - 2, MAX_ACTIONS - 1];
        assert_eq!(set.iter().collect::<Vec<_>>(), want);
        assert_eq!(set.len(), want.len());
        for (i, &a) in want.iter().enumerate() {
            assert_eq!(set.nth(i), Some(a));
            assert!(set.contains(a));
        }
        assert_eq!(set.nth(want.len()), None);
        let mut mask = vec![true; 100];
        set.write_mask(&mut mask);
        let marked: Vec<usize> = (0..100).filter(|&a| mask[a]).collect();
        assert_eq!(marked, [3, 5, 72, 93, 95]);
        // Whole blocks, a remainder, and values past the set's last word.
        for len in [64, 600, MAX_ACTIONS, MAX_ACTIONS + 70] {
            let mut mask = vec![true; len];
            set.write_mask(&mut mask);
            let marked: Vec<usize> = (0..len).filter(|&a| mask[a]).collect();
            let want: Vec<usize> = want.iter().copied().filter(|&a| a < len).collect();
            assert_eq!(marked, want, "mask of {len}");
        }
        assert!(!set.insert(72) && set.insert(73) && set.len() == want.len() + 1);
    }
}
