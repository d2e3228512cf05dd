//! Canonical Huffman codes of bounded length: built from symbol counts when a table is
//! compressed, rebuilt from the code lengths its header stores when it is read.
//!
//! Codes are at most [`MAX_CODE_BITS`] long. The decoder looks the next [`LOOKUP_BITS`] bits
//! (or fewer, if no code is longer) up in a table of `2^bits` entries, four bytes each, which
//! gives the symbol and its length at once; a longer code (rare by construction: it belongs
//! to a symbol under one in a thousand) is decoded canonically, a bit at a time.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::bits::BitWriter;

/// The longest code.
pub(crate) const MAX_CODE_BITS: u8 = 15;
/// The bits the decoder's table is indexed by.
const LOOKUP_BITS: u8 = 6;

/// The length of each symbol's code (0: unused) for `counts`, none longer than
/// [`MAX_CODE_BITS`]. Deterministic: ties are broken by symbol number. A lone used symbol gets
/// a one-bit code.
pub(crate) fn code_lengths(counts: &[u64]) -> Vec<u8> {
    let mut counts = counts.to_vec();
    loop {
        let lengths = unbounded_lengths(&counts);
        if lengths.iter().all(|&l| l <= MAX_CODE_BITS) {
            return lengths;
        }
        // Flattening the counts shortens the longest codes; a few rounds at most (all equal,
        // the code of n symbols is ceil(log2 n) bits, under the limit for any alphabet here).
        for c in counts.iter_mut().filter(|c| **c > 0) {
            *c = (*c >> 1) | 1;
        }
    }
}

fn unbounded_lengths(counts: &[u64]) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    match used.len() {
        0 => return lengths,
        1 => {
            lengths[used[0]] = 1;
            return lengths;
        }
        _ => {}
    }
    // Nodes: leaves 0..n, then inner nodes; parent links give each leaf's depth.
    let mut parent = vec![usize::MAX; 2 * used.len()];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(node, &s)| Reverse((counts[s], node)))
        .collect();
    let mut next = used.len();
    while heap.len() > 1 {
        let Reverse((a, x)) = heap.pop().expect("two nodes");
        let Reverse((b, y)) = heap.pop().expect("two nodes");
        parent[x] = next;
        parent[y] = next;
        heap.push(Reverse((a + b, next)));
        next += 1;
    }
    for (leaf, &s) in used.iter().enumerate() {
        let mut depth = 0u32;
        let mut node = leaf;
        while parent[node] != usize::MAX {
            node = parent[node];
            depth += 1;
        }
        lengths[s] = depth.min(255) as u8;
    }
    lengths
}

/// Whether `lengths` can be a prefix code: none longer than [`MAX_CODE_BITS`], and the Kraft
/// sum at most one. A header whose lengths fail this is corrupted.
pub(crate) fn lengths_are_valid(lengths: &[u8]) -> bool {
    let mut kraft = 0u64;
    for &l in lengths {
        if l > MAX_CODE_BITS {
            return false;
        }
        if l > 0 {
            kraft += 1u64 << (MAX_CODE_BITS - l);
        }
    }
    kraft <= 1u64 << MAX_CODE_BITS
}

/// The canonical codes of `lengths`, bit-reversed for a least-significant-first stream.
fn canonical_codes(lengths: &[u8]) -> Vec<u32> {
    let mut codes = vec![0u32; lengths.len()];
    let mut code = 0u32;
    for len in 1..=MAX_CODE_BITS {
        for (s, &l) in lengths.iter().enumerate() {
            if l == len {
                codes[s] = reverse(code, u32::from(len));
                code += 1;
            }
        }
        code <<= 1;
    }
    codes
}

fn reverse(code: u32, bits: u32) -> u32 {
    code.reverse_bits() >> (32 - bits)
}

/// Writes symbols.
pub(crate) struct Encoder {
    lengths: Vec<u8>,
    codes: Vec<u32>,
}

impl Encoder {
    pub(crate) fn new(lengths: &[u8]) -> Encoder {
        Encoder {
            lengths: lengths.to_vec(),
            codes: canonical_codes(lengths),
        }
    }

    /// The length of `symbol`'s code.
    #[inline]
    pub(crate) fn bits(&self, symbol: usize) -> u32 {
        u32::from(self.lengths[symbol])
    }

    #[inline]
    pub(crate) fn put(&self, out: &mut BitWriter, symbol: usize) {
        debug_assert!(self.lengths[symbol] > 0, "symbol {symbol} has no code");
        out.put(self.codes[symbol], u32::from(self.lengths[symbol]));
    }
}

/// Reads symbols: one lookup, in a table of 128 bytes held inline, for codes of up to
/// [`LOOKUP_BITS`] bits.
///
/// The table is small on purpose: a probe walks one block of one table among thousands, so
/// its entries are rarely in the cache, and each miss stalls the walk (a table of 4 KiB per
/// code spent most of a probe waiting for them; BENCHMARKS.md). Two lines can be fetched
/// ahead of the walk ([`Decoder::prefetch`]).
#[repr(C, align(64))]
pub(crate) struct Decoder {
    /// By the next [`LOOKUP_BITS`] bits of the stream: the symbol times 8 plus its code's
    /// length less one; [`LONG`] where the code is longer (or no code starts there).
    table: [u16; 1 << LOOKUP_BITS],
    /// Canonical decoding of longer codes: per length, the first code, and the index in
    /// `sorted` of its symbol.
    first: [u32; MAX_CODE_BITS as usize + 2],
    start: [u32; MAX_CODE_BITS as usize + 2],
    sorted: Box<[u16]>,
}

/// The table entry of a code longer than the table's bits, or of bits that start no code.
const LONG: u16 = u16::MAX;

impl Decoder {
    /// The decoder of valid lengths ([`lengths_are_valid`]) of at most 8,191 symbols.
    pub(crate) fn new(lengths: &[u8]) -> Decoder {
        debug_assert!(lengths.len() < 8191);
        let mut table = [LONG; 1 << LOOKUP_BITS];
        let codes = canonical_codes(lengths);
        for (s, (&l, &code)) in lengths.iter().zip(&codes).enumerate() {
            if l == 0 || l > LOOKUP_BITS {
                continue;
            }
            let entry = ((s as u16) << 3) | u16::from(l - 1);
            let mut fill = code as usize;
            while fill < table.len() {
                table[fill] = entry;
                fill += 1 << l;
            }
        }
        let mut first = [0u32; MAX_CODE_BITS as usize + 2];
        let mut start = [0u32; MAX_CODE_BITS as usize + 2];
        let mut sorted = Vec::new();
        let mut code = 0u32;
        for len in 1..=MAX_CODE_BITS {
            first[len as usize] = code;
            start[len as usize] = sorted.len() as u32;
            for (s, &l) in lengths.iter().enumerate() {
                if l == len {
                    sorted.push(s as u16);
                    code += 1;
                }
            }
            code <<= 1;
        }
        start[MAX_CODE_BITS as usize + 1] = sorted.len() as u32;
        Decoder {
            table,
            first,
            start,
            sorted: sorted.into_boxed_slice(),
        }
    }

    /// The symbol at the start of `bits` and its code's length; `None` if no code starts
    /// there (a damaged stream).
    #[inline]
    pub(crate) fn decode(&self, bits: u64) -> Option<(usize, u32)> {
        let entry = self.table[(bits & ((1 << LOOKUP_BITS) - 1)) as usize];
        if entry == LONG {
            return self.decode_long(bits);
        }
        Some((usize::from(entry >> 3), u32::from(entry & 7) + 1))
    }

    #[cold]
    fn decode_long(&self, bits: u64) -> Option<(usize, u32)> {
        let mut code = 0u32;
        for len in 1..=u32::from(MAX_CODE_BITS) {
            code = (code << 1) | ((bits >> (len - 1)) & 1) as u32;
            let first = self.first[len as usize];
            let count = self.start[len as usize + 1] - self.start[len as usize];
            if code.wrapping_sub(first) < count {
                let symbol = self.sorted[(self.start[len as usize] + code - first) as usize];
                return Some((usize::from(symbol), len));
            }
        }
        None
    }

    /// Starts fetching the lookup table into the cache.
    #[inline]
    pub(crate) fn prefetch(&self) {
        for line in self.table.chunks(32) {
            crate::prefetch::prefetch_for(&line[0], crate::prefetch::Reuse::Again);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bits::peek;
    use super::*;
    use proptest::prelude::*;

    fn roundtrip(counts: &[u64], message: &[usize]) {
        let lengths = code_lengths(counts);
        assert!(lengths_are_valid(&lengths));
        let enc = Encoder::new(&lengths);
        let mut w = BitWriter::default();
        for &s in message {
            enc.put(&mut w, s);
        }
        let bytes = w.finish();
        let dec = Decoder::new(&lengths);
        let mut at = 0u64;
        for &s in message {
            let (got, len) = dec.decode(peek(&bytes, at)).expect("a code");
            assert_eq!(got, s);
            at += u64::from(len);
        }
    }

    #[test]
    fn skewed_counts_are_bounded_and_decode_long_codes_too() {
        // Fibonacci counts make the deepest unbounded tree.
        let mut counts = vec![1u64, 1];
        while counts.len() < 40 {
            let n = counts[counts.len() - 1] + counts[counts.len() - 2];
            counts.push(n);
        }
        let lengths = code_lengths(&counts);
        assert!(lengths.iter().all(|&l| (1..=MAX_CODE_BITS).contains(&l)));
        assert!(
            lengths.iter().any(|&l| l > LOOKUP_BITS),
            "some codes take the long path"
        );
        let message: Vec<usize> = (0..40).chain((0..200).map(|i| 39 - i % 5)).collect();
        roundtrip(&counts, &message);
    }

    #[test]
    fn one_symbol_gets_one_bit() {
        let lengths = code_lengths(&[0, 5, 0]);
        assert_eq!(lengths, vec![0, 1, 0]);
        roundtrip(&[0, 5, 0], &[1, 1, 1]);
        let dec = Decoder::new(&lengths);
        assert_eq!(dec.decode(1), None);
        assert_eq!(dec.decode(0), Some((1, 1)));
    }

    #[test]
    fn over_full_lengths_are_refused() {
        assert!(!lengths_are_valid(&[1, 1, 1]));
        assert!(!lengths_are_valid(&[16]));
        assert!(lengths_are_valid(&[1, 2, 2]));
    }

    proptest! {
        /// Counts as tables give them: most symbols unused, and the rest from one to 2^39, so
        /// that skewed alphabets need codes past the lookup's bits and past the longest code
        /// allowed (where the lengths are limited).
        #[test]
        fn any_counts_give_a_prefix_code_that_decodes(
            counts in proptest::collection::vec(
                prop_oneof![3 => Just(0u64), 1 => 1u64..4, 1 => (0u32..40).prop_map(|s| 1u64 << s)],
                1..4400,
            ),
            picks in proptest::collection::vec(any::<u16>(), 0..200),
        ) {
            let used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
            prop_assume!(!used.is_empty());
            let message: Vec<usize> = picks.iter().map(|&p| used[usize::from(p) % used.len()]).collect();
            roundtrip(&counts, &message);
        }
    }
}
