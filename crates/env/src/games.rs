//! The two families behind one interface: [`Family`] adds what Python needs to the core's
//! [`ActionGame`], and [`AnyGame`] holds either game, loaded by id with rule options.
//!
//! Everything Python calls is written once, generic over `F: Family`, and reached through the
//! [`with_family!`] macro, which matches an enum of the two families and runs the same code on
//! either.

use std::fmt;

use perfectplay_core::checkers::{self, Checkers, CheckersRules, Position};
use perfectplay_core::morris::actions::Stage;
use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition, MorrisRules};
use perfectplay_core::ActionGame;

use crate::actions::ActionSet;
use crate::error::{Error, Result};

/// Runs `$body` with `$g` bound to the value inside either variant of an enum whose variants
/// are `Checkers` and `Morris`, so that one generic expression serves both families.
#[macro_export]
macro_rules! with_family {
    ($enum:ident, $value:expr, $g:pat => $body:expr) => {
        match $value {
            $enum::Checkers($g) => $body,
            $enum::Morris($g) => $body,
        }
    };
}

/// A game family as Python sees it: the core's action game plus notation, position strings,
/// pictures and rule settings.
pub trait Family:
    ActionGame<Position: Send + Sync, Stage: Send + Sync, Move: Send + Sync>
    + Copy
    + Send
    + Sync
    + 'static
{
    /// The family's name: `checkers` or `morris`.
    const FAMILY: &'static str;

    /// Reads a move in standard notation and finds it among the legal moves of `pos`.
    fn parse_move_text(&self, pos: &Self::Position, text: &str) -> Result<Self::Move>;

    /// The position string of `pos`, reached after `no_progress` plies without progress
    /// (morris strings record them; checkers FEN does not).
    fn position_fen(&self, pos: &Self::Position, no_progress: u32) -> String;

    /// Reads a position string: the position and the plies without progress it records.
    fn read_fen(&self, text: &str) -> Result<(Self::Position, u32)>;

    /// The ASCII drawing of `pos`.
    fn diagram(&self, pos: &Self::Position) -> String;

    /// The SVG drawing of `pos`.
    fn picture(&self, pos: &Self::Position) -> String;

    /// Every rule option with its value, as text that the rules' `set` reads back.
    fn settings(&self) -> Vec<(&'static str, String)>;

    /// Makes `set` the legal actions of `pos` at `stage`, as
    /// [`ActionGame::for_each_legal_action_group`] visits them, and returns their number.
    fn fill_legal_actions(
        &self,
        pos: &Self::Position,
        stage: &Self::Stage,
        set: &mut ActionSet,
    ) -> usize {
        visit_legal_actions(self, pos, stage, set)
    }

    /// The move as a value of either family.
    fn wrap_move(mv: Self::Move) -> AnyMove;

    /// The move, if it belongs to this family.
    fn unwrap_move(mv: &AnyMove) -> Option<Self::Move>;
}

/// Makes `set` the legal actions of `pos` at `stage` as
/// [`ActionGame::for_each_legal_action_group`] visits them, and returns their number.
fn visit_legal_actions<G: ActionGame>(
    game: &G,
    pos: &G::Position,
    stage: &G::Stage,
    set: &mut ActionSet,
) -> usize {
    *set = ActionSet::default();
    game.for_each_legal_action_group(pos, stage, |first, bits| {
        set.insert_group(first, bits);
    });
    set.len()
}

impl Family for Checkers {
    const FAMILY: &'static str = "checkers";

    fn parse_move_text(&self, pos: &Position, text: &str) -> Result<checkers::Move> {
        Ok(pos.parse_move(text)?)
    }

    fn position_fen(&self, pos: &Position, _no_progress: u32) -> String {
        pos.fen()
    }

    fn read_fen(&self, text: &str) -> Result<(Position, u32)> {
        Ok((checkers::fen::parse(text)?, 0))
    }

    fn diagram(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn picture(&self, pos: &Position) -> String {
        self.svg(pos)
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.rules().settings()
    }

    fn wrap_move(mv: checkers::Move) -> AnyMove {
        AnyMove::Checkers(mv)
    }

    fn unwrap_move(mv: &AnyMove) -> Option<checkers::Move> {
        match mv {
            AnyMove::Checkers(mv) => Some(*mv),
            AnyMove::Morris(_) => None,
        }
    }
}

impl Family for Morris {
    const FAMILY: &'static str = "morris";

    fn parse_move_text(&self, pos: &MorrisPosition, text: &str) -> Result<MorrisMove> {
        Ok(self.parse_move(pos, text)?)
    }

    fn position_fen(&self, pos: &MorrisPosition, no_progress: u32) -> String {
        self.fen(pos, no_progress)
    }

    fn read_fen(&self, text: &str) -> Result<(MorrisPosition, u32)> {
        Ok(self.parse_fen(text)?)
    }

    fn diagram(&self, pos: &MorrisPosition) -> String {
        Morris::diagram(self, pos)
    }

    fn picture(&self, pos: &MorrisPosition) -> String {
        self.svg(pos)
    }

    fn settings(&self) -> Vec<(&'static str, String)> {
        self.rules().settings()
    }

    fn fill_legal_actions(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        set: &mut ActionSet,
    ) -> usize {
        // At the start of a turn the set is built in registers, in a pass of fixed length (envs
        // fill a set at every step, and the visit's loop over the men mispredicted).
        self.write_start_actions(pos, stage, set.words_mut())
            .unwrap_or_else(|| visit_legal_actions(self, pos, stage, set))
    }

    fn wrap_move(mv: MorrisMove) -> AnyMove {
        AnyMove::Morris(mv)
    }

    fn unwrap_move(mv: &AnyMove) -> Option<MorrisMove> {
        match mv {
            AnyMove::Morris(mv) => Some(*mv),
            AnyMove::Checkers(_) => None,
        }
    }
}

/// A move of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A checkers move.
    Checkers(checkers::Move),
    /// A morris turn.
    Morris(MorrisMove),
}

impl AnyMove {
    /// Whether the move takes a piece.
    pub fn is_capture(&self) -> bool {
        match self {
            AnyMove::Checkers(mv) => mv.is_capture(),
            AnyMove::Morris(mv) => mv.is_capture(),
        }
    }

    /// The family the move belongs to.
    pub fn family(&self) -> &'static str {
        match self {
            AnyMove::Checkers(_) => Checkers::FAMILY,
            AnyMove::Morris(_) => Morris::FAMILY,
        }
    }
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_family!(AnyMove, self, mv => fmt::Display::fmt(mv, f))
    }
}

/// A game of either family, with its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyGame {
    /// English checkers.
    Checkers(Checkers),
    /// A morris game.
    Morris(Morris),
}

/// The id of English checkers.
const CHECKERS_ID: &str = "checkers";

/// Every game id, checkers first, then the morris presets; with `aliases`, each id is followed
/// by its other names.
pub fn game_ids(aliases: bool) -> Vec<&'static str> {
    let mut ids = vec![CHECKERS_ID];
    for preset in MorrisRules::PRESETS {
        ids.push(preset.id);
        if aliases {
            ids.extend(preset.aliases.iter().copied());
        }
    }
    ids
}

/// Loads the game `id` (an id or alias, case-insensitive) with each `(name, value)` rule
/// option set in order; returns the canonical id and the game.
pub fn load(id: &str, options: &[(String, String)]) -> Result<(&'static str, AnyGame)> {
    let wanted = id.trim().to_ascii_lowercase();
    if wanted == CHECKERS_ID {
        let mut rules = CheckersRules::default();
        for (name, value) in options {
            rules.set(name, value)?;
        }
        return Ok((CHECKERS_ID, AnyGame::Checkers(Checkers::new(rules))));
    }
    let preset = MorrisRules::preset(&wanted).ok_or_else(|| Error::UnknownGame {
        id: id.to_owned(),
        valid: game_ids(true).join(", "),
    })?;
    let mut rules = preset.rules;
    for (name, value) in options {
        rules.set(name, value)?;
    }
    Ok((preset.id, AnyGame::Morris(Morris::new(rules)?)))
}

/// The documented rule options of the game `id`: name, values taken, and what it does.
pub fn rule_options(game: &AnyGame) -> &'static [perfectplay_core::RuleOption] {
    match game {
        AnyGame::Checkers(_) => CheckersRules::OPTIONS,
        AnyGame::Morris(_) => MorrisRules::OPTIONS,
    }
}
