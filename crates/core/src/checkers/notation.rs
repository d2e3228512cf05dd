//! Move notation: reading `11-15`, `15x24x31` and the short form `15x31`.
//!
//! Reading is two steps, kept apart as in chess libraries: [`MoveText`] parses the syntax
//! (squares and separators) without a position, and [`MoveText::resolve`] finds the legal move
//! it names. The long form lists every landing square; the short form gives only the start and
//! end and is accepted when it names one legal move. Should several capture paths share start,
//! end and captured pieces (a king circling a block either way), they lead to the same position
//! and the short form takes the first in generation order.
//!
//! Reading is strict about the separators, as a demanding reader of a game record would be: a
//! simple move is written with `-` and a capture with `x` (either case), one separator
//! throughout and no spaces inside the move (spaces around it are ignored). `11x15` for the
//! simple move `11-15` is refused ([`IllegalMoveError::Separator`], which names the right
//! spelling), as are `11- 15` ([`ParseCheckersMoveError::Space`]) and `11-15x24`
//! ([`ParseCheckersMoveError::MixedSeparators`]): text that says something other than the move it
//! would stand for is more likely a mistake than a shorthand.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use thiserror::Error;

use super::mv::MAX_JUMPS;
use super::{CheckersMove, CheckersMoveList, CheckersPosition, CheckersRules, Square};

/// Syntax errors in move text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseCheckersMoveError {
    /// Nothing to read.
    #[error("empty move")]
    Empty,
    /// Something that is not a square number.
    #[error("expected a square number 1-32 at character {column}, found `{found}`")]
    BadSquare {
        /// 1-based character position.
        column: usize,
        /// The text found there.
        found: String,
    },
    /// Only one square.
    #[error("a move needs at least two squares, like 11-15 or 15x24")]
    TooShort,
    /// More squares than any move can land on.
    #[error("a move lands on at most {MAX_JUMPS} squares")]
    TooLong,
    /// Whitespace inside the move.
    #[error("a space inside the move at character {column}: write it like 11-15 or 15x24")]
    Space {
        /// 1-based character position.
        column: usize,
    },
    /// Both `-` and `x`.
    #[error("a move has one separator: - for a simple move, x for a capture")]
    MixedSeparators,
}

/// A move that is well formed but not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalMoveError {
    /// No legal move matches.
    #[error("{text} is not a legal move here; legal moves: {legal}")]
    NoMatch {
        /// The move as written.
        text: String,
        /// The legal moves, space separated.
        legal: String,
    },
    /// The squares name a legal move, but the separator says the other kind: `11x15` for a
    /// simple move, `27-9` for a capture.
    #[error("{text} is written as a {}; the legal move is written {written}", if text.contains(['x', 'X']) { "capture" } else { "simple move" })]
    Separator {
        /// The move as written.
        text: String,
        /// The legal move in standard notation.
        written: String,
    },
    /// The short form matches several capture paths that lead to different positions.
    #[error("{text} is ambiguous: write the whole path, one of {candidates}")]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The matching moves in long form, space separated.
        candidates: String,
    },
}

/// Either kind of error in reading a move against a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CheckersMoveError {
    /// The text is not move notation.
    #[error(transparent)]
    Parse(#[from] ParseCheckersMoveError),
    /// The text names no single legal move.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

/// Move text as parsed: the squares in order, without reference to a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    squares: ArrayVec<Square, { MAX_JUMPS + 1 }>,
    /// Written with `x` (a capture), for messages.
    capture: bool,
}

impl MoveText {
    /// The squares as written.
    #[must_use]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The legal move in `pos` that this text names.
    pub fn resolve(&self, pos: &CheckersPosition) -> Result<CheckersMove, IllegalMoveError> {
        let mut legal = CheckersMoveList::new();
        pos.generate_moves_into(&mut legal);
        self.resolve_among(&legal)
    }

    /// The move legal in `pos` under `rules`' capture options that this text names: a capture
    /// that stops part way, where the rules allow it, is written with the squares it reached
    /// (`15x24` beside `15x24x31`), and two squares name it exactly before they are read as the
    /// short form of a longer capture.
    pub fn resolve_under(
        &self,
        pos: &CheckersPosition,
        rules: &CheckersRules,
    ) -> Result<CheckersMove, IllegalMoveError> {
        let mut legal = CheckersMoveList::new();
        pos.for_each_move_under(rules, |mv| legal.push(*mv));
        self.resolve_among(&legal)
    }

    fn resolve_among(&self, legal: &[CheckersMove]) -> Result<CheckersMove, IllegalMoveError> {
        let from = self.squares[0];
        let rest = &self.squares[1..];
        // Every landing square as written; two squares are also the short form of a longer
        // capture, unless a move lands exactly as written (a king's single jump `15x8` beside
        // multi-jumps that also end on 8).
        let exact: ArrayVec<&CheckersMove, 256> = legal
            .iter()
            .filter(|m| m.from() == from && m.landings().eq(rest.iter().copied()))
            .collect();
        let matches: ArrayVec<&CheckersMove, 256> = if exact.is_empty() && rest.len() == 1 {
            legal
                .iter()
                .filter(|m| m.from() == from && m.to() == rest[0])
                .collect()
        } else {
            exact
        };
        match matches.as_slice() {
            [] => Err(IllegalMoveError::NoMatch {
                text: self.to_string(),
                legal: join(legal.iter()),
            }),
            [first, ..] if first.is_capture() != self.capture => Err(IllegalMoveError::Separator {
                text: self.to_string(),
                written: first.to_string(),
            }),
            [first, others @ ..] if others.iter().all(|m| m.captured() == first.captured()) => {
                Ok(**first)
            }
            many => Err(IllegalMoveError::Ambiguous {
                text: self.to_string(),
                candidates: join(many.iter().copied()),
            }),
        }
    }
}

fn join<'a>(moves: impl Iterator<Item = &'a CheckersMove>) -> String {
    let mut names: Vec<String> = moves.map(CheckersMove::to_string).collect();
    names.sort_by_key(|n| {
        n.split(['-', 'x'])
            .map(|s| s.parse::<u8>().unwrap_or(0))
            .collect::<Vec<_>>()
    });
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(" ")
    }
}

impl FromStr for MoveText {
    type Err = ParseCheckersMoveError;

    /// Squares separated by `-` or by `x` (either case), surrounding spaces ignored.
    fn from_str(text: &str) -> Result<MoveText, ParseCheckersMoveError> {
        let lead = text.len() - text.trim_start().len();
        let body = text.trim();
        if body.is_empty() {
            return Err(ParseCheckersMoveError::Empty);
        }
        if let Some(at) = body.find(char::is_whitespace) {
            return Err(ParseCheckersMoveError::Space {
                column: lead + at + 1,
            });
        }
        let capture = body.bytes().any(|b| matches!(b, b'x' | b'X'));
        if capture && body.contains('-') {
            return Err(ParseCheckersMoveError::MixedSeparators);
        }
        let mut squares = ArrayVec::new();
        let mut start = 0;
        let bytes = body.as_bytes();
        for end in (0..=bytes.len())
            .filter(|&i| i == bytes.len() || matches!(bytes[i], b'-' | b'x' | b'X'))
        {
            let part = &body[start..end];
            let square = part
                .parse::<u8>()
                .ok()
                .filter(|_| part.bytes().all(|b| b.is_ascii_digit()))
                .and_then(Square::from_number)
                .ok_or_else(|| ParseCheckersMoveError::BadSquare {
                    column: lead + start + 1,
                    found: part.to_owned(),
                })?;
            squares
                .try_push(square)
                .map_err(|_| ParseCheckersMoveError::TooLong)?;
            start = end + 1;
        }
        if squares.len() < 2 {
            return Err(ParseCheckersMoveError::TooShort);
        }
        Ok(MoveText { squares, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { "x" } else { "-" };
        for (i, s) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl CheckersPosition {
    /// Reads a move in standard notation and finds it among the legal moves.
    ///
    /// ```
    /// use perfectplay_core::checkers::CheckersPosition;
    /// let p: CheckersPosition = "W:W27:B23,14".parse().unwrap();
    /// // White must capture 27x18x9; the short form also works.
    /// assert_eq!(p.parse_move("27x9").unwrap().to_string(), "27x18x9");
    /// assert!(p.parse_move("27-23").is_err());
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<CheckersMove, CheckersMoveError> {
        Ok(text.parse::<MoveText>()?.resolve(self)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Color;

    #[test]
    fn syntax_errors() {
        assert_eq!("".parse::<MoveText>(), Err(ParseCheckersMoveError::Empty));
        assert_eq!(
            "11".parse::<MoveText>(),
            Err(ParseCheckersMoveError::TooShort)
        );
        assert_eq!(
            "11-33".parse::<MoveText>(),
            Err(ParseCheckersMoveError::BadSquare {
                column: 4,
                found: "33".into()
            })
        );
        assert!(matches!(
            "11--15".parse::<MoveText>(),
            Err(ParseCheckersMoveError::BadSquare { .. })
        ));
        assert!(matches!(
            "a-15".parse::<MoveText>(),
            Err(ParseCheckersMoveError::BadSquare { .. })
        ));
        assert!(matches!(
            "+1-15".parse::<MoveText>(),
            Err(ParseCheckersMoveError::BadSquare { .. })
        ));
        assert_eq!(
            "11- 15".parse::<MoveText>(),
            Err(ParseCheckersMoveError::Space { column: 4 })
        );
        assert_eq!(
            " 11 -15".parse::<MoveText>(),
            Err(ParseCheckersMoveError::Space { column: 4 })
        );
        assert_eq!(
            "11-15x24".parse::<MoveText>(),
            Err(ParseCheckersMoveError::MixedSeparators)
        );
        let long = (1..=14)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("x");
        assert_eq!(
            long.parse::<MoveText>(),
            Err(ParseCheckersMoveError::TooLong)
        );
    }

    #[test]
    fn resolves_simple_and_capture_moves() {
        let start = CheckersPosition::start(Color::Black);
        assert_eq!(start.parse_move(" 11-15 ").unwrap().to_string(), "11-15");
        let err = start.parse_move("11-18").unwrap_err();
        assert_eq!(
            err.to_string(),
            "11-18 is not a legal move here; legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16"
        );
        assert!(matches!(
            err,
            CheckersMoveError::Illegal(IllegalMoveError::NoMatch { .. })
        ));
    }

    #[test]
    fn the_separator_must_say_what_kind_of_move_it_is() {
        let start = CheckersPosition::start(Color::Black);
        let err = start.parse_move("11x15").unwrap_err();
        assert_eq!(
            err,
            CheckersMoveError::Illegal(IllegalMoveError::Separator {
                text: "11x15".into(),
                written: "11-15".into()
            })
        );
        assert_eq!(
            err.to_string(),
            "11x15 is written as a capture; the legal move is written 11-15"
        );
        let p: CheckersPosition = "W:W27:B23,14".parse().unwrap();
        let err = p.parse_move("27-9").unwrap_err();
        assert_eq!(
            err.to_string(),
            "27-9 is written as a simple move; the legal move is written 27x18x9"
        );
        assert_eq!(p.parse_move("27X9").unwrap().to_string(), "27x18x9");
    }

    #[test]
    fn ambiguity_is_reported_with_the_candidates() {
        // A black king on 10 circles the white men on 14, 15, 22 and 23 either way round and
        // lands back on its start square, which counts as empty during its own move.
        let p: CheckersPosition = "B:W14,15,22,23:BK10".parse().unwrap();
        let long = p.parse_move("10x19x26x17x10").unwrap();
        let other = p.parse_move("10x17x26x19x10").unwrap();
        assert_ne!(long, other);
        assert_eq!(long.captured(), other.captured());
        // Same captures and end: the short form is accepted.
        assert!(p.parse_move("10x10").is_ok());
    }

    #[test]
    fn a_single_jump_written_in_full_is_not_the_short_form_of_longer_ones() {
        // The king on 15 jumps 11 to 8, or goes round 18, 26, 27 and 19 back to 15 and on to 8.
        let p: CheckersPosition = "W:WK15:B11,18,19,26,27".parse().unwrap();
        let single = p.parse_move("15x8").unwrap();
        assert_eq!(single.to_string(), "15x8");
        let mut legal = CheckersMoveList::new();
        p.generate_moves_into(&mut legal);
        assert_eq!(legal.len(), 3);
        for mv in legal.iter() {
            assert_eq!(p.parse_move(&mv.to_string()), Ok(*mv), "{mv}");
        }
        // Messages quote the text with the separator it was written with.
        let err = p.parse_move("15x9").unwrap_err();
        assert!(err.to_string().starts_with("15x9 "), "{err}");
    }
}
