//! `Track`: a game in progress as States and envs play it, action by action.
//!
//! It applies the same history rules as [`perfectplay_core::GameState`], in the same order (the
//! position's own outcome, then repetition within the plies since the last progress move, the
//! move rule, the ply limit with adjudication), but plays the moves its own action table
//! ([`Steps`]) has already found legal, where `GameState::play` would look for each move among
//! the legal ones again. [`Track::check_history`] replays a track through a `GameState` and
//! compares the two; the test suite runs it along random games of every game.

use perfectplay_core::{ActionStep, EndReason, GameState, Outcome};

use crate::games::Family;
use crate::steps::{self, Steps};

/// What undo restores of an earlier ply.
#[derive(Clone, Debug)]
struct Undo<F: Family> {
    pos: F::Position,
    no_progress: u32,
    outcome: Option<Outcome>,
    mv: F::Move,
}

/// The word and bit of `key` (a position's [`Family::identity`]) in a [`Track`]'s filter of
/// 256 bits.
#[inline]
fn filter_bit(key: u128) -> (usize, u64) {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let index = (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
    (index / 64, 1 << (index % 64))
}

/// A game in progress: position, stage within the turn, history and legal actions.
#[derive(Clone, Debug)]
pub struct Track<F: Family> {
    game: F,
    /// Where the game started (a position string may start it anywhere), for
    /// [`Track::check_history`].
    origin: (F::Position, u32),
    pos: F::Position,
    stage: F::Stage,
    no_progress: u32,
    ply: u32,
    outcome: Option<Outcome>,
    /// The identity of `pos` ([`Family::identity`]), worked out once per position: the
    /// repetition test asks for it, and so does the next move's history.
    key: u128,
    /// The identities of the earlier plies' positions ([`Family::identity`]): all of them when
    /// `keep_history`, else those from the last progress move's on (all that repetition needs).
    keys: Vec<u128>,
    /// Each earlier ply, for undo: kept only when `keep_history` (an env plays on and never
    /// takes back, and writing a whole record per ply cost it a tenth of its step).
    undo: Vec<Undo<F>>,
    /// A filter of the identities of the positions since the last progress move (a
    /// superset: each sets one bit of 256), so that most positions skip the repetition scan.
    seen: [u64; 4],
    keep_history: bool,
    /// The legal actions now, when `fresh`.
    steps: Steps,
    fresh: bool,
}

impl<F: Family> Track<F> {
    /// A game from `pos`, reached after `no_progress` plies without progress.
    pub fn new(game: F, pos: F::Position, no_progress: u32, keep_history: bool) -> Self {
        let mut track = Track {
            game,
            origin: (pos, no_progress),
            pos,
            stage: F::Stage::default(),
            no_progress,
            ply: 0,
            outcome: None,
            // Set by `settle`, below.
            key: 0,
            keys: Vec::new(),
            undo: Vec::new(),
            seen: [0; 4],
            keep_history,
            steps: Steps::default(),
            fresh: false,
        };
        track.settle();
        track
    }

    /// Starts again from the game's starting position, keeping the allocations.
    pub fn restart(&mut self) {
        self.restart_at(self.game.start_position());
    }

    /// Starts a new game from `pos`, keeping the allocations.
    pub fn restart_at(&mut self, pos: F::Position) {
        self.pos = pos;
        self.origin = (self.pos, 0);
        self.stage = F::Stage::default();
        self.no_progress = 0;
        self.ply = 0;
        self.keys.clear();
        self.undo.clear();
        self.seen = [0; 4];
        self.settle();
    }

    /// The game.
    pub fn game(&self) -> &F {
        &self.game
    }

    /// Where the game started and the plies without progress it had then.
    pub fn origin(&self) -> (&F::Position, u32) {
        (&self.origin.0, self.origin.1)
    }

    /// The position (at the start of the turn being made).
    pub fn position(&self) -> &F::Position {
        &self.pos
    }

    /// Where the player to move is within the turn.
    pub fn stage(&self) -> &F::Stage {
        &self.stage
    }

    /// Plies without progress.
    pub fn no_progress(&self) -> u32 {
        self.no_progress
    }

    /// Whole moves played.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal actions now (the chosen one's step is worked out when it is played);
    /// none once the game is over.
    pub fn steps(&mut self) -> &Steps {
        if !self.fresh {
            if self.outcome.is_some() {
                self.steps.clear();
            } else {
                self.steps.fill(&self.game, &self.pos, &self.stage);
            }
            self.fresh = true;
        }
        &self.steps
    }

    /// The legal actions, computed already (envs keep them fresh).
    pub fn fresh_steps(&self) -> &Steps {
        debug_assert!(self.fresh);
        &self.steps
    }

    /// The outcome of the position at the start of a turn, and its legal actions. The
    /// position's own outcome comes first; a position with a legal action has none (a
    /// position over by itself has no moves), so it is asked for only when none is legal.
    #[inline]
    fn settle(&mut self) {
        self.key = F::identity(&self.pos);
        self.steps.fill(&self.game, &self.pos, &self.stage);
        self.outcome = if self.steps.is_empty() {
            self.game.outcome(&self.pos).or_else(|| self.draw())
        } else {
            self.draw()
        };
        if self.outcome.is_some() {
            self.steps.clear();
        }
        self.fresh = true;
    }

    /// The outcome under the history rules: repetition, the move rule, the ply limit.
    #[inline]
    fn draw(&self) -> Option<Outcome> {
        let rules = self.game.draw_rules();
        if let Some(n) = rules.repetitions {
            // Only positions since the last progress move can equal this one.
            let window = (self.no_progress as usize).min(self.keys.len());
            let key = self.key;
            debug_assert_eq!(key, F::identity(&self.pos), "the cached identity is stale");
            let (word, bit) = filter_bit(key);
            // Within the plies since the last progress move the sides alternate (a side moves
            // twice running only in Shah's placement phase, by placements, which are progress;
            // `play` checks it), so only the positions 2, 4, ... plies back can be this one.
            // A plain loop: envs run this after every move, and iterator adapters (rev, skip,
            // step_by, filter) cost more than the comparisons on these short windows.
            let recent = &self.keys[self.keys.len() - window..];
            let mut seen = 1;
            let mut i = if self.seen[word] & bit != 0 {
                recent.len()
            } else {
                0
            };
            while i >= 2 {
                i -= 2;
                seen += usize::from(recent[i] == key);
            }
            if seen >= usize::from(n) {
                return Some(Outcome::draw(EndReason::Repetition));
            }
        }
        if let Some(limit) = rules.no_progress_plies {
            if self.no_progress >= limit {
                return Some(Outcome::draw(EndReason::MoveRule));
            }
        }
        if let Some(limit) = rules.ply_limit {
            if self.ply >= limit {
                return Some(
                    self.game
                        .adjudicate(&self.pos)
                        .unwrap_or(Outcome::draw(EndReason::PlyLimit)),
                );
            }
        }
        None
    }

    /// Plays `mv`, which must be legal (found by the action table or checked by the caller).
    #[inline]
    pub fn play(&mut self, mv: &F::Move) {
        let progress = self.game.is_progress(&self.pos, mv);
        let key = self.key;
        debug_assert_eq!(key, F::identity(&self.pos), "the cached identity is stale");
        if progress {
            // No earlier position can repeat.
            self.seen = [0; 4];
            if !self.keep_history {
                self.keys.clear();
            }
        } else {
            let (word, bit) = filter_bit(key);
            self.seen[word] |= bit;
        }
        self.keys.push(key);
        if self.keep_history {
            self.undo.push(Undo {
                pos: self.pos,
                no_progress: self.no_progress,
                outcome: self.outcome,
                mv: *mv,
            });
        }
        let mover = self.game.player_to_move(&self.pos);
        self.game.play_in_place(&mut self.pos, mv);
        debug_assert!(
            progress || self.game.player_to_move(&self.pos) != mover,
            "a side moved twice running without progress: repetition assumes the sides alternate"
        );
        self.no_progress = if progress { 0 } else { self.no_progress + 1 };
        self.ply += 1;
        self.stage = F::Stage::default();
        self.settle();
    }

    /// Applies `action` if it is legal now: the next stage of the turn, or the whole move.
    /// Returns whether it was legal; an illegal action changes nothing.
    #[inline(always)]
    pub fn act(&mut self, action: usize) -> bool {
        self.steps();
        let Some(step) = self.steps.get(&self.game, &self.pos, &self.stage, action) else {
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

    /// Takes back the last whole move; `None` at the start of the history.
    pub fn undo(&mut self) -> Option<F::Move> {
        let last = self.undo.pop()?;
        self.keys.pop();
        self.pos = last.pos;
        self.key = F::identity(&self.pos);
        self.no_progress = last.no_progress;
        self.outcome = last.outcome;
        self.ply -= 1;
        self.stage = F::Stage::default();
        self.fresh = false;
        // Undoing a progress move brings its earlier positions back into the window.
        let window = (self.no_progress as usize).min(self.keys.len());
        self.seen = [0; 4];
        for &key in &self.keys[self.keys.len() - window..] {
            let (word, bit) = filter_bit(key);
            self.seen[word] |= bit;
        }
        Some(last.mv)
    }

    /// Whether `mv` is among the legal moves now.
    pub fn is_legal(&self, mv: &F::Move) -> bool {
        let mut legal = false;
        if self.outcome.is_none() {
            self.game.for_each_move(&self.pos, |m| legal |= m == mv);
        }
        legal
    }

    /// The moves played, in order (none when the track does not keep its history).
    pub fn moves(&self) -> impl Iterator<Item = F::Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    /// Replays the moves through the core's [`GameState`] from where the track started and
    /// compares position, counters and outcome; also checks the action table of the current
    /// position and stage against the core. Returns the first difference.
    pub fn check_history(&self) -> Result<(), String> {
        let (start, no_progress) = self.origin;
        let mut state = GameState::from_position_after(self.game, start, no_progress);
        for mv in self.moves() {
            state
                .play(&mv)
                .map_err(|e| format!("replaying {mv}: {e}"))?;
        }
        let ours = (self.pos, self.no_progress, self.ply, self.outcome);
        let core = (
            *state.position(),
            state.no_progress_plies(),
            state.ply(),
            state.outcome(),
        );
        if ours != core {
            return Err(format!("track {ours:?}, GameState {core:?}"));
        }
        if self.outcome.is_none() {
            steps::check(&self.game, &self.pos, &self.stage)?;
        }
        Ok(())
    }
}
