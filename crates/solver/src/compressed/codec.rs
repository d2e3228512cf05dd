//! One block of values: a stream of Huffman-coded tokens, or the values as they are.
//!
//! A block holds the values of a fixed number of consecutive indices, one small integer each
//! (a win/draw/loss code, or a packed value byte). Its first bit says how: `0`, a token stream;
//! `1`, each value in `raw_bits` bits (chosen where the tokens would take more, which bounds a
//! block at its plain size). A token is a literal value, or a run: "the previous value, `n`
//! more times", coded as the class `floor(log2 n)` followed by the class's low bits. Blocks
//! start byte-aligned and are independent, so any one decodes on its own.
//!
//! Looking up index `j` of a token block walks the tokens from the block's start, on average
//! half of them: blocks are sized so that is a few dozen.

use super::bits::{peek, BitWriter};
use super::huffman::{Decoder, Encoder};

/// Literal symbols: one per byte value.
pub(crate) const LITERALS: usize = 256;
/// Run classes: runs of 1 to 2^17 - 1 more values.
pub(crate) const RUN_CLASSES: usize = 17;
/// The token alphabet.
pub(crate) const SYMBOLS: usize = LITERALS + RUN_CLASSES;

/// What a damaged block can make a decoder find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockError {
    /// No code starts with the bits found.
    NoCode,
    /// The tokens cover more or fewer indices than the block holds.
    Overrun,
}

impl BlockError {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            BlockError::NoCode => "a block holds bits that are no code",
            BlockError::Overrun => "a block's tokens do not cover its indices",
        }
    }
}

/// The symbol and extra bits of a run of `n >= 1` more values.
#[inline]
fn run_symbol(n: u32) -> (usize, u32, u32) {
    let class = 31 - n.leading_zeros();
    (LITERALS + class as usize, n - (1 << class), class)
}

/// Calls `visit` with each token of `values` as (symbol, extra bits value, extra bit count).
fn for_each_token(values: &[u8], mut visit: impl FnMut(usize, u32, u32)) {
    let mut i = 0;
    while i < values.len() {
        let v = values[i];
        visit(usize::from(v), 0, 0);
        let mut j = i + 1;
        while j < values.len() && values[j] == v {
            j += 1;
        }
        let mut more = (j - i - 1) as u32;
        while more > 0 {
            // A block holds fewer than 2^17 indices, so one run token always does; the loop
            // only guards the bound.
            let n = more.min((1 << RUN_CLASSES) - 1);
            let (s, extra, bits) = run_symbol(n);
            visit(s, extra, bits);
            more -= n;
        }
        i = j;
    }
}

/// Adds the tokens of `values` to `counts` (indexed by symbol).
pub(crate) fn count_tokens(values: &[u8], counts: &mut [u64; SYMBOLS]) {
    for_each_token(values, |s, _, _| counts[s] += 1);
}

/// The block of `values`: tokens coded with `code`, or raw if that is smaller.
pub(crate) fn encode_block(values: &[u8], code: &Encoder, raw_bits: u32) -> Vec<u8> {
    let mut token_bits = 1u64;
    for_each_token(values, |s, _, extra| {
        token_bits += u64::from(code.bits(s) + extra);
    });
    let raw = 1 + values.len() as u64 * u64::from(raw_bits);
    let mut out = BitWriter::default();
    if token_bits <= raw {
        out.put(0, 1);
        for_each_token(values, |s, extra, bits| {
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

/// The value at `j` of a block of `len` values.
#[inline]
pub(crate) fn value_at(
    block: &[u8],
    len: usize,
    j: usize,
    code: &Decoder,
    raw_bits: u32,
) -> Result<u8, BlockError> {
    let head = peek(block, 0);
    if head & 1 == 1 {
        let at = 1 + j as u64 * u64::from(raw_bits);
        return Ok((peek(block, at) & ((1 << raw_bits) - 1)) as u8);
    }
    let mut at = 1u64;
    let mut index = 0usize;
    let mut previous = 0u8;
    while index < len {
        let bits = peek(block, at);
        let (symbol, code_bits) = code.decode(bits).ok_or(BlockError::NoCode)?;
        at += u64::from(code_bits);
        if symbol < LITERALS {
            if index == j {
                return Ok(symbol as u8);
            }
            previous = symbol as u8;
            index += 1;
        } else {
            let class = (symbol - LITERALS) as u32;
            let extra = (bits >> code_bits) & ((1u64 << class) - 1);
            at += u64::from(class);
            index += (1usize << class) + extra as usize;
            if j < index {
                return Ok(previous);
            }
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
    let start = out.len();
    let head = peek(block, 0);
    if head & 1 == 1 {
        for j in 0..len {
            let at = 1 + j as u64 * u64::from(raw_bits);
            out.push((peek(block, at) & ((1 << raw_bits) - 1)) as u8);
        }
        return Ok(());
    }
    let mut at = 1u64;
    let mut previous = 0u8;
    while out.len() - start < len {
        let bits = peek(block, at);
        let (symbol, code_bits) = code.decode(bits).ok_or(BlockError::NoCode)?;
        at += u64::from(code_bits);
        if symbol < LITERALS {
            previous = symbol as u8;
            out.push(previous);
        } else {
            let class = (symbol - LITERALS) as u32;
            let extra = (bits >> code_bits) & ((1u64 << class) - 1);
            at += u64::from(class);
            let n = (1usize << class) + extra as usize;
            if out.len() - start + n > len {
                return Err(BlockError::Overrun);
            }
            out.extend(std::iter::repeat_n(previous, n));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::huffman::code_lengths;
    use super::*;
    use proptest::prelude::*;

    fn code_for(blocks: &[&[u8]]) -> (Encoder, Decoder) {
        let mut counts = [0u64; SYMBOLS];
        for b in blocks {
            count_tokens(b, &mut counts);
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
        assert!(encode_block(&values, &enc, 2).len() < 16);
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
    fn a_block_too_short_for_its_tokens_is_an_error() {
        let values = vec![3u8; 100];
        let (enc, dec) = code_for(&[&values]);
        let block = encode_block(&values, &enc, 2);
        let mut out = Vec::new();
        assert_eq!(
            decode_block(&block, 50, &dec, 2, &mut out),
            Err(BlockError::Overrun)
        );
        assert_eq!(
            value_at(&block, 200, 150, &dec, 2),
            Err(BlockError::Overrun)
        );
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
