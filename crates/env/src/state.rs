//! `State`: a game in progress as Python's `State` holds it: an [`ActionState`] (position, history
//! and the rules that depend on it, the stage of the turn) and the actions of the turn being
//! made, for undo.

pub use perfectplay_core::record::FORFEIT;
use perfectplay_core::record::{RecordError, RecordResult, Tags};
use perfectplay_core::{perft, EndReason, History, Outcome, PlayError};

use crate::actions::ActionSet;
use crate::error::{Error, Result};
use perfectplay_core::registry::AnyMove;

use crate::action_state::ActionState;
use crate::games::Family;

/// pyspiel's player id for a terminal state, which `current_player` returns once a game is
/// over.
pub const TERMINAL_PLAYER: i32 = -4;

/// How a game ended, in the terms Python reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner's player index (0 moved first), or `None` for a draw or a truncation.
    pub winner: Option<usize>,
    /// The winner's colour name.
    pub winner_color: Option<&'static str>,
    /// Why the game ended.
    pub reason: &'static str,
    /// Whether the ply limit cut the game short (no result).
    pub truncated: bool,
}

/// The name Python uses for an end reason.
pub fn reason_name(reason: EndReason) -> &'static str {
    match reason {
        EndReason::NoMoves => "no moves",
        EndReason::NoMen => "no men",
        EndReason::Mill => "mill",
        EndReason::BoardFull => "board full",
        EndReason::Repetition => "repetition",
        EndReason::MoveRule => "move rule",
        EndReason::Adjudication => "adjudication",
        EndReason::PlyLimit => "ply limit",
        _ => "other",
    }
}

/// `outcome` in Python's terms for `game`.
pub fn ending<F: Family>(game: &F, outcome: &Outcome) -> Ending {
    Ending {
        winner: outcome
            .winner
            .map(|c| usize::from(c != game.first_to_move())),
        winner_color: outcome.winner.map(|c| c.name()),
        reason: reason_name(outcome.reason),
        truncated: outcome.is_truncation(),
    }
}

/// The returns of both players: 1 for a win, -1 for a loss, 0 for a draw, a truncated game or
/// a game still going on.
pub fn returns<F: Family>(game: &F, outcome: Option<&Outcome>) -> [f32; 2] {
    let Some(outcome) = outcome else {
        return [0.0; 2];
    };
    let first = game.first_to_move();
    [
        f32::from(outcome.score(first)),
        f32::from(outcome.score(!first)),
    ]
}

/// What rebuilds a [`State`] exactly (Python's pickling): the position string the game started
/// from, the plies played since in standard notation ([`FORFEIT`] for a forfeited turn), and
/// the actions of the turn being made.
/// Replaying them restores the history that repetition and undo need, which a position string
/// alone would lose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position string the game started from.
    pub origin: String,
    /// The plies played since: each move in standard notation, or [`FORFEIT`].
    pub moves: Vec<String>,
    /// The actions of the turn being made.
    pub actions: Vec<usize>,
}

/// A game in progress and the actions of the turn being made.
#[derive(Clone, Debug)]
pub struct State<F: Family> {
    /// The game's id.
    pub id: &'static str,
    inner: ActionState<F>,
    /// The half-made turn: each action made so far with the stage it was made at.
    turn: Vec<(F::Stage, usize)>,
}

impl<F: Family> State<F> {
    /// A new game from the start.
    pub fn new(id: &'static str, game: F) -> Self {
        State {
            id,
            inner: ActionState::new(game, game.start_position(), 0, History::Full),
            turn: Vec::new(),
        }
    }

    /// A new game from `pos`.
    pub fn at(id: &'static str, game: F, pos: F::Position) -> Self {
        State {
            id,
            inner: ActionState::new(game, pos, 0, History::Full),
            turn: Vec::new(),
        }
    }

    /// A new game from a position string.
    pub fn from_fen(id: &'static str, game: F, text: &str) -> Result<Self> {
        let (pos, no_progress) = game.read_position(text).map_err(Into::into)?;
        Ok(State {
            id,
            inner: ActionState::new(game, pos, no_progress, History::Full),
            turn: Vec::new(),
        })
    }

    /// A game rebuilt from its [`Record`]; a record that does not replay (edited by hand, or
    /// from other rules) is refused with the error of the first step that fails.
    pub fn from_record(id: &'static str, game: F, record: &Record) -> Result<Self> {
        let mut state = State::from_fen(id, game, &record.origin)?;
        for text in &record.moves {
            if text == FORFEIT {
                state.forfeit_turn()?;
            } else {
                state.apply_text(text)?;
            }
        }
        for &action in &record.actions {
            match i64::try_from(action) {
                Ok(action) => state.apply_action(action)?,
                // Named as given, not wrapped into a negative one.
                Err(_) => return Err(state.refuse_number(&action.to_string())),
            }
        }
        Ok(state)
    }

    /// The game as a game record (PDN for checkers; see [`perfectplay_core::record`]): its
    /// start, every whole move (a half-made turn is left out) and `result` (`None`: the
    /// game's own, `*` while it goes on), after `tags`.
    pub fn write_record(&self, tags: &[(String, String)], result: Option<RecordResult>) -> String {
        perfectplay_core::record::write_record(self.inner.state(), tags, result)
    }

    /// The games of a game record `text` (several may follow one another), each replayed from
    /// its start, with its tags and result. A forfeited turn (`--`) is replayed as one.
    pub fn read_records(
        id: &'static str,
        game: F,
        text: &str,
    ) -> std::result::Result<Vec<(Tags, Self, RecordResult)>, RecordError> {
        let records = perfectplay_core::record::read_records(&game, text)?;
        Ok(records
            .into_iter()
            .map(|r| {
                // A State's record and equality are its whole history.
                debug_assert_eq!(r.state.history(), History::Full);
                let state = State {
                    id,
                    inner: ActionState::from_state(r.state),
                    turn: Vec::new(),
                };
                (r.tags, state, r.result)
            })
            .collect())
    }

    /// The record that rebuilds this game.
    pub fn record(&self) -> Record {
        let (origin, no_progress) = self.inner.state().origin();
        Record {
            origin: self.game().write_position(origin, no_progress),
            moves: self
                .inner
                .state()
                .moves()
                .map(|mv| mv.map_or_else(|| FORFEIT.to_owned(), |mv| mv.to_string()))
                .collect(),
            actions: self.turn.iter().map(|&(_, action)| action).collect(),
        }
    }

    /// The game.
    pub fn game(&self) -> &F {
        self.inner.game()
    }

    /// The position at the start of the turn being made.
    pub fn position(&self) -> &F::Position {
        self.inner.position()
    }

    /// The legal moves (whole turns) of the position; none once the game is over.
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        let mut moves = Vec::new();
        if self.inner.outcome().is_none() {
            self.game()
                .for_each_move(self.inner.position(), |mv| moves.push(F::wrap_move(*mv)));
        }
        moves
    }

    fn ensure_turn_start(&self) -> Result<()> {
        if self.turn.is_empty() {
            return Ok(());
        }
        let actions: Vec<String> = self.turn.iter().map(|(_, a)| a.to_string()).collect();
        Err(Error::MidTurn {
            actions: actions.join(", "),
        })
    }

    fn ensure_going_on(&self) -> Result<()> {
        match self.inner.outcome() {
            Some(outcome) => Err(PlayError::GameOver(outcome).into()),
            None => Ok(()),
        }
    }

    /// Plays a whole move; an illegal one changes nothing.
    pub fn apply_move(&mut self, mv: &AnyMove) -> Result<()> {
        self.ensure_turn_start()?;
        let Some(mv) = F::unwrap_move(mv) else {
            return Err(Error::WrongFamily {
                mv: mv.to_string(),
                family: mv.family(),
                game: self.id,
            });
        };
        self.ensure_going_on()?;
        if !self.inner.state().is_legal(&mv) {
            return Err(PlayError::Illegal { mv: mv.to_string() }.into());
        }
        self.inner.play(&mv);
        Ok(())
    }

    /// Passes the turn without a move, as a player out of time forfeits it (the rule sheets'
    /// time limit; a game record writes it `--`). Refused in the middle of a turn and once
    /// the game is over. It counts as a ply without progress.
    pub fn forfeit_turn(&mut self) -> Result<()> {
        self.ensure_turn_start()?;
        self.inner.forfeit_turn()?;
        Ok(())
    }

    /// Plays the move written `text` in standard notation.
    pub fn apply_text(&mut self, text: &str) -> Result<()> {
        self.ensure_turn_start()?;
        self.ensure_going_on()?;
        let mv = self
            .game()
            .parse_move(self.inner.position(), text)
            .map_err(Into::into)?;
        self.inner.play(&mv);
        Ok(())
    }

    /// The position string (of the position at the start of the turn being made).
    pub fn fen(&self) -> String {
        self.game().write_position(
            self.inner.position(),
            self.inner.state().no_progress_plies(),
        )
    }

    /// The ASCII drawing.
    pub fn diagram(&self) -> String {
        self.game().diagram(self.inner.position())
    }

    /// The SVG drawing.
    pub fn svg(&self) -> String {
        self.game().svg(self.inner.position())
    }

    /// The player the rules have to move (0 moved first), the game over or not: the side
    /// [`State::write_observation`] sees the board from.
    pub fn player_to_move(&self) -> i32 {
        self.game().player_to_move(self.inner.position()).index() as i32
    }

    /// The player to move (0 moved first), or [`TERMINAL_PLAYER`] once the game is over.
    pub fn current_player(&self) -> i32 {
        if self.inner.outcome().is_some() {
            TERMINAL_PLAYER
        } else {
            self.game().player_to_move(self.inner.position()).index() as i32
        }
    }

    /// Whether the game is over (decided, drawn or truncated).
    pub fn is_terminal(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// Both players' returns.
    pub fn returns(&self) -> [f32; 2] {
        returns(self.game(), self.inner.outcome().as_ref())
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.inner.outcome().map(|o| ending(self.game(), &o))
    }

    /// The legal actions now; none once the game is over.
    pub fn legal_actions(&mut self) -> ActionSet {
        *self.inner.steps().set()
    }

    fn refuse(&mut self, action: i64) -> Error {
        match usize::try_from(action) {
            Ok(a) if self.inner.outcome().is_none() => {
                let legal = self.legal_actions().iter().collect();
                perfectplay_core::IllegalActionError {
                    action: a,
                    text: self.action_to_string(a),
                    legal,
                }
                .into()
            }
            _ => self.refuse_number(&action.to_string()),
        }
    }

    /// The error for action `given`, an integer outside the action space written as its
    /// caller received it (a front's integers may be wider than any action number), or any
    /// action once the game is over.
    pub fn refuse_number(&mut self, given: &str) -> Error {
        if let Some(outcome) = self.inner.outcome() {
            return Error::ActionAfterEnd {
                action: given.to_owned(),
                outcome,
            };
        }
        Error::ActionOutOfRange {
            action: given.to_owned(),
            count: self.game().action_count(),
            legal: self.legal_actions().iter().collect(),
        }
    }

    /// Applies one action: a step of the turn, or its last action, which plays the move. An
    /// illegal action changes nothing.
    pub fn apply_action(&mut self, action: i64) -> Result<()> {
        let (stage, ply) = (*self.inner.stage(), self.inner.state().ply());
        match usize::try_from(action) {
            Ok(a) if self.inner.act(a) => {
                if self.inner.state().ply() == ply {
                    self.turn.push((stage, a));
                } else {
                    self.turn.clear();
                }
                Ok(())
            }
            _ => Err(self.refuse(action)),
        }
    }

    /// What `action` means now, e.g. `11-15`, `15x24` or `d6`.
    pub fn action_to_string(&self, action: usize) -> String {
        self.game()
            .action_to_string(self.inner.position(), self.inner.stage(), action)
    }

    /// The actions that play `mv` from the start of a turn.
    /// A move that is not legal at the start of the turn (or of another family) is refused: its
    /// actions would mean something else here.
    pub fn move_actions(&self, mv: &AnyMove) -> Result<Vec<usize>> {
        let Some(mv) = F::unwrap_move(mv) else {
            return Err(Error::WrongFamily {
                mv: mv.to_string(),
                family: mv.family(),
                game: self.id,
            });
        };
        self.ensure_going_on()?;
        if !self.inner.state().is_legal(&mv) {
            return Err(PlayError::Illegal { mv: mv.to_string() }.into());
        }
        Ok(self.game().turn_actions(self.inner.position(), &mv))
    }

    /// Writes the observation, seen from the player to move.
    pub fn write_observation(&self, out: &mut [f32]) {
        self.game()
            .write_observation(self.inner.position(), self.inner.stage(), out);
    }

    /// Takes back the last action of a half-made turn (`None`), or else the last ply: the
    /// move played (`None` for a forfeited turn).
    pub fn undo(&mut self) -> Result<Option<AnyMove>> {
        if let Some((stage, _)) = self.turn.pop() {
            self.inner.set_stage(stage);
            return Ok(None);
        }
        match self.inner.undo() {
            Some(mv) => Ok(mv.map(F::wrap_move)),
            None => Err(Error::NothingToUndo),
        }
    }

    /// The plies played, in order: each move, or `None` for a forfeited turn.
    pub fn history(&self) -> Vec<Option<AnyMove>> {
        self.inner
            .state()
            .moves()
            .map(|mv| mv.map(F::wrap_move))
            .collect()
    }

    /// The plies played so far, forfeited turns included.
    pub fn ply(&self) -> u32 {
        self.inner.state().ply()
    }

    /// Whether a turn is half made with `apply_action`.
    pub fn is_mid_turn(&self) -> bool {
        !self.turn.is_empty()
    }

    /// Perft of the position (at the start of the turn) to `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        perft(self.game(), self.inner.position(), depth)
    }

    /// [`State::perft`] that gives up (`None`) soon after `stop` is set.
    pub fn perft_until(&self, depth: u32, stop: &std::sync::atomic::AtomicBool) -> Option<u64> {
        perfectplay_core::perft_until(self.game(), self.inner.position(), depth, stop)
    }

    /// Checks the history rules and the action table against the core (see
    /// [`ActionState::check_history`]).
    pub fn check(&self) -> Result<(), String> {
        self.inner.check_history()
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::SplitMix64;

    use super::*;
    use perfectplay_core::registry::{game_ids, AnyGame};
    use perfectplay_core::with_family;

    /// Plays `plies` random actions (or, `by_moves`, whole moves) from `state`, checking it
    /// against the core ([`State::check`]: history rules, legal actions, each action's step)
    /// after every one; returns the state where it stopped.
    fn play_checked<F: Family>(
        mut state: State<F>,
        rng: &mut SplitMix64,
        plies: usize,
        by_moves: bool,
    ) -> State<F> {
        for _ in 0..plies {
            state.check().unwrap();
            if state.is_terminal() {
                break;
            }
            if by_moves {
                let moves = state.legal_moves();
                let mv = moves[rng.below(moves.len()).unwrap()];
                state.apply_move(&mv).unwrap();
            } else {
                let legal = state.legal_actions();
                let action = legal.nth(rng.below(legal.len()).unwrap()).unwrap();
                state.apply_action(action as i64).unwrap();
            }
        }
        state.check().unwrap();
        state
    }

    /// Random games of `game`: by actions, then undone half-way, then by whole moves from the
    /// position string where they stopped, agree with the core at every step.
    fn agrees_with_the_core<F: Family>(id: &'static str, game: F) {
        for seed in 0..3 {
            let mut rng = SplitMix64::new(seed);
            let mut state = play_checked(State::new(id, game), &mut rng, 400, false);
            while state.ply() > 150 {
                state.undo().unwrap();
                state.check().unwrap();
            }
            let again = State::from_fen(id, game, &state.fen()).unwrap();
            play_checked(again, &mut rng, 200, true);
        }
    }

    #[test]
    fn states_agree_with_the_core_in_every_game() {
        for id in game_ids(false) {
            let options = [("ply_limit".to_owned(), "300".to_owned())];
            let (id, game) = AnyGame::load(id, &options).unwrap();
            let id = id.name();
            with_family!(AnyGame, game, g => agrees_with_the_core(id, g));
        }
    }

    #[test]
    fn a_record_rebuilds_the_game_mid_turn() {
        let (id, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let id = id.name();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        let mut rng = SplitMix64::new(7);
        let mut state = play_checked(State::new(id, game), &mut rng, 60, false);
        // Play on to a turn that takes two actions (a mill's removal), stopping half-way.
        while !state.is_terminal() && !state.is_mid_turn() {
            let legal = state.legal_actions();
            let action = legal.nth(rng.below(legal.len()).unwrap()).unwrap();
            state.apply_action(action as i64).unwrap();
        }
        let record = state.record();
        let rebuilt = State::from_record(id, game, &record).unwrap();
        assert_eq!(rebuilt.record(), record);
        assert_eq!(rebuilt.fen(), state.fen());
        assert_eq!(rebuilt.history(), state.history());
        rebuilt.check().unwrap();
    }

    fn nine_mens_morris() -> (&'static str, perfectplay_core::morris::Morris) {
        let (id, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        (id.name(), game)
    }

    /// Whether the legal actions `state` keeps are those of its position as a new state finds
    /// them ([`State::check`] rebuilds them from scratch rather than reading what is kept).
    fn fresh_actions<F: Family>(state: &mut State<F>) -> bool {
        let mut new = State::from_fen(state.id, *state.game(), &state.fen()).unwrap();
        new.legal_actions() == state.legal_actions()
    }

    #[test]
    fn a_forfeited_turn_is_a_ply_of_the_history_that_records_keep() {
        let (id, game) = nine_mens_morris();
        let mut state = State::new(id, game);
        state.apply_text("d6").unwrap();
        state.forfeit_turn().unwrap();
        assert!(fresh_actions(&mut state));
        state.apply_text("d7").unwrap();
        assert_eq!(state.ply(), 3);
        assert_eq!(state.history()[1], None);
        state.check().unwrap();

        // Pickling's record, and a game record, both bring the forfeit back.
        let record = state.record();
        assert_eq!(record.moves, ["d6", FORFEIT, "d7"]);
        let rebuilt = State::from_record(id, game, &record).unwrap();
        assert_eq!(
            (rebuilt.fen(), rebuilt.history()),
            (state.fen(), state.history())
        );
        let text = state.write_record(&[], None);
        let read = State::read_records(id, game, &text).unwrap();
        let [(_, read, _)] = &read[..] else {
            panic!("one game in {text}")
        };
        assert_eq!((read.fen(), read.history()), (state.fen(), state.history()));
        read.check().unwrap();

        let mut read = read.clone();
        assert!(fresh_actions(&mut read));

        // Undo takes the forfeit back as a ply without a move.
        assert!(state.undo().unwrap().is_some());
        assert_eq!(state.undo().unwrap(), None);
        assert_eq!(state.ply(), 1);
        state.check().unwrap();
    }

    #[test]
    fn a_forfeit_hands_the_other_side_its_own_actions() {
        let (id, game) = AnyGame::load("checkers", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Checkers(game) = game else {
            unreachable!()
        };
        let mut state = State::new(id.name(), game);
        let black = state.legal_actions();
        state.forfeit_turn().unwrap();
        assert_eq!(state.current_player(), 1);
        assert!(state.legal_actions() != black);
        assert!(fresh_actions(&mut state));
        state.check().unwrap();
    }

    #[test]
    fn a_turn_is_not_forfeited_half_made_or_after_the_end() {
        let (id, game) = nine_mens_morris();
        let mut state = State::new(id, game);
        for text in ["a1", "g7", "a4", "g4"] {
            state.apply_text(text).unwrap();
        }
        // a7 closes the mill a1-a4-a7: the turn waits for its removal.
        let a7 = (0..game.action_count())
            .find(|&a| state.action_to_string(a) == "a7")
            .unwrap();
        state.apply_action(a7 as i64).unwrap();
        assert!(state.is_mid_turn());
        let before = state.record();
        assert!(matches!(state.forfeit_turn(), Err(Error::MidTurn { .. })));
        assert_eq!(state.record(), before);

        // Both sides forfeiting in turn repeat the start three times: a draw.
        let mut state = State::new(id, game);
        while !state.is_terminal() {
            state.forfeit_turn().unwrap();
        }
        assert_eq!(state.ending().unwrap().reason, "repetition");
        assert!(matches!(
            state.forfeit_turn(),
            Err(Error::Play(PlayError::GameOver(_)))
        ));
    }
}
