//! The players of `perfectplay play`: a seeded random mover, a human at the console, and the
//! perfect player, which plays a best move from endgame tables.

use std::io::Write;
use std::rc::Rc;

use clap::ValueEnum;
use perfectplay_core::{Color, GameState};
use perfectplay_solver::{Tablebase, Tabled};

use perfectplay_core::SplitMix64;

use crate::choice::Choice;
use crate::cli_game::CliGame;
use crate::console::{Console, MoveValues};
use crate::errors::CliError;
use crate::moves;

/// The tables of a game, shared by both sides and the console.
pub(crate) type Tables<G> = Rc<Tablebase<<G as Tabled>::Domain>>;

/// Who plays a side, as chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlayerKind {
    /// Picks a legal move uniformly at random, from the seed.
    Random,
    /// Types moves on standard input.
    Human,
    /// Plays a best move from the tables given with `--db` (the quickest win, else a draw,
    /// else the slowest loss), uniformly among equally good ones, from the seed.
    Perfect,
}

impl PlayerKind {
    /// The kind as written on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Human => "human",
            PlayerKind::Perfect => "perfect",
        }
    }
}

/// A player with its state: the random and perfect players' generators, the perfect
/// player's tables.
pub(crate) enum Player<G: CliGame> {
    /// Uniform random legal moves from its own generator.
    Random(SplitMix64),
    /// Moves typed at the console.
    Human,
    /// Best moves from the tables, ties broken by its own generator.
    Perfect(Tables<G>, SplitMix64),
}

impl<G: CliGame> Player<G> {
    /// A player of `kind` for `color`; random and perfect players draw from stream `color` of
    /// `seed`. A perfect player needs `tables`.
    pub(crate) fn new(
        kind: PlayerKind,
        seed: u64,
        color: Color,
        tables: Option<&Tables<G>>,
    ) -> Result<Player<G>, CliError> {
        let rng = SplitMix64::stream(seed, color.index() as u64);
        Ok(match kind {
            PlayerKind::Random => Player::Random(rng),
            PlayerKind::Human => Player::Human,
            PlayerKind::Perfect => {
                let tables = tables.ok_or_else(|| {
                    CliError::PerfectPlayer(format!(
                        "--{} perfect plays from endgame tables: give them with --db DIR",
                        color
                    ))
                })?;
                Player::Perfect(Rc::clone(tables), rng)
            }
        })
    }

    /// The player's choice in `state`, a game that is not over. Random players answer at once,
    /// picking from the moves in canonical order so that a seed always gives the same game;
    /// perfect players pick the same way among the best moves; humans are asked at the
    /// console, with `talk` for prompts and messages (and `tables`, if any, for the `values`
    /// command).
    pub(crate) fn choose(
        &mut self,
        state: &GameState<G>,
        console: &mut Console,
        tables: Option<&Tables<G>>,
        talk: &mut dyn Write,
    ) -> Result<Choice<G::Move>, CliError> {
        match self {
            Player::Random(rng) => {
                let legal = moves::sorted::<G>(&state.legal_moves());
                rng.pick(&legal)
                    .map(|&mv| Choice::Move(mv))
                    .ok_or(CliError::NoLegalMove)
            }
            Player::Perfect(tables, rng) => {
                let mut best = tables.best_moves(state.position())?;
                G::sort_moves(&mut best, |m| &m.mv);
                rng.pick(&best)
                    .map(|m| Choice::Move(m.mv))
                    .ok_or(CliError::NoLegalMove)
            }
            Player::Human => {
                let values = tables
                    .map(|tb| move |pos: &G::Position| -> String { move_values::<G>(tb, pos) });
                console.first_move_made(state.ply() > 0);
                Ok(console.read_move(
                    state.game(),
                    state.position(),
                    values.as_ref().map(|f| f as &MoveValues<'_, G>),
                    talk,
                )?)
            }
        }
    }
}

/// Every legal move of `pos` with its value from the tables, best first, as the console's
/// `values` command prints it; the error, if the tables cannot say.
pub(crate) fn move_values<G: CliGame>(tables: &Tablebase<G::Domain>, pos: &G::Position) -> String {
    match tables.move_values(pos) {
        Ok(values) => {
            let listed: Vec<String> = values
                .iter()
                .map(|m| format!("{} ({})", m.mv, m.value))
                .collect();
            format!("move values: {}", listed.join(", "))
        }
        Err(e) => format!("no values here: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::Morris;

    use super::*;

    #[test]
    fn random_players_repeat_with_the_seed() {
        let state = GameState::new(Checkers::default());
        let mut console = Console::new(None);
        let mut pick = |seed| {
            let mut player =
                Player::<Checkers>::new(PlayerKind::Random, seed, Color::Black, None).unwrap();
            (0..8)
                .map(|_| {
                    player
                        .choose(&state, &mut console, None, &mut Vec::new())
                        .unwrap()
                })
                .collect::<Vec<_>>()
        };
        let first = pick(5);
        assert_eq!(first, pick(5));
        assert!(first
            .iter()
            .all(|c| matches!(c, Choice::Move(mv) if !mv.is_capture())));
    }

    #[test]
    fn random_morris_players_place_men() {
        let state = GameState::new(Morris::preset("morabaraba").unwrap());
        let mut player = Player::<Morris>::new(PlayerKind::Random, 3, Color::White, None).unwrap();
        let choice = player
            .choose(&state, &mut Console::new(None), None, &mut Vec::new())
            .unwrap();
        assert!(
            matches!(choice, Choice::Move(mv) if mv.to().is_some() && mv.from().is_none()),
            "{choice:?}"
        );
    }

    #[test]
    fn kinds_read_as_typed() {
        assert_eq!(PlayerKind::Human.name(), "human");
        assert_eq!(PlayerKind::Random.name(), "random");
        assert_eq!(PlayerKind::Perfect.name(), "perfect");
    }
}
