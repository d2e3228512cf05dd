//! Position strings for morris games: reading and writing them, and checking them against the
//! rules.
//!
//! The format has space-separated fields:
//!
//! 1. the board: one character per point in point order (see [`super::Board`]), `W` for a white
//!    man, `B` for a black man, `.` for an empty point (letters in either case on input); `/`
//!    may appear anywhere and is ignored (output puts one between rows);
//! 2. the side to move, `w` or `b` (either case on input);
//! 3. and 4. White's and Black's men in hand;
//! 5. plies since the last man was placed or taken (optional, default 0);
//! 6. the no-re-forming memory (optional, default `-`): `-`, or comma-separated entries
//!    `Wa4>a1` meaning White's man on a4 may not move back to a1 on White's next turn (at most
//!    one per side; it names a man of that side and the empty point it came from: a neighbour
//!    of the man's point, or any point when the side may fly, for no other move could have
//!    left it there: a memory naming a point the man cannot have left is refused);
//! 7. Shah's first mill (optional, default `-`): `-`, `W` or `B` for who closed the first mill
//!    while placing, `W!` or `B!` when that player's opening removal is the turn to play. It
//!    must agree with the board where play cannot have changed the board's mills since
//!    (unless placement moves men): a side with men in hand and a mill means someone closed
//!    one, and while both sides have men in hand (and placing takes nothing) the side named
//!    has a mill. A side with none in hand may slide while the other places, in positions set
//!    up so, and break or close mills.
//!
//! The empty Nine Men's Morris board with White to move is
//! `.../.../.../....../.../.../... w 9 9 0 - -`.

use std::fmt::Write as _;

use thiserror::Error;

use super::board::BoardShape;
use super::{Barrier, Morris, MorrisPosition};
use crate::{Bitboard, Color};

/// What is wrong with a morris position string.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MorrisFenErrorKind {
    /// Fewer than four fields, or more than seven.
    #[error("expected 4 to 7 space-separated fields (board, side, white in hand, black in hand, ...), found {0}")]
    FieldCount(usize),
    /// The board field has the wrong number of points.
    #[error("the board field has {found} points; this board has {expected}")]
    PointCount {
        /// Points given.
        found: usize,
        /// Points on the board.
        expected: usize,
    },
    /// A board character other than `W`, `B`, `.` or `/`.
    #[error("unexpected `{0}` on the board: use W, B, . or /")]
    BadPoint(char),
    /// A side to move other than `w` or `b`.
    #[error("expected the side to move, w or b, found `{0}`")]
    BadSide(String),
    /// A count that is not a number.
    #[error("expected a number, found `{0}`")]
    BadNumber(String),
    /// A memory entry that cannot be read.
    #[error("expected a memory entry like Wa4>a1, found `{0}`")]
    BadMemory(String),
    /// A Shah field that cannot be read.
    #[error("expected -, W, B, W! or B!, found `{0}`")]
    BadFirstMill(String),
    /// The position breaks the rules.
    #[error("{0}")]
    Invalid(#[from] MorrisPositionError),
}

/// A position string that could not be read, with the field where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid morris position{}: {kind}", field_label(*.field))]
pub struct MorrisFenError {
    /// 1-based field number, or 0 when the problem is the string or position as a whole.
    pub field: usize,
    /// What is wrong.
    pub kind: MorrisFenErrorKind,
}

/// Why a position cannot occur under the rules.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MorrisPositionError {
    /// More men than a side has.
    #[error("{color} has {count} men on the board and in hand; the rules give {men}")]
    TooManyMen {
        /// The side.
        color: Color,
        /// Its men on the board and in hand.
        count: u32,
        /// Men per side.
        men: u8,
    },
    /// A memory the rules do not use, or one that names no man of its side.
    #[error("bad no-re-forming memory for {0}: the rules must use it, the man must be there and the point empty")]
    BadBarrier(Color),
    /// A memory whose point the man cannot have come from: not a neighbour of its point, and
    /// the side may not fly.
    #[error("the no-re-forming memory for {0} names a point its man cannot have come from: a slide comes from a neighbouring point")]
    FarBarrier(Color),
    /// A Shah memory the rules do not use or that contradicts the position.
    #[error("bad first-mill memory: the rules must use it, and an opening removal needs both hands empty and its player to move")]
    BadFirstMill,
    /// Under the first-mill opening, a side with men in hand has a mill but the memory says
    /// nobody closed one: the placement that closed it would have set it.
    #[error("{0} has a mill and men in hand, so the first-mill memory cannot be empty: a mill closed by a placement sets it (W or B in the seventh field)")]
    MillWithoutFirstMill(Color),
    /// Under the first-mill opening (mills taking nothing), both sides have men in hand and
    /// the memory names a side with no mill on the board: nothing could have broken the mill
    /// it closed.
    #[error("the first-mill memory names {0}, which has no mill on the board: while both sides place, a mill closed stands")]
    FirstMillWithoutMill(Color),
    /// Points off the board, or on both sides.
    #[error("men stand off the board or on the same point")]
    BadMen,
}

fn field_label(field: usize) -> String {
    if field == 0 {
        String::new()
    } else {
        format!(" at field {field}")
    }
}

impl Morris {
    /// The position of `white` and `black` men on the board, with `white_hand` and
    /// `black_hand` men in hand and `side` to move, no memories, if these rules allow it
    /// ([`Morris::validate`]).
    pub fn position(
        &self,
        white: Bitboard,
        black: Bitboard,
        white_hand: u8,
        black_hand: u8,
        side: Color,
    ) -> Result<MorrisPosition, MorrisPositionError> {
        let pos = MorrisPosition::from_parts_unchecked(white, black, white_hand, black_hand, side);
        self.validate(&pos)?;
        Ok(pos)
    }

    /// Checks that `pos` can occur under these rules.
    pub fn validate(&self, pos: &MorrisPosition) -> Result<(), MorrisPositionError> {
        let all = self.board().all_points();
        let (white, black) = (pos.men(Color::White), pos.men(Color::Black));
        if !white.is_subset(all) || !black.is_subset(all) || white.intersects(black) {
            return Err(MorrisPositionError::BadMen);
        }
        for color in Color::ALL {
            let count = pos.total_men(color);
            if count > u32::from(self.rules().men) {
                return Err(MorrisPositionError::TooManyMen {
                    color,
                    count,
                    men: self.rules().men,
                });
            }
            if let Some(b) = pos.barrier(color) {
                let ok = self.rules().no_reforming
                    && usize::from(b.point) < self.board().point_count()
                    && usize::from(b.man) < self.board().point_count()
                    && pos.men(color).contains_index(b.man)
                    && !pos.occupied().contains_index(b.point);
                if !ok {
                    return Err(MorrisPositionError::BadBarrier(color));
                }
                let came_from = self.board().neighbours(b.man).contains_index(b.point)
                    || self.can_fly(pos.men(color), pos.in_hand(color));
                if !came_from {
                    return Err(MorrisPositionError::FarBarrier(color));
                }
            }
        }
        if pos.first_mill().is_some() || pos.opening_removal_pending() {
            // The memory lives while placing, and becomes the pending opening removal when the
            // last man is placed.
            let placed_all = pos.in_hand(Color::White) == 0 && pos.in_hand(Color::Black) == 0;
            let ok = self.rules().first_mill_opens
                && pos.first_mill().is_some()
                && if pos.opening_removal_pending() {
                    placed_all && pos.first_mill() == Some(pos.side_to_move())
                } else {
                    !placed_all
                };
            if !ok {
                return Err(MorrisPositionError::BadFirstMill);
            }
        }
        self.check_first_mill_against_mills(pos)
    }

    /// Under the first-mill opening, checks the memory against the mills on the board where
    /// they cannot have changed since it was set. Unless placement mixes with moving, a side
    /// with men in hand has only placed, and a placement that closes a mill sets the memory
    /// if none is set: so a side with men in hand and a mill means a memory. While both sides
    /// have men in hand no man has moved, and unless placing takes men none was taken: so the
    /// side the memory names still has the mill it closed. (A side with none in hand may
    /// slide while the other places, in positions set up so, and break or form mills.)
    fn check_first_mill_against_mills(
        &self,
        pos: &MorrisPosition,
    ) -> Result<(), MorrisPositionError> {
        let rules = self.rules();
        if !rules.first_mill_opens || rules.mixed_placement {
            return Ok(());
        }
        let has_mill = |color| self.board().has_mill(pos.men(color));
        let placing = |color| pos.in_hand(color) > 0;
        match pos.first_mill() {
            None => match Color::ALL.into_iter().find(|&c| placing(c) && has_mill(c)) {
                Some(color) => Err(MorrisPositionError::MillWithoutFirstMill(color)),
                None => Ok(()),
            },
            Some(color)
                if !rules.captures_while_placing
                    && Color::ALL.into_iter().all(placing)
                    && !has_mill(color) =>
            {
                Err(MorrisPositionError::FirstMillWithoutMill(color))
            }
            Some(_) => Ok(()),
        }
    }

    /// Reads a position string; returns the position and the plies since the last man was
    /// placed or taken.
    ///
    /// ```
    /// use perfectplay_core::morris::Morris;
    /// use perfectplay_core::{Color, Game};
    /// let game = Morris::preset("nine_mens_morris").unwrap();
    /// let (pos, plies) = game.parse_fen("W.B/.../.../....../.../.../... b 8 8 3").unwrap();
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert_eq!(plies, 3);
    /// assert_eq!(game.fen(&pos, plies), "W.B/.../.../....../.../.../... b 8 8 3 - -");
    /// assert_eq!(game.fen(&game.start_position(), 0), ".../.../.../....../.../.../... w 9 9 0 - -");
    /// ```
    pub fn parse_fen(&self, text: &str) -> Result<(MorrisPosition, u32), MorrisFenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let err = |field: usize, kind| MorrisFenError { field, kind };
        if !(4..=7).contains(&fields.len()) {
            return Err(err(0, MorrisFenErrorKind::FieldCount(fields.len())));
        }
        let board = self.board();
        let mut men = [Bitboard::EMPTY; 2];
        let mut count = 0;
        for c in fields[0].chars().filter(|&c| c != '/') {
            let color = match c {
                'W' | 'w' => Some(Color::White),
                'B' | 'b' => Some(Color::Black),
                '.' => None,
                other => return Err(err(1, MorrisFenErrorKind::BadPoint(other))),
            };
            if count < board.point_count() {
                if let Some(color) = color {
                    men[color.index()] |= Bitboard::from_index(count as u8);
                }
            }
            count += 1;
        }
        if count != board.point_count() {
            let kind = MorrisFenErrorKind::PointCount {
                found: count,
                expected: board.point_count(),
            };
            return Err(err(1, kind));
        }
        let side = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(err(2, MorrisFenErrorKind::BadSide(other.to_owned()))),
        };
        let number = |field: usize| -> Result<u32, MorrisFenError> {
            let text = fields[field - 1];
            let bad = || err(field, MorrisFenErrorKind::BadNumber(text.to_owned()));
            // Digits only: `parse` would also take a sign, `+9`.
            if !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            text.parse::<u32>().map_err(|_| bad())
        };
        let hand = |field: usize| -> Result<u8, MorrisFenError> {
            let n = number(field)?;
            u8::try_from(n).map_err(|_| err(field, MorrisFenErrorKind::BadNumber(n.to_string())))
        };
        let mut pos = MorrisPosition::from_parts_unchecked(
            men[Color::White.index()],
            men[Color::Black.index()],
            hand(3)?,
            hand(4)?,
            side,
        );
        let plies = if fields.len() >= 5 { number(5)? } else { 0 };
        if let Some(memory) = fields.get(5).filter(|&&m| m != "-") {
            for entry in memory.split(',') {
                let bad = || err(6, MorrisFenErrorKind::BadMemory(entry.to_owned()));
                let (color, barrier) = self.parse_barrier(entry).ok_or_else(bad)?;
                if pos.barrier(color).is_some() {
                    return Err(bad());
                }
                pos.set_barrier(color, Some(barrier));
            }
        }
        if let Some(shah) = fields.get(6).filter(|&&s| s != "-") {
            let (first, pending) = match *shah {
                "W" | "w" => (Color::White, false),
                "B" | "b" => (Color::Black, false),
                "W!" | "w!" => (Color::White, true),
                "B!" | "b!" => (Color::Black, true),
                other => return Err(err(7, MorrisFenErrorKind::BadFirstMill(other.to_owned()))),
            };
            pos.set_first_mill(Some(first), pending);
        }
        self.validate(&pos).map_err(|e| err(0, e.into()))?;
        Ok((pos, plies))
    }

    fn parse_barrier(&self, entry: &str) -> Option<(Color, Barrier)> {
        let mut chars = entry.chars();
        let color = match chars.next()? {
            'W' | 'w' => Color::White,
            'B' | 'b' => Color::Black,
            _ => return None,
        };
        let (man, point) = chars.as_str().split_once('>')?;
        Some((
            color,
            Barrier {
                man: self.board().point(man)?,
                point: self.board().point(point)?,
            },
        ))
    }

    /// Writes the position string of `pos` with `plies` since the last man was placed or taken
    /// (a memory naming a point off the board, in a position made unchecked, shows it as `?`).
    #[must_use]
    pub fn fen(&self, pos: &MorrisPosition, plies: u32) -> String {
        let rows: &[usize] = match self.board().shape() {
            BoardShape::TwentyFour => &[3, 3, 3, 6, 3, 3, 3],
            BoardShape::Sixteen => &[3, 3, 4, 3, 3],
            BoardShape::Nine => &[3, 3, 3],
        };
        let mut out = String::new();
        let mut point = 0u8;
        for (r, &len) in rows.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            for _ in 0..len {
                out.push(if pos.men(Color::White).contains_index(point) {
                    'W'
                } else if pos.men(Color::Black).contains_index(point) {
                    'B'
                } else {
                    '.'
                });
                point += 1;
            }
        }
        let side = if pos.side_to_move() == Color::White {
            'w'
        } else {
            'b'
        };
        let _ = write!(
            out,
            " {side} {} {} {plies} ",
            pos.in_hand(Color::White),
            pos.in_hand(Color::Black)
        );
        let memories: Vec<String> = [Color::White, Color::Black]
            .into_iter()
            .filter_map(|c| {
                pos.barrier(c).map(|b| {
                    format!(
                        "{}{}>{}",
                        c.letter(),
                        self.board().name(b.man),
                        self.board().name(b.point)
                    )
                })
            })
            .collect();
        out.push_str(if memories.is_empty() { "-" } else { "" });
        out.push_str(&memories.join(","));
        out.push(' ');
        match pos.first_mill() {
            None => out.push('-'),
            Some(c) => {
                out.push(c.letter());
                if pos.opening_removal_pending() {
                    out.push('!');
                }
            }
        }
        out
    }
}
