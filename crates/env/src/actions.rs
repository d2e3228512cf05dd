//! `ActionSet`: a fixed-size bitset of actions, so that collecting legal actions (with the
//! repeats [`perfectplay_core::ActionGame::for_each_legal_action`] may visit, or a group at a
//! time) allocates nothing.

#[cfg(target_arch = "x86_64")]
use crate::simd;

/// The largest action space an [`ActionSet`] holds: 600 on the 24-point morris board, 128 for
/// checkers.
pub const MAX_ACTIONS: usize = 640;

pub(crate) const WORDS: usize = MAX_ACTIONS / 64;

/// Each byte's eight bits as eight values, lowest bit first.
const BYTE_BOOLS: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = byte & (1 << bit) != 0;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Writes the 64 bits of `word` into `out` as values, lowest bit first, eight at a time from
/// a table.
#[inline(always)]
fn expand_word(word: u64, out: &mut [bool; 64]) {
    for (i, out) in out.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        *out = BYTE_BOOLS[usize::from((word >> (8 * i)) as u8)];
    }
}

/// The position of the `k`-th set bit of `word` (counting from 0, lowest first), for `k`
/// below the number of set bits: the byte that holds it by counting set bits a byte at a
/// time in one register, then a table for the bit within the byte.
#[inline]
pub(crate) fn select_in_word(word: u64, k: usize) -> usize {
    const LANES: u64 = 0x0101_0101_0101_0101;
    let pairs = word - ((word >> 1) & (0x55 * LANES));
    let nibbles = (pairs & (0x33 * LANES)) + ((pairs >> 2) & (0x33 * LANES));
    let bytes = (nibbles + (nibbles >> 4)) & (0x0f * LANES);
    // Byte i: the set bits of bytes 0..=i (at most 64, so no lane overflows).
    let upto = bytes.wrapping_mul(LANES);
    // The bytes whose running count is at most k come before the one that holds the bit.
    let k = k as u64 & 63;
    let at_most_k = ((k * LANES) | (0x80 * LANES)).wrapping_sub(upto) & (0x80 * LANES);
    let byte = (at_most_k.count_ones() as usize).min(7);
    let earlier = ((upto << 8) >> (8 * byte)) & 0xff;
    let within = (k - earlier.min(k)) as usize & 7;
    8 * byte + usize::from(SELECT_IN_BYTE[usize::from((word >> (8 * byte)) as u8)][within])
}

/// The position of the `k`-th set bit of `word`, for `k` below the number of set bits.
#[inline]
pub(crate) fn select(word: u64, k: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if perfectplay_core::simd::has_fast_bmi2() {
        // SAFETY: the CPU has BMI2, checked just now.
        return unsafe { simd::select_pdep(word, k) };
    }
    select_in_word(word, k)
}

/// For each byte, the position of its `k`-th set bit (0 where there is none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// A set of actions below [`MAX_ACTIONS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionSet([u64; WORDS]);

impl ActionSet {
    /// The words of the set: action `a` is bit `a % 64` of word `a / 64`.
    #[inline]
    pub(crate) fn words_mut(&mut self) -> &mut [u64; WORDS] {
        &mut self.0
    }

    /// Adds `action`; whether it was new (an action not below [`MAX_ACTIONS`] is dropped, as
    /// [`ActionSet::insert_group`] drops it, and is never new).
    #[inline]
    pub fn insert(&mut self, action: usize) -> bool {
        if action >= MAX_ACTIONS {
            return false;
        }
        let (word, bit) = (action / 64, 1u64 << (action % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }

    /// Adds the actions `first + i` for each set bit `i` of `bits` (those not below
    /// [`MAX_ACTIONS`] are dropped).
    #[inline]
    pub fn insert_group(&mut self, first: usize, bits: u64) {
        let (word, shift) = (first / 64, first % 64);
        if let Some(w) = self.0.get_mut(word) {
            *w |= bits << shift;
        }
        // The bits that spill into the next word, none when the group starts a word (shifted
        // by 63 and then 1, as a shift by 64 is not allowed), and none past the last word:
        // without a branch on either (a morris man's moves start a word on three points of 24,
        // and the man on the last point spills past the last word, at random in play).
        let spill = (bits >> 1) >> (63 - shift);
        let next = word + 1;
        let kept = spill & 0u64.wrapping_sub(u64::from(next < WORDS));
        self.0[next.min(WORDS - 1)] |= kept;
    }

    /// The number of actions in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no action.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The `index`-th action in ascending order, if there are more than `index`.
    #[inline]
    pub fn nth(&self, index: usize) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if simd::has_vector_nth() {
            // SAFETY: the CPU has the features, checked just now.
            return unsafe { simd::nth_avx512(&self.0, index) };
        }
        #[cfg(target_arch = "x86_64")]
        if perfectplay_core::simd::has_avx2() {
            // SAFETY: the CPU has AVX2, checked just now.
            return unsafe { simd::nth_avx2(&self.0, index) };
        }
        self.nth_words(index)
    }

    /// [`ActionSet::nth`] a word at a time.
    #[inline(always)]
    fn nth_words(&self, index: usize) -> Option<usize> {
        // Envs sample at every step: which word holds the action, and then which bit, are
        // found without a branch that depends on the set.
        let mut word = WORDS;
        let mut before = 0;
        let mut counted = 0;
        for (w, bits) in self.0.iter().enumerate() {
            let ones = bits.count_ones() as usize;
            let holds = counted <= index && index < counted + ones;
            word = if holds { w } else { word };
            before = if holds { counted } else { before };
            counted += ones;
        }
        let bits = *self.0.get(word)?;
        Some(64 * word + select(bits, index - before))
    }

    /// Writes the set as a mask: `mask[a]` is whether `a` is in the set (actions not below
    /// `mask.len()` are left out).
    #[inline]
    pub fn write_mask(&self, mask: &mut [bool]) {
        // Envs write a mask per env at every step, so the values are made from the words
        // without a branch on the actions (a loop over the set bits mispredicted its exit once
        // a word): 64 at a time, by one store where the CPU has AVX-512BW, else by
        // four shuffles where the target has SSSE3 (x86-64-v2), then eight at a time from a
        // table; with a known trip count for the 24-point morris boards' 600 values.
        #[cfg(target_arch = "x86_64")]
        if simd::has_avx512_mask() {
            // SAFETY: the CPU has AVX-512F and AVX-512BW, checked just now (std caches the
            // answers, so each check is a load and a test).
            return unsafe { simd::write_mask_avx512(&self.0, mask) };
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        if !perfectplay_core::simd::portable_forced() {
            return self.write_mask_words(mask, simd::expand_word_ssse3);
        }
        self.write_mask_words(mask, expand_word);
    }

    /// [`ActionSet::write_mask`] a word at a time, each expanded by `expand`; with a known trip
    /// count for the 24-point morris boards' 600 values.
    #[inline(always)]
    fn write_mask_words(&self, mask: &mut [bool], expand: impl Fn(u64, &mut [bool; 64])) {
        if let Ok(mask) = <&mut [bool; 600]>::try_from(&mut *mask) {
            return self.write_mask_run(mask, expand);
        }
        self.write_mask_run(mask, expand);
    }

    #[inline(always)]
    fn write_mask_run(&self, mask: &mut [bool], expand: impl Fn(u64, &mut [bool; 64])) {
        let words = (mask.len() / 64).min(WORDS);
        let (head, rest) = mask.split_at_mut(64 * words);
        for (out, &word) in head.as_chunks_mut::<64>().0.iter_mut().zip(&self.0) {
            expand(word, out);
        }
        let byte = |i: usize| {
            self.0
                .get(words + i / 8)
                .map_or(0, |w| (w >> (8 * (i % 8))) as u8)
        };
        let (bytes, tail) = rest.as_chunks_mut::<8>();
        for (i, out) in bytes.iter_mut().enumerate() {
            *out = BYTE_BOOLS[usize::from(byte(i))];
        }
        let last = BYTE_BOOLS[usize::from(byte(bytes.len()))];
        for (out, value) in tail.iter_mut().zip(last) {
            *out = value;
        }
    }

    /// Writes the set as a bit mask: bit `a % 8` of `mask[a / 8]` is whether `a` is in the set
    /// (numpy's `unpackbits(..., bitorder="little")` order; actions past `8 * mask.len()` are
    /// left out). The words' bytes, little-endian, copied.
    #[inline]
    pub fn write_mask_bits(&self, mask: &mut [u8]) {
        // The 24-point morris boards' 75 bytes in stores of known size (a copy of a length
        // known only at run time is a call to `memmove`, at every step of every env).
        if let Ok(mask) = <&mut [u8; 75]>::try_from(&mut *mask) {
            let (words, tail) = mask.as_chunks_mut::<8>();
            for (out, word) in words.iter_mut().zip(&self.0) {
                *out = word.to_le_bytes();
            }
            let last = self.0[words.len()].to_le_bytes();
            tail.copy_from_slice(&last[..tail.len()]);
            return;
        }
        let mut bytes = [0u8; 8 * WORDS];
        for (out, word) in bytes.as_chunks_mut::<8>().0.iter_mut().zip(&self.0) {
            *out = word.to_le_bytes();
        }
        let n = mask.len().min(bytes.len());
        mask[..n].copy_from_slice(&bytes[..n]);
        mask[n..].fill(0);
    }

    /// Whether `action` is in the set (false for any action out of range).
    #[inline]
    pub fn contains(&self, action: usize) -> bool {
        action < MAX_ACTIONS && self.0[action / 64] & (1u64 << (action % 64)) != 0
    }

    /// The actions, ascending.
    pub fn iter(&self) -> Actions {
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
pub struct Actions {
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
    use perfectplay_core::simd::SimdLevel;
    use perfectplay_core::SplitMix64;

    /// A random set with sparse, dense and empty words alike; every action in round 0.
    fn random_set(rng: &mut SplitMix64, round: usize) -> ActionSet {
        let mut set = ActionSet::default();
        for word in &mut set.0 {
            *word = match rng.below(4) {
                Some(0) => 0,
                Some(1) => rng.next_u64(),
                _ => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            };
        }
        if round == 0 {
            set.0 = [u64::MAX; WORDS];
        }
        set
    }

    /// The set's mask and its actions by index, by whichever paths the switch allows.
    fn mask_and_picks(set: &ActionSet) -> (Vec<bool>, Vec<Option<usize>>) {
        let mut mask = vec![false; 600];
        set.write_mask(&mut mask);
        (mask, (0..set.len() + 2).map(|i| set.nth(i)).collect())
    }

    #[test]
    fn capping_the_kernels_changes_no_result() {
        let mut rng = SplitMix64::new(13);
        for round in 0..500 {
            let set = random_set(&mut rng, round);
            perfectplay_core::simd::force_level(SimdLevel::Portable);
            let portable = mask_and_picks(&set);
            perfectplay_core::simd::force_level(SimdLevel::Avx2);
            let avx2 = mask_and_picks(&set);
            perfectplay_core::simd::force_level(SimdLevel::Native);
            assert_eq!(avx2, portable, "{:x?}", set.0);
            assert_eq!(mask_and_picks(&set), portable, "{:x?}", set.0);
        }
    }

    #[test]
    fn nth_agrees_with_counting_through_the_set() {
        let mut rng = SplitMix64::new(11);
        for round in 0..2000 {
            let set = random_set(&mut rng, round);
            let all: Vec<usize> = set.iter().collect();
            // Each kernel this CPU has, whatever the switch says.
            #[cfg(target_arch = "x86_64")]
            let avx2 = std::arch::is_x86_feature_detected!("avx2");
            #[cfg(target_arch = "x86_64")]
            let avx512 = simd::cpu_has_vector_nth();
            for (i, &a) in all.iter().chain(&[usize::MAX; 3]).enumerate() {
                let want = (i < all.len()).then_some(a);
                let i = if i < all.len() {
                    i
                } else {
                    [all.len(), all.len() + 100, usize::MAX][i - all.len()]
                };
                assert_eq!(set.nth(i), want, "{:x?} index {i}", set.0);
                assert_eq!(set.nth_words(i), want, "{:x?} index {i}", set.0);
                #[cfg(target_arch = "x86_64")]
                if avx2 {
                    // SAFETY: the CPU has AVX2, checked above.
                    let got = unsafe { simd::nth_avx2(&set.0, i) };
                    assert_eq!(got, want, "{:x?} index {i}", set.0);
                }
                #[cfg(target_arch = "x86_64")]
                if avx512 {
                    // SAFETY: the CPU has the features, checked above.
                    let got = unsafe { simd::nth_avx512(&set.0, i) };
                    assert_eq!(got, want, "{:x?} index {i}", set.0);
                }
            }
        }
        assert_eq!(ActionSet::default().nth(0), None);
        // An action past the set's range is dropped, as `insert_group` drops it.
        let mut set = ActionSet::default();
        assert!(!set.insert(MAX_ACTIONS) && !set.insert(usize::MAX));
        assert!(set.insert(MAX_ACTIONS - 1) && !set.insert(MAX_ACTIONS - 1));
        assert_eq!(set.nth(0), Some(MAX_ACTIONS - 1));
        assert_eq!(set.nth(1), None);
    }

    #[test]
    fn selecting_by_deposit_agrees_with_the_byte_counts() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut rng = SplitMix64::new(3);
            for round in 0..20_000 {
                let word = match round % 3 {
                    0 => rng.next_u64(),
                    1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                    _ => u64::MAX,
                };
                for k in 0..word.count_ones() as usize {
                    // SAFETY: the CPU has BMI2 (checked above).
                    let deposited = unsafe { simd::select_pdep(word, k) };
                    assert_eq!(deposited, select_in_word(word, k), "{word:#x} {k}");
                }
            }
            return;
        }
        eprintln!("no BMI2 on this CPU: selection by byte counts alone");
    }

    #[test]
    fn expanded_words_match_the_byte_table() {
        let mut rng = SplitMix64::new(7);
        for word in [0, u64::MAX, 1, 1 << 63, 0x8000_0001_0000_8001]
            .into_iter()
            .chain((0..1000).map(|_| rng.next_u64()))
        {
            let mut out = [true; 64];
            expand_word(word, &mut out);
            let want: Vec<bool> = (0..64).map(|i| word >> i & 1 == 1).collect();
            assert_eq!(out.as_slice(), want.as_slice(), "{word:#x}");
            for (i, chunk) in out.chunks(8).enumerate() {
                assert_eq!(chunk, BYTE_BOOLS[usize::from((word >> (8 * i)) as u8)]);
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
            {
                let mut shuffled = [true; 64];
                simd::expand_word_ssse3(word, &mut shuffled);
                assert_eq!(shuffled, out, "{word:#x}");
            }
        }
    }

    #[test]
    fn masks_match_the_set_whatever_the_length() {
        let mut rng = SplitMix64::new(5);
        for round in 0..300 {
            let set = random_set(&mut rng, round);
            for len in [
                0,
                1,
                63,
                64,
                65,
                100,
                128,
                600,
                MAX_ACTIONS,
                MAX_ACTIONS + 70,
            ] {
                let mut mask = vec![true; len + 1];
                let (mask, guard) = mask.split_at_mut(len);
                set.write_mask(mask);
                let want: Vec<bool> = (0..len).map(|a| set.contains(a)).collect();
                assert_eq!(mask, want.as_slice(), "mask of {len}");
                assert!(guard[0], "the value past the mask is untouched");
                let mut table = vec![true; len];
                set.write_mask_words(&mut table, expand_word);
                assert_eq!(table, want, "the portable fill, {len}");
                #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
                {
                    let mut shuffled = vec![true; len];
                    set.write_mask_words(&mut shuffled, simd::expand_word_ssse3);
                    assert_eq!(shuffled, want, "the SSSE3 fill, {len}");
                }
                // Called directly, so that neither the switch another test flips nor
                // PERFECTPLAY_SIMD keeps its masked runs and tails unchecked.
                #[cfg(target_arch = "x86_64")]
                if simd::cpu_has_avx512_mask() {
                    let mut stored = vec![true; len + 1];
                    let (stored, guard) = stored.split_at_mut(len);
                    // SAFETY: the CPU has AVX-512F and AVX-512BW, checked just now.
                    unsafe { simd::write_mask_avx512(&set.0, stored) };
                    assert_eq!(stored, want.as_slice(), "the AVX-512 stores, {len}");
                    assert!(guard[0], "the AVX-512 stores stop at the mask's end");
                }
            }
        }
    }

    #[test]
    fn bit_masks_hold_the_set_lowest_bit_first() {
        let mut rng = SplitMix64::new(17);
        for round in 0..300 {
            let set = random_set(&mut rng, round);
            for len in [0, 1, 16, 75, 80, 81, 90] {
                let mut mask = vec![0xa5; len];
                set.write_mask_bits(&mut mask);
                for a in 0..8 * len {
                    let bit = mask[a / 8] >> (a % 8) & 1 == 1;
                    assert_eq!(bit, set.contains(a), "action {a} of {len} bytes");
                }
            }
        }
    }

    #[test]
    fn groups_that_start_a_word_or_reach_past_the_last_spill_nothing() {
        let mut set = ActionSet::default();
        set.insert_group(64, u64::MAX);
        assert_eq!(set.0[1], u64::MAX);
        assert!(set
            .0
            .iter()
            .enumerate()
            .all(|(w, &bits)| w == 1 || bits == 0));
        let mut set = ActionSet::default();
        set.insert_group(24 + 23 * 24, (1 << 24) - 1);
        set.insert_group(MAX_ACTIONS - 1, u64::MAX);
        set.insert_group(MAX_ACTIONS + 100, u64::MAX);
        let want: Vec<usize> = (576..600).chain([MAX_ACTIONS - 1]).collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), want);
    }

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
