//! Compressed tables (format version 2): values cut into blocks of consecutive indices, each
//! block coded on its own, so that a probe decodes one block and no more.
//!
//! # The coder, and why
//!
//! A block is a stream of runs, one token per run (its value and length class under one
//! canonical Huffman code per table, then the class's low bits: the private modules `codec`
//! and `huffman`); a block the runs would make larger than its plain bits is stored plain.
//! Endgame values come in long runs once the
//! positions a probe can value by a search are left out (in checkers, those where the side to
//! move must capture: [`crate::Domain::omits`]), and their indices are filled with the value
//! before them, which lengthens runs. Measured on checkers 2-5 pieces (BENCHMARKS.md): 13
//! positions per run with every value stored, 53 with captures left out; zstd at level 19 on
//! 16 KiB blocks of the two-bit form compresses somewhat better but decodes 16 KiB per probe,
//! and on 1 KiB blocks compresses worse, so the coder is our own.
//!
//! # Reading
//!
//! The reader finds index `i` in block `i / block_positions`, through the frame's offset and
//! the block's offset in its frame (the index, checked whole when the table is opened), checks
//! the frame's checksum the first time any of its blocks is read (a bit per frame remembers
//! it), and walks the block's tokens to `i`. Damage is an error, never a value: a frame whose
//! checksum fails is refused, and a block whose tokens do not decode is refused too.

mod bits;
mod codec;
mod huffman;
mod write;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use xxhash_rust::xxh3::xxh3_64;

pub(crate) use codec::SYMBOLS;
pub use write::{compress_values, CompressOptions, CompressedParts};

use crate::error::DbError;
use crate::format::{Encoding, Header, Layout};
use crate::value::{wdl_from_code, Packed, Value};
use huffman::Decoder;

/// Whether the sparse code lengths of a header can be a table's code: symbols in the alphabet,
/// in increasing order, lengths in range, and a prefix code (see [`huffman`]).
pub(crate) fn code_is_valid(sparse: &[(u16, u8)]) -> bool {
    let ordered = sparse.windows(2).all(|w| w[0].0 < w[1].0);
    let in_alphabet = sparse
        .iter()
        .all(|&(s, l)| usize::from(s) < SYMBOLS && l > 0);
    ordered && in_alphabet && huffman::lengths_are_valid(&dense_lengths(sparse))
}

/// The code length of every symbol of the alphabet, from a header's list of used ones.
fn dense_lengths(sparse: &[(u16, u8)]) -> Vec<u8> {
    let mut lengths = vec![0u8; SYMBOLS];
    for &(s, l) in sparse {
        if let Some(slot) = lengths.get_mut(usize::from(s)) {
            *slot = l;
        }
    }
    lengths
}

/// A compressed table's reader, over the bytes of its file.
pub(crate) struct Compressed {
    encoding: Encoding,
    positions: u64,
    block_shift: u32,
    blocks_per_frame: u64,
    blocks: u64,
    frames: u64,
    /// Offsets in the file's bytes.
    index: usize,
    block_offsets: usize,
    body: usize,
    body_len: u64,
    decoder: Decoder,
    /// One bit per frame: set once its checksum was found right.
    checked: Box<[AtomicU64]>,
}

impl Compressed {
    /// The reader of the compressed table in `bytes` (the whole file), whose header, layout and
    /// length were checked, with its index at `offset`. Checks the index: its checksum and that
    /// its offsets stay inside the body in order.
    pub(crate) fn new(
        path: &Path,
        header: &Header,
        layout: &Layout,
        bytes: &[u8],
        offset: usize,
    ) -> Result<Compressed, DbError> {
        let blocks = layout.blocks(header.positions);
        let frames = layout.frames(header.positions);
        let index_len = layout.index_len(header.positions) as usize;
        let index = &bytes[offset..offset + index_len];
        if xxh3_64(index) != layout.index_checksum {
            return Err(DbError::corrupted(path, "index checksum mismatch"));
        }
        let reader = Compressed {
            encoding: header.encoding,
            positions: header.positions,
            block_shift: layout.block_positions.trailing_zeros(),
            blocks_per_frame: u64::from(layout.blocks_per_frame),
            blocks,
            frames,
            index: offset,
            block_offsets: offset + frames as usize * 16,
            body: offset + index_len,
            body_len: layout.body_len,
            decoder: Decoder::new(&dense_lengths(&layout.code_lengths)),
            checked: (0..frames.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        };
        let mut previous_end = 0;
        for frame in 0..frames {
            let (start, end) = reader.frame_bytes(bytes, frame);
            if start != previous_end || end < start || end > reader.body_len {
                return Err(DbError::corrupted(path, "index offsets out of order"));
            }
            previous_end = end;
            let first = frame * reader.blocks_per_frame;
            let last = (first + reader.blocks_per_frame).min(blocks);
            let mut previous = 0;
            for block in first..last {
                let at = reader.block_offset(bytes, block);
                if (block == first && at != 0) || at < previous || start + at > end {
                    return Err(DbError::corrupted(path, "block offsets out of order"));
                }
                previous = at;
            }
        }
        if previous_end != reader.body_len {
            return Err(DbError::corrupted(path, "frames do not fill the body"));
        }
        Ok(reader)
    }

    /// The stored value at `index` (below the table's positions): a win/draw/loss code or a
    /// packed value byte, as the encoding says.
    #[inline]
    pub(crate) fn stored(&self, path: &Path, bytes: &[u8], index: u64) -> Result<u8, DbError> {
        let block = index >> self.block_shift;
        let frame = block / self.blocks_per_frame;
        let (frame_start, frame_end) = self.frame_bytes(bytes, frame);
        if !self.is_checked(frame) {
            self.check_frame(path, bytes, frame)?;
        }
        let start = frame_start + self.block_offset(bytes, block);
        let body = &bytes[self.body..];
        let block_bytes = &body[start as usize..frame_end as usize];
        let first = block << self.block_shift;
        let len = (self.positions - first).min(1 << self.block_shift) as usize;
        codec::value_at(
            block_bytes,
            len,
            (index - first) as usize,
            &self.decoder,
            self.raw_bits(),
        )
        .map_err(|e| DbError::corrupted(path, e.describe()))
    }

    /// The value at `index`, as [`crate::format::payload_value`] gives it for a plain table.
    #[inline]
    pub(crate) fn value(
        &self,
        path: &Path,
        bytes: &[u8],
        index: u64,
    ) -> Result<Option<Value>, DbError> {
        let stored = self.stored(path, bytes, index)?;
        Ok(match self.encoding {
            Encoding::Distance => Packed(stored).value(),
            Encoding::Wdl => wdl_from_code(stored),
        })
    }

    /// Every stored value in index order, one byte each (codes or packed bytes, as stored);
    /// every frame is checked.
    pub(crate) fn decode_all(&self, path: &Path, bytes: &[u8]) -> Result<Vec<u8>, DbError> {
        let mut out = Vec::with_capacity(self.positions as usize);
        let body = &bytes[self.body..];
        for frame in 0..self.frames {
            self.check_frame(path, bytes, frame)?;
            let (frame_start, frame_end) = self.frame_bytes(bytes, frame);
            let first = frame * self.blocks_per_frame;
            let last = (first + self.blocks_per_frame).min(self.blocks);
            for block in first..last {
                let start = frame_start + self.block_offset(bytes, block);
                let begin = block << self.block_shift;
                let len = (self.positions - begin).min(1 << self.block_shift) as usize;
                codec::decode_block(
                    &body[start as usize..frame_end as usize],
                    len,
                    &self.decoder,
                    self.raw_bits(),
                    &mut out,
                )
                .map_err(|e| DbError::corrupted(path, e.describe()))?;
            }
        }
        Ok(out)
    }

    /// Starts reading the memory `index` will need: its frame's entry and its block's offset.
    #[inline]
    pub(crate) fn prefetch(&self, bytes: &[u8], index: u64, reuse: crate::prefetch::Reuse) {
        let block = index >> self.block_shift;
        let frame = block / self.blocks_per_frame;
        if let Some(b) = bytes.get(self.index + frame as usize * 16) {
            crate::prefetch::prefetch_for(b, reuse);
        }
        if let Some(b) = bytes.get(self.block_offsets + block as usize * 2) {
            crate::prefetch::prefetch_for(b, reuse);
        }
    }

    /// Starts fetching the first bytes of the block that holds `index` (reading its place in
    /// the index, which [`Compressed::prefetch`] should have fetched before).
    #[inline]
    pub(crate) fn prefetch_block(&self, bytes: &[u8], index: u64) {
        let block = index >> self.block_shift;
        let frame = block / self.blocks_per_frame;
        let (frame_start, _) = self.frame_bytes(bytes, frame);
        let at = self.body as u64 + frame_start + self.block_offset(bytes, block);
        if let Some(b) = bytes.get(at as usize) {
            crate::prefetch::prefetch_for(b, crate::prefetch::Reuse::Once);
        }
        self.decoder.prefetch();
        crate::prefetch::prefetch_for(
            &self.checked[(frame / 64) as usize],
            crate::prefetch::Reuse::Again,
        );
    }

    fn raw_bits(&self) -> u32 {
        match self.encoding {
            Encoding::Distance => 8,
            Encoding::Wdl => 2,
        }
    }

    #[inline]
    fn is_checked(&self, frame: u64) -> bool {
        self.checked[(frame / 64) as usize].load(Ordering::Relaxed) & (1 << (frame % 64)) != 0
    }

    #[cold]
    fn check_frame(&self, path: &Path, bytes: &[u8], frame: u64) -> Result<(), DbError> {
        let (start, end) = self.frame_bytes(bytes, frame);
        let body = &bytes[self.body..];
        let entry = self.index + frame as usize * 16 + 8;
        let expected = u64::from_le_bytes(bytes[entry..entry + 8].try_into().expect("8 bytes"));
        if xxh3_64(&body[start as usize..end as usize]) != expected {
            return Err(DbError::corrupted(
                path,
                format!("checksum mismatch in frame {frame} of {}", self.frames),
            ));
        }
        self.checked[(frame / 64) as usize].fetch_or(1 << (frame % 64), Ordering::Relaxed);
        Ok(())
    }

    /// The byte range of `frame` in the body.
    #[inline]
    fn frame_bytes(&self, bytes: &[u8], frame: u64) -> (u64, u64) {
        let at = self.index + frame as usize * 16;
        let start = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let end = if frame + 1 < self.frames {
            u64::from_le_bytes(bytes[at + 16..at + 24].try_into().expect("8 bytes"))
        } else {
            self.body_len
        };
        (start, end)
    }

    /// The offset of `block` in its frame.
    #[inline]
    fn block_offset(&self, bytes: &[u8], block: u64) -> u64 {
        let at = self.block_offsets + block as usize * 2;
        u64::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
    }
}
