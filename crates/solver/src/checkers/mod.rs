//! The checkers databases: every position with up to [`MAX_PIECES`] pieces, in slices keyed as
//! the classic checkers databases key them.
//!
//! # Slices
//!
//! A slice ([`CheckersKey`]) holds the positions with given numbers of men and kings of the
//! side to move and of the other side, and given ranks of each side's most advanced man
//! (0 = its own back row, 6 = the row before crowning). The side to move is normalised: a
//! position with White to move is read with the board turned half a turn and the colours
//! swapped, so one table serves both sides. Men only move forward, so a man's step either
//! keeps its side's rank (the slice's colour-swapped partner: the two are solved together) or
//! raises it, and captures and crowning change the material: those lead to slices solved
//! earlier. Each slice has a perfect index (the private `index` module): its size is exactly
//! the number of its arrangements, and summed over every slice of `n` pieces (a side without
//! pieces included) it gives the published counts of checkers positions by pieces
//! ([`CheckersDomain::arrangements`]).
//!
//! # Values
//!
//! One byte per position: win, draw or loss for the side to move and the number of plies to
//! the end of the game under optimal play, the winner taking the shortest way and the loser
//! the longest ([`crate::value`]). The end is the loser to move with no piece or no legal move:
//! the distance counts every ply up to it, captures and crowning included, not to a
//! conversion into a smaller slice. The database game has no history rules (no repetition, no
//! 40-move rule): a position neither side can win by force is a draw, whatever its length.
//! The compact WDL-only form (two bits per position) is built with `wdl_only`.
//!
//! Positions where the side not to move has no pieces cannot arise and have no table; a side
//! to move without pieces has lost and needs none. The first rule comes first: `B:W:B` (no
//! pieces at all, Black to move) probes as "cannot arise", as `B:W:B1` does, not as Black's
//! loss, for White cannot have made the move that led to it. Both still read as positions,
//! since a position string describes a board, not a history.

mod domain;
mod index;
mod key;

pub use domain::{database_rules, CheckersDomain, Enumeration, TableSizes, PUBLISHED_ARRANGEMENTS};
pub use key::{parse_material, CheckersKey, ParseCheckersKeyError, MAX_PIECES, MAX_RANK};
