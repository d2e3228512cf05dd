//! One block of values: a stream of Huffman-coded runs, or the values as they are.
//!
//! A block holds the values of a fixed number of consecutive indices, one small integer each
//! (a win/draw/loss code, or a packed value byte). Its first bit says how: `0`, a stream of
//! runs; `1`, each value in `raw_bits` bits (chosen where the runs would take more, which
//! bounds a block at its plain size). A run of `n` equal values is one token: the symbol
//! `value * CLASSES + floor(log2 n)`, then the low `floor(log2 n)` bits of `n`. Blocks start
//! byte-aligned and are independent, so any one decodes on its own.
//!
//! Looking up index `j` walks the runs from the block's start, on average half of them, one
//! table lookup each: blocks are sized so that is a few dozen.

use super::bits::{peek, BitWriter};
use super::huffman::{Decoder, Encoder};

/// Run classes: runs of 1 to 2^17 - 1 values.
pub(crate) const CLASSES: usize = 17;
/// The token alphabet: every value with every class.
pub(crate) const SYMBOLS: usize = 256 * CLASSES;

/// What a damaged block can make a decoder find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockError {
    /// No code starts with the bits found.
    NoCode,
    /// The runs cover more or fewer indices than the block holds.
    Overrun,
}

impl BlockError {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            BlockError::NoCode => "a block holds bits that are no code",
            BlockError::Overrun => "a block's runs do not cover its indices",
        }
    }
}

/// Calls `visit` with each run of `values` as (symbol, extra bits value, extra bit count).
fn for_each_run(values: &[u8], mut visit: impl FnMut(usize, u32, u32)) {
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        let mut j = i + 1;
        while j < values.len() && values[j] == v {
            j += 1;
        }
        let mut left = (j - i) as u32;
        while left > 0 {
            // A block holds fewer than 2^17 indices, so one token always does; the loop only
            // guards the bound.
            let n = left.min((1 << CLASSES) - 1);
            let class = 31 - n.leading_zeros();
            visit(
                usize::from(v) * CLASSES + class as usize,
                n - (1 << class),
                class,
            );
            left -= n;
        }
        i = j;
    }
}

/// Adds the runs of `values` to `counts` (indexed by symbol, [`SYMBOLS`] long).
pub(crate) fn count_runs(values: &[u8], counts: &mut [u64]) {
    for_each_run(values, |s, _, _| counts[s] += 1);
}

/// The block of `values`: runs coded with `code`, or raw if that is smaller.
pub(crate) fn encode_block(values: &[u8], code: &Encoder, raw_bits: u32) -> Vec<u8> {
    let mut run_bits = 1u64;
    for_each_run(values, |s, _, extra| {
        run_bits += u64::from(code.bits(s) + extra);
    });
    let raw = 1 + values.len() as u64 * u64::from(raw_bits);
    let mut out = BitWriter::default();
    if run_bits <= raw {
        out.put(0, 1);
        for_each_run(values, |s, extra, bits| {
            code.put(&mut out, s);
            out.put(extra, bits);
        });
    } else {
        out.put(1, 1);
        for &v in values {
            out.put(u32::from(v), raw_bits);
        }
    }
    out.finish()
}

/// The next run of a run block at bit `at`: its value, length, and bits.
#[inline]
fn next_run(block: &[u8], at: u64, code: &Decoder) -> Result<(u8, usize, u32), BlockError> {
    let bits = peek(block, at);
    let (symbol, code_bits) = code.decode(bits).ok_or(BlockError::NoCode)?;
    let class = (symbol % CLASSES) as u32;
    let extra = (bits >> code_bits) & ((1u64 << class) - 1);
    let value = (symbol / CLASSES) as u8;
    Ok((value, (1usize << class) + extra as usize, code_bits + class))
}

/// The value at `j` of a block of `len` values.
#[inline]
pub(crate) fn value_at(
    block: &[u8],
    len: usize,
    j: usize,
    code: &Decoder,
    raw_bits: u32,
) -> Result<u8, BlockError> {
    if peek(block, 0) & 1 == 1 {
        let at = 1 + j as u64 * u64::from(raw_bits);
        return Ok((peek(block, at) & ((1 << raw_bits) - 1)) as u8);
    }
    let mut at = 1u64;
    let mut index = 0usize;
    while index < len {
        let (value, n, bits) = next_run(block, at, code)?;
        at += u64::from(bits);
        index += n;
        if j < index {
            return Ok(value);
        }
    }
    Err(BlockError::Overrun)
}

/// Appends the `len` values of a block to `out`.
pub(crate) fn decode_block(
    block: &[u8],
    len: usize,
    code: &Decoder,
    raw_bits: u32,
    out: &mut Vec<u8>,
) -> Result<(), BlockError> {
    if peek(block, 0) & 1 == 1 {
        for j in 0..len {
            let at = 1 + j as u64 * u64::from(raw_bits);
            out.push((peek(block, at) & ((1 << raw_bits) - 1)) as u8);
        }
        return Ok(());
    }
    let mut at = 1u64;
    let mut left = len;
    while left > 0 {
        let (value, n, bits) = next_run(block, at, code)?;
        if n > left {
            return Err(BlockError::Overrun);
        }
        at += u64::from(bits);
        left -= n;
        out.extend(std::iter::repeat_n(value, n));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::huffman::code_lengths;
    use super::*;
    use proptest::prelude::*;

    fn code_for(blocks: &[&[u8]]) -> (Encoder, Decoder) {
        let mut counts = vec![0u64; SYMBOLS];
        for b in blocks {
            count_runs(b, &mut counts);
        }
        let lengths = code_lengths(&counts);
        (Encoder::new(&lengths), Decoder::new(&lengths))
    }

    fn check(values: &[u8], raw_bits: u32) {
        let (enc, dec) = code_for(&[values]);
        let block = encode_block(values, &enc, raw_bits);
        let mut all = Vec::new();
        decode_block(&block, values.len(), &dec, raw_bits, &mut all).unwrap();
        assert_eq!(all, values);
        for (j, &v) in values.iter().enumerate() {
            assert_eq!(value_at(&block, values.len(), j, &dec, raw_bits), Ok(v));
        }
    }

    #[test]
    fn runs_compress_and_read_back() {
        let mut values = vec![1u8; 3000];
        values[1000..1003].fill(2);
        values[2999] = 0;
        let (enc, _) = code_for(&[&values]);
        assert!(encode_block(&values, &enc, 2).len() < 8);
        check(&values, 2);
    }

    #[test]
    fn noise_falls_back_to_raw() {
        let values: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8 & 3)
            .collect();
        let (enc, _) = code_for(&[&values]);
        let block = encode_block(&values, &enc, 2);
        assert_eq!(block[0] & 1, 1, "raw");
        assert_eq!(block.len(), (1 + 4096 * 2usize).div_ceil(8));
        check(&values, 2);
    }

    #[test]
    fn a_block_too_short_for_its_runs_is_an_error() {
        let values = vec![3u8; 100];
        let (enc, dec) = code_for(&[&values]);
        let block = encode_block(&values, &enc, 2);
        let mut out = Vec::new();
        assert_eq!(
            decode_block(&block, 50, &dec, 2, &mut out),
            Err(BlockError::Overrun)
        );
        // Past the stream's end, zero bits read as whatever symbol has the all-zero code:
        // an answer, never a panic (checksums keep such a block from being read).
        let _ = value_at(&block, 200, 150, &dec, 2);
    }

    proptest! {
        #[test]
        fn any_values_read_back(
            runs in proptest::collection::vec((0u8..4, 1usize..300), 1..40),
            wide in any::<bool>(),
        ) {
            let values: Vec<u8> = runs
                .iter()
                .flat_map(|&(v, n)| std::iter::repeat_n(if wide { v.wrapping_mul(77) } else { v }, n))
                .collect();
            check(&values, if wide { 8 } else { 2 });
        }
    }
}
