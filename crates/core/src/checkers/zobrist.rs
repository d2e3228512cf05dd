//! Zobrist hashing of checkers positions, from scratch and incrementally.

use super::geometry::{BLACK_CROWN_ROW, WHITE_CROWN_ROW};
use super::{CheckersMove, CheckersPosition};
use crate::Color;

/// SplitMix64: a fixed, well-mixed key stream, so hashes are the same on every machine and run.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys by piece kind (black man, black king, white man, white king), then square index.
const PIECE_KEYS: [[u64; 32]; 4] = {
    let mut keys = [[0; 32]; 4];
    let mut state = 0x7065_7266_6563_7470; // fixed seed
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 32 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[kind][sq] = key;
            sq += 1;
        }
        kind += 1;
    }
    keys
};

/// Mixed in when White is to move.
const WHITE_TO_MOVE: u64 = splitmix64(0x7769_7468_5F6D_6F76).1;

#[inline(always)]
const fn kind(color: Color, king: bool) -> usize {
    color.index() * 2 + king as usize
}

#[inline(always)]
fn hash_set(keys: &[u64; 32], mut set: u32) -> u64 {
    let mut h = 0;
    while set != 0 {
        h ^= keys[set.trailing_zeros() as usize];
        set &= set - 1;
    }
    h
}

impl CheckersPosition {
    /// The Zobrist hash, computed from scratch.
    #[must_use]
    pub fn zobrist(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            h ^= hash_set(&PIECE_KEYS[kind(color, false)], self.men(color).0);
            h ^= hash_set(&PIECE_KEYS[kind(color, true)], self.kings(color).0);
        }
        if self.side == Color::White {
            h ^= WHITE_TO_MOVE;
        }
        h
    }

    /// The hash after `mv`, from this position's hash `hash`, touching only what moves.
    #[inline]
    #[must_use]
    pub fn zobrist_after(&self, hash: u64, mv: &CheckersMove) -> u64 {
        let us = self.side;
        let them = !us;
        let from = mv.from().index() as usize;
        let to = mv.to().index() as usize;
        let was_king = self.kings.intersects(mv.from().bitboard());
        let crown_row = match us {
            Color::Black => BLACK_CROWN_ROW,
            Color::White => WHITE_CROWN_ROW,
        };
        let king_after = was_king || mv.to().bitboard().0 & crown_row != 0;
        let captured = mv.captured().0;
        hash ^ PIECE_KEYS[kind(us, was_king)][from]
            ^ PIECE_KEYS[kind(us, king_after)][to]
            ^ hash_set(&PIECE_KEYS[kind(them, false)], captured & !self.kings.0)
            ^ hash_set(&PIECE_KEYS[kind(them, true)], captured & self.kings.0)
            ^ WHITE_TO_MOVE
    }

    /// The hash after passing the turn.
    #[inline]
    #[must_use]
    pub fn zobrist_after_pass(hash: u64) -> u64 {
        hash ^ WHITE_TO_MOVE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn side_to_move_changes_the_hash() {
        let p = CheckersPosition::start(Color::Black);
        assert_ne!(p.zobrist(), p.with_side_to_move(Color::White).zobrist());
        assert_eq!(
            CheckersPosition::zobrist_after_pass(p.zobrist()),
            p.with_side_to_move(Color::White).zobrist()
        );
    }
}
