//! `SplitMix64`: the seeded generator behind random actions, one independent stream per env, so
//! that a batch's results depend on its seed and never on how threads share the work.

/// The Weyl increment: 2^64 divided by the golden ratio.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of 64 bits.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 generator (Steele, Lea and Flood): a 64-bit state advanced by a Weyl
/// sequence and mixed on output. Fast, seedable with any value; not for cryptography.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// Stream `stream` of `seed`: the seed and the stream number are mixed apart, so that
    /// neighbouring seeds and streams start far from one another.
    pub(crate) const fn stream(seed: u64, stream: u64) -> SplitMix64 {
        SplitMix64 {
            state: mix(seed ^ mix(stream.wrapping_mul(GOLDEN_GAMMA).wrapping_add(1))),
        }
    }

    /// The next 64 random bits.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as usize
    }
}
