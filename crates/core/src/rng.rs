//! `SplitMix64`: the small seeded generator behind random players, playouts and environments.

/// The Weyl increment: 2^64 divided by the golden ratio.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of 64 bits.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 generator (Steele, Lea and Flood): a 64-bit state advanced by a Weyl
/// sequence and mixed on output. Fast, seedable with any value, the same on every machine;
/// not for cryptography.
///
/// ```
/// use perfectplay_core::SplitMix64;
/// let mut a = SplitMix64::new(7);
/// let mut b = SplitMix64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(6).unwrap() < 6);
/// assert_eq!(a.below(0), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// Stream `stream` of `seed`: the seed and the stream number are mixed apart, so that
    /// neighbouring seeds and streams (one per player, one per environment) start far apart.
    #[must_use]
    pub const fn stream(seed: u64, stream: u64) -> SplitMix64 {
        SplitMix64 {
            state: mix(seed ^ mix(stream.wrapping_mul(GOLDEN_GAMMA).wrapping_add(1))),
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform number in `0..n`, without modulo bias (Lemire's method); `None` when `n` is 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> Option<usize> {
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
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        self.below(items.len()).and_then(|i| items.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // SplitMix64 from seed 0, as published with the algorithm.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = SplitMix64::stream(3, 1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7).unwrap()] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_ne!(SplitMix64::stream(3, 1), SplitMix64::stream(3, 2));
        assert_eq!(r.pick::<u8>(&[]), None);
    }
}
