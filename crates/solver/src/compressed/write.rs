//! Compressing a table's values: one code for the table, blocks coded in parallel, frames and
//! their checksums. The bytes depend on the values and the options only, never on the number
//! of threads.

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::codec::{count_runs, encode_block, SYMBOLS};
use super::huffman::{code_lengths, Encoder};
use crate::format::{Encoding, Layout};

/// How values are cut into blocks and frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompressOptions {
    /// Indices per block, a power of two from 64 to 65,536: smaller blocks probe faster (a
    /// probe walks half a block's tokens on average) and cost two bytes of index each.
    pub block_positions: u32,
    /// Blocks per frame: the unit of checksums, 16 bytes of index each.
    pub blocks_per_frame: u32,
}

/// Runs a block of results should hold: a probe walks half of them.
const RUNS_PER_BLOCK: u64 = 32;
/// Runs a block of distances should hold: more than results, for distances change every few
/// positions and each block costs index and padding (checkers distances take 5% more with 32
/// runs than with 64; Nine Men's Morris distances 5% less with 128, probed a third slower:
/// BENCHMARKS.md).
const RUNS_PER_DISTANCE_BLOCK: u64 = 64;

impl CompressOptions {
    /// Blocks sized to the values: about 32 runs each for results, 64 for distances (a power
    /// of two from 64 to 4,096 indices), so
    /// that a probe walks the same few runs whatever the table (checkers results run about 50
    /// positions long, Nine Men's Morris results about 15, values with distances a few:
    /// BENCHMARKS.md); frames as many blocks as 16-bit offsets allow, at most 256. The choice
    /// depends on the values only.
    #[must_use]
    pub fn for_values(values: &[u8], encoding: Encoding) -> CompressOptions {
        let runs: u64 = values
            .par_chunks(1 << 16)
            .map(|chunk| 1 + chunk.windows(2).filter(|w| w[0] != w[1]).count() as u64)
            .sum();
        let runs_per_block = match encoding {
            Encoding::Wdl => RUNS_PER_BLOCK,
            Encoding::Distance => RUNS_PER_DISTANCE_BLOCK,
        };
        // The exact mean run times the runs wanted: a mean run rounded down first (2.9 to 2)
        // gave the short-run tables blocks of a third fewer runs than meant, whose index and
        // padding then took a fifth of their bytes.
        let block = (values.len() as u64 * runs_per_block / runs.max(1))
            .next_power_of_two()
            .clamp(64, 4096);
        let plain_block = (1 + block * u64::from(raw_bits(encoding))).div_ceil(8);
        CompressOptions {
            block_positions: block as u32,
            blocks_per_frame: ((1 << 16) / plain_block).min(256) as u32,
        }
    }
}

/// The bits of one value in a plain block.
pub(crate) fn raw_bits(encoding: Encoding) -> u32 {
    match encoding {
        Encoding::Wdl => 2,
        Encoding::Distance => 8,
    }
}

/// A compressed table's layout, index and body, ready to be written after its prefix.
pub struct CompressedParts {
    /// The layout (without omissions: the caller names them).
    pub layout: Layout,
    /// The index, padded.
    pub index: Vec<u8>,
    /// The body.
    pub body: Vec<u8>,
}

/// Compresses `values` (one stored value per index: codes below 4 for [`Encoding::Wdl`], packed
/// bytes for [`Encoding::Distance`]).
///
/// # Panics
///
/// If `block_positions` is not a power of two from 64 to 65,536, if `blocks_per_frame` is 0,
/// or if a frame would pass 64 KiB: a frame of plain blocks must fit the 16-bit block offsets,
/// so `blocks_per_frame - 1` blocks of `(1 + block_positions * bits) / 8` bytes (rounded up;
/// `bits` 2 for [`Encoding::Wdl`], 8 for [`Encoding::Distance`]) must stay below 65,536
/// bytes. In debug builds, also if a block of [`Encoding::Wdl`] values stored as they are
/// (where runs would take more) holds a value of 4 or more; release builds write a corrupt
/// block then.
#[must_use]
pub fn compress_values(
    values: &[u8],
    encoding: Encoding,
    options: CompressOptions,
) -> CompressedParts {
    let block = options.block_positions as usize;
    assert!(block.is_power_of_two() && (64..=1 << 16).contains(&block));
    let raw_bits = raw_bits(encoding);
    let plain_block = (1 + block * raw_bits as usize).div_ceil(8);
    assert!(
        plain_block * (options.blocks_per_frame as usize - 1) < 1 << 16,
        "frames too large for 16-bit block offsets"
    );
    let counts = values
        .par_chunks(block)
        .fold(
            || vec![0u64; SYMBOLS],
            |mut counts, chunk| {
                count_runs(chunk, &mut counts);
                counts
            },
        )
        .reduce(
            || vec![0u64; SYMBOLS],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let lengths = code_lengths(&counts);
    let encoder = Encoder::new(&lengths);
    let frame_values = block * options.blocks_per_frame as usize;
    // Each frame: its bytes and its blocks' offsets.
    let frames: Vec<(Vec<u8>, Vec<u16>)> = values
        .par_chunks(frame_values)
        .map(|frame| {
            let mut bytes = Vec::new();
            let mut offsets = Vec::with_capacity(options.blocks_per_frame as usize);
            for chunk in frame.chunks(block) {
                offsets.push(u16::try_from(bytes.len()).expect("frames are bounded"));
                bytes.extend_from_slice(&encode_block(chunk, &encoder, raw_bits));
            }
            (bytes, offsets)
        })
        .collect();
    let checksums: Vec<u64> = frames.par_iter().map(|(bytes, _)| xxh3_64(bytes)).collect();
    let blocks: usize = frames.iter().map(|(_, o)| o.len()).sum();
    let mut index = Vec::with_capacity(frames.len() * 16 + blocks * 2 + 64);
    let mut offset = 0u64;
    for ((bytes, _), checksum) in frames.iter().zip(&checksums) {
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&checksum.to_le_bytes());
        offset += bytes.len() as u64;
    }
    for (_, offsets) in &frames {
        for o in offsets {
            index.extend_from_slice(&o.to_le_bytes());
        }
    }
    index.resize(index.len().next_multiple_of(64), 0);
    let body: Vec<u8> = frames.into_iter().flat_map(|(bytes, _)| bytes).collect();
    CompressedParts {
        layout: Layout {
            omitted: None,
            block_positions: options.block_positions,
            blocks_per_frame: options.blocks_per_frame,
            code_lengths: sparse(&lengths),
            index_checksum: xxh3_64(&index),
            body_len: body.len() as u64,
        },
        index,
        body,
    }
}

/// The used symbols' code lengths, by symbol.
fn sparse(lengths: &[u8]) -> Vec<(u16, u8)> {
    lengths
        .iter()
        .enumerate()
        .filter(|&(_, &l)| l > 0)
        .map(|(s, &l)| (s as u16, l))
        .collect()
}
