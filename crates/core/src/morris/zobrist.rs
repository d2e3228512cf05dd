//! Zobrist hashing of morris positions.

use super::position::MorrisPosition;
use crate::Color;

/// SplitMix64 of a fixed seed and `n`: one independent 64-bit key per feature.
const fn key(n: u64) -> u64 {
    let mut z = 0x6D6F_7272_6973_2121_u64.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys for a man of each colour (Black 0, White 1) on each bit of a [`crate::Bitboard`]: the
/// 24 points of the largest board, then (for a position made unchecked from its parts, which
/// must hash without a panic) the bits past them, keyed apart from every other feature.
const MEN: [[u64; 32]; 2] = {
    let mut keys = [[0; 32]; 2];
    let mut i = 0;
    while i < 64 {
        let (color, point) = (i / 32, i % 32);
        keys[color][point] = if point < 24 {
            key((color * 24 + point) as u64)
        } else {
            key(OFF_BOARD_BASE + i as u64)
        };
        i += 1;
    }
    keys
};

const HAND_BASE: u64 = 100;
const BARRIER_BASE: u64 = 200;
const WHITE_TO_MOVE: u64 = key(1000);
const FIRST_MILL_BASE: u64 = 1001;
const OPENING_REMOVAL: u64 = key(1003);
// Past every barrier key, whatever an unchecked barrier holds.
const OFF_BOARD_BASE: u64 = 1 << 20;

impl MorrisPosition {
    /// The Zobrist hash of the position.
    #[must_use]
    pub fn zobrist(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            let c = color.index();
            for point in self.men[c].indices() {
                h ^= MEN[c][usize::from(point)];
            }
            h ^= key(HAND_BASE + 16 * c as u64 + u64::from(self.hand[c]));
            if let Some(b) = self.barrier[c].get() {
                h ^= key(BARRIER_BASE
                    + 1024 * c as u64
                    + 32 * u64::from(b.man)
                    + u64::from(b.point));
            }
        }
        if self.side == Color::White {
            h ^= WHITE_TO_MOVE;
        }
        if let Some(c) = self.first_mill {
            h ^= key(FIRST_MILL_BASE + c.index() as u64);
        }
        if self.opening_removal {
            h ^= OPENING_REMOVAL;
        }
        h
    }
}
