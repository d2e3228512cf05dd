//! `SplitMix64`: a small seeded pseudo-random generator for reproducible random players.

/// The SplitMix64 generator (Steele, Lea and Flood): a 64-bit state advanced by a Weyl
/// sequence and mixed on output. Fast, seedable with any value, and good enough to pick moves;
/// not for cryptography.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SplitMix64 {
    state: u64,
}

/// The Weyl increment: 2^64 divided by the golden ratio.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub(crate) const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// A generator for stream `stream` of `seed`: stream 0 is `new(seed)`, and other streams
    /// start from seeds scattered by a different odd constant, so players sharing a seed draw
    /// unrelated numbers.
    pub(crate) const fn stream(seed: u64, stream: u64) -> SplitMix64 {
        SplitMix64::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n`, without modulo bias (Lemire's method); `None` when `n` is 0.
    pub(crate) fn below(&mut self, n: usize) -> Option<usize> {
        let n = u64::try_from(n).ok().filter(|&n| n > 0)?;
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        usize::try_from(product >> 64).ok()
    }

    /// A uniformly chosen element of `items`, or `None` when it is empty.
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        self.below(items.len()).and_then(|i| items.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // The first outputs of SplitMix64 seeded with 0, as in the reference implementation.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn same_seed_same_numbers() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
        assert_eq!(SplitMix64::stream(7, 0), SplitMix64::new(7));
        assert_ne!(
            SplitMix64::stream(7, 1).next_u64(),
            SplitMix64::new(7).next_u64()
        );
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix64::new(3);
        assert_eq!(rng.below(0), None);
        assert_eq!(rng.below(1), Some(0));
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            let i = rng.below(7).unwrap();
            seen[i] += 1;
        }
        // Each bucket expects 1000; a fair generator stays well within these bounds.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }

    #[test]
    fn pick_chooses_an_element() {
        let mut rng = SplitMix64::new(9);
        let items = ["a", "b", "c"];
        assert!(items.contains(rng.pick(&items).unwrap()));
        assert_eq!(rng.pick::<u8>(&[]), None);
    }
}
