//! Positions as rows of four `u32`: the form batched probes take from numpy arrays.
//!
//! | family | column 0 | column 1 | column 2 | column 3 |
//! |---|---|---|---|---|
//! | morris | White's men (bit *i*: point *i*) | Black's men | White's men in hand + 256 x Black's | player to move |
//! | checkers | Black's pieces (bit *i*: square *i* + 1) | White's pieces | kings of both | player to move |
//!
//! The player to move is 0 for the side that moves first (White in morris, Black in checkers)
//! and 1 for the other. Decoding checks everything a position string's reader checks, so a row
//! that decodes is a position the rules allow, and encoding it gives the same row back. A
//! morris position with a memory (a man that may not re-form its mill, Shah's first mill) has
//! no row: the memory is part of its value.
//!
//! ```
//! use perfectplay_core::morris::Morris;
//! use perfectplay_core::Game;
//! use perfectplay_solver::rows::{decode_morris, encode_morris, RowError};
//! let game = Morris::preset("nine_mens_morris")?;
//! let row = encode_morris(&game, &game.start_position())?;
//! assert_eq!(row, [0, 0, 9 | 9 << 8, 0]);
//! assert_eq!(decode_morris(&game, &row)?, game.start_position());
//! assert_eq!(decode_morris(&game, &[0, 0, 0, 2]), Err(RowError::Player(2)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use perfectplay_core::checkers::{Checkers, CheckersPosition, CheckersPositionError};
use perfectplay_core::morris::fen::MorrisPositionError;
use perfectplay_core::morris::{Morris, MorrisPosition};
use perfectplay_core::{Bitboard, Color, Game};
use thiserror::Error;

/// One encoded position.
pub type Row = [u32; 4];

/// Why a row is not a position, or a position has no row.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RowError {
    /// Column 3 is neither 0 nor 1.
    #[error("player to move {0} (0 or 1)")]
    Player(u32),
    /// Column 2 holds more than two counts under 256.
    #[error("men in hand {0:#x} (White's + 256 x Black's, each under 256)")]
    InHand(u32),
    /// The morris position breaks the rules.
    #[error("{0}")]
    Morris(#[from] MorrisPositionError),
    /// The checkers position breaks the rules.
    #[error("{0}")]
    Checkers(#[from] CheckersPositionError),
    /// A morris position that remembers something, which rows cannot hold.
    #[error(
        "encoded rows hold no memory (a man that may not re-form its mill, Shah's first mill)"
    )]
    Memory,
    /// A position of the other family than the game's.
    #[error("a position of one family in tables of the other")]
    OtherFamily,
}

fn side_of<G: Game>(game: &G, player: u32) -> Result<Color, RowError> {
    match player {
        0 => Ok(game.first_to_move()),
        1 => Ok(!game.first_to_move()),
        other => Err(RowError::Player(other)),
    }
}

fn player_of<G: Game>(game: &G, side: Color) -> u32 {
    u32::from(side != game.first_to_move())
}

/// The morris position of `row`, checked against the rules of `game`.
pub fn decode_morris(game: &Morris, row: &Row) -> Result<MorrisPosition, RowError> {
    let side = side_of(game, row[3])?;
    let [white_hand, black_hand, rest @ ..] = row[2].to_le_bytes();
    if rest != [0, 0] {
        return Err(RowError::InHand(row[2]));
    }
    let pos = MorrisPosition::from_parts_unchecked(
        Bitboard(row[0]),
        Bitboard(row[1]),
        white_hand,
        black_hand,
        side,
    );
    game.validate(&pos)?;
    Ok(pos)
}

/// The row of a morris position; [`RowError::Memory`] if it remembers something.
pub fn encode_morris(game: &Morris, pos: &MorrisPosition) -> Result<Row, RowError> {
    let remembers = Color::ALL.iter().any(|&c| pos.barrier(c).is_some())
        || pos.first_mill().is_some()
        || pos.opening_removal_pending();
    if remembers {
        return Err(RowError::Memory);
    }
    Ok([
        pos.men(Color::White).0,
        pos.men(Color::Black).0,
        u32::from(pos.in_hand(Color::White)) | u32::from(pos.in_hand(Color::Black)) << 8,
        player_of(game, pos.side_to_move()),
    ])
}

/// The checkers position of `row`, checked.
pub fn decode_checkers(game: &Checkers, row: &Row) -> Result<CheckersPosition, RowError> {
    let side = side_of(game, row[3])?;
    Ok(CheckersPosition::from_parts(
        Bitboard(row[0]),
        Bitboard(row[1]),
        Bitboard(row[2]),
        side,
    )?)
}

/// The row of a checkers position.
#[must_use]
pub fn encode_checkers(game: &Checkers, pos: &CheckersPosition) -> Row {
    [
        pos.pieces(Color::Black).0,
        pos.pieces(Color::White).0,
        (pos.kings(Color::Black) | pos.kings(Color::White)).0,
        player_of(game, pos.side_to_move()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_say_what_is_wrong() {
        let checkers = Checkers::default();
        let start = checkers.start_position();
        let row = encode_checkers(&checkers, &start);
        assert_eq!(row, [0xfff, 0xfff0_0000, 0, 0]);
        assert_eq!(decode_checkers(&checkers, &row), Ok(start));
        assert_eq!(
            decode_checkers(&checkers, &[0, 0, 0, 7]),
            Err(RowError::Player(7))
        );
        assert!(matches!(
            decode_checkers(&checkers, &[1, 1, 0, 0]),
            Err(RowError::Checkers(CheckersPositionError::Overlap(_)))
        ));

        let morris = Morris::preset("twelve_mens_morris").unwrap();
        assert_eq!(
            decode_morris(&morris, &[0, 0, 0x1_0000, 0]),
            Err(RowError::InHand(0x1_0000))
        );
        assert!(matches!(
            decode_morris(&morris, &[0, 0, 13, 0]),
            Err(RowError::Morris(MorrisPositionError::TooManyMen { .. }))
        ));
        let (remembers, _) = morris
            .parse_fen("W.W/.W./.../....../.../.../BB. b 0 0 0 Wd6>d7")
            .unwrap();
        assert_eq!(encode_morris(&morris, &remembers), Err(RowError::Memory));
    }
}
