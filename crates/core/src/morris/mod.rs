//! The morris family: Nine and Twelve Men's Morris, their variations, Lasker Morris, Morabaraba,
//! Shah, and the small relatives Six and Three Men's Morris.
//!
//! # Boards and rules are data
//!
//! A [`Board`] is its points, lines and mills as bitboard tables; [`MorrisRules`] holds every
//! option and [`MorrisRules::PRESETS`] names the standard games (`nine_mens_morris`, alias
//! `cowboy_checkers`; `twelve_mens_morris`; `nine_mens_morris_no_flying`; `shah`;
//! `lasker_morris`; `morabaraba`; `six_mens_morris`; `three_mens_morris`). [`Morris::preset`]
//! loads one; any option can be overridden with [`MorrisRules::set`].
//!
//! # The rules
//!
//! From the rule sheets ("Cowboy Checkers", where a mill is a posse; the twelve-man sheet with
//! its nine-man variation and Shah) and, where they are silent, the literature and the best mill
//! programs:
//!
//! - White moves first. Players place their men one at a time on empty points; then they slide
//!   a man along a line to a free neighbouring point. A side with at most `flying` men (3 in
//!   Nine Men's Morris; counted on the board and in hand) may fly to any empty point instead.
//!   With `mixed_placement` (Lasker) a player may move instead of placing while men remain in
//!   hand.
//! - A placement, slide or flight that completes a line of three of the mover's men through the
//!   point it arrives on closes a mill and takes an opponent's man from the board, in the same
//!   turn. By default the capture always happens (`capture = compulsory`): the twelve-man
//!   sheet's "they can capture" is read as the "Cowboy Checkers" sheet's "he removes one of
//!   his opponent's pieces" and as mill programs play it. With `capture = optional` (the
//!   sheet's words taken literally) every turn that earns men may take none instead, all or
//!   nothing (a double mill under `double_mill = two` takes two or none; Shah's opening
//!   removal and the trapping capture may be declined too, the opening removal by a pass,
//!   which leaves the board full with no man in hand: a draw).
//!   A declined capture is written as the bare move (`a1-a4`), and in the action space it is
//!   the pass action at the removal stage. Which men may be taken is the `removal` rule: `standard` protects men in mills unless
//!   all of the opponent's men are in mills; `any`; `mill_immunity` protects men in mills always,
//!   and if all are in mills nothing is taken. Closing two mills at once takes one man, or two
//!   with `double_mill = two` (the pair is legal if one of its orders is; if only one man can be
//!   taken, one is). A man moved back into the same mill later closes it again (the
//!   "Cowboy Checkers" sheet allows this), except with `no_reforming`: then the man that broke
//!   the mill may not move back to re-form it on its side's very next turn.
//! - The twelve-man sheet's nine-man variation (`nine_mens_morris_no_flying`), where the
//!   diagonal lines "can no longer be used for the building of mills", is played on the
//!   nine-man board without them, for moving too, as every other description of the nine-man
//!   game has it. Read literally, the diagonals stay lines to move along that make no mills:
//!   `diagonals = true` with `diagonal_mills = false` (on the 9-point board too).
//! - A side with fewer than `lose_below` (3) men, on the board and in hand, loses. A side to move
//!   with no placement, slide or flight loses, or with `trapped = passes` (Shah) passes.
//! - If placement fills the board with no man in hand (Twelve Men's Morris without a mill), the
//!   game is a draw (`full_board = draw`), or play goes on (`play_on`), the trapped rule then
//!   deciding: the side to move loses, or, where trapped players pass, it is a draw all the
//!   same (no man could ever move again; the sides would pass for ever), so that with
//!   `trapped = passes` the two settings play alike (their tables still carry their own
//!   rules text, and are read under it).
//! - Shah: mills closed while placing take nothing; the player who closed the first mill while
//!   placing opens the moving phase by taking one man (a turn of its own, written `xd7`), then
//!   the other player moves. If nobody closed a mill, nobody makes the opening removal: the
//!   board is full and the full-board rule applies (a draw). The slide that leaves the opponent
//!   unable to move takes one man (instead of what its mills would take); while the opponent
//!   stays trapped, mills take nothing.
//! - `mill_wins` (Three Men's Morris): the first mill wins the game.
//! - Draws: threefold repetition, `move_rule` moves by each side (50) without a man placed or
//!   taken, and a ply limit (truncation).
//!
//! # Notation and positions
//!
//! A turn is one [`MorrisMove`], written as mill programs write it: `d6` (placement), `a1-a4`
//! (slide or flight), `a1-a4xd7` and `d6xb4` (with the man taken), `xd7` (Shah's opening
//! removal), `pass`. Positions are read and written with [`fen`]. [`actions`] factors turns into
//! a fixed action space for reinforcement learning.

pub(crate) mod action_words;
pub mod actions;
pub(crate) mod board;
mod display;
pub mod fen;
mod movegen;
mod mv;
mod notation;
pub(crate) mod observation;
mod position;
mod retro;
mod rules;
mod stage;
mod svg;
mod zobrist;

use arrayvec::ArrayVec;
use thiserror::Error;

pub use self::action_words::ACTION_WORDS;
pub use self::board::{
    Board, BoardShape, BOARD_16, BOARD_24, BOARD_24_DIAGONALS, BOARD_24_DIAGONAL_MOVES, BOARD_9,
    BOARD_9_DIAGONAL_MOVES, BOARD_9_ORTHOGONAL, MAX_MILLS, MAX_POINTS,
};
pub use self::mv::{MorrisMove, MoveKind};
pub use self::notation::{MorrisMoveError, ParseMorrisMoveError};
pub use self::position::{Barrier, MorrisPosition};
pub use self::rules::{
    Capture, DoubleMill, FullBoard, MorrisRules, Preset, RemovalRule, RulesError, Trapped,
};

use crate::game::{DrawRules, Game, MoveBuffer, Outcome};
use crate::Color;

/// Room for every legal turn of any position under rules that pass [`MorrisRules::validate`].
///
/// A turn takes at most two men. Without a double mill a position has at most 5 base moves per
/// empty point (4 slides in, one placement) or, flying with at most 3 men, 4 per empty point,
/// each taking one of at most 12 men: 5 x 21 x 12 / 2 fits easily. A double mill needs at least
/// 5 of the mover's men, leaving at most 19 - T empty points for T opponent men, each giving at
/// most 5 base moves with C(T, 2) pairs, and one taking nothing where capture is optional:
/// 5 (19 - T) (T (T - 1) / 2 + 1) peaks at 2,345 (T = 12).
pub const MOVE_CAPACITY: usize = 2560;

/// A fixed-capacity list of turns.
pub type MorrisMoveList = ArrayVec<MorrisMove, MOVE_CAPACITY>;

/// An id that names no preset.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown morris game `{id}`; valid games: {valid}")]
pub struct UnknownGameError {
    /// The id given.
    pub id: String,
    /// The valid ids, comma separated.
    pub valid: String,
}

/// A morris game under a set of [`MorrisRules`]; implements [`Game`]. Equality and hashing
/// go by the rules (the board follows from them).
///
/// ```
/// use perfectplay_core::morris::Morris;
/// use perfectplay_core::{perft, Game};
/// let game = Morris::preset("nine_mens_morris").unwrap();
/// assert_eq!(perft(&game, &game.start_position(), 2), 552);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Morris {
    rules: MorrisRules,
    board: &'static Board,
}

impl PartialEq for Morris {
    fn eq(&self, other: &Morris) -> bool {
        self.rules == other.rules
    }
}

impl Eq for Morris {}

impl std::hash::Hash for Morris {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rules.hash(state);
    }
}

impl Morris {
    /// The game under `rules`, if they can be played together.
    pub fn new(rules: MorrisRules) -> Result<Morris, RulesError> {
        let board = rules.validate()?;
        Ok(Morris { rules, board })
    }

    /// The preset called `id` (see [`MorrisRules::PRESETS`]).
    pub fn preset(id: &str) -> Result<Morris, UnknownGameError> {
        let preset = MorrisRules::preset(id).ok_or_else(|| UnknownGameError {
            id: id.to_owned(),
            valid: MorrisRules::PRESETS
                .iter()
                .map(|p| p.id)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        Ok(Morris::new(preset.rules).expect("presets are valid"))
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &MorrisRules {
        &self.rules
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &'static Board {
        self.board
    }
}

impl Game for Morris {
    type Position = MorrisPosition;
    type Move = MorrisMove;
    type MoveList = MorrisMoveList;

    fn id(&self) -> &'static str {
        MorrisRules::PRESETS
            .iter()
            .find(|p| p.rules == self.rules)
            .map_or("morris", |p| p.id)
    }

    fn start_position(&self) -> MorrisPosition {
        MorrisPosition::start(self.rules.men, Color::White)
    }

    fn first_to_move(&self) -> Color {
        Color::White
    }

    fn side_to_move(&self, pos: &MorrisPosition) -> Color {
        pos.side_to_move()
    }

    fn generate_moves(&self, pos: &MorrisPosition, moves: &mut MorrisMoveList) {
        moves.clear();
        self.for_each_turn(pos, |mv| moves.push_move(*mv));
    }

    fn for_each_move<F: FnMut(&MorrisMove)>(&self, pos: &MorrisPosition, visit: F) {
        self.for_each_turn(pos, visit);
    }

    fn count_moves(&self, pos: &MorrisPosition) -> u64 {
        let mut n = 0;
        self.for_each_turn(pos, |_| n += 1);
        n
    }

    #[inline]
    fn play(&self, pos: &MorrisPosition, mv: &MorrisMove) -> MorrisPosition {
        self.play_turn(pos, mv)
    }

    #[inline]
    fn play_in_place(&self, pos: &mut MorrisPosition, mv: &MorrisMove) {
        self.play_turn_in_place(pos, mv);
    }

    fn pass_turn(&self, pos: &MorrisPosition) -> MorrisPosition {
        self.play_turn(pos, &MorrisMove::pass(self.board.shape()))
    }

    fn outcome(&self, pos: &MorrisPosition) -> Option<Outcome> {
        self.position_outcome(pos)
    }

    fn is_progress(&self, _pos: &MorrisPosition, mv: &MorrisMove) -> bool {
        mv.is_capture() || matches!(mv.kind(), MoveKind::Place { .. })
    }

    fn hash(&self, pos: &MorrisPosition) -> u64 {
        pos.zobrist()
    }

    fn identity(&self, pos: &MorrisPosition) -> u128 {
        // 17 bits a memory: whether there is one, the man's point, the point it left.
        let barrier = |color| {
            pos.barrier(color).map_or(0, |b| {
                1 << 16 | u128::from(b.man) << 8 | u128::from(b.point)
            })
        };
        let first_mill = pos.first_mill().map_or(0, |c| 1 + c.index() as u128);
        u128::from(pos.men(Color::White).0)
            | u128::from(pos.men(Color::Black).0) << 32
            | u128::from(pos.in_hand(Color::White)) << 64
            | u128::from(pos.in_hand(Color::Black)) << 72
            | (pos.side_to_move().index() as u128) << 80
            | barrier(Color::White) << 81
            | barrier(Color::Black) << 98
            | first_mill << 115
            | u128::from(pos.opening_removal_pending()) << 117
    }

    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetitions: self.rules.threefold_repetition.then_some(3),
            no_progress_plies: self.rules.move_rule.map(|m| m.saturating_mul(2)),
            ply_limit: self.rules.ply_limit,
        }
    }
}

#[cfg(test)]
mod tests;

/// A preset of each board: the 24 points without and with diagonals, 16 and 9 points.
#[cfg(test)]
pub(crate) const ONE_PRESET_PER_BOARD: [&str; 4] = [
    "nine_mens_morris",
    "twelve_mens_morris",
    "six_mens_morris",
    "three_mens_morris",
];
