//! PDN FEN: reading and writing positions as text, e.g. `B:W18,24,K10:B12,16,K22`.
//!
//! The form is the side to move (`B` or `W`), then one section per colour, each its colour
//! letter followed by a comma-separated list of squares, `K` marking kings. Input also accepts
//! ranges (`1-12`, `K1-4`), the sections in either order, lower-case letters, surrounding
//! quotes or spaces and a final period. Output is canonical: White's section, then Black's,
//! each listing men then kings in ascending order.
//!
//! A FEN describes a board, not a history: a side may have no pieces, or both (`B:W:B`). Whether
//! such a position can arise is for the databases to say: one whose side that has just moved
//! has no pieces cannot (`perfectplay_solver::checkers`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::{CheckersPosition, CheckersPositionError, Setup, Square};
use crate::{Bitboard, Color};

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CheckersFenErrorKind {
    /// Nothing but whitespace.
    #[error("empty FEN")]
    Empty,
    /// The first field is not `B` or `W`.
    #[error("expected the side to move, B or W, found `{0}`")]
    BadSideToMove(String),
    /// Fewer than two colour sections, or more.
    #[error("expected two sections after the side to move, `:W...` and `:B...`, found {0}")]
    SectionCount(usize),
    /// A section that does not start with `W` or `B`.
    #[error("a section must start with W or B, found `{0}`")]
    BadColor(String),
    /// The same colour twice.
    #[error("the {0} section appears twice")]
    DuplicateColor(Color),
    /// A square entry that is not a number, `K` and a number, or a range.
    #[error(
        "expected a square number (optionally K for a king, or a range like 1-12), found `{0}`"
    )]
    BadSquare(String),
    /// A square number outside 1-32.
    #[error("square {0} is not on the board (1-32)")]
    SquareOutOfRange(u32),
    /// A range whose end is below its start.
    #[error("the range {0}-{1} runs backwards")]
    BackwardRange(u8, u8),
    /// The pieces do not form a legal position.
    #[error("{0}")]
    Position(#[from] CheckersPositionError),
}

/// A FEN string that could not be read, with where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid FEN at character {column}: {kind}")]
pub struct CheckersFenError {
    /// 1-based character position of the offending field in the input.
    pub column: usize,
    /// What is wrong.
    pub kind: CheckersFenErrorKind,
}

/// Parses a PDN FEN string into a position.
///
/// ```
/// use perfectplay_core::checkers::{fen, CheckersPosition};
/// use perfectplay_core::Color;
/// let p: CheckersPosition = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29".parse().unwrap();
/// assert_eq!(p.side_to_move(), Color::Black);
/// assert_eq!(p.kings(Color::White).count(), 2);
/// let start: CheckersPosition = "B:W21-32:B1-12".parse().unwrap();
/// assert_eq!(fen::write(&start), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
/// assert!("B:W21,33:B1".parse::<CheckersPosition>().is_err());
/// ```
pub fn parse(text: &str) -> Result<CheckersPosition, CheckersFenError> {
    let trimmed_start = text.len() - text.trim_start().len();
    let body = text.trim();
    let body = body.strip_prefix('"').unwrap_or(body);
    let body = body.strip_suffix('"').unwrap_or(body);
    let body = body.strip_suffix('.').unwrap_or(body);
    let offset = trimmed_start + usize::from(text.trim_start().starts_with('"'));
    let err = |at: usize, kind| CheckersFenError {
        column: offset + at + 1,
        kind,
    };
    if body.trim().is_empty() {
        return Err(err(0, CheckersFenErrorKind::Empty));
    }

    let fields: Vec<(usize, &str)> = split_with_offsets(body, ':');
    let (_, side_text) = fields[0];
    let side = match side_text.trim() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        other => {
            return Err(err(
                0,
                CheckersFenErrorKind::BadSideToMove(other.to_owned()),
            ))
        }
    };
    if fields.len() != 3 {
        return Err(err(0, CheckersFenErrorKind::SectionCount(fields.len() - 1)));
    }

    let mut setup = Setup {
        side_to_move: Some(side),
        ..Setup::default()
    };
    let mut seen: [bool; 2] = [false; 2];
    for &(at, section) in &fields[1..] {
        let lead = section.len() - section.trim_start().len();
        let section = section.trim();
        let color = match section.chars().next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            _ => {
                return Err(err(
                    at + lead,
                    CheckersFenErrorKind::BadColor(section.to_owned()),
                ))
            }
        };
        if seen[color.index()] {
            return Err(err(at + lead, CheckersFenErrorKind::DuplicateColor(color)));
        }
        seen[color.index()] = true;
        let (men, kings) =
            parse_squares(&section[1..]).map_err(|(rel, kind)| err(at + lead + 1 + rel, kind))?;
        match color {
            Color::Black => {
                setup.black_men = men;
                setup.black_kings = kings;
            }
            Color::White => {
                setup.white_men = men;
                setup.white_kings = kings;
            }
        }
    }
    CheckersPosition::from_setup(&setup).map_err(|e| err(0, e.into()))
}

fn split_with_offsets(text: &str, sep: char) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == sep {
            out.push((start, &text[start..i]));
            start = i + c.len_utf8();
        }
    }
    out.push((start, &text[start..]));
    out
}

/// Parses `18,24,K10,1-4,K5-K8` into men and kings. Squares listed twice are an overlap error.
fn parse_squares(list: &str) -> Result<(Bitboard, Bitboard), (usize, CheckersFenErrorKind)> {
    let mut men = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    if list.trim().is_empty() {
        return Ok((men, kings));
    }
    for (at, item) in split_with_offsets(list, ',') {
        let lead = item.len() - item.trim_start().len();
        let item = item.trim();
        let fail = |kind| (at + lead, kind);
        let (king, rest) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (first, last) = match rest.split_once('-') {
            Some((a, b)) => {
                let b = b.strip_prefix(['K', 'k']).unwrap_or(b);
                (number(a).map_err(fail)?, number(b).map_err(fail)?)
            }
            None => {
                let n = number(rest).map_err(fail)?;
                (n, n)
            }
        };
        if last < first {
            return Err(fail(CheckersFenErrorKind::BackwardRange(
                first.number(),
                last.number(),
            )));
        }
        for index in first.index()..=last.index() {
            let b = Bitboard::from_index(index);
            if (men | kings).intersects(b) {
                return Err(fail(
                    CheckersPositionError::Overlap(Square::from_bit(index)).into(),
                ));
            }
            if king {
                kings |= b;
            } else {
                men |= b;
            }
        }
    }
    Ok((men, kings))
}

fn number(text: &str) -> Result<Square, CheckersFenErrorKind> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CheckersFenErrorKind::BadSquare(text.to_owned()));
    }
    let n: u32 = text
        .parse()
        .map_err(|_| CheckersFenErrorKind::BadSquare(text.to_owned()))?;
    u8::try_from(n)
        .ok()
        .and_then(Square::from_number)
        .ok_or(CheckersFenErrorKind::SquareOutOfRange(n))
}

/// Writes the canonical FEN of `pos`.
#[must_use]
pub fn write(pos: &CheckersPosition) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut first = true;
        let items = pos
            .men(color)
            .indices()
            .map(|i| (false, i))
            .chain(pos.kings(color).indices().map(|i| (true, i)));
        for (king, index) in items {
            if !first {
                out.push(',');
            }
            first = false;
            if king {
                out.push('K');
            }
            out.push_str(&Square::from_bit(index).number().to_string());
        }
    }
    out
}

impl FromStr for CheckersPosition {
    type Err = CheckersFenError;
    fn from_str(s: &str) -> Result<CheckersPosition, CheckersFenError> {
        parse(s)
    }
}

/// Formats a position as its FEN, e.g. `format!("{}", pos.fen())`.
pub struct Fen<'a>(pub &'a CheckersPosition);

impl fmt::Display for Fen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self.0))
    }
}

impl CheckersPosition {
    /// The canonical FEN of the position.
    #[must_use]
    pub fn fen(&self) -> String {
        write(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_example_round_trips() {
        let text = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
        let p = parse(text).unwrap();
        assert_eq!(write(&p), text);
        assert_eq!(p.men(Color::White).count(), 4);
        assert_eq!(p.kings(Color::Black).count(), 3);
    }

    #[test]
    fn accepts_ranges_order_case_quotes_and_period() {
        let canonical = parse("B:W21-32:B1-12").unwrap();
        assert_eq!(canonical, CheckersPosition::start(Color::Black));
        for text in [
            " \"B:B1-12:W21-32\" ",
            "b:w21-32:b1-12.",
            "B:W21-24,25,26-32:B1-4,5-12",
        ] {
            assert_eq!(parse(text).unwrap(), canonical, "{text}");
        }
        let kings = parse("W:WK1-K3:BK30-32").unwrap();
        assert_eq!(kings.kings(Color::White).count(), 3);
        assert_eq!(kings.kings(Color::Black).count(), 3);
        assert_eq!(kings.side_to_move(), Color::White);
        assert_eq!(write(&parse("W:W:B").unwrap()), "W:W:B");
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = parse("X:W1:B2").unwrap_err();
        assert_eq!(e.kind, CheckersFenErrorKind::BadSideToMove("X".into()));
        assert_eq!(e.column, 1);
        let e = parse("B:W21,33:B1").unwrap_err();
        assert_eq!(e.kind, CheckersFenErrorKind::SquareOutOfRange(33));
        assert_eq!(e.column, 7);
        assert_eq!(
            parse("B:W21,x:B1").unwrap_err().kind,
            CheckersFenErrorKind::BadSquare("x".into())
        );
        assert_eq!(
            parse("B:W21").unwrap_err().kind,
            CheckersFenErrorKind::SectionCount(1)
        );
        assert_eq!(
            parse("B:W21:W22").unwrap_err().kind,
            CheckersFenErrorKind::DuplicateColor(Color::White)
        );
        assert_eq!(
            parse("B:W21:X22").unwrap_err().kind,
            CheckersFenErrorKind::BadColor("X22".into())
        );
        assert_eq!(parse("   ").unwrap_err().kind, CheckersFenErrorKind::Empty);
        assert_eq!(
            parse("B:W9-5:B1").unwrap_err().kind,
            CheckersFenErrorKind::BackwardRange(9, 5)
        );
        assert!(matches!(
            parse("B:W10:B10").unwrap_err().kind,
            CheckersFenErrorKind::Position(CheckersPositionError::Overlap(_))
        ));
        assert!(matches!(
            parse("B:W2:B10").unwrap_err().kind,
            CheckersFenErrorKind::Position(CheckersPositionError::ManOnCrowningRow { .. })
        ));
        assert!(parse("B:W99999999999999999999:B1").is_err());
        assert!(parse("B:W1,,2:B5").is_err());
        assert!(parse("B:WK:B5").is_err());
    }
}
