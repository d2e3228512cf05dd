//! Bit streams, least significant bit first: what the block coder writes and reads.

/// Appends bits to a byte vector.
#[derive(Default)]
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    filled: u32,
}

impl BitWriter {
    /// Appends the low `bits` bits of `value` (at most 32).
    #[inline]
    pub(crate) fn put(&mut self, value: u32, bits: u32) {
        debug_assert!(bits <= 32 && (bits == 32 || value >> bits == 0));
        self.acc |= u64::from(value) << self.filled;
        self.filled += bits;
        while self.filled >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.filled -= 8;
        }
    }

    /// The number of bits written.
    #[cfg(test)]
    pub(crate) fn len_bits(&self) -> u64 {
        self.bytes.len() as u64 * 8 + u64::from(self.filled)
    }

    /// The bytes, the last one padded with zero bits.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// The 57 or more bits of `bytes` from bit `at` on, in the low bits of the result; bits past
/// the end read as zero.
#[inline]
pub(crate) fn peek(bytes: &[u8], at: u64) -> u64 {
    let byte = (at / 8) as usize;
    let word = match bytes.get(byte..byte + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight bytes")),
        None => {
            let mut eight = [0u8; 8];
            let tail = bytes.get(byte..).unwrap_or(&[]);
            eight[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(eight)
        }
    };
    word >> (at % 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_read_back_where_they_were_written() {
        let mut w = BitWriter::default();
        let items: Vec<(u32, u32)> = (0..500u32)
            .map(|i| {
                let bits = i % 33;
                let value = if bits == 32 {
                    i.wrapping_mul(0x9E37_79B9)
                } else {
                    i.wrapping_mul(0x9E37_79B9) & ((1u32 << bits) - 1)
                };
                (value, bits)
            })
            .collect();
        let mut starts = Vec::new();
        for &(v, b) in &items {
            starts.push(w.len_bits());
            w.put(v, b);
        }
        let total = w.len_bits();
        let bytes = w.finish();
        assert_eq!(bytes.len() as u64, total.div_ceil(8));
        for (&(v, b), &at) in items.iter().zip(&starts) {
            let mask = if b == 32 {
                u64::from(u32::MAX)
            } else {
                (1u64 << b) - 1
            };
            assert_eq!(peek(&bytes, at) & mask, u64::from(v));
        }
        assert_eq!(peek(&bytes, total + 100), 0);
    }
}
