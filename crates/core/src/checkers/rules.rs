//! `CheckersRules`: the options of English checkers, as data.

use crate::options::{
    bad_value, parse_bool, parse_limit, unknown, RuleOption, RuleOptionError, RuleSet,
};
use crate::Color;

/// The rule options of English checkers. The defaults are the standard game.
///
/// ```
/// use perfectplay_core::checkers::CheckersRules;
/// use perfectplay_core::Color;
/// let mut rules = CheckersRules::default();
/// rules.set("first_player", "white").unwrap();
/// assert_eq!(rules.first_player, Color::White);
/// assert!(rules.set("flying_kings", "true").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersRules {
    /// Who moves first from the starting position (Black in the standard game; some sets say
    /// the youngest player, and players alternate between games).
    pub first_player: Color,
    /// A draw when the same position with the same side to move occurs for the third time.
    pub threefold_repetition: bool,
    /// A draw after this many moves by each side with no capture and no man moved (40).
    pub move_rule: Option<u32>,
    /// The game stops after this many plies: truncated, or adjudicated if `adjudication`.
    pub ply_limit: Option<u32>,
    /// At the ply limit, decide by material: more pieces wins, then more kings, else a draw.
    pub adjudication: bool,
    /// A player who can capture must (the standard game). Off, a capture may be declined for a
    /// simple move: the basic game of the Construction Checkers sheet, whose "Required Jumps"
    /// is an advanced rule.
    pub mandatory_capture: bool,
    /// A capture, once begun, goes on while the piece can jump (the standard game). Off, the
    /// player may stop after any jump: the Construction Checkers sheet's basic game, whose
    /// "multiple jumps must be completed" is an advanced rule.
    pub complete_jumps: bool,
}

impl Default for CheckersRules {
    fn default() -> Self {
        CheckersRules {
            first_player: Color::Black,
            threefold_repetition: true,
            move_rule: Some(40),
            ply_limit: Some(CheckersRules::DEFAULT_PLY_LIMIT),
            adjudication: false,
            mandatory_capture: true,
            complete_jumps: true,
        }
    }
}

impl CheckersRules {
    /// The default ply limit: far beyond any real game, there to stop random play.
    pub const DEFAULT_PLY_LIMIT: u32 = 1000;

    /// Every option [`CheckersRules::set`] accepts.
    pub const OPTIONS: &'static [RuleOption] = &[
        RuleOption {
            name: "first_player",
            expected: "black or white",
            help: "who moves first from the starting position (default black)",
        },
        RuleOption {
            name: "threefold_repetition",
            expected: "true or false",
            help: "draw on the third occurrence of a position (default true)",
        },
        RuleOption {
            name: "move_rule",
            expected: "moves per side, or none (0)",
            help: "draw after this many moves each without capture or man move (default 40)",
        },
        RuleOption {
            name: "ply_limit",
            expected: "plies, or none (0)",
            help: "stop the game after this many plies (default 1000)",
        },
        RuleOption {
            name: "adjudication",
            expected: "true or false",
            help: "at the ply limit, more pieces wins, then more kings (default false)",
        },
        RuleOption {
            name: "mandatory_capture",
            expected: "true or false",
            help: "a player who can capture must (default true; false: the basic game)",
        },
        RuleOption {
            name: "complete_jumps",
            expected: "true or false",
            help: "a capture goes on while the piece can jump (default true; false: it may \
                   stop after any jump)",
        },
    ];

    /// Whether captures follow the standard game: mandatory, and every sequence completed.
    #[inline]
    #[must_use]
    pub const fn standard_captures(&self) -> bool {
        self.mandatory_capture && self.complete_jumps
    }

    /// The options as `name=value` pairs, in the order of [`CheckersRules::OPTIONS`]; each
    /// value reads back with [`CheckersRules::set`].
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let limit = |l: Option<u32>| l.map_or("none".to_owned(), |n| n.to_string());
        vec![
            ("first_player", self.first_player.to_string()),
            (
                "threefold_repetition",
                self.threefold_repetition.to_string(),
            ),
            ("move_rule", limit(self.move_rule)),
            ("ply_limit", limit(self.ply_limit)),
            ("adjudication", self.adjudication.to_string()),
            ("mandatory_capture", self.mandatory_capture.to_string()),
            ("complete_jumps", self.complete_jumps.to_string()),
        ]
    }

    /// Sets one option by name from its text value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        match name {
            "first_player" => {
                self.first_player = match value.trim().to_ascii_lowercase().as_str() {
                    "black" | "b" => Color::Black,
                    "white" | "w" => Color::White,
                    _ => return Err(bad_value(name, value, "black or white")),
                }
            }
            "threefold_repetition" => self.threefold_repetition = parse_bool(name, value)?,
            "move_rule" => self.move_rule = parse_limit(name, value)?,
            "ply_limit" => self.ply_limit = parse_limit(name, value)?,
            "adjudication" => self.adjudication = parse_bool(name, value)?,
            "mandatory_capture" => self.mandatory_capture = parse_bool(name, value)?,
            "complete_jumps" => self.complete_jumps = parse_bool(name, value)?,
            _ => return Err(unknown(name, Self::OPTIONS)),
        }
        Ok(())
    }
}

impl RuleSet for CheckersRules {
    const OPTIONS: &'static [RuleOption] = CheckersRules::OPTIONS;

    fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        CheckersRules::set(self, name, value)
    }

    fn values(&self) -> Vec<(&'static str, String)> {
        self.settings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_back() {
        let mut rules = CheckersRules {
            first_player: Color::White,
            move_rule: None,
            adjudication: true,
            mandatory_capture: false,
            complete_jumps: false,
            ..CheckersRules::default()
        };
        let mut copy = CheckersRules::default();
        for (name, value) in rules.settings() {
            copy.set(name, &value).unwrap();
        }
        assert_eq!(copy, rules);
        rules.set("ply_limit", "none").unwrap();
        assert_eq!(rules.ply_limit, None);
        assert_eq!(CheckersRules::OPTIONS.len(), rules.settings().len());
    }
}
