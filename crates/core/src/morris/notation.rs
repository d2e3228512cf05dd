//! Reading morris turns: `d6`, `a1-a4`, `a1-a4xd7`, `d6xb4`, `xd7`, `pass`.
//!
//! Syntax is checked first ([`ParseMorrisMoveError`]), then the text is matched against the
//! legal turns ([`MorrisMoveError`]). A turn that closes a mill must name what it takes, unless
//! only one choice is legal; where capture is optional, a turn that names nothing takes
//! nothing.

use thiserror::Error;

use super::{Morris, MorrisMove, MorrisPosition};
use crate::Bitboard;

/// Syntax errors in a morris turn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseMorrisMoveError {
    /// Nothing to read.
    #[error("empty move")]
    Empty,
    /// A point name that is not on the board.
    #[error("`{name}` is not a point of this board (points: {points})")]
    BadPoint {
        /// The name given.
        name: String,
        /// The board's points, space separated.
        points: String,
    },
    /// Text that is not a turn.
    #[error("`{0}` is not a turn: write d6, a1-a4, a1-a4xd7, d6xb4, xd7 or pass")]
    Malformed(String),
}

/// A turn that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MorrisMoveError {
    /// The text is not a turn.
    #[error(transparent)]
    Parse(#[from] ParseMorrisMoveError),
    /// No legal turn matches.
    #[error("{text} is not a legal move here; legal moves: {legal}")]
    Illegal {
        /// The text.
        text: String,
        /// The legal turns, space separated.
        legal: String,
    },
    /// The turn closes a mill and several men could be taken.
    #[error("{text} closes a mill: say which man it takes, one of {candidates}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The matching turns, space separated.
        candidates: String,
    },
}

struct ParsedTurn {
    pass: bool,
    from: Option<u8>,
    to: Option<u8>,
    removed: Bitboard,
}

impl Morris {
    fn parse_point(&self, name: &str) -> Result<u8, ParseMorrisMoveError> {
        self.board()
            .point(name)
            .ok_or_else(|| ParseMorrisMoveError::BadPoint {
                name: name.to_owned(),
                points: self.board().shape().point_names().join(" "),
            })
    }

    fn parse_turn(&self, text: &str) -> Result<ParsedTurn, ParseMorrisMoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseMorrisMoveError::Empty);
        }
        if t.eq_ignore_ascii_case("pass") {
            return Ok(ParsedTurn {
                pass: true,
                from: None,
                to: None,
                removed: Bitboard::EMPTY,
            });
        }
        let lower = t.to_ascii_lowercase();
        let mut parts = lower.split('x');
        let head = parts.next().unwrap_or_default();
        let (from, to) = match head.split_once('-') {
            _ if head.is_empty() => (None, None),
            Some((a, b)) => (Some(self.parse_point(a)?), Some(self.parse_point(b)?)),
            None => (None, Some(self.parse_point(head)?)),
        };
        let mut removed = Bitboard::EMPTY;
        let mut any_removal = false;
        for part in parts {
            if part.is_empty() {
                return Err(ParseMorrisMoveError::Malformed(t.to_owned()));
            }
            removed |= Bitboard::from_index(self.parse_point(part)?);
            any_removal = true;
        }
        if to.is_none() && !any_removal {
            return Err(ParseMorrisMoveError::Malformed(t.to_owned()));
        }
        Ok(ParsedTurn {
            pass: false,
            from,
            to,
            removed,
        })
    }

    /// Reads a turn in standard notation and finds it among the legal turns of `pos`.
    ///
    /// ```
    /// use perfectplay_core::morris::Morris;
    /// use perfectplay_core::Game;
    /// let game = Morris::preset("nine_mens_morris").unwrap();
    /// let pos = game.start_position();
    /// assert_eq!(game.parse_move(&pos, "D6").unwrap().to_string(), "d6");
    /// assert!(game.parse_move(&pos, "a1-a4").is_err());
    /// assert!(game.parse_move(&pos, "h9").is_err());
    /// ```
    pub fn parse_move(
        &self,
        pos: &MorrisPosition,
        text: &str,
    ) -> Result<MorrisMove, MorrisMoveError> {
        let parsed = self.parse_turn(text)?;
        let mut matches: Vec<MorrisMove> = Vec::new();
        let mut legal: Vec<String> = Vec::new();
        self.for_each_turn(pos, |mv| {
            legal.push(mv.to_string());
            let same_base = if parsed.pass {
                matches!(mv.kind(), super::MoveKind::Pass)
            } else {
                mv.from() == parsed.from && mv.to() == parsed.to
            };
            if same_base && (mv.removed() == parsed.removed || parsed.removed.is_empty()) {
                matches.push(*mv);
            }
        });
        match matches.as_slice() {
            [] => Err(MorrisMoveError::Illegal {
                text: text.trim().to_owned(),
                legal: if legal.is_empty() {
                    "none".to_owned()
                } else {
                    legal.join(" ")
                },
            }),
            [only] => Ok(*only),
            many => {
                // An exact match wins; otherwise the removal was left out and is ambiguous.
                if let Some(exact) = many.iter().find(|m| m.removed() == parsed.removed) {
                    return Ok(*exact);
                }
                Err(MorrisMoveError::Ambiguous {
                    text: text.trim().to_owned(),
                    candidates: many
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                })
            }
        }
    }
}
