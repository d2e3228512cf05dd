//! `ActionState`: a game in progress as States and envs play it, action by action: the core's
//! [`GameState`] (position, history and the ending rules), the stage within the turn being
//! made, and the legal actions there ([`Steps`]), kept up to date after every action so that
//! checking a batch of actions and sampling are cheap.
//!
//! The moves it plays are found legal by the action table, so it plays them with
//! [`GameState::play_legal`], telling the state whether the new position has a legal action
//! (the table is filled there at once) rather than having it generate the moves again.

use perfectplay_core::{ActionStep, GameState, History, Outcome, PlayError};

use crate::games::Family;
use crate::steps::{self, Steps};

/// A game in progress: the game state, the stage within the turn, and the legal actions.
#[derive(Clone, Debug)]
pub struct ActionState<F: Family> {
    state: GameState<F>,
    stage: F::Stage,
    /// The legal actions now, when `fresh`.
    steps: Steps,
    fresh: bool,
}

impl<F: Family> ActionState<F> {
    /// A game from `pos`, reached after `no_progress` plies without progress, keeping
    /// `history` of its past.
    pub fn new(game: F, pos: F::Position, no_progress: u32, history: History) -> Self {
        ActionState::from_state(
            GameState::from_position_after(game, pos, no_progress).keeping(history),
        )
    }

    /// A game already under way, taken over with its history (a game record's replay); a
    /// [`crate::state::State`] needs one that keeps [`History::Full`].
    pub fn from_state(state: GameState<F>) -> Self {
        let mut state = ActionState {
            state,
            stage: F::Stage::default(),
            steps: Steps::default(),
            fresh: false,
        };
        state.refill();
        state
    }

    /// Starts again from the game's starting position, keeping the allocations.
    pub fn restart(&mut self) {
        self.restart_at(self.game().start_position());
    }

    /// Starts a new game from `pos`, keeping the allocations.
    pub fn restart_at(&mut self, pos: F::Position) {
        let ActionState { state, steps, .. } = self;
        self.stage = F::Stage::default();
        let game = *state.game();
        state.restart_at(pos, |pos| fill(steps, &game, pos));
        self.settled();
    }

    /// The game state: position, history, outcome.
    pub fn state(&self) -> &GameState<F> {
        &self.state
    }

    /// The game.
    pub fn game(&self) -> &F {
        self.state.game()
    }

    /// The position (at the start of the turn being made).
    pub fn position(&self) -> &F::Position {
        self.state.position()
    }

    /// Where the player to move is within the turn.
    pub fn stage(&self) -> &F::Stage {
        &self.stage
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// The legal actions now (the chosen one's step is worked out when it is played); none
    /// once the game is over.
    pub fn steps(&mut self) -> &Steps {
        if !self.fresh {
            self.refill();
        }
        &self.steps
    }

    /// The legal actions, computed already (envs keep them fresh).
    pub fn fresh_steps(&self) -> &Steps {
        debug_assert!(self.fresh);
        &self.steps
    }

    /// Fills the table for the current position and stage.
    fn refill(&mut self) {
        if self.state.is_over() {
            self.steps.clear();
        } else {
            self.steps
                .fill(self.state.game(), self.state.position(), &self.stage);
        }
        self.fresh = true;
    }

    /// After the state settled on a new position (with the table filled for its start):
    /// no actions once the game is over.
    #[inline]
    fn settled(&mut self) {
        if self.state.is_over() {
            self.steps.clear();
        }
        self.fresh = true;
    }

    /// Plays `mv`, which must be legal (found by the action table or checked by the caller).
    #[inline]
    pub fn play(&mut self, mv: &F::Move) {
        let ActionState { state, steps, .. } = self;
        self.stage = F::Stage::default();
        let game = *state.game();
        state.play_legal(mv, |pos| fill(steps, &game, pos));
        self.settled();
    }

    /// Passes the turn without a move (a player out of time forfeits it); the game must be
    /// going on.
    pub fn forfeit_turn(&mut self) -> Result<(), PlayError> {
        self.state.forfeit_turn()?;
        self.stage = F::Stage::default();
        self.refill();
        Ok(())
    }

    /// Applies `action` if it is legal now: the next stage of the turn, or the whole move.
    /// Returns whether it was legal; an illegal action changes nothing.
    #[inline(always)]
    pub fn act(&mut self, action: usize) -> bool {
        self.steps();
        let step = self.steps.get(
            self.state.game(),
            self.state.position(),
            &self.stage,
            action,
        );
        let Some(step) = step else {
            return false;
        };
        match step {
            ActionStep::Continue(next) => {
                self.stage = next;
                self.fresh = false;
                // Envs and States ask for the actions of the next stage at once.
                self.steps();
            }
            ActionStep::Done(mv) => self.play(&mv),
        }
        true
    }

    /// Goes back to `stage` within the current turn (taking back an action).
    pub fn set_stage(&mut self, stage: F::Stage) {
        self.stage = stage;
        self.fresh = false;
    }

    /// Takes back the last whole move; `None` at the start of the history (or a forfeited
    /// turn's `Some(None)`).
    pub fn undo(&mut self) -> Option<Option<F::Move>> {
        let last = self.state.undo()?;
        self.stage = F::Stage::default();
        self.fresh = false;
        Some(last)
    }

    /// With [`History::Full`] (the moves are needed): replays the moves through a fresh
    /// [`GameState`], checking each move's legality, from
    /// where the game started, and compares position, counters and outcome; also checks the
    /// action table of the current position and stage against the core. Returns the first
    /// difference.
    pub fn check_history(&self) -> Result<(), String> {
        let (start, no_progress) = self.state.origin();
        let mut replay = GameState::from_position_after(*self.game(), *start, no_progress);
        for mv in self.state.moves() {
            let played = match mv {
                Some(mv) => replay.play(&mv),
                None => replay.forfeit_turn(),
            };
            played.map_err(|e| format!("replaying {mv:?}: {e}"))?;
        }
        let ours = (
            *self.position(),
            self.state.no_progress_plies(),
            self.state.ply(),
            self.outcome(),
            self.state.repetitions(),
        );
        let fresh = (
            *replay.position(),
            replay.no_progress_plies(),
            replay.ply(),
            replay.outcome(),
            replay.repetitions(),
        );
        if ours != fresh {
            return Err(format!("played {ours:?}, replayed {fresh:?}"));
        }
        if self.outcome().is_none() {
            steps::check(self.game(), self.position(), &self.stage)?;
        }
        Ok(())
    }
}

/// Fills `steps` with the legal actions at the start of a turn in `pos`; whether there is one.
#[inline]
fn fill<F: Family>(steps: &mut Steps, game: &F, pos: &F::Position) -> bool {
    steps.fill(game, pos, &F::Stage::default());
    !steps.is_empty()
}
