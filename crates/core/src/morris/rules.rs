//! `MorrisRules`: every option of the morris family as data, and the named presets.

use std::fmt;

use thiserror::Error;

use super::board::{Board, BoardShape};
use crate::options::{
    bad_value, parse_bool, parse_limit, unknown, RuleOption, RuleOptionError, RuleSet,
};

/// Which men a mill may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RemovalRule {
    /// Men in the opponent's mills are safe while the opponent has men outside mills.
    Standard,
    /// Any man may be taken.
    Any,
    /// Men in mills can never be taken; if all are in mills nothing is taken.
    MillImmunity,
}

/// What closing two (or three) mills with one move takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DoubleMill {
    /// One man, however many mills close.
    TakeOne,
    /// Two men.
    TakeTwo,
}

/// Whether a turn that takes men must take them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// A turn that closes a mill (or otherwise earns a capture) takes its men.
    Compulsory,
    /// The player may take the men the turn earns or take none: never some of two.
    Optional,
}

/// What happens to a player who cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trapped {
    /// The player loses.
    Loses,
    /// The player passes until a move opens up (Shah).
    Passes,
}

/// What happens when placement fills the board (24 men on 24 points, say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FullBoard {
    /// The game is drawn at once.
    Draw,
    /// Play goes on: the player to move is trapped and the `trapped` rule applies (where
    /// trapped players pass, no man can ever move again on the full board: a draw, unless a
    /// removal is to come, as Shah's first mill opens the board).
    PlayOn,
}

/// The rules of a morris game, hashable, and serialised as `name=value` text by `Display` and
/// `FromStr`. Presets are [`MorrisRules::preset`]; every field may be
/// overridden, by name with [`MorrisRules::set`]. [`MorrisRules::validate`] checks a combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MorrisRules {
    /// The board.
    pub board: BoardShape,
    /// Whether the diagonal lines are part of the board (24- and 9-point boards): lines to
    /// move along and, with `diagonal_mills`, mills.
    pub diagonals: bool,
    /// Whether the diagonal lines, where there are any, make mills; `false`: they are for
    /// moving only (the twelve-man sheet's nine-man variation read literally).
    pub diagonal_mills: bool,
    /// Men per side.
    pub men: u8,
    /// A side with this many men or fewer (on the board and in hand) may fly to any empty
    /// point; `None` never flies.
    pub flying: Option<u8>,
    /// Which men a mill may take.
    pub removal: RemovalRule,
    /// What closing two mills at once takes.
    pub double_mill: DoubleMill,
    /// Whether the men a turn earns must be taken.
    pub capture: Capture,
    /// A man that breaks one of its side's mills may not move back to re-form it on its
    /// side's next turn.
    pub no_reforming: bool,
    /// A side with fewer men than this (on the board and in hand) loses.
    pub lose_below: u8,
    /// What happens to a player who cannot move.
    pub trapped: Trapped,
    /// What happens when placement fills the board.
    pub full_board: FullBoard,
    /// While men remain in hand a player may move a man instead of placing one (Lasker).
    pub mixed_placement: bool,
    /// Mills closed while placing take men (false in Shah).
    pub captures_while_placing: bool,
    /// Shah: the player who closed the first mill while placing opens the moving phase by
    /// taking one man.
    pub first_mill_opens: bool,
    /// Shah: the move that leaves the opponent unable to move takes one man (and no mill takes
    /// anything while the opponent stays trapped).
    pub trap_captures: bool,
    /// A mill wins the game at once (Three Men's Morris).
    pub mill_wins: bool,
    /// A draw on the third occurrence of a position.
    pub threefold_repetition: bool,
    /// A draw after this many moves by each side without a man taken or placed.
    pub move_rule: Option<u32>,
    /// The game stops, truncated, after this many plies.
    pub ply_limit: Option<u32>,
}

/// A named preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Preset {
    /// The game id, e.g. `nine_mens_morris`.
    pub id: &'static str,
    /// Other ids that name it.
    pub aliases: &'static [&'static str],
    /// One line about it.
    pub summary: &'static str,
    /// Its rules.
    pub rules: MorrisRules,
}

/// Why a combination of options cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RulesError {
    /// No board of that shape has diagonals.
    #[error("the 16-point board has no diagonal lines")]
    NoDiagonals,
    /// `diagonal_mills = false` on a board without diagonal lines: it would name the same game
    /// as `true`, and rules that play alike are written alike.
    #[error("diagonal_mills=false needs diagonals=true: without diagonal lines there are no diagonal mills to turn off")]
    DiagonalMillsWithoutDiagonals,
    /// Too many or too few men for the board.
    #[error("{men} men per side do not fit the {points}-point board (3 to {max})")]
    Men {
        /// Men asked for.
        men: u8,
        /// Points on the board.
        points: usize,
        /// The most that fit.
        max: usize,
    },
    /// A flying threshold above 3.
    #[error("flying is allowed from 3 men down (or never), not {0}")]
    Flying(u8),
    /// A losing threshold above the men per side.
    #[error("lose_below is {lose_below} but a side has only {men} men")]
    LoseBelow {
        /// The threshold.
        lose_below: u8,
        /// Men per side.
        men: u8,
    },
}

impl MorrisRules {
    /// The rules of Nine Men's Morris as solved by Gasser: 9 men, flying at 3, standard
    /// protection, one man per move, a side loses below 3 men or without a move.
    pub const NINE_MENS_MORRIS: MorrisRules = MorrisRules {
        board: BoardShape::TwentyFour,
        diagonals: false,
        diagonal_mills: true,
        men: 9,
        flying: Some(3),
        removal: RemovalRule::Standard,
        double_mill: DoubleMill::TakeOne,
        capture: Capture::Compulsory,
        no_reforming: false,
        lose_below: 3,
        trapped: Trapped::Loses,
        full_board: FullBoard::Draw,
        mixed_placement: false,
        captures_while_placing: true,
        first_mill_opens: false,
        trap_captures: false,
        mill_wins: false,
        threefold_repetition: true,
        move_rule: Some(50),
        ply_limit: Some(1000),
    };

    /// The twelve-man rule sheet: 12 men, diagonals, no flying, any man may be taken, no
    /// re-forming a just-broken mill with the same man, a side reduced to two loses.
    pub const TWELVE_MENS_MORRIS: MorrisRules = MorrisRules {
        board: BoardShape::TwentyFour,
        diagonals: true,
        men: 12,
        flying: None,
        removal: RemovalRule::Any,
        no_reforming: true,
        ..MorrisRules::NINE_MENS_MORRIS
    };

    /// Every preset, the first of each family being the default.
    pub const PRESETS: &'static [Preset] = &[
        Preset {
            id: "nine_mens_morris",
            aliases: &["cowboy_checkers"],
            summary: "9 men, flying at 3, men in mills safe while others can be taken",
            rules: MorrisRules::NINE_MENS_MORRIS,
        },
        Preset {
            id: "twelve_mens_morris",
            aliases: &[],
            summary: "12 men, diagonals, no flying, any man taken, no re-forming a broken mill",
            rules: MorrisRules::TWELVE_MENS_MORRIS,
        },
        Preset {
            id: "nine_mens_morris_no_flying",
            aliases: &[],
            summary: "the twelve-man sheet's nine-man variation: 9 men, no flying, any man taken",
            // "The diagonal lines ... can no longer be used for the building of mills": read
            // as the nine-man board without them, for moving too (see the module docs).
            rules: MorrisRules {
                diagonals: false,
                men: 9,
                ..MorrisRules::TWELVE_MENS_MORRIS
            },
        },
        Preset {
            id: "shah",
            aliases: &[],
            summary: "12 men, diagonals, no captures while placing, first mill opens, trapped pass",
            rules: MorrisRules {
                captures_while_placing: false,
                first_mill_opens: true,
                trap_captures: true,
                trapped: Trapped::Passes,
                ..MorrisRules::TWELVE_MENS_MORRIS
            },
        },
        Preset {
            id: "lasker_morris",
            aliases: &["lasker"],
            summary: "10 men, moving allowed while men remain in hand, flying at 3",
            rules: MorrisRules {
                men: 10,
                mixed_placement: true,
                ..MorrisRules::NINE_MENS_MORRIS
            },
        },
        Preset {
            id: "morabaraba",
            aliases: &[],
            summary: "12 men, diagonals, flying at 3, men in mills safe while others can be taken",
            rules: MorrisRules {
                diagonals: true,
                men: 12,
                ..MorrisRules::NINE_MENS_MORRIS
            },
        },
        Preset {
            id: "six_mens_morris",
            aliases: &[],
            summary: "16-point board, 6 men, no flying",
            rules: MorrisRules {
                board: BoardShape::Sixteen,
                men: 6,
                flying: None,
                ..MorrisRules::NINE_MENS_MORRIS
            },
        },
        Preset {
            id: "three_mens_morris",
            aliases: &[],
            summary: "3x3 grid with diagonals, 3 men, a mill wins",
            rules: MorrisRules {
                board: BoardShape::Nine,
                diagonals: true,
                men: 3,
                flying: None,
                mill_wins: true,
                ..MorrisRules::NINE_MENS_MORRIS
            },
        },
    ];

    /// The preset called `id` (or one of its aliases).
    #[must_use]
    pub fn preset(id: &str) -> Option<&'static Preset> {
        MorrisRules::PRESETS
            .iter()
            .find(|p| p.id == id || p.aliases.contains(&id))
    }

    /// The board these rules play on.
    pub fn board(&self) -> Result<&'static Board, RulesError> {
        if !self.diagonals && !self.diagonal_mills {
            return Err(RulesError::DiagonalMillsWithoutDiagonals);
        }
        Board::get(self.board, self.diagonals, self.diagonal_mills).ok_or(RulesError::NoDiagonals)
    }

    /// Checks that the options can be played together.
    ///
    /// Flying is bounded at 3 men and a move takes at most two men; together these keep every
    /// position's list of turns within [`super::MOVE_CAPACITY`].
    pub fn validate(&self) -> Result<&'static Board, RulesError> {
        let board = self.board()?;
        let points = board.point_count();
        let max = points / 2;
        if self.men < 3 || usize::from(self.men) > max {
            return Err(RulesError::Men {
                men: self.men,
                points,
                max,
            });
        }
        if let Some(n) = self.flying {
            if n > 3 {
                return Err(RulesError::Flying(n));
            }
        }
        if self.lose_below > self.men {
            return Err(RulesError::LoseBelow {
                lose_below: self.lose_below,
                men: self.men,
            });
        }
        Ok(board)
    }

    /// Every option [`MorrisRules::set`] accepts.
    pub const OPTIONS: &'static [RuleOption] = &[
        RuleOption {
            name: "board",
            expected: "24, 16 or 9",
            help: "points on the board",
        },
        RuleOption {
            name: "diagonals",
            expected: "true or false",
            help: "diagonal lines on the 24- or 9-point board",
        },
        RuleOption {
            name: "diagonal_mills",
            expected: "true or false",
            help: "whether the diagonal lines make mills (false: for moving only)",
        },
        RuleOption {
            name: "men",
            expected: "3 to half the points",
            help: "men per side",
        },
        RuleOption {
            name: "flying",
            expected: "1 to 3, or none (0)",
            help: "a side down to this many men may fly",
        },
        RuleOption {
            name: "removal",
            expected: "standard, any or mill_immunity",
            help: "which men a mill may take",
        },
        RuleOption {
            name: "double_mill",
            expected: "one or two",
            help: "men taken when one move closes two mills",
        },
        RuleOption {
            name: "capture",
            expected: "compulsory or optional",
            help: "whether a player must take the men a mill earns (optional: all or none)",
        },
        RuleOption {
            name: "no_reforming",
            expected: "true or false",
            help: "a man that breaks a mill may not re-form it on its side's next turn",
        },
        RuleOption {
            name: "lose_below",
            expected: "a number of men",
            help: "a side with fewer men loses",
        },
        RuleOption {
            name: "trapped",
            expected: "loses or passes",
            help: "what happens to a player who cannot move",
        },
        RuleOption {
            name: "full_board",
            expected: "draw or play_on",
            help: "what happens when placement fills the board (play_on: the trapped rule \
                   decides; where trapped players pass, a draw all the same)",
        },
        RuleOption {
            name: "mixed_placement",
            expected: "true or false",
            help: "moving allowed while men remain in hand (Lasker)",
        },
        RuleOption {
            name: "captures_while_placing",
            expected: "true or false",
            help: "mills closed while placing take men",
        },
        RuleOption {
            name: "first_mill_opens",
            expected: "true or false",
            help: "Shah: the first mill while placing earns the opening removal",
        },
        RuleOption {
            name: "trap_captures",
            expected: "true or false",
            help: "Shah: trapping the opponent takes a man",
        },
        RuleOption {
            name: "mill_wins",
            expected: "true or false",
            help: "a mill wins the game at once",
        },
        RuleOption {
            name: "threefold_repetition",
            expected: "true or false",
            help: "draw on the third occurrence of a position",
        },
        RuleOption {
            name: "move_rule",
            expected: "moves per side, or none (0)",
            help: "draw after this many moves each without a man taken or placed",
        },
        RuleOption {
            name: "ply_limit",
            expected: "plies, or none (0)",
            help: "stop the game, truncated, after this many plies",
        },
    ];

    /// Sets one option by name from its text value. It does not validate the combination;
    /// [`MorrisRules::validate`] does.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        let v = value.trim().to_ascii_lowercase();
        let number = |expected| {
            v.parse::<u8>()
                .map_err(|_| bad_value(name, value, expected))
        };
        match name {
            "board" => {
                self.board = match v.as_str() {
                    "24" => BoardShape::TwentyFour,
                    "16" => BoardShape::Sixteen,
                    "9" => BoardShape::Nine,
                    _ => return Err(bad_value(name, value, "24, 16 or 9")),
                }
            }
            "diagonals" => self.diagonals = parse_bool(name, value)?,
            "diagonal_mills" => self.diagonal_mills = parse_bool(name, value)?,
            "men" => self.men = number("a number of men")?,
            "flying" => {
                self.flying = match v.as_str() {
                    "none" | "never" | "off" | "false" => None,
                    // Zero, however written (`00`), is never.
                    _ => Some(number("1 to 3, or none (0)")?).filter(|&men| men > 0),
                }
            }
            "removal" => {
                self.removal = match v.as_str() {
                    "standard" => RemovalRule::Standard,
                    "any" => RemovalRule::Any,
                    "mill_immunity" | "immunity" => RemovalRule::MillImmunity,
                    _ => return Err(bad_value(name, value, "standard, any or mill_immunity")),
                }
            }
            "double_mill" => {
                self.double_mill = match v.as_str() {
                    "one" | "1" => DoubleMill::TakeOne,
                    "two" | "2" => DoubleMill::TakeTwo,
                    _ => return Err(bad_value(name, value, "one or two")),
                }
            }
            "capture" => {
                self.capture = match v.as_str() {
                    "compulsory" | "forced" => Capture::Compulsory,
                    "optional" => Capture::Optional,
                    _ => return Err(bad_value(name, value, "compulsory or optional")),
                }
            }
            "no_reforming" => self.no_reforming = parse_bool(name, value)?,
            "lose_below" => self.lose_below = number("a number of men")?,
            "trapped" => {
                self.trapped = match v.as_str() {
                    "loses" | "lose" => Trapped::Loses,
                    "passes" | "pass" => Trapped::Passes,
                    _ => return Err(bad_value(name, value, "loses or passes")),
                }
            }
            "full_board" => {
                self.full_board = match v.as_str() {
                    "draw" => FullBoard::Draw,
                    "play_on" => FullBoard::PlayOn,
                    _ => return Err(bad_value(name, value, "draw or play_on")),
                }
            }
            "mixed_placement" => self.mixed_placement = parse_bool(name, value)?,
            "captures_while_placing" => self.captures_while_placing = parse_bool(name, value)?,
            "first_mill_opens" => self.first_mill_opens = parse_bool(name, value)?,
            "trap_captures" => self.trap_captures = parse_bool(name, value)?,
            "mill_wins" => self.mill_wins = parse_bool(name, value)?,
            "threefold_repetition" => self.threefold_repetition = parse_bool(name, value)?,
            "move_rule" => self.move_rule = parse_limit(name, value)?,
            "ply_limit" => self.ply_limit = parse_limit(name, value)?,
            _ => return Err(unknown(name, Self::OPTIONS)),
        }
        Ok(())
    }

    /// The options as `name=value` pairs, in the order of [`MorrisRules::OPTIONS`].
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let limit = |l: Option<u32>| l.map_or("none".to_owned(), |n| n.to_string());
        vec![
            ("board", self.board.points().to_string()),
            ("diagonals", self.diagonals.to_string()),
            ("diagonal_mills", self.diagonal_mills.to_string()),
            ("men", self.men.to_string()),
            (
                "flying",
                self.flying.map_or("none".to_owned(), |n| n.to_string()),
            ),
            (
                "removal",
                match self.removal {
                    RemovalRule::Standard => "standard",
                    RemovalRule::Any => "any",
                    RemovalRule::MillImmunity => "mill_immunity",
                }
                .to_owned(),
            ),
            (
                "double_mill",
                match self.double_mill {
                    DoubleMill::TakeOne => "one",
                    DoubleMill::TakeTwo => "two",
                }
                .to_owned(),
            ),
            (
                "capture",
                match self.capture {
                    Capture::Compulsory => "compulsory",
                    Capture::Optional => "optional",
                }
                .to_owned(),
            ),
            ("no_reforming", self.no_reforming.to_string()),
            ("lose_below", self.lose_below.to_string()),
            (
                "trapped",
                match self.trapped {
                    Trapped::Loses => "loses",
                    Trapped::Passes => "passes",
                }
                .to_owned(),
            ),
            (
                "full_board",
                match self.full_board {
                    FullBoard::Draw => "draw",
                    FullBoard::PlayOn => "play_on",
                }
                .to_owned(),
            ),
            ("mixed_placement", self.mixed_placement.to_string()),
            (
                "captures_while_placing",
                self.captures_while_placing.to_string(),
            ),
            ("first_mill_opens", self.first_mill_opens.to_string()),
            ("trap_captures", self.trap_captures.to_string()),
            ("mill_wins", self.mill_wins.to_string()),
            (
                "threefold_repetition",
                self.threefold_repetition.to_string(),
            ),
            ("move_rule", limit(self.move_rule)),
            ("ply_limit", limit(self.ply_limit)),
        ]
    }
}

impl std::str::FromStr for MorrisRules {
    type Err = RuleOptionError;

    /// Reads `name=value` pairs separated by spaces (what `Display` writes), each applied over
    /// the Nine Men's Morris rules. This is the rules' serialised form: a database records it.
    ///
    /// ```
    /// use perfectplay_core::morris::MorrisRules;
    /// let rules = MorrisRules::TWELVE_MENS_MORRIS;
    /// assert_eq!(rules.to_string().parse::<MorrisRules>().unwrap(), rules);
    /// assert!("men=9 wings=2".parse::<MorrisRules>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<MorrisRules, RuleOptionError> {
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        for pair in text.split_whitespace() {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| bad_value(pair, "", "name=value"))?;
            rules.set(name, value)?;
        }
        Ok(rules)
    }
}

/// Options added after databases were first written, with the value every earlier database
/// was built under. The serialised rules leave an option out at that value, so that the rules
/// text of a database header, which must match exactly, stays what it was: tables built
/// before the option existed open under it, and rebuilding them gives the same bytes.
const LATER_OPTIONS: &[(&str, &str)] = &[("diagonal_mills", "true"), ("capture", "compulsory")];

impl fmt::Display for MorrisRules {
    /// `name=value` pairs separated by spaces, every option in the order of
    /// [`MorrisRules::OPTIONS`] but those added later at their former value (`capture` when
    /// compulsory, `diagonal_mills` when true), which reading fills in.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .settings()
            .iter()
            .filter(|(k, v)| !LATER_OPTIONS.contains(&(*k, v.as_str())))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

impl RuleSet for MorrisRules {
    const OPTIONS: &'static [RuleOption] = MorrisRules::OPTIONS;

    fn set(&mut self, name: &str, value: &str) -> Result<(), RuleOptionError> {
        MorrisRules::set(self, name, value)
    }

    fn values(&self) -> Vec<(&'static str, String)> {
        self.settings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_validate_and_ids_are_unique() {
        let mut ids = Vec::new();
        for p in MorrisRules::PRESETS {
            p.rules
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", p.id));
            ids.push(p.id);
            ids.extend(p.aliases);
        }
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n);
        assert_eq!(
            MorrisRules::preset("cowboy_checkers").unwrap().id,
            "nine_mens_morris"
        );
        assert!(MorrisRules::preset("chess").is_none());
    }

    #[test]
    fn every_option_round_trips_through_set() {
        for p in MorrisRules::PRESETS {
            let mut rules = MorrisRules::NINE_MENS_MORRIS;
            for (name, value) in p.rules.settings() {
                rules.set(name, &value).unwrap();
            }
            assert_eq!(rules, p.rules, "{}", p.id);
        }
        assert_eq!(
            MorrisRules::OPTIONS.len(),
            MorrisRules::NINE_MENS_MORRIS.settings().len()
        );
    }

    #[test]
    fn later_options_at_their_former_value_leave_the_rules_text_as_it_was() {
        // The text every database header written before `capture` existed carries.
        assert_eq!(
            MorrisRules::NINE_MENS_MORRIS.to_string(),
            "board=24 diagonals=false men=9 flying=3 removal=standard double_mill=one \
             no_reforming=false lose_below=3 trapped=loses full_board=draw \
             mixed_placement=false captures_while_placing=true first_mill_opens=false \
             trap_captures=false mill_wins=false threefold_repetition=true move_rule=50 \
             ply_limit=1000"
        );
        let mut optional = MorrisRules::TWELVE_MENS_MORRIS;
        optional.set("capture", "Optional").unwrap();
        assert_eq!(optional.capture, Capture::Optional);
        let text = optional.to_string();
        assert!(text.contains(" capture=optional "), "{text}");
        assert_eq!(text.parse::<MorrisRules>().unwrap(), optional);
        assert!(matches!(
            optional.set("capture", "sometimes"),
            Err(RuleOptionError::BadValue { .. })
        ));
    }

    #[test]
    fn bad_options_are_refused() {
        let mut r = MorrisRules::NINE_MENS_MORRIS;
        assert!(matches!(
            r.set("men", "many"),
            Err(RuleOptionError::BadValue { .. })
        ));
        assert!(matches!(
            r.set("wings", "true"),
            Err(RuleOptionError::Unknown { .. })
        ));
        r.set("board", "16").unwrap();
        r.set("diagonals", "true").unwrap();
        assert_eq!(r.validate(), Err(RulesError::NoDiagonals));
        let mut r = MorrisRules::NINE_MENS_MORRIS;
        r.set("men", "13").unwrap();
        assert!(matches!(r.validate(), Err(RulesError::Men { .. })));
        let mut r = MorrisRules::NINE_MENS_MORRIS;
        r.set("flying", "4").unwrap();
        assert_eq!(r.validate(), Err(RulesError::Flying(4)));
        let mut r = MorrisRules::NINE_MENS_MORRIS;
        r.set("diagonal_mills", "false").unwrap();
        assert_eq!(r.validate(), Err(RulesError::DiagonalMillsWithoutDiagonals));
        r.set("diagonals", "true").unwrap();
        assert!(!r.validate().unwrap().has_diagonal_mills());
        let text = r.to_string();
        assert!(text.contains(" diagonal_mills=false "), "{text}");
        assert_eq!(text.parse::<MorrisRules>(), Ok(r));
    }
}
